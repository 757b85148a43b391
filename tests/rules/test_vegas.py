"""Vegas Fun Chess through the Python State API (docs/rules.md section 4)."""

import pickle

import numpy as np
import pytest

dc = pytest.importorskip("dicechess")

START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"


def legal_sans(s):
    return sorted(s.action_to_string(a) for a in s.legal_actions())


def snapshot(s):
    return (s.fen(), s.history(), s.current_player(), s.dice)


def test_contract_and_outcomes():
    s = dc.State("vegas")
    assert "vegas" in dc.variants()
    assert s.variant == "vegas"
    assert s.is_chance_node() and s.current_player() == dc.CHANCE
    assert s.dice is None
    assert s.num_actions() == 4673
    assert s.max_chance_outcomes() == 49
    outs = dict(s.chance_outcomes())
    assert len(outs) == 30
    assert abs(sum(outs.values()) - 1.0) < 1e-12
    names = {s.action_to_string(a): p for a, p in outs.items()}
    assert names["PN"] == pytest.approx(2 / 36)
    assert names["KQ"] == pytest.approx(1 / 36)
    assert s.string_to_action("B*") == 2 * 7 + 6
    assert s.legal_actions_mask().shape == (49,)
    s.apply_action(s.string_to_action("PN"))
    assert s.dice == "PN"
    assert s.current_player() == 0
    assert len(s.legal_actions()) == 20
    assert s.legal_actions_mask().shape == (4673,)
    assert "dice: PN" in str(s)
    obs = s.observation_tensor()
    planes = s.observation_planes()
    assert obs.shape == (len(planes), 8, 8)
    assert obs[planes.index("die_a_pawn")].min() == 1.0
    assert obs[planes.index("die_b_knight")].min() == 1.0
    assert obs[planes.index("free_move")].max() == 0.0
    assert s.options == {"fen": START, "max_plies": 1000, "die_a": "PNBRKP", "die_b": "PNBRQ*"}
    assert dc.State("chess").dice is None


def test_optional_pass_and_free_move():
    s = dc.State("vegas", fen="4k3/8/8/8/8/8/8/R3K3 w - - 0 1")
    s.apply_san("R*")
    assert "pass" in legal_sans(s)
    assert s.string_to_action("pass") == 4672
    s.apply_san("Ra8+")
    assert not s.is_chance_node() and s.current_player() == 1 and s.dice is None
    assert legal_sans(s) == ["Kd7", "Ke7", "Kf7"]
    with pytest.raises(ValueError, match="in check"):
        s.apply_san("pass")
    s.apply_san("Ke7")
    assert s.current_player() == 0 and s.dice is None
    assert s.fen().endswith(" - free")
    assert "free move" in str(s)
    assert "pass" in legal_sans(s)
    s.apply_san("pass")
    assert s.is_chance_node() and s.fen().split()[1] == "b"


def test_bad_inputs_name_the_dice_and_leave_the_state_unchanged():
    s = dc.State("vegas")
    before = snapshot(s)
    with pytest.raises(ValueError, match="not an outcome"):
        s.string_to_action("QQ")
    with pytest.raises(ValueError, match="not a chance outcome"):
        s.apply_action(48)
    assert snapshot(s) == before
    s.apply_san("NB")
    before = snapshot(s)
    with pytest.raises(ValueError, match=r"e4 is a pawn move, but the dice show NB"):
        s.apply_san("e4")
    with pytest.raises(ValueError, match=r"pawn move, but the dice show NB"):
        # The action id of e2e4 (legal on the board, not with these dice).
        s.apply_action(12 * 73 + 1)
    with pytest.raises(ValueError, match=r"passing is not allowed.*NB"):
        s.apply_san("pass")
    with pytest.raises(ValueError, match=r"passing is not allowed.*NB"):
        s.apply_action(4672)
    with pytest.raises(ValueError):
        s.apply_san("Nf6")  # not a legal move at all
    with pytest.raises(ValueError):
        s.apply_action(-1)
    with pytest.raises(ValueError):
        s.apply_action(99999)
    assert snapshot(s) == before


def test_options_validation():
    with pytest.raises(ValueError, match="die_a"):
        dc.State("vegas", die_a="PX")
    with pytest.raises(ValueError, match="die_b"):
        dc.State("vegas", die_b="")
    with pytest.raises(ValueError, match="unknown option"):
        dc.State("vegas", dice="PN")
    with pytest.raises(ValueError, match="max_plies"):
        dc.State("vegas", max_plies=0)
    with pytest.raises(ValueError, match="roll"):
        dc.State("vegas", fen=START + " ZZ -")
    s = dc.State("vegas", die_a="K", die_b="*")
    assert [s.action_to_string(a) for a, _ in s.chance_outcomes()] == ["K*"]


def test_stalemate_ruling():
    s = dc.State("vegas", fen="7k/5Q2/6K1/8/8/8/8/8 b - - 0 1")
    t = s.clone()
    s.apply_san("KP")
    assert s.is_terminal() and s.termination() == "stalemate" and s.returns() == [0, 0]
    t.apply_san("PN")
    assert t.is_chance_node() and t.fen().split()[1] == "w"


def test_pickle_and_fen_roundtrip_mid_game():
    rng = np.random.default_rng(5)
    s = dc.State("vegas", max_plies=300)
    while not s.is_terminal():
        if s.is_chance_node():
            acts, probs = zip(*s.chance_outcomes())
            s.apply_action(int(rng.choice(acts, p=np.array(probs) / sum(probs))))
        else:
            s.apply_action(int(rng.choice(s.legal_actions())))
        if len(s.history()) == 60:
            t = pickle.loads(pickle.dumps(s))
            assert snapshot(t) == snapshot(s)
            assert t.legal_actions() == s.legal_actions()
            u = dc.State("vegas", fen=s.fen(), max_plies=300)
            assert u.fen() == s.fen() and u.legal_actions() == s.legal_actions()
            assert u.dice == s.dice
    assert s.termination() is not None
    replay = dc.State("vegas", max_plies=300)
    for a in s.history():
        replay.apply_action(a)
    assert replay.fen() == s.fen() and replay.termination() == s.termination()
