"""Texel tuning of chess's structure weights (``search:sweights=fitted``)
or its base weights (``search:weights=fitted``) on the engine's own games.

    .venv/bin/python scripts/texel_chess.py --what structure \
        --rust src/agents/search/eval/structure_weights.rs \
        --out data/texel/structure.json          # the committed fits (minutes)
    .venv/bin/python scripts/texel_chess.py --what base \
        --rust src/agents/search/eval/tuned.rs --out data/texel/chess_base.json

1. Data: ``examples/texel_pst.rs structure|base`` (run through cargo)
   plays ``--games`` chess games of ``search:nodes=N,sweights=hand`` (the
   chess defaults with the hand-set structure weights) against itself,
   each opening with ``--opening-plies`` random decisions, and writes
   every quiet decision node after the opening (side to move not in
   check, previous move neither a capture nor a check) with White's
   result, the search's static value for White and the coefficient of each
   weight in it: the structure weights (``structure``) or the 50 base
   weights of material, centrality, advance, mobility, bishop pair and
   tempo (``base``). The static value is linear in either set
   (``features . weights``; tests/it/texel.rs).
2. Scale: the ``K`` that minimises the logistic loss of
   ``E = 1 / (1 + exp(-v / K))`` for the static value ``v`` on the training
   part (the first ``1 - --holdout`` of the samples, in game order).
3. Weights: the static value with weights ``w`` is
   ``v + features . (w - hand)``. L-BFGS on the training part's mean
   logistic loss plus ``--reg`` times the mean over the weights of the
   squared change of each weight's effect, in pawns: ``(w - hand)`` times
   the root mean square of the weight's coefficient. The held-out part's
   loss, before and after, says whether the fit generalises.

Same arguments, same result: the games are seeded and the fit is
deterministic. ``--rust`` rewrites ``FITTED`` in
src/agents/search/eval/structure_weights.rs or ``FITTED_CHESS`` in
src/agents/search/eval/tuned.rs (each weight rounded to a quarter of its
unit, so that the evaluation's sums stay exact); ``--out`` gets a JSON
summary.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt
from scipy.optimize import minimize
from scipy.sparse import csr_matrix

sys.path.insert(0, str(Path(__file__).resolve().parent))
from texel_pst import add_arguments, fit_k, logloss, replace_between, report  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent

Arr = npt.NDArray[np.float64]


def run_games(games: int, nodes: int, opening: int, seed: int, path: Path, mode: str) -> None:
    cmd = ["cargo", "run", "--release", "--quiet", "--example", "texel_pst", "--"]
    cmd += [str(games), str(nodes), str(opening), str(seed), str(path), mode]
    subprocess.run(cmd, cwd=ROOT, check=True)


def load(path: Path) -> tuple[list[str], Arr, Arr, Arr, csr_matrix]:
    """The weights' names and hand-set values, then White's results, the
    static values and the weights' coefficients of each sample."""
    ys, vs, rows, cols, vals = [], [], [], [], []
    with path.open() as f:
        header = f.readline().split()
        if not header or header[0] != "#":
            raise ValueError(f"{path}: no '# name=weight ...' header line")
        names = [h.split("=")[0] for h in header[1:]]
        hand = np.array([float(h.split("=")[1]) for h in header[1:]])
        for n, line in enumerate(f):
            parts = line.split()
            ys.append(float(parts[0]))
            vs.append(float(parts[2]))
            for tok in parts[3:]:
                j, x = tok.split(":")
                rows.append(n)
                cols.append(int(j))
                vals.append(float(x))
    x = csr_matrix((vals, (rows, cols)), shape=(len(ys), len(names)))
    return names, hand, np.array(ys), np.array(vs), x


def effect_scale(x: csr_matrix) -> Arr:
    """Each weight's typical effect on the evaluation per unit of the
    weight: the root mean square of its coefficient (1 for a weight no
    sample uses, which the fit then leaves alone)."""
    rms = np.sqrt(np.asarray(x.multiply(x).mean(axis=0)).ravel())
    return np.where(rms > 0.0, rms, 1.0)


def fit_weights(y: Arr, v: Arr, x: csr_matrix, k: float, reg: float) -> Arr:
    """The change of each weight from its hand-set value that minimises the
    mean logistic loss of ``(v + x d) / k`` plus ``reg`` times the mean
    squared change of the weights' effects in pawns."""
    xt = x.T.tocsr()
    s = effect_scale(x)
    n = x.shape[1]

    def f(d: Arr) -> tuple[float, Arr]:
        z = (v + x @ d) / k
        g = 1.0 / (1.0 + np.exp(-z)) - y
        loss = logloss(z, y) + reg * float(np.mean((d * s / 100.0) ** 2))
        grad = (xt @ g) / (k * len(y)) + reg * 2.0 * d * s**2 / (100.0**2 * n)
        return loss, grad

    # The loss moves by about 1e-5 per centipawn: tolerances far below
    # scipy's defaults, which would stop the fit short of the optimum.
    opts = {"maxiter": 5000, "gtol": 1e-12, "ftol": 1e-15}
    r = minimize(f, np.zeros(n), jac=True, method="L-BFGS-B", options=opts)
    return np.asarray(r.x)


def quarters(w: Arr) -> Arr:
    """Rounded to a quarter of each weight's unit."""
    return np.asarray(np.rint(w * 4.0) / 4.0)


#: Per ``--what``: the example's mode, the Rust constant and its type.
TARGETS = {
    "structure": ("structure", "FITTED", "StructureWeights"),
    "base": ("base", "FITTED_CHESS", "Weights"),
}

#: The base weights' per-role arrays, in index order.
ROLES = ["pawn", "knight", "bishop", "rook", "queen", "king"]


def rust_const(
    names: list[str], w: Arr, const: str = "FITTED", ty: str = "StructureWeights"
) -> str:
    """``const`` as a Rust struct literal of ``ty``, fields in the names' order.

    A name is ``field`` (a scalar), ``field.mg`` / ``field.eg`` (a pair),
    ``field.ROLE`` (one of six by role) or ``field.N`` (one of eight)."""
    fields: dict[str, Any] = {}
    for name, value in zip(names, w, strict=True):
        field, _, part = name.partition(".")
        if not part:
            fields[field] = float(value)
        elif part in ("mg", "eg"):
            fields.setdefault(field, [0.0, 0.0])[part == "eg"] = float(value)
        elif part in ROLES:
            fields.setdefault(field, [0.0] * 6)[ROLES.index(part)] = float(value)
        else:
            fields.setdefault(field, [0.0] * 8)[int(part)] = float(value)

    def lit(v: Any) -> str:
        if isinstance(v, list):
            return "[" + ", ".join(lit(x) for x in v) + "]"
        # Quarters print exactly, and repr's "5.0" is a Rust f64 literal.
        return repr(float(v))

    lines = [f"pub const {const}: {ty} = {ty} {{"]
    lines += [f"    {k}: {lit(v)}," for k, v in fields.items()]
    lines.append("};")
    return "\n".join(lines) + "\n"


def write_rust(path: Path, text: str, const: str = "FITTED") -> None:
    begin = f"// {const} (written by scripts/texel_chess.py)\n"
    replace_between(path, begin, f"// END {const}", text)


def main(argv: list[str] | None = None) -> dict[str, Any]:
    ap = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    add_arguments(ap, 8000, "changes", "rewrite the fitted constant in this file")
    ap.add_argument("--what", choices=sorted(TARGETS), default="structure")
    args = ap.parse_args(argv)
    mode, const, ty = TARGETS[args.what]

    path = args.samples
    if path is None:
        path = ROOT / "target" / f"texel_{mode}_samples.txt"
        run_games(args.games, args.nodes, args.opening_plies, args.seed, path, mode)
    names, hand, y, v, x = load(path)
    cut = int(len(y) * (1.0 - args.holdout))
    train, test = slice(0, cut), slice(cut, len(y))
    k = fit_k(v[train], y[train])
    d = fit_weights(y[train], v[train], x[train], k, args.reg)
    fitted = quarters(hand + d)

    def loss(part: slice, w: Arr) -> float:
        return logloss((v[part] + x[part] @ (w - hand)) / k, y[part])

    summary = {
        "samples": len(y),
        "train": cut,
        "k": k,
        "train_loss": [loss(train, hand), loss(train, fitted)],
        "heldout_loss": [loss(test, hand), loss(test, fitted)],
        "weights": {
            n: {"hand": float(h), "fitted": float(f)}
            for n, h, f in zip(names, hand, fitted, strict=True)
        },
    }
    report(summary, args)
    if args.rust:
        write_rust(args.rust, rust_const(names, fitted, const, ty), const)
    return summary


if __name__ == "__main__":
    main(sys.argv[1:])
