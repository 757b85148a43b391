"""The Python State contract on orthodox chess: every method and error path."""

from __future__ import annotations

import copy
import pickle
import random

import chess
import numpy as np
import pytest

import dicechess as dc

KIWIPETE = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"


def test_module_constants() -> None:
    assert dc.CHANCE == -1
    assert dc.TERMINAL == -4
    assert dc.TERMINATIONS == [
        "checkmate",
        "king_reached_start",
        "king_captured",
        "stalemate",
        "threefold_repetition",
        "fifty_moves",
        "insufficient_material",
        "six_sixes",
        "max_plies",
        "cubes_left",
        "no_jumps",
        "no_moves",
    ]
    assert "chess" in dc.variants()
    assert dc.variants() == sorted(dc.variants())
    assert dc.num_actions("chess") == 4672


def test_initial_state() -> None:
    s = dc.State("chess")
    assert s.variant == "chess"
    assert s.current_player() == 0
    assert not s.is_chance_node() and not s.is_terminal()
    assert s.chance_outcomes() == []
    assert len(s.legal_actions()) == 20
    assert s.returns() == [0.0, 0.0]
    assert s.termination() is None
    assert s.fen() == "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
    assert s.options == {"max_plies": 1000}
    assert s.plies == 0


def test_mask_matches_legal_actions() -> None:
    s = dc.State("chess", fen=KIWIPETE)
    mask = s.legal_actions_mask()
    assert mask.dtype == np.bool_ and mask.shape == (4672,)
    assert sorted(np.flatnonzero(mask).tolist()) == s.legal_actions()
    assert mask.sum() == 48


def test_strings_round_trip() -> None:
    s = dc.State("chess", fen=KIWIPETE)
    for a in s.legal_actions():
        text = s.action_to_string(a)
        assert s.string_to_action(text) == a
    assert s.action_to_string(s.string_to_action("O-O")) == "O-O"
    assert s.string_to_action("e1g1") == s.string_to_action("O-O")
    assert s.string_to_action("0-0-0") == s.string_to_action("O-O-O")
    assert s.string_to_action("e5-f7") == s.string_to_action("Nxf7")
    assert s.string_to_action("Ne5xf7") == s.string_to_action("Nxf7")
    assert s.string_to_action("d5xe6") == s.string_to_action("dxe6")


def test_promotion_notation() -> None:
    s = dc.State("chess", fen="3r3k/4P3/8/8/8/8/8/K7 w - - 0 1")
    for text, san in [
        ("exd8=Q+", "exd8=Q+"),
        ("e7d8n", "exd8=N"),
        ("e7-e8=R", "e8=R+"),
        ("exd8B", "exd8=B"),
    ]:
        assert s.action_to_string(s.string_to_action(text)) == san
    assert "e8=Q+" in {s.action_to_string(a) for a in s.legal_actions()}


def test_fools_mate_and_returns() -> None:
    s = dc.State("chess")
    for m in ["f3", "e5", "g4"]:
        s.apply_san(m)
    a = s.string_to_action("Qh4")
    assert s.action_to_string(a) == "Qh4#"
    s.apply_action(a)
    assert s.is_terminal()
    assert s.current_player() == dc.TERMINAL
    assert s.termination() == "checkmate"
    assert s.returns() == [-1.0, 1.0]
    assert s.winner() == 1
    assert s.legal_actions() == []


def test_stalemate() -> None:
    s = dc.State("chess", fen="7k/5Q2/6K1/8/8/8/8/8 b - - 0 1")
    assert s.is_terminal() and s.termination() == "stalemate"
    assert s.returns() == [0.0, 0.0]


def test_threefold_repetition() -> None:
    s = dc.State("chess")
    for m in ["Nf3", "Nf6", "Ng1", "Ng8", "Nf3", "Nf6", "Ng1"]:
        s.apply_san(m)
        assert not s.is_terminal()
    s.apply_san("Ng8")
    assert s.termination() == "threefold_repetition"


def test_max_plies_truncates() -> None:
    s = dc.State("chess", max_plies=3)
    for m in ["e4", "e5", "Nf3"]:
        s.apply_san(m)
    assert s.is_terminal()
    assert s.termination() == "max_plies"
    assert s.returns() == [0.0, 0.0]


def test_observation_tensor() -> None:
    s = dc.State("chess")
    planes = s.observation_planes()
    obs = s.observation_tensor()
    assert obs.shape == (len(planes), 8, 8) and obs.dtype == np.float32
    own_pawn = planes.index("own_pawn")
    assert obs[own_pawn, 1].sum() == 8  # White's pawns on rank 2
    s.apply_san("e4")
    black = s.observation_tensor()  # Black's view: board mirrored
    assert black[own_pawn, 1].sum() == 8  # Black's pawns also on "its" rank 2
    assert black[planes.index("plays_black")].all()
    assert black[planes.index("to_move")].all()
    white = s.observation_tensor(0)
    assert not white[planes.index("to_move")].any()
    assert white[planes.index("own_pawn"), 3, 4] == 1.0  # e4


def test_clone_copy_pickle_history() -> None:
    s = dc.State("chess")
    for m in ["e4", "c5", "Nf3"]:
        s.apply_san(m)
    for t in (s.clone(), copy.copy(s), copy.deepcopy(s), pickle.loads(pickle.dumps(s))):
        assert t.fen() == s.fen()
        assert t.history() == s.history()
        assert t.legal_actions() == s.legal_actions()
    c = s.clone()
    c.apply_san("d6")
    assert c.fen() != s.fen()
    # Replay from the history.
    r = dc.State("chess")
    for a in s.history():
        r.apply_action(a)
    assert r.fen() == s.fen()


def test_str_shows_board() -> None:
    text = str(dc.State("chess"))
    assert "r n b q k b n r" in text and "player 0 (white) to move" in text
    assert repr(dc.State("chess")).startswith('State("chess"')


def test_perft() -> None:
    assert dc.perft("chess", 3) == 8902
    assert dc.perft("chess", 3, fen=KIWIPETE) == 97862


# ---------------------------------------------------------------- bad input


def _unchanged(s: dc.State, fn) -> str:  # type: ignore[no-untyped-def]
    before = (s.fen(), s.history(), s.legal_actions())
    with pytest.raises(ValueError) as e:
        fn()
    assert (s.fen(), s.history(), s.legal_actions()) == before
    return str(e.value)


def test_unknown_variant_lists_known() -> None:
    with pytest.raises(ValueError, match="known variants: .*chess"):
        dc.State("chezz")


def test_bad_options() -> None:
    with pytest.raises(ValueError, match='unknown option "foo".*allowed options: fen, max_plies'):
        dc.State("chess", foo=1)
    with pytest.raises(ValueError, match="max_plies must be an integer"):
        dc.State("chess", max_plies=0)
    with pytest.raises(ValueError, match="max_plies must be an integer"):
        dc.State("chess", max_plies="ten")
    with pytest.raises(TypeError, match="option fen must be"):
        dc.State("chess", fen=[1])


@pytest.mark.parametrize(
    "fen, msg",
    [
        ("", "at least the board"),
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP w KQkq - 0 1", "7 ranks"),
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNX w - - 0 1", "unknown piece letter"),
        ("rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1", "more than 8 files"),
        ("8/8/8/8/8/8/8/K7 w - - 0 1", "exactly one king"),
        ("k7/8/8/8/8/8/8/KK6 w - - 0 1", "exactly one king"),
        ("k7/8/8/8/8/8/8/K7 x - - 0 1", "side to move"),
        ("k7/8/8/8/8/8/8/K6R w KQ - 0 1", "castling right"),
        ("k7/8/8/8/8/8/8/K7 w Z - 0 1", "castling field"),
        ("k7/8/8/8/8/8/8/K7 w - e3 0 1", "en-passant"),
        ("k6R/8/8/8/8/8/8/K7 w - - 0 1", "not to move .* is in check"),
        ("k7/8/8/8/8/8/8/K6P w - - 0 1", "pawn on h1"),
        ("k7/8/8/8/8/8/8/K7 w - - x 1", "halfmove"),
    ],
)
def test_bad_fen(fen: str, msg: str) -> None:
    with pytest.raises(ValueError, match=msg):
        dc.State("chess", fen=fen)


def test_illegal_actions_leave_state_unchanged() -> None:
    s = dc.State("chess")
    s.apply_san("e4")
    assert "not legal" in _unchanged(s, lambda: s.apply_action(0))
    assert "out of range" in _unchanged(s, lambda: s.apply_action(10**6))
    assert "non-negative" in _unchanged(s, lambda: s.apply_action(-1))
    assert "not a legal move" in _unchanged(s, lambda: s.apply_san("Ke3"))
    assert "not a legal move" in _unchanged(s, lambda: s.apply_san("xyz"))
    assert "empty" in _unchanged(s, lambda: s.apply_san(""))
    assert "passing is not allowed" in _unchanged(s, lambda: s.apply_san("pass"))
    assert "not legal" in _unchanged(s, lambda: s.action_to_string(0))
    with pytest.raises(TypeError):
        s.apply_action("e5")  # type: ignore[arg-type]


def test_ambiguous_move_text() -> None:
    s = dc.State("chess", fen="k7/8/8/8/8/8/8/KN3N2 w - - 0 1")
    assert "ambiguous" in _unchanged(s, lambda: s.apply_san("Nd2"))
    s.apply_san("Nbd2")


def test_actions_after_game_over() -> None:
    s = dc.State("chess", fen="7k/5Q2/6K1/8/8/8/8/8 b - - 0 1")
    assert "game is over" in _unchanged(s, lambda: s.apply_action(0))
    assert "game is over" in _unchanged(s, lambda: s.apply_san("Kh7"))


def test_bad_observation_player() -> None:
    with pytest.raises(ValueError, match="player must be 0 or 1"):
        dc.State("chess").observation_tensor(2)


def test_unpickle_garbage() -> None:
    with pytest.raises(ValueError, match="not a serialised"):
        dc._core._state_from_bytes(b"\xff\x00garbage")


# ---------------------------------------------------------------- python-chess


def _san_set(board: chess.Board) -> set[str]:
    return {board.san(m) for m in board.legal_moves}


@pytest.mark.parametrize("seed", range(20))
def test_random_games_match_python_chess(seed: int) -> None:
    """Legal SAN sets, FEN and results agree with python-chess on random games."""
    rng = random.Random(seed)
    s = dc.State("chess", max_plies=300)
    b = chess.Board()
    while not s.is_terminal():
        actions = s.legal_actions()
        ours = {s.action_to_string(a) for a in actions}
        assert ours == _san_set(b), b.fen()
        assert s.fen() == b.fen(), b.fen()
        a = rng.choice(actions)
        b.push_san(s.action_to_string(a))
        s.apply_action(a)
    reason = s.termination()
    outcome = b.outcome(claim_draw=False)
    if reason == "max_plies":
        assert s.plies == 300
    elif reason == "threefold_repetition":
        assert b.is_repetition(3)
    elif reason == "fifty_moves":
        assert b.halfmove_clock >= 100
    else:
        assert outcome is not None
        assert outcome.termination.name.lower() == reason
