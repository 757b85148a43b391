"""Games in pairs on common dice (dc.paired_games): seats swapped, the same
dice in both games, reproducible, and the variance it removes."""

import numpy as np
import pytest

import dicechess as dc


def test_same_agent_in_both_seats_plays_each_pair_twice():
    r = dc.paired_games("vegas", ("greedy", "greedy"), 12, seed=3, max_plies=80)
    for k in ("winner", "plies", "chance_events", "termination"):
        np.testing.assert_array_equal(r.a_first[k], r.b_first[k])
    # Then A's two scores in a pair add up to exactly 1.
    np.testing.assert_allclose(r.game_scores.sum(axis=1), 1.0)
    assert r.score() == pytest.approx(0.5)


def test_reproducible_whatever_the_threads_and_chunks():
    a = dc.paired_games("fluky", ("greedy", "random"), 20, seed=5, threads=1, chunk_size=7)
    b = dc.paired_games("fluky", ("greedy", "random"), 20, seed=5, threads=2)
    for k in a.a_first:
        np.testing.assert_array_equal(a.a_first[k], b.a_first[k])
        np.testing.assert_array_equal(a.b_first[k], b.b_first[k])
    assert a.agents == ("greedy", "random") and len(a) == 20


def test_scores_and_variance_reduction_from_known_results():
    r = dc.paired_games("chess", ("random", "random"), 2, seed=0, max_plies=4)
    # Dictate the results: A wins as player 0 and loses as player 1 in pair
    # 0 (score 0.5), wins both in pair 1 (score 1).
    r.a_first["winner"] = np.array([0, 0], dtype=np.int8)
    r.b_first["winner"] = np.array([0, 1], dtype=np.int8)
    np.testing.assert_allclose(r.game_scores, [[1.0, 0.0], [1.0, 1.0]])
    np.testing.assert_allclose(r.pair_scores, [0.5, 1.0])
    assert r.score() == pytest.approx(0.75)
    # var(pair means) = 0.125; columns: var 0 and 0.5 -> unpaired 0.125.
    assert r.variance_reduction() == pytest.approx(0.0)
    # A wins one seat per pair, the seats alternating: constant pair means.
    r.a_first["winner"] = np.array([0, 1], dtype=np.int8)
    r.b_first["winner"] = np.array([0, 1], dtype=np.int8)
    np.testing.assert_allclose(r.pair_scores, [0.5, 0.5])
    assert r.variance_reduction() == pytest.approx(1.0)


def test_identical_pairs_have_no_variance_left():
    # The same agent in both seats: every pair scores exactly 1/2 while the
    # single games vary, so pairing removes all of the variance.
    r = dc.paired_games("fluky", ("random", "random"), 40, seed=11)
    assert r.game_scores[:, 0].var() > 0
    assert r.variance_reduction() == pytest.approx(1.0)
    lo, hi = r.score_interval()
    assert lo == hi == pytest.approx(0.5)


def test_bad_arguments():
    with pytest.raises(ValueError, match="valid specs"):
        dc.paired_games("vegas", ("greedy", "nope"), 2)
    with pytest.raises(TypeError, match="spec strings"):
        dc.paired_games("vegas", ("greedy", lambda s: s.legal_actions()[0]), 2)
    with pytest.raises(ValueError, match="unknown variant"):
        dc.paired_games("vegaz", ("greedy", "random"), 2)
    with pytest.raises(ValueError, match="n_pairs"):
        dc.paired_games("vegas", ("greedy", "random"), -1)


def test_opening_plies_vary_pairs_and_are_checked() -> None:
    # Greedy against itself in chess: the same agent in both seats plays one
    # game twice per pair, and random openings make the pairs differ.
    r = dc.paired_games("chess", ("greedy", "greedy"), 6, seed=2, opening_plies=4, max_plies=40)
    assert r.opening_plies == 4
    for k in ("winner", "plies", "termination"):
        assert np.array_equal(r.a_first[k], r.b_first[k])
    one = dc.paired_games("chess", ("greedy", "random"), 4, seed=2, opening_plies=4, threads=1)
    two = dc.paired_games("chess", ("greedy", "random"), 4, seed=2, opening_plies=4, threads=2)
    assert np.array_equal(one.game_scores, two.game_scores)
    with pytest.raises(ValueError, match="opening_plies"):
        dc.paired_games("chess", ("greedy", "random"), 2, opening_plies=-1)
    with pytest.raises(TypeError, match="opening_plies"):
        dc.paired_games("chess", ("greedy", "random"), 2, opening_plies=1.5)  # type: ignore[arg-type]
