"""Texel tuning of chess's per-square corrections (``search:pst=1``).

    .venv/bin/python scripts/texel_pst.py --rust src/agents/search/eval/pst.rs \
        --out data/texel/pst.json                # the committed fit (minutes)

1. Data: ``examples/texel_pst.rs`` (run through cargo) plays ``--games``
   chess games of ``search:nodes=N,pst=0`` against itself, each opening with
   ``--opening-plies`` random decisions, and writes every quiet decision
   node after the opening (side to move not in check, previous move neither
   a capture nor a check) with White's result, the taper's middlegame share,
   the search's static value for White and the squares of the pieces.
2. Scale: the ``K`` that minimises the logistic loss of
   ``E = 1 / (1 + exp(-v / K))`` for the static value ``v`` on the training
   part (the first ``1 - --holdout`` of the games' samples, in game order).
3. Corrections: per role and square seen from the piece's own side, a
   middlegame and an endgame value (tapered like the rest), added to ``v``;
   L-BFGS on the training part's mean logistic loss plus ``--reg`` times the
   mean squared correction in pawns. The held-out part's loss, before and
   after, says whether the fit generalises.

Same arguments, same result: the games are seeded and the fit is
deterministic. ``--rust`` rewrites the table in src/agents/search/eval/pst.rs
(rounded to centipawns); ``--out`` gets a JSON summary.
"""

from __future__ import annotations

import argparse
import json
import math
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt
from scipy.optimize import minimize, minimize_scalar
from scipy.sparse import csr_matrix

ROOT = Path(__file__).resolve().parent.parent
ROLES = ["pawn", "knight", "bishop", "rook", "queen", "king"]
#: Correction columns: 384 middlegame (role * 64 + square), then 384 endgame.
COLUMNS = 2 * 6 * 64

Arr = npt.NDArray[np.float64]


def run_games(games: int, nodes: int, opening: int, seed: int, path: Path) -> None:
    cmd = ["cargo", "run", "--release", "--quiet", "--example", "texel_pst", "--"]
    cmd += [str(games), str(nodes), str(opening), str(seed), str(path)]
    subprocess.run(cmd, cwd=ROOT, check=True)


def load(path: Path) -> tuple[Arr, Arr, csr_matrix]:
    """White's results, static values and the correction features."""
    ys, vs, rows, cols, vals = [], [], [], [], []
    with path.open() as f:
        for n, line in enumerate(f):
            parts = line.split()
            ys.append(float(parts[0]))
            ph = float(parts[1])
            vs.append(float(parts[2]))
            for tok in parts[3:]:
                i = int(tok)
                sign, own = (1.0, i) if i < 384 else (-1.0, i - 384)
                rows += [n, n]
                cols += [own, 384 + own]
                vals += [sign * ph, sign * (1.0 - ph)]
    x = csr_matrix((vals, (rows, cols)), shape=(len(ys), COLUMNS))
    x.sum_duplicates()
    return np.array(ys), np.array(vs), x


def logloss(z: Arr, y: Arr) -> float:
    # -(y log s(z) + (1 - y) log s(-z)) = log(1 + e^-z) + (1 - y) z
    return float(np.mean(np.logaddexp(0.0, -z) + (1.0 - y) * z))


def fit_k(v: Arr, y: Arr) -> float:
    r = minimize_scalar(
        lambda lk: logloss(v / math.exp(lk), y),
        bounds=(math.log(20), math.log(20000)),
        method="bounded",
    )
    return float(math.exp(r.x))


def fit_corrections(y: Arr, v: Arr, x: csr_matrix, k: float, reg: float) -> Arr:
    """Minimises the mean logistic loss of ``(v + x d) / k`` plus ``reg``
    times the mean squared correction in pawns."""
    xt = x.T.tocsr()

    def f(d: Arr) -> tuple[float, Arr]:
        z = (v + x @ d) / k
        g = 1.0 / (1.0 + np.exp(-z)) - y
        loss = logloss(z, y) + reg * float(np.mean((d / 100.0) ** 2))
        grad = (xt @ g) / (k * len(y)) + reg * 2.0 * d / (100.0**2 * len(d))
        return loss, grad

    # The loss moves by about 1e-5 per centipawn: tolerances far below
    # scipy's defaults, which would stop the fit short of the optimum.
    opts = {"maxiter": 5000, "gtol": 1e-12, "ftol": 1e-15}
    r = minimize(f, np.zeros(COLUMNS), jac=True, method="L-BFGS-B", options=opts)
    return np.asarray(r.x)


def rust_table(d: Arr) -> str:
    mg, eg = np.rint(d[:384]).astype(int), np.rint(d[384:]).astype(int)
    lines = [
        "/// By role and square (a1 = 0 from the piece's own side): (mg, eg).",
        "#[rustfmt::skip]",
        "pub const CORRECTIONS: [[(i16, i16); 64]; 6] = [",
    ]
    for r, name in enumerate(ROLES):
        lines.append(f"    // {name}, ranks 1 to 8")
        for rank in range(8):
            cells = [
                f"({mg[r * 64 + rank * 8 + f]}, {eg[r * 64 + rank * 8 + f]})" for f in range(8)
            ]
            lines.append("    [" * (rank == 0) + "    " * (rank > 0) + ", ".join(cells) + ",")
        lines[-1] = lines[-1] + "],"
    lines.append("];")
    return "\n".join(lines) + "\n"


def replace_between(path: Path, begin: str, end: str, text: str) -> None:
    """Rewrite what lies between the line ``begin`` and the marker ``end``."""
    old = path.read_text()
    i, j = old.index(begin) + len(begin), old.index(end)
    path.write_text(old[:i] + text + old[j:])


def write_rust(path: Path, table: str) -> None:
    begin = "// CORRECTIONS (written by scripts/texel_pst.py)\n"
    replace_between(path, begin, "// END CORRECTIONS", table)


def add_arguments(ap: argparse.ArgumentParser, games: int, changed: str, rust: str) -> None:
    """The arguments every Texel script takes (their defaults differ)."""
    ap.add_argument("--games", type=int, default=games, help="self-play games")
    ap.add_argument("--nodes", type=int, default=1500, help="search node budget per move")
    ap.add_argument("--opening-plies", type=int, default=8)
    ap.add_argument("--seed", type=int, default=20)
    ap.add_argument("--reg", type=float, default=1.0, help=f"weight of the {changed}' size")
    ap.add_argument("--holdout", type=float, default=0.2, help="share of samples held out")
    ap.add_argument("--samples", type=Path, help="use this sample file instead of playing games")
    ap.add_argument("--out", type=Path, help="write a JSON summary here")
    ap.add_argument("--rust", type=Path, help=rust)


def report(summary: dict[str, Any], args: argparse.Namespace) -> None:
    """Print the summary and write it to ``--out``, recording the game arguments."""
    # The sample file is what the game arguments produce (seeded games,
    # whatever the thread count), so only those are recorded.
    skip = ("samples", "out", "rust")
    summary["args"] = {a: str(b) for a, b in vars(args).items() if a not in skip}
    print(json.dumps(summary, indent=1))
    if args.out:
        args.out.write_text(json.dumps(summary, indent=1) + "\n")


def main(argv: list[str] | None = None) -> dict[str, Any]:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    add_arguments(ap, 12000, "corrections", "rewrite the corrections table of this file")
    args = ap.parse_args(argv)

    path = args.samples
    if path is None:
        path = ROOT / "target" / "texel_pst_samples.txt"
        run_games(args.games, args.nodes, args.opening_plies, args.seed, path)
    y, v, x = load(path)
    cut = int(len(y) * (1.0 - args.holdout))
    train, test = slice(0, cut), slice(cut, len(y))
    k = fit_k(v[train], y[train])
    d = fit_corrections(y[train], v[train], x[train], k, args.reg)
    dr = np.rint(d)

    def loss(part: slice, corr: Arr) -> float:
        return logloss((v[part] + x[part] @ corr) / k, y[part])

    summary = {
        "samples": len(y),
        "train": cut,
        "k": k,
        "train_loss": [loss(train, np.zeros(COLUMNS)), loss(train, dr)],
        "heldout_loss": [loss(test, np.zeros(COLUMNS)), loss(test, dr)],
        "largest_correction": float(np.max(np.abs(dr))),
    }
    report(summary, args)
    if args.rust:
        write_rust(args.rust, rust_table(d))
    return summary


if __name__ == "__main__":
    main(sys.argv[1:])
