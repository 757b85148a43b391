"""The study's ladder estimators on synthetic tournaments with known answers: players with
known Bradley-Terry ratings (Elo per doubling, skill classes), coin flips mixed in at a known
rate (luck alpha, p-equivalent), and known depth (beta)."""

import math

import numpy as np
import pytest
from scipy.special import expit

from dicechess.analysis.ladder import CLASS_ELO, Matchup, fit_ladder, p_equivalent_ladder
from dicechess.analysis.luck_depth import fit_luck_depth


def elo_p(diff):
    return 1 / (1 + 10 ** (-diff / 400))


def games(rng, p, pairs):
    """(pairs, 2) scores of a player who wins each game with probability p."""
    return (rng.random((pairs, 2)) < p).astype(float)


def ladder(rng, elos, pairs, luck=0.0, reach=2):
    """Matchups between rungs up to ``reach`` apart; with probability ``luck`` a game is a
    coin flip."""
    out = []
    for a in range(len(elos)):
        for b in range(a + 1, min(len(elos), a + reach + 1)):
            p = luck / 2 + (1 - luck) * elo_p(elos[b] - elos[a])
            out.append(Matchup(b, a, games(rng, p, pairs)))
    return out


# Rung 0 "random" at 0 Elo, then a family gaining 100 Elo per doubling from 2^4 nodes.
NAMES = ["random"] + [f"search:nodes={2**k}" for k in range(4, 12)]
LOG2 = [None] + list(range(4, 12))
ELOS = [0.0] + [300.0 + 100.0 * (k - 4) for k in range(4, 12)]


def test_fit_ladder_recovers_known_ratings():
    fit = fit_ladder(NAMES, LOG2, ladder(np.random.default_rng(0), ELOS, 250), n_boot=100)
    e = fit.elo_per_doubling
    assert e.low <= 100 <= e.high and e.high - e.low < 60, e
    assert fit.flattening.low <= 0 <= fit.flattening.high, fit.flattening
    want = (ELOS[-1] - ELOS[0]) / CLASS_ELO
    assert fit.skill_classes.low <= want <= fit.skill_classes.high, fit.skill_classes
    inside = (fit.ratings_low <= ELOS) & (np.array(ELOS) <= fit.ratings_high)
    assert inside.mean() >= 0.75, (fit.ratings, ELOS)
    # The chain bound is a lower bound, below the point estimate.
    assert fit.classes_at_least <= fit.skill_classes.value
    assert fit.perfect_records == []
    d = fit.to_dict()
    assert d["ladder"][0]["spec"] == "random" and d["ladder"][0]["log2_compute"] is None
    assert set(d["skill_curve"]) == {"elo_per_doubling", "flattening"}


def test_ladder_point_estimates_are_unbiased_over_replications():
    # Twelve independent tournaments: the estimates scatter around the truth (a single one
    # may fall outside its 95% interval; the mean over twelve may not drift).
    from dicechess.analysis.ladder import _ladder_stats

    x = np.array([np.nan] + LOG2[1:], dtype=float)
    v = np.array(
        [
            _ladder_stats(NAMES, x, ladder(np.random.default_rng(s), ELOS, 250), 800.0, None)[-4:]
            for s in range(100, 112)
        ]
    )
    se = v.std(axis=0, ddof=1) / np.sqrt(len(v))
    # Elo per doubling, flattening, classes from random, classes from the first search rung.
    truth = np.array(
        [100.0, 0.0, (ELOS[-1] - ELOS[0]) / CLASS_ELO, (ELOS[-1] - ELOS[1]) / CLASS_ELO]
    )
    assert (np.abs(v.mean(axis=0) - truth) < 3 * se + 1e-9).all(), (v.mean(axis=0), se)


def test_a_flattening_curve_is_detected():
    # Gains halve from the middle of the family on: 150 then 50 Elo per doubling.
    elos = [0.0] + [300.0 + (150 * i if i <= 4 else 600 + 50 * (i - 4)) for i in range(8)]
    fit = fit_ladder(NAMES, LOG2, ladder(np.random.default_rng(2), elos, 250), n_boot=100)
    assert fit.flattening.high < 0, fit.flattening


def test_perfect_records_stay_finite_and_are_reported():
    rng = np.random.default_rng(3)
    ms = ladder(rng, ELOS, 100)
    # Rung 1 beats random in every game (the true gap is 300 Elo; make it a shutout).
    ms = [Matchup(m.i, m.j, np.ones_like(m.scores)) if {m.i, m.j} == {0, 1} else m for m in ms]
    fit = fit_ladder(NAMES, LOG2, ms, n_boot=50)
    assert np.isfinite(fit.ratings).all() and fit.ratings.max() < 3000
    assert ("search:nodes=16", "random") in fit.perfect_records
    # Doubling the prior moves the classes: reported, not hidden.
    assert fit.prior_effect["skill_classes"] > 0
    assert math.isfinite(fit.classes_at_least) and fit.classes_at_least < fit.skill_classes.value


def test_p_equivalent_recovers_the_coin_flip_rate():
    rng = np.random.default_rng(4)
    chess = ladder(rng, ELOS, 300)
    variant = ladder(rng, ELOS, 300, luck=0.4)  # p = 0.6
    p = p_equivalent_ladder(variant, chess, n_boot=200)
    assert p.low <= 0.6 <= p.high and p.high - p.low < 0.2, p
    same = p_equivalent_ladder(chess, chess, n_boot=50)
    assert same.value == pytest.approx(1.0)


def test_p_equivalent_without_the_floor_is_not_pulled_to_one_by_it():
    # What the study saw: a random mover loses nearly every game to any search in every game,
    # dice or not, while the dice blur the gaps between agents that play. Here the rungs
    # above the floor play a coin-flip variant with p = 0.3 exactly, and the floor loses
    # every game in both. Leaving the floor out recovers p; keeping it pulls p towards 1.
    rng = np.random.default_rng(6)
    elos = [-2000.0] + ELOS[1:]  # the floor far below: scores of 1 in chess too

    def floored(luck):
        out = []
        for m in ladder(rng, elos, 300, luck=luck):
            if m.j == 0:
                m = Matchup(m.i, 0, np.ones_like(m.scores))
            out.append(m)
        return out

    chess, variant = floored(0.0), floored(0.7)
    p = p_equivalent_ladder(variant, chess, n_boot=200, leave_out=[0])
    assert p.low <= 0.3 <= p.high and p.high - p.low < 0.2, p
    with_floor = p_equivalent_ladder(variant, chess, n_boot=200)
    assert with_floor.low > p.high, (with_floor, p)
    # Leaving out a rung drops its matchups only: a ladder of nothing else has none in common.
    with pytest.raises(ValueError, match="none left out"):
        p_equivalent_ladder(
            [Matchup(1, 0, np.ones((2, 2)))], [Matchup(1, 0, np.ones((2, 2)))], leave_out=[0]
        )


def test_luck_and_depth_are_recovered():
    rng = np.random.default_rng(5)
    k, alpha, beta = 8, 0.3, 2.0
    s = np.linspace(-1.5, 1.5, k)
    s = (s - s.mean()) / s.std()
    ms = [
        Matchup(a, b, games(rng, alpha / 2 + (1 - alpha) * expit(beta * (s[a] - s[b])), 100))
        for a in range(k)
        for b in range(a + 1, k)
    ]
    r = fit_luck_depth(ms, k, n_boot=40)
    assert r.alpha.low <= alpha <= r.alpha.high, r.alpha
    assert r.beta.low <= beta <= r.beta.high, r.beta
    assert np.corrcoef(r.skills, s)[0, 1] > 0.95
    # Pure skill and pure luck at the ends.
    coin = [Matchup(a, b, games(rng, 0.5, 100)) for a in range(k) for b in range(a + 1, k)]
    assert fit_luck_depth(coin, k, n_boot=10).beta.value < 0.3


def test_bad_input():
    with pytest.raises(ValueError, match="0, 0.5 or 1"):
        Matchup(0, 1, np.array([[0.3, 1.0]]))
    with pytest.raises(ValueError, match="two different rungs"):
        Matchup(1, 1, np.ones((2, 2)))
    with pytest.raises(ValueError, match="one entry per rung"):
        fit_ladder(["a", "b"], [None], [Matchup(0, 1, np.ones((2, 2)))])
    with pytest.raises(ValueError, match="in common"):
        p_equivalent_ladder([Matchup(0, 1, np.ones((2, 2)))], [Matchup(0, 2, np.ones((2, 2)))])


@pytest.mark.parametrize("floor", [-1500.0, 70.0])
def test_skill_classes_are_counted_from_the_first_search_rung(floor):
    # Mérő's classes among the agents that play: from the first search rung to the top,
    # wherever the floor sits: far below (random loses every game, as in Dice Chess) or
    # above the first search rung (as in Cubic Checkers).
    elos = [ELOS[1] + floor] + ELOS[1:]
    want = (ELOS[-1] - ELOS[1]) / CLASS_ELO
    hits = 0
    for seed in range(20):
        fit = fit_ladder(
            NAMES, LOG2, ladder(np.random.default_rng(500 + seed), elos, 100), n_boot=60
        )
        c = fit.skill_classes_family
        assert c is not None and c.low <= c.value <= c.high
        hits += c.low <= want <= c.high
        assert fit.classes_at_least_family <= c.value
        d = fit.to_dict()
        assert d["skill_classes_family"] == c.to_dict()
    assert hits >= 18, hits
