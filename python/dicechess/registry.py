"""The variants' registry rows (``src/variants/registry.rs``) as Python data.

Everything in Python that depends on the list of variants reads it from here
(the gym ids, the study's controls and twins, the per-variant tests), so that
a new variant is one row in Rust::

    >>> import dicechess as dc
    >>> info = dc.variant_info()
    >>> info["fluky"].board_size, info["fluky"].twin, info["fluky"].gym_id
    (5, 'gardner', 'dicechess/Fluky-v0')
    >>> [n for n, v in info.items() if not v.chance]
    ['chess', 'cubic', 'cubic_checkers', 'gardner']
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from . import _core

__all__ = ["VariantInfo", "variant_info"]


@dataclass(frozen=True)
class VariantInfo:
    """One variant's registry row and the facts of its default game."""

    #: The name, as in ``dicechess.variants()``.
    name: str
    #: How the heading of its section in docs/rules.md starts.
    title: str
    #: The Gymnasium id suffix (``"Fluky"``) and the full id (``"dicechess/Fluky-v0"``).
    gym: str
    gym_id: str
    #: Files (= ranks) of the board.
    board_size: int
    #: Whether the game has chance nodes (False: a zero-luck control of the study).
    chance: bool
    #: The dice-free variant on the same board the study calibrates it on.
    twin: str
    #: ``(planes, ranks, files)`` of an observation with the default options.
    observation_shape: tuple[int, int, int]
    #: Decision action ids and chance outcome ids with the default options.
    num_actions: int
    max_chance_outcomes: int
    #: Pieces on the board at the start (the default setup).
    pieces: int


@lru_cache(maxsize=1)
def _rows() -> tuple[VariantInfo, ...]:
    return tuple(VariantInfo(**row) for row in _core.variant_info())


def variant_info() -> dict[str, VariantInfo]:
    """Each variant's :class:`VariantInfo`, by name, in the order of
    ``dicechess.variants()`` (a new dict each call; the rows are frozen)."""
    return {v.name: v for v in _rows()}
