"""Random Vegas Fun Chess playouts: dicechess against a python-chess implementation.

The peer is the independent python-chess reference of the same rules
(tests/reference/vegas.py, also used by the differential test). Both sides
play uniformly random decisions and sample the dice from the exact outcome
distribution, single thread, default options (max_plies 1000).

Three numbers are printed, each in plies (decisions) per second:

* python-chess reference: ``VegasRef`` driven from Python (its decision
  nodes list every legal move as SAN, which is how its API works);
* dicechess through the Python ``dc.State`` API (one FFI call per
  ``legal_actions`` / ``chance_outcomes`` / ``apply_action``);
* dicechess in Rust (``benches/playouts.rs``, the Vegas row of
  ``cargo bench --bench playouts``), read from ``--rust-bench-output``
  (``make bench`` writes target/bench-playouts.txt) when present.

Usage: python benches/vegas_vs_python_chess.py [--games 20] [--seed 1]
"""

import argparse
import random
import re
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

import dicechess as dc  # noqa: E402
from reference.vegas import VegasRef  # noqa: E402


def ref_game(rng):
    g = VegasRef()
    names = None
    while True:
        node = g.node()
        if node == "terminal":
            return g.plies
        if node == "chance":
            if names is None:
                outs = g.chance_outcomes()
                names = sorted(outs)
                weights = [float(outs[n]) for n in names]
            g.apply_outcome(rng.choices(names, weights)[0])
        else:
            g.apply_move(rng.choice(sorted(g.legal_moves())))


def engine_game(rng):
    s = dc.State("vegas")
    while not s.is_terminal():
        if s.is_chance_node():
            acts, probs = zip(*s.chance_outcomes())
            s.apply_action(rng.choices(acts, probs)[0])
        else:
            s.apply_action(rng.choice(s.legal_actions()))
    return s.plies


def timed(play, games, seed):
    rng = random.Random(seed)
    start = time.perf_counter()
    plies = sum(play(rng) for _ in range(games))
    t = time.perf_counter() - start
    return games / t, plies / t, plies / games


def rust_row(path):
    """(games/s, plies/s) of the vegas row in the playouts bench output.

    Only rows after the playouts table's title count: the agents bench, which
    runs first, has a vegas row too (nodes/s).
    """
    try:
        text = Path(path).read_text()
    except OSError:
        return None
    _, title, table = text.partition("Random playouts, single thread")
    if not title:
        return None
    for line in table.splitlines():
        m = re.match(r"\|\s*vegas\s*\|\s*([\d.]+)\s*\|\s*([\d.]+)\s*\|", line)
        if m:
            return float(m.group(1)), float(m.group(2))
    return None


WIDTHS = (36, 9, 11, 10, 14)


def row(*cells):
    print(
        "| "
        + " | ".join(
            f"{c:<{w}}" if i == 0 else f"{c:>{w}}" for i, (c, w) in enumerate(zip(cells, WIDTHS))
        )
        + " |"
    )


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=int, default=20, help="games for the python-chess peer")
    ap.add_argument("--engine-games", type=int, default=200, help="games via dc.State")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument(
        "--rust-bench-output",
        default=str(ROOT / "target" / "bench-playouts.txt"),
        help="saved output of `cargo bench --bench playouts`",
    )
    a = ap.parse_args()
    ref = timed(ref_game, a.games, a.seed)
    eng = timed(engine_game, a.engine_games, a.seed)
    rust = rust_row(a.rust_bench_output)
    print("Random Vegas Fun Chess playouts, single thread, default options")
    row("implementation", "games/s", "plies/s", "plies/game", "x python-chess")
    print("|" + "|".join("-" * (w + 2) for w in WIDTHS) + "|")
    row(
        f"python-chess reference ({a.games} g)",
        f"{ref[0]:.2f}",
        f"{ref[1]:.0f}",
        f"{ref[2]:.1f}",
        "1",
    )
    row(
        f"dicechess dc.State loop ({a.engine_games} g)",
        f"{eng[0]:.1f}",
        f"{eng[1]:.0f}",
        f"{eng[2]:.1f}",
        f"{eng[1] / ref[1]:.0f}",
    )
    if rust is None:
        print(f"(no Rust playout numbers in {a.rust_bench_output}; run `make bench`)")
    else:
        row(
            "dicechess Rust playouts (bench)",
            f"{rust[0]:.0f}",
            f"{rust[1]:.0f}",
            "",
            f"{rust[1] / ref[1]:.0f}",
        )


if __name__ == "__main__":
    main()
