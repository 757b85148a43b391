"""Differential test: the engine's Vegas Fun Chess against tests/reference/vegas.py.

Unmarked: a quick run (300 games).  ``slow``: the full count (2,200 games,
``pytest -m slow``).  See tests/reference/harness.py for reproduction options.
"""

import sys
from functools import partial
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from reference import harness  # noqa: E402
from reference.vegas import VegasRef  # noqa: E402

SEED = 20240601

# Start positions that make rare rules happen (all legal FENs).
SPECIAL = [
    # Black to roll, stalemated: a king on a die draws, otherwise the turn passes.
    dict(fen="7k/5Q2/6K1/8/8/8/8/8 b - - 0 1"),
    dict(fen="k7/2Q5/1K6/8/8/8/8/8 b - - 0 1", die_b="PNBRK*"),
    # Close to the fifty-move rule (the engine must read the halfmove clock).
    dict(fen=harness.FIFTY_MOVES_FEN),
    dict(fen="8/5k2/8/8/8/2KB4/8/7r b - - 92 70"),
    # Close to insufficient material.
    dict(fen=harness.LOW_MATERIAL_FEN),
    dict(fen="8/6b1/5k2/8/2B5/2K5/1P6/8 b - - 0 1"),
    # En passant available at once; castling both ways.
    dict(fen=harness.EN_PASSANT_FEN),
    dict(fen=harness.CASTLING_FEN),
    # Promotions and checks close at hand.
    dict(fen=harness.PROMOTION_FEN),
    # Custom dice.
    dict(die_a="PNBRKQ", die_b="PNBRK*"),
    dict(die_a="KKQQ", die_b="PPN*"),
]

# Every run must see each of these rule events and terminations at least once.
EVENTS = [
    "forced_pass",
    "optional_pass",
    "free_move",
    "free_pass",
    "in_check_turn",
    "stalemate_pass",
    "stalemate_draw",
    "promotion",
    "castling",
    "en_passant",
]
TERMINATIONS = harness.CHESS_TERMINATIONS


def extra_check(game, kind):
    if kind == "decision":
        game.check_equal(harness.attr_value(game.state, "dice"), game.ref.dice(), "dice")


def choose_outcome(rng, ref, outcomes):
    # Uniform over the ordered pairs of faces (36 for the default dice).
    return rng.choice(ref.die_a) + rng.choice(ref.die_b)


def setup(opts, rng):
    policy = harness.ChessPolicy(
        rng, p_check=0.2, p_capture=0.25, p_pass=0.25, p_shuffle=rng.choice([0, 0, 0.3, 0.8])
    )
    outcome = partial(choose_outcome, rng)
    return harness.Setup("vegas", opts, VegasRef(**opts), outcome, policy, extra_check)


def test_diff_vegas_quick():
    harness.run_chess_games(SEED, SPECIAL, setup, 300, 30, EVENTS, TERMINATIONS)


@pytest.mark.slow
def test_diff_vegas_full():
    harness.run_chess_games(SEED, SPECIAL, setup, 2200, 200, EVENTS, TERMINATIONS)
