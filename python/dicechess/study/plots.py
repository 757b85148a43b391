"""The study's PNG plots (matplotlib, headless Agg backend)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from .run import Study


def _figure(width: float = 7.0, height: float = 3.6) -> tuple[Any, Any]:
    import matplotlib

    matplotlib.use("Agg", force=False)
    import matplotlib.pyplot as plt

    return plt.subplots(figsize=(width, height), dpi=110)


def _save(fig: Any, path: Path) -> Path:
    import matplotlib.pyplot as plt

    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)
    return path


def colour_advantage(study: Study, path: Path) -> Path:
    """White's score in random play with its interval, per variant."""
    rows = study.results["variants"]
    fig, ax = _figure()
    y = np.array([r["playouts"]["colour_advantage"]["white_score"] for r in rows])
    lo = np.array([r["playouts"]["colour_advantage"]["lo"] for r in rows])
    hi = np.array([r["playouts"]["colour_advantage"]["hi"] for r in rows])
    x = np.arange(len(rows))
    ax.errorbar(x, y, yerr=[y - lo, hi - y], fmt="o", capsize=4)
    ax.axhline(0.5, color="grey", lw=0.8, ls="--")
    ax.set_xticks(x, [r["variant"] for r in rows], rotation=20)
    ax.set_ylabel("White score (random play)")
    return _save(fig, path)


def ratings(study: Study, path: Path) -> Path:
    """Elo of each agent per variant, with intervals (clipped to the plot)."""
    rows = study.results["variants"]
    agents = rows[0]["ratings"]["agents"]
    fig, ax = _figure(7.5, 4.0)
    x = np.arange(len(rows))
    width = 0.8 / max(1, len(agents))
    for k, a in enumerate(agents):
        e = np.array([r["ratings"]["elo"][r["ratings"]["agents"].index(a)] for r in rows])
        lo = np.array([r["ratings"]["lo"][r["ratings"]["agents"].index(a)] for r in rows])
        hi = np.array([r["ratings"]["hi"][r["ratings"]["agents"].index(a)] for r in rows])
        ax.errorbar(
            x + (k - (len(agents) - 1) / 2) * width,
            e,
            yerr=[np.clip(e - lo, 0, 1500), np.clip(hi - e, 0, 1500)],
            fmt="o",
            capsize=3,
            label=a,
        )
    ax.set_xticks(x, [r["variant"] for r in rows], rotation=20)
    ax.set_ylabel("rating (Elo, anchored at the first agent)")
    ax.legend(fontsize="small")
    return _save(fig, path)


def luck(study: Study, path: Path) -> Path:
    """Luck share and p-equivalent per variant."""
    rows = study.results["variants"]
    fig, ax = _figure()
    x = np.arange(len(rows))
    share = [r["luck_share"]["share"] for r in rows]
    pe = [
        1.0 if r["variant"] == "chess" else (r["p_equivalent"] or {}).get("p", np.nan) for r in rows
    ]
    ax.bar(x - 0.2, share, 0.4, label="luck share")
    ax.bar(x + 0.2, pe, 0.4, label="p-equivalent (1 = chess)")
    ax.set_xticks(x, [r["variant"] for r in rows], rotation=20)
    ax.set_ylim(0, 1.05)
    ax.legend(fontsize="small")
    return _save(fig, path)


def roll_luck(study: Study, path: Path) -> Path | None:
    """Distribution of |luck| per roll, per dice variant."""
    per = {v: d.luck for v, d in study.data.items() if d.luck is not None}
    per = {v: lk for v, lk in per.items() if lk.rolls is not None and len(lk.rolls["luck"])}
    if not per:
        return None
    fig, ax = _figure()
    ax.boxplot([np.abs(lk.rolls["luck"]) for lk in per.values() if lk.rolls], showfliers=False)
    ax.set_xticks(np.arange(1, len(per) + 1), list(per), rotation=20)
    ax.set_ylabel("|luck| of a roll (expected result)")
    return _save(fig, path)


def game_lengths(study: Study, path: Path) -> Path:
    """Decisions per game in random play."""
    fig, ax = _figure()
    names = list(study.data)
    ax.boxplot([d.playouts.plies.astype(float) for d in study.data.values()], showfliers=False)
    ax.set_xticks(np.arange(1, len(names) + 1), names, rotation=20)
    ax.set_ylabel("decisions per game")
    return _save(fig, path)


def make_plots(study: Study, out: Path) -> dict[str, Path]:
    """Writes every plot as ``out/<name>.png``; returns them by name."""
    made: dict[str, Path] = {}
    for name, fn in (
        ("colour_advantage", colour_advantage),
        ("ratings", ratings),
        ("luck", luck),
        ("roll_luck", roll_luck),
        ("game_lengths", game_lengths),
    ):
        p = fn(study, out / f"{name}.png")
        if p is not None:
            made[name] = p
    return made
