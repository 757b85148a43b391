"""Differential test: the engine's Random Move Number Chess against
tests/reference/rmnc.py.

The throw sampler repeats the thrower's previous throw with a per-game
probability (0.1 to 0.5) so that long runs, switches (third 6) and six sixes
really happen.  Unmarked: a quick run (300 games).  ``slow``: the full count
(2,200 games, ``pytest -m slow``).  See tests/reference/harness.py for
reproduction options.
"""

import sys
from functools import partial
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from reference import harness  # noqa: E402
from reference.rmnc import RmncRef  # noqa: E402

SEED = 20240602

SPECIAL = [
    # En passant available at once (White moves first, no throw).
    dict(fen=harness.EN_PASSANT_FEN),
    # Castling both ways.
    dict(fen=harness.CASTLING_FEN),
    # Promotions close at hand.
    dict(fen=harness.PROMOTION_FEN),
    # Stalemates are easy to stumble into.
    dict(fen="7k/5Q2/8/6K1/8/8/8/8 w - - 0 1"),
    dict(fen="k7/8/1Q6/8/8/8/5PK1/8 w - - 0 1"),
    # Close to the fifty-move rule and to insufficient material.
    dict(fen=harness.FIFTY_MOVES_FEN),
    dict(fen=harness.LOW_MATERIAL_FEN),
    # Queens and rooks facing the kings: many checks (and standing checks).
    dict(fen="3qk3/8/8/8/8/8/8/3QK2R w K - 0 1"),
]

# Every run must see each of these rule events and terminations at least once.
EVENTS = [
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
]
TERMINATIONS = [*harness.CHESS_TERMINATIONS, "king_captured", "six_sixes"]


def choose_outcome(rng, repeat, ref, outcomes):
    record = ref.records[ref.thrower()]
    if record and rng.random() < repeat:
        return str(record[-1])
    return rng.choice(sorted(outcomes))


class Policy(harness.ChessPolicy):
    def __call__(self, ref, sans):
        # A king capture is written like any capture; take it most of the time.
        king = ref.board.king(not ref.board.turn)
        captures = [s for s in sans if ref._moves[s].to_square == king]
        if captures and self.rng.random() < 0.7:
            return self.rng.choice(captures)
        return super().__call__(ref, sans)


def extra_check(game, kind):
    s, ref = game.state, game.ref
    records = [[int(t) for t in r] for r in harness.attr_value(s, "throw_records")]
    game.check_equal(records, ref.throw_records(), "throw records")
    if ref.colors() is not None:
        game.check_equal(list(harness.attr_value(s, "colors")), ref.colors(), "colours")
    if kind == "decision":
        game.check_equal(harness.attr_value(s, "moves_left"), ref.moves_left(), "moves left")


def setup(opts, rng):
    repeat = rng.choice([0.1, 0.25, 0.5])
    policy = Policy(rng, p_check=0.2, p_capture=0.25, p_shuffle=rng.choice([0, 0, 0.3, 0.8]))
    outcome = partial(choose_outcome, rng, repeat)
    return harness.Setup("random_move_number", opts, RmncRef(**opts), outcome, policy, extra_check)


def test_diff_rmnc_quick():
    harness.run_chess_games(SEED, SPECIAL, setup, 300, 30, EVENTS, TERMINATIONS)


@pytest.mark.slow
def test_diff_rmnc_full():
    harness.run_chess_games(SEED, SPECIAL, setup, 2200, 200, EVENTS, TERMINATIONS)
