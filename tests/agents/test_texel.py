"""Texel tuning: the evaluation features from Python, ``search:weights``,
and ``scripts/texel_tune.py --quick`` producing finite weights."""

import json

import numpy as np
import pytest

import dicechess as dc
from dicechess import _core


def test_features_match_the_weight_names():
    names, weights = _core.search_eval_weights()
    s = dc.State("chess")
    x, offset = _core.search_eval_features(s)
    assert x.shape == (len(names),) == (len(weights),)
    assert offset == 0.0
    # The start position is symmetric: only the tempo of White to move.
    assert x @ np.array(weights) == pytest.approx(weights[names.index("tempo")])


def test_features_refuse_a_terminal_state():
    s = dc.State("chess", fen="7k/5QQQ/8/8/8/8/8/K7 b - - 0 1")
    assert s.is_terminal()
    with pytest.raises(ValueError, match="non-terminal"):
        _core.search_eval_features(s)


def test_weights_option_of_search_spec():
    assert dc.Agent("search:weights=tuned").spec == "search:weights=tuned"
    assert dc.Agent("search:weights=hand").spec == "search:weights=hand"
    assert dc.Agent("search:weights=default").spec == "search"
    with pytest.raises(ValueError, match="weights must be default, hand, tuned or fitted"):
        dc.Agent("search:weights=best")


def test_quick_tuning_gives_finite_weights(tmp_path, load_script):
    mod = load_script("texel_tune")
    out = tmp_path / "w.json"
    result = mod.main(["--quick", "--out", str(out)])
    assert json.loads(out.read_text()) == result
    names, _ = _core.search_eval_weights()
    for fam in ("8x8", "5x5"):
        w = result["families"][fam]["weights"]
        assert list(w) == names
        assert all(np.isfinite(list(w.values())))
        assert w["mg_value.king"] == 0.0
    for v in ("chess", "fluky"):
        r = result["variants"][v]
        assert r["positions"] > 0
        assert r["uscale"] == pytest.approx(2 * r["K"], abs=0.2)
        assert r["loss_tuned"] <= r["loss_current"] + 1e-9


def test_one_variant_alone_with_a_holdout(tmp_path, load_script):
    mod = load_script("texel_tune")
    out = tmp_path / "w.json"
    result = mod.main(
        ["--quick", "--variants", "dice_chess3", "--fix", "tempo", "--holdout-games", "4"]
        + ["--out", str(out)]
    )
    assert list(result["families"]) == ["8x8"]
    w = result["families"]["8x8"]["weights"]
    names, current = _core.search_eval_weights()
    assert w["tempo"] == current[names.index("tempo")]
    r = result["variants"]["dice_chess3"]
    assert r["positions"] > 0
    h = r["holdout"]
    assert h["positions"] > 0 and h["seed"] == 21
    assert np.isfinite(h["loss_current"]) and np.isfinite(h["loss_tuned"])


@pytest.mark.parametrize(
    "args, message",
    [
        (["--variants", "chess", "fluky"], "share one board size"),
        (["--fix", "tempi"], "unknown weights"),
        (["--variants", "chess", "--rust", "x.rs"], "--variants is an experiment"),
    ],
)
def test_bad_tuning_arguments_are_refused(args, message, load_script, capsys):
    mod = load_script("texel_tune")
    with pytest.raises(SystemExit):
        mod.main(["--quick"] + args)
    assert message in capsys.readouterr().err
