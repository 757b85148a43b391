"""The study's PNG plots (matplotlib, headless Agg backend), drawn from
``results.json`` alone so that a report can be redrawn without replaying."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import numpy as np

from ..analysis.ladder import CLASS_ELO as CLASS_ELO_STEP
from .config import CONTROLS
from .run import Study


def _figure(width: float = 7.5, height: float = 4.0, ncols: int = 1) -> tuple[Any, Any]:
    import matplotlib

    matplotlib.use("Agg", force=False)
    import matplotlib.pyplot as plt

    return plt.subplots(1, ncols, figsize=(width, height), dpi=110, squeeze=False)


def _save(fig: Any, path: Path) -> Path:
    import matplotlib.pyplot as plt

    from .report import write_atomic

    fig.tight_layout()
    write_atomic(path, fig.savefig)
    plt.close(fig)
    return path


#: Variant names under a plot: slanted, anchored at their right end so they do not collide.
_TICKS: dict[str, Any] = {"rotation": 30, "ha": "right", "fontsize": "small"}


def _yerr(y: np.ndarray, lo: np.ndarray, hi: np.ndarray) -> list[np.ndarray]:
    """Error-bar lengths below and above ``y`` (0 where unknown; a bootstrap
    percentile interval need not contain its point estimate, so never negative)."""
    return [np.clip(np.nan_to_num(y - lo), 0, None), np.clip(np.nan_to_num(hi - y), 0, None)]


def _style(v: str) -> dict[str, Any]:
    return {"ls": "--" if v in CONTROLS else "-", "marker": "o", "ms": 3}


def skill_curve(study: Study, path: Path) -> Path:
    """Elo against log2 compute, one line per variant, 95% bands; one panel per family."""
    rows = study.results["variants"]
    fams = list(next(iter(rows.values()))["families"])
    fig, axes = _figure(6.0 * len(fams), 4.4, ncols=len(fams))
    for ax, fam in zip(axes[0], fams):
        for v, r in rows.items():
            lad = r["families"][fam]["ladder"][1:]  # rung 0 (random) has no compute
            x = np.array([rung["log2_compute"] for rung in lad], dtype=float)
            y = np.array([rung["elo"] for rung in lad])
            lo = np.array([rung["low"] for rung in lad])
            hi = np.array([rung["high"] for rung in lad])
            (line,) = ax.plot(x, y, label=v, **_style(v))
            ax.fill_between(x, lo, hi, color=line.get_color(), alpha=0.12)
        ax.set_xlabel(f"log2 compute ({fam}: 2^k {'nodes' if fam == 'search' else 'sims'})")
        ax.set_ylabel("Elo above random (95% band)")
        ax.set_title(f"{fam} family")
    axes[0][-1].legend(fontsize="x-small", ncol=2)
    return _save(fig, path)


def skill_classes(study: Study, path: Path) -> Path:
    """Each variant's chain of rungs on the Elo scale, with the 200-Elo class
    boundaries as grid lines (headline family)."""
    rows = study.results["variants"]
    fig, axes = _figure(8.0, 4.4)
    ax = axes[0][0]
    top = 0.0
    for n, r in enumerate(rows.values()):
        elo = np.array([rung["elo"] for rung in r["ladder"]])
        top = max(top, float(np.nanmax(elo)))
        ax.plot([n] * len(elo), elo, "-", color="grey", lw=0.8)
        ax.scatter([n] * len(elo), elo, s=14, zorder=3)
        c = r["skill_classes"]
        ax.annotate(
            f"{c['value']:.1f}",
            (n, float(np.nanmax(elo))),
            xytext=(0, 4),
            textcoords="offset points",
            ha="center",
            va="bottom",
        )
    for k in range(0, int(top // CLASS_ELO_STEP) + 2):
        ax.axhline(k * CLASS_ELO_STEP, color="#ddd", lw=0.6, zorder=0)
    # Room above the highest rung for its label (skill classes), inside the frame.
    low = ax.get_ylim()[0]
    ax.set_ylim(low, top + 0.12 * (top - low))
    ax.set_xticks(range(len(rows)), list(rows), **_TICKS)
    ax.set_ylabel("Elo above random (grid: one class = 200 Elo)")
    ax.set_title("skill classes from random to the top rung")
    return _save(fig, path)


def _estimates(ax: Any, rows: dict[str, Any], key: str, label: str, fams: list[str]) -> None:
    x = np.arange(len(rows))
    width = 0.8 / len(fams)
    for k, fam in enumerate(fams):
        e = [r["families"][fam][key] for r in rows.values()]
        y = np.array([d["value"] for d in e], dtype=float)
        lo = np.array([d["low"] for d in e], dtype=float)
        hi = np.array([d["high"] for d in e], dtype=float)
        ax.errorbar(
            x + (k - (len(fams) - 1) / 2) * width,
            y,
            yerr=_yerr(y, lo, hi),
            fmt="o",
            capsize=3,
            label=fam,
        )
    ax.set_xticks(x, list(rows), **_TICKS)
    ax.set_ylabel(label)
    ax.legend(fontsize="x-small")


def luck(study: Study, path: Path) -> Path:
    """Luck alpha and the p-equivalent per variant, each family side by side."""
    rows = study.results["variants"]
    fams = list(next(iter(rows.values()))["families"])
    fig, axes = _figure(12.0, 4.2, ncols=2)
    _estimates(axes[0][0], rows, "luck_alpha", "luck α (share of coin-flip games)", fams)
    _estimates(axes[0][1], rows, "p_equivalent", "p-equivalent (1 = chess)", fams)
    axes[0][1].axhline(1.0, color="grey", lw=0.8, ls="--")
    return _save(fig, path)


def luck_adjusted(study: Study, path: Path) -> Path | None:
    """Share of the result variance luck explains, and the variance reduction
    of luck-adjusted results, per dice variant."""
    rows = {v: r["luck_adjusted"] for v, r in study.results["variants"].items()}
    rows = {v: la for v, la in rows.items() if la}
    if not rows:
        return None
    fig, axes = _figure()
    ax = axes[0][0]
    x = np.arange(len(rows))
    for k, (key, label) in enumerate(
        (
            ("variance_explained", "variance explained by luck"),
            ("variance_reduction", "variance reduction"),
        )
    ):
        y = np.array([la[key]["value"] for la in rows.values()], dtype=float)
        lo = np.array([la[key]["low"] for la in rows.values()], dtype=float)
        hi = np.array([la[key]["high"] for la in rows.values()], dtype=float)
        ax.errorbar(
            x + (k - 0.5) * 0.3,
            y,
            yerr=_yerr(y, lo, hi),
            fmt="o",
            capsize=3,
            label=label,
        )
    ax.axhline(0, color="grey", lw=0.8)
    ax.set_xticks(x, list(rows), **_TICKS)
    ax.set_ylabel("share of the result's variance")
    ax.set_title("luck-adjusted results: variance explained by luck and removed")
    ax.legend(fontsize="small")
    return _save(fig, path)


def colour_advantage(study: Study, path: Path) -> Path:
    """White's score per variant: in random play and pooled over every ladder game
    (left), and at each adjacent matchup of the headline family (right); 95% intervals."""
    rows = study.results["variants"]
    fig, axes = _figure(13.0, 4.2, ncols=2)
    ax = axes[0][0]
    x = np.arange(len(rows))
    for k, (label, get) in enumerate(
        (
            ("random play", lambda r: _triple(r["playouts"]["colour_advantage"])),
            ("ladder games (pooled)", lambda r: _triple(r["white_pooled"])),
        )
    ):
        t = np.array([get(r) for r in rows.values()], dtype=float)
        ax.errorbar(
            x + (k - 0.5) * 0.3,
            t[:, 0],
            yerr=_yerr(t[:, 0], t[:, 1], t[:, 2]),
            fmt="o",
            capsize=3,
            label=label,
        )
    ax.axhline(0.5, color="grey", lw=0.8, ls="--")
    ax.set_xticks(x, list(rows), **_TICKS)
    ax.set_ylabel("White's score")
    ax.legend(fontsize="small")
    ax = axes[0][1]
    for v, r in rows.items():
        adj = [w for w in r["white"] if _gap(r, w) == 1]
        ys = [w["white_score"]["value"] for w in adj]
        ax.plot(np.arange(1, len(ys) + 1), ys, label=v, **_style(v))
    ax.axhline(0.5, color="grey", lw=0.8, ls="--")
    ax.set_xlabel("matchup: rung k vs rung k-1 (search family)")
    ax.set_ylabel("White's score (intervals in the report's tables)")
    ax.legend(fontsize="x-small", ncol=2)
    return _save(fig, path)


def _triple(d: dict[str, Any]) -> tuple[float, float, float]:
    """(value, low, high) of an estimate or of colour_advantage's (white_score, lo, hi)."""
    if "white_score" in d:
        return d["white_score"], d["lo"], d["hi"]
    return d["value"], d["low"], d["high"]


def _gap(r: dict[str, Any], w: dict[str, Any]) -> int:
    specs = [rung["spec"] for rung in r["ladder"]]
    return specs.index(w["stronger"]) - specs.index(w["weaker"])


def game_lengths(study: Study, path: Path) -> Path:
    """Decisions per game in random play (median and quartiles)."""
    rows = study.results["variants"]
    fig, axes = _figure()
    ax = axes[0][0]
    x = np.arange(len(rows))
    q = np.array([r["playouts"]["plies_quartiles"] or [math.nan] * 3 for r in rows.values()])
    ax.errorbar(x, q[:, 1], yerr=[q[:, 1] - q[:, 0], q[:, 2] - q[:, 1]], fmt="s", capsize=4)
    ax.set_xticks(x, list(rows), **_TICKS)
    ax.set_ylabel("decisions per game (median, quartiles)")
    return _save(fig, path)


def calibration(study: Study, path: Path) -> Path | None:
    """Each twin's calibration curve per luck family (luck per game against the luck
    dial q, 95% band), every variant placed on it at its luck-equivalent."""
    cal = study.results.get("calibration")
    if not cal or not cal["curves"]:
        return None
    twins = sorted(cal["curves"])
    fams = list(cal["families"])
    fig, axes = _figure_grid(len(twins), len(fams))
    colours = palette(len(cal["variants"]))
    for r, twin in enumerate(twins):
        for c, fam in enumerate(fams):
            ax = axes[r][c]
            curve = cal["curves"][twin].get(fam)
            if curve is None:
                ax.set_visible(False)
                continue
            q = np.array(curve["q"])
            ax.fill_between(q, curve["lo"], curve["hi"], color="0.85", label="95% band")
            ax.plot(q, curve["measure"], "k-o", ms=3, label=f"{twin}:luck=q")
            for k, (v, row) in enumerate(cal["variants"].items()):
                e = row["families"].get(fam)
                if row["twin"] != twin or e is None or v == twin:
                    continue
                x, y = e["q"], e["measure"]["value"]
                ax.errorbar(
                    [x],
                    [y],
                    xerr=_yerr(np.array([x]), np.array([e["lo"]]), np.array([e["hi"]])),
                    fmt="o",
                    ms=4,
                    color=colours[k],
                    label=v,
                )
            ax.set_title(f"{fam} family, on {twin}", fontsize="medium")
            ax.set_xlabel("luck dial q (share of decisions made at random)")
            ax.set_ylabel("luck per game (mean |luck sum|)")
            ax.legend(fontsize="x-small", loc="upper left")
    fig.suptitle("Calibration: each variant placed on its twin's luck curve")
    return _save(fig, path)


def _figure_grid(nrows: int, ncols: int) -> tuple[Any, Any]:
    import matplotlib

    matplotlib.use("Agg", force=False)
    import matplotlib.pyplot as plt

    return plt.subplots(nrows, ncols, figsize=(4.2 * ncols, 3.6 * nrows), dpi=110, squeeze=False)


def palette(n: int) -> list[Any]:
    """``n`` distinct colours (RGBA) for categories: tab10's ten hues, then
    the light shades of tab20 (twenty in all; more raise ValueError rather
    than repeat a colour).

    >>> len(set(palette(12)))
    12
    """
    import matplotlib

    if n > 20:
        raise ValueError(f"palette has 20 distinct colours, {n} asked for")
    cmap = matplotlib.colormaps["tab20"]
    order = [*range(0, 20, 2), *range(1, 20, 2)]  # dark shades (tab10's hues) first
    return [cmap(i) for i in order[: max(n, 1)]]


PLOTS = {
    "skill_curve": (skill_curve, "Elo against log2 compute per variant (95% bands), each family."),
    "skill_classes": (
        skill_classes,
        "Each variant's ladder on the Elo scale; grid: 200-Elo classes.",
    ),
    "luck": (luck, "Luck α and p-equivalent per variant, each family (95% intervals)."),
    "luck_adjusted": (
        luck_adjusted,
        "Luck-adjusted results: variance explained by luck and removed (95% intervals).",
    ),
    "colour_advantage": (
        colour_advantage,
        "White's score in random play and over the ladder games (95% intervals), and at "
        "each adjacent matchup.",
    ),
    "game_lengths": (game_lengths, "Game lengths in random play."),
    "calibration": (
        calibration,
        "The headline's calibration: each twin's luck per game against its luck dial q "
        "(95% band), per luck family, with every variant placed at its luck-equivalent q.",
    ),
}


def make_plots(study: Study, out: Path) -> dict[str, tuple[Path, str]]:
    """Writes every plot as ``out/<name>.png``; returns (path, caption) by name."""
    made: dict[str, tuple[Path, str]] = {}
    if not study.results["variants"]:
        return made
    for name, (fn, caption) in PLOTS.items():
        p = fn(study, out / f"{name}.png")
        if p is not None:
            made[name] = (p, caption)
    return made
