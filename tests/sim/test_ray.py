"""backend="ray": identical arrays to the local backend, retried worker
deaths, Ctrl-C, and the errors when Ray is missing or misused."""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import dicechess as dc
from dicechess import ray_backend
from dicechess.sim import Shard, run_shard

PLAYOUT_KEYS = ["winner", "plies", "chance_events", "termination", "player0_color"]
ARENA_KEYS = ["player0", "player1", *PLAYOUT_KEYS]


@pytest.fixture(scope="module")
def ray_cluster() -> Iterator[Any]:
    """One local 2-CPU cluster for the module (startup costs seconds)."""
    ray = pytest.importorskip("ray")
    if ray.is_initialized():
        ray.shutdown()
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, logging_level="WARNING")
    yield ray
    ray.shutdown()


def same(a: Any, b: Any, keys: list[str]) -> bool:
    return len(a.winner) == len(b.winner) and all(
        np.array_equal(getattr(a, k), getattr(b, k)) for k in keys
    )


@pytest.mark.parametrize(
    ("variant", "agents", "n", "chunk_size"),
    [
        ("fluky", ("random", "random"), 600, 1),
        ("fluky", ("random", "random"), 3000, 700),
        ("vegas", ("greedy", "random"), 100, 16),
        ("chess", ("random", "greedy"), 200, 50),
        ("chess", ("random", "random"), 500, 4096),
    ],
)
def test_playouts_identical_to_local(
    ray_cluster: Any, variant: str, agents: tuple[str, str], n: int, chunk_size: int
) -> None:
    # chunk_size=1 with 600 games also exercises the in-flight window.
    r = dc.playouts(variant, n, seed=7, agents=agents, chunk_size=chunk_size, backend="ray")
    local = dc.playouts(variant, n, seed=7, agents=agents)
    assert not r.interrupted and r.agents == local.agents
    assert same(r, local, PLAYOUT_KEYS)
    other = dc.playouts(variant, n, seed=8, agents=agents, chunk_size=chunk_size, backend="ray")
    assert not same(r, other, PLAYOUT_KEYS)


def test_callable_agent_on_ray(ray_cluster: Any) -> None:
    """Python callables are pickled to the workers (the slow path)."""

    def first_legal(state: dc.State) -> int:
        return state.legal_actions()[0]

    args = ("fluky", 20)
    r = dc.playouts(*args, seed=3, agents=(first_legal, "random"), chunk_size=6, backend="ray")
    local = dc.playouts(*args, seed=3, agents=(first_legal, "random"))
    assert same(r, local, PLAYOUT_KEYS)


def test_arena_identical_to_local(ray_cluster: Any) -> None:
    args = ("random_move_number", ["random", "greedy", "expectimax:depth=1"])
    r = dc.arena(*args, games_per_pair=9, seed=5, chunk_size=4, backend="ray")
    local = dc.arena(*args, games_per_pair=9, seed=5)
    assert not r.interrupted and r.agents == local.agents
    assert same(r, local, ARENA_KEYS)
    assert np.array_equal(r.wins, local.wins)


def test_killed_workers_are_retried(
    ray_cluster: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The first attempt of every shard kills its worker process: Ray retries
    each, and every game is there exactly once."""
    monkeypatch.setenv(ray_backend.FAULT_DIR_ENV, str(tmp_path))
    r = dc.playouts("fluky", 900, seed=2, chunk_size=300, backend="ray")
    markers = sorted(p.name for p in tmp_path.iterdir())
    assert markers == [f"shard-2-{s}-300" for s in (0, 300, 600)]
    monkeypatch.delenv(ray_backend.FAULT_DIR_ENV)
    assert same(r, dc.playouts("fluky", 900, seed=2), PLAYOUT_KEYS)


class InterruptingBar:
    """A progress bar that raises Ctrl-C once ``after`` games are reported."""

    def __init__(self, after: int) -> None:
        self.n, self.after = 0, after

    def update(self, k: int) -> None:
        self.n += k
        if self.n >= self.after:
            raise KeyboardInterrupt


def test_ctrl_c_returns_the_finished_prefix(ray_cluster: Any) -> None:
    shards = [Shard("chess", ("random", "random"), 4, s, 20, {}) for s in range(0, 400, 20)]
    parts, interrupted = ray_backend.run_shards(shards, bar=InterruptingBar(20))
    assert interrupted and 0 <= len(parts) < len(shards)
    for part, shard in zip(parts, shards):
        assert np.array_equal(part["plies"], run_shard(shard)["plies"])


def wait_for(condition: Any, seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.05)
    return True


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


def test_ctrl_c_kills_the_running_tasks(ray_cluster: Any, tmp_path: Path) -> None:
    """A shard still playing when Ctrl-C comes is stopped, not left running
    on the cluster: its worker process is killed (``ray.cancel(force=True)``)."""
    marks = str(tmp_path)

    def slow_first_legal(state: dc.State) -> int:
        # Says which worker runs it, then plays one move per 50 ms: the game
        # (up to 2,000 plies) would take over a minute.
        open(os.path.join(marks, f"worker-{os.getpid()}"), "a").close()
        time.sleep(0.05)
        return state.legal_actions()[0]

    def slow_worker() -> list[int]:
        return [int(p.name.split("-")[1]) for p in tmp_path.iterdir()]

    class CtrlCOnceSlowShardRuns:
        def update(self, k: int) -> None:
            # Generous bounds: a loaded machine may start workers slowly.
            assert wait_for(slow_worker, 600), "the slow shard never started"
            raise KeyboardInterrupt

    fast = Shard("fluky", ("random", "random"), 1, 0, 4, {})
    slow = Shard("chess", (slow_first_legal, "random"), 1, 4, 1, {"max_plies": 2000})
    parts, interrupted = ray_backend.run_shards([fast, slow], bar=CtrlCOnceSlowShardRuns())
    assert interrupted and len(parts) == 1
    assert np.array_equal(parts[0]["plies"], run_shard(fast)["plies"])
    (pid,) = slow_worker()
    # The game alone would run for over a minute; the kill comes well before
    # this bound (a hang guard, not a timing test).
    assert wait_for(lambda: not alive(pid), 600), f"worker {pid} still runs the cancelled shard"
    # The cluster goes on working.
    r = dc.playouts("fluky", 50, seed=9, chunk_size=25, backend="ray")
    assert same(r, dc.playouts("fluky", 50, seed=9), PLAYOUT_KEYS)


def test_threads_beyond_a_node_is_a_value_error(ray_cluster: Any) -> None:
    with pytest.raises(ValueError, match="threads=3 per Ray task.*2 CPUs"):
        dc.playouts("fluky", 10, threads=3, backend="ray")


def test_missing_ray_says_how_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)
    with pytest.raises(ImportError, match=r"pip install 'dicechess\[ray\]'"):
        dc.playouts("fluky", 10, backend="ray")
    with pytest.raises(ImportError, match=r"pip install 'dicechess\[ray\]'"):
        dc.arena("fluky", ["random", "greedy"], 2, backend="ray")


def test_unknown_backend_is_a_value_error() -> None:
    with pytest.raises(ValueError, match="unknown backend 'dask'; choose one of local, ray"):
        dc.playouts("fluky", 10, backend="dask")
    with pytest.raises(ValueError, match="unknown backend 'dask'"):
        dc.arena("fluky", ["random", "greedy"], 2, backend="dask")


def test_an_error_in_a_shard_propagates(ray_cluster: Any) -> None:
    """Errors raised by the games are not retried: the caller gets them."""

    def broken(state: dc.State) -> int:
        raise RuntimeError("agent broke")

    with pytest.raises(RuntimeError, match="agent broke"):
        dc.playouts("fluky", 12, agents=(broken, "random"), chunk_size=3, backend="ray")


def test_roll_luck_identical_to_local(ray_cluster: Any) -> None:
    args = ("vegas", 6)
    kw = {"seed": 3, "per_roll": True, "chunk_size": 2, "max_plies": 60}
    r = dc.roll_luck(*args, backend="ray", **kw)
    local = dc.roll_luck(*args, **kw)
    assert np.array_equal(r.luck_sum, local.luck_sum)
    assert r.rolls is not None and local.rolls is not None
    assert np.array_equal(r.rolls["luck"], local.rolls["luck"])


def test_study_on_ray_equals_local(ray_cluster: Any, tmp_path: Path) -> None:
    """`dicechess study --ray` writes the numbers of the local run."""
    import json

    from dicechess.cli import main

    argv = ["study", "--quick", "--variants", "chess,fluky", "--games", "4"]
    argv += ["--playout-games", "40", "--luck-games", "3", "--no-progress"]
    assert main([*argv, "--ray", "--out", str(tmp_path / "ray")]) == 0
    assert main([*argv, "--out", str(tmp_path / "local")]) == 0
    rows = [
        json.loads((tmp_path / d / "results.json").read_text())["variants"]
        for d in ("ray", "local")
    ]
    strip = lambda rs: json.dumps(  # noqa: E731
        {v: {k: x for k, x in r.items() if k != "seconds"} for v, r in rs.items()}
    )
    assert strip(rows[0]) == strip(rows[1])
