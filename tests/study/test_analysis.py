"""dicechess.analysis: intervals against published values, fits on synthetic tournaments."""

from __future__ import annotations

import doctest
import math

import numpy as np
import pytest

pytest.importorskip("scipy")

import dicechess.analysis as an  # noqa: E402
import dicechess.analysis.intervals  # noqa: E402
import dicechess.analysis.ratings  # noqa: E402
import dicechess.analysis.skill  # noqa: E402
from dicechess import sim  # noqa: E402

LN10 = math.log(10)


def davidson_probs(elo_i: float, elo_j: float, nu: float) -> np.ndarray:
    """(P(i wins), P(j wins), P(draw)) under Davidson's model, written out independently."""
    pi, pj = 10 ** (elo_i / 400), 10 ** (elo_j / 400)
    den = pi + pj + nu * math.sqrt(pi * pj)
    return np.array([pi / den, pj / den, nu * math.sqrt(pi * pj) / den])


def simulate(elos: list[float], nu: float, games: int, seed: int) -> tuple[np.ndarray, ...]:
    """A round robin of ``games`` games per pair with Davidson outcome probabilities."""
    rng = np.random.default_rng(seed)
    k = len(elos)
    w, d = np.zeros((k, k), int), np.zeros((k, k), int)
    for i in range(k):
        for j in range(i + 1, k):
            a, b, c = rng.multinomial(games, davidson_probs(elos[i], elos[j], nu))
            w[i, j], w[j, i], d[i, j], d[j, i] = a, b, c, c
    return w, d


def per_game(w: np.ndarray, d: np.ndarray, rng: np.random.Generator) -> tuple[np.ndarray, ...]:
    """Expand count matrices to shuffled per-game arrays (agent_a, agent_b, score_a)."""
    a, b, s = [], [], []
    k = len(w)
    for i in range(k):
        for j in range(i + 1, k):
            n_games = int(w[i, j] + w[j, i] + d[i, j])
            a += [i] * n_games
            b += [j] * n_games
            s += [1.0] * int(w[i, j]) + [0.0] * int(w[j, i]) + [0.5] * int(d[i, j])
    perm = rng.permutation(len(a))
    return np.array(a)[perm], np.array(b)[perm], np.array(s)[perm]


# --- intervals -------------------------------------------------------------------------------


def test_intervals_match_newcombe_1998() -> None:
    # Newcombe (1998), Stat. Med. 17:857-872, Table I example 81/263.
    assert an.wilson_interval(81, 263) == pytest.approx((0.2553, 0.3662), abs=5e-5)
    assert an.clopper_pearson_interval(81, 263) == pytest.approx((0.2527, 0.3676), abs=5e-5)


def test_intervals_closed_forms_at_zero() -> None:
    # 0 successes: CP upper = 1 - (alpha/2)^(1/n); Wilson upper = z^2 / (n + z^2).
    z = 1.959963984540054
    assert an.clopper_pearson_interval(0, 10) == pytest.approx((0.0, 1 - 0.025 ** (1 / 10)))
    assert an.wilson_interval(0, 10) == pytest.approx((0.0, z * z / (10 + z * z)))
    assert an.clopper_pearson_interval(10, 10)[1] == 1.0


@pytest.mark.parametrize("x,n", [(1, 7), (13, 40), (250, 1000), (99, 100)])
@pytest.mark.parametrize("conf", [0.9, 0.95, 0.99])
def test_intervals_match_scipy_binomtest(x: int, n: int, conf: float) -> None:
    from scipy.stats import binomtest

    ref = binomtest(x, n).proportion_ci(conf, method="wilson")
    assert an.wilson_interval(x, n, conf) == pytest.approx((ref.low, ref.high), rel=1e-9)
    ref = binomtest(x, n).proportion_ci(conf, method="exact")
    assert an.clopper_pearson_interval(x, n, conf) == pytest.approx((ref.low, ref.high), rel=1e-7)


def test_sim_wilson_interval_still_works_and_agrees() -> None:
    assert sim.wilson_interval(81, 263) == an.wilson_interval(81, 263)
    assert sim.wilson_interval(0, 0) == (0.0, 1.0)


def test_score_interval_counts_draws_as_half_points() -> None:
    score, lo, hi = an.score_interval(3, 2, 5)
    assert score == pytest.approx(0.4)
    assert (lo, hi) == an.wilson_interval(4, 10)
    score, lo, hi = an.score_interval(3, 2, 5, method="clopper-pearson", confidence=0.9)
    assert (lo, hi) == an.clopper_pearson_interval(4, 10, 0.9)
    assert lo < 0.4 < hi


def test_colour_advantage() -> None:
    r = an.colour_advantage(60, 40, 20)
    assert r["white_score"] == pytest.approx(70 / 120)
    # Exact two-sided binomial p for 60 of 100, written out.
    tail = sum(math.comb(100, x) for x in range(60, 101)) / 2**100
    assert r["p_value"] == pytest.approx(2 * tail, rel=1e-9)
    assert r["elo"] == pytest.approx(400 * math.log10(70 / 50))
    assert r["elo_lo"] < r["elo"] < r["elo_hi"]
    assert an.colour_advantage(0, 0, 10)["p_value"] == 1.0
    assert an.colour_advantage(5, 0, 0)["elo"] == math.inf


# --- tally -----------------------------------------------------------------------------------


def test_tally_matches_loop() -> None:
    rng = np.random.default_rng(3)
    k, n = 4, 500
    a = rng.integers(0, k, n)
    b = (a + rng.integers(1, k, n)) % k
    s = rng.choice([0.0, 0.5, 1.0], n)
    w, d = an.tally(a, b, s, k)
    w_ref, d_ref = np.zeros((k, k)), np.zeros((k, k))
    for x, y, sc in zip(a, b, s):
        if sc == 1:
            w_ref[x, y] += 1
        elif sc == 0:
            w_ref[y, x] += 1
        else:
            d_ref[x, y] += 1
            d_ref[y, x] += 1
    np.testing.assert_array_equal(w, w_ref)
    np.testing.assert_array_equal(d, d_ref)
    assert w.sum() + d.sum() / 2 == n


# --- ratings ---------------------------------------------------------------------------------


def test_two_agents_closed_form_mle_and_se() -> None:
    # BT with two players: diff = ln(a/b) nats, SE = sqrt(1/a + 1/b) (delta method).
    fit = an.fit_ratings([[0, 300], [100, 0]], [[0, 0], [0, 0]], prior_sd=None)
    assert fit.ratings[1] - fit.ratings[0] == pytest.approx(-400 * math.log10(3), abs=1e-4)
    assert fit.se[1] == pytest.approx(400 / LN10 * math.sqrt(1 / 300 + 1 / 100), rel=1e-4)
    assert fit.nu == 0 and fit.mle_exists
    # Davidson with two players: pi_0/pi_1 = a/b and nu = d / sqrt(a b).
    fit = an.fit_ratings([[0, 300], [100, 0]], [[0, 200], [200, 0]], prior_sd=None)
    assert fit.ratings[0] - fit.ratings[1] == pytest.approx(400 * math.log10(3), abs=0.05)
    assert fit.nu == pytest.approx(200 / math.sqrt(300 * 100), rel=1e-3)
    assert fit.nu_lo < fit.nu < fit.nu_hi


def test_bradley_terry_davidson_recovers_known_strengths() -> None:
    elos = [0.0, 120.0, -80.0, 250.0, 40.0]
    nu = 0.7
    w, d = simulate(elos, nu, games=2000, seed=11)
    fit = an.fit_ratings(w, d, names=list("abcde"))
    true = np.array(elos) - elos[0]
    assert fit.ratings[0] == 0
    assert np.all(np.abs(fit.ratings - true) < np.maximum(4 * fit.se, 1e-9))
    assert np.all(np.abs(fit.ratings - true) < 25)
    assert fit.nu == pytest.approx(nu, abs=0.05)
    assert fit.nu_lo < nu < fit.nu_hi
    assert fit.converged and fit.mle_exists
    # Expected score against the model's own formula at the true strengths.
    p = davidson_probs(elos[3], elos[2], nu)
    assert fit.expected_score("d", "c") == pytest.approx(p[0] + p[2] / 2, abs=0.02)
    assert fit.expected_score(3, 2) + fit.expected_score(2, 3) == pytest.approx(1)
    assert fit.spread() == pytest.approx(np.std(elos), abs=15)
    df = fit.to_pandas()
    assert list(df["agent"]) == ["d", "b", "e", "a", "c"]
    # Mean-zero anchoring: same differences, mean zero, SEs all positive.
    centred = an.fit_ratings(w, d, anchor=None)
    assert centred.ratings.mean() == pytest.approx(0, abs=1e-9)
    np.testing.assert_allclose(centred.ratings - centred.ratings[0], fit.ratings, atol=1e-3)
    assert np.all(centred.se > 0)


def test_bradley_terry_without_draws_model() -> None:
    elos = [0.0, 200.0, -100.0]
    w, d = simulate(elos, 0.0, games=3000, seed=5)
    assert d.sum() == 0
    for model in ("davidson", "none"):  # identical when no game is drawn
        fit = an.fit_ratings(w, d, draws_model=model)
        np.testing.assert_allclose(fit.ratings, elos, atol=25)
        assert fit.nu == 0


@pytest.mark.parametrize("model", ["davidson", "none"])
def test_likelihood_gradient_and_hessian_match_finite_differences(model: str) -> None:
    from scipy.optimize import approx_fprime, check_grad

    from dicechess.analysis.ratings import _Problem

    w, d = simulate([0.0, 100.0, -50.0, 200.0], 0.6, games=50, seed=9)
    prob = _Problem(w.astype(float), d.astype(float), model, prior_sd=500.0)
    rng = np.random.default_rng(0)
    for _ in range(3):
        p = rng.normal(0, 0.5, prob.size())
        f, g, h = prob.terms(p)
        assert check_grad(lambda q: prob.terms(q)[0], lambda q: prob.terms(q)[1], p) < 1e-4 * (
            1 + np.abs(g).max()
        )
        num = approx_fprime(p, lambda q: prob.terms(q)[1], 1e-6)
        np.testing.assert_allclose(h, num, atol=1e-3 * (1 + np.abs(h).max()))


def test_rating_standard_errors_are_calibrated() -> None:
    # Across replicate tournaments the z-scores (estimate - truth) / se should have SD ~ 1.
    elos, nu = [0.0, 80.0, 160.0], 0.5
    z, znu = [], []
    for rep in range(100):
        fit = an.fit_ratings(*simulate(elos, nu, games=150, seed=1000 + rep))
        z.extend((fit.ratings[1:] - elos[1:]) / fit.se[1:])
        se_log_nu = (math.log(fit.nu_hi) - math.log(fit.nu)) / 1.959963984540054
        znu.append((math.log(fit.nu) - math.log(nu)) / se_log_nu)
    assert np.std(z) == pytest.approx(1, abs=0.15)
    assert abs(np.mean(z)) < 0.2
    assert np.std(znu) == pytest.approx(1, abs=0.2)


def test_perfect_records_do_not_crash() -> None:
    w = np.array([[0, 10, 5], [0, 0, 3], [0, 1, 0]])
    fit = an.fit_ratings(w, np.zeros((3, 3)))
    assert not fit.mle_exists
    assert np.all(np.isfinite(fit.ratings)) and np.all(np.isfinite(fit.se))
    assert fit.ratings[0] > fit.ratings[1] > fit.ratings[2]
    with pytest.raises(ValueError, match="infinite"):
        an.fit_ratings(w, np.zeros((3, 3)), prior_sd=None)
    # All draws: nu is large but finite, ratings equal.
    fit = an.fit_ratings(np.zeros((3, 3)), 10 * (1 - np.eye(3)))
    assert np.isfinite(fit.nu) and np.allclose(fit.ratings, 0, atol=1e-3)


# --- luck share ------------------------------------------------------------------------------


def test_luck_share_zero_for_deterministic_ladder() -> None:
    k = 6
    w = np.triu(np.full((k, k), 40), 1)  # i beats every j > i, always
    r = an.luck_share(w, np.zeros((k, k)))
    assert r.share == 0.0 and r.luck_var == 0.0
    assert r.skill_var == r.observed_var == 0.25
    assert r.pairs == k * (k - 1) // 2


def test_luck_share_near_one_for_coin_flips() -> None:
    rng = np.random.default_rng(7)
    k, games = 30, 100
    w = np.zeros((k, k))
    for i in range(k):
        for j in range(i + 1, k):
            w[i, j] = rng.binomial(games, 0.5)
            w[j, i] = games - w[i, j]
    r = an.luck_share(w, np.zeros((k, k)))
    assert abs(r.share - 1) < 0.1
    assert r.luck_var == pytest.approx(0.25 / (games - 1), rel=0.02)


def test_luck_share_recovers_planted_skill_variance() -> None:
    rng = np.random.default_rng(8)
    k, games = 20, 400
    w = np.zeros((k, k))
    for i in range(k):
        for j in range(i + 1, k):
            p = 0.5 + rng.choice([-0.1, 0.1])  # skill variance exactly 0.01
            w[i, j] = rng.binomial(games, p)
            w[j, i] = games - w[i, j]
    r = an.luck_share(w, np.zeros((k, k)))
    assert r.skill_var == pytest.approx(0.01, rel=0.1)
    assert r.share == pytest.approx(0.24 / 399 / (0.01 + 0.24 / 399), rel=0.15)


# --- p-equivalent ----------------------------------------------------------------------------

LADDER = [0.0, 150.0, 300.0, 450.0, 600.0]


def coin_flip_fraction(w: np.ndarray, d: np.ndarray, keep: float, seed: int) -> tuple:
    """Replace each game's result, with probability 1 - keep, by a fair coin flip."""
    rng = np.random.default_rng(seed)
    a, b, s = per_game(w, d, rng)
    flip = rng.random(len(s)) >= keep
    s = np.where(flip, rng.integers(0, 2, len(s)).astype(float), s)
    return an.tally(a, b, s, len(w))


def test_p_equivalent_identity_and_coin_flips() -> None:
    w, d = simulate(LADDER, 0.5, games=1000, seed=21)
    same = an.p_equivalent(w, d, w, d)
    assert same.p == 1.0 and not same.clamped and not same.perfect_records
    assert same.spread_variant == pytest.approx(same.spread_chess)
    wv, dv = coin_flip_fraction(w, d, keep=0.0, seed=22)
    flips = an.p_equivalent(wv, dv, w, d)
    assert flips.p < 0.1


def test_p_equivalent_recovers_planted_p() -> None:
    w, d = simulate(LADDER, 0.5, games=2000, seed=31)
    wv, dv = coin_flip_fraction(w, d, keep=0.6, seed=32)
    for model in ("none", "davidson"):
        r = an.p_equivalent(wv, dv, w, d, draws_model=model)
        assert r.p == pytest.approx(0.6, abs=0.05), model
        assert 0 < r.spread_variant < r.spread_chess


def test_p_equivalent_clamps_when_variant_more_skilful() -> None:
    w, d = simulate(LADDER, 0.5, games=500, seed=41)
    wv, dv = simulate([2 * x for x in LADDER], 0.5, games=500, seed=42)
    r = an.p_equivalent(wv, dv, w, d)
    assert r.p == 1.0 and r.clamped
    # An agent that loses every variant game is flagged.
    wv[0, :] = 0
    assert an.p_equivalent(wv, dv * 0, w, d).perfect_records


@pytest.mark.slow
def test_p_equivalent_bootstrap_interval_covers_planted_p() -> None:
    w, d = simulate(LADDER, 0.5, games=2000, seed=51)
    wv, dv = coin_flip_fraction(w, d, keep=0.6, seed=52)
    r = an.p_equivalent(wv, dv, w, d, n_boot=100, seed=1)
    assert r.interval is not None
    lo, hi = r.interval
    assert lo < 0.6 < hi and lo < r.p < hi and hi - lo < 0.2


# --- ladder depth ----------------------------------------------------------------------------


def test_ladder_depth_on_synthetic_ladders() -> None:
    w, d = simulate([0, 300, 600, 900], 0.3, games=200, seed=61)
    r = an.ladder_depth(w, d)
    assert r.depth == 4 and r.order == [3, 2, 1, 0]
    assert all(p["distinguishable"] for p in r.pairs)
    # Two tiers of equal agents: only the step between the tiers is a rung.
    w, d = simulate([0, 0, 400, 400], 0.3, games=200, seed=62)
    r = an.ladder_depth(w, d)
    assert r.depth == 2
    assert [p["distinguishable"] for p in r.pairs] == [False, True, False]
    assert len(r.to_pandas()) == 3
    # All equal: one level. A reversed order has no rungs either.
    w, d = simulate([0, 0, 0], 0.3, games=200, seed=63)
    assert an.ladder_depth(w, d).depth == 1
    w, d = simulate([0, 300, 600], 0.3, games=200, seed=64)
    assert an.ladder_depth(w, d, order=[0, 1, 2]).depth == 1
    assert an.ladder_depth(w, d, order=[2, 1, 0]).depth == 3


def test_ladder_pairs_that_never_met_are_not_rungs() -> None:
    w = np.array([[0, 0, 50], [0, 0, 0], [0, 0, 0]])
    r = an.ladder_depth(w, np.zeros((3, 3)), order=[0, 1, 2])
    assert r.depth == 1 and r.pairs[0]["games"] == 0


# --- bad input -------------------------------------------------------------------------------

GOOD_W = np.array([[0, 3], [2, 0]])
GOOD_D = np.array([[0, 1], [1, 0]])
MATRIX_FUNCS = [
    an.fit_ratings,
    an.luck_share,
    an.ladder_depth,
    lambda w, d: an.p_equivalent(w, d, GOOD_W, GOOD_D),
    lambda w, d: an.p_equivalent(GOOD_W, GOOD_D, w, d),
]


@pytest.mark.parametrize("func", MATRIX_FUNCS)
@pytest.mark.parametrize(
    "w,d,msg",
    [
        ([[0, -1], [2, 0]], GOOD_D, "non-negative"),
        (GOOD_W, np.zeros((3, 3)), "same shape"),
        ([[0]], [[0]], "k = 2"),
        (np.zeros((2, 2)), np.zeros((2, 2)), "no games"),
        ([[0, 1], [2, 0]], [[0, 1], [2, 0]], "symmetric"),
        ([[0, np.nan], [2, 0]], GOOD_D, "finite"),
        ([[1, 1], [2, 0]], GOOD_D, "diagonal"),
        ([0, 1, 2], GOOD_D, "square"),
    ],
)
def test_bad_matrices(func, w, d, msg: str) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(ValueError, match=msg):
        func(w, d)


def test_bad_scalars_and_options() -> None:
    with pytest.raises(ValueError, match="positive"):
        an.wilson_interval(0, 0)
    with pytest.raises(ValueError, match="exceed"):
        an.clopper_pearson_interval(5, 3)
    with pytest.raises(ValueError, match="non-negative"):
        an.score_interval(-1, 0, 3)
    with pytest.raises(ValueError, match="no games"):
        an.score_interval(0, 0, 0)
    with pytest.raises(ValueError, match="method"):
        an.score_interval(1, 0, 1, method="wald")
    with pytest.raises(ValueError, match="confidence"):
        an.wilson_interval(1, 2, confidence=1.5)
    with pytest.raises(ValueError, match="no games"):
        an.colour_advantage(0, 0, 0)
    with pytest.raises(ValueError, match="draws_model"):
        an.fit_ratings(GOOD_W, GOOD_D, draws_model="rao-kupper")
    with pytest.raises(ValueError, match="names"):
        an.fit_ratings(GOOD_W, GOOD_D, names=["a"])
    with pytest.raises(ValueError, match="anchor"):
        an.fit_ratings(GOOD_W, GOOD_D, anchor=2)
    with pytest.raises(ValueError, match="unknown agent"):
        an.fit_ratings(GOOD_W, GOOD_D).expected_score("x", 0)
    with pytest.raises(ValueError, match="permutation"):
        an.ladder_depth(GOOD_W, GOOD_D, order=[0, 0])
    with pytest.raises(ValueError, match="same agents"):
        an.p_equivalent(GOOD_W, GOOD_D, np.ones((3, 3)) - np.eye(3), np.zeros((3, 3)))
    with pytest.raises(ValueError, match="2 or more games"):
        an.luck_share([[0, 1], [0, 0]], np.zeros((2, 2)))


def test_bad_tally_input() -> None:
    with pytest.raises(ValueError, match="at least 2"):
        an.tally([0], [1], [1], k=1)
    with pytest.raises(ValueError, match="same length"):
        an.tally([0, 1], [1], [1], k=2)
    with pytest.raises(ValueError, match="0..1"):
        an.tally([0], [2], [1], k=2)
    with pytest.raises(ValueError, match="differ"):
        an.tally([0], [0], [1], k=2)
    with pytest.raises(ValueError, match="0, 0.5 or 1"):
        an.tally([0], [1], [0.7], k=2)
    with pytest.raises(TypeError, match="integer"):
        an.tally([0.0], [1.0], [1], k=2)


@pytest.mark.parametrize(
    "module", [dicechess.analysis.intervals, dicechess.analysis.ratings, dicechess.analysis.skill]
)
def test_doctests(module: object) -> None:
    failures, tried = doctest.testmod(module, verbose=False)  # type: ignore[arg-type]
    assert tried > 0 and failures == 0


def test_docs_page_example_runs() -> None:
    import re
    from pathlib import Path

    text = (Path(__file__).resolve().parents[2] / "docs" / "analysis.md").read_text("utf-8")
    blocks = re.findall(r"```python\n(.*?)```", text, flags=re.S)
    assert blocks
    for code in blocks:
        exec(compile(code, "docs/analysis.md", "exec"), {})


def test_fit_ratings_from_a_start_reaches_the_same_optimum() -> None:
    from dicechess.analysis import fit_ratings

    w = np.array([[0, 30, 40], [10, 0, 25], [5, 12, 0]], dtype=float)
    d = np.array([[0, 4, 2], [4, 0, 6], [2, 6, 0]], dtype=float)
    cold = fit_ratings(w, d)
    warm = fit_ratings(w, d, start=cold.ratings + 123.0)
    assert np.allclose(warm.ratings, cold.ratings, atol=1e-3)
    assert warm.nu == pytest.approx(cold.nu, rel=1e-4)
    with pytest.raises(ValueError, match="start"):
        fit_ratings(w, d, start=[0.0, 1.0])
