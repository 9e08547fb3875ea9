// The default log sink: the lines of one turn of the event loop go to stderr in one write, and none is lost when the
// process exits at once.
import { spawnSync } from "node:child_process";
import path from "node:path";
import { setImmediate as nextTurn } from "node:timers/promises";
import { describe, expect, it } from "vitest";
import { createLogger } from "../../src/server/logger.ts";

const ROOT = path.resolve(import.meta.dirname, "../..");

describe("logger", () => {
  it("writes the lines of one turn to stderr in one write", async () => {
    const writes: string[] = [];
    const original = process.stderr.write.bind(process.stderr);
    process.stderr.write = ((chunk: string | Uint8Array) => {
      writes.push(String(chunk));
      return true;
    }) as typeof process.stderr.write;
    try {
      const logger = createLogger("info");
      logger.info("one", { n: 1 });
      logger.debug("left out");
      logger.warn("two");
      logger.error("three");
      expect(writes).toEqual([]);
      await nextTurn();
      expect(writes).toHaveLength(1);
      const lines = (writes[0] ?? "")
        .trimEnd()
        .split("\n")
        .map((line) => JSON.parse(line) as { msg: string; level: string });
      expect(lines.map((l) => [l.level, l.msg])).toEqual([
        ["info", "one"],
        ["warn", "two"],
        ["error", "three"],
      ]);
    } finally {
      process.stderr.write = original;
    }
  });

  it("loses no line when the process exits in the same turn, or ends on an uncaught error", () => {
    for (const end of ["process.exit(3)", "throw new Error('boom')"]) {
      const child = spawnSync(
        process.execPath,
        [
          "--input-type=module",
          "-e",
          `import { createLogger } from "./src/server/logger.ts"; const log = createLogger("info"); log.info("before the end", { k: 1 }); ${end};`,
        ],
        { cwd: ROOT, encoding: "utf8" },
      );
      expect(child.stderr).toContain('"msg":"before the end"');
    }
  });
});
