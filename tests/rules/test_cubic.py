"""Cubic Chess (docs/rules.md §6) through the Python State API: contract, bad input,
pickling, options."""

from __future__ import annotations

import copy
import pickle
import random

import numpy as np
import pytest

import dicechess as dc

START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1"


def sans(s: dc.State) -> set[str]:
    return {s.action_to_string(a) for a in s.legal_actions()}


def assert_refused(s: dc.State, text: str, *fragments: str) -> str:
    fen, history = s.fen(), s.history()
    with pytest.raises(ValueError) as info:
        s.apply_san(text)
    msg = str(info.value)
    for f in fragments:
        assert f in msg, (text, msg)
    assert s.fen() == fen and s.history() == history
    return msg


def test_registered() -> None:
    assert "cubic" in dc.variants()
    assert dc.num_actions("cubic") == 4928


def test_initial_state_contract() -> None:
    s = dc.State("cubic")
    assert s.variant == "cubic"
    assert s.current_player() == 0
    assert not s.is_chance_node() and not s.is_terminal()
    assert s.chance_outcomes() == []
    assert len(s.legal_actions()) == 32
    assert s.fen() == START
    assert s.options == {"fen": START, "max_plies": 1000}
    assert s.returns() == [0.0, 0.0]
    assert s.termination() is None
    mask = s.legal_actions_mask()
    assert mask.shape == (4928,) and mask.dtype == np.bool_
    assert sorted(np.flatnonzero(mask).tolist()) == s.legal_actions()
    assert "e2-e4" in sans(s) and "e2-c4" in sans(s) and "e3" in sans(s)


def test_moves_strings_and_rotations() -> None:
    s = dc.State("cubic", fen="4k3/p7/8/8/8/8/P6P/4K3[NQn] w - - 5 10")
    legal = sans(s)
    assert {"a2(N)", "a2(Q)", "h2(N)", "h2(Q)", "a3", "a2-a4", "a2-c4"} <= legal
    a = s.string_to_action("h2(Q)")
    assert a == 4672 + 15 * 4 + 3
    assert s.string_to_action("h2h2q") == a
    s.apply_action(a)
    assert s.fen() == "4k3/p7/8/8/8/8/P6Q/4K3[Nn] b - - 0 10"
    assert "a7(N)" in sans(s)
    text = str(s)
    assert "white stock: 1 knight" in text and "black stock: 1 knight" in text
    s.apply_san("a7(N)")
    assert s.fen() == "4k3/n7/8/8/8/8/P6Q/4K3[N] w - - 0 11"


def test_two_step_pawn_notation() -> None:
    s = dc.State("cubic")
    a = s.string_to_action("e2-e4")
    assert s.action_to_string(a) == "e2-e4"
    assert s.string_to_action("e2e4") == a
    s.apply_san("e2-g4")
    assert s.action_to_string(s.string_to_action("c7c5")) == "c7-c5"
    s.apply_san("c7-a5")
    assert s.fen() == "rnbqkbnr/pp1ppppp/8/p7/6P1/8/PPPP1PPP/RNBQKBNR[] w KQkq - 0 2"


def test_observation_has_stock_planes() -> None:
    s = dc.State("cubic", fen="4k3/p7/8/8/8/8/P7/4K3[NNq] w - - 0 1")
    planes = s.observation_planes()
    assert planes[-8:] == [
        "own_stock_knight_count/8",
        "own_stock_bishop_count/8",
        "own_stock_rook_count/8",
        "own_stock_queen_count/8",
        "opponent_stock_knight_count/8",
        "opponent_stock_bishop_count/8",
        "opponent_stock_rook_count/8",
        "opponent_stock_queen_count/8",
    ]
    obs = s.observation_tensor(0)
    assert obs.shape == (len(planes), 8, 8)
    n = len(planes)
    assert np.all(obs[n - 8] == 0.25) and np.all(obs[n - 1] == 0.125)
    obs1 = s.observation_tensor(1)
    assert np.all(obs1[n - 5] == 0.125) and np.all(obs1[n - 4] == 0.25)


def test_checkmate_and_returns() -> None:
    s = dc.State("cubic", fen="6k1/5ppp/8/8/8/8/8/4R1K1[q] w - - 0 1")
    s.apply_san("Re8#")
    assert s.is_terminal()
    assert s.termination() == "checkmate"
    assert s.returns() == [1.0, -1.0]
    with pytest.raises(ValueError):
        s.apply_action(0)


def test_stalemate_unless_a_rotation_exists() -> None:
    s = dc.State("cubic", fen="k7/8/8/8/2p5/p7/P4q2/7K w - - 0 1")
    assert s.termination() == "stalemate"
    s = dc.State("cubic", fen="k7/8/8/8/2p5/p7/P4q2/7K[B] w - - 0 1")
    assert sans(s) == {"a2(B)"}


# ----- bad input -----


def test_rotation_without_stock() -> None:
    s = dc.State("cubic", fen="4k3/p7/8/8/8/8/P7/4K3[Nq] w - - 0 1")
    assert_refused(s, "a2(Q)", "no queen in White's stock", "1 knight")
    assert_refused(s, "a2a2r", "no rook in White's stock")
    s = dc.State("cubic")
    assert_refused(s, "e2(N)", "no knight in White's stock", "empty")


def test_rotation_of_non_pawn() -> None:
    s = dc.State("cubic", fen="4k3/p7/8/8/8/8/P7/R3K3[N] w - - 0 1")
    assert_refused(s, "a1(N)", "only pawns can be rotated", "rook")
    assert_refused(s, "e1(N)", "king")
    assert_refused(s, "a7(N)", "Black's")
    assert_refused(s, "c4(N)", "empty")
    assert_refused(s, "a2(K)", "N, B, R or Q")


def test_rotation_in_check() -> None:
    s = dc.State("cubic", fen="4r1k1/8/8/8/8/8/P7/4K3[N] w - - 0 1")
    assert_refused(s, "a2(N)", "illegal while in check")


def test_pawn_jumping() -> None:
    s = dc.State("cubic", fen="4k3/8/8/8/8/3bn3/4P3/4K3 w - - 0 1")
    assert_refused(s, "e2-e4", "cannot jump over the knight on e3")
    assert_refused(s, "e2-c4", "cannot jump over the bishop on d3")
    assert_refused(s, "e2e4", "jump")
    s = dc.State("cubic", fen="4k3/4p3/3B4/8/8/8/8/4K3 b - - 0 1")
    assert_refused(s, "e7-c5", "jump over the bishop on d6")


@pytest.mark.parametrize("text", ["e7e8q", "e8=Q", "e8Q", "e7-e8=Q", "exd8=Q", "e7d8n"])
def test_promotion_suffix(text: str) -> None:
    s = dc.State("cubic", fen="3r2k1/4P3/8/8/8/8/8/4K3 w - - 0 1")
    assert_refused(s, text, "no promotion")
    assert {"e8", "exd8"} <= sans(s)


def test_bad_actions_fen_and_options() -> None:
    s = dc.State("cubic")
    fen, history = s.fen(), s.history()
    for a in [4672 + 12 * 4, 4928, -1, 10**9]:
        with pytest.raises((ValueError, OverflowError)):
            s.apply_action(a)
    assert s.fen() == fen and s.history() == history
    for bad in [
        "4k3/8/8/8/8/8/8/4K3[P] w - - 0 1",
        "4k3/8/8/8/8/8/8/4K3[N w - - 0 1",
        "4k3/8/8/8/8/8/8/4K3 w - e3 0 1",
        "not a fen",
    ]:
        with pytest.raises(ValueError):
            dc.State("cubic", fen=bad)
    with pytest.raises(ValueError, match="allowed options"):
        dc.State("cubic", dice=2)
    with pytest.raises(ValueError):
        dc.State("cubic", max_plies=0)


# ----- state handling -----


def test_pickle_clone_and_options_mid_game() -> None:
    rng = random.Random(7)
    s = dc.State("cubic", max_plies=300)
    while not s.is_terminal() and s.plies < 80:
        s.apply_action(rng.choice(s.legal_actions()))
    t = pickle.loads(pickle.dumps(s))
    for other in (t, s.clone(), copy.deepcopy(s)):
        assert other.fen() == s.fen()
        assert other.history() == s.history()
        assert other.legal_actions() == s.legal_actions()
    # Replaying the history from the options gives the same state.
    r = dc.State("cubic", **s.options)
    for a in s.history():
        r.apply_action(a)
    assert r.fen() == s.fen()
    # Both continue identically.
    while not s.is_terminal():
        a = rng.choice(s.legal_actions())
        s.apply_action(a)
        t.apply_action(a)
        assert s.fen() == t.fen()
    assert s.termination() == t.termination()
    assert s.returns() == t.returns()


def test_fen_round_trip_over_random_games() -> None:
    rng = random.Random(3)
    for _ in range(10):
        s = dc.State("cubic")
        while not s.is_terminal():
            r = dc.State("cubic", fen=s.fen())
            assert r.fen() == s.fen()
            assert r.legal_actions() == s.legal_actions()
            s.apply_action(rng.choice(s.legal_actions()))
        assert s.termination() in dc.TERMINATIONS
