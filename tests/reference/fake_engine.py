"""A stand-in for the ``dicechess`` module, backed by the references.

It implements the engine's Python contract (``State``, integer actions,
``CHANCE``/``TERMINAL``) on top of the reference classes, so that the
differential harness can be exercised before the engine exists
(``DICECHESS_DIFF_ENGINE=fake``).  It proves nothing about the engine.
"""

from .cubic import CubicRef
from .fluky import FlukyRef
from .rmnc import RmncRef
from .vegas import VegasRef

CHANCE = -1
TERMINAL = -4


def _make_ref(variant, opts):
    opts = dict(opts)
    if variant == "vegas":
        return VegasRef(**opts)
    if variant == "random_move_number":
        return RmncRef(**opts)
    if variant == "cubic":
        return CubicRef(**opts)
    if variant == "fluky":
        opts.setdefault("roll_skip_on_check", "moved_piece")
        return FlukyRef(**opts)
    if variant == "metamorph":
        opts.setdefault("roll_skip_on_check", "any")
        return FlukyRef(**opts)
    raise ValueError(variant)


class State:
    def __init__(self, variant, **opts):
        self._ref = _make_ref(variant, opts)
        self._labels = None

    def _current_labels(self):
        if self._labels is None:
            node = self._ref.node()
            if node == "chance":
                self._labels = sorted(self._ref.chance_outcomes())
            elif node == "decision":
                self._labels = sorted(self._ref.legal_moves())
            else:
                self._labels = []
        return self._labels

    def is_chance_node(self):
        return self._ref.node() == "chance"

    def is_terminal(self):
        return self._ref.node() == "terminal"

    def current_player(self):
        node = self._ref.node()
        if node == "chance":
            return CHANCE
        if node == "terminal":
            return TERMINAL
        return self._ref.current_player()

    def chance_outcomes(self):
        probs = self._ref.chance_outcomes()
        return [(i, float(probs[name])) for i, name in enumerate(self._current_labels())]

    def legal_actions(self):
        return list(range(len(self._current_labels())))

    def action_to_string(self, action):
        return self._current_labels()[action]

    def apply_action(self, action):
        label = self._current_labels()[action]
        self._labels = None
        if self._ref.node() == "chance":
            self._ref.apply_outcome(label)
        else:
            self._ref.apply_move(label)

    def termination(self):
        return self._ref.termination()

    def returns(self):
        return [float(x) for x in self._ref.returns()]

    def fen(self):
        return self._ref.fen()

    @property
    def colors(self):
        return self._ref.colors()

    @property
    def moves_left(self):
        return self._ref.moves_left()

    @property
    def throw_records(self):
        return self._ref.throw_records()

    @property
    def dice(self):
        return self._ref.dice()
