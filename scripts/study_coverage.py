"""How often the study's luck-equivalent intervals cover a known answer.

For each seed, plays the calibration games of a twin (``gardner`` or ``chess``)
on the study's default grid and the known-answer games ``twin:luck=q`` for q in
0.05, 0.15, 0.3 (none on the grid), each family's games seeded from
``1000 + seed`` (so no run repeats the default study's games), and records
whether each family's 95% interval covers the true q. A calibrated interval
covers it in about 95% of the runs.

    python scripts/study_coverage.py --twin gardner --families material --seeds 40
    python scripts/study_coverage.py --twin gardner --families mcts search --seeds 20

Writes one JSON row per (seed, game, family) to ``--out`` (rewritten after each
seed, so an interrupted run keeps what finished) and prints the coverage.
"""

from __future__ import annotations

import argparse
import json
import time
from collections import defaultdict
from pathlib import Path

from dicechess.study import calibration as C
from dicechess.study.config import StudyConfig, part_seed

TARGETS = (0.05, 0.15, 0.3)


def games(spec: str, families: list[str], pairs: int, s: int) -> dict:
    """One spec's luck games in every family, seeded away from the default study's."""
    seed = 1000 + s
    return {
        "luck_games": {
            f: C.play_luck_games(spec, f, pairs, part_seed(seed, spec, "luck/" + f), 1)
            for f in families
        }
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--twin", default="gardner", choices=["gardner", "chess"])
    ap.add_argument("--families", nargs="+", default=["material"])
    ap.add_argument("--seeds", type=int, default=20)
    ap.add_argument("--pairs", type=int, default=None, help="default: the study's luck_pairs")
    ap.add_argument("--bootstrap", type=int, default=1000)
    ap.add_argument("--out", type=Path, default=Path("coverage.json"))
    a = ap.parse_args()
    cfg = StudyConfig()
    grid, pairs = list(cfg.calibration_q), a.pairs or cfg.luck_pairs
    targets = [f"{a.twin}:luck={q}" for q in TARGETS]
    rows: list[dict] = []
    for s in range(a.seeds):
        t0 = time.perf_counter()

        cal = {sp: games(sp, a.families, pairs, s) for sp in C.calibration_specs([a.twin], grid)}
        raws = {v: games(v, a.families, pairs, s) for v in targets}
        eq = C.luck_equivalents(raws, cal, grid, a.families, a.bootstrap, seed=s)
        for v in targets:
            for f in a.families:
                r = eq["variants"][v]["families"][f]
                q = C.luck_of(v)
                cover = bool(r["lo"] <= q <= r["hi"])
                est = {k: r[k] for k in ("q", "lo", "hi")}
                rows.append({"seed": s, "variant": v, "family": f, **est, "covers": cover})
        a.out.write_text(json.dumps(rows, indent=1))
        print(f"seed {s}: {time.perf_counter() - t0:.0f} s", flush=True)
    by: dict[tuple[str, str], list[bool]] = defaultdict(list)
    for r in rows:
        by[(r["family"], r["variant"])].append(r["covers"])
    for (f, v), c in sorted(by.items()):
        print(f"{f:9s} {v:20s} covers {sum(c)}/{len(c)}")
    print(f"all: {sum(r['covers'] for r in rows)}/{len(rows)}")


if __name__ == "__main__":
    main()
