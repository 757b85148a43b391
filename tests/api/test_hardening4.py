"""Regression tests of what issue 72 (hardening, third round) left open:
records read a game (PGN) or a line (JSON Lines) at a time from files of
any size, list readers with a documented bound, the games an interrupted
call finished kept, and an env's MCTS opponent bounded by construction."""

from __future__ import annotations

import io
import itertools
import subprocess
import sys
import tracemalloc
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import dicechess as dc
from dicechess import _core, records
from dicechess.cli import main


class Endless(io.TextIOBase):
    """A text file that never ends: ``* `` (a game) over and over, or
    ``head`` then ``fill`` forever. Counts the characters it gave."""

    def __init__(self, fill: str = "* ", head: str = "") -> None:
        self.head, self.fill, self.given = head, fill, 0

    def readable(self) -> bool:
        return True

    def read(self, n: int | None = -1) -> str:
        assert n is not None and n > 0, "an endless file cannot be read whole"
        out = (self.head + self.fill * (n // len(self.fill) + 1))[:n]
        self.head = ""
        self.given += len(out)
        return out

    def readline(self, size: int | None = -1) -> str:
        # One line: ``fill`` is one (JSON Lines).
        self.given += len(self.fill)
        return self.fill


# ------------------------------------------- records stream (items 1 and 2)


def test_pgn_files_are_read_a_chunk_at_a_time() -> None:
    # Before: read_pgn read the file whole (here: 2**28 characters, then a
    # ValueError); there was no iterator.
    f = Endless()
    first = list(itertools.islice(records.iter_pgn(f), 5))
    assert [r.variant for r in first] == ["chess"] * 5
    assert f.given <= 1 << 16, f.given  # one chunk
    f = Endless()
    (rec,) = records.read_pgn(f, start=100_000, count=1)
    assert rec.actions == [] and f.given < 2 * 100_000 + (1 << 16)
    recs = records.iter_pgn_text("1. e4 *\n1. d4 *\n1. e4 e5 2. Ke3 *\n")
    assert [r.actions for r in itertools.islice(recs, 2)] == [
        [dc.State("chess").string_to_action("e4")],
        [dc.State("chess").string_to_action("d4")],
    ]
    with pytest.raises(ValueError, match="Ke3"):
        next(recs)
    # Arguments are checked when the iterator is made, not when it starts.
    with pytest.raises(ValueError, match="start must be 0 or more"):
        records.iter_pgn(Endless(), start=-1)
    with pytest.raises(TypeError, match="a path or a text file"):
        records.iter_pgn(3)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="text file"):
        list(records.iter_pgn(io.BytesIO(b"* ")))  # type: ignore[arg-type]


def test_one_pgn_game_is_bounded() -> None:
    # An endless comment is an error at MAX_PGN_GAME_CHARS, not an endless read.
    f = Endless(fill="x", head="{")
    with pytest.raises(ValueError, match=f"longer than {records.MAX_PGN_GAME_CHARS} characters"):
        next(records.iter_pgn(f))
    assert f.given <= records.MAX_PGN_GAME_CHARS + (1 << 16)


def test_jsonl_files_are_read_a_line_at_a_time() -> None:
    line = records.to_jsonl_line(dc.State("chess")) + "\n"
    f = Endless(fill=line)
    first = list(itertools.islice(records.iter_jsonl(f), 3))
    assert len(first) == 3
    (rec,) = records.read_jsonl(Endless(fill=line), start=1000, count=1)
    assert rec.variant == "chess"
    assert len(list(records.iter_jsonl_text(line * 3, 1))) == 2


def _peak(run: Any) -> int:
    tracemalloc.start()
    try:
        run()
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def test_iterating_a_file_holds_one_game_not_the_file(tmp_path: Path) -> None:
    game = '[Event "x"]\n[White "a"]\n\n1. e4 e5 2. Nf3 Nc6 *\n\n'
    small, large = tmp_path / "small.pgn", tmp_path / "large.pgn"
    small.write_text(game * 1_000)
    large.write_text(game * 20_000)

    def consume(path: Path) -> None:
        for _ in records.iter_pgn(path):
            pass

    # The iterator's peak does not grow with the file (20 times more games);
    # the list's does (it holds them all).
    it_small, it_large = _peak(lambda: consume(small)), _peak(lambda: consume(large))
    listed = _peak(lambda: records.read_pgn(large))
    assert it_large < 1.5 * it_small + 100_000, (it_small, it_large)
    assert listed > 20 * it_large, (listed, it_large)
    assert sum(1 for _ in records.iter_file(large)) == 20_000


def test_list_readers_refuse_more_than_their_bound(monkeypatch: pytest.MonkeyPatch) -> None:
    # Before: read_pgn_text("* " * 10**6) built a million records (1.6 GB).
    monkeypatch.setattr(records, "MAX_LIST_RECORDS", 100)
    assert len(records.read_pgn_text("* " * 100)) == 100
    with pytest.raises(ValueError, match=r"more than MAX_LIST_RECORDS = 100 .*iter_pgn_text"):
        records.read_pgn_text("* " * 101)
    assert len(records.read_pgn_text("* " * 101, count=101)) == 101  # asked for
    assert len(records.read_pgn_text("* " * 300, start=200)) == 100
    line = records.to_jsonl_line(dc.State("chess")) + "\n"
    with pytest.raises(ValueError, match="iter_jsonl_text"):
        records.read_jsonl_text(line * 101)
    with pytest.raises(ValueError, match="iter_pgn"):
        records.read_pgn(Endless())
    with pytest.raises(ValueError, match="iter_jsonl"):
        records.read_jsonl(Endless(fill=line))


def test_replay_reads_no_further_than_the_game_wanted(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Game 1, then bytes that are not UTF-8 a megabyte on: before, the file
    # was read whole (up to 2**28 characters) and the bad bytes failed it.
    path = tmp_path / "big.pgn"
    path.write_bytes(b"1. e4 *\n" + b"* " * 500_000 + b"\xff\xfe *\n")
    assert main(["replay", str(path), "--game", "1"]) == 0
    assert capsys.readouterr().out.startswith("== game 1 (chess)")
    # All games: shown one at a time until the bad bytes, chunks later (one
    # line, exit 2).
    small = tmp_path / "small.pgn"
    small.write_bytes(b"1. e4 *\n1. d4 *\n" + b" " * 300_000 + b"\xff *\n")
    assert main(["replay", str(small)]) == 2
    out, err = capsys.readouterr()
    assert "== game 2 (chess)" in out
    assert err.count("\n") == 1 and "utf-8" in err


# ------------------------------------------- Ctrl-C keeps finished games (item 3)


def test_ctrl_c_keeps_the_games_the_interrupted_call_finished() -> None:
    # A callable player: the first legal action, KeyboardInterrupt at the
    # start of game 13 (index 12). Pieces are 8 games at one thread, so the
    # second piece is interrupted after 4 of its games. Before: 8 kept.
    started = {"games": 0}

    def first_legal(s: dc.State) -> int:
        if not s.history()[1:]:
            started["games"] += 1
            if started["games"] == 13:
                raise KeyboardInterrupt
        return s.legal_actions()[0]

    r = dc.playouts("chess", 100, agents=(first_legal, "random"), seed=3, threads=1)
    assert r.interrupted and len(r) == 12
    started["games"] = -(10**9)  # never again
    whole = dc.playouts("chess", 12, agents=(first_legal, "random"), seed=3, threads=1)
    for k in ("winner", "plies", "termination"):
        assert np.array_equal(getattr(r, k), getattr(whole, k)), k


@pytest.mark.parametrize("entry", ["playouts", "paired_games", "roll_luck"])
def test_the_partial_games_of_an_interrupted_rust_call_are_kept(
    entry: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The core raises Ctrl-C with the games the call finished as the
    # exception's `partial` (sim::par_map keeps the finished prefix; its
    # unit test cancels inside an item). Here the second call finishes
    # three games (pairs) of its eight and is interrupted.
    name = {"playouts": "_playouts", "paired_games": "_paired_playouts"}.get(entry, "_roll_luck")
    real = getattr(_core, name)
    calls: list[int] = []

    def second_call_interrupted(*args: Any, **kwargs: Any) -> Any:
        i = 5 if name == "_roll_luck" else 4  # the `count` argument
        if args[i]:  # not roll_luck's check of its arguments (no game)
            calls.append(1)
        if len(calls) != 2 or not args[i]:
            return real(*args, **kwargs)
        done = real(*args[:i], 3, *args[i + 1 :], **kwargs)
        e = KeyboardInterrupt()
        e.partial = done  # type: ignore[attr-defined]
        raise e

    agents = ("greedy", "random")
    run: Any = {
        "playouts": lambda n: dc.playouts("gardner", n, agents=agents, seed=1, threads=1),
        "paired_games": lambda n: dc.paired_games("gardner", agents, n, seed=1, threads=1),
        "roll_luck": lambda n: dc.roll_luck("gardner", n, agents=agents, seed=1, threads=1),
    }[entry]
    whole = run(11)
    monkeypatch.setattr(_core, name, second_call_interrupted)
    r = run(100)
    assert r.interrupted
    winners: Any = {
        "playouts": lambda x: x.winner,
        "paired_games": lambda x: x.b_first["winner"],
        "roll_luck": lambda x: x.games.winner,
    }[entry]
    # Before: the second call's three games were dropped (8 kept).
    assert len(winners(r)) == 11, len(winners(r))
    assert np.array_equal(winners(r), winners(whole))
    if entry == "roll_luck":
        assert np.array_equal(r.luck_sum, whole.luck_sum)


PARTIAL_OF_A_REAL_CTRL_C = """
import os, signal, sys, threading
import numpy as np
from dicechess import _core

name, agents = sys.argv[1], ("greedy", "random")
run = {
    "_playouts": lambda n: _core._playouts("gardner", agents, 5, 0, n, 2),
    "_random_playouts": lambda n: _core._random_playouts("chess", 5, 0, n, 2),
    "_paired_playouts": lambda n: _core._paired_playouts("gardner", agents, 5, 0, n, 2),
    "_roll_luck": lambda n: _core._roll_luck("gardner", agents, 1, 5, 0, n, 2),
}[name]
threading.Timer(0.5, lambda: os.kill(os.getpid(), signal.SIGINT)).start()
try:
    run(_core.MAX_BATCH // 2)
except KeyboardInterrupt as e:
    partial = e.partial
else:
    sys.exit("not interrupted")

def flat(d):
    if "a_first" in d:
        return {f"{h}_{k}": v for h in d for k, v in d[h].items()}
    return dict(d)

got = flat(partial)
n = len(next(iter(got.values())))
want = flat(run(n))
assert got.keys() == want.keys()
assert all(np.array_equal(got[k], want[k]) for k in want), "not the run's first games"
print(n)
"""


@pytest.mark.parametrize(
    "name", ["_playouts", "_random_playouts", "_paired_playouts", "_roll_luck"]
)
def test_a_real_ctrl_c_keeps_exactly_the_run_s_first_games(name: str) -> None:
    # A real SIGINT while the core plays on two threads: the exception's
    # `partial` holds the run's first games exactly (a prefix, each game
    # finished: equal to the same games played uninterrupted), whenever the
    # interrupt lands. Before: no `partial`.
    n = int(_python(PARTIAL_OF_A_REAL_CTRL_C, name))
    assert 0 <= n < _core.MAX_BATCH // 2


# ------------------------------------------- MCTS opponents in envs (item 4)


def _python(code: str, *args: str) -> str:
    """The output of ``code`` run in a fresh interpreter (memory limits of
    its own), which must exit normally: an abort is what these tests catch."""
    r = subprocess.run(
        [sys.executable, "-c", code, *args], capture_output=True, text=True, timeout=120
    )
    assert r.returncode == 0, r.stderr
    return r.stdout


MCTS_ENVS = """
import resource, sys
import dicechess as dc
limit = 2 << 30
resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
try:
    dc.VecEnv("chess", int(sys.argv[1]), opponent="mcts:sims=100000")
except ValueError as e:
    print("refused:", e)
else:
    print("accepted")
"""


def test_mcts_opponents_that_cannot_fit_are_refused() -> None:
    # An env's MCTS tree is capped (EPISODE_TREE_NODES), so its memory is
    # known: 1000 envs need about 2.4 GB, refused under 2 GB of address
    # space. Before: counted as 0.5 MB an env, accepted, and the trees grew
    # to 4M nodes (235 MB) each once stepped.
    out = _python(MCTS_ENVS, "1000")
    assert out.startswith("refused: 1000 envs with opponent mcts:"), out
    assert "need about" in out and "MB" in out
    assert _python(MCTS_ENVS, "16").startswith("accepted")


# ------------------------------------------- search tables in batches (item 5)

BATCH_TABLES = """
import resource, sys
import dicechess as dc
limit = 6 << 30
resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
spec = sys.argv[1]
try:
    r = dc.playouts("chess", 4, agents=(spec, spec), threads=2, max_plies=4)
except ValueError as e:
    print("refused:", e)
else:
    print("played", len(r))
"""


def test_batches_refuse_tables_they_cannot_hold_at_once() -> None:
    # Two threads, each playing a game between two 4 GB tables: 16 GB at
    # once. Before: each table was checked alone (4 GB fit under 6 GB) and
    # the process aborted allocating the second one.
    out = _python(BATCH_TABLES, "search:nodes=50,tt_mb=4096")
    assert out.startswith("refused: "), out
    assert "need 16384 MB for their transposition tables" in out
    assert "2 games at once on 2 threads" in out and "fewer threads" in out
    assert _python(BATCH_TABLES, "search:nodes=50").startswith("played 4")
