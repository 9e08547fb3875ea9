// The rules that build a dataset's node and edge tables, and the counts they report.
import pl from "nodejs-polars";
import { describe, expect, it } from "vitest";
import { materialize } from "../../src/datasets/materialize.ts";
import { AppError } from "../../src/errors/app-error.ts";

const edgeBindings = { source: "s", destination: "d" };

describe("materialize", () => {
  it("makes nodes from the distinct endpoints when there is no nodes table", () => {
    const edges = pl.DataFrame([pl.Series("s", [1, 2, 3], pl.Int64), pl.Series("d", [2, 3, 1], pl.Int64)]);
    const built = materialize({ edges, nodes: undefined, nodeBindings: {}, edgeBindings });
    expect(built.nodeId).toBe("node");
    expect(built.nodes.getColumn("node").toArray()).toEqual([1, 2, 3]);
    expect(built.report).toEqual([]);
  });

  it("drops null endpoints, null and duplicate node ids, adds missing endpoints, and says how many of each", () => {
    const edges = pl.DataFrame([pl.Series("s", ["a", "b", null, "c"]), pl.Series("d", ["b", "c", "a", "z"])]);
    const nodes = pl.DataFrame([pl.Series("id", ["a", "b", "b", null, "c"]), pl.Series("label", ["A", "B", "B2", "X", "C"])]);
    const built = materialize({ edges, nodes, nodeBindings: { node: "id", node_label: "label" }, edgeBindings });
    expect(built.edges?.height).toBe(3);
    expect(built.nodes.toRecords()).toEqual([
      { id: "a", label: "A" },
      { id: "b", label: "B" },
      { id: "c", label: "C" },
      { id: "z", label: null },
    ]);
    expect(built.report).toEqual([
      "1 edges with a null source or destination were dropped.",
      "1 nodes with a null id were dropped.",
      "1 duplicate node ids were dropped (the first row of each id is kept).",
      "1 edge endpoints missing from the nodes table were added as nodes.",
    ]);
  });

  it("compares ids of different types in one type: integers as int64, text when mixed with text", () => {
    const edges = pl.DataFrame([pl.Series("s", [1, 2], pl.Int32), pl.Series("d", [2, 3], pl.Int64)]);
    const ints = materialize({ edges, nodes: undefined, nodeBindings: {}, edgeBindings });
    expect(ints.edges?.getColumn("s").dtype.variant).toBe("Int64");
    const nodes = pl.DataFrame([pl.Series("id", ["1", "2", "3"])]);
    const floats = pl.DataFrame([pl.Series("s", [1, 2], pl.Float64), pl.Series("d", [2, 3], pl.Float64)]);
    const mixed = materialize({ edges: floats, nodes, nodeBindings: { node: "id" }, edgeBindings });
    expect(mixed.edges?.getColumn("s").toArray()).toEqual(["1", "2"]);
    expect(mixed.nodes.height).toBe(3);
    expect(mixed.report.at(-1)).toMatch(/compared as text/);
  });

  it("names the binding when a bound column is missing or source/destination are not bound", () => {
    const edges = pl.DataFrame({ s: [1], d: [2] });
    const fieldOf = (run: () => unknown) => {
      try {
        run();
      } catch (error) {
        expect(error).toBeInstanceOf(AppError);
        return (error as AppError).details?.field;
      }
      return undefined;
    };
    expect(fieldOf(() => materialize({ edges, nodes: undefined, nodeBindings: {}, edgeBindings: { source: "s", destination: "x" } }))).toBe(
      "edge_encodings.bindings.destination",
    );
    expect(fieldOf(() => materialize({ edges, nodes: undefined, nodeBindings: {}, edgeBindings: { source: "s" } }))).toBe(
      "edge_encodings.bindings.destination",
    );
    expect(fieldOf(() => materialize({ edges, nodes: pl.DataFrame({ n: [1] }), nodeBindings: {}, edgeBindings }))).toBe(
      "node_encodings.bindings.node",
    );
  });
});
