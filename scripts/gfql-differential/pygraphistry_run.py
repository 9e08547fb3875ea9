"""Runs GFQL queries with pygraphistry's own engine, for scripts/gfql-differential/run.ts.

Usage: python3 pygraphistry_run.py PYGRAPHISTRY_ROOT CASE.json OUT.json

PYGRAPHISTRY_ROOT is a checkout of graphistry/pygraphistry (the folder holding `graphistry/`). Debian 12 has no
pyarrow, which `import graphistry` names but GFQL on pandas never calls: a stand-in module answers those names.
Needs python3-pandas, python3-lark, python3-palettable, python3-requests, python3-typing-extensions.
"""
import json
import logging
import math
import sys
import types
import warnings

import numpy as np
import pandas as pd


class _Absent:
    def __getattr__(self, _name):
        return _Absent()

    def __call__(self, *_args, **_kwargs):
        return _Absent()

    def __mro_entries__(self, _bases):
        return (object,)


for name in ["pyarrow"] + ["pyarrow." + s for s in ["parquet", "csv", "json", "compute", "ipc", "lib", "types", "feather"]]:
    module = types.ModuleType(name)
    module.__getattr__ = lambda _attr: _Absent()
    module.__version__ = "0.0"
    sys.modules[name] = module

sys.path.insert(0, sys.argv[1])
warnings.filterwarnings("ignore")
logging.disable(logging.CRITICAL)
import graphistry  # noqa: E402

# the module, not the class that graphistry.compute exports under the same name
compute_mixin = sys.modules["graphistry.compute.ComputeMixin"]


def _degree_agg(edges, key_col, out_name, node_id):
    """pygraphistry's own _degree_agg for pandas 1.5: value_counts().reset_index() names its column `index` there
    (pandas 2 names it after the counted column, which pygraphistry's rename relies on). Same counts."""
    counts = edges[key_col].value_counts(sort=False)
    return pd.DataFrame({node_id: counts.index, out_name: counts.values})


compute_mixin._degree_agg = _degree_agg

case = json.load(open(sys.argv[2]))
nodes = pd.DataFrame(case["nodes"])
for column in case.get("datetimes", []):
    nodes[column] = pd.to_datetime(nodes[column])
for column in case.get("datetimesUtc", []):
    nodes[column] = pd.to_datetime(nodes[column], utc=True)
g = graphistry.edges(pd.DataFrame(case["edges"]), "s", "d").nodes(nodes, "id")


def true_ids(frame, key, column):
    return sorted(str(i) for i, v in zip(frame[key], frame[column]) if v is True or v == True)  # noqa: E712


def cell(v):
    if v is None or (isinstance(v, float) and math.isnan(v)) or v is pd.NA or v is pd.NaT:
        return None
    if isinstance(v, (bool, np.bool_)):
        return bool(v)
    if isinstance(v, (int, float, np.integer, np.floating)):
        return float(v) if not float(v).is_integer() else int(v)
    return v


out = []
for i, query in enumerate(case["queries"]):
    if "ordered" in case:  # Cypher text, answered as rows
        try:
            frame = g.gfql(query)._nodes
            header = [str(c) for c in frame.columns]
            rows = [json.dumps([cell(v) for v in row], separators=(",", ":"), ensure_ascii=False)
                    for row in frame.itertuples(index=False, name=None)]
            out.append({"header": header, "rows": rows if case["ordered"][i] else sorted(rows)})
        except Exception as ex:
            out.append({"error": type(ex).__name__ + ": " + str(ex)[:200]})
        continue
    try:
        r = g.gfql(query)
        n, e = r._nodes, r._edges
        named = {}
        for name in case["names"]:
            if n is not None and name in n:
                named["n:" + name] = true_ids(n, "id", name)
            if e is not None and name in e and "eid" in e:
                named["e:" + name] = true_ids(e, "eid", name)
        answer = {
            "nodes": sorted(str(x) for x in n["id"]) if n is not None and "id" in n else [],
            "edges": sorted(str(x) for x in e["eid"]) if e is not None and "eid" in e else [],
            "named": named,
        }
        if "columns" in case:
            def read(frame, key, names, prefix):
                return {
                    prefix + c: sorted(f"{k}={'null' if pd.isna(v) else str(float(v)).removesuffix('.0')}" for k, v in zip(frame[key], frame[c]))
                    for c in names if frame is not None and c in frame and key in frame
                }
            answer["columns"] = {**read(n, "id", case["columns"], ""), **read(e, "eid", case.get("edgeColumns", []), "e:")}
        out.append(answer)
    except Exception as ex:  # the comparison reports who refused what
        out.append({"error": type(ex).__name__ + ": " + str(ex)[:200]})
json.dump(out, open(sys.argv[3], "w"))
