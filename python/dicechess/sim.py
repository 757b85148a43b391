"""Batched playouts: many whole games in Rust, in parallel, reproducibly.

Game ``i`` of a run draws its randomness only from ``(seed, i)``, so the
arrays are identical for any ``threads`` and any chunking. Long runs show a
progress bar (tqdm: Jupyter and terminals) and stop cleanly on Ctrl-C.
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Callable

import numpy as np
import numpy.typing as npt

from . import _core

#: ``winner`` code of a draw.
DRAW = -1
#: ``winner`` code of a game truncated at ``max_plies``.
TRUNCATED = -2

_MAX_GAMES = 10**10


def _check_agent(spec: object) -> str:
    """The canonical spec; the core's parser raises ValueError listing the valid specs."""
    if not isinstance(spec, str):
        raise TypeError(
            f"an agent spec must be a string, got {type(spec).__name__}; "
            f"valid specs: {_core.AGENT_SPECS}"
        )
    return _core._agent_spec(spec)


@dataclass
class PlayoutResult:
    """Per-game numpy arrays of a :func:`playouts` run (game order)."""

    variant: str
    seed: int
    options: dict[str, Any]
    #: Winning player 0/1, ``DRAW`` (-1) or ``TRUNCATED`` (-2); int8.
    winner: npt.NDArray[np.int8]
    #: Player decisions per game; uint32.
    plies: npt.NDArray[np.uint32]
    #: Chance outcomes (dice) per game; uint32.
    chance_events: npt.NDArray[np.uint32]
    #: Termination code, an index into ``dicechess.TERMINATIONS``; int8.
    termination: npt.NDArray[np.int8]
    #: Colour player 0 commands at the end (0 White, 1 Black); int8.
    player0_color: npt.NDArray[np.int8]
    interrupted: bool = field(default=False)

    def __len__(self) -> int:
        return len(self.winner)

    def summary(self) -> dict[str, Any]:
        """Counts and rates: wins per player and per colour, draws, truncations,
        termination reasons, mean plies and chance events."""
        n = len(self)
        if n == 0:
            return {"games": 0}
        w = self.winner
        # The colour of the winner at the end (per-player results, RULES §5).
        winner_color = np.where(
            w >= 0, np.where(w == 0, self.player0_color, 1 - self.player0_color), -1
        )
        reasons = Counter(_core.TERMINATIONS[int(t)] for t in self.termination)
        return {
            "games": n,
            "player0_wins": int((w == 0).sum()),
            "player1_wins": int((w == 1).sum()),
            "white_wins": int((winner_color == 0).sum()),
            "black_wins": int((winner_color == 1).sum()),
            "draws": int((w == DRAW).sum()),
            "truncated": int((w == TRUNCATED).sum()),
            "terminations": dict(sorted(reasons.items())),
            "mean_plies": float(self.plies.mean()),
            "mean_chance_events": float(self.chance_events.mean()),
        }

    def to_pandas(self) -> Any:
        """A DataFrame with one row per game (needs pandas)."""
        import pandas as pd

        return pd.DataFrame(
            {
                "winner": self.winner,
                "plies": self.plies,
                "chance_events": self.chance_events,
                "termination": [_core.TERMINATIONS[int(t)] for t in self.termination],
                "player0_color": np.where(self.player0_color == 0, "white", "black"),
            }
        )


def playouts(
    variant: str,
    n_games: int,
    seed: int = 0,
    agents: tuple[str, str] = ("random", "random"),
    threads: int | None = None,
    progress: bool | None = None,
    chunk_size: int = 4096,
    **variant_options: Any,
) -> PlayoutResult:
    """Play ``n_games`` whole games of ``variant`` in Rust (GIL released).

    ``agents``: one spec per player (player 0 first), any of ``"random"``,
    ``"greedy"``, ``"expectimax:depth=N"``, ``"mcts:sims=N[,c=X][,rollout=random|greedy]"``
    (see ``dicechess.Agent``); the agents' randomness also comes from ``(seed, i)``. ``threads``:
    worker threads (default: all cores). ``progress``: show a tqdm bar (default:
    for runs of more than 20,000 games). Ctrl-C stops after the current chunk
    and returns the games finished so far with ``interrupted=True``.

    >>> r = playouts("chess", 8, seed=1)
    >>> len(r), r.winner.dtype.name
    (8, 'int8')
    """
    _check_run(n_games, seed, threads, chunk_size)
    specs = _check_agents(agents)
    all_random = all(a == "random" for a in specs)
    # Validates the variant and options before any work.
    _core.State(variant, **variant_options)

    def chunk(start: int, count: int) -> dict[str, np.ndarray]:
        if all_random:
            return _core._random_playouts(
                variant, int(seed), start, count, threads, **variant_options
            )
        return _core._playouts(
            variant, (specs[0], specs[1]), int(seed), start, count, threads, **variant_options
        )

    show = n_games > 20_000 if progress is None else progress
    parts, interrupted = _run_chunks(n_games, chunk_size, show, f"{variant} playouts", chunk)
    return _playout_result(variant, int(seed), variant_options, parts, interrupted)


def _playout_result(
    variant: str,
    seed: int,
    variant_options: dict[str, Any],
    parts: list[dict[str, np.ndarray]],
    interrupted: bool,
) -> PlayoutResult:
    """The :class:`PlayoutResult` of a run's chunks (the game arrays of each)."""
    return PlayoutResult(
        variant=variant,
        seed=seed,
        options=dict(_core.State(variant, **variant_options).options),
        winner=_concat(parts, "winner", np.int8),
        plies=_concat(parts, "plies", np.uint32),
        chance_events=_concat(parts, "chance_events", np.uint32),
        termination=_concat(parts, "termination", np.int8),
        player0_color=_concat(parts, "player0_color", np.int8),
        interrupted=interrupted,
    )


def _check_run(n_games: object, seed: object, threads: object, chunk_size: object) -> None:
    """Checks the arguments every batched run shares (TypeError/ValueError)."""
    if isinstance(n_games, bool) or not isinstance(n_games, (int, np.integer)):
        raise TypeError(f"n_games must be an int, got {type(n_games).__name__}")
    if not 0 <= n_games <= _MAX_GAMES:
        raise ValueError(f"n_games must be from 0 to {_MAX_GAMES}, got {n_games}")
    if not isinstance(seed, (int, np.integer)) or seed < 0 or seed >= 2**64:
        raise ValueError(f"seed must be an integer from 0 to 2**64-1, got {seed!r}")
    if threads is not None and (not isinstance(threads, int) or threads < 1):
        raise ValueError(f"threads must be a positive int or None, got {threads!r}")
    if not isinstance(chunk_size, (int, np.integer)) or chunk_size < 1:
        raise ValueError(f"chunk_size must be a positive int, got {chunk_size!r}")


def _check_agents(agents: Any) -> list[str]:
    """The two canonical agent specs (player 0 first)."""
    if len(agents) != 2:
        raise ValueError(f"agents must give one spec per player, got {len(agents)}")
    return [_check_agent(a) for a in agents]


def _run_chunks(
    n_games: int,
    chunk_size: int,
    show: bool,
    desc: str,
    chunk: Callable[[int, int], dict[str, np.ndarray]],
) -> tuple[list[dict[str, np.ndarray]], bool]:
    """Runs ``chunk(start, count)`` over the games in order, with a tqdm bar
    if ``show``. Ctrl-C stops after the current chunk: returns the finished
    chunks and whether the run was interrupted."""
    parts: list[dict[str, np.ndarray]] = []
    bar = None
    if show:
        from tqdm.auto import tqdm

        bar = tqdm(total=n_games, unit="game", desc=desc)
    interrupted = False
    try:
        for start in range(0, n_games, chunk_size):
            count = min(chunk_size, n_games - start)
            parts.append(chunk(start, count))
            if bar is not None:
                bar.update(count)
    except KeyboardInterrupt:
        interrupted = True
    finally:
        if bar is not None:
            bar.close()
    return parts, interrupted


def _concat(parts: list[dict[str, np.ndarray]], key: str, dtype: Any) -> np.ndarray:
    """One array from the chunks' arrays named ``key``."""
    if not parts:
        return np.zeros(0, dtype=dtype)
    return np.concatenate([p[key] for p in parts]).astype(dtype, copy=False)


def wilson_interval(successes: float, n: int, z: float = 1.959963984540054) -> tuple[float, float]:
    """Wilson score interval for a proportion (95% by default)."""
    if n == 0:
        return (0.0, 1.0)
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))
