// bench/viz --gateway: the real service lays the graph out. Starts the gateway (its own data folder), uploads a random
// graph with no layout, signs in and opens graph.html: the page starts the server's ForceAtlas2 and draws its frames.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { tableToIPC } from "apache-arrow";
import type { Browser, Page } from "playwright-core";
import { startServer } from "../test/helpers/server-process.ts";
import { ADMIN, bearer, graphql, signIn } from "../test/web/harness/gateway-session.ts";
import { randomGraphFixture } from "../test/web/harness/graph-fixture.ts";
import { buildGatewayPage } from "../test/web/harness/page-build.ts";

export type GatewayRun = { nodes: number; page: Page; stop(): Promise<void> };

/** The gateway serves web/dist: build the page there first (as `npm run build:web` does). */
export async function prepareGatewayPage(): Promise<void> {
  await buildGatewayPage();
}

export async function openOnGateway(browser: Browser, edges: number): Promise<GatewayRun> {
  const dataDir = mkdtempSync(join(tmpdir(), "bench-viz-"));
  const server = await startServer({
    DATA_DIR: dataDir,
    ADMIN_USERNAME: ADMIN.username,
    ADMIN_PASSWORD: ADMIN.password,
    COOKIE_SECURE: "false",
  });
  const stopServer = async () => {
    await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    const fixture = randomGraphFixture(edges, false);
    const auth = await bearer(server.url);
    const created = await fetch(`${server.url}/api/v2/upload/datasets/`, {
      method: "POST",
      headers: { ...auth, "content-type": "application/json" },
      body: JSON.stringify({
        name: fixture.name,
        metadata: {},
        node_encodings: { bindings: fixture.nodeBindings },
        edge_encodings: { bindings: fixture.edgeBindings },
      }),
    });
    const datasetId = ((await created.json()) as { data: { dataset_id: string } }).data.dataset_id;
    for (const [axis, table] of [
      ["edges", fixture.edges],
      ["nodes", fixture.nodes],
    ] as const) {
      const response = await fetch(`${server.url}/api/v2/upload/datasets/${datasetId}/${axis}/arrow`, {
        method: "POST",
        headers: auth,
        body: Buffer.from(tableToIPC(table, "file")),
      });
      if (!response.ok) throw new Error(`${axis} upload answered ${response.status}: ${await response.text()}`);
    }
    const { context, page } = await signIn(browser, server.url, ADMIN.username, ADMIN.password, { width: 1280, height: 800 });
    await page.goto(`${server.url}/graph/graph.html?dataset=${datasetId}`);
    return {
      nodes: fixture.nodes.numRows,
      page,
      async stop() {
        // The layout would run on: stop it, so the next size is measured on an idle machine.
        const session = new URL(page.url()).searchParams.get("session");
        if (session)
          await graphql(server.url, auth, "mutation($id: ID!) { controlSessionLayout(sessionId: $id, action: STOP) { state } }", {
            id: session,
          }).catch(() => undefined);
        await context.close();
        await stopServer();
      },
    };
  } catch (error) {
    await stopServer();
    throw error;
  }
}
