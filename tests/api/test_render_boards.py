"""Boards worth looking at: coordinates, last-move and check highlights,
captions that fit, and rgb_array showing the same."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import numpy as np
import pytest

import dicechess as dc
from dicechess import render


def _cls(root: ET.Element, name: str) -> list[ET.Element]:
    return [e for e in root.iter() if name in (e.get("class") or "").split()]


def test_coordinates_and_last_move_and_check() -> None:
    s = dc.State("chess")
    for m in ["e4", "e5", "Qh5", "Nc6", "Qxf7+"]:
        s.apply_san(m)
    root = ET.fromstring(render.svg(s))
    assert [e.text for e in _cls(root, "file")] == list("abcdefgh")
    assert [e.text for e in _cls(root, "rank")] == [str(r) for r in range(8, 0, -1)]
    # Qh5xf7: h5 (row 3, file 7) and f7 (row 1, file 5) highlighted.
    assert sorted(render.last_move_squares(s)) == [(1, 5), (3, 7)]
    assert len(_cls(root, "last-move")) == 2
    assert render.check_square(s) == (0, 4)  # the black king on e8
    (chk,) = _cls(root, "check")
    assert float(chk.get("y") or -1) == 0.0
    # Before any move: nothing highlighted.
    root0 = ET.fromstring(render.svg(dc.State("chess")))
    assert not _cls(root0, "last-move") and not _cls(root0, "check")


def test_castling_highlights_four_squares_and_pass_none() -> None:
    s = dc.State("chess", fen="4k3/8/8/8/8/8/8/4K2R w K - 0 1")
    s.apply_san("O-O")
    assert sorted(render.last_move_squares(s)) == [(7, 4), (7, 5), (7, 6), (7, 7)]


@pytest.mark.parametrize("variant", dc.variants())
def test_captions_fit_in_the_view_box(variant: str) -> None:
    rng = np.random.default_rng(1)
    s = dc.State(variant)
    for _ in range(30):
        if s.is_terminal():
            break
        acts = [a for a, _ in s.chance_outcomes()] if s.is_chance_node() else s.legal_actions()
        s.apply_action(int(acts[rng.integers(len(acts))]))
    root = ET.fromstring(render.svg(s))
    _, _, width, height = (float(v) for v in (root.get("viewBox") or "").split())
    caps = _cls(root, "caption")
    assert len(caps) == len(render.caption(s)) > 0
    for c in caps:
        x, y = float(c.get("x") or 0), float(c.get("y") or 0)
        assert x + float(c.get("textLength") or 0) <= width and y <= height
    # Stocks, rolls and paused cubes stay visible in the captions/drawing.
    text = " ".join(c.text or "" for c in caps)
    for line in render.caption(s):
        assert line in text


def test_rgb_array_shows_the_highlight() -> None:
    pytest.importorskip("PIL")
    s = dc.State("chess")
    before = render.rgb_array(s, square=20)
    s.apply_san("e4")
    after = render.rgb_array(s, square=20)
    assert before.shape == after.shape
    m = render.margin(20)
    # e2 (row 6, file 4) is now empty and highlighted: its corner pixel.
    assert tuple(after[6 * 20 + 1, m + 4 * 20 + 1]) == render._LAST
    assert tuple(before[6 * 20 + 1, m + 4 * 20 + 1]) != render._LAST


@pytest.mark.parametrize("variant", dc.variants())
def test_caption_names_the_side_whose_dice_roll(variant: str) -> None:
    """The status line of a chance node and the variant's own roll line name the same side:
    Fluky rolls the die of the side that just moved (once captioned "white to roll" beside
    "black rolls the die on a3"); Vegas and Dice Chess roll for the side to move."""
    import random
    import re

    rng = random.Random(0)
    checked = 0
    for _ in range(5):
        s = dc.State(variant, max_plies=60)
        while not s.is_terminal():
            if s.is_chance_node():
                lines = render.caption(s)
                status = re.fullmatch(r"chance node: (white|black) to roll", lines[0])
                assert status, lines
                for line in lines[1:]:
                    own = re.search(
                        r"(white|black) rolls the die|dice: (white|black) to roll", line
                    )
                    if own:
                        assert (own[1] or own[2]) == status[1], lines
                        checked += 1
                outs = s.chance_outcomes()
                s.apply_action(rng.choices([a for a, _ in outs], [p for _, p in outs])[0])
            else:
                s.apply_action(rng.choice(s.legal_actions()))
    if variant in ("fluky", "metamorph", "vegas", "dice_chess", "dice_chess3"):
        assert checked > 0
