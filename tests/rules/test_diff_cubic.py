"""Differential test: the engine's Cubic Chess against tests/reference/cubic.py.

Most games start from the initial position; a few from plain FENs (the
engine's FEN extension for stocks is not part of the contract, so only
empty stocks are given).  Unmarked: a quick run (250 games).
``slow``: the full count (2,200 games, ``pytest -m slow``).  See
tests/reference/harness.py for reproduction options.
"""

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from reference import harness  # noqa: E402
from reference.cubic import CubicRef  # noqa: E402

SEED = 20240603


# A few games from plain FENs (empty stocks).
SPECIAL = [
    dict(fen=harness.FIFTY_MOVES_FEN),
    dict(fen="4k3/8/8/8/8/8/4P3/4K3 w - - 0 1"),
    dict(fen="r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1"),
    dict(fen="4k3/pp6/8/8/8/8/6PP/4K3 b - - 0 1"),
]

# Every run must see each of these rule events and terminations at least once.
EVENTS = [
    "rotation",
    "rotation_N",
    "rotation_B",
    "rotation_R",
    "rotation_Q",
    "rotation_gives_check",
    "pawn_diagonal_two_step",
    "pawn_straight_two_step",
    "pawn_on_last_rank",
    "capture_to_stock",
    "castling",
]
TERMINATIONS = harness.CHESS_TERMINATIONS


def no_outcome(ref, outcomes):
    raise AssertionError("Cubic Chess has no chance nodes")


class Policy(harness.ChessPolicy):
    def __init__(self, rng, p_rotation, **kwargs):
        super().__init__(rng, **kwargs)
        self.p_rotation = p_rotation

    def __call__(self, ref, sans):
        if self.rng.random() < self.p_rotation:
            rotations = [s for s in sans if "(" in s]
            if rotations:
                return self.rng.choice(rotations)
        return super().__call__(ref, sans)


def setup(opts, rng):
    policy = Policy(
        rng,
        p_rotation=rng.choice([0.0, 0.05, 0.3]),
        p_check=0.15,
        p_capture=0.3,
        p_shuffle=rng.choice([0, 0, 0.3, 0.8]),
    )
    return harness.Setup("cubic", opts, CubicRef(**opts), no_outcome, policy)


def test_diff_cubic_quick():
    harness.run_chess_games(SEED, SPECIAL, setup, 250, 40, EVENTS, TERMINATIONS)


@pytest.mark.slow
def test_diff_cubic_full():
    harness.run_chess_games(SEED, SPECIAL, setup, 2200, 200, EVENTS, TERMINATIONS)
