// The hypergraph transform (pygraphistry's hypergraph()): a table of events becomes entity/event nodes and edges.
import type pl from "nodejs-polars";
import { checkColumns, resolveDefs } from "./hypergraph/defs.ts";
import { directEdges, directShape, hyperedges } from "./hypergraph/edges.ts";
import { unionFrames } from "./hypergraph/frames.ts";
import { entityNodes, eventNodes } from "./hypergraph/nodes.ts";
import type { HypergraphOptions } from "./hypergraph/options.ts";
import { prepareWork } from "./hypergraph/work.ts";

export { type HypergraphOptions, type HypergraphOpts, readHypergraphOptions } from "./hypergraph/options.ts";
export { pyFloat, pyStrSeries } from "./hypergraph/py-str.ts";

export type HypergraphResult = {
  /** One row per distinct entity value (deduplicated on the node id). */
  entities: pl.DataFrame;
  /** One row per event (empty when direct). */
  events: pl.DataFrame;
  edges: pl.DataFrame;
  /** entities then events, one table whose columns are the union of both. */
  nodes: pl.DataFrame;
  bindings: { source: string; destination: string; node: string; title: string };
};

/**
 * Runs the transform. Entity columns are `entity_types` (default: every column) minus SKIP and the
 * EVENTID column. Edge bindings follow the spec, not pygraphistry: events are the source and attributes
 * the destination (`EventID` -> `attribID`); direct edges run `src` -> `dst`.
 * Throws AppError("INVALID_INPUT") naming any column the options reference but the table lacks.
 */
export function hypergraph(table: pl.DataFrame, options: HypergraphOptions): HypergraphResult {
  const defs = resolveDefs(options);
  checkColumns(table.columns, options, defs);
  const entityTypes = (options.entity_types ?? table.columns).filter((c) => !defs.skip.includes(c) && c !== defs.eventId);
  const shape = defs.direct ? directShape(entityTypes, defs) : {};
  const textColumns = [...entityTypes, ...Object.entries(shape).flatMap(([from, to]) => [from, ...to])];
  const work = prepareWork(table, defs, textColumns);
  const entities = entityNodes(work, entityTypes, defs);
  const events = eventNodes(work, entityTypes, defs);
  const edges = defs.direct ? directEdges(work, entityTypes, defs) : hyperedges(work, entityTypes, defs);
  return {
    entities,
    events,
    edges,
    nodes: unionFrames([entities, events]),
    bindings: {
      source: defs.direct ? defs.source : defs.eventId,
      destination: defs.direct ? defs.destination : defs.attribId,
      node: defs.nodeId,
      title: defs.title,
    },
  };
}
