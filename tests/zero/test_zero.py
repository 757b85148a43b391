"""dicechess.zero: the batched network-guided search from Python (errors
for bad evaluator output, reproducibility), a tiny training run that
resumes bit-exactly, Ctrl-C keeping the last checkpoint, and a trained
network as an agent everywhere agents are named."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest
import torch

import dicechess as dc
from dicechess import _core, zero
from dicechess.cli import main as cli_main

TINY: dict[str, Any] = dict(
    blocks=1,
    channels=8,
    sims=8,
    gumbel_m=4,
    games_per_iteration=4,
    parallel=4,
    buffer_size=1000,
    batch_size=32,
    train_steps=3,
    eval_every=2,
    eval_pairs=1,
    eval_sims=4,
    eval_opponents=("random",),
    eval_ladder=(1, 2),
)


@pytest.fixture(autouse=True)
def one_thread() -> Any:
    """Bit-exact comparisons need the same thread count for every forward."""
    old = torch.get_num_threads()
    torch.set_num_threads(1)
    yield
    torch.set_num_threads(old)


def uniform(obs: np.ndarray, mask: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    return np.zeros(mask.shape, np.float32), np.zeros(len(obs), np.float32)


def play(evaluate: Any, **kw: Any) -> dict[str, Any]:
    args: dict[str, Any] = dict(sims=4, record=True)
    args.update(kw)
    return _core._zero_play("gardner", [evaluate], (0, 0), 2, **args)


@pytest.mark.parametrize(
    "bad, message",
    [
        (
            lambda o, m: (np.zeros((len(o), 7), np.float32), np.zeros(len(o), np.float32)),
            r"shape \(\d+, 1225\)",
        ),
        (
            lambda o, m: (np.zeros(m.shape, np.float32), np.zeros(len(o) + 1, np.float32)),
            r"value has shape",
        ),
        (
            lambda o, m: (np.zeros(m.shape, np.int64), np.zeros(len(o), np.float32)),
            r"float32 or float64",
        ),
        (
            lambda o, m: (np.full(m.shape, np.nan, np.float32), np.zeros(len(o), np.float32)),
            r"finite",
        ),
        (
            lambda o, m: (np.zeros(m.shape, np.float32), np.full(len(o), np.inf, np.float32)),
            r"finite",
        ),
        (lambda o, m: np.zeros(m.shape, np.float32), r"must return \(logits, value\)"),
        (lambda o, m: [np.zeros(m.shape), np.zeros(len(o))], r"must return \(logits, value\)"),
    ],
)
def test_bad_evaluator_output_is_a_clear_error(bad: Any, message: str) -> None:
    with pytest.raises((ValueError, TypeError), match=message):
        play(bad)
    with pytest.raises((ValueError, TypeError), match=message):
        _core._zero_search(dc.State("gardner"), bad, sims=4)


def test_an_evaluator_exception_propagates() -> None:
    def boom(obs: np.ndarray, mask: np.ndarray) -> Any:
        raise RuntimeError("net on fire")

    with pytest.raises(RuntimeError, match="net on fire"):
        play(boom)


def test_bad_arguments_name_what_is_allowed() -> None:
    with pytest.raises(ValueError, match="sims must be"):
        play(uniform, sims=0)
    with pytest.raises(ValueError, match="seat is an evaluator index"):
        _core._zero_play("gardner", [uniform], (0, 3), 2)
    with pytest.raises(ValueError, match="valid"):
        _core._zero_play("gardner", [uniform], (0, "nonsense"), 2)
    with pytest.raises(TypeError, match="callable"):
        _core._zero_play("gardner", [42], (0, 0), 2)  # type: ignore[list-item]
    with pytest.raises(ValueError, match="not a decision node"):
        _core._zero_search(dc.State("dice_chess"), uniform)
    with pytest.raises(ValueError, match="dirichlet_frac"):
        play(uniform, dirichlet_frac=2.0)


def test_the_evaluator_sees_observations_and_legal_masks() -> None:
    seen: list[tuple[np.ndarray, np.ndarray]] = []

    def spy(obs: np.ndarray, mask: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        seen.append((obs.copy(), mask.copy()))
        return uniform(obs, mask)

    _core._zero_search(dc.State("gardner"), spy, sims=1)
    obs, mask = seen[0]
    s = dc.State("gardner")
    assert obs.shape == (1, *s.observation_tensor(0).shape) and obs.dtype == np.float32
    np.testing.assert_array_equal(obs[0], s.observation_tensor(0))
    np.testing.assert_array_equal(mask[0], s.legal_actions_mask())


def test_self_play_is_reproducible_and_independent_of_games_in_flight() -> None:
    net = zero.ZeroNet(zero.NetShape.for_variant("fluky", blocks=1, channels=8))
    ev = zero.Evaluator(net)
    kw: dict[str, Any] = dict(
        sims=6, gumbel_m=0, dirichlet_alpha=0.3, temperature_plies=4, record=True
    )
    a = _core._zero_play("fluky", [ev], (0, 0), 4, parallel=1, seed=3, **kw)
    b = _core._zero_play("fluky", [ev], (0, 0), 4, parallel=4, seed=3, **kw)
    order_a, order_b = np.argsort(a["game"], kind="stable"), np.argsort(b["game"], kind="stable")
    np.testing.assert_array_equal(a["policy"][order_a], b["policy"][order_b])
    np.testing.assert_array_equal(a["z"][order_a], b["z"][order_b])
    assert b["batches"] < a["batches"]
    # Each row's policy is a distribution over legal actions.
    np.testing.assert_allclose(a["policy"].sum(1), 1.0, rtol=1e-5)
    c = _core._zero_play("fluky", [ev], (0, 0), 4, parallel=4, seed=4, **kw)
    assert not np.array_equal(np.sort(c["z"]), np.sort(b["z"])) or len(c["z"]) != len(b["z"])


def state_dict(path: Path) -> dict[str, torch.Tensor]:
    return torch.load(path, weights_only=False)["model"]["state_dict"]  # type: ignore[no-any-return]


def test_a_tiny_run_trains_and_resumes_bit_exactly(tmp_path: Path) -> None:
    straight = zero.train("gardner", tmp_path / "a", iterations=3, progress=False, **TINY)
    assert straight.iterations == 3 and not straight.interrupted
    assert [r["iteration"] for r in straight.log] == [1, 2, 3]
    assert "score_random" in straight.log[1]
    for name in ("best.pt", "last.pt", "buffer.npz", "log.csv", "log.json"):
        assert (tmp_path / "a" / name).is_file()
    zero.train("gardner", tmp_path / "b", iterations=1, progress=False, **TINY)
    resumed = zero.train("gardner", tmp_path / "b", iterations=2, progress=False, **TINY)
    assert resumed.iterations == 3
    sa, sb = state_dict(tmp_path / "a" / "last.pt"), state_dict(tmp_path / "b" / "last.pt")
    assert sa.keys() == sb.keys()
    for k in sa:
        assert torch.equal(sa[k], sb[k]), k
    # The logs agree too (but for the timings).
    timing = ("seconds", "forward_share")
    strip = [{k: v for k, v in r.items() if not k.endswith(timing)} for r in straight.log]
    assert strip == [{k: v for k, v in r.items() if not k.endswith(timing)} for r in resumed.log]
    # Another configuration in the same directory is refused.
    with pytest.raises(ValueError, match="another configuration"):
        zero.train("gardner", tmp_path / "b", iterations=1, progress=False, **{**TINY, "sims": 9})


def test_ctrl_c_keeps_the_last_finished_iteration(tmp_path: Path, monkeypatch: Any) -> None:
    calls = {"n": 0}
    real = zero.Trainer.train_steps

    def flaky(self: zero.Trainer, n: int) -> dict[str, float]:
        calls["n"] += 1
        if calls["n"] == 2:
            raise KeyboardInterrupt
        return real(self, n)

    monkeypatch.setattr(zero.Trainer, "train_steps", flaky)
    r = zero.train("gardner", tmp_path, iterations=3, progress=False, **TINY)
    assert r.interrupted and r.iterations == 1 and len(r.log) == 1
    assert torch.load(tmp_path / "last.pt", weights_only=False)["iteration"] == 1
    monkeypatch.setattr(zero.Trainer, "train_steps", real)
    again = zero.train("gardner", tmp_path, iterations=1, progress=False, **TINY)
    assert again.iterations == 2 and not again.interrupted


def test_a_trained_network_is_an_agent_everywhere(tmp_path: Path, capsys: Any) -> None:
    zero.train("gardner", tmp_path, iterations=1, progress=False, **TINY)
    spec = f"zero:model={tmp_path / 'best.pt'},sims=4"
    agent = zero.ZeroAgent.from_spec(spec)
    s = dc.State("gardner")
    assert agent(s) in s.legal_actions()
    action, value, actions, policy = agent.search(s)
    assert -1 <= value <= 1 and set(actions) == set(s.legal_actions())
    assert abs(policy.sum() - 1) < 1e-9
    r = dc.arena("gardner", [spec, "random"], 2)
    assert len(r.winner) == 2
    p = dc.playouts("gardner", 1, agents=(spec, "greedy"))
    assert len(p.winner) == 1
    assert cli_main(["play", "gardner", "--agents", spec, "random"]) == 0
    assert "result:" in capsys.readouterr().out
    assert (
        cli_main(["match", str(tmp_path / "best.pt"), "random", "--pairs", "1", "--sims", "2"]) == 0
    )
    assert "random:" in capsys.readouterr().out
    m = zero.match(agent.evaluator, "gardner", "random", 2, sims=2)
    assert m.games == 4 and m.wins + m.draws + m.losses == 4
    lo, hi = m.interval
    assert 0 <= lo <= m.score <= hi <= 1
    with pytest.raises(ValueError, match="needs model=PATH"):
        zero.ZeroAgent.from_spec("zero:sims=4")
    with pytest.raises(ValueError, match="unknown key"):
        zero.ZeroAgent.from_spec(f"zero:model={tmp_path / 'best.pt'},depth=3")
    with pytest.raises(FileNotFoundError):
        zero.ZeroAgent.from_spec("zero:model=/nonexistent/best.pt")
    (tmp_path / "junk.pt").write_bytes(b"not a model")
    with pytest.raises(ValueError, match="not a dicechess.zero model"):
        zero.load_model(tmp_path / "junk.pt")


def test_the_train_command(tmp_path: Path, capsys: Any) -> None:
    argv = ["train", "gardner", "--out", str(tmp_path), "--iterations", "1", "--no-progress"]
    argv += ["--blocks", "1", "--channels", "8", "--sims", "4", "--gumbel-m", "2"]
    argv += ["--games-per-iteration", "2", "--parallel", "2", "--eval-pairs", "0"]
    assert cli_main(argv) == 0
    assert "done: 1 iterations" in capsys.readouterr().out
    assert cli_main(["train", "gardner", "--out", str(tmp_path)]) == 2
    assert "--minutes or --iterations" in capsys.readouterr().err


def test_without_torch_the_message_names_the_extra() -> None:
    code = "import sys; sys.modules['torch'] = None\nimport dicechess.zero"
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert r.returncode != 0
    assert "pip install 'dicechess[zero]'" in r.stderr
    # The rest of the package imports without torch.
    code = "import sys; sys.modules['torch'] = None\nimport dicechess; dicechess.State('gardner')"
    assert subprocess.run([sys.executable, "-c", code]).returncode == 0


def test_ladder_place_and_learning_curve(tmp_path: Path) -> None:
    def res(opp: str, w: int, d: int, lo: int) -> zero.MatchResult:
        return zero.MatchResult(opp, w + d + lo, w, d, lo)

    up = zero.LadderPlace((res("search:nodes=16", 9, 0, 1), res("search:nodes=64", 3, 0, 7)))
    assert up.place == "between search:nodes=16 and search:nodes=64"
    assert zero.LadderPlace((res("a", 1, 0, 9),)).place == "below a"
    assert zero.LadderPlace((res("a", 9, 0, 1), res("b", 5, 0, 5))).place == "above b"
    run = zero.train("gardner", tmp_path, iterations=2, progress=False, **TINY)
    net, info = zero.load_model(run.best)
    assert info["variant"] == "gardner"
    place = zero.ladder(zero.Evaluator(net), "gardner", nodes=(1, 2), pairs=1, sims=2)
    assert [r.games for r in place.results] == [2, 2]
    assert "place:" in str(place)
    import matplotlib

    matplotlib.use("Agg")
    ax = zero.plot_learning_curve(tmp_path)
    labels = [t.get_text() for t in ax.get_legend().get_texts()]
    assert labels == ["random", "search:nodes=1", "search:nodes=2"]
    assert len(ax.lines[0].get_xdata()) == 1  # evaluated at iteration 2 only
    # The ladder rungs were played during training and placed the network.
    row = run.log[-1]
    expect = zero.ladder_crossing(
        (1, 2), [row["score_search:nodes=1"], row["score_search:nodes=2"]]
    )
    assert row["ladder_log2_nodes"] == expect
    ax = zero.plot_learning_curve(tmp_path, ladder=True)
    assert list(ax.lines[0].get_ydata()) == [2**expect]


def test_ladder_crossing_interpolates_in_log2_nodes() -> None:
    cross = zero.ladder_crossing
    # 0.7 at 16 nodes, 0.3 at 64: halfway in log2, i.e. 32 nodes.
    assert cross((16, 64), [0.7, 0.3]) == pytest.approx(5.0)
    assert cross((16, 64, 256), [0.9, 0.6, 0.4]) == pytest.approx(7.0)
    # Censored at either end: half a doubling beyond the rung.
    assert cross((16, 64), [0.4, 0.1]) == pytest.approx(3.5)
    assert cross((16, 64), [0.9, 0.8]) == pytest.approx(6.5)
    assert cross((16, 64), [0.5, 0.5]) == pytest.approx(6.5)


@pytest.mark.parametrize("bad", [(64, 16), (0,), (16, 16), (True,), (2.5,)])
def test_eval_ladder_must_be_increasing_budgets(bad: Any) -> None:
    with pytest.raises(ValueError, match="eval_ladder must be increasing"):
        zero.TrainConfig(variant="gardner", eval_ladder=bad)


def test_cli_eval_ladder_option(capsys: Any) -> None:
    from dicechess.cli import _node_budgets

    assert _node_budgets("16,64, 256") == (16, 64, 256)
    assert _node_budgets("") == ()
    with pytest.raises(SystemExit):
        cli_main(["train", "gardner", "--out", "x", "--eval-ladder", "64,16"])
    assert "increasing node budgets" in capsys.readouterr().err


def test_luck_pairs_value_the_chance_events_of_the_same_games() -> None:
    """luck_pairs plays the games _zero_play plays without the valuation
    (the stronger network seat player 0 in a pair's first game), and its rows
    are the stronger side's result and luck."""
    kw: dict[str, Any] = dict(sims=8, net_sims=[8, 2], paired=True, parallel=8, seed=5)
    plain = _core._zero_play("gardner:luck=0.3", [uniform, uniform], (0, 1), 8, **kw)
    r = zero.luck_pairs(uniform, "gardner:luck=0.3", 4, strong_sims=8, weak_sims=2, seed=5)
    assert r.rows.shape == (4, 4) and r.plies.shape == (4, 2) and not r.interrupted
    g = plain["games"]
    order = np.argsort(g["index"])
    ret = g["return0"][order]
    np.testing.assert_array_equal(r.rows[:, 0], ret[0::2])
    np.testing.assert_array_equal(r.rows[:, 2], -ret[1::2])
    np.testing.assert_array_equal(r.plies.ravel(), g["plies"][order])
    # Every coin, draw and roll was valued, and a random move moves the value.
    np.testing.assert_array_equal(r.rolls.ravel(), g["chance_events"][order])
    assert np.abs(r.rows[:, [1, 3]]).sum() > 0
    with pytest.raises(ValueError, match="simulation budgets must be positive"):
        zero.luck_pairs(uniform, "gardner", 1, weak_sims=0)


def test_value_chance_and_net_sims_are_checked() -> None:
    with pytest.raises(ValueError, match="value_chance must be an evaluator index"):
        _core._zero_play("fluky", [uniform], (0, 0), 2, value_chance=1)
    with pytest.raises(ValueError, match="net_sims must give one simulation budget"):
        _core._zero_play("fluky", [uniform], (0, 0), 2, net_sims=[4, 4])
    r = _core._zero_play("gardner", [uniform], (0, 0), 2, sims=2)
    assert "luck_sum" not in r["games"]


def test_the_study_zero_family_plays_the_games_with_networks(tmp_path: Path) -> None:
    from dicechess.study import calibration
    from dicechess.study.config import StudyConfig

    run = zero.train("gardner", tmp_path / "run", iterations=1, progress=False, **TINY)
    models = tmp_path / "models"
    (models / "gardner").mkdir(parents=True)
    (models / "gardner" / "best.pt").write_bytes(run.best.read_bytes())
    g = calibration.play_luck_games("gardner:luck=0.3", "zero", 2, 0, 1, zero_models=str(models))
    assert g is not None and g["family"] == "zero" and len(g["rows"]) == 2
    assert g["model"].endswith("gardner/best.pt")
    # No network for Fluky: the family does not measure it.
    assert calibration.play_luck_games("fluky", "zero", 2, 0, 1, zero_models=str(models)) is None
    with pytest.raises(ValueError, match="needs zero_models"):
        StudyConfig(variants=["fluky"], luck_families=["zero"]).check()
    with pytest.raises(ValueError, match="is not a directory"):
        StudyConfig(variants=["fluky"], zero_models=str(tmp_path / "nope")).check()
    key = StudyConfig(variants=["fluky"], luck_families=["zero"], zero_models=str(models))
    assert list(key.numbers_key()["zero_model_digests"]) == ["gardner"]
