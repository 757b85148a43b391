"""Shared fixtures of the Python tests."""

import importlib.util
from pathlib import Path
from types import ModuleType
from typing import Callable

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="session")
def load_script() -> Callable[..., ModuleType]:
    """Imports ``<folder>/<name>.py`` (``scripts/`` unless told) as a module:
    the scripts and benches are not packages."""

    def load(name: str, folder: str = "scripts") -> ModuleType:
        spec = importlib.util.spec_from_file_location(name, ROOT / folder / f"{name}.py")
        assert spec is not None and spec.loader is not None
        mod = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(mod)
        return mod

    return load
