"""Type stubs for the compiled extension module ``dicechess._core``."""

from typing import Any, final

import numpy as np
import numpy.typing as npt
from typing_extensions import Self

__all__ = [
    "__version__",
    "CHANCE",
    "TERMINAL",
    "TERMINATIONS",
    "State",
    "variants",
    "num_actions",
    "observation_planes",
    "perft",
    "_state_from_bytes",
    "_random_playouts",
]

__version__: str
CHANCE: int
"""``current_player()`` at chance nodes (-1)."""
TERMINAL: int
"""``current_player()`` at terminal states (-4)."""
TERMINATIONS: list[str]
"""Termination reason names; a reason's code is its index."""

@final
class State:
    """A game state of any variant (OpenSpiel-style API).

    ``State(variant, **options)``: options are ``fen``, ``max_plies`` and the
    variant's rule options. Raises ``ValueError`` for an unknown variant, an
    unknown option or a bad value/FEN.
    """

    def __new__(cls, variant: str = "chess", **options: Any) -> Self: ...
    @property
    def variant(self) -> str:
        """The variant's name."""
    @property
    def options(self) -> dict[str, Any]:
        """The options this state was created with (defaults filled in)."""
    @property
    def plies(self) -> int:
        """Player decisions made so far."""
    @property
    def dice(self) -> str | None:
        """Vegas: the roll the player decides with (``"PN"``, ``"B*"``), or None."""
    @property
    def colors(self) -> list[str] | None:
        """Random Move Number Chess: each player's colour (None before the
        colour choice and for other variants)."""
    @property
    def moves_left(self) -> int | None:
        """Random Move Number Chess: moves left in the turn (None for other variants)."""
    @property
    def throw_records(self) -> list[list[int]] | None:
        """Random Move Number Chess: each player's throws (None for other variants)."""
    def current_player(self) -> int:
        """Player to decide (0 or 1), ``CHANCE`` (-1) or ``TERMINAL`` (-4)."""
    def is_chance_node(self) -> bool:
        """Whether chance (a dice roll) acts next."""
    def is_terminal(self) -> bool:
        """Whether the game is over."""
    def chance_outcomes(self) -> list[tuple[int, float]]:
        """``[(outcome_action, probability), ...]`` at a chance node, else ``[]``."""
    def legal_actions(self) -> list[int]:
        """Legal action ids (sorted)."""
    def legal_actions_mask(self) -> npt.NDArray[np.bool_]:
        """Boolean mask over the action space (chance outcome ids at chance nodes)."""
    def apply_action(self, action: int) -> None:
        """Applies a move, pass, rotation or chance outcome by id."""
    def action_to_string(self, action: int) -> str:
        """SAN (or ``pass``) at decision nodes, the outcome name at chance nodes."""
    def string_to_action(self, text: str) -> int:
        """Parses SAN, UCI, long algebraic, ``pass``, or an outcome name."""
    def apply_san(self, text: str) -> None:
        """``apply_action(string_to_action(text))``."""
    def returns(self) -> list[float]:
        """``[r0, r1]``: +1 win, -1 loss, 0 draw, truncated or not over."""
    def termination(self) -> str | None:
        """None, or the reason the game ended (a name from ``TERMINATIONS``)."""
    def winner(self) -> int | None:
        """The winning player, or None."""
    def fen(self) -> str:
        """FEN (extended with variant state where needed)."""
    def history(self) -> list[int]:
        """Every action applied since the state was created (replayable)."""
    def num_actions(self) -> int:
        """Number of distinct actions at decision nodes."""
    def max_chance_outcomes(self) -> int:
        """Number of distinct chance outcome ids."""
    def observation_planes(self) -> list[str]:
        """Names of the observation planes."""
    def observation_tensor(self, player: int | None = None) -> npt.NDArray[np.float32]:
        """The observation tensor ``(planes, ranks, files)`` from ``player``'s
        point of view (default: the player to move, or 0 at chance/terminal nodes)."""
    def clone(self) -> State:
        """An independent copy of the state."""
    def __copy__(self) -> State: ...
    def __deepcopy__(self, _memo: Any = None) -> State: ...
    def __reduce__(self) -> tuple[Any, tuple[bytes]]: ...
    def _repr_svg_(self) -> str:
        """Jupyter display: an SVG board drawn by ``dicechess.render.svg``."""

def _state_from_bytes(data: bytes) -> State: ...
def variants() -> list[str]:
    """The names of the variants."""

def num_actions(variant: str, **options: Any) -> int:
    """Number of distinct actions at decision nodes of ``variant`` (with options)."""

def observation_planes(variant: str, **options: Any) -> list[str]:
    """Names of the observation planes of ``variant`` (with options), in order."""

def perft(variant: str, depth: int, fen: str | None = None, **options: Any) -> int:
    """Perft: leaf nodes at ``depth``."""

def _random_playouts(
    variant: str, seed: int, start: int, count: int, threads: int | None = None, **options: Any
) -> dict[str, npt.NDArray[Any]]: ...
