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
    ["MATCH (n) OPTIONAL MATCH (n)-->(m) SET m.x = 1 RETURN n", "SET"],
    ["MATCH (a), (b) CREATE (a)-[:R]->(b)", "CREATE"],
    ["MATCH (a)-->(b) WHERE a.x = 1 OR b.x = 2 DELETE b", "DELETE"],
    ["MATCH (a) MATCH (a)-->(b) MERGE (b)-[:R]->(a)", "MERGE"],
  ])("%s after the newer read clauses is still read-only", (q, clause) => {
    const e = err(q);
    expect(e.code).toBe("INVALID_INPUT");
    expect(e.message).toMatch(new RegExp(`^\\[E101\\] read-only: ${clause} is not allowed \\(at \\d+:\\d+\\)$`));
  });

  it.each([
    ["UNWIND [1, 2] AS x RETURN x", "UNWIND"],
    ["MATCH (n) RETURN n UNION MATCH (m) RETURN m", "UNION"],
    ["MATCH (n) WITH n RETURN n", "WITH"],
    ["MATCH (a), (b) RETURN a", "disconnected patterns"],
    ["MATCH (a) MATCH (b) RETURN a.id, b.id", "disconnected patterns"],
    ["MATCH (n) OPTIONAL MATCH (m) RETURN n", "disconnected patterns"],
    ["CALL db.labels()", "CALL (procedures)"],
    ["MATCH (a)-[r*2]->(b) WHERE r.w > 1 RETURN a", "WHERE on the variable-length relationship 'r'"],
    ["MATCH (a)-[r*1..2]->(b) RETURN a.id, r", "returning the variable-length relationship 'r'"],
    ["MATCH (a)-[r]->(b)-[r]->(c) RETURN a.id, c.id", "reusing the relationship variable 'r'"],
    ["MATCH (a)-[r]->(b) RETURN DISTINCT a.id ORDER BY b.id", "not a returned column"],
    ["MATCH (a)-->(b) RETURN a.id, sum(b)", "sum() of a whole variable"],
    ["MATCH (a)-->(b) RETURN a.id, b.id ORDER BY a", "ORDER BY a whole variable"],
    ["MATCH (a)-->(b) WHERE a < b RETURN a.id, b.id", "'<' on a whole variable"],
    ["MATCH (a)-->(b) WHERE a.name STARTS WITH b.name RETURN a.id, b.id", "'STARTS WITH' with a non-literal pattern"],
    ["MATCH (a:A:B) RETURN a", "multiple labels"],
    ["MATCH (a) RETURN toUpper(a.name)", "function toUpper()"],
    ["MATCH (a) RETURN count(a.x + 1)", "expression operator '+' in count()"],
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
    expect(err("MATCH (a)-->(b) WHERE a.x = null OR b.x = 1 RETURN a.id, b.id").message).toMatch(/use IS NULL/);
    expect(err("MATCH (a)-->(b) WHERE c.x = 1 OR b.x = 1 RETURN a.id, b.id").message).toBe("[E101] unknown variable 'c' (at 1:23)");
    expect(err("MATCH (a)-->(b) RETURN a.id, c.id").message).toBe("[E101] unknown variable 'c' (at 1:30)");
    expect(err("MATCH (a)-[r]->(b) WHERE a = r RETURN a.id, b.id").message).toMatch(/comparing a node with a relationship/);
    expect(err("MATCH (a)-->(b) RETURN a.id AS x, b.id AS x").message).toMatch(/duplicate RETURN column 'x'/);
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
