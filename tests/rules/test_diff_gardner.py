"""Differential test: the engine's Gardner minichess against
tests/reference/gardner.py (a plain-Python 5x5 move generator).

Perft from the start position (depths 1..5: 7, 53, 506, 4775, 52512) and the full legal-move sets of
random games, compared move for move through the engine's UCI parser.
No published Gardner perft counts were found (searched: Fairy-Stockfish's
perft script, chessprogramming pages); the reference is the independent check.
"""

import random
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import dicechess as dc  # noqa: E402
from reference.gardner import START_FEN, GardnerRef, parse_board, perft  # noqa: E402

SEED = 20261124


@pytest.mark.parametrize("depth", [1, 2, 3, 4, 5])
def test_perft_from_the_start_matches_the_reference(depth):
    board = parse_board(START_FEN.split()[0])
    assert dc.perft("gardner", depth) == perft(board, True, depth)


def test_perft_of_a_promotion_position_matches_the_reference():
    fen = "4k/1P3/5/2p2/K4 w - - 0 1"
    board = parse_board(fen.split()[0])
    for depth in (1, 2, 3):
        assert dc.perft("gardner", depth, fen=fen) == perft(board, True, depth)


def play_game(rng, fen, max_plies, seen):
    s = dc.State("gardner", fen=fen, max_plies=max_plies)
    ref = GardnerRef(fen=fen, max_plies=max_plies)
    history = []
    while True:
        where = f"fen {s.fen()} after {' '.join(history)}"
        assert s.termination() == ref.termination(), where
        assert s.fen().split()[0] == ref.fen_board(), where
        if ref.node() == "terminal":
            assert s.is_terminal() and s.returns() == ref.returns(), where
            seen.add(ref.termination())
            return
        moves = ref.legal_moves()
        actions = {s.string_to_action(m): m for m in moves}
        assert len(actions) == len(moves), where
        assert sorted(actions) == s.legal_actions(), where
        # Captures and promotions first half of the time, so games reach endings.
        forcing = [m for m in moves if len(m) == 5 or ref._moves[m][1] in ref.board]
        uci = rng.choice(forcing if forcing and rng.random() < 0.5 else moves)
        history.append(uci)
        s.apply_action(s.string_to_action(uci))
        ref.apply_move(uci)
        seen.update(k for k, v in ref.events.items() if v)


def test_random_games_match_the_reference():
    rng = random.Random(SEED)
    seen = set()
    fens = [START_FEN, "4k/1P3/5/2p2/K4 w - - 0 1", "k4/5/1K3/5/4R w - - 0 1"]
    for game in range(240):
        play_game(rng, fens[game % len(fens)], 120 if game % 4 else 400, seen)
    for what in ("checkmate", "stalemate", "threefold_repetition", "max_plies", "promotion"):
        assert what in seen, f"no game reached {what}"
