# Reads files with pandas, as test/helpers/pandas-reference.ts asks, and prints comparable JSON.
# stdin: a JSON list of {"path": str, "format": "csv"|"json", "kwargs": {...}}.
# stdout: a JSON list, one answer per request, in order:
#   {"ok": true, "columns": [str], "dtypes": [str], "values": [[cell]]}  (values: one list per column)
#   {"ok": false, "error": "<exception class>", "message": str}
# A cell is a tagged string ("int:1", "str:a", "NaN", ...) or, for finite floats, ["float", number]:
# the TypeScript side formats the number, so both sides print a double the same way.
import datetime
import decimal
import json
import math
import sys
import warnings

import numpy as np
import pandas as pd


def zone_text(tz):
    """A zone as Arrow names it: UTC, a fixed offset as +HH:MM, else its name."""
    if tz is None:
        return None
    offset = datetime.datetime(2000, 1, 1, tzinfo=tz).utcoffset() if "FixedOffset" in str(tz) or "tzoffset" in str(tz) else None
    if offset is None:
        return str(tz)
    minutes = int(offset.total_seconds() // 60)
    return "UTC" if minutes == 0 else ("-" if minutes < 0 else "+") + f"{abs(minutes) // 60:02d}:{abs(minutes) % 60:02d}"


def ts_text(ns, tz):
    """A timestamp as ISO text to the nanosecond (fraction trimmed), with its zone (see zone_text), if any."""
    seconds, nanos = divmod(int(ns), 1_000_000_000)
    text = (datetime.datetime(1970, 1, 1) + datetime.timedelta(seconds=seconds)).strftime("%Y-%m-%dT%H:%M:%S")
    if nanos:
        text += "." + f"{nanos:09d}".rstrip("0")
    return "ts:" + text + (" " + zone_text(tz) if tz is not None else "")


def cell(value):
    if value is None:
        return "None"
    if value is pd.NA:
        return "NA"
    if value is pd.NaT:
        return "NaT"
    if isinstance(value, (bool, np.bool_)):
        return "bool:" + str(bool(value))
    if isinstance(value, (int, np.integer)):
        return "int:" + str(int(value))
    if isinstance(value, (float, np.floating)):
        f = float(value)
        if math.isnan(f):
            return "NaN"
        if math.isinf(f):
            return "float:" + ("inf" if f > 0 else "-inf")
        return ["float", f]
    if isinstance(value, str):
        return "str:" + value
    if isinstance(value, pd.Timestamp):
        return ts_text(value.value, value.tz)
    if isinstance(value, np.datetime64):
        return "NaT" if np.isnat(value) else ts_text(value.astype("datetime64[ns]").astype(np.int64), None)
    if isinstance(value, datetime.datetime):
        return ts_text(pd.Timestamp(value).value, value.tzinfo)
    if isinstance(value, datetime.date):
        return "date:" + value.isoformat()
    if isinstance(value, (bytes, bytearray)):
        return "bytes:" + bytes(value).hex()
    if isinstance(value, decimal.Decimal):
        return "decimal:" + str(value)
    return "repr:" + repr(value)


def column_cells(series):
    if isinstance(series.dtype, pd.CategoricalDtype):
        return [cell(v) for v in series.astype(object)]
    if str(series.dtype).startswith("datetime64"):
        return [cell(v) for v in series]  # Timestamps (with their zone) and NaT
    return [cell(v) for v in series.tolist()]


def read(request):
    kwargs = dict(request.get("kwargs") or {})
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        if request["format"] == "csv":
            frame = pd.read_csv(request["path"], **kwargs)
        elif request["format"] == "json":
            frame = pd.read_json(request["path"], **kwargs)
        else:
            raise ValueError("unknown format " + request["format"])
    return {
        "ok": True,
        "columns": [str(c) for c in frame.columns],
        "dtypes": [str(t) for t in frame.dtypes],
        "values": [column_cells(frame.iloc[:, i]) for i in range(frame.shape[1])],
    }


def main():
    answers = []
    for request in json.load(sys.stdin):
        try:
            answers.append(read(request))
        except Exception as error:  # pandas' refusal is an answer too
            answers.append({"ok": False, "error": type(error).__name__, "message": str(error)})
    json.dump({"pandas": pd.__version__, "answers": answers}, sys.stdout, allow_nan=False)


if __name__ == "__main__":
    main()
