// export-csv.ts in Node: CSV quoting, the columns the field filters show, and Arrow rows with times as ISO text.
import { DateDay, Float64, Int64, Table, TimestampMicrosecond, tableFromIPC, tableToIPC, Utf8, vectorFromArray } from "apache-arrow";
import { describe, expect, it } from "vitest";
import type { FieldFilter } from "../../src/datasets/encodings/types.ts";
import type { DataRoutes } from "../../web/src/data-routes.ts";
import { type CsvSource, cellText, csvCell, exportRows, linksOf, tableRows, toCsv } from "../../web/src/export-csv.ts";
import type { GraphModel } from "../../web/src/graph-model.ts";
import type { VizSession } from "../../web/src/session-query.ts";

describe("export CSV", () => {
  it("quotes cells with commas, quotes, line breaks or edge spaces, and doubles inner quotes", () => {
    expect(csvCell("plain")).toBe("plain");
    expect(csvCell("a,b")).toBe('"a,b"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell("two\nlines")).toBe('"two\nlines"');
    expect(csvCell(" padded")).toBe('" padded"');
    expect(cellText(null)).toBe("");
    expect(cellText(0.1 + 0.2)).toBe("0.30000000000000004");
    expect(cellText(12345678901234567890n)).toBe("12345678901234567890");
    expect(cellText({ a: [1, 2] })).toBe('{"a":[1,2]}');
  });

  it("lists a kind column, then the fields the filters show for some row, in the tables' order; hidden cells stay empty", () => {
    const filters = [
      { kind: "inclusion", graphType: "point", global: { name: true, score: true }, byType: { server: { name: true, ip: true } } },
      { kind: "exclusion", graphType: "edge", global: { secret: true }, byType: {} },
    ] as unknown as FieldFilter[];
    const csv = toCsv(
      [
        { kind: "node", fields: { id: 1, name: "Ann, Jr.", type: "person", score: 2.5, ip: null } },
        { kind: "node", fields: { id: 2, name: "db", type: "server", score: 9, ip: "10.0.0.2" } },
        { kind: "edge", fields: { src: 1, dst: 2, secret: "x" } },
      ],
      filters,
      ["id", "name", "type", "score", "ip", "src", "dst", "secret"],
    );
    expect(csv).toBe('kind,name,score,ip,src,dst\r\nnode,"Ann, Jr.",2.5,,,\r\nnode,db,,10.0.0.2,,\r\nedge,,,,1,2\r\n');
  });

  it("names the entity column _kind when a field is named kind", () => {
    const csv = toCsv([{ kind: "node", fields: { kind: "a", n: 1 } }], [], ["n", "kind"]);
    expect(csv).toBe("_kind,n,kind\r\nnode,1,a\r\n");
  });

  it("reads Arrow rows with timestamps and dates as ISO 8601, other values as they are", () => {
    const table = tableFromIPC(
      tableToIPC(
        new Table({
          at: vectorFromArray([new Date("2024-01-02T03:04:05.678Z"), null], new TimestampMicrosecond()),
          day: vectorFromArray([new Date("2024-01-02T00:00:00Z"), null], new DateDay()),
          n: vectorFromArray([1n, 2n], new Int64()),
          x: vectorFromArray([1.5, null], new Float64()),
          s: vectorFromArray(["a", "b"], new Utf8()),
        }),
        "stream",
      ),
    );
    const row = tableRows(table);
    expect(row(0)).toEqual({ at: "2024-01-02T03:04:05.678Z", day: "2024-01-02T00:00:00.000Z", n: 1n, x: 1.5, s: "a" });
    expect(row(1)).toEqual({ at: null, day: null, n: 2n, x: null, s: "b" });
  });

  it("finds the links touching a node", () => {
    expect(linksOf(new Float32Array([0, 1, 1, 2, 2, 0, 3, 3]), 2)).toEqual([1, 2]);
  });

  it("reads a selected edge with its two ends, by the edge-table row of the drawn link (dropped edges skipped)", async () => {
    const asked: string[] = [];
    const routes = {
      row: async (axis: string, index: number) => {
        asked.push(`${axis}/${index}`);
        return axis === "nodes" ? { id: index } : { src: 0, dst: 2, row: index };
      },
      columns: async () => {
        throw new Error("not asked for a selection");
      },
      loadLayout: async () => undefined,
    } as unknown as DataRoutes;
    // Three drawn links; edge row 1 was dropped (an end that is no node), so link 1 is edge row 2.
    const model = {
      topology: { nodeCount: 3, links: new Float32Array([0, 1, 0, 2, 1, 2]), linkRows: Int32Array.from([0, 2, 3]) },
      edgeColumns: { source: "src", destination: "dst" },
    } as unknown as GraphModel;
    const source = { routes, model, session: {} as VizSession, selection: { kind: "link", index: 1 } } satisfies CsvSource;
    const rows = await exportRows(source);
    expect(rows).toEqual([
      { kind: "node", fields: { id: 0 } },
      { kind: "node", fields: { id: 2 } },
      { kind: "edge", fields: { src: 0, dst: 2, row: 2 } },
    ]);
    expect(asked.sort()).toEqual(["edges/2", "nodes/0", "nodes/2"]);
    // A node: itself and every drawn link touching it.
    asked.length = 0;
    const node = await exportRows({ ...source, selection: { kind: "node", index: 2 } });
    expect(node.map((row) => row.kind)).toEqual(["node", "edge", "edge"]);
    expect(asked.sort()).toEqual(["edges/2", "edges/3", "nodes/2"]);
  });
});
