// The ingest fixture corpus copied from ../shared/fixtures (with MANIFEST.tsv and licenses).
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const FIXTURES = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../fixtures");

export type ManifestRow = { path: string; expectedRows: string; columns: string; description: string };

export function manifest(): ManifestRow[] {
  const [, ...lines] = readFileSync(path.join(FIXTURES, "MANIFEST.tsv"), "utf8").trim().split("\n");
  return lines.map((line) => {
    const cells = line.split("\t");
    return { path: cells[0] ?? "", expectedRows: cells[8] ?? "", columns: cells[9] ?? "", description: cells[7] ?? "" };
  });
}

export const fixture = (relative: string) => readFileSync(path.join(FIXTURES, relative));
