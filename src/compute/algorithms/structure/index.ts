// The structure algorithms of spec 2.9, as registry entries: components, cores, traversals, shortest paths,
// ego graphs, spanning trees, Gomory-Hu trees and the neighbour-set similarity family.
import type { AlgorithmEntry } from "../../types.ts";
import { componentEntries } from "./components.ts";
import { coreEntries } from "./cores.ts";
import { egoEntries } from "./ego.ts";
import { gomoryHuEntries } from "./gomory-hu.ts";
import { pathEntries } from "./paths.ts";
import { similarityEntries } from "./similarity.ts";
import { traversalEntries } from "./traversal.ts";
import { treeEntries } from "./trees.ts";

export const entries: AlgorithmEntry[] = [
  ...componentEntries,
  ...coreEntries,
  ...traversalEntries,
  ...pathEntries,
  ...egoEntries,
  ...treeEntries,
  ...gomoryHuEntries,
  ...similarityEntries,
];
