"""Game records: PGN-compatible text and JSON Lines, read and written by the
Rust core (``src/record/``), which replays every action to check it.

A :class:`Record` holds what replays a game exactly: the variant, its
complete options, every action (decisions and chance outcomes), free tags
(Event, White, ...) and the seed when known.

>>> import dicechess as dc
>>> s = dc.State("chess")
>>> s.apply_san("e4")
>>> text = to_pgn(s, White="me")
>>> [r.state() == s for r in read_pgn_text(text)]
[True]
"""

from __future__ import annotations

import io
import itertools
import json
import os
import warnings
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any, Union

from . import _core
from ._core import State

__all__ = [
    "Record",
    "iter_file",
    "iter_jsonl",
    "iter_jsonl_text",
    "iter_pgn",
    "iter_pgn_text",
    "read_file",
    "read_jsonl",
    "read_jsonl_text",
    "read_pgn",
    "read_pgn_text",
    "record",
    "save_arena",
    "save_pairs",
    "save_playouts",
    "to_jsonl_line",
    "to_pgn",
    "write_jsonl",
    "write_pgn",
]

PathOrFile = Union[str, "os.PathLike[str]", IO[str]]


@dataclass
class Record:
    """One game: enough to replay it exactly."""

    variant: str
    options: dict[str, Any]
    actions: list[int]
    tags: dict[str, str] = field(default_factory=dict)
    seed: int | None = None

    def start(self) -> State:
        """The state before the first action."""
        return State(self.variant, **self.options)

    def states(self) -> Iterator[State]:
        """The start state, then the state after each action (copies)."""
        s = self.start()
        yield s.copy()
        for a in self.actions:
            s.apply_action(a)
            yield s.copy()

    def state(self) -> State:
        """The state after every action."""
        s = self.start()
        for a in self.actions:
            s.apply_action(a)
        return s

    def _args(self) -> tuple[str, str, list[int], list[tuple[str, str]], int | None]:
        return (
            self.variant,
            json.dumps(self.options),
            list(self.actions),
            list(self.tags.items()),
            self.seed,
        )


def _from_tuple(t: tuple[str, str, list[int], list[tuple[str, str]], int | None]) -> Record:
    variant, options, actions, tags, seed = t
    return Record(variant, json.loads(options), list(actions), dict(tags), seed)


def record(game: State | Record, seed: int | None = None, **tags: str) -> Record:
    """The record of a state (its options and history) or a copy of a record
    with more tags."""
    if isinstance(game, Record):
        return Record(
            game.variant,
            dict(game.options),
            list(game.actions),
            {**game.tags, **tags},
            game.seed if seed is None else seed,
        )
    if not isinstance(game, State):
        raise TypeError(f"expected a State or a Record, got {type(game).__name__}")
    return Record(game.variant, game.options, game.history(), dict(tags), seed)


def to_pgn(game: State | Record, seed: int | None = None, **tags: str) -> str:
    """PGN text of a game: the seven standard tags (``tags`` fill Event,
    White, ...), ``Variant``, ``SetUp``/``FEN`` when not from the start
    position, ``VariantOptions`` (JSON), ``Termination``; rolls as
    ``{roll NAME}`` comments, passes as ``--``."""
    return str(_core._pgn_write(*record(game, seed, **tags)._args()))


#: The longest JSON line, and the most characters of one PGN game (its
#: tags, moves, comments and the space before it): beyond them a
#: ValueError, never an unbounded read (a size bomb, /dev/zero). Files are
#: read a line (JSON Lines) or a chunk (PGN) at a time, whatever their size.
MAX_LINE_CHARS = 1 << 26
MAX_PGN_GAME_CHARS: int = _core.MAX_PGN_GAME_CHARS

#: The most records the list readers (``read_pgn``, ``read_jsonl``,
#: ``read_file`` and their ``_text`` forms) return when no ``count`` is
#: given: a list holds every record at once (about 0.6 kB each even for an
#: empty game), so beyond this a ValueError says how to read the file in
#: parts. The ``iter_*`` readers hold one record at a time and have no such
#: bound; an explicit ``count`` is taken as given.
MAX_LIST_RECORDS = 100_000


def iter_pgn(source: PathOrFile, start: int = 0, count: int | None = None) -> Iterator[Record]:
    """Games ``start ..`` (at most ``count``; all by default) of a PGN file,
    a path or a text file, one at a time: the file is read a chunk at a
    time, the games before ``start`` are only tokenised, and reading stops
    after the last game wanted, so memory does not grow with the file (a
    game longer than ``MAX_PGN_GAME_CHARS`` is an error). Each game is
    replayed and checked; ValueError (with line and column) where the text
    is not such a record. The arguments are checked at once, the file is
    opened when iteration starts."""
    _check_range(start, count)
    _check_source(source, "iter_pgn")
    return _pgn_records(source, start, count, "iter_pgn")


def _pgn_records(
    source: PathOrFile, start: int, count: int | None, reader: str
) -> Iterator[Record]:
    with _text_file(source, reader, f"{reader}_text") as f:
        for t in _core._PgnReader(f, start, count):
            yield _from_tuple(t)


def iter_pgn_text(text: str, start: int = 0, count: int | None = None) -> Iterator[Record]:
    """Games ``start ..`` (at most ``count``) of a PGN text, one at a time
    (as :func:`iter_pgn`)."""
    if not isinstance(text, str):
        raise TypeError(f"iter_pgn_text expects the PGN text as str, got {type(text).__name__}")
    _check_range(start, count)
    return (_from_tuple(t) for t in _core._PgnReader(text, start, count))


def read_pgn(source: PathOrFile, start: int = 0, count: int | None = None) -> list[Record]:
    """Games ``start ..`` (at most ``count``; all by default, up to
    ``MAX_LIST_RECORDS``) of a PGN file, a path or a text file (as
    ``read_jsonl`` and the writers take), each replayed and checked: the
    list of :func:`iter_pgn`. ValueError (with line and column) for text
    that is not such a record.

    PGN text itself goes to :func:`read_pgn_text`; for compatibility a
    ``str`` that neither ends in ``.pgn`` nor names a file is read as text."""
    if isinstance(source, str) and not (source.lower().endswith(".pgn") or os.path.isfile(source)):
        return read_pgn_text(source, start, count)
    _check_range(start, count)
    _check_source(source, "read_pgn")
    return _listed(_pgn_records(source, start, count, "read_pgn"), count, "iter_pgn")


def read_pgn_text(text: str, start: int = 0, count: int | None = None) -> list[Record]:
    """Games ``start ..`` (at most ``count``; all by default, up to
    ``MAX_LIST_RECORDS``) of a PGN text, each replayed and checked.
    ValueError (with line and column) for text that is not such a record."""
    if not isinstance(text, str):
        raise TypeError(f"read_pgn_text expects the PGN text as str, got {type(text).__name__}")
    return _listed(iter_pgn_text(text, start, count), count, "iter_pgn_text")


def _listed(records: Iterator[Record], count: int | None, iterator: str) -> list[Record]:
    """The records as a list; without ``count``, ValueError beyond
    ``MAX_LIST_RECORDS`` (saying how to read on) instead of a list that
    could take all memory."""
    if count is not None:
        return list(records)
    limit = MAX_LIST_RECORDS
    out = list(itertools.islice(records, limit + 1))
    if len(out) > limit:
        raise ValueError(
            f"more than MAX_LIST_RECORDS = {limit} records: a list holds them all at once. "
            f"Read them one at a time with records.{iterator}(...), or in parts with "
            f"start= and count= (e.g. start=0, count={limit})"
        )
    return out


def _check_range(start: Any, count: Any) -> None:
    for name, v in (("start", start), ("count", count)):
        if v is None and name == "count":
            continue
        if isinstance(v, bool) or not isinstance(v, int):
            raise TypeError(f"{name} must be an int, got {type(v).__name__}")
        if v < 0:
            raise ValueError(f"{name} must be 0 or more, got {v}")


def _check_source(source: Any, reader: str) -> None:
    """TypeError unless ``source`` is a path or a file (checked before a
    generator starts)."""
    if not isinstance(source, (str, os.PathLike)) and not callable(getattr(source, "read", None)):
        raise TypeError(f"{reader} expects a path or a text file, got {type(source).__name__}")


@contextmanager
def _text_file(source: Any, reader: str, text_reader: str) -> Iterator[IO[str]]:
    """A path opened, or a file as given; TypeError for anything else, and
    FileNotFoundError saying where text goes for a path that is no file."""
    if isinstance(source, (str, os.PathLike)):
        try:
            f = open(source, encoding="utf-8")
        except FileNotFoundError as e:
            raise FileNotFoundError(
                e.errno, f"no such file (for text, call {text_reader})", os.fspath(source)
            ) from None
        with f:
            yield f
    elif callable(getattr(source, "read", None)):
        yield source
    else:
        raise TypeError(f"{reader} expects a path or a text file, got {type(source).__name__}")


def write_pgn(games: Iterable[State | Record], file: PathOrFile) -> int:
    """Writes games as PGN to a path or text file; returns how many."""
    return _write((to_pgn(g) for g in games), file)


def to_jsonl_line(game: State | Record, seed: int | None = None, **tags: str) -> str:
    """One JSON line (no newline): variant, options, seed, actions, result,
    termination, tags."""
    return str(_core._jsonl_write(*record(game, seed, **tags)._args()))


def write_jsonl(games: Iterable[State | Record], file: PathOrFile) -> int:
    """Writes one JSON line per game to a path or text file; returns how many."""
    return _write((to_jsonl_line(g) + "\n" for g in games), file)


def iter_jsonl(source: PathOrFile, start: int = 0, count: int | None = None) -> Iterator[Record]:
    """Games ``start ..`` (at most ``count``; all by default) of a JSON Lines
    file (path or text file), one at a time, each replayed and checked,
    read line by line (a line longer than ``MAX_LINE_CHARS`` is an error,
    not read on). ValueError (with line and column) for a bad line. The
    arguments are checked at once, the file is opened when iteration
    starts."""
    _check_range(start, count)
    _check_source(source, "iter_jsonl")
    return _jsonl_file(source, start, count, "iter_jsonl")


def _jsonl_file(source: PathOrFile, start: int, count: int | None, reader: str) -> Iterator[Record]:
    with _text_file(source, reader, f"{reader}_text") as f:
        yield from _jsonl_lines(iter(lambda: f.readline(MAX_LINE_CHARS + 1), ""), start, count)


def iter_jsonl_text(text: str, start: int = 0, count: int | None = None) -> Iterator[Record]:
    """Games ``start ..`` (at most ``count``) of a JSON Lines text, one at a time."""
    if not isinstance(text, str):
        raise TypeError(f"iter_jsonl_text expects the text as str, got {type(text).__name__}")
    _check_range(start, count)
    return _jsonl_lines(io.StringIO(text, newline="\n"), start, count)


def read_jsonl(source: PathOrFile, start: int = 0, count: int | None = None) -> list[Record]:
    """Games ``start ..`` (at most ``count``; all by default, up to
    ``MAX_LIST_RECORDS``) of a JSON Lines file (path or text file): the
    list of :func:`iter_jsonl`. ValueError (with line and column) for a bad
    line."""
    _check_range(start, count)
    _check_source(source, "read_jsonl")
    return _listed(_jsonl_file(source, start, count, "read_jsonl"), count, "iter_jsonl")


def read_jsonl_text(text: str, start: int = 0, count: int | None = None) -> list[Record]:
    """Games ``start ..`` (at most ``count``; all by default, up to
    ``MAX_LIST_RECORDS``) of a JSON Lines text."""
    if not isinstance(text, str):
        raise TypeError(f"read_jsonl_text expects the text as str, got {type(text).__name__}")
    return _listed(iter_jsonl_text(text, start, count), count, "iter_jsonl_text")


def _jsonl_lines(lines: Iterable[Any], start: int, count: int | None) -> Iterator[Record]:
    """The records of lines ``start ..`` (blank lines skipped, and only
    counted for the line numbers of errors)."""
    if count == 0:
        return
    k = given = 0
    for number, line in enumerate(lines, 1):
        if not isinstance(line, str):
            raise TypeError(
                f"read_jsonl needs a text file (open it with 'r'), got {type(line).__name__}"
            )
        if len(line) > MAX_LINE_CHARS:
            raise ValueError(
                f"line {number}, column 1: longer than {MAX_LINE_CHARS} characters "
                "(a record is one line)"
            )
        body = line.rstrip("\r\n")
        if not body.strip():
            continue
        if k >= start:
            yield _from_tuple(_core._jsonl_read_line(body, number))
            given += 1
            if count is not None and given >= count:
                return
        k += 1


def _file_kind(path: PathOrFile) -> tuple[str, PathOrFile]:
    """``"jsonl"`` for a ``.jsonl`` (or ``.ndjson``) name, else ``"pgn"``;
    a ``str`` is a path, never text."""
    name = os.fspath(path) if isinstance(path, (str, os.PathLike)) else getattr(path, "name", "")
    if str(name).endswith((".jsonl", ".ndjson")):
        return "jsonl", path
    return "pgn", Path(path) if isinstance(path, str) else path


def iter_file(path: PathOrFile, start: int = 0, count: int | None = None) -> Iterator[Record]:
    """Records ``start ..`` (at most ``count``) from a ``.jsonl`` (or
    ``.ndjson``) file, else PGN, one at a time: a path or a text file (a
    file's ``name`` says which)."""
    kind, path = _file_kind(path)
    return (iter_jsonl if kind == "jsonl" else iter_pgn)(path, start, count)


def read_file(path: PathOrFile, start: int = 0, count: int | None = None) -> list[Record]:
    """Records ``start ..`` (at most ``count``; all by default, up to
    ``MAX_LIST_RECORDS``) from a ``.jsonl`` (or ``.ndjson``) file, else
    PGN: a path or a text file (a file's ``name`` says which); the list of
    :func:`iter_file`."""
    kind, path = _file_kind(path)
    read = read_jsonl if kind == "jsonl" else read_pgn
    try:
        return read(path, start, count)
    except ValueError as e:
        # The bound's message names the iterator that reads such files.
        if "MAX_LIST_RECORDS" not in str(e):
            raise
        raise ValueError(str(e).replace(f"records.iter_{kind}(", "records.iter_file(")) from None


def _write(chunks: Iterable[str], file: PathOrFile) -> int:
    """Writes ``chunks`` to a text file, or to a path: there through a
    temporary file renamed when whole, so an error or Ctrl-C midway keeps
    the previous file and never leaves half a new one."""
    n = 0
    if isinstance(file, (str, os.PathLike)):
        path = os.fspath(file)
        head, name = os.path.split(path)
        tmp = os.path.join(head, f".{name}.partial")
        try:
            with open(tmp, "w", encoding="utf-8") as f:
                for c in chunks:
                    f.write(c)
                    n += 1
            os.replace(tmp, path)
        finally:
            if os.path.exists(tmp):
                os.unlink(tmp)
    else:
        for c in chunks:
            file.write(c)
            n += 1
    return n


def save_or_interrupt(result: Any, path: PathOrFile, save: Callable[[], int]) -> None:
    """Runs ``save()`` for a run's ``result``. Ctrl-C while it writes keeps
    the finished results (``result.interrupted`` set, with a warning) and
    the previous file (see :func:`_write`), instead of raising."""
    try:
        save()
    except KeyboardInterrupt:
        result.interrupted = True
        where = os.fspath(path) if isinstance(path, (str, os.PathLike)) else "the file"
        warnings.warn(
            f"interrupted while saving the games: {where!r} was not written "
            "(any previous file there is kept)",
            RuntimeWarning,
            stacklevel=3,
        )


def check_save_path(path: Any) -> None:
    """Checks a ``save=`` path before a run (so a long run does not fail at
    its end): a ``str`` or ``os.PathLike`` naming a file, not a directory,
    in a directory that exists. TypeError or ValueError saying which."""
    if not isinstance(path, (str, os.PathLike)):
        raise TypeError(f"save must be a file path (str or os.PathLike), got {type(path).__name__}")
    p = os.fspath(path)
    if not p:
        raise ValueError("save must be a file path, got an empty string")
    if os.path.isdir(p):
        raise ValueError(f"save={p!r} is a directory; give a file path (.jsonl or .pgn)")
    parent = os.path.dirname(os.path.abspath(p))
    if not os.path.isdir(parent):
        raise ValueError(f"save={p!r}: the directory {parent!r} does not exist")
    if not os.access(parent, os.W_OK):
        raise ValueError(f"save={p!r}: the directory {parent!r} is not writable")


def write_records(games: Iterable[Record], path: PathOrFile) -> int:
    """Writes games as PGN to a path ending in ``.pgn``, else as JSON Lines;
    returns how many."""
    if isinstance(path, (str, os.PathLike)) and os.fspath(path).lower().endswith(".pgn"):
        return write_pgn(games, path)
    return write_jsonl(games, path)


def _batches(start: int, count: int, size: int = 4096) -> Iterator[tuple[int, int]]:
    for lo in range(0, count, size):
        yield start + lo, min(size, count - lo)


def save_playouts(
    path: PathOrFile,
    result: Any,
    specs: tuple[Any, Any],
    threads: int | None,
    variant_options: dict[str, Any],
) -> int:
    """Writes the records of a ``playouts`` run (its games replayed in Rust
    with their actions recorded) as JSON Lines (PGN for a ``.pgn`` path);
    returns how many."""
    n = len(result.winner)
    actions = _core._recorded_playouts(
        result.variant, specs, result.seed, 0, n, threads, **variant_options
    )
    p0, p1 = result.agents
    games = (
        Record(
            result.variant,
            result.options,
            acts,
            {"Player0": p0, "Player1": p1, "Game": str(i)},
            result.seed,
        )  # fmt: skip
        for i, acts in enumerate(actions)
    )
    return write_records(games, path)


def save_arena(
    path: PathOrFile,
    result: Any,
    specs: list[Any],
    blocks: list[tuple[int, int, int, int, int]],
    threads: int | None,
    variant_options: dict[str, Any],
) -> int:
    """Writes the games of an ``arena`` run, in its row order, each tagged
    ``Player0``/``Player1`` (agent names), ``Game`` (the row) and ``Pair``
    (the round robin's pair index). ``blocks``: ``(pair, agent of player 0,
    agent of player 1, first game index, count)`` in row order; only the
    ``result.games`` rows played are written (an interrupted run)."""

    def games() -> Iterator[Record]:
        row = 0
        for pair, a, b, start, count in blocks:
            count = min(count, result.games - row)
            for lo, size in _batches(start, count):
                actions = _core._recorded_playouts(
                    result.variant, (specs[a], specs[b]), result.seed, lo, size, threads,
                    **variant_options,
                )  # fmt: skip
                for acts in actions:
                    tags = {
                        "Player0": result.agents[a],
                        "Player1": result.agents[b],
                        "Game": str(row),
                        "Pair": str(pair),
                    }
                    yield Record(result.variant, result.options, acts, tags, result.seed)
                    row += 1

    return write_records(games(), path)


def save_pairs(
    path: PathOrFile,
    result: Any,
    specs: tuple[str, str],
    threads: int | None,
    variant_options: dict[str, Any],
) -> int:
    """Writes the games of a ``paired_games`` run, pair by pair (the game
    with A as player 0 first), each tagged ``Pair`` (its index),
    ``Player0Agent`` (``"A"`` or ``"B"``), ``Player0``/``Player1`` (agent
    names) and ``AgentA``/``AgentB``."""
    a, b = result.agents

    def games() -> Iterator[Record]:
        for lo, size in _batches(0, len(result)):
            pairs = _core._recorded_pairs(
                result.variant, specs, result.seed, lo, size, threads,
                opening_plies=result.opening_plies, **variant_options,
            )  # fmt: skip
            for k, pair in enumerate(pairs, start=lo):
                for first, acts in zip("AB", pair):
                    p0, p1 = (a, b) if first == "A" else (b, a)
                    tags = {
                        "Pair": str(k),
                        "Player0Agent": first,
                        "Player0": p0,
                        "Player1": p1,
                        "AgentA": a,
                        "AgentB": b,
                    }
                    yield Record(result.variant, result.options, acts, tags, result.seed)

    return write_records(games(), path)
