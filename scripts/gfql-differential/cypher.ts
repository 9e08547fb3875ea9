// Cypher cases for the GFQL differential (run.ts --focus cypher): random graphs and MATCH ... WHERE ... RETURN
// queries from templates (node and edge patterns in every direction, property maps, variable-length paths, WHERE with
// comparisons, AND/OR/NOT, IS NULL, STARTS WITH/ENDS WITH/CONTAINS, IN, projections, aliases, DISTINCT, aggregates,
// ORDER BY, SKIP and LIMIT). Rows are compared as a sorted multiset, in order where the query orders every column.

import { seeded } from "./seeded.ts";

export type CypherCase = {
  nodes: Record<string, unknown[]>;
  edges: Record<string, unknown[]>;
  queries: string[];
  names: string[];
  /** Compare the rows in order (the query orders by every returned column). */
  ordered: boolean[];
};

export function generateCypherCase(seed: number): CypherCase {
  const { rnd, int, pick } = seeded(seed, 8);
  const n = int(3, 9);
  const nodes = { id: [] as string[], type: [] as string[], k: [] as number[], name: [] as (string | null)[] };
  for (let i = 0; i < n; i++) {
    nodes.id.push(`n${i}`);
    nodes.type.push(pick(["person", "company"]));
    nodes.k.push(int(0, 5));
    nodes.name.push(rnd() < 0.15 ? null : pick(["alpha", "Beta", "gamma", "alp", "zed"]));
  }
  const m = int(1, 14);
  const edges = { eid: [] as string[], s: [] as string[], d: [] as string[], rel: [] as string[], w: [] as number[] };
  for (let j = 0; j < m; j++) {
    edges.eid.push(`e${j}`);
    edges.s.push(`n${int(0, n - 1)}`);
    edges.d.push(`n${int(0, n - 1)}`);
    edges.rel.push(pick(["x", "y"]));
    edges.w.push(int(1, 5));
  }
  const nodeCond = (v: string): string =>
    pick([
      `${v}.k > ${int(0, 4)}`,
      `${v}.k <= ${int(0, 4)}`,
      `${v}.k = ${int(0, 5)}`,
      `${v}.k <> ${int(0, 5)}`,
      `${v}.type = '${pick(["person", "company"])}'`,
      `${v}.name IS NULL`,
      `${v}.name IS NOT NULL`,
      `${v}.name STARTS WITH '${pick(["al", "B", "g"])}'`,
      `${v}.name ENDS WITH '${pick(["a", "d", "p"])}'`,
      `${v}.name CONTAINS '${pick(["l", "e", "mm"])}'`,
      `${v}.k IN [${int(0, 5)}, ${int(0, 5)}]`,
      `${v}.id = 'n${int(0, n - 1)}'`,
    ]);
  const edgeCond = (v: string): string => pick([`${v}.w >= ${int(1, 5)}`, `${v}.rel = '${pick(["x", "y"])}'`, `${v}.w < ${int(1, 5)}`]);
  const combine = (conds: string[]): string => {
    if (conds.length === 1) return pick([conds[0] as string, `NOT (${conds[0]})`, conds[0] as string]);
    return conds.join(pick([" AND ", " OR "]));
  };
  const queries: string[] = [];
  const ordered: boolean[] = [];
  for (let q = 0; q < 30; q++) {
    const form = int(0, 7);
    const arrow = pick(["->", "<-", "-"]);
    const edge = (v: string, props = "") =>
      arrow === "->" ? `-[${v}${props}]->` : arrow === "<-" ? `<-[${v}${props}]-` : `-[${v}${props}]-`;
    const aProps = rnd() < 0.2 ? ` {type: '${pick(["person", "company"])}'}` : "";
    const eProps = rnd() < 0.2 ? ` {rel: '${pick(["x", "y"])}'}` : "";
    const where = (conds: string[]) => (rnd() < 0.8 ? ` WHERE ${combine(conds)}` : "");
    let text = "";
    let orderedRows = false;
    if (form === 0) {
      text = `MATCH (a${aProps})${where([nodeCond("a")])} RETURN a.id AS id, a.k AS k`;
      if (rnd() < 0.5) {
        text += ` ORDER BY k ${pick(["ASC", "DESC"])}, id${rnd() < 0.5 ? ` LIMIT ${int(1, 4)}` : ""}`;
        orderedRows = true;
      }
    } else if (form === 1) {
      text = `MATCH (a${aProps})${edge("e", eProps)}(b)${where([pick([nodeCond("a"), edgeCond("e"), nodeCond("b")])])} RETURN a.id AS s, b.id AS d, e.w AS w`;
    } else if (form === 2) {
      text = `MATCH (a)${edge("e")}(b)${where([nodeCond("a"), pick([edgeCond("e"), nodeCond("b")])])} RETURN DISTINCT b.id AS d`;
    } else if (form === 3) {
      text = `MATCH (a)${edge("e", eProps)}(b) RETURN a.id AS s, count(*) AS c, sum(e.w) AS t, max(b.k) AS top ORDER BY s`;
      orderedRows = true;
    } else if (form === 4) {
      text = `MATCH (a${aProps})${where([nodeCond("a")])} RETURN a.type AS t, count(*) AS c, min(a.k) AS lo ORDER BY t`;
      orderedRows = true;
    } else if (form === 5) {
      const hops = pick(["*1..2", "*2", "*1..3", "*"]);
      const varEdge = arrow === "->" ? `-[${hops}]->` : arrow === "<-" ? `<-[${hops}]-` : `-[${hops}]-`;
      text = `MATCH (a${aProps})${varEdge}(b)${where([nodeCond("a")])} RETURN DISTINCT a.id AS s, b.id AS d`;
    } else if (form === 6) {
      text = `MATCH (a)${edge("e")}(b)${edge("f")}(c)${where([nodeCond("c")])} RETURN a.id AS s, c.id AS t, e.w + f.w AS w`;
    } else {
      text = `MATCH (a)${edge("e")}(b)${where([edgeCond("e")])} RETURN a.id AS s, b.name AS bn ORDER BY s, bn SKIP ${int(0, 2)} LIMIT ${int(1, 5)}`;
      orderedRows = true;
    }
    queries.push(text);
    ordered.push(orderedRows);
  }
  return { nodes, edges, queries, names: [], ordered };
}
