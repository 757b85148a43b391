"""Strength of the ``search`` agent (``make bench-strength``).

1. Chess against Stockfish (the OS package: ``apt-get install stockfish``;
   skipped with a message when it is missing) at several ``UCI_Elo``
   levels, both at the same time per move, from random 4-ply openings with
   colours alternated; through python-chess's UCI engine module.
2. A budget ladder per variant: ``search:nodes=2^k`` against
   ``search:nodes=2^(k-1)``.
3. Dice variants: ``search:nodes=N`` against ``expectimax:depth=2`` and
   ``mcts:sims=200``.

Ladder and baseline matches are ``dc.paired_games``: pairs of games on the
same dice with colours swapped, both opening with the same 4 random plies
(deterministic agents would otherwise replay one game in a variant without
dice, and draw by repetition in Fluky's start position).

Each table (score, 95% Wilson interval, Elo difference) is printed and
written between markers in docs/search-measurements.md. Scores count draws as half.
"""

from __future__ import annotations

import argparse
import math
import random
import re
import time
from pathlib import Path

import dicechess as dc
from dicechess.sim import wilson_interval
from dicechess.study.anchor import play_stockfish, random_opening, stockfish_path

DOC = Path(__file__).resolve().parent.parent / "docs" / "search-measurements.md"
#: The first-wave MCTS (UCT, sampled dice, random rollouts, material
#: evaluation), the ``mcts:sims=200`` the search issue was measured against.
FIRST_WAVE_MCTS = "mcts:sims=200,select=uct,leaf=material,chance=sample,rollout=random,c=0.7"
#: Random decisions both games of a pair open with (ladder and baselines).
OPENING_PLIES = 4


def elo(score: float) -> float:
    score = min(max(score, 1e-3), 1 - 1e-3)
    return -400 * math.log10(1 / score - 1)


def row(label: str, points: float, n: int) -> str:
    lo, hi = wilson_interval(points, n)
    s = points / n
    return (
        f"| {label} | {n} | {points:g} | {s:.3f} | [{lo:.3f}, {hi:.3f}] "
        f"| {elo(s):+.0f} [{elo(lo):+.0f}, {elo(hi):+.0f}] |"
    )


HEADER = (
    "| match | games | points | score | 95% interval | Elo diff [interval] |\n"
    "|---|---:|---:|---:|---|---|"
)


def opening(rng: random.Random, plies: int = 4) -> str:
    return random_opening(rng, plies)


def vs_stockfish(
    levels: list[int], games: int, ms: int, seed: int, spec: str | None = None
) -> list[str]:
    import chess.engine

    path = stockfish_path()
    if path is None:
        print("stockfish not found: install it with `apt-get install -y stockfish`; skipped")
        return []
    rng = random.Random(seed)
    rows = []
    spec = spec or f"search:ms={ms}"
    for level in levels:
        engine = chess.engine.SimpleEngine.popen_uci(path)
        engine.configure({"UCI_LimitStrength": True, "UCI_Elo": level, "Threads": 1})
        points = 0.0
        t0 = time.time()
        fen = opening(rng)
        for i in range(games):
            if i % 2 == 0:
                fen = opening(rng)  # each opening twice, colours swapped
            points += play_stockfish(engine, spec, fen, i % 2 == 0, ms / 1000, seed + i)
        engine.quit()
        r = row(f"{spec} vs Stockfish UCI_Elo {level} (Stockfish {ms} ms/move)", points, games)
        print(r, f"({time.time() - t0:.0f} s)", flush=True)
        rows.append(r)
    return rows


def points_of_first(res) -> float:
    """Points of the first agent of a two-agent arena."""
    return float(res.wins[0, 1] + 0.5 * res.draws[0, 1])


def match(variant: str, a: str, b: str, games: int, seed: int, threads: int | None) -> float:
    """Points of ``a`` against ``b`` over ``games`` games: ``games // 2`` pairs
    on common dice with colours swapped, each pair opening with the same
    4 random plies (deterministic agents would otherwise replay one game)."""
    res = dc.paired_games(
        variant, (a, b), games // 2, seed=seed, threads=threads, opening_plies=OPENING_PLIES
    )
    return float(res.game_scores.sum())


def ladder(variant: str, ks: range, games: int, seed: int, threads: int | None) -> list[str]:
    rows = []
    for k in ks:
        a, b = f"search:nodes={2**k}", f"search:nodes={2 ** (k - 1)}"
        pts = match(variant, a, b, games, seed, threads)
        r = row(f"{variant}: {a} vs {b}", pts, games)
        print(r, flush=True)
        rows.append(r)
    return rows


def vs_baselines(
    variants: list[str],
    opponents: list[str],
    nodes: int,
    games: int,
    seeds: list[int],
    threads: int | None,
) -> list[str]:
    """One row per variant, opponent and seed; with several seeds, also a
    row of all their games (a score one seed gives can be that seed's)."""
    rows = []
    for v in variants:
        for opp in opponents:
            a = f"search:nodes={nodes}"
            total = 0.0
            for seed in seeds:
                pts = match(v, a, opp, games, seed, threads)
                total += pts
                label = f"{v}: {a} vs {opp}" + (f" (seed {seed})" if len(seeds) > 1 else "")
                rows.append(row(label, pts, games))
                print(rows[-1], flush=True)
            if len(seeds) > 1:
                seeds_named = ", ".join(map(str, seeds))
                rows.append(
                    row(f"**{v}: {a} vs {opp} (seeds {seeds_named})**", total, games * len(seeds))
                )
                print(rows[-1], flush=True)
    return rows


def write_section(name: str, text: str) -> None:
    begin, end = f"<!-- {name}:begin -->", f"<!-- {name}:end -->"
    doc = DOC.read_text() if DOC.exists() else ""
    block = f"{begin}\n{text}\n{end}"
    if begin in doc:
        doc = re.sub(re.escape(begin) + ".*?" + re.escape(end), lambda _: block, doc, flags=re.S)
    else:
        doc += f"\n{block}\n"
    DOC.write_text(doc)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--levels", default="1350,1600,1800,2000")
    p.add_argument("--games", type=int, default=20, help="games per Stockfish level")
    p.add_argument("--ms", type=int, default=100, help="time per move, both sides")
    p.add_argument(
        "--spec",
        default=None,
        help="the engine's agent against Stockfish (default search:ms=MS); a node budget "
        "such as search:nodes=300000 (0.1 s at 3M nodes/s) does not depend on the load",
    )
    p.add_argument(
        "--stockfish-section",
        default="stockfish",
        help="the marker of the docs/search-measurements.md section the Stockfish table replaces",
    )
    p.add_argument("--ladder-variants", default="chess,cubic,fluky")
    p.add_argument("--ladder-k", default="7-14", help="k range of 2^k node budgets")
    p.add_argument("--ladder-games", type=int, default=40)
    p.add_argument(
        "--baseline-variants",
        default="fluky,metamorph,random_move_number,vegas,dice_chess,dice_chess3",
    )
    p.add_argument("--baseline-games", type=int, default=200)
    p.add_argument(
        "--baseline-opponents",
        default="expectimax:depth=2;mcts:sims=200",
        help="';'-separated agent specs (the agent the search issue was filed against, "
        f"the first-wave MCTS, is {FIRST_WAVE_MCTS})",
    )
    p.add_argument(
        "--baseline-section",
        default="baselines",
        help="the marker name of the docs/search-measurements.md section the table replaces",
    )
    p.add_argument("--nodes", type=int, default=10000)
    p.add_argument("--threads", type=int, default=None)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument(
        "--baseline-seeds",
        default=None,
        help="comma-separated seeds of the baseline matches (default: --seed); with "
        "several, each seed gets a row and all the games one more",
    )
    p.add_argument("--only", default="stockfish,ladder,baselines")
    args = p.parse_args()
    only = args.only.split(",")

    def stamp_of(seeds: list[int]) -> str:
        which = f"seed {seeds[0]}" if len(seeds) == 1 else f"seeds {', '.join(map(str, seeds))}"
        return f"_{time.strftime('%Y-%m-%d')}, {which}; written by benches/strength.py_"

    stamp = stamp_of([args.seed])
    if "stockfish" in only:
        rows = vs_stockfish(
            [int(x) for x in args.levels.split(",")], args.games, args.ms, args.seed, args.spec
        )
        if rows:
            write_section(args.stockfish_section, "\n".join([HEADER, *rows, "", stamp]))
    if "ladder" in only:
        lo, hi = (int(x) for x in args.ladder_k.split("-"))
        rows = []
        for v in args.ladder_variants.split(","):
            rows += ladder(v, range(lo, hi + 1), args.ladder_games, args.seed, args.threads)
        write_section("ladder", "\n".join([HEADER, *rows, "", stamp]))
    if "baselines" in only:
        variants = args.baseline_variants.split(",")
        opponents = args.baseline_opponents.split(";")
        seeds = [int(x) for x in (args.baseline_seeds or str(args.seed)).split(",")]
        rows = vs_baselines(
            variants, opponents, args.nodes, args.baseline_games, seeds, args.threads
        )
        write_section(args.baseline_section, "\n".join([HEADER, *rows, "", stamp_of(seeds)]))


if __name__ == "__main__":
    main()
