"""The study's third edition: luck games per family, calibration games on the
twin with the luck dial, luck-equivalents, the families' agreement and the
report's headline (the estimator itself: tests/study/test_calibration.py)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest

from dicechess.study import StudyConfig, run_study, write_report
from dicechess.study.calibration import (
    agreement,
    calibration_spec,
    calibration_specs,
    luck_equivalents,
    luck_per_game,
    play_luck_games,
    ranking_agreement,
    safe_name,
    stronger_score,
    twin_of,
)


def test_twins_specs_and_file_names() -> None:
    assert twin_of("fluky") == twin_of("metamorph:max_plies=50") == "gardner"
    assert twin_of("vegas") == twin_of("chess:luck=0.15") == twin_of("cubic") == "chess"
    assert calibration_spec("chess", 0.0) == "chess"
    assert calibration_spec("gardner", 0.05) == "gardner:luck=0.05"
    assert calibration_specs(["fluky", "vegas"], [0.1, 0.4]) == [
        "chess",
        "chess:luck=0.1",
        "chess:luck=0.4",
        "gardner",
        "gardner:luck=0.1",
        "gardner:luck=0.4",
    ]
    assert safe_name("chess:luck=0.1,max_plies=30") == "chess@luck=0.1@max_plies=30"


def test_luck_games_see_luck_only_where_there_are_chance_nodes() -> None:
    none = play_luck_games("gardner", "material", 3, seed=1, threads=1)
    some = play_luck_games("gardner:luck=0.5", "material", 3, seed=1, threads=1)
    assert np.asarray(none["rows"]).shape == (3, 4)
    assert luck_per_game(none["rows"]) == 0.0
    assert luck_per_game(some["rows"]) > 0.0
    assert 0.0 <= stronger_score(some["rows"]) <= 1.0
    again = play_luck_games("gardner:luck=0.5", "material", 3, seed=1, threads=2)
    assert again == some


def _rows(rng: np.random.Generator, sd: float, n: int = 60) -> list[list[float]]:
    """Pairs whose luck has standard deviation ``sd`` and whose results follow it."""
    luck = rng.normal(0, sd, (n, 2))
    res = np.clip(np.sign(luck + rng.normal(0.3, 0.5, (n, 2))), -1, 1)
    return np.stack([res[:, 0], luck[:, 0], res[:, 1], luck[:, 1]], axis=1).tolist()


def _synthetic(target_sd: float, seed: int) -> tuple[dict[str, Any], dict[str, Any]]:
    """Calibration games on chess whose luck sd grows as sqrt(q) (variance 4q), and
    two targets: one with a known variance, one without chance nodes."""
    rng = np.random.default_rng(seed)
    grid = [0.05, 0.1, 0.2, 0.4, 0.7]
    calib = {"chess": {"luck_games": {"search": {"rows": _rows(rng, 0.0)}}}}
    for q in grid:
        calib[calibration_spec("chess", q)] = {
            "luck_games": {"search": {"rows": _rows(rng, 2 * q**0.5)}}
        }
    for c in calib.values():
        c["luck_games"]["search"].update(agents=["a", "b"], valuer="v")
    raws = {
        "vegas": {
            "luck_games": {
                "search": {"rows": _rows(rng, target_sd), "agents": ["a", "b"], "valuer": "v"}
            }
        },
        "cubic": {
            "luck_games": {"search": {"rows": _rows(rng, 0.0), "agents": ["a", "b"], "valuer": "v"}}
        },
    }
    return raws, {"calib": calib, "grid": grid}


def test_luck_equivalent_recovers_a_known_q_and_zero_without_chance() -> None:
    covered = 0
    for seed in range(10):
        raws, c = _synthetic(2 * 0.15**0.5, seed)
        out = luck_equivalents(raws, c["calib"], c["grid"], ["search"], n_boot=200, seed=seed)
        e = out["variants"]["vegas"]["families"]["search"]
        covered += e["lo"] <= 0.15 <= e["hi"]
        z = out["variants"]["cubic"]["families"]["search"]
        assert z["q"] == z["lo"] == z["hi"] == 0.0
    assert covered >= 8
    assert out["curves"]["chess"]["search"]["q"] == [0.0, *c["grid"]]


def test_agreement_and_ranking_contradictions() -> None:
    a = {"q": 0.2, "lo": 0.1, "hi": 0.3}
    b = {"q": 0.25, "lo": 0.2, "hi": 0.35}
    c = {"q": 0.6, "lo": 0.5, "hi": 0.7}
    assert agreement({"x": a, "y": b}) == {
        "families": ["x", "y"],
        "agree": True,
        "apart": [],
        "common_interval": [0.2, 0.3],
    }
    assert agreement({"x": a, "z": c})["apart"] == [["x", "z"]]
    rows = {
        "u": {"families": {"f": a, "g": c}},
        "w": {"families": {"f": c, "g": a}},
    }
    got = ranking_agreement(rows, ["f", "g"])
    assert not got["same_order"]
    assert got["contradictions"] == [{"variants": ["u", "w"], "order": {"f": -1, "g": 1}}]


def test_a_study_with_a_known_luck_level_reports_the_headline(tmp_path: Path) -> None:
    cfg = StudyConfig.quick_config(
        variants=["gardner:luck=0.3", "cubic_checkers"],
        luck_families=["material"],
        luck_pairs=6,
        calibration_q=[0.1, 0.5],
        search_rungs=[2, 3],
        mcts_rungs=[1, 2],
        playout_games=20,
    )
    st = run_study(cfg, progress=False, out=tmp_path)
    cal = st.results["calibration"]
    assert cal["grid"] == [0.0, 0.1, 0.5]
    row = cal["variants"]["gardner:luck=0.3"]
    assert row["twin"] == "gardner" and row["true_luck"] == 0.3
    e = row["families"]["material"]
    assert 0.0 <= e["lo"] <= e["q"] <= e["hi"] <= 0.5
    assert cal["variants"]["cubic_checkers"]["families"]["material"]["hi"] == 0.0
    assert (tmp_path / "raw" / "calibration" / "gardner@luck=0.1.json").exists()
    write_report(st, tmp_path, force=True)
    text = (tmp_path / "report.md").read_text()
    assert text.index("Headline: the luck-equivalent q") < text.index(
        "Appendix: measures not validated"
    )
    assert (tmp_path / "calibration.png").stat().st_size > 10_000
    again = run_study(cfg, progress=False, out=tmp_path)
    assert "gardner:luck=0.1" in again.results["resumed"]
    assert again.results["calibration"] == cal


def test_config_checks_the_luck_options() -> None:
    for bad, message in (
        ({"luck_families": ["nope"]}, "luck_families"),
        ({"luck_pairs": 1}, "luck_pairs"),
        ({"calibration_q": [0.4, 0.1]}, "calibration_q"),
        ({"calibration_q": [0.1, 1.5]}, "calibration_q"),
        ({"variants": ["chess:luck=3"]}, "from 0 to 1"),
    ):
        with pytest.raises(ValueError, match=message):
            StudyConfig(**bad).check()


def test_ctrl_c_during_the_calibration_keeps_what_finished(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import dicechess.study.run as run

    cfg = StudyConfig.quick_config(
        variants=["fluky"],
        luck_families=["material"],
        luck_pairs=2,
        calibration_q=[0.1, 0.5],
        search_rungs=[2, 3],
        mcts_rungs=[1, 2],
        playout_games=20,
    )
    real = run.play_calibration
    calls: list[str] = []

    def interrupted_at_the_second(spec: str, c: StudyConfig, tick: Any) -> dict[str, Any]:
        calls.append(spec)
        if len(calls) == 2:
            raise KeyboardInterrupt
        return real(spec, c, tick)

    monkeypatch.setattr(run, "play_calibration", interrupted_at_the_second)
    st = run_study(cfg, progress=False, out=tmp_path)
    assert st.results["interrupted"] is True
    assert list(st.results["variants"]) == ["fluky"]
    # Without its whole curve the variant has no luck-equivalent yet: none invented.
    assert st.results["calibration"]["variants"]["fluky"]["families"] == {}
    monkeypatch.setattr(run, "play_calibration", real)
    again = run_study(cfg, progress=False, out=tmp_path)
    assert again.results["interrupted"] is False
    assert again.results["resumed"] == ["fluky", "gardner"]
    assert "material" in again.results["calibration"]["variants"]["fluky"]["families"]
