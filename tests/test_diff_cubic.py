"""Differential test: the engine's Cubic Chess against tests/reference/cubic.py.

Most games start from the initial position; a few from plain FENs (the
engine's FEN extension for stocks is not part of the contract, so only
empty stocks are given).  Unmarked: a quick run (250 games).
``slow``: the full count (2,200 games, ``pytest -m slow``).  See
tests/reference/harness.py for reproduction options.
"""

import random
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from reference.cubic import CubicRef  # noqa: E402
from reference.harness import (  # noqa: E402
    ChessPolicy,
    Game,
    Tally,
    engine_module,
    selected_games,
)

SEED = 20240603


# A few games from plain FENs (empty stocks).
SPECIAL = [
    dict(fen="8/8/4k3/8/8/2K5/8/R7 w - - 88 80"),
    dict(fen="4k3/8/8/8/8/8/4P3/4K3 w - - 0 1"),
    dict(fen="r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1"),
    dict(fen="4k3/pp6/8/8/8/8/6PP/4K3 b - - 0 1"),
]


def game_options(g, n_games, n_long, rng):
    if g < 3 * len(SPECIAL):
        opts = dict(SPECIAL[g % len(SPECIAL)])
        opts["max_plies"] = rng.randint(150, 250)
        return opts
    if g >= n_games - n_long:
        return {}  # default max_plies (1000)
    return dict(max_plies=rng.randint(150, 250))


def no_outcome(ref, outcomes):
    raise AssertionError("Cubic Chess has no chance nodes")


class Policy(ChessPolicy):
    def __init__(self, rng, p_rotation, **kwargs):
        super().__init__(rng, **kwargs)
        self.p_rotation = p_rotation

    def __call__(self, ref, sans):
        if self.rng.random() < self.p_rotation:
            rotations = [s for s in sans if "(" in s]
            if rotations:
                return self.rng.choice(rotations)
        return super().__call__(ref, sans)


def run(n_games, n_long):
    dc = engine_module()
    tally = Tally()
    for g in selected_games(n_games):
        seed = SEED * 1000003 + g
        rng = random.Random(seed)
        opts = game_options(g, n_games, n_long, rng)
        policy = Policy(
            rng,
            p_rotation=rng.choice([0.0, 0.05, 0.3]),
            p_check=0.15,
            p_capture=0.3,
            p_shuffle=rng.choice([0, 0, 0.3, 0.8]),
        )
        game = Game(dc, "cubic", opts, CubicRef(**opts), g, seed)
        game.play(no_outcome, policy)
        tally.add(game)
    tally.require(
        events=[
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
        ],
        terminations=[
            "checkmate",
            "stalemate",
            "threefold_repetition",
            "fifty_moves",
            "insufficient_material",
            "max_plies",
        ],
    )
    return tally


def test_diff_cubic_quick():
    run(n_games=250, n_long=40)


@pytest.mark.slow
def test_diff_cubic_full():
    run(n_games=2200, n_long=300)
