"""Smoke tests of the package installed in the dev venv by `make develop`."""

from __future__ import annotations

import subprocess
import sys

import pytest

import dicechess
from dicechess import cli


def test_version_is_a_string() -> None:
    assert isinstance(dicechess.__version__, str)
    assert dicechess.__version__.count(".") >= 2


def test_cli_version(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        cli.main(["--version"])
    assert exc.value.code == 0
    assert capsys.readouterr().out.strip() == f"dicechess {dicechess.__version__}"


def test_python_dash_m() -> None:
    out = subprocess.run(
        [sys.executable, "-m", "dicechess", "--version"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    assert out.strip() == f"dicechess {dicechess.__version__}"
