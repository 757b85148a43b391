"""Per-roll luck along agent games (definition and sources: ``docs/luck.md``).

At every roll (a chance node with more than one possible outcome), player 0's
luck is ``V(after the actual outcome) - sum_o p_o * V(after o)``, where ``V``
is the ``expectimax:depth=eval_depth`` value for player 0 in ``[-1, 1]``;
player 1's luck is its negative. The games are exactly those of
:func:`dicechess.playouts` with the same seed and agents (the evaluator uses
no randomness), played and measured in Rust, in parallel, reproducibly.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np
import numpy.typing as npt

from . import _core
from .sim import (
    GAME_BYTES,
    PlayoutResult,
    RunOptions,
    check_count,
    check_memory,
    chunked,
    concat,
    player0_score,
    playout_result,
)

#: Per-roll arrays (``per_roll=True``), by the name of the core's array.
_ROLL_ARRAYS = {
    "roll_game": np.int64,
    "roll_ply": np.uint32,
    "roll_player": np.int8,
    "roll_luck": np.float64,
    "roll_v_expected": np.float64,
    "roll_v_actual": np.float64,
}


@dataclass
class RollLuckResult:
    """Per-game (and optionally per-roll) numpy arrays of a :func:`roll_luck` run."""

    #: The games: winners, plies, terminations, as :func:`dicechess.playouts` gives them.
    games: PlayoutResult
    #: Agent specs (player 0 first) and the evaluator's depth.
    agents: tuple[str, str]
    eval_depth: int
    #: Rolls per game (chance nodes with more than one possible outcome); uint32.
    n_rolls: npt.NDArray[np.uint32]
    #: Player 0's total luck per game; float64.
    luck_sum: npt.NDArray[np.float64]
    #: Sum of |luck| over a game's rolls; float64.
    abs_luck_sum: npt.NDArray[np.float64]
    #: Largest |luck| of one roll per game (0 without rolls); float64.
    max_abs_luck: npt.NDArray[np.float64]
    #: Per-roll arrays in game order (``None`` unless ``per_roll=True``): ``game``
    #: (game index), ``ply`` (decisions before the roll), ``player`` (player to move
    #: after the roll, -1 if none), ``luck`` (player 0's), ``v_expected``, ``v_actual``.
    rolls: dict[str, np.ndarray] | None = None
    interrupted: bool = field(default=False)

    def __len__(self) -> int:
        return len(self.luck_sum)

    def score(self) -> npt.NDArray[np.float64]:
        """Player 0's score per game: 1 win, 0.5 draw or truncation, 0 loss."""
        return player0_score(self.games.winner)

    def summary(self) -> dict[str, Any]:
        """Luck statistics of the run (needs scipy):

        - ``rolls_per_game``: mean rolls per game; ``mean_abs_luck_per_roll``: mean |luck|
          over all rolls; ``max_abs_luck``: the largest single-roll |luck|.
        - ``mean_game_luck`` and ``sd_game_luck``: mean and SD (ddof=1) of a game's
          total luck for player 0.
        - ``luck_score_r``, ``luck_score_p``: Pearson correlation between player 0's
          total luck and score (1/0.5/0) and its two-sided p-value; ``luck_score_r2``:
          R² of the least-squares line of score on total luck (``None`` when either
          is constant, e.g. chess).
        - ``decisive_games_with_luck``: decisive games whose total luck is not 0;
          ``luckier_won``: how many of them the luckier player won, ``luckier_win_rate``
          and its 95% Wilson interval ``luckier_win_rate_ci95`` (``None`` if no such game).
        """
        from scipy import stats

        n = len(self)
        if n == 0:
            return {"games": 0}
        rolls = int(self.n_rolls.sum())
        score = self.score()
        out: dict[str, Any] = {
            "games": n,
            "rolls": rolls,
            "rolls_per_game": rolls / n,
            "mean_abs_luck_per_roll": float(self.abs_luck_sum.sum() / rolls) if rolls else 0.0,
            "max_abs_luck": float(self.max_abs_luck.max()),
            "mean_game_luck": float(self.luck_sum.mean()),
            "sd_game_luck": float(self.luck_sum.std(ddof=1)) if n > 1 else 0.0,
            "luck_score_r": None,
            "luck_score_p": None,
            "luck_score_r2": None,
        }
        if n > 2 and np.ptp(self.luck_sum) > 0 and np.ptp(score) > 0:
            r, p = stats.pearsonr(self.luck_sum, score)
            out.update(luck_score_r=float(r), luck_score_p=float(p), luck_score_r2=float(r * r))
        w = self.games.winner
        decisive = (w >= 0) & (self.luck_sum != 0)
        luckier = np.where(self.luck_sum > 0, 0, 1)
        k, m = int((w[decisive] == luckier[decisive]).sum()), int(decisive.sum())
        out["decisive_games_with_luck"] = m
        out["luckier_won"] = k
        if m:
            ci = stats.binomtest(k, m).proportion_ci(confidence_level=0.95, method="wilson")
            out["luckier_win_rate"] = k / m
            out["luckier_win_rate_ci95"] = (float(ci.low), float(ci.high))
        else:
            out["luckier_win_rate"] = None
            out["luckier_win_rate_ci95"] = None
        return out

    def to_pandas(self, per_roll: bool = False) -> Any:
        """A DataFrame (needs pandas): one row per game (the game columns of
        :meth:`PlayoutResult.to_pandas` plus the luck columns and player 0's
        score), or with ``per_roll=True`` one row per roll (ValueError if the
        run did not record rolls)."""
        import pandas as pd

        if per_roll:
            if self.rolls is None:
                raise ValueError(
                    "this run has no per-roll arrays: run roll_luck(..., per_roll=True)"
                )
            return pd.DataFrame(self.rolls)
        df = self.games.to_pandas()
        df["score0"] = self.score()
        df["n_rolls"] = self.n_rolls
        df["luck_sum"] = self.luck_sum
        df["abs_luck_sum"] = self.abs_luck_sum
        df["max_abs_luck"] = self.max_abs_luck
        return df


def _check_spec(agent: object) -> str:
    """The canonical spec (roll_luck runs in Rust only: no callables)."""
    if not isinstance(agent, str):
        raise TypeError(
            f"roll_luck agents must be spec strings, got {type(agent).__name__}; "
            f"valid specs: {_core.AGENT_SPECS}"
        )
    return _core._agent_spec(agent)


def roll_luck(
    variant: str,
    n_games: int,
    agents: tuple[str, str] = ("greedy", "greedy"),
    eval_depth: int = 1,
    seed: int = 0,
    threads: int | None = None,
    progress: bool | None = None,
    per_roll: bool = False,
    chunk_size: int = 64,
    backend: str = "local",
    ray_address: str | None = None,
    evaluator: str | None = None,
    options: RunOptions | None = None,
    **variant_options: Any,
) -> RollLuckResult:
    """Play ``n_games`` games of ``variant`` between ``agents`` (player 0 first)
    and measure the luck of every roll with an ``expectimax:depth=eval_depth``
    value (``eval_depth`` from 1 to 4), in Rust with the GIL released.
    ``evaluator``: value the rolls with this agent spec instead (``greedy``,
    ``expectimax:depth=D``, or the search engine with a node or depth budget,
    e.g. ``"search:nodes=256"``, its centipawns mapped to an expected result by
    the 400-cp logistic); the games do not change with the evaluator.

    The games are those of ``dicechess.playouts(variant, n_games, seed, agents)``
    (same arrays). ``per_roll``: also keep one row per roll (memory grows with
    the rolls). ``threads``: worker threads (default: all cores). ``chunk_size``:
    games per call into Rust (a Vegas game takes about 0.3 s of CPU, so chunks
    are small for a live progress bar and a prompt Ctrl-C). ``progress``:
    a tqdm bar (default: for runs of more than 200 games). Ctrl-C stops within
    about a second and returns the games finished so far with
    ``interrupted=True``. ``backend="ray"`` runs the chunks as Ray tasks
    (identical results). Variants without dice (chess, cubic) have no rolls.
    ``options``: the run-control arguments (seed, threads, progress,
    chunk_size, backend, ray_address) at once as a :class:`dicechess.RunOptions`.

    >>> r = roll_luck("vegas", 2, seed=1, max_plies=20)
    >>> len(r), r.luck_sum.dtype.name, bool((r.n_rolls > 0).all())
    (2, 'float64', True)
    """
    n_games = check_count("n_games", n_games)
    run = RunOptions.resolve(
        "roll_luck", options, 64, seed, threads, progress, chunk_size, backend, ray_address
    )
    if len(agents) != 2:
        raise ValueError(f"agents must give one spec per player, got {len(agents)}")
    specs = (_check_spec(agents[0]), _check_spec(agents[1]))
    if isinstance(eval_depth, bool) or not isinstance(eval_depth, (int, np.integer)):
        raise TypeError(f"eval_depth must be an int, got {type(eval_depth).__name__}")
    # A run of no games validates the variant, options and eval_depth in Rust.
    if evaluator is not None and not isinstance(evaluator, str):
        raise TypeError(f"evaluator must be an agent spec string, got {type(evaluator).__name__}")
    _core._roll_luck(
        variant, specs, int(eval_depth), 0, 0, 0, None, False, evaluator, **variant_options
    )
    game_options = dict(_core.State(variant, **variant_options).options)
    # Per game: the game arrays and four luck numbers (per-roll rows grow
    # with the games played, not up front).
    check_memory(n_games, -(-n_games // run.chunk), GAME_BYTES + 28)
    params: dict[str, Any] = {"eval_depth": int(eval_depth), "per_roll": bool(per_roll)}
    if evaluator is not None:
        params["evaluator"] = evaluator
    shards = chunked(
        variant, specs, int(run.seed), 0, n_games, run.chunk, variant_options, "roll_luck", params
    )
    show = run.show_progress(n_games, 200)
    parts, interrupted = run.run_shards(shards, show, f"{variant} roll luck")
    games = playout_result(variant, int(run.seed), game_options, parts, interrupted, specs)
    rolls = None
    if per_roll:
        rolls = {k[5:]: concat(parts, k, t) for k, t in _ROLL_ARRAYS.items()}
    return RollLuckResult(
        games=games,
        agents=(specs[0], specs[1]),
        eval_depth=int(eval_depth),
        n_rolls=concat(parts, "n_rolls", np.uint32),
        luck_sum=concat(parts, "luck_sum", np.float64),
        abs_luck_sum=concat(parts, "abs_luck_sum", np.float64),
        max_abs_luck=concat(parts, "max_abs_luck", np.float64),
        rolls=rolls,
        interrupted=interrupted,
    )


__all__ = ["RollLuckResult", "roll_luck"]
