"""Measures on a compute ladder: ratings, Elo per doubling, skill classes, and the p-equivalent.

A ladder is a list of rungs (agents), rung 0 the weakest (``random``), the others one agent
family at growing compute (``search:nodes=2^k``). Rungs play each other in
:class:`Matchup` s of games, usually in pairs on common dice (:func:`dicechess.paired_games`).
Every measure comes with a bootstrap interval that resamples whole pairs within each matchup
(the games of a pair share their dice, so they are not independent). Definitions and sources:
docs/analysis.md.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from scipy.stats import norm

from ..sim import wilson_interval
from ._checks import check_confidence
from .intervals import elo_from_score
from .ratings import fit_ratings

#: Elo of one skill class: a 76% expected score (Mérő's class counting).
CLASS_ELO = 200.0
#: Default SD (Elo) of the weak prior that keeps ratings finite after perfect records.
LADDER_PRIOR_SD = 800.0


@dataclass
class Matchup:
    """The games between rungs ``i`` and ``j``: ``scores[k, g]`` is rung i's score (1 win,
    0.5 draw or truncated, 0 loss) in game ``g`` of pair ``k`` (one column for unpaired
    games)."""

    i: int
    j: int
    scores: np.ndarray

    def __post_init__(self) -> None:
        s = np.asarray(self.scores, dtype=float)
        if s.ndim == 1:
            s = s[:, None]
        if s.ndim != 2 or s.size == 0:
            raise ValueError(f"scores must be a non-empty (pairs, games) array, got {s.shape}")
        if not np.isin(s, (0.0, 0.5, 1.0)).all():
            raise ValueError("every game score must be 0, 0.5 or 1")
        if self.i == self.j:
            raise ValueError(f"a matchup needs two different rungs, got {self.i} twice")
        self.scores = s

    @property
    def games(self) -> int:
        return int(self.scores.size)

    def score(self) -> float:
        """Rung i's mean score."""
        return float(self.scores.mean())


@dataclass
class Estimate:
    """A number with its interval (``low``/``high``; bootstrap percentiles unless said)."""

    value: float
    low: float
    high: float

    def to_dict(self) -> dict[str, float]:
        return {"value": self.value, "low": self.low, "high": self.high}

    def __format__(self, spec: str) -> str:
        spec = spec or ".2f"
        return f"{self.value:{spec}} [{self.low:{spec}}, {self.high:{spec}}]"


def _counts(
    matchups: Sequence[Matchup], k: int, rows: Sequence[np.ndarray] | None = None
) -> tuple[np.ndarray, np.ndarray]:
    """``(wins, draws)`` k x k matrices of the matchups (``rows``: the pairs to use of each)."""
    wins = np.zeros((k, k))
    draws = np.zeros((k, k))
    for m_idx, m in enumerate(matchups):
        s = m.scores if rows is None else m.scores[rows[m_idx]]
        w, d, lo = (s == 1).sum(), (s == 0.5).sum(), (s == 0).sum()
        wins[m.i, m.j] += w
        wins[m.j, m.i] += lo
        draws[m.i, m.j] += d
        draws[m.j, m.i] += d
    return wins, draws


def _percentiles(values: np.ndarray, confidence: float) -> tuple[float, float]:
    a = (1 - confidence) / 2
    v = values[np.isfinite(values)]
    if len(v) == 0:
        return (math.nan, math.nan)
    return (float(np.quantile(v, a)), float(np.quantile(v, 1 - a)))


def _bootstrap(
    matchups: Sequence[Matchup],
    stat: Callable[[Sequence[np.ndarray] | None], np.ndarray],
    n_boot: int,
    seed: int,
) -> np.ndarray:
    """``stat`` on ``n_boot`` resamples of whole pairs within each matchup, stacked."""
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(n_boot):
        rows = [rng.integers(0, len(m.scores), len(m.scores)) for m in matchups]
        out.append(stat(rows))
    return np.array(out)


def _slope(x: np.ndarray, y: np.ndarray) -> float:
    """Least-squares slope of y on x (NaN with fewer than 2 distinct x)."""
    if len(x) < 2 or np.ptp(x) == 0:
        return math.nan
    return float(np.polyfit(x, y, 1)[0])


@dataclass
class LadderFit:
    """Ratings of a compute ladder and the measures read from them (see :func:`fit_ladder`)."""

    names: list[str]
    #: log2 of each rung's compute (NaN for rungs outside the family, e.g. ``random``).
    log2_compute: np.ndarray
    #: Elo, rung 0 at 0, with bootstrap intervals.
    ratings: np.ndarray
    ratings_low: np.ndarray
    ratings_high: np.ndarray
    #: Slope of the rating on log2(compute) over the family's rungs.
    elo_per_doubling: Estimate
    #: Slope over the upper half of the family minus slope over the lower half (negative:
    #: the curve flattens).
    flattening: Estimate
    #: (top rung - rung 0) / 200 Elo (counted from the floor, ``random``: not validated, the
    #: floor's gap to the first search rung is most of it in the dice variants).
    skill_classes: Estimate
    #: A one-sided lower bound on the classes from the chain of adjacent rungs alone: every
    #: adjacent score's lower confidence bound (Bonferroni over the links) turned into Elo.
    #: Finite even when links are perfect records, and free of the prior.
    classes_at_least: float
    #: Matchups won or lost in every game: their Elo gap is set by the prior.
    perfect_records: list[tuple[str, str]]
    prior_sd: float
    #: How much each headline value moves when the prior's SD is doubled.
    prior_effect: dict[str, float]
    confidence: float
    games: int
    extra: dict[str, Any] = field(default_factory=dict)
    #: (top rung - the family's lowest rung) / 200 Elo: classes counted from the first
    #: non-random rung (Mérő's classes among agents that play), and its prior-free chain
    #: bound. None when the family has fewer than two rungs.
    skill_classes_family: Estimate | None = None
    classes_at_least_family: float = math.nan

    def to_dict(self) -> dict[str, Any]:
        return {
            "ladder": [
                {
                    "spec": n,
                    "log2_compute": None if math.isnan(c) else float(c),
                    "elo": float(r),
                    "low": float(lo),
                    "high": float(hi),
                }
                for n, c, r, lo, hi in zip(
                    self.names,
                    self.log2_compute,
                    self.ratings,
                    self.ratings_low,
                    self.ratings_high,
                )
            ],
            "skill_curve": {
                "elo_per_doubling": self.elo_per_doubling.to_dict(),
                "flattening": self.flattening.to_dict(),
            },
            "skill_classes": self.skill_classes.to_dict(),
            "classes_at_least": self.classes_at_least,
            "skill_classes_family": (
                None if self.skill_classes_family is None else self.skill_classes_family.to_dict()
            ),
            "classes_at_least_family": self.classes_at_least_family,
            "perfect_records": [list(p) for p in self.perfect_records],
            "prior_sd": self.prior_sd,
            "prior_effect": self.prior_effect,
            "games": self.games,
        }


def _ladder_stats(
    names: Sequence[str],
    x: np.ndarray,
    matchups: Sequence[Matchup],
    prior_sd: float,
    rows: Sequence[np.ndarray] | None,
    start: np.ndarray | None = None,
) -> np.ndarray:
    """Ratings (k), Elo per doubling, flattening, classes from rung 0 and classes from the
    family's lowest rung of one (re)sample (``start``: ratings to start the fit from)."""
    k = len(names)
    wins, draws = _counts(matchups, k, rows)
    fit = fit_ratings(wins, draws, names=list(names), anchor=0, prior_sd=prior_sd, start=start)
    r = fit.ratings
    fam = np.isfinite(x)
    xf, rf = x[fam], r[fam]
    order = np.argsort(xf)
    xf, rf = xf[order], rf[order]
    half = len(xf) // 2
    flat = _slope(xf[half:], rf[half:]) - _slope(xf[: half + 1], rf[: half + 1])
    top = int(np.argmax(np.where(fam, x, -np.inf))) if fam.any() else k - 1
    bottom = int(np.argmin(np.where(fam, x, np.inf))) if fam.any() else 0
    classes = (r[top] - r[0]) / CLASS_ELO
    classes_family = (r[top] - r[bottom]) / CLASS_ELO if fam.sum() >= 2 else math.nan
    return np.concatenate([r, [_slope(xf, rf), flat, classes, classes_family]])


def _classes_lower_bound(
    matchups: Sequence[Matchup], order: Sequence[int], confidence: float
) -> float:
    """Sum of one-sided lower Elo bounds along the chain ``order`` (adjacent rungs), / 200."""
    links = []
    for a, b in zip(order, order[1:]):
        m = next((m for m in matchups if {m.i, m.j} == {a, b}), None)
        if m is None:
            return math.nan
        s = m.scores.ravel()
        s_b = s if m.i == b else 1 - s  # the stronger (later) rung's scores
        links.append(s_b)
    z = norm.ppf(1 - (1 - confidence) / max(1, len(links)))
    total = 0.0
    for s in links:
        # The Wilson lower bound at z, one-sided, for the mean score.
        low = wilson_interval(float(s.sum()), len(s), z=float(z))[0]
        total += elo_from_score(max(low, 1e-12))
    return total / CLASS_ELO


def fit_ladder(
    names: Sequence[str],
    log2_compute: Sequence[float | None],
    matchups: Sequence[Matchup],
    prior_sd: float = LADDER_PRIOR_SD,
    n_boot: int = 200,
    seed: int = 0,
    confidence: float = 0.95,
) -> LadderFit:
    """Fit Bradley-Terry-Davidson ratings to a compute ladder and read the skill curve.

    ``names[0]`` is the bottom rung (rated 0); ``log2_compute[i]``: log2 of rung i's compute
    budget, None for rungs outside the family (``random``). The weak normal prior
    (``prior_sd`` Elo) keeps gaps after perfect records finite; ``prior_effect`` reports how
    much each measure moves when it is doubled, and ``classes_at_least`` gives a bound that
    does not use it. ``skill_classes_family`` counts the classes from the family's lowest rung
    instead of rung 0 (the validated count: the floor ``random`` can sit anywhere below, or
    even above, the first search rung). Intervals: bootstrap percentiles over ``n_boot``
    resamples of whole pairs within each matchup.
    """
    check_confidence(confidence)
    k = len(names)
    if len(log2_compute) != k:
        raise ValueError(f"log2_compute needs one entry per rung ({k}), got {len(log2_compute)}")
    for m in matchups:
        if not (0 <= m.i < k and 0 <= m.j < k):
            raise ValueError(f"matchup ({m.i}, {m.j}) names a rung outside 0..{k - 1}")
    x = np.array([math.nan if c is None else float(c) for c in log2_compute])

    point = _ladder_stats(names, x, matchups, prior_sd, None)

    def stats(rows: Sequence[np.ndarray] | None, sd: float = prior_sd) -> np.ndarray:
        # Resamples start from the point estimate: the same optimum, fewer iterations.
        return _ladder_stats(names, x, matchups, sd, rows, start=point[:k])

    boot = _bootstrap(matchups, stats, n_boot, seed)
    ints = [_percentiles(boot[:, c], confidence) for c in range(boot.shape[1])]
    wide = stats(None, 2 * prior_sd)
    est = [Estimate(float(point[c]), *ints[c]) for c in range(k, k + 4)]
    family = [i for i in np.argsort(np.where(np.isfinite(x), x, -np.inf)) if np.isfinite(x[i])]
    chain = [0] + [int(i) for i in family if i != 0]
    has_family = len(family) >= 2
    return LadderFit(
        names=list(names),
        log2_compute=x,
        ratings=point[:k],
        ratings_low=np.array([ints[c][0] for c in range(k)]),
        ratings_high=np.array([ints[c][1] for c in range(k)]),
        elo_per_doubling=est[0],
        flattening=est[1],
        skill_classes=est[2],
        classes_at_least=_classes_lower_bound(matchups, chain, confidence),
        perfect_records=[(names[m.i], names[m.j]) for m in matchups if m.score() in (0.0, 1.0)],
        prior_sd=prior_sd,
        prior_effect={
            "elo_per_doubling": float(wide[k] - point[k]),
            "flattening": float(wide[k + 1] - point[k + 1]),
            "skill_classes": float(wide[k + 2] - point[k + 2]),
            "skill_classes_family": float(wide[k + 3] - point[k + 3]),
        },
        confidence=confidence,
        games=sum(m.games for m in matchups),
        skill_classes_family=est[3] if has_family else None,
        classes_at_least_family=(
            _classes_lower_bound(matchups, [int(i) for i in family], confidence)
            if has_family
            else math.nan
        ),
    )


def p_equivalent_ladder(
    variant: Sequence[Matchup],
    chess: Sequence[Matchup],
    n_boot: int = 200,
    seed: int = 0,
    confidence: float = 0.95,
    leave_out: Sequence[int] = (),
) -> Estimate:
    """The p for which chess with a fraction 1 - p of its results replaced by coin flips
    scores like the variant, matchup for matchup (Duersch, Lambrecht & Oechssler's p-chess,
    measured with the same agents in both games rather than extrapolated from ratings).

    Under coin-flip mixing a matchup's score is ``1/2 + p (s_chess - 1/2)``, so ``p`` is the
    weighted least-squares slope of ``s_variant - 1/2`` on ``s_chess - 1/2`` over the matchups
    both games played (matched by ``(i, j)``; weights: the games of the smaller side). A
    perfect chess record is just a score of 1 here, never an infinite rating. Values above 1
    mean the variant separates these agents more than chess does.

    ``leave_out``: rungs whose matchups are not used. The study leaves out its floor, rung 0
    (``random``): every game's random mover loses nearly every game to any search, with dice or
    without, so under the coin-flip model its matchups pull p towards 1 whatever the dice do
    between agents that play (dice are not coin flips: a large enough gap in skill overcomes
    them). Without the floor, p compares the games over the gaps between the family's rungs.
    """
    check_confidence(confidence)
    out = set(leave_out)
    key = {(m.i, m.j): m for m in chess}
    both = []
    for m in variant:
        if m.i in out or m.j in out:
            continue
        c = key.get((m.i, m.j))
        if c is None and (m.j, m.i) in key:
            r = key[(m.j, m.i)]
            c = Matchup(m.i, m.j, 1 - r.scores)
        if c is not None:
            both.append((m, c))
    if not both:
        raise ValueError(
            "the variant and chess have no matchup (same rungs, none left out) in common"
        )

    def p_of(rows_v: Sequence[np.ndarray] | None, rows_c: Sequence[np.ndarray] | None) -> float:
        num = den = 0.0
        for n, (mv, mc) in enumerate(both):
            sv = mv.scores if rows_v is None else mv.scores[rows_v[n]]
            sc = mc.scores if rows_c is None else mc.scores[rows_c[n]]
            w = min(sv.size, sc.size)
            num += w * (sc.mean() - 0.5) * (sv.mean() - 0.5)
            den += w * (sc.mean() - 0.5) ** 2
        return num / den if den > 0 else math.nan

    rng = np.random.default_rng(seed)
    boot = np.array(
        [
            p_of(
                [rng.integers(0, len(v.scores), len(v.scores)) for v, _ in both],
                [rng.integers(0, len(c.scores), len(c.scores)) for _, c in both],
            )
            for _ in range(n_boot)
        ]
    )
    return Estimate(p_of(None, None), *_percentiles(boot, confidence))
