"""Scores and their intervals: tallies, Wilson and Clopper-Pearson, colour advantage."""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from .. import sim
from ._checks import check_confidence, check_count, confidence_z

_METHODS = ("wilson", "clopper-pearson")


def tally(
    agent_a: object, agent_b: object, score_a: object, k: int
) -> tuple[np.ndarray, np.ndarray]:
    """Per-game results to ``(wins, draws)`` k x k count matrices.

    ``agent_a``, ``agent_b``: agent indices (0..k-1) of each game; ``score_a``: agent_a's score,
    0, 0.5 or 1 (count truncated games as 0.5). ``wins[i, j]`` is the number of games i won
    against j over both colours; ``draws`` is symmetric.

    >>> w, d = tally([0, 0, 1], [1, 1, 0], [1, 0.5, 1], k=2)
    >>> w.tolist(), d.tolist()
    ([[0, 1], [1, 0]], [[0, 1], [1, 0]])
    """
    if isinstance(k, bool) or not isinstance(k, (int, np.integer)):
        raise TypeError(f"k must be an int, got {type(k).__name__}")
    if k < 2:
        raise ValueError(f"k must be at least 2 agents, got {k}")
    a = np.asarray(agent_a)
    b = np.asarray(agent_b)
    s = np.asarray(score_a, dtype=float)
    if a.ndim != 1 or b.ndim != 1 or s.ndim != 1:
        raise ValueError("agent_a, agent_b and score_a must be 1-d arrays (one entry per game)")
    if not (len(a) == len(b) == len(s)):
        raise ValueError(
            f"agent_a, agent_b and score_a must have the same length, got "
            f"{len(a)}, {len(b)}, {len(s)}"
        )
    for name, x in (("agent_a", a), ("agent_b", b)):
        if len(x) and not np.issubdtype(x.dtype, np.integer):
            raise TypeError(f"{name} must hold integer agent indices, got dtype {x.dtype}")
        if len(x) and (x.min() < 0 or x.max() >= k):
            raise ValueError(f"{name} indices must be in 0..{k - 1}, got {x.min()}..{x.max()}")
    if np.any(a == b):
        raise ValueError("agent_a and agent_b must differ in every game (no self-play)")
    if not np.all(np.isin(s, (0.0, 0.5, 1.0))):
        raise ValueError("score_a must be 0, 0.5 or 1 (truncated games count as 0.5)")
    return sim.count_results(a, b, s, k)


def _check_successes(successes: float, n: float) -> tuple[float, float]:
    successes = check_count(successes, "successes")
    n = check_count(n, "n")
    if n == 0:
        raise ValueError("n must be positive: an interval needs at least one game")
    if successes > n:
        raise ValueError(f"successes ({successes}) cannot exceed n ({n})")
    return successes, n


def wilson_interval(successes: float, n: float, confidence: float = 0.95) -> tuple[float, float]:
    """Wilson score interval ``(lo, hi)`` for a binomial proportion ``successes / n``.

    Wilson (1927), JASA 22:209-212; see docs/analysis.md. The formula lives in
    ``dicechess.sim.wilson_interval``; this wrapper takes a confidence level.

    >>> [round(x, 4) for x in wilson_interval(81, 263)]
    [0.2553, 0.3662]
    """
    successes, n = _check_successes(successes, n)
    return sim.wilson_interval(successes, n, z=confidence_z(confidence))


def clopper_pearson_interval(
    successes: float, n: float, confidence: float = 0.95
) -> tuple[float, float]:
    """Clopper-Pearson ("exact") interval ``(lo, hi)`` from beta quantiles.

    Clopper & Pearson (1934), Biometrika 26:404-413. Non-integer ``successes`` (half points)
    use the same beta quantiles with real parameters.

    >>> [round(x, 4) for x in clopper_pearson_interval(81, 263)]
    [0.2527, 0.3676]
    """
    from scipy.stats import beta

    successes, n = _check_successes(successes, n)
    check_confidence(confidence)
    alpha = 1 - confidence
    lo = 0.0 if successes == 0 else float(beta.ppf(alpha / 2, successes, n - successes + 1))
    hi = 1.0 if successes == n else float(beta.ppf(1 - alpha / 2, successes + 1, n - successes))
    return (lo, hi)


def score_interval(
    wins: float, draws: float, losses: float, confidence: float = 0.95, method: str = "wilson"
) -> tuple[float, float, float]:
    """``(score, lo, hi)``: score = (wins + draws/2) / games with an interval.

    Draws count as half a success in a binomial interval. A draw-aware (trinomial) variance is
    never larger than the binomial one, so the interval is conservative when there are draws.
    ``method``: ``"wilson"`` or ``"clopper-pearson"``.
    """
    if method not in _METHODS:
        raise ValueError(f"method must be one of {_METHODS}, got {method!r}")
    w = check_count(wins, "wins")
    d = check_count(draws, "draws")
    n = w + d + check_count(losses, "losses")
    if n == 0:
        raise ValueError("no games: wins + draws + losses must be positive")
    points = w + d / 2
    f = wilson_interval if method == "wilson" else clopper_pearson_interval
    lo, hi = f(points, n, confidence)
    return (points / n, lo, hi)


def elo_from_score(score: float) -> float:
    """Elo difference whose logistic expected score is ``score``: -400 log10(1/score - 1).

    +-inf at scores 1 and 0.
    """
    if score <= 0:
        return -math.inf
    if score >= 1:
        return math.inf
    return -400 * math.log10(1 / score - 1)


def colour_advantage(
    white_wins: float, black_wins: float, draws: float, confidence: float = 0.95
) -> dict[str, Any]:
    """White's score with a Wilson interval, a two-sided p-value for "White's expected score is
    0.5" (exact binomial test on the decisive games, ``scipy.stats.binomtest``) and the
    Elo-equivalent of the score and of its interval ends.

    >>> r = colour_advantage(60, 40, 0)
    >>> round(r["white_score"], 2), round(r["p_value"], 4), round(r["elo"], 1)
    (0.6, 0.0569, 70.4)
    """
    from scipy.stats import binomtest

    ww = check_count(white_wins, "white_wins")
    bw = check_count(black_wins, "black_wins")
    score, lo, hi = score_interval(ww, draws, bw, confidence)
    decisive = ww + bw
    if decisive > 0:
        if ww != int(ww) or bw != int(bw):
            raise ValueError(
                "white_wins and black_wins must be whole numbers for the binomial test"
            )
        p_value = float(binomtest(int(ww), int(decisive), 0.5).pvalue)
    else:
        p_value = 1.0  # all draws: no evidence either way
    return {
        "games": ww + bw + float(draws),
        "white_wins": ww,
        "black_wins": bw,
        "draws": float(draws),
        "white_score": score,
        "lo": lo,
        "hi": hi,
        "confidence": confidence,
        "p_value": p_value,
        "elo": elo_from_score(score),
        "elo_lo": elo_from_score(lo),
        "elo_hi": elo_from_score(hi),
    }
