"""Self-checks of the reference implementations (no engine needed).

Hand-checked positions for the tricky rules of docs/rules.md, and random
reference-only games that must end without errors.
"""

import random
from fractions import Fraction

import chess
import pytest

from .cubic import CubicRef
from .fluky import FlukyRef
from .rmnc import RmncRef, moves_for_throw, run_length
from .san8 import san_body
from .vegas import VegasRef

# ---------------------------------------------------------------- helpers


def play_random(ref, rng, limit=100000):
    steps = 0
    while ref.node() != "terminal":
        steps += 1
        assert steps < limit, "game does not end"
        if ref.node() == "chance":
            outcomes = ref.chance_outcomes()
            assert sum(outcomes.values()) == 1
            names = sorted(outcomes)
            ref.apply_outcome(rng.choices(names, [float(outcomes[n]) for n in names])[0])
        else:
            assert ref.current_player() in (0, 1)
            moves = sorted(ref.legal_moves())
            assert moves
            checks = [m for m in moves if m[-1] in "+#"]
            if checks and rng.random() < 0.2:
                ref.apply_move(rng.choice(checks))
            else:
                ref.apply_move(rng.choice(moves))
    assert ref.termination() is not None
    r = ref.returns()
    assert r in ([0, 0], [1, -1], [-1, 1])
    if ref.termination() in ("stalemate", "threefold_repetition", "fifty_moves"):
        assert r == [0, 0]
    if ref.termination() in ("insufficient_material", "max_plies"):
        assert r == [0, 0]
    if ref.termination() in ("checkmate", "king_captured", "king_reached_start", "six_sixes"):
        assert r != [0, 0]
    return ref


# ---------------------------------------------------------------- SAN


def test_san_body_matches_python_chess():
    rng = random.Random(1)
    checked = 0
    for _ in range(40):
        board = chess.Board()
        for _ in range(rng.randint(0, 120)):
            legal = list(board.legal_moves)
            if not legal or board.is_game_over():
                break
            for m in legal:
                expected = board.san(m)
                body = san_body(board, m, legal)
                assert expected.rstrip("+#") == body, (board.fen(), m)
                checked += 1
            board.push(rng.choice(legal))
    assert checked > 10000


def test_san_body_disambiguation():
    # Three queens can reach d4 (rank, file and square disambiguation).
    board = chess.Board("6k1/8/8/8/Q7/8/8/Q2QK3 w - - 0 1")
    legal = list(board.legal_moves)
    sans = {san_body(board, m, legal) for m in legal if m.to_square == chess.D4}
    assert sans == {"Qa1d4", "Q4d4", "Qdd4"}
    assert {board.san(m) for m in legal if m.to_square == chess.D4} == sans


# ---------------------------------------------------------------- Vegas


def test_vegas_outcomes():
    ref = VegasRef()
    out = ref.chance_outcomes()
    assert len(out) == 30
    assert sum(out.values()) == 1
    assert out["PN"] == Fraction(2, 36)
    assert out["P*"] == Fraction(2, 36)
    assert out["KQ"] == Fraction(1, 36)
    assert out["B*"] == Fraction(1, 36)


def test_vegas_dice_restrict_moves():
    ref = VegasRef()
    ref.apply_outcome("NQ")
    assert ref.legal_moves() == {"Na3", "Nc3", "Nf3", "Nh3"}
    assert ref.dice() == "NQ"
    ref = VegasRef()
    ref.apply_outcome("P*")
    assert len(ref.legal_moves()) == 21 and "pass" in ref.legal_moves()
    ref = VegasRef()
    ref.apply_outcome("RQ")  # nothing can move: forced pass, no decision
    assert ref.node() == "chance" and ref.board.turn == chess.BLACK and ref.plies == 0


def test_vegas_castling_is_a_king_move_promotion_a_pawn_move():
    ref = VegasRef(fen="4k3/8/8/8/8/8/8/4K2R w K - 0 1")
    ref.apply_outcome("KN")
    assert ref.legal_moves() == {"Kd1", "Kd2", "Ke2", "Kf2", "Kf1", "O-O"}
    ref = VegasRef(fen="4k3/8/8/8/8/8/8/4K2R w K - 0 1")
    ref.apply_outcome("RN")
    assert "O-O" not in ref.legal_moves() and "Rh8+" in ref.legal_moves()
    ref = VegasRef(fen="4k3/P7/8/8/8/8/8/4K3 w - - 0 1")
    ref.apply_outcome("PN")
    assert ref.legal_moves() == {"a8=Q+", "a8=R+", "a8=B", "a8=N"}


def test_vegas_check_then_free_move():
    ref = VegasRef(fen="4k3/8/8/8/8/8/8/R3K3 w Q - 0 1")
    ref.apply_outcome("RQ")
    ref.apply_move("Ra8+")
    # Black is in check: no roll, must evade with any piece.
    assert ref.node() == "decision" and ref.dice() is None
    assert ref.legal_moves() == {"Kd7", "Ke7", "Kf7"}
    ref.apply_move("Ke7")
    # White gave check last turn: no roll, any move or pass.
    assert ref.node() == "decision" and ref.current_player() == 0
    assert "pass" in ref.legal_moves() and "Kd1" in ref.legal_moves()
    ref.apply_move("pass")
    # Black rolls again; then White rolls (the free move is used up).
    assert ref.node() == "chance" and ref.board.turn == chess.BLACK
    ref.apply_outcome("KQ")
    ref.apply_move("Kd6")
    assert ref.node() == "chance" and ref.board.turn == chess.WHITE
    assert ref.plies == 4


def test_vegas_stalemate_ruling():
    fen = "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1"
    ref = VegasRef(fen=fen)
    assert ref.node() == "chance"  # stalemated, not in check: still rolls
    ref.apply_outcome("KP")
    assert ref.termination() == "stalemate" and ref.returns() == [0, 0]
    ref = VegasRef(fen=fen)
    ref.apply_outcome("PN")  # no king: the turn passes
    assert ref.node() == "chance" and ref.board.turn == chess.WHITE
    ref = VegasRef(fen=fen)
    ref.apply_outcome("P*")  # optional but no legal move: passes too
    assert ref.node() == "chance" and ref.board.turn == chess.WHITE
    ref = VegasRef(fen=fen, die_b="PNBRK*")
    ref.apply_outcome("PK")  # a king on die B also draws
    assert ref.termination() == "stalemate"


def test_vegas_checkmate():
    ref = VegasRef(fen="6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1")
    ref.apply_outcome("RP")
    assert "Ra8#" in ref.legal_moves()
    ref.apply_move("Ra8#")
    assert ref.termination() == "checkmate" and ref.returns() == [1, -1]


def test_vegas_threefold_ignores_passes():
    ref = VegasRef()
    shuffle = ("Nf3", "Nf6", "Ng1", "Ng8")
    for san in shuffle:
        ref.apply_outcome("NQ")
        ref.apply_move(san)
    # The initial position has been seen twice.  Two forced passes bring it
    # back with White to move, but a pass records no key.
    ref.apply_outcome("RQ")
    ref.apply_outcome("RQ")
    assert ref.node() == "chance" and ref.board.turn == chess.WHITE
    for i, san in enumerate(shuffle):
        assert ref.node() == "chance", i
        ref.apply_outcome("NQ")
        ref.apply_move(san)
    assert ref.termination() == "threefold_repetition"


def test_vegas_fifty_moves():
    ref = VegasRef(fen="8/8/4k3/8/8/2K5/8/R7 w - - 99 80")
    ref.apply_outcome("RQ")
    ref.apply_move("Ra2")
    assert ref.termination() == "fifty_moves"


# ---------------------------------------------------------------- RMNC


def test_rmnc_throw_table():
    for d in (2, 3, 4, 5):
        assert moves_for_throw(d, 1) == 1
        for n in range(2, 9):
            assert moves_for_throw(d, n) == n
    for n in range(1, 9):
        assert moves_for_throw(1, n) == n - 1
    assert [moves_for_throw(6, n) for n in range(1, 7)] == [2, 3, "switch", 5, 6, "lose"]
    assert run_length([6, 1, 6, 6]) == 2
    assert run_length([3]) == 1
    assert run_length([1, 1, 1]) == 3


def rmnc_after_colours(fen=chess.STARTING_FEN, throws=("6", "2")):
    ref = RmncRef(fen=fen)
    for t in throws:
        ref.apply_outcome(t)
    return ref


def test_rmnc_colour_choosing_and_first_moves():
    ref = RmncRef()
    ref.apply_outcome("4")
    ref.apply_outcome("4")  # tie: throw again
    assert ref.node() == "chance" and ref.colors() is None
    ref.apply_outcome("2")
    ref.apply_outcome("5")
    assert ref.colors() == ["black", "white"]
    assert ref.throw_records() == [[4, 2], [4, 5]]
    # First White move and first Black move: no throw.
    assert ref.node() == "decision" and ref.current_player() == 1 and ref.moves_left() == 1
    ref.apply_move("e4")
    assert ref.node() == "decision" and ref.current_player() == 0
    ref.apply_move("e5")
    assert ref.node() == "chance"
    # Player 1 has [4, 5]; a 5 now is a run of two: two moves.
    ref.apply_outcome("5")
    assert ref.moves_left() == 2 and ref.current_player() == 1


def test_rmnc_sixes_run_including_colour_throws():
    ref = rmnc_after_colours(throws=("6", "2"))  # player 0 is White, record [6]
    ref.apply_move("e4")
    ref.apply_move("e5")
    ref.apply_outcome("6")  # player 0: [6, 6]: a run of two 6s: three moves
    assert ref.moves_left() == 3
    ref.apply_move("Nf3")
    assert ref.moves_left() == 2 and ref.current_player() == 0
    ref.apply_move("Nc3")
    ref.apply_move("Bc4")
    ref.apply_outcome("3")  # player 1: [2, 3]: one move
    assert ref.moves_left() == 1
    ref.apply_move("Nc6")
    ref.apply_outcome("6")  # player 0: third 6 in a row: switch, forfeit
    assert ref.colors() == ["black", "white"]
    assert ref.node() == "chance" and ref.thrower() == 1  # player 1 now White
    assert ref.board.turn == chess.WHITE
    ref.apply_outcome("1")  # player 1: [2, 3, 1]: forfeit
    assert ref.node() == "chance" and ref.thrower() == 0
    ref.apply_outcome("6")  # player 0 (Black now): fourth 6: five moves
    assert ref.moves_left() == 5 and ref.current_player() == 0
    for san in ("a6", "b6", "h6", "g6", "Rb8"):
        ref.apply_move(san)
    ref.apply_outcome("4")  # player 1: [2, 3, 1, 4]: one move
    assert ref.moves_left() == 1
    ref.apply_move("a3")
    ref.apply_outcome("6")  # player 0: fifth 6: six moves
    assert ref.moves_left() == 6
    for san in ("a5", "b5", "h5", "g5", "f6", "d6"):
        ref.apply_move(san)
    ref.apply_outcome("4")  # player 1: [2, 3, 1, 4, 4]: a run of two: two moves
    assert ref.moves_left() == 2
    ref.apply_move("a4")
    ref.apply_move("b3")
    assert ref.throw_records() == [[6, 6, 6, 6, 6], [2, 3, 1, 4, 4]]
    ref.apply_outcome("6")  # player 0: sixth 6 in a row: loses
    assert ref.termination() == "six_sixes" and ref.returns() == [-1, 1]


def test_rmnc_ones():
    ref = rmnc_after_colours(throws=("2", "1"))  # player 0 White; player 1 [1]
    ref.apply_move("e4")
    ref.apply_move("e5")
    ref.apply_outcome("3")
    ref.apply_move("Nf3")
    ref.apply_outcome("1")  # player 1: [1, 1]: n - 1 = one move
    assert ref.moves_left() == 1 and ref.current_player() == 1
    ref.apply_move("Nc6")
    ref.apply_outcome("2")
    ref.apply_move("Nc3")
    ref.apply_outcome("1")  # player 1: [1, 1, 1]: a run of three 1s: two moves
    assert ref.moves_left() == 2 and ref.throw_records()[1] == [1, 1, 1]


def test_rmnc_check_ends_turn_and_king_capture():
    ref = rmnc_after_colours(fen="4k3/8/8/8/8/8/8/R3K3 w - - 0 1", throws=("6", "2"))
    ref.apply_move("Ra7")
    ref.apply_move("Kf8")
    ref.apply_outcome("6")  # three moves
    ref.apply_move("Ra6")
    ref.apply_move("Ra8+")  # check: the turn ends at once
    assert ref.node() == "chance" and ref.thrower() == 1
    ref.apply_outcome("1")  # Black [2, 1]: forfeit, the check stays
    assert ref.node() == "chance" and ref.thrower() == 0
    ref.apply_outcome("4")
    assert "Rxf8" in ref.legal_moves()  # capturing the king, no suffix
    ref.apply_move("Rxf8")
    assert ref.termination() == "king_captured" and ref.returns() == [1, -1]


def test_rmnc_king_capture_with_pinned_piece():
    # Black's king on a2 is left in check by the e2 rook, which is pinned.
    ref = rmnc_after_colours(fen="4r3/8/8/8/8/8/k3R3/4K3 w - - 0 1")
    moves = ref.legal_moves()
    assert "Rxa2" in moves and "Re7" in moves and "Rxe8" in moves
    assert "Rb2" not in moves and "Rd2" not in moves
    ref.apply_move("Re7")  # a non-capturing move: the check is gone, turn ends
    assert ref.node() == "decision" and ref.current_player() == 1


def test_rmnc_en_passant_only_right_after_the_double_step():
    fen = "4k3/8/8/8/3p4/8/4P3/4K3 w - - 0 1"
    ref = rmnc_after_colours(fen=fen)
    ref.apply_move("e4")
    assert "dxe3" in ref.legal_moves()
    ref = rmnc_after_colours(fen=fen)
    ref.apply_move("Kf1")
    ref.apply_move("Kd8")
    ref.apply_outcome("6")  # three moves
    ref.apply_move("e4")
    assert ref.board.turn == chess.WHITE and ref.board.ep_square is None
    ref.apply_move("Kg1")
    ref.apply_move("Kh1")
    ref.apply_outcome("3")
    assert "dxe3" not in ref.legal_moves()
    # The opponent's forfeit also loses the right.
    ref = rmnc_after_colours(fen=fen)
    ref.apply_move("Kf1")
    ref.apply_move("Kd8")
    ref.apply_outcome("3")
    ref.apply_move("e4")
    ref.apply_outcome("2")  # Black [2, 2]: two moves
    assert "dxe3" in ref.legal_moves()


def test_rmnc_stalemate_mid_turn():
    # White's only mobile units are the a5 and c5 pawns, one step each.
    fen = "8/p1p5/8/P1P3p1/6P1/4bk1p/7P/7K w - - 0 1"
    ref = rmnc_after_colours(fen=fen)
    assert ref.legal_moves() == {"a6", "c6"}
    ref.apply_move("c6")
    ref.apply_move("Bd4")
    ref.apply_outcome("6")  # three moves; after the first White has none
    ref.apply_move("a6")
    assert ref.termination() == "stalemate" and ref.returns() == [0, 0]


def test_rmnc_stalemate_at_turn_start():
    ref = rmnc_after_colours(fen="7k/5Q2/8/6K1/8/8/8/8 w - - 0 1")
    ref.apply_move("Kg6")  # Black, to move next, has no legal move
    assert ref.termination() == "stalemate"


# ---------------------------------------------------------------- Cubic


def test_cubic_pawn_moves():
    # The c2 pawn: d3 is occupied, so c2-e4 is blocked; c2-a4 is free.
    ref = CubicRef(fen="4k3/8/8/8/8/3b4/2P5/4K3 w - - 0 1")
    pawn = {m for m in ref.legal_moves() if not m.startswith("K")}
    assert pawn == {"c3", "c2-c4", "c2-a4", "cxd3"}
    # The landing square blocked: e4 occupied by an own piece.
    ref = CubicRef(fen="4k3/8/8/8/4N3/8/2P5/4K3 w - - 0 1")
    assert {"c3", "c2-c4", "c2-a4"} <= ref.legal_moves() and "c2-e4" not in ref.legal_moves()
    # Two steps from any rank; the crossed d5 is occupied, so e4-c6 is blocked.
    ref = CubicRef(fen="4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1")
    pawn = {m for m in ref.legal_moves() if not m.startswith("K")}
    assert pawn == {"e5", "e4-e6", "e4-g6", "exd5"}
    # No en passant after a straight two-step.
    ref = CubicRef(fen="4k3/3p4/8/4P3/8/8/8/4K3 b - - 0 1")
    ref.apply_move("d7-d5")
    assert "exd6" not in ref.legal_moves() and "e6" in ref.legal_moves()


def test_cubic_black_pawns_and_checks():
    ref = CubicRef(fen="4k3/4p3/8/8/8/8/8/3K4 b - - 0 1")
    assert {"e6", "e7-e5", "e7-c5", "e7-g5"} <= ref.legal_moves()
    # A pawn on c5 or e5 attacks d4: both two-steps give check.
    ref = CubicRef(fen="4k3/4p3/8/8/3K4/8/8/8 b - - 0 1")
    assert {"e7-c5+", "e7-e5+", "e6"} <= ref.legal_moves()


def test_cubic_no_promotion_and_rotation():
    ref = CubicRef(fen="4k3/P7/8/8/8/8/8/4K3 w - - 0 1", stock={"white": "N"})
    assert "a8" in ref.legal_moves() and not any("=" in m for m in ref.legal_moves())
    assert "a7(N)" in ref.legal_moves()
    ref.apply_move("a8")
    ref.apply_move("Kd7")
    assert "a8(N)" in ref.legal_moves()
    assert not any(m.startswith("a8") and m != "a8(N)" for m in ref.legal_moves())
    ref.apply_move("a8(N)")
    assert ref.board.piece_at(chess.A8) == chess.Piece(chess.KNIGHT, chess.WHITE)
    assert ref.stock[chess.WHITE][chess.KNIGHT] == 0


def test_cubic_rotation_gives_mate_and_is_illegal_in_check():
    ref = CubicRef(fen="6rk/5Ppp/8/8/8/8/8/4K3 w - - 0 1", stock={"white": "NQ"})
    assert "f7(N)#" in ref.legal_moves()
    assert "f7(Q)" in ref.legal_moves()
    ref.apply_move("f7(N)#")
    assert ref.termination() == "checkmate" and ref.returns() == [1, -1]
    ref = CubicRef(fen="4k3/8/8/8/8/8/1P6/r3K3 w - - 0 1", stock={"white": "R"})
    assert not any("(" in m for m in ref.legal_moves())


def test_cubic_stock_and_fifty_reset():
    ref = CubicRef(fen="4k3/8/8/3n4/4P3/8/8/R3K3 w - - 10 20")
    ref.apply_move("exd5")
    assert ref.stock[chess.WHITE][chess.KNIGHT] == 1
    ref.apply_move("Kd7")
    assert "d5(N)" in ref.legal_moves()
    ref.apply_move("Ra2")
    assert ref.board.halfmove_clock == 2
    ref.apply_move("Kd6")
    ref.apply_move("d5(N)")  # a rotation resets the fifty-move count
    assert ref.board.halfmove_clock == 0


def test_cubic_pawn_cannot_expose_king():
    # The d2 pawn is pinned by the a5 bishop against e1; d2-b4 stays on the line.
    ref = CubicRef(fen="4k3/8/8/b7/8/8/3P4/4K3 w - - 0 1")
    assert {m for m in ref.legal_moves() if not m.startswith("K")} == {"d2-b4"}


# ---------------------------------------------------------------- Fluky


def test_fluky_outcomes():
    ref = FlukyRef()
    assert ref.fen() == "2k2/ppppp/5/PPPPP/2K2 w - - 0 1"
    assert ref.legal_moves() == {"a3", "b3", "c3", "d3", "e3", "Kb1", "Kd1"}
    ref.apply_move("c3")
    assert ref.chance_outcomes() == {
        "P": Fraction(1, 2),
        "N": Fraction(1, 6),
        "B": Fraction(1, 6),
        "R": Fraction(1, 6),
    }
    ref = FlukyRef(die_faces="PNBR")
    ref.apply_move("c3")
    assert set(ref.chance_outcomes().values()) == {Fraction(1, 4)}


def test_fluky_discovered_check_roll_differs_between_variants():
    fen = "2k2/5/2N2/2R2/K4 w - - 0 1"
    fluky = FlukyRef(fen=fen, roll_skip_on_check="moved_piece")
    meta = FlukyRef(fen=fen, roll_skip_on_check="any")
    assert "Ne2+" in fluky.legal_moves() and "Ne2+" in meta.legal_moves()
    fluky.apply_move("Ne2+")
    meta.apply_move("Ne2+")
    assert fluky.node() == "chance"  # the knight itself gives no check: rolled
    assert meta.node() == "decision"  # any check: no roll
    # The moved piece giving check: no roll in either variant.
    for mode in ("moved_piece", "any"):
        ref = FlukyRef(fen=fen, roll_skip_on_check=mode)
        ref.apply_move("Na4+")
        assert ref.node() == "decision"


def test_fluky_last_rank_and_promotion():
    fen = "5/4k/R4/1P3/2K2 w - - 0 1"
    ref = FlukyRef(fen=fen)
    ref.apply_move("Ra5")  # a rook reaching the last rank keeps its face
    assert ref.node() == "decision" and ref.board[20] == (0, "R")
    ref = FlukyRef(fen="2k2/1P3/5/5/2K2 w - - 0 1")
    assert {"b5=N", "b5=B", "b5=R+"} <= ref.legal_moves()
    ref.apply_move("b5=N")  # promotion: no roll
    assert ref.node() == "decision" and ref.board[21] == (0, "N")
    ref = FlukyRef(fen=fen)
    ref.apply_move("Rb3")  # an ordinary move: rolled
    assert ref.node() == "chance"
    ref.apply_outcome("P")
    assert ref.board[11] == (0, "P") and ref.node() == "decision"


def test_fluky_king_reaches_start_and_mate_suffix():
    ref = FlukyRef(fen="5/2K2/5/4k/5 w - - 0 1")
    assert "Kc5" in ref.legal_moves()
    ref.apply_move("Kc5")
    assert ref.termination() == "king_reached_start" and ref.returns() == [1, -1]
    # Rook mate on the edge: no roll (moved piece checks), so '#'.
    ref = FlukyRef(fen="k4/5/1K3/5/4R w - - 0 1")
    assert "Re5#" in ref.legal_moves()
    ref.apply_move("Re5#")
    assert ref.termination() == "checkmate" and ref.returns() == [1, -1]


def test_fluky_roll_can_give_check():
    ref = FlukyRef(fen="k4/5/5/2N2/4K w - - 0 1")
    assert "Na3" in ref.legal_moves()  # a knight on a3 does not attack a5
    ref.apply_move("Na3")
    assert ref.node() == "chance"
    ref.apply_outcome("R")  # a rook on a3 does
    assert ref.node() == "decision" and ref.current_player() == 1
    assert ref.legal_moves() == {"Kb5", "Kb4"}


def test_fluky_threefold():
    ref = FlukyRef(fen="k4/5/5/5/4K w - - 0 1")
    for _ in range(2):
        for san in ("Kd1", "Kb5", "Ke1", "Ka5"):
            ref.apply_move(san)
    assert ref.termination() == "threefold_repetition"


# ---------------------------------------------------------------- random games

CONFIGS = [
    ("vegas", lambda: VegasRef(max_plies=200)),
    ("vegas-dice", lambda: VegasRef(die_a="PNBRKQ", die_b="PNBRK*", max_plies=200)),
    ("rmnc", lambda: RmncRef(max_plies=200)),
    ("cubic", lambda: CubicRef(max_plies=200)),
    ("fluky", lambda: FlukyRef()),
    ("metamorph", lambda: FlukyRef(roll_skip_on_check="any", die_faces="PNBR")),
]


@pytest.mark.parametrize("name,make", CONFIGS, ids=[c[0] for c in CONFIGS])
def test_random_games_end(name, make):
    rng = random.Random(name)
    for _ in range(15):
        play_random(make(), rng)


@pytest.mark.slow
@pytest.mark.parametrize("name,make", CONFIGS, ids=[c[0] for c in CONFIGS])
def test_random_games_end_many(name, make):
    rng = random.Random("many-" + name)
    for _ in range(500):
        play_random(make(), rng)


# ---------------------------------------------------------------- harness


def test_harness_against_fake_engine():
    from . import fake_engine
    from .harness import ChessPolicy, Game, Tally, sample_outcome

    tally = Tally()
    makers = [
        ("vegas", dict(max_plies=60), VegasRef),
        ("random_move_number", dict(max_plies=60), RmncRef),
        ("cubic", dict(max_plies=60), CubicRef),
    ]
    for g, (variant, opts, cls) in enumerate(makers):
        rng = random.Random(g)
        game = Game(fake_engine, variant, opts, cls(**opts), g, g)
        game.play(lambda ref, out, rng=rng: sample_outcome(rng, out), ChessPolicy(rng))
        tally.add(game)
    rng = random.Random(7)
    game = Game(fake_engine, "metamorph", {}, FlukyRef(roll_skip_on_check="any"), 3, 7)
    game.play(lambda ref, out: sample_outcome(rng, out), lambda ref, sans: rng.choice(sans))
    tally.add(game)
    assert tally.games == 4 and tally.decisions > 0


def test_harness_reports_mismatch():
    from . import fake_engine
    from .harness import Game

    class BrokenState(fake_engine.State):
        """Forgets that castling is legal."""

        def _current_labels(self):
            labels = super()._current_labels()
            return [x for x in labels if not x.startswith("O-O")]

    class BrokenModule:
        State = BrokenState
        CHANCE = fake_engine.CHANCE
        TERMINAL = fake_engine.TERMINAL

    fen = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1"
    game = Game(BrokenModule, "cubic", dict(fen=fen), CubicRef(fen=fen), 42, 4242)
    with pytest.raises(AssertionError) as exc:
        game.play(None, lambda ref, sans: sans[0])
    text = str(exc.value)
    assert "legal moves differ" in text and "O-O" in text
    assert "game 42 (seed 4242)" in text and "engine fen:" in text and "history:" in text
