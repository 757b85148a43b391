"""dicechess.VecEnv's self-play opponents: a pool of opponents drawn per env
and episode, and a Python callable deciding the opponent's moves in batches."""

from __future__ import annotations

import re
import subprocess
import sys
from collections import Counter

import numpy as np
import pytest

import dicechess as dc


def first_legal(mask: np.ndarray) -> np.ndarray:
    """The first legal action of every row (the no-op of a finished env)."""
    return np.argmax(mask, axis=1).astype(np.int64)


def random_legal(rng: np.random.Generator):
    def act(obs: np.ndarray, mask: np.ndarray) -> np.ndarray:
        return np.array([rng.choice(np.flatnonzero(m)) for m in mask], dtype=np.int64)

    return act


def draws(env: dc.VecEnv, steps: int) -> dict[tuple[int, int], int]:
    """(env, episode) -> the pool member it was drawn, over `steps` steps."""
    seen: dict[tuple[int, int], int] = {}
    _, mask, *_ = env.reset()
    for _ in range(steps):
        idx = env.opponent_index
        for i in range(env.num_envs):
            seen.setdefault((i, env.episode(i)), int(idx[i]))
        _, mask, *_ = env.step(first_legal(mask))
    return seen


def test_pool_draws_follow_the_weights_and_the_seed_only() -> None:
    pool = ["random", "greedy", "random", "search:nodes=8"]
    kw = dict(opponent=pool, opponent_weights=[1, 2, 1, 0], max_plies=3)
    one = dc.VecEnv("chess", 64, seed=5, threads=1, **kw)
    got = draws(one, 120)
    counts = Counter(got.values())
    n = sum(counts.values())
    assert n > 2000
    # Weights 1:2:1:0; a fixed seed, so this is deterministic (3 sigma is ~0.03).
    for member, p in enumerate([0.25, 0.5, 0.25, 0.0]):
        assert abs(counts[member] / n - p) < 0.05, (member, counts)
    # The same draws and games for any thread count, and again for the seed.
    two = dc.VecEnv("chess", 64, seed=5, threads=2, **kw)
    assert draws(two, 120) == got
    assert [one.history(i) for i in range(64)] == [two.history(i) for i in range(64)]
    # Another seed, other draws.
    assert draws(dc.VecEnv("chess", 64, seed=6, **kw), 120) != got
    assert one.opponent == ["random", "greedy", "random", "search:nodes=8"]
    assert one.opponent_weights == [1.0, 2.0, 1.0, 0.0]


def test_a_pool_member_plays_as_it_does_alone() -> None:
    # The draws leave the dice alone: env i against member m plays the games
    # of env i against m alone.
    kw = dict(seed=9, max_plies=40)
    pool = dc.VecEnv("fluky", 16, opponent=["random", "greedy"], **kw)
    alone = {m: dc.VecEnv("fluky", 16, opponent=m, **kw) for m in ("random", "greedy")}
    outs = {m: e.reset() for m, e in alone.items()}
    _, mask, *_ = pool.reset()
    idx = pool.opponent_index
    assert set(idx.tolist()) == {0, 1}
    for _ in range(6):
        acts = first_legal(mask)
        _, mask, *_ = pool.step(acts)
        for m, e in alone.items():
            outs[m] = e.step(first_legal(outs[m][1]))
    first = [i for i in range(16) if pool.episode(i) == 0]
    assert len(first) >= 8
    for i in first:
        assert pool.history(i) == alone[["random", "greedy"][idx[i]]].history(i)
    # A pool of one is that opponent.
    a, b = (
        dc.VecEnv("vegas", 8, opponent=["greedy"], **kw),
        dc.VecEnv("vegas", 8, opponent="greedy", **kw),
    )
    (_, ma, *_), (_, mb, *_) = a.reset(), b.reset()
    for _ in range(30):
        (_, ma, *_), (_, mb, *_) = a.step(first_legal(ma)), b.step(first_legal(mb))
    assert [a.history(i) for i in range(8)] == [b.history(i) for i in range(8)]


def test_bad_pools() -> None:
    with pytest.raises(ValueError, match="1 to 1024 members, got 0"):
        dc.VecEnv("chess", 2, opponent=[])
    with pytest.raises(ValueError, match=r"opponent\[1\]: .*unknown agent"):
        dc.VecEnv("chess", 2, opponent=["random", "stockfish"])
    with pytest.raises(
        TypeError, match=r"opponent\[0\] must be an agent spec string or a callable"
    ):
        dc.VecEnv("chess", 2, opponent=[3])
    with pytest.raises(ValueError, match="one weight per pool member"):
        dc.VecEnv("chess", 2, opponent=["random", "greedy"], opponent_weights=[1])
    with pytest.raises(ValueError, match=r"opponent_weights\[1\] must be a finite number"):
        dc.VecEnv("chess", 2, opponent=["random", "greedy"], opponent_weights=[1, -1])
    with pytest.raises(ValueError, match="not all be zero"):
        dc.VecEnv("chess", 2, opponent=["random", "greedy"], opponent_weights=[0, 0])
    with pytest.raises(ValueError, match="needs a list of opponents"):
        dc.VecEnv("chess", 2, opponent="random", opponent_weights=[1])
    with pytest.raises(TypeError, match="list of numbers"):
        dc.VecEnv("chess", 2, opponent=["random"], opponent_weights="1")


def test_a_pool_counts_every_search_table_an_env_can_hold() -> None:
    def need(opponent: object) -> int:
        with pytest.raises(ValueError, match=r"65536 envs with opponent .* need about") as e:
            dc.VecEnv("chess", 65536, opponent=opponent)
        return int(re.search(r"need about (\d+) MB", str(e.value)).group(1))  # type: ignore[union-attr]

    spec = "search:ms=100,tt_mb=4096"
    one = need(spec)
    two = need([spec, "random", spec])
    assert 1.9 < two / one < 2.1
    with pytest.raises(ValueError, match=r"one per pool member an env can draw"):
        dc.VecEnv("chess", 65536, opponent=["random", spec])


def test_callable_opponent_is_asked_once_per_step_for_the_envs_to_move() -> None:
    rng = np.random.default_rng(1)
    calls: list[tuple[np.ndarray, np.ndarray]] = []

    def opponent(obs: np.ndarray, mask: np.ndarray) -> np.ndarray:
        calls.append((obs.copy(), mask.copy()))
        return random_legal(rng)(obs, mask)

    env = dc.VecEnv("chess", 6, seed=2, opponent=opponent, max_plies=9)
    assert env.opponent is opponent
    _, mask, *_ = env.reset()
    assert calls == []  # white, the learner, moves first
    for _ in range(40):
        before = [env.history(i) for i in range(6)]
        calls.clear()
        _, mask, _, term, trunc, player = env.step(first_legal(mask))
        # The envs where the opponent moved after the learner (chess has no
        # dice: one opponent move, in one call); a new episode starts empty,
        # and a game the learner's move ended grows by one.
        moved = [i for i in range(6) if len(env.history(i)) == len(before[i]) + 2]
        if not moved:
            assert calls == []
            continue
        assert len(calls) == 1
        obs, m = calls[0]
        assert obs.dtype == np.float32 and obs.shape == (len(moved), *env.observation_shape)
        assert m.dtype == np.bool_ and m.shape == (len(moved), env.num_actions)
        for row, i in enumerate(moved):
            s = dc.State("chess", max_plies=9)
            for a in env.history(i)[:-1]:
                s.apply_action(a)
            assert s.current_player() == 1
            assert np.array_equal(obs[row], s.observation_tensor(1))
            assert np.array_equal(m[row], s.legal_actions_mask())
    assert (player[~(term | trunc)] == 0).all()


def test_a_pool_of_callables_and_specs() -> None:
    asked: Counter[str] = Counter()

    def named(name: str):
        def act(obs: np.ndarray, mask: np.ndarray) -> list[int]:
            asked[name] += len(mask)
            return first_legal(mask).tolist()  # a list is taken too

        return act

    a, b = named("a"), named("b")
    env = dc.VecEnv("fluky", 32, seed=3, opponent=[a, "random", b], max_plies=12)
    assert env.opponent == [a, "random", b]
    _, mask, *_ = env.reset()
    for _ in range(40):
        _, mask, *_ = env.step(first_legal(mask))
    assert asked["a"] > 0 and asked["b"] > 0
    assert set(env.opponent_index.tolist()) <= {0, 1, 2}


def snapshot(env: dc.VecEnv, outs: tuple) -> tuple:
    return [env.history(i) for i in range(env.num_envs)], [o.copy() for o in outs]


@pytest.mark.parametrize("autoreset", ["next_step", "same_step"])
def test_bad_callable_results_change_nothing(autoreset: str) -> None:
    answer: dict[str, object] = {}

    def opponent(obs: np.ndarray, mask: np.ndarray) -> object:
        if "bad" in answer:
            return answer["bad"](len(mask))  # type: ignore[operator]
        if "raise" in answer:
            raise answer["raise"]  # type: ignore[misc]
        return first_legal(mask)

    kw = dict(seed=4, opponent=opponent, autoreset=autoreset, max_plies=10)
    env, twin = dc.VecEnv("vegas", 5, **kw), dc.VecEnv("vegas", 5, **kw)
    outs, twin_outs = env.reset(), twin.reset()
    shape = r"result \(one action per env it was given\) must have shape \(\d,\), got \["
    illegal = r"opponent 0's action 0 of \d \(env \d\): the opponent chose action -1 is not legal"
    cases = [
        (lambda k: np.zeros(k + 1, dtype=np.int64), ValueError, shape),
        (lambda k: np.zeros((k, 1), dtype=np.int64), ValueError, shape),
        (lambda k: np.full(k, -1), ValueError, illegal),
        (lambda k: np.full(k, 10**6), ValueError, "is not legal"),
        (lambda k: np.zeros(k, dtype=np.float32), TypeError, "integer dtype"),
        (lambda k: None, TypeError, "integer dtype"),
    ]
    for step in range(12):
        acts = first_legal(outs[1])
        for bad, error, message in cases if step % 3 == 1 else []:
            answer.clear()
            answer["bad"] = bad
            before = snapshot(env, outs)
            with pytest.raises(error, match=message):
                env.step(acts)
            after = snapshot(env, outs)
            assert after[0] == before[0]
            assert all(np.array_equal(x, y) for x, y in zip(after[1], before[1]))
        for exc in [RuntimeError("boom")] if step == 4 else []:
            answer.clear()
            answer["raise"] = exc
            with pytest.raises(RuntimeError, match="boom"):
                env.step(acts)
        answer.clear()
        outs = env.step(acts)
        twin_outs = twin.step(first_legal(twin_outs[1]))
        # The failed calls left no trace: the same games as a run without them.
        assert [env.history(i) for i in range(5)] == [twin.history(i) for i in range(5)]
        assert all(np.array_equal(x, y) for x, y in zip(outs, twin_outs))


def test_keyboard_interrupt_in_the_callable_propagates_and_changes_nothing() -> None:
    raised = {"n": 0}

    def opponent(obs: np.ndarray, mask: np.ndarray) -> np.ndarray:
        if raised["n"] == 0:
            raised["n"] = 1
            raise KeyboardInterrupt
        return first_legal(mask)

    env = dc.VecEnv("chess", 3, opponent=opponent)
    _, mask, *_ = env.reset()
    acts = first_legal(mask)
    with pytest.raises(KeyboardInterrupt):
        env.step(acts)
    assert all(env.history(i) == [] for i in range(3))
    # No reset needed: the env is as before the call.
    env.step(acts)
    assert all(len(env.history(i)) == 2 for i in range(3))


def test_ctrl_c_stops_a_searching_pool_member() -> None:
    """As before pools: Ctrl-C stops a step whose opponent searches (a pool
    member searching for a minute), and the env needs a reset after it."""
    code = (
        "import os, signal, threading, time, numpy as np, dicechess as dc\n"
        "env = dc.VecEnv('chess', 2, opponent=['search:ms=60000,tt_mb=1'], threads=1)\n"
        "_, mask, *_ = env.reset()\n"
        "t = time.monotonic()\n"
        "threading.Timer(0.5, lambda: os.kill(os.getpid(), signal.SIGINT)).start()\n"
        "try:\n"
        "    env.step(np.argmax(mask, axis=1))\n"
        "except KeyboardInterrupt:\n"
        "    pass\n"
        "else:\n"
        "    raise SystemExit('not interrupted')\n"
        "assert time.monotonic() - t < 50\n"
        "try:\n"
        "    env.step(np.argmax(mask, axis=1))\n"
        "except ValueError as e:\n"
        "    assert 'call reset()' in str(e), e\n"
        "else:\n"
        "    raise SystemExit('stepped without a reset')\n"
        "env.reset()\n"
        "print('ok')\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0 and out.stdout.strip() == "ok", out.stderr


def test_gymnasium_make_vec_with_a_frozen_policy_in_a_pool() -> None:
    import gymnasium

    import dicechess.gym  # noqa: F401  (registers the ids)

    shapes: list[tuple[int, ...]] = []

    def frozen(obs: np.ndarray, mask: np.ndarray) -> np.ndarray:
        shapes.append(obs.shape)
        return first_legal(mask)

    envs = gymnasium.make_vec(
        "dicechess/Fluky-v0",
        num_envs=8,
        opponent=[frozen, "random"],
        opponent_weights=[3, 1],
        autoreset_mode="same_step",
        max_plies=16,
    )
    assert envs.unwrapped.opponent == [frozen, "random"]
    obs, info = envs.reset(seed=1)
    width = obs["observation"].shape[1]
    assert (info["opponent_index"] == envs.unwrapped.env.opponent_index).all()
    finals = 0
    for _ in range(60):
        obs, rew, term, trunc, info = envs.step(envs.action_space.sample())
        assert set(info["opponent_index"].tolist()) <= {0, 1}
        if "final_info" in info:
            ended = info["_final_obs"]
            assert info["final_info"]["_opponent_index"].tolist() == ended.tolist()
            finals += int(ended.sum())
    assert finals > 0
    # The callable sees the env's observation layout ("flat"), batch first.
    assert shapes and all(len(s) == 2 and s[1] == width for s in shapes)
    envs.close()
    # A single env's state -> action callable is refused when the env is made.
    with pytest.raises(TypeError, match=r"takes \(obs, mask\) for a batch"):
        gymnasium.make_vec("dicechess/Fluky-v0", num_envs=2, opponent=["random", lambda s: 0])
