"""Batched playouts: many whole games in Rust, in parallel, reproducibly.

Game ``i`` of a run draws its randomness only from ``(seed, i)``, so the
arrays are identical for any ``threads`` and any chunking. Long runs show a
progress bar (tqdm: Jupyter and terminals) and stop cleanly on Ctrl-C.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Union

import numpy as np
import numpy.typing as npt

from . import _core
from ._core import State

#: ``winner`` code of a draw.
DRAW = -1
#: ``winner`` code of a game truncated at ``max_plies``.
TRUNCATED = -2


#: An agent: a spec string understood by the core, or a Python callable
#: ``state -> action`` (the slow path: games with one run sequentially, GIL held).
AgentLike = Union[str, Callable[[State], int]]


def _check_agent(spec: object) -> AgentLike:
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
    #: arrays prefixed ``a_first_`` and ``b_first_``).
    kind: str = "playouts"
    params: dict[str, Any] = field(default_factory=dict)


def run_shard(shard: Shard, threads: int | None = None) -> dict[str, np.ndarray]:
    """Runs one shard in Rust (GIL released for built-in agents) and returns
    its per-game arrays by name."""
    a0, a1 = shard.agents
    run = (shard.seed, shard.start, shard.count)
    if shard.kind == "paired":
        both = _core._paired_playouts(
            shard.variant, (str(a0), str(a1)), *run, threads, **shard.options
        )
        return {f"{half}_{k}": v for half, arrays in both.items() for k, v in arrays.items()}
    if shard.kind == "roll_luck":
        eval_depth = int(shard.params["eval_depth"])
        per_roll = bool(shard.params.get("per_roll", False))
        out = _core._roll_luck(
            shard.variant, (str(a0), str(a1)), eval_depth, *run, threads, per_roll, **shard.options
        )
    elif callable(a0) or callable(a1):
        out = _core._playouts_callable(shard.variant, (a0, a1), *run, **shard.options)
    elif a0 == "random" and a1 == "random":
        out = _core._random_playouts(shard.variant, *run, threads, **shard.options)
    else:
        out = _core._playouts(shard.variant, (a0, a1), *run, threads, **shard.options)
    return dict(out)


def player0_score(winner: npt.ArrayLike) -> npt.NDArray[np.float64]:
    """Player 0's score per game from ``winner`` codes: 1 for a win, 0 for a
    loss, 0.5 for a draw or a truncated game."""
    w = np.asarray(winner)
    return np.where(w == 0, 1.0, np.where(w == 1, 0.0, 0.5))


def count_results(
    agent_a: np.ndarray, agent_b: np.ndarray, score_a: np.ndarray, k: int
) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    """``(wins, draws)`` k x k counts from per-game agent indices and
    ``agent_a``'s scores (0, 0.5, 1), inputs already checked: ``wins[i, j]``
    games ``i`` won against ``j``; ``draws`` symmetric."""
    wins = np.zeros((k, k), dtype=np.int64)
    draws = np.zeros((k, k), dtype=np.int64)
    np.add.at(wins, (agent_a[score_a == 1], agent_b[score_a == 1]), 1)
    np.add.at(wins, (agent_b[score_a == 0], agent_a[score_a == 0]), 1)
    half = score_a == 0.5
    np.add.at(draws, (agent_a[half], agent_b[half]), 1)
    np.add.at(draws, (agent_b[half], agent_a[half]), 1)
    return wins, draws


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
    :mod:`dicechess.ray_backend`). Both return identical arrays."""
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
            from . import ray_backend

            parts, interrupted = ray_backend.run_shards(
                shards, threads=threads, address=ray_address, bar=bar
            )
        else:
            for shard in shards:
                parts.append(run_shard(shard, threads))
                if bar is not None:
                    bar.update(shard.count)
    except KeyboardInterrupt:
        interrupted = True
    finally:
        if bar is not None:
            bar.close()
    return parts, interrupted


def concat(parts: Sequence[dict[str, np.ndarray]], key: str, dtype: Any) -> np.ndarray:
    """One array from the parts' arrays under ``key`` (empty if none)."""
    if not parts:
        return np.zeros(0, dtype=dtype)
    return np.concatenate([p[key] for p in parts]).astype(dtype, copy=False)


#: The per-game arrays of every batched run (playouts, arenas, roll luck),
#: with their dtypes.
GAME_ARRAYS: dict[str, Any] = {
    "winner": np.int8,
    "plies": np.uint32,
    "chance_events": np.uint32,
    "termination": np.int8,
    "player0_color": np.int8,
}


def game_arrays(parts: Sequence[dict[str, np.ndarray]]) -> dict[str, np.ndarray]:
    """The per-game arrays of a run, concatenated from its shards' parts."""
    return {k: concat(parts, k, t) for k, t in GAME_ARRAYS.items()}


def check_count(name: str, n: object, high: int = 10**10) -> int:
    """``n`` as an int in ``0..=high``, else TypeError/ValueError naming ``name``."""
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)):
        raise TypeError(f"{name} must be an int, got {type(n).__name__}")
    if not 0 <= n <= high:
        raise ValueError(f"{name} must be from 0 to {high}, got {n}")
    return int(n)


def check_run_args(seed: object, threads: object, chunk_size: object) -> None:
    """Validates the arguments every batched entry point shares."""
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or not 0 <= seed < 2**64:
        raise ValueError(f"seed must be an integer from 0 to 2**64-1, got {seed!r}")
    if threads is not None and (
        isinstance(threads, bool)
        or not isinstance(threads, (int, np.integer))
        or not 1 <= threads <= _core.MAX_THREADS
    ):
        raise ValueError(
            f"threads must be an int from 1 to {_core.MAX_THREADS} or None (all cores), "
            f"got {threads!r}"
        )
    if (
        isinstance(chunk_size, bool)
        or not isinstance(chunk_size, (int, np.integer))
        or not 1 <= chunk_size <= _core.MAX_BATCH
    ):
        raise ValueError(
            f"chunk_size must be an int from 1 to {_core.MAX_BATCH} (games per call into "
            f"Rust), got {chunk_size!r}"
        )


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
    **variant_options: Any,
) -> PlayoutResult:
    """Play ``n_games`` whole games of ``variant`` in Rust (GIL released).

    ``agents``: one per player (player 0 first): a spec string, any of
    ``"random"``, ``"greedy"``, ``"expectimax:depth=N"``,
    ``"mcts:sims=N[,c=X][,rollout=random|greedy]"`` (see ``dicechess.Agent``), whose
    randomness also comes from ``(seed, i)``; or a Python callable
    ``state -> action`` (the slow path: it gets a copy of the state at each
    of its decisions and games run one at a time). ``threads``: worker
    threads (default: all cores). ``progress``: show a tqdm bar (default: for
    runs of more than 20,000 games). Ctrl-C stops after the current chunk and
    returns the games finished so far with ``interrupted=True``.
    ``backend="ray"`` runs the chunks as Ray tasks (``ray_address``: an
    existing cluster; default: a local one) with identical results.

    >>> r = playouts("chess", 8, seed=1)
    >>> len(r), r.winner.dtype.name
    (8, 'int8')
    """
    n_games = check_count("n_games", n_games)
    check_run_args(seed, threads, chunk_size)
    if len(agents) != 2:
        raise ValueError(f"agents must give one spec or callable per player, got {len(agents)}")
    specs = (_check_agent(agents[0]), _check_agent(agents[1]))
    # Validates the variant and options before any work.
    options = dict(_core.State(variant, **variant_options).options)
    check_memory(n_games, -(-n_games // chunk_size))
    shards = [
        Shard(variant, specs, int(seed), start, min(chunk_size, n_games - start), variant_options)
        for start in range(0, n_games, chunk_size)
    ]
    show = n_games > 20_000 if progress is None else progress
    parts, interrupted = run_shards(
        shards, threads, show, f"{variant} playouts", backend, ray_address
    )
    return playout_result(
        variant,
        int(seed),
        options,
        parts,
        interrupted,
        (agent_name(specs[0]), agent_name(specs[1])),
    )


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
    confidence level and input checks.
    """
    if n == 0:
        return (0.0, 1.0)
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))
