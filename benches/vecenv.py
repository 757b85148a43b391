"""VecEnv steps/s (observations + masks) vs a plain Python loop over dc.State.

OpenSpiel is not installed here, so the baseline is a plain Python loop over
``dicechess.State`` doing the same work per step: legal-action mask,
observation tensor, apply the action, resolve chance nodes, reset finished
games. Both sides use the same policy (the first legal action), and only
the environment's work is timed on either side (the policy is not). Medians of 3 runs, one process.

Run: ``make bench`` or ``.venv/bin/python benches/vecenv.py [--quick]``.
"""

from __future__ import annotations

import argparse
import os
import statistics
import time

import numpy as np

import dicechess as dc


def vecenv_rate(variant: str, n: int, steps: int, threads: int | None) -> float:
    env = dc.VecEnv(variant, n, seed=1, threads=threads)
    _, mask, *_ = env.reset()
    act = np.argmax(mask, axis=1)
    spent = 0.0
    for _ in range(steps):
        t = time.perf_counter()
        env.step(act)
        spent += time.perf_counter() - t
        np.argmax(mask, axis=1, out=act)  # the policy, not timed
    return n * steps / spent


def python_rate(variant: str, steps: int) -> float:
    rng = np.random.default_rng(1)

    def fresh() -> dc.State:
        s = dc.State(variant)
        resolve(s)
        return s

    def resolve(s: dc.State) -> None:
        while s.is_chance_node():
            ids, ps = zip(*s.chance_outcomes())
            s.apply_action(int(rng.choice(ids, p=ps)))

    s = fresh()
    mask = s.legal_actions_mask()
    spent = 0.0
    for _ in range(steps):
        a = int(np.argmax(mask))  # the policy, not timed
        t = time.perf_counter()
        s.apply_action(a)
        resolve(s)
        if s.is_terminal():
            s = fresh()
        mask = s.legal_actions_mask()
        s.observation_tensor()
        spent += time.perf_counter() - t
    return steps / spent


def playouts_scaling(games: int) -> None:
    """dc.playouts (random agents) on 1 and 2 threads: games/s and the ratio."""

    def rate(threads: int) -> float:
        t = time.perf_counter()
        dc.playouts("chess", games, seed=1, threads=threads, progress=False)
        return games / (time.perf_counter() - t)

    one = statistics.median(rate(1) for _ in range(3))
    two = statistics.median(rate(2) for _ in range(3))
    print()
    print(f"dc.playouts('chess', {games}) scaling, median of 3, load {os.getloadavg()[0]:.2f}")
    print("| 1 thread games/s | 2 threads games/s | ratio |")
    print("|---:|---:|---:|")
    print(f"| {one:,.0f} | {two:,.0f} | {two / one:.2f} |")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true")
    args = ap.parse_args()
    n, vsteps, psteps = (64, 20, 300) if args.quick else (256, 200, 3000)
    load = os.getloadavg()[0]
    print("VecEnv vs Python loop over dc.State (obs + mask per step), median of 3;")
    print(f"num_envs={n}, load average at start {load:.2f} on {os.cpu_count()} cores")
    print(
        "| variant | VecEnv 1 thread steps/s | VecEnv all threads steps/s "
        "| Python loop steps/s | ratio (1 thread) |"
    )
    print("|---|---|---|---|---|")
    for variant in ("chess", "vegas", "cubic"):
        v1 = statistics.median(vecenv_rate(variant, n, vsteps, 1) for _ in range(3))
        va = statistics.median(vecenv_rate(variant, n, vsteps, None) for _ in range(3))
        py = statistics.median(python_rate(variant, psteps) for _ in range(3))
        print(f"| {variant} | {v1:,.0f} | {va:,.0f} | {py:,.0f} | {v1 / py:.0f}x |")
    playouts_scaling(200 if args.quick else 2000)


if __name__ == "__main__":
    main()
