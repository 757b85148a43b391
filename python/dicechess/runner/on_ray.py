"""The Ray backend: each :class:`~dicechess.Shard` of a batched run is one
Ray task, so playouts, arenas and studies spread over a cluster.

Used through ``backend="ray"`` (``dc.playouts``, ``dc.arena``, the study).
A shard is a pure function of its inputs (game ``i`` depends only on
``(seed, i)``), and results are keyed by shard index and concatenated in shard
order, so the arrays are identical to the local run's for any number of
workers, shard size or completion order.

Faults: a task whose worker process dies (crash, OOM kill, lost node) is
resubmitted by Ray up to :data:`MAX_RETRIES` times. A retried shard replays
exactly the same games, and only one result per shard index is kept, so no
game is lost or counted twice. Ctrl-C cancels the tasks still pending
(``ray.cancel(force=True)``) and returns the finished prefix of the shards.

Test hook: if the driver's environment sets :data:`FAULT_DIR_ENV` to a
directory, it is passed to the tasks (``runtime_env`` ``env_vars``) and the
first attempt of each shard creates a marker file there and kills its own
worker with ``os._exit(1)`` — a real worker death that Ray must retry. Shards
whose marker already exists run normally (pre-create markers to spare them).
"""

from __future__ import annotations

import logging
import os
from collections.abc import Sequence
from typing import Any

import numpy as np

from .shards import Shard, run_shard

#: Message of the ImportError raised when Ray is missing.
INSTALL_HINT = "backend='ray' needs Ray: pip install 'dicechess[ray]'"
#: Retries of a task whose worker died (Ray's ``max_retries``).
MAX_RETRIES = 3
#: Environment variable naming the fault-injection directory (tests only).
FAULT_DIR_ENV = "DICECHESS_RAY_FAULT_DIR"
#: In-flight tasks per CPU of the cluster: enough to keep every CPU busy while
#: results come back, few enough that huge runs don't flood the scheduler.
WINDOW_PER_CPU = 2

_remote_fn: Any = None


def _import_ray() -> Any:
    try:
        import ray
    except ImportError as e:
        raise ImportError(INSTALL_HINT) from e
    return ray


def connect(address: str | None = None) -> Any:
    """The ``ray`` module, connected: to the running Ray session if there is
    one, else to the cluster at ``address`` (e.g. ``"auto"`` or
    ``"ray://head:10001"``), else to a new quiet local cluster (no dashboard,
    worker logs not forwarded) that lives until ``ray.shutdown()`` or exit."""
    ray = _import_ray()
    if not ray.is_initialized():
        if address:
            ray.init(address=address, logging_level=logging.WARNING)
        else:
            ray.init(include_dashboard=False, log_to_driver=False, logging_level=logging.WARNING)
    return ray


def _maybe_die(shard: Shard) -> None:
    """The fault-injection hook (see the module docstring)."""
    fault_dir = os.environ.get(FAULT_DIR_ENV)
    if not fault_dir:
        return
    marker = os.path.join(fault_dir, f"shard-{shard.seed}-{shard.start}-{shard.count}")
    try:
        # O_EXCL: exactly one attempt of the shard creates the marker.
        os.close(os.open(marker, os.O_CREAT | os.O_EXCL | os.O_WRONLY))
    except FileExistsError:
        return
    os._exit(1)


def _play(shard: Shard, threads: int) -> dict[str, np.ndarray]:
    """The task body: one shard in Rust (GIL released for built-in agents)."""
    _maybe_die(shard)
    return run_shard(shard, threads)


def _remote(ray: Any) -> Any:
    global _remote_fn
    if _remote_fn is None:
        _remote_fn = ray.remote(max_retries=MAX_RETRIES)(_play)
    return _remote_fn


def _largest_node_cpus(ray: Any) -> float:
    return max((n["Resources"].get("CPU", 0.0) for n in ray.nodes() if n.get("Alive")), default=0)


def run_shards(
    shards: Sequence[Shard],
    threads: int | None = None,
    address: str | None = None,
    bar: Any = None,
) -> tuple[list[dict[str, np.ndarray]], bool]:
    """Runs each shard as a Ray task and returns ``(parts, interrupted)``:
    the per-shard arrays in shard order (on Ctrl-C: the finished prefix, and
    ``interrupted=True``).

    ``threads``: threads of each task, which reserves that many CPUs
    (default 1: one task per CPU, the parallelism comes from the tasks).
    ``address``: the cluster to join when Ray is not initialised yet.
    ``bar``: a tqdm bar advanced by each finished shard's game count.
    """
    ray = connect(address)
    per_task = 1 if threads is None else threads
    largest = _largest_node_cpus(ray)
    # No CPU node yet (e.g. an autoscaling cluster with a 0-CPU head): let Ray wait for one.
    if largest and per_task > largest:
        raise ValueError(
            f"threads={per_task} per Ray task, but the largest node has {largest:g} CPUs; "
            f"use threads <= {largest:g} (or None for one thread per task)"
        )
    opts: dict[str, Any] = {"num_cpus": per_task}
    fault_dir = os.environ.get(FAULT_DIR_ENV)
    if fault_dir:
        opts["runtime_env"] = {"env_vars": {FAULT_DIR_ENV: fault_dir}}
    task = _remote(ray).options(**opts)
    window = max(2, WINDOW_PER_CPU * int(ray.cluster_resources().get("CPU", 1) // per_task))

    results: dict[int, dict[str, np.ndarray]] = {}
    pending: dict[Any, int] = {}
    next_index = 0
    interrupted = False
    try:
        while len(results) < len(shards):
            while next_index < len(shards) and len(pending) < window:
                pending[task.remote(shards[next_index], per_task)] = next_index
                next_index += 1
            ready, _ = ray.wait(list(pending), num_returns=1)
            for ref in ready:
                i = pending.pop(ref)
                # Copies leave the object store and make the arrays writable.
                results[i] = {k: np.array(v) for k, v in ray.get(ref).items()}
                if bar is not None:
                    bar.update(shards[i].count)
    except KeyboardInterrupt:
        interrupted = True
    finally:
        # Ctrl-C or a failed shard: stop the tasks still queued or running.
        for ref in pending:
            ray.cancel(ref, force=True)
    prefix: list[dict[str, np.ndarray]] = []
    while len(prefix) in results:
        prefix.append(results[len(prefix)])
    return prefix, interrupted
