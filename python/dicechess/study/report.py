"""Writing a study: ``report.md``, ``report.html`` (plots embedded), PNG
plots, ``results.json`` and CSV tables. The report is built once as a list
of blocks and rendered to both Markdown and HTML, so the two never differ.
"""

from __future__ import annotations

import base64
import html
import json
import math
from pathlib import Path
from typing import Any

from .run import CONTROLS, Study

#: The files a study writes (besides the PNG plots).
OUTPUTS = (
    "report.md",
    "report.html",
    "results.json",
    "summary.csv",
    "ratings.csv",
    "arena_games.csv",
)

Block = tuple[Any, ...]


def _pct(x: float | None) -> str:
    return "–" if x is None or (isinstance(x, float) and math.isnan(x)) else f"{100 * x:.1f}%"


def _num(x: float | None, fmt: str = ".2f") -> str:
    if x is None or (isinstance(x, float) and (math.isnan(x) or math.isinf(x))):
        return "–"
    return format(x, fmt)


def summary_rows(results: dict[str, Any]) -> tuple[list[str], list[list[str]]]:
    """The headline table: one row per variant."""
    header = [
        "variant",
        "White score, random play (95% CI)",
        "arena draws",
        "luck share",
        "ladder depth",
        "rating spread (Elo)",
        "p-equivalent",
        "mean abs(luck) per roll",
        "luck–result r",
    ]
    rows = []
    for r in results["variants"]:
        c = r["playouts"]["colour_advantage"]
        pe = r["p_equivalent"]
        if pe is None:
            pe_text = "1 (reference)" if r["variant"] == "chess" else "–"
        else:
            pe_text = _num(pe["p"])
            if pe.get("interval"):
                pe_text += f" ({_num(pe['interval'][0])}–{_num(pe['interval'][1])})"
            if pe["clamped"] or not pe["variant_mle_exists"]:
                pe_text += " *"
        lk = r["roll_luck"]
        depth = r["ladder"]["depth"]
        rows.append(
            [
                r["variant"] + (" (control)" if r["variant"] in CONTROLS else ""),
                f"{_num(c['white_score'], '.3f')} ({_num(c['lo'], '.3f')}–{_num(c['hi'], '.3f')})",
                _pct(r["arena"]["draw_rate"] + r["arena"]["truncated_rate"]),
                _num(r["luck_share"]["share"]),
                f"{depth} of {len(r['arena']['agents'])}",
                _num(r["ratings"]["spread"], ".0f"),
                pe_text,
                _num(lk["mean_abs_luck_per_roll"], ".3f") if lk else "no dice",
                _num(lk["luck_score_r"]) if lk else "–",
            ]
        )
    return header, rows


def markdown_table(header: list[str], rows: list[list[str]]) -> str:
    """A GitHub-flavoured Markdown table."""
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(r) + " |" for r in rows]
    return "\n".join(lines)


def _ladder_rows(r: dict[str, Any]) -> list[list[str]]:
    rt = r["ratings"]
    order = sorted(range(len(rt["agents"])), key=lambda i: -rt["elo"][i])
    return [
        [
            rt["agents"][i],
            _num(rt["elo"][i], ".0f"),
            f"{_num(rt['lo'][i], '.0f')} … {_num(rt['hi'][i], '.0f')}",
        ]
        for i in order
    ]


def _pair_rows(r: dict[str, Any]) -> list[list[str]]:
    return [
        [
            f"{p['stronger']} > {p['weaker']}",
            _num(p["games"], ".0f"),
            _num(p["score"], ".3f"),
            f"{_num(p['lo'], '.3f')}–{_num(p['hi'], '.3f')}",
            "yes" if p["distinguishable"] else "no",
        ]
        for p in r["ladder"]["pairs"]
    ]


def ladder_rows(results: dict[str, Any]) -> tuple[list[str], list[list[str]]]:
    """Every variant's ladder: consecutive agents by rating, the stronger one's
    head-to-head score and Wilson interval (the skill-ladder evidence)."""
    header = ["variant", "stronger", "weaker", "games", "score", "95% Wilson", "distinguishable"]
    rows = [
        [r["variant"], p["stronger"], p["weaker"], *cells[1:]]
        for r in results["variants"]
        for p, cells in zip(r["ladder"]["pairs"], _pair_rows(r))
    ]
    return header, rows


def build_blocks(study: Study, plots: dict[str, Path]) -> list[Block]:
    """The report as blocks: ("h", level, text), ("p", text), ("table", header, rows),
    ("img", path, caption)."""
    res = study.results
    cfg = res["config"]
    b: list[Block] = [
        ("h", 1, "dicechess study: how much of each variant is luck?"),
        (
            "p",
            f"dicechess {res['dicechess_version']} (Python {res['python']}, numpy "
            f"{res['numpy']}), seed {cfg['seed']}, agents {', '.join(cfg['agents'])}; "
            f"{cfg['games_per_pair']} arena games per pair (colours alternated), "
            f"{cfg['playout_games']} random playouts and {cfg['luck_games']} greedy games for "
            f"per-roll luck per variant{' (quick run)' if cfg['quick'] else ''}. "
            f"Ran in {res['seconds']:.0f} s. Definitions and sources: docs/analysis.md and "
            "docs/luck.md.",
        ),
        ("table", *summary_rows(res)),
        (
            "p",
            "White score: random-vs-random playouts, draws and truncations as half points, "
            "Wilson interval. Luck share: Tango/Mauboussin decomposition of the arena's "
            "head-to-head scores (0 = results fully determined by who plays, 1 = coin flips); "
            "it is relative to the spread of skill among the agents, and the ladder spans a "
            "wide range, so compare it between variants rather than read it alone. "
            "Ladder depth: distinguishable levels among the agents (each stronger agent above "
            "0.5 with 95% confidence against the next). Rating spread: SD of "
            "Bradley–Terry–Davidson ratings. p-equivalent: the p for which p-chess (chess with "
            "a fraction 1−p of results replaced by coin flips) has the variant's rating spread "
            "(Duersch, Lambrecht & Oechssler 2020), with a bootstrap interval, over the agents "
            "without a perfect record in the variant; * = clamped to [0, 1], or still driven "
            "by the rating prior (some agent won or lost every game). Mean abs(luck) "
            "per roll: expected-result swing of a die roll for the player it favours, valued by "
            "expectimax; r: correlation of a game's total luck with its result.",
        ),
    ]
    for name, cap in (
        ("colour_advantage", "White's score in random play, 95% intervals."),
        ("ratings", "Ratings of the agent ladder per variant (Elo, 95% intervals)."),
        ("luck", "Luck share and p-equivalent per variant."),
        ("roll_luck", "Per-roll luck: distribution of |luck| per roll (greedy vs greedy)."),
        ("game_lengths", "Game lengths in random play (decisions per game)."),
    ):
        if name in plots:
            b.append(("img", plots[name], cap))
    b.append(("h", 2, "Skill ladders"))
    b.append(
        (
            "p",
            "Agents ordered by rating in each variant; each row is a consecutive pair in "
            "that order, with the stronger agent's head-to-head score (draws and "
            "truncations as half points, colours alternated).",
        )
    )
    b.append(("table", *ladder_rows(res)))
    for r in res["variants"]:
        b.append(("h", 2, r["variant"]))
        s = r["playouts"]
        b.append(
            (
                "p",
                f"Random play: {s['games']} games, White {s['white_wins']}, Black "
                f"{s['black_wins']}, draws {s['draws']}, truncated {s['truncated']}; mean "
                f"{s['mean_plies']:.1f} decisions and {s['mean_chance_events']:.1f} rolls per "
                f"game; endings: "
                + ", ".join(f"{k} {v}" for k, v in s["terminations"].items())
                + ".",
            )
        )
        b.append(("table", ["agent", "Elo", "95% interval"], _ladder_rows(r)))
        b.append(
            ("table", ["rung", "games", "score", "95% Wilson", "distinguishable"], _pair_rows(r))
        )
        lk = r["roll_luck"]
        if lk:
            b.append(
                (
                    "p",
                    f"Per-roll luck ({lk['games']} greedy games, "
                    f"{lk['rolls_per_game']:.1f} rolls per game): mean |luck| "
                    f"{lk['mean_abs_luck_per_roll']:.3f} per roll, SD of a game's total luck "
                    f"{lk['sd_game_luck']:.3f}; correlation with the result r = "
                    f"{_num(lk['luck_score_r'])} (p = {_num(lk['luck_score_p'], '.2g')}); "
                    f"the luckier player won {_pct(lk['luckier_win_rate'])} of decisive games.",
                )
            )
    return b


def render_markdown(blocks: list[Block]) -> str:
    """The blocks as Markdown (images by relative path)."""
    out = []
    for blk in blocks:
        if blk[0] == "h":
            out.append("#" * blk[1] + " " + blk[2])
        elif blk[0] == "p":
            out.append(blk[1])
        elif blk[0] == "table":
            out.append(markdown_table(blk[1], blk[2]))
        elif blk[0] == "img":
            out.append(f"![{blk[2]}]({Path(blk[1]).name})")
        out.append("")
    return "\n".join(out)


def render_html(blocks: list[Block]) -> str:
    """The blocks as one self-contained HTML page (plots embedded as data URIs)."""
    e = html.escape
    body = []
    for blk in blocks:
        if blk[0] == "h":
            body.append(f"<h{blk[1]}>{e(blk[2])}</h{blk[1]}>")
        elif blk[0] == "p":
            body.append(f"<p>{e(blk[1])}</p>")
        elif blk[0] == "table":
            head = "".join(f"<th>{e(h)}</th>" for h in blk[1])
            rows = "".join(
                "<tr>" + "".join(f"<td>{e(c)}</td>" for c in row) + "</tr>" for row in blk[2]
            )
            body.append(f"<table><thead><tr>{head}</tr></thead><tbody>{rows}</tbody></table>")
        elif blk[0] == "img":
            data = base64.b64encode(Path(blk[1]).read_bytes()).decode("ascii")
            body.append(
                f'<figure><img src="data:image/png;base64,{data}" alt="{e(blk[2])}">'
                f"<figcaption>{e(blk[2])}</figcaption></figure>"
            )
    style = (
        "body{font-family:system-ui,sans-serif;max-width:70em;margin:2em auto;padding:0 1em}"
        "table{border-collapse:collapse;margin:1em 0}td,th{border:1px solid #ccc;"
        "padding:.3em .6em;text-align:left}th{background:#f3f3f3}img{max-width:100%}"
    )
    return (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        f"<title>dicechess study</title><style>{style}</style></head><body>\n"
        + "\n".join(body)
        + "\n</body></html>\n"
    )


def existing_outputs(out: Path) -> list[Path]:
    """Report files already in ``out`` (a study refuses to overwrite them without force)."""
    return [out / n for n in OUTPUTS if (out / n).exists()]


def write_report(study: Study, out: Path, force: bool = False) -> list[Path]:
    """Writes every output into ``out`` and returns the paths written."""
    from .plots import make_plots

    out.mkdir(parents=True, exist_ok=True)
    existing = existing_outputs(out)
    if existing and not force:
        raise FileExistsError(
            f"{', '.join(str(p) for p in existing)} already exist; use --force to overwrite"
        )
    # The numbers first: whatever fails later, they are kept.
    (out / "results.json").write_text(json.dumps(study.results, indent=2), encoding="utf-8")
    written = [out / "results.json"]
    written += _write_csv(study, out)
    plots = make_plots(study, out)
    blocks = build_blocks(study, plots)
    written += list(plots.values())
    (out / "report.md").write_text(render_markdown(blocks), encoding="utf-8")
    (out / "report.html").write_text(render_html(blocks), encoding="utf-8")
    written += [out / "report.md", out / "report.html"]
    return written


def _write_csv(study: Study, out: Path) -> list[Path]:
    import pandas as pd

    header, rows = summary_rows(study.results)
    pd.DataFrame(rows, columns=header).to_csv(out / "summary.csv", index=False)
    ratings = [
        {
            "variant": r["variant"],
            "agent": a,
            "elo": r["ratings"]["elo"][i],
            "lo": r["ratings"]["lo"][i],
            "hi": r["ratings"]["hi"][i],
        }
        for r in study.results["variants"]
        for i, a in enumerate(r["ratings"]["agents"])
    ]
    pd.DataFrame(ratings).to_csv(out / "ratings.csv", index=False)
    games = [d.arena.table().assign(variant=v) for v, d in study.data.items()]
    pd.concat(games, ignore_index=True).to_csv(out / "arena_games.csv", index=False)
    return [out / "summary.csv", out / "ratings.csv", out / "arena_games.csv"]
