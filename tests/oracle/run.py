"""Runs a pack's NumPy oracle (exercises/<slug>/reference/oracle.py) on the cases tests/js/oracle.test.mjs
sends on stdin, and prints the results as JSON on stdout.

In:  {"module": path, "cases": [{"fn": name, "args": [value, ...]}]}, a tensor being
     {"$t": {"shape": [...], "data": [...], "dtype": "float64" | "bool"}} and a non-finite number
     {"$f": "NaN" | "Infinity" | "-Infinity"}.
Out: {"results": [value, ...]} in the same encoding; tuples and lists become lists.
Needs Debian's python3-numpy (tools/setup installs it); run with /usr/bin/python3.
"""
import importlib.util
import json
import math
import sys

import numpy as np


def decode(v):
    if isinstance(v, dict) and "$t" in v:
        t = v["$t"]
        data = [decode(x) for x in t["data"]]
        return np.array(data, dtype=bool if t["dtype"] == "bool" else np.float64).reshape(t["shape"])
    if isinstance(v, dict) and "$f" in v:
        return float(v["$f"].replace("Infinity", "inf"))
    if isinstance(v, list):
        return [decode(x) for x in v]
    return v


def number(x):
    x = float(x)
    return x if math.isfinite(x) else {"$f": "NaN" if math.isnan(x) else ("Infinity" if x > 0 else "-Infinity")}


def encode(v):
    if isinstance(v, np.ndarray):
        dtype = "bool" if v.dtype == bool else "float64"
        flat = v.reshape(-1).tolist()
        return {"$t": {"shape": list(v.shape), "dtype": dtype, "data": flat if dtype == "bool" else [number(x) for x in flat]}}
    if isinstance(v, (tuple, list)):
        return [encode(x) for x in v]
    if isinstance(v, (bool, np.bool_)):
        return bool(v)
    if isinstance(v, (int, float, np.integer, np.floating)):
        return number(v)
    return v


def main():
    request = json.load(sys.stdin)
    spec = importlib.util.spec_from_file_location("oracle", request["module"])
    oracle = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(oracle)
    results = [encode(getattr(oracle, case["fn"])(*decode(case["args"]))) for case in request["cases"]]
    json.dump({"results": results}, sys.stdout)


if __name__ == "__main__":
    main()
