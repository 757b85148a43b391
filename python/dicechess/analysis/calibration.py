"""Calibration against a luck dial: a measure turned into a luck-equivalent q.

A calibration game is a twin variant with a known amount of luck (``chess:luck=q``: before each
decision the mover plays a uniformly random legal move with probability q). Measured at a grid
of q the same way as the variant, a statistic traces a calibration curve ``measure(q)``; the
variant's luck-equivalent is the q at which the curve reaches the variant's measure.

Convention for the data: every sample (each grid point's and the target's) holds the *raw
per-unit values* of a statistic, one row per independent unit (a game, or a pair of games
played on common dice), so that the functions here bootstrap them themselves. A sample is

- an array whose first axis indexes units (1-D, or 2-D with several columns per unit), or
- a :class:`Strata`: several such arrays resampled each within itself (e.g. the matchups of a
  compute ladder), passed to ``statistic`` as a list in the same order.

The measure of a sample is ``statistic(sample)`` (default: the mean of all its values), so
ratios of means (e.g. Var(luck)/Var(result) from a 2-D array of per-game columns) and ladder
fits work alike. Every grid point and the target are resampled independently.

The curve is assumed monotone in q (``increasing``): the grid's measures are made monotone by
weighted isotonic regression (pool adjacent violators, ``scipy.optimize.isotonic_regression``,
weights the inverse bootstrap variances) and interpolated monotonically (PCHIP by default,
or piecewise linear). Where the curve is flat the inverse is the middle of the flat stretch.
A target beyond the curve's range maps to its end, flagged ``censored``.
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from ._checks import check_confidence

#: Points at which a PCHIP curve is evaluated for inversion (its inverse is piecewise linear
#: between them: far finer than any interval).
_DENSE = 401
_INTERPOLATIONS = ("pchip", "linear")


@dataclass(frozen=True)
class Strata:
    """A sample made of independent strata (arrays with units along axis 0), each resampled
    within itself; ``statistic`` receives them as a list."""

    arrays: tuple[np.ndarray, ...]

    def __init__(self, arrays: Sequence[Any]) -> None:
        object.__setattr__(self, "arrays", tuple(np.asarray(a, dtype=float) for a in arrays))


Sample = Any  # array-like (units along axis 0) or Strata
Statistic = Callable[[Any], float]


def _check_sample(s: Sample, what: str) -> np.ndarray | Strata:
    if isinstance(s, Strata):
        if not s.arrays:
            raise ValueError(f"{what} is empty (no strata)")
        for n, a in enumerate(s.arrays):
            _check_array(a, f"{what} stratum {n}")
        return s
    try:
        a = np.asarray(s, dtype=float)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"{what} must be a numeric array ({exc})") from None
    _check_array(a, what)
    return a


def _check_array(a: np.ndarray, what: str) -> None:
    if a.ndim == 0 or a.shape[0] == 0 or a.size == 0:
        raise ValueError(f"{what} is empty: it needs at least one unit (row)")
    if not np.all(np.isfinite(a)):
        raise ValueError(f"{what} contains NaN or inf")


def _rng(rng: int | np.random.Generator | None) -> np.random.Generator:
    return rng if isinstance(rng, np.random.Generator) else np.random.default_rng(rng)


class _Stat:
    """The measure of a sample and its bootstrap replicates. ``vectorized``: ``fn`` takes
    samples with a leading replicate axis (each array ``(B, units, ...)``) and returns ``B``
    values (fast for ladders of many strata)."""

    def __init__(self, fn: Statistic | None, vectorized: bool) -> None:
        self.fn, self.vectorized = fn, vectorized

    def measure(self, s: np.ndarray | Strata) -> float:
        if self.fn is None:
            if isinstance(s, Strata):
                return float(np.concatenate([a.ravel() for a in s.arrays]).mean())
            return float(s.mean())
        arrays = list(s.arrays) if isinstance(s, Strata) else [s]
        if self.vectorized:
            arrays = [a[None] for a in arrays]
        v = self.fn(arrays if isinstance(s, Strata) else arrays[0])
        return float(np.asarray(v).reshape(-1)[0]) if self.vectorized else float(v)

    def boot(self, s: np.ndarray | Strata, n_boot: int, rng: np.random.Generator) -> np.ndarray:
        """``n_boot`` replicates: units resampled with replacement, within each stratum."""
        arrays = s.arrays if isinstance(s, Strata) else (s,)
        idx = [rng.integers(0, a.shape[0], (n_boot, a.shape[0])) for a in arrays]
        if self.fn is None:
            # Mean of all values: per-unit sums added over strata, over the value count.
            total = sum(
                a.reshape(a.shape[0], -1).sum(axis=1)[i].sum(axis=1) for a, i in zip(arrays, idx)
            )
            return np.asarray(total, dtype=float) / sum(a.size for a in arrays)
        if self.vectorized:
            parts = [a[i] for a, i in zip(arrays, idx)]
            out = np.asarray(self.fn(parts if isinstance(s, Strata) else parts[0]), dtype=float)
            if out.shape != (n_boot,):
                raise ValueError(
                    f"a vectorized statistic must return one value per replicate ({n_boot}), "
                    f"got shape {out.shape}"
                )
            return out
        out = np.empty(n_boot)
        for b in range(n_boot):
            parts = [a[i[b]] for a, i in zip(arrays, idx)]
            out[b] = self.fn(parts if isinstance(s, Strata) else parts[0])
        return out


def _check_grid(grid_q: Sequence[float], grid_samples: Sequence[Sample]) -> np.ndarray:
    try:
        q = np.asarray(grid_q, dtype=float)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"grid_q must be numbers ({exc})") from None
    if q.ndim != 1 or len(q) < 2:
        raise ValueError(f"grid_q needs at least 2 luck levels, got {grid_q!r}")
    if not np.all(np.isfinite(q)):
        raise ValueError("grid_q contains NaN or inf")
    if np.any(np.diff(q) <= 0):
        raise ValueError(f"grid_q must be strictly increasing, got {q.tolist()}")
    if len(grid_samples) != len(q):
        raise ValueError(
            f"grid_samples needs one sample per grid point: {len(q)} levels, "
            f"{len(grid_samples)} samples (lengths mismatch)"
        )
    return q


def _check_options(level: float, n_boot: int, interpolation: str) -> None:
    check_confidence(level)
    if isinstance(n_boot, bool) or not isinstance(n_boot, numbers.Integral) or n_boot < 10:
        raise ValueError(f"n_boot must be an int of at least 10, got {n_boot!r}")
    if interpolation not in _INTERPOLATIONS:
        raise ValueError(f"interpolation must be one of {_INTERPOLATIONS}, got {interpolation!r}")


def _monotone(y: np.ndarray, w: np.ndarray) -> np.ndarray:
    """Weighted isotonic (non-decreasing) regression of each row of ``y`` (B, K)."""
    from scipy.optimize import isotonic_regression

    out = y.copy()
    bad = np.any(np.diff(y, axis=1) < 0, axis=1)
    for b in np.nonzero(bad)[0]:
        out[b] = isotonic_regression(y[b], weights=w).x
    return out


def _knots(q: np.ndarray, y: np.ndarray, interpolation: str) -> tuple[np.ndarray, np.ndarray]:
    """Knots ``(x, Y)`` of the piecewise-linear curves through the monotone rows of ``y``:
    the grid itself, or a dense PCHIP evaluation (PCHIP keeps monotone data monotone)."""
    if interpolation == "linear":
        return q, y
    from scipy.interpolate import PchipInterpolator

    x = np.linspace(q[0], q[-1], _DENSE)
    x = np.union1d(x, q)
    yy = PchipInterpolator(q, y, axis=1)(x)
    # Rounding can leave steps of -1e-17 in a flat stretch: keep the knots monotone.
    return x, np.maximum.accumulate(yy.T, axis=0).T


def _invert(x: np.ndarray, Y: np.ndarray, t: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """For each row of non-decreasing knots ``Y`` (B, M) at ``x`` and target ``t`` (B,): the
    q at which the piecewise-linear curve reaches ``t`` (middle of a flat stretch), and the
    censoring: -1 below the curve, +1 above, 0 inside."""
    B, M = Y.shape
    rows = np.arange(B)
    # First knot >= t (q_lo = inf{q: f(q) >= t}) and last knot <= t (q_hi = sup{q: f(q) <= t}).
    k1 = np.argmax(Y >= t[:, None], axis=1)
    k2 = M - 1 - np.argmax(Y[:, ::-1] <= t[:, None], axis=1)

    def between(a: np.ndarray, b: np.ndarray) -> np.ndarray:
        ya, yb = Y[rows, a], Y[rows, b]
        with np.errstate(invalid="ignore", divide="ignore"):
            f = np.where(yb > ya, (t - ya) / (yb - ya), 0.0)
        return x[a] + np.clip(f, 0, 1) * (x[b] - x[a])

    q_lo = np.where(k1 == 0, x[0], between(np.maximum(k1 - 1, 0), k1))
    q_hi = np.where(k2 == M - 1, x[-1], between(k2, np.minimum(k2 + 1, M - 1)))
    q = (q_lo + q_hi) / 2
    cens = np.where(t < Y[:, 0], -1, np.where(t > Y[:, -1], 1, 0))
    q = np.where(cens == -1, x[0], np.where(cens == 1, x[-1], q))
    return q, cens


def _evaluate(x: np.ndarray, Y: np.ndarray, q: np.ndarray) -> np.ndarray:
    """Row b of the piecewise-linear curves ``(x, Y)`` at ``q[b]`` (clipped to the grid)."""
    q = np.clip(q, x[0], x[-1])
    k = np.clip(np.searchsorted(x, q, side="right") - 1, 0, len(x) - 2)
    rows = np.arange(len(q))
    f = (q - x[k]) / (x[k + 1] - x[k])
    return Y[rows, k] + f * (Y[rows, k + 1] - Y[rows, k])


def _percentiles(v: np.ndarray, level: float, axis: int = 0) -> tuple[Any, Any]:
    a = (1 - level) / 2
    return np.quantile(v, a, axis=axis), np.quantile(v, 1 - a, axis=axis)


def _curve(
    q: np.ndarray,
    grid: Sequence[np.ndarray | Strata],
    stat: _Stat,
    n_boot: int,
    rng: np.random.Generator,
    sign: float,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Point measures (K,), bootstrap measures (n_boot, K) and isotonic weights, all
    multiplied by ``sign`` (so that the curve is non-decreasing)."""
    point = sign * np.array([stat.measure(s) for s in grid])
    boot = sign * np.stack([stat.boot(s, n_boot, rng) for s in grid], axis=1)
    var = boot.var(axis=0, ddof=1)
    # A grid point measured without noise (e.g. exactly zero luck at q = 0) weighs most.
    floor = 1e-12 * max(1.0, float(np.max(var, initial=0.0)))
    return point, boot, 1 / np.maximum(var, floor)


_CENSORED = {-1: "below", 0: None, 1: "above"}


def luck_equivalent(
    grid_q: Sequence[float],
    grid_samples: Sequence[Sample],
    target_samples: Sample,
    *,
    level: float = 0.95,
    rng: int | np.random.Generator | None = None,
    statistic: Statistic | None = None,
    increasing: bool = True,
    n_boot: int = 1000,
    interpolation: str = "pchip",
    keep_replicates: bool = False,
    vectorized: bool = False,
) -> dict[str, Any]:
    """The luck level q at which the calibration curve reaches the target's measure.

    ``grid_q``: strictly increasing luck levels of the calibration games (e.g. 0, .05, .1,
    .2, .4, .7); ``grid_samples``: one sample per level, ``target_samples``: the variant's
    sample (see the module doc: raw per-unit values, units along axis 0, or :class:`Strata`).
    ``statistic(sample) -> float``: the measure (default: the mean of all values);
    ``vectorized=True``: it takes arrays with a leading replicate axis and returns one value
    per replicate (fast where a per-replicate loop is slow, e.g. many strata).
    ``increasing``: the measure grows with q (False for e.g. Elo per doubling, which falls).

    Point estimate: the monotone (isotonic, then PCHIP or linear) curve through the grid's
    measures, inverted at the target's measure. Interval: percentiles (``level``) of the same
    inversion over ``n_boot`` bootstrap replicates in which the target and every grid point
    are resampled independently (the calibration's uncertainty is carried through). A target
    below the curve maps to ``grid_q[0]``, above it to ``grid_q[-1]``, flagged
    ``censored = "below"/"above"`` (``censored_share``: the share of replicates censored).

    Returns JSON-ready floats: ``q, lo, hi, level, censored, censored_share``, ``measure``
    (the target's ``value, lo, hi``) and ``curve`` (``q, measure, lo, hi`` at each grid point:
    the monotone curve and its pointwise interval); ``replicates`` (the bootstrap q's, for
    :func:`score_at_luck`) when ``keep_replicates``.
    """
    q = _check_grid(grid_q, grid_samples)
    _check_options(level, n_boot, interpolation)
    grid = [_check_sample(s, f"grid_samples[{n}]") for n, s in enumerate(grid_samples)]
    target = _check_sample(target_samples, "target_samples")
    gen = _rng(rng)
    sign = 1.0 if increasing else -1.0
    stat = _Stat(statistic, vectorized)
    point, boot, w = _curve(q, grid, stat, n_boot, gen, sign)
    t_point = sign * stat.measure(target)
    t_boot = sign * stat.boot(target, n_boot, gen)
    if not (np.all(np.isfinite(boot)) and np.all(np.isfinite(t_boot)) and math.isfinite(t_point)):
        raise ValueError("the statistic returned NaN or inf on the samples or a resample")
    mono = _monotone(np.vstack([point, boot]), w)
    x, Y = _knots(q, mono, interpolation)
    qs, cens = _invert(x, Y, np.concatenate([[t_point], t_boot]))
    lo, hi = _percentiles(qs[1:], level)
    c_lo, c_hi = _percentiles(sign * mono[1:], level)
    m_lo, m_hi = _percentiles(sign * t_boot, level)
    out: dict[str, Any] = {
        "q": float(qs[0]),
        "lo": float(lo),
        "hi": float(hi),
        "level": float(level),
        "censored": _CENSORED[int(cens[0])],
        "censored_share": {
            "below": float(np.mean(cens[1:] == -1)),
            "above": float(np.mean(cens[1:] == 1)),
        },
        "measure": {
            "value": float(sign * t_point),
            "lo": float(min(m_lo, m_hi)),
            "hi": float(max(m_lo, m_hi)),
        },
        "curve": {
            "q": [float(v) for v in q],
            "measure": [float(v) for v in sign * mono[0]],
            "lo": [float(v) for v in np.minimum(c_lo, c_hi)],
            "hi": [float(v) for v in np.maximum(c_lo, c_hi)],
        },
    }
    if keep_replicates:
        out["replicates"] = [float(v) for v in qs[1:]]
    return out


def score_at_luck(
    grid_q: Sequence[float],
    grid_scores: Sequence[Sample],
    q: float,
    *,
    q_replicates: Sequence[float] | None = None,
    level: float = 0.95,
    rng: int | np.random.Generator | None = None,
    statistic: Statistic | None = None,
    increasing: bool = False,
    n_boot: int = 1000,
    interpolation: str = "pchip",
    vectorized: bool = False,
) -> dict[str, Any]:
    """A fixed matchup's score at luck level ``q``, for the player's-terms sentence: "a player
    who scores ``twin`` against another in the twin scores ``score`` in the variant".

    ``grid_scores``: per grid point the stronger agent's per-unit scores in the matchup
    (same conventions as :func:`luck_equivalent`; ``increasing=False``: luck pulls the score
    towards 1/2). ``q``: the variant's luck-equivalent; ``q_replicates``: its bootstrap
    replicates (``luck_equivalent(..., keep_replicates=True)["replicates"]``), so that the
    interval carries q's uncertainty as well as the score curve's (each replicate curve,
    resampled as in :func:`luck_equivalent`, is read at one replicate q, and ``n_boot`` is
    their number; without them q is taken as exact, which understates the interval).
    Returns JSON-ready ``score, lo, hi`` at q, ``twin`` (the score at ``grid_q[0]``, with
    ``twin_lo, twin_hi``), ``q`` and ``level``.
    """
    g = _check_grid(grid_q, grid_scores)
    if isinstance(q, bool) or not isinstance(q, numbers.Real) or not math.isfinite(q):
        raise ValueError(f"q must be a finite number, got {q!r}")
    if q_replicates is not None:
        reps = np.asarray(q_replicates, dtype=float)
        if reps.ndim != 1 or len(reps) < 10:
            raise ValueError("q_replicates must be a 1-d array of at least 10 replicates")
        if not np.all(np.isfinite(reps)):
            raise ValueError("q_replicates contains NaN or inf")
        n_boot = len(reps)
    _check_options(level, n_boot, interpolation)
    grid = [_check_sample(s, f"grid_scores[{n}]") for n, s in enumerate(grid_scores)]
    sign = 1.0 if increasing else -1.0
    point, boot, w = _curve(g, grid, _Stat(statistic, vectorized), n_boot, _rng(rng), sign)
    mono = _monotone(np.vstack([point, boot]), w)
    x, Y = _knots(g, mono, interpolation)
    Y, mono = sign * Y, sign * mono
    at = np.concatenate([[float(q)], reps if q_replicates is not None else np.full(n_boot, q)])
    s = _evaluate(x, Y, at)
    lo, hi = _percentiles(s[1:], level)
    t_lo, t_hi = _percentiles(mono[1:, 0], level)
    return {
        "q": float(q),
        "score": float(s[0]),
        "lo": float(lo),
        "hi": float(hi),
        "twin": float(mono[0, 0]),
        "twin_lo": float(t_lo),
        "twin_hi": float(t_hi),
        "level": float(level),
    }
