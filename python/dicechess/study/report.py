"""Writing a study: ``report.md``, ``report.html`` (plots embedded), PNG
plots, ``results.json``, CSV tables and the raw games. The report is built
once as a list of blocks and rendered to both Markdown and HTML, so the two
never differ.
"""

from __future__ import annotations

import base64
import html
import json
import math
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

from .config import CONTROLS, HEADLINE_FAMILY
from .run import Study

#: The files a study writes (besides the PNG plots and ``raw/``).
OUTPUTS = (
    "report.md",
    "report.html",
    "results.json",
    "summary.csv",
    "ladders.csv",
    "matchups.csv",
)

Block = tuple[Any, ...]
LADDER_COLUMNS = ("spec", "log2_compute", "elo", "low", "high", "games")


def _num(x: float | None, fmt: str = ".2f") -> str:
    if x is None or (isinstance(x, float) and (math.isnan(x) or math.isinf(x))):
        return "–"
    return format(x, fmt)


def _est(e: dict[str, float] | None, fmt: str = ".2f") -> str:
    """``value [low, high]``."""
    if not e or e.get("value") is None or not math.isfinite(e["value"]):
        return "–"
    return f"{_num(e['value'], fmt)} [{_num(e['low'], fmt)}, {_num(e['high'], fmt)}]"


def _flags(r: dict[str, Any]) -> str:
    d = r["robustness"]["disagreements"]
    if not d:
        return "agree"
    return "; ".join(f"{x['measure']}: {' vs '.join(x['ladders'])}" for x in d)


def summary_rows(results: dict[str, Any]) -> tuple[list[str], list[list[str]]]:
    """The headline table: one row per variant (headline family)."""
    header = [
        "variant",
        "Elo per doubling",
        "skill classes (from random)",
        "skill classes (from the first search rung)",
        "luck α",
        "depth β",
        "p-equivalent",
        "luck-adjusted variance reduction",
        "pairing variance reduction",
        "White, random play",
        "White, ladder games",
        "robustness",
    ]
    rows = []
    for v, r in results["variants"].items():
        c = r["playouts"]["colour_advantage"]
        la = r["luck_adjusted"]
        rows.append(
            [
                v + (" (control)" if v in CONTROLS else ""),
                _est(r["skill_curve"]["elo_per_doubling"], ".0f"),
                _est(r["skill_classes"], ".1f") + f" (≥ {_num(r['classes_at_least'], '.1f')})",
                _est(r.get("skill_classes_from_first_rung"), ".1f"),
                _est(r["luck_alpha"]),
                _est(r["depth_beta"]),
                "1 (reference)" if v == "chess" else _est(r["p_equivalent"]),
                _est(la["variance_reduction"]) if la else "no dice",
                _num(r["paired_variance_reduction"]),
                f"{_num(c['white_score'], '.3f')} [{_num(c['lo'], '.3f')}, {_num(c['hi'], '.3f')}]",
                _est(r["white_pooled"], ".3f"),
                _flags(r),
            ]
        )
    return header, rows


def robustness_rows(results: dict[str, Any]) -> tuple[list[str], list[list[str]]]:
    """Every compared measure from every ladder, side by side."""
    first = next(iter(results["variants"].values()))
    ladders = list(first["robustness"]["by_ladder"]["p_equivalent"])
    header = ["variant", "measure", *ladders]
    rows = []
    for v, r in results["variants"].items():
        for measure, by in r["robustness"]["by_ladder"].items():
            fmt = ".0f" if measure == "elo_per_doubling" else ".2f"
            rows.append([v, measure, *(_est(by[n], fmt) for n in ladders)])
    return header, rows


def ranking_rows(results: dict[str, Any]) -> tuple[list[str], list[list[str]]]:
    """Variants from most to least luck (lowest p-equivalent first) per family."""
    by = results["ranking"]["by_family"]
    fams = list(by)
    n = max((len(o) for o in by.values()), default=0)
    header = ["rank", *fams]
    rows = [[str(k + 1), *(by[f][k] if k < len(by[f]) else "" for f in fams)] for k in range(n)]
    return header, rows


def markdown_table(header: list[str], rows: list[list[str]]) -> str:
    """A GitHub-flavoured Markdown table."""
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(r) + " |" for r in rows]
    return "\n".join(lines)


def _ladder_rows(r: dict[str, Any]) -> list[list[str]]:
    depth = (r.get("search_depth") or {}).get("depth", {})
    return [
        [
            rung["spec"],
            f"{_num(rung['elo'], '.0f')} [{_num(rung['low'], '.0f')}, {_num(rung['high'], '.0f')}]",
            str(rung.get("games", "")),
            _depth_text(depth.get(rung["spec"])),
        ]
        for rung in r["ladder"]
    ]


def _depth_text(d: dict[str, Any] | None) -> str:
    if not d:
        return "–"
    return f"{d['mean']:.1f} ({d['min']}–{d['max']})"


def stuck_depth(r: dict[str, Any], floor: str = "search:nodes=64") -> float | None:
    """How much deeper the top search rung searches than the ``floor`` rung
    (mean completed depth), or None without the probe."""
    depth = (r.get("search_depth") or {}).get("depth", {})
    if floor not in depth or not depth:
        return None
    top = list(depth.values())[-1]["mean"]
    return float(top - depth[floor]["mean"])


def _matchup_rows(r: dict[str, Any]) -> list[list[str]]:
    fam = r["families"][HEADLINE_FAMILY]
    return [
        [
            f"{m['stronger']} vs {m['weaker']}",
            str(m["pairs"]),
            _num(m["score"], ".3f"),
            _est(w["white_score"], ".3f"),
            _num(m["mean_plies"], ".0f"),
        ]
        for m, w in zip(fam["matchups"], fam["white"])
    ]


HOW_TO_READ = (
    "How to read this. Each variant is played by a compute ladder: `random`, then "
    "one agent at doubling budgets. Rungs one and two apart play pairs of games on "
    "the same dice with colours swapped (and the same random opening moves), so the "
    "dice mostly cancel within a pair. **Elo per doubling**: the slope of the rungs' "
    "ratings on log2 compute; a deep game keeps rewarding compute, a lucky one "
    "flattens early. **Skill classes**: (top rung − random) / 200 Elo, Mérő's count "
    "of 76%-score steps; `≥` is a bound from the adjacent matchups alone that no "
    "rating prior affects. **Luck α / depth β**: Jerdee & Newman's model fitted to "
    "every game: a share α of games decided by a coin flip, the rest by skills "
    "spread β apart on the logit scale. **p-equivalent**: the p for which chess with "
    "1−p of its results replaced by coin flips scores like the variant, matchup for "
    "matchup, the same agents in both, over the matchups between rungs that play "
    "(those with `random` are left out: any search beats a random mover in nearly "
    "every game, dice or not; 1 = as little luck as chess; controls without dice sit "
    "near 1 or above). **Luck-adjusted variance reduction**: the share of "
    "a game's result variance removed by subtracting the luck of every roll, valued "
    "by the search (AIVAT-style). **Robustness**: every headline number is also "
    "measured with the second agent family and with the even and the odd rungs "
    "alone; a flagged variant is one where two of these disagree beyond their 95% "
    "intervals, and its number depends on the agents as much as on the game. "
    "Intervals: 95% bootstrap over whole pairs. Definitions and sources: "
    "docs/study.md and docs/analysis.md."
)


def findings(res: dict[str, Any]) -> list[str]:
    """The run's main readings, computed from its numbers (nothing here is fixed text
    about a particular result)."""
    rows = res["variants"]
    out = []
    by = res["ranking"]["by_family"]
    head = by.get(HEADLINE_FAMILY, [])
    tiers = res["ranking"].get("robust_tiers") or []
    if tiers:
        out.append(
            "The variants by luck, in the tiers every family agrees on (a variant is in a "
            "lower tier only when each family puts its p-equivalent interval entirely above "
            "a variant of the tier before): "
            + " > ".join("{" + ", ".join(t) + "}" for t in tiers)
            + " (most luck first). This is the ranking to quote: it does not depend on the "
            "agent family."
        )
    if head:
        out.append(
            "Most to least luck by the point values of the search family's p-equivalent "
            "(where it departs from the tiers, no pair of intervals resolves it): "
            + ", ".join(head)
            + "."
        )
    for pair, agr in res["ranking"]["agreement"].items():
        if agr["same_order"]:
            out.append(f"The {pair} families rank the variants in the same order.")
        else:
            swaps = "; ".join(" / ".join(x) for x in agr["swapped"])
            opposite = agr.get("opposite_beyond_intervals", [])
            verdict = (
                "Each of these pairs is within the intervals of at least one family: no "
                "family resolves an order that the other reverses, so the ranking's resolved "
                "part (the tiers) does not depend on the family, and the swaps are orders "
                "neither ladder can tell apart."
                if not opposite
                else "Ordered oppositely with both families' intervals apart (the ranking "
                "depends on the family there): "
                + "; ".join(" / ".join(x) for x in opposite)
                + ". Only the order of variants that no family swaps is a property of the "
                "games rather than of the agents."
            )
            out.append(
                f"The {pair} families rank the variants differently by their point values "
                f"(Kendall's τ = {_num(agr['kendall_tau'])}); swapped: {swaps}. {verdict}"
            )
    flagged = {
        m: [
            v
            for v, r in rows.items()
            if any(d["measure"] == m for d in r["robustness"]["disagreements"])
        ]
        for m in ("p_equivalent", "luck_alpha", "elo_per_doubling")
    }
    for m, vs in flagged.items():
        if vs:
            out.append(
                f"{m} differs between ladders beyond the 95% intervals in {len(vs)} of "
                f"{len(rows)} variants ({', '.join(vs)}): there it depends on the agents."
            )
    gains = {v: stuck_depth(r) for v, r in rows.items()}
    stuck = [v for v, g in gains.items() if g is not None and g < 1.0]
    if stuck:
        out.append(
            "The search family hardly deepens with compute in "
            + ", ".join(stuck)
            + ": from 2^6 to the top rung its completed depth grows by less than one ply "
            "(column 'search depth' in the variant's ladder): each further ply expands every "
            "roll or every move of a multi-move turn. There a flat skill curve and a low "
            "p-equivalent measure the agent family as much as the game: read them with the "
            "mcts family's."
        )
    controls = [v for v in rows if v in CONTROLS and v != "chess"]
    low = [
        v
        for v in controls
        if math.isfinite(rows[v]["p_equivalent"]["value"] or math.nan)
        and rows[v]["p_equivalent"]["high"] < 1
    ]
    if low:
        out.append(
            "Controls without dice below 1 (" + ", ".join(low) + "): the p-equivalent "
            "measures how decisively the same ladder separates in a game compared with chess; "
            "draws and short, forcing games lower it without any dice, so compare dice "
            "variants with their dice-free twins (Fluky and Metamorph with Gardner) as well "
            "as with chess."
        )
    la = {v: r["luck_adjusted"] for v, r in rows.items() if r["luck_adjusted"]}
    neg = [v for v, x in la.items() if (x["variance_reduction"]["value"] or 0) < 0]
    if la:
        coef = [x["luck_coefficient"]["value"] for x in la.values()]
        coef = [c for c in coef if c is not None and math.isfinite(c)]
        r2 = [x["variance_explained"]["value"] for x in la.values()]
        r2 = [c for c in r2 if c is not None and math.isfinite(c)]
        text = (
            f"Luck of each roll explains {min(r2):.2f}–{max(r2):.2f} of the result variance "
            "between the top two rungs"
            if r2
            else "Luck-adjusted results could not be computed"
        )
        if coef:
            text += (
                f"; the results move by {min(coef):.2f}–{max(coef):.2f} per unit of valued "
                "luck (1 for a perfect evaluator)"
            )
        if neg:
            text += (
                f". Subtracting the raw luck increases the variance in {len(neg)} of "
                f"{len(la)} dice variants: the evaluator's errors add noise, so the explained "
                "share, not the raw adjustment, is the measure to read"
            )
        out.append(text + ".")
    return out


#: Why the compute-ladder measures are in the appendix (docs/study.md, "Validation").
NOT_VALIDATED = (
    "Not validated: these are the second edition's compute-ladder measures. A referee's "
    "check showed that they measure the agents and the estimators as much as the games: "
    "p-equivalent reads about 0.5 for orthodox chess played by a plain alpha-beta ladder "
    "(no dice at all) and follows how much a doubling of nodes buys in each game; "
    "luck α is pinned by the matchups against random and does not see luck planted in "
    "synthetic tournaments; skill classes count the step from random to the first rung. "
    "None has passed a known-answer test, so none is a headline; they are kept for "
    "comparison with earlier runs."
)


def calibration_rows(res: dict[str, Any]) -> tuple[list[str], list[list[str]]]:
    """The headline table: each variant's luck-equivalent q per luck family."""
    from .calibration import fmt_q

    cal = res["calibration"]
    fams = list(cal["families"])
    header = ["variant", "twin", *[f"q, {f} family [95%]" for f in fams], "families"]
    rows = []
    for v, r in cal["variants"].items():
        agr = r["agreement"]
        if not r["families"]:
            verdict = "–"
        elif agr["agree"]:
            ci = agr["common_interval"]
            verdict = "agree" + (f" (common [{ci[0]:.2f}, {ci[1]:.2f}])" if ci else "")
        elif len(agr["families"]) < 2:
            verdict = "one family"
        else:
            verdict = "depend on the agents: " + "; ".join(" vs ".join(p) for p in agr["apart"])
        rows.append([v, r["twin"], *[fmt_q(r["families"].get(f)) for f in fams], verdict])
    return header, rows


def player_terms(res: dict[str, Any], family: str) -> list[str]:
    """ "A player who scores X against another in the twin scores Y in the variant"."""
    cal = res["calibration"]
    out = []
    for v, r in cal["variants"].items():
        e = r["families"].get(family)
        if e is None or v == r["twin"] or e["measure"]["value"] == 0:
            continue
        t = e["player_terms"]
        a, b = e["agents"]
        out.append(
            f"{v}: {a}, which scores {100 * t['twin']:.0f}% against {b} in {r['twin']}, "
            f"would score {100 * t['score']:.0f}% [{100 * t['lo']:.0f}, {100 * t['hi']:.0f}] "
            f"in a {r['twin']} with this much luck (it scores {100 * e['score_in_variant']:.0f}% "
            f"in {v} itself)."
        )
    return out


def calibration_findings(res: dict[str, Any]) -> list[str]:
    """The headline readings, computed from the numbers."""
    cal = res["calibration"]
    rows = cal["variants"]
    out = []
    dice = [
        v for v, r in rows.items() if any(e["measure"]["value"] > 0 for e in r["families"].values())
    ]
    agree = [v for v in dice if rows[v]["agreement"]["agree"]]
    out.append(
        f"The luck families agree within their intervals in {len(agree)} of the "
        f"{len(dice)} games with chance nodes"
        + (f" ({', '.join(agree)})" if agree else "")
        + ("; elsewhere the number depends on the agents" if len(agree) < len(dice) else "")
        + "."
    )
    rk = cal["ranking_agreement"]
    out.append(
        "The ranking of variants by luck-equivalent is the same in every family wherever "
        "the intervals separate them."
        if rk["same_order"]
        else "The families order some variants oppositely with intervals apart: "
        + "; ".join(
            f"{c['variants'][0]} / {c['variants'][1]} ({c['order']})" for c in rk["contradictions"]
        )
        + "."
    )
    nochance = [v for v, r in rows.items() if r["families"] and v not in dice]
    if nochance:
        out.append(
            "Games without chance nodes read exactly 0 in every family: "
            + ", ".join(nochance)
            + " (their flatter compute ladders are not luck)."
        )
    return out


def calibration_blocks(res: dict[str, Any], plots: dict[str, tuple[Path, str]]) -> list[Block]:
    """The headline section: the calibration plot, the luck-equivalents, the
    agreement check and the player's terms."""
    cal = res["calibration"]
    cfg = res["config"]
    fams = "; ".join(
        f"{f}: {d['strong']} against {d['weak']}, every chance event valued by {d['valuer']} "
        f"(shares with the search: {d['shares']})"
        for f, d in cal["families"].items()
    )
    b: list[Block] = [
        ("h", 2, "Headline: the luck-equivalent q"),
        (
            "p",
            "Each variant's luck-equivalent is the luck dial q of its dice-free twin "
            "(chess for the 8x8 games, Gardner for the 5x5 ones: the twin in which a share "
            "q of the decisions is made by a uniformly random legal move) whose luck "
            "per game (how far the chance events move the expected result over a game, on "
            "average) equals the variant's, when the same agents play both and "
            "the same agent values every chance event. Each family is calibrated on its "
            f"own games of the twin at q = {', '.join(f'{q:g}' for q in cal['grid'])}; "
            f"{cfg['luck_pairs']} pairs of games (the stronger agent with each colour) per "
            f"variant, family and calibration game. Families: {fams}.",
        ),
    ]
    if "calibration" in plots:
        b.append(("img", *plots["calibration"]))
    b.append(("table", *calibration_rows(res)))
    b += [("p", t) for t in calibration_findings(res)]
    head = "search" if "search" in cal["families"] else next(iter(cal["families"]), None)
    if head:
        terms = player_terms(res, head)
        if terms:
            b.append(("h", 3, f"In a player's terms ({head} family)"))
            b += [("p", t) for t in terms]
    return b


def build_blocks(study: Study, plots: dict[str, tuple[Path, str]]) -> list[Block]:
    """The report as blocks: ("h", level, text), ("p", text), ("table", header, rows),
    ("img", path, caption)."""
    res = study.results
    cfg = res["config"]
    fams = ", ".join(
        f"{f} (2^{rungs[0]}..2^{rungs[-1]})"
        for f, rungs in (("search", cfg["search_rungs"]), ("mcts", cfg["mcts_rungs"]))
    )
    b: list[Block] = [
        ("h", 1, "dicechess study: how much of each variant is luck?"),
        (
            "p",
            f"dicechess {res['dicechess_version']} (Python {res['python']}, numpy "
            f"{res['numpy']}), seed {res['seed']}; ladders: {fams}; {cfg['pairs']} pairs "
            f"per adjacent and {cfg['pairs_two_apart']} per two-apart matchup in the search "
            f"family ({cfg['mcts_pairs']} and {cfg['mcts_pairs_two_apart']} in the mcts "
            f"family), {cfg['opening_plies']} random opening plies, {cfg['playout_games']} "
            f"random playouts and {cfg['luck_games']} luck-valued games per variant"
            f"{' (quick run)' if cfg['quick'] else ''}. Ran in {res['seconds']:.0f} s "
            f"({res.get('seconds_games', math.nan):.0f} s playing and probing, the rest "
            "bootstrap fits)"
            + (
                f" (reused: {', '.join(res['resumed'])}; their games took "
                f"{res.get('seconds_played', math.nan):.0f} s when played)"
                if res["resumed"]
                else ""
            )
            + (
                " (replayed, their saved games being another build's: "
                + "; ".join(
                    f"{v}, {len(m)} matchup(s) differing, e.g. {m[0]}"
                    for v, m in res["replayed_stale"].items()
                )
                + ")"
                if res.get("replayed_stale")
                else ""
            )
            + ".",
        ),
    ]
    if res.get("calibration"):
        b += calibration_blocks(res, plots)
        b += [("h", 2, "Appendix: measures not validated"), ("p", NOT_VALIDATED)]
    b += [
        ("p", HOW_TO_READ),
        ("h", 2, "What the compute ladders say"),
        *[("p", t) for t in findings(res)],
        ("h", 2, "Compute-ladder measures (search family)"),
        ("table", *summary_rows(res)),
    ]
    for name in ("skill_curve", "skill_classes", "luck", "luck_adjusted"):
        if name in plots:
            b.append(("img", *plots[name]))
    b.append(("h", 2, "Robustness: the same numbers from other ladders"))
    b.append(
        (
            "p",
            "Each measure from the headline family, the second family and the headline "
            "family's even and odd rungs alone. Elo per doubling and skill classes are "
            "compared within a family only (compute units and top rungs differ between "
            "families).",
        )
    )
    b.append(("table", *robustness_rows(res)))
    b.append(("h", 3, "Variants ranked by luck (lowest p-equivalent first)"))
    b.append(("table", *ranking_rows(res)))
    for pair, agr in res["ranking"]["agreement"].items():
        swapped = ", ".join(" / ".join(s) for s in agr["swapped"]) or "none"
        opposite = (
            ", ".join(" / ".join(s) for s in agr.get("opposite_beyond_intervals", [])) or "none"
        )
        b.append(
            (
                "p",
                f"{pair}: Kendall's τ = {_num(agr['kendall_tau'])}; "
                f"{'the same order' if agr['same_order'] else 'orders differ'}; "
                f"pairs of variants swapped: {swapped}; of these, ordered oppositely "
                f"with both intervals apart: {opposite}.",
            )
        )
    for name in ("colour_advantage", "game_lengths"):
        if name in plots:
            b.append(("img", *plots[name]))
    if res.get("anchor"):
        b += _anchor_blocks(res["anchor"])
    for v, r in res["variants"].items():
        b.append(("h", 2, v))
        s = r["playouts"]
        b.append(
            (
                "p",
                f"Random play: {s['games']} games, White {s['white_wins']}, Black "
                f"{s['black_wins']}, draws {s['draws']}, truncated {s['truncated']}; mean "
                f"{s['mean_plies']:.1f} decisions and {s['mean_chance_events']:.1f} rolls per "
                "game; endings: "
                + ", ".join(f"{k} {n}" for k, n in s["terminations"].items())
                + ".",
            )
        )
        b.append(
            (
                "table",
                ["rung", "Elo [95%]", "games", "search depth completed: mean (range)"],
                _ladder_rows(r),
            )
        )
        b.append(
            (
                "table",
                ["matchup", "pairs", "stronger's score", "White's score [95%]", "mean plies"],
                _matchup_rows(r),
            )
        )
        head = r["families"][HEADLINE_FAMILY]
        perfect = ", ".join(f"{x} vs {y}" for x, y in head["perfect_records"]) or "none"
        eff = head["prior_effect"]
        b.append(
            (
                "p",
                f"Perfect records (their Elo gap is set by the rating prior, SD "
                f"{head['prior_sd']:.0f} Elo): {perfect}. Doubling the prior's SD moves Elo per "
                f"doubling by {_num(eff['elo_per_doubling'], '+.0f')} and skill classes by "
                f"{_num(eff['skill_classes'], '+.2f')}; the prior-free bound on classes is "
                f"{_num(r['classes_at_least'], '.1f')}.",
            )
        )
        la = r["luck_adjusted"]
        if la:
            b.append(
                (
                    "p",
                    f"Luck-adjusted results: {la['games']} games {la['agents'][0]} vs "
                    f"{la['agents'][1]}, every roll valued by {la['evaluator']} "
                    f"({la['rolls_per_game']:.1f} rolls per game, mean |luck| "
                    f"{la['mean_abs_luck_per_roll']:.3f} per roll). Luck explains "
                    f"{_est(la['variance_explained'])} of the result's variance; adjusting "
                    f"removes {_est(la['variance_reduction'])}; the top rung's score "
                    f"{_est(la['score'], '.3f')} becomes {_est(la['adjusted_score'], '.3f')}.",
                )
            )
        if r["robustness"]["disagreements"]:
            b.append(("p", f"Flagged: {_flags(r)}."))
    return b


def _anchor_blocks(anchor: dict[str, Any]) -> list[Block]:
    if anchor.get("skipped"):
        return [
            ("h", 2, "Absolute Elo (Stockfish anchor)"),
            ("p", f"Skipped: {anchor['skipped']}."),
        ]
    top = anchor["top_elo"]
    top_text = (
        f"{'≥' if top['one_sided'] == 'at least' else '≤'} {_num(top['value'], '.0f')} "
        "(a perfect record: one-sided 95% bound)"
        if top.get("one_sided")
        else _est(top, ".0f")
    )
    rows = [
        [
            str(g["level"]),
            str(g["games"]),
            _num(g["score"], ".3f"),
            _est(g["elo"], ".0f"),
        ]
        for g in anchor["levels"]
    ]
    return [
        ("h", 2, "Absolute Elo (Stockfish anchor)"),
        (
            "p",
            f"{anchor['spec']} (the top chess rung) against Stockfish at UCI_Elo levels, "
            f"{anchor['opening_plies']} random opening plies, colours alternated; its "
            f"absolute Elo {top_text} shifts the chess ladder by "
            f"{_num(anchor['offset'], '.0f')}.",
        ),
        ("table", ["UCI_Elo", "games", "score", "implied Elo [95%]"], rows),
    ]


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
        "body{font-family:system-ui,sans-serif;max-width:80em;margin:2em auto;padding:0 1em}"
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


def _json_default(x: Any) -> Any:
    if hasattr(x, "item"):
        return x.item()
    raise TypeError(f"not JSON serialisable: {type(x).__name__}")


def _clean(x: Any) -> Any:
    """NaN and infinities as null (strict JSON)."""
    if isinstance(x, float) and not math.isfinite(x):
        return None
    if isinstance(x, dict):
        return {k: _clean(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [_clean(v) for v in x]
    return x


def write_report(study: Study, out: Path, force: bool = False) -> list[Path]:
    """Writes every output into ``out`` and returns the paths written."""
    from .plots import make_plots

    out.mkdir(parents=True, exist_ok=True)
    existing = existing_outputs(out)
    if existing and not force:
        raise FileExistsError(
            f"{', '.join(str(p) for p in existing)} already exist; use --force to overwrite"
        )
    # The numbers first: whatever fails later, they are kept. Every file is
    # written whole or not at all (a temporary file renamed), so a report
    # killed midway lacks files, which a rerun writes (see report_complete).
    text = json.dumps(_clean(study.results), indent=1, default=_json_default, allow_nan=False)
    write_atomic(out / "results.json", lambda p: p.write_text(text, encoding="utf-8"))
    written = [out / "results.json"]
    written += _write_csv(study, out)
    plots = make_plots(study, out)
    blocks = build_blocks(study, plots)
    written += [p for p, _ in plots.values()]
    md, html = render_markdown(blocks), render_html(blocks)
    write_atomic(out / "report.md", lambda p: p.write_text(md, encoding="utf-8"))
    write_atomic(out / "report.html", lambda p: p.write_text(html, encoding="utf-8"))
    written += [out / "report.md", out / "report.html"]
    return written


def write_atomic(path: Path, write: Callable[[Path], Any]) -> Path:
    """``write(tmp)`` to a temporary file beside ``path`` (same suffix, so
    writers that go by it still do), then renamed over ``path``: readers and
    a rerun see the old file or the whole new one, never half of one."""
    tmp = path.with_name(f".{path.stem}.partial{path.suffix}")
    try:
        write(tmp)
        os.replace(tmp, path)
    finally:
        if tmp.exists():
            tmp.unlink()
    return path


def report_complete(out: Path) -> bool:
    """Whether every report file is in ``out`` (a study killed while writing
    its report leaves some out; a rerun may then finish it without --force)."""
    return all((out / n).exists() for n in OUTPUTS)


def _write_csv(study: Study, out: Path) -> list[Path]:
    import pandas as pd

    header, rows = summary_rows(study.results)
    write_atomic(
        out / "summary.csv", lambda p: pd.DataFrame(rows, columns=header).to_csv(p, index=False)
    )
    ladders = [
        {"variant": v, "family": f, **{k: rung.get(k) for k in LADDER_COLUMNS}}
        for v, r in study.results["variants"].items()
        for f, fam in r["families"].items()
        for rung in fam["ladder"]
    ]
    write_atomic(out / "ladders.csv", lambda p: pd.DataFrame(ladders).to_csv(p, index=False))
    matchups = [
        {"variant": v, "family": f, **m, "white_score": w["white_score"]["value"]}
        for v, r in study.results["variants"].items()
        for f, fam in r["families"].items()
        for m, w in zip(fam["matchups"], fam["white"])
    ]
    write_atomic(out / "matchups.csv", lambda p: pd.DataFrame(matchups).to_csv(p, index=False))
    return [out / "summary.csv", out / "ladders.csv", out / "matchups.csv"]
