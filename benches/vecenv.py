"""VecEnv steps/s (observations + masks) vs OpenSpiel's Python loop.

Side by side in one run, chess:

* ``dc.VecEnv("chess", 64)`` and ``(..., 256)``: every step writes all observations and
  legal-action masks; the actions are random legal ones picked in numpy
  from the mask (vectorised: one ``flatnonzero`` over the masks, one random
  number per env).
* OpenSpiel (``pyspiel.load_game("chess")``, when ``open_spiel`` is
  installed): one state in a Python loop; each step applies a random legal
  action and calls ``state.observation_tensor()`` and
  ``state.legal_actions_mask()`` (the same outputs as the VecEnv step).

Each side is timed twice: the environment alone, and the whole loop
including picking the random action (part of any user's loop). Medians of 3,
alternating, one process; the load average is printed because the machine
may be shared. Also VecEnv vs a Python loop over ``dc.State`` for the dice
variants, and the 1 vs 2 threads scaling of ``dc.playouts``.

Run: ``make bench`` or ``.venv/bin/python benches/vecenv.py [--quick]``.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import time

import numpy as np

import dicechess as dc

try:
    import pyspiel
except ImportError:  # open_spiel is optional
    pyspiel = None


def random_legal(mask: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """One uniformly random legal action per row of ``mask`` (vectorised)."""
    n, width = mask.shape
    flat = np.flatnonzero(mask)  # sorted: row by row
    counts = np.bincount(flat // width, minlength=n)
    starts = np.cumsum(counts) - counts
    pick = starts + (rng.random(n) * counts).astype(np.int64)
    return flat[np.minimum(pick, len(flat) - 1)] % width


def vecenv_rate(variant: str, n: int, steps: int, threads: int | None) -> tuple[float, float]:
    """(env-only, whole-loop) steps/s with random legal actions from the mask."""
    env = dc.VecEnv(variant, n, seed=1, threads=threads)
    rng = np.random.default_rng(1)
    _, mask, *_ = env.reset()
    env_time = 0.0
    start = time.perf_counter()
    for _ in range(steps):
        act = random_legal(mask, rng)
        t = time.perf_counter()
        _, mask, *_ = env.step(act)
        env_time += time.perf_counter() - t
    total = time.perf_counter() - start
    return n * steps / env_time, n * steps / total


def openspiel_rate(steps: int) -> tuple[float, float]:
    """(env-only, whole-loop) steps/s of OpenSpiel chess in a Python loop."""
    game = pyspiel.load_game("chess")
    rng = random.Random(1)
    state = game.new_initial_state()
    env_time = 0.0
    start = time.perf_counter()
    for _ in range(steps):
        action = rng.choice(state.legal_actions())
        t = time.perf_counter()
        state.apply_action(action)
        if state.is_terminal():
            state = game.new_initial_state()
        state.observation_tensor()
        state.legal_actions_mask()
        env_time += time.perf_counter() - t
    total = time.perf_counter() - start
    return steps / env_time, steps / total


def state_rate(variant: str, steps: int) -> float:
    """Env-only steps/s of a Python loop over dc.State (mask + observation)."""
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
        a = int(rng.choice(np.flatnonzero(mask)))  # the policy, not timed
        t = time.perf_counter()
        s.apply_action(a)
        resolve(s)
        if s.is_terminal():
            s = fresh()
        mask = s.legal_actions_mask()
        s.observation_tensor()
        spent += time.perf_counter() - t
    return steps / spent


def medians(pairs: list[tuple[float, float]]) -> tuple[float, float]:
    """Median of each component."""
    return statistics.median(p[0] for p in pairs), statistics.median(p[1] for p in pairs)


def vs_openspiel(sizes: list[int], steps: int, osteps: int) -> None:
    """The headline table: dc.VecEnv (each number of envs) vs OpenSpiel, chess.
    ``steps`` env steps in all per VecEnv run, whatever the number of envs."""
    load = os.getloadavg()[0]
    vec: dict[int, list[tuple[float, float]]] = {n: [] for n in sizes}
    osp = []
    for _ in range(3):  # alternating
        for n in sizes:
            vec[n].append(vecenv_rate("chess", n, max(1, steps // n), 1))
        if pyspiel is not None:
            osp.append(openspiel_rate(osteps))
    print("Chess: dc.VecEnv (1 thread) vs OpenSpiel Python loop, median of 3 alternating")
    print(
        f"runs, obs + mask every step; load average at start {load:.2f} on {os.cpu_count()} cores"
    )
    print()
    print("| envs | timed | dc.VecEnv steps/s | OpenSpiel steps/s | ratio |")
    print("|---:|---|---:|---:|---:|")
    o_env, o_all = medians(osp) if osp else (float("nan"), float("nan"))
    for n in sizes:
        v_env, v_all = medians(vec[n])
        for what, v, o in (("env only", v_env, o_env), ("with random action pick", v_all, o_all)):
            other = f"{o:,.0f} | {v / o:.0f}x" if osp else "(open_spiel not installed) |"
            print(f"| {n} | {what} | {v:,.0f} | {other} |")


def vs_state_loop(n: int, vsteps: int, psteps: int) -> None:
    """VecEnv vs a Python loop over dc.State, per variant (env time only)."""
    print()
    print("dc.VecEnv vs a Python loop over dc.State (env time only), median of 3")
    print()
    print("| variant | VecEnv 1 thread | VecEnv all threads | dc.State loop | ratio (1 thread) |")
    print("|---|---:|---:|---:|---:|")
    for variant in ("chess", "vegas", "cubic"):
        v1 = statistics.median(vecenv_rate(variant, n, vsteps, 1)[0] for _ in range(3))
        va = statistics.median(vecenv_rate(variant, n, vsteps, None)[0] for _ in range(3))
        py = statistics.median(state_rate(variant, psteps) for _ in range(3))
        print(f"| {variant} | {v1:,.0f} | {va:,.0f} | {py:,.0f} | {v1 / py:.0f}x |")


def playouts_scaling(games: int) -> None:
    """dc.playouts (random agents) on 1 and 2 threads, alternating: games/s and the ratio."""

    def rate(threads: int) -> float:
        t = time.perf_counter()
        dc.playouts("chess", games, seed=1, threads=threads, progress=False)
        return games / (time.perf_counter() - t)

    ones, twos = [], []
    for _ in range(3):
        ones.append(rate(1))
        twos.append(rate(2))
    one, two = statistics.median(ones), statistics.median(twos)
    print()
    print(f"dc.playouts('chess', {games}) scaling, median of 3, load {os.getloadavg()[0]:.2f}")
    print()
    print("| 1 thread games/s | 2 threads games/s | ratio |")
    print("|---:|---:|---:|")
    print(f"| {one:,.0f} | {two:,.0f} | {two / one:.2f} |")


def main() -> None:
    """Prints the tables."""
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true")
    args = ap.parse_args()
    n, vsteps, osteps, psteps = (64, 20, 300, 300) if args.quick else (256, 200, 3000, 3000)
    vs_openspiel([64, 256], n * vsteps, osteps)
    vs_state_loop(n, vsteps, psteps)
    playouts_scaling(200 if args.quick else 2000)


if __name__ == "__main__":
    main()
