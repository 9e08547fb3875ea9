// The timebar against the real gateway: a dataset whose edges have a datetime column (uploaded as Arrow timestamps)
// shows the timebar; a window brushed by one viewer is the session's filter: another viewer hides the same edges, and
// /mcp get_session_info reports it.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { Table, TimestampMillisecond, tableFromArrays, tableToIPC, vectorFromArray } from "apache-arrow";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CHROMIUM, chromiumAvailable } from "./harness/browser.ts";
import { ADMIN, bearer, shareWith, signIn } from "./harness/gateway-session.ts";
import { type PageGateway, startPageGateway } from "./harness/page-gateway.ts";

const available = chromiumAvailable();
const title = available ? "the timebar on the gateway" : `the timebar on the gateway (skipped: no Chromium at ${CHROMIUM})`;
const START = Date.UTC(2024, 2, 1);
const HOUR = 3_600_000;

/** 40 nodes in a ring; each edge `at` a time over ten days. Answers the dataset's id and the edges' times. */
async function uploadTimeDataset(base: string): Promise<{ id: string; at: number[] }> {
  const auth = await bearer(base);
  const created = await fetch(`${base}/api/v2/upload/datasets/`, {
    method: "POST",
    headers: { ...auth, "content-type": "application/json" },
    body: JSON.stringify({
      name: "Timebar graph",
      metadata: {},
      node_encodings: { bindings: { node: "n", node_label: "label" } },
      edge_encodings: { bindings: { source: "s", destination: "d" } },
    }),
  });
  const id = ((await created.json()) as { data: { dataset_id: string } }).data.dataset_id;
  const ids = Array.from({ length: 40 }, (_, i) => `v${i}`);
  const at = ids.map((_, i) => START + ((i * 37) % 40) * 6 * HOUR + 60_000);
  const edges = new Table({
    s: vectorFromArray(ids),
    d: vectorFromArray(ids.map((_, i) => ids[(i + 1) % ids.length] ?? "")),
    at: vectorFromArray(
      at.map((ms) => new Date(ms)),
      new TimestampMillisecond(),
    ),
  });
  const nodes = tableFromArrays({ n: ids, label: ids.map((s) => s.toUpperCase()) });
  for (const [axis, table] of [
    ["edges", edges],
    ["nodes", nodes],
  ] as const) {
    const response = await fetch(`${base}/api/v2/upload/datasets/${id}/${axis}/arrow`, {
      method: "POST",
      headers: auth,
      body: Buffer.from(tableToIPC(table, "file")),
    });
    if (!response.ok) throw new Error(`${axis} upload answered ${response.status}: ${await response.text()}`);
  }
  return { id, at };
}

describe.skipIf(!available)(title, () => {
  let world: PageGateway | undefined;
  let dataset: { id: string; at: number[] };

  beforeAll(async () => {
    world = await startPageGateway("timebar-gateway");
    dataset = await uploadTimeDataset(world.server.url);
  }, 180_000);
  afterAll(async () => {
    await world?.close();
  });

  const soon = { timeout: 30_000, interval: 100 };
  const firstFrame = (page: Page) =>
    page.waitForFunction(() => performance.getEntriesByName("graph-first-frame").length > 0, null, { timeout: 60_000 });
  const attr = (page: Page, name: string) => page.evaluate((key) => document.documentElement.getAttribute(key), name);

  it("a brushed window is the session's filter: another viewer hides the same edges, get_session_info reports it", async () => {
    if (!world) throw new Error("no gateway");
    const { server, browser } = world;
    await shareWith(server.url, dataset.id, "carol", "carol-password");
    const owner = await signIn(browser, server.url, ADMIN.username, ADMIN.password, { width: 1100, height: 700 });
    await owner.page.goto(`${server.url}/graph/graph.html?dataset=${dataset.id}`);
    await firstFrame(owner.page);
    await expect.poll(() => owner.page.locator("#timebar").isVisible(), soon).toBe(true);
    expect(await owner.page.locator("#timebar-column").inputValue()).toBe("edges/at");
    await expect.poll(() => owner.page.locator("#timebar .bar").count(), soon).toBe(60);
    const sessionId = new URL(owner.page.url()).searchParams.get("session") ?? "";
    expect(sessionId).not.toBe("");
    const viewer = await signIn(browser, server.url, "carol", "carol-password");
    await viewer.page.goto(owner.page.url());
    await firstFrame(viewer.page);

    // The first 20 of 60 bins: edges at or after the window's end are hidden, no node.
    const box = await owner.page.locator("#timebar .timebar-bars").boundingBox();
    if (!box) throw new Error("no timebar bars");
    await owner.page.mouse.move(box.x + 2, box.y + box.height / 2);
    await owner.page.mouse.down();
    await owner.page.mouse.move(box.x + (box.width * 19.5) / 60, box.y + box.height / 2, { steps: 4 });
    await owner.page.mouse.up();
    await expect.poll(() => owner.page.locator("#timebar").getAttribute("data-max"), soon).not.toBe("");
    const max = Number(await owner.page.locator("#timebar").getAttribute("data-max"));
    const hidden = dataset.at.filter((ms) => ms > max).length;
    expect(hidden).toBeGreaterThan(0);
    expect(hidden).toBeLessThan(dataset.at.length);
    await expect.poll(() => attr(owner.page, "data-filter-hidden-edges"), soon).toBe(String(hidden));
    expect(await attr(owner.page, "data-filter-hidden-nodes")).toBe("0");
    await expect.poll(() => attr(viewer.page, "data-filter-hidden-edges"), soon).toBe(String(hidden));
    await expect.poll(() => viewer.page.locator("#timebar").getAttribute("data-max"), soon).toBe(String(max));

    const client = new Client({ name: "timebar-test", version: "1.0.0" });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), { requestInit: { headers: await bearer(server.url) } }),
    );
    try {
      const result = await client.callTool({ name: "get_session_info", arguments: { session_id: sessionId } });
      const text = (result.content as { text: string }[])[0]?.text ?? "";
      const min = Math.min(...dataset.at);
      expect(text).toContain(`filters: [{"axis":"edges","column":"at","kind":"range","min":${min},"max":${max}}]`);
    } finally {
      await client.close();
    }
    for (const each of [owner, viewer]) await each.context.close();
  }, 240_000);
});
