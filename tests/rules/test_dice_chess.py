"""Two- and three-dice Dice Chess (docs/rules.md sections 9 and 10) through the
Python API: State, rendering, Gymnasium and PettingZoo specifics."""

import io
import pickle
import xml.etree.ElementTree as ET

import pytest

dc = pytest.importorskip("dicechess")
from dicechess import render  # noqa: E402


def legal_sans(s):
    return sorted(s.action_to_string(a) for a in s.legal_actions())


def test_two_dice_contract():
    s = dc.State("dice_chess")
    assert s.is_chance_node() and s.dice is None and s.dice_left is None
    assert s.num_actions() == 4672 and s.max_chance_outcomes() == 21
    outs = {s.action_to_string(a): p for a, p in s.chance_outcomes()}
    assert len(outs) == 21 and outs["PN"] == pytest.approx(2 / 36) and outs["QQ"] == 1 / 36
    s.apply_san("PN")
    assert s.dice == "PN" and s.fen().endswith(" PN")
    assert len(legal_sans(s)) == 20
    s.apply_san("Nf3")
    assert s.is_chance_node() and s.current_player() == dc.CHANCE
    planes = s.observation_planes()
    assert planes[-6:] == [
        "roll_pawn",
        "roll_knight",
        "roll_bishop",
        "roll_rook",
        "roll_queen",
        "roll_king",
    ]
    with pytest.raises(ValueError, match="die_faces"):
        dc.State("dice_chess", die_faces="PX")


def test_two_dice_disallowed_move_is_explained():
    s = dc.State("dice_chess", fen="4k3/8/8/8/8/8/8/R3K3 w - - 0 1 PK")
    assert s.dice == "PK"
    with pytest.raises(ValueError, match="rook move, but the dice show PK"):
        s.apply_san("Ra8")
    before = s.fen()
    with pytest.raises(ValueError):
        s.apply_san("pass")
    assert s.fen() == before


def test_three_dice_turn_and_state():
    s = dc.State("dice_chess3")
    assert s.max_chance_outcomes() == 56
    outs = {s.action_to_string(a): p for a, p in s.chance_outcomes()}
    assert outs["PNK"] == pytest.approx(6 / 216) and outs["PPK"] == pytest.approx(3 / 216)
    s.apply_san("PNN")
    assert (s.dice, s.dice_left) == ("PNN", "PNN")
    s.apply_san("Nf3")
    assert s.current_player() == 0 and s.dice_left == "PN"
    t = pickle.loads(pickle.dumps(s))
    assert t.fen() == s.fen() == dc.State("dice_chess3", fen=s.fen()).fen()
    s.apply_san("Ng5")
    s.apply_san("e4")
    assert s.is_chance_node() and s.dice is None
    assert s.fen().split()[1] == "b"
    planes = s.observation_planes()
    roles = ("pawn", "knight", "bishop", "rook", "queen", "king")
    assert planes[-6:] == [f"left_{p}" for p in roles]


def test_three_dice_rendering_shows_the_roll_and_the_unused_dice():
    s = dc.State("dice_chess3")
    s.apply_san("PNK")
    s.apply_san("e4")
    assert render.dice_faces(s) == ["P", "N", "K"]
    assert render.dice_used(s) == [True, False, False]
    root = ET.fromstring(render.svg(s))
    classes = [e.get("class") for e in root.iter() if (e.get("class") or "").startswith("die")]
    assert classes == ["die used", "die", "die"]
    assert any("dice left NK" in ln for ln in render.caption(s))
    s2 = dc.State("dice_chess")
    s2.apply_san("PN")
    assert render.dice_faces(s2) == ["P", "N"] and render.dice_used(s2) == [False, False]


def test_gym_ids_registered():
    gymnasium = pytest.importorskip("gymnasium")
    import dicechess.gym  # noqa: F401

    for name in ("DiceChess", "DiceChess3"):
        env = gymnasium.make(f"dicechess/{name}-v0", opponent="random")
        env.reset(seed=1)
        env.close()


def test_pettingzoo_same_agent_acts_several_times_in_a_three_dice_turn():
    pytest.importorskip("pettingzoo")
    from dicechess.pettingzoo import raw_env

    e = raw_env("dice_chess3", max_plies=60)
    e.reset(seed=3)
    agents = []
    while e.agents and len(agents) < 40:
        agent = e.agent_selection
        obs, _, term, trunc, _ = e.last()
        if term or trunc:
            e.step(None)
            continue
        agents.append(agent)
        mask = obs["action_mask"]
        e.step(int(mask.nonzero()[0][0]))
    assert any(a == b for a, b in zip(agents, agents[1:]))


def test_one_die_is_dice_chess_with_an_option() -> None:
    """One die deciding the piece type: ``dice=1`` (docs/rules.md section 9),
    through State, FEN, pickle and both record formats."""
    from dicechess import records

    s = dc.State("dice_chess", dice=1)
    assert s.max_chance_outcomes() == 6
    outs = {s.action_to_string(a): p for a, p in s.chance_outcomes()}
    assert outs == {f: pytest.approx(1 / 6) for f in "PNBRQK"}
    s.apply_san("N")
    assert s.dice == "N" and s.fen().endswith(" N")
    assert legal_sans(s) == ["Na3", "Nc3", "Nf3", "Nh3"]
    with pytest.raises(ValueError, match=r"the die shows N \(only knight moves"):
        s.apply_san("e4")
    opts = s.options
    assert (opts["dice"], opts["doubles"], opts["no_move"]) == (1, "any", "pass")
    again = dc.State("dice_chess", **{**opts, "fen": s.fen()})
    assert again.fen() == s.fen() and legal_sans(again) == legal_sans(s)
    assert pickle.loads(pickle.dumps(s)) == s
    s.apply_san("Nf3")
    s.apply_san("B")  # Black's bishops cannot move: the turn passes
    assert s.is_chance_node() and " w " in s.fen()
    (back,) = records.read_pgn(records.to_pgn(s))
    assert back.state() == s and back.options["dice"] == 1
    buf = io.StringIO()
    records.write_jsonl([s], buf)
    (line,) = records.read_jsonl(io.StringIO(buf.getvalue()))
    assert line.state() == s and line.options == s.options
    assert dc.State("dice_chess:dice=1,no_move=reroll").options["no_move"] == "reroll"


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"dice": 3}, "dice must be an integer from 1 to 2"),
        ({"doubles": "some"}, r'doubles must be one of "any", "rolled"'),
        ({"no_move": "skip"}, r'no_move must be one of "pass", "reroll"'),
        ({"dice": 1, "fen": "8/8/8/8/8/8/8/K6k w - - 0 1 PN"}, "one face of the die"),
    ],
)
def test_dice_rule_options_are_checked(options: dict, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        dc.State("dice_chess", **options)
