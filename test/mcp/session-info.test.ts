// get_session_info's text: at most 120 column names per axis, from both ends, the rest counted inline.
import { describe, expect, it } from "vitest";
import { columnLines, sessionInfoText } from "../../facades/mcp/session-info.ts";

const dtypes = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`c${i}`, i % 2 ? "float64" : "int64"]));

describe("session info text", () => {
  it("lists every column when there are at most 120", () => {
    expect(columnLines(dtypes(120))).toHaveLength(120);
    expect(columnLines(dtypes(3))).toEqual(["  c0: int64", "  c1: float64", "  c2: int64"]);
  });

  it("keeps 60 from each end of a wider table and counts the rest inline", () => {
    const lines = columnLines(dtypes(300));
    expect(lines).toHaveLength(121);
    expect(lines[0]).toBe("  c0: int64");
    expect(lines[59]).toBe("  c59: float64");
    expect(lines[60]).toBe("  (+180 more not listed)");
    expect(lines[61]).toBe("  c240: int64");
    expect(lines[120]).toBe("  c299: float64");
  });

  it("writes counts, title and description, and both axes", () => {
    const text = sessionInfoText({
      id: "s1",
      revision: { id: "s1.3" },
      dataset: {
        id: "d1",
        name: "Flights",
        description: "routes",
        tables: { nodes: { numRows: 4, dtypes: { node: "object" } }, edges: { numRows: 7, dtypes: dtypes(130) } },
      },
    });
    expect(text.split("\n").slice(0, 8)).toEqual([
      "session_id: s1",
      "revision: s1.3",
      "dataset_id: d1",
      "title: Flights",
      "description: routes",
      "nodes: 4",
      "edges: 7",
      "node columns (1):",
    ]);
    expect(text).toContain("edge columns (130):");
    expect(text).toContain("  (+10 more not listed)");
  });

  it("adds the shared filters and encodings when set, and nothing when not", () => {
    const base = {
      id: "s1",
      revision: { id: "s1.2" },
      dataset: { id: "d1", name: "", description: "", tables: { nodes: null, edges: null } },
    };
    expect(sessionInfoText(base)).not.toMatch(/^(filters|encodings):/m);
    const text = sessionInfoText({ ...base, filters: [{ column: "rel" }], encodings: { node: { color: "kind" } } });
    expect(text).toMatch(/^filters: \[\{"column":"rel"\}\]$/m);
    expect(text).toMatch(/^encodings: \{"node":\{"color":"kind"\}\}$/m);
  });
});
