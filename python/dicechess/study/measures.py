"""The study's measures, computed from the raw games of :mod:`.run`.

Per variant and per ladder (each agent family, and the headline family's even
and odd rungs alone): ratings on the compute ladder, Elo per doubling and its
flattening, skill classes, luck ``alpha`` and depth ``beta`` (Jerdee & Newman),
the p-equivalent against chess measured with the same ladder, White's score at
every matchup and the variance pairing removed. Per dice variant: luck-adjusted
results. Then the robustness checks: the same measures from every ladder side
by side, flagged where they disagree beyond their intervals, and the ranking of
variants by luck from each family. Every interval is a bootstrap over whole
pairs of games (or games, for the luck-adjusted results).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from ..analysis._checks import confidence_z
from ..analysis.ladder import Estimate, Matchup, _percentiles, fit_ladder, p_equivalent_ladder
from ..analysis.luck_depth import fit_luck_depth
from .config import HEADLINE_FAMILY, StudyConfig, part_seed

#: The measures compared between ladders (robustness), and whether each is
#: comparable between families (Elo per doubling is per unit of each family's
#: own compute). Skill classes are not compared: they end at each ladder's own
#: top rung, so they differ by design.
COMPARED = {
    "p_equivalent": True,
    "luck_alpha": True,
    "elo_per_doubling": False,
}


def _matchups(fam: dict[str, Any], keep: Sequence[int] | None = None) -> list[Matchup]:
    """The family's matchups as :class:`Matchup` (stronger rung first),
    restricted to the rungs ``keep`` and renumbered in their order."""
    index = {r: n for n, r in enumerate(keep)} if keep is not None else None
    out = []
    for m in fam["matchups"]:
        i, j = m["i"], m["j"]
        if index is not None:
            if i not in index or j not in index:
                continue
            i, j = index[i], index[j]
        out.append(Matchup(i, j, np.asarray(m["scores"], dtype=float)))
    return out


def ladders_of(raw: dict[str, Any]) -> dict[str, tuple[str, list[int]]]:
    """Every ladder measured: name -> (family, rung indexes kept). The headline
    family also gives ``<family>_even`` and ``<family>_odd`` (``random`` plus the
    rungs with even, respectively odd, log2 budget)."""
    out: dict[str, tuple[str, list[int]]] = {}
    for fam, data in raw["families"].items():
        out[fam] = (fam, list(range(len(data["rungs"]))))
        if fam == HEADLINE_FAMILY:
            x = data["log2_compute"]
            for name, parity in (("even", 0), ("odd", 1)):
                out[f"{fam}_{name}"] = (
                    fam,
                    [0] + [n for n in range(1, len(x)) if x[n] % 2 == parity],
                )
    return out


def _variance_reduction(fam: dict[str, Any]) -> float:
    """``1 - var(pair means) / var(unpaired)`` pooled over the family's
    matchups (sums of the variances), as :meth:`PairedResult.variance_reduction`."""
    paired = unpaired = 0.0
    for m in fam["matchups"]:
        s = np.asarray(m["scores"], dtype=float)
        if len(s) < 2:
            continue
        unpaired += (s[:, 0].var(ddof=1) + s[:, 1].var(ddof=1)) / 4
        paired += s.mean(axis=1).var(ddof=1)
    return float(1 - paired / unpaired) if unpaired > 0 else math.nan


def _pair_mean_estimate(w: np.ndarray) -> Estimate:
    """The mean of per-pair scores ``w`` with a 95% normal interval over the
    pairs (independent), clipped to [0, 1]."""
    mean = float(w.mean())
    half = confidence_z(0.95) * float(w.std(ddof=1)) / math.sqrt(len(w)) if len(w) > 1 else 1.0
    return Estimate(mean, max(0.0, mean - half), min(1.0, mean + half))


def _white(fam: dict[str, Any]) -> list[dict[str, Any]]:
    """White's mean score per matchup with a normal interval over pair means
    (colours are swapped within a pair, so the skill gap cancels)."""
    out = []
    for m in fam["matchups"]:
        w = np.asarray(m["white"], dtype=float).mean(axis=1)
        out.append(
            {
                "stronger": fam["rungs"][m["i"]],
                "weaker": fam["rungs"][m["j"]],
                "white_score": _pair_mean_estimate(w).to_dict(),
                "games": int(w.size * 2),
            }
        )
    return out


def _white_pooled(fam: dict[str, Any]) -> dict[str, float]:
    """White's mean score over every game of the family, with a normal interval
    over pair means (pairs are independent across matchups)."""
    w = np.concatenate([np.asarray(m["white"], dtype=float).mean(axis=1) for m in fam["matchups"]])
    return _pair_mean_estimate(w).to_dict()


def _nan_estimate() -> dict[str, float]:
    return {"value": math.nan, "low": math.nan, "high": math.nan}


def ladder_measures(
    raw: dict[str, Any],
    chess: dict[str, Any] | None,
    ladder: str,
    cfg: StudyConfig,
) -> dict[str, Any]:
    """Every measure of one ladder of one variant (``chess``: chess's raw games
    for the p-equivalent, None without chess or for chess itself)."""
    fam, keep = ladders_of(raw)[ladder]
    data = raw["families"][fam]
    names = [data["rungs"][n] for n in keep]
    x = [data["log2_compute"][n] for n in keep]
    matchups = _matchups(data, keep)
    seed = part_seed(cfg.seed, raw["variant"], f"bootstrap/{ladder}")
    fit = fit_ladder(names, x, matchups, n_boot=cfg.bootstrap, seed=seed)
    # The validated fit (tests/study/test_luck_depth.py): draws modelled (Davidson),
    # `random` left out so that its lopsided matchups cannot pin α.
    floor = [0] if names[0] == "random" else []
    out = fit.to_dict()
    # A ladder of one playing rung (a small --quick subset) has nothing left.
    if any(m.i not in floor and m.j not in floor for m in matchups):
        ld = fit_luck_depth(
            matchups,
            len(names),
            n_boot=cfg.bootstrap,
            seed=seed,
            draws="davidson",
            leave_out=floor,
        )
        out["luck_alpha"] = ld.alpha.to_dict()
        out["depth_beta"] = ld.beta.to_dict()
    else:
        out["luck_alpha"] = out["depth_beta"] = _nan_estimate()
    for rung, m in zip(out["ladder"], _games_per_rung(matchups, len(names))):
        rung["games"] = m
    if raw["variant"] == "chess":
        out["p_equivalent"] = Estimate(1.0, 1.0, 1.0).to_dict()
        out["p_equivalent_with_floor"] = Estimate(1.0, 1.0, 1.0).to_dict()
    elif chess is not None and fam in chess["families"]:
        if chess["families"][fam]["rungs"] != data["rungs"]:
            raise ValueError(f"chess and {raw['variant']} played different {fam} ladders")
        chess_matchups = _matchups(chess["families"][fam], keep)
        for key, leave_out in (("p_equivalent", floor), ("p_equivalent_with_floor", [])):
            # A ladder of one playing rung (a small --quick subset) has nothing left.
            if any(m.i not in leave_out and m.j not in leave_out for m in matchups):
                out[key] = p_equivalent_ladder(
                    matchups, chess_matchups, n_boot=cfg.bootstrap, seed=seed, leave_out=leave_out
                ).to_dict()
            else:
                out[key] = _nan_estimate()
    else:
        out["p_equivalent"] = _nan_estimate()
        out["p_equivalent_with_floor"] = _nan_estimate()
    if ladder == fam:
        out["paired_variance_reduction"] = _variance_reduction(data)
        out["white"] = _white(data)
        out["white_pooled"] = _white_pooled(data)
        out["matchups"] = [
            {
                "stronger": data["rungs"][m["i"]],
                "weaker": data["rungs"][m["j"]],
                "pairs": len(m["scores"]),
                "score": float(np.mean(m["scores"])),
                "mean_plies": float(np.mean(m["plies"])),
            }
            for m in data["matchups"]
        ]
    return out


def _games_per_rung(matchups: Sequence[Matchup], k: int) -> list[int]:
    g = [0] * k
    for m in matchups:
        g[m.i] += m.games
        g[m.j] += m.games
    return g


def luck_adjusted(luck: dict[str, Any], cfg: StudyConfig, seed: int) -> dict[str, Any]:
    """Results with the luck of each roll taken out (AIVAT-style): per game,
    ``x = 2 * score - 1`` for player 0 (the top rung) and its total luck ``L``
    in the same units; the adjusted result ``x - L`` has the same mean (luck has
    mean zero over each roll) and less variance. Reports the share of the
    result's variance that luck explains (R² of x on L), the variance
    reduction ``1 - var(x - L) / var(x)`` (negative when the evaluator's errors
    add more variance than the luck it removes), the top rung's mean score
    before and after, and the least-squares coefficient of x on L (1 for a
    perfect evaluator; below 1 when the evaluator overstates luck), each with a
    bootstrap interval over games."""
    score = np.asarray(luck["score"], dtype=float)
    lsum = np.asarray(luck["luck_sum"], dtype=float)
    x = 2 * score - 1
    n = len(x)

    def stats(idx: np.ndarray) -> tuple[float, ...]:
        xs, ls = x[idx], lsum[idx]
        vx, vl = xs.var(ddof=1), ls.var(ddof=1)
        r2 = math.nan if vx == 0 or vl == 0 else float(np.corrcoef(xs, ls)[0, 1] ** 2)
        vr = float(1 - (xs - ls).var(ddof=1) / vx) if vx > 0 else math.nan
        b = float(np.cov(xs, ls)[0, 1] / vl) if vl > 0 else math.nan
        return r2, vr, float((xs.mean() + 1) / 2), float(((xs - ls).mean() + 1) / 2), b

    point = stats(np.arange(n))
    rng = np.random.default_rng(seed)
    boot = np.array([stats(rng.integers(0, n, n)) for _ in range(cfg.bootstrap)])
    ests = [
        Estimate(point[c], *_percentiles(boot[:, c], 0.95)).to_dict() for c in range(boot.shape[1])
    ]
    rolls = int(np.sum(luck["n_rolls"]))
    return {
        "agents": luck["agents"],
        "evaluator": luck["evaluator"],
        "games": n,
        "rolls_per_game": rolls / n if n else math.nan,
        "mean_abs_luck_per_roll": float(np.sum(luck["abs_luck_sum"]) / rolls) if rolls else 0.0,
        "sd_game_luck": float(lsum.std(ddof=1)) if n > 1 else math.nan,
        "variance_explained": ests[0],
        "variance_reduction": ests[1],
        "score": ests[2],
        "adjusted_score": ests[3],
        "luck_coefficient": ests[4],
    }


def _overlap(a: dict[str, float], b: dict[str, float]) -> bool | None:
    vals = [a["low"], a["high"], b["low"], b["high"]]
    if any(v is None or not math.isfinite(v) for v in vals):
        return None
    return a["low"] <= b["high"] and b["low"] <= a["high"]


def robustness(ladders: dict[str, dict[str, Any]]) -> dict[str, Any]:
    """Each compared measure from every ladder side by side, and the
    disagreements: pairs of ladders whose intervals do not overlap (between
    families only for the measures comparable between families)."""
    out: dict[str, Any] = {"by_ladder": {}, "disagreements": []}
    names = list(ladders)
    for measure, across_families in COMPARED.items():
        out["by_ladder"][measure] = {n: _pick(ladders[n], measure) for n in names}
        for a_i, a in enumerate(names):
            for b in names[a_i + 1 :]:
                same_family = a.split("_")[0] == b.split("_")[0]
                if not (same_family or across_families):
                    continue
                if _overlap(_pick(ladders[a], measure), _pick(ladders[b], measure)) is False:
                    out["disagreements"].append({"measure": measure, "ladders": [a, b]})
    return out


def _pick(ladder: dict[str, Any], measure: str) -> dict[str, float]:
    if measure == "elo_per_doubling":
        e: dict[str, float] = ladder["skill_curve"]["elo_per_doubling"]
        return e
    v: dict[str, float] = ladder[measure]
    return v


def ranking(rows: dict[str, dict[str, Any]], families: Sequence[str]) -> dict[str, Any]:
    """Variants ordered from most to least luck (lowest p-equivalent first) by
    each family, Kendall's tau between the families' orders, and the pairs of
    variants the families order oppositely."""
    from scipy.stats import kendalltau

    order: dict[str, list[str]] = {}
    for fam in families:
        vals = {
            v: r["families"][fam]["p_equivalent"]["value"]
            for v, r in rows.items()
            if fam in r["families"]
        }
        vals = {v: p for v, p in vals.items() if math.isfinite(p)}
        order[fam] = sorted(vals, key=lambda v: vals[v])
    out: dict[str, Any] = {
        "by_family": order,
        "agreement": {},
        "robust_tiers": robust_tiers(rows, families),
    }
    fams = list(order)
    for a_i, a in enumerate(fams):
        for b in fams[a_i + 1 :]:
            common = [v for v in order[a] if v in order[b]]
            if len(common) < 2:
                continue
            ra = [order[a].index(v) for v in common]
            rb = [order[b].index(v) for v in common]
            tau = float(kendalltau(ra, rb).statistic) if len(common) > 2 else math.nan
            swapped = [
                [u, w]
                for n, u in enumerate(common)
                for w in common[n + 1 :]
                if (order[a].index(u) - order[a].index(w)) * (order[b].index(u) - order[b].index(w))
                < 0
            ]
            out["agreement"][f"{a}/{b}"] = {
                "kendall_tau": tau,
                "same_order": not swapped,
                "swapped": swapped,
                "opposite_beyond_intervals": [
                    [u, w]
                    for u, w in swapped
                    if (order_a := _resolved(rows, a, u, w)) != 0
                    and order_a == -_resolved(rows, b, u, w)
                ],
            }
    return out


def _resolved(rows: dict[str, dict[str, Any]], fam: str, u: str, w: str) -> int:
    """-1 if family ``fam`` puts u's p-equivalent interval entirely below w's (u luckier),
    1 if entirely above, 0 if the intervals overlap."""
    pu, pw = rows[u]["families"][fam]["p_equivalent"], rows[w]["families"][fam]["p_equivalent"]
    if pu["high"] < pw["low"]:
        return -1
    if pw["high"] < pu["low"]:
        return 1
    return 0


def robust_tiers(rows: dict[str, dict[str, Any]], families: Sequence[str]) -> list[list[str]]:
    """Variants in tiers from most to least luck, where a variant sits below
    another only if *every* family puts its p-equivalent interval above the
    other's (so the tiers do not depend on the family): tier of v = 1 + the
    highest tier of a variant robustly luckier than v."""
    names = [
        v
        for v, r in rows.items()
        if all(f in r["families"] and _finite(r["families"][f]["p_equivalent"]) for f in families)
    ]

    def luckier(u: str, w: str) -> bool:
        return all(
            rows[u]["families"][f]["p_equivalent"]["high"]
            < rows[w]["families"][f]["p_equivalent"]["low"]
            for f in families
        )

    tier: dict[str, int] = {}

    def tier_of(v: str) -> int:
        if v not in tier:
            tier[v] = 1 + max((tier_of(u) for u in names if luckier(u, v)), default=-1)
        return tier[v]

    for v in names:
        tier_of(v)
    n = max(tier.values(), default=-1) + 1
    return [sorted(v for v in names if tier[v] == t) for t in range(n)]


def _finite(e: dict[str, Any]) -> bool:
    return all(
        isinstance(e.get(k), float) and math.isfinite(e[k]) for k in ("value", "low", "high")
    )


def variant_measures(
    raw: dict[str, Any], chess: dict[str, Any] | None, cfg: StudyConfig
) -> dict[str, Any]:
    """Every measure of one variant (results.json's ``variants[<name>]``)."""
    v = raw["variant"]
    ladders = {name: ladder_measures(raw, chess, name, cfg) for name in ladders_of(raw)}
    head = ladders[HEADLINE_FAMILY]
    row: dict[str, Any] = {
        "variant": v,
        "options": raw["playouts"]["options"],
        "seconds": raw["seconds"],
        "playouts": {k: val for k, val in raw["playouts"].items() if k != "options"},
        "skill_curve": head["skill_curve"],
        "skill_classes": head["skill_classes"],
        "skill_classes_from_first_rung": head.get("skill_classes_family"),
        "classes_at_least": head["classes_at_least"],
        "luck_alpha": head["luck_alpha"],
        "depth_beta": head["depth_beta"],
        "p_equivalent": head["p_equivalent"],
        "p_equivalent_with_floor": head["p_equivalent_with_floor"],
        "paired_variance_reduction": head["paired_variance_reduction"],
        "ladder": head["ladder"],
        "white": head["white"],
        "white_pooled": head["white_pooled"],
        "families": {f: ladders[f] for f in raw["families"]},
        "rung_subsets": {n: m for n, m in ladders.items() if n not in raw["families"]},
        "luck_adjusted": None,
        "search_depth": raw.get("search_depth"),
    }
    if raw.get("luck"):
        row["luck_adjusted"] = luck_adjusted(
            raw["luck"], cfg, part_seed(cfg.seed, v, "bootstrap/luck")
        )
    row["robustness"] = robustness(ladders)
    return row


def measure(
    raws: dict[str, dict[str, Any]],
    cfg: StudyConfig,
    tick: Callable[[str], None] | None = None,
) -> dict[str, Any]:
    """``variants`` (every measure per variant) and ``ranking`` (variants by
    luck per family) of the finished variants; ``tick(variant)`` after each."""
    chess = raws.get("chess")
    rows = {}
    for v, raw in raws.items():
        rows[v] = variant_measures(raw, chess, cfg)
        if tick is not None:
            tick(v)
    return {
        "variants": rows,
        "ranking": ranking(rows, list(cfg.families())),
    }
