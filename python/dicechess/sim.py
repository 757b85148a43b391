"""Batched playouts: many whole games in Rust, in parallel, reproducibly.

Game ``i`` of a run draws its randomness only from ``(seed, i)``, so the
arrays are identical for any ``threads`` and any chunking. Long runs show a
progress bar (tqdm: Jupyter and terminals) and stop cleanly on Ctrl-C.
"""

from __future__ import annotations

import math
import os
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import numpy.typing as npt

from . import _core
from .runner import (  # noqa: F401  (re-exported: sim.Shard, sim.TRUNCATED, ...)
    BACKENDS,
    DRAW,
    GAME_ARRAYS,
    TRUNCATED,
    AgentLike,
    RunOptions,
    Shard,
    agent_name,
    chunked,
    concat,
    count_results,
    game_arrays,
    player0_score,
    run_shard,
    run_shards,
)
from .runner import check_agent as _check_agent  # noqa: F401


def check_count(name: str, n: object, high: int = 10**10) -> int:
    """``n`` as an int in ``0..=high``, else TypeError/ValueError naming ``name``."""
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)):
        raise TypeError(f"{name} must be an int, got {type(n).__name__}")
    if not 0 <= n <= high:
        raise ValueError(f"{name} must be from 0 to {high}, got {n}")
    return int(n)


def check_run_args(seed: object, threads: object, chunk_size: object) -> None:
    """Validates the arguments every batched entry point shares (as
    :class:`RunOptions` does)."""
    RunOptions(seed=seed, threads=threads, chunk_size=chunk_size)  # type: ignore[arg-type]


#: Bytes of the per-game arrays of one game (``GAME_ARRAYS``).
GAME_BYTES = 11
#: Bytes a run keeps per chunk besides its arrays (the chunk's description
#: and its arrays' headers), a generous estimate.
SHARD_BYTES = 2048


def physical_memory() -> int | None:
    """This machine's physical memory in bytes, or None if unknown."""
    import os

    try:
        return int(os.sysconf("SC_PAGE_SIZE")) * int(os.sysconf("SC_PHYS_PAGES"))
    except (AttributeError, ValueError, OSError):
        return None


def check_memory(games: int, shards: int, bytes_per_game: int = GAME_BYTES) -> None:
    """ValueError if a run's results could never fit in this machine's memory
    (they are kept twice while the chunks are joined), before any work."""
    need = 2 * games * bytes_per_game + shards * SHARD_BYTES
    have = physical_memory()
    if have is not None and need > have:
        raise ValueError(
            f"{games} games in {shards} chunks need about {need / 1e9:.3g} GB for their "
            f"results, more than this machine's {have / 1e9:.3g} GB of memory; play fewer "
            f"games per call (different seeds give independent runs) or larger chunks"
        )


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
    #: The two agents' names (player 0 first).
    agents: tuple[str, str] = ("random", "random")

    def __len__(self) -> int:
        return len(self.winner)

    def summary(self) -> dict[str, Any]:
        """Counts and rates: wins per player and per colour, draws, truncations,
        termination reasons, mean plies and chance events."""
        n = len(self)
        if n == 0:
            return {"games": 0}
        w = self.winner
        # The colour of the winner at the end (per-player results, docs/rules.md §5).
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
    agents: tuple[AgentLike, AgentLike] = ("random", "random"),
    threads: int | None = None,
    progress: bool | None = None,
    chunk_size: int = 4096,
    backend: str = "local",
    ray_address: str | None = None,
    save: str | os.PathLike[str] | None = None,
    options: RunOptions | None = None,
    **variant_options: Any,
) -> PlayoutResult:
    """Play ``n_games`` whole games of ``variant`` in Rust (GIL released).

    ``agents``: one per player (player 0 first): a spec string, any of
    ``"random"``, ``"greedy"``, ``"expectimax:depth=N"``,
    ``"mcts:sims=N[,c=X][,select=puct|uct][,leaf=qsearch|static|material]
    [,chance=stratified|sample]"`` (see ``dicechess.Agent``), whose
    randomness also comes from ``(seed, i)``; or a Python callable
    ``state -> action`` (the slow path: it gets a copy of the state at each
    of its decisions and games run one at a time). ``threads``: worker
    threads (default: all cores). ``progress``: show a tqdm bar (default: for
    runs of more than 20,000 games). Ctrl-C stops within about a second and
    returns the games finished so far with ``interrupted=True``.
    ``backend="ray"`` runs the chunks as Ray tasks (``ray_address``: an
    existing cluster; default: a local one) with identical results.
    ``save``: also write every game's record to this JSON Lines file (PGN
    for a ``.pgn`` path; ``dicechess.records``; the games are replayed with their actions
    recorded, so runs without ``save`` cost nothing extra; built-in agents only).
    ``options``: all of these run-control arguments at once, as a
    :class:`dicechess.RunOptions` (then leave the keywords at their defaults).

    >>> r = playouts("chess", 8, seed=1)
    >>> len(r), r.winner.dtype.name
    (8, 'int8')
    """
    n_games = check_count("n_games", n_games)
    run = RunOptions.resolve(
        "playouts", options, 4096, seed, threads, progress, chunk_size, backend, ray_address, save
    )
    if len(agents) != 2:
        raise ValueError(f"agents must give one spec or callable per player, got {len(agents)}")
    specs = (_check_agent(agents[0]), _check_agent(agents[1]))
    if run.save is not None and not all(isinstance(a, str) for a in specs):
        raise ValueError("save= records games of built-in agents (spec strings) only")
    # Validates the variant and options before any work.
    game_options = dict(_core.State(variant, **variant_options).options)
    check_memory(n_games, -(-n_games // run.chunk))
    shards = chunked(variant, specs, int(run.seed), 0, n_games, run.chunk, variant_options)
    parts, interrupted = run.run_shards(
        shards, run.show_progress(n_games, 20_000), f"{variant} playouts"
    )
    result = playout_result(
        variant,
        int(run.seed),
        game_options,
        parts,
        interrupted,
        (agent_name(specs[0]), agent_name(specs[1])),
    )
    if run.save is not None:
        from .records import save_or_interrupt, save_playouts

        path = run.save
        save_or_interrupt(
            result,
            path,
            lambda: save_playouts(path, result, specs, run.threads, variant_options),
        )
    return result


def playout_result(
    variant: str,
    seed: int,
    options: dict[str, Any],
    parts: Sequence[dict[str, np.ndarray]],
    interrupted: bool,
    agents: tuple[str, str],
) -> PlayoutResult:
    """The :class:`PlayoutResult` of a run's shards (their per-game arrays)."""
    return PlayoutResult(
        variant=variant,
        seed=seed,
        options=options,
        **game_arrays(parts),
        interrupted=interrupted,
        agents=agents,
    )


def wilson_interval(
    successes: float, n: float, z: float = 1.959963984540054
) -> tuple[float, float]:
    """Wilson score interval for a proportion (95% by default; ``(0, 1)`` when ``n`` is 0).

    The one copy of the formula: ``dicechess.analysis.wilson_interval`` wraps it with a
    confidence level and input checks. Not scipy's ``binomtest(k, n).proportion_ci("wilson")``
    (equal for whole counts; tests/study/test_analysis.py compares them): scores count a draw
    as half a success, which binomtest refuses, and this module needs numpy only.
    """
    if n == 0:
        return (0.0, 1.0)
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))
