"""The abi3 wheel installs into a fresh virtualenv and imports there.

`make test` builds the wheel once (`make wheel`, into ``dist/``) before running
pytest; this test then reuses the newest ``dist/dicechess-*-abi3-*.whl``. Run on
its own with no wheel in ``dist/``, it builds one as `make wheel` does
(``maturin build --release --zig --compatibility manylinux2014``).

The wheel is installed with pip into a brand-new virtualenv in a temporary
directory with its ``gym`` extra (its dependencies come from the package index,
constrained to the versions pinned in requirements-dev.txt so pip's cache is
hit), and imported from a working directory outside the source tree, so the
test sees exactly what a user who runs ``pip install dicechess-….whl`` sees.
There it runs ``scripts/smoke.py`` (playouts, a VecEnv episode, an agent move).
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import venv
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DIST = ROOT / "dist"
CONSTRAINTS = ROOT / "requirements-dev.txt"
SMOKE = ROOT / "scripts" / "smoke.py"
POLICY = ROOT / "scripts" / "check_wheel_policy.py"

pytestmark = [pytest.mark.wheel, pytest.mark.timeout(1800)]


def _cargo_version() -> str:
    text = (ROOT / "Cargo.toml").read_text(encoding="utf-8")
    package = re.search(r"^\[package\]\s*$(.*?)(?=^\[|\Z)", text, re.M | re.S)
    assert package, "no [package] table in Cargo.toml"
    version = re.search(r'^version\s*=\s*"([^"]+)"', package.group(1), re.M)
    assert version, "no version in Cargo.toml's [package] table"
    return version.group(1)


def _clean_env() -> dict[str, str]:
    env = dict(os.environ)
    for var in ("PYTHONPATH", "PYTHONHOME", "VIRTUAL_ENV", "PYTHONSTARTUP", "PYTHONUSERBASE"):
        env.pop(var, None)
    env["PIP_DISABLE_PIP_VERSION_CHECK"] = "1"
    env["PYTHONNOUSERSITE"] = "1"
    return env


def _run(cmd: list[str], cwd: Path) -> str:
    proc = subprocess.run(
        [str(c) for c in cmd],
        cwd=cwd,
        env=_clean_env(),
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    assert proc.returncode == 0, f"{' '.join(map(str, cmd))} failed:\n{proc.stdout}"
    return proc.stdout


def _wheels() -> list[Path]:
    # The glibc wheel (`make wheel`); `make wheel-musl` leaves a musllinux one beside it.
    wheels = DIST.glob("dicechess-*-abi3-manylinux*.whl")
    return sorted(wheels, key=lambda p: p.stat().st_mtime)


@pytest.fixture(scope="module")
def wheel() -> Path:
    if not _wheels():
        build = [sys.executable, "-m", "maturin", "build", "--release", "-o", DIST]
        _run([*build, "--zig", "--compatibility", "manylinux2014"], cwd=ROOT)
    wheels = _wheels()
    assert wheels, f"no abi3 wheel in {DIST} after building"
    return wheels[-1]


@pytest.fixture(scope="module")
def fresh_venv(wheel: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    tmp = tmp_path_factory.mktemp("wheel-venv")
    env_dir = tmp / "venv"
    venv.EnvBuilder(with_pip=True, clear=True).create(env_dir)
    python = env_dir / "bin" / "python"
    _run(
        # The gym extra too, so the smoke script plays a Gymnasium episode.
        [python, "-m", "pip", "install", "--quiet", "-c", CONSTRAINTS, f"{wheel}[gym]"],
        cwd=tmp,
    )
    return env_dir


def test_wheel_is_abi3_and_complete(wheel: Path) -> None:
    # dicechess-<version>-cp39-abi3-<platform>.whl
    name, version, python_tag, abi_tag, _platform = wheel.stem.split("-")
    assert name == "dicechess"
    assert python_tag == "cp39", wheel.name
    assert abi_tag == "abi3", wheel.name
    assert version == _cargo_version(), (
        f"{wheel.name} is stale: Cargo.toml says {_cargo_version()}; run `make wheel`"
    )
    with zipfile.ZipFile(wheel) as zf:
        names = set(zf.namelist())
    for required in (
        "dicechess/__init__.py",
        "dicechess/cli.py",
        "dicechess/py.typed",
        "dicechess/_core.pyi",
    ):
        assert required in names, f"{required} missing from {wheel.name}"
    assert any(re.fullmatch(r"dicechess/_core\.abi3\.(so|pyd)", n) for n in names), sorted(names)
    assert any(n.endswith(".dist-info/entry_points.txt") for n in names)
    assert any(n.endswith("LICENSE-MIT") for n in names), sorted(names)
    assert any(n.endswith("LICENSE-APACHE") for n in names), sorted(names)


def test_wheel_imports_in_fresh_venv(fresh_venv: Path) -> None:
    python = fresh_venv / "bin" / "python"
    out = _run(
        [
            python,
            "-c",
            "import dicechess, numpy; "
            "print(dicechess.__version__); print(dicechess.__file__); print(numpy.__version__)",
        ],
        cwd=fresh_venv.parent,
    )
    version, location, numpy_version = out.split()
    print(f"dicechess {version} from the wheel (numpy {numpy_version})")
    assert version == _cargo_version()
    assert Path(location).resolve().is_relative_to(fresh_venv.resolve()), location


def test_wheel_console_script(fresh_venv: Path) -> None:
    out = _run([fresh_venv / "bin" / "dicechess", "--version"], cwd=fresh_venv.parent)
    assert out.strip() == f"dicechess {_cargo_version()}"


def test_wheel_runs_for_glibc_2_17(wheel: Path) -> None:
    out = _run([sys.executable, POLICY, wheel], cwd=ROOT)
    print(out)
    assert re.search(r"manylinux_2_(1[0-7]|[0-9])_x86_64", wheel.name), wheel.name


def test_wheel_extension_is_lean(wheel: Path) -> None:
    with zipfile.ZipFile(wheel) as zf:
        ext = [
            i for i in zf.infolist() if re.fullmatch(r"dicechess/_core\.abi3\.(so|pyd)", i.filename)
        ]
    assert len(ext) == 1, [i.filename for i in ext]
    size_mb = ext[0].file_size / 2**20
    print(f"{ext[0].filename}: {size_mb:.2f} MiB")
    # Stripped, it is 3.9 MiB (2026-12-08: the luck dial's wrapper is one more copy
    # of the generic game loops and searches, dicechess.zero's search one more per
    # variant); debug info would add far more.
    assert size_mb < 5, f"the extension is {size_mb:.1f} MiB: debug info not stripped?"


def test_readme_sizes_are_the_wheels(wheel: Path) -> None:
    """The README's extension and wheel sizes are the built wheel's (within 15%)."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    said = re.search(r"the extension is ([\d.]+) MB.*?the wheel ([\d.]+) MB", text, re.S)
    assert said, "the README no longer states the extension's and the wheel's sizes"
    with zipfile.ZipFile(wheel) as zf:
        ext = next(i for i in zf.infolist() if re.search(r"_core\.abi3\.(so|pyd)$", i.filename))
    for what, stated, actual in (
        ("extension", float(said.group(1)), ext.file_size / 1e6),
        ("wheel", float(said.group(2)), wheel.stat().st_size / 1e6),
    ):
        assert abs(stated - actual) <= 0.15 * actual, (
            f"README says the {what} is {stated} MB; it is {actual:.2f} MB"
        )


def test_smoke_script_on_installed_wheel(fresh_venv: Path) -> None:
    out = _run([fresh_venv / "bin" / "python", SMOKE], cwd=fresh_venv.parent)
    print(out)
    assert out.rstrip().endswith("smoke: ok"), out
    assert str(fresh_venv.resolve()) in out or str(fresh_venv) in out, out
