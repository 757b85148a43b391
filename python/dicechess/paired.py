"""Games in pairs on common dice: the variance-reduced way to compare two agents.

Pair ``k`` is two games: in the first agent A is player 0, in the second agent B
is; both draw their dice from one stream (the ``n``-th chance node of either game
uses the same random number, drawn from ``(seed, k, n)``), and the agents' own
tie-breaks from one generator. Dice that favour player 0 in one game favour B's
seat in the other, so most of the dice noise cancels within a pair and a pair's
mean score measures the difference in skill with less variance than two
independent games (common random numbers). With the same agent in both seats
both games of a pair are the same game.

>>> import dicechess as dc
>>> r = dc.paired_games("vegas", ("greedy", "random"), 4, seed=1, max_plies=60)
>>> r.pair_scores.shape, bool(0.0 <= r.score() <= 1.0)
((4,), True)
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import numpy.typing as npt

from . import _core
from .records import save_or_interrupt, save_pairs
from .sim import (
    GAME_ARRAYS,
    RunOptions,
    _check_agent,
    agent_name,
    check_count,
    check_memory,
    chunked,
    concat,
    player0_score,
)


@dataclass
class PairedResult:
    """Pairs of games between agents A and B on common dice.

    ``a_first`` and ``b_first`` hold the game arrays (``winner``, ``plies``,
    ``termination``, ... as in :class:`dicechess.PlayoutResult`) of the game in
    which A, respectively B, was player 0; index ``k`` is pair ``k``."""

    variant: str
    seed: int
    agents: tuple[str, str]
    options: dict[str, Any]
    a_first: dict[str, np.ndarray]
    b_first: dict[str, np.ndarray]
    interrupted: bool = False
    extra: dict[str, Any] = field(default_factory=dict)
    #: Random decisions both games of each pair opened with.
    opening_plies: int = 0

    def __len__(self) -> int:
        return len(self.a_first["winner"])

    @property
    def game_scores(self) -> npt.NDArray[np.float64]:
        """A's score in each game, shape ``(pairs, 2)``: column 0 the game in
        which A was player 0, column 1 the one in which B was (1 win, 0.5 draw
        or truncated, 0 loss)."""
        a0 = player0_score(self.a_first["winner"])
        b0 = player0_score(self.b_first["winner"])
        return np.stack([a0, 1.0 - b0], axis=1)

    @property
    def pair_scores(self) -> npt.NDArray[np.float64]:
        """A's mean score over each pair."""
        return self.game_scores.mean(axis=1)

    def score(self) -> float:
        """A's mean score over all games."""
        return float(self.pair_scores.mean()) if len(self) else float("nan")

    def score_interval(self, confidence: float = 0.95) -> tuple[float, float]:
        """A normal-approximation interval for A's mean score from the
        spread of the pair means (pairs are independent, games within a pair
        are not), clipped to ``[0, 1]``."""
        from statistics import NormalDist

        n = len(self)
        if n < 2:
            return (0.0, 1.0)
        z = NormalDist().inv_cdf(0.5 + confidence / 2)
        half = z * float(self.pair_scores.std(ddof=1)) / np.sqrt(n)
        m = self.score()
        return (max(0.0, m - half), min(1.0, m + half))

    def variance_reduction(self) -> float:
        """``1 - var(pair mean) / var(mean of two independent games)``: the
        share of the score's variance that pairing on common dice removes
        (0: none; negative would mean pairing hurt). The independent
        variance is that of the two games' scores taken separately,
        ``(var(col 0) + var(col 1)) / 4``. NaN with fewer than 2 pairs or no
        variance at all."""
        s = self.game_scores
        if len(s) < 2:
            return float("nan")
        unpaired = (s[:, 0].var(ddof=1) + s[:, 1].var(ddof=1)) / 4
        if unpaired == 0:
            return float("nan")
        return float(1.0 - s.mean(axis=1).var(ddof=1) / unpaired)


def paired_games(
    variant: str,
    agents: tuple[str, str],
    n_pairs: int,
    seed: int = 0,
    threads: int | None = None,
    progress: bool | None = None,
    chunk_size: int = 512,
    backend: str = "local",
    ray_address: str | None = None,
    opening_plies: int = 0,
    save: str | os.PathLike[str] | None = None,
    options: RunOptions | None = None,
    **variant_options: Any,
) -> PairedResult:
    """Play ``n_pairs`` pairs of games between agent specs A and B on common
    dice (``2 * n_pairs`` games, in Rust, GIL released); see the module doc.

    ``opening_plies``: both games of a pair open with this many uniformly
    random decisions drawn from the pair's own stream (the same moves in both
    games), so that deterministic agents do not replay one game in every
    pair of a game without dice; the agents decide from then on.

    ``threads``: worker threads (default: all cores); results do not depend on
    it, nor on ``chunk_size`` or ``backend`` (``"ray"``: chunks as Ray tasks).
    ``progress``: a tqdm bar (default: for more than 2,000 pairs). Ctrl-C stops
    within about a second and returns the pairs finished so far with
    ``interrupted=True``. ``save``: also write both games of every pair
    (``dicechess.records``; JSON Lines, or PGN for a ``.pgn`` path), pair by
    pair with A's game first, tagged ``Pair``, ``Player0Agent`` (``"A"`` or
    ``"B"``), ``Player0``/``Player1``, ``AgentA``/``AgentB``; the games are
    replayed with their actions recorded, so the results do not change.
    ``options``: the run-control arguments (seed, threads, progress,
    chunk_size, backend, ray_address, save) at once as a
    :class:`dicechess.RunOptions`."""
    n_pairs = check_count("n_pairs", n_pairs)
    if isinstance(opening_plies, bool) or not isinstance(opening_plies, (int, np.integer)):
        raise TypeError(f"opening_plies must be an int, got {type(opening_plies).__name__}")
    if not 0 <= opening_plies <= 1000:
        raise ValueError(f"opening_plies must be between 0 and 1000, got {opening_plies}")
    given = (seed, threads, progress, chunk_size, backend, ray_address, save)
    run = RunOptions.resolve("paired_games", options, 512, *given)
    if len(agents) != 2:
        raise ValueError(f"agents must give two specs (A and B), got {len(agents)}")
    specs = (_check_agent(agents[0]), _check_agent(agents[1]))
    if callable(specs[0]) or callable(specs[1]):
        raise TypeError("paired_games takes agent spec strings, not callables")
    game_options = dict(_core.State(variant, **variant_options).options)
    # Per pair: two games' arrays.
    check_memory(2 * n_pairs, -(-n_pairs // run.chunk))
    params = {"opening_plies": int(opening_plies)}
    shards = chunked(
        variant, specs, int(run.seed), 0, n_pairs, run.chunk, variant_options, "paired", params
    )
    show = run.show_progress(n_pairs, 2_000)
    parts, interrupted = run.run_shards(shards, show, f"{variant} pairs")
    halves = {
        half: {k: concat(parts, f"{half}_{k}", t) for k, t in GAME_ARRAYS.items()}
        for half in ("a_first", "b_first")
    }
    result = PairedResult(
        variant=variant,
        seed=int(run.seed),
        agents=(agent_name(specs[0]), agent_name(specs[1])),
        options=game_options,
        opening_plies=int(opening_plies),
        a_first=halves["a_first"],
        b_first=halves["b_first"],
        interrupted=interrupted,
    )
    if run.save is not None:
        path, names = run.save, (str(specs[0]), str(specs[1]))
        save_or_interrupt(
            result,
            path,
            lambda: save_pairs(path, result, names, run.threads, variant_options),
        )
    return result
