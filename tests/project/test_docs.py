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

ROOT = Path(__file__).resolve().parents[2]


def _python_blocks(path: Path) -> list[str]:
    return re.findall(r"```python\n(.*?)```", path.read_text(encoding="utf-8"), flags=re.S)


def test_readme_has_examples() -> None:
    assert _python_blocks(ROOT / "README.md")


@pytest.mark.parametrize("index", range(len(_python_blocks(ROOT / "README.md"))))
def test_readme_example_runs(index: int) -> None:
    code = _python_blocks(ROOT / "README.md")[index]
    exec(compile(code, f"README.md[python block {index}]", "exec"), {})


@pytest.mark.parametrize("name", ["search.md", "guide.md"])
def test_docs_examples_run(name: str) -> None:
    blocks = _python_blocks(ROOT / "docs" / name)
    assert blocks
    for n, code in enumerate(blocks):
        exec(compile(code, f"docs/{name}[python block {n}]", "exec"), {})


def test_study_docs_example_runs() -> None:
    blocks = _python_blocks(ROOT / "docs" / "study.md")
    assert blocks
    for n, code in enumerate(blocks):
        exec(compile(code, f"docs/study.md[python block {n}]", "exec"), {})


@pytest.mark.parametrize(
    "module",
    [
        dicechess,
        dicechess.sim,
        dicechess.luck,
        sys.modules["dicechess.arena"],  # the module, not dc.arena the function
        dicechess.study,
        sys.modules["dicechess.paired"],
        sys.modules["dicechess.runner.options"],
        sys.modules["dicechess.registry"],
    ],
)
def test_doctests(module: object) -> None:
    failures, tried = doctest.testmod(module, verbose=False)  # type: ignore[arg-type]
    assert tried > 0
    assert failures == 0


def _rule_sections() -> set[str]:
    text = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
    return set(re.findall(r"^## (\d+)\.", text, flags=re.M))


def test_every_rule_book_citation_resolves() -> None:
    # The code cites the rule book as "docs/rules.md §N" (or "§N-M", "§N, M"); every
    # section it names must exist in the copy kept in the repository.
    sections = _rule_sections()
    assert {"0", "1", "9", "10"} <= sections
    cited: dict[str, set[str]] = {}
    for path in [
        *ROOT.glob("src/**/*.rs"),
        *ROOT.glob("python/**/*.py"),
        *ROOT.glob("tests/**/*.*"),
    ]:
        if path.suffix not in (".rs", ".py"):
            continue
        text = path.read_text(encoding="utf-8")
        # An old citation of the rule book outside the repository.
        assert "RULES" + ".md" not in text, path
        for m in re.finditer(r"docs/rules\.md (?:§|sections? )([\d§,\-– ]+)", text):
            for n in re.findall(r"\d+", m.group(1)):
                cited.setdefault(n, set()).add(path.name)
    assert cited, "no citations found"
    missing = {n: sorted(f) for n, f in cited.items() if n not in sections}
    assert not missing, f"cited sections missing from docs/rules.md: {missing}"


def test_no_merge_conflict_markers() -> None:
    """A merge left `<<<<<<< HEAD` in docs/search.md once; tracked text files must have none."""
    import subprocess

    files = subprocess.run(
        ["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout.split()
    marker = re.compile(r"^(<{7} |={7}$|>{7} )", flags=re.M)
    bad = []
    for name in files:
        if not name.endswith((".md", ".rs", ".py", ".pyi", ".toml", ".txt", ".yml", ".cfg")):
            continue
        path = ROOT / name
        if path.is_file() and marker.search(path.read_text(encoding="utf-8", errors="replace")):
            bad.append(name)
    assert bad == []


def _anchor(heading: str) -> str:
    """GitHub's anchor of a Markdown heading."""
    text = re.sub(r"[^\w\- ]", "", heading.strip().lower())
    return text.replace(" ", "-")


def test_relative_links_and_anchors_resolve() -> None:
    # docs/search.md was split in two (2026-12-06); links into either half,
    # and every other relative link of the docs, must land on a file and,
    # with `#anchor`, on one of its headings.
    pages = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
    broken = []
    for page in pages:
        text = page.read_text(encoding="utf-8")
        for target in re.findall(r"\]\(([^)\s]+)\)", text):
            if re.match(r"[a-z]+:", target):
                continue  # http:, https:, mailto:
            path, _, anchor = target.partition("#")
            dest = (page.parent / path).resolve() if path else page
            if not dest.exists():
                broken.append(f"{page.name}: {target} (no such file)")
                continue
            if anchor and dest.suffix == ".md":
                headings = re.findall(r"^#+ (.*)$", dest.read_text(encoding="utf-8"), flags=re.M)
                if anchor not in {_anchor(h) for h in headings}:
                    broken.append(f"{page.name}: {target} (no such heading)")
    assert broken == []


def test_api_pages_turn_rest_literal_blocks_into_code() -> None:
    """The API pages showed a stray ``::`` and the example as running text
    (scripts/griffe_doctest_blocks.py turns them into fenced code)."""
    import importlib.util

    spec = importlib.util.spec_from_file_location(
        "griffe_blocks", ROOT / "scripts" / "griffe_doctest_blocks.py"
    )
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    text = "Usage::\n\n    import x\n    x.run()\n\n        nested\n\nAfter."
    assert mod.fence_literal_blocks(text) == (
        "Usage:\n\n```python\nimport x\nx.run()\n\n    nested\n```\n\nAfter."
    )
    # A lone "::" line goes; a "::" with no indented block after it is left alone.
    assert mod.fence_literal_blocks("::\n\n  a = 1") == "```python\na = 1\n```"
    assert mod.fence_literal_blocks("ratio 1::2\nnext") == "ratio 1::2\nnext"
    # Every module docstring of the package comes out with no "::" left at a line's end.
    import ast

    for path in (ROOT / "python" / "dicechess").rglob("*.py"):
        doc = ast.get_docstring(ast.parse(path.read_text(encoding="utf-8"))) or ""
        out = mod.fence_literal_blocks(doc)
        assert not [ln for ln in out.splitlines() if ln.rstrip().endswith("::")], path
