// The page's pure parts in Node: id matching, color and size encodings, field visibility, search, label choice, layout
// plan, layout frames and settings.
import { Float64, Int32, Table, Utf8, vectorFromArray } from "apache-arrow";
import { describe, expect, it } from "vitest";
import type { FieldFilter } from "../../src/datasets/encodings/types.ts";
import { paintColors, parseRgba } from "../../web/src/collections-paint.ts";
import { matchCountText } from "../../web/src/collections-panel.ts";
import { decodeMatches } from "../../web/src/collections-query.ts";
import { encodeColors } from "../../web/src/color-encoding.ts";
import { readKeys, readNumbers, readStrings } from "../../web/src/column-values.ts";
import { inspectorFields } from "../../web/src/field-visibility.ts";
import type { GraphModel } from "../../web/src/graph-model.ts";
import { buildTopology } from "../../web/src/graph-topology.ts";
import { topIndices } from "../../web/src/label-layer.ts";
import { encodeFrame, FRAME_MAGIC, parseFrame, planarPositions } from "../../web/src/layout-frames.ts";
import { DEFAULT_SETTINGS, settingsOf } from "../../web/src/layout-job.ts";
import { planLayout, seedPositions } from "../../web/src/layout-plan.ts";
import { opacityColumn, scaleColumn } from "../../web/src/numeric-scales.ts";
import { findLabels } from "../../web/src/search-box.ts";
import { fitIntoSpace, SPACE_SIZE } from "../../web/src/space-fit.ts";

describe("collections", () => {
  const style = (node?: Float32Array, edge?: Float32Array) => ({
    node: { rgba: node, sizes: undefined, defaultSize: 7, legend: undefined, priority: new Uint32Array(0) },
    edge: { rgba: edge, widths: undefined, strength: undefined, legend: undefined },
  });
  // Nodes 10, 30, 20; the edge from 99 is not drawn, so links map to edge rows 0 and 2.
  const topology = buildTopology(new Float64Array([10, 30, 20]), new Float64Array([10, 99, 20]), new Float64Array([20, 10, 30]));
  const layer = (id: string, color: string, nodeRows: number[], edgeRows?: number[]) => ({
    id,
    rgba: parseRgba(color) ?? [0, 0, 0, 0],
    nodeRows: Uint32Array.from(nodeRows),
    edgeRows: edgeRows && Uint32Array.from(edgeRows),
  });

  it("reads the matches blob: counts, node rows, edge rows, and an unknown edge count", () => {
    const words = new Uint32Array([2, 1, 5, 7, 3]);
    expect(decodeMatches(words.buffer)).toEqual({ nodes: Uint32Array.from([5, 7]), edges: Uint32Array.from([3]) });
    expect(decodeMatches(new Uint32Array([1, 0xffffffff, 4]).buffer)).toEqual({ nodes: Uint32Array.from([4]), edges: undefined });
  });

  it("parses #RRGGBB and #RRGGBBAA", () => {
    expect(parseRgba("#ff0000")).toEqual([1, 0, 0, 1]);
    expect(parseRgba("#00ff0080")?.[3]).toBeCloseTo(128 / 255);
    expect(parseRgba("red")).toBeUndefined();
  });

  it("leaves the style alone without layers, and paints with the top layer winning where they overlap", () => {
    expect(paintColors(style(), topology, [])).toEqual({ node: undefined, edge: undefined, interpolate: false });
    const painted = paintColors(style(), topology, [layer("top", "#ff0000", [1], [2]), layer("under", "#0000ff80", [0, 1], [0])]);
    const node = [...(painted.node ?? [])].map((v) => Math.round(v * 255));
    expect(node.slice(0, 8)).toEqual([0, 0, 255, 128, 255, 0, 0, 255]);
    // Edge row 2 is link 1, edge row 0 is link 0.
    const edge = [...(painted.edge ?? [])].map((v) => Math.round(v * 255));
    expect(edge).toEqual([0, 0, 255, 128, 255, 0, 0, 255]);
    expect(painted.interpolate).toBe(false);
  });

  it("keeps links that blended their ends' colors in those colors while collections paint", () => {
    const nodes = new Float32Array([1, 0, 0, 1, 0, 1, 0, 1, 0, 0, 1, 1]);
    expect(paintColors(style(nodes), topology, []).interpolate).toBe(true);
    const painted = paintColors(style(nodes), topology, [layer("one", "#ffffff", [1])]);
    // Link 0 joins nodes 0 (red) and 2 (blue).
    expect([...(painted.edge ?? [])].slice(0, 4)).toEqual([0.5, 0, 0.5, 1]);
    expect([...(painted.node ?? [])].slice(4, 8)).toEqual([1, 1, 1, 1]);
  });

  it("shows an unknown match count as a dash, never as 0", () => {
    expect(matchCountText(null)).toBe("—");
    expect(matchCountText(0)).toBe("0");
    expect(matchCountText(12345)).toBe("12,345");
  });
});

describe("graph topology", () => {
  it("maps sequential integer ids without a lookup table", () => {
    const t = buildTopology(new Float64Array([0, 1, 2]), new Float64Array([0, 1]), new Float64Array([1, 2]));
    expect([...t.links]).toEqual([0, 1, 1, 2]);
    expect([...t.degree]).toEqual([1, 2, 1]);
    expect(t.linkRows).toBeUndefined();
  });

  it("maps arbitrary ids, drops edges to unknown nodes and remembers each link's edge row", () => {
    const t = buildTopology(new Float64Array([10, 30, 20]), new Float64Array([10, 99, 20]), new Float64Array([20, 10, 30]));
    expect([...t.links]).toEqual([0, 2, 2, 1]);
    expect([...(t.linkRows ?? [])]).toEqual([0, 2]);
    expect(t.dropped).toBe(1);
  });

  it("meets text ids and whole-number ids as text", () => {
    const t = buildTopology(["a", "1", "b"], new Float64Array([1]), ["b"]);
    expect([...t.links]).toEqual([1, 2]);
  });

  it("reads text ids from Arrow, dictionary-encoded or not, nulls kept as null", () => {
    expect(readKeys(vectorFromArray(["x", null, "ÿz"], new Utf8()))).toEqual(["x", null, "ÿz"]);
    expect(readStrings(vectorFromArray(["p", "q", "p"]))).toEqual(["p", "q", "p"]);
    const numbers = readNumbers(vectorFromArray([3, null, 7], new Int32()));
    expect(numbers.min).toBe(3);
    expect(numbers.max).toBe(7);
    expect([...(numbers.valid ?? [])]).toEqual([1, 0, 1]);
  });
});

describe("color and size encodings", () => {
  it("gives text categories palette colors, most frequent first, with a legend", () => {
    const { rgba, legend } = encodeColors(vectorFromArray(["b", "a", "b", null], new Utf8()), "team");
    expect(legend.kind).toBe("categories");
    if (legend.kind !== "categories") return;
    expect(legend.entries.map((e) => [e.label, e.count])).toEqual([
      ["b", 2],
      ["a", 1],
    ]);
    expect(rgba.slice(0, 4)).toEqual(rgba.slice(8, 12));
    expect(rgba.slice(0, 4)).not.toEqual(rgba.slice(4, 8));
  });

  it("uses literal #rrggbb values as given", () => {
    const { rgba, legend } = encodeColors(vectorFromArray(["#ff0000", "#00ff00"], new Utf8()), "c");
    expect(legend.kind).toBe("literal");
    expect([...rgba]).toEqual([1, 0, 0, 1, 0, 1, 0, 1]);
  });

  it("ramps numbers between their minimum and maximum", () => {
    const { legend, rgba } = encodeColors(vectorFromArray([1, 2, 3], new Float64()), "score");
    expect(legend).toMatchObject({ kind: "gradient", min: "1", max: "3" });
    expect(rgba.slice(0, 3)).not.toEqual(rgba.slice(8, 11));
  });

  it("scales sizes into a range and keeps opacities already in [0, 1]", () => {
    expect([...(scaleColumn(vectorFromArray([0, 5, 10], new Float64()), { low: 2, high: 4, fallback: 3 }) ?? [])]).toEqual([2, 3, 4]);
    expect(scaleColumn(vectorFromArray(["x"], new Utf8()), { low: 0, high: 1, fallback: 0 })).toBeUndefined();
    expect([...(opacityColumn(vectorFromArray([0.5, 1], new Float64())) ?? [])]).toEqual([0.5, 1]);
  });
});

describe("inspector field visibility (spec 2.6)", () => {
  const inclusion: FieldFilter = {
    kind: "inclusion",
    graphType: "point",
    global: { name: true, score: true },
    byType: { server: { name: true, ip: true } },
  };
  const exclusion: FieldFilter = { kind: "exclusion", graphType: "edge", global: { secret: true }, byType: {} };

  it("lists only included fields, with type-specific rules taken from the type column", () => {
    expect(inspectorFields([inclusion], "point", { name: "a", score: 1, secret: "x", ip: "1.2.3.4", type: "person" })).toEqual([
      "name",
      "score",
    ]);
    expect(inspectorFields([inclusion], "point", { name: "a", score: 1, ip: "1.2.3.4", type: "server" })).toEqual(["name", "ip"]);
  });

  it("reads the type from the filter's attribute column when it names one", () => {
    const byKind = { ...inclusion, attribute: "kind" };
    expect(inspectorFields([byKind], "point", { name: "a", score: 1, ip: "h", kind: "server", type: "person" })).toEqual(["name", "ip"]);
  });

  it("hides excluded fields on edges and null fields unless a filter shows them", () => {
    expect(inspectorFields([inclusion, exclusion], "edge", { a: 1, secret: 2, empty: null })).toEqual(["a"]);
    expect(inspectorFields([{ ...exclusion, showNulls: true }], "edge", { a: 1, secret: 2, empty: null })).toEqual(["a", "empty"]);
  });
});

describe("search, standing labels and the seed layout", () => {
  it("finds exact matches, then prefixes, then substrings", () => {
    expect(findLabels(["Alphabet", "bet", "Beta", "alpha"], "bet", 5)).toEqual([1, 2, 0]);
    expect(findLabels(["a", "b"], "z", 5)).toEqual([]);
  });

  it("picks the largest values for standing labels", () => {
    expect(topIndices(new Float32Array([1, 9, 3, 9, 5]), 3)).toEqual([1, 3, 4]);
  });

  it("seeds the same positions for the same node count, inside the simulation space", () => {
    const a = seedPositions(100);
    expect(a).toEqual(seedPositions(100));
    expect([...a].every((v) => v > 0 && v < 4096)).toBe(true);
  });

  it("reads tables with several record batches", () => {
    const table = new Table({ id: vectorFromArray([1, 2], new Int32()) }).concat(new Table({ id: vectorFromArray([3], new Int32()) }));
    const ids = table.getChild("id");
    expect(ids && [...(readKeys(ids) as Float64Array)]).toEqual([1, 2, 3]);
  });
});

describe("server layout frames and the layout plan", () => {
  const positions = [1.5, -2, 3, 4, -5.25, 6];

  it("reads a frame's header and positions, as the server writes them (little-endian)", () => {
    const buffer = encodeFrame({ seq: 7, nodeCount: 3, dims: 2, iteration: 40, maxIter: 500, state: "paused", positions });
    expect(buffer.byteLength).toBe(32 + 6 * 4);
    expect(new DataView(buffer).getUint32(0, true)).toBe(FRAME_MAGIC);
    const frame = parseFrame(buffer);
    expect(frame).toMatchObject({ seq: 7, nodeCount: 3, dims: 2, iteration: 40, maxIter: 500, state: "paused" });
    expect([...(frame?.positions ?? [])]).toEqual(positions);
  });

  it("refuses messages that are not frames: wrong magic, short bodies, unknown states or dimensions", () => {
    const good = encodeFrame({ seq: 1, nodeCount: 3, dims: 2, iteration: 0, maxIter: 0, state: "running", positions });
    const edit = (word: number, value: number) => {
      const copy = good.slice(0);
      new DataView(copy).setUint32(word * 4, value, true);
      return copy;
    };
    expect(parseFrame(edit(0, 0x12345678))).toBeUndefined();
    expect(parseFrame(edit(6, 9))).toBeUndefined();
    expect(parseFrame(edit(3, 0))).toBeUndefined();
    expect(parseFrame(edit(2, 4))).toBeUndefined();
    expect(parseFrame(good.slice(0, 20))).toBeUndefined();
    expect(parseFrame(good)?.state).toBe("running");
  });

  it("keeps x and y of a 3D frame", () => {
    const frame = parseFrame(encodeFrame({ seq: 1, nodeCount: 2, dims: 3, iteration: 0, maxIter: 0, state: "done", positions }));
    expect(frame && [...planarPositions(frame)]).toEqual([1.5, -2, 4, -5.25]);
  });

  it("fits positions into the space: centered, the larger side at 80% of it, the shape kept, NaN left absent", () => {
    const fitted = fitIntoSpace(new Float32Array([-10, 0, 10, 5, 0, Number.NaN, 0, 2.5]));
    expect([...fitted.slice(0, 4)].map((v) => Math.round(v))).toEqual([
      Math.round(SPACE_SIZE * 0.1),
      Math.round(SPACE_SIZE / 2 - SPACE_SIZE * 0.1),
      Math.round(SPACE_SIZE * 0.9),
      Math.round(SPACE_SIZE / 2 + SPACE_SIZE * 0.1),
    ]);
    expect(Number.isNaN(fitted[5])).toBe(true);
    expect(fitted[6]).toBeCloseTo(SPACE_SIZE / 2, 3);
    expect(fitted[7]).toBeCloseTo(SPACE_SIZE / 2, 3);
    // One point (no extent) lands in the middle.
    expect([...fitIntoSpace(new Float32Array([123, -4]))]).toEqual([SPACE_SIZE / 2, SPACE_SIZE / 2]);
  });

  it("takes bound positions, then the stored layout, then the dataset's columns, else waits for the server", () => {
    const model = (bound?: number[], dataset?: number[]) =>
      ({
        topology: { nodeCount: 2 },
        boundPositions: bound && new Float32Array(bound),
        datasetPositions: dataset && new Float32Array(dataset),
      }) as unknown as GraphModel;
    const saved = new Float32Array([0, 0, 1, 1]);
    expect(planLayout(model([0, 0, 2, 2], [0, 0, 3, 3]), saved).source).toBe("bound");
    expect(planLayout(model(undefined, [0, 0, 3, 3]), saved).source).toBe("saved");
    expect(planLayout(model(undefined, [0, 0, 3, 3]), undefined).source).toBe("dataset");
    // A stored layout for another node count, or with holes, is not used.
    expect(planLayout(model(undefined, [0, 0, 3, 3]), new Float32Array([0, 0])).source).toBe("dataset");
    expect(planLayout(model(), new Float32Array([0, Number.NaN, 1, 1])).source).toBe("server");
    const server = planLayout(model(), undefined);
    expect(server).toEqual({ source: "server", positions: undefined });
    const drawn = planLayout(model(undefined, [0, 0, 3, 3]), undefined).positions;
    expect(drawn && [...drawn].every((v) => v >= 0 && v <= SPACE_SIZE)).toBe(true);
  });

  it("reads the panel's settings from the job's params, with cuGraph's defaults for what is missing or mistyped", () => {
    expect(settingsOf(null)).toEqual(DEFAULT_SETTINGS);
    const job = { params: { gravity: 3, scaling_ratio: "x", lin_log_mode: true } } as unknown as Parameters<typeof settingsOf>[0];
    expect(settingsOf(job)).toEqual({ gravity: 3, scaling_ratio: 2, lin_log_mode: true, prevent_overlapping: false });
  });
});
