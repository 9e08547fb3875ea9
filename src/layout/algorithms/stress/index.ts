// igraph's stress layouts: Kamada-Kawai (2D, 3D), classical multidimensional scaling, and auto (igraph's choice of
// kk, fr or drl by size), with python-igraph's aliases (registered in ../../registry.ts).
import { findLayout } from "../../registry.ts";
import { aliasOf, type LayoutEntry, layoutEntry } from "../../types.ts";
import { autoLayout } from "./auto.ts";
import { dimParam, kamadaKawai, kkParams, startKamadaKawai } from "./kamada-kawai.ts";
import { mdsLayout } from "./mds.ts";

const kk = layoutEntry({
  library: "igraph",
  name: "kk",
  dims: 2,
  params: kkParams(2),
  doc: "Kamada-Kawai: springs between all pairs with natural lengths from graph distances, igraph's Newton-Raphson moves from a circle",
  place: (graph, params, ctx) => kamadaKawai(graph, params, ctx, 2),
  start: (graph, params, ctx, initial) => startKamadaKawai(graph, params, ctx, 2, initial),
});

const kk3d = layoutEntry({
  library: "igraph",
  name: "kk_3d",
  dims: 3,
  params: kkParams(3),
  doc: "Kamada-Kawai in 3D, from a sphere: columns x, y, z",
  place: (graph, params, ctx) => kamadaKawai(graph, params, ctx, 3),
  start: (graph, params, ctx, initial) => startKamadaKawai(graph, params, ctx, 3, initial),
});

const mds = layoutEntry({
  library: "igraph",
  name: "mds",
  dims: 2,
  params: {
    dist: { type: "json", nullable: true, default: null, description: "n×n matrix of distances to draw; null = shortest-path lengths" },
    arpack_options: { type: "json", nullable: true, default: null, description: "accepted and ignored, as igraph itself ignores it" },
    dim: { type: "integer", min: 2, max: 2, default: 2, description: "2 (igraph packs a disconnected graph's pieces in 2D only)" },
  },
  doc: "classical multidimensional scaling of graph distances (components laid out apart and packed by igraph's DLA merge)",
  place: (graph, params, ctx) => mdsLayout(graph, params, ctx),
});

const auto = layoutEntry({
  library: "igraph",
  name: "auto",
  dims: 2,
  params: { dim: dimParam(2, "auto_3d") },
  doc: "igraph's choice: kk for a connected graph of at most 100 nodes, fr up to 1000, drl beyond",
  place: (graph, _params, ctx) => autoLayout(graph, ctx, 2, findLayout),
});

const auto3d = layoutEntry({
  library: "igraph",
  name: "auto_3d",
  dims: 3,
  params: { dim: dimParam(3, "auto") },
  doc: "igraph's choice in 3D: kk_3d, fr_3d or drl_3d by the same rule",
  place: (graph, _params, ctx) => autoLayout(graph, ctx, 3, findLayout),
});

export const entries: LayoutEntry[] = [
  kk,
  aliasOf(kk, "kamada_kawai"),
  kk3d,
  aliasOf(kk3d, "kk3d"),
  aliasOf(kk3d, "kamada_kawai_3d"),
  mds,
  auto,
  aliasOf(auto, "automatic"),
  auto3d,
];
