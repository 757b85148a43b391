"""Package metadata, extras and the sdist (issue 24).

The metadata tests read pyproject.toml and the sdist that ``maturin sdist``
builds (seconds: it compiles nothing) and check it with ``twine check
--strict`` (the long description renders on PyPI). The slow test builds the
package from that sdist in a clean virtualenv (cargo compiles the crate) and
runs scripts/smoke.py against it.
"""

from __future__ import annotations

import re
import sys
import tarfile
import venv
from pathlib import Path

import pytest
from test_wheel import CONSTRAINTS, ROOT, SMOKE, _run

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
PROJECT = PYPROJECT["project"]
BIN = Path(sys.executable).parent

# What each extra must install: the import names its features need.
EXTRA_NEEDS = {
    "gym": {"gymnasium", "pillow", "resvg-py"},  # envs, render_mode="rgb_array"
    "pettingzoo": {"pettingzoo", "gymnasium", "pillow", "resvg-py"},
    "openspiel": {"open-spiel"},
    "ray": {"ray"},
    # dicechess.rllib, and RLlib's own requirements (ray[rllib] without its gymnasium pin)
    "rllib": {"ray", "torch", "gymnasium", "pettingzoo", "pillow", "pyarrow", "dm-tree"},
    "sb3": {"stable-baselines3", "sb3-contrib", "gymnasium"},  # dicechess.sb3, MaskablePPO
    "plot": {"matplotlib", "pandas", "scipy"},  # `dicechess study` plots and tables
    "render": {"pillow", "resvg-py"},  # render.png, render.rgb_array
    "anchor": {"chess"},  # `dicechess study --anchor stockfish`
    # every import of notebooks/*.ipynb, and a kernel
    "notebooks": {"ipykernel", "matplotlib", "pandas", "chess", "torch", "sb3-contrib"},
    "zero": {"torch"},  # dicechess.zero, `dicechess train`
}


def _name(requirement: str) -> str:
    """The normalised distribution name of a PEP 508 requirement."""
    name = re.match(r"[A-Za-z0-9._-]+", requirement)
    assert name, requirement
    return re.sub(r"[-_.]+", "-", name.group(0)).lower()


def _extra(name: str) -> set[str]:
    return {_name(r) for r in PROJECT["optional-dependencies"][name]}


@pytest.mark.parametrize("extra", sorted(EXTRA_NEEDS))
def test_extra_installs_what_its_features_need(extra: str) -> None:
    missing = EXTRA_NEEDS[extra] - _extra(extra)
    assert not missing, f"extra {extra!r} lacks {sorted(missing)}"


def test_extra_all_is_the_union_of_the_others() -> None:
    union = set().union(
        *(_extra(e) for e in PROJECT["optional-dependencies"] if e not in ("all", "dev"))
    )
    assert _extra("all") == union


def test_optional_imports_are_covered_by_extras() -> None:
    # Every third-party module the package imports lazily is in some extra.
    import_to_dist = {
        "PIL": "pillow",
        "gymnasium": "gymnasium",
        "pettingzoo": "pettingzoo",
        "pyspiel": "open-spiel",
        "ray": "ray",
        "matplotlib": "matplotlib",
        "pandas": "pandas",
        "scipy": "scipy",
        "resvg_py": "resvg-py",
        "chess": "chess",
        "stable_baselines3": "stable-baselines3",
        "sb3_contrib": "sb3-contrib",
        "torch": "torch",
    }
    base = {_name(r) for r in PROJECT["dependencies"]}
    found = set()
    for path in (ROOT / "python" / "dicechess").rglob("*.py"):
        text = path.read_text(encoding="utf-8")
        found |= set(re.findall(r"^\s*(?:import|from)\s+([A-Za-z_]\w*)", text, re.M))
    stdlib = set(sys.stdlib_module_names) | {"dicechess", "numpy", "tqdm", "typing_extensions"}
    third_party = {m for m in found if m not in stdlib}
    unknown = third_party - set(import_to_dist)
    assert not unknown, f"imports with no extra mapped: {sorted(unknown)}"
    for module in third_party:
        assert import_to_dist[module] in _extra("all") | base, module


def test_project_urls_and_classifiers() -> None:
    urls = PROJECT["urls"]
    for key in ("Homepage", "Repository", "Documentation", "Issues"):
        assert urls[key].startswith("https://"), key
    classifiers = set(PROJECT["classifiers"])
    for needed in (
        "Operating System :: POSIX :: Linux",
        "Operating System :: MacOS",
        "Operating System :: Microsoft :: Windows",
        "Programming Language :: Rust",
        "Typing :: Typed",
    ):
        assert needed in classifiers
    assert len(PROJECT["keywords"]) >= 5
    assert PROJECT["readme"] == "README.md"


@pytest.fixture(scope="module")
def sdist(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("sdist")
    _run([BIN / "maturin", "sdist", "-o", out], cwd=ROOT)
    (built,) = out.glob("dicechess-*.tar.gz")
    return built


def test_sdist_has_what_a_build_needs_and_nothing_large(sdist: Path) -> None:
    with tarfile.open(sdist) as tar:
        members = {m.name.split("/", 1)[1]: m.size for m in tar.getmembers() if "/" in m.name}
    for needed in (
        "Cargo.toml",
        "Cargo.lock",
        "pyproject.toml",
        "README.md",
        "LICENSE-MIT",
        "LICENSE-APACHE",
        "PKG-INFO",
        "src/lib.rs",
        "python/dicechess/__init__.py",
        "python/dicechess/py.typed",
        "python/dicechess/_core.pyi",
        "scripts/smoke.py",
    ):
        assert needed in members, f"{needed} missing from {sdist.name}"
    for bad in ("target/", ".venv/", "dist/", "site/", ".git/"):
        assert not any(n.startswith(bad) for n in members), bad
    big = {n: s for n, s in members.items() if s > 256 * 1024}
    assert not big, f"large files in the sdist: {big}"
    assert sdist.stat().st_size < 2 * 2**20, sdist.stat().st_size


def test_twine_check_is_clean(sdist: Path) -> None:
    targets = [sdist, *sorted((ROOT / "dist").glob("dicechess-*.whl"))[-1:]]
    out = _run([BIN / "twine", "check", "--strict", *targets], cwd=ROOT)
    assert out.count("PASSED") == len(targets), out


@pytest.mark.slow
@pytest.mark.timeout(3600)
def test_sdist_builds_and_runs_in_a_clean_venv(sdist: Path, tmp_path: Path) -> None:
    # Rust from the machine, everything else (maturin, numpy) from the index.
    env_dir = tmp_path / "venv"
    venv.EnvBuilder(with_pip=True, clear=True).create(env_dir)
    python = env_dir / "bin" / "python"
    _run([python, "-m", "pip", "install", "--quiet", "-c", CONSTRAINTS, sdist], cwd=tmp_path)
    out = _run([python, SMOKE], cwd=tmp_path)
    print(out)
    assert out.rstrip().endswith("smoke: ok"), out
    assert str(env_dir) in out, out


def _pins(*files: str) -> dict[str, str]:
    """``name -> version`` of the pinned requirements files (normalised names)."""
    pins = {}
    for f in files:
        for line in (ROOT / f).read_text(encoding="utf-8").splitlines():
            m = re.match(r"([A-Za-z0-9._-]+)==(\S+)", line)
            if m:
                pins[_name(m[1])] = m[2]
    return pins


#: What the tests run on (requirements-dev.txt, requirements-rl.txt): an extra must not
#: pull these below it (ray[rllib] once pinned gymnasium 1.2.2, tianshou pandas < 3).
KEPT = ("gymnasium", "pandas")


def test_extra_all_is_satisfied_by_the_tested_versions() -> None:
    """Every requirement in the dependency closure of ``dicechess[all]`` that the test
    environment holds is met by the version installed there: pip can install ``[all]``
    beside gymnasium and pandas at the tested versions, with no downgrade. Offline (the
    installed packages' metadata); the slow test below asks pip's resolver itself."""
    from importlib import metadata

    from packaging.requirements import Requirement

    pins = _pins("requirements-dev.txt", "requirements-rl.txt")
    for name in KEPT:
        assert metadata.version(name) == pins[name], f"the venv's {name} is not the pinned one"
    todo = [(Requirement(r), "dicechess[all]") for r in PROJECT["optional-dependencies"]["all"]]
    seen: set[tuple[str, frozenset[str]]] = set()
    broken, checked = [], 0
    while todo:
        req, by = todo.pop()
        key = (_name(req.name), frozenset(req.extras))
        if key in seen:
            continue
        seen.add(key)
        try:
            dist = metadata.distribution(req.name)
        except metadata.PackageNotFoundError:
            assert key[0] not in KEPT
            continue  # not in the test environment (e.g. ray[default]'s dashboard deps)
        checked += 1
        if not req.specifier.contains(dist.version, prereleases=True):
            broken.append(f"{by} needs {req}, the tests use {dist.version}")
        for r in dist.requires or []:
            sub = Requirement(r)
            envs = [{"extra": e} for e in (req.extras or {""})]
            if sub.marker is None or any(sub.marker.evaluate(e) for e in envs):
                todo.append((sub, f"{dist.metadata['Name']}{sorted(req.extras) or ''}"))
    assert broken == []
    assert checked > 50  # torch, ray, SB3, ... and their dependencies were looked at


@pytest.mark.slow
@pytest.mark.timeout(1200)
def test_pip_resolves_extra_all_without_downgrading(tmp_path: Path) -> None:
    """pip's resolver, asked for ``dicechess[all]``'s requirements in a clean install
    (``--dry-run --ignore-installed``; needs the package index), keeps gymnasium and pandas
    at the tested versions or newer."""
    import json
    import subprocess

    from packaging.version import Version

    reqs = tmp_path / "all.txt"
    reqs.write_text(
        "\n".join(PROJECT["dependencies"] + PROJECT["optional-dependencies"]["all"]) + "\n",
        encoding="utf-8",
    )
    report = tmp_path / "report.json"
    proc = subprocess.run(
        [sys.executable, "-m", "pip", "install", "--dry-run", "--ignore-installed", "--quiet",
         "--report", str(report), "-r", str(reqs)],
        capture_output=True, text=True, stdin=subprocess.DEVNULL,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    chosen = {
        _name(i["metadata"]["name"]): i["metadata"]["version"]
        for i in json.loads(report.read_text(encoding="utf-8"))["install"]
    }
    pins = _pins("requirements-dev.txt", "requirements-rl.txt")
    for name in KEPT:
        assert Version(chosen[name]) >= Version(pins[name]), (name, chosen[name], pins[name])
