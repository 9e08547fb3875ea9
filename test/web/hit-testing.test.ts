// hit-testing.ts: the node and link under a point, found from positions on the CPU, checked against brute force.
import { describe, expect, it } from "vitest";
import { buildPointGrid, pickLink, pickPoint, segmentDistance } from "../../web/src/hit-testing.ts";
import { mulberry32 } from "../../web/src/random.ts";

function randomPositions(count: number, seed: number, spread = 1000): Float32Array {
  const random = mulberry32(seed);
  const out = new Float32Array(count * 2);
  for (let i = 0; i < out.length; i++) out[i] = random() * spread;
  return out;
}

/** The nearest node within its radius, by looking at every node. */
function bruteNode(positions: Float32Array, x: number, y: number, radius: (i: number) => number, hidden?: (i: number) => boolean) {
  let best: number | undefined;
  let bestDistance = Number.POSITIVE_INFINITY;
  for (let i = 0; i < positions.length / 2; i++) {
    const d = Math.hypot((positions[i * 2] ?? 0) - x, (positions[i * 2 + 1] ?? 0) - y);
    if (d <= radius(i) && d < bestDistance && !hidden?.(i)) {
      best = i;
      bestDistance = d;
    }
  }
  return best;
}

describe("pickPoint", () => {
  it("finds the same node as a search over every node, sizes varying", () => {
    const positions = randomPositions(5_000, 7);
    const grid = buildPointGrid(positions);
    const radius = (i: number) => 2 + (i % 7);
    const random = mulberry32(99);
    let hits = 0;
    for (let k = 0; k < 2_000; k++) {
      const [x, y] = [random() * 1000, random() * 1000];
      const expected = bruteNode(positions, x, y, radius);
      expect(pickPoint(grid, positions, { x, y, maxRadius: 8, radius })).toBe(expected);
      if (expected !== undefined) hits++;
    }
    // The points asked both hit and miss nodes.
    expect(hits).toBeGreaterThan(200);
    expect(hits).toBeLessThan(1_900);
  });

  it("prefers the nearest center where discs overlap, and never a hidden node", () => {
    const positions = new Float32Array([0, 0, 3, 0, 100, 100]);
    const grid = buildPointGrid(positions);
    const query = { x: 2, y: 0, maxRadius: 5, radius: () => 5 };
    expect(pickPoint(grid, positions, query)).toBe(1);
    expect(pickPoint(grid, positions, { ...query, hidden: (i: number) => i === 1 })).toBe(0);
    expect(pickPoint(grid, positions, { ...query, x: 50, y: 50 })).toBeUndefined();
  });

  it("leaves out nodes without a finite position, and answers on empty or one-node graphs", () => {
    const positions = new Float32Array([Number.NaN, Number.NaN, 10, 10]);
    const grid = buildPointGrid(positions);
    expect(pickPoint(grid, positions, { x: 10, y: 10, maxRadius: 1, radius: () => 1 })).toBe(1);
    expect(pickPoint(grid, positions, { x: Number.NaN, y: 10, maxRadius: 1, radius: () => 1 })).toBeUndefined();
    const empty = new Float32Array(0);
    expect(pickPoint(buildPointGrid(empty), empty, { x: 0, y: 0, maxRadius: 1, radius: () => 1 })).toBeUndefined();
  });
});

describe("pickLink", () => {
  it("finds the link nearest the point within its tolerance, as a search over every link does", () => {
    const positions = randomPositions(400, 3);
    const random = mulberry32(5);
    const links = new Float32Array(1_200);
    for (let i = 0; i < links.length; i++) links[i] = Math.floor(random() * 400);
    const tolerance = (link: number) => 1 + (link % 3);
    for (let k = 0; k < 500; k++) {
      const [x, y] = [random() * 1000, random() * 1000];
      let expected: number | undefined;
      let bestDistance = Number.POSITIVE_INFINITY;
      for (let l = 0; l < links.length / 2; l++) {
        const [s, t] = [links[l * 2] ?? 0, links[l * 2 + 1] ?? 0];
        const d = segmentDistance(x, y, positions[s * 2] ?? 0, positions[s * 2 + 1] ?? 0, positions[t * 2] ?? 0, positions[t * 2 + 1] ?? 0);
        if (d <= tolerance(l) && d < bestDistance) {
          expected = l;
          bestDistance = d;
        }
      }
      expect(pickLink(links, positions, { x, y, tolerance, maxTolerance: 3 })).toBe(expected);
    }
  });

  it("measures to the segment, not the line through it, and skips hidden links", () => {
    const positions = new Float32Array([0, 0, 10, 0, 0, 5, 10, 5]);
    const links = new Float32Array([0, 1, 2, 3]);
    const query = { tolerance: () => 1, maxTolerance: 1 };
    expect(pickLink(links, positions, { ...query, x: 5, y: 0.5 })).toBe(0);
    expect(pickLink(links, positions, { ...query, x: 5, y: 4.8 })).toBe(1);
    // On the line through link 0, past its end.
    expect(pickLink(links, positions, { ...query, x: 14, y: 0 })).toBeUndefined();
    expect(pickLink(links, positions, { ...query, x: 5, y: 0.5, hidden: (link: number) => link === 0 })).toBeUndefined();
    expect(segmentDistance(3, 4, 0, 0, 0, 0)).toBe(5);
  });
});
