"""Tuned against current evaluation weights at equal node budgets: paired
games on common dice, colours swapped, random openings (seeded).

    .venv/bin/python scripts/texel_validate.py --pairs 100 --nodes 5000 chess fluky

Prints A's (the first spec's) mean score with a 95% interval per variant,
as a Markdown table (docs/search.md, "Texel tuning").
"""

from __future__ import annotations

import argparse

import dicechess as dc


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("variants", nargs="+")
    ap.add_argument("--pairs", type=int, default=100)
    ap.add_argument("--nodes", type=int, default=5000)
    ap.add_argument("--a", default="weights=tuned", help="options of agent A")
    ap.add_argument("--b", default="", help="options of agent B")
    ap.add_argument("--seed", type=int, default=7)
    a = ap.parse_args(argv)
    spec_a = f"search:nodes={a.nodes}" + (f",{a.a}" if a.a else "")
    spec_b = f"search:nodes={a.nodes}" + (f",{a.b}" if a.b else "")
    print(f"A = `{spec_a}`, B = `{spec_b}`, {a.pairs} pairs, opening_plies=4, seed {a.seed}\n")
    print("| variant | A's score | 95% interval |")
    print("|---|---|---|")
    for v in a.variants:
        r = dc.paired_games(v, (spec_a, spec_b), a.pairs, seed=a.seed, opening_plies=4)
        lo, hi = r.score_interval()
        print(f"| {v} | {r.score():.3f} | {lo:.3f} .. {hi:.3f} |", flush=True)


if __name__ == "__main__":
    main()
