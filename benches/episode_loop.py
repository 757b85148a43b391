"""Step rates of the single gym env and the Rust VecEnv (one episode loop).

Cases (random legal actions picked from the mask; the env resets itself or is
reset on done):

* ``gym <Variant>``: ``gymnasium.make("dicechess/<Variant>-v0")`` against
  ``"random"``, one ``step`` (or ``reset``) per action: steps/s.
* ``vecenv <variant> xN``: ``dc.VecEnv(variant, N, opponent="random")``:
  env-steps/s (N per call).

``--baseline DIR`` times a second build side by side: DIR holds another
``dicechess`` package (e.g. a copy of ``python/dicechess`` with its compiled
``_core`` from an older commit); rounds alternate between the two in fresh
processes and the table shows medians and the ratio this build / baseline.

Run: ``make bench`` (this build only) or
``.venv/bin/python benches/episode_loop.py --baseline /tmp/before --rounds 5``.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time

GYM_CASES = [("Chess", 4000), ("Fluky", 4000), ("Vegas", 4000)]
VEC_CASES = [("chess", 1, 20000), ("vegas", 1, 20000), ("chess", 64, 1500), ("fluky", 512, 200)]


def gym_rate(name: str, steps: int) -> float:
    import gymnasium
    import numpy as np

    import dicechess.gym  # noqa: F401  (registers the ids)

    env = gymnasium.make(f"dicechess/{name}-v0", opponent="random")
    rng = np.random.default_rng(0)
    obs, _ = env.reset(seed=0)
    start = time.perf_counter()
    for _ in range(steps):
        legal = np.flatnonzero(obs["action_mask"])
        obs, _r, term, trunc, _ = env.step(int(legal[int(rng.integers(len(legal)))]))
        if term or trunc:
            obs, _ = env.reset()
    return steps / (time.perf_counter() - start)


def vec_rate(variant: str, n: int, steps: int) -> float:
    import numpy as np

    import dicechess as dc
    from vecenv import random_legal  # benches/vecenv.py: vectorised picks

    env = dc.VecEnv(variant, n, seed=1, opponent="random")
    rng = np.random.default_rng(1)
    _, mask, *_ = env.reset()
    start = time.perf_counter()
    for _ in range(steps):
        acts = random_legal(mask, rng) if mask.any() else np.zeros(n, dtype=np.int64)
        _, mask, *_ = env.step(acts)
    return n * steps / (time.perf_counter() - start)


def worker() -> None:
    out = {}
    for name, steps in GYM_CASES:
        out[f"gym {name}"] = gym_rate(name, steps)
    for variant, n, steps in VEC_CASES:
        out[f"vecenv {variant} x{n}"] = vec_rate(variant, n, steps)
    print(json.dumps(out))


def run(pythonpath: str | None) -> dict[str, float]:
    env = dict(os.environ)
    if pythonpath:
        env["PYTHONPATH"] = pythonpath
    r = subprocess.run(
        [sys.executable, __file__, "--worker"], env=env, capture_output=True, text=True, check=True
    )
    return json.loads(r.stdout.strip().splitlines()[-1])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--baseline", help="directory holding a baseline dicechess package")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.worker:
        worker()
        return
    sides = {"this build": None}
    if args.baseline:
        sides = {"baseline": args.baseline, "this build": None}
    rates: dict[str, dict[str, list[float]]] = {s: {} for s in sides}
    for _ in range(args.rounds):
        for side, path in sides.items():
            for case, rate in run(path).items():
                rates[side].setdefault(case, []).append(rate)
    print(f"load average: {os.getloadavg()[0]:.2f}; medians of {args.rounds} alternating rounds")
    head = f"{'case':<22}" + "".join(f"{s:>16}" for s in sides)
    print(head + ("  ratio" if args.baseline else ""))
    for case in rates["this build"]:
        meds = [statistics.median(rates[s][case]) for s in sides]
        line = f"{case:<22}" + "".join(f"{m:>14,.0f}/s" for m in meds)
        if args.baseline:
            line += f"  {meds[1] / meds[0]:.2f}x"
        print(line)


if __name__ == "__main__":
    main()
