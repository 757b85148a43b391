"""The unit of work of every batched run: a :class:`Shard` of games and the
Rust call that plays it."""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass, field, replace
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
        if spec.startswith("zero:"):
            # A trained network (dicechess.zero): a Python agent.
            from ..zero import ZeroAgent

            return ZeroAgent.from_spec(spec)
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


class ShardInterrupted(KeyboardInterrupt):
    """Ctrl-C during a shard: ``partial`` holds the arrays of the shard's
    first games, those finished in whole pieces before it (None if none)."""

    def __init__(self, partial: dict[str, np.ndarray] | None) -> None:
        super().__init__("interrupted")
        self.partial = partial


def piece_size(shard: Shard, threads: int | None) -> int:
    """Games per Rust call within a shard: all of them for random agents
    (fast), else eight per worker thread (enough to keep the threads busy
    while games of different lengths finish). Ctrl-C keeps the games
    finished before it in every piece, the one in progress included (see
    :func:`run_shard`); pieces bound how long one call runs."""
    if shard.agents == ("random", "random"):
        return max(shard.count, 1)
    return 8 * (threads or os.cpu_count() or 1)


def run_shard(shard: Shard, threads: int | None = None) -> dict[str, np.ndarray]:
    """Runs one shard in Rust (GIL released for built-in agents) and returns
    its per-game arrays by name. Ctrl-C raises :class:`ShardInterrupted`
    with the shard's first games, every one finished before it: those of
    the pieces done (see :func:`piece_size`) and those the interrupted call
    finished (the core raises them as the ``KeyboardInterrupt``'s
    ``partial``; the game it cut short is not among them)."""
    size = piece_size(shard, threads)
    pieces: list[dict[str, np.ndarray]] = []
    try:
        for lo in range(0, max(shard.count, 1), size):
            piece = shard
            if size < shard.count:
                piece = replace(shard, start=shard.start + lo, count=min(size, shard.count - lo))
            pieces.append(_run(piece, threads))
    except KeyboardInterrupt as e:
        partial = _partial(shard, e)
        if partial is not None:
            pieces.append(partial)
        raise ShardInterrupted(_join(pieces) if pieces else None) from e
    return pieces[0] if len(pieces) == 1 else _join(pieces)


def _join(pieces: list[dict[str, np.ndarray]]) -> dict[str, np.ndarray]:
    """The pieces' arrays concatenated in order (roll arrays hold absolute
    game indices, so they concatenate as they are)."""
    return {k: np.concatenate([p[k] for p in pieces]) for k in pieces[0]}


def _partial(shard: Shard, e: KeyboardInterrupt) -> dict[str, np.ndarray] | None:
    """The arrays of the games an interrupted call finished (its
    exception's ``partial``), None if it finished none."""
    out = getattr(e, "partial", None)
    if not isinstance(out, dict):
        return None
    arrays = _arrays(shard, out)
    first = next(iter(arrays.values()), None)
    return arrays if first is not None and len(first) else None


def _arrays(shard: Shard, out: Any) -> dict[str, np.ndarray]:
    """A call's result as arrays by name (a paired run's two halves
    flattened to ``a_first_*`` and ``b_first_*``)."""
    if shard.kind == "paired":
        return {f"{half}_{k}": v for half, arrays in out.items() for k, v in arrays.items()}
    return dict(out)


def _run(shard: Shard, threads: int | None) -> dict[str, np.ndarray]:
    """One Rust call for the whole ``shard``."""
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
        return _arrays(shard, both)
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
