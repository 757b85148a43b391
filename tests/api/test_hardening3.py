"""Regression tests of issue 72 (hardening, third round): what a determined
attacker still broke. One section per defect, numbered as in the issue."""

from __future__ import annotations

from pathlib import Path

import pytest

import dicechess as dc
from dicechess import records
from dicechess.cli import main

# ------------------------------------------- 1. non-ASCII move text


@pytest.mark.parametrize("variant", dc.variants())
@pytest.mark.parametrize("text", ["€1", "🂡", "é2-e4", "e2€e4", "c3\u0301d4", "一1二2"])
def test_non_ascii_move_text_is_a_value_error(variant: str, text: str) -> None:
    s = dc.State(variant)
    if s.is_chance_node():
        s.apply_action(s.chance_outcomes()[0][0])
    before = s.fen()
    with pytest.raises(ValueError):
        s.string_to_action(text)
    with pytest.raises(ValueError):
        s.apply_san(text)
    assert s.fen() == before


def test_non_ascii_moves_in_a_record_are_a_line_and_column(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text = '[Variant "cubic_checkers"]\n\n1. 🂡 *\n'
    with pytest.raises(ValueError, match="line 3, column 4"):
        records.read_pgn(text)
    p = tmp_path / "g.pgn"
    p.write_text(text, encoding="utf-8")
    assert main(["replay", str(p)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("dicechess: ") and err.count("\n") == 1

