"""Differential test: the engine's Random Move Number Chess against
tests/reference/rmnc.py.

The throw sampler repeats the thrower's previous throw with a per-game
probability (0.1 to 0.5) so that long runs, switches (third 6) and six sixes
really happen.  Unmarked: a quick run (300 games).  ``slow``: the full count
(2,200 games, ``pytest -m slow``).  See tests/reference/harness.py for
reproduction options.
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
from reference.rmnc import RmncRef  # noqa: E402

SEED = 20240602

SPECIAL = [
    # En passant available at once (White moves first, no throw).
    dict(fen="rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3"),
    # Castling both ways.
    dict(fen="r3k2r/pppq1ppp/2npbn2/4p3/4P3/2NPBN2/PPPQ1PPP/R3K2R w KQkq - 0 1"),
    # Promotions close at hand.
    dict(fen="4k3/1P4P1/8/8/8/8/1p4p1/4K3 w - - 0 1"),
    # Stalemates are easy to stumble into.
    dict(fen="7k/5Q2/8/6K1/8/8/8/8 w - - 0 1"),
    dict(fen="k7/8/1Q6/8/8/8/5PK1/8 w - - 0 1"),
    # Close to the fifty-move rule and to insufficient material.
    dict(fen="8/8/4k3/8/8/2K5/8/R7 w - - 88 80"),
    dict(fen="8/8/4k3/3p4/8/2KN4/8/8 w - - 0 1"),
    # Queens and rooks facing the kings: many checks (and standing checks).
    dict(fen="3qk3/8/8/8/8/8/8/3QK2R w K - 0 1"),
]


def game_options(g, n_games, n_long, rng):
    if g < 3 * len(SPECIAL):
        opts = dict(SPECIAL[g % len(SPECIAL)])
        opts["max_plies"] = rng.randint(150, 250)
        return opts
    if g >= n_games - n_long:
        return {}  # default max_plies (1000)
    return dict(max_plies=rng.randint(150, 250))


def choose_outcome(rng, repeat, ref, outcomes):
    record = ref.records[ref.thrower()]
    if record and rng.random() < repeat:
        return str(record[-1])
    return rng.choice(sorted(outcomes))


class Policy(ChessPolicy):
    def __call__(self, ref, sans):
        # A king capture is written like any capture; take it most of the time.
        king = ref.board.king(not ref.board.turn)
        captures = [s for s in sans if ref._moves[s].to_square == king]
        if captures and self.rng.random() < 0.7:
            return self.rng.choice(captures)
        return super().__call__(ref, sans)


def extra_check(game, kind):
    s, ref = game.state, game.ref
    game.check_equal(_value(s, "throw_records"), ref.throw_records(), "throw records")
    if ref.colors() is not None:
        game.check_equal(_value(s, "colors"), ref.colors(), "colours")
    if kind == "decision":
        game.check_equal(_value(s, "moves_left"), ref.moves_left(), "moves left")


def run(n_games, n_long):
    dc = engine_module()
    tally = Tally()
    for g in selected_games(n_games):
        seed = SEED * 1000003 + g
        rng = random.Random(seed)
        opts = game_options(g, n_games, n_long, rng)
        repeat = rng.choice([0.1, 0.25, 0.5])
        game = Game(dc, "random_move_number", opts, RmncRef(**opts), g, seed)
        policy = Policy(rng, p_check=0.2, p_capture=0.25, p_shuffle=rng.choice([0, 0, 0.3, 0.8]))
        game.play(partial(choose_outcome, rng, repeat), policy, extra_check)
        tally.add(game)
    tally.require(
        events=[
            "colour_tie",
            "switch",
            "forfeit",
            "moves_4",
            "multi_move_continue",
            "check_ends_turn_early",
            "check_left_standing",
            "turn_starts_in_check",
            "en_passant",
            "castling",
            "promotion",
        ],
        terminations=[
            "checkmate",
            "king_captured",
            "six_sixes",
            "stalemate",
            "threefold_repetition",
            "fifty_moves",
            "insufficient_material",
            "max_plies",
        ],
    )
    return tally


def test_diff_rmnc_quick():
    run(n_games=300, n_long=30)


@pytest.mark.slow
def test_diff_rmnc_full():
    run(n_games=2200, n_long=300)
