"""The docs site as a reader sees it: headless Chromium screenshots of a board page and a plot page.

The site is built here (``mkdocs build --strict`` into a temporary directory) and its pages are
opened from disk. A screenshot passes when it is not blank, the page's title is the expected
one, and the picture holds what the page is for: the SVG board's square colours on the quick
start notebook's page, matplotlib's first colour (the plotted points and bars) on the win rates
notebook's page. Needs Chromium (Debian's ``chromium``; ``make browser`` installs it, and
``make pytest`` runs that first).
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
#: The board's light and dark squares (dicechess.render) and matplotlib's first colour.
LIGHT, DARK, MPL_BLUE = (240, 217, 181), (181, 136, 99), (31, 119, 180)

pytestmark = pytest.mark.timeout(900)


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("site")
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    subprocess.run(
        [str(Path(sys.executable).parent / "mkdocs"), "build", "--strict", "--quiet", "-d", out],
        cwd=ROOT,
        env=env,
        check=True,
        stdin=subprocess.DEVNULL,
    )
    return out


def _chromium(*args: str) -> subprocess.CompletedProcess[str]:
    assert CHROMIUM, "the screenshot tests need Chromium: make browser (apt-get install chromium)"
    return subprocess.run(
        [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
         "--disable-dev-shm-usage", "--virtual-time-budget=5000", *args],
        capture_output=True, text=True, timeout=300, stdin=subprocess.DEVNULL,
    )  # fmt: skip


def _shoot(page: Path, out: Path, height: int) -> tuple[np.ndarray, str]:
    """The page's screenshot (RGB array, 1280 px wide) and its DOM after scripts ran."""
    url = page.as_uri()
    shot = _chromium(f"--screenshot={out}", f"--window-size=1280,{height}", url)
    assert out.exists(), f"no screenshot of {url}: {shot.stderr[-2000:]}"
    dom = _chromium("--dump-dom", url)
    assert dom.returncode == 0, dom.stderr[-2000:]
    with Image.open(out) as img:
        return np.asarray(img.convert("RGB")), dom.stdout


def _share(img: np.ndarray, colour: tuple[int, int, int], tol: int = 6) -> float:
    """Fraction of the pixels within ``tol`` of ``colour`` in every channel."""
    return float((np.abs(img.astype(int) - colour) <= tol).all(axis=2).mean())


def _not_blank(img: np.ndarray) -> None:
    assert img.shape[1] == 1280
    white = (img >= 250).all(axis=2).mean()
    assert white < 0.97, f"the page is {white:.0%} white"
    colours = len(np.unique(img.reshape(-1, 3)[::7], axis=0))
    assert colours > 50, f"only {colours} colours: a blank or unstyled page"


def _title(dom: str) -> str:
    m = re.search(r"<title>(.*?)</title>", dom, flags=re.S)
    assert m, "no <title>"
    return m[1]


def test_board_page(site: Path, tmp_path: Path) -> None:
    img, dom = _shoot(
        site / "notebooks" / "01_quick_start" / "index.html", tmp_path / "b.png", 3000
    )
    _not_blank(img)
    assert _title(dom) == "Quick start - dicechess"
    assert "1. Quick start: states, chance nodes, actions and observations" in dom
    # The Fluky board of the notebook's first output: both square colours, as drawn.
    assert _share(img, LIGHT) > 0.002 and _share(img, DARK) > 0.002


def test_plot_page(site: Path, tmp_path: Path) -> None:
    img, dom = _shoot(site / "notebooks" / "02_win_rates" / "index.html", tmp_path / "p.png", 6000)
    _not_blank(img)
    assert _title(dom) == "Win rates - dicechess"
    assert "2. Win rates across variants: colour advantage" in dom
    # The colour-advantage plot's points and error bars (matplotlib's first colour).
    assert _share(img, MPL_BLUE, tol=12) > 0.0005
    assert "data:image/png;base64," in dom


def test_gallery_page(site: Path, tmp_path: Path) -> None:
    img, dom = _shoot(site / "notebooks" / "index.html", tmp_path / "g.png", 1600)
    _not_blank(img)
    assert _title(dom) == "Gallery - dicechess"
    assert dom.count('class="dc-card"') == len(list((ROOT / "notebooks").glob("*.ipynb")))


def test_replay_slider_works_without_a_kernel(tmp_path: Path) -> None:
    """The replay viewer's HTML in a browser: moving the slider shows that step's board only."""
    import dicechess as dc
    from dicechess import records, replay

    s = dc.State("chess")
    for san in ("e4", "e5", "Nf3", "Nc6"):
        s.apply_san(san)
    page = tmp_path / "replay.html"
    page.write_text(
        "<!DOCTYPE html><html><head><title>?</title></head><body>"
        + replay.viewer(records.record(s), size=200)._repr_html_()
        + "<script>var r=document.querySelector('input[type=range]');r.value=3;"
        "r.dispatchEvent(new Event('input'));"
        "var shown=[...document.querySelectorAll('[data-step]')].filter("
        "function(e){return e.style.display!='none';});"
        "document.title=shown.map(function(e){return e.dataset.step+':'+"
        "e.firstChild.textContent;}).join(',');</script></body></html>",
        encoding="utf-8",
    )
    dom = _chromium("--dump-dom", page.as_uri())
    assert _title(dom.stdout) == "3:3: Nf3"


def test_api_pages_show_no_export_lists_or_stray_markup(site: Path) -> None:
    """The API reference once showed ``__all__`` as an attribute, reST's ``::`` as text and
    an undocumented ``env = env``."""
    for page in sorted((site / "reference").glob("*/index.html")):
        text = page.read_text(encoding="utf-8")
        assert ".__all__" not in text, page
        assert not re.search(r"::\s*</p>|<p>::", text), page
        for m in re.finditer(r'id="([\w.]+\.env)" class="doc doc-heading"', text):
            # The attribute's own entry, up to the next heading, holds a sentence about it.
            entry = text[m.end() :].split('class="doc doc-heading"', 1)[0]
            contents = entry.split('class="doc doc-contents', 1)[-1]
            words = re.sub(r"<[^>]+>|&\w+;", " ", contents).split()
            assert len(words) > 5, (m[1], words)
