"""Random Move Number Chess (docs/rules.md §5) through the Python State API."""

from __future__ import annotations

import copy
import pickle
import random

import numpy as np
import pytest

import dicechess as dc

V = "random_move_number"
START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"


def throw(s: dc.State, d: int) -> None:
    assert s.is_chance_node()
    s.apply_san(str(d))


def sans(s: dc.State) -> set[str]:
    return {s.action_to_string(a) for a in s.legal_actions()}


def started() -> dc.State:
    """Colours chosen (player 0 White) and both first moves made."""
    s = dc.State(V)
    throw(s, 5)
    throw(s, 2)
    s.apply_san("e4")
    s.apply_san("e5")
    return s


def test_listed_and_initial_state() -> None:
    assert V in dc.variants()
    assert dc.variants() == sorted(dc.variants())
    s = dc.State(V)
    assert s.variant == V
    assert s.is_chance_node() and s.current_player() == dc.CHANCE
    assert s.max_chance_outcomes() == 6
    assert s.chance_outcomes() == [(i, pytest.approx(1 / 6)) for i in range(6)]
    assert [s.action_to_string(i) for i in range(6)] == ["1", "2", "3", "4", "5", "6"]
    assert s.legal_actions() == [0, 1, 2, 3, 4, 5]
    assert s.legal_actions_mask().shape == (6,)
    assert s.colors is None
    assert s.moves_left == 0
    assert s.throw_records == [[], []]
    assert s.fen() == START + " choose0 0 2 - - -"
    assert s.options == {"max_plies": 1000}
    assert s.num_actions() == 4672


def test_other_variants_have_no_turn_state() -> None:
    s = dc.State("chess")
    assert s.colors is None and s.moves_left is None and s.throw_records is None


def test_colour_choice_tie_and_first_moves() -> None:
    s = dc.State(V)
    throw(s, 3)
    throw(s, 3)
    assert s.colors is None and s.is_chance_node()
    throw(s, 1)
    throw(s, 6)
    assert s.colors == ["black", "white"]
    assert s.throw_records == [[3, 1], [3, 6]]
    assert s.current_player() == 1 and s.moves_left == 1
    s.apply_san("d4")
    assert s.current_player() == 0 and s.moves_left == 1
    s.apply_san("d5")
    assert s.is_chance_node()
    throw(s, 6)  # player 1's second 6 in a row: 3 moves
    assert s.current_player() == 1 and s.moves_left == 3
    assert "moves left this turn: 3" in str(s)
    assert "player 0 black, player 1 white" in str(s)


def test_switch_and_results_per_player() -> None:
    s = dc.State(V, fen="6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1 throw 0 0 wb 566 2")
    throw(s, 6)
    assert s.colors == ["black", "white"]
    assert s.is_chance_node()
    throw(s, 2)
    assert s.throw_records == [[5, 6, 6, 6], [2, 2]]
    assert s.current_player() == 1 and s.moves_left == 2
    s.apply_san("Ra8#")
    assert s.termination() == "checkmate"
    assert s.winner() == 1
    assert s.returns() == [-1.0, 1.0]
    assert "player 1 (white) wins" in str(s)


def test_six_sixes() -> None:
    s = dc.State(V, fen="4k3/8/8/8/8/8/8/R3K3 w - - 0 1 throw 0 0 wb 66666 2")
    throw(s, 6)
    assert s.termination() == "six_sixes"
    assert s.returns() == [-1.0, 1.0]


def test_king_capture_after_forfeit_in_check() -> None:
    s = dc.State(V, fen="3kr3/8/8/8/8/3n4/8/3RK3 w - - 0 1 throw 0 0 wb 3 5")
    throw(s, 1)
    throw(s, 2)
    legal = sans(s)
    assert {"Rxe1", "Nxe1"} <= legal
    s.apply_san("Rxe1")
    assert s.termination() == "king_captured"
    assert s.returns() == [-1.0, 1.0]
    assert s.is_terminal() and s.legal_actions() == []


def test_bad_input_leaves_state_unchanged() -> None:
    s = started()
    fen, hist = s.fen(), s.history()
    # A move when no moves are left: a throw is due.
    with pytest.raises(ValueError, match="outcome"):
        s.apply_san("Nf3")
    with pytest.raises(ValueError, match="not a chance outcome"):
        s.apply_action(1000)
    # An unknown outcome.
    with pytest.raises(ValueError, match="not a chance outcome"):
        s.apply_action(6)
    with pytest.raises(ValueError, match="outcome"):
        s.apply_san("7")
    with pytest.raises(ValueError):
        s.apply_action(-1)
    assert s.fen() == fen and s.history() == hist
    throw(s, 4)
    fen, hist = s.fen(), s.history()
    # A throw outcome at a decision node.
    with pytest.raises(ValueError, match="not a legal move"):
        s.apply_san("4")
    assert 5 not in s.legal_actions()
    with pytest.raises(ValueError, match="not legal"):
        s.apply_action(5)
    assert s.fen() == fen and s.history() == hist


def test_bad_fens_and_options() -> None:
    for fen, msg in [
        ("4k3/8/8/8/8/8/8/R3K3 w - - 0 1 move 0 0 wb 4 2", "moves_left"),
        ("4k3/8/8/8/8/8/8/R3K3 w - - 0 1 dance 0 0 wb 4 2", "phase"),
        ("4k3/8/8/8/8/8/8/R3K3 w - - 0 1 throw 0 0 wb 49 2", "record"),
        ("4k3/8/8/8/8/8/8/R3K3 w - - 0 1 throw 0 0 ww 4 2", "colours"),
        ("4k3/8/8/8/8/8/8/R3K3 w - - 0 1 throw", "turn-state"),
        ("4k3/8/8/8/8/8/8/R3K3 w - - 0 1 over 0 0 wb 4 2", "finished"),
    ]:
        with pytest.raises(ValueError, match=msg):
            dc.State(V, fen=fen)
    with pytest.raises(ValueError, match="unknown option"):
        dc.State(V, dice=3)
    with pytest.raises(ValueError, match="max_plies"):
        dc.State(V, max_plies=0)


def random_game(seed: int, max_plies: int = 200) -> dc.State:
    rng = random.Random(seed)
    s = dc.State(V, max_plies=max_plies)
    while not s.is_terminal():
        s.apply_action(rng.choice(s.legal_actions()))
    return s


def test_fen_round_trip_and_pickle_mid_game() -> None:
    rng = random.Random(5)
    for _ in range(5):
        s = dc.State(V, max_plies=150)
        while not s.is_terminal():
            t = dc.State(V, fen=s.fen(), max_plies=150)
            assert t.fen() == s.fen()
            assert t.current_player() == s.current_player()
            assert t.legal_actions() == s.legal_actions()
            assert t.colors == s.colors and t.throw_records == s.throw_records
            assert t.moves_left == s.moves_left
            s.apply_action(rng.choice(s.legal_actions()))
            if s.plies == 20:
                u = pickle.loads(pickle.dumps(s))
                assert u.fen() == s.fen() and u.history() == s.history()
                v = copy.deepcopy(s)
                assert v.throw_records == s.throw_records
        assert s.termination() in dc.TERMINATIONS


def test_replay_from_history() -> None:
    s = random_game(11)
    t = dc.State(V, max_plies=200)
    for a in s.history():
        t.apply_action(a)
    assert t.fen() == s.fen() and t.returns() == s.returns()


def test_observation() -> None:
    s = dc.State(V, fen="4k3/8/8/8/8/8/8/R3K3 w - - 0 1 move 3 0 bw 444 2")
    planes = s.observation_planes()
    obs = s.observation_tensor()
    assert obs.shape == (len(planes), 8, 8) and obs.dtype == np.float32
    i = planes.index("moves_left_div8_capped")
    assert np.all(obs[i] == np.float32(3 / 8))
    assert np.all(obs[planes.index("opponent_run_length_div6_capped")] == np.float32(0.5))
    # Player 1 commands White here: not "plays_black"; player 0 is Black.
    assert np.all(obs[planes.index("plays_black")] == 0)
    assert np.all(s.observation_tensor(0)[planes.index("plays_black")] == 1)
