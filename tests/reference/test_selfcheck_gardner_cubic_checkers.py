"""Hand-checked positions for the Gardner and Cubic Checkers references
themselves (no engine involved), so that the differential tests compare the
engine with something known to follow docs/rules.md §7-8."""

from .cubic_checkers import CubicCheckersRef
from .gardner import START_FEN, GardnerRef, parse_board, perft


def test_gardner_start_and_pawn_rules():
    ref = GardnerRef()
    assert ref.legal_moves() == sorted(["a2a3", "b2b3", "c2c3", "d2d3", "e2e3", "b1a3", "b1c3"])
    ref = GardnerRef(fen="4k/P4/5/5/K4 w - - 0 1")
    assert {"a4a5q", "a4a5r", "a4a5b", "a4a5n"} <= set(ref.legal_moves())
    assert perft(parse_board(START_FEN.split()[0]), True, 1) == 7


def test_gardner_mate_and_stalemate():
    ref = GardnerRef(fen="k4/5/1K3/5/4R w - - 0 1")
    ref.apply_move("e1e5")
    assert ref.termination() == "checkmate" and ref.returns() == [1, -1]
    ref = GardnerRef(fen="k4/5/2K2/5/1R3 w - - 0 1")
    ref.apply_move("b1b4")
    assert ref.termination() == "stalemate"


def test_cubic_checkers_jump_rules():
    facing = "3p1p1p/8/8/8/3b4/2B5/8/P1P1P3 w - - 0 1"
    assert all("-" in m for m in CubicCheckersRef(fen=facing).legal_steps())
    ref = CubicCheckersRef(fen=facing.replace(" w - ", " w R "))
    assert ref.legal_steps() == ["c3xe5", "c3xf6", "c3xg7"]
    ref = CubicCheckersRef(fen="1b5n/8/3r3n/8/3B4/8/1p6/P1R3P1 w R - 0 1")
    assert ref.whole_moves() == ["c1xa3xe7", "c1xa3xf8"]
    ref.apply_step("c1xa3")
    assert ref.fen() == "1b5n/8/3r3n/8/3B4/R7/1p6/P5P1 w R - 0 1 c1xa3"
    ref.apply_step("a3xe7")
    assert ref.fen() == "1b5n/4R3/3b3n/8/3B4/8/8/P5P1 b R e7 0 1"


def test_cubic_checkers_endings():
    ref = CubicCheckersRef(fen="5P1p/6p1/5P1P/8/3P4/P7/1p6/p1P5 w - - 0 1")
    ref.apply_step("d4-c3")
    assert ref.termination() == "no_moves" and ref.returns() == [1, -1]
    ref = CubicCheckersRef(fen="1p1p1p1p/8/8/8/8/2B5/8/P1P1P3 w - - 19 10")
    ref.apply_step("c3-d4")
    assert ref.termination() == "no_jumps" and ref.returns() == [0, 0]
    ref = CubicCheckersRef(fen="7n/8/3r3n/8/3B4/8/1p6/P1R3P1 w R - 0 1")
    ref.apply_step("c1xa3")
    ref.apply_step("a3xf8")
    assert ref.termination() == "cubes_left" and ref.returns() == [1, -1]
