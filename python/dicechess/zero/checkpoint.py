"""Saving and loading networks: a model file (``best.pt``: the network and
what it plays) and the training state beside it (``last.pt`` plus
``buffer.npz``), written atomically (temporary file, then rename)."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from ._torch import require_torch
from .net import NetShape, ZeroNet

require_torch()

import torch  # noqa: E402

#: The model file's format tag.
MODEL_FORMAT = "dicechess-zero-model/1"


def atomic_save(obj: Any, path: Path) -> None:
    """``torch.save`` to a temporary file, then rename over ``path``."""
    tmp = path.with_name(path.name + ".tmp")
    torch.save(obj, tmp)
    os.replace(tmp, path)


def model_dict(net: ZeroNet, variant: str, options: dict[str, Any], **meta: Any) -> dict[str, Any]:
    """What a model file holds: the variant, the shape, the weights, ``meta``."""
    return {
        "format": MODEL_FORMAT,
        "variant": variant,
        "options": dict(options),
        "shape": net.shape.as_dict(),
        "state_dict": {k: v.detach().cpu().clone() for k, v in net.state_dict().items()},
        "meta": meta,
    }


def load_model(
    path: str | os.PathLike[str], device: str | None = None
) -> tuple[ZeroNet, dict[str, Any]]:
    """The network of a model file (``best.pt``, or a training ``last.pt``)
    in eval mode, and the file's dict without the weights (``variant``,
    ``options``, ``shape``, ``meta``). ValueError when the file is not one."""
    p = Path(path)
    if not p.is_file():
        raise FileNotFoundError(f"no model file at {str(p)!r}")
    try:
        d = torch.load(p, map_location="cpu", weights_only=False)
    except Exception as e:  # torch raises many kinds for a bad file
        raise ValueError(f"{str(p)!r} is not a dicechess.zero model file: {e}") from e
    if isinstance(d, dict) and "model" in d and isinstance(d["model"], dict):
        d = d["model"]  # a training checkpoint holds the model dict
    if not isinstance(d, dict) or d.get("format") != MODEL_FORMAT:
        raise ValueError(
            f"{str(p)!r} is not a dicechess.zero model file (expected format {MODEL_FORMAT!r})"
        )
    net = ZeroNet(NetShape(**d["shape"]))
    net.load_state_dict(d["state_dict"])
    net.eval()
    if device is not None:
        net.to(device)
    info = {k: v for k, v in d.items() if k != "state_dict"}
    return net, info
