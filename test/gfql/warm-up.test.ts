// The query worker's warm-up: every warm-up query runs without an error (one that failed would leave its path cold,
// unnoticed), and the step-by-step warm-up stops at once when a job has come.
import { describe, expect, it } from "vitest";
import { startWarmUp, WARM_UP_QUERIES, warmGfqlEngine } from "../../src/gfql/warm-up.ts";

const turn = () => new Promise((resolve) => setImmediate(resolve));

describe("the GFQL engine's warm-up", () => {
  it("runs every one of its queries without an error", () => {
    expect(WARM_UP_QUERIES).toBeGreaterThanOrEqual(9);
    expect(warmGfqlEngine()).toBe(WARM_UP_QUERIES);
  });

  it("runs a query a turn, and none after it is told to stop", async () => {
    let asked = 0;
    let stopAfter = Number.POSITIVE_INFINITY;
    startWarmUp(() => {
      asked += 1;
      return asked > stopAfter;
    });
    for (let i = 0; i < 3; i += 1) await turn();
    stopAfter = asked;
    const atStop = asked;
    for (let i = 0; i < WARM_UP_QUERIES + 2; i += 1) await turn();
    // Asked once more (answered "stop"), then never again.
    expect(asked).toBe(atStop + 1);
    expect(atStop).toBeGreaterThan(0);
    expect(atStop).toBeLessThan(WARM_UP_QUERIES);
  });
});
