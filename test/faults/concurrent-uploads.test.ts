// Uploads racing on one file: each answers, the last to finish is the file's data, and no other version stays on disk.
import { readdir } from "node:fs/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PROVIDERS } from "../helpers/databases.ts";
import { createTestGateway, type TestGateway } from "../helpers/gateway.ts";

type FileBody = { file_id: string; is_valid: boolean; tables_schemas: { num_rows: number }[] };

describe.each(PROVIDERS)("concurrent uploads to one file on %s", (provider) => {
  let gw: TestGateway;
  let headers: Record<string, string>;

  beforeAll(async () => {
    gw = await createTestGateway(provider);
    headers = { authorization: `Bearer ${await gw.login()}` };
  });
  afterAll(() => gw?.close());

  it("ten racers leave one version, the one the record holds", async () => {
    const { body: file } = await gw.json<FileBody>("/api/v2/files/", { method: "POST", headers, json: { file_type: "csv" } });
    // Racer i sends i + 1 rows, so the stored table says which one won.
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        gw.json<FileBody>(`/api/v2/upload/files/${file.file_id}`, {
          method: "POST",
          headers,
          body: `a,b\n${Array.from({ length: i + 1 }, (_, r) => `${r},${i}`).join("\n")}\n`,
        }),
      ),
    );
    for (const answer of answers) expect({ status: answer.status, valid: answer.body.is_valid }).toEqual({ status: 200, valid: true });

    const { blobs, db } = gw.gateway.services;
    const row = await db.file.findUniqueOrThrow({ where: { id: file.file_id } });
    expect(await readdir(blobs.pathOf("files", file.file_id))).toEqual([row.dataVersion]);
    const { body: stored } = await gw.json<FileBody>(`/api/v2/files/${file.file_id}`, { headers });
    expect(stored.is_valid).toBe(true);
    expect(answers.map((a) => a.body.tables_schemas[0]?.num_rows)).toContain(stored.tables_schemas[0]?.num_rows);
  });
});
