// Organization roles on shared records: members read an organization's files and datasets; only the author, an
// owner or admin of the organization, or a site admin changes or deletes them; outsiders do not see them.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PROVIDERS } from "../helpers/databases.ts";
import { createTestGateway, type TestGateway } from "../helpers/gateway.ts";

const SET_MEMBER = `mutation($s: String!, $u: String!, $r: OrganizationRole!) {
  setOrganizationMember(slug: $s, username: $u, role: $r) { username role } }`;

describe.each(PROVIDERS)("organization roles on files and datasets (%s)", (provider) => {
  let gw: TestGateway;
  let t: Record<string, string>;
  const auth = (who: string) => ({ authorization: `Bearer ${t[who]}` });

  /** A file of `author` shared into acme, with one CSV table, and a dataset made from it. */
  async function shared(author = "author") {
    const file = await gw.json<{ file_id: string }>("/api/v2/files/", {
      method: "POST",
      headers: auth(author),
      json: { file_type: "csv", org_name: "acme" },
    });
    expect(file.status).toBe(200);
    const id = file.body.file_id;
    expect((await gw.request(`/api/v2/upload/files/${id}`, { method: "POST", headers: auth(author), body: "s,d\na,b\n" })).status).toBe(
      200,
    );
    const dataset = await gw.json<{ data: { dataset_id: string } }>("/api/v2/upload/datasets/", {
      method: "POST",
      headers: auth(author),
      json: {
        name: "g",
        org_name: "acme",
        metadata: {},
        node_encodings: { bindings: {} },
        edge_encodings: { bindings: { source: "s", destination: "d" } },
        edge_files: [id],
      },
    });
    expect(dataset.status).toBe(200);
    return { fileId: id, datasetId: dataset.body.data.dataset_id };
  }

  beforeAll(async () => {
    gw = await createTestGateway(provider);
    t = await gw.users("author", "member", "orgadmin", "owner", "outsider");
    t.admin = await gw.login();
    expect((await gw.graphql(`mutation { createOrganization(slug: "acme") { slug } }`, {}, t.owner)).body.errors).toBeUndefined();
    for (const [u, r] of [
      ["author", "MEMBER"],
      ["member", "MEMBER"],
      ["orgadmin", "ADMIN"],
    ] as const) {
      const set = await gw.graphql(SET_MEMBER, { s: "acme", u, r }, t.owner);
      expect(set.body.errors).toBeUndefined();
    }
  }, 60_000);
  afterAll(() => gw?.close());

  it("lets members read what another member shared, and not change or delete it", async () => {
    const { fileId, datasetId } = await shared();
    expect((await gw.json(`/api/v2/files/${fileId}`, { headers: auth("member") })).status).toBe(200);
    expect((await gw.json(`/api/v2/upload/datasets/${datasetId}`, { headers: auth("member") })).status).toBe(200);
    const patch = await gw.json(`/api/v2/upload/files/${fileId}/`, { method: "PATCH", headers: auth("member"), json: { name: "mine" } });
    expect(patch.status).toBe(403);
    expect(patch.body).toMatchObject({ error: { code: "FORBIDDEN" } });
    const upload = await gw.request(`/api/v2/upload/files/${fileId}`, { method: "POST", headers: auth("member"), body: "s,d\nx,y\n" });
    expect(upload.status).toBe(403);
    const directUpload = await gw.request(`/api/v2/upload/datasets/${datasetId}/edges/csv`, {
      method: "POST",
      headers: auth("member"),
      body: "s,d\nx,y\n",
    });
    expect(directUpload.status).toBe(403);
    const share = await gw.graphql(`mutation($d: ID!) { shareDataset(datasetId: $d, mode: "public") }`, { d: datasetId }, t.member);
    expect(share.body.errors?.[0]?.extensions?.code).toBe("FORBIDDEN");
    expect((await gw.json(`/api/v2/files/${fileId}`, { method: "DELETE", headers: auth("member") })).status).toBe(403);
    expect((await gw.json(`/api/v2/datasets/${datasetId}`, { method: "DELETE", headers: auth("member") })).status).toBe(403);
    // Still there, unchanged.
    const after = await gw.json<{ name: string }>(`/api/v2/files/${fileId}`, { headers: auth("author") });
    expect(after.status).toBe(200);
    expect(after.body.name).toBe("");
    expect((await gw.json(`/api/v2/upload/datasets/${datasetId}`, { headers: auth("author") })).status).toBe(200);
  });

  it("hides an organization's records from outsiders", async () => {
    const { fileId, datasetId } = await shared();
    expect((await gw.json(`/api/v2/files/${fileId}`, { headers: auth("outsider") })).status).toBe(404);
    expect((await gw.json(`/api/v2/files/${fileId}`, { method: "DELETE", headers: auth("outsider") })).status).toBe(404);
    expect((await gw.json(`/api/v2/datasets/${datasetId}`, { method: "DELETE", headers: auth("outsider") })).status).toBe(404);
  });

  it("lets the author, an organization admin or owner, and a site admin change and delete", async () => {
    for (const who of ["author", "orgadmin", "owner", "admin"]) {
      const { fileId, datasetId } = await shared();
      const patch = await gw.json<{ name: string }>(`/api/v2/upload/files/${fileId}/`, {
        method: "PATCH",
        headers: auth(who),
        json: { name: `by-${who}` },
      });
      expect(patch.status, who).toBe(200);
      expect(patch.body.name).toBe(`by-${who}`);
      expect((await gw.request(`/api/v2/datasets/${datasetId}`, { method: "DELETE", headers: auth(who) })).status, who).toBe(204);
      expect((await gw.request(`/api/v2/files/${fileId}`, { method: "DELETE", headers: auth(who) })).status, who).toBe(204);
      expect((await gw.json(`/api/v2/files/${fileId}`, { headers: auth("author") })).status).toBe(404);
    }
  });

  it("takes the right away with the role: a demoted admin is a reader again", async () => {
    const { fileId } = await shared();
    expect((await gw.graphql(SET_MEMBER, { s: "acme", u: "orgadmin", r: "MEMBER" }, t.owner)).body.errors).toBeUndefined();
    expect((await gw.json(`/api/v2/files/${fileId}`, { method: "DELETE", headers: auth("orgadmin") })).status).toBe(403);
    expect((await gw.graphql(SET_MEMBER, { s: "acme", u: "orgadmin", r: "ADMIN" }, t.owner)).body.errors).toBeUndefined();
    expect((await gw.request(`/api/v2/files/${fileId}`, { method: "DELETE", headers: auth("orgadmin") })).status).toBe(204);
  });
});
