"""The per-game arrays every batched run returns (playouts, arenas, roll luck,
paired games), and the counts read from them."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

#: ``winner`` code of a draw.
DRAW = -1
#: ``winner`` code of a game truncated at ``max_plies``.
TRUNCATED = -2


def player0_score(winner: npt.ArrayLike) -> npt.NDArray[np.float64]:
    """Player 0's score per game from ``winner`` codes: 1 for a win, 0 for a
    loss, 0.5 for a draw or a truncated game."""
    w = np.asarray(winner)
    return np.where(w == 0, 1.0, np.where(w == 1, 0.0, 0.5))


def count_results(
    agent_a: np.ndarray, agent_b: np.ndarray, score_a: np.ndarray, k: int
) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    """``(wins, draws)`` k x k counts from per-game agent indices and
    ``agent_a``'s scores (0, 0.5, 1), inputs already checked: ``wins[i, j]``
    games ``i`` won against ``j``; ``draws`` symmetric."""
    wins = np.zeros((k, k), dtype=np.int64)
    draws = np.zeros((k, k), dtype=np.int64)
    np.add.at(wins, (agent_a[score_a == 1], agent_b[score_a == 1]), 1)
    np.add.at(wins, (agent_b[score_a == 0], agent_a[score_a == 0]), 1)
    half = score_a == 0.5
    np.add.at(draws, (agent_a[half], agent_b[half]), 1)
    np.add.at(draws, (agent_b[half], agent_a[half]), 1)
    return wins, draws


def concat(parts: Sequence[dict[str, np.ndarray]], key: str, dtype: Any) -> np.ndarray:
    """One array from the parts' arrays under ``key`` (empty if none)."""
    if not parts:
        return np.zeros(0, dtype=dtype)
    return np.concatenate([p[key] for p in parts]).astype(dtype, copy=False)


#: The per-game arrays of every batched run (playouts, arenas, roll luck),
#: with their dtypes.
GAME_ARRAYS: dict[str, Any] = {
    "winner": np.int8,
    "plies": np.uint32,
    "chance_events": np.uint32,
    "termination": np.int8,
    "player0_color": np.int8,
}


def game_arrays(parts: Sequence[dict[str, np.ndarray]]) -> dict[str, np.ndarray]:
    """The per-game arrays of a run, concatenated from its shards' parts."""
    return {k: concat(parts, k, t) for k, t in GAME_ARRAYS.items()}
