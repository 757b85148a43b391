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


def test_notebook_viewer_is_html_with_a_slider() -> None:
    """The viewer is plain HTML (every board as SVG, a range input and a few lines of
    JavaScript), so a saved notebook and nbconvert's HTML show it without a kernel."""
    import html.parser

    rec = records.record(_game())
    v = replay.viewer(rec, size=200)
    assert len(v) == len(rec.actions) + 1
    assert repr(v) == f"Replay('vegas', {len(rec.actions)} actions)"
    text = v._repr_html_()
    assert text.count("<svg") == len(rec.actions) + 1

    class Steps(html.parser.HTMLParser):
        def __init__(self) -> None:
            super().__init__()
            self.steps: list[tuple[str, str | None]] = []
            self.slider: dict[str, str | None] = {}

        def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
            a = dict(attrs)
            if "data-step" in a:
                self.steps.append((a["data-step"] or "", a.get("style")))
            if tag == "input":
                self.slider = a

    p = Steps()
    p.feed(text)
    # One frame per step, only the start shown; the slider spans them and shows the one picked.
    assert [s for s, _ in p.steps] == [str(i) for i in range(len(v))]
    assert p.steps[0][1] is None and all(style == "display:none" for _, style in p.steps[1:])
    assert p.slider["type"] == "range" and p.slider["max"] == str(len(v) - 1)
    assert "this.value" in (p.slider["oninput"] or "")
    # Two viewers on one page do not drive each other's frames.
    assert (
        text.split('class="')[2][:20] != replay.viewer(rec)._repr_html_().split('class="')[2][:20]
    )
    assert replay.move_texts(rec)[0].startswith("roll ")


def test_doctests() -> None:
    import doctest

    failures, tried = doctest.testmod(replay)
    assert tried > 0 and failures == 0
    failures, tried = doctest.testmod(records)
    assert tried > 0 and failures == 0
