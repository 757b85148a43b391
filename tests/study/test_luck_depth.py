"""Jerdee-Newman luck alpha and depth beta on synthetic tournaments in the study's design, with
known answers: a ladder of ``random`` plus 9 search rungs, rungs one and two apart playing 100
pairs each, draws, and a share alpha of the search rungs' games decided by a coin flip."""

from __future__ import annotations

import math

import numpy as np
import pytest

from dicechess.analysis.ladder import Matchup
from dicechess.analysis.luck_depth import _Model, _outcomes, fit_luck_depth

#: Skill gaps between the search rungs (Elo, skill games only), flattening as chess's do.
GAPS = [300, 280, 260, 240, 220, 200, 180, 160]
#: Where ``random`` sits below the first search rung (it loses every game there).
FLOOR_GAP = 1500.0
ELO = np.concatenate([[0.0], FLOOR_GAP + np.concatenate([[0.0], np.cumsum(GAPS)])])
#: True depth: the SD of the search rungs' logit-scale skills.
BETA = float(np.std(ELO[1:] * math.log(10) / 400))
SEEDS = 20
N_BOOT = 200


def tournament(
    rng: np.random.Generator, alpha: float, nu: float, pairs: int = 100
) -> list[Matchup]:
    """Matchups one and two rungs apart (stronger rung first). A skill game follows
    Davidson's model with draw parameter ``nu``; among the search rungs a share ``alpha`` of
    games is a coin flip instead."""
    u = ELO * math.log(10) / 400
    out = []
    for gap in (1, 2):
        for a in range(len(u) - gap):
            b = a + gap
            h = (u[b] - u[a]) / 2
            z = math.exp(h) + math.exp(-h) + nu
            pw, pd = math.exp(h) / z, nu / z
            r = rng.random(2 * pairs)
            s = np.where(r < pw, 1.0, np.where(r < pw + pd, 0.5, 0.0))
            if a > 0:
                coin = rng.random(2 * pairs) < alpha
                s = np.where(coin, (rng.random(2 * pairs) < 0.5).astype(float), s)
            out.append(Matchup(b, a, s.reshape(pairs, 2)))
    return out


def draw_rate(ms: list[Matchup]) -> float:
    return float(np.mean(np.concatenate([m.scores.ravel() for m in ms if m.j > 0]) == 0.5))


@pytest.mark.parametrize("alpha", [0.1, 0.3, 0.5])
def test_alpha_and_beta_are_recovered_with_random_left_out(alpha: float) -> None:
    hits_a = hits_b = hits_nu = 0
    est, widths = [], []
    for seed in range(SEEDS):
        ms = tournament(np.random.default_rng(seed), alpha, nu=1.0)
        r = fit_luck_depth(ms, len(ELO), n_boot=N_BOOT, seed=seed, draws="davidson", leave_out=[0])
        assert r.validated and r.note == ""
        assert r.nu is not None
        hits_a += r.alpha.low <= alpha <= r.alpha.high
        hits_b += r.beta.low <= BETA <= r.beta.high
        hits_nu += r.nu.low <= 1.0 <= r.nu.high
        est.append(r.alpha.value)
        widths.append(r.alpha.high - r.alpha.low)
    assert 0.1 < draw_rate(ms) < 0.3  # "some draw rate"
    assert hits_a >= 0.9 * SEEDS, hits_a
    assert hits_b >= 0.9 * SEEDS, hits_b
    assert hits_nu >= 0.9 * SEEDS, hits_nu
    assert abs(np.mean(est) - alpha) < 0.04, np.mean(est)
    assert np.mean(widths) < 0.3, np.mean(widths)  # informative, not merely wide


def test_no_luck_and_many_draws_read_no_luck() -> None:
    # Davidson's nu = 2 gives about 40% draws among the search rungs. alpha-hat is a random
    # variable with its mode at the boundary 0: measured over seeds, not seed by seed.
    est = []
    for seed in range(SEEDS):
        ms = tournament(np.random.default_rng(1000 + seed), 0.0, nu=2.0)
        assert 0.33 < draw_rate(ms) < 0.47
        r = fit_luck_depth(ms, len(ELO), n_boot=N_BOOT, seed=seed, draws="davidson", leave_out=[0])
        assert r.alpha.low < 0.01, (seed, r.alpha)
        est.append(r.alpha.value)
    assert np.mean(np.array(est) < 0.05) >= 0.9, sorted(est)
    assert np.median(est) < 0.02, sorted(est)


def test_the_floor_is_left_out_and_flagged() -> None:
    ms = tournament(np.random.default_rng(7), 0.3, nu=1.0)
    r = fit_luck_depth(ms, len(ELO), n_boot=20, draws="davidson", leave_out=[0])
    assert math.isnan(r.skills[0]) and np.isfinite(r.skills[1:]).all()
    assert np.all(np.diff(r.skills[1:]) > 0)  # the rungs in their order
    assert r.skills[1:].std() == pytest.approx(1.0)
    assert r.games == sum(m.games for m in ms if m.j > 0)
    # Nothing left out, or draws as half a win: not the validated estimator, and said why.
    kept = fit_luck_depth(ms, len(ELO), n_boot=20, draws="davidson")
    assert not kept.validated and "random" in kept.note
    half = fit_luck_depth(ms, len(ELO), n_boot=20, leave_out=[0])
    assert not half.validated and "half a win" in half.note and half.nu is None
    free = fit_luck_depth(ms, len(ELO), n_boot=20, draws="free", leave_out=[0])
    assert not free.validated and "weakly identified" in free.note


@pytest.mark.parametrize("draws", ["davidson", "free"])
def test_model_derivatives_match_finite_differences(draws: str) -> None:
    rng = np.random.default_rng(0)
    i, j = np.array([1, 2, 3, 4, 2, 3, 4]), np.array([0, 1, 2, 3, 0, 1, 2])
    model = _Model(i, j, 5, draws)
    q = rng.normal(0, 1, (3, model.p))
    P, J = model.probs(q)
    np.testing.assert_allclose(P.sum(axis=2), 1.0)
    eps = 1e-6
    for c in range(model.p):
        e = np.zeros(model.p)
        e[c] = eps
        num = (model.probs(q + e)[0] - model.probs(q - e)[0]) / (2 * eps)
        np.testing.assert_allclose(J[..., c], num, atol=1e-7)


@pytest.mark.parametrize("draws", ["davidson", "free"])
def test_fisher_scoring_reaches_the_optimum(draws: str) -> None:
    from scipy.optimize import minimize

    ms = tournament(np.random.default_rng(3), 0.3, nu=1.0)
    ms = [Matchup(m.i - 1, m.j - 1, m.scores) for m in ms if m.j > 0]
    model = _Model(np.array([m.i for m in ms]), np.array([m.j for m in ms]), len(ELO) - 1, draws)
    wdl = np.array([_outcomes(m).sum(axis=0) for m in ms], dtype=float)
    q = model.fit(wdl[None], model.start(wdl))[0]
    f = model.nll(q[None], wdl[None])[0]
    ref = minimize(lambda x: model.nll(x[None], wdl[None])[0], q + 0.05, method="BFGS")
    assert f <= ref.fun + 1e-6
    # The same optimum from the bootstrap's batched start.
    again = model.fit(np.stack([wdl, wdl]), q + 0.1)
    np.testing.assert_allclose(again[:, 0], q[0], atol=1e-4)


def test_bad_input() -> None:
    ms = tournament(np.random.default_rng(5), 0.1, nu=1.0)
    with pytest.raises(ValueError, match="draws must be one of"):
        fit_luck_depth(ms, len(ELO), draws="rao-kupper")
    with pytest.raises(ValueError, match="leave_out"):
        fit_luck_depth(ms, len(ELO), leave_out=[10])
    with pytest.raises(ValueError, match="at least one matchup"):
        fit_luck_depth([m for m in ms if m.j == 0], len(ELO), leave_out=[0])
