"""How much is skill: the luck share, p-equivalents against p-chess, and the skill-ladder depth."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from ._checks import check_confidence, check_matrices, pair_counts
from .intervals import wilson_interval
from .ratings import _mle_exists, fit_ratings


@dataclass
class LuckShare:
    """Tango/Mauboussin decomposition of the spread of pair scores: observed = skill + luck."""

    #: Variance of the per-pair mean scores around 0.5 (every ordered pair i != j counted).
    observed_var: float
    #: Mean sampling variance of those means: within-pair result variance / (games - 1).
    luck_var: float
    #: max(0, observed_var - luck_var).
    skill_var: float
    #: luck_var / observed_var, clipped to [0, 1] (0 when nothing varies at all).
    share: float
    #: Unordered pairs used (pairs with at least 2 games).
    pairs: int
    #: Mean games per used pair.
    mean_games: float
    #: Games per pair at which skill and luck variance would be equal (inf when skill_var is 0).
    games_to_parity: float


def _pair_scores(wins: np.ndarray, draws: np.ndarray) -> tuple[np.ndarray, ...]:
    """Ordered pairs i != j with games: n, mean score of i, within-pair variance of i's result."""
    n = pair_counts(wins, draws)
    off = ~np.eye(len(n), dtype=bool)
    i, j = np.nonzero(off & (n > 0))
    nn = n[i, j]
    s = (wins[i, j] + draws[i, j] / 2) / nn
    second = (wins[i, j] + draws[i, j] / 4) / nn  # E[x^2], x in {0, 1/2, 1}
    var = np.clip(second - s**2, 0, None)
    return i, j, nn, s, var


def luck_share(wins: object, draws: object) -> LuckShare:
    """Share of the variance of head-to-head scores explained by luck (Tango; Mauboussin 2012).

    observed = mean over ordered pairs of (s_ij - 1/2)^2, s_ij = i's mean score against j (the
    mean over both orientations is exactly 1/2); luck = mean of v_ij / (n_ij - 1), the
    unbiased sampling variance of s_ij from the within-pair result variance v_ij;
    skill = max(0, observed - luck); share = luck / observed. Pairs with fewer than 2 games
    are skipped. A deterministic ladder gives 0; pure coin flips give about 1.

    >>> luck_share([[0, 10, 10], [0, 0, 10], [0, 0, 0]], [[0] * 3] * 3).share
    0.0
    """
    w, d = check_matrices(wins, draws)
    _, _, n, s, v = _pair_scores(w, d)
    use = n >= 2
    if not use.any():
        raise ValueError("luck_share needs at least one pair of agents with 2 or more games")
    n, s, v = n[use], s[use], v[use]
    observed = float(np.mean((s - 0.5) ** 2))
    luck = float(np.mean(v / (n - 1)))
    skill = max(0.0, observed - luck)
    if observed > 0:
        share = min(1.0, luck / observed)
    else:
        share = 0.0 if luck == 0 else 1.0
    return LuckShare(
        observed_var=observed,
        luck_var=luck,
        skill_var=skill,
        share=share,
        pairs=int(use.sum() // 2),
        mean_games=float(n.mean()),
        games_to_parity=float(np.mean(v)) / skill if skill > 0 else math.inf,
    )


@dataclass
class PEquivalent:
    """Result of :func:`p_equivalent`."""

    #: Fraction of chess results kept (the rest coin flips) that matches the variant's spread.
    p: float
    #: Spread (SD of fitted ratings, Elo) of the variant and of orthodox chess (p = 1).
    spread_variant: float
    spread_chess: float
    #: True when the variant's spread is outside [spread(p=0), spread(p=1)] and p was clamped.
    clamped: bool
    draws_model: str
    #: True when some agent won or lost every game in either arena: its rating, and so the
    #: spread, is then set by the fit's prior (see ``fit_ratings``) and p is unreliable.
    perfect_records: bool
    #: Percentile bootstrap interval of p (None unless ``n_boot`` > 0).
    interval: tuple[float, float] | None = None


def _p_chess_spread(p: float, w: np.ndarray, d: np.ndarray, model: str) -> float:
    """Spread of ratings fitted to p-chess's expected counts: a fraction 1 - p of the chess
    results replaced by fair coin flips (half a win each way, no draws)."""
    n = pair_counts(w, d)
    wp = p * w + (1 - p) * n / 2
    np.fill_diagonal(wp, 0)
    return fit_ratings(wp, p * d, draws_model=model).spread()


def _solve_p(
    wv: np.ndarray, dv: np.ndarray, wc: np.ndarray, dc: np.ndarray, model: str
) -> tuple[float, float, float, bool]:
    from scipy.optimize import brentq

    target = fit_ratings(wv, dv, draws_model=model).spread()
    top = _p_chess_spread(1.0, wc, dc, model)
    bottom = _p_chess_spread(0.0, wc, dc, model)
    if target >= top:
        return 1.0, target, top, target > top
    if target <= bottom:
        return 0.0, target, top, target < bottom
    p = brentq(lambda q: _p_chess_spread(q, wc, dc, model) - target, 0.0, 1.0, xtol=1e-6)
    return float(p), target, top, False


def _resample(w: np.ndarray, d: np.ndarray, rng: np.random.Generator) -> tuple[np.ndarray, ...]:
    """One nonparametric bootstrap replicate: each pair's games resampled with replacement."""
    k = len(w)
    wb, db = np.zeros_like(w), np.zeros_like(d)
    for i, j in zip(*np.triu_indices(k, 1)):
        counts = np.array([w[i, j], w[j, i], d[i, j]])
        n = counts.sum()
        if n == 0:
            continue
        a, b, c = rng.multinomial(int(round(n)), counts / n)
        wb[i, j], wb[j, i], db[i, j], db[j, i] = a, b, c, c
    return wb, db


def p_equivalent(
    wins_v: object,
    draws_v: object,
    wins_chess: object,
    draws_chess: object,
    draws_model: str = "none",
    n_boot: int = 0,
    confidence: float = 0.95,
    seed: int = 0,
) -> PEquivalent:
    """The p for which "p-chess" has the variant's skill spread (Duersch, Lambrecht & Oechssler
    2020, European Economic Review 127:103472).

    p-chess: orthodox chess in which a fraction 1 - p of results is replaced by a fair coin flip,
    so its expected pair scores are p * S_chess + (1 - p) / 2. Ratings are fitted to p-chess's
    expected counts and to the variant's games (the SAME k agents in both arenas), and
    ``scipy.optimize.brentq`` finds p in [0, 1] where the two spreads (SD of ratings) agree;
    outside that range p is clamped to 0 or 1 with ``clamped=True``. ``draws_model`` defaults
    to ``"none"`` (half points), so that the spread measures expected-score differences and not
    the draw rate. ``n_boot`` > 0 adds a percentile bootstrap interval (games resampled within
    each pair in both arenas, seeded by ``seed``).
    """
    wv, dv = check_matrices(wins_v, draws_v, label="variant")
    wc, dc = check_matrices(wins_chess, draws_chess, label="chess")
    if wv.shape != wc.shape:
        raise ValueError(
            f"the variant and chess arenas must have the same agents: shapes {wv.shape} "
            f"and {wc.shape}"
        )
    if draws_model not in ("davidson", "none"):
        raise ValueError(f"draws_model must be 'davidson' or 'none', got {draws_model!r}")
    if isinstance(n_boot, bool) or not isinstance(n_boot, (int, np.integer)) or n_boot < 0:
        raise ValueError(f"n_boot must be a non-negative int, got {n_boot!r}")
    check_confidence(confidence)
    p, sv, sc, clamped = _solve_p(wv, dv, wc, dc, draws_model)
    perfect = not (_mle_exists(wv, dv) and _mle_exists(wc, dc))
    interval = None
    if n_boot > 0:
        rng = np.random.default_rng(seed)
        boot = []
        for _ in range(n_boot):
            a, b = _resample(wv, dv, rng)
            c, e = _resample(wc, dc, rng)
            if a.sum() + b.sum() == 0 or c.sum() + e.sum() == 0:
                continue
            boot.append(_solve_p(a, b, c, e, draws_model)[0])
        alpha = 1 - confidence
        lo, hi = np.quantile(boot, [alpha / 2, 1 - alpha / 2])
        interval = (float(lo), float(hi))
    return PEquivalent(
        p=p,
        spread_variant=sv,
        spread_chess=sc,
        clamped=clamped,
        draws_model=draws_model,
        perfect_records=perfect,
        interval=interval,
    )


@dataclass
class LadderDepth:
    """Result of :func:`ladder_depth`."""

    #: Distinguishable levels: 1 + the number of distinguishable consecutive pairs.
    depth: int
    #: Agents strongest first.
    order: list[int]
    #: One dict per consecutive pair: stronger, weaker, games, score, lo, hi, distinguishable.
    pairs: list[dict[str, Any]]
    confidence: float

    def to_pandas(self) -> Any:
        """The per-pair table as a DataFrame (needs pandas)."""
        import pandas as pd

        return pd.DataFrame(self.pairs)


def ladder_depth(
    wins: object,
    draws: object,
    order: Sequence[int] | None = None,
    confidence: float = 0.95,
) -> LadderDepth:
    """Depth of the skill ladder: agents ordered by fitted rating (or ``order``, strongest
    first); a consecutive pair is a rung when the stronger agent's head-to-head score has a
    two-sided Wilson lower bound above 0.5 at ``confidence``. Pairs that never met are not
    rungs. depth = 1 + number of rungs.

    >>> ladder_depth([[0, 50, 50], [0, 0, 50], [0, 0, 0]], [[0] * 3] * 3).depth
    3
    """
    w, d = check_matrices(wins, draws)
    check_confidence(confidence)
    k = len(w)
    if order is None:
        ratings = fit_ratings(w, d).ratings
        order = [int(x) for x in np.argsort(-ratings, kind="stable")]
    else:
        order = [int(x) for x in order]
        if sorted(order) != list(range(k)):
            raise ValueError(f"order must be a permutation of 0..{k - 1}, got {order}")
    n = pair_counts(w, d)
    pairs = []
    for hi_agent, lo_agent in zip(order, order[1:]):
        games = float(n[hi_agent, lo_agent])
        points = float(w[hi_agent, lo_agent] + d[hi_agent, lo_agent] / 2)
        if games > 0:
            lo, hi = wilson_interval(points, games, confidence)
            score = points / games
        else:
            lo, hi, score = 0.0, 1.0, math.nan
        pairs.append(
            {
                "stronger": hi_agent,
                "weaker": lo_agent,
                "games": games,
                "score": score,
                "lo": lo,
                "hi": hi,
                "distinguishable": bool(games > 0 and lo > 0.5),
            }
        )
    rungs = sum(int(p["distinguishable"]) for p in pairs)
    return LadderDepth(depth=1 + rungs, order=order, pairs=pairs, confidence=float(confidence))
