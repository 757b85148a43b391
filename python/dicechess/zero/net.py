"""The network: a small residual tower over the observation tensor with a
policy head over the variant's action layout and a value head in [-1, 1]
(AlphaZero's architecture, scaled down)."""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

import numpy as np

from .. import _core
from ._torch import require_torch

require_torch()

import torch  # noqa: E402
import torch.nn.functional as F  # noqa: E402
from torch import nn  # noqa: E402


@dataclass(frozen=True)
class NetShape:
    """What a network is built from: the variant's tensor and action sizes
    and the tower's size."""

    planes: int
    ranks: int
    files: int
    actions: int
    blocks: int = 6
    channels: int = 64

    @classmethod
    def for_variant(
        cls, variant: str, blocks: int = 6, channels: int = 64, **options: Any
    ) -> NetShape:
        planes = len(_core.observation_planes(variant, **options))
        _, ranks, files = _core.State(variant, **options).observation_tensor(0).shape
        return cls(planes, ranks, files, _core.num_actions(variant, **options), blocks, channels)

    def as_dict(self) -> dict[str, int]:
        return asdict(self)


class _Block(nn.Module):
    def __init__(self, ch: int) -> None:
        super().__init__()
        self.c1 = nn.Conv2d(ch, ch, 3, padding=1, bias=False)
        self.b1 = nn.BatchNorm2d(ch)
        self.c2 = nn.Conv2d(ch, ch, 3, padding=1, bias=False)
        self.b2 = nn.BatchNorm2d(ch)

    def forward(self, x: Any) -> Any:
        y = F.relu(self.b1(self.c1(x)))
        y = self.b2(self.c2(y))
        return F.relu(x + y)


class ZeroNet(nn.Module):
    """``forward(obs[B, C, H, W]) -> (logits[B, A], value[B])``."""

    def __init__(self, shape: NetShape) -> None:
        super().__init__()
        self.shape = shape
        ch, sq = shape.channels, shape.ranks * shape.files
        self.stem = nn.Sequential(
            nn.Conv2d(shape.planes, ch, 3, padding=1, bias=False),
            nn.BatchNorm2d(ch),
            nn.ReLU(),
        )
        self.tower = nn.Sequential(*[_Block(ch) for _ in range(shape.blocks)])
        self.policy_conv = nn.Sequential(
            nn.Conv2d(ch, 4, 1, bias=False), nn.BatchNorm2d(4), nn.ReLU()
        )
        self.policy_fc = nn.Linear(4 * sq, shape.actions)
        self.value_conv = nn.Sequential(
            nn.Conv2d(ch, 2, 1, bias=False), nn.BatchNorm2d(2), nn.ReLU()
        )
        self.value_fc = nn.Sequential(nn.Linear(2 * sq, 64), nn.ReLU(), nn.Linear(64, 1))

    def forward(self, obs: Any) -> tuple[Any, Any]:
        x = self.tower(self.stem(obs))
        logits = self.policy_fc(self.policy_conv(x).flatten(1))
        value = torch.tanh(self.value_fc(self.value_conv(x).flatten(1))).squeeze(1)
        return logits, value


def default_device() -> str:
    """CUDA when present, else the CPU."""
    return "cuda" if torch.cuda.is_available() else "cpu"


class Evaluator:
    """The network as the search's ``evaluate(obs, mask) -> (logits, value)``
    (eval mode, no gradients, float32 numpy in and out). ``forward_seconds``
    adds up the time spent in the forward pass alone."""

    def __init__(self, net: ZeroNet, device: str | None = None) -> None:
        self.net = net
        self.device = device or next(net.parameters()).device.type
        self.forward_seconds = 0.0
        self.calls = 0

    def __call__(self, obs: np.ndarray, mask: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        import time

        was_training = self.net.training
        self.net.eval()
        with torch.inference_mode():
            x = torch.from_numpy(obs).to(self.device)
            t = time.perf_counter()
            logits, value = self.net(x)
            if self.device != "cpu":
                torch.cuda.synchronize()
            self.forward_seconds += time.perf_counter() - t
        if was_training:
            self.net.train()
        self.calls += 1
        return (
            logits.float().cpu().numpy(),
            value.float().cpu().numpy(),
        )
