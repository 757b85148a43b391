"""Fluky Chess and Metamorph Chess through the Python State API (RULES 2-3)."""

from __future__ import annotations

import pickle

import pytest

dc = pytest.importorskip("dicechess")

START = "2k2/ppppp/5/PPPPP/2K2 w - - 0 1"


def sans(s) -> set[str]:
    return {s.action_to_string(a) for a in s.legal_actions()}


def outcomes(s) -> dict[str, float]:
    return {s.action_to_string(a): p for a, p in s.chance_outcomes()}


@pytest.mark.parametrize("variant", ["fluky", "metamorph"])
def test_contract(variant: str) -> None:
    assert variant in dc.variants()
    s = dc.State(variant)
    assert s.variant == variant
    assert s.fen() == START
    assert s.num_actions() == 1225
    assert dc.num_actions(variant) == 1225
    assert s.max_chance_outcomes() == 4
    assert s.current_player() == 0
    assert sans(s) == {"a3", "b3", "c3", "d3", "e3", "Kb1", "Kd1"}
    mask = s.legal_actions_mask()
    assert mask.shape == (1225,) and mask.sum() == 7
    s.apply_san("c3")
    assert s.is_chance_node() and s.current_player() == dc.CHANCE
    assert s.fen() == "2k2/ppppp/2P2/PP1PP/2K2 b - - 0 1 c3"
    assert outcomes(s) == pytest.approx({"P": 0.5, "N": 1 / 6, "B": 1 / 6, "R": 1 / 6})
    assert [a for a, _ in s.chance_outcomes()] == [0, 1, 2, 3]
    assert s.legal_actions_mask().shape == (4,)
    text = str(s)
    assert "roll pending" in text and "c3" in text
    s.apply_san("N")
    assert s.current_player() == 1
    assert s.fen() == "2k2/ppppp/2N2/PP1PP/2K2 b - - 0 1"
    assert " N " in str(s)
    obs = s.observation_tensor()
    assert obs.shape == (len(s.observation_planes()), 5, 5)
    assert "die_to_roll" in s.observation_planes()
    assert s.history() == [s.history()[0], 1]
    opts = s.options
    assert opts["roll_skip_on_check"] == ("any" if variant == "metamorph" else "moved_piece")
    assert opts["die_faces"] == "PPPNBR" and opts["max_plies"] == 400


def test_pending_roll_fen_round_trip() -> None:
    s = dc.State("fluky")
    s.apply_san("e3")
    t = dc.State("fluky", fen=s.fen())
    assert t.is_chance_node()
    assert t.fen() == s.fen()
    assert outcomes(t) == outcomes(s)


def test_discovered_check_differs() -> None:
    fen = "k4/5/N4/5/R3K w - - 0 1"
    f = dc.State("fluky", fen=fen)
    f.apply_san("Nc2+")
    assert f.is_chance_node()
    m = dc.State("metamorph", fen=fen)
    m.apply_san("Nc2+")
    assert m.current_player() == 1


def test_roll_mates() -> None:
    s = dc.State("fluky", fen="k4/4R/3B1/1P3/4K w - - 0 1")
    s.apply_san("b3")
    c = s.clone()
    s.apply_san("N")
    assert s.is_terminal() and s.termination() == "checkmate"
    assert s.returns() == [1.0, -1.0]
    c.apply_san("P")
    assert c.termination() == "stalemate" and c.returns() == [0.0, 0.0]


def test_king_reaches_goal() -> None:
    s = dc.State("metamorph", fen="5/5/5/1k3/4K b - - 0 1")
    s.apply_san("Kc1")
    assert s.termination() == "king_reached_start"
    assert s.winner() == 1 and s.returns() == [-1.0, 1.0]
    s = dc.State("fluky", fen="5/1K3/5/4k/5 w - - 0 1", goal_white="a5")
    s.apply_san("Kc5")
    assert not s.is_terminal()


def test_die_faces_option() -> None:
    s = dc.State("fluky", fen="k4/5/2R2/5/4K w - - 0 1", die_faces="PPPPPR")
    s.apply_san("Rd3")
    assert outcomes(s) == pytest.approx({"P": 5 / 6, "R": 1 / 6})
    assert [a for a, _ in s.chance_outcomes()] == [0, 3]
    s = dc.State("fluky", fen="k4/5/2R2/5/4K w - - 0 1", die_faces="NBR")
    s.apply_san("Rd3")
    assert outcomes(s) == pytest.approx({"N": 1 / 3, "B": 1 / 3, "R": 1 / 3})


def test_promotion_san() -> None:
    s = dc.State("fluky", fen="k4/3P1/5/5/4K w - - 0 1")
    assert {"d5=N", "d5=B", "d5=R+"} <= sans(s)
    s.apply_san("d5=R")
    assert s.current_player() == 1
    assert s.fen().startswith("k2R1/")


def test_pickle_mid_game() -> None:
    s = dc.State("metamorph", die_faces="PNBR", max_plies=50)
    s.apply_san("b3")
    assert s.is_chance_node()
    t = pickle.loads(pickle.dumps(s))
    assert t.fen() == s.fen() and t.history() == s.history()
    assert t.options == s.options
    t.apply_san("R")
    assert t.current_player() == 1


def test_max_plies_truncates() -> None:
    s = dc.State("fluky", max_plies=1)
    s.apply_san("a3")
    s.apply_san("P")
    assert s.termination() == "max_plies"
    assert s.returns() == [0.0, 0.0]


# ------------------------------------------------------------------ bad input


def unchanged(s, fn, match: str) -> None:
    fen, hist = s.fen(), s.history()
    with pytest.raises(ValueError, match=match):
        fn()
    assert s.fen() == fen and s.history() == hist


def test_bad_promotions() -> None:
    s = dc.State("fluky", fen="k4/3P1/5/5/4K w - - 0 1")
    unchanged(s, lambda: s.apply_san("d5=Q"), "not a legal move")
    unchanged(s, lambda: s.apply_san("d5=K"), "not a legal move")
    unchanged(s, lambda: s.string_to_action("d4d5q"), "not a legal move")


def test_move_at_chance_node() -> None:
    s = dc.State("fluky")
    s.apply_san("a3")
    unchanged(s, lambda: s.apply_san("b3"), "not an outcome")
    move_id = dc.State("fluky").legal_actions()[0]
    unchanged(s, lambda: s.apply_action(move_id), "not a chance outcome")


def test_bad_outcome_names() -> None:
    s = dc.State("fluky", die_faces="NBR")
    s.apply_san("a3")
    unchanged(s, lambda: s.apply_san("Q"), "not an outcome")
    unchanged(s, lambda: s.apply_san("P"), "not an outcome")  # no pawn face
    unchanged(s, lambda: s.apply_action(0), "not a chance outcome")
    unchanged(s, lambda: s.apply_action(7), "not a chance outcome")


@pytest.mark.parametrize(
    ("fen", "match"),
    [
        ("2k2/ppppp/5/PPQPP/2K2 w - - 0 1", "no queens"),
        ("2k2/ppqpp/5/PPPPP/2K2 w - - 0 1", "no queens"),
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "queens"),
        ("k7/8/8/8/8/8/8/7K w - - 0 1", "ranks"),
        ("2k2/pppppp/5/PPPPP/2K2 w - - 0 1", "files"),
        ("2k2/ppppp/5/PPPPP/2K2 w - - 0 1 c3", "die to roll"),
        ("2k2/ppppp/5/PPPPP/2K2 x - - 0 1", "side to move"),
    ],
)
def test_bad_fens(fen: str, match: str) -> None:
    with pytest.raises(ValueError, match=match):
        dc.State("fluky", fen=fen)


@pytest.mark.parametrize(
    ("opts", "match"),
    [
        ({"die_faces": "PPQ"}, "die_faces"),
        ({"die_faces": ""}, "die_faces"),
        ({"roll_skip_on_check": "sometimes"}, "roll_skip_on_check"),
        ({"goal_white": "z9"}, "goal_white"),
        ({"max_plies": 0}, "max_plies"),
        ({"castling": True}, "unknown option"),
    ],
)
def test_bad_options(opts: dict, match: str) -> None:
    with pytest.raises(ValueError, match=match):
        dc.State("metamorph", **opts)


def test_random_game_replays() -> None:
    import random

    rng = random.Random(5)
    s = dc.State("fluky")
    while not s.is_terminal():
        if s.is_chance_node():
            ids, ps = zip(*s.chance_outcomes())
            s.apply_action(rng.choices(ids, ps)[0])
        else:
            s.apply_action(rng.choice(s.legal_actions()))
    r = dc.State("fluky")
    for a in s.history():
        r.apply_action(a)
    assert r.fen() == s.fen() and r.termination() == s.termination()
    assert s.termination() in dc.TERMINATIONS
