"""Differential test: the engine's Vegas Fun Chess against tests/reference/vegas.py.

Unmarked: a quick run (300 games).  ``slow``: the full count (2,200 games,
``pytest -m slow``).  See tests/reference/harness.py for reproduction options.
"""

import random
import sys
from functools import partial
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from reference.harness import (  # noqa: E402
    ChessPolicy,
    Game,
    Tally,
    _value,
    engine_module,
    selected_games,
)
from reference.vegas import VegasRef  # noqa: E402

SEED = 20240601

# Start positions that make rare rules happen (all legal FENs).
SPECIAL = [
    # Black to roll, stalemated: a king on a die draws, otherwise the turn passes.
    dict(fen="7k/5Q2/6K1/8/8/8/8/8 b - - 0 1"),
    dict(fen="k7/2Q5/1K6/8/8/8/8/8 b - - 0 1", die_b="PNBRK*"),
    # Close to the fifty-move rule (the engine must read the halfmove clock).
    dict(fen="8/8/4k3/8/8/2K5/8/R7 w - - 88 80"),
    dict(fen="8/5k2/8/8/8/2KB4/8/7r b - - 92 70"),
    # Close to insufficient material.
    dict(fen="8/8/4k3/3p4/8/2KN4/8/8 w - - 0 1"),
    dict(fen="8/6b1/5k2/8/2B5/2K5/1P6/8 b - - 0 1"),
    # En passant available at once; castling both ways.
    dict(fen="rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3"),
    dict(fen="r3k2r/pppq1ppp/2npbn2/4p3/4P3/2NPBN2/PPPQ1PPP/R3K2R w KQkq - 0 1"),
    # Promotions and checks close at hand.
    dict(fen="4k3/1P4P1/8/8/8/8/1p4p1/4K3 w - - 0 1"),
    # Custom dice.
    dict(die_a="PNBRKQ", die_b="PNBRK*"),
    dict(die_a="KKQQ", die_b="PPN*"),
]


def game_options(g, n_games, n_long, rng):
    if g < 3 * len(SPECIAL):
        opts = dict(SPECIAL[g % len(SPECIAL)])
        opts["max_plies"] = rng.randint(150, 250)
        return opts
    if g >= n_games - n_long:
        return {}  # default max_plies (1000): long games reach the draw rules
    return dict(max_plies=rng.randint(150, 250))


def extra_check(game, kind):
    if kind == "decision":
        game.check_equal(_value(game.state, "dice"), game.ref.dice(), "dice")


def choose_outcome(rng, ref, outcomes):
    # Uniform over the ordered pairs of faces (36 for the default dice).
    return rng.choice(ref.die_a) + rng.choice(ref.die_b)


def run(n_games, n_long):
    dc = engine_module()
    tally = Tally()
    for g in selected_games(n_games):
        seed = SEED * 1000003 + g
        rng = random.Random(seed)
        opts = game_options(g, n_games, n_long, rng)
        game = Game(dc, "vegas", opts, VegasRef(**opts), g, seed)
        policy = ChessPolicy(
            rng, p_check=0.2, p_capture=0.25, p_pass=0.25, p_shuffle=rng.choice([0, 0, 0.3, 0.8])
        )
        game.play(partial(choose_outcome, rng), policy, extra_check)
        tally.add(game)
    tally.require(
        events=[
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


def test_diff_vegas_quick():
    run(n_games=300, n_long=30)


@pytest.mark.slow
def test_diff_vegas_full():
    run(n_games=2200, n_long=300)
