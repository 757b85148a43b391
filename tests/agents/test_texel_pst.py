"""``scripts/texel_pst.py``: the fit recovers known corrections from
synthetic samples, and the table it writes is the one the engine reads."""

import re
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def pst(load_script):
    return load_script("texel_pst")


#: Sample indices (role * 64 + square, Black pieces + 384) and the true
#: correction of their middlegame (+0) or endgame (+384) column.
TRUE = {64 + 18: (0, 80.0), 52: (384, -60.0), 384 + 64 + 21: (0, 40.0)}
POOL = [64 + 18, 52, 384 + 64 + 21, 64 + 45, 128 + 2, 384 + 3 * 64, 5 * 64 + 6, 384 + 9]


def synthetic_file(path: Path, n: int, k: float, seed: int) -> None:
    """Samples in the example's format whose results are drawn from the
    logistic model with the corrections of ``TRUE`` and scale ``k``."""
    rng = np.random.default_rng(seed)
    lines = []
    for _ in range(n):
        ph = rng.uniform()
        v = rng.normal(0.0, 150.0)
        pieces = [i for i in POOL if rng.uniform() < 0.5]
        z = v
        for i in pieces:
            if i in TRUE:
                col, d = TRUE[i]
                sign = 1.0 if i < 384 else -1.0
                z += sign * d * (ph if col == 0 else 1.0 - ph)
        y = float(rng.uniform() < 1.0 / (1.0 + np.exp(-z / k)))
        lines.append(" ".join([f"{y:g}", f"{ph:.4f}", f"{v:.2f}", *map(str, pieces)]))
    path.write_text("\n".join(lines) + "\n")


def test_fit_recovers_known_corrections(pst, tmp_path):
    path = tmp_path / "samples.txt"
    k = 250.0
    n = 120_000
    synthetic_file(path, n, k, seed=5)
    y, v, x = pst.load(path)
    assert x.shape == (n, pst.COLUMNS)
    d = pst.fit_corrections(y, v, x, k, reg=1e-4)
    for i, (col, want) in TRUE.items():
        own = i % 384
        assert d[col + own] == pytest.approx(want, abs=20.0), (i, d[col + own])
    # Columns of the pool without a true correction stay near zero (a
    # column's standard error here is about 8 cp: its middlegame and
    # endgame parts share their pieces), and columns no sample touches
    # stay exactly zero.
    others = [c + i % 384 for i in POOL for c in (0, 384) if TRUE.get(i, (None,))[0] != c]
    assert np.max(np.abs(d[others])) < 30.0
    untouched = np.setdiff1d(np.arange(pst.COLUMNS), [c + i % 384 for i in POOL for c in (0, 384)])
    assert np.all(d[untouched] == 0.0)
    # The fit lowers the loss it minimises against no corrections.
    assert pst.logloss((v + x @ d) / k, y) < pst.logloss(v / k, y)


def test_rust_table_round_trip(pst, tmp_path):
    d = np.zeros(pst.COLUMNS)
    d[64 + 18] = 12.4  # knight c3, middlegame
    d[384 + 5 * 64 + 6] = -7.6  # king g1, endgame
    rs = tmp_path / "pst.rs"
    rs.write_text((ROOT / "src/agents/search/eval/pst.rs").read_text())
    pst.write_rust(rs, pst.rust_table(d))
    text = rs.read_text()
    body = text[text.index("pub const CORRECTIONS") : text.index("// END CORRECTIONS")]
    pairs = [tuple(map(int, m)) for m in re.findall(r"\((-?\d+), (-?\d+)\)", body)]
    assert len(pairs) == 6 * 64
    assert pairs[64 + 18] == (12, 0)
    assert pairs[5 * 64 + 6] == (0, -8)
    assert sum(abs(a) + abs(b) for a, b in pairs) == 12 + 8
    # Writing again leaves one table.
    pst.write_rust(rs, pst.rust_table(d))
    assert rs.read_text() == text
