"""RLlib (new API stack): every variant as a single-agent and a multi-agent
env, and an action-masking PPO RLModule.

Importing this module registers, with ``ray.tune.registry.register_env``,

- ``dicechess/<Variant>-v0``: the single-agent Gymnasium env
  (:class:`dicechess.gym.DiceChessEnv`, the same id as ``gymnasium.make``'s);
- ``dicechess/<Variant>-multi-v0``: both players as learners, the PettingZoo
  AEC env (:mod:`dicechess.pettingzoo`) wrapped by RLlib's ``PettingZooEnv``,
  agents ``player_0`` and ``player_1``.

The env creators are functions of this module, so remote env runners import
``dicechess.rllib`` (and so register the names) when they unpickle them: the
names work in every worker, not only in the driver. The env config (a dict)
holds the env's keyword arguments, e.g. ``{"opponent": "greedy",
"max_plies": 200}``; observations are flat by default (``obs_layout``), which
RLlib's default MLP encoder takes.

The env's observation is ``{"observation", "action_mask"}``;
:class:`ActionMaskingTorchRLModule` feeds ``"observation"`` to PPO's default
networks and sets the logits of illegal actions to the lowest float, so the
policy never samples them::

    import ray
    from ray.rllib.algorithms.ppo import PPOConfig
    import dicechess.rllib as drl

    config = drl.ppo_config("Fluky", env_config={"max_plies": 100})
    algo = config.build_algo()
    for _ in range(10):
        result = algo.train()

Needs ``ray[rllib]`` and ``torch`` (``pip install 'dicechess[rllib]'``).
"""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np
from ray.rllib.algorithms.ppo.torch.default_ppo_torch_rl_module import DefaultPPOTorchRLModule
from ray.rllib.core.columns import Columns
from ray.rllib.env.wrappers.pettingzoo_env import PettingZooEnv
from ray.rllib.utils.framework import try_import_torch
from ray.rllib.utils.torch_utils import FLOAT_MIN
from ray.tune.registry import register_env

from . import pettingzoo as dpz
from .gym import ENV_IDS

torch, _nn = try_import_torch()

__all__ = [
    "ActionMaskingTorchRLModule",
    "evaluate",
    "multi_agent_env",
    "multi_agent_id",
    "ppo_config",
    "register",
    "single_agent_env",
    "single_agent_id",
]


def single_agent_id(name: str) -> str:
    """The registered single-agent name of ``name`` (a key of ``ENV_IDS``)."""
    return f"dicechess/{name}-v0"


def multi_agent_id(name: str) -> str:
    """The registered multi-agent name of ``name`` (a key of ``ENV_IDS``)."""
    return f"dicechess/{name}-multi-v0"


def _variant(config: Any) -> str:
    variant = dict(config or {}).get("variant")
    if variant not in ENV_IDS.values():
        raise ValueError(
            f"env config 'variant' must be one of {', '.join(ENV_IDS.values())}, got {variant!r}"
        )
    return str(variant)


def single_agent_env(config: Any = None) -> gymnasium.Env:
    """A :class:`dicechess.gym.DiceChessEnv`; ``config["variant"]`` names the
    variant, the other keys are the env's keyword arguments."""
    kwargs = dict(config or {})
    variant = _variant(kwargs)
    name = next(k for k, v in ENV_IDS.items() if v == variant)
    kwargs.pop("variant")
    return gymnasium.make(single_agent_id(name), **kwargs)


def multi_agent_env(config: Any = None) -> PettingZooEnv:
    """RLlib's ``PettingZooEnv`` around :func:`dicechess.pettingzoo.env`;
    ``config["variant"]`` names the variant, the other keys go to the env
    (``obs_layout`` defaults to ``"flat"`` here)."""
    kwargs = dict(config or {})
    variant = _variant(kwargs)
    kwargs.pop("variant")
    kwargs.setdefault("obs_layout", "flat")
    return PettingZooEnv(dpz.env(variant, **kwargs))


class _Creator:
    """An env creator bound to one variant (picklable by reference)."""

    def __init__(self, make: Any, variant: str) -> None:
        self.make = make
        self.variant = variant

    def __call__(self, config: Any = None) -> Any:
        return self.make({**dict(config or {}), "variant": self.variant})


def register() -> None:
    """Registers every variant's single- and multi-agent name (idempotent)."""
    for name, variant in ENV_IDS.items():
        register_env(single_agent_id(name), _Creator(single_agent_env, variant))
        register_env(multi_agent_id(name), _Creator(multi_agent_env, variant))


class ActionMaskingTorchRLModule(DefaultPPOTorchRLModule):
    """PPO's default torch RLModule over ``obs["observation"]``, with the
    logits of the actions that ``obs["action_mask"]`` forbids set to the
    lowest float (also for the value function, which sees the observation
    only)."""

    def __init__(self, *args: Any, observation_space: Any = None, **kwargs: Any) -> None:
        if not isinstance(observation_space, gymnasium.spaces.Dict) or set(
            observation_space.spaces
        ) != {"observation", "action_mask"}:
            raise ValueError(
                "ActionMaskingTorchRLModule needs a Dict observation space with the keys "
                f"'observation' and 'action_mask' (the dicechess envs'), got {observation_space}"
            )
        self._space_with_mask = observation_space
        super().__init__(*args, observation_space=observation_space["observation"], **kwargs)

    def setup(self) -> None:
        """Builds the networks for the observation alone."""
        super().setup()
        self.observation_space = self._space_with_mask

    @staticmethod
    def _split(batch: dict[str, Any]) -> tuple[dict[str, Any], Any]:
        obs = batch[Columns.OBS]
        inner = dict(batch)
        inner[Columns.OBS] = obs["observation"]
        return inner, obs["action_mask"]

    @staticmethod
    def _masked(out: dict[str, Any], mask: Any) -> dict[str, Any]:
        floor = torch.clamp(torch.log(mask.float()), min=FLOAT_MIN)
        out[Columns.ACTION_DIST_INPUTS] = out[Columns.ACTION_DIST_INPUTS] + floor
        return out

    def _forward(self, batch: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
        inner, mask = self._split(batch)
        return self._masked(super()._forward(inner, **kwargs), mask)

    def _forward_train(self, batch: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
        inner, mask = self._split(batch)
        return self._masked(super()._forward_train(inner, **kwargs), mask)

    def compute_values(self, batch: dict[str, Any], embeddings: Any = None) -> Any:
        """The value of ``obs["observation"]``."""
        if embeddings is None and isinstance(batch[Columns.OBS], dict):
            batch, _mask = self._split(batch)
        return super().compute_values(batch, embeddings)


def ppo_config(
    name: str,
    env_config: dict[str, Any] | None = None,
    multi_agent: bool = False,
    hidden: tuple[int, ...] = (256, 256),
) -> Any:
    """A ``PPOConfig`` on ``name``'s env (a key of ``ENV_IDS``) with
    :class:`ActionMaskingTorchRLModule`; multi-agent: one shared policy
    ``"shared"`` for both players. Adjust it further as usual."""
    from ray.rllib.algorithms.ppo import PPOConfig
    from ray.rllib.core.rl_module.default_model_config import DefaultModelConfig
    from ray.rllib.core.rl_module.multi_rl_module import MultiRLModuleSpec
    from ray.rllib.core.rl_module.rl_module import RLModuleSpec

    if name not in ENV_IDS:
        raise ValueError(f"name must be one of {', '.join(ENV_IDS)}, got {name!r}")
    model = DefaultModelConfig(fcnet_hiddens=list(hidden))
    spec = RLModuleSpec(module_class=ActionMaskingTorchRLModule, model_config=model)
    env = multi_agent_id(name) if multi_agent else single_agent_id(name)
    config = PPOConfig().environment(env, env_config=dict(env_config or {}))
    if multi_agent:
        config = config.multi_agent(
            policies={"shared"}, policy_mapping_fn=lambda agent_id, episode, **kw: "shared"
        ).rl_module(rl_module_spec=MultiRLModuleSpec(rl_module_specs={"shared": spec}))
    else:
        config = config.rl_module(rl_module_spec=spec)
    return config


def evaluate(
    module: Any,
    name: str,
    games: int,
    seed: int = 0,
    env_config: dict[str, Any] | None = None,
) -> np.ndarray:
    """Plays ``games`` games of the single-agent env ``name`` (a key of
    ``ENV_IDS``; ``env_config`` as for the registered env, e.g. the
    opponent) with ``module``'s greedy action (the highest masked logit);
    returns the rewards (+1 win, 0 draw or truncation, -1 loss). Game ``g``
    is reset with seed ``seed + g``. ``module``: an RLModule taking the
    env's observation, e.g. ``algo.get_module()``."""
    from ray.rllib.core.columns import Columns

    env = single_agent_env({**dict(env_config or {}), "variant": ENV_IDS[name]})
    rewards = np.zeros(games, dtype=np.float64)
    for g in range(games):
        obs, _ = env.reset(seed=seed + g)
        done = False
        while not done:
            batch = {Columns.OBS: {k: torch.as_tensor(v[None]) for k, v in obs.items()}}
            with torch.no_grad():
                logits = module.forward_inference(batch)[Columns.ACTION_DIST_INPUTS][0]
            obs, reward, terminated, truncated, _ = env.step(int(logits.argmax()))
            done = terminated or truncated
        rewards[g] = reward
    return rewards


register()
