"""Replaying recorded games: text boards step by step, SVG files, and a
viewer for Jupyter: every board as SVG in one HTML page with a slider, which
needs no kernel, so that it also works in a saved notebook, in nbconvert's
HTML and on the docs site.

>>> import dicechess as dc
>>> from dicechess import records
>>> s = dc.State("chess"); s.apply_san("e4")
>>> steps = list(text_steps(records.record(s)))
>>> len(steps), steps[1].splitlines()[0]
(2, 'after action 1: e4')
"""

from __future__ import annotations

import html
import os
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from . import render
from .records import Record

__all__ = ["Replay", "html_list", "move_texts", "svg_files", "text_steps", "viewer"]


def move_texts(rec: Record) -> list[str]:
    """The text of each action: SAN (``pass``) or the roll's name."""
    out = []
    s = rec.start()
    for a in rec.actions:
        out.append(("roll " if s.is_chance_node() else "") + s.action_to_string(a))
        s.apply_action(a)
    return out


def text_steps(rec: Record) -> Iterator[str]:
    """The start, then each action's text over the board (``str(state)``)."""
    names = move_texts(rec)
    for i, s in enumerate(rec.states()):
        head = "start" if i == 0 else f"after action {i}: {names[i - 1]}"
        yield f"{head}\n{s}"


def svg_files(rec: Record, directory: str | os.PathLike[str], size: int = 360) -> list[Path]:
    """Writes ``step_000.svg`` (the start), ``step_001.svg``, ... into
    ``directory`` (created) and returns the paths."""
    d = Path(directory)
    d.mkdir(parents=True, exist_ok=True)
    paths = []
    for i, s in enumerate(rec.states()):
        p = d / f"step_{i:03d}.svg"
        p.write_text(render.svg(s, size=size), encoding="utf-8")
        paths.append(p)
    return paths


class _Html:
    def __init__(self, text: str) -> None:
        self.text = text

    def _repr_html_(self) -> str:
        return self.text


def html_list(rec: Record, size: int = 240) -> Any:
    """Every board of the game as inline SVG with the move that led to it
    (an object Jupyter shows as HTML)."""
    names = ["start", *move_texts(rec)]
    parts = [
        f'<div style="display:inline-block;margin:4px;text-align:center">'
        f"<div>{i}: {html.escape(n)}</div>{render.svg(s, size=size)}</div>"
        for i, (n, s) in enumerate(zip(names, rec.states()))
    ]
    return _Html("".join(parts))


class Replay:
    """A game's boards behind a slider, shown by Jupyter as HTML
    (``_repr_html_``): every step's SVG is in the page and a few lines of
    JavaScript show the one the slider picks, so the viewer works in a saved
    notebook and in exported HTML, with no kernel and no widget library.
    Without JavaScript the start position shows. ``str()`` names the game."""

    def __init__(self, rec: Record, size: int = 360) -> None:
        self.names = ["start", *move_texts(rec)]
        self.svgs = [render.svg(s, size=size) for s in rec.states()]
        self.variant = rec.variant

    def __len__(self) -> int:
        return len(self.svgs)

    def __repr__(self) -> str:
        return f"Replay({self.variant!r}, {len(self) - 1} actions)"

    def _repr_html_(self) -> str:
        uid = f"dcreplay{uuid.uuid4().hex[:12]}"
        hidden = ' style="display:none"'
        frames = "".join(
            f'<div class="{uid}-step" data-step="{i}"{hidden if i else ""}>'
            f"<div>{i}: {html.escape(n)}</div>{s}</div>"
            for i, (n, s) in enumerate(zip(self.names, self.svgs))
        )
        show = (
            f"var s=this.value;document.querySelectorAll('.{uid}-step').forEach("
            "function(e){e.style.display=e.dataset.step==s?'':'none';});"
        )
        return (
            f'<div class="dicechess-replay" id="{uid}">'
            f'<label>step <input type="range" min="0" max="{len(self) - 1}" value="0" '
            f'oninput="{html.escape(show)}"></label>{frames}</div>'
        )


def viewer(rec: Record, size: int = 360) -> Replay:
    """A Jupyter replay of ``rec``: a slider over the game's steps with the
    board as SVG (:class:`Replay`; plain HTML and a little JavaScript)."""
    return Replay(rec, size=size)
