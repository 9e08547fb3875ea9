// The timebar's window arithmetic, the filter table's sort and the CSV export of the filtered graph, in Node.
/// <reference path="../../web/src/css-modules.d.ts" />
import { Float64, Int32, Table, tableFromIPC, tableToIPC, Utf8, vectorFromArray } from "apache-arrow";
import { describe, expect, it } from "vitest";
import type { DataRoutes } from "../../web/src/data-routes.ts";
import { axisRows, exportRows } from "../../web/src/export-csv.ts";
import { binRange, type Hidden } from "../../web/src/filter-state.ts";
import { sortIndices } from "../../web/src/filter-table.ts";
import type { GraphModel } from "../../web/src/graph-model.ts";
import { histogramInSlices, histogramOf, numericHistogram } from "../../web/src/histogram.ts";
import type { VizSession } from "../../web/src/session-query.ts";
import { slide, timeText, windowBins } from "../../web/src/timebar.ts";

describe("the timebar's window", () => {
  const day = 86_400_000;
  const values = Float64Array.from({ length: 61 }, (_v, i) => Date.UTC(2024, 0, 1) + i * day);
  const bars = numericHistogram(values, values[0] ?? 0, values[60] ?? 0, "time", 60);

  it("maps a range of bins to the filter's bounds and back to the same bins", () => {
    for (const [first, last] of [
      [0, 0],
      [10, 19],
      [55, 59],
      [0, 59],
    ] as const) {
      const range = binRange(bars, first, last);
      expect(windowBins(bars, range.min, range.max)).toEqual({ first, last });
    }
    // A window of bins 10..19 keeps exactly days 10..19 (day 20 starts bin 20).
    const range = binRange(bars, 10, 19);
    const kept = [...values].filter((v) => v >= range.min && v <= range.max);
    expect(kept).toEqual([...values.slice(10, 20)]);
    expect(windowBins(bars, 0, 1)).toBeUndefined();
  });

  it("slides inside the bins and stops at either end", () => {
    expect(slide({ first: 10, last: 19 }, 1, 60)).toEqual({ first: 11, last: 20 });
    expect(slide({ first: 10, last: 19 }, -1, 60)).toEqual({ first: 9, last: 18 });
    expect(slide({ first: 50, last: 59 }, 1, 60)).toBeUndefined();
    expect(slide({ first: 0, last: 5 }, -1, 60)).toBeUndefined();
  });

  it("writes times in UTC, seconds only when there are some", () => {
    expect(timeText(Date.UTC(2024, 1, 3, 4, 5))).toBe("2024-02-03 04:05");
    expect(timeText(Date.UTC(2024, 1, 3, 4, 5, 6))).toBe("2024-02-03 04:05:06");
  });
});

describe("the filter table's sort", () => {
  const values: (string | number | null)[] = [3, null, 1, 2, "", 10];
  it("sorts numbers both ways with empty cells last, and hidden cells count as empty", () => {
    const indices = [0, 1, 2, 3, 4, 5];
    expect(sortIndices(indices, (i) => values[i] ?? null, true)).toEqual([2, 3, 0, 5, 1, 4]);
    expect(sortIndices(indices, (i) => values[i] ?? null, false)).toEqual([5, 0, 3, 2, 1, 4]);
    expect(
      sortIndices(
        indices,
        (i) => values[i] ?? null,
        true,
        (i) => i !== 2,
      ),
    ).toEqual([3, 0, 5, 1, 2, 4]);
  });
  it("sorts text with numbers in it by their value", () => {
    const text = ["node 10", "node 2", "Node 1", null];
    expect(sortIndices([0, 1, 2, 3], (i) => text[i] ?? null, true)).toEqual([2, 1, 0, 3]);
  });
});

describe("CSV of the filtered graph", () => {
  const nodes = new Table({
    id: vectorFromArray([10, 11, 12, 13], new Int32()),
    name: vectorFromArray(["a", "b", "c", "d"], new Utf8()),
  });
  const edges = new Table({
    src: vectorFromArray([10, 11, 12, 99], new Int32()),
    dst: vectorFromArray([11, 12, 13, 10], new Int32()),
    w: vectorFromArray([1, 2, 3, 4], new Float64()),
  });
  const asked: string[] = [];
  const routes = {
    columns: async (axis: string, names: string[]) => {
      asked.push(`${axis}:${names.join(",")}`);
      const table: Table = axis === "nodes" ? nodes : edges;
      return tableFromIPC(tableToIPC(table.select(names), "stream"));
    },
    row: async () => {
      throw new Error("no row asked");
    },
    loadLayout: async () => undefined,
  } as unknown as DataRoutes;
  // Three drawn links (edge row 3 has an end that is no node): links 0,1,2 are edge rows 0,1,2.
  const model = {
    topology: { nodeCount: 4, links: new Float32Array([0, 1, 1, 2, 2, 3]), linkRows: Int32Array.from([0, 1, 2]) },
    edgeColumns: { source: "src", destination: "dst" },
  } as unknown as GraphModel;
  const session = {
    dataset: {
      fieldFilters: [],
      tables: {
        nodes: { numRows: 4, dtypes: { id: "int32", name: "object" } },
        edges: { numRows: 4, dtypes: { src: "int32", dst: "int32", w: "float64" } },
      },
    },
  } as unknown as VizSession;

  it("leaves out what the filters hide when nothing is selected, and keeps everything without filters", async () => {
    // Node 3 hidden, so link 2 (2-3) too; link 0 hidden by an edge filter.
    const hidden: Hidden = { nodes: Uint8Array.from([0, 0, 0, 1]), edges: Uint8Array.from([1, 0, 1]), nodeCount: 1, edgeCount: 2 };
    const rows = await exportRows({ routes, session, model, selection: undefined, hidden });
    expect(rows.map((row) => `${row.kind}:${String(row.fields.name ?? row.fields.w)}`)).toEqual(["node:a", "node:b", "node:c", "edge:2"]);
    const all = await exportRows({ routes, session, model, selection: undefined });
    expect(all.filter((row) => row.kind === "node")).toHaveLength(4);
    expect(all.filter((row) => row.kind === "edge").map((row) => row.fields.w)).toEqual([1, 2, 3]);
  });

  it("reads a table's rows in a given order, edges by drawn link", async () => {
    asked.length = 0;
    const rows = await axisRows({ routes, session, model }, "edges", [2, 0]);
    expect(rows.map((row) => row.fields.w)).toEqual([3, 1]);
    expect(asked).toEqual(["edges:src,dst,w"]);
    expect(await axisRows({ routes, session, model }, "nodes", [])).toEqual([]);
  });
});

describe("a column's histogram read in slices", () => {
  it("gives the histogram of the whole read, pausing between slices of a text column only", async () => {
    const text = vectorFromArray(
      Array.from({ length: 20_000 }, (_v, i) => (i % 7 === 0 ? null : `v${i % 13}`)),
      new Utf8(),
    );
    let pauses = 0;
    const pause = async () => {
      pauses++;
    };
    expect(await histogramInSlices(text, pause, 4096)).toEqual(histogramOf(text));
    expect(pauses).toBe(4); // 20,000 rows in slices of 4,096: five slices
    const numbers = vectorFromArray(
      Array.from({ length: 20_000 }, (_v, i) => i % 101),
      new Float64(),
    );
    pauses = 0;
    expect(await histogramInSlices(numbers, pause, 4096)).toEqual(histogramOf(numbers));
    expect(pauses).toBe(0);
  });
});
