"""Differential test driver: plays the engine and a reference side by side.

Used by tests/test_diff_*.py.  At every step it asserts the same node kind,
current player, chance outcome names and probabilities (within 1e-12) and
legal SAN sets, then applies the same choice to both.  At the end it
asserts the same termination and returns.  Every failure message carries
the game number, its seed and options, the ply, both FENs and the history
(chance outcomes in brackets), enough to reproduce the game.

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
from collections import Counter

import chess
import pytest

PROB_TOL = 1e-12


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
    only = os.environ.get("DICECHESS_DIFF_GAME")
    if only is not None:
        return [g for g in range(n_games) if g == int(only)]
    return range(n_games)


def _value(obj, name):
    """An engine attribute that may be a property or a method."""
    v = getattr(obj, name)
    return v() if callable(v) else v


def engine_node(s):
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
