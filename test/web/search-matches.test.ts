// The search's matching and the inspector's neighbour list, in Node: ranking, field filters by row, distinct neighbours.
import { Table, vectorFromArray } from "apache-arrow";
import { describe, expect, it } from "vitest";
import type { DataRoutes } from "../../web/src/data-routes.ts";
import type { GraphModel } from "../../web/src/graph-model.ts";
import { buildTopology } from "../../web/src/graph-topology.ts";
import { neighboursOf } from "../../web/src/inspector-neighbour-ids.ts";
import { createSearchFields, type SearchField } from "../../web/src/search-columns.ts";
import { findMatches } from "../../web/src/search-matches.ts";
import type { VizSession } from "../../web/src/session-query.ts";
import { dtypesOf, sessionAnswer, smallGraphFixture } from "./harness/graph-fixture.ts";

const field = (name: string, text: string[], shown?: number[]): SearchField => ({
  name,
  text,
  lower: text.map((value) => value.toLowerCase()),
  shown: shown ? Uint8Array.from(shown) : undefined,
});

describe("findMatches", () => {
  it("counts each row once, exact then prefix then substring, each by its best field", () => {
    const fields = [field("name", ["Alphabet", "bet", "Beta", "alpha", "zed"]), field("note", ["", "", "", "BET", "a bet"])];
    const found = findMatches(fields, "bet", 5);
    expect([...found.rows]).toEqual([1, 3, 2, 0, 4]);
    // Row 3 matched exactly in the note, row 4 only inside it.
    expect([...found.fields]).toEqual([0, 1, 0, 0, 1]);
    expect(findMatches(fields, "nothing", 5).rows).toHaveLength(0);
  });

  it("skips a field where the filters hide it", () => {
    const fields = [field("name", ["a", "b", "c"]), field("secret", ["key", "key", "key"], [0, 1, 0])];
    expect([...findMatches(fields, "key", 3).rows]).toEqual([1]);
  });
});

describe("neighboursOf", () => {
  it("lists distinct neighbours in link order, without self-loops", () => {
    const ids = Float64Array.from([0, 1, 2, 3]);
    const topology = buildTopology(ids, Float64Array.from([0, 1, 0, 2, 0]), Float64Array.from([1, 0, 0, 0, 3]));
    expect(neighboursOf(topology, 0)).toEqual([1, 2, 3]);
    expect(topology.degree[0]).toBe(6);
    expect(neighboursOf(topology, 3)).toEqual([0]);
  });
});

describe("createSearchFields", () => {
  it("fetches the shown text columns once, with the type column, and marks where the filters hide them", async () => {
    const fixture = smallGraphFixture();
    // A column the gateway names "object" that is not text, shown to people: fetched, never searched.
    const nodes = fixture.nodes.assign(new Table({ blob: vectorFromArray(Array.from({ length: fixture.nodes.numRows }, (_, i) => i)) }));
    const people = fixture.fieldFilters[0];
    if (people) people.global = { ...people.global, blob: true };
    const session = sessionAnswer({ ...fixture, nodes }) as unknown as VizSession;
    session.dataset.tables.nodes = { numRows: nodes.numRows, dtypes: { ...dtypesOf(nodes), blob: "object" } };
    const asked: string[][] = [];
    const routes: DataRoutes = {
      async columns(_axis, names) {
        asked.push([...names].sort());
        return nodes.select(names as string[]);
      },
      row: async () => ({}),
      loadLayout: async () => undefined,
    };
    const ids = nodes.getChild("id");
    const names = nodes.getChild("name");
    if (!ids || !names) throw new Error("fixture lacks id or name");
    const model = {
      nodeColumns: { id: "id", label: "name" },
      nodeIds: ids,
      labels: names,
      topology: { nodeCount: nodes.numRows },
    } as unknown as GraphModel;
    const load = createSearchFields(routes, () => session);
    const fields = await load(model);
    expect(await load(model)).toBe(fields);
    expect(asked).toEqual([["blob", "group", "ip", "note", "type"]]);
    expect(fields.map((field) => field.name)).toEqual(["name", "id", "type", "group", "ip", "note"]);
    const group = fields.find((field) => field.name === "group");
    // Servers (every sixth node from 5) show only name and ip.
    expect(group?.shown?.[5]).toBe(0);
    expect(group?.shown?.[4]).toBe(1);
    expect(fields.find((field) => field.name === "ip")?.shown?.[4]).toBe(0);
    expect(findMatches(fields, "team", nodes.numRows).rows).toHaveLength(30);

    // Stricter filters: the group is hidden for everyone, and neither the new fields nor the cached ids and labels keep it.
    session.dataset.fieldFilters = session.dataset.fieldFilters.map((filter) =>
      filter.graphType === "point" ? { ...filter, global: { ...filter.global, group: false } } : filter,
    );
    const stricter = await load(model);
    expect(stricter.map((field) => field.name)).toEqual(["name", "id", "type", "ip", "note"]);
    expect(findMatches(stricter, "team", nodes.numRows).rows).toHaveLength(0);
    expect(asked).toHaveLength(2);
  });
});
