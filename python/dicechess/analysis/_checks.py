"""Input checks shared by the analysis functions: clear ValueError/TypeError messages."""

from __future__ import annotations

import numbers

import numpy as np


def confidence_z(confidence: float) -> float:
    """The two-sided standard-normal quantile for ``confidence`` in (0, 1)."""
    from scipy.stats import norm

    check_confidence(confidence)
    return float(norm.ppf(0.5 + confidence / 2))


def check_confidence(confidence: float) -> None:
    """Raise unless ``confidence`` is a real number strictly between 0 and 1."""
    if isinstance(confidence, bool) or not isinstance(confidence, numbers.Real):
        raise TypeError(f"confidence must be a number in (0, 1), got {type(confidence).__name__}")
    if not 0 < confidence < 1:
        raise ValueError(f"confidence must be strictly between 0 and 1, got {confidence}")


def check_count(value: float, name: str) -> float:
    """A finite, non-negative count (may be fractional: half points, expected counts)."""
    if isinstance(value, bool) or not isinstance(value, (numbers.Real, np.number)):
        raise TypeError(f"{name} must be a non-negative number, got {type(value).__name__}")
    value = float(value)
    if not np.isfinite(value) or value < 0:
        raise ValueError(f"{name} must be a finite non-negative count, got {value}")
    return value


def check_matrices(
    wins: object, draws: object, *, need_games: bool = True, label: str = ""
) -> tuple[np.ndarray, np.ndarray]:
    """Validate a (wins, draws) pair of k x k count matrices and return float copies.

    ``wins[i, j]``: games agent i won against agent j; ``draws`` symmetric; k >= 2;
    finite, non-negative, zero diagonal; at least one game when ``need_games``.
    """
    prefix = f"{label}: " if label else ""
    mats = []
    for name, m in (("wins", wins), ("draws", draws)):
        try:
            a = np.array(m, dtype=float)
        except (TypeError, ValueError) as exc:
            raise TypeError(f"{prefix}{name} must be a k x k numeric matrix ({exc})") from None
        if a.ndim != 2 or a.shape[0] != a.shape[1]:
            raise ValueError(f"{prefix}{name} must be a square k x k matrix, got shape {a.shape}")
        if a.shape[0] < 2:
            raise ValueError(f"{prefix}{name} needs at least k = 2 agents, got k = {a.shape[0]}")
        if not np.all(np.isfinite(a)):
            raise ValueError(f"{prefix}{name} must be finite (no NaN or inf)")
        if np.any(a < 0):
            raise ValueError(f"{prefix}{name} must be non-negative counts, found {a.min()}")
        if np.any(np.diag(a) != 0):
            raise ValueError(f"{prefix}{name} must have a zero diagonal (no self-play)")
        mats.append(a)
    w, d = mats
    if w.shape != d.shape:
        raise ValueError(f"{prefix}wins {w.shape} and draws {d.shape} must have the same shape")
    if not np.allclose(d, d.T):
        raise ValueError(f"{prefix}draws must be symmetric (draws[i, j] == draws[j, i])")
    if need_games and (w.sum() + d.sum()) == 0:
        raise ValueError(f"{prefix}no games: wins and draws are all zero")
    return w, d


def pair_counts(wins: np.ndarray, draws: np.ndarray) -> np.ndarray:
    """Games played between each pair (symmetric)."""
    return wins + wins.T + draws
