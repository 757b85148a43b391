"""MkDocs hooks (mkdocs.yml `hooks:`): the site's home page is README.md.

README.md lives at the repository root and links to docs pages as
``docs/x.md`` and to other repository files (licenses, notebooks) by relative
paths. On the site those become ``x.md`` and links into the repository
(REPO_URL), so `mkdocs build --strict` finds every link. Links in the docs
pages that leave docs/ (``../src/...``) are pointed at the repository too.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
# Placeholder until the public repository exists (also in pyproject.toml).
REPO_URL = "https://github.com/dicechess/dicechess/blob/main/"
LINK = re.compile(r"(\]\()([^)\s#]+)([^)]*\))")


def _readme_link(target: str) -> str:
    if re.match(r"[a-z]+:", target):
        return target
    if target.startswith("docs/"):
        return target.removeprefix("docs/")
    return REPO_URL + target


def _docs_link(target: str, page_dir: Path) -> str:
    if re.match(r"[a-z]+:", target):
        return target
    resolved = (ROOT / "docs" / page_dir / target).resolve()
    docs = (ROOT / "docs").resolve()
    if resolved.is_relative_to(docs):
        return target
    return REPO_URL + resolved.relative_to(ROOT).as_posix()


def on_page_markdown(markdown: str, page: Any, **_kwargs: Any) -> str:
    if page.file.src_uri == "index.md":
        readme = (ROOT / "README.md").read_text(encoding="utf-8")
        return LINK.sub(lambda m: m[1] + _readme_link(m[2]) + m[3], readme)
    page_dir = Path(page.file.src_uri).parent
    return LINK.sub(lambda m: m[1] + _docs_link(m[2], page_dir) + m[3], markdown)
