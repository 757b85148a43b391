"""README examples and module doctests run as tests."""

from __future__ import annotations

import doctest
import re
import sys
from pathlib import Path

import pytest

import dicechess
import dicechess.luck
import dicechess.sim
import dicechess.study

ROOT = Path(__file__).resolve().parent.parent


def _python_blocks(path: Path) -> list[str]:
    return re.findall(r"```python\n(.*?)```", path.read_text(encoding="utf-8"), flags=re.S)


def test_readme_has_examples() -> None:
    assert _python_blocks(ROOT / "README.md")


@pytest.mark.parametrize("index", range(len(_python_blocks(ROOT / "README.md"))))
def test_readme_example_runs(index: int) -> None:
    code = _python_blocks(ROOT / "README.md")[index]
    exec(compile(code, f"README.md[python block {index}]", "exec"), {})


@pytest.mark.parametrize(
    "module",
    [
        dicechess,
        dicechess.sim,
        dicechess.luck,
        sys.modules["dicechess.arena"],  # the module, not dc.arena the function
        dicechess.study,
    ],
)
def test_doctests(module: object) -> None:
    failures, tried = doctest.testmod(module, verbose=False)  # type: ignore[arg-type]
    assert tried > 0
    assert failures == 0
