"""Griffe extension for the docs site (mkdocs.yml): doctest paragraphs
(``>>>`` lines and their output) in docstrings become ``pycon`` code blocks,
so Markdown does not read ``[0.25, 0.36]`` in an output line as a link; reST
literal blocks (a paragraph ending in ``::`` and the indented lines after it)
become ``python`` code blocks, so the site shows neither a stray ``::`` nor
the code as running text."""

from __future__ import annotations

import textwrap
from typing import Any

import griffe


def fence_doctests(text: str) -> str:
    out: list[str] = []
    in_block = False
    for line in text.splitlines():
        if not in_block and line.lstrip().startswith(">>>"):
            indent = line[: len(line) - len(line.lstrip())]
            out.append(f"{indent}```pycon")
            in_block = True
        elif in_block and not line.strip():
            out.append(f"{indent}```")
            in_block = False
        out.append(line)
    if in_block:
        out.append(f"{indent}```")
    return "\n".join(out)


def fence_literal_blocks(text: str) -> str:
    """reST ``::`` literal blocks as fenced ``python`` blocks: ``text::`` becomes
    ``text:``, a lone ``::`` line goes, and the indented block after the blank
    line is fenced (it ends at the first line indented no deeper than the
    paragraph)."""
    lines = text.splitlines()
    out: list[str] = []
    i = 0
    while i < len(lines):
        line = lines[i]
        if not line.rstrip().endswith("::"):
            out.append(line)
            i += 1
            continue
        head = line.rstrip()[:-2].rstrip()
        base = len(line) - len(line.lstrip())
        j = i + 1
        while j < len(lines) and not lines[j].strip():
            j += 1
        k = j
        while k < len(lines) and (
            not lines[k].strip() or len(lines[k]) - len(lines[k].lstrip()) > base
        ):
            k += 1
        while k > j and not lines[k - 1].strip():
            k -= 1
        if k == j:  # no indented block: not a literal block
            out.append(line)
            i += 1
            continue
        if head:
            out.extend([head + ":" if not head.endswith(":") else head, ""])
        pad = " " * base
        out.append(f"{pad}```python")
        block = textwrap.dedent("\n".join(lines[j:k])).splitlines()
        out.extend(pad + b if b.strip() else "" for b in block)
        out.append(f"{pad}```")
        i = k
    return "\n".join(out)


class DoctestBlocks(griffe.Extension):
    def on_instance(self, *, obj: griffe.Object, **kwargs: Any) -> None:
        if obj.docstring is None:
            return
        if ">>>" in obj.docstring.value:
            obj.docstring.value = fence_doctests(obj.docstring.value)
        if "::" in obj.docstring.value:
            obj.docstring.value = fence_literal_blocks(obj.docstring.value)
