// node_encodings/edge_encodings: bindings, both forms of `complex`, the spec 2.6 field filters, and the JSON Schema.
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { Ajv } from "ajv";
import { describe, expect, it } from "vitest";
import {
  EDGE_BINDING_KEYS,
  type FieldFilter,
  NODE_BINDING_KEYS,
  type NormalizedEncodings,
  normalizeEncodings,
  visibleFields,
} from "../../src/datasets/encodings.ts";
import { AppError } from "../../src/errors/app-error.ts";

type Axis = "node" | "edge";
type Json = Record<string, unknown>;

const SCHEMA_FILE = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../schema/json/encodings.json");

const inclusion = (rules: Json, extra: Json = {}) => ({ graphType: "point", encodingType: "fieldinclusion", inclusion: rules, ...extra });
const exclusion = (rules: Json, extra: Json = {}) => ({ graphType: "edge", encodingType: "fieldexclusion", exclusion: rules, ...extra });
const nodes = (byDefault: Json, bindings: Json = { node: "id" }) => ({ bindings, complex: { default: byDefault, current: {} } });
const edges = (byDefault: Json) => ({ bindings: { source: "s", destination: "d" }, complex: { default: byDefault } });

function refusal(axis: Axis, value: unknown): AppError {
  try {
    normalizeEncodings(axis, value);
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
  throw new Error("accepted");
}

const filtersOf = (axis: Axis, value: unknown): FieldFilter[] => normalizeEncodings(axis, value).fieldFilters;

const people = {
  person: { id: 1, type: "person", name: "Ada", email: "ada@example.org", salary: 10 },
  company: { id: 2, type: "company", name: "Acme", ticker: "ACM", employees: 5 },
  city: { id: 3, type: "city", name: "Paris", population: 2 },
};

describe("bindings", () => {
  it("takes what pygraphistry sends, complex included", () => {
    const value = { bindings: { node: "n", node_label: "label", node_x: "x" }, complex: { current: {}, default: {} } };
    expect(normalizeEncodings("node", value)).toEqual({
      bindings: { node: "n", node_label: "label", node_x: "x" },
      complex: { default: {}, current: {} },
      fieldFilters: [],
    } satisfies NormalizedEncodings);
    expect(normalizeEncodings("edge", { bindings: {} })).toEqual({ bindings: {}, complex: { default: {}, current: {} }, fieldFilters: [] });
    expect(
      normalizeEncodings("edge", { bindings: { source: "s", destination: "d", edge_source_color: "c" }, complex: null }).bindings,
    ).toEqual({
      source: "s",
      destination: "d",
      edge_source_color: "c",
    });
  });

  it("lists pygraphistry's keys per axis", () => {
    expect(NODE_BINDING_KEYS).toHaveLength(12);
    expect(EDGE_BINDING_KEYS).toHaveLength(11);
    for (const key of NODE_BINDING_KEYS) expect(normalizeEncodings("node", { bindings: { [key]: "c" } }).bindings).toEqual({ [key]: "c" });
    for (const key of EDGE_BINDING_KEYS) expect(normalizeEncodings("edge", { bindings: { [key]: "c" } }).bindings).toEqual({ [key]: "c" });
  });

  it.each([
    ["node", { bindings: { source: "s" } }, "node_encodings.bindings.source", /not a node binding/],
    ["edge", { bindings: { edge_colour: "c" } }, "edge_encodings.bindings.edge_colour", /not a edge binding.*edge_color/],
    ["node", { bindings: { node: "" } }, "node_encodings.bindings.node", /non-empty string/],
    ["edge", { bindings: { source: 3 } }, "edge_encodings.bindings.source", /non-empty string/],
    ["node", { bindings: { node: null } }, "node_encodings.bindings.node", /non-empty string/],
    ["node", {}, "node_encodings.bindings", /required/],
    ["node", { bindings: [] }, "node_encodings.bindings", /object/],
    ["node", { bindings: {}, encodings: {} }, "node_encodings.encodings", /not a member/],
    ["edge", "bindings", "edge_encodings", /JSON object/],
  ] as const)("refuses %s encodings %j at %s", (axis, value, field, message) => {
    const error = refusal(axis, value);
    expect(error.code).toBe("INVALID_INPUT");
    expect(error.details).toEqual({ field });
    expect(error.message.startsWith(`${field} `)).toBe(true);
    expect(error.message).toMatch(message);
  });
});

describe("field filters", () => {
  const typed = inclusion({ name: true, types: { person: { name: true, email: true }, company: { name: true, ticker: true } } });

  it("reads a global and type-specific inclusion from the object form", () => {
    expect(filtersOf("node", nodes({ pointFieldInclusionEncoding: typed }))).toEqual([
      {
        kind: "inclusion",
        graphType: "point",
        global: { name: true },
        byType: { person: { name: true, email: true }, company: { name: true, ticker: true } },
      },
    ]);
  });

  it("shows two point types different fields, and the global rules to other types (rules 1, 3, 4)", () => {
    const filters = filtersOf("node", nodes({ pointFieldInclusionEncoding: typed }));
    expect(visibleFields(filters, "point", "person", people.person)).toEqual(["name", "email"]);
    expect(visibleFields(filters, "point", "company", people.company)).toEqual(["name", "ticker"]);
    expect(visibleFields(filters, "point", "city", people.city)).toEqual(["name"]);
    expect(visibleFields(filters, "point", undefined, people.city)).toEqual(["name"]);
  });

  it("lets type rules replace the global ones for their type only (rule 4)", () => {
    const filters = filtersOf(
      "node",
      nodes({ pointFieldInclusionEncoding: inclusion({ name: true, types: { company: { ticker: true } } }) }),
    );
    expect(visibleFields(filters, "point", "company", people.company)).toEqual(["ticker"]);
    expect(visibleFields(filters, "point", "person", people.person)).toEqual(["name"]);
    // With no global rules, other types are not filtered at all.
    const onlyTyped = filtersOf("node", nodes({ pointFieldInclusionEncoding: inclusion({ types: { company: { ticker: true } } }) }));
    expect(visibleFields(onlyTyped, "point", "person", people.person)).toEqual(Object.keys(people.person));
  });

  it("hides true-listed fields under an exclusion, globally and per type (rule 2)", () => {
    const filters = filtersOf(
      "edge",
      edges({ edgeFieldExclusionEncoding: exclusion({ weight: true, note: false, types: { transfer: { amount: true } } }) }),
    );
    const edge = { s: 1, d: 2, weight: 3, note: "x", amount: 4, kind: "transfer" };
    expect(visibleFields(filters, "edge", undefined, edge)).toEqual(["s", "d", "note", "amount", "kind"]);
    expect(visibleFields(filters, "edge", "transfer", edge)).toEqual(["s", "d", "weight", "note", "kind"]);
    expect(visibleFields(filters, "point", undefined, edge)).toEqual(Object.keys(edge));
  });

  it("combines a node inclusion with an edge exclusion in one dataset (rule 5)", () => {
    const filters = [
      ...filtersOf("node", nodes({ pointFieldInclusionEncoding: typed })),
      ...filtersOf("edge", edges({ edgeFieldExclusionEncoding: exclusion({ secret: true }) })),
    ];
    expect(filters.map((f) => `${f.graphType}:${f.kind}`)).toEqual(["point:inclusion", "edge:exclusion"]);
    expect(visibleFields(filters, "point", "person", people.person)).toEqual(["name", "email"]);
    expect(visibleFields(filters, "edge", undefined, { s: 1, d: 2, secret: "k", label: "l" })).toEqual(["s", "d", "label"]);
  });

  it("applies an inclusion and an exclusion on one graph type together", () => {
    const filters = filtersOf(
      "node",
      nodes({
        pointFieldInclusionEncoding: inclusion({ name: true, email: true }),
        pointFieldExclusionEncoding: { graphType: "point", encodingType: "fieldexclusion", exclude: { email: true } },
      }),
    );
    expect(visibleFields(filters, "point", "person", people.person)).toEqual(["name"]);
  });

  it("hides null fields unless showNullFields is set (rule 6)", () => {
    const entity = { name: "Ada", email: null, phone: undefined, age: 3 };
    const hidden = filtersOf("node", nodes({ pointFieldInclusionEncoding: inclusion({ name: true, email: true, phone: true }) }));
    expect(visibleFields(hidden, "point", undefined, entity)).toEqual(["name"]);
    expect(visibleFields([], "point", undefined, entity)).toEqual(["name", "age"]);
    const shown = filtersOf(
      "node",
      nodes({ pointFieldInclusionEncoding: inclusion({ name: true, email: true }, { showNullFields: true }) }),
    );
    expect(shown[0]?.showNulls).toBe(true);
    expect(visibleFields(shown, "point", undefined, entity)).toEqual(["name", "email"]);
    expect(visibleFields(shown, "edge", undefined, entity)).toEqual(["name", "age"]);
  });

  it("takes the entity type from the filter's attribute when none is given", () => {
    const filters = filtersOf("node", nodes({ pointFieldInclusionEncoding: { ...typed, attribute: "type" } }));
    expect(filters[0]?.attribute).toBe("type");
    expect(visibleFields(filters, "point", undefined, people.company)).toEqual(["name", "ticker"]);
    expect(visibleFields(filters, "point", "person", people.company)).toEqual(["name"]);
  });

  it("reads Graphistry's include/exclude spellings", () => {
    const filters = filtersOf(
      "node",
      nodes({ pointFieldInclusionEncoding: { graphType: "point", encodingType: "fieldinclusion", include: { a: true } } }),
    );
    expect(filters[0]?.global).toEqual({ a: true });
  });

  it("lets current replace default under the same key", () => {
    const value = {
      bindings: {},
      complex: {
        default: { pointFieldInclusionEncoding: inclusion({ a: true }) },
        current: { pointFieldInclusionEncoding: inclusion({ b: true }) },
      },
    };
    expect(filtersOf("node", value).map((f) => f.global)).toEqual([{ b: true }]);
  });

  it("keeps field names such as __proto__ as plain rules", () => {
    const value = JSON.parse(
      '{"bindings":{},"complex":{"default":{"pointFieldInclusionEncoding":{"graphType":"point","encodingType":"fieldinclusion","inclusion":{"__proto__":true}}}}}',
    );
    const filters = filtersOf("node", value);
    expect(Object.hasOwn(filters[0]?.global ?? {}, "__proto__")).toBe(true);
    expect(visibleFields(filters, "point", undefined, JSON.parse('{"__proto__":1,"toString":2}'))).toEqual(["__proto__"]);
  });
});

describe("complex", () => {
  const color = {
    graphType: "point",
    encodingType: "color",
    attribute: "type",
    variation: "categorical",
    mapping: { categorical: { fixed: { a: "red" } } },
  };

  it("keeps other encodings exactly as given", () => {
    const value = nodes({ pointColorEncoding: color, pointIconEncoding: { anything: [1, { deep: true }] } });
    const result = normalizeEncodings("node", value);
    expect(result.complex.default).toEqual(value.complex.default);
    expect(result.fieldFilters).toEqual([]);
  });

  it("turns the list form into default, field filters under their standard keys", () => {
    const value = {
      bindings: { node: "id" },
      complex: [
        color,
        { graphType: "point", encodingType: "size", name: "mySizes", attribute: "degree" },
        {
          graphType: "point",
          encodingType: "fieldinclusion",
          name: "pointFieldInclusionEncoding",
          inclusion: { types: { person: { name: true } } },
        },
        { graphType: "edge", encodingType: "icon", key: "edgeIcons" },
      ],
    };
    const result = normalizeEncodings("node", value);
    expect(Object.keys(result.complex.default)).toEqual(["pointColorEncoding", "mySizes", "pointFieldInclusionEncoding", "edgeIcons"]);
    expect(result.complex.default.pointColorEncoding).toBe(color);
    expect(result.complex.current).toEqual({});
    expect(visibleFields(result.fieldFilters, "point", "person", people.person)).toEqual(["name"]);
    // The normalized object form reads back to the same thing.
    expect(normalizeEncodings("node", { bindings: result.bindings, complex: result.complex })).toEqual(result);
  });

  it("gives the same filters from both forms", () => {
    const filter = inclusion({ name: true, types: { person: { email: true } } });
    const fromObject = filtersOf("node", nodes({ pointFieldInclusionEncoding: filter }));
    expect(filtersOf("node", { bindings: {}, complex: [filter] })).toEqual(fromObject);
    const edgeFilter = exclusion({ w: true });
    expect(filtersOf("edge", { bindings: {}, complex: [edgeFilter] })).toEqual(
      filtersOf("edge", edges({ edgeFieldExclusionEncoding: edgeFilter })),
    );
  });
});

const D = "node_encodings.complex.default";
const P = `${D}.pointFieldInclusionEncoding`;
type Case = [name: string, axis: Axis, value: unknown, field: string, structural: boolean];

/** Malformed samples; `structural` ones are refused by the JSON Schema too, the others only by the axis-aware code. */
const MALFORMED: Case[] = [
  [
    "point filter on edges",
    "edge",
    { bindings: {}, complex: { default: { pointFieldInclusionEncoding: inclusion({}) } } },
    "edge_encodings.complex.default.pointFieldInclusionEncoding",
    false,
  ],
  ["edge filter on nodes", "node", nodes({ edgeFieldExclusionEncoding: exclusion({}) }), `${D}.edgeFieldExclusionEncoding`, false],
  ["wrong graphType", "node", nodes({ pointFieldInclusionEncoding: inclusion({}, { graphType: "edge" }) }), `${P}.graphType`, true],
  [
    "wrong encodingType",
    "node",
    nodes({ pointFieldInclusionEncoding: inclusion({}, { encodingType: "fieldexclusion" }) }),
    `${P}.encodingType`,
    true,
  ],
  [
    "missing graphType",
    "node",
    nodes({ pointFieldInclusionEncoding: { encodingType: "fieldinclusion", inclusion: {} } }),
    `${P}.graphType`,
    true,
  ],
  ["non-boolean rule", "node", nodes({ pointFieldInclusionEncoding: inclusion({ name: "yes" }) }), `${P}.inclusion.name`, true],
  [
    "non-boolean type rule",
    "node",
    nodes({ pointFieldInclusionEncoding: inclusion({ types: { person: { name: 1 } } }) }),
    `${P}.inclusion.types.person.name`,
    true,
  ],
  ["types not an object", "node", nodes({ pointFieldInclusionEncoding: inclusion({ types: ["person"] }) }), `${P}.inclusion.types`, true],
  [
    "types of non-objects",
    "node",
    nodes({ pointFieldInclusionEncoding: inclusion({ types: { person: true } }) }),
    `${P}.inclusion.types.person`,
    true,
  ],
  [
    "inclusion not an object",
    "node",
    nodes({ pointFieldInclusionEncoding: inclusion(["name"] as unknown as Json) }),
    `${P}.inclusion`,
    true,
  ],
  [
    "inclusion missing",
    "node",
    nodes({ pointFieldInclusionEncoding: { graphType: "point", encodingType: "fieldinclusion" } }),
    `${P}.inclusion`,
    true,
  ],
  ["inclusion and include", "node", nodes({ pointFieldInclusionEncoding: inclusion({}, { include: {} }) }), `${P}.include`, true],
  [
    "exclusion rules in an inclusion",
    "node",
    nodes({ pointFieldInclusionEncoding: inclusion({}, { exclusion: {} }) }),
    `${P}.exclusion`,
    true,
  ],
  ["attribute not a string", "node", nodes({ pointFieldInclusionEncoding: inclusion({}, { attribute: 5 }) }), `${P}.attribute`, true],
  [
    "showNullFields not a boolean",
    "node",
    nodes({ pointFieldInclusionEncoding: inclusion({}, { showNullFields: "yes" }) }),
    `${P}.showNullFields`,
    true,
  ],
  [
    "exclusion rule not boolean",
    "edge",
    edges({ edgeFieldExclusionEncoding: exclusion({ w: null }) }),
    "edge_encodings.complex.default.edgeFieldExclusionEncoding.exclusion.w",
    true,
  ],
  ["filter under another key", "node", nodes({ myFilter: inclusion({}) }), `${D}.myFilter`, false],
  ["other encoding not an object", "node", nodes({ pointColorEncoding: "red" }), `${D}.pointColorEncoding`, true],
  ["default not an object", "node", { bindings: {}, complex: { default: [] } }, D, true],
  [
    "current filter malformed",
    "node",
    { bindings: {}, complex: { current: { pointFieldInclusionEncoding: inclusion({ x: 0 }) } } },
    "node_encodings.complex.current.pointFieldInclusionEncoding.inclusion.x",
    true,
  ],
  ["unknown member of complex", "node", { bindings: {}, complex: { defaults: {} } }, "node_encodings.complex.defaults", true],
  ["complex a string", "node", { bindings: {}, complex: "x" }, "node_encodings.complex", true],
  ["list entry not an object", "node", { bindings: {}, complex: [1] }, "node_encodings.complex[0]", true],
  [
    "list entry without encodingType",
    "node",
    { bindings: {}, complex: [{ graphType: "point" }] },
    "node_encodings.complex[0].encodingType",
    true,
  ],
  [
    "list entry with a bad graphType",
    "node",
    { bindings: {}, complex: [{ graphType: "node", encodingType: "color" }] },
    "node_encodings.complex[0].graphType",
    true,
  ],
  [
    "list filter with a bad type rule",
    "node",
    { bindings: {}, complex: [inclusion({ types: { person: { name: "x" } } })] },
    "node_encodings.complex[0].inclusion.types.person.name",
    true,
  ],
  ["list point filter on edges", "edge", { bindings: {}, complex: [inclusion({})] }, "edge_encodings.complex[0]", false],
  [
    "list filter named otherwise",
    "node",
    { bindings: {}, complex: [inclusion({}, { name: "mine" })] },
    "node_encodings.complex[0].name",
    false,
  ],
  [
    "list entries under one key",
    "node",
    { bindings: {}, complex: [inclusion({}), inclusion({ a: true })] },
    "node_encodings.complex[1]",
    false,
  ],
  ["unknown binding key", "node", { bindings: { nodes: "n" } }, "node_encodings.bindings.nodes", true],
  ["edge binding on nodes", "node", { bindings: { source: "s" } }, "node_encodings.bindings.source", false],
  ["empty binding value", "edge", { bindings: { source: "" } }, "edge_encodings.bindings.source", true],
  ["bindings missing", "edge", { complex: null }, "edge_encodings.bindings", true],
];

describe("malformed encodings", () => {
  it.each(MALFORMED)("%s: refused at the path", (_name, axis, value, field) => {
    const error = refusal(axis, value);
    expect(error.code).toBe("INVALID_INPUT");
    expect(error.status).toBe(400);
    expect(error.details).toEqual({ field });
    expect(error.message.startsWith(`${field} `)).toBe(true);
  });
});

describe("schema/json/encodings.json", () => {
  const schema = JSON.parse(readFileSync(SCHEMA_FILE, "utf8"));
  // The options facades/rest/validate.ts compiles every body schema with.
  const ajv = new Ajv({ allErrors: false, strict: true, coerceTypes: false });
  const validate = ajv.compile(schema);

  it("compiles in strict mode with the $id encodings", () => {
    expect(schema.$id).toBe("encodings");
    expect(ajv.getSchema("encodings")).toBeDefined();
  });

  it("names exactly the binding keys of both axes", () => {
    expect([...schema.properties.bindings.propertyNames.enum].sort()).toEqual([...NODE_BINDING_KEYS, ...EDGE_BINDING_KEYS].sort());
  });

  const VALID: [Axis, unknown][] = [
    ["node", { bindings: {} }],
    ["node", { bindings: { node: "n" }, complex: { current: {}, default: {} } }],
    ["edge", { bindings: { source: "s", destination: "d" }, complex: null }],
    [
      "node",
      nodes({
        pointFieldInclusionEncoding: inclusion(
          { name: true, types: { person: { email: true } } },
          { attribute: "type", showNullFields: true },
        ),
      }),
    ],
    [
      "node",
      nodes({
        pointFieldExclusionEncoding: { graphType: "point", encodingType: "fieldexclusion", exclude: { a: true } },
        pointColorEncoding: { any: 1 },
      }),
    ],
    [
      "edge",
      edges({
        edgeFieldExclusionEncoding: exclusion({ w: true }),
        edgeFieldInclusionEncoding: { graphType: "edge", encodingType: "fieldinclusion", include: {} },
      }),
    ],
    ["node", { bindings: {}, complex: [inclusion({ a: true }), { graphType: "edge", encodingType: "color", name: "c" }] }],
    ["edge", { bindings: {}, complex: [exclusion({ types: { t: { a: false } } }, { key: "edgeFieldExclusionEncoding" })] }],
  ];

  it.each(VALID)("accepts a valid %s sample, as the code does: %j", (axis, value) => {
    expect(() => normalizeEncodings(axis, value)).not.toThrow();
    expect(validate(value), JSON.stringify(validate.errors)).toBe(true);
  });

  it.each(MALFORMED)("%s: the schema agrees at the structural level", (_name, _axis, value, _field, structural) => {
    // Non-structural refusals depend on the axis or on keys and names across entries, which the schema does not see.
    expect(validate(value)).toBe(!structural);
  });
});
