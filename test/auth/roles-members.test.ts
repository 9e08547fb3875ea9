// Managing an organization's members and roles through GraphQL and the command line: who may, the owner rules
// (only owners make owners, at least one owner stays), and the clear errors for bad input.
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { main } from "../../src/cli/main.ts";
import { loadConfig } from "../../src/config/config.ts";
import { PROVIDERS } from "../helpers/databases.ts";
import { createTestGateway, type TestGateway } from "../helpers/gateway.ts";

const SET = `mutation($s: String!, $u: String!, $r: OrganizationRole!) { setOrganizationMember(slug: $s, username: $u, role: $r) { username role } }`;
const REMOVE = `mutation($s: String!, $u: String!) { removeOrganizationMember(slug: $s, username: $u) }`;
const MEMBERS = `query($s: String!) { organization(slug: $s) { slug members { username role } } }`;

async function cli(argv: string[], env: Record<string, string>) {
  const out: string[] = [];
  const err: string[] = [];
  const log = vi.spyOn(console, "log").mockImplementation((line: unknown) => void out.push(String(line)));
  const error = vi.spyOn(console, "error").mockImplementation((line: unknown) => void err.push(String(line)));
  try {
    return { code: await main(argv, loadConfig({ ...env, LOG_LEVEL: "silent" })), out, err };
  } finally {
    log.mockRestore();
    error.mockRestore();
  }
}

describe.each(PROVIDERS)("organization membership and roles (%s)", (provider) => {
  let gw: TestGateway;
  let t: Record<string, string>;
  const code = (r: { body: { errors?: { extensions?: { code?: string } }[] } }) => r.body.errors?.[0]?.extensions?.code;
  const members = async (slug: string, token: string | undefined) => {
    const r = await gw.graphql<{ organization: { members: { username: string; role: string }[] } }>(MEMBERS, { s: slug }, token);
    expect(r.body.errors).toBeUndefined();
    return Object.fromEntries((r.body.data?.organization.members ?? []).map((m) => [m.username, m.role]));
  };

  beforeAll(async () => {
    gw = await createTestGateway(provider);
    t = await gw.users("founder", "deputy", "plain", "outsider", "newcomer");
    t.admin = await gw.login();
  }, 60_000);
  afterAll(() => gw?.close());

  it("makes the creator the owner; owners and admins add members, members do not", async () => {
    const created = await gw.graphql(`mutation { createOrganization(slug: "team", name: "The team") { slug name } }`, {}, t.founder);
    expect(created.body.errors).toBeUndefined();
    expect(await members("team", t.founder)).toEqual({ founder: "OWNER" });
    expect(code(await gw.graphql(`mutation { createOrganization(slug: "team") { slug } }`, {}, t.outsider))).toBe("CONFLICT");
    expect(code(await gw.graphql(`mutation { createOrganization(slug: "bad slug!") { slug } }`, {}, t.outsider))).toBe("INVALID_INPUT");

    expect((await gw.graphql(SET, { s: "team", u: "deputy", r: "ADMIN" }, t.founder)).body.errors).toBeUndefined();
    expect((await gw.graphql(SET, { s: "team", u: "plain", r: "MEMBER" }, t.deputy)).body.errors).toBeUndefined();
    expect(code(await gw.graphql(SET, { s: "team", u: "newcomer", r: "MEMBER" }, t.plain))).toBe("FORBIDDEN");
    expect(code(await gw.graphql(SET, { s: "team", u: "newcomer", r: "MEMBER" }, t.outsider))).toBe("FORBIDDEN");
    expect(code(await gw.graphql(SET, { s: "team", u: "nobody", r: "MEMBER" }, t.founder))).toBe("NOT_FOUND");
    // The role is an enum: anything else is refused before it runs.
    expect((await gw.graphql(SET, { s: "team", u: "plain", r: "KING" }, t.founder)).body.errors?.length).toBe(1);
    expect(await members("team", t.plain)).toEqual({ founder: "OWNER", deputy: "ADMIN", plain: "MEMBER" });
    // Outsiders see neither the members nor whether the organization exists.
    expect(code(await gw.graphql(MEMBERS, { s: "team" }, t.outsider))).toBe("FORBIDDEN");
    expect(code(await gw.graphql(MEMBERS, { s: "no-such-team" }, t.outsider))).toBe("FORBIDDEN");
    expect(code(await gw.graphql(MEMBERS, { s: "team" }))).toBe("UNAUTHENTICATED");
  });

  it("lets only owners make or unmake owners, and keeps at least one owner", async () => {
    expect(code(await gw.graphql(SET, { s: "team", u: "plain", r: "OWNER" }, t.deputy))).toBe("FORBIDDEN");
    expect(code(await gw.graphql(SET, { s: "team", u: "founder", r: "MEMBER" }, t.deputy))).toBe("FORBIDDEN");
    expect(code(await gw.graphql(REMOVE, { s: "team", u: "founder" }, t.deputy))).toBe("FORBIDDEN");
    // The only owner can neither step down nor leave.
    expect(code(await gw.graphql(SET, { s: "team", u: "founder", r: "ADMIN" }, t.founder))).toBe("CONFLICT");
    expect(code(await gw.graphql(REMOVE, { s: "team", u: "founder" }, t.founder))).toBe("CONFLICT");
    expect((await members("team", t.founder)).founder).toBe("OWNER");
    // With a second owner, the first may step down.
    expect((await gw.graphql(SET, { s: "team", u: "deputy", r: "OWNER" }, t.founder)).body.errors).toBeUndefined();
    expect((await gw.graphql(SET, { s: "team", u: "founder", r: "MEMBER" }, t.founder)).body.errors).toBeUndefined();
    expect(await members("team", t.plain)).toEqual({ founder: "MEMBER", deputy: "OWNER", plain: "MEMBER" });
  });

  it("lets a member leave, managers remove members, and site admins manage any organization", async () => {
    expect(await gw.graphql(REMOVE, { s: "team", u: "plain" }, t.plain)).toMatchObject({
      body: { data: { removeOrganizationMember: true } },
    });
    expect(code(await gw.graphql(REMOVE, { s: "team", u: "plain" }, t.deputy))).toBe("NOT_FOUND");
    expect(code(await gw.graphql(REMOVE, { s: "team", u: "deputy" }, t.founder))).toBe("FORBIDDEN");
    expect((await gw.graphql(SET, { s: "team", u: "newcomer", r: "OWNER" }, t.admin)).body.errors).toBeUndefined();
    expect((await gw.graphql(REMOVE, { s: "team", u: "deputy" }, t.admin)).body.errors).toBeUndefined();
    expect(await members("team", t.admin)).toEqual({ founder: "MEMBER", newcomer: "OWNER" });
    expect(code(await gw.graphql(`mutation { createOrganization(slug: "other", owner: "founder") { slug } }`, {}, t.outsider))).toBe(
      "FORBIDDEN",
    );
    expect(
      (await gw.graphql(`mutation { createOrganization(slug: "other", owner: "founder") { slug } }`, {}, t.admin)).body.errors,
    ).toBeUndefined();
    expect(await members("other", t.founder)).toEqual({ founder: "OWNER" });
  });

  it("manages organizations from the command line", async () => {
    const env = gw.env;
    expect((await cli(["org", "create", "--org", "ops", "--username", "outsider"], env)).code).toBe(0);
    expect((await cli(["org", "set-role", "--org", "ops", "--username", "plain", "--role", "admin"], env)).code).toBe(0);
    const listed = await cli(["org", "members", "--org", "ops"], env);
    expect(listed.out).toEqual(["outsider\towner", "plain\tadmin"]);
    const bad = await cli(["org", "set-role", "--org", "ops", "--username", "plain", "--role", "boss"], env);
    expect(bad.code).toBe(2);
    expect(bad.err.join("\n")).toMatch(/role must be one of owner, admin, member/);
    const last = await cli(["org", "remove", "--org", "ops", "--username", "outsider"], env);
    expect(last.code).toBe(1);
    expect(last.err.join("\n")).toMatch(/at least one owner/);
    expect((await cli(["org", "remove", "--org", "ops", "--username", "plain"], env)).code).toBe(0);
    expect((await cli(["org", "members", "--org", "ops"], env)).out).toEqual(["outsider\towner"]);
    expect((await cli(["org", "members", "--org", "nope"], env)).code).toBe(1);
    expect((await cli(["org", "list"], env)).out.join("\n")).toMatch(/^ops\tops\t1 members$/m);
    // The server sees the change the command line made.
    expect(await members("ops", t.outsider)).toEqual({ outsider: "OWNER" });
  });
});
