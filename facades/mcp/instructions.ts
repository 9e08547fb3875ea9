// What initialize tells an assistant: how the tools fit together, and enough GFQL to write correct queries.

export const SERVER_INFO = { name: "graph-visualization-service", version: "1.0.0" };

export const INSTRUCTIONS = `This server drives live graph visualizations. Every tool except list_sessions takes session_id: the id of a
visualization someone has open (the session parameter of its graph.html URL). Call tools/call with
Authorization: Bearer <KEY_ID>:<KEY> (a personal key) or Bearer <JWT>.

Workflow
1. list_sessions to find your open visualizations, or ask the user for the session id.
2. get_session_info(session_id) to learn node and edge counts and column names with dtypes. Use only those columns.
3. query_graph(session_id, gfql_operations, output_type) to answer questions. output_type "shape" (default) returns
   counts only; "nodes", "edges" or "all" add rows: at most 50, or 20 when the query projects no columns. Counts are
   always the true totals. Leave format unset (json only).
4. create_collection(session_id, name, gfql_operations, node_color or palette) to highlight what matched: the
   viewer recolors at once. Same name replaces; at most 10 collections (the oldest is dropped). list_collections,
   update_collection (rename or recolor; omit fields you do not change, never pass null), delete_collection,
   reorder_collections (first id painted on top), reset_collections manage them. Only the person who has the
   visualization open may change collections.

GFQL (gfql_operations is a JSON-encoded STRING)
- A chain is an array of steps that alternate node and edge matches:
  [{"type":"Node","filter_dict":{"kind":"person"}},{"type":"Edge","direction":"forward","hops":1},{"type":"Node"}]
- Node: {"type":"Node","filter_dict":{col: value or predicate},"name":"tag"}.
- Edge: {"type":"Edge","direction":"forward"|"reverse"|"undirected","hops":1,"min_hops":..,"max_hops":..,
  "to_fixed_point":false,"edge_match":{..},"source_node_match":{..},"destination_node_match":{..},"name":"tag"}.
- A plain value means equality. Comparisons are predicate objects: {"type":"GT","val":10}, LT, GE, LE, EQ, NE,
  {"type":"Between","lower":1,"upper":5}, {"type":"IsIn","options":["a","b"]}, {"type":"Contains","pat":"x"},
  Startswith, Endswith, Match (regex), IsNull, NotNull.
- The result keeps only nodes and edges on complete paths through the whole chain.
- Let binds named results, run in dependency order; the answer is the last binding:
  {"type":"Let","bindings":{"a":{"type":"Chain","chain":[...]},"b":{"type":"Ref","ref":"a","chain":[...]}}}.
- Calls: {"type":"Call","function":"get_degrees","params":{}}; also filter_nodes_by_dict, hop, prune_self_edges,
  and the row pipeline (rows, select, where_rows, order_by, skip, limit, distinct, group_by, count_table).
- Graph algorithms as Calls, pygraphistry's compute_igraph / compute_cugraph:
  {"type":"Call","function":"compute_igraph","params":{"alg":"pagerank","out_col":"pr","params":{"damping":0.85}}}
  adds a node column pr; later steps may filter on it. "directed": false reads edges both ways (community
  algorithms need it). The algorithm names are those of GET /api/v1/datasets/.
- Layouts as Calls: {"type":"Call","function":"layout_igraph","params":{"layout":"circle"}} adds node columns x, y
  (z for 3D layouts); layout_cugraph (force_atlas2) and fa2_layout likewise; the names are the "layout" lists of
  GET /api/v1/datasets/.
- query_graph (not create_collection) also accepts one read-only Cypher query, e.g.
  MATCH (a)-[r]->(b) WHERE a.kind = 'person' RETURN b.name LIMIT 10.

Errors: a tool that cannot run your query answers {"error":"[code] message"} with success status: read the
message, fix the query, and try again. HTTP 404 means the transport session expired: initialize again.
HTTP 410 means the visualization's owner closed it.`;
