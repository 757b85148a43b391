"""Bookkeeping the reference classes share (not rules: those stay in each
reference module, written from the rules text alone).

A subclass keeps ``_node``, ``_termination``, ``_returns``, ``_moves`` and
``repetitions`` up to date, defines ``_key()`` (what a repetition compares)
and sets ``FIRST``, the ``winner`` value that means the first player won.
"""

from collections import Counter


class RefGame:
    """Queries and game-end bookkeeping common to every reference."""

    FIRST = 0

    def __init__(self):
        self.repetitions = Counter()
        self.events = Counter()  # rule events seen, for the harness's coverage checks
        self._termination = None
        self._returns = [0, 0]
        self._moves = {}  # move name -> the reference's move, at decision nodes

    def node(self):
        """The node kind: "chance", "decision" or "terminal"."""
        return self._node

    def termination(self):
        """None while the game goes on, else the termination reason."""
        return self._termination

    def returns(self):
        """[r0, r1]: +1 for the winner, -1 for the loser, 0 for a draw."""
        return list(self._returns)

    def _record_key(self):
        self.repetitions[self._key()] += 1

    def _end(self, reason, winner=None):
        """End the game for ``reason``; ``winner`` None is a draw."""
        self._node = "terminal"
        self._termination = reason
        self._moves = {}  # move name -> the reference's move, at decision nodes
        if winner is None:
            self._returns = [0, 0]
        else:
            self._returns = [1, -1] if winner == self.FIRST else [-1, 1]
