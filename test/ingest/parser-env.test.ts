// The parser process runs with glibc's allocator told to reuse memory between a large upload's chunks
// (parse-process.ts PARSER_MALLOC_ENV), unless the server's environment sets those variables itself.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { createParserProcess, PARSER_MALLOC_ENV, parserEnv } from "../../src/ingest/parse-process.ts";

/** The environment of this process's parser children, read from /proc. */
function parserEnvironments(): Array<Record<string, string>> {
  const children = readFileSync(`/proc/${process.pid}/task/${process.pid}/children`, "utf8").trim().split(/\s+/).filter(Boolean);
  return children
    .filter((pid) => readFileSync(`/proc/${pid}/cmdline`, "utf8").includes("parse-child"))
    .map((pid) =>
      Object.fromEntries(
        readFileSync(`/proc/${pid}/environ`, "utf8")
          .split("\0")
          .filter(Boolean)
          .map((line) => [line.slice(0, line.indexOf("=")), line.slice(line.indexOf("=") + 1)]),
      ),
    );
}

describe("the parser process's allocator settings", () => {
  it("adds the three settings where the environment has none, and keeps an operator's own", () => {
    expect(parserEnv({ PATH: "/bin" })).toEqual({ PATH: "/bin", ...PARSER_MALLOC_ENV });
    expect(parserEnv({ MALLOC_ARENA_MAX: "8" })).toMatchObject({ MALLOC_ARENA_MAX: "8", MALLOC_TRIM_THRESHOLD_: String(64 << 20) });
    expect(PARSER_MALLOC_ENV).toEqual({
      MALLOC_ARENA_MAX: "2",
      MALLOC_MMAP_THRESHOLD_: String(32 << 20),
      MALLOC_TRIM_THRESHOLD_: String(64 << 20),
    });
  });

  it.runIf(process.platform === "linux")("starts the parser process with them", async () => {
    const parser = createParserProcess();
    try {
      parser.start();
      let found: Array<Record<string, string>> = [];
      for (let i = 0; i < 100 && found.length === 0; i++) {
        found = parserEnvironments();
        if (found.length === 0) await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect(found.length).toBeGreaterThan(0);
      for (const env of found) expect(env).toMatchObject(parserEnv(process.env) as Record<string, string>);
    } finally {
      await parser.close();
    }
  });
});
