// The hypergraph transform against pygraphistry's worked examples (tests/test_hypergraph.py, test_hyper_dask.py).
import pl from "nodejs-polars";
import { describe, expect, it } from "vitest";
import { hypergraph, pyFloat, pyStrSeries, readHypergraphOptions } from "../../src/datasets/hypergraph.ts";
import { AppError } from "../../src/errors/app-error.ts";

const values = (frame: pl.DataFrame, column: string) => frame.getColumn(column).toArray();
const sorted = (list: readonly string[]) => [...list].sort();

/** pygraphistry's triangleNodes. */
const triangle = () =>
  pl.DataFrame([
    pl.Series("id", ["a", "b", "c"]),
    pl.Series("a1", [1, 2, 3], pl.Int64),
    pl.Series("a2", ["red", "blue", "green"]),
    pl.Series("🙈", ["æski ēˈmōjē", "😋", "s"]),
  ]);

/** pygraphistry's hyper_df; its mixed column cc (['b', 0, 1]) is text here, as polars columns have one type. */
const hyperDf = () =>
  pl.DataFrame([pl.Series("aa", [0, 1, 2], pl.Int64), pl.Series("bb", ["a", "b", "c"]), pl.Series("cc", ["b", "0", "1"])]);

const EVENTS_x4 = ["EventID::0", "EventID::1", "EventID::2"];

function refusal(run: () => unknown): AppError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(AppError);
    return error as AppError;
  }
  throw new Error("expected an AppError");
}

describe("hypergraph (direct=false)", () => {
  it("turns 3 rows x 4 columns into 12 entities, 15 nodes and 12 edges", () => {
    const h = hypergraph(triangle(), {});
    expect([h.entities.height, h.nodes.height, h.edges.height, h.events.height]).toEqual([12, 15, 12, 3]);
    expect(sorted(h.edges.columns)).toEqual(sorted(["a1", "a2", "id", "🙈", "edgeType", "attribID", "EventID"]));
    expect(values(h.edges, "edgeType")).toEqual(["a1", "a1", "a1", "a2", "a2", "a2", "id", "id", "id", "🙈", "🙈", "🙈"]);
    expect(values(h.edges, "attribID")).toEqual([
      "a1::1",
      "a1::2",
      "a1::3",
      "a2::red",
      "a2::blue",
      "a2::green",
      "id::a",
      "id::b",
      "id::c",
      "🙈::æski ēˈmōjē",
      "🙈::😋",
      "🙈::s",
    ]);
    expect(values(h.edges, "EventID")).toEqual([...EVENTS_x4, ...EVENTS_x4, ...EVENTS_x4, ...EVENTS_x4]);
    expect(values(h.edges, "a1")).toEqual([1, 2, 3, 1, 2, 3, 1, 2, 3, 1, 2, 3]);
    expect(values(h.edges, "id")).toEqual(["a", "b", "c", "a", "b", "c", "a", "b", "c", "a", "b", "c"]);
  });

  it("binds edges from the event to the attribute, as the spec says (not pygraphistry's attribID -> EventID)", () => {
    expect(hypergraph(triangle(), {}).bindings).toEqual({ source: "EventID", destination: "attribID", node: "nodeID", title: "nodeTitle" });
  });

  it("makes entity nodes with the raw value, title, type, category and id, and event nodes per row", () => {
    const h = hypergraph(triangle(), {});
    const a1 = h.entities.filter(pl.col("type").eq(pl.lit("a1")));
    expect(values(a1, "nodeID")).toEqual(["a1::1", "a1::2", "a1::3"]);
    expect(values(a1, "nodeTitle")).toEqual(["1", "2", "3"]);
    expect(values(a1, "category")).toEqual(["a1", "a1", "a1"]);
    expect(values(a1, "a1")).toEqual([1, 2, 3]);
    expect(values(h.entities, "nodeID")).toEqual([
      "id::a",
      "id::b",
      "id::c",
      "a1::1",
      "a1::2",
      "a1::3",
      "a2::red",
      "a2::blue",
      "a2::green",
      "🙈::æski ēˈmōjē",
      "🙈::😋",
      "🙈::s",
    ]);
    expect(h.events.toRecords()[1]).toEqual({
      id: "b",
      a1: 2,
      a2: "blue",
      "🙈": "😋",
      EventID: "EventID::1",
      type: "EventID",
      category: "event",
      nodeID: "EventID::1",
      nodeTitle: "EventID::1",
    });
  });

  it("stacks entities and events into one node table with the union of columns, storable as Arrow", () => {
    const h = hypergraph(triangle(), {});
    expect(sorted(h.nodes.columns)).toEqual(sorted(["id", "a1", "a2", "🙈", "EventID", "type", "category", "nodeID", "nodeTitle"]));
    expect(String(h.nodes.getColumn("a1").dtype)).toBe(String(pl.Int64));
    expect(values(h.nodes, "nodeID").slice(12)).toEqual(EVENTS_x4);
    expect(values(h.nodes, "a1").slice(0, 3)).toEqual([null, null, null]);
    const back = pl.readIPC(h.nodes.writeIPC());
    expect(back.height).toBe(15);
    expect(back.columns).toEqual(h.nodes.columns);
  });

  it("drop_edge_attrs keeps only edgeType, attribID and EventID (9 entities, 12 nodes, 9 edges)", () => {
    const h = hypergraph(triangle(), { entity_types: ["id", "a1", "🙈"], drop_edge_attrs: true });
    expect([h.entities.height, h.nodes.height, h.edges.height, h.events.height]).toEqual([9, 12, 9, 3]);
    expect(sorted(h.edges.columns)).toEqual(sorted(["edgeType", "attribID", "EventID"]));
    expect(h.edges.select("edgeType", "attribID", "EventID").toRecords()).toEqual(
      [
        ["a1", "a1::1", 0],
        ["a1", "a1::2", 1],
        ["a1", "a1::3", 2],
        ["id", "id::a", 0],
        ["id", "id::b", 1],
        ["id", "id::c", 2],
        ["🙈", "🙈::æski ēˈmōjē", 0],
        ["🙈", "🙈::😋", 1],
        ["🙈", "🙈::s", 2],
      ].map(([edgeType, attribID, row]) => ({ edgeType, attribID, EventID: `EventID::${row}` })),
    );
  });

  it("orders edge groups by column name in code-point order, as Python's sorted()", () => {
    const table = pl.DataFrame([pl.Series("😋", ["x"]), pl.Series("\uff01", ["y"]), pl.Series("B", ["z"]), pl.Series("a", ["w"])]);
    expect(values(hypergraph(table, {}).edges, "edgeType")).toEqual(["B", "a", "\uff01", "😋"]);
  });

  it("CATEGORIES merges equal values of several columns into one node and types edges by category", () => {
    const table = pl.DataFrame([pl.Series("src_ip", ["1.1.1.1", "2.2.2.2"]), pl.Series("dst_ip", ["2.2.2.2", "3.3.3.3"])]);
    const h = hypergraph(table, { opts: { CATEGORIES: { ip: ["src_ip", "dst_ip"] } } });
    expect(values(h.entities, "nodeID")).toEqual(["ip::1.1.1.1", "ip::2.2.2.2", "ip::3.3.3.3"]);
    expect(values(h.entities, "type")).toEqual(["src_ip", "src_ip", "dst_ip"]);
    expect(values(h.entities, "category")).toEqual(["ip", "ip", "ip"]);
    expect(h.edges.select("edgeType", "category", "attribID", "EventID").toRecords()).toEqual([
      { edgeType: "ip", category: "dst_ip", attribID: "ip::2.2.2.2", EventID: "EventID::0" },
      { edgeType: "ip", category: "dst_ip", attribID: "ip::3.3.3.3", EventID: "EventID::1" },
      { edgeType: "ip", category: "src_ip", attribID: "ip::1.1.1.1", EventID: "EventID::0" },
      { edgeType: "ip", category: "src_ip", attribID: "ip::2.2.2.2", EventID: "EventID::1" },
    ]);
    expect(h.nodes.height).toBe(5);
  });

  it("SKIP keeps columns out of the entities but on the edges", () => {
    const h = hypergraph(triangle(), { opts: { SKIP: ["a2", "🙈"] } });
    expect(sorted(values(h.entities, "type") as string[])).toEqual(["a1", "a1", "a1", "id", "id", "id"]);
    expect(h.edges.height).toBe(6);
    expect(h.edges.columns).toContain("a2");
  });

  it("EVENTID names a column whose values become the event ids (and which is never an entity)", () => {
    const table = triangle().withColumns(pl.Series("EventID", [10, 20, 30], pl.Int64));
    const h = hypergraph(table, {});
    expect(values(h.events, "nodeID")).toEqual(["EventID::10", "EventID::20", "EventID::30"]);
    expect(values(h.entities, "type")).not.toContain("EventID");
    expect(h.edges.height).toBe(12);
    const custom = hypergraph(triangle(), { entity_types: ["a1"], opts: { EVENTID: "id" } });
    expect(values(custom.edges, "id")).toEqual(["id::a", "id::b", "id::c"]);
    expect(custom.bindings.source).toBe("id");
    const numbered = hypergraph(triangle(), { entity_types: ["a1"], opts: { EVENTID: "row" } });
    expect(values(numbered.edges, "row")).toEqual(["row::0", "row::1", "row::2"]);
  });

  it("DELIM joins every id, the event prefix included", () => {
    const h = hypergraph(triangle(), { entity_types: ["a1"], opts: { DELIM: "/" } });
    expect(values(h.edges, "attribID")).toEqual(["a1/1", "a1/2", "a1/3"]);
    expect(values(h.edges, "EventID")).toEqual(["EventID/0", "EventID/1", "EventID/2"]);
  });

  it("renames its output columns through opts", () => {
    const h = hypergraph(triangle(), {
      entity_types: ["id"],
      opts: { NODEID: "nid", TITLE: "t", ATTRIBID: "attr", EDGETYPE: "et", NODETYPE: "nt", CATEGORY: "cat", EVENTTYPE: "row" },
    });
    expect(h.bindings).toEqual({ source: "EventID", destination: "attr", node: "nid", title: "t" });
    expect(sorted(h.nodes.columns)).toEqual(sorted(["id", "a1", "a2", "🙈", "EventID", "nid", "t", "nt", "cat"]));
    expect(values(h.events, "cat")).toEqual(["row", "row", "row"]);
    expect(values(h.edges, "et")).toEqual(["id", "id", "id"]);
  });

  it("drop_na (the default) drops missing values: 7 nodes and 4 edges", () => {
    const table = pl.DataFrame([pl.Series("a", ["a", null, "c"]), pl.Series("i", [1, 2, null], pl.Int64)]);
    for (const options of [{}, { drop_na: true }]) {
      const h = hypergraph(table, options);
      expect([h.nodes.height, h.edges.height]).toEqual([7, 4]);
      expect(values(h.entities, "nodeID")).toEqual(["a::a", "a::c", "i::1", "i::2"]);
    }
  });

  it("drop_na=false turns missing values into NULLVAL ids: 9 nodes and 6 edges", () => {
    const table = pl.DataFrame([pl.Series("x", ["a", null, "c"]), pl.Series("y", [1.5, 2, Number.NaN], pl.Float64)]);
    const h = hypergraph(table, { drop_na: false });
    expect([h.nodes.height, h.edges.height]).toEqual([9, 6]);
    expect(values(h.entities, "nodeID")).toEqual(["x::a", "x::null", "x::c", "y::1.5", "y::2.0", "y::null"]);
    expect(values(h.entities, "nodeTitle")).toEqual(["a", "null", "c", "1.5", "2.0", "null"]);
    const renamed = hypergraph(table, { drop_na: false, opts: { NULLVAL: "NA" } });
    expect(values(renamed.edges, "attribID")).toContain("x::NA");
  });

  it("refuses options naming columns the table lacks, naming the column", () => {
    const cases: [object, string, string][] = [
      [{ entity_types: ["id", "nope"] }, "entity_types", "nope"],
      [{ opts: { SKIP: ["gone"] } }, "opts.SKIP", "gone"],
      [{ opts: { CATEGORIES: { n: ["a1", "zz"] } } }, "opts.CATEGORIES.n", "zz"],
      [{ direct: true, opts: { EDGES: { missing: ["a1"] } } }, "opts.EDGES.missing", "missing"],
      [{ direct: true, opts: { EDGES: { a1: ["absent"] } } }, "opts.EDGES.a1", "absent"],
    ];
    for (const [options, option, column] of cases) {
      const error = refusal(() => hypergraph(triangle(), options));
      expect(error.code).toBe("INVALID_INPUT");
      expect(error.message).toContain(`"${column}"`);
      expect(error.message).toContain(option);
      expect(error.details).toMatchObject({ columns: [column] });
    }
  });
});

describe("hypergraph (direct=true)", () => {
  it("links every entity column to every later one: 9 edges and 9 nodes, no event nodes", () => {
    const h = hypergraph(hyperDf(), { direct: true });
    expect([h.edges.height, h.nodes.height, h.events.height]).toEqual([9, 9, 0]);
    expect(h.bindings).toEqual({ source: "src", destination: "dst", node: "nodeID", title: "nodeTitle" });
    expect(values(h.edges, "edgeType")).toEqual(["aa::bb", "aa::bb", "aa::bb", "aa::cc", "aa::cc", "aa::cc", "bb::cc", "bb::cc", "bb::cc"]);
    expect(values(h.edges, "src").slice(0, 3)).toEqual(["aa::0", "aa::1", "aa::2"]);
    expect(values(h.edges, "dst").slice(3, 6)).toEqual(["cc::b", "cc::0", "cc::1"]);
    expect(values(h.nodes, "EventID")).toEqual(new Array(9).fill(null));
  });

  it("with CATEGORIES merges nodes across columns: 9 edges and 6 nodes", () => {
    const h = hypergraph(hyperDf(), { direct: true, opts: { CATEGORIES: { n: ["aa", "bb", "cc"] } } });
    expect([h.edges.height, h.nodes.height]).toEqual([9, 6]);
    expect(values(h.nodes, "nodeID")).toEqual(["n::0", "n::1", "n::2", "n::a", "n::b", "n::c"]);
    expect(values(h.edges, "edgeType").slice(0, 1)).toEqual(["n::n"]);
    expect(values(h.edges, "category").slice(0, 1)).toEqual(["aa::bb"]);
  });

  it("EDGES shapes which pairs become edges", () => {
    expect(hypergraph(hyperDf(), { direct: true, opts: { EDGES: { aa: ["cc"], cc: ["cc"] } } }).edges.height).toBe(6);
    expect(hypergraph(hyperDf(), { direct: true, opts: { EDGES: { aa: ["cc", "bb", "aa"], cc: ["cc"] } } }).edges.height).toBe(12);
  });

  it("drop_edge_attrs with EDGES gives exactly pygraphistry's edges", () => {
    const h = hypergraph(triangle(), {
      entity_types: ["id", "a1", "🙈"],
      direct: true,
      drop_edge_attrs: true,
      opts: { EDGES: { id: ["a1"], a1: ["🙈"] } },
    });
    expect([h.entities.height, h.nodes.height, h.edges.height, h.events.height]).toEqual([9, 9, 6, 0]);
    expect(sorted(h.edges.columns)).toEqual(sorted(["edgeType", "src", "dst", "EventID"]));
    expect(h.edges.select("edgeType", "src", "dst", "EventID").toRecords()).toEqual([
      { edgeType: "a1::🙈", src: "a1::1", dst: "🙈::æski ēˈmōjē", EventID: "EventID::0" },
      { edgeType: "a1::🙈", src: "a1::2", dst: "🙈::😋", EventID: "EventID::1" },
      { edgeType: "a1::🙈", src: "a1::3", dst: "🙈::s", EventID: "EventID::2" },
      { edgeType: "id::a1", src: "id::a", dst: "a1::1", EventID: "EventID::0" },
      { edgeType: "id::a1", src: "id::b", dst: "a1::2", EventID: "EventID::1" },
      { edgeType: "id::a1", src: "id::c", dst: "a1::3", EventID: "EventID::2" },
    ]);
  });

  it("drop_na drops rows missing either end: 2 nodes and 1 edge", () => {
    const table = pl.DataFrame([pl.Series("a", ["a", null, "a"]), pl.Series("i", [1, 1, null], pl.Int64)]);
    const h = hypergraph(table, { direct: true, drop_na: true });
    expect([h.nodes.height, h.edges.height]).toEqual([2, 1]);
    expect(h.edges.select("src", "dst").toRecords()).toEqual([{ src: "a::a", dst: "i::1" }]);
    const kept = hypergraph(table, { direct: true, drop_na: false });
    expect(values(kept.edges, "dst")).toEqual(["i::1", "i::1", "i::null"]);
  });

  it("one entity column makes nodes and an empty edge table that still has src and dst", () => {
    const table = pl.DataFrame([
      pl.Series("name", ["Pineville Park", "Pineville Grocery", "Maplewood Shop"]),
      pl.Series("town", ["Pineville", "Pineville", "Maplewood"]),
      pl.Series("type", ["Park", "Store", "Store"]),
    ]);
    const h = hypergraph(table, { entity_types: ["town"], direct: true });
    expect([h.nodes.height, h.edges.height]).toEqual([2, 0]);
    expect(h.edges.columns).toEqual(expect.arrayContaining(["src", "dst", "edgeType", "EventID"]));
  });
});

describe("Python str() of values in ids", () => {
  it("writes ints, floats, booleans and strings as Python does", () => {
    const table = pl.DataFrame([
      pl.Series("i", [1, -2], pl.Int64),
      pl.Series("f", [1, 0.00001], pl.Float64),
      pl.Series("b", [true, false]),
      pl.Series("s", ["x y", ""]),
      pl.Series("f32", [0.1, 1 / 3], pl.Float32),
    ]);
    const ids = values(hypergraph(table, {}).entities, "nodeID");
    expect(ids).toEqual(["i::1", "i::-2", "f::1.0", "f::1e-05", "b::True", "b::False", "s::x y", "s::", "f32::0.1", "f32::0.33333334"]);
  });

  it("matches repr() of floats", () => {
    const cases: [number, string][] = [
      [1, "1.0"],
      [1e16, "1e+16"],
      [1234567890123456, "1234567890123456.0"],
      [0.0001, "0.0001"],
      [123456789012345680, "1.2345678901234568e+17"],
      [-2.5e-7, "-2.5e-07"],
      [0.1 + 0.2, "0.30000000000000004"],
      [-0, "-0.0"],
      [5e-324, "5e-324"],
      [1.7976931348623157e308, "1.7976931348623157e+308"],
      [12345.678, "12345.678"],
      [Number.POSITIVE_INFINITY, "inf"],
    ];
    for (const [x, text] of cases) expect(pyFloat(x)).toBe(text);
  });

  it("keeps 64-bit integers exact and treats NaN as missing", () => {
    const big = pl.readCSV("n\n9007199254740993\n", {}).getColumn("n");
    expect(pyStrSeries(big).toArray()).toEqual(["9007199254740993"]);
    expect(pyStrSeries(pl.Series("f", [Number.NaN, 2.5])).toArray()).toEqual([null, "2.5"]);
  });
});

describe("readHypergraphOptions", () => {
  const field = "edge_hypergraph_transform[0]";

  it("accepts {} and every documented key, treating null as not given", () => {
    expect(readHypergraphOptions({}, field)).toEqual({});
    const full = {
      entity_types: ["a"],
      direct: true,
      drop_edge_attrs: false,
      drop_na: false,
      opts: { EVENTID: "e", CATEGORIES: { n: ["a", "b"] }, DELIM: "", SKIP: ["c"], EDGES: { a: ["b"] }, NULLVAL: "NA" },
    };
    expect(readHypergraphOptions(full, field)).toEqual(full);
    expect(readHypergraphOptions({ entity_types: null, opts: { SKIP: null } }, field)).toEqual({ opts: {} });
  });

  it("refuses unknown keys by name", () => {
    const top = refusal(() => readHypergraphOptions({ entityTypes: ["a"] }, field));
    expect(top.message).toContain("entityTypes");
    expect(top.details).toEqual({ field: `${field}.entityTypes` });
    const nested = refusal(() => readHypergraphOptions({ opts: { DELIMITER: "," } }, field));
    expect(nested.code).toBe("INVALID_INPUT");
    expect(nested.details).toEqual({ field: `${field}.opts.DELIMITER` });
  });

  it("refuses wrong types, naming the field", () => {
    const cases: [unknown, string][] = [
      [[], field],
      ["x", field],
      [{ direct: "yes" }, `${field}.direct`],
      [{ drop_na: 1 }, `${field}.drop_na`],
      [{ entity_types: "a" }, `${field}.entity_types`],
      [{ entity_types: ["a", 2] }, `${field}.entity_types[1]`],
      [{ opts: [] }, `${field}.opts`],
      [{ opts: { DELIM: 3 } }, `${field}.opts.DELIM`],
      [{ opts: { NODEID: "" } }, `${field}.opts.NODEID`],
      [{ opts: { SKIP: [true] } }, `${field}.opts.SKIP[0]`],
      [{ opts: { CATEGORIES: ["a"] } }, `${field}.opts.CATEGORIES`],
      [{ opts: { CATEGORIES: { n: "a" } } }, `${field}.opts.CATEGORIES.n`],
      [{ opts: { EDGES: { a: [null] } } }, `${field}.opts.EDGES.a[0]`],
    ];
    for (const [value, name] of cases) {
      const error = refusal(() => readHypergraphOptions(value, field));
      expect(error.code).toBe("INVALID_INPUT");
      expect(error.details).toEqual({ field: name });
      expect(error.message).toContain(name);
    }
  });
});
