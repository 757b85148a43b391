"""Running batched work: shards of games, executed locally or on Ray.

Layout (no module imports one above it): :mod:`.shards` (what a shard is and
the Rust call that plays it), :mod:`.results` (the per-game arrays),
:mod:`.local` and :mod:`.on_ray` (where shards run), and :mod:`.options`:
:class:`RunOptions` (the run-control arguments, checked once) and
:func:`run_shards`, which picks the backend and shows progress.
"""

from __future__ import annotations

from .local import run_local
from .options import BACKENDS, RunOptions, run_shards
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
    "RunOptions",
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
