"""Replaying recorded games: text boards step by step, SVG files, and a
Jupyter viewer (an ipywidgets slider when ipywidgets is installed, else a
plain HTML list of the boards as SVG).

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
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from . import render
from .records import Record

__all__ = ["html_list", "move_texts", "svg_files", "text_steps", "viewer"]


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


def viewer(rec: Record, size: int = 360) -> Any:
    """A Jupyter replay: a slider over the game's steps with the board (needs
    ipywidgets), else :func:`html_list`."""
    try:
        import ipywidgets as widgets  # type: ignore[import-not-found,unused-ignore]
    except ImportError:
        return html_list(rec, size=min(size, 240))
    states = list(rec.states())
    names = ["start", *move_texts(rec)]
    out = widgets.HTML()
    slider = widgets.IntSlider(min=0, max=len(states) - 1, value=0, description="step")

    def show(change: Any = None) -> None:
        i = slider.value
        out.value = f"<div>{i}: {html.escape(names[i])}</div>{render.svg(states[i], size=size)}"

    slider.observe(show, names="value")
    show()
    return widgets.VBox([slider, out])
