"""Shards run one after another in this process (each on a pool of threads)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from .shards import Shard, ShardInterrupted, run_shard


def run_local(
    shards: Sequence[Shard], threads: int | None, bar: Any = None
) -> tuple[list[dict[str, np.ndarray]], bool]:
    """Runs ``shards`` in order and returns their arrays; Ctrl-C keeps the
    games finished so far, a prefix of the run (``interrupted`` is then True)."""
    parts: list[dict[str, np.ndarray]] = []
    try:
        for shard in shards:
            parts.append(run_shard(shard, threads))
            if bar is not None:
                bar.update(shard.count)
    except ShardInterrupted as e:
        # The interrupted shard's finished pieces are kept too.
        if e.partial is not None:
            parts.append(e.partial)
        return parts, True
    except KeyboardInterrupt:
        return parts, True
    return parts, False
