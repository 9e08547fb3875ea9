// The real Node process: HTTP on one port, graphql-ws and SSE subscriptions, GET bodies, uploads, SIGTERM drain.
import { readdirSync, readFileSync } from "node:fs";
import { request } from "node:http";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../helpers/databases.ts";
import { ADMIN } from "../helpers/gateway.ts";
import { bearer, firstEvent, getWithBody, postJson as post } from "../helpers/http.ts";
import { type ServerProcess, startServer } from "../helpers/server-process.ts";

describe("node server process", () => {
  let db: TestDatabase;
  let server: ServerProcess;
  let token: string;

  beforeAll(async () => {
    db = await createTestDatabase("sqlite");
    server = await startServer({ ...db.env, ADMIN_USERNAME: ADMIN.username, ADMIN_PASSWORD: ADMIN.password, LOGIN_FREE_ATTEMPTS: "0" });
    token = String((await post(server.url, "/api-token-auth/", ADMIN)).body.token);
  });
  afterAll(async () => {
    await server?.stop("SIGKILL");
    await db?.drop();
  });

  it("serves /graphql, REST and static files on one port", async () => {
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
    expect((await fetch(`${server.url}/`)).headers.get("content-type")).toContain("text/html");
    const graphql = await post(server.url, "/graphql", { query: "{ me { username } }" }, { authorization: `Bearer ${token}` });
    expect(graphql.body).toEqual({ data: { me: { username: "admin" } } });
  });

  it("reads org_name from the JSON body of a GET to api/v2/auth/pkey/jwt/", async () => {
    await post(
      server.url,
      "/graphql",
      { query: 'mutation { createUser(input: {username: "pyuser", password: "py-password", org: "team"}) { id } }' },
      { authorization: `Bearer ${token}` },
    );
    const userToken = String((await post(server.url, "/api-token-auth/", { username: "pyuser", password: "py-password" })).body.token);
    const key = await post(
      server.url,
      "/graphql",
      { query: "mutation { createPersonalKey { credential } }" },
      { authorization: `Bearer ${userToken}` },
    );
    const credential = (key.body.data as { createPersonalKey: { credential: string } }).createPersonalKey.credential;
    const answer = await getWithBody(`${server.url}/api/v2/auth/pkey/jwt/`, JSON.stringify({ org_name: "team" }), {
      authorization: `PersonalKey ${credential}`,
    });
    expect(answer.status).toBe(200);
    expect(answer.body.active_organization).toEqual({ slug: "team", is_found: true, is_member: true });
  });

  it("delivers subscriptions over graphql-ws on /graphql", async () => {
    const keyIds: string[] = [];
    const event = await firstEvent(server.url, token, "subscription { personalKeyEvents { kind keyId } }", async () => {
      keyIds.push(
        (await post(server.url, "/graphql", { query: "mutation { createPersonalKey { key { id } } }" }, bearer(token))).body.data
          .createPersonalKey.key.id,
      );
    });
    expect(event).toEqual({ data: { personalKeyEvents: { kind: "CREATED", keyId: expect.any(String) } } });
    expect(keyIds).toContain((event as { data: { personalKeyEvents: { keyId: string } } }).data.personalKeyEvents.keyId);
  });

  it("delivers subscriptions over SSE on /graphql", async () => {
    const controller = new AbortController();
    const response = await fetch(`${server.url}/graphql`, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "text/event-stream", authorization: `Bearer ${token}` },
      body: JSON.stringify({ query: "subscription { personalKeyEvents { kind } }" }),
      signal: controller.signal,
    });
    expect(response.headers.get("content-type")).toContain("text/event-stream");
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    await new Promise((resolve) => setTimeout(resolve, 300));
    await post(server.url, "/graphql", { query: "mutation { createPersonalKey { key { id } } }" }, { authorization: `Bearer ${token}` });
    let text = "";
    while (!text.includes("CREATED")) {
      const { value, done } = await reader.read();
      if (done) break;
      text += new TextDecoder().decode(value);
    }
    controller.abort();
    expect(text).toContain('"personalKeyEvents":{"kind":"CREATED"}');
  });

  it("stores an upload byte for byte as its chunks arrive (the blob store frees each chunk once written)", async () => {
    // 24 MiB of CSV in uneven pieces: hundreds of socket reads, each a chunk the blob store writes, then releases.
    const lines = ["id,label"];
    for (let i = 0; lines.length < 1_200_000; i += 1) lines.push(`${i},label-${(i * 7919) % 100_003}`);
    const bytes = Buffer.from(`${lines.join("\n")}\n`);
    const created = await post(server.url, "/api/v2/files/", { file_type: "csv" }, bearer(token));
    const fileId = String(created.body.file_id);
    const record = await new Promise<Record<string, unknown>>((resolve, reject) => {
      const req = request(
        `${server.url}/api/v2/upload/files/${fileId}`,
        { method: "POST", headers: { ...bearer(token), "content-length": String(bytes.length) } },
        (res) => {
          const chunks: Buffer[] = [];
          res.on("data", (c: Buffer) => chunks.push(c));
          res.on("end", () => resolve(JSON.parse(Buffer.concat(chunks).toString()) as Record<string, unknown>));
        },
      );
      req.on("error", reject);
      for (let at = 0; at < bytes.length; at += 100_003) req.write(bytes.subarray(at, at + 100_003));
      req.end();
    });
    expect(record.is_valid).toBe(true);
    expect((record.tables_schemas as { num_rows: number }[])[0]?.num_rows).toBe(lines.length - 1);
    const folder = path.join(db.dataDir, "blobs", "files", fileId);
    const [version] = readdirSync(folder);
    expect(readFileSync(path.join(folder, String(version), "raw")).equals(bytes)).toBe(true);
  });

  it("slows down repeated failed logins", async () => {
    const started = performance.now();
    await post(server.url, "/api-token-auth/", { username: "admin", password: "wrong-1" });
    await post(server.url, "/api-token-auth/", { username: "admin", password: "wrong-2" });
    // With no free attempts the second failure waited at least 500 ms before answering.
    expect(performance.now() - started).toBeGreaterThan(450);
  });

  it("drains in-flight requests on SIGTERM, then exits 0", async () => {
    // A throttled login takes about a second: SIGTERM lands while it is in flight.
    const inflight = post(server.url, "/api-token-auth/", { username: "admin", password: "wrong-3" });
    await new Promise((resolve) => setTimeout(resolve, 150));
    const exit = server.stop("SIGTERM");
    const answer = await inflight;
    expect(answer.status).toBe(401);
    expect(await exit).toBe(0);
    expect(server.logs.join("")).toContain('"msg":"stopped"');
  });
});
