"""How a batched run is executed: the run-control arguments that
:func:`dicechess.playouts`, :func:`dicechess.arena`,
:func:`dicechess.paired_games` and :func:`dicechess.roll_luck` share, checked
and defaulted in one place.

None of them changes which games are played: game ``i`` of a run depends only
on ``(seed, i)``, whatever the threads, chunks or backend.
"""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from .. import _core
from .local import run_local
from .shards import Shard

#: Where shards can run: one after another here, or as Ray tasks.
BACKENDS = ("local", "ray")


def _is_int(x: object) -> bool:
    return not isinstance(x, bool) and isinstance(x, (int, np.integer))


def check_seed(seed: object) -> None:
    if not _is_int(seed) or not 0 <= seed < 2**64:  # type: ignore[operator]
        raise ValueError(f"seed must be an integer from 0 to 2**64-1, got {seed!r}")


def check_threads(threads: object) -> None:
    if threads is not None and (not _is_int(threads) or not 1 <= threads <= _core.MAX_THREADS):  # type: ignore[operator]
        raise ValueError(
            f"threads must be an int from 1 to {_core.MAX_THREADS} or None (all cores), "
            f"got {threads!r}"
        )


def check_chunk_size(chunk_size: object) -> None:
    if not _is_int(chunk_size) or not 1 <= chunk_size <= _core.MAX_BATCH:  # type: ignore[operator]
        raise ValueError(
            f"chunk_size must be an int from 1 to {_core.MAX_BATCH} (games per call into "
            f"Rust), got {chunk_size!r}"
        )


def check_backend(backend: object) -> None:
    if backend not in BACKENDS:
        raise ValueError(f"unknown backend {backend!r}; choose one of {', '.join(BACKENDS)}")


@dataclass(frozen=True)
class RunOptions:
    """The run-control arguments of a batched run, validated on creation
    (ValueError/TypeError saying what is allowed).

    ``seed``: the run's seed, 0 to 2**64-1. ``threads``: worker threads, 1 to
    ``dicechess._core.MAX_THREADS``, or None for all cores. ``progress``: show a tqdm
    bar (None: the entry point decides by the run's size). ``chunk_size``: games
    (pairs for ``paired_games``) per call into Rust, 1 to ``_core.MAX_BATCH``, or None
    for the entry point's default. ``backend``: ``"local"`` or ``"ray"``;
    ``ray_address``: an existing Ray cluster (None: a local one). ``save``: a
    file path to write the games' records to (``dicechess.records``), or None.

    Every entry point takes these as keyword arguments, or all at once as
    ``options=RunOptions(...)``:

    >>> import dicechess as dc
    >>> run = dc.RunOptions(seed=1, threads=1)
    >>> bool((dc.playouts("chess", 4, options=run).plies
    ...       == dc.playouts("chess", 4, seed=1, threads=1).plies).all())
    True
    """

    seed: int = 0
    threads: int | None = None
    progress: bool | None = None
    chunk_size: int | None = None
    backend: str = "local"
    ray_address: str | None = None
    save: str | os.PathLike[str] | None = None

    def __post_init__(self) -> None:
        check_seed(self.seed)
        check_threads(self.threads)
        if self.chunk_size is not None:
            check_chunk_size(self.chunk_size)
        if self.progress is not None and not isinstance(self.progress, (bool, np.bool_)):
            raise TypeError(
                f"progress must be True, False or None (by the run's size), "
                f"got {type(self.progress).__name__}"
            )
        check_backend(self.backend)
        if self.ray_address is not None and not isinstance(self.ray_address, str):
            raise TypeError(
                f"ray_address must be a str (a Ray cluster's address) or None, "
                f"got {type(self.ray_address).__name__}"
            )
        if self.save is not None:
            from ..records import check_save_path

            check_save_path(self.save)

    @classmethod
    def resolve(
        cls, entry: str, options: RunOptions | None, default_chunk: int, *given: Any
    ) -> RunOptions:
        """The run options of a call of ``entry``, from its keyword arguments
        ``given`` in field order (seed, threads, progress, chunk_size, backend,
        ray_address, save; an entry point that cannot save gives no save), or
        from ``options`` (then ``given`` must be the defaults).
        ``default_chunk``: ``entry``'s chunk size, also for ``options`` without one."""
        names = [f.name for f in dataclasses.fields(cls)][: len(given)]
        keywords = dict(zip(names, given))
        if options is None:
            run = cls(**keywords)
        elif not isinstance(options, RunOptions):
            raise TypeError(f"options must be a dicechess.RunOptions, got {type(options).__name__}")
        else:
            defaults = dataclasses.replace(cls(), chunk_size=default_chunk)
            clash = [k for k, v in keywords.items() if v != getattr(defaults, k)]
            if clash:
                raise TypeError(
                    f"{entry}: give the run-control arguments either in options= or as "
                    f"keywords, not both (also given: {', '.join(clash)})"
                )
            run = options
        if run.chunk_size is None:
            run = dataclasses.replace(run, chunk_size=default_chunk)
        if "save" not in names and run.save is not None:
            raise ValueError(f"{entry} does not save games; leave save=None")
        return run

    @property
    def chunk(self) -> int:
        """The chunk size (set by :meth:`resolve`)."""
        assert self.chunk_size is not None
        return self.chunk_size

    def show_progress(self, work: int, above: int) -> bool:
        """Whether to show a bar: ``progress``, or by default for ``work`` over ``above``."""
        return work > above if self.progress is None else bool(self.progress)

    def run_shards(
        self, shards: Sequence[Shard], progress: bool, desc: str
    ) -> tuple[list[dict[str, np.ndarray]], bool]:
        """Runs ``shards`` with these options' threads and backend (see
        :func:`dicechess.runner.run_shards`)."""
        return run_shards(shards, self.threads, progress, desc, self.backend, self.ray_address)


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
    check_backend(backend)
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
