"""Checks that Linux wheels install on old systems: `auditwheel show` must
place each one at glibc 2.17 (manylinux2014) or older, or on musllinux, and
the file name must carry that tag. auditwheel cannot analyse a musllinux
wheel on a glibc host, so for those maturin's own musllinux check (it refuses
to tag a non-compliant wheel) stands, and this script checks the extension
needs nothing but musl's libc (musl's loader serves ``libc.so`` itself).

    python scripts/check_wheel_policy.py dist/dicechess-*.whl

Used by `make wheel` and tests/project/test_wheel.py. Exits 1 with the reason on failure.
"""

from __future__ import annotations

import io
import re
import subprocess
import sys
import zipfile
from pathlib import Path

from elftools.elf.dynamic import DynamicSection
from elftools.elf.elffile import ELFFile

MAX_GLIBC_MINOR = 17  # manylinux2014 == manylinux_2_17


def wheel_policy(wheel: Path) -> str:
    """The most compatible platform tag auditwheel reports for ``wheel``."""
    proc = subprocess.run(
        [sys.executable, "-m", "auditwheel", "show", str(wheel)],
        capture_output=True,
        text=True,
    )
    if proc.returncode != 0:
        raise SystemExit(f"auditwheel show {wheel.name} failed:\n{proc.stdout}{proc.stderr}")
    text = " ".join(proc.stdout.split())
    found = re.search(r'consistent with the following platform tag: "([^"]+)"', text)
    if not found:
        raise SystemExit(f"no platform tag in auditwheel's report:\n{proc.stdout}")
    return found.group(1)


def musl_needed(wheel: Path) -> set[str]:
    """The shared libraries the wheel's extension modules ask the loader for."""
    needed: set[str] = set()
    with zipfile.ZipFile(wheel) as zf:
        for name in zf.namelist():
            if name.endswith(".so"):
                elf = ELFFile(io.BytesIO(zf.read(name)))
                for section in elf.iter_sections():
                    if isinstance(section, DynamicSection):
                        needed |= {
                            t.needed for t in section.iter_tags() if t.entry.d_tag == "DT_NEEDED"
                        }
    return needed


def check(wheel: Path) -> str:
    """Returns the policy, or raises SystemExit saying why it is too new."""
    if "musllinux_" in wheel.name:
        needed = musl_needed(wheel)
        extra = {n for n in needed if n != "libc.so" and not n.startswith("libc.musl-")}
        if extra:
            raise SystemExit(f"{wheel.name} needs libraries beyond musl libc: {sorted(extra)}")
        return (
            re.search(r"musllinux_\d+_\d+_\w+", wheel.name).group(0) + f" (needs {sorted(needed)})"
        )
    policy = wheel_policy(wheel)
    glibc = re.fullmatch(r"manylinux_2_(\d+)_\w+", policy)
    if glibc:
        if int(glibc.group(1)) > MAX_GLIBC_MINOR:
            raise SystemExit(f"{wheel.name} needs glibc 2.{glibc.group(1)} (> 2.17): {policy}")
    elif not policy.startswith("musllinux_"):
        raise SystemExit(f"{wheel.name}: unexpected platform policy {policy}")
    if policy not in wheel.name:
        raise SystemExit(f"{wheel.name} is not tagged {policy}")
    return policy


def main(argv: list[str]) -> int:
    if not argv:
        raise SystemExit("usage: check_wheel_policy.py WHEEL...")
    for name in argv:
        print(f"{Path(name).name}: {check(Path(name))}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
