"""The unit of work of every batched run: a :class:`Shard` of games and the
Rust call that plays it."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Union

import numpy as np

from .. import _core
from .._core import State

#: An agent: a spec string understood by the core, or a Python callable
#: ``state -> action`` (the slow path: games with one run sequentially, GIL held).
AgentLike = Union[str, Callable[[State], int]]


def check_agent(spec: object) -> AgentLike:
    """The canonical spec (the core's parser raises ValueError listing the
    valid specs), or the callable itself."""
    if isinstance(spec, str):
        return _core._agent_spec(spec)
    if callable(spec):
        return spec
    raise TypeError(
        f"an agent must be a spec string or a callable state -> action, got "
        f"{type(spec).__name__}; valid specs: {_core.AGENT_SPECS}"
    )


def agent_name(agent: AgentLike) -> str:
    """A printable name: the spec, or the callable's name."""
    if isinstance(agent, str):
        return agent
    return getattr(agent, "__qualname__", None) or getattr(agent, "__name__", None) or repr(agent)


@dataclass(frozen=True)
class Shard:
    """Games ``start .. start + count`` of a run: the unit of work every
    backend runs (game ``i`` depends only on ``(seed, i)``, so shards can run
    anywhere, in any order, and be concatenated in index order)."""

    variant: str
    agents: tuple[AgentLike, AgentLike]
    seed: int
    start: int
    count: int
    options: dict[str, Any] = field(default_factory=dict)
    #: What to run: ``"playouts"`` (game records), ``"roll_luck"`` (records
    #: plus per-roll luck; ``params``: ``eval_depth``, ``per_roll``) or
    #: ``"paired"`` (``count`` pairs of games on common dice, seats swapped;
    #: arrays prefixed ``a_first_`` and ``b_first_``; ``params``:
    #: ``opening_plies``).
    kind: str = "playouts"
    params: dict[str, Any] = field(default_factory=dict)


def run_shard(shard: Shard, threads: int | None = None) -> dict[str, np.ndarray]:
    """Runs one shard in Rust (GIL released for built-in agents) and returns
    its per-game arrays by name."""
    a0, a1 = shard.agents
    run = (shard.seed, shard.start, shard.count)
    if shard.kind == "paired":
        both = _core._paired_playouts(
            shard.variant,
            (str(a0), str(a1)),
            *run,
            threads,
            int(shard.params.get("opening_plies", 0)),
            **shard.options,
        )
        return {f"{half}_{k}": v for half, arrays in both.items() for k, v in arrays.items()}
    if shard.kind == "roll_luck":
        eval_depth = int(shard.params["eval_depth"])
        per_roll = bool(shard.params.get("per_roll", False))
        evaluator = shard.params.get("evaluator")
        out = _core._roll_luck(
            shard.variant,
            (str(a0), str(a1)),
            eval_depth,
            *run,
            threads,
            per_roll,
            None if evaluator is None else str(evaluator),
            **shard.options,
        )
    elif callable(a0) or callable(a1):
        out = _core._playouts_callable(shard.variant, (a0, a1), *run, **shard.options)
    elif a0 == "random" and a1 == "random":
        out = _core._random_playouts(shard.variant, *run, threads, **shard.options)
    else:
        out = _core._playouts(shard.variant, (a0, a1), *run, threads, **shard.options)
    return dict(out)


def chunked(
    variant: str,
    agents: tuple[AgentLike, AgentLike],
    seed: int,
    start: int,
    count: int,
    chunk_size: int,
    options: dict[str, Any],
    kind: str = "playouts",
    params: dict[str, Any] | None = None,
) -> list[Shard]:
    """Games (or pairs) ``start .. start + count`` of a run as shards of at
    most ``chunk_size``, in index order."""
    return [
        Shard(
            variant,
            agents,
            int(seed),
            first,
            min(chunk_size, start + count - first),
            options,
            kind=kind,
            params=params or {},
        )
        for first in range(start, start + count, chunk_size)
    ]
