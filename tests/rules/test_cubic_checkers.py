"""Cubic Checkers and Gardner through the Python API: notation forms, errors,
mid-jump FEN round trips, pickling, observation planes."""

import pickle

import numpy as np
import pytest

import dicechess as dc

TWO_JUMPERS = "1b5n/8/3r3n/8/3B4/8/1p6/P1R3P1 w R - 0 1"


def test_variants_and_terminations_are_listed():
    assert {"cubic_checkers", "gardner"} <= set(dc.variants())
    assert dc.TERMINATIONS[-3:] == ["cubes_left", "no_jumps", "no_moves"]
    assert dc.num_actions("cubic_checkers") == 4672
    assert dc.num_actions("gardner") == 1225


def test_move_text_forms():
    s = dc.State("cubic_checkers")
    a = s.string_to_action("b2-c3")
    assert s.string_to_action("b2c3") == a == s.string_to_action(" B2-C3 ")
    assert s.action_to_string(a) == "b2-c3"
    with pytest.raises(ValueError, match="not a legal move here; legal: "):
        s.string_to_action("b2-b3")
    with pytest.raises(ValueError, match="write c1-d2 or e1xg3"):
        s.string_to_action("Nf3")


def test_a_multi_jump_is_one_decision_per_landing():
    s = dc.State("cubic_checkers", fen=TWO_JUMPERS)
    with pytest.raises(ValueError, match="one landing per action"):
        s.string_to_action("c1xa3xe7")
    s.apply_san("c1xa3")
    assert s.current_player() == 0
    assert s.fen() == "1b5n/8/3r3n/8/3B4/R7/1p6/P5P1 w R - 0 1 c1xa3"
    assert sorted(s.action_to_string(a) for a in s.legal_actions()) == ["a3xe7", "a3xf8"]
    again = dc.State("cubic_checkers", fen=s.fen())
    assert again.legal_actions() == s.legal_actions()
    copy = pickle.loads(pickle.dumps(s))
    assert copy.fen() == s.fen()
    planes = s.observation_planes()
    obs = s.observation_tensor()
    jumping = obs[planes.index("jumping_cube")]
    jumped = obs[planes.index("jumped_cubes")]
    assert jumping.sum() == 1 and jumping[2, 0] == 1  # a3 from White's side
    assert jumped.sum() == 1 and jumped[1, 1] == 1  # b2
    s.apply_san("a3xe7")
    assert s.current_player() == 1
    assert "paused cubes: e7 (white)" in str(s)


def test_bad_fens_are_value_errors():
    for fen in [
        "8/8/8/8/8/8/8/8 w - - 0",
        "1n1r1r1n/b1b1b1b1/8/8/8/8/1B1B1B1B/N1R1R1K1 w - - 0 1",
        TWO_JUMPERS + " c1xe3",
    ]:
        with pytest.raises(ValueError, match="cubic_checkers FEN"):
            dc.State("cubic_checkers", fen=fen)
    with pytest.raises(ValueError, match="castling"):
        dc.State("gardner", fen="rnbqk/ppppp/5/PPPPP/RNBQK w K - 0 1")


def test_gardner_observation_is_5x5_and_mate_is_found():
    s = dc.State("gardner", fen="k4/5/1K3/5/4R w - - 0 1")
    assert s.observation_tensor().shape == (22, 5, 5)
    agent = dc.Agent("expectimax:depth=2")
    assert s.action_to_string(agent.select(s)) == "Re5#"
    assert np.array_equal(s.legal_actions_mask().nonzero()[0], s.legal_actions())
