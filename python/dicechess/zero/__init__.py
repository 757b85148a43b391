"""Learned agents: AlphaZero-style self-play with exact chance nodes.

The search is in Rust (``dicechess._core._zero_play`` / ``_zero_search``:
PUCT or Gumbel at the root, chance nodes expanded with their exact
probabilities, many games at once with one network call per batch, the
GIL released while it searches); the network and the training loop are
here, on PyTorch (``pip install 'dicechess[zero]'``; CPU by default, CUDA
when present).

>>> from dicechess import zero                                  # doctest: +SKIP
>>> run = zero.train("gardner", "runs/gardner", minutes=60)     # doctest: +SKIP
>>> agent = zero.ZeroAgent("runs/gardner/best.pt", sims=200)    # doctest: +SKIP
>>> dicechess.arena("gardner", [agent, "greedy"], n_games=20)   # doctest: +SKIP

The same from the command line: ``dicechess train gardner --minutes 60
--out runs/gardner``; a trained network is the agent spec
``"zero:model=runs/gardner/best.pt,sims=200"`` wherever agents are named.
"""

from __future__ import annotations

from ._torch import EXTRA_HINT, require_torch

require_torch()

from .checkpoint import load_model  # noqa: E402
from .net import Evaluator, NetShape, ZeroNet, default_device  # noqa: E402
from .play import (  # noqa: E402
    LadderPlace,
    LuckPairs,
    MatchResult,
    ZeroAgent,
    ladder,
    luck_pairs,
    match,
    plot_learning_curve,
)
from .train import (  # noqa: E402
    ReplayBuffer,
    TrainConfig,
    Trainer,
    TrainResult,
    ladder_crossing,
    train,
)

__all__ = [
    "EXTRA_HINT",
    "Evaluator",
    "LadderPlace",
    "LuckPairs",
    "MatchResult",
    "NetShape",
    "ReplayBuffer",
    "TrainConfig",
    "TrainResult",
    "Trainer",
    "ZeroAgent",
    "ZeroNet",
    "default_device",
    "ladder",
    "ladder_crossing",
    "luck_pairs",
    "load_model",
    "match",
    "plot_learning_curve",
    "train",
]
