"""The reference runs of dicechess.zero: train (or resume), evaluate, and
store the result in data/zero/<variant>/.

For each variant: ``dicechess train`` into ``runs/zero/<variant>`` for
``--minutes`` (a run already there resumes and adds that much), then the
final network with ``--sims`` simulations a move against
``expectimax:depth=2`` over ``--pairs`` pairs (colours alternated, common
dice, two shared random opening decisions) and against the
``search:nodes=N`` ladder over ``--ladder-pairs`` pairs per rung. Writes
``data/zero/<variant>/best.pt`` (the network, float16 weights),
``log.json`` (the training log) and ``evaluation.json``.

    python scripts/zero_reference.py [--variants gardner fluky] [--minutes 62]
    python scripts/zero_reference.py --evaluate-only      # the runs as they are
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

#: The training settings of the reference runs (dicechess train's options).
TRAIN_ARGS = [
    "--threads", "1",
    "--games-per-iteration", "128",
    "--parallel", "128",
    "--sims", "32",
    "--gumbel-m", "16",
    "--eval-every", "5",
    "--eval-pairs", "20",
    "--eval-sims", "64",
]  # fmt: skip


def train(variant: str, runs: Path, minutes: float) -> None:
    cmd = [sys.executable, "-m", "dicechess", "train", variant, "--out", str(runs / variant)]
    cmd += ["--minutes", str(minutes), "--no-progress", *TRAIN_ARGS]
    print("$", " ".join(cmd), flush=True)
    subprocess.run(cmd, check=True)


def evaluate(
    variant: str, runs: Path, sims: int, pairs: int, ladder_pairs: int, nodes: list[int]
) -> dict:
    import torch

    from dicechess import zero

    torch.set_num_threads(1)
    net, info = zero.load_model(runs / variant / "best.pt")
    ev = zero.Evaluator(net)
    t = time.monotonic()
    main = zero.match(ev, variant, "expectimax:depth=2", pairs, sims=sims, seed=1)
    print(main, flush=True)
    place = zero.ladder(ev, variant, tuple(nodes), ladder_pairs, sims=sims, seed=2)
    print(place, flush=True)

    def row(m: zero.MatchResult) -> dict:
        lo, hi = m.interval
        return {
            "opponent": m.opponent,
            "games": m.games,
            "wins": m.wins,
            "draws": m.draws,
            "losses": m.losses,
            "score": m.score,
            "interval95": [lo, hi],
        }

    return {
        "variant": variant,
        "iteration": info["meta"]["iteration"],
        "sims": sims,
        "opening_plies": 2,
        "expectimax_depth2": row(main),
        "ladder": [row(r) for r in place.results],
        "ladder_place": place.place,
        "seconds": time.monotonic() - t,
    }


def store(variant: str, runs: Path, result: dict) -> None:
    import torch

    out = ROOT / "data" / "zero" / variant
    out.mkdir(parents=True, exist_ok=True)
    d = torch.load(runs / variant / "best.pt", map_location="cpu", weights_only=False)
    # float16 weights: half the size; loading casts them back to float32.
    d["state_dict"] = {
        k: v.half() if v.is_floating_point() else v for k, v in d["state_dict"].items()
    }
    torch.save(d, out / "best.pt")
    shutil.copy(runs / variant / "log.json", out / "log.json")
    (out / "evaluation.json").write_text(json.dumps(result, indent=1))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--variants", nargs="+", default=["gardner", "fluky"])
    ap.add_argument("--minutes", type=float, default=62)
    ap.add_argument("--runs", type=Path, default=ROOT / "runs" / "zero")
    ap.add_argument("--sims", type=int, default=200)
    ap.add_argument("--pairs", type=int, default=200)
    ap.add_argument("--ladder-pairs", type=int, default=50)
    ap.add_argument("--nodes", type=int, nargs="+", default=[16, 64, 256, 1024])
    ap.add_argument("--evaluate-only", action="store_true")
    args = ap.parse_args()
    for v in args.variants:
        if not args.evaluate_only:
            train(v, args.runs, args.minutes)
        result = evaluate(v, args.runs, args.sims, args.pairs, args.ladder_pairs, args.nodes)
        store(v, args.runs, result)


if __name__ == "__main__":
    main()
