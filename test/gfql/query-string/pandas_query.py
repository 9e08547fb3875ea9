# Runs pandas' DataFrame.query (the reference pygraphistry's Node `query` and Edge `*_query` strings run on) for the
# differential test: reads {"frames": [{"columns": {...}, "queries": [...]}]} as JSON on stdin and answers, per
# query, the matched row positions or the pandas error's type.
import json
import sys
import warnings

import numpy as np
import pandas as pd

warnings.simplefilter("ignore")


def frame(columns):
    data = {}
    for name, spec in columns.items():
        kind, values = spec["kind"], spec["values"]
        if kind == "int":
            data[name] = pd.Series(values, dtype="int64")
        elif kind == "float":
            data[name] = pd.Series([np.nan if v is None else v for v in values], dtype="float64")
        elif kind == "bool":
            data[name] = pd.Series(values, dtype="bool")
        else:
            data[name] = pd.Series(values, dtype="object")
    df = pd.DataFrame(data)
    df["__pos"] = range(len(df))
    return df


def answer(df, query):
    try:
        return {"rows": [int(p) for p in df.query(query)["__pos"]]}
    except Exception as e:  # noqa: BLE001 -- any pandas refusal is an expected outcome to compare
        return {"error": type(e).__name__, "message": str(e)[:200]}


request = json.load(sys.stdin)
out = []
for spec in request["frames"]:
    df = frame(spec["columns"])
    out.append([answer(df, q) for q in spec["queries"]])
json.dump({"pandas": pd.__version__, "answers": out}, sys.stdout)
