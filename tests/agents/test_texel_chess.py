"""``scripts/texel_chess.py``: the fit recovers known weights from
synthetic samples, and the ``FITTED`` and ``FITTED_CHESS`` constants it
writes are the committed fits' weights."""

import json
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[2]
RUST = ROOT / "src/agents/search/eval/structure_weights.rs"
FIT = ROOT / "data/texel/structure.json"
BASE_RUST = ROOT / "src/agents/search/eval/tuned.rs"
BASE_FIT = ROOT / "data/texel/chess_base.json"


@pytest.fixture(scope="module")
def ts(load_script):
    return load_script("texel_chess")


#: Synthetic weights: name, hand-set value, true value.
WEIGHTS = [("a.mg", 10.0, 30.0), ("a.eg", 10.0, 10.0), ("b", -5.0, -25.0), ("c.3", 4.0, 4.0)]


def synthetic_file(path: Path, n: int, k: float, seed: int) -> None:
    """Samples in the example's format: a header of names and hand-set
    weights, then results drawn from the logistic model of the true
    weights, with the static value computed from the hand-set ones."""
    rng = np.random.default_rng(seed)
    hand = np.array([h for _, h, _ in WEIGHTS])
    true = np.array([t for _, _, t in WEIGHTS])
    lines = ["# " + " ".join(f"{name}={h:g}" for name, h, _ in WEIGHTS)]
    for _ in range(n):
        base = rng.normal(0.0, 150.0)
        x = np.where(rng.uniform(size=len(WEIGHTS)) < 0.5, rng.integers(-2, 3, len(WEIGHTS)), 0)
        v = base + float(x @ hand)
        z = base + float(x @ true)
        y = float(rng.uniform() < 1.0 / (1.0 + np.exp(-z / k)))
        feats = [f"{j}:{x[j]:g}" for j in range(len(WEIGHTS)) if x[j] != 0]
        lines.append(" ".join([f"{y:g}", "0.5", f"{v:.3f}", *feats]))
    path.write_text("\n".join(lines) + "\n")


def test_fit_recovers_known_weights(ts, tmp_path):
    path = tmp_path / "samples.txt"
    k = 220.0
    n = 60_000
    synthetic_file(path, n, k, seed=3)
    names, hand, y, v, x = ts.load(path)
    assert names == [w[0] for w in WEIGHTS]
    assert list(hand) == [w[1] for w in WEIGHTS]
    assert x.shape == (n, len(WEIGHTS))
    d = ts.fit_weights(y, v, x, k, reg=1e-4)
    # A weight's standard error here is about 2-3 cp (its coefficient is
    # nonzero in 40% of the samples, of size 1.4 on average).
    for (name, _h, t), got in zip(WEIGHTS, hand + d, strict=True):
        assert got == pytest.approx(t, abs=8.0), name
    # Strong regularisation pulls every change toward zero.
    d_reg = ts.fit_weights(y, v, x, k, reg=1e4)
    assert np.all(np.abs(d_reg) < 0.5 * np.abs(d) + 1e-9)


def test_a_header_is_required(ts, tmp_path):
    path = tmp_path / "samples.txt"
    path.write_text("1 0.5 10.0 0:1\n")
    with pytest.raises(ValueError, match="header"):
        ts.load(path)


def test_quarters_round_to_the_nearest_quarter(ts):
    assert list(ts.quarters(np.array([1.1, -2.38, 0.125001]))) == [1.0, -2.5, 0.25]


def test_committed_fitted_constant_is_the_committed_fit(ts, tmp_path):
    fit = json.loads(FIT.read_text())
    names = list(fit["weights"])
    fitted = np.array([w["fitted"] for w in fit["weights"].values()])
    assert len(names) == 47
    # Quarters, so the evaluation's sums stay exact.
    assert np.all(fitted * 4.0 == np.rint(fitted * 4.0))
    # Rewriting FITTED from the JSON leaves the committed file unchanged.
    rs = tmp_path / "structure_weights.rs"
    rs.write_text(RUST.read_text())
    ts.write_rust(rs, ts.rust_const(names, fitted))
    assert rs.read_text() == RUST.read_text()
    # And a change lands in the right field.
    fitted2 = fitted.copy()
    fitted2[names.index("threat_by_rook.eg")] = 99.5
    ts.write_rust(rs, ts.rust_const(names, fitted2))
    mg = float(fitted[names.index("threat_by_rook.mg")])
    assert f"    threat_by_rook: [{mg!r}, 99.5],\n" in rs.read_text()


def test_committed_chess_base_weights_are_the_committed_fit(ts, tmp_path):
    fit = json.loads(BASE_FIT.read_text())
    names = list(fit["weights"])
    fitted = np.array([w["fitted"] for w in fit["weights"].values()])
    assert len(names) == 50
    assert fit["heldout_loss"][1] < fit["heldout_loss"][0]
    # King values never change the evaluation (one king a side), so the
    # fit leaves them at zero.
    assert fitted[names.index("mg_value.king")] == 0.0
    rs = tmp_path / "tuned.rs"
    rs.write_text(BASE_RUST.read_text())
    _, const, ty = ts.TARGETS["base"]
    ts.write_rust(rs, ts.rust_const(names, fitted, const, ty), const)
    assert rs.read_text() == BASE_RUST.read_text()
    # Per-role names land at their role's index.
    fitted2 = fitted.copy()
    fitted2[names.index("eg_mobility.rook")] = 7.25
    ts.write_rust(rs, ts.rust_const(names, fitted2, const, ty), const)
    block = rs.read_text().split(f"pub const {const}")[1]
    line = next(x for x in block.split("\n") if x.startswith("    eg_mobility:"))
    assert line.split("[")[1].split(", ")[3] == "7.25"
    # The other constant is untouched.
    assert "pub const TUNED_8X8" in rs.read_text()


def test_sweights_spec_round_trips_and_bad_values_are_refused():
    import dicechess as dc

    # Fitted is the default, so only the hand-set choice shows in the spec.
    assert dc.Agent("search:sweights=fitted").spec == "search"
    assert dc.Agent("search:sweights=hand").spec == "search:sweights=hand"
    with pytest.raises(ValueError, match="sweights must be hand or fitted"):
        dc.Agent("search:sweights=tuned")
