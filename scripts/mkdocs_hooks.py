"""MkDocs hooks (mkdocs.yml `hooks:`): the site's home page is README.md, and the
notebooks in notebooks/ are pages (rendered with their stored outputs by mkdocs-jupyter)
behind a gallery page, docs/notebooks.md.

README.md lives at the repository root and links to docs pages as
``docs/x.md`` and to other repository files (licenses, notebooks) by relative
paths. On the site those become ``x.md`` and links into the repository
(REPO_URL), so `mkdocs build --strict` finds every link. Links in the docs
pages that leave docs/ (``../src/...``) are pointed at the repository too.
"""

from __future__ import annotations

import base64
import html
import json
import re
from pathlib import Path
from typing import Any

from mkdocs.plugins import event_priority
from mkdocs.structure.files import File, Files

ROOT = Path(__file__).resolve().parents[1]
# Placeholder until the public repository exists (also in pyproject.toml).
REPO_URL = "https://github.com/dicechess/dicechess/blob/main/"
LINK = re.compile(r"(\]\()([^)\s#]+)([^)]*\))")


NOTEBOOKS = sorted((ROOT / "notebooks").glob("*.ipynb"))
#: Where docs/notebooks.md wants the gallery.
GALLERY_MARK = "<!-- gallery -->"


def _readme_link(target: str) -> str:
    if re.match(r"[a-z]+:", target):
        return target
    if target.startswith("docs/"):
        return target.removeprefix("docs/")
    if target.startswith("notebooks/") and target.endswith(".ipynb"):
        return target  # a page of the site (on_files)
    return REPO_URL + target


# Before mkdocs-jupyter's on_files (priority 0), which turns .ipynb files into pages.
@event_priority(50)
def on_files(files: Files, config: Any, **_kwargs: Any) -> Files:
    """Adds notebooks/*.ipynb (outside docs/) to the site as notebooks/<name>/."""
    for path in NOTEBOOKS:
        files.append(
            File(
                path.relative_to(ROOT).as_posix(),
                src_dir=str(ROOT),
                dest_dir=config["site_dir"],
                use_directory_urls=config["use_directory_urls"],
            )
        )
    return files


def _thumbnail(nb: dict[str, Any]) -> str:
    """The notebook's first picture as an <img> (PNG or SVG as a data URI), or ""."""
    for cell in nb["cells"]:
        for out in cell.get("outputs", []):
            data = out.get("data", {})
            if "image/png" in data:
                png = "".join(data["image/png"]).replace("\n", "")
                return f'<img alt="" src="data:image/png;base64,{png}">'
            if "image/svg+xml" in data:
                svg = "".join(data["image/svg+xml"]).encode("utf-8")
                uri = base64.b64encode(svg).decode("ascii")
                return f'<img alt="" src="data:image/svg+xml;base64,{uri}">'
    return ""


def _first_sentences(text: str, limit: int = 220) -> str:
    """The paragraph's first sentences (at least one, about ``limit`` characters), as HTML."""
    import markdown as md

    out = ""
    for sentence in re.split(r"(?<=[.:?!])\s+", text):
        if out and len(out) + len(sentence) > limit:
            break
        out = f"{out} {sentence}".strip()
    rendered = md.markdown(out)
    return re.sub(r"^<p>|</p>$", "", rendered).replace("<a ", "<span ").replace("</a>", "</span>")


def gallery() -> str:
    """A card per notebook: its title, first paragraph and first picture, linked to its page."""
    cards = []
    for path in NOTEBOOKS:
        nb = json.loads(path.read_text(encoding="utf-8"))
        text = "".join(nb["cells"][0]["source"]).strip().split("\n\n")
        title = text[0].lstrip("# ").strip()
        blurb = _first_sentences(" ".join(text[1].split()) if len(text) > 1 else "")
        link = f"{path.stem}/"
        cards.append(
            f'<a class="dc-card" href="{link}">{_thumbnail(nb)}'
            f"<strong>{html.escape(title)}</strong><span>{blurb}</span></a>"
        )
    style = (
        "<style>.dc-gallery{display:grid;grid-template-columns:repeat(auto-fill,minmax(16rem,1fr));"
        "gap:1rem}.md-typeset a.dc-card{display:flex;flex-direction:column;gap:.4rem;"
        "padding:.6rem;border:1px solid #ddd;border-radius:.4rem}.dc-card img{width:100%;"
        "height:11rem;object-fit:contain;background:#fff}.md-typeset a.dc-card>span{"
        "font-size:.75rem;color:var(--md-typeset-color)}</style>"
    )
    return style + '<div class="dc-gallery">' + "".join(cards) + "</div>"


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
    if page.file.src_uri == "notebooks.md":
        markdown = markdown.replace(GALLERY_MARK, gallery())
    page_dir = Path(page.file.src_uri).parent
    return LINK.sub(lambda m: m[1] + _docs_link(m[2], page_dir) + m[3], markdown)
