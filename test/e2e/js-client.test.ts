// The real @graphistry/js-upload-api client logs in against the running service, unchanged.
import { Client, ClientPKey, Dataset, EdgeFile, NodeFile } from "@graphistry/js-upload-api";
import { tableFromArrays, tableToIPC } from "apache-arrow";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../helpers/databases.ts";
import { ADMIN } from "../helpers/gateway.ts";
import { type ServerProcess, startServer } from "../helpers/server-process.ts";

type Authed = { getAuthToken(): Promise<string> };

describe("@graphistry/js-upload-api against the service", () => {
  let db: TestDatabase;
  let server: ServerProcess;
  let host: string;
  let credential: string;

  beforeAll(async () => {
    db = await createTestDatabase("sqlite");
    server = await startServer({ ...db.env, ADMIN_USERNAME: ADMIN.username, ADMIN_PASSWORD: ADMIN.password });
    host = `127.0.0.1:${server.port}`;
    const login = await fetch(`${server.url}/api-token-auth/`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(ADMIN),
    });
    const { token } = (await login.json()) as { token: string };
    const graphql = (query: string) =>
      fetch(`${server.url}/graphql`, {
        method: "POST",
        headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
        body: JSON.stringify({ query }),
      }).then((r) => r.json() as Promise<{ data: Record<string, never> }>);
    await graphql('mutation { createUser(input: { username: "jsuser", password: "js-password", org: "jsorg" }) { id } }');
    const userLogin = await fetch(`${server.url}/api-token-auth/`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ username: "jsuser", password: "js-password" }),
    });
    const userToken = ((await userLogin.json()) as { token: string }).token;
    const key = await fetch(`${server.url}/graphql`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${userToken}` },
      body: JSON.stringify({ query: "mutation { createPersonalKey { credential } }" }),
    }).then((r) => r.json() as Promise<{ data: { createPersonalKey: { credential: string } } }>);
    credential = key.data.createPersonalKey.credential;
  });
  afterAll(async () => {
    await server?.stop("SIGKILL");
    await db?.drop();
  });

  it("Client gets a token from api/v2/auth/token/generate", async () => {
    const client = new Client(ADMIN.username, ADMIN.password, "", "http", host, undefined, fetch);
    const token = await (client as unknown as Authed).getAuthToken();
    expect(client.authTokenValid()).toBe(true);
    const verify = await fetch(`${server.url}/api-token-verify/`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ token }),
    });
    expect(verify.status).toBe(200);
  });

  it("ClientPKey gets a token for a personal key, in an organization too", async () => {
    const [id, secret] = credential.split(":") as [string, string];
    for (const org of ["", "jsorg"]) {
      const client = new ClientPKey(id, secret, org, "http", host, undefined, fetch);
      await (client as unknown as Authed).getAuthToken();
      expect(client.authTokenValid()).toBe(true);
    }
  });

  it("Client with a wrong password gets no token", async () => {
    const client = new Client(ADMIN.username, "wrong-password", "", "http", host, undefined, fetch);
    await expect((client as unknown as Authed).getAuthToken()).rejects.toThrow();
    expect(client.authTokenValid()).toBe(false);
  });

  it("EdgeFile and NodeFile upload JSON columns and Arrow bytes that parse", async () => {
    const client = new Client("jsuser", "js-password", "", "http", host, undefined, fetch);
    await (client as unknown as Authed).getAuthToken();
    const edges = new EdgeFile({ s: ["a", "b", "c"], d: ["b", "c", "a"], w: [1, 2, 3] }, "json", "edges", {
      parser_options: { orient: "records" },
    });
    await edges.upload(client);
    expect(edges.fileID).toEqual(expect.any(String));
    // apache-arrow dictionary-encodes strings from tableFromArrays, so "n" arrives as a categorical.
    const ipc = tableToIPC(tableFromArrays({ n: ["a", "b", "c"], size: Float64Array.from([1, 2, 3]) }), "file");
    const nodes = new NodeFile(ipc, "arrow", "nodes");
    await nodes.upload(client);
    const token = await (client as unknown as Authed).getAuthToken();
    const check = async (id: string) => {
      const response = await fetch(`${server.url}/api/v2/files/${id}`, { headers: { authorization: `Bearer ${token}` } });
      return (await response.json()) as { is_valid: boolean; tables_schemas: { num_rows: number; dtypes: Record<string, string> }[] };
    };
    expect(await check(edges.fileID ?? "")).toMatchObject({
      is_valid: true,
      tables_schemas: [{ num_rows: 3, dtypes: { s: "object", d: "object", w: "int64" } }],
    });
    expect(await check(nodes.fileID ?? "")).toMatchObject({
      is_valid: true,
      tables_schemas: [{ num_rows: 3, dtypes: { n: "category", size: "float64" } }],
    });
  });

  it("Dataset.upload creates files and a dataset that lists with the right counts", async () => {
    const client = new Client("jsuser", "js-password", "", "http", host, undefined, fetch);
    await (client as unknown as Authed).getAuthToken();
    const edges = new EdgeFile({ s: ["a", "b", "c", "a"], d: ["b", "c", "a", "d"], w: [1, 2, 3, 4] }, "json", "edges");
    const nodes = new NodeFile({ n: ["a", "b", "c", "d"], label: ["A", "B", "C", "D"] }, "json", "nodes");
    const dataset = new Dataset(
      {
        node_encodings: { bindings: { node: "n", node_label: "label" } },
        edge_encodings: { bindings: { source: "s", destination: "d", edge_weight: "w" } },
        metadata: {},
        name: "js dataset",
      },
      edges,
      nodes,
    );
    await dataset.upload(client);
    const token = await (client as unknown as Authed).getAuthToken();
    const list = await fetch(`${server.url}/api/v2/datasets/`, { headers: { authorization: `Bearer ${token}` } });
    const { results } = (await list.json()) as { results: Record<string, unknown>[] };
    const made = results.find((d) => d.dataset_id === dataset.datasetID);
    expect(made).toMatchObject({
      name: "js dataset",
      node_count: 4,
      edge_count: 4,
      metadata: { agent: "@graphistry/js-upload-api", apiversion: "3" },
    });
  });
});
