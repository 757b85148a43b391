"""Observation layouts and fixed-shape infos shared by the RL wrappers.

The core's observation tensor is ``(planes, ranks, files)`` float32. The
wrappers (``dicechess.gym``, ``dicechess.vector``, ``dicechess.pettingzoo``,
``dicechess.rllib``) offer it in three layouts (``obs_layout``):

- ``"flat"``: ``(planes * ranks * files,)``, the tensor in C order. The
  single-agent and vector envs' default: every library's default MLP takes it,
  and Stable-Baselines3 does not mistake it for an image.
- ``"chw"``: ``(planes, ranks, files)``, channels first (PyTorch convolutions).
- ``"hwc"``: ``(ranks, files, planes)``, channels last.

A finished game's mask marks exactly :data:`NOOP_ACTION` legal, so that no
mask is all zero.

Infos hold only values of a fixed shape per env, so that vector envs,
Tianshou's ``Batch`` and RLlib can stack them: variable-length lists become an
int64 array of :data:`INFO_PAD` entries padded with :data:`PAD` (-1) plus a
count, strings are plain ``str`` (``""`` for "none").
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
from gymnasium import spaces

__all__ = [
    "INFO_PAD",
    "NOOP_ACTION",
    "OBS_LAYOUTS",
    "PAD",
    "check_obs_layout",
    "layout_shape",
    "observation_space",
    "padded",
    "to_layout",
]

#: Accepted values of ``obs_layout``.
OBS_LAYOUTS = ("flat", "chw", "hwc")
#: Length of the padded action-list infos (``rolls``, ``opponent_actions``).
INFO_PAD = 32
#: Padding value of the padded action-list infos.
PAD = -1
#: The one action a finished game's ``action_mask`` marks legal: no mask is
#: ever all zero (a masked policy's ``masked_fill(~mask, -inf)`` needs one
#: legal action). A vector env's next step ignores it (``NEXT_STEP``
#: autoreset); the single env's ``step`` raises after the end whatever the
#: action.
NOOP_ACTION = 0


def check_obs_layout(layout: Any) -> str:
    """Returns ``layout`` if it is one of :data:`OBS_LAYOUTS`, else raises ValueError."""
    if layout not in OBS_LAYOUTS:
        raise ValueError(f"obs_layout must be one of {', '.join(OBS_LAYOUTS)}, got {layout!r}")
    return str(layout)


def layout_shape(chw: Sequence[int], layout: str) -> tuple[int, ...]:
    """The shape of one observation of core shape ``chw`` in ``layout``."""
    c, h, w = (int(x) for x in chw)
    if layout == "flat":
        return (c * h * w,)
    if layout == "hwc":
        return (h, w, c)
    return (c, h, w)


def to_layout(tensor: np.ndarray, layout: str) -> np.ndarray:
    """``tensor`` of shape ``(..., planes, ranks, files)`` in ``layout``
    (leading batch axes kept); a contiguous float32 array."""
    if layout == "flat":
        return np.ascontiguousarray(tensor.reshape(*tensor.shape[:-3], -1), dtype=np.float32)
    if layout == "hwc":
        return np.ascontiguousarray(np.moveaxis(tensor, -3, -1), dtype=np.float32)
    return np.ascontiguousarray(tensor, dtype=np.float32)


def observation_space(chw: Sequence[int], num_actions: int, layout: str) -> spaces.Dict:
    """``Dict(observation: Box[0, 1] float32, action_mask: Box{0, 1} int8)``."""
    return spaces.Dict(
        {
            "observation": spaces.Box(0.0, 1.0, shape=layout_shape(chw, layout), dtype=np.float32),
            "action_mask": spaces.Box(0, 1, shape=(num_actions,), dtype=np.int8),
        }
    )


def padded(values: Sequence[int], n: int = INFO_PAD) -> np.ndarray:
    """The last ``n`` of ``values`` as an int64 array of length ``n``, padded
    at the end with :data:`PAD`."""
    out = np.full(n, PAD, dtype=np.int64)
    tail = list(values)[-n:]
    out[: len(tail)] = tail
    return out
