"""Batch-friendly RL wrappers: observation layouts, fixed-shape infos that
vector envs stack, gymnasium.make_vec reaching the Rust VecEnv, PettingZoo's
render_test and performance_benchmark."""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest

gymnasium = pytest.importorskip("gymnasium")

import dicechess as dc  # noqa: E402
import dicechess.gym as dgym  # noqa: E402
from dicechess.rlspaces import INFO_PAD, OBS_LAYOUTS, PAD, to_layout  # noqa: E402
from dicechess.vector import DiceChessVectorEnv, make_vec  # noqa: E402

IDS = sorted(dgym.ENV_IDS)


def env_id(name: str) -> str:
    return f"dicechess/{name}-v0"


@pytest.mark.parametrize("layout", OBS_LAYOUTS)
def test_observation_layouts(layout):
    env = gymnasium.make(env_id("Vegas"), obs_layout=layout, agent_player=1)
    obs, _ = env.reset(seed=4)
    tensor = env.unwrapped.state.observation_tensor(1)
    expected = {
        "flat": tensor.reshape(-1),
        "chw": tensor,
        "hwc": tensor.transpose(1, 2, 0),
    }[layout]
    np.testing.assert_array_equal(obs["observation"], expected)
    assert obs["observation"].flags.c_contiguous
    assert env.observation_space.contains(obs)
    np.testing.assert_array_equal(to_layout(tensor[None], layout)[0], expected)


def test_default_layout_is_flat_and_bad_layouts_raise():
    env = gymnasium.make(env_id("Chess"))
    assert env.observation_space["observation"].shape == (
        int(np.prod(dc.State().observation_tensor().shape)),
    )
    for make in (
        lambda: gymnasium.make(env_id("Chess"), obs_layout="nhwc"),
        lambda: make_vec("chess", 2, obs_layout="CHW"),
    ):
        with pytest.raises(ValueError, match="obs_layout must be one of flat, chw, hwc"):
            make()


@pytest.mark.parametrize("name", IDS)
def test_infos_have_fixed_shapes_and_account_for_every_action(name):
    """Same keys, types and shapes at every step; the padded lists hold
    exactly the chance outcomes and opponent actions of the game."""
    env = gymnasium.make(env_id(name), agent_player="random", max_plies=80)
    rng = np.random.default_rng(0)
    for seed in range(3):
        obs, info = env.reset(seed=seed)
        layout = {k: (type(v), np.shape(v), getattr(v, "dtype", None)) for k, v in info.items()}
        counted = Counter()
        done = False
        while True:
            for k, v in info.items():
                assert (type(v), np.shape(v), getattr(v, "dtype", None)) == layout[k], k
            for key, num in (("rolls", "num_rolls"), ("opponent_actions", "num_opponent_actions")):
                n = info[num]
                assert n <= INFO_PAD and (info[key][n:] == PAD).all() and (info[key][:n] >= 0).all()
                counted.update(info[key][:n].tolist())
            if done:
                break
            a = int(rng.choice(np.flatnonzero(obs["action_mask"])))
            counted[a] += 1
            obs, _r, term, trunc, info = env.step(a)
            done = term or trunc
        assert counted == Counter(env.unwrapped.state.history())
        assert info["termination"] == env.unwrapped.state.termination()


def test_sync_vector_env_stacks_infos():
    """gymnasium's SyncVectorEnv over the single env gives numeric arrays."""
    venv = gymnasium.make_vec(env_id("Vegas"), num_envs=3, vectorization_mode="sync")
    obs, info = venv.reset(seed=1)
    rng = np.random.default_rng(1)
    for _ in range(20):
        acts = [int(rng.choice(np.flatnonzero(m))) for m in obs["action_mask"]]
        obs, _r, _te, _tr, info = venv.step(acts)
    assert info["rolls"].shape == (3, INFO_PAD) and info["rolls"].dtype == np.int64
    assert info["opponent_actions"].shape == (3, INFO_PAD)
    for key in ("num_rolls", "num_opponent_actions", "plies", "agent_player", "illegal_action"):
        assert info[key].shape == (3,) and np.issubdtype(info[key].dtype, np.integer), key
    venv.close()


@pytest.mark.parametrize("name", IDS)
def test_make_vec_reaches_the_rust_vecenv(name):
    variant = dgym.ENV_IDS[name]
    venv = gymnasium.make_vec(env_id(name), num_envs=3, seed=5, max_plies=30)
    assert isinstance(venv.unwrapped, DiceChessVectorEnv)
    explicit = gymnasium.make_vec(
        env_id(name), 3, vectorization_mode="vector_entry_point", seed=5, max_plies=30
    )
    alias = make_vec(variant, 3, seed=5, max_plies=30)
    single = gymnasium.make(env_id(name), max_plies=30)
    assert venv.single_observation_space == single.observation_space
    assert venv.observation_space == gymnasium.vector.utils.batch_space(single.observation_space, 3)
    outs = [v.reset() for v in (venv, explicit, alias)]
    rng = np.random.default_rng(2)
    for _ in range(40):
        obs, _info = outs[0][:2]
        assert venv.observation_space.contains(obs)
        for v in (0, 1, 2):
            np.testing.assert_array_equal(outs[v][0]["observation"], obs["observation"])
        for i in range(3):
            s = dc.State(variant, max_plies=30)
            for a in venv.unwrapped.history(i):
                s.apply_action(a)
            np.testing.assert_array_equal(obs["observation"][i], s.observation_tensor(0).ravel())
            if not s.is_terminal():
                np.testing.assert_array_equal(obs["action_mask"][i], s.legal_actions_mask())
        acts = np.array(
            [rng.choice(np.flatnonzero(m)) if m.any() else 0 for m in obs["action_mask"]]
        )
        outs = [v.step(acts) for v in (venv, explicit, alias)]
        for o in outs[1:]:
            for x, y in zip(o[1:4], outs[0][1:4]):
                np.testing.assert_array_equal(x, y)
    for v in (venv, explicit, alias):
        v.close()


def test_make_vec_checks_single_env_arguments():
    with pytest.raises(ValueError, match="agent_player must be 0"):
        gymnasium.make_vec(env_id("Chess"), 2, agent_player=1)
    with pytest.raises(ValueError, match="illegal_action must be 'raise'"):
        gymnasium.make_vec(env_id("Chess"), 2, illegal_action="lose")
    with pytest.raises(TypeError, match="agent spec string"):
        gymnasium.make_vec(env_id("Chess"), 2, opponent=lambda s: 0)
