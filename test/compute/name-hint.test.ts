// An unknown algorithm or layout name is refused with a hint a person can act on: the closest names the library
// runs, else the other library that runs it, else every name the library runs; on the compute entry (REST, jobs)
// and on GFQL's compute and layout Calls.
import { describe, expect, it } from "vitest";
import { lookupAlgorithm } from "../../src/compute/algorithm-lookup.ts";
import { unknownNameHint } from "../../src/compute/name-hint.ts";
import { parseEntry } from "../../src/compute/params.ts";
import { computeSchema } from "../../src/compute/registry.ts";
import { loadLayouts } from "../../src/gfql/call-layout.ts";
import { executeGfql } from "../../src/gfql/execute.ts";
import { parseGfql } from "../../src/gfql/parse.ts";
import { findLayout } from "../../src/layout/registry.ts";
import { errorOf, sampleGraph } from "../gfql/helpers.ts";

const call = (fn: string, params: Record<string, unknown>) => [{ type: "Call", function: fn, params }];
const exec = (query: unknown) => executeGfql(sampleGraph(), parseGfql(query), "polars");

describe("the hint for an unknown name", () => {
  it.each([
    ["igraph", "page_rank", '; did you mean "pagerank"?'],
    ["igraph", "PageRank", '; did you mean "pagerank"?'],
    ["cugraph", "louvian", '; did you mean "louvain"?'],
    ["igraph", "core_number", '; "core_number" is a cugraph name: libraries ["cugraph"]'],
    ["cugraph", "community_multilevel", '; "community_multilevel" is an igraph name: libraries ["igraph"]'],
  ])("%s %s", (library, name, hint) => {
    expect(unknownNameHint(library, name, lookupAlgorithm)).toBe(hint);
  });

  it("lists every name the library runs when none is close", () => {
    expect(unknownNameHint("igraph", "zz", lookupAlgorithm)).toBe(`; igraph names here: ${computeSchema().igraph.sort().join(", ")}`);
  });

  it("says where a layout given as an algorithm goes, and an algorithm given as a layout", () => {
    expect(unknownNameHint("igraph", "kamada_kawai", lookupAlgorithm)).toBe(
      "; \"kamada_kawai\" is an igraph layout, not a compute algorithm (a dataset's layout field, or GFQL's layout_igraph)",
    );
    expect(unknownNameHint("cugraph", "pagerank", findLayout)).toBe(
      "; \"pagerank\" is a cugraph compute algorithm, not a layout (a dataset's compute field, or GFQL's compute_cugraph)",
    );
  });

  it("offers only what the caller takes: layouts for a layout", () => {
    expect(unknownNameHint("igraph", "circel", findLayout)).toBe('; did you mean "circle"?');
    expect(unknownNameHint("igraph", "force_atlas2", findLayout)).toBe('; "force_atlas2" is a cugraph name: libraries ["cugraph"]');
    expect(unknownNameHint("igraph", "circl", findLayout)).not.toContain("closeness");
  });

  it("is part of the compute entry's refusal", () => {
    const error = errorOf(() => parseEntry("x", { libraries: ["igraph"], alg: "page_rank" }, "compute.x"));
    expect(error.message).toBe('compute.x.alg: igraph has no algorithm "page_rank" here; did you mean "pagerank"?');
  });

  it("is part of the GFQL Calls' refusals", async () => {
    await loadLayouts();
    expect(errorOf(() => exec(call("compute_igraph", { alg: "page_rank" }))).message).toBe(
      "[E201] 'page_rank' is not an igraph algorithm this server runs; did you mean \"pagerank\"? (at chain[0].params.alg)",
    );
    expect(errorOf(() => exec(call("compute_cugraph", { alg: "community_multilevel" }))).message).toContain(
      'is not a cugraph algorithm this server runs; "community_multilevel" is an igraph name',
    );
    expect(errorOf(() => exec(call("layout_igraph", { layout: "circel" }))).message).toContain(
      "'circel' is not an igraph layout this server runs; did you mean \"circle\"?",
    );
  });
});
