"""Masked PPO in one file, CleanRL style, over ``gymnasium.make_vec``.

The Rust vector env (``gymnasium.make_vec("dicechess/Fluky-v0", ...)``) in
``autoreset_mode="same_step"``: every observation it returns is one to act on
(a finished game's final observation only appears in ``infos["final_obs"]``),
and no mask is ever all zero, so the loop below is CleanRL's ``ppo.py`` plus
one line, ``logits.masked_fill(~mask, -inf)``, with no special case for
finished envs.

Run: ``.venv/bin/python examples/cleanrl_masked_ppo.py --total-timesteps 10000``
(needs torch: ``make venv-rl``). Tested by ``tests/rl/test_cleanrl_example.py``.
"""

from __future__ import annotations

import argparse
import time
from typing import Any

import gymnasium as gym
import numpy as np
import torch
from torch import nn
from torch.distributions import Categorical

import dicechess.gym  # noqa: F401  (registers dicechess/<Variant>-v0)


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--env-id", default="dicechess/Fluky-v0")
    p.add_argument("--opponent", default="random")
    p.add_argument("--max-plies", type=int, default=100)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--total-timesteps", type=int, default=100_000)
    p.add_argument("--num-envs", type=int, default=16)
    p.add_argument("--num-steps", type=int, default=64)
    p.add_argument("--learning-rate", type=float, default=2.5e-4)
    p.add_argument("--gamma", type=float, default=0.99)
    p.add_argument("--gae-lambda", type=float, default=0.95)
    p.add_argument("--num-minibatches", type=int, default=4)
    p.add_argument("--update-epochs", type=int, default=4)
    p.add_argument("--clip-coef", type=float, default=0.2)
    p.add_argument("--ent-coef", type=float, default=0.01)
    p.add_argument("--vf-coef", type=float, default=0.5)
    p.add_argument("--max-grad-norm", type=float, default=0.5)
    return p.parse_args(argv)


def layer(i: int, o: int, std: float = np.sqrt(2)) -> nn.Linear:
    lin = nn.Linear(i, o)
    nn.init.orthogonal_(lin.weight, std)
    nn.init.constant_(lin.bias, 0.0)
    return lin


class Agent(nn.Module):
    def __init__(self, obs_dim: int, num_actions: int) -> None:
        super().__init__()
        self.critic = nn.Sequential(
            layer(obs_dim, 128), nn.Tanh(), layer(128, 128), nn.Tanh(), layer(128, 1, 1.0)
        )
        self.actor = nn.Sequential(
            layer(obs_dim, 128),
            nn.Tanh(),
            layer(128, 128),
            nn.Tanh(),
            layer(128, num_actions, 0.01),
        )

    def get_value(self, x: torch.Tensor) -> torch.Tensor:
        return self.critic(x)

    def get_action_and_value(
        self, x: torch.Tensor, mask: torch.Tensor, action: torch.Tensor | None = None
    ) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor, torch.Tensor]:
        logits = self.actor(x).masked_fill(~mask, -torch.inf)  # the only masking
        dist = Categorical(logits=logits)
        if action is None:
            action = dist.sample()
        return action, dist.log_prob(action), dist.entropy(), self.critic(x)


def main(argv: list[str] | None = None) -> dict[str, Any]:
    args = parse_args(argv)
    batch_size = args.num_envs * args.num_steps
    minibatch_size = batch_size // args.num_minibatches
    iterations = max(1, args.total_timesteps // batch_size)
    torch.manual_seed(args.seed)
    torch.backends.cudnn.deterministic = True
    device = torch.device("cpu")

    envs = gym.make_vec(
        args.env_id,
        num_envs=args.num_envs,
        autoreset_mode="same_step",
        opponent=args.opponent,
        max_plies=args.max_plies,
    )
    obs_dim = envs.single_observation_space["observation"].shape[0]
    num_actions = envs.single_action_space.n
    agent = Agent(obs_dim, num_actions).to(device)
    optimizer = torch.optim.Adam(agent.parameters(), lr=args.learning_rate, eps=1e-5)

    obs = torch.zeros((args.num_steps, args.num_envs, obs_dim), device=device)
    masks = torch.zeros((args.num_steps, args.num_envs, num_actions), dtype=torch.bool)
    actions = torch.zeros((args.num_steps, args.num_envs), dtype=torch.long)
    logprobs = torch.zeros((args.num_steps, args.num_envs))
    rewards = torch.zeros((args.num_steps, args.num_envs))
    dones = torch.zeros((args.num_steps, args.num_envs))
    values = torch.zeros((args.num_steps, args.num_envs))

    global_step, start = 0, time.time()
    o, _ = envs.reset(seed=args.seed)
    next_obs = torch.tensor(o["observation"])
    next_mask = torch.tensor(o["action_mask"], dtype=torch.bool)
    next_done = torch.zeros(args.num_envs)
    returns: list[float] = []
    stats: dict[str, Any] = {}
    for iteration in range(1, iterations + 1):
        for step in range(args.num_steps):
            global_step += args.num_envs
            obs[step], masks[step], dones[step] = next_obs, next_mask, next_done
            with torch.no_grad():
                action, logprob, _, value = agent.get_action_and_value(next_obs, next_mask)
            values[step] = value.flatten()
            actions[step], logprobs[step] = action, logprob
            o, reward, terminations, truncations, _infos = envs.step(action.numpy())
            rewards[step] = torch.tensor(reward)
            next_done = torch.tensor(np.logical_or(terminations, truncations), dtype=torch.float32)
            next_obs = torch.tensor(o["observation"])
            next_mask = torch.tensor(o["action_mask"], dtype=torch.bool)
            returns += reward[terminations | truncations].tolist()

        with torch.no_grad():  # generalised advantage estimation
            next_value = agent.get_value(next_obs).reshape(1, -1)
            advantages = torch.zeros_like(rewards)
            lastgaelam = torch.zeros(args.num_envs)
            for t in reversed(range(args.num_steps)):
                if t == args.num_steps - 1:
                    nextnonterminal, nextvalues = 1.0 - next_done, next_value
                else:
                    nextnonterminal, nextvalues = 1.0 - dones[t + 1], values[t + 1]
                delta = rewards[t] + args.gamma * nextvalues * nextnonterminal - values[t]
                lastgaelam = (
                    delta + args.gamma * args.gae_lambda * nextnonterminal * lastgaelam
                ).flatten()
                advantages[t] = lastgaelam
            rets = advantages + values

        b_obs, b_masks = obs.reshape(-1, obs_dim), masks.reshape(-1, num_actions)
        b_actions, b_logprobs = actions.reshape(-1), logprobs.reshape(-1)
        b_advantages, b_returns = advantages.reshape(-1), rets.reshape(-1)
        b_inds = np.arange(batch_size)
        for _epoch in range(args.update_epochs):
            np.random.default_rng(args.seed + iteration).shuffle(b_inds)
            for lo in range(0, batch_size, minibatch_size):
                mb = b_inds[lo : lo + minibatch_size]
                _, newlogprob, entropy, newvalue = agent.get_action_and_value(
                    b_obs[mb], b_masks[mb], b_actions[mb]
                )
                ratio = (newlogprob - b_logprobs[mb]).exp()
                mb_adv = b_advantages[mb]
                mb_adv = (mb_adv - mb_adv.mean()) / (mb_adv.std() + 1e-8)
                pg_loss = torch.max(
                    -mb_adv * ratio,
                    -mb_adv * torch.clamp(ratio, 1 - args.clip_coef, 1 + args.clip_coef),
                ).mean()
                v_loss = 0.5 * ((newvalue.view(-1) - b_returns[mb]) ** 2).mean()
                loss = pg_loss - args.ent_coef * entropy.mean() + v_loss * args.vf_coef
                optimizer.zero_grad()
                loss.backward()
                nn.utils.clip_grad_norm_(agent.parameters(), args.max_grad_norm)
                optimizer.step()
        recent = returns[-100:]
        stats = {
            "iteration": iteration,
            "global_step": global_step,
            "episodes": len(returns),
            "mean_return": float(np.mean(recent)) if recent else float("nan"),
            "loss": float(loss.item()),
            "entropy": float(entropy.mean().item()),
            "value_loss": float(v_loss.item()),
            "sps": int(global_step / (time.time() - start)),
        }
        print(
            f"iter {iteration}/{iterations} step {global_step} episodes {len(returns)} "
            f"return(last 100) {stats['mean_return']:.3f} loss {stats['loss']:.4f} "
            f"entropy {stats['entropy']:.3f} sps {stats['sps']}"
        )
    envs.close()
    return stats


if __name__ == "__main__":
    main()
