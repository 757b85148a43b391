"""The envs in the RL libraries themselves (torch-based; `make test`, or
alone `make test-rl`): Stable-Baselines3's check_env and MaskablePPO, RLlib's
PPO with the action-masking RLModule (single- and multi-agent, remote env
runners), Tianshou's masked policy. Each test runs the real library, imported
outright: without requirements-rl.txt (`make venv-rl`) this file fails to
import instead of skipping."""

from __future__ import annotations

import os
import warnings

import gymnasium
import numpy as np
import pytest
import ray
import ray.rllib  # noqa: F401
import sb3_contrib  # noqa: F401
import stable_baselines3  # noqa: F401
import torch

import dicechess.gym as dgym

if os.environ.get("DICECHESS_REQUIRE_TIANSHOU") == "1":
    import tianshou  # noqa: F401

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


def test_tianshou_masked_dqn_against_masked_random():
    """Tianshou's own PettingZoo wrapper (it turns the action_mask into its
    obs.mask), a masked DQN for player_0 against its masked random policy,
    trained by its off-policy trainer for one short epoch: every action the
    DQN took was legal (an illegal one would end the game as a loss with
    info termination "illegal_action")."""
    pytest.importorskip("tianshou", reason="not in dicechess[all] (Tianshou 2 pins pandas<3)")
    from tianshou.algorithm import (
        DQN,
        MARLRandomDiscreteMaskedOffPolicyAlgorithm,
        MultiAgentOffPolicyAlgorithm,
    )
    from tianshou.algorithm.modelfree.dqn import DiscreteQLearningPolicy
    from tianshou.algorithm.optim import AdamOptimizerFactory
    from tianshou.data import Collector, CollectStats, VectorReplayBuffer
    from tianshou.env import DummyVectorEnv
    from tianshou.env.pettingzoo_env import PettingZooEnv
    from tianshou.trainer import OffPolicyTrainerParams
    from tianshou.utils.net.common import Net

    from dicechess.pettingzoo import env as pz_env

    def make():
        return PettingZooEnv(pz_env("fluky", obs_layout="flat", max_plies=40))

    torch.manual_seed(0)
    env = make()
    space = env.observation_space["observation"]
    net = Net(state_shape=space.shape, action_shape=env.action_space.n, hidden_sizes=[64])
    learner = DQN(
        policy=DiscreteQLearningPolicy(
            model=net, action_space=env.action_space, eps_training=0.2, eps_inference=0.0
        ),
        optim=AdamOptimizerFactory(lr=1e-3),
        target_update_freq=50,
    )
    random_player = MARLRandomDiscreteMaskedOffPolicyAlgorithm(action_space=env.action_space)
    algorithm = MultiAgentOffPolicyAlgorithm(algorithms=[learner, random_player], env=env)
    train_envs = DummyVectorEnv([make, make])
    test_envs = DummyVectorEnv([make, make])
    train_envs.seed(0)
    test_envs.seed(1)
    buffer = VectorReplayBuffer(2000, len(train_envs))
    train = Collector[CollectStats](algorithm, train_envs, buffer, exploration_noise=True)
    test = Collector[CollectStats](algorithm, test_envs, exploration_noise=False)
    train.reset()
    train.collect(n_step=64)
    result = algorithm.run_training(
        OffPolicyTrainerParams(
            training_collector=train,
            test_collector=test,
            max_epochs=1,
            epoch_num_steps=200,
            collection_step_num_env_steps=20,
            test_step_num_episodes=2,
            batch_size=32,
            update_step_num_gradient_steps_per_sample=0.1,
            test_in_training=False,
            multi_agent_return_reduction=lambda rews: rews[:, 0],
            show_progress=False,
        )
    )
    assert result.update_step > 0
    data = buffer.sample(0)[0]
    acting = data.obs.agent_id == "player_0"
    assert acting.any()
    chosen = data.act[acting]
    assert data.obs.mask[acting][np.arange(len(chosen)), chosen].all()
    assert not any(t == "illegal_action" for t in data.info.termination)


def train_fluky_example(iterations: int = 8) -> dict[str, tuple[float, float]]:
    """The documented example (docs/rl.md): PPO with the action-masking module
    on Fluky against the random opponent; mean reward and win rate of the
    greedy policy against random and greedy over 200 seeded games each,
    before and after training."""
    import dicechess.rllib as drl

    env_config = {"max_plies": 100}
    config = (
        drl.ppo_config("Fluky", env_config=env_config, hidden=(128, 128))
        .env_runners(num_env_runners=1, num_envs_per_env_runner=4)
        .training(train_batch_size_per_learner=2000, minibatch_size=250, num_epochs=4, lr=3e-4)
        .debugging(seed=0)
    )
    algo = config.build_algo()
    scores = {}
    try:
        for stage, iters in (("before", 0), ("after", iterations)):
            for _ in range(iters):
                algo.train()
            for opponent in ("random", "greedy"):
                r = drl.evaluate(
                    algo.get_module(),
                    "Fluky",
                    200,
                    seed=10_000,
                    env_config={**env_config, "opponent": opponent},
                )
                scores[f"{stage} vs {opponent}"] = (float(r.mean()), float((r > 0).mean()))
                print(stage, opponent, scores[f"{stage} vs {opponent}"], flush=True)
    finally:
        algo.stop()
    return scores


@pytest.mark.slow
def test_rllib_example_learns_to_beat_random(ray_session):
    """16k steps of PPO lift the win rate against random well above the
    untrained policy's (numbers in docs/rl.md)."""
    from dicechess.analysis import wilson_interval

    scores = train_fluky_example()
    before, after = scores["before vs random"][1], scores["after vs random"][1]
    lo_after = wilson_interval(round(after * 200), 200)[0]
    hi_before = wilson_interval(round(before * 200), 200)[1]
    assert lo_after > hi_before, scores
