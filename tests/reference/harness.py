"""Differential test driver: plays the engine and a reference side by side.

Used by tests/rules/test_diff_*.py.  At every step it asserts the same node kind,
current player, chance outcome names and probabilities (within 1e-12) and
legal SAN sets, then applies the same choice to both.  At the end it
asserts the same termination and returns.  Every failure message carries
the game number, its seed and options, the ply, both FENs and the history
(chance outcomes in brackets), enough to reproduce the game.

A test file only describes its variant: ``setup`` (what game ``g`` plays,
as a ``Setup``, drawn from that game's seeded rng) and the rule events and
terminations a run must exercise; ``run_games`` (or ``run_chess_games`` for
the 8x8 variants, with the shared start-position scheme) does the rest.

Environment variables:
    DICECHESS_DIFF_ENGINE=fake   drive tests/reference/fake_engine.py (a
                                 reference-backed stand-in for ``dicechess``)
                                 instead of the real engine: tests the
                                 harness itself.
    DICECHESS_DIFF_GAME=<n>      play only game number n (to reproduce).

The full game counts are in tests marked ``slow`` (``make test-slow``,
i.e. ``pytest -m slow``); the unmarked tests are shorter runs.
"""

import os
import random
from collections import Counter
from dataclasses import dataclass
from typing import Any, Callable, Optional

import chess
import pytest

PROB_TOL = 1e-12

# The terminations every 8x8 variant shares with standard chess.
CHESS_TERMINATIONS = (
    "checkmate",
    "stalemate",
    "threefold_repetition",
    "fifty_moves",
    "insufficient_material",
    "max_plies",
)

# Legal start positions that bring rare chess rules close, shared by the
# SPECIAL lists of the 8x8 differential tests.
EN_PASSANT_FEN = "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3"
CASTLING_FEN = "r3k2r/pppq1ppp/2npbn2/4p3/4P3/2NPBN2/PPPQ1PPP/R3K2R w KQkq - 0 1"
PROMOTION_FEN = "4k3/1P4P1/8/8/8/8/1p4p1/4K3 w - - 0 1"
FIFTY_MOVES_FEN = "8/8/4k3/8/8/2K5/8/R7 w - - 88 80"  # halfmove clock 88
LOW_MATERIAL_FEN = "8/8/4k3/3p4/8/2KN4/8/8 w - - 0 1"  # one capture from a bare draw


def engine_module():
    """The engine module under test (or the fake one), skipping if absent."""
    if os.environ.get("DICECHESS_DIFF_ENGINE") == "fake":
        from . import fake_engine

        return fake_engine
    dc = pytest.importorskip("dicechess")
    if not hasattr(dc, "State"):
        pytest.skip("dicechess.State is not available yet")
    return dc


def selected_games(n_games):
    """Game numbers to play: all of ``range(n_games)``, or the one
    DICECHESS_DIFF_GAME names."""
    only = os.environ.get("DICECHESS_DIFF_GAME")
    if only is not None:
        return [g for g in range(n_games) if g == int(only)]
    return range(n_games)


def attr_value(obj, name):
    """An engine attribute that may be a property or a method."""
    v = getattr(obj, name)
    return v() if callable(v) else v


def engine_node(s):
    """The engine state's node kind, named as the references name it."""
    if s.is_terminal():
        return "terminal"
    if s.is_chance_node():
        return "chance"
    return "decision"


class Game:
    """One game played on the engine and on the reference at once."""

    def __init__(self, dc, variant, engine_opts, ref, game_no, seed):
        self.dc = dc
        self.variant = variant
        self.engine_opts = engine_opts
        self.state = dc.State(variant, **engine_opts)
        self.ref = ref
        self.game_no = game_no
        self.seed = seed
        self.history = []
        self.ply = 0  # steps (chance outcomes and decisions) so far
        self.decisions = 0

    # ------------------------------------------------------------ failures
    def context(self):
        try:
            efen = self.state.fen()
        except Exception as exc:  # only for the message
            efen = f"<fen() failed: {exc!r}>"
        return (
            f"\n  game {self.game_no} (seed {self.seed}) variant={self.variant!r}"
            f" options={self.engine_opts!r}"
            f"\n  step {self.ply} (decisions {self.decisions})"
            f"\n  engine fen:    {efen}"
            f"\n  reference fen: {self.ref.fen()}"
            f"\n  history: {' '.join(self.history)}"
        )

    def check(self, cond, what):
        if not cond:
            raise AssertionError(what + self.context())

    def check_equal(self, engine_value, ref_value, what):
        if engine_value != ref_value:
            raise AssertionError(
                f"{what} differs: engine {engine_value!r}, reference {ref_value!r}{self.context()}"
            )

    # ------------------------------------------------------------ steps
    def engine_chance(self):
        out = {}
        for action, prob in self.state.chance_outcomes():
            name = self.state.action_to_string(action)
            self.check(name not in out, f"engine repeats chance outcome {name!r}")
            out[name] = (action, float(prob))
        return out

    def engine_legal(self):
        actions = list(self.state.legal_actions())
        out = {}
        for a in actions:
            san = self.state.action_to_string(a)
            self.check(san not in out, f"engine has two actions written {san!r}")
            out[san] = a
        return out

    def compare_chance(self):
        e = self.engine_chance()
        r = {name: float(p) for name, p in self.ref.chance_outcomes().items()}
        if set(e) != set(r):
            raise AssertionError(
                f"chance outcomes differ: only engine {sorted(set(e) - set(r))},"
                f" only reference {sorted(set(r) - set(e))}{self.context()}"
            )
        for name, p in r.items():
            self.check(
                abs(e[name][1] - p) <= PROB_TOL,
                f"probability of {name!r} differs: engine {e[name][1]!r}, reference {p!r}",
            )
        total = sum(p for _, p in e.values())
        self.check(abs(total - 1.0) <= 1e-9, f"engine probabilities sum to {total!r}")
        return e, r

    def compare_decision(self):
        self.check_equal(self.state.current_player(), self.ref.current_player(), "current player")
        e = self.engine_legal()
        r = self.ref.legal_moves()
        if set(e) != r:
            raise AssertionError(
                f"legal moves differ: only engine {sorted(set(e) - r)},"
                f" only reference {sorted(r - set(e))}{self.context()}"
            )
        return e, r

    def play(self, choose_outcome, choose_move, extra_check=None, step_limit=100000):
        dc = self.dc
        while True:
            kind = engine_node(self.state)
            self.check_equal(kind, self.ref.node(), "node kind")
            if extra_check is not None:
                extra_check(self, kind)
            if kind == "terminal":
                self.check_equal(
                    self.state.current_player(), getattr(dc, "TERMINAL", -4), "terminal player id"
                )
                break
            self.check(self.ply < step_limit, "game does not end")
            if kind == "chance":
                self.check_equal(
                    self.state.current_player(), getattr(dc, "CHANCE", -1), "chance player id"
                )
                e, r = self.compare_chance()
                name = choose_outcome(self.ref, r)
                self.history.append(f"[{name}]")
                self.state.apply_action(e[name][0])
                self.ref.apply_outcome(name)
            else:
                e, r = self.compare_decision()
                san = choose_move(self.ref, sorted(r))
                self.history.append(san)
                self.state.apply_action(e[san])
                self.ref.apply_move(san)
                self.decisions += 1
            self.ply += 1
        self.check_equal(self.state.termination(), self.ref.termination(), "termination")
        returns = [float(x) for x in self.state.returns()]
        self.check_equal(returns, [float(x) for x in self.ref.returns()], "returns")


class Tally:
    """Events and terminations seen over a run, for coverage assertions."""

    def __init__(self):
        self.events = Counter()
        self.terminations = Counter()
        self.games = 0
        self.decisions = 0

    def add(self, game):
        self.games += 1
        self.decisions += game.decisions
        self.events.update(game.ref.events)
        self.terminations[game.ref.termination()] += 1

    def require(self, events=(), terminations=()):
        if os.environ.get("DICECHESS_DIFF_GAME") is not None:
            return  # a single reproduced game cannot show everything
        missing = [e for e in events if not self.events[e]]
        missing += ["termination " + t for t in terminations if not self.terminations[t]]
        assert not missing, (
            f"never exercised: {missing}\n  events: {dict(self.events)}"
            f"\n  terminations: {dict(self.terminations)}"
        )


def sample_outcome(rng, outcomes):
    """Sample a name from {name: probability} (deterministic order)."""
    names = sorted(outcomes)
    return rng.choices(names, [float(outcomes[n]) for n in names])[0]


def is_check_san(san):
    """Does this SAN give check (or mate)?"""
    return san.endswith("+") or san.endswith("#")


def biased_move(rng, sans, p_check=0.15, p_capture=0.25, p_pass=0.2):
    """Uniform move choice with a bias towards checks, captures and passes
    (to make the rare rules happen)."""
    if "pass" in sans and rng.random() < p_pass:
        return "pass"
    if rng.random() < p_check:
        checks = [m for m in sans if is_check_san(m)]
        if checks:
            return rng.choice(checks)
    if rng.random() < p_capture:
        captures = [m for m in sans if "x" in m]
        if captures:
            return rng.choice(captures)
    return rng.choice(sans)


class ChessPolicy:
    """Move choice for the 8x8 references: ``biased_move`` plus, with
    probability ``p_shuffle``, moving the piece the mover moved last back to
    where it came from (to make repetitions happen)."""

    def __init__(self, rng, p_check=0.15, p_capture=0.25, p_pass=0.2, p_shuffle=0.0):
        self.rng = rng
        self.p_check = p_check
        self.p_capture = p_capture
        self.p_pass = p_pass
        self.p_shuffle = p_shuffle
        self.last = {}

    def __call__(self, ref, sans):
        moves = ref._moves  # SAN -> chess.Move (or a Cubic rotation)
        mover = ref.board.turn
        choice = None
        last = self.last.get(mover)
        if last is not None and self.rng.random() < self.p_shuffle:
            back = [
                s
                for s in sans
                if isinstance(moves.get(s), chess.Move)
                and moves[s].from_square == last.to_square
                and moves[s].to_square == last.from_square
            ]
            if back:
                choice = back[0]
        if choice is None:
            choice = biased_move(self.rng, sans, self.p_check, self.p_capture, self.p_pass)
        move = moves.get(choice)
        self.last[mover] = move if isinstance(move, chess.Move) else None
        return choice


def chess_game_options(special, g, n_games, n_long, rng):
    """Options for game ``g`` of an 8x8 run: the first ``3 * len(special)``
    games cycle through the ``special`` start positions, the last ``n_long``
    keep the default max_plies (1000, long enough to reach the draw rules)
    and the rest stop after 150-250 plies."""
    if g < 3 * len(special):
        opts = dict(special[g % len(special)])
        opts["max_plies"] = rng.randint(150, 250)
        return opts
    if g >= n_games - n_long:
        return {}
    return dict(max_plies=rng.randint(150, 250))


@dataclass
class Setup:
    """What one game of a run plays: the engine variant and options, the
    reference (written from the rules text, never driven by the engine) and
    the choice functions and extra per-node check for ``Game.play``."""

    variant: str
    engine_opts: dict
    ref: Any
    choose_outcome: Callable
    choose_move: Callable
    extra_check: Optional[Callable] = None


def run_games(base_seed, n_games, setup, events, terminations, min_decisions=None):
    """Play games ``0..n_games-1`` (see ``selected_games``) on the engine and
    the reference side by side, then require every event and termination
    listed to have happened at least once.

    Game ``g`` draws everything from ``random.Random(base_seed * 1000003 + g)``,
    handed to ``setup(g, rng)``, which returns a ``Setup``.  With
    ``min_decisions`` the run stops once that many decision nodes were
    compared, and (unless one game is reproduced) requires that many.
    Returns the ``Tally``."""
    dc = engine_module()
    tally = Tally()
    games = selected_games(n_games)
    for g in games:
        if min_decisions is not None and tally.decisions >= min_decisions:
            break
        seed = base_seed * 1000003 + g
        s = setup(g, random.Random(seed))
        game = Game(dc, s.variant, s.engine_opts, s.ref, g, seed)
        game.play(s.choose_outcome, s.choose_move, s.extra_check)
        tally.add(game)
    tally.require(events=events, terminations=terminations)
    if min_decisions is not None and len(games) == n_games:
        assert tally.decisions >= min_decisions, (
            f"only {tally.decisions} decision nodes in {n_games} games, wanted {min_decisions}"
        )
    return tally


def run_chess_games(base_seed, special, setup, n_games, n_long, events, terminations):
    """``run_games`` for an 8x8 variant: each game's options come from
    ``chess_game_options(special, ...)`` (drawn first from the game's rng),
    then ``setup(opts, rng)`` returns its ``Setup``."""

    def setup_game(g, rng):
        return setup(chess_game_options(special, g, n_games, n_long, rng), rng)

    return run_games(base_seed, n_games, setup_game, events, terminations)
