// The centrality algorithms of spec 2.9, as registry entries.
import type { AlgorithmEntry } from "../../types.ts";
import { cugraphBetweenness, cugraphEdgeBetweenness, igraphBetweenness } from "./betweenness.ts";
import { igraphBibcoupling, igraphCocitation } from "./cocitation.ts";
import { igraphConstraint } from "./constraint.ts";
import { igraphCloseness, igraphEccentricity, igraphHarmonic } from "./distances.ts";
import { igraphAuthorityScore, igraphEigenvector, igraphHubScore } from "./eigenvector.ts";
import { cugraphHits, cugraphKatz } from "./katz-hits.ts";
import { cugraphPagerank, igraphPagerank } from "./pagerank.ts";

export const entries: AlgorithmEntry[] = [
  // igraph
  igraphPagerank,
  igraphBetweenness,
  igraphCloseness,
  igraphHarmonic,
  igraphEccentricity,
  igraphEigenvector,
  igraphHubScore,
  igraphAuthorityScore,
  igraphConstraint,
  igraphBibcoupling,
  igraphCocitation,
  // cugraph
  cugraphPagerank,
  cugraphKatz,
  cugraphHits,
  cugraphBetweenness,
  cugraphEdgeBetweenness,
];
