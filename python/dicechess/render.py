"""Drawing states: text (ANSI), SVG (Jupyter), and PNG and RGB arrays rasterised from the SVG.

Only what the public API shows is drawn: the board from ``state.fen()``, and the
status lines of ``str(state)`` (player to move, dice, stocks, pending rolls, …).
Rolls (``state.dice``: Vegas, Dice Chess) are also drawn as dice faces; in
three-dice DiceChess the dice used up this turn are greyed out.

>>> import dicechess as dc
>>> s = dc.State("chess")
>>> svg(s).startswith("<svg")
True
>>> rgb_array(s).shape[2]
3
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any
from xml.sax.saxutils import escape

if TYPE_CHECKING:  # pragma: no cover
    import numpy as np
    import numpy.typing as npt

    from ._core import State

__all__ = [
    "ansi",
    "board",
    "caption",
    "check_square",
    "last_move_squares",
    "margin",
    "dice_faces",
    "dice_used",
    "paused_squares",
    "plain_text",
    "png",
    "rgb_array",
    "svg",
]

_GLYPHS = {
    "K": "\u2654",
    "Q": "\u2655",
    "R": "\u2656",
    "B": "\u2657",
    "N": "\u2658",
    "P": "\u2659",
    "k": "\u265a",
    "q": "\u265b",
    "r": "\u265c",
    "b": "\u265d",
    "n": "\u265e",
    "p": "\u265f",
}
_LIGHT = (240, 217, 181)
_DARK = (181, 136, 99)
_LIGHT_HEX = "#f0d9b5"
_DARK_HEX = "#b58863"


def board(state: State) -> list[list[str | None]]:
    """The board as rows from the top rank down: piece letters (``"K"`` white
    king, ``"p"`` black pawn) or None, read from the first field of the FEN."""
    placement = state.fen().split()[0].split("[")[0]
    rows: list[list[str | None]] = []
    for rank in placement.split("/"):
        row: list[str | None] = []
        digits = ""
        for ch in rank:
            if ch.isdigit():
                digits += ch
                continue
            if digits:
                row.extend([None] * int(digits))
                digits = ""
            if ch.isalpha():
                row.append(ch)
            # other characters (variant markers such as "~") are not pieces
        if digits:
            row.extend([None] * int(digits))
        rows.append(row)
    return rows


def caption(state: State) -> list[str]:
    """The status lines of ``str(state)`` (turn or result, dice, stocks, ...),
    from ``state.status_lines()``."""
    return list(state.status_lines())


#: Characters Pillow's default font lacks, and what is drawn instead.
_PLAIN = {"\u2014": "-", "\u2013": "-", "\u2018": "'", "\u2019": "'", "\u201c": '"', "\u201d": '"'}


def plain_text(line: str) -> str:
    """``line`` in ASCII, which every default font draws (no missing-glyph boxes)."""
    line = "".join(_PLAIN.get(c, c) for c in line)
    return line.encode("ascii", "replace").decode("ascii")


def dice_faces(state: State) -> list[str]:
    """The dice shown to the player deciding: the roll of Vegas or Dice Chess
    as faces (piece letters, ``"*"`` for the wild face); empty when no roll
    is shown."""
    d = getattr(state, "dice", None)
    return list(d) if d else []


def paused_squares(state: State) -> list[tuple[int, int]]:
    """Cubic Checkers: the paused cubes (``state.paused``) as ``(row, file)``
    indices of :func:`board` (row 0 is the top rank); empty for other variants."""
    squares = getattr(state, "paused", None) or []
    nr = len(board(state)) if squares else 0
    return [(nr - int(sq[1:]), ord(sq[0]) - ord("a")) for sq in squares]


def dice_used(state: State) -> list[bool]:
    """For each face of ``dice_faces``: whether that die is used up this turn
    (three-dice DiceChess moves one die at a time; elsewhere none is)."""
    faces = dice_faces(state)
    left = list(getattr(state, "dice_left", None) or "") if faces else []
    used = []
    for f in faces:
        if f in left:
            left.remove(f)
            used.append(False)
        else:
            used.append(getattr(state, "dice_left", None) is not None)
    return used


def _before_last_decision(state: State) -> State | None:
    """The state before the last decision of the game (replayed from its
    history), or None when no decision was made yet."""
    from ._core import State as _State

    s = _State(state.variant, **state.options)
    before = None
    for a in state.history():
        if not s.is_chance_node():
            before = s.copy()
        s.apply_action(a)
    return before


def last_move_squares(state: State) -> list[tuple[int, int]]:
    """The squares the last decision changed, as ``(row, file)`` indices of
    :func:`board` (a move's from and to squares, a drop's square, both
    squares of castling); empty before the first decision and for a pass."""
    before = _before_last_decision(state)
    if before is None:
        return []
    after = before.copy()
    hist = state.history()
    after.apply_action(hist[len(before.history())])
    a, b = board(before), board(after)
    return [
        (r, f)
        for r in range(len(a))
        for f in range(max(len(a[r]), len(b[r])))
        if (a[r][f] if f < len(a[r]) else None) != (b[r][f] if f < len(b[r]) else None)
    ]


def check_square(state: State) -> tuple[int, int] | None:
    """The king the last decision gave check to (its SAN ends in ``+`` or
    ``#``), as ``(row, file)`` of :func:`board`; None otherwise."""
    before = _before_last_decision(state)
    if before is None:
        return None
    a = state.history()[len(before.history())]
    if not before.action_to_string(a).endswith(("+", "#")):
        return None
    rows = board(state)
    changed = last_move_squares(state)
    movers = [p for r, f in changed if (p := rows[r][f])]
    if not movers:
        return None
    king = "k" if movers[0].isupper() else "K"
    for r, row in enumerate(rows):
        for f, p in enumerate(row):
            if p == king:
                return (r, f)
    return None


def ansi(state: State) -> str:
    """``str(state)``: the board diagram and the status lines."""
    return str(state)


#: Highlight colours: the last move's squares and the king in check.
_LAST_HEX, _LAST = "#cdd26a", (205, 210, 106)
_CHECK_HEX, _CHECK = "#e05050", (224, 80, 80)


def margin(square: float) -> int:
    """Width of the coordinate margins (ranks left, files below the board)."""
    return max(10, round(square * 0.4))


def _caption_size(lines: list[str], width: float, largest: float) -> float:
    """A monospace font size at which every line fits in ``width``
    (characters are about 0.6 em wide)."""
    longest = max((len(ln) for ln in lines), default=1)
    return max(4.0, min(largest, (width - 8) / (0.6 * max(longest, 1))))


def svg(state: State, size: int = 360) -> str:
    """An SVG drawing of the state: board with file and rank coordinates,
    the last move's squares and a checked king highlighted, pieces (Cubic
    Checkers: each cube by its face, paused cubes framed in red), dice faces
    (used dice greyed) and the status lines (stocks, pending rolls, ...),
    in a font size that fits the width."""
    rows = board(state)
    nr = len(rows)
    nf = max((len(r) for r in rows), default=8)
    sq = size / max(nr, nf)
    m = margin(sq)
    lines = caption(state)
    faces = dice_faces(state)
    width = nf * sq + m
    cap = _caption_size(lines, width, 12)
    line_h = cap * 1.35
    dice_h = sq * 0.8 + 8 if faces else 0
    height = nr * sq + m + dice_h + line_h * len(lines) + 8
    last = set(last_move_squares(state))
    check = check_square(state)
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0f}" height="{height:.0f}" '
        f'viewBox="0 0 {width:.1f} {height:.1f}">',
        f'<rect width="{width:.1f}" height="{height:.1f}" fill="white"/>',
    ]
    for r, row in enumerate(rows):
        for f in range(nf):
            color = _DARK_HEX if (nr - 1 - r + f) % 2 == 0 else _LIGHT_HEX  # a1 dark
            cls = "square"
            if (r, f) in last:
                color, cls = _LAST_HEX, "square last-move"
            if (r, f) == check:
                color, cls = _CHECK_HEX, "square check"
            x, y = m + f * sq, r * sq
            out.append(
                f'<rect x="{x:.1f}" y="{y:.1f}" width="{sq:.1f}" height="{sq:.1f}" '
                f'fill="{color}" class="{cls}"/>'
            )
            piece = row[f] if f < len(row) else None
            if piece:
                glyph = _GLYPHS.get(piece, escape(piece))
                out.append(
                    f'<text x="{x + sq / 2:.1f}" y="{y + sq * 0.78:.1f}" '
                    f'font-size="{sq * 0.8:.1f}" text-anchor="middle" class="piece" '
                    f'data-piece="{escape(piece)}">{glyph}</text>'
                )
    coord = m * 0.7
    for r in range(nr):
        out.append(
            f'<text x="{m / 2:.1f}" y="{r * sq + sq / 2 + coord / 3:.1f}" font-size="{coord:.1f}" '
            f'text-anchor="middle" class="coord rank">{nr - r}</text>'
        )
    for f in range(nf):
        out.append(
            f'<text x="{m + f * sq + sq / 2:.1f}" y="{nr * sq + m * 0.75:.1f}" '
            f'font-size="{coord:.1f}" text-anchor="middle" class="coord file">'
            f"{chr(ord('a') + f)}</text>"
        )
    for r, f in paused_squares(state):
        out.append(
            f'<rect x="{m + f * sq + 2:.1f}" y="{r * sq + 2:.1f}" width="{sq - 4:.1f}" '
            f'height="{sq - 4:.1f}" fill="none" stroke="#c00000" stroke-width="3" '
            f'stroke-dasharray="6 3" class="paused"/>'
        )
    y0 = nr * sq + m + 4
    used = dice_used(state)
    for i, face in enumerate(faces):
        x = 4 + i * (sq * 0.8 + 8)
        d = sq * 0.8
        glyph = _GLYPHS.get(face.upper(), escape(face))
        fill, cls = ("#bbbbbb", "die used") if used[i] else ("white", "die")
        out.append(
            f'<rect x="{x:.1f}" y="{y0:.1f}" width="{d:.1f}" height="{d:.1f}" rx="{d / 8:.1f}" '
            f'fill="{fill}" stroke="black" stroke-width="2" class="{cls}"/>'
        )
        out.append(
            f'<text x="{x + d / 2:.1f}" y="{y0 + d * 0.78:.1f}" font-size="{d * 0.75:.1f}" '
            f'text-anchor="middle">{glyph}</text>'
        )
    y = nr * sq + m + dice_h + line_h
    for ln in lines:
        out.append(
            f'<text x="4" y="{y:.1f}" font-size="{cap:.1f}" font-family="monospace" '
            f'class="caption" textLength="{0.6 * cap * len(ln):.1f}">{escape(ln)}</text>'
        )
        y += line_h
    out.append("</svg>")
    return "\n".join(out)


#: The fonts the SVG is rasterised with (subsets of DejaVu Sans and Sans Mono, shipped in
#: the package so that boards look the same on every machine; scripts/subset_fonts.py).
_FONTS = ("DejaVuSans.ttf", "DejaVuSansMono.ttf")


def png(state: State, square: int = 48) -> bytes:
    """:func:`svg` rasterised to PNG bytes by resvg (``resvg-py``) with the
    fonts shipped in ``dicechess/fonts`` (no system library or font needed).
    Needs ``pip install 'dicechess[render]'``."""
    try:
        import resvg_py
    except ImportError as e:  # pragma: no cover - depends on the environment
        raise ImportError(
            "rasterising boards (render_mode='rgb_array', render.png) needs resvg-py: "
            "pip install 'dicechess[render]'"
        ) from e
    from importlib.resources import files

    rows = board(state)
    size = square * max(len(rows), max((len(r) for r in rows), default=8))
    fonts = files(__package__) / "fonts"
    return bytes(
        resvg_py.svg_to_bytes(
            svg_string=svg(state, size=size),
            skip_system_fonts=True,
            font_files=[str(fonts / f) for f in _FONTS],
            font_family="DejaVu Sans",
            sans_serif_family="DejaVu Sans",
            serif_family="DejaVu Sans",
            monospace_family="DejaVu Sans Mono",
        )
    )


def rgb_array(state: State, square: int = 48) -> npt.NDArray[np.uint8]:
    """An RGB image ``(height, width, 3)`` uint8: :func:`svg` drawn with
    ``square`` pixels a square, rasterised by resvg (:func:`png`), so that it
    looks exactly like the SVG boards. Needs ``pip install 'dicechess[render]'``
    (resvg-py and Pillow, both wheels with no system library)."""
    import io

    import numpy as np

    try:
        from PIL import Image
    except ImportError as e:  # pragma: no cover - depends on the environment
        raise ImportError(
            "render_mode='rgb_array' needs Pillow: pip install 'dicechess[render]'"
        ) from e
    with Image.open(io.BytesIO(png(state, square))) as img:
        return np.asarray(img.convert("RGB"), dtype=np.uint8)


def render(state: State, mode: str | None) -> Any:
    """An env's ``render()`` for ``render_mode``: ``"ansi"`` the text diagram,
    ``"rgb_array"`` an image array, None nothing."""
    if mode == "ansi":
        return ansi(state)
    if mode == "rgb_array":
        return rgb_array(state)
    return None
