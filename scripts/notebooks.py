"""Runs the notebooks in notebooks/ top to bottom and checks or updates their stored outputs.

The notebooks are committed WITH their outputs, so that GitHub and the docs site show the boards
and plots. ``make notebooks`` (this script without ``--update``) executes each notebook in a
kernel and fails when a cell raises or when the stored notebook is not what the run makes: the
code cells' sources, and for each code cell the kinds of output it shows (a printed stream, an
image/png, a text/html table, ...), must match. Numbers and timings are not compared (dice,
thread timing and progress text vary between runs). ``make notebooks-update`` (``--update``)
writes the fresh outputs back into the files, with the stamp that
tests/project/test_notebooks.py checks without a kernel.

    python scripts/notebooks.py [--update] [NOTEBOOK ...]
"""

from __future__ import annotations

import argparse
import copy
import hashlib
import sys
import time
from pathlib import Path
from typing import Any

import nbformat
from nbclient import NotebookClient

ROOT = Path(__file__).resolve().parents[1]
#: Metadata key of the stamp: the hash of the code cells' sources the outputs were made from.
STAMP = "dicechess_sources_sha256"
#: A cell's streams on stderr are left out of the comparison (warnings, progress bars).
IGNORED_STREAMS = {"stderr"}
#: Seconds a cell may run (the MaskablePPO notebook trains for about a minute).
CELL_TIMEOUT = 1800


def sources_hash(nb: Any) -> str:
    """sha256 of the code cells' sources, in order (what the stored outputs came from)."""
    h = hashlib.sha256()
    for cell in nb.cells:
        if cell.cell_type == "code":
            h.update(cell.source.encode("utf-8"))
            h.update(b"\0")
    return h.hexdigest()


def output_kinds(cell: Any) -> list[str]:
    """What a code cell shows, without the values: ``stream:stdout``,
    ``display_data:image/png``, ``execute_result:text/html``, ``error:ValueError``.
    Consecutive streams of one name count once (their splitting varies)."""
    kinds: list[str] = []
    for out in cell.get("outputs", []):
        kind = out["output_type"]
        if kind == "stream":
            if out["name"] in IGNORED_STREAMS:
                continue
            k = f"stream:{out['name']}"
        elif kind == "error":
            k = f"error:{out['ename']}"
        else:
            k = f"{kind}:{','.join(sorted(out.get('data', {})))}"
        if not kinds or kinds[-1] != k or not k.startswith("stream:"):
            kinds.append(k)
    return kinds


def clean(nb: Any) -> None:
    """Drops what changes on every run or bloats the file: widget state, cell timing and
    ids of outputs; stamps the sources hash."""
    nb.metadata.pop("widgets", None)
    nb.metadata[STAMP] = sources_hash(nb)
    for cell in nb.cells:
        cell.metadata.pop("execution", None)
        cell.metadata.pop("widgets", None)
        for out in cell.get("outputs", []):
            out.get("metadata", {}).pop("transient", None)
            out.pop("transient", None)


def execute(path: Path) -> Any:
    nb = nbformat.read(path, as_version=4)
    run = copy.deepcopy(nb)
    for cell in run.cells:
        if cell.cell_type == "code":
            cell.outputs = []
            cell.execution_count = None
    client = NotebookClient(
        run,
        timeout=CELL_TIMEOUT,
        kernel_name=run.metadata["kernelspec"]["name"],
        resources={"metadata": {"path": str(path.parent)}},
        record_timing=False,
    )
    client.execute()
    clean(run)
    return run


def compare(stored: Any, fresh: Any) -> list[str]:
    """Where the stored notebook differs from a fresh run (empty: it is current)."""
    problems = []
    code_s = [c for c in stored.cells if c.cell_type == "code"]
    code_f = [c for c in fresh.cells if c.cell_type == "code"]
    if [c.source for c in code_s] != [c.source for c in code_f]:
        problems.append("code cells differ")
    for n, (s, f) in enumerate(zip(code_s, code_f), start=1):
        ks, kf = output_kinds(s), output_kinds(f)
        if ks != kf:
            problems.append(f"code cell {n}: stored outputs {ks}, a fresh run shows {kf}")
    if stored.metadata.get(STAMP) != sources_hash(stored):
        problems.append("the stamp does not match the code cells (run make notebooks-update)")
    return problems


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--update", action="store_true", help="write the fresh outputs back")
    ap.add_argument("notebooks", nargs="*", type=Path)
    args = ap.parse_args(argv)
    paths = args.notebooks or sorted((ROOT / "notebooks").glob("*.ipynb"))
    failed = []
    for path in paths:
        t0 = time.perf_counter()
        stored = nbformat.read(path, as_version=4)
        try:
            fresh = execute(path)
        except Exception as e:  # a cell raised or timed out: nbclient says which
            print(f"FAIL {path.name}: {type(e).__name__}: {e}", file=sys.stderr)
            failed.append(path.name)
            continue
        took = time.perf_counter() - t0
        if args.update:
            nbformat.validate(fresh)
            nbformat.write(fresh, path)
            size = path.stat().st_size / 1024
            print(f"updated {path.name} ({took:.0f} s, {size:.0f} KiB)")
            continue
        problems = compare(stored, fresh)
        for p in problems:
            print(f"FAIL {path.name}: {p}", file=sys.stderr)
        if problems:
            failed.append(path.name)
        else:
            print(f"ok {path.name} ({took:.0f} s): stored outputs current")
    if failed:
        print(
            f"{len(failed)} of {len(paths)} notebooks failed: {', '.join(failed)}"
            + ("" if args.update else " (make notebooks-update rewrites the stored outputs)"),
            file=sys.stderr,
        )
        return 1
    print(f"{len(paths)} notebooks {'updated' if args.update else 'ran, outputs current'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
