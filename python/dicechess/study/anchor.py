"""Anchoring the chess ladder to absolute Elo: a gauntlet of the top chess rung
against Stockfish at several ``UCI_Elo`` levels (python-chess's UCI module;
skipped with a reason when Stockfish or python-chess is missing).

The top rung's Elo is the maximum-likelihood rating against the levels'
ratings (draws as half points), its interval a bootstrap over the games; the
chess ladder then shifts by (that Elo − the top rung's rating above random).
``UCI_Elo`` is calibrated by Stockfish's authors at a time control far from
ours, so the anchor is indicative; it is reported, never used by the other
measures.
"""

from __future__ import annotations

import math
import random
import shutil
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np

#: Stockfish levels of the gauntlet (clamped to the range the installed
#: Stockfish accepts: 1320..3190 today, 1350..2850 in older versions).
LEVELS = (1350, 1600, 1900)
#: Stockfish's thinking time per move (seconds).
STOCKFISH_SECONDS = 0.02


def stockfish_path() -> str | None:
    """The Stockfish binary (PATH, or Debian's /usr/games), or None."""
    return shutil.which("stockfish") or (
        "/usr/games/stockfish" if Path("/usr/games/stockfish").exists() else None
    )


def random_opening(rng: random.Random, plies: int) -> str:
    """The FEN after ``plies`` uniformly random chess moves (fewer if the game ends)."""
    import dicechess as dc

    s = dc.State("chess")
    for _ in range(plies):
        if s.is_terminal():
            break
        s.apply_action(rng.choice(s.legal_actions()))
    return s.fen()


def play_stockfish(
    engine: Any, spec: str, fen: str, agent_white: bool, secs: float, seed: int
) -> float:
    """One chess game of the agent ``spec`` (White if ``agent_white``) against
    ``engine`` from ``fen``; the agent's points (1, 0.5, 0)."""
    import chess
    import chess.engine

    import dicechess as dc

    s = dc.State("chess", fen=fen, max_plies=400)
    board = chess.Board(fen)
    agent = dc.Agent(spec, seed=seed)
    while not s.is_terminal():
        if (board.turn == chess.WHITE) == agent_white:
            a = agent.select(s)
            board.push_san(s.action_to_string(a))
        else:
            mv = engine.play(board, chess.engine.Limit(time=secs)).move
            a = s.string_to_action(board.san(mv))
            board.push(mv)
        s.apply_action(a)
    r = s.returns()[0]  # player 0 is White
    mine = r if agent_white else -r
    return (mine + 1) / 2


def fit_elo(levels: Sequence[float], points: Sequence[float], games: Sequence[int]) -> float:
    """The maximum-likelihood Elo of a player who scored ``points[k]`` in
    ``games[k]`` games against opponents rated ``levels[k]`` (bounded to
    ±1000 Elo around the levels, so perfect records stay finite)."""
    from scipy.optimize import minimize_scalar

    lv = np.asarray(levels, dtype=float)
    s = np.asarray(points, dtype=float)
    n = np.asarray(games, dtype=float)

    def nll(r: float) -> float:
        p = 1 / (1 + 10 ** ((lv - r) / 400))
        p = np.clip(p, 1e-12, 1 - 1e-12)
        return float(-(s * np.log(p) + (n - s) * np.log1p(-p)).sum())

    res = minimize_scalar(nll, bounds=(lv.min() - 1000, lv.max() + 1000), method="bounded")
    return float(res.x)


def gauntlet(
    spec: str,
    games: int,
    seed: int,
    opening_plies: int = 4,
    levels: Sequence[int] = LEVELS,
    secs: float = STOCKFISH_SECONDS,
    n_boot: int = 200,
    tick: Callable[[str], None] | None = None,
) -> dict[str, Any]:
    """``spec`` against Stockfish at each level, ``games`` games a level (each
    random opening twice, colours swapped). Returns the per-level scores and
    the fitted Elo with a bootstrap interval, or ``{"skipped": reason}``."""
    path = stockfish_path()
    if path is None:
        return {"skipped": "stockfish not found (apt-get install stockfish)"}
    try:
        import chess.engine
    except ImportError:
        return {"skipped": "python-chess is not installed (pip install chess)"}
    rng = random.Random(seed)
    per_game: list[list[float]] = []
    played: list[int] = []
    for wanted in levels:
        if tick is not None:
            tick(f"chess anchor: {spec} vs Stockfish {wanted}")
        engine = chess.engine.SimpleEngine.popen_uci(path)
        try:
            opt = engine.options["UCI_Elo"]
            lo_elo = int(opt.min) if opt.min is not None else wanted
            hi_elo = int(opt.max) if opt.max is not None else wanted
            level = min(max(wanted, lo_elo), hi_elo)
            played.append(level)
            engine.configure({"UCI_LimitStrength": True, "UCI_Elo": level, "Threads": 1})
            pts = []
            fen = random_opening(rng, opening_plies)
            for i in range(games):
                if i % 2 == 0:
                    fen = random_opening(rng, opening_plies)
                pts.append(play_stockfish(engine, spec, fen, i % 2 == 0, secs, seed + i))
        finally:
            engine.quit()
        per_game.append(pts)
    levels = played
    top = fit_elo(levels, [sum(p) for p in per_game], [len(p) for p in per_game])
    boot_rng = np.random.default_rng(seed)
    boot = []
    for _ in range(n_boot):
        res = [np.asarray(p)[boot_rng.integers(0, len(p), len(p))] for p in per_game]
        boot.append(fit_elo(levels, [r.sum() for r in res], [len(r) for r in res]))
    lo, hi = np.quantile(boot, [0.025, 0.975])
    top_elo: dict[str, Any] = {"value": top, "low": float(lo), "high": float(hi)}
    total = sum(sum(p) for p in per_game)
    n_all = sum(len(p) for p in per_game)
    if total in (0, n_all):
        # A perfect record: the likelihood has no maximum, so report the
        # one-sided 95% bound instead of a number set by the search bounds.
        won = total == n_all
        bound = perfect_record_bound(levels, [len(p) for p in per_game], won)
        top_elo = {
            "value": bound,
            "low": bound if won else math.nan,
            "high": math.nan if won else bound,
            "one_sided": "at least" if won else "at most",
        }
    rows = []
    for level, p in zip(levels, per_game):
        score = sum(p) / len(p)
        rows.append(
            {
                "level": level,
                "games": len(p),
                "score": score,
                "elo": _implied(level, p, boot_rng, n_boot),
            }
        )
    return {
        "spec": spec,
        "stockfish_seconds": secs,
        "opening_plies": opening_plies,
        "levels": rows,
        "top_elo": top_elo,
    }


def perfect_record_bound(levels: Sequence[int], games: Sequence[int], won: bool) -> float:
    """The Elo at which a record of all wins (``won``) or all losses against
    ``levels`` has probability 5%: a one-sided 95% bound."""
    from scipy.optimize import brentq

    lv = np.asarray(levels, dtype=float)
    n = np.asarray(games, dtype=float)

    def log_p(r: float) -> float:
        p_win = 1 / (1 + 10 ** ((lv - r) / 400))
        p = p_win if won else 1 - p_win
        return float((n * np.log(np.clip(p, 1e-300, 1))).sum()) - math.log(0.05)

    # log_p is monotone in r (rising for all wins, falling for all losses).
    return float(brentq(log_p, lv.min() - 2000, lv.max() + 2000))


def _implied(level: int, pts: list[float], rng: np.random.Generator, n_boot: int) -> dict:
    """The Elo that one level's score implies, with a bootstrap interval."""
    point = fit_elo([level], [sum(pts)], [len(pts)])
    a = np.asarray(pts)
    boot = [
        fit_elo([level], [a[rng.integers(0, len(a), len(a))].sum()], [len(a)])
        for _ in range(min(n_boot, 100))
    ]
    lo, hi = np.quantile(boot, [0.025, 0.975])
    return {"value": point, "low": float(lo), "high": float(hi)}


def anchor_ladder(anchor: dict[str, Any], ladder: list[dict[str, Any]]) -> dict[str, Any]:
    """Adds the offset and each chess rung's absolute Elo to a gauntlet result."""
    if anchor.get("skipped"):
        return anchor
    top = next(r for r in ladder if r["spec"] == anchor["spec"])
    offset = anchor["top_elo"]["value"] - top["elo"]
    if not math.isfinite(offset):
        return {**anchor, "skipped": "the top rung's rating is not finite"}
    return {
        **anchor,
        "offset": offset,
        "ladder": [{"spec": r["spec"], "absolute_elo": r["elo"] + offset} for r in ladder],
    }
