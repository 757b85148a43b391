"""The study: how do the variants play out? (the `dicechess study` main job).

This first version measures every variant with random-vs-random playouts:
colour advantage with Wilson intervals, draw and truncation rates, game
lengths, dice per game and how games end. The skill ladder (greedy,
expectimax, MCTS agents) and the luck-versus-skill measures build on it.
"""

from __future__ import annotations

import json
import platform
import time
from pathlib import Path
from typing import Any

from . import __version__, _core
from .sim import playouts, wilson_interval

DEFAULT_GAMES = 20_000
QUICK_GAMES = 500


def run_study(
    variants: list[str] | None = None,
    games: int = DEFAULT_GAMES,
    seed: int = 0,
    threads: int | None = None,
    progress: bool | None = None,
) -> dict[str, Any]:
    """Runs the study and returns its results (JSON-serialisable)."""
    names = variants or list(_core.variants())
    unknown = [v for v in names if v not in _core.variants()]
    if unknown:
        raise ValueError(
            f"unknown variant(s) {', '.join(unknown)}; known: {', '.join(_core.variants())}"
        )
    if games < 1:
        raise ValueError(f"games must be at least 1, got {games}")
    rows = []
    for i, v in enumerate(names):
        t0 = time.perf_counter()
        r = playouts(v, games, seed=seed + i, threads=threads, progress=progress)
        secs = time.perf_counter() - t0
        s = r.summary()
        n = s["games"]
        decisive = s["white_wins"] + s["black_wins"]
        row = {
            "variant": v,
            "options": r.options,
            "seed": seed + i,
            "seconds": secs,
            **s,
            "white_score": (s["white_wins"] + 0.5 * (n - decisive)) / n,
            "white_win_rate_ci95": wilson_interval(s["white_wins"], n),
            "black_win_rate_ci95": wilson_interval(s["black_wins"], n),
            "decisive_rate": decisive / n,
        }
        rows.append(row)
    return {
        "dicechess_version": __version__,
        "python": platform.python_version(),
        "agents": ["random", "random"],
        "games_per_variant": games,
        "seed": seed,
        "variants": rows,
    }


def _pct(x: float) -> str:
    return f"{100 * x:5.1f}%"


def format_table(results: dict[str, Any]) -> str:
    """A markdown table of the study's results."""
    lines = [
        "| variant | games | White wins (95% CI) | Black wins (95% CI) | draws | truncated "
        "| mean plies | dice/game | most common ending |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for r in results["variants"]:
        n = r["games"]
        wl, wh = r["white_win_rate_ci95"]
        bl, bh = r["black_win_rate_ci95"]
        top = max(r["terminations"].items(), key=lambda kv: kv[1])
        lines.append(
            f"| {r['variant']} | {n} | {_pct(r['white_wins'] / n)} ({_pct(wl)}–{_pct(wh)}) "
            f"| {_pct(r['black_wins'] / n)} ({_pct(bl)}–{_pct(bh)}) | {_pct(r['draws'] / n)} "
            f"| {_pct(r['truncated'] / n)} | {r['mean_plies']:.1f} "
            f"| {r['mean_chance_events']:.1f} | {top[0]} ({_pct(top[1] / n)}) |"
        )
    return "\n".join(lines)


def write_report(results: dict[str, Any], out: Path, force: bool = False) -> list[Path]:
    """Writes ``report.md`` and ``results.json`` into ``out``."""
    out.mkdir(parents=True, exist_ok=True)
    md, js = out / "report.md", out / "results.json"
    existing = [p for p in (md, js) if p.exists()]
    if existing and not force:
        raise FileExistsError(
            f"{', '.join(str(p) for p in existing)} already exist; use --force to overwrite"
        )
    text = [
        "# dicechess study",
        "",
        f"dicechess {results['dicechess_version']}, agents random vs random, "
        f"{results['games_per_variant']} games per variant, seed {results['seed']}.",
        "",
        format_table(results),
        "",
        "White/Black wins are by the colour a player commanded at the end of the game "
        "(Random Move Number Chess lets players switch colours). Intervals are Wilson "
        "score intervals. Truncated games reached the variant's `max_plies`.",
        "",
    ]
    md.write_text("\n".join(text), encoding="utf-8")
    js.write_text(json.dumps(results, indent=2), encoding="utf-8")
    return [md, js]
