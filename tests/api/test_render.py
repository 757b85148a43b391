"""Rendering: ANSI text, SVG (Jupyter `_repr_svg_`) and RGB arrays."""

import xml.etree.ElementTree as ET

import numpy as np
import pytest

import dicechess as dc
from dicechess import render

START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"


def test_board_parsing():
    rows = render.board(dc.State("chess"))
    assert len(rows) == 8 and all(len(r) == 8 for r in rows)
    assert "".join(p for p in rows[0] if p) == "rnbqkbnr"
    assert rows[4] == [None] * 8
    # Cubic stocks in brackets are not board pieces
    s = dc.State("cubic", fen="4k3/p7/8/8/8/8/P6P/4K3[NQn] w - - 5 10")
    pieces = sorted(p for r in render.board(s) for p in r if p)
    assert pieces == sorted("kpPPK")


@pytest.mark.parametrize("variant", dc.variants())
def test_svg_is_valid_and_shows_pieces(variant):
    s = dc.State(variant)
    svg = s._repr_svg_()
    assert svg == render.svg(s)
    root = ET.fromstring(svg)
    pieces = [e for e in root.iter() if e.get("class") == "piece"]
    n = sum(1 for r in render.board(s) for p in r if p)
    # The pieces of the setup, as the Rust board counts them.
    assert len(pieces) == n == dc.variant_info()[variant].pieces


def test_vegas_dice_drawn():
    s = dc.State("vegas")
    assert render.dice_faces(s) == []
    s.apply_action(s.chance_outcomes()[0][0])
    assert s.dice is not None
    faces = render.dice_faces(s)
    assert len(faces) == 2
    root = ET.fromstring(render.svg(s))
    assert len([e for e in root.iter() if e.get("class") == "die"]) == 2
    assert any("dice" in ln for ln in render.caption(s))


@pytest.mark.parametrize("variant", dc.variants())
def test_rgb_array(variant):
    s = dc.State(variant)
    rng = np.random.default_rng(0)
    for _ in range(50):
        if not s.is_chance_node():
            break
        outs = s.chance_outcomes()
        s.apply_action(outs[rng.integers(len(outs))][0])
    img = render.rgb_array(s, square=20)
    n = s.observation_tensor().shape[1]
    assert img.dtype == np.uint8 and img.ndim == 3 and img.shape[2] == 3
    m = render.margin(20)
    assert img.shape[1] == n * 20 + m and img.shape[0] > n * 20
    # a1 is dark (board colours visible in the corners, outside the pieces' discs)
    assert tuple(img[(n - 1) * 20 + 1, m + 1]) == render._DARK
    assert tuple(img[(n - 1) * 20 + 1, m + (n - 1) * 20 + 1]) == (
        render._DARK if n % 2 else render._LIGHT
    )
    # The same picture as the SVG: its size, to the pixel.
    root = ET.fromstring(render.svg(s, size=20 * n))
    assert img.shape[:2] == (int(root.get("height")), int(root.get("width")))


def _ink(img: np.ndarray) -> int:
    """Pixels darker than the dark squares: piece outlines, letters, black pieces."""
    return int((img.max(axis=2) < 90).sum())


def test_rgb_array_is_the_svg_rasterised_with_pieces_and_text():
    """The pieces are the SVG's glyphs (drawn with the fonts shipped in the package, on any
    machine), and so are the coordinates and the status lines."""
    s = dc.State("chess")
    img = render.rgb_array(s, square=40)
    m = render.margin(40)

    def square(r, f):
        return img[r * 40 : (r + 1) * 40, m + f * 40 : m + (f + 1) * 40]

    assert _ink(square(7, 4)) > 40  # e1: the white king's outline
    assert _ink(square(0, 4)) > 200  # e8: the black king, filled
    assert _ink(square(4, 4)) == 0  # e4: empty
    assert _ink(img[:320, :m]) > 20  # rank numbers in the margin
    assert _ink(img[320 + m :]) > 100  # the status lines under the board
    # Not a picture of the SVG that happens to be right: a move changes both squares.
    s.apply_san("e4")
    after = render.rgb_array(s, square=40)
    assert _ink(after[6 * 40 : 7 * 40, m + 4 * 40 : m + 5 * 40]) == 0  # e2 now empty
    assert _ink(after[4 * 40 : 5 * 40, m + 4 * 40 : m + 5 * 40]) > 20  # the pawn on e4


def test_png_is_a_png_of_the_svg():
    from PIL import Image

    s = dc.State("fluky")
    data = render.png(s, square=30)
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    import io

    with Image.open(io.BytesIO(data)) as img:
        root = ET.fromstring(render.svg(s, size=150))
        assert img.size == (int(root.get("width")), int(root.get("height")))


def test_ansi_is_str():
    s = dc.State("chess")
    assert render.ansi(s) == str(s)
    assert "fen:" in render.ansi(s)


def test_doctests():
    import doctest

    failures, tried = doctest.testmod(render)
    assert tried > 0 and failures == 0


def test_cubic_checkers_faces_and_paused_cubes_drawn():
    s = dc.State("cubic_checkers")
    assert render.paused_squares(s) == []
    s.apply_san("b2-c3")
    s.apply_san("a7-b6")
    assert render.paused_squares(s) == [(5, 2), (2, 1)]  # c3 (White), b6 (Black)
    assert s.paused == ["c3", "b6"] and s.fen().split()[3] == "c3,b6"  # the FEN's paused field
    assert dc.State("cubic_checkers").paused == [] and dc.State("chess").paused is None
    root = ET.fromstring(render.svg(s))
    frames = [e for e in root.iter() if e.get("class") == "paused"]
    assert len(frames) == 2
    faces = sorted(e.get("data-piece") for e in root.iter() if e.get("class") == "piece")
    assert faces == sorted("nrrnbbbbBBBBNRRN")
    text = render.ansi(s)
    assert "paused cubes: c3 (white), b6 (black)" in text
    assert render.rgb_array(s).shape[2] == 3
