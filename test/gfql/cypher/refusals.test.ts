// Cypher refusals: writes, constructs outside the subset, WHERE forms that do not lower per variable, syntax errors.

import { describe, expect, it } from "vitest";
import { parseCypher } from "../../../src/gfql/cypher/index.ts";

function err(text: string, params: Record<string, unknown> = {}) {
  try {
    parseCypher(text, params);
  } catch (e) {
    const x = e as { code: string; message: string; details?: Record<string, unknown> };
    return { code: x.code, message: x.message, details: x.details };
  }
  throw new Error(`expected ${text} to be refused`);
}

describe("refusals", () => {
  it.each([
    ["CREATE (n:Person)", "CREATE"],
    ["MATCH (n) SET n.x = 1 RETURN n", "SET"],
    ["MATCH (n) DELETE n", "DELETE"],
    ["MATCH (n) DETACH DELETE n", "DETACH DELETE"],
    ["MERGE (n {id: 1})", "MERGE"],
    ["MATCH (n) REMOVE n.x RETURN n", "REMOVE"],
    ["LOAD CSV FROM 'x' AS row RETURN row", "LOAD CSV"],
    ["CALL graphistry.degree.write()", "CALL ... write"],
  ])("%s is read-only", (q, clause) => {
    const e = err(q);
    expect(e.code).toBe("INVALID_INPUT");
    expect(e.message).toMatch(new RegExp(`^\\[E101\\] read-only: ${clause.replace(/[.*]/g, "\\$&")} is not allowed \\(at \\d+:\\d+\\)$`));
    expect(e.details?.path).toBe("cypher");
  });

  it.each([
    ["OPTIONAL MATCH (n) RETURN n", "OPTIONAL MATCH"],
    ["MATCH (n) OPTIONAL MATCH (m) RETURN n", "OPTIONAL MATCH"],
    ["UNWIND [1, 2] AS x RETURN x", "UNWIND"],
    ["MATCH (n) RETURN n UNION MATCH (m) RETURN m", "UNION"],
    ["MATCH (n) WITH n RETURN n", "WITH"],
    ["MATCH (a), (b) RETURN a", "multiple patterns"],
    ["MATCH (a) MATCH (b) RETURN a", "multiple MATCH clauses"],
    ["CALL db.labels()", "CALL (procedures)"],
    ["MATCH (a)-->(b) WHERE a.x = 1 OR b.x = 2 RETURN a", "OR across variables (a, b)"],
    ["MATCH (a) WHERE a.x = 1 OR a.x = 2 RETURN a", "OR (no AnyOf"],
    ["MATCH (a)-->(b) WHERE NOT (a.x = 1 AND b.x = 2) RETURN a", "NOT over AND across variables (a, b)"],
    ["MATCH (a)-->(b) WHERE a.age > b.age RETURN a", "comparisons between two variables (a.age > b.age)"],
    ["MATCH (a)-[r*2]->(b) WHERE r.w > 1 RETURN a", "WHERE on the variable-length relationship 'r'"],
    ["MATCH (a)-->(b) RETURN a.id, b.id", "returning several variables (a, b)"],
    ["MATCH (a)-->(b) RETURN count(*)", "count(*) over a multi-element pattern"],
    ["MATCH (a)-->(a) RETURN a", "reusing variable 'a'"],
    ["MATCH (a:A:B) RETURN a", "multiple labels"],
    ["MATCH (a) RETURN toUpper(a.name)", "function toUpper()"],
    ["MATCH (a) RETURN *", "RETURN *"],
    ["MATCH p = (a)-->(b) RETURN a", "named paths"],
  ])("%s is refused as not supported", (q, what) => {
    const e = err(q);
    expect(e.code).toBe("INVALID_INPUT");
    expect(e.message.startsWith("[E101] ")).toBe(true);
    expect(e.message).toContain(what);
    expect(e.message).toMatch(/not supported yet \(at \d+:\d+\)$/);
  });

  it("unknown variables and missing parameters", () => {
    expect(err("MATCH (a) WHERE b.x = 1 RETURN a").message).toBe("[E101] unknown variable 'b' (at 1:17)");
    expect(err("MATCH (a {x: $p}) RETURN a").message).toBe("[E101] missing parameter $p (at 1:14)");
    expect(err("MATCH (a) WHERE a.x = null RETURN a").message).toMatch(/use IS NULL/);
  });
});

describe("syntax errors carry line and column", () => {
  it("reports the offending token", () => {
    const e = err("MATCH (a\nRETURN a");
    expect(e.message).toBe("[E101] syntax error: expected ')', found 'RETURN' (at 2:1)");
    expect(e.details).toEqual({ path: "cypher", line: 2, column: 1 });
    expect(err("MATCH (a) RETURN").message).toBe(
      "[E101] syntax error: expected a variable, property or count(), found end of input (at 1:17)",
    );
    expect(err("MATCH (a)\n  WHERE a.x = 'open RETURN a").details).toEqual({ path: "cypher", line: 2, column: 15 });
    expect(err("MATCH (a) WHERE a.x # 1 RETURN a").message).toBe("[E101] unexpected character '#' (at 1:21)");
    expect(err("MATCH (a) RETURN a LIMIT -1").message).toMatch(/^\[E101\] LIMIT needs a non-negative integer \(at 1:26\)$/);
  });
});
