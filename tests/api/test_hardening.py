"""Regression tests of issue 19 (hardening): bounded memory, games that end,
validated unpickling, safe VecEnv buffers, Ctrl-C, the study's dependencies."""

from __future__ import annotations

import json
import os
import pickle
import random
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import numpy as np
import pytest

import dicechess as dc
from dicechess import sim

# ---------------------------------------------------------------- 1. memory


def test_huge_runs_are_refused_before_any_work() -> None:
    with pytest.raises(ValueError, match="chunk_size must be an int from 1 to"):
        dc.playouts("chess", 10**10, chunk_size=10**10)
    with pytest.raises(ValueError, match="chunk_size"):
        dc.roll_luck("vegas", 10**10, chunk_size=10**10)
    # The core refuses a batch it would have to allocate at once.
    with pytest.raises(ValueError, match="at most"):
        dc._core._random_playouts("chess", 0, 0, 10**10)
    with pytest.raises(ValueError, match="at most"):
        dc._core._playouts("chess", ("random", "greedy"), 0, 0, 10**10)
    with pytest.raises(ValueError, match="at most"):
        dc._core._roll_luck("vegas", ("random", "random"), 1, 0, 0, 10**10)


def test_results_that_cannot_fit_in_memory_are_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sim, "physical_memory", lambda: 10**9)
    with pytest.raises(ValueError, match="more than this machine's 1 GB"):
        dc.playouts("chess", 10**9)
    with pytest.raises(ValueError, match="GB"):
        dc.roll_luck("vegas", 10**9)
    with pytest.raises(ValueError, match="GB"):
        dc.arena("chess", ["random", "greedy"], 10**9)
    with pytest.raises(ValueError, match="GB"):
        dc.paired_games("chess", ("random", "greedy"), 10**9)
    assert len(dc.playouts("chess", 3)) == 3


# ---------------------------------------------------------------- 2. games end


def test_vegas_dice_nobody_can_use_end_the_game() -> None:
    r = dc.playouts("vegas", 8, die_a="K", die_b="K", max_plies=50)
    assert (r.winner == sim.TRUNCATED).all()
    assert (r.plies == 0).all() and (r.chance_events == 50).all()
    v = dc.VecEnv("vegas", 2, opponent="random", die_a="K", die_b="K", max_plies=5)
    _obs, _mask, _r, _te, truncated, _p = v.reset()
    assert truncated.all()


# ---------------------------------------------------------------- 3. unpickling


def _payload(s: dc.State) -> bytes:
    f, (data,) = s.__reduce__()
    assert f is dc._core._state_from_bytes
    return data


def test_unpickling_replays_and_refuses_bad_bytes() -> None:
    s = dc.State("vegas", max_plies=30)
    rng = random.Random(3)
    while not s.is_terminal():
        if s.is_chance_node():
            s.apply_action(rng.choice(s.chance_outcomes())[0])
        else:
            s.apply_action(rng.choice(s.legal_actions()))
    data = _payload(s)
    back = pickle.loads(pickle.dumps(s))
    assert back.fen() == s.fen() and back.history() == s.history()
    assert back.termination() == s.termination() and back.options == s.options
    refused = 0
    for _ in range(2000):
        b = bytearray(data)
        for _ in range(rng.randint(1, 3)):
            b[rng.randrange(len(b))] = rng.randrange(256)
        try:
            t = dc._core._state_from_bytes(bytes(b))
        except ValueError as e:
            assert "not a serialised dicechess state" in str(e)
            refused += 1
            continue
        # Accepted bytes are a real game: its history replays to it.
        r = dc.State(t.variant, **t.options)
        for a in t.history():
            r.apply_action(a)
        assert r.fen() == t.fen() and r.current_player() == t.current_player()
    assert refused > 1000
    for cut in range(len(data)):
        with pytest.raises(ValueError):
            dc._core._state_from_bytes(data[:cut])


# ---------------------------------------------------------------- 4. VecEnv buffers


def test_vecenv_buffers_cannot_be_resized_or_stepped_before_reset() -> None:
    v = dc.VecEnv("chess", 4)
    with pytest.raises(ValueError, match="reset"):
        v.step(np.zeros(4, np.int64))
    obs, mask, rewards, terminated, truncated, player = v.reset()
    for arr in (obs, mask, rewards, terminated, truncated, player):
        with pytest.raises(ValueError, match="does not own its data"):
            arr.resize((1,), refcheck=False)
    actions = np.array([np.flatnonzero(row)[0] for row in mask])
    obs2, *_ = v.step(actions)
    assert obs2 is obs  # rewritten in place
    v.close()
    assert v.closed
    with pytest.raises(ValueError, match="closed"):
        v.reset()


# ---------------------------------------------------------------- 5. Ctrl-C

# Generous: the calls return within about a second of the signal, but a
# loaded machine may be slow.
STOP_TIMEOUT = 60

LONG_CALLS = {
    "perft": "dc.perft('chess', 9)",
    "vegas_perft": "dc.perft('vegas', 12)",
    "expectimax": "dc.Agent('expectimax:depth=8').value(dc.State('vegas'))",
    "mcts": "dc.Agent('mcts:sims=10000000').select(dc.State('chess'))",
    "batch": "dc._core._playouts('vegas', ('expectimax:depth=3', 'random'), 0, 0, 4096)",
    "vecenv": (
        "v = dc.VecEnv('vegas', 64, opponent='expectimax:depth=6', threads=2); v.reset(); "
        "v.step(np.array([np.flatnonzero(m)[0] for m in v.reset()[1]]))"
    ),
}


def _interrupt(code: str) -> subprocess.CompletedProcess[str]:
    """Runs `code` in a fresh interpreter, sends SIGINT once it has started
    the call, and returns the finished process."""
    script = textwrap.dedent(
        f"""
        import signal, sys, numpy as np, dicechess as dc
        # Ctrl-C raises KeyboardInterrupt even when a launcher (a background
        # job of a non-interactive shell) handed this process SIGINT ignored.
        signal.signal(signal.SIGINT, signal.default_int_handler)
        print("started", flush=True)
        try:
            {code}
        except KeyboardInterrupt:
            print("KeyboardInterrupt", flush=True)
            sys.exit(42)
        print("finished", flush=True)
        """
    )
    p = subprocess.Popen(
        [sys.executable, "-c", script], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    assert p.stdout is not None
    line = p.stdout.readline()
    assert line.strip() == "started", p.stderr.read() if p.stderr else ""
    time.sleep(0.5)  # into the call (the check below does not depend on it)
    p.send_signal(signal.SIGINT)
    try:
        out, err = p.communicate(timeout=STOP_TIMEOUT)
    except subprocess.TimeoutExpired:
        p.kill()
        raise AssertionError(f"{code!r} ignored Ctrl-C") from None
    return subprocess.CompletedProcess(p.args, p.returncode, out, err)


@pytest.mark.skipif(os.name != "posix", reason="SIGINT to a subprocess")
@pytest.mark.parametrize("name", sorted(LONG_CALLS))
def test_long_calls_stop_on_ctrl_c(name: str) -> None:
    r = _interrupt(LONG_CALLS[name])
    assert r.returncode == 42 and "KeyboardInterrupt" in r.stdout, (r.stdout, r.stderr)


@pytest.mark.skipif(os.name != "posix", reason="SIGINT to a subprocess")
def test_interrupted_study_keeps_the_finished_variants(tmp_path: Path) -> None:
    out = tmp_path / "st"
    # The first roll-luck run is vegas's (chess has no dice): chess is done
    # by then, and vegas's 100000 luck games never finish.
    script = textwrap.dedent(
        f"""
        import signal
        import sys
        signal.signal(signal.SIGINT, signal.default_int_handler)  # as in _interrupt
        import dicechess.study.run as run
        original = run.roll_luck
        def announced(*a, **k):
            print("luck", flush=True)
            return original(*a, **k)
        run.roll_luck = announced
        from dicechess.cli import main
        sys.exit(main(["study", "--quick", "--variants", "chess,vegas", "--games", "4",
                       "--playout-games", "40", "--luck-games", "100000", "--no-progress",
                       "--out", {str(out)!r}]))
        """
    )
    p = subprocess.Popen(
        [sys.executable, "-c", script], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    assert p.stdout is not None
    while (line := p.stdout.readline()) and line.strip() != "luck":
        pass
    assert line.strip() == "luck", p.communicate()
    p.send_signal(signal.SIGINT)
    out_text, err = p.communicate(timeout=STOP_TIMEOUT)
    assert p.returncode == 130, (out_text, err)
    assert "Traceback" not in err and "interrupted" in err
    results = json.loads((out / "results.json").read_text())
    assert results["interrupted"] is True
    assert list(results["variants"]) == ["chess"]
    assert (out / "report.md").exists()
    # Chess's games are kept for a rerun, which may replace this partial report
    # without --force.
    assert (out / "raw" / "chess.json").exists()
    from dicechess.cli import _resumable

    assert _resumable(out)


def test_study_without_matplotlib_stops_before_the_work(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import importlib.util

    import dicechess.study
    from dicechess import cli

    real = importlib.util.find_spec
    monkeypatch.setattr(
        importlib.util,
        "find_spec",
        lambda name, *a: None if name == "matplotlib" else real(name, *a),
    )
    monkeypatch.setattr(dicechess.study, "run_study", lambda *a, **k: pytest.fail("the study ran"))
    assert cli.main(["study", "--quick", "--no-progress", "--out", str(tmp_path / "s")]) == 2
    assert "matplotlib" in capsys.readouterr().err


# ---------------------------------------------------------------- 7. parser


def test_a_move_given_by_its_squares_wins_and_lower_case_is_a_file() -> None:
    s = dc.State("chess", fen="4k3/8/8/8/8/1QB5/8/2B1K3 w - - 0 1")
    assert s.action_to_string(s.string_to_action("b3b2")) == "Qb2"
    assert s.action_to_string(s.string_to_action("B3b2")) == "B3b2"
    s = dc.State("chess", fen="4k3/8/8/8/8/2n5/1P1B4/4K3 w - - 0 1")
    assert s.action_to_string(s.string_to_action("bxc3")) == "bxc3"
    assert s.action_to_string(s.string_to_action("Bxc3")) == "Bxc3"


# ---------------------------------------------------------------- 8. gym opponent


def test_an_opponent_that_raises_stops_the_episode() -> None:
    gym = pytest.importorskip("gymnasium")
    calls = []

    def flaky(state: dc.State) -> int:
        calls.append(1)
        if len(calls) == 2:
            raise RuntimeError("opponent crashed")
        return state.legal_actions()[0]

    env = gym.make("dicechess/Chess-v0", opponent=flaky, agent_player=0).unwrapped
    obs, _ = env.reset(seed=1)
    env.step(int(np.flatnonzero(obs["action_mask"])[0]))
    with pytest.raises(RuntimeError, match="opponent crashed"):
        env.step(int(np.flatnonzero(env.action_masks())[0]))
    # The opponent is to move: the agent must not move for it.
    assert env.state.current_player() == 1
    assert not env.action_masks().any()
    with pytest.raises(RuntimeError, match="call reset"):
        env.step(env.state.legal_actions()[0])
    env.reset(seed=2)
    env.step(int(np.flatnonzero(env.action_masks())[0]))


# ---------------------------------------------------------------- 9. options, labels, bounds


def test_options_keep_the_fen_and_start_the_same_game() -> None:
    fen = "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1"
    for v in ("chess", "random_move_number", "vegas", "cubic"):
        s = dc.State(v, fen=fen)
        assert "fen" in s.options, v
        assert s.options["fen"] == fen or v == "cubic"  # cubic writes its stocks
        assert dc.State(v, **s.options).fen() == s.fen()
    r = dc.playouts("chess", 2, fen=fen)
    assert r.options["fen"] == fen


def test_arena_table_labels_the_colour_each_agent_commands() -> None:
    pytest.importorskip("pandas")
    ar = dc.arena("random_move_number", ["random", "greedy"], 8, seed=3, max_plies=20)
    t = ar.table()
    assert set(t["colour"]) == {"white", "black"}
    names = np.array(ar.agents, dtype=object)
    p0 = t[t["agent"].to_numpy() == names[ar.player0][t["game"].to_numpy()]]
    want = np.where(ar.player0_color == 0, "white", "black")
    assert list(p0["colour"]) == list(want[p0["game"].to_numpy()])
    assert (ar.player0_color == 1).any()  # thrown colours: player 0 is Black sometimes


def test_openspiel_games_never_exceed_max_game_length() -> None:
    pytest.importorskip("pyspiel")
    from dicechess import openspiel

    g = openspiel.load_game("random_move_number", max_plies=1)
    limit = g.max_game_length()
    rng = random.Random(0)
    for _ in range(200):
        s = g.new_initial_state()
        n = 0
        while not s.is_terminal():
            if s.is_chance_node():
                acts, probs = zip(*s.chance_outcomes())
                s.apply_action(rng.choices(acts, weights=probs)[0])
            else:
                s.apply_action(rng.choice(s.legal_actions()))
            n += 1
        assert n <= limit


def test_render_caption_uses_structured_lines() -> None:
    from dicechess import render

    s = dc.State("vegas")
    s.apply_action(s.chance_outcomes()[1][0])
    assert render.caption(s) == s.status_lines()
    assert str(s).splitlines()[-len(s.status_lines()) - 1 :][:-1] == s.status_lines()
    assert all(render.plain_text(ln).isascii() for ln in s.status_lines())
    assert render.plain_text("dice: PN \u2014 x") == "dice: PN - x"


# ---------------------------------------------------------------- 10. VecEnv lifecycle


def test_make_vec_close_releases_the_env() -> None:
    pytest.importorskip("gymnasium")
    from dicechess.vector import make_vec

    env = make_vec("chess", 2)
    env.reset(seed=0)
    env.close()
    assert env.env.closed
    with pytest.raises(ValueError, match="closed"):
        env.step(np.zeros(2, np.int64))


# ---------------------------------------------------------------- 11. bad input


@pytest.mark.parametrize("bad", [float("nan"), float("inf"), -float("inf")])
def test_non_finite_options_are_refused(bad: float) -> None:
    with pytest.raises(ValueError, match="finite"):
        dc.State("chess", max_plies=bad)


def test_out_of_range_integers_get_value_errors() -> None:
    s = dc.State("chess")
    for bad in (2**70, -1, -(2**70)):
        with pytest.raises(ValueError, match="action must be"):
            s.apply_action(bad)
        with pytest.raises(ValueError, match="action must be"):
            s.action_to_string(bad)
    with pytest.raises(TypeError, match="action must be an int"):
        s.apply_action(1.5)  # type: ignore[arg-type]
    for make in (
        lambda: dc.Agent("random", seed=-1),
        lambda: dc.VecEnv("chess", 2, seed=-1),
        lambda: dc.VecEnv("chess", 2, seed=2**64),
        lambda: dc.VecEnv("chess", 2).reset(seed=-1),
    ):
        with pytest.raises(ValueError, match="seed must be from 0 to 2"):
            make()
    for threads in (0, 10**6):
        with pytest.raises(ValueError, match="threads must be"):
            dc.VecEnv("chess", 2, threads=threads)
        with pytest.raises(ValueError, match="threads must be"):
            dc.playouts("chess", 2, threads=threads)
    with pytest.raises(TypeError, match="opponent must be an agent spec string"):
        dc.VecEnv("chess", 2, opponent=3)  # type: ignore[arg-type]


def test_one_agent_from_two_threads_gets_a_clear_error() -> None:
    import threading

    agent = dc.Agent("expectimax:depth=4")
    s = dc.State("vegas")
    s.apply_action(s.chance_outcomes()[0][0])
    errors: list[BaseException] = []

    def use() -> None:
        try:
            for _ in range(3):
                agent.select(s)
        except ValueError as e:
            errors.append(e)

    threads = [threading.Thread(target=use) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    # Whether the threads overlapped depends on the machine; any clash must
    # be this error (not "Already mutably borrowed").
    assert all("one Agent per thread" in str(e) for e in errors)


# ---------------------------------------------------------------- 12. CLI arguments


@pytest.mark.parametrize(
    "argv",
    [
        ["perft", "chess", "-1"],
        ["perft", "chess", "13"],
        ["perft", "", "2"],
        ["perft", "chess,fluky", "2"],
        ["play", ","],
        ["study", "--out", "x" * 5000, "--quick"],
        ["play", "chess", "--max-plies", "10000000"],
        ["perft", "chess", "2", "--fen", "not a fen"],
    ],
)
def test_cli_argument_errors_are_one_line(argv: list[str]) -> None:
    r = subprocess.run(
        [sys.executable, "-m", "dicechess", *argv], capture_output=True, text=True, timeout=300
    )
    assert r.returncode == 2, (r.stdout, r.stderr)
    assert len(r.stderr.strip().splitlines()) == 1 and "Traceback" not in r.stderr, r.stderr


# ---------------------------------------------------------------- 13. rendering


def test_the_gym_extra_installs_what_rgb_rendering_needs() -> None:
    tomllib = pytest.importorskip("tomllib")
    pyproject = Path(__file__).resolve().parents[2] / "pyproject.toml"
    extras = tomllib.loads(pyproject.read_text())["project"]["optional-dependencies"]
    assert any(dep.lower().startswith("pillow") for dep in extras["gym"])
    from dicechess import render

    s = dc.State("vegas")
    s.apply_action(s.chance_outcomes()[1][0])
    assert "\u2014" in "".join(s.status_lines())  # the em dash the font lacks
    img = render.rgb_array(s)
    assert img.ndim == 3 and img.shape[2] == 3
