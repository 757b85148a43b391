"""Running batched work: shards of games, executed locally or on Ray.

Layout (no module imports one above it): :mod:`.shards` (what a shard is and
the Rust call that plays it), :mod:`.results` (the per-game arrays),
:mod:`.local` and :mod:`.on_ray` (where shards run), and :func:`run_shards`
here, which picks the backend and shows progress.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from .local import run_local
from .results import (
    DRAW,
    GAME_ARRAYS,
    TRUNCATED,
    concat,
    count_results,
    game_arrays,
    player0_score,
)
from .shards import AgentLike, Shard, agent_name, check_agent, chunked, run_shard

__all__ = [
    "BACKENDS",
    "DRAW",
    "GAME_ARRAYS",
    "TRUNCATED",
    "AgentLike",
    "Shard",
    "agent_name",
    "check_agent",
    "chunked",
    "concat",
    "count_results",
    "game_arrays",
    "player0_score",
    "run_local",
    "run_shard",
    "run_shards",
]

BACKENDS = ("local", "ray")


def run_shards(
    shards: Sequence[Shard],
    threads: int | None = None,
    progress: bool = False,
    desc: str = "games",
    backend: str = "local",
    ray_address: str | None = None,
) -> tuple[list[dict[str, np.ndarray]], bool]:
    """Runs ``shards`` and returns their arrays in shard order, and whether
    the run was interrupted (Ctrl-C: the shards finished so far are kept).

    ``backend="local"`` runs the shards one after another, each on
    ``threads`` threads; ``"ray"`` runs each shard as a Ray task (see
    :mod:`dicechess.runner.on_ray`). Both return identical arrays."""
    if backend not in BACKENDS:
        raise ValueError(f"unknown backend {backend!r}; choose one of {', '.join(BACKENDS)}")
    total = sum(s.count for s in shards)
    bar = None
    if progress:
        from tqdm.auto import tqdm

        bar = tqdm(total=total, unit="game", desc=desc)
    parts: list[dict[str, np.ndarray]] = []
    interrupted = False
    try:
        if backend == "ray":
            from . import on_ray

            parts, interrupted = on_ray.run_shards(
                shards, threads=threads, address=ray_address, bar=bar
            )
        else:
            parts, interrupted = run_local(shards, threads, bar)
    except KeyboardInterrupt:
        interrupted = True
    finally:
        if bar is not None:
            bar.close()
    return parts, interrupted
