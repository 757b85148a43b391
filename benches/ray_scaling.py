"""Scaling of backend="ray" on a local cluster with 1 vs 2 CPUs, next to the
local backend with 1 vs 2 threads (the table in docs/ray.md).

    .venv/bin/python benches/ray_scaling.py [--repeats 3]

Each job is timed ``repeats`` times after a warm-up (worker start-up is not
timed); the median wall time is printed. Every Ray run is also checked to
return the local run's arrays.
"""

from __future__ import annotations

import argparse
import os
import statistics
import time
from collections.abc import Callable
from typing import Any

import numpy as np
import ray

import dicechess as dc

JOBS: dict[str, Callable[..., Any]] = {
    "fluky playouts, random, 20k games (10 shards)": lambda **kw: dc.playouts(
        "fluky", 20_000, seed=1, chunk_size=2000, **kw
    ),
    "fluky playouts, random, 400k games (20 shards)": lambda **kw: dc.playouts(
        "fluky", 400_000, seed=1, chunk_size=20_000, **kw
    ),
    "vegas arena, random vs greedy, 2k games (20 shards)": lambda **kw: dc.arena(
        "vegas", ["random", "greedy"], 2000, seed=1, chunk_size=100, **kw
    ),
}


def timed(fn: Callable[..., Any], repeats: int, **kw: Any) -> tuple[float, Any]:
    fn(**kw)  # warm-up: starts Ray workers, faults pages in
    times = []
    for _ in range(repeats):
        t = time.perf_counter()
        out = fn(**kw)
        times.append(time.perf_counter() - t)
    return statistics.median(times), out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeats", type=int, default=3)
    args = ap.parse_args()
    print(f"load before: {os.getloadavg()}")
    rows: dict[str, dict[str, float]] = {name: {} for name in JOBS}
    reference: dict[str, Any] = {}
    for threads in (1, 2):
        for name, fn in JOBS.items():
            t, out = timed(fn, args.repeats, threads=threads, progress=False)
            rows[name][f"local {threads}t"] = t
            reference[name] = out
    for cpus in (1, 2):
        ray.init(num_cpus=cpus, include_dashboard=False, log_to_driver=False)
        for name, fn in JOBS.items():
            t, out = timed(fn, args.repeats, backend="ray", progress=False)
            assert np.array_equal(out.winner, reference[name].winner)
            assert np.array_equal(out.plies, reference[name].plies)
            rows[name][f"ray {cpus} CPU"] = t
        ray.shutdown()
    print(f"load after: {os.getloadavg()}")
    cols = ["local 1t", "local 2t", "ray 1 CPU", "ray 2 CPU"]
    print("| job | " + " | ".join(f"{c} s" for c in cols) + " | ray 2/1 speed-up |")
    print("|---|" + "---:|" * (len(cols) + 1))
    for name in JOBS:
        r = rows[name]
        cells = [f"{r[c]:.2f}" for c in cols]
        speed = r["ray 1 CPU"] / r["ray 2 CPU"]
        print(f"| {name} | " + " | ".join(cells) + f" | {speed:.2f}x |")


if __name__ == "__main__":
    main()
