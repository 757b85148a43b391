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
        import sys, numpy as np, dicechess as dc
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
        import sys
        import dicechess.study.run as run
        original = run.roll_luck
        def announced(*a, **k):
            print("luck", flush=True)
            return original(*a, **k)
        run.roll_luck = announced
        from dicechess.cli import main
        sys.exit(main(["study", "--quick", "--variants", "chess,vegas", "--games", "2",
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
    assert [r["variant"] for r in results["variants"]] == ["chess"]
    assert (out / "report.md").exists()


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
