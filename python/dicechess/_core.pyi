"""Type stubs for the compiled extension module ``dicechess._core``."""

from typing import Any

import numpy as np
import numpy.typing as npt

__version__: str
CHANCE: int
"""``current_player()`` at chance nodes (-1)."""
TERMINAL: int
"""``current_player()`` at terminal states (-4)."""
TERMINATIONS: list[str]
"""Termination reason names; a reason's code is its index."""

class State:
    """A game state of any variant (OpenSpiel-style API).

    ``State(variant, **options)``: options are ``fen``, ``max_plies`` and the
    variant's rule options. Raises ``ValueError`` for an unknown variant, an
    unknown option or a bad value/FEN.
    """

    def __init__(self, variant: str = "chess", **options: Any) -> None: ...
    @property
    def variant(self) -> str: ...
    @property
    def options(self) -> dict[str, Any]: ...
    @property
    def plies(self) -> int: ...
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
    def current_player(self) -> int: ...
    def is_chance_node(self) -> bool: ...
    def is_terminal(self) -> bool: ...
    def chance_outcomes(self) -> list[tuple[int, float]]: ...
    def legal_actions(self) -> list[int]: ...
    def legal_actions_mask(self) -> npt.NDArray[np.bool_]: ...
    def apply_action(self, action: int) -> None: ...
    def action_to_string(self, action: int) -> str: ...
    def string_to_action(self, text: str) -> int: ...
    def apply_san(self, text: str) -> None: ...
    def returns(self) -> list[float]: ...
    def termination(self) -> str | None: ...
    def winner(self) -> int | None: ...
    def fen(self) -> str: ...
    def history(self) -> list[int]: ...
    def num_actions(self) -> int: ...
    def max_chance_outcomes(self) -> int: ...
    def observation_planes(self) -> list[str]: ...
    def observation_tensor(self, player: int | None = None) -> npt.NDArray[np.float32]: ...
    def clone(self) -> State: ...
    def __copy__(self) -> State: ...
    def __deepcopy__(self, _memo: Any = None) -> State: ...
    def __reduce__(self) -> tuple[Any, tuple[bytes]]: ...

def _state_from_bytes(data: bytes) -> State: ...
def variants() -> list[str]: ...
def num_actions(variant: str, **options: Any) -> int: ...
def perft(variant: str, depth: int, fen: str | None = None, **options: Any) -> int: ...
def _random_playouts(
    variant: str, seed: int, start: int, count: int, threads: int | None = None, **options: Any
) -> dict[str, npt.NDArray[Any]]: ...

_StepOut = tuple[
    npt.NDArray[np.float32],
    npt.NDArray[np.bool_],
    npt.NDArray[np.float32],
    npt.NDArray[np.bool_],
    npt.NDArray[np.bool_],
    npt.NDArray[np.int8],
]

class VecEnv:
    """``num_envs`` games of one variant stepped together in Rust (GIL released).

    Outputs ``(obs, mask, rewards, terminated, truncated, current_player)`` are
    preallocated arrays rewritten in place by every call: obs
    ``(num_envs, planes, ranks, files)`` float32, mask ``(num_envs, num_actions)``
    bool, rewards ``(num_envs, 2)`` (self-play, ``opponent=None``) or
    ``(num_envs,)`` (player 0's, with ``opponent="random"``) float32, the flags
    bool, current_player int8 (-4 at terminal states). Chance nodes and the
    opponent are resolved inside; episode ``k`` of env ``i`` uses
    ``game_rng(seed, i * 2**32 + k)``. Autoreset: gymnasium ``NEXT_STEP`` (the
    step after an episode ends ignores that env's action and starts a new
    episode, reward 0). ``num_envs`` is 1 to 65536.
    """

    def __init__(
        self,
        variant: str,
        num_envs: int,
        seed: int = 0,
        opponent: str | None = None,
        threads: int | None = None,
        **options: Any,
    ) -> None: ...
    @property
    def num_envs(self) -> int:
        """Number of games."""
    @property
    def num_actions(self) -> int:
        """Length of a mask (decision action ids)."""
    @property
    def observation_shape(self) -> tuple[int, int, int]:
        """``(planes, ranks, files)`` of one observation."""
    @property
    def opponent(self) -> str | None:
        """The built-in opponent, or None in self-play."""
    @property
    def seed(self) -> int:
        """The run seed."""
    def reset(self, seed: int | None = None) -> _StepOut:
        """Starts episode 0 of every env (optionally with a new seed)."""
    def step(self, actions: npt.NDArray[np.integer[Any]]) -> _StepOut:
        """Applies one action per env; all are validated before any is applied."""
    def history(self, i: int) -> list[int]:
        """Actions of env ``i``'s current episode, replayable via ``State.apply_action``."""
    def episode(self, i: int) -> int:
        """Env ``i``'s episode number since the last reset."""
    def fen(self, i: int) -> str:
        """FEN of env ``i``'s current game."""
    def __len__(self) -> int: ...
