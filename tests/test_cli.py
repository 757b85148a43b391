"""The command-line interface end to end (in-process)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import dicechess as dc
from dicechess.cli import main


def test_study_quick_writes_report(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "st"
    assert main(["study", "--quick", "--games", "30", "--out", str(out)]) == 0
    printed = capsys.readouterr().out
    assert "| variant |" in printed
    results = json.loads((out / "results.json").read_text())
    assert [r["variant"] for r in results["variants"]] == dc.variants()
    assert all(r["games"] == 30 for r in results["variants"])
    assert "# dicechess study" in (out / "report.md").read_text()
    # Reproducible from the seed.
    out2 = tmp_path / "st2"
    assert main(["study", "--games", "30", "--out", str(out2)]) == 0
    again = json.loads((out2 / "results.json").read_text())
    strip = lambda rs: [{k: v for k, v in r.items() if k != "seconds"} for r in rs["variants"]]  # noqa: E731
    assert strip(again) == strip(results)
    # No overwrite without --force.
    assert main(["study", "--games", "30", "--out", str(out)]) == 2
    assert "--force" in capsys.readouterr().err
    assert main(["study", "--games", "30", "--out", str(out), "--force"]) == 0


def test_study_bad_arguments(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as e:
        main(["study", "--variants", "nope"])
    assert e.value.code == 2
    assert "unknown variant" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["study", "--games", "0"])
    blocker = tmp_path / "file"
    blocker.write_text("x")
    assert main(["study", "--games", "5", "--out", str(blocker / "sub")]) == 2
    assert "cannot write" in capsys.readouterr().err


def test_perft_and_play(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["perft", "chess", "3"]) == 0
    assert capsys.readouterr().out.startswith("8902 nodes")
    assert main(["perft", "chess", "2", "--fen", "bad"]) == 2
    assert main(["play", "chess", "--max-plies", "6"]) == 0
    assert "max_plies" in capsys.readouterr().out


def test_no_command_prints_help(capsys: pytest.CaptureFixture[str]) -> None:
    assert main([]) == 2
    assert "study" in capsys.readouterr().out
