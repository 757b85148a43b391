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

#: Every valid agent spec form (for messages).
AGENT_SPECS: str

class Agent:
    """A Rust agent: ``Agent(spec, seed=0)``.

    ``spec``: ``"random"``, ``"greedy"`` (one decision deep, exact expectation
    over the dice that follow), ``"expectimax:depth=N"`` (*-minimax: alpha-beta,
    Star1 at chance nodes, transposition table), ``"mcts:sims=N[,c=X]
    [,rollout=random|greedy][,rollout_plies=M]"`` (UCT with sampled chance
    nodes). Bad specs raise ValueError listing the valid ones. Decisions are
    reproducible: the agent's generator is seeded with ``seed``.
    """

    def __init__(self, spec: str, seed: int = 0) -> None: ...
    @property
    def spec(self) -> str:
        """The canonical spec string."""
    @property
    def seed(self) -> int:
        """The seed the agent was created with."""
    def select(self, state: State) -> int:
        """The chosen action id at a decision node (GIL released); ValueError elsewhere."""
    def policy(self, state: State) -> list[tuple[int, float]]:
        """``[(action, probability)]`` over the legal actions: uniform (random),
        one-hot on the chosen action (greedy, expectimax), root visit
        distribution (mcts). ValueError at chance and terminal nodes."""

def _agent_spec(spec: str) -> str:
    """The canonical form of an agent spec (ValueError listing the valid specs)."""

def _playouts(
    variant: str,
    agents: tuple[str, str],
    seed: int,
    start: int,
    count: int,
    threads: int | None = None,
    **options: Any,
) -> dict[str, npt.NDArray[Any]]:
    """Games ``start .. start+count`` between two agent specs (GIL released)."""
