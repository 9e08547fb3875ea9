"""Runs python-igraph / networkx expressions on graphs given as JSON, for the compute suites (graph-reference.ts).

stdin: {"graphs": [{"n": int, "edges": [[s, t], ...], "directed": bool, "edge_attrs": {name: [...]},
                    "calls": ["g.pagerank(damping=0.85)", ...]}]}
Each call is a Python expression with `g` (igraph.Graph, vertex i = node row i, edge j = edge row j), `G`
(networkx.MultiDiGraph/MultiGraph with nodes 0..n-1 and edge attributes, keys = edge rows), `ig` and `nx`.
stdout: one JSON list per graph, one answer per call: {"ok": true, "value": ...} or {"ok": false, "error": ...}.
Answers: VertexClustering -> {"membership": [...], "modularity": q}; VertexDendrogram -> its as_clustering();
Graph -> {"n", "edges", "vertex_attrs", "edge_attrs"}; NaN/inf -> null; numpy and tuples -> lists.
"""
import json
import math
import sys

import igraph as ig
import networkx as nx


def plain(value):
    if isinstance(value, ig.VertexDendrogram):
        value = value.as_clustering()
    if isinstance(value, ig.VertexClustering):
        return {"membership": list(value.membership), "modularity": plain(value.modularity)}
    if isinstance(value, ig.Graph):
        return {
            "n": value.vcount(),
            "edges": [list(e.tuple) for e in value.es],
            "vertex_attrs": {a: plain(value.vs[a]) for a in value.vs.attributes()},
            "edge_attrs": {a: plain(value.es[a]) for a in value.es.attributes()},
        }
    if isinstance(value, float):
        return None if (math.isnan(value) or math.isinf(value)) else value
    if isinstance(value, dict):
        return {str(k): plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple, set, frozenset)) or type(value).__name__ in ("ndarray", "generator", "dict_values"):
        return [plain(v) for v in value]
    if hasattr(value, "item"):
        return plain(value.item())
    return value


def main():
    request = json.load(sys.stdin)
    answers = []
    for spec in request["graphs"]:
        n = spec["n"]
        edges = [tuple(e) for e in spec["edges"]]
        directed = spec.get("directed", True)
        attrs = spec.get("edge_attrs", {})
        g = ig.Graph(n=n, edges=edges, directed=directed)
        for name, values in attrs.items():
            g.es[name] = values
        G = nx.MultiDiGraph() if directed else nx.MultiGraph()
        G.add_nodes_from(range(n))
        for j, (s, t) in enumerate(edges):
            G.add_edge(s, t, key=j, **{name: values[j] for name, values in attrs.items()})
        scope = {"g": g, "G": G, "ig": ig, "nx": nx, "math": math}
        out = []
        for call in spec["calls"]:
            try:
                out.append({"ok": True, "value": plain(eval(call, scope))})
            except Exception as error:  # the reference refusing an input is an answer too
                out.append({"ok": False, "error": f"{type(error).__name__}: {error}"})
        answers.append(out)
    json.dump(answers, sys.stdout)


main()
