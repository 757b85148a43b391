"""The ``dicechess`` command-line interface.

Subcommands (``study``, ``play``, ``bench``, ``perft``) are registered in
:func:`build_parser`; for now only ``dicechess --version`` is available.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence

from . import __version__


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="dicechess",
        description="Exact, fast dice-chess variants: studies, play, benchmarks.",
    )
    parser.add_argument("--version", action="version", version=f"dicechess {__version__}")
    parser.add_subparsers(dest="command", metavar="COMMAND")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command is None:
        parser.print_help()
        return 2
    parser.error(f"unknown command {args.command!r}")
    return 2  # unreachable: parser.error exits


if __name__ == "__main__":
    raise SystemExit(main())
