"""examples/cleanrl_masked_ppo.py: CleanRL's PPO over gymnasium.make_vec with
`masked_fill(~mask, -inf)` and no special case for finished envs. Imports
torch outright (requirements-rl.txt), as test_rl_libraries.py does."""

from __future__ import annotations

import math
from collections.abc import Callable
from types import ModuleType

import pytest
import torch  # noqa: F401  (an ImportError without requirements-rl.txt, never a skip)


def run(load_script: Callable[..., ModuleType], steps: int) -> dict:
    example = load_script("cleanrl_masked_ppo", "examples")
    return example.main(
        ["--total-timesteps", str(steps), "--num-envs", "16", "--num-steps", "64", "--seed", "3"]
    )


def test_short_run_has_finite_losses(load_script: Callable[..., ModuleType]) -> None:
    # Any NaN (an all -inf row of logits) would make the losses NaN; an
    # illegal action would raise in the env.
    stats = run(load_script, 2048)
    assert stats["global_step"] == 2048 and stats["episodes"] > 0
    assert all(math.isfinite(stats[k]) for k in ("loss", "entropy", "value_loss"))


@pytest.mark.slow
def test_ten_thousand_steps(load_script: Callable[..., ModuleType]) -> None:
    stats = run(load_script, 10_240)
    assert stats["global_step"] == 10_240
    assert all(math.isfinite(stats[k]) for k in ("loss", "entropy", "value_loss"))
