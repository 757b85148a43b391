"""Regression tests of issue 72 (hardening, third round): what a determined
attacker still broke. One section per defect, numbered as in the issue."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

import dicechess as dc
from dicechess import records
from dicechess._core import Episode
from dicechess.cli import main

# ------------------------------------------- 1. non-ASCII move text


@pytest.mark.parametrize("variant", dc.variants())
@pytest.mark.parametrize("text", ["€1", "🂡", "é2-e4", "e2€e4", "c3\u0301d4", "一1二2"])
def test_non_ascii_move_text_is_a_value_error(variant: str, text: str) -> None:
    s = dc.State(variant)
    if s.is_chance_node():
        s.apply_action(s.chance_outcomes()[0][0])
    before = s.fen()
    with pytest.raises(ValueError):
        s.string_to_action(text)
    with pytest.raises(ValueError):
        s.apply_san(text)
    assert s.fen() == before


def test_non_ascii_moves_in_a_record_are_a_line_and_column(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text = '[Variant "cubic_checkers"]\n\n1. 🂡 *\n'
    with pytest.raises(ValueError, match="line 3, column 4"):
        records.read_pgn(text)
    p = tmp_path / "g.pgn"
    p.write_text(text, encoding="utf-8")
    assert main(["replay", str(p)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("dicechess: ") and err.count("\n") == 1


# ------------------------------------------- 8. integers out of range


HUGE = (2**64, 2**70, -(2**70))


def test_out_of_range_integers_are_value_errors_naming_the_range() -> None:
    s = dc.State("chess")
    for bad in (-1, *HUGE):
        with pytest.raises(ValueError, match=r"depth must be from 0 to 2\*\*32-1, got"):
            dc.perft("chess", bad)
        with pytest.raises(ValueError, match=r"player must be 0 or 1, got"):
            s.observation_tensor(player=bad)
        with pytest.raises(ValueError, match=r"depth must be from 1 to 8 \(or None"):
            dc.Agent("expectimax:depth=1").value(s, depth=bad)
        with pytest.raises(IndexError, match=r"env index must be an int from 0 to 1, got"):
            dc.VecEnv("chess", 2).history(bad)
        ep = Episode("chess")
        with pytest.raises(ValueError, match=r"player must be 0 or 1"):
            ep.observation(bad)
        with pytest.raises(ValueError, match=r"index must be from 0 to 2\*\*64-1"):
            ep.reset(0, bad)
    for bad in HUGE:
        with pytest.raises(ValueError, match=r"start must be from 0 to 2\*\*64-1"):
            dc._core._random_playouts("chess", 0, bad, 1)
        with pytest.raises(
            ValueError, match=r"threads must be at least 1 and at most 1024 \(or None"
        ):
            dc._core._random_playouts("chess", 0, 0, 1, threads=bad)
        with pytest.raises(ValueError, match=r"opening_plies must be from 0"):
            dc._core._paired_playouts("chess", ("random", "random"), 0, 0, 1, None, bad)
        with pytest.raises(ValueError, match=r"action must be a non-negative integer id below 2"):
            records.to_pgn(records.Record("chess", {}, [bad]))
    with pytest.raises(TypeError, match="depth must be an int"):
        dc.perft("chess", 1.0)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="player must be an int"):
        s.observation_tensor(player=True)


@pytest.mark.parametrize("illegal_action", ["lose", "raise"])
@pytest.mark.parametrize("bad", [-1, 10**9, 2**64, -(2**70)])
def test_actions_outside_the_space_raise_even_when_illegal_ones_lose(
    illegal_action: str, bad: int
) -> None:
    import gymnasium

    from dicechess.pettingzoo import raw_env

    env = gymnasium.make("dicechess/Chess-v0", illegal_action=illegal_action)
    env.reset(seed=0)
    n = env.unwrapped.num_actions  # type: ignore[attr-defined]
    with pytest.raises(ValueError, match=rf"action must be from 0 to {n - 1}"):
        env.step(bad)
    # Nothing happened: the env goes on with a legal move.
    legal = int(env.unwrapped.action_masks().argmax())  # type: ignore[attr-defined]
    _obs, _r, term, _t, info = env.step(legal)
    assert info["illegal_action"] == -1 and not term
    pz = raw_env("chess", illegal_action=illegal_action)
    pz.reset(seed=0)
    with pytest.raises(ValueError, match="action must be from 0"):
        pz.step(bad)
    assert not any(pz.terminations.values())
    ep = Episode("chess", illegal_action=illegal_action)
    ep.reset(0)
    with pytest.raises(ValueError, match="action must be from 0"):
        ep.step(bad)
    assert not ep.over


# ------------------------------------------- 5. threads that cannot start

NO_THREADS = """
import resource
import dicechess as dc

want = dc.playouts("fluky", 200, threads=1).winner.tolist()
vm = next(int(x.split()[1]) for x in open("/proc/self/status") if x.startswith("VmSize:"))
# Less address space left than one thread's stack: no thread can start.
limit = (vm + 1024) * 1024
resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
for threads in (256, None, 2, None):
    print(dc.playouts("fluky", 200, threads=threads).winner.tolist() == want, flush=True)
"""


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="needs Linux /proc")
def test_batches_run_on_the_calling_thread_when_no_thread_can_start() -> None:
    # Before: PanicException "The global thread pool has not been
    # initialized", then GlobalPoolAlreadyInitialized on every later call.
    r = subprocess.run(
        [sys.executable, "-c", NO_THREADS], capture_output=True, text=True, timeout=300
    )
    assert r.returncode == 0, r.stderr
    assert r.stdout.split() == ["True"] * 4, (r.stdout, r.stderr)


# ------------------------------------------- 6. CLI errors: one line, exit 2


def _one_line_exit_2(argv: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.startswith("dicechess: ") and err.count("\n") == 1, err
    return err


def test_replay_into_a_file_or_an_unwritable_directory(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    games = tmp_path / "g.jsonl"
    records.write_jsonl([dc.State("chess")], games)
    afile = tmp_path / "afile"
    afile.write_text("x")
    assert "not a directory" in _one_line_exit_2(
        ["replay", str(games), "--svg", str(afile)], capsys
    )
    assert afile.read_text() == "x"
    _one_line_exit_2(["replay", str(games), "--svg", "/proc/nope"], capsys)
    _one_line_exit_2(["replay", str(tmp_path / "missing.pgn")], capsys)


LIMITED = """
import resource, sys
from dicechess.cli import main
limit = 1 << 30
resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
sys.exit(main(sys.argv[1:]))
"""


@pytest.mark.skipif(not Path("/dev/zero").exists(), reason="needs /dev/zero")
@pytest.mark.parametrize(
    "argv",
    [["replay", "/dev/zero"], ["analyse", "chess", "--agent", "search:tt_mb=4096", "--ms", "10"]],
)
def test_cli_under_a_memory_limit_is_one_line_and_exit_2(argv: list[str]) -> None:
    # Before: MemoryError's traceback; an abort (rc 134) for the table.
    r = subprocess.run(
        [sys.executable, "-c", LIMITED, *argv], capture_output=True, text=True, timeout=300
    )
    assert r.returncode == 2, r.stderr
    assert r.stderr.startswith("dicechess: ") and r.stderr.count("\n") == 1, r.stderr


# ------------------------------------------- 11. no lenient reading


def test_records_cut_short_or_misspelt_are_errors_with_line_and_column() -> None:
    with pytest.raises(ValueError, match="line 2, column 11: the text ends inside a game"):
        records.read_pgn_text('[Event "?"]\n[Site "?"]')
    line = records.to_jsonl_line(dc.State("chess", max_plies=200))
    assert records.read_jsonl_text(line)[0].options["max_plies"] == 200
    with pytest.raises(ValueError, match=r'line 1, column \d+: unknown field "optoins"'):
        records.read_jsonl_text(line.replace('"options"', '"optoins"'))


# ------------------------------------------- 12. a path or a file alike


def test_readers_and_writers_take_a_path_or_a_file(tmp_path: Path) -> None:
    import io

    s = dc.State("chess")
    s.apply_san("e4")
    for ext, write, read in [
        ("pgn", records.write_pgn, records.read_pgn),
        ("jsonl", records.write_jsonl, records.read_jsonl),
    ]:
        path = tmp_path / f"games.{ext}"
        assert write([s], path) == 1
        for source in (path, str(path)):
            assert [r.state() for r in read(source)] == [s]
            assert [r.state() for r in records.read_file(source)] == [s]
        with open(path, encoding="utf-8") as f:
            assert [r.state() for r in read(f)] == [s]
        buf = io.StringIO()
        write([s], buf)
        assert [r.state() for r in read(io.StringIO(buf.getvalue()))] == [s]
    assert [r.state() for r in records.read_pgn_text(records.to_pgn(s))] == [s]
    with pytest.raises(FileNotFoundError, match="read_pgn_text"):
        records.read_pgn(str(tmp_path / "nope.pgn"))
    with pytest.raises(TypeError, match="a path or a text file"):
        records.read_pgn(3)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="text file"):
        records.read_pgn(io.BytesIO(b"1. e4 *"))  # type: ignore[arg-type]


# ------------------------------------------- 10. the study's files


@pytest.mark.parametrize(
    "saved",
    [
        3,
        [],
        {"version": 3, "config": {}, "raw": 3},
        {"version": 3, "config": {}, "raw": {"families": {"search": {"rungs": []}}}},
        {"version": 3, "config": {}, "raw": {"families": {}, "playouts": 3}},
    ],
)
def test_a_raw_file_of_the_wrong_shape_names_the_file_and_the_fix(
    tmp_path: Path, saved: object
) -> None:
    import json

    from dicechess.study import StudyConfig
    from dicechess.study.run import load_raw

    p = tmp_path / "raw" / "chess.json"
    p.parent.mkdir()
    p.write_text(json.dumps(saved))
    # Before: AttributeError ('int' object has no attribute 'items'), or a
    # KeyError deep in the measures.
    with pytest.raises(ValueError, match=r"chess\.json is not a raw games file.*--fresh"):
        load_raw(tmp_path, "chess", StudyConfig())


def test_report_files_are_whole_or_absent_and_a_rerun_finishes_them(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import json

    from dicechess import cli
    from dicechess.study import report
    from dicechess.study.run import Study

    old = tmp_path / "report.md"
    old.write_text("the old report")

    def killed(tmp: Path) -> None:
        tmp.write_text("half a rep")
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        report.write_atomic(old, killed)
    assert old.read_text() == "the old report"
    assert [p.name for p in tmp_path.iterdir()] == ["report.md"]

    # Killed after results.json: a rerun may finish the report without --force.
    def stop(study: Study, out: Path) -> list[Path]:
        raise KeyboardInterrupt

    monkeypatch.setattr(report, "_write_csv", stop)
    old.unlink()
    with pytest.raises(KeyboardInterrupt):
        report.write_report(Study({"interrupted": False}, {}), tmp_path)
    assert json.loads((tmp_path / "results.json").read_text()) == {"interrupted": False}
    assert not report.report_complete(tmp_path)
    assert cli._resumable(tmp_path)
    for name in report.OUTPUTS:
        (tmp_path / name).write_text("x")
    assert report.report_complete(tmp_path) and not cli._resumable(tmp_path)


# ------------------------------------------- 4. Ctrl-C while save= writes


@pytest.mark.parametrize("entry", ["playouts", "arena", "paired_games"])
@pytest.mark.parametrize("ext", ["jsonl", "pgn"])
def test_ctrl_c_while_saving_keeps_the_old_file_and_returns_the_games(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, entry: str, ext: str
) -> None:
    def run(path: Path) -> object:
        if entry == "playouts":
            return dc.playouts("fluky", 40, save=path)
        if entry == "arena":
            return dc.arena("fluky", ["random", "greedy"], 40, save=path)
        return dc.paired_games("fluky", ("random", "greedy"), 20, save=path)

    path = tmp_path / f"games.{ext}"
    path.write_text("the old games\n")
    write = records.to_pgn if ext == "pgn" else records.to_jsonl_line
    calls = 0

    def interrupted_at_the_tenth(*args: object, **kwargs: object) -> str:
        # Ctrl-C arrives while the records are written (deterministically).
        nonlocal calls
        calls += 1
        if calls == 10:
            raise KeyboardInterrupt
        return write(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(records, write.__name__, interrupted_at_the_tenth)
    # Before: KeyboardInterrupt out of the call, the old file gone and the
    # new one partial with nothing marking it.
    with pytest.warns(RuntimeWarning, match="was not written"):
        r = run(path)
    assert r.interrupted  # type: ignore[attr-defined]
    assert path.read_text() == "the old games\n"
    assert [p.name for p in tmp_path.iterdir()] == [path.name]
    monkeypatch.undo()
    whole = run(path)
    assert not whole.interrupted  # type: ignore[attr-defined]
    # Every game was kept by the interrupted call, and the file is whole.
    games = (
        (lambda x: len(x.a_first["winner"]))
        if entry == "paired_games"
        else (lambda x: len(x.winner))
    )
    assert games(r) == games(whole) > 0
    assert len(records.read_file(path)) == 40


# ------------------------------------------- 7. record size bombs


def test_a_range_of_games_reads_only_up_to_the_last_one_wanted() -> None:
    bomb = "* " * 3_000_000
    # Before: every game replayed and kept (1.58 GB for a million).
    (rec,) = records.read_pgn_text(bomb, start=5, count=1)
    assert rec.actions == [] and rec.variant == "chess"
    assert records.read_pgn_text(bomb, count=0) == []
    s = dc.State("chess")
    s.apply_san("e4")
    text = records.to_pgn(dc.State("chess")) + records.to_pgn(s) + "1. e4 e5 2. Ke3 *\n"
    # Games after the last one wanted are never read (the third is illegal).
    assert [r.state() for r in records.read_pgn_text(text, 1, 1)] == [s]
    with pytest.raises(ValueError, match="Ke3"):
        records.read_pgn_text(text)
    lines = records.to_jsonl_line(dc.State("chess")) + "\n\n" + records.to_jsonl_line(s) + "\n{"
    assert [r.state() for r in records.read_jsonl_text(lines, 1, 1)] == [s]
    with pytest.raises(ValueError, match="line 4"):
        records.read_jsonl_text(lines)
    with pytest.raises(ValueError, match="start must be 0 or more"):
        records.read_pgn_text(text, -1)


def test_an_endless_line_is_an_error_not_an_endless_read(monkeypatch: pytest.MonkeyPatch) -> None:
    import io

    monkeypatch.setattr(records, "MAX_LINE_CHARS", 1000)
    with pytest.raises(ValueError, match="line 1, column 1: longer than 1000 characters"):
        records.read_jsonl(io.StringIO("\0" * 10**6))
    # A PGN file is no longer read whole: one game is bounded instead
    # (MAX_PGN_GAME_CHARS, tests/api/test_hardening4.py).


BOMB = """
import resource, sys
from dicechess.cli import main
limit = 1 << 30
resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
sys.exit(main(["replay", sys.argv[1], "--game", "2"]))
"""


def test_replay_of_one_game_of_a_size_bomb_under_a_memory_limit(tmp_path: Path) -> None:
    bomb = tmp_path / "bomb.pgn"
    bomb.write_text("* " * 3_000_000)
    # Before: 63 s and 3.77 GB (here: out of memory, exit 2).
    r = subprocess.run(
        [sys.executable, "-c", BOMB, str(bomb)], capture_output=True, text=True, timeout=300
    )
    assert r.returncode == 0, r.stderr
    assert r.stdout.startswith("== game 2 (chess)"), r.stdout


# ------------------------------------------- 3. Ctrl-C inside agent searches

CTRL_C_IN_SEARCHES = """
import os, signal, sys, threading, time
import dicechess as dc
from dicechess import _core

entry, call = sys.argv[1], "_paired_playouts" if sys.argv[1] == "paired_games" else "_playouts"
real, calls, sent = getattr(_core, call), [], []

def ctrl_c():
    sent.append(time.perf_counter())
    os.kill(os.getpid(), signal.SIGINT)

def third_call_interrupted(*args, **kwargs):
    # Ctrl-C once two calls (pieces of a shard) have finished, while the
    # third one's searches run.
    calls.append(1)
    if len(calls) == 3:
        threading.Timer(0.2, ctrl_c).start()
    return real(*args, **kwargs)

setattr(_core, call, third_call_interrupted)
agents = ("search:nodes=3000", "random")
if entry == "playouts":
    r = dc.playouts("chess", 10**6, agents=agents, threads=1)
    games = len(r)
elif entry == "arena":
    r = dc.arena("chess", list(agents), 10**6, threads=1)
    games = r.games
else:
    r = dc.paired_games("chess", agents, 10**6, threads=1)
    games = len(r)
print(r.interrupted, games, time.perf_counter() - sent[0])
"""


@pytest.mark.parametrize("entry", ["playouts", "arena", "paired_games"])
def test_ctrl_c_in_agent_searches_returns_the_finished_games(entry: str) -> None:
    # Before: 9 to 72 s after Ctrl-C, and none of the chunk's games kept.
    r = subprocess.run(
        [sys.executable, "-c", CTRL_C_IN_SEARCHES, entry],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert r.returncode == 0, r.stderr
    interrupted, games, seconds = r.stdout.split()
    assert interrupted == "True"
    # The two pieces finished before Ctrl-C (8 games or pairs each at one thread).
    assert int(games) >= 16, r.stdout
    assert float(seconds) < 30, r.stdout  # a safeguard: about 1 s expected
