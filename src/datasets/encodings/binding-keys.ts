// The binding keys pygraphistry sends (graphistry/io/metadata.py), per axis.

export const NODE_BINDING_KEYS: readonly string[] = Object.freeze([
  "node",
  "node_color",
  "node_label",
  "node_opacity",
  "node_size",
  "node_title",
  "node_weight",
  "node_icon",
  "node_x",
  "node_y",
  "node_longitude",
  "node_latitude",
]);

export const EDGE_BINDING_KEYS: readonly string[] = Object.freeze([
  "source",
  "destination",
  "edge_color",
  "edge_source_color",
  "edge_destination_color",
  "edge_label",
  "edge_opacity",
  "edge_size",
  "edge_title",
  "edge_weight",
  "edge_icon",
]);
