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


def test_study_quick_writes_report(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "st"
    assert main([*QUICK, "--out", str(out)]) == 0
    printed = capsys.readouterr().out
    assert "| variant |" in printed and "luck share" in printed
    results = json.loads((out / "results.json").read_text())
    rows = results["variants"]
    assert [r["variant"] for r in rows] == dc.variants()
    assert results["config"]["agents"] == ["random", "greedy", "expectimax:depth=1"]
    for r in rows:
        assert r["playouts"]["games"] == 60
        assert r["arena"]["games"] == 3 * 6
        assert len(r["ratings"]["elo"]) == 3
        assert 0.0 <= r["luck_share"]["share"] <= 1.0
        # The controls have no dice, so no rolls to value.
        assert (r["roll_luck"] is None) == (r["variant"] in CONTROLS)
        assert (r["p_equivalent"] is None) == (r["variant"] == "chess")
    for name in ("report.md", "report.html", "summary.csv", "ratings.csv", "arena_games.csv"):
        assert (out / name).stat().st_size > 0, name
    for png in ("colour_advantage", "ratings", "luck", "roll_luck", "game_lengths"):
        assert (out / f"{png}.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n", png
    html = (out / "report.html").read_text()
    assert html.count("data:image/png;base64,") == 5
    md = (out / "report.md").read_text()
    assert md.startswith("# dicechess study") and "![" in md
    # Every Markdown table is well formed: each row has its header's cell count.
    for table in md.split("\n\n"):
        rows = [line for line in table.splitlines() if line.startswith("|")]
        assert len({row.count("|") for row in rows}) <= 1, table
    # Reproducible from the seed.
    out2 = tmp_path / "st2"
    assert main([*QUICK, "--out", str(out2)]) == 0
    again = json.loads((out2 / "results.json").read_text())
    strip = lambda rs: [{k: v for k, v in r.items() if k != "seconds"} for r in rs["variants"]]  # noqa: E731
    assert strip(again) == strip(results)
    assert (out2 / "arena_games.csv").read_text() == (out / "arena_games.csv").read_text()
    # No overwrite without --force.
    assert main([*QUICK, "--out", str(out)]) == 2
    assert "--force" in capsys.readouterr().err


def test_study_subset_matches_full_run(tmp_path: Path) -> None:
    """A variant's numbers do not depend on which other variants run."""
    args = [*QUICK, "--seed", "5"]
    assert main([*args, "--variants", "fluky,vegas", "--out", str(tmp_path / "a")]) == 0
    assert main([*args, "--variants", "vegas", "--out", str(tmp_path / "b")]) == 0
    a = json.loads((tmp_path / "a" / "results.json").read_text())["variants"][1]
    b = json.loads((tmp_path / "b" / "results.json").read_text())["variants"][0]
    assert a["arena"] == b["arena"] and a["roll_luck"] == b["roll_luck"]


@pytest.mark.parametrize(
    "argv, message",
    [
        (["--variants", "nope"], "unknown variant"),
        (["--agents", "random,wizard"], "valid specs"),
        (["--agents", "mcts:sims=-3,random"], "valid specs"),
        (["--games", "0"], "positive integer"),
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


def test_study_bad_out_and_single_agent(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("x")
    assert main([*QUICK, "--out", str(blocker / "sub")]) == 2
    assert "cannot write" in capsys.readouterr().err
    assert main([*QUICK, "--agents", "random", "--out", str(tmp_path / "o")]) == 2
    assert "at least 2 agents" in capsys.readouterr().err


def test_perft_and_play(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["perft", "chess", "3"]) == 0
    assert capsys.readouterr().out.startswith("8902 nodes")
    assert main(["perft", "chess", "2", "--fen", "bad"]) == 2
    assert main(["play", "chess", "--max-plies", "6"]) == 0
    assert "max_plies" in capsys.readouterr().out


def test_no_command_prints_help(capsys: pytest.CaptureFixture[str]) -> None:
    assert main([]) == 2
    assert "study" in capsys.readouterr().out
