"""The `_core.pyi` stubs match the compiled module; public functions have docstrings."""

import inspect
import subprocess
import sys
from pathlib import Path

import pytest

import dicechess as dc
from dicechess import _core

ALLOWLIST = Path(__file__).parents[1] / "data" / "stubtest_allowlist.txt"


def test_stubtest():
    pytest.importorskip("mypy")
    cmd = [sys.executable, "-m", "mypy.stubtest", "dicechess._core"]
    if ALLOWLIST.exists():
        cmd += ["--allowlist", str(ALLOWLIST)]
    r = subprocess.run(cmd, capture_output=True, text=True, timeout=3000)
    assert r.returncode == 0, r.stdout + r.stderr


def public_callables():
    for name in dir(_core):
        if name.startswith("_"):
            continue
        obj = getattr(_core, name)
        if callable(obj) and not inspect.isclass(obj):
            yield name, obj
    for name in dir(_core.State):
        if name.startswith("_"):
            continue
        yield f"State.{name}", getattr(_core.State, name)


@pytest.mark.parametrize("name,obj", list(public_callables()))
def test_docstrings(name, obj):
    assert (obj.__doc__ or "").strip(), f"{name} has no docstring"


def test_module_functions_exported():
    assert dc.observation_planes("vegas") == dc.State("vegas").observation_planes()
    for v in dc.variants():
        assert dc.num_actions(v) == dc.State(v).num_actions()
        assert len(dc.observation_planes(v)) == dc.State(v).observation_tensor().shape[0]
