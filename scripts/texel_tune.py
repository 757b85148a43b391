"""Texel tuning of the search evaluation on positions of the engine's own games.

    .venv/bin/python scripts/texel_tune.py            # the committed fit (minutes)
    .venv/bin/python scripts/texel_tune.py --quick    # a smoke run (seconds)

1. Data: per variant, ``--games`` self-play games of ``search:nodes=N`` (one
   game of each ``dicechess`` pair, hand-set weights, so each game opens with
   ``--opening-plies`` random decisions of its own seeded stream). Every
   decision node after the opening whose previous move was neither a capture
   nor a check is a sample ("quiet" by that cheap test), labelled with the
   game's final result for White (1, 0.5, 0).
2. Scale: per variant the ``K`` that minimises the logistic loss of
   ``E = 1 / (1 + exp(-v / K))`` for the current evaluation ``v`` (White's
   centipawns, ``dicechess._core.search_eval_features``). The search's chance
   nodes average ``tanh(v / uscale) = 2E - 1``, so ``uscale = 2K``.
3. Weights: per board family (8x8: the chess-board variants; 5x5: Fluky,
   Gardner, Metamorph share one geometry and piece set) minimise the mean
   logistic loss over the family's variants (each with its own K) plus
   ``--reg`` times the squared relative change from the current weights
   (L-BFGS). King values and pawn/king mobility stay at their current values.

Same arguments, same result: games are seeded, the fit is deterministic. The
result goes to ``--out`` (JSON); ``--rust`` rewrites the constants in
src/agents/search/eval/tuned.rs (selected by ``search:weights=tuned``).
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt
from scipy.optimize import minimize, minimize_scalar

import dicechess as dc
from dicechess import _core

FAMILIES = {
    "8x8": ["chess", "dice_chess", "vegas"],
    "5x5": ["fluky", "gardner", "metamorph"],
}
#: Weights the fit keeps at their current value.
FIXED = {"mg_value.king", "eg_value.king"} | {
    f"{p}_mobility.{r}" for p in ("mg", "eg") for r in ("pawn", "king")
}
ROOT = Path(__file__).resolve().parent.parent

Samples = tuple[npt.NDArray[np.float64], npt.NDArray[np.float64], npt.NDArray[np.float64]]


def game_samples(variant: str, actions: list[int], skip: int) -> Samples:
    """Features, offsets and White's result of the quiet decision nodes of
    one game (after the first ``skip`` decisions)."""
    s = _core.State(variant)
    xs, offs = [], []
    decisions = 0
    quiet = False
    for a in actions:
        if not s.is_chance_node():
            if decisions >= skip and quiet:
                x, off = _core.search_eval_features(s)
                xs.append(x)
                offs.append(off)
            san = s.action_to_string(a)
            quiet = not any(c in san for c in "x+#")
            decisions += 1
        s.apply_action(a)
    winner = s.winner()
    # Player 0 is White in every variant.
    y = 0.5 if winner is None else (1.0 if winner == 0 else 0.0)
    n = len(xs)
    x_arr = np.array(xs).reshape(n, len(_core.search_eval_weights()[0]))
    return x_arr, np.array(offs), np.full(n, y)


def generate(variant: str, games: int, nodes: int, opening: int, seed: int) -> Samples:
    # The hand-set weights play, whatever the default, so that reruns match.
    spec = f"search:nodes={nodes},weights=hand"
    pairs = _core._recorded_pairs(variant, (spec, spec), seed, 0, games, opening_plies=opening)
    parts = [game_samples(variant, pair[0], opening) for pair in pairs]
    return (
        np.concatenate([p[0] for p in parts]),
        np.concatenate([p[1] for p in parts]),
        np.concatenate([p[2] for p in parts]),
    )


def board_size(variant: str) -> tuple[int, int]:
    """``(files, ranks)`` of a variant's board (the observation's last axes)."""
    _, ranks, files = np.asarray(_core.State(variant).observation_tensor(0)).shape
    return files, ranks


def logloss(v: npt.NDArray[np.float64], y: npt.NDArray[np.float64], k: float) -> float:
    z = v / k
    # -(y log s(z) + (1-y) log s(-z)) = log(1 + e^-z) + (1 - y) z
    return float(np.mean(np.logaddexp(0.0, -z) + (1.0 - y) * z))


def fit_k(v: npt.NDArray[np.float64], y: npt.NDArray[np.float64]) -> float:
    r = minimize_scalar(
        lambda lk: logloss(v, y, math.exp(lk)),
        bounds=(math.log(20), math.log(20000)),
        method="bounded",
    )
    return float(math.exp(r.x))


def fit_weights(
    data: list[tuple[Samples, float]],
    w0: npt.NDArray[np.float64],
    free: npt.NDArray[np.bool_],
    reg: float,
) -> npt.NDArray[np.float64]:
    """L-BFGS on the mean (per variant) logistic loss plus ``reg`` times the
    squared change of the free weights relative to ``max(|w0|, 10)``."""
    scale = np.maximum(np.abs(w0), 10.0)

    def f(u: npt.NDArray[np.float64]) -> tuple[float, npt.NDArray[np.float64]]:
        w = w0.copy()
        w[free] = u
        loss, grad = 0.0, np.zeros_like(w0)
        for (x, off, y), k in data:
            z = (x @ w + off) / k
            loss += logloss(z * k, y, k) / len(data)
            # d/dz = (1 - y) - sigmoid(-z) = sigmoid(z) - y
            g = 1.0 / (1.0 + np.exp(-z)) - y
            grad += (x.T @ g) / (k * len(y) * len(data))
        d = (w - w0) / scale
        loss += reg * float(d @ d)
        grad += 2 * reg * d / scale
        return loss, grad[free]

    r = minimize(f, w0[free], jac=True, method="L-BFGS-B", options={"maxiter": 500})
    w = w0.copy()
    w[free] = r.x
    return w


def rust_consts(fits: dict[str, dict[str, float]], names: list[str]) -> str:
    out = []
    for fam, w in fits.items():
        lines = [f"pub const TUNED_{fam.upper()}: Weights = Weights {{"]
        groups = sorted(
            {n.split(".")[0] for n in names if "." in n}, key=[n.split(".")[0] for n in names].index
        )
        for g in groups:
            vals = ", ".join(f"{w[n]:.1f}" for n in names if n.startswith(g + "."))
            lines.append(f"    {g}: [{vals}],")
        lines.append(f"    bishop_pair: {w['bishop_pair']:.1f},")
        lines.append(f"    tempo: {w['tempo']:.1f},")
        lines.append("};")
        out.append("\n".join(lines))
    return "\n".join(out) + "\n"


def main(argv: list[str] | None = None) -> dict[str, Any]:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=int, default=400, help="self-play games per variant")
    ap.add_argument("--nodes", type=int, default=1000, help="search node budget per move")
    ap.add_argument("--opening-plies", type=int, default=8)
    ap.add_argument("--reg", type=float, default=1e-3, help="pull toward the current weights")
    ap.add_argument("--seed", type=int, default=20)
    ap.add_argument("--out", type=Path, default=ROOT / "data/texel/weights.json")
    ap.add_argument("--rust", type=Path, help="rewrite the TUNED_* constants of this file")
    ap.add_argument("--quick", action="store_true", help="a few tiny games (smoke test)")
    ap.add_argument(
        "--variants",
        nargs="+",
        metavar="VARIANT",
        help="fit these variants alone, as one family named by their board (an experiment:"
        " the constants are printed, --rust is refused)",
    )
    ap.add_argument(
        "--fix", nargs="+", default=[], metavar="WEIGHT", help="more weights to keep, by name"
    )
    ap.add_argument(
        "--holdout-games",
        type=int,
        default=0,
        help="also play this many games per variant on other seeds and report the losses there",
    )
    a = ap.parse_args(argv)
    families = FAMILIES
    if a.quick:
        a.games, a.nodes = 4, 50
        families = {"8x8": ["chess"], "5x5": ["fluky"]}
        if a.holdout_games:
            a.holdout_games = 4
    names, w0_list = _core.search_eval_weights()
    unknown = sorted(set(a.fix) - set(names))
    if unknown:
        ap.error(f"--fix: unknown weights {unknown}; the weights are {names}")
    if a.variants:
        if a.rust:
            ap.error("--rust rewrites the committed family fits; --variants is an experiment")
        sizes = {board_size(v) for v in a.variants}
        if len(sizes) != 1:
            ap.error(f"--variants must share one board size, got {sorted(sizes)}")
        ((files, ranks),) = sizes
        families = {f"{files}x{ranks}": list(a.variants)}
    w0 = np.array(w0_list)
    free = np.array([n not in FIXED and n not in a.fix for n in names])
    result: dict[str, Any] = {
        "args": {
            k: str(v) if isinstance(v, Path) else v
            for k, v in vars(a).items()
            if k not in ("out", "rust")
        },
        "dicechess": dc.__version__ if hasattr(dc, "__version__") else None,
        "variants": {},
        "families": {},
    }
    fits: dict[str, dict[str, float]] = {}
    for fam, variants in families.items():
        data = []
        for i, v in enumerate(variants):
            x, off, y = generate(v, a.games, a.nodes, a.opening_plies, a.seed + i)
            val = x @ w0 + off
            k = fit_k(val, y)
            data.append(((x, off, y), k))
            result["variants"][v] = {
                "positions": len(y),
                "white_score": float(y.mean()),
                "K": round(k, 1),
                "uscale": round(2 * k, 1),
                "loss_current": round(logloss(val, y, k), 5),
            }
            print(f"{v}: {len(y)} positions, K={k:.1f} (uscale {2 * k:.0f})", file=sys.stderr)
        w = fit_weights(data, w0, free, a.reg)
        for i, (v, ((x, off, y), k)) in enumerate(zip(variants, data)):
            r = result["variants"][v]
            r["loss_tuned"] = round(logloss(x @ w + off, y, k), 5)
            if a.holdout_games:
                # Seeds the fit's own games do not use; each weight set is
                # judged with the K that suits it on these games.
                seed = a.seed + len(variants) + i
                xh, oh, yh = generate(v, a.holdout_games, a.nodes, a.opening_plies, seed)
                cur, tuned = xh @ w0 + oh, xh @ w + oh
                r["holdout"] = {
                    "positions": len(yh),
                    "seed": seed,
                    "loss_current": round(logloss(cur, yh, fit_k(cur, yh)), 5),
                    "loss_tuned": round(logloss(tuned, yh, fit_k(tuned, yh)), 5),
                }
        fits[fam] = {n: round(float(wi), 1) for n, wi in zip(names, w)}
        result["families"][fam] = {"variants": variants, "weights": fits[fam]}
    consts = rust_consts(fits, names)
    print(consts)
    a.out.parent.mkdir(parents=True, exist_ok=True)
    a.out.write_text(json.dumps(result, indent=1) + "\n")
    if a.rust:
        text = a.rust.read_text()
        head = text.split("// TUNED CONSTANTS")[0]
        a.rust.write_text(head + "// TUNED CONSTANTS (printed by scripts/texel_tune.py)\n" + consts)
    return result


if __name__ == "__main__":
    main()
