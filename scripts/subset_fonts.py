"""Writes the two fonts that ``dicechess.render.rgb_array`` rasterises its SVG with.

python/dicechess/fonts/ holds subsets of DejaVu Sans and DejaVu Sans Mono (the copies
matplotlib ships; licence in python/dicechess/fonts/LICENSE_DEJAVU): Latin-1, general
punctuation, arrows and the chess symbols U+2654-265F. With them the rasterised boards look the
same on every machine, whatever fonts it has (a machine without fonts would draw no pieces).

Run from the repository root after changing the characters: ``python scripts/subset_fonts.py``.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import matplotlib
from fontTools import subset

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "python" / "dicechess" / "fonts"
#: Printable ASCII and Latin-1, general punctuation (dashes, quotes), arrows, chess symbols.
UNICODES = [
    *range(0x20, 0x7F),
    *range(0xA0, 0x100),
    *range(0x2010, 0x2030),
    *range(0x2190, 0x2200),
    *range(0x2654, 0x2660),
]


def main() -> None:
    ttf = Path(matplotlib.get_data_path()) / "fonts" / "ttf"
    OUT.mkdir(exist_ok=True)
    for name in ("DejaVuSans.ttf", "DejaVuSansMono.ttf"):
        options = subset.Options()
        options.layout_features = ["*"]
        options.name_IDs = ["*"]
        font = subset.load_font(str(ttf / name), options)
        sub = subset.Subsetter(options)
        sub.populate(unicodes=UNICODES)
        sub.subset(font)
        subset.save_font(font, str(OUT / name), options)
        print(OUT / name, (OUT / name).stat().st_size, "bytes")
    shutil.copy(ttf / "LICENSE_DEJAVU", OUT / "LICENSE_DEJAVU")


if __name__ == "__main__":
    main()
