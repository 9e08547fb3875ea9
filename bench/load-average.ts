// The machine's load average, printed by every benchmark before and after its run (figures from a busy machine say so).
import os from "node:os";

/** The 1, 5 and 15 minute load averages, "a / b / c". */
export const loadAverage = (): string =>
  os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(" / ");

/** Starts the count: the line to print at the end holds the load average now and then. */
export function loadAverageLine(): () => string {
  const before = loadAverage();
  return () => `load average (1/5/15 min): ${before} before, ${loadAverage()} after`;
}
