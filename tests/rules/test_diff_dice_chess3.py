"""Differential test: the engine's three-dice DiceChess against
tests/reference/dice_chess3.py (python-chess, brute-force maximum-dice rule).

Unmarked: a quick run (250 games).  ``slow``: the full count (1,200 games,
``pytest -m slow``).  See tests/reference/harness.py for reproduction options.
"""

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from reference import harness  # noqa: E402
from reference.dice_chess3 import DiceChess3Ref  # noqa: E402

SEED = 20261125

SPECIAL = [
    dict(fen=harness.EN_PASSANT_FEN),
    dict(fen=harness.CASTLING_FEN),
    dict(fen=harness.PROMOTION_FEN),
    # Castling with attacked squares about.
    dict(fen="r3k2r/8/8/8/2b2q2/8/8/R3K2R w KQkq - 0 1"),
    # Shut-in pieces: the maximum-dice rule bites, dice are skipped.
    dict(fen="7k/8/8/8/8/N7/1P1N4/2B4K w - - 0 1"),
    dict(fen="6k1/8/8/8/8/8/2R5/B6K w - - 0 1"),
    # Lone kings and knights: repetitions, turns without a move, 50 turns.
    dict(fen="k7/8/8/8/8/8/8/7K w - - 0 1"),
    dict(fen="6nk/8/8/8/8/8/8/6NK w - - 80 40"),
    dict(fen="7k/8/8/8/8/8/8/K7 w - - 92 1"),
]

EVENTS = [
    "empty_turn",
    "dice_skipped",
    "max_dice_rule",
    "same_piece_again",
    "en_passant",
    "castling",
    "promotion",
    "underpromotion",
    "king_capture_mid_turn",
]
TERMINATIONS = ("king_captured", "threefold_repetition", "fifty_moves", "max_plies")


def extra_check(game, kind):
    if kind == "decision":
        game.check_equal(harness.attr_value(game.state, "dice"), game.ref.dice(), "dice")
        game.check_equal(
            harness.attr_value(game.state, "dice_left"), game.ref.dice_left(), "dice left"
        )


def setup_game(g, rng):
    if g < 3 * len(SPECIAL):
        opts = dict(SPECIAL[g % len(SPECIAL)])
    else:
        opts = {}
    opts["max_plies"] = rng.choice([rng.randint(20, 80), rng.randint(150, 300)])
    policy = harness.ChessPolicy(
        rng, p_check=0.0, p_capture=0.2, p_pass=0.0, p_shuffle=rng.choice([0, 0.5, 0.9])
    )
    return harness.Setup(
        "dice_chess3",
        opts,
        DiceChess3Ref(**opts),
        lambda ref, outcomes: harness.sample_outcome(rng, outcomes),
        policy,
        extra_check,
    )


def test_diff_dice_chess3_quick():
    harness.run_games(SEED, 250, setup_game, EVENTS, TERMINATIONS)


@pytest.mark.slow
def test_diff_dice_chess3_full():
    harness.run_games(SEED, 1200, setup_game, EVENTS, TERMINATIONS)
