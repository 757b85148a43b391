"""Random-action steps/s through ``dicechess.sb3`` vs SB3's ``DummyVecEnv``.

Side by side in one run, the same 64 envs (``dicechess/Fluky-v0`` against the
built-in ``"random"`` opponent, seeds 0..63):

* ``dicechess.sb3.make_vec_env(id, 64)``: the SB3 ``VecEnv`` adapter over the
  Rust vector env (one Rust call per step, same-step autoreset);
* ``stable_baselines3.common.env_util.make_vec_env(id, n_envs=64)``: SB3's
  ``DummyVecEnv`` over 64 single Gymnasium envs (what an SB3 user gets
  without the adapter).

Each loop is what MaskablePPO's rollout does around the policy: read the
masks (``sb3_contrib``'s ``get_action_masks``, i.e. ``env_method
("action_masks")``), pick a random legal action per env (vectorised numpy,
the same code for both), ``step``. Medians of 5 alternating rounds in one
process; the load average is printed because the machine may be shared.

Run: ``make bench`` or ``.venv/bin/python benches/sb3_vecenv.py [--quick]``
(needs requirements-rl.txt: ``make venv-rl``).
"""

from __future__ import annotations

import argparse
import os
import statistics
import time

import numpy as np

try:
    from sb3_contrib.common.maskable.utils import get_action_masks
    from stable_baselines3.common.env_util import make_vec_env as sb3_make_vec_env
except ImportError:  # the RL libraries are optional for `make bench`
    sb3_make_vec_env = None

ENV_ID = "dicechess/Fluky-v0"


def random_legal(mask: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """One uniformly random legal action per row of ``mask`` (vectorised)."""
    n, width = mask.shape
    flat = np.flatnonzero(mask)
    counts = np.bincount(flat // width, minlength=n)
    starts = np.cumsum(counts) - counts
    pick = starts + (rng.random(n) * counts).astype(np.int64)
    return flat[np.minimum(pick, len(flat) - 1)] % width


def rate(venv, steps: int) -> float:
    """Random-action steps/s (env steps: ``num_envs`` per call) of ``venv``."""
    rng = np.random.default_rng(1)
    venv.reset()
    start = time.perf_counter()
    for _ in range(steps):
        venv.step(random_legal(get_action_masks(venv), rng))
    return steps * venv.num_envs / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--envs", type=int, default=64)
    parser.add_argument("--steps", type=int, default=300, help="vector steps per round")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--quick", action="store_true", help="50 steps, 3 rounds")
    args = parser.parse_args()
    if sb3_make_vec_env is None:
        print("sb3_vecenv: stable-baselines3 / sb3-contrib not installed (make venv-rl); skipped")
        return
    import dicechess.sb3 as ds

    if args.quick:
        args.steps, args.rounds = 50, 3
    n = args.envs
    ours = ds.make_vec_env(ENV_ID, n, seed=0)
    dummy = sb3_make_vec_env(ENV_ID, n_envs=n, seed=0)
    rates: dict[str, list[float]] = {"dicechess.sb3": [], "DummyVecEnv": []}
    rate(ours, 20), rate(dummy, 20)  # warm-up
    for _ in range(args.rounds):
        rates["dicechess.sb3"].append(rate(ours, args.steps))
        rates["DummyVecEnv"].append(rate(dummy, args.steps))
    med = {k: statistics.median(v) for k, v in rates.items()}
    print(
        f"\n{ENV_ID}, {n} envs, opponent random, random legal actions from the masks "
        f"(load average {os.getloadavg()[0]:.2f}; medians of {args.rounds} rounds "
        f"of {args.steps} steps)\n"
    )
    print("| vector env | env steps/s | ratio |")
    print("| --- | --- | --- |")
    for k in rates:
        print(f"| {k} | {med[k]:,.0f} | {med[k] / med['DummyVecEnv']:.2f}x |")
    ours.close()
    dummy.close()


if __name__ == "__main__":
    main()
