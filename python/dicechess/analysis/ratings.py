"""Bradley-Terry ratings with Davidson draws, fitted by (lightly penalised) maximum likelihood."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ._checks import check_matrices, confidence_z, pair_counts

#: Natural log-strength to Elo: rating = 400 * log10(strength).
ELO_PER_NAT = 400 / math.log(10)
_MODELS = ("davidson", "none")
#: Default prior SD on the ratings (Elo) and on log(nu) (nats); keeps perfect records finite.
DEFAULT_PRIOR_SD = 2000.0
_LOG_NU_PRIOR_SD = 10.0


@dataclass
class RatingFit:
    """A fitted Bradley-Terry(-Davidson) model. Ratings are on the Elo scale (400 log10)."""

    names: list[str]
    #: Ratings (Elo), anchored: ``ratings[anchor] == 0``, or mean zero when ``anchor`` is None.
    ratings: np.ndarray
    #: Standard errors (Elo), from the inverse observed information of the penalised likelihood.
    se: np.ndarray
    lo: np.ndarray
    hi: np.ndarray
    #: Davidson draw parameter (0 for ``draws_model="none"`` or when no game was drawn).
    nu: float
    nu_lo: float
    nu_hi: float
    draws_model: str
    confidence: float
    anchor: int | None
    #: Covariance of the ratings (Elo^2), k x k.
    covariance: np.ndarray
    log_likelihood: float
    #: False when some agents won or lost everything against the rest (or are not connected):
    #: the plain MLE is then infinite and the ratings are set by the prior.
    mle_exists: bool
    converged: bool
    prior_sd: float | None
    games: np.ndarray = field(repr=False)

    def _index(self, agent: int | str) -> int:
        if isinstance(agent, str):
            if agent not in self.names:
                raise ValueError(f"unknown agent {agent!r}; known: {self.names}")
            return self.names.index(agent)
        if isinstance(agent, bool) or not isinstance(agent, (int, np.integer)):
            raise TypeError(f"agent must be an index or a name, got {type(agent).__name__}")
        if not 0 <= agent < len(self.names):
            raise ValueError(f"agent index must be in 0..{len(self.names) - 1}, got {agent}")
        return int(agent)

    def expected_score(self, i: int | str, j: int | str) -> float:
        """Expected score of ``i`` against ``j`` (win + draw/2) under the fitted model."""
        a, b = self._index(i), self._index(j)
        diff = (self.ratings[a] - self.ratings[b]) / ELO_PER_NAT
        return float(_expected_score(np.array([diff]), self.nu)[0])

    def spread(self) -> float:
        """Population standard deviation (ddof=0) of the fitted ratings, Elo."""
        return float(np.std(self.ratings))

    def to_pandas(self) -> Any:
        """One row per agent: rating, se, lo, hi, games; sorted by rating (needs pandas)."""
        import pandas as pd

        df = pd.DataFrame(
            {
                "agent": self.names,
                "rating": self.ratings,
                "se": self.se,
                "lo": self.lo,
                "hi": self.hi,
                "games": self.games.sum(axis=1),
            }
        )
        return df.sort_values("rating", ascending=False, ignore_index=True)


def _expected_score(theta_diff: np.ndarray, nu: float) -> np.ndarray:
    """Davidson expected score for natural log-strength differences (nu = 0: plain BT)."""
    if nu == 0:
        return 1 / (1 + np.exp(-theta_diff))
    x = theta_diff / 2
    lse = np.logaddexp(np.logaddexp(x, -x), math.log(nu))
    return np.exp(x - lse) + 0.5 * np.exp(math.log(nu) - lse)


class _Problem:
    """Penalised negative log-likelihood of the pairs i < j with games, with gradient and Hessian.

    Parameters: free log-strengths (the anchor agent is fixed at 0) and, for Davidson, eta =
    log(nu). Both models are exponential families, so the observed information equals the
    expected one and is positive semidefinite.
    """

    def __init__(self, wins: np.ndarray, draws: np.ndarray, model: str, prior_sd: float | None):
        k = wins.shape[0]
        i, j = np.triu_indices(k, 1)
        n = pair_counts(wins, draws)[i, j]
        keep = n > 0
        self.i, self.j = i[keep], j[keep]
        self.a = wins[self.i, self.j]
        self.b = wins[self.j, self.i]
        self.d = draws[self.i, self.j]
        self.n = n[keep]
        self.k = k
        self.davidson = model == "davidson" and self.d.sum() > 0
        if model == "none":  # draws as half a win and half a loss
            self.a = self.a + self.d / 2
            self.b = self.b + self.d / 2
            self.d = np.zeros_like(self.d)
        # Penalty: independent normals on the centred log-strengths (shift-invariant, so
        # anchoring does not matter) and on eta.
        self.lam = 0.0 if prior_sd is None else (ELO_PER_NAT / prior_sd) ** 2
        self.lam_eta = 1 / _LOG_NU_PRIOR_SD**2

    def size(self) -> int:
        return self.k + (1 if self.davidson else 0)

    def terms(self, p: np.ndarray) -> tuple[float, np.ndarray, np.ndarray]:
        """Value, gradient and Hessian in the full parameters (k log-strengths [+ eta])."""
        k = self.k
        theta = p[:k]
        i, j, a, b, d, n = self.i, self.j, self.a, self.b, self.d, self.n
        g = np.zeros(self.size())
        h = np.zeros((self.size(), self.size()))
        if self.davidson:
            eta = p[k]
            x = (theta[i] - theta[j]) / 2
            lse = np.logaddexp(np.logaddexp(x, -x), eta)
            pw, pl, pd = np.exp(x - lse), np.exp(-x - lse), np.exp(eta - lse)
            nll = -np.sum((a - b) * x + d * eta - n * lse)
            gx = -((a - b) - n * (pw - pl))  # d nll / dx
            geta = -(d - n * pd)
            hxx = n * ((pw + pl) - (pw - pl) ** 2)
            hxe = -n * (pw - pl) * pd
            hee = n * pd * (1 - pd)
            # Chain rule through x = (theta_i - theta_j) / 2.
            g[:k] += np.bincount(i, gx / 2, k) - np.bincount(j, gx / 2, k)
            g[k] = geta.sum()
            np.add.at(h, (i, i), hxx / 4)
            np.add.at(h, (j, j), hxx / 4)
            np.add.at(h, (i, j), -hxx / 4)
            np.add.at(h, (j, i), -hxx / 4)
            col = np.bincount(i, hxe / 2, k) - np.bincount(j, hxe / 2, k)
            h[:k, k] += col
            h[k, :k] += col
            h[k, k] += hee.sum()
            nll += self.lam_eta * eta**2 / 2
            g[k] += self.lam_eta * eta
            h[k, k] += self.lam_eta
        else:
            y = theta[i] - theta[j]
            nll = -np.sum(a * y - (a + b) * np.logaddexp(0, y))
            sig = 1 / (1 + np.exp(-y))
            gy = -(a - (a + b) * sig)
            hyy = (a + b) * sig * (1 - sig)
            g[:k] += np.bincount(i, gy, k) - np.bincount(j, gy, k)
            np.add.at(h, (i, i), hyy)
            np.add.at(h, (j, j), hyy)
            np.add.at(h, (i, j), -hyy)
            np.add.at(h, (j, i), -hyy)
        centred = theta - theta.mean()
        nll += self.lam * np.sum(centred**2) / 2
        g[:k] += self.lam * centred
        h[:k, :k] += self.lam * (np.eye(k) - 1 / k)
        return float(nll), g, h


def _mle_exists(wins: np.ndarray, draws: np.ndarray) -> bool:
    """Zermelo/Ford condition: the graph "i scored against j" is strongly connected."""
    from scipy.sparse.csgraph import connected_components

    scored = (wins + draws) > 0
    n_comp, _ = connected_components(scored, directed=True, connection="strong")
    return n_comp == 1


def fit_ratings(
    wins: object,
    draws: object,
    names: Sequence[str] | None = None,
    draws_model: str = "davidson",
    confidence: float = 0.95,
    anchor: int | None = 0,
    prior_sd: float | None = DEFAULT_PRIOR_SD,
    start: Sequence[float] | np.ndarray | None = None,
) -> RatingFit:
    """Fit Bradley-Terry strengths (with Davidson's draw parameter nu) by maximum likelihood.

    ``wins[i, j]``: games i won against j; ``draws`` symmetric (count truncated games as draws).
    ``draws_model``: ``"davidson"`` (P(draw) = nu sqrt(pi_i pi_j) / (pi_i + pi_j + nu
    sqrt(pi_i pi_j))) or ``"none"`` (a draw is half a win and half a loss, plain BT).
    ``anchor``: the agent rated 0, or None for mean-zero ratings. ``prior_sd``: SD (Elo) of a
    weak normal prior on the centred ratings that keeps agents with perfect records finite
    (see ``mle_exists``); None for the plain MLE, which then must exist.
    ``start``: ratings (Elo, any shift) to start the optimiser from, e.g. a previous fit's
    when refitting a bootstrap resample (same optimum, fewer iterations).
    Intervals: rating +- z * se from the inverse observed information (Hessian).

    >>> fit = fit_ratings([[0, 30], [10, 0]], [[0, 0], [0, 0]], anchor=None)
    >>> round(fit.ratings[0] - fit.ratings[1])  # 400 log10(30 / 10)
    191
    """
    from scipy.linalg import LinAlgError, cho_factor, cho_solve
    from scipy.optimize import minimize

    w, d = check_matrices(wins, draws)
    k = w.shape[0]
    if draws_model not in _MODELS:
        raise ValueError(f"draws_model must be one of {_MODELS}, got {draws_model!r}")
    z = confidence_z(confidence)
    if names is None:
        names = [str(x) for x in range(k)]
    names = [str(x) for x in names]
    if len(names) != k or len(set(names)) != k:
        raise ValueError(f"names must be {k} distinct names, got {names}")
    if anchor is not None and (
        isinstance(anchor, bool) or not isinstance(anchor, (int, np.integer)) or not 0 <= anchor < k
    ):
        raise ValueError(f"anchor must be an agent index in 0..{k - 1} or None, got {anchor!r}")
    if prior_sd is not None and not (np.isfinite(prior_sd) and prior_sd > 0):
        raise ValueError(f"prior_sd must be a positive number of Elo or None, got {prior_sd!r}")
    exists = _mle_exists(w, d)
    if prior_sd is None and not exists:
        raise ValueError(
            "the maximum-likelihood ratings are infinite: some agents won (or lost) every game "
            "against the rest, or the agents are not all connected by games; pass a prior_sd"
        )

    prob = _Problem(w, d, draws_model, prior_sd)
    # Optimise with agent `ref` fixed at 0 (removes the shift invariance).
    ref = 0 if anchor is None else int(anchor)
    free = np.array([m for m in range(prob.size()) if m != ref])

    def full(q: np.ndarray) -> np.ndarray:
        p = np.zeros(prob.size())
        p[free] = q
        return p

    def fun(q: np.ndarray) -> tuple[float, np.ndarray]:
        v, g, _ = prob.terms(full(q))
        return v, g[free]

    def hess(q: np.ndarray) -> np.ndarray:
        return prob.terms(full(q))[2][np.ix_(free, free)]

    # Gradients are sums over games: scale the tolerance with them (ratings then exact to
    # ~1e-6 nats); much tighter hits the rounding floor of the summed log-likelihood.
    scale = max(1.0, float(prob.n.sum()))
    gtol = 1e-7 * scale
    p0 = np.zeros(prob.size())
    if start is not None:
        s0 = np.asarray(start, dtype=float)
        if s0.shape != (k,) or not np.isfinite(s0).all():
            raise ValueError(f"start must be {k} finite ratings, got {start!r}")
        p0[:k] = (s0 - s0[ref]) / ELO_PER_NAT
    res = minimize(fun, p0[free], jac=True, hess=hess, method="trust-exact", options={"gtol": gtol})
    p = full(res.x)
    nll, _, h = prob.terms(p)
    hf = h[np.ix_(free, free)]
    try:
        cov_free = cho_solve(cho_factor(hf), np.eye(len(free)))
    except LinAlgError:  # singular information: report the pseudo-inverse
        cov_free = np.linalg.pinv(hf)
    cov = np.zeros((prob.size(), prob.size()))
    cov[np.ix_(free, free)] = cov_free
    theta, cov_theta = p[:k], cov[:k, :k]
    if anchor is None:
        c = np.eye(k) - 1 / k  # centring is linear: cov -> C cov C^T
        theta, cov_theta = c @ theta, c @ cov_theta @ c.T
    ratings = theta * ELO_PER_NAT
    cov_elo = cov_theta * ELO_PER_NAT**2
    se = np.sqrt(np.clip(np.diag(cov_elo), 0, None))
    if prob.davidson:
        eta, se_eta = p[k], math.sqrt(max(float(cov[k, k]), 0.0))
        nu, nu_lo, nu_hi = math.exp(eta), math.exp(eta - z * se_eta), math.exp(eta + z * se_eta)
    else:
        nu = nu_lo = nu_hi = 0.0
    return RatingFit(
        names=names,
        ratings=ratings,
        se=se,
        lo=ratings - z * se,
        hi=ratings + z * se,
        nu=nu,
        nu_lo=nu_lo,
        nu_hi=nu_hi,
        draws_model=draws_model,
        confidence=float(confidence),
        anchor=None if anchor is None else int(anchor),
        covariance=cov_elo,
        # The log-likelihood without the penalty terms.
        log_likelihood=float(-nll + _penalty(prob, p)),
        mle_exists=exists,
        # trust-exact can stop on rounding just short of gtol: accept a gradient that small.
        converged=bool(res.success or np.max(np.abs(res.jac), initial=0.0) <= 1e-6 * scale),
        prior_sd=prior_sd,
        games=pair_counts(w, d),
    )


def _penalty(prob: _Problem, p: np.ndarray) -> float:
    theta = p[: prob.k]
    pen = prob.lam * np.sum((theta - theta.mean()) ** 2) / 2
    if prob.davidson:
        pen += prob.lam_eta * p[prob.k] ** 2 / 2
    return float(pen)
