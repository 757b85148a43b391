"""Round-robin arenas between agents: every pair plays ``games_per_pair``
games in Rust (parallel, reproducible), colours alternated.

Game ``k`` of pair ``p`` (agents ``i < j`` in list order) is game index
``p * 2**32 + k`` of the run, so its dice and the agents' randomness depend
only on ``(seed, p, k)``: any thread count, chunking or backend gives the
same arrays. With ``swap_colours`` the first half of a pair's games (rounded
up) has agent ``i`` as player 0 (White in every variant's start position),
the second half agent ``j``.

>>> import dicechess as dc
>>> r = dc.arena("fluky", ["random", "greedy"], games_per_pair=4, seed=1)
>>> r.games, r.wins.shape
(4, (2, 2))
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from . import _core
from .records import save_arena, save_or_interrupt
from .sim import (
    DRAW,
    GAME_BYTES,
    AgentLike,
    RunOptions,
    Shard,
    _check_agent,
    agent_name,
    check_count,
    check_memory,
    chunked,
    count_results,
    game_arrays,
    player0_score,
)

#: Game indices of pair ``p`` start at ``p << PAIR_SHIFT``.
PAIR_SHIFT = 32


@dataclass
class ArenaResult:
    """Per-game numpy arrays of an :func:`arena` run, pair by pair in game order."""

    variant: str
    seed: int
    options: dict[str, Any]
    #: The agents' names, in the order given.
    agents: list[str]
    #: Agent index of player 0 / player 1 in each game; int16.
    player0: npt.NDArray[np.int16]
    player1: npt.NDArray[np.int16]
    #: Winning player 0/1, ``DRAW`` (-1) or ``TRUNCATED`` (-2); int8.
    winner: npt.NDArray[np.int8]
    plies: npt.NDArray[np.uint32]
    chance_events: npt.NDArray[np.uint32]
    #: Termination code, an index into ``dicechess.TERMINATIONS``; int8.
    termination: npt.NDArray[np.int8]
    #: Colour player 0 commands at the end (0 White, 1 Black); int8.
    player0_color: npt.NDArray[np.int8]
    games_per_pair: int = 0
    swap_colours: bool = True
    interrupted: bool = field(default=False)

    @property
    def games(self) -> int:
        """Games played."""
        return len(self.winner)

    @property
    def score0(self) -> npt.NDArray[np.float64]:
        """Player 0's score per game: 1 win, 0.5 draw or truncation, 0 loss."""
        return player0_score(self.winner)

    @property
    def wins(self) -> npt.NDArray[np.int64]:
        """``wins[i, j]``: games agent ``i`` won against agent ``j``."""
        return count_results(self.player0, self.player1, self.score0, len(self.agents))[0]

    @property
    def draws(self) -> npt.NDArray[np.int64]:
        """``draws[i, j]``: drawn or truncated games between ``i`` and ``j`` (symmetric)."""
        return count_results(self.player0, self.player1, self.score0, len(self.agents))[1]

    def scores(self) -> npt.NDArray[np.float64]:
        """``scores[i, j]``: agent ``i``'s mean score against ``j`` (NaN on the diagonal)."""
        w, d = self.wins, self.draws
        n = w + w.T + d
        with np.errstate(invalid="ignore", divide="ignore"):
            s = (w + 0.5 * d) / n
        s[n == 0] = np.nan
        return s

    def table(self) -> Any:
        """A tidy pandas DataFrame, one row per game and agent: ``game``,
        ``agent``, ``opponent``, ``colour`` (the colour the agent commands at
        the end: player 0 is White except in Random Move Number Chess, where
        colours are thrown and may switch), ``result`` (1, 0.5, 0),
        ``outcome`` (win/draw/loss/truncated), ``plies``, ``chance_events``,
        ``termination``. Needs pandas."""
        import pandas as pd

        n = self.games
        names = np.array(self.agents, dtype=object)
        s0 = self.score0
        games = np.arange(n)
        term = np.array(_core.TERMINATIONS, dtype=object)[self.termination.astype(np.int64)]

        def outcome(score: np.ndarray) -> np.ndarray:
            out = np.where(score == 1.0, "win", np.where(score == 0.0, "loss", "draw"))
            return np.where(self.winner == -2, "truncated", out).astype(object)

        colour0 = np.where(self.player0_color == 0, "white", "black").astype(object)
        colour1 = np.where(self.player0_color == 0, "black", "white").astype(object)
        half = {
            "game": games,
            "plies": self.plies,
            "chance_events": self.chance_events,
            "termination": term,
        }
        rows0 = pd.DataFrame(
            {
                **half,
                "agent": names[self.player0],
                "opponent": names[self.player1],
                "colour": colour0,
                "result": s0,
                "outcome": outcome(s0),
            }
        )
        rows1 = pd.DataFrame(
            {
                **half,
                "agent": names[self.player1],
                "opponent": names[self.player0],
                "colour": colour1,
                "result": 1.0 - s0,
                "outcome": outcome(1.0 - s0),
            }
        )
        cols = [
            "game",
            "agent",
            "opponent",
            "colour",
            "result",
            "outcome",
            "plies",
            "chance_events",
            "termination",
        ]
        out = pd.concat([rows0, rows1]).sort_values(["game", "colour"], kind="stable")
        return out[cols].reset_index(drop=True)

    def to_csv(self, path: str | Path) -> Path:
        """Writes :meth:`table` as CSV and returns the path."""
        p = Path(path)
        self.table().to_csv(p, index=False)
        return p

    def summary(self) -> dict[str, Any]:
        """Per agent: games, score and mean score; White's mean score overall."""
        k = len(self.agents)
        w, d = self.wins, self.draws
        games = (w + w.T + d).sum(axis=1)
        points = w.sum(axis=1) + 0.5 * d.sum(axis=1)
        return {
            "games": self.games,
            "agents": [
                {
                    "agent": self.agents[i],
                    "games": int(games[i]),
                    "points": float(points[i]),
                    "score": float(points[i] / games[i]) if games[i] else float("nan"),
                }
                for i in range(k)
            ],
            "player0_score": float(self.score0.mean()) if self.games else float("nan"),
            "draw_rate": float((self.winner == DRAW).mean()) if self.games else float("nan"),
            "truncated_rate": float((self.winner == -2).mean()) if self.games else float("nan"),
        }


def arena(
    variant: str,
    agents: Sequence[AgentLike],
    games_per_pair: int,
    seed: int = 0,
    swap_colours: bool = True,
    threads: int | None = None,
    progress: bool | None = None,
    chunk_size: int = 256,
    backend: str = "local",
    ray_address: str | None = None,
    save: str | os.PathLike[str] | None = None,
    options: RunOptions | None = None,
    **variant_options: Any,
) -> ArenaResult:
    """A round robin: every pair of ``agents`` plays ``games_per_pair`` games
    of ``variant`` (built-in agents in Rust with the GIL released, on
    ``threads`` threads; Python callables on the slow path). With
    ``swap_colours`` each agent of a pair is player 0 in half the games.
    ``progress``: a tqdm bar (default: when more than 2,000 games);
    Ctrl-C returns the games finished so far with ``interrupted=True``.
    ``backend="ray"`` runs the chunks as Ray tasks with identical results.
    ``save``: also write every game's record (``dicechess.records``) to this
    file, JSON Lines or PGN for a ``.pgn`` path, in the result's row order,
    tagged ``Player0``/``Player1`` (agent names), ``Game`` (row) and ``Pair``;
    the games are replayed with their actions recorded, so the results are
    the same with or without it (built-in agents only). ``options``: the
    run-control arguments (seed, threads, progress, chunk_size, backend,
    ray_address, save) at once as a :class:`dicechess.RunOptions`.
    """
    if isinstance(agents, (str, bytes)) or not isinstance(agents, Sequence):
        raise TypeError("agents must be a list of agent specs or callables")
    if len(agents) < 2:
        raise ValueError(f"an arena needs at least 2 agents, got {len(agents)}")
    n = check_count("games_per_pair", games_per_pair, 10**9)
    if n < 1:
        raise ValueError("games_per_pair must be at least 1")
    run = RunOptions.resolve(
        "arena", options, 256, seed, threads, progress, chunk_size, backend, ray_address, save
    )
    seed, chunk_size = run.seed, run.chunk
    specs = [_check_agent(a) for a in agents]
    if run.save is not None and not all(isinstance(a, str) for a in specs):
        raise ValueError("save= records games of built-in agents (spec strings) only")
    game_options = dict(_core.State(variant, **variant_options).options)
    k = len(specs)
    pairs = k * (k - 1) // 2
    # Per game also the two seat arrays (int16).
    check_memory(pairs * n, pairs * (2 + 2 * (-(-n // chunk_size))), GAME_BYTES + 4)
    shards: list[Shard] = []
    seats: list[tuple[int, int]] = []
    blocks: list[tuple[int, int, int, int, int]] = []  # for save=
    pair = 0
    for i in range(k):
        for j in range(i + 1, k):
            base = pair << PAIR_SHIFT
            first = (n + 1) // 2 if swap_colours else n
            for a, b, lo, hi in ((i, j, 0, first), (j, i, first, n)):
                part = chunked(
                    variant,
                    (specs[a], specs[b]),
                    seed,
                    base + lo,
                    hi - lo,
                    chunk_size,
                    variant_options,
                )
                shards.extend(part)
                seats.extend([(a, b)] * len(part))
                blocks.append((pair, a, b, base + lo, hi - lo))
            pair += 1
    total = sum(s.count for s in shards)
    parts, interrupted = run.run_shards(shards, run.show_progress(total, 2000), f"{variant} arena")
    # An interrupted run's last part may be shorter than its shard.
    sizes = [len(p["winner"]) for p in parts]
    p0 = [np.full(size, seats[x][0], dtype=np.int16) for x, size in enumerate(sizes)]
    p1 = [np.full(size, seats[x][1], dtype=np.int16) for x, size in enumerate(sizes)]
    result = ArenaResult(
        variant=variant,
        seed=int(seed),
        options=game_options,
        # Names as given (specs are validated, not rewritten to canonical form).
        agents=[a if isinstance(a, str) else agent_name(a) for a in agents],
        player0=np.concatenate(p0) if p0 else np.zeros(0, np.int16),
        player1=np.concatenate(p1) if p1 else np.zeros(0, np.int16),
        **game_arrays(parts),
        games_per_pair=n,
        swap_colours=swap_colours,
        interrupted=interrupted,
    )
    if run.save is not None:
        path = run.save
        save_or_interrupt(
            result,
            path,
            lambda: save_arena(path, result, specs, blocks, run.threads, variant_options),
        )
    return result
