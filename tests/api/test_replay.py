"""Replay: `dicechess replay FILE` (text and SVG) and the notebook viewer."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

import dicechess as dc
from dicechess import records, replay
from dicechess.cli import main


def _game() -> dc.State:
    s = dc.State("vegas", max_plies=6)
    while not s.is_terminal():
        if s.is_chance_node():
            s.apply_action(s.chance_outcomes()[0][0])
        else:
            s.apply_action(s.legal_actions()[0])
    return s


def test_cli_replays_text_and_svg(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    s = _game()
    pgn = tmp_path / "g.pgn"
    records.write_pgn([s, dc.State("chess")], pgn)
    assert main(["replay", str(pgn), "--game", "1"]) == 0
    out = capsys.readouterr().out
    assert out.count("after action") == len(s.history())
    assert "roll " in out and str(s) in out
    jl = tmp_path / "g.jsonl"
    records.write_jsonl([s], jl)
    assert main(["replay", str(jl), "--svg", str(tmp_path / "svg")]) == 0
    files = sorted((tmp_path / "svg" / "game_001").glob("*.svg"))
    assert len(files) == len(s.history()) + 1
    ET.fromstring(files[-1].read_text())
    assert main(["replay", str(pgn), "--game", "3"]) == 2
    assert main(["replay", str(tmp_path / "missing.pgn")]) == 2
    (tmp_path / "bad.pgn").write_text("1. e4 e5 2. Ke3")
    assert main(["replay", str(tmp_path / "bad.pgn")]) == 2
    assert "line 1, column 13" in capsys.readouterr().err


def test_notebook_viewer_falls_back_to_html() -> None:
    rec = records.record(_game())
    v = replay.viewer(rec)
    if hasattr(v, "_repr_html_"):  # no ipywidgets here: the HTML list
        text = v._repr_html_()
        assert text.count("<svg") == len(rec.actions) + 1
    assert replay.move_texts(rec)[0].startswith("roll ")


def test_doctests() -> None:
    import doctest

    failures, tried = doctest.testmod(replay)
    assert tried > 0 and failures == 0
    failures, tried = doctest.testmod(records)
    assert tried > 0 and failures == 0
