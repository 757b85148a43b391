"""The Ray backend (kept under its old name): see :mod:`dicechess.runner.on_ray`."""

from .runner.on_ray import (
    FAULT_DIR_ENV,
    INSTALL_HINT,
    MAX_RETRIES,
    WINDOW_PER_CPU,
    connect,
    run_shards,
)

__all__ = [
    "FAULT_DIR_ENV",
    "INSTALL_HINT",
    "MAX_RETRIES",
    "WINDOW_PER_CPU",
    "connect",
    "run_shards",
]
