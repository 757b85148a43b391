"""The study's plots, drawn from the committed report's results.json (docs/study)."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

matplotlib = pytest.importorskip("matplotlib")
matplotlib.use("Agg")

from dicechess.study import plots  # noqa: E402
from dicechess.study.run import Study  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
RESULTS = json.loads((ROOT / "docs" / "study" / "results.json").read_text(encoding="utf-8"))


def _drawn(monkeypatch: pytest.MonkeyPatch, fn, study: Study, tmp_path: Path):  # type: ignore[no-untyped-def]
    """Runs a plot function and returns its figure (kept open)."""
    import matplotlib.pyplot as plt

    figs = []
    monkeypatch.setattr(plt, "close", lambda fig: figs.append(fig))
    assert fn(study, tmp_path / "p.png") is not None
    assert (tmp_path / "p.png").stat().st_size > 1000
    (fig,) = figs
    return fig


def test_skill_class_labels_stay_inside_the_frame(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    fig = _drawn(monkeypatch, plots.skill_classes, Study(RESULTS, {}), tmp_path)
    ax = fig.axes[0]
    renderer = fig.canvas.get_renderer()
    frame = ax.get_window_extent(renderer)
    labels = [t for t in ax.texts if t.get_text()]
    assert len(labels) == len(RESULTS["variants"])
    for t in labels:
        box = t.get_window_extent(renderer)
        assert box.y1 <= frame.y1 and box.y0 >= frame.y0, t.get_text()


def test_luck_adjusted_plot_has_a_title(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    results = copy.deepcopy(RESULTS)
    est = {"value": 0.2, "low": 0.1, "high": 0.3}
    for r in results["variants"].values():
        r["luck_adjusted"] = {"variance_explained": est, "variance_reduction": est}
    fig = _drawn(monkeypatch, plots.luck_adjusted, Study(results, {}), tmp_path)
    assert "luck" in fig.axes[0].get_title()


def test_palette_never_repeats_a_colour() -> None:
    assert len(set(plots.palette(12))) == 12  # the terminations chart's 12 endings
    assert len(set(plots.palette(20))) == 20
    with pytest.raises(ValueError, match="20 distinct colours"):
        plots.palette(21)
