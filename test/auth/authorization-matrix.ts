// The authorization matrix: every REST route, GraphQL root field and /mcp tool, called from outside over HTTP against
// the real server (a child process), as each kind of caller; the expected allow/deny table is test data
// (test/fixtures/authorization-matrix.json). The list of operations comes from the route table, the schema and the
// tool list, so a new route, field or tool without a row fails here. Run on SQLite (authorization-matrix.test.ts)
// and on Postgres (authorization-matrix-postgres.test.ts), each on a fresh database dropped after.
import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import path from "node:path";
import { createClient } from "graphql-ws";
import { SignJWT } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { TOOLS } from "../../facades/mcp/tools.ts";
import { REST_ROUTES } from "../../facades/rest/routes/index.ts";
import { schema } from "../../schema/index.ts";
import { createTestDatabase, type Provider, type TestDatabase } from "../helpers/databases.ts";
import { ADMIN } from "../helpers/gateway.ts";
import { ROOT, type ServerProcess, startServer } from "../helpers/server-process.ts";
import { CLIENT, CREATE_PROVIDER, type Idp, startIdp } from "./sso-world.ts";

/**
 * Callers with a credential that must not work: a revoked personal key, and JWTs claiming the site admin that are
 * expired (correctly signed), signed with another key, or unsigned (`alg: none`). They get what anonymous callers get
 * where an operation reads no credential, and 401 (UNAUTHENTICATED, TOKEN_EXPIRED) everywhere else.
 */
const BAD_CREDENTIALS = ["revokedKey", "expiredJwt", "tamperedJwt", "algNoneJwt"] as const;
const ROLES = ["anonymous", "other", "member", "orgAdmin", "siteAdmin", "singleUse", "singleUseToken", ...BAD_CREDENTIALS] as const;
type Role = (typeof ROLES)[number];
type Outcome = "allow" | "deny";
/** Policy and row columns: the roles, plus `badCredential` standing for the four of BAD_CREDENTIALS. */
type Column = Role | "badCredential";
type Row = {
  policy: string;
  expect?: Partial<Record<Column, Outcome>>;
  fresh?: "file" | "dataset" | "user" | "member" | "key" | "job" | "link" | "ssoState" | "ssoProvider";
  /** Starts of "CODE: message" of GraphQL errors that mean the call got past the access checks and failed later. */
  passedWhen?: string[];
  /** The call ends the caller's browser session (sign-out). */
  endsSession?: boolean;
  auth?: "key";
  // REST
  path?: string;
  body?: unknown;
  raw?: string;
  alsoAllow?: number[];
  // GraphQL
  query?: string;
  variables?: Record<string, unknown>;
  upload?: string;
  // MCP
  arguments?: Record<string, unknown>;
};
type Matrix = {
  policies: Record<string, Partial<Record<Column, Outcome>>>;
  rest: Record<string, Row>;
  graphql: Record<string, Row>;
  mcp: Record<string, Row>;
};

const MATRIX = JSON.parse(readFileSync(path.join(ROOT, "test/fixtures/authorization-matrix.json"), "utf8")) as Matrix;
const DENY_STATUSES = [401, 403, 404];
const DENY_CODES = ["UNAUTHENTICATED", "TOKEN_EXPIRED", "FORBIDDEN", "NOT_FOUND"];

/** The operations that exist now: from the REST route table, the GraphQL schema and the tool list. */
function liveOperations() {
  const rest = REST_ROUTES.flatMap((route) => route.methods.map((method) => `${method} ${route.path}`));
  const graphql = (["Query", "Mutation", "Subscription"] as const).flatMap((kind) => {
    const type = kind === "Query" ? schema.getQueryType() : kind === "Mutation" ? schema.getMutationType() : schema.getSubscriptionType();
    return Object.keys(type?.getFields() ?? {}).map((field) => `${kind}.${field}`);
  });
  return { rest: [...new Set(rest)], graphql, mcp: TOOLS.map((tool) => tool.name) };
}

const isBadCredential = (role: Role) => (BAD_CREDENTIALS as readonly string[]).includes(role);

/**
 * The row's own column, else its policy's. A grant's read-only token (singleUseToken) falls back to the browser
 * session's column (singleUse), and the bad credentials to `badCredential`.
 */
function expected(row: Row, role: Role): Outcome {
  const policy = MATRIX.policies[row.policy];
  const columns: Column[] = [role];
  if (role === "singleUseToken") columns.push("singleUse");
  if (isBadCredential(role)) columns.push("badCredential");
  for (const column of columns) {
    const outcome = row.expect?.[column] ?? policy?.[column];
    if (outcome) return outcome;
  }
  throw new Error(`no expectation for ${role} under policy "${row.policy}"`);
}

/** Replaces "{name}" placeholders: a whole-string placeholder keeps the value's type, others are interpolated. */
function fill<T>(value: T, values: Record<string, string | number>): T {
  if (typeof value === "string") {
    const whole = /^\{(\w+)\}$/.exec(value);
    if (whole?.[1] !== undefined && values[whole[1]] !== undefined) return values[whole[1]] as T;
    return value.replace(/\{(\w+)\}/g, (all, name: string) => (values[name] === undefined ? all : String(values[name]))) as T;
  }
  if (Array.isArray(value)) return value.map((v) => fill(v, values)) as T;
  if (value !== null && typeof value === "object")
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, fill(v, values)])) as T;
  return value;
}

type Caller = { role: Role; token?: string; key?: string; cookie?: string; ownFile: string };

/** The JWT secret the server is started with, so that the test can sign an expired token as the server would. */
const JWT_SECRET = randomBytes(32).toString("base64url");
const b64url = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url");

/** The matrix's test suite against a server on a fresh database of `provider`. */
export function describeAuthorizationMatrix(provider: Provider): void {
  describe(`authorization matrix over HTTP (${provider})`, () => {
    let database: TestDatabase;
    let server: ServerProcess;
    let base: string;
    const callers = new Map<Role, Caller>();
    const values: Record<string, string | number> = {};
    let closePresence: (() => Promise<void>) | undefined;
    let idp: Idp | undefined;
    let unique = 0;
    let author: Caller;
    let admin: string;
    let singleUseReady = false;
    /** The last refusal's code and message, said when a row expected the call to pass. */
    let lastDenial = "";
    /** Whether the last refusal was a 401 (UNAUTHENTICATED or TOKEN_EXPIRED): what a bad credential must get. */
    let lastDenialWas401 = false;

    const http = async (method: string, route: string, init: { headers?: Record<string, string>; body?: unknown; raw?: string } = {}) => {
      const headers: Record<string, string> = { ...init.headers };
      let body: string | undefined;
      if (init.raw !== undefined) body = init.raw;
      else if (init.body !== undefined) {
        headers["content-type"] = "application/json";
        body = JSON.stringify(init.body);
      }
      const response = await fetch(`${base}${route}`, { method, headers, redirect: "manual", ...(body !== undefined ? { body } : {}) });
      const text = await response.text();
      let json: unknown;
      try {
        json = text ? JSON.parse(text) : {};
      } catch {
        json = { text: text.slice(0, 200) };
      }
      return { status: response.status, body: json as Record<string, unknown>, headers: response.headers };
    };
    const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
    const gql = async <T = Record<string, unknown>>(query: string, variables: Record<string, unknown>, token: string) => {
      const answer = await http("POST", "/graphql", { headers: bearer(token), body: { query, variables } });
      const body = answer.body as { data?: T; errors?: { message: string }[] };
      if (body.errors) throw new Error(`${query}: ${JSON.stringify(body.errors)}`);
      return body.data as T;
    };
    const login = async (username: string, password: string) => {
      const answer = await http("POST", "/api-token-auth/", { body: { username, password } });
      if (answer.status !== 200) throw new Error(`login ${username}: ${answer.status}`);
      return String(answer.body.token);
    };
    const createUser = async (username: string) => {
      const made = await gql<{ createUser: { id: number } }>(
        `mutation($i: CreateUserInput!) { createUser(input: $i) { id } }`,
        { i: { username, password: `${username}-password` } },
        admin,
      );
      return made.createUser.id;
    };
    const setRole = (username: string, role: string, slug = "acme") =>
      gql(
        `mutation($o: String!, $u: String!, $r: OrganizationRole!) { setOrganizationMember(slug: $o, username: $u, role: $r) { role } }`,
        { o: slug, u: username, r: role },
        admin,
      );
    const newFile = async (token: string, data: boolean, org = true) => {
      const file = await http("POST", "/api/v2/files/", {
        headers: bearer(token),
        body: { file_type: "csv", ...(org ? { org_name: "acme" } : {}) },
      });
      const id = String(file.body.file_id);
      if (data) {
        const uploaded = await http("POST", `/api/v2/upload/files/${id}`, { headers: bearer(token), raw: "s,d\na,b\nb,c\n" });
        if (uploaded.status !== 200) throw new Error(`file upload: ${uploaded.status}`);
      }
      return id;
    };
    const newDataset = async (token: string, fileId: string) => {
      const made = await http("POST", "/api/v2/upload/datasets/", {
        headers: bearer(token),
        body: {
          name: "g",
          org_name: "acme",
          metadata: {},
          node_encodings: { bindings: {} },
          edge_encodings: { bindings: { source: "s", destination: "d" } },
          edge_files: [fileId],
        },
      });
      if (made.status !== 200) throw new Error(`dataset: ${made.status} ${JSON.stringify(made.body)}`);
      return String((made.body.data as { dataset_id: string }).dataset_id);
    };

    /** A new target for one call, made by its owner (the author, or the admin for accounts). */
    async function fresh(kind: NonNullable<Row["fresh"]>): Promise<Record<string, string | number>> {
      unique += 1;
      const token = author.token as string;
      switch (kind) {
        case "file":
          return { fresh: await newFile(token, false) };
        case "dataset":
          return { fresh: await newDataset(token, values.file as string) };
        case "user":
        case "member": {
          const username = `fresh-${unique}`;
          const id = await createUser(username);
          if (kind === "member") await setRole(username, "MEMBER");
          return { fresh: username, freshId: id };
        }
        case "key": {
          const made = await gql<{ createPersonalKey: { key: { id: string } } }>(
            `mutation { createPersonalKey(name: "f") { key { id } } }`,
            {},
            token,
          );
          return { fresh: made.createPersonalKey.key.id };
        }
        case "link": {
          const made = await gql<{ generateSingleUseUrl: { path: string } }>(
            `mutation($d: ID!) { generateSingleUseUrl(username: "viewer", datasetId: $d) { path } }`,
            { d: values.dataset },
            admin,
          );
          return { fresh: new URL(made.generateSingleUseUrl.path, base).searchParams.values().next().value ?? "" };
        }
        case "ssoState": {
          const started = await http("POST", "/api/v2/g/sso/oidc/login/", { body: { "client-type": "pygraphistry" } });
          const state = (started.body.data as { state?: string } | undefined)?.state;
          if (!state) throw new Error(`sso start: ${started.status} ${JSON.stringify(started.body)}`);
          return { fresh: state };
        }
        case "ssoProvider": {
          const name = `fresh-idp-${unique}`;
          await gql(
            CREATE_PROVIDER,
            { input: { name, issuer: values.issuer, clientId: CLIENT.id, clientSecret: CLIENT.secret, organization: "idp-lab" } },
            admin,
          );
          return { fresh: name };
        }
        case "job": {
          const made = await gql<{ runComputeJob: { id: string } }>(
            `mutation($d: ID!) { runComputeJob(input: { datasetId: $d, library: "igraph", alg: "pagerank" }) { id } }`,
            { d: values.dataset },
            token,
          );
          return { fresh: made.runComputeJob.id };
        }
      }
    }

    /**
     * Opens a new single-use link to the author's dataset as a browser would, and obtains the grant's read-only token
     * for an assistant; false when the service has none.
     */
    async function signInSingleUse(): Promise<boolean> {
      const link = await http("POST", "/graphql", {
        headers: bearer(admin),
        body: {
          query: `mutation($d: ID!) { generateSingleUseUrl(username: "viewer", datasetId: $d) { path } }`,
          variables: { d: values.dataset },
        },
      });
      const linkPath = (link.body.data as { generateSingleUseUrl?: { path: string } } | undefined)?.generateSingleUseUrl?.path;
      if (!linkPath) return false;
      const opened = await http("GET", linkPath);
      const cookie = opened.headers.get("set-cookie")?.split(";")[0];
      if (!cookie) return false;
      callers.set("singleUse", { role: "singleUse", cookie, ownFile: values.file as string });
      const granted = await http("POST", "/api/v2/auth/grant-token/", { headers: { cookie, "sec-fetch-site": "same-origin" }, body: {} });
      if (granted.status !== 200) throw new Error(`grant token: ${granted.status} ${JSON.stringify(granted.body)}`);
      callers.set("singleUseToken", { role: "singleUseToken", token: String(granted.body.token), ownFile: values.file as string });
      return true;
    }

    /** Whether a cookie still signs its browser in (a call that ends it would make later rows read as anonymous). */
    async function stillSignedIn(caller: Caller): Promise<boolean> {
      const answer = await http("POST", "/graphql", { headers: headersOf(caller, { policy: "" }), body: { query: "{ caller { id } }" } });
      return Boolean((answer.body.data as { caller: unknown } | undefined)?.caller);
    }

    function headersOf(caller: Caller, row: Row): Record<string, string> {
      if (caller.role === "anonymous") return {};
      // The page of this site calls with its cookie, as a browser marks it (what /mcp asks of a cookie).
      if (caller.role === "singleUse") return caller.cookie ? { cookie: caller.cookie, "sec-fetch-site": "same-origin" } : {};
      if (row.auth === "key" && caller.key !== undefined) return { authorization: `PersonalKey ${caller.key}` };
      return bearer(caller.token ?? (caller.key as string));
    }

    function outcomeOfStatus(status: number, row: Row, body: unknown): Outcome | string {
      if ((status >= 200 && status < 300) || row.alsoAllow?.includes(status)) return "allow";
      if (DENY_STATUSES.includes(status)) {
        lastDenial = `HTTP ${status} ${JSON.stringify(body).slice(0, 200)}`;
        lastDenialWas401 = status === 401;
        return "deny";
      }
      return `unexpected ${status} ${JSON.stringify(body).slice(0, 300)}`;
    }

    function outcomeOfGraphql(
      body: { data?: unknown; errors?: { message: string; extensions?: { code?: string } }[] },
      row?: Row,
    ): Outcome | string {
      const error = body.errors?.[0];
      if (!error) return body.data ? "allow" : `unexpected answer ${JSON.stringify(body).slice(0, 300)}`;
      const said = `${error.extensions?.code}: ${error.message}`;
      if (row?.passedWhen?.some((start) => said.startsWith(start))) return "allow";
      if (DENY_CODES.includes(error.extensions?.code ?? "")) {
        lastDenial = said;
        lastDenialWas401 = error.extensions?.code === "UNAUTHENTICATED" || error.extensions?.code === "TOKEN_EXPIRED";
        return "deny";
      }
      return `unexpected error ${error.extensions?.code}: ${error.message}`;
    }

    async function callRest(key: string, row: Row, caller: Caller, vars: Record<string, string | number>) {
      const [method, routePath] = key.split(" ") as [string, string];
      const target = fill(row.path ?? routePath, vars);
      const answer = await http(method, target, {
        headers: headersOf(caller, row),
        ...(row.raw !== undefined ? { raw: row.raw } : {}),
        ...(row.body !== undefined ? { body: fill(row.body, vars) } : {}),
      });
      return outcomeOfStatus(answer.status, row, answer.body);
    }

    async function callGraphql(key: string, row: Row, caller: Caller, vars: Record<string, string | number>) {
      const query = row.query as string;
      const variables = fill(row.variables ?? {}, vars);
      const headers = headersOf(caller, row);
      if (key.startsWith("Subscription.")) return subscribe(query, variables, headers);
      if (row.upload !== undefined) {
        // The GraphQL multipart request: operations, a map, then the file.
        const form = new FormData();
        form.set("operations", JSON.stringify({ query, variables: { ...variables, data: null } }));
        form.set("map", JSON.stringify({ 0: ["variables.data"] }));
        form.set("0", new Blob([row.upload], { type: "text/csv" }), "data.csv");
        const response = await fetch(`${base}/graphql`, {
          method: "POST",
          headers: { ...headers, "graphql-require-preflight": "1" },
          body: form,
        });
        return outcomeOfGraphql((await response.json()) as never);
      }
      const answer = await http("POST", "/graphql", { headers, body: { query, variables } });
      return outcomeOfGraphql(answer.body as never, row);
    }

    /** A subscription over server-sent events: a refusal comes at once; an accepted one sends data or nothing. */
    async function subscribe(query: string, variables: Record<string, unknown>, headers: Record<string, string>) {
      const controller = new AbortController();
      const response = await fetch(`${base}/graphql`, {
        method: "POST",
        headers: { ...headers, "content-type": "application/json", accept: "text/event-stream" },
        body: JSON.stringify({ query, variables }),
        signal: controller.signal,
      });
      if (!response.ok || !response.body) {
        controller.abort();
        return outcomeOfStatus(response.status, {} as Row, await response.text().catch(() => ""));
      }
      const reader = response.body.getReader();
      const decoder = new TextDecoder();
      let text = "";
      const deadline = Date.now() + 1500;
      try {
        while (Date.now() < deadline) {
          const chunk = await Promise.race([
            reader.read(),
            new Promise<undefined>((resolve) => setTimeout(() => resolve(undefined), Math.max(1, deadline - Date.now()))),
          ]);
          if (chunk === undefined || chunk.done) break;
          text += decoder.decode(chunk.value, { stream: true });
          const data = /^data: (.+)$/m.exec(text);
          if (data?.[1]) return outcomeOfGraphql(JSON.parse(data[1]));
        }
        // Nothing refused it within the wait: the subscription stands.
        return "allow";
      } finally {
        controller.abort();
      }
    }

    async function callTool(name: string, row: Row, caller: Caller, vars: Record<string, string | number>) {
      const post = (body: unknown, extra: Record<string, string>) =>
        fetch(`${base}/mcp`, {
          method: "POST",
          headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...extra },
          body: JSON.stringify(body),
        });
      const init = await post(
        {
          jsonrpc: "2.0",
          id: 1,
          method: "initialize",
          params: { protocolVersion: "2024-11-05", capabilities: {}, clientInfo: { name: "matrix", version: "1" } },
        },
        headersOf(caller, row),
      );
      await init.text();
      const session = init.headers.get("mcp-session-id");
      if (!session) return outcomeOfStatus(init.status, row, "initialize");
      const response = await post(
        { jsonrpc: "2.0", id: 2, method: "tools/call", params: { name, arguments: fill(row.arguments ?? {}, vars) } },
        { ...headersOf(caller, row), "mcp-session-id": session },
      );
      const text = await response.text();
      const body = text ? (JSON.parse(text) as { result?: { isError?: boolean }; error?: unknown }) : {};
      if (response.status === 200 && body.result && !body.result.isError) return "allow";
      return outcomeOfStatus(response.status, {} as Row, body);
    }

    beforeAll(async () => {
      database = await createTestDatabase(provider);
      server = await startServer({
        ...database.env,
        JWT_SECRET,
        // Every caller signs the author in on each credential row, faster than a person would: the rate limits of
        // sign-ins (tested on their own) stay out of the way of the access checks here.
        RATE_LIMIT_LOGIN_PER_ACCOUNT: "0",
        RATE_LIMIT_LOGIN_PER_ADDRESS: "0",
        ADMIN_USERNAME: ADMIN.username,
        ADMIN_PASSWORD: ADMIN.password,
      });
      base = server.url;
      admin = await login(ADMIN.username, ADMIN.password);
      values.base = base;

      for (const username of ["owner", "author", "member", "orgadmin", "other", "viewer"])
        values[`${username}Id`] = await createUser(username);
      const owner = await login("owner", "owner-password");
      await gql(`mutation { createOrganization(slug: "acme") { slug } }`, {}, owner);
      // Providers made by the calls below go to an organization of their own, so the site's and acme's stay the only ones.
      await gql(`mutation { createOrganization(slug: "idp-lab") { slug } }`, {}, owner);
      await setRole("author", "MEMBER");
      await setRole("member", "MEMBER");
      await setRole("orgadmin", "ADMIN");
      // The same roles in idp-lab: its admins manage its SSO providers, its members do not.
      await setRole("member", "MEMBER", "idp-lab");
      await setRole("orgadmin", "ADMIN", "idp-lab");

      // Single sign-on: a real OpenID Connect provider, configured site-wide and for acme.
      idp = await startIdp([`${base}/sso/oidc/callback/`]);
      values.issuer = idp.issuer;
      for (const [name, organization] of [
        ["site-idp", undefined],
        ["acme-idp", "acme"],
      ] as const)
        await gql(
          CREATE_PROVIDER,
          { input: { name, issuer: idp.issuer, clientId: CLIENT.id, clientSecret: CLIENT.secret, organization } },
          admin,
        );

      const tokens: Record<string, string> = {
        author: await login("author", "author-password"),
        other: await login("other", "other-password"),
        member: await login("member", "member-password"),
        orgAdmin: await login("orgadmin", "orgadmin-password"),
        siteAdmin: admin,
      };
      const keyOf = async (token: string) =>
        (await gql<{ createPersonalKey: { credential: string } }>(`mutation { createPersonalKey(name: "m") { credential } }`, {}, token))
          .createPersonalKey.credential;

      values.authorToken = tokens.author as string;
      values.file = await newFile(tokens.author as string, true);
      values.dataset = await newDataset(tokens.author as string, values.file);
      const opened = await gql<{ openVizSession: { id: string } }>(
        `mutation($d: ID!) { openVizSession(datasetId: $d) { id } }`,
        { d: values.dataset },
        tokens.author as string,
      );
      values.session = opened.openVizSession.id;
      const collection = await gql<{ createCollection: { id: string } }>(
        `mutation($s: ID!, $q: JSON!) { createCollection(input: { sessionId: $s, name: "c", query: $q }) { id } }`,
        { s: values.session, q: [{ type: "Node" }] },
        tokens.author as string,
      );
      values.collection = collection.createCollection.id;
      const job = await gql<{ runComputeJob: { id: string } }>(
        `mutation($d: ID!) { runComputeJob(input: { datasetId: $d, library: "igraph", alg: "pagerank" }) { id } }`,
        { d: values.dataset },
        tokens.author as string,
      );
      values.job = job.runComputeJob.id;
      author = { role: "member", token: tokens.author as string, ownFile: values.file };

      callers.set("anonymous", { role: "anonymous", ownFile: values.file });
      for (const role of ["other", "member", "orgAdmin", "siteAdmin"] as const) {
        const token = tokens[role] as string;
        callers.set(role, { role, token, key: await keyOf(token), ownFile: await newFile(token, true, false) });
      }

      // The single-use viewer: a browser signed in by a link to the author's dataset (when the service has them), and
      // the read-only token it obtained for an assistant.
      singleUseReady = await signInSingleUse();

      // Credentials that must not work, each claiming as much as it can: a revoked key of the site admin's, and JWTs of
      // the site admin's that expired, were signed with another key, or carry no signature at all.
      const revoked = await gql<{ createPersonalKey: { key: { id: string }; credential: string } }>(
        `mutation { createPersonalKey(name: "revoked") { key { id } credential } }`,
        {},
        admin,
      );
      await gql(`mutation($id: ID!) { revokePersonalKey(id: $id) { id } }`, { id: revoked.createPersonalKey.key.id }, admin);
      const adminId = (await gql<{ caller: { id: number } }>(`{ caller { id } }`, {}, admin)).caller.id;
      const now = Math.floor(Date.now() / 1000);
      const claims = { username: ADMIN.username, auth_time: now - 7200 };
      const signed = (secret: string, issuedAt: number, expiresAt: number) =>
        new SignJWT(claims)
          .setProtectedHeader({ alg: "HS256", typ: "JWT" })
          .setIssuer("graphviz-gateway")
          .setSubject(String(adminId))
          .setIssuedAt(issuedAt)
          .setExpirationTime(expiresAt)
          .sign(new TextEncoder().encode(secret));
      const valid = (await signed(JWT_SECRET, now, now + 3600)).split(".");
      const otherKey = (await signed(randomBytes(32).toString("base64url"), now, now + 3600)).split(".");
      const bad: Record<(typeof BAD_CREDENTIALS)[number], Caller> = {
        revokedKey: { role: "revokedKey", key: revoked.createPersonalKey.credential, ownFile: values.file },
        expiredJwt: { role: "expiredJwt", token: await signed(JWT_SECRET, now - 7200, now - 3600), ownFile: values.file },
        // The admin's valid header and claims with another key's signature.
        tamperedJwt: { role: "tamperedJwt", token: `${valid[0]}.${valid[1]}.${otherKey[2]}`, ownFile: values.file },
        algNoneJwt: {
          role: "algNoneJwt",
          token: `${b64url({ alg: "none", typ: "JWT" })}.${valid[1]}.`,
          ownFile: values.file,
        },
      };
      for (const caller of Object.values(bad)) callers.set(caller.role, caller);
      // The genuine one is accepted: the refusals below are about what differs.
      expect((await gql<{ caller: { id: number } }>(`{ caller { id } }`, {}, valid.join("."))).caller.id).toBe(adminId);

      // The author's page is open: the session's owner is present, as tools on a live session need.
      const client = createClient({
        url: `${base.replace("http", "ws")}/graphql`,
        webSocketImpl: WebSocket,
        connectionParams: bearer(tokens.author as string),
      });
      const stop = client.subscribe(
        { query: `subscription($id: ID!) { vizSessionChanged(id: $id) { kind } }`, variables: { id: values.session } },
        { next: () => {}, error: () => {}, complete: () => {} },
      );
      closePresence = async () => {
        stop();
        await client.dispose();
      };
      for (let i = 0; i < 100; i++) {
        const seen = await gql<{ vizSession: { ownerAvailable: boolean } }>(
          `query($id: ID!) { vizSession(id: $id) { ownerAvailable } }`,
          { id: values.session },
          tokens.author as string,
        );
        if (seen.vizSession.ownerAvailable) break;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    }, 120_000);

    afterAll(async () => {
      await closePresence?.();
      await server?.stop();
      await idp?.close();
      await database?.drop();
    });

    it("has a row for every REST route, GraphQL root field and tool, and no row for one that is gone", () => {
      const live = liveOperations();
      for (const section of ["rest", "graphql", "mcp"] as const) {
        const rows = Object.keys(MATRIX[section]);
        expect({ section, missing: live[section].filter((op) => !rows.includes(op)) }).toEqual({ section, missing: [] });
        expect({ section, stale: rows.filter((op) => !live[section].includes(op)) }).toEqual({ section, stale: [] });
      }
    });

    it("gives every row an outcome for every caller", () => {
      for (const section of ["rest", "graphql", "mcp"] as const)
        for (const [op, row] of Object.entries(MATRIX[section]))
          for (const role of ROLES) expect(["allow", "deny"], `${section} ${op} ${role}`).toContain(expected(row, role));
    });

    const sections = [
      ["rest", (op: string, row: Row, caller: Caller, vars: Record<string, string | number>) => callRest(op, row, caller, vars)],
      ["graphql", (op: string, row: Row, caller: Caller, vars: Record<string, string | number>) => callGraphql(op, row, caller, vars)],
      ["mcp", (op: string, row: Row, caller: Caller, vars: Record<string, string | number>) => callTool(op, row, caller, vars)],
    ] as const;

    for (const [section, call] of sections) {
      it(`answers every ${section} operation as the table says, for every caller`, async () => {
        const mismatches: string[] = [];
        for (const [op, row] of Object.entries(MATRIX[section])) {
          for (const role of ROLES) {
            if ((role === "singleUse" || role === "singleUseToken") && !singleUseReady) continue;
            const caller = callers.get(role) as Caller;
            if ((role === "singleUse" || role === "singleUseToken") && !(await stillSignedIn(caller)))
              mismatches.push(`${op}: the single-use ${role === "singleUse" ? "session" : "token"} had ended before the call`);
            unique += 1;
            const vars = {
              ...values,
              ownFile: caller.ownFile,
              unique: `${Date.now().toString(36)}${unique}`,
              ...(row.fresh ? await fresh(row.fresh) : {}),
            };
            lastDenial = "";
            lastDenialWas401 = false;
            const got = await call(op, row, caller, vars);
            // Signing out ends the single-use browser's session (and its grant's token): the next rows get new ones.
            if (role === "singleUse" && row.endsSession) await signInSingleUse();
            const want = expected(row, role);
            if (got !== want) mismatches.push(`${op} as ${role}: expected ${want}, got ${got}${got === "deny" ? ` (${lastDenial})` : ""}`);
            else if (got === "deny" && isBadCredential(role) && !lastDenialWas401)
              mismatches.push(`${op} as ${role}: refused, but not as 401 (${lastDenial})`);
          }
        }
        expect(mismatches).toEqual([]);
      }, 300_000);
    }
  });
}
