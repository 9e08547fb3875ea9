// The parse limits as the routes answer them, set through the environment: a file upload records a 413 error
// naming the setting, a direct dataset upload answers 413; hidden compression is refused; bad settings stop start-up.
import { zstdCompressSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config/config.ts";
import { createTestGateway, type TestGateway } from "../helpers/gateway.ts";

const names = (n: number) => Array.from({ length: n }, (_, i) => `c${i}`);

describe("parse limits through the routes", () => {
  let gw: TestGateway;
  let auth: Record<string, string>;
  beforeAll(async () => {
    gw = await createTestGateway("sqlite", {
      PARSE_MAX_COLUMNS: "10",
      PARSE_MAX_COLUMN_NAME_BYTES: "32",
      PARSE_MAX_NESTING_DEPTH: "8",
      PARSER_PROCESSES: "2",
      PARSER_MAX_MEMORY_MB: "2048",
    });
    auth = { authorization: `Bearer ${await gw.login()}` };
  });
  afterAll(() => gw?.close());

  async function upload(fileType: string, body: string | Uint8Array) {
    const created = await gw.json<{ file_id: string }>("/api/v2/files/", { method: "POST", headers: auth, json: { file_type: fileType } });
    return gw.json<{ is_valid: boolean; errors: Record<string, unknown> }>(`/api/v2/upload/files/${created.body.file_id}?erase=true`, {
      method: "POST",
      headers: auth,
      body: typeof body === "string" ? body : new Uint8Array(body),
    });
  }

  async function directUpload(format: string, body: string) {
    const created = await gw.json<{ data: { dataset_id: string } }>("/api/v2/upload/datasets/", {
      method: "POST",
      headers: auth,
      json: {
        node_encodings: { bindings: {} },
        edge_encodings: { bindings: { source: "c0", destination: "c1" } },
        metadata: {},
        name: "limits",
      },
    });
    return gw.json<{ success: boolean; error?: { code: string; details: Record<string, unknown> } }>(
      `/api/v2/upload/datasets/${created.body.data.dataset_id}/edges/${format}`,
      { method: "POST", headers: auth, body },
    );
  }

  it("a file of more columns than PARSE_MAX_COLUMNS is recorded as a 413 error naming it; one at the limit parses", async () => {
    const wide = await upload("csv", `${names(11).join(",")}\n${names(11).map(() => 1)}\n`);
    expect(wide.status).toBe(200);
    expect(wide.body).toMatchObject({ is_valid: false, errors: { code: "PAYLOAD_TOO_LARGE", setting: "PARSE_MAX_COLUMNS", limit: 10 } });
    expect((await upload("csv", `${names(10).join(",")}\n${names(10).map(() => 1)}\n`)).body.is_valid).toBe(true);
  });

  it("a direct dataset upload past a limit answers 413 naming the setting", async () => {
    const wide = await directUpload("csv", `${names(11).join(",")}\n${names(11).map(() => 1)}\n`);
    expect(wide.status).toBe(413);
    expect(wide.body.error).toMatchObject({ code: "PAYLOAD_TOO_LARGE", details: { setting: "PARSE_MAX_COLUMNS" } });
    const deep = await directUpload("json", `{"c0":[1],"c1":[${"[".repeat(8)}1${"]".repeat(8)}]}`);
    expect(deep.status).toBe(413);
    expect(deep.body.error).toMatchObject({ code: "PAYLOAD_TOO_LARGE", details: { setting: "PARSE_MAX_NESTING_DEPTH", limit: 8 } });
  });

  it("a column name longer than PARSE_MAX_COLUMN_NAME_BYTES is refused", async () => {
    const long = await upload("csv", `${"n".repeat(33)},b\n1,2\n`);
    expect(long.body.errors).toMatchObject({ code: "PAYLOAD_TOO_LARGE", setting: "PARSE_MAX_COLUMN_NAME_BYTES", limit: 32 });
  });

  it("zstd data uploaded as plain csv is refused, and the next upload parses", async () => {
    const hidden = await upload("csv", zstdCompressSync(Buffer.from(`a,b\n${"1,2\n".repeat(100_000)}`)));
    expect(hidden.body).toMatchObject({ is_valid: false, errors: { code: "PARSE_FAILED", sniffed: "zstd" } });
    expect((await upload("csv", "a,b\n1,2\n")).body.is_valid).toBe(true);
  });
});

describe("parse limit settings", () => {
  it.each([
    ["PARSER_PROCESSES", "0"],
    ["PARSER_MAX_MEMORY_MB", "64"],
    ["PARSE_MAX_COLUMNS", "none"],
    ["PARSE_MAX_COLUMN_NAME_BYTES", "0"],
    ["PARSE_MAX_NESTING_DEPTH", "-1"],
  ])("%s=%s stops start-up, naming the setting", (name, value) => {
    expect(() => loadConfig({ [name]: value })).toThrow(name);
  });

  it("defaults: two processes of 4 GiB, 4,096 columns, 1,024-byte names, 1,024 levels", () => {
    expect(loadConfig({})).toMatchObject({
      parserProcesses: 2,
      parserMaxMemoryMb: 4096,
      parseMaxColumns: 4096,
      parseMaxColumnNameBytes: 1024,
      parseMaxNestingDepth: 1024,
    });
  });
});
