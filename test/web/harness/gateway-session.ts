// Test harness for graph.html against the real gateway: the admin's token, a small uploaded dataset, GraphQL calls
// and browser sign-in.
import { tableFromArrays, tableToIPC } from "apache-arrow";
import type { Browser, BrowserContext, Page } from "playwright-core";

export const ADMIN = { username: "admin", password: "change-me-now" };

/** The admin's bearer header, from the token route. */
export async function bearer(base: string): Promise<Record<string, string>> {
  const login = await fetch(`${base}/api-token-auth/`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(ADMIN),
  });
  return { authorization: `Bearer ${((await login.json()) as { token: string }).token}` };
}

/** POSTs one GraphQL operation with the given headers; answers the parsed body. */
export async function graphql<T>(
  base: string,
  auth: Record<string, string>,
  query: string,
  variables: Record<string, unknown> = {},
): Promise<{ data?: T; errors?: { message: string }[] }> {
  const response = await fetch(`${base}/graphql`, {
    method: "POST",
    headers: { ...auth, "content-type": "application/json" },
    body: JSON.stringify({ query, variables }),
  });
  return (await response.json()) as { data?: T; errors?: { message: string }[] };
}

/** Creates the user and shares the dataset publicly, so that user may open the admin's sessions. */
export async function shareWith(base: string, datasetId: string, username: string, password: string): Promise<void> {
  const auth = await bearer(base);
  await graphql(base, auth, "mutation($i: CreateUserInput!) { createUser(input: $i) { id } }", { i: { username, password } });
  await fetch(`${base}/api/v2/share/link/`, {
    method: "POST",
    headers: { ...auth, "content-type": "application/json" },
    body: JSON.stringify({ obj_pk: datasetId, obj_type: "dataset", mode: "public", notify: false, invited_users: [], mode_action: "10" }),
  });
}

/** A fresh browser context signed in through the login page. */
export async function signIn(
  browser: Browser,
  base: string,
  username: string,
  password: string,
  viewport = { width: 1000, height: 700 },
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ viewport });
  const page = await context.newPage();
  await page.goto(`${base}/login`);
  await page.fill("#username", username);
  await page.fill("#password", password);
  await page.click("button[type=submit]");
  await page.waitForURL(`${base}/`);
  return { context, page };
}

/** A 30-node ring with string ids, a category color, sizes, literal edge colors and both kinds of field filter. */
export async function uploadDataset(base: string): Promise<string> {
  const auth = await bearer(base);
  const created = await fetch(`${base}/api/v2/upload/datasets/`, {
    method: "POST",
    headers: { ...auth, "content-type": "application/json" },
    body: JSON.stringify({
      name: "Gateway graph",
      metadata: {},
      node_encodings: {
        bindings: { node: "n", node_label: "label", node_color: "kind", node_size: "score" },
        complex: {
          default: {
            pointFieldInclusionEncoding: {
              graphType: "point",
              encodingType: "fieldinclusion",
              inclusion: { label: true, kind: true, score: true },
            },
          },
        },
      },
      edge_encodings: {
        bindings: { source: "s", destination: "d", edge_color: "ecolor" },
        complex: {
          default: { edgeFieldExclusionEncoding: { graphType: "edge", encodingType: "fieldexclusion", exclusion: { secret: true } } },
        },
      },
    }),
  });
  const id = ((await created.json()) as { data: { dataset_id: string } }).data.dataset_id;
  const ids = Array.from({ length: 30 }, (_, i) => `node-${i}`);
  const edges = tableFromArrays({
    s: ids,
    d: ids.map((_, i) => ids[(i + 1) % ids.length] ?? ""),
    ecolor: ids.map((_, i) => (i % 2 ? "#ff8800" : "#00aaff")),
    secret: ids.map((_, i) => `x${i}`),
  });
  const nodes = tableFromArrays({
    n: ids,
    label: ids.map((s) => s.toUpperCase()),
    kind: ids.map((_, i) => ["a", "b", "c"][i % 3] ?? "a"),
    score: Float64Array.from(ids, (_, i) => i),
    hidden: ids.map(() => "not listed"),
  });
  for (const [axis, table] of [
    ["edges", edges],
    ["nodes", nodes],
  ] as const) {
    const response = await fetch(`${base}/api/v2/upload/datasets/${id}/${axis}/arrow`, {
      method: "POST",
      headers: auth,
      body: Buffer.from(tableToIPC(table, "file")),
    });
    if (!response.ok) throw new Error(`${axis} upload answered ${response.status}`);
  }
  return id;
}
