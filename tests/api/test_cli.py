"""The command-line interface end to end (in-process)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import dicechess as dc
from dicechess.cli import main
from dicechess.study import CONTROLS

QUICK = ["study", "--quick", "--games", "6", "--playout-games", "60", "--luck-games", "3",
         "--no-progress"]  # fmt: skip
TRIPLE = {"value", "low", "high"}


def test_study_quick_writes_report(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "st"
    assert main([*QUICK, "--out", str(out)]) == 0
    printed = capsys.readouterr().out
    assert "| variant |" in printed and "p-equivalent" in printed
    results = json.loads((out / "results.json").read_text())
    # Top level: version, seed and every option.
    assert results["version"] == 3 and results["seed"] == 0
    cfg = results["config"]
    assert cfg["pairs"] == 3 and cfg["pairs_two_apart"] == 2 and cfg["quick"] is True
    assert cfg["playout_games"] == 60 and cfg["luck_games"] == 3
    rows = results["variants"]
    assert list(rows) == dc.variants()
    n_rungs = 1 + len(cfg["search_rungs"])
    for v, r in rows.items():
        assert r["playouts"]["games"] == 60
        assert set(r["skill_curve"]["elo_per_doubling"]) == TRIPLE
        for key in ("skill_classes", "luck_alpha", "depth_beta", "p_equivalent"):
            assert set(r[key]) == TRIPLE, (v, key)
        assert r["paired_variance_reduction"] is None or isinstance(
            r["paired_variance_reduction"], float
        )
        assert set(r["families"]) == {"search", "mcts"}
        for fam in r["families"].values():
            assert set(fam["p_equivalent"]) == TRIPLE
        ladder = r["ladder"]
        assert [x["spec"] for x in ladder] == ["random"] + [
            f"search:nodes={2**k}" for k in cfg["search_rungs"]
        ]
        assert len(ladder) == n_rungs and ladder[0]["elo"] == 0.0
        for rung in ladder:
            assert {"spec", "elo", "low", "high", "games"} <= set(rung)
        # Adjacent matchups: 3 pairs = 6 games; rungs two apart: 2 pairs.
        m = r["families"]["search"]["matchups"]
        assert [x["pairs"] for x in m] == [3] * (n_rungs - 1) + [2] * (n_rungs - 2)
        assert len(r["white"]) == len(m)
        # The controls have no dice, so no rolls to value.
        assert (r["luck_adjusted"] is None) == (v in CONTROLS)
        assert (r["p_equivalent"]["value"] == 1.0) if v == "chess" else True
    assert set(results["ranking"]["by_family"]) == {"search", "mcts"}
    for name in ("report.md", "report.html", "summary.csv", "ladders.csv", "matchups.csv"):
        assert (out / name).stat().st_size > 0, name
    pngs = ("skill_curve", "skill_classes", "luck", "luck_adjusted", "colour_advantage")
    for png in (*pngs, "game_lengths"):
        assert (out / f"{png}.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n", png
    html = (out / "report.html").read_text()
    assert html.count("data:image/png;base64,") == 7
    assert (out / "calibration.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    cal = results["calibration"]
    assert list(cal["variants"]) == dc.variants()
    assert set(cal["families"]) == {"search", "mcts", "material"}
    assert "Headline: the luck-equivalent q" in (out / "report.md").read_text()
    md = (out / "report.md").read_text()
    assert md.startswith("# dicechess study") and "How to read this" in md and "![" in md
    # Every Markdown table is well formed: each row has its header's cell count.
    for table in md.split("\n\n"):
        lines = [line for line in table.splitlines() if line.startswith("|")]
        assert len({line.count("|") for line in lines}) <= 1, table
    # The raw games of every variant, for a resume.
    assert sorted(p.stem for p in (out / "raw").glob("*.json")) == sorted(dc.variants())
    # No overwrite of a finished report without --force.
    assert main([*QUICK, "--out", str(out)]) == 2
    assert "--force" in capsys.readouterr().err
    # With --force the same options reuse every variant's games: same numbers.
    assert main([*QUICK, "--out", str(out), "--force"]) == 0
    assert "resumed: chess" in capsys.readouterr().out
    again = json.loads((out / "results.json").read_text())
    strip = lambda rs: json.dumps(  # noqa: E731
        {v: {k: x for k, x in r.items() if k != "seconds"} for v, r in rs["variants"].items()}
    )
    assert strip(again) == strip(results)


def test_study_subset_replays_the_same_games(tmp_path: Path) -> None:
    """A variant's games do not depend on which other variants run."""
    args = [*QUICK, "--seed", "5", "--search-rungs", "3-5", "--mcts-rungs", "2-3"]
    assert main([*args, "--variants", "fluky,vegas", "--out", str(tmp_path / "a")]) == 0
    assert main([*args, "--variants", "vegas", "--out", str(tmp_path / "b")]) == 0
    a = json.loads((tmp_path / "a" / "raw" / "vegas.json").read_text())["raw"]
    b = json.loads((tmp_path / "b" / "raw" / "vegas.json").read_text())["raw"]
    a.pop("seconds")
    b.pop("seconds")
    assert a == b


@pytest.mark.parametrize(
    "argv, message",
    [
        (["--variants", "nope"], "unknown variant"),
        (["--games", "0"], "positive integer"),
        (["--games", "7"], "even number"),
        (["--search-rungs", "5"], "at least 2 increasing"),
        (["--mcts-rungs", "6-3"], "at least 2 increasing"),
        (["--search-rungs", "a-b"], "log2 budgets"),
        (["--anchor", "gnuchess"], "invalid choice"),
        (["--seed", "-1"], "seed"),
    ],
)
def test_study_bad_arguments(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as e:
        main(["study", *argv])
    assert e.value.code == 2
    assert message in capsys.readouterr().err


def test_study_bad_out(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("x")
    assert main([*QUICK, "--out", str(blocker / "sub")]) == 2
    assert "cannot" in capsys.readouterr().err


def test_study_anchor_is_skipped_cleanly_without_stockfish(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import dicechess.study.anchor as anchor

    monkeypatch.setattr(anchor, "stockfish_path", lambda: None)
    out = tmp_path / "a"
    argv = [*QUICK, "--variants", "chess", "--search-rungs", "3-4", "--mcts-rungs", "2-3"]
    assert main([*argv, "--anchor", "stockfish", "--out", str(out)]) == 0
    results = json.loads((out / "results.json").read_text())
    assert "stockfish not found" in results["anchor"]["skipped"]
    assert "Skipped: stockfish not found" in (out / "report.md").read_text()


def test_perft_and_play(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["perft", "chess", "3"]) == 0
    assert capsys.readouterr().out.startswith("8902 nodes")
    assert main(["perft", "chess", "2", "--fen", "bad"]) == 2
    assert main(["play", "chess", "--max-plies", "6"]) == 0
    assert "max_plies" in capsys.readouterr().out


def test_no_command_prints_help(capsys: pytest.CaptureFixture[str]) -> None:
    assert main([]) == 2
    assert "study" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (["--calibration-q", "0.4,0.1"], "increasing luck levels"),
        (["--calibration-q", "0.1,lots"], "increasing luck levels"),
        (["--luck-families", "search,nope"], "luck families among"),
        (["--variants", "chess:luck=2"], "from 0 to 1"),
    ],
)
def test_study_refuses_bad_luck_options(
    args: list[str], needle: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as e:
        main(["study", *args, "--no-progress"])
    assert e.value.code == 2
    assert needle in capsys.readouterr().err
