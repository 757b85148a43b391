"""The envs in the RL libraries themselves (torch-based, `make test-rl`):
Stable-Baselines3's check_env and MaskablePPO, RLlib's PPO with the
action-masking RLModule (single- and multi-agent, remote env runners),
Tianshou's masked policy. Each test runs the real library."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

gymnasium = pytest.importorskip("gymnasium")
pytest.importorskip("torch")

import dicechess.gym as dgym  # noqa: E402

IDS = sorted(dgym.ENV_IDS)


@pytest.mark.parametrize("name", IDS)
def test_sb3_check_env_without_warnings(name):
    from stable_baselines3.common.env_checker import check_env

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        check_env(gymnasium.make(f"dicechess/{name}-v0"))


def test_sb3_maskable_ppo_on_a_vec_env():
    """MaskablePPO over SB3's DummyVecEnv of the default env (masks through
    action_masks(), infos stacked by SB3)."""
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.env_util import make_vec_env

    venv = make_vec_env("dicechess/Fluky-v0", n_envs=2, seed=0, env_kwargs={"max_plies": 60})
    model = MaskablePPO("MultiInputPolicy", venv, n_steps=64, batch_size=64, seed=0)
    model.learn(256)
    assert model.num_timesteps >= 256
    obs = venv.reset()
    masks = np.stack(venv.env_method("action_masks"))
    actions, _ = model.predict(obs, action_masks=masks)
    assert all(masks[i, a] for i, a in enumerate(actions))


@pytest.fixture(scope="module")
def ray_session():
    ray = pytest.importorskip("ray")
    pytest.importorskip("ray.rllib")
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    yield ray
    ray.shutdown()


def small(config, runners=1):
    return (
        config.env_runners(num_env_runners=runners, num_envs_per_env_runner=1)
        .training(train_batch_size_per_learner=256, minibatch_size=64, num_epochs=1)
        .debugging(seed=0)
    )


def test_rllib_registers_every_variant():
    from ray.tune.registry import ENV_CREATOR, _global_registry

    import dicechess.rllib as drl

    for name in IDS:
        for env_name in (drl.single_agent_id(name), drl.multi_agent_id(name)):
            assert _global_registry.contains(ENV_CREATOR, env_name)
    env = drl.single_agent_env({"variant": "fluky", "max_plies": 30})
    obs, _ = env.reset(seed=0)
    assert set(obs) == {"observation", "action_mask"}
    ma = drl.multi_agent_env({"variant": "vegas"})
    obs, _ = ma.reset(seed=0)
    (agent,) = obs  # only the player to move observes
    assert agent in ("player_0", "player_1") and obs[agent]["observation"].ndim == 1
    with pytest.raises(ValueError, match="variant"):
        drl.single_agent_env({"variant": "go"})


def test_rllib_masking_module_never_picks_illegal_actions():
    import torch
    from ray.rllib.core.columns import Columns

    import dicechess.rllib as drl

    env = gymnasium.make("dicechess/Fluky-v0")
    module = drl.ActionMaskingTorchRLModule(
        observation_space=env.observation_space,
        action_space=env.action_space,
        model_config={"fcnet_hiddens": [32]},
    )
    obs, _ = env.reset(seed=1)
    batch = {
        Columns.OBS: {
            "observation": torch.as_tensor(obs["observation"][None]),
            "action_mask": torch.as_tensor(obs["action_mask"][None]),
        }
    }
    logits = module.forward_inference(batch)[Columns.ACTION_DIST_INPUTS][0]
    legal = np.flatnonzero(obs["action_mask"])
    assert int(logits.argmax()) in legal
    illegal = np.flatnonzero(obs["action_mask"] == 0)
    assert (logits[illegal] < -1e30).all() and (logits[legal] > -1e30).all()
    values = module.compute_values(batch)
    assert values.shape == (1,)
    with pytest.raises(ValueError, match="action_mask"):
        drl.ActionMaskingTorchRLModule(
            observation_space=env.observation_space["observation"], action_space=env.action_space
        )


def test_rllib_ppo_trains_single_agent_in_remote_runners(ray_session):
    import dicechess.rllib as drl

    algo = small(drl.ppo_config("Fluky", env_config={"max_plies": 60})).build_algo()
    try:
        for _ in range(2):
            result = algo.train()
        assert result["env_runners"]["num_env_steps_sampled_lifetime"] >= 512
        assert result["env_runners"]["num_episodes_lifetime"] > 0
    finally:
        algo.stop()


def test_rllib_ppo_trains_multi_agent_self_play(ray_session):
    import dicechess.rllib as drl

    config = drl.ppo_config("Fluky", env_config={"max_plies": 60}, multi_agent=True)
    algo = small(config).build_algo()
    try:
        for _ in range(2):
            result = algo.train()
        assert result["env_runners"]["num_env_steps_sampled_lifetime"] >= 512
        assert "shared" in result["learners"]
    finally:
        algo.stop()
