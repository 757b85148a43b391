"""Smoke test of an installed dicechess: run it against a wheel or an sdist
install, from a directory outside the source tree.

    python scripts/smoke.py

Exercises the compiled core end to end with only the base dependencies
(numpy, tqdm): playouts of every variant, a VecEnv episode and an agent's
move. With gymnasium installed (``dicechess[gym]``) it also plays one
Gymnasium episode and renders an ``rgb_array`` frame. Exits non-zero (an
AssertionError) on any failure and prints one line per check.
"""

from __future__ import annotations

import importlib.util
import sys

import numpy as np

import dicechess as dc


def check_playouts() -> None:
    for variant in dc.variants():
        r = dc.playouts(variant, 8, seed=1, max_plies=80)
        again = dc.playouts(variant, 8, seed=1, max_plies=80)
        assert r.summary() == again.summary(), f"{variant}: playouts not reproducible"
        assert sum(r.summary()["terminations"].values()) == 8, r.summary()
    print(f"playouts: {len(dc.variants())} variants, reproducible")


def check_vecenv_episode() -> None:
    env = dc.VecEnv("vegas", 4, seed=3, opponent="random", threads=1)
    obs, mask, rewards, terminated, truncated, _player = env.reset()
    assert obs.shape == (4, *env.observation_shape) and mask.shape == (4, env.num_actions)
    rng = np.random.default_rng(0)
    for _ in range(400):
        # An env whose game ended on the last step marks only the no-op
        # (action 0), which the next step ignores (autoreset).
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in mask])
        obs, mask, rewards, terminated, truncated, _player = env.step(actions)
        if bool(terminated[0] or truncated[0]):
            break
    else:
        raise AssertionError("VecEnv episode did not end in 400 steps")
    assert float(rewards[0]) in (-1.0, 0.0, 1.0), rewards
    print(f"vecenv: episode ended, reward {float(rewards[0])}")


def check_agent_move() -> None:
    agent = dc.Agent("expectimax:depth=2", seed=1)
    s = dc.State("chess", fen="6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1")
    move = s.action_to_string(agent.select(s))
    assert move == "Ra8#", move
    s.apply_san(move)
    assert s.is_terminal()
    print(f"agent: expectimax finds {move}")


def check_gym_episode() -> None:
    if importlib.util.find_spec("gymnasium") is None:
        print("gym: gymnasium not installed, skipped")
        return
    import gymnasium

    import dicechess.gym  # noqa: F401  (registers the env ids)

    env = gymnasium.make(
        "dicechess/Fluky-v0", opponent="greedy", max_plies=60, render_mode="rgb_array"
    )
    obs, _info = env.reset(seed=0)
    frame = env.render()  # Pillow draws it (the gym extra installs Pillow)
    assert frame.ndim == 3 and frame.shape[2] == 3, frame.shape
    done, steps, reward = False, 0, 0.0
    while not done:
        legal = np.flatnonzero(obs["action_mask"])
        obs, reward, terminated, truncated, _info = env.step(int(legal[0]))
        done, steps = terminated or truncated, steps + 1
    print(f"gym: Fluky episode of {steps} steps, reward {reward}")


def main() -> int:
    print(f"dicechess {dc.__version__} from {dc.__file__}")
    check_playouts()
    check_vecenv_episode()
    check_agent_move()
    check_gym_episode()
    print("smoke: ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
