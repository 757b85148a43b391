"""The notebooks are committed clean: valid, outputs cleared, sizes up front, listed in the README.

Executing them is `make notebooks` (pytest --nbmake); these checks are the cheap part.
"""

from __future__ import annotations

from pathlib import Path

import pytest

nbformat = pytest.importorskip("nbformat")

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOKS = sorted((ROOT / "notebooks").glob("*.ipynb"))


def test_notebooks_exist() -> None:
    assert [p.name for p in NOTEBOOKS] == [
        "01_quick_start.ipynb",
        "02_win_rates.ipynb",
        "03_luck_vs_skill.ipynb",
        "04_rl_masked_policy.ipynb",
        "05_records_replay.ipynb",
        "06_maskable_ppo.ipynb",
        "07_search_engine.ipynb",
    ]


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_notebook_is_clean(path: Path) -> None:
    nb = nbformat.read(path, as_version=4)
    nbformat.validate(nb)
    # nbmake runs the kernel named here; "python3" resolves to the running venv's ipykernel.
    assert nb.metadata["kernelspec"]["name"] == "python3"
    code = [c for c in nb.cells if c.cell_type == "code"]
    assert code, "a notebook without code"
    for cell in code:
        assert cell.outputs == [] and cell.execution_count is None, (
            f"{path.name}: outputs must be cleared before committing"
        )
    # The reader scales a notebook up from its first code cell.
    assert "QUICK" in code[0].source
    assert nb.cells[0].cell_type == "markdown" and nb.cells[0].source.startswith("# ")


def test_readme_lists_notebooks() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme.split("## Notebooks", 1)[1].split("\n## ", 1)[0]
    for path in NOTEBOOKS:
        assert f"notebooks/{path.name}" in section
