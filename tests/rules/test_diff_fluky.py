"""Differential test: the engine's Fluky and Metamorph Chess against
tests/reference/fluky.py.

Counts decision nodes ("positions"): the unmarked run covers >= 50,000 of
them, over both variants, both ``roll_skip_on_check`` settings and
non-default ``die_faces``.  ``slow``: four times as many.  See
tests/reference/harness.py for reproduction options.
"""

import sys
from functools import partial
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from reference.fluky import FlukyRef, king_square, make_move, piece_attacks  # noqa: E402
from reference.harness import Setup, biased_move, run_games, sample_outcome  # noqa: E402

SEED = 20240604

# (engine variant, engine options, reference options)
CONFIGS = [
    ("fluky", {}, dict(roll_skip_on_check="moved_piece")),
    ("metamorph", {}, dict(roll_skip_on_check="any")),
    ("fluky", dict(die_faces="PNBR"), dict(roll_skip_on_check="moved_piece", die_faces="PNBR")),
    ("metamorph", dict(die_faces="PPNNBR"), dict(roll_skip_on_check="any", die_faces="PPNNBR")),
    ("fluky", dict(roll_skip_on_check="any"), dict(roll_skip_on_check="any")),
    (
        "metamorph",
        dict(roll_skip_on_check="moved_piece", die_faces="NBRR"),
        dict(roll_skip_on_check="moved_piece", die_faces="NBRR"),
    ),
    ("fluky", dict(max_plies=40), dict(roll_skip_on_check="moved_piece", max_plies=40)),
    (
        "metamorph",
        dict(goal_white="b5", goal_black="d1"),
        dict(roll_skip_on_check="any", goals=("b5", "d1")),
    ),
]

# Every run must see each of these rule events and terminations at least once.
EVENTS = [
    "roll",
    "roll_gives_check",
    "skip_moved_piece_check",
    "skip_last_rank",
    "skip_promotion",
    "promotion",
    "discovered_check_rolled",  # Fluky: a discovered check is rolled
    "discovered_check_skip",  # Metamorph: it is not
    "king_reached_start",
]
TERMINATIONS = [
    "checkmate",
    "king_reached_start",
    "stalemate",
    "threefold_repetition",
    "max_plies",
]


def is_discovered_check(ref, san):
    """A checking move whose moved piece does not itself attack the king."""
    if not san.endswith("+") and not san.endswith("#"):
        return False
    move = ref._moves[san]
    after = make_move(ref.board, move)
    return not piece_attacks(after, move[1], king_square(after, 1 - ref.turn))


def choose_move(rng, ref, sans):
    # Sometimes walk the king to the goal square when it can.
    goal = ref.goal[ref.turn]
    if rng.random() < 0.3:
        to_goal = [s for s in sans if s.startswith("K") and ref._moves[s][1] == goal]
        if to_goal:
            return to_goal[0]
    if rng.random() < 0.5:
        discovered = [s for s in sans if is_discovered_check(ref, s)]
        if discovered:
            return rng.choice(discovered)
    return biased_move(rng, sans, p_check=0.2, p_capture=0.3)


def choose_outcome(rng, ref, outcomes):
    return sample_outcome(rng, outcomes)


def setup(g, rng):
    variant, engine_opts, ref_opts = CONFIGS[g % len(CONFIGS)]
    ref = FlukyRef(**ref_opts)
    return Setup(variant, engine_opts, ref, partial(choose_outcome, rng), partial(choose_move, rng))


def run(min_positions, max_games=100000):
    return run_games(SEED, max_games, setup, EVENTS, TERMINATIONS, min_decisions=min_positions)


def test_diff_fluky_quick():
    run(min_positions=50000)


@pytest.mark.slow
def test_diff_fluky_full():
    run(min_positions=200000)
