// Single-use login links (spec 5.6) in process, on SQLite and Postgres: issuing (admins only, clear errors), the
// stored hash, opening with /magic-login/, the session held to its one dataset, one use, expiry, the 7-day purge.
import { createHash } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config/config.ts";
import { PROVIDERS } from "../helpers/databases.ts";
import { csvEdgeDataset } from "../helpers/datasets.ts";
import { createTestGateway, type TestGateway } from "../helpers/gateway.ts";

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
const cookieOf = (response: Response) => /^(gw_session=[^;]+)/.exec(response.headers.get("set-cookie") ?? "")?.[1] ?? "";
const pathOf = (url: string) => {
  const parsed = new URL(url);
  return `${parsed.pathname}${parsed.search}`;
};

describe.each(PROVIDERS)("single-use links on %s", (provider) => {
  let gw: TestGateway;
  let admin = "";
  let tokens: Record<string, string> = {};
  let mine = "";
  let other = "";
  let own = "";

  beforeAll(async () => {
    gw = await createTestGateway(provider, { COOKIE_SECURE: "false" });
    admin = await gw.login();
    tokens = await gw.users("guest", "bob");
    mine = await csvEdgeDataset(gw, admin, "s,d\na,b\nb,c\n");
    other = await csvEdgeDataset(gw, admin, "s,d\nx,y\n");
    // Datasets the guest could open otherwise: a public one, and their own.
    const shared = await gw.json("/api/v2/share/link/", {
      method: "POST",
      headers: bearer(admin),
      json: { obj_pk: other, obj_type: "dataset", mode: "public", notify: false, invited_users: [], mode_action: "10" },
    });
    expect(shared.status).toBe(200);
    own = await csvEdgeDataset(gw, tokens.guest ?? "", "s,d\np,q\n");
  }, 60_000);
  afterAll(async () => {
    await gw?.close();
  });

  const generate = (query: string, token = admin) =>
    gw.json<Record<string, unknown>>(`/api/v2/generate/single-use-url/?${query}`, { headers: bearer(token) });
  async function link(username = "guest", datasetId = mine): Promise<string> {
    const answer = await generate(`username=${username}&dataset_id=${datasetId}`);
    expect(answer.status).toBe(200);
    return pathOf(String(answer.body.single_use_url));
  }

  it("answers an absolute /magic-login/ link carrying a 32-byte token, of which only the SHA-256 is stored", async () => {
    const answer = await generate(`username=guest&dataset_id=${mine}`);
    expect(answer.status).toBe(200);
    const url = new URL(String(answer.body.single_use_url));
    expect(url.origin).toBe("http://gateway.test");
    expect(url.pathname).toBe("/magic-login/");
    const token = url.searchParams.get("sst") ?? "";
    expect(Buffer.from(token, "base64url")).toHaveLength(32);
    const stored = await gw.gateway.services.db.singleUseLink.findMany();
    expect(stored.some((row) => row.id === token)).toBe(false);
    expect(stored.some((row) => row.id === createHash("sha256").update(token).digest("hex"))).toBe(true);
  });

  it("is refused to non-admins and without credentials, and says what is wrong with the parameters", async () => {
    expect((await generate(`username=guest&dataset_id=${mine}`, tokens.bob ?? "")).status).toBe(403);
    expect((await gw.json(`/api/v2/generate/single-use-url/?username=guest&dataset_id=${mine}`)).status).toBe(401);
    const missing = await generate(`dataset_id=${mine}`);
    expect(missing.status).toBe(400);
    expect(JSON.stringify(missing.body)).toContain("username");
    expect((await generate("username=guest")).status).toBe(400);
    expect((await generate(`username=nobody&dataset_id=${mine}`)).status).toBe(404);
    expect((await generate("username=guest&dataset_id=nope")).status).toBe(404);
  });

  it("signs the browser in to that one dataset: its page and data, no other dataset, no other operation", async () => {
    const opened = await gw.request(await link());
    expect(opened.status).toBe(303);
    expect(opened.headers.get("location")).toBe(`/graph/graph.html?dataset=${mine}`);
    expect(opened.headers.get("referrer-policy")).toBe("no-referrer");
    const cookie = cookieOf(opened);
    expect(cookie).toMatch(/^gw_session=\w+/);
    const asGuest = { cookie };

    // The dataset's page opens a session the guest owns, whose tables and GraphQL reads work.
    const page = await gw.request(`/graph/graph.html?dataset=${mine}`, { headers: asGuest });
    expect(page.status).toBe(302);
    const session = new URL(page.headers.get("location") ?? "", "http://gateway.test").searchParams.get("session") ?? "";
    expect(session).toMatch(/\w+/);
    expect((await gw.request(`/graph/data/${session}/edges.arrow?columns=s,d`, { headers: asGuest })).status).toBe(200);
    const read = await gw.json<{ data: { vizSession: { id: string } } }>("/graphql", {
      method: "POST",
      headers: asGuest,
      json: { query: "query($id: ID!) { vizSession(id: $id) { id } }", variables: { id: session } },
    });
    expect(read.body.data.vizSession.id).toBe(session);

    // Another dataset reads as missing, public or the guest's own; so do sessions of it.
    expect((await gw.request(`/graph/graph.html?dataset=${other}`, { headers: asGuest })).status).toBe(404);
    expect((await gw.request(`/graph/graph.html?dataset=${own}`, { headers: asGuest })).status).toBe(404);
    const gfql = await gw.json<{ errors: { extensions: { code: string } }[] }>("/graphql", {
      method: "POST",
      headers: asGuest,
      json: { query: "query($d: ID!) { gfql(datasetId: $d, query: []) { nodeCount } }", variables: { d: own } },
    });
    expect(gfql.body.errors[0]?.extensions.code).toBe("NOT_FOUND");
    // Read-only queries over its own dataset run.
    const granted = await gw.json<{ data: { gfql: { nodeCount: number } } }>("/graphql", {
      method: "POST",
      headers: asGuest,
      json: { query: "query($d: ID!) { gfql(datasetId: $d, query: []) { nodeCount } }", variables: { d: mine } },
    });
    expect(granted.body.data.gfql.nodeCount).toBe(3);
    const adminSession = await gw.json<{ data: { openVizSession: { id: string } } }>("/graphql", {
      method: "POST",
      headers: bearer(admin),
      json: { query: "mutation($d: ID!) { openVizSession(datasetId: $d) { id } }", variables: { d: other } },
    });
    const foreign = adminSession.body.data.openVizSession.id;
    expect((await gw.request(`/graph/data/${foreign}/edges.arrow?columns=s,d`, { headers: asGuest })).status).toBe(404);

    // Lists, changes, administration and the rest of the API are refused.
    for (const query of [
      "{ datasets(limit: 10, offset: 0) { count } }",
      "{ users(limit: 10, offset: 0) { count } }",
      "{ myPersonalKeys { id } }",
    ]) {
      const answer = await gw.json<{ errors: { extensions: { code: string } }[] }>("/graphql", {
        method: "POST",
        headers: asGuest,
        json: { query },
      });
      expect(answer.body.errors[0]?.extensions.code, query).toBe("FORBIDDEN");
    }
    // The REST API takes no browser cookie from anyone: there the session is no credential at all.
    for (const path of ["/api/v2/datasets/", "/api/v2/files/", "/api/v2/logout-user/bob/"]) {
      expect((await gw.request(path, { headers: asGuest })).status, path).toBe(401);
    }
    const issue = await gw.json<{ errors: { extensions: { code: string } }[] }>("/graphql", {
      method: "POST",
      headers: asGuest,
      json: { query: `mutation { generateSingleUseUrl(username: "guest", datasetId: "${other}") { path } }` },
    });
    expect(issue.body.errors[0]?.extensions.code).toBe("FORBIDDEN");

    // The guest's own password session is not limited.
    expect((await gw.json("/api/v2/datasets/", { headers: bearer(tokens.guest ?? "") })).status).toBe(200);
  });

  it("works once: a second opening is refused with a page that says so", async () => {
    const path = await link();
    expect((await gw.request(path)).status).toBe(303);
    const again = await gw.request(path);
    expect(again.status).toBe(403);
    expect(again.headers.get("set-cookie")).toBeNull();
    expect(await again.text()).toContain("already used");
  });

  it("refuses an unknown, a malformed and a missing token", async () => {
    const path = await link();
    const token = new URL(path, "http://x").searchParams.get("sst") ?? "";
    const wrong = `${token.slice(0, -1)}${token.endsWith("A") ? "B" : "A"}`;
    expect((await gw.request(`/magic-login/?sst=${wrong}`)).status).toBe(403);
    expect((await gw.request("/magic-login/?sst=short")).status).toBe(403);
    expect((await gw.request("/magic-login/")).status).toBe(400);
    // The right token still works after the wrong ones.
    expect((await gw.request(path)).status).toBe(303);
  });

  it("purges link records older than 7 days, used or not, and the sessions they opened once ended", async () => {
    const path = await link();
    await link();
    const { db, singleUse } = gw.gateway.services;
    expect((await gw.request(path)).status).toBe(303);
    const week = new Date(Date.now() - 7 * 24 * 3600 * 1000 - 1000);
    await db.singleUseLink.updateMany({ data: { createdAt: week } });
    await db.browserSession.updateMany({ where: { grantDatasetId: { not: null } }, data: { expiresAt: new Date(Date.now() - 1000) } });
    const before = await db.singleUseLink.count();
    expect(before).toBeGreaterThanOrEqual(2);
    expect(await singleUse.purge()).toBe(before);
    expect(await db.singleUseLink.count()).toBe(0);
    expect(await db.browserSession.count({ where: { grantDatasetId: { not: null } } })).toBe(0);
  });
});

describe("single-use link settings", () => {
  it("default to sst, 3600 seconds and one use, and refuse bad values clearly", () => {
    const base = { DATA_DIR: "/tmp/unused" };
    expect(loadConfig(base)).toMatchObject({ sesameTokenName: "sst", sesameMaxAgeSeconds: 3600, sesameOneTime: true });
    expect(() => loadConfig({ ...base, SESAME_TOKEN_NAME: "s t" })).toThrow(/SESAME_TOKEN_NAME/);
    expect(() => loadConfig({ ...base, SESAME_MAX_AGE: "0" })).toThrow(/SESAME_MAX_AGE/);
    expect(() => loadConfig({ ...base, SESAME_ONE_TIME: "maybe" })).toThrow(/SESAME_ONE_TIME/);
  });

  it("SESAME_MAX_AGE: a link opened after it is refused as expired", async () => {
    const gw = await createTestGateway("sqlite", { SESAME_MAX_AGE: "1" });
    try {
      const admin = await gw.login();
      await gw.users("guest");
      const dataset = await csvEdgeDataset(gw, admin, "s,d\na,b\n");
      const answer = await gw.json<{ single_use_url: string }>(`/api/v2/generate/single-use-url/?username=guest&dataset_id=${dataset}`, {
        headers: bearer(admin),
      });
      await new Promise((resolve) => setTimeout(resolve, 1_100));
      const late = await gw.request(pathOf(answer.body.single_use_url));
      expect(late.status).toBe(403);
      expect(await late.text()).toContain("expired");
    } finally {
      await gw.close();
    }
  });

  it("SESAME_ONE_TIME=false and SESAME_TOKEN_NAME: the link works again, under its own parameter name", async () => {
    const gw = await createTestGateway("sqlite", { SESAME_ONE_TIME: "false", SESAME_TOKEN_NAME: "ticket" });
    try {
      const admin = await gw.login();
      await gw.users("guest");
      const dataset = await csvEdgeDataset(gw, admin, "s,d\na,b\n");
      const answer = await gw.json<{ single_use_url: string }>(`/api/v2/generate/single-use-url/?username=guest&dataset_id=${dataset}`, {
        headers: bearer(admin),
      });
      const path = pathOf(answer.body.single_use_url);
      expect(path).toMatch(/^\/magic-login\/\?ticket=[\w-]{43}$/);
      expect((await gw.request(path)).status).toBe(303);
      expect((await gw.request(path)).status).toBe(303);
      expect((await gw.request(path.replace("ticket=", "sst="))).status).toBe(400);
    } finally {
      await gw.close();
    }
  });
});
