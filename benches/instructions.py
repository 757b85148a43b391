"""Instructions per node of the search: a speed figure that does not move
with the speed of the machine (``make bench-instructions``).

Nodes per second follow the hardware the VM lands on (the middlegames row
of ``cargo bench --bench search`` read 3.1M on 2026-12-01's machine and
1.0M-2.7M on later ones with about the same work per node), and so does
their ratio to Stockfish's own bench. Valgrind's callgrind counts the
instructions a row executes instead, whatever the machine's speed.
This script builds the bench's ``profiling`` profile, runs
each row under callgrind with counting switched on only inside the timed
searches (``--toggle-collect`` on the bench's ``measure``), and prints
instructions per node searched. The count repeats to a few tens of instructions and is
nearly the same across x86-64 machines: only code chosen by the CPU's
features differs (the evaluation's popcnt path, glibc's ``memcpy``)::

    .venv/bin/python benches/instructions.py                  # middlegames
    .venv/bin/python benches/instructions.py --only middlegames,dice_chess3

About 15 s per row on top of the build. Needs valgrind (Debian:
``apt-get install valgrind``); without it the script says so and exits 0.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

_COLLECTED = re.compile(r"Collected\s*:\s*(\d+)")
_NODES = re.compile(r"^nodes searched: (\S+) (\d+)$", re.MULTILINE)


def collected(valgrind_stderr: str) -> int:
    """The instruction count callgrind reports at exit."""
    m = _COLLECTED.search(valgrind_stderr)
    if m is None:
        raise ValueError("no 'Collected :' line in callgrind's output")
    return int(m.group(1))


def nodes_searched(bench_stderr: str) -> dict[str, int]:
    """The nodes each row searched, as the bench prints them on stderr."""
    return {row: int(n) for row, n in _NODES.findall(bench_stderr)}


def bench_binary() -> Path:
    """Builds the search bench (``profiling`` profile) and returns its path."""
    out = subprocess.run(
        ["cargo", "bench", "--locked", "--profile", "profiling", "--bench", "search"]
        + ["--no-run", "--message-format=json"],
        cwd=ROOT,
        check=True,
        stdout=subprocess.PIPE,
        text=True,
    ).stdout
    for line in out.splitlines():
        msg = json.loads(line)
        if msg.get("reason") == "compiler-artifact" and msg.get("executable"):
            if msg["target"]["name"] == "search":
                return Path(msg["executable"])
    raise RuntimeError("cargo did not report the search bench's executable")


def count(binary: Path, row: str, params: str | None) -> tuple[int, int]:
    """(instructions, nodes) of one row under callgrind."""
    with tempfile.TemporaryDirectory() as tmp:
        cmd = ["valgrind", "--tool=callgrind", f"--callgrind-out-file={tmp}/cg.out"]
        cmd += ["--toggle-collect=search::measure*", str(binary), "--only", row]
        if params:
            cmd += ["--params", params]
        env = dict(os.environ, STOCKFISH="none")
        r = subprocess.run(cmd, env=env, capture_output=True, text=True, check=True)
    nodes = nodes_searched(r.stderr)
    if row not in nodes:
        raise RuntimeError(f"the bench printed no node count for {row!r}: {r.stderr[-500:]}")
    return collected(r.stderr), nodes[row]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--only", default="middlegames", help="rows, comma-separated")
    ap.add_argument("--params", help="engine options for every row, k=v,k=v")
    a = ap.parse_args(argv)
    if shutil.which("valgrind") is None:
        print("valgrind is not installed (Debian: apt-get install valgrind): no instruction counts")
        return 0
    binary = bench_binary()
    print("| row | nodes | instructions | instructions per node |")
    print("|---|---:|---:|---:|")
    for row in a.only.split(","):
        instructions, nodes = count(binary, row, a.params)
        print(f"| {row} | {nodes} | {instructions} | {instructions / nodes:.0f} |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
