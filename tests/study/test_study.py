"""The study's second edition: its measures on synthetic raw games with known
answers (ladders from known ratings and coin-flip rates, luck that decides
every game or none), the robustness flags and ranking, the Stockfish anchor's
rating fit, and the run itself (schema, reproducibility, resume)."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from dicechess.study import StudyConfig, run_study
from dicechess.study.anchor import (
    anchor_ladder,
    fit_elo,
    gauntlet,
    perfect_record_bound,
    stockfish_path,
)
from dicechess.study.config import rung_specs
from dicechess.study.measures import (
    ladders_of,
    luck_adjusted,
    ranking,
    robustness,
    variant_measures,
)
from dicechess.study.run import matchups_of


def elo_p(diff: float) -> float:
    return 1 / (1 + 10 ** (-diff / 400))


def synthetic_raw(
    variant: str, elos: list[float], luck: float, pairs: int, seed: int
) -> dict[str, Any]:
    """Raw games of one variant whose search family has the ratings ``elos``
    (rung 0 = random) and a share ``luck`` of coin-flip games; the mcts
    family is the same ladder (an agent-independent game)."""
    rng = np.random.default_rng(seed)
    fams = {}
    ks = list(range(4, 4 + len(elos) - 1))
    for fam in ("search", "mcts"):
        ms = []
        for i, j in matchups_of(len(elos)):
            p = luck / 2 + (1 - luck) * elo_p(elos[i] - elos[j])
            s = (rng.random((pairs, 2)) < p).astype(float)
            white = rng.integers(0, 2, (pairs, 2)).astype(float)
            ms.append(
                {
                    "i": i,
                    "j": j,
                    "scores": s.tolist(),
                    "white": white.tolist(),
                    "plies": np.full((pairs, 2), 40).tolist(),
                }
            )
        fams[fam] = {"rungs": rung_specs(fam, ks), "log2_compute": [None, *ks], "matchups": ms}
    return {
        "variant": variant,
        "families": fams,
        "luck": None,
        "seconds": {},
        "playouts": {"options": {}, "games": 0},
    }


ELOS = [0.0, 300.0, 420.0, 540.0, 660.0, 780.0, 900.0]
CFG = StudyConfig(bootstrap=40)


def test_measures_recover_a_known_ladder_and_coin_flip_rate() -> None:
    chess = synthetic_raw("chess", ELOS, 0.0, 200, 1)
    lucky = synthetic_raw("vegas", ELOS, 0.5, 200, 2)
    c = variant_measures(chess, chess, CFG)
    v = variant_measures(lucky, chess, CFG)
    # 120 Elo per doubling above the bottom family rung (plus the jump from random).
    e = c["skill_curve"]["elo_per_doubling"]
    assert e["low"] <= 120 <= e["high"], e
    classes = c["skill_classes"]
    assert classes["low"] <= 900 / 200 <= classes["high"], classes
    assert c["p_equivalent"] == {"value": 1.0, "low": 1.0, "high": 1.0}
    # Half the games are coin flips: p-equivalent and luck alpha near 0.5.
    p = v["p_equivalent"]
    assert p["low"] <= 0.5 <= p["high"] and p["high"] < 0.8, p
    a = v["luck_alpha"]
    assert a["low"] <= 0.5 <= a["high"], a
    # No luck: alpha's interval reaches 0. (Alpha is weakly identified when no
    # matchup is lopsided: with these gaps both intervals are wide.)
    assert c["luck_alpha"]["low"] < 0.05
    # The schema the docs describe.
    for key in ("luck_alpha", "depth_beta", "p_equivalent", "skill_classes"):
        assert set(v[key]) == {"value", "low", "high"}
    assert set(v["families"]) == {"search", "mcts"}
    assert set(v["rung_subsets"]) == {"search_even", "search_odd"}
    assert [r["spec"] for r in v["ladder"]][:2] == ["random", "search:nodes=16"]
    assert all(r["games"] > 0 for r in v["ladder"])
    assert isinstance(v["paired_variance_reduction"], float)


def test_even_and_odd_rungs_are_subladders() -> None:
    raw = synthetic_raw("chess", ELOS, 0.0, 4, 3)
    lad = ladders_of(raw)
    # random + 2^4, 2^6, 2^8 and random + 2^5, 2^7, 2^9.
    assert lad["search_even"] == ("search", [0, 1, 3, 5])
    assert lad["search_odd"] == ("search", [0, 2, 4, 6])
    assert lad["mcts"] == ("mcts", list(range(7)))


def test_robustness_flags_only_disjoint_intervals() -> None:
    def est(v: float, lo: float, hi: float) -> dict[str, float]:
        return {"value": v, "low": lo, "high": hi}

    def ladder(p: dict[str, float]) -> dict[str, Any]:
        return {
            "p_equivalent": p,
            "luck_alpha": est(0.1, 0.0, 0.2),
            "skill_curve": {"elo_per_doubling": est(100, 50, 150)},
        }

    ok = robustness({"search": ladder(est(0.5, 0.4, 0.6)), "mcts": ladder(est(0.55, 0.5, 0.7))})
    assert ok["disagreements"] == []
    bad = robustness({"search": ladder(est(0.5, 0.4, 0.6)), "mcts": ladder(est(0.9, 0.8, 1.0))})
    assert bad["disagreements"] == [{"measure": "p_equivalent", "ladders": ["search", "mcts"]}]
    # Elo per doubling is not compared between families (different compute units).
    a = ladder(est(0.5, 0.4, 0.6))
    b = ladder(est(0.5, 0.4, 0.6))
    b["skill_curve"]["elo_per_doubling"] = est(900, 800, 1000)
    assert robustness({"search": a, "mcts": b})["disagreements"] == []
    flagged = robustness({"search": a, "search_even": b})["disagreements"]
    assert flagged == [{"measure": "elo_per_doubling", "ladders": ["search", "search_even"]}]


def test_ranking_by_family_and_swaps() -> None:
    def row(ps: dict[str, float], half: float = 0.01) -> dict[str, Any]:
        return {
            "families": {
                f: {"p_equivalent": {"value": p, "low": p - half, "high": p + half}}
                for f, p in ps.items()
            }
        }

    rows = {
        "a": row({"search": 0.2, "mcts": 0.3}),
        "b": row({"search": 0.5, "mcts": 0.4}),
        "c": row({"search": 0.8, "mcts": 0.9}),
    }
    r = ranking(rows, ["search", "mcts"])
    assert r["by_family"] == {"search": ["a", "b", "c"], "mcts": ["a", "b", "c"]}
    assert r["agreement"]["search/mcts"] == {
        "kendall_tau": 1.0,
        "same_order": True,
        "swapped": [],
        "opposite_beyond_intervals": [],
    }
    # Both families resolve a against b, in opposite directions: the ranking depends on them.
    rows["b"] = row({"search": 0.5, "mcts": 0.1})
    agr = ranking(rows, ["search", "mcts"])["agreement"]["search/mcts"]
    assert not agr["same_order"] and agr["swapped"] == [["a", "b"]]
    assert agr["opposite_beyond_intervals"] == [["a", "b"]]
    # The same point values, but mcts cannot tell a from b: a swap, not a contradiction.
    rows["b"] = row({"search": 0.5, "mcts": 0.1}, half=0.25)
    agr = ranking(rows, ["search", "mcts"])["agreement"]["search/mcts"]
    assert agr["swapped"] == [["a", "b"]] and agr["opposite_beyond_intervals"] == []


def test_robust_tiers_keep_only_the_order_every_family_agrees_on() -> None:
    def row(ps: dict[str, tuple[float, float]]) -> dict[str, Any]:
        return {
            "families": {
                f: {"p_equivalent": {"value": (lo + hi) / 2, "low": lo, "high": hi}}
                for f, (lo, hi) in ps.items()
            }
        }

    rows = {
        "a": row({"search": (0.1, 0.2), "mcts": (0.1, 0.3)}),
        # b and c overlap in mcts: neither is below the other.
        "b": row({"search": (0.4, 0.5), "mcts": (0.5, 0.6)}),
        "c": row({"search": (0.6, 0.7), "mcts": (0.55, 0.65)}),
        "d": row({"search": (0.9, 1.0), "mcts": (0.9, 1.1)}),
    }
    tiers = ranking(rows, ["search", "mcts"])["robust_tiers"]
    assert tiers == [["a"], ["b", "c"], ["d"]]
    # When mcts puts d below everything, nothing is robustly luckier than d:
    # it joins the first tier.
    rows["d"] = row({"search": (0.9, 1.0), "mcts": (0.0, 0.05)})
    assert ranking(rows, ["search", "mcts"])["robust_tiers"] == [["a", "d"], ["b", "c"]]


def test_luck_adjusted_results_with_known_luck() -> None:
    rng = np.random.default_rng(4)
    n = 400
    # Luck decides every game: the luck of a game is its result, so adjusting
    # removes all the variance and leaves a fair score.
    luck = rng.choice([-1.0, 1.0], n)
    decided = {
        "agents": ["a", "b"],
        "evaluator": "e",
        "score": ((luck + 1) / 2).tolist(),
        "luck_sum": luck.tolist(),
        "n_rolls": [10] * n,
        "abs_luck_sum": np.abs(luck).tolist(),
    }
    out = luck_adjusted(decided, CFG, 1)
    assert out["variance_explained"]["value"] == pytest.approx(1.0)
    assert out["variance_reduction"]["value"] == pytest.approx(1.0)
    assert out["adjusted_score"]["value"] == pytest.approx(0.5)
    assert out["luck_coefficient"]["value"] == pytest.approx(1.0)
    # Luck unrelated to the results: nothing explained, and the noise adds variance.
    skill = rng.random(n) < 0.7
    noise = rng.normal(0, 0.5, n)
    unrelated = {**decided, "score": skill.astype(float).tolist(), "luck_sum": noise.tolist()}
    out = luck_adjusted(unrelated, CFG, 1)
    assert out["variance_explained"]["low"] < 0.02
    assert out["variance_reduction"]["value"] < 0
    s = out["score"]
    assert s["low"] <= 0.7 <= s["high"]


def test_anchor_fit_recovers_a_known_rating() -> None:
    levels = [1350, 1600, 1900]
    true = 1700.0
    games = [400, 400, 400]
    points = [elo_p(true - lv) * n for lv, n in zip(levels, games)]
    assert fit_elo(levels, points, games) == pytest.approx(true, abs=1.0)
    # Perfect records give one-sided bounds: all wins against 1900 in 20 games
    # means at least ~1900 + 200 or so, never an infinite rating.
    b = perfect_record_bound([1900], [20], won=True)
    assert 1900 < b < 2600
    assert elo_p(b - 1900) ** 20 == pytest.approx(0.05, rel=1e-6)
    lo = perfect_record_bound(levels, [4, 4, 4], won=False)
    assert lo < 1350
    shifted = anchor_ladder(
        {"spec": "s", "top_elo": {"value": 1500.0}},
        [{"spec": "random", "elo": 0.0}, {"spec": "s", "elo": 1000.0}],
    )
    assert shifted["offset"] == 500.0
    assert [r["absolute_elo"] for r in shifted["ladder"]] == [500.0, 1500.0]
    assert anchor_ladder({"skipped": "x"}, []) == {"skipped": "x"}


@pytest.mark.skipif(stockfish_path() is None, reason="stockfish is not installed")
def test_a_small_gauntlet_against_stockfish() -> None:
    g = gauntlet("search:nodes=16", 2, seed=1, levels=(1350,), n_boot=10)
    assert [lv["games"] for lv in g["levels"]] == [2]
    assert 0.0 <= g["levels"][0]["score"] <= 1.0
    top = g["top_elo"]
    assert math.isfinite(top["value"])


def _tiny(**kw: Any) -> StudyConfig:
    base: dict[str, Any] = {
        "variants": ["chess", "fluky"],
        "search_rungs": [3, 4, 5],
        "mcts_rungs": [2, 3],
        "pairs": 3,
        "pairs_two_apart": 2,
        "mcts_pairs": 2,
        "mcts_pairs_two_apart": 2,
        "playout_games": 30,
        "luck_games": 3,
        "luck_nodes_log2": 4,
        "luck_families": ["material"],
        "luck_pairs": 2,
        "calibration_q": [0.3, 0.7],
        "bootstrap": 10,
    }
    base.update(kw)
    return StudyConfig(**base)


def _strip(results: dict[str, Any]) -> str:
    """The numbers as text (NaN compares equal to NaN), without timings."""
    rows = {v: {k: x for k, x in r.items() if k != "seconds"} for v, r in results.items()}
    return json.dumps(rows, sort_keys=True)


def test_same_numbers_whatever_the_threads_and_the_other_variants() -> None:
    one = run_study(_tiny(threads=1), progress=False).results
    two = run_study(_tiny(threads=2), progress=False).results
    assert _strip(one["variants"]) == _strip(two["variants"])
    # Fluky's raw games do not depend on chess running too.
    alone = run_study(_tiny(variants=["fluky"]), progress=False)
    both = run_study(_tiny(), progress=False)
    strip_raw = lambda r: {k: x for k, x in r.items() if k != "seconds"}  # noqa: E731
    assert strip_raw(alone.raw["fluky"]) == strip_raw(both.raw["fluky"])
    # Without chess there is no p-equivalent, said as such (NaN), not invented.
    assert math.isnan(alone.results["variants"]["fluky"]["p_equivalent"]["value"])


def test_a_rerun_resumes_from_the_raw_games(tmp_path: Path) -> None:
    first = run_study(_tiny(variants=["chess"]), progress=False, out=tmp_path)
    assert first.results["resumed"] == []
    assert (tmp_path / "raw" / "chess.json").exists()
    again = run_study(_tiny(), progress=False, out=tmp_path)
    # Chess and its calibration games (the first run's twin) are reused.
    assert again.results["resumed"] == ["chess", "chess:luck=0.3", "chess:luck=0.7"]
    assert again.raw["chess"] == first.raw["chess"]
    # Other options: nothing reused.
    other = run_study(_tiny(seed=9), progress=False, out=tmp_path)
    assert other.results["resumed"] == []
    saved = json.loads((tmp_path / "raw" / "chess.json").read_text())
    assert saved["config"]["seed"] == 9


def test_saved_games_another_build_plays_differently_are_replayed(tmp_path: Path) -> None:
    first = run_study(_tiny(variants=["chess"]), progress=False, out=tmp_path)
    path = tmp_path / "raw" / "chess.json"
    saved = json.loads(path.read_text())
    # As if another engine had played the first pair of one matchup: its
    # stronger rung lost where this build wins (or the other way round).
    matchup = saved["raw"]["families"]["search"]["matchups"][-1]
    matchup["scores"][0][0] = 1.0 - matchup["scores"][0][0]
    path.write_text(json.dumps(saved))
    again = run_study(_tiny(variants=["chess"]), progress=False, out=tmp_path)
    assert again.results["resumed"] == ["chess:luck=0.3", "chess:luck=0.7"]  # calibration
    rungs = saved["raw"]["families"]["search"]["rungs"]
    assert again.results["replayed_stale"] == {
        "chess": [f"{rungs[matchup['i']]} vs {rungs[matchup['j']]}"]
    }
    # Replayed by this build: its own games, saved again and then reused.
    assert again.raw["chess"]["families"] == first.raw["chess"]["families"]
    third = run_study(_tiny(variants=["chess"]), progress=False, out=tmp_path)
    assert third.results["resumed"] == ["chess", "chess:luck=0.3", "chess:luck=0.7"]
    assert third.results["replayed_stale"] == {}


def test_config_errors() -> None:
    for bad, message in (
        ({"variants": ["nope"]}, "unknown variant"),
        ({"search_rungs": [5]}, "at least 2 rungs"),
        ({"search_rungs": [6, 5]}, "increasing"),
        ({"pairs": 1}, "at least 2"),
        ({"anchor": "gnuchess"}, "anchor"),
        ({"opening_plies": 99}, "opening_plies"),
        ({"variants": ["chess", "chess"]}, "twice"),
    ):
        with pytest.raises(ValueError, match=message):
            _tiny(**bad).check()


def test_depth_probe_is_deterministic_and_reported() -> None:
    from dicechess.study.run import DEPTH_POSITIONS, probe_depths

    cfg = _tiny()
    a = probe_depths("chess", cfg)
    assert a == probe_depths("chess", cfg)
    assert a["positions"] == DEPTH_POSITIONS
    assert list(a["depth"]) == rung_specs("search", cfg.search_rungs)[1:]
    for d in a["depth"].values():
        assert d["min"] <= d["mean"] <= d["max"]
    # More nodes never complete fewer iterations on average in chess.
    means = [d["mean"] for d in a["depth"].values()]
    assert means == sorted(means)
