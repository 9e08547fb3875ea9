// The centrality algorithms of spec 2.9, as registry entries.
import type { AlgorithmEntry } from "../../types.ts";
import { cugraphBetweenness, cugraphEdgeBetweenness, igraphBetweenness } from "./betweenness.ts";
import { igraphCloseness, igraphEccentricity, igraphHarmonic } from "./distances.ts";
import { igraphAuthorityScore, igraphEigenvector, igraphHubScore } from "./eigenvector.ts";
import { cugraphHits, cugraphKatz } from "./katz-hits.ts";
import { cugraphPagerank, igraphPagerank } from "./pagerank.ts";

export const entries: AlgorithmEntry[] = [
  igraphPagerank,
  cugraphPagerank,
  igraphBetweenness,
  cugraphBetweenness,
  cugraphEdgeBetweenness,
  igraphCloseness,
  igraphHarmonic,
  igraphEccentricity,
];
