// The `.env` file: read from the working directory under the process environment, or the file ENV_FILE names.
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "../../src/config/config.ts";
import { withEnvFile } from "../../src/config/env-file.ts";

describe("withEnvFile", () => {
  let dir: string;

  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), "gw-envfile-"));
    await writeFile(
      path.join(dir, ".env"),
      ["# the service's settings", "PORT=9100", 'DATABASE_URL="postgres://u@db.example:5432/viz"', "export LOG_LEVEL=warn", ""].join("\n"),
    );
    await writeFile(path.join(dir, "other.env"), "PORT=9200\n");
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it("reads .env in the working directory, comments, quotes and export included", () => {
    const config = loadConfig(withEnvFile({}, dir));
    expect(config.port).toBe(9100);
    expect(config.databaseProvider).toBe("postgres");
    expect(config.databaseUrl).toBe("postgres://u@db.example:5432/viz");
    expect(config.logLevel).toBe("warn");
  });

  it("lets a variable set in the environment win over the file", () => {
    expect(loadConfig(withEnvFile({ PORT: "9300" }, dir)).port).toBe(9300);
    // Set but empty is still set: the default applies, not the file.
    expect(withEnvFile({ DATABASE_URL: "" }, dir).DATABASE_URL).toBe("");
  });

  it("reads the file ENV_FILE names instead, relative to the working directory", () => {
    expect(withEnvFile({ ENV_FILE: "other.env" }, dir).PORT).toBe("9200");
    expect(withEnvFile({ ENV_FILE: path.join(dir, "other.env") }, os.tmpdir()).PORT).toBe("9200");
  });

  it("reads no file when ENV_FILE is empty, and none when there is no .env", () => {
    expect(withEnvFile({ ENV_FILE: "" }, dir)).toEqual({ ENV_FILE: "" });
    expect(withEnvFile({ HOST: "::1" }, path.join(dir, "nowhere"))).toEqual({ HOST: "::1" });
  });

  it("refuses a file ENV_FILE names that does not exist, naming it", () => {
    expect(() => withEnvFile({ ENV_FILE: "missing.env" }, dir)).toThrow(ConfigError);
    expect(() => withEnvFile({ ENV_FILE: "missing.env" }, dir)).toThrow(path.join(dir, "missing.env"));
  });
});
