"""The study's third edition: luck measured against games whose luck is known.

For every variant and every *luck family* (a stronger and a weaker agent, and the
agent that values each chance event), the two agents play each other in both colour
orders on the same seeds, and every chance node is valued (AIVAT-style: the value after
the outcome minus the value expected before it, :func:`dicechess.roll_luck`). The
measure is the **luck per game**: the mean absolute value of a game's luck sum, i.e. how
far, on average, the chance events moved the stronger side's expected result over a
game (in result units: a win is +1, a loss -1). A game without chance nodes has none.

The same games are played on the variant's dice-free twin with the luck dial
(``chess:luck=q`` for the 8x8 games, ``gardner:luck=q`` for the 5x5 ones; docs/rules.md
§12) on a grid of q. The twin's measure as a function of q is the calibration curve;
the variant's **luck-equivalent** is the q at which it reaches the variant's measure,
with an interval carried through the curve (:func:`dicechess.analysis.luck_equivalent`).
Each family is calibrated on its own games, so a family's evaluator cannot make the
answer by itself; where the families disagree beyond their intervals the report says
the number depends on the agents.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from .. import _core
from ..luck import roll_luck
from ..registry import variant_info
from ..runner.results import player0_score


@dataclass(frozen=True)
class LuckFamily:
    """Two agents of one kind and the agent that values each chance event."""

    strong: str
    weak: str
    valuer: str
    #: What the family shares with the search's evaluation (said in the report).
    shares: str


#: The zero family's stronger and weaker search budgets (simulations a move).
ZERO_SIMS = (32, 4)

#: The luck families. ``material`` has no code in common with the search's evaluation
#: and quiescence: expectimax over the material-and-mobility evaluation, valued by it.
LUCK_FAMILIES: dict[str, LuckFamily] = {
    "search": LuckFamily(
        "search:nodes=1024", "search:nodes=128", "search:nodes=64", "the search itself"
    ),
    "mcts": LuckFamily(
        "mcts:sims=256",
        "mcts:sims=32",
        "greedy",
        "its leaves (the search's quiescence and evaluation); valued on material",
    ),
    "material": LuckFamily(
        "expectimax:depth=2", "greedy", "greedy", "nothing (material and mobility only)"
    ),
    # Opt-in (needs trained networks, StudyConfig.zero_models): each game is played by its
    # own network, the variant's and the twin's alike trained by dicechess.zero.
    "zero": LuckFamily(
        f"zero:sims={ZERO_SIMS[0]}",
        f"zero:sims={ZERO_SIMS[1]}",
        "the network's value head",
        "nothing (a network trained by self-play on the game itself)",
    ),
}


def base_name(spec: str) -> str:
    """The variant's name in a spec (``"chess:luck=0.1"`` -> ``"chess"``)."""
    return spec.split(":", 1)[0].strip()


def twin_of(spec: str) -> str:
    """The dice-free twin a variant is calibrated on, from its registry row:
    Gardner for the 5x5 games, chess for the 8x8 ones."""
    name = base_name(spec)
    info = variant_info().get(name)
    if info is None:
        raise ValueError(
            f"unknown variant {name!r} in {spec!r}; known variants: {', '.join(variant_info())}"
        )
    return info.twin


def luck_of(spec: str) -> float:
    """The luck dial of a spec (0 when it is not set)."""
    return float(_core.State(spec).options.get("luck", 0.0))


def calibration_spec(twin: str, q: float) -> str:
    """The calibration game of ``twin`` at luck ``q`` (the twin itself at 0)."""
    return twin if q == 0 else f"{twin}:luck={q:g}"


def calibration_specs(variants: list[str], grid: list[float]) -> list[str]:
    """Every calibration game the variants need, twin by twin, q ascending."""
    twins = sorted({twin_of(v) for v in variants})
    return [calibration_spec(t, q) for t in twins for q in [0.0, *grid]]


def safe_name(spec: str) -> str:
    """A file name for a spec (``chess:luck=0.1`` -> ``chess@luck=0.1``)."""
    return re.sub(r"[^A-Za-z0-9_.=@-]", "_", spec.replace(":", "@").replace(",", "@"))


def play_luck_games(
    spec: str,
    family: str,
    pairs: int,
    seed: int,
    threads: int | None,
    backend: str = "local",
    ray_address: str | None = None,
    zero_models: str | None = None,
) -> dict[str, Any] | None:
    """``pairs`` pairs of games between the family's stronger and weaker agent, one
    game each way round on the same seed, every chance node valued by the family's
    valuer. Per pair: the stronger side's result in [-1, 1] and its luck, each game.
    The ``zero`` family plays ``zero_models/<game>/best.pt`` (None when it is absent)."""
    fam = LUCK_FAMILIES[family]
    if family == "zero":
        return _zero_luck_games(spec, pairs, seed, zero_models)
    runs = []
    for agents in ((fam.strong, fam.weak), (fam.weak, fam.strong)):
        r = roll_luck(
            spec,
            pairs,
            agents=agents,
            evaluator=fam.valuer,
            seed=seed,
            threads=threads,
            progress=False,
            backend=backend,
            ray_address=ray_address,
        )
        if r.interrupted:
            raise KeyboardInterrupt
        runs.append(r)
    a, b = runs
    # Player 0 is the stronger side in the first run, the weaker in the second.
    res_a = 2 * player0_score(a.games.winner) - 1
    res_b = -(2 * player0_score(b.games.winner) - 1)
    rows = np.stack([res_a, a.luck_sum, res_b, -b.luck_sum], axis=1)
    plies = np.stack([a.games.plies, b.games.plies], axis=1)
    return {
        "family": family,
        "agents": [fam.strong, fam.weak],
        "valuer": fam.valuer,
        "rows": rows.tolist(),
        "plies": plies.astype(int).tolist(),
        "rolls": np.stack([a.n_rolls, b.n_rolls], axis=1).astype(int).tolist(),
    }


def zero_model(spec: str, zero_models: str | None) -> Path | None:
    """The network the zero family plays ``spec`` with, if there is one."""
    if not zero_models:
        return None
    path = Path(zero_models) / base_name(spec) / "best.pt"
    return path if path.is_file() else None


def _zero_luck_games(
    spec: str, pairs: int, seed: int, zero_models: str | None
) -> dict[str, Any] | None:
    model = zero_model(spec, zero_models)
    if model is None:
        return None
    from .. import zero

    net, _info = zero.load_model(model)
    r = zero.luck_pairs(
        zero.Evaluator(net),
        spec,
        pairs,
        strong_sims=ZERO_SIMS[0],
        weak_sims=ZERO_SIMS[1],
        seed=seed,
    )
    if r.interrupted:
        raise KeyboardInterrupt
    fam = LUCK_FAMILIES["zero"]
    return {
        "family": "zero",
        "agents": [fam.strong, fam.weak],
        "valuer": fam.valuer,
        "model": str(model),
        "rows": r.rows.tolist(),
        "plies": r.plies.tolist(),
        "rolls": r.rolls.tolist(),
    }


def luck_per_game(rows: Any) -> float:
    """The measure: the mean absolute luck sum of a game (both games of every pair),
    0 for games without chance nodes. A first moment: the variance of the luck sum
    (heavy-tailed) gave wider intervals on the same games."""
    r = np.asarray(rows, dtype=float)
    return float(np.mean(np.abs(r[:, [1, 3]])))


def stronger_score(rows: Any) -> float:
    """The stronger agent's mean score in [0, 1]."""
    r = np.asarray(rows, dtype=float)
    return float((np.mean(r[:, [0, 2]]) + 1) / 2)


def luck_equivalents(
    raws: dict[str, dict[str, Any]],
    calibration: dict[str, dict[str, Any]],
    grid: list[float],
    families: list[str],
    n_boot: int,
    seed: int,
) -> dict[str, Any]:
    """Per variant and family: the luck-equivalent q (interval carried through the
    family's own calibration curve on the variant's twin) and the player's-terms score;
    the families' agreement; the calibration curves. ``raws``: the variants' raw games
    (``luck_games[family]``), ``calibration``: the calibration games' by spec."""
    from ..analysis.calibration import luck_equivalent, score_at_luck
    from .config import part_seed

    qs = [0.0, *grid]
    curves: dict[str, dict[str, Any]] = {}
    out: dict[str, Any] = {}
    for v, raw in raws.items():
        games = raw.get("luck_games") or {}
        twin = twin_of(v)
        row: dict[str, Any] = {"twin": twin, "true_luck": luck_of(v), "families": {}}
        for f in families:
            if f not in games:
                continue
            specs = [calibration_spec(twin, q) for q in qs]
            if any(f not in (calibration.get(s) or {}).get("luck_games", {}) for s in specs):
                continue
            grid_rows = [np.asarray(calibration[s]["luck_games"][f]["rows"]) for s in specs]
            target = np.asarray(games[f]["rows"])
            # Seeded per variant and family: a variant's interval does not depend on
            # which other variants the study measures.
            rng = np.random.default_rng(part_seed(seed, v, f"calibration/{f}"))
            eq = luck_equivalent(
                qs,
                grid_rows,
                target,
                statistic=luck_per_game,
                n_boot=n_boot,
                rng=rng,
                keep_replicates=True,
            )
            terms = score_at_luck(
                qs,
                grid_rows,
                eq["q"],
                q_replicates=eq.pop("replicates"),
                statistic=stronger_score,
                rng=rng,
            )
            if f not in curves.setdefault(twin, {}):
                # The curve and its band, seeded by the twin alone (the same whichever
                # variants are measured against it).
                curves[twin][f] = luck_equivalent(
                    qs,
                    grid_rows,
                    grid_rows[0],
                    statistic=luck_per_game,
                    n_boot=n_boot,
                    rng=np.random.default_rng(part_seed(seed, twin, f"curve/{f}")),
                )["curve"]
            row["families"][f] = {
                **{k: eq[k] for k in ("q", "lo", "hi", "censored", "measure")},
                "score_in_variant": stronger_score(target),
                "player_terms": terms,
                "agents": games[f]["agents"],
                "valuer": games[f]["valuer"],
                "games": 2 * len(target),
            }
        row["agreement"] = agreement(row["families"])
        out[v] = row
    return {
        "grid": qs,
        "families": {f: vars(LUCK_FAMILIES[f]) for f in families},
        "curves": curves,
        "variants": out,
        "ranking_agreement": ranking_agreement(out, families),
    }


def agreement(fams: dict[str, dict[str, Any]]) -> dict[str, Any]:
    """Whether every pair of families' intervals overlap (the number is then the
    families' common answer, their intersection); otherwise the pairs that do not."""
    names = sorted(fams)
    apart = [
        [a, b]
        for i, a in enumerate(names)
        for b in names[i + 1 :]
        if fams[a]["hi"] < fams[b]["lo"] or fams[b]["hi"] < fams[a]["lo"]
    ]
    common = None
    if names and not apart:
        lo = max(fams[f]["lo"] for f in names)
        hi = min(fams[f]["hi"] for f in names)
        common = [lo, hi] if lo <= hi else None
    return {
        "families": names,
        "agree": not apart and len(names) > 1,
        "apart": apart,
        "common_interval": common,
    }


def ranking_agreement(rows: dict[str, Any], families: list[str]) -> dict[str, Any]:
    """Pairs of variants ordered oppositely by two families where both families'
    intervals separate them (the ranking is then not the same in every family)."""
    variants = sorted(rows)
    contradictions = []
    for i, u in enumerate(variants):
        for w in variants[i + 1 :]:
            order = {}
            for f in families:
                a = rows[u]["families"].get(f)
                b = rows[w]["families"].get(f)
                if a is None or b is None:
                    continue
                if a["lo"] > b["hi"]:
                    order[f] = 1
                elif b["lo"] > a["hi"]:
                    order[f] = -1
            if len(set(order.values())) > 1:
                contradictions.append({"variants": [u, w], "order": order})
    return {"contradictions": contradictions, "same_order": not contradictions}


def fmt_q(e: dict[str, Any] | None) -> str:
    """``0.23 [0.18, 0.29]`` (censored ends marked)."""
    if not e or not math.isfinite(e.get("q", math.nan)):
        return "n/a"
    mark = {"below": " (at or below the grid)", "above": " (beyond the grid)"}.get(
        e.get("censored") or "", ""
    )
    return f"{e['q']:.2f} [{e['lo']:.2f}, {e['hi']:.2f}]{mark}"
