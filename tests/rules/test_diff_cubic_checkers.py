"""Differential test: the engine's Cubic Checkers against
tests/reference/cubic_checkers.py (a plain-Python implementation of RULES
§7 that enumerates whole moves as paths).

At every decision of hundreds of random games the engine's full set of legal
decisions (one landing each) must equal the reference's next steps of its
maximum-capture paths, and the FEN-style strings, terminations and returns
must agree.
"""

import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import dicechess as dc  # noqa: E402
from reference.cubic_checkers import START_FEN, CubicCheckersRef  # noqa: E402

SEED = 20261125

SETUPS = [
    (START_FEN, 1000),
    # Both sides may jump from the start: long multi-jumps come early.
    (START_FEN.replace(" w - ", " w Rr "), 1000),
    # A short cap: truncation, also in the middle of a jump.
    (START_FEN.replace(" w - ", " w Rr "), 9),
    # Blocked cubes: a no-move loss is one move away.
    ("5P1p/6p1/5P1P/8/3P4/P7/1p6/p1P5 w - - 0 1", 1000),
    # Few cubes, close to the end by three cubes.
    ("3r3p/8/1b3n2/8/3R4/4B3/1P6/P7 b Rr - 0 5", 1000),
]


def play_game(rng, fen, max_plies, seen):
    s = dc.State("cubic_checkers", fen=fen, max_plies=max_plies)
    ref = CubicCheckersRef(fen=fen, max_plies=max_plies)
    history = []
    while True:
        where = f"\n  engine {s.fen()}\n  ref    {ref.fen()}\n  after {' '.join(history)}"
        assert s.fen() == ref.fen(), where
        assert s.termination() == ref.termination(), where
        if ref.node() == "terminal":
            assert s.is_terminal() and s.returns() == ref.returns(), where
            seen[ref.termination()] = seen.get(ref.termination(), 0) + 1
            for k, v in ref.events.items():
                seen[k] = seen.get(k, 0) + v
            return
        engine = sorted(s.action_to_string(a) for a in s.legal_actions())
        assert engine == ref.legal_steps(), where
        step = rng.choice(engine)
        history.append(step)
        s.apply_action(s.string_to_action(step))
        ref.apply_step(step)


def test_random_games_match_the_reference():
    rng = random.Random(SEED)
    seen = {}
    for game in range(300):
        fen, max_plies = SETUPS[game % len(SETUPS)]
        play_game(rng, fen, max_plies, seen)
    for what in ("cubes_left", "no_jumps", "no_moves", "max_plies", "rook_moved"):
        assert seen.get(what), f"no game saw {what}: {seen}"
    for what in ("removed", "demoted", "jump_2", "jump_3"):
        assert seen.get(what), f"no game saw {what}: {seen}"
