"""Differential test: the engine's two-dice Dice Chess against
tests/reference/dice_chess.py (python-chess).

Unmarked: a quick run (250 games).  ``slow``: the full count (1,500 games,
``pytest -m slow``).  See tests/reference/harness.py for reproduction options.
"""

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from reference import harness  # noqa: E402
from reference.dice_chess import DiceChessRef  # noqa: E402

SEED = 20261124

# Start positions that make rare rules happen (all legal FENs, or with a
# check left standing).
SPECIAL = [
    dict(fen=harness.EN_PASSANT_FEN),
    dict(fen=harness.CASTLING_FEN),
    dict(fen=harness.PROMOTION_FEN),
    dict(fen=harness.FIFTY_MOVES_FEN),
    dict(fen=harness.LOW_MATERIAL_FEN),
    # In check with few answers: passes in check, then king captures.
    dict(fen="4r2k/8/8/8/8/8/8/N3K3 w - - 0 1"),
    dict(fen="7k/6r1/8/8/8/8/8/B5K1 w - - 0 1"),
    dict(fen="r3k2r/8/8/8/4q3/8/8/R3K2R w KQkq - 0 1"),
    # Stalemate and checkmate close at hand.
    dict(fen="7k/5Q2/6K1/8/8/8/8/8 b - - 0 1"),
    dict(fen="k7/8/1K6/8/8/8/8/7Q w - - 0 1"),
    dict(fen="6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1"),
    # Custom dice.
    dict(die_faces="PPNNBK"),
    dict(die_faces="QK"),
    # The dice rule set's options.
    dict(dice=1),
    dict(dice=1, no_move="reroll", fen="4r2k/8/8/8/8/8/8/N3K3 w - - 0 1"),
    dict(doubles="rolled", die_faces="PNBRQKK"),
    dict(doubles="rolled", no_move="reroll", fen=harness.CASTLING_FEN),
]

EVENTS = [
    "forced_pass",
    "pass_in_check",
    "king_capture",
    "doubles",
    "castling",
    "castling_with_rook",
    "en_passant",
    "promotion",
    "checkmate",
    "stalemate",
]
TERMINATIONS = harness.CHESS_TERMINATIONS + ("king_captured",)


def extra_check(game, kind):
    if kind == "decision":
        game.check_equal(harness.attr_value(game.state, "dice"), game.ref.dice(), "dice")


def setup(opts, rng):
    policy = harness.ChessPolicy(
        rng, p_check=0.3, p_capture=0.3, p_pass=0.0, p_shuffle=rng.choice([0, 0, 0.3, 0.8])
    )
    return harness.Setup(
        "dice_chess",
        opts,
        DiceChessRef(**opts),
        lambda ref, outcomes: harness.sample_outcome(rng, outcomes),
        policy,
        extra_check,
    )


def test_diff_dice_chess_quick():
    harness.run_chess_games(SEED, SPECIAL, setup, 250, 25, EVENTS, TERMINATIONS)


@pytest.mark.slow
def test_diff_dice_chess_full():
    harness.run_chess_games(SEED, SPECIAL, setup, 1500, 150, EVENTS, TERMINATIONS)
