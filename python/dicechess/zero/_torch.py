"""The one place torch is imported, with a message naming the extra."""

from __future__ import annotations

from types import ModuleType

EXTRA_HINT = "pip install 'dicechess[zero]' (or pip install torch)"


def require_torch() -> ModuleType:
    """``torch``, or ImportError naming the extra that installs it."""
    try:
        import torch
    except ImportError as e:  # pragma: no cover - exercised by a subprocess test
        raise ImportError(
            f"dicechess.zero needs PyTorch, which is not installed: {EXTRA_HINT}"
        ) from e
    return torch
