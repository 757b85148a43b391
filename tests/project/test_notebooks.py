"""The notebooks are committed with their outputs, current, valid, sizes up front, listed in
the README.

Executing them and comparing with what is stored is `make notebooks` (scripts/notebooks.py);
these checks are the cheap part: the stored outputs were made from the code cells as they are
now (the stamp), top to bottom without an error, and carry no widget state.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

nbformat = pytest.importorskip("nbformat")

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOKS = sorted((ROOT / "notebooks").glob("*.ipynb"))
_spec = importlib.util.spec_from_file_location("run_notebooks", ROOT / "scripts" / "notebooks.py")
assert _spec is not None and _spec.loader is not None
run_notebooks = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(run_notebooks)
#: A notebook's file on disk at most (PNG plots and SVG boards are fine; widget state is not).
MAX_BYTES = 1_500_000


def test_notebooks_exist() -> None:
    assert [p.name for p in NOTEBOOKS] == [
        "01_quick_start.ipynb",
        "02_win_rates.ipynb",
        "03_luck_vs_skill.ipynb",
        "04_rl_masked_policy.ipynb",
        "05_records_replay.ipynb",
        "06_maskable_ppo.ipynb",
        "07_search_engine.ipynb",
        "08_zero.ipynb",
    ]


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_notebook_is_stored_with_current_outputs(path: Path) -> None:
    nb = nbformat.read(path, as_version=4)
    nbformat.validate(nb)
    # The runner starts the kernel named here; "python3" resolves to the running venv's ipykernel.
    assert nb.metadata["kernelspec"]["name"] == "python3"
    code = [c for c in nb.cells if c.cell_type == "code"]
    assert code, "a notebook without code"
    # Made by `make notebooks-update` from these very code cells, top to bottom, no error.
    assert nb.metadata.get(run_notebooks.STAMP) == run_notebooks.sources_hash(nb), (
        f"{path.name}: a code cell changed since the outputs were made: make notebooks-update"
    )
    assert [c.execution_count for c in code] == list(range(1, len(code) + 1))
    for cell in code:
        assert not [o for o in cell.outputs if o.output_type == "error"], cell.source
    assert sum(len(c.outputs) for c in code) >= len(code) // 2, "most cells show something"
    assert "widgets" not in nb.metadata
    assert path.stat().st_size <= MAX_BYTES
    # The reader scales a notebook up from its first code cell.
    assert "QUICK" in code[0].source
    assert nb.cells[0].cell_type == "markdown" and nb.cells[0].source.startswith("# ")


def _kinds(path: str) -> set[str]:
    nb = nbformat.read(ROOT / "notebooks" / path, as_version=4)
    return {k for c in nb.cells if c.cell_type == "code" for k in run_notebooks.output_kinds(c)}


def test_notebooks_show_boards_and_plots() -> None:
    # What a reader browsing the repository or the docs site came to see.
    assert "execute_result:image/svg+xml,text/plain" in _kinds("01_quick_start.ipynb")
    for plots in ("02_win_rates.ipynb", "03_luck_vs_skill.ipynb", "06_maskable_ppo.ipynb"):
        assert "display_data:image/png,text/plain" in _kinds(plots), plots
    assert "execute_result:text/html,text/plain" in _kinds("05_records_replay.ipynb")


def _nb(*cells: tuple[str, list[dict[str, object]]]) -> object:
    nb = nbformat.v4.new_notebook()
    for n, (src, outs) in enumerate(cells, start=1):
        cell = nbformat.v4.new_code_cell(src, execution_count=n)
        cell.outputs = [nbformat.from_dict(o) for o in outs]
        nb.cells.append(cell)
    nb.metadata[run_notebooks.STAMP] = run_notebooks.sources_hash(nb)
    return nb


def _out(kind: str, **kw: object) -> dict[str, object]:
    if kind == "stream":
        return {"output_type": "stream", "name": kw.get("name", "stdout"), "text": kw["text"]}
    return {
        "output_type": kind,
        "data": kw["data"],
        "metadata": {},
        **({"execution_count": 1} if kind == "execute_result" else {}),
    }


def test_runner_compares_output_kinds_not_values() -> None:
    png = {"image/png": "iVBOR", "text/plain": "<Figure>"}
    stored = _nb(
        ("print(1)", [_out("stream", text="took 1.2 s\n")]),
        ("plot()", [_out("display_data", data=png)]),
    )
    # Other numbers, timings, a progress bar on stderr, a stream split in two: still current.
    fresh = _nb(
        (
            "print(1)",
            [
                _out("stream", text="took 9"),
                _out("stream", text=".7 s\n"),
                _out("stream", name="stderr", text="100%|###|"),
            ],
        ),
        ("plot()", [_out("display_data", data={**png, "image/png": "other"})]),
    )
    assert run_notebooks.compare(stored, fresh) == []
    # A plot that no longer shows, or an error, is a difference.
    gone = _nb(("print(1)", [_out("stream", text="x\n")]), ("plot()", []))
    assert "code cell 2" in run_notebooks.compare(stored, gone)[0]
    # An edited code cell without a re-run: the stamp no longer matches.
    stored.cells[0].source = "print(2)"
    problems = run_notebooks.compare(stored, fresh)
    assert "code cells differ" in problems and any("stamp" in p for p in problems)


def test_readme_lists_notebooks() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme.split("## Notebooks", 1)[1].split("\n## ", 1)[0]
    for path in NOTEBOOKS:
        assert f"notebooks/{path.name}" in section
