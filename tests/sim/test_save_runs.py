"""`arena(save=...)` and `paired_games(save=...)` write their games: the
results are the same with or without saving, and the saved records replay
to the recorded results (JSON Lines and PGN)."""

import os

import numpy as np
import pytest

import dicechess as dc
from dicechess import records


def winner_code(s: dc.State) -> int:
    """The result arrays' winner code of a finished game."""
    w = s.winner()
    return w if w is not None else (-2 if s.termination() == "max_plies" else -1)


def assert_replays(rec: records.Record, arrays: dict, i: int) -> None:
    """Record ``rec`` replays to game ``i`` of the result arrays."""
    s = rec.state()
    assert s.is_terminal()
    assert s.plies == arrays["plies"][i]
    assert winner_code(s) == arrays["winner"][i]
    assert dc.TERMINATIONS.index(s.termination()) == arrays["termination"][i]


@pytest.mark.parametrize("suffix", [".jsonl", ".pgn"])
def test_arena_saves_its_games(tmp_path, suffix):
    agents = ["random", "greedy", "expectimax:depth=1"]
    kw = dict(games_per_pair=5, seed=3, max_plies=60, chunk_size=2)
    plain = dc.arena("fluky", agents, **kw)
    path = tmp_path / f"arena{suffix}"
    saved = dc.arena("fluky", agents, save=path, **kw)
    for name in ("player0", "player1", "winner", "plies", "termination", "chance_events"):
        np.testing.assert_array_equal(getattr(plain, name), getattr(saved, name))
    recs = records.read_file(path)
    assert len(recs) == saved.games == 15
    arrays = {"plies": saved.plies, "winner": saved.winner, "termination": saved.termination}
    for i, r in enumerate(recs):
        assert_replays(r, arrays, i)
        assert r.tags["Game"] == str(i) and r.seed == 3 and r.options["max_plies"] == 60
        assert r.tags["Player0"] == agents[saved.player0[i]]
        assert r.tags["Player1"] == agents[saved.player1[i]]
    assert [r.tags["Pair"] for r in recs] == [str(p) for p in range(3) for _ in range(5)]
    # colours alternate within a pair: the first 3 games of pair 0 seat agent 0 as player 0
    assert [r.tags["Player0"] for r in recs[:5]] == ["random"] * 3 + ["greedy"] * 2


@pytest.mark.parametrize(("suffix", "opening_plies"), [(".jsonl", 0), (".pgn", 3)])
def test_paired_games_save_both_games_of_every_pair(tmp_path, suffix, opening_plies):
    kw = dict(seed=5, max_plies=60, chunk_size=3, opening_plies=opening_plies)
    plain = dc.paired_games("vegas", ("greedy", "random"), 7, **kw)
    path = tmp_path / f"pairs{suffix}"
    saved = dc.paired_games("vegas", ("greedy", "random"), 7, save=path, **kw)
    for half in ("a_first", "b_first"):
        for name, arr in plain.__dict__[half].items():
            np.testing.assert_array_equal(arr, saved.__dict__[half][name])
    recs = records.read_file(path)
    assert len(recs) == 14
    for k in range(7):
        a, b = recs[2 * k], recs[2 * k + 1]
        assert_replays(a, saved.a_first, k)
        assert_replays(b, saved.b_first, k)
        assert (a.tags["Pair"], b.tags["Pair"]) == (str(k), str(k))
        assert (a.tags["Player0Agent"], b.tags["Player0Agent"]) == ("A", "B")
        assert (a.tags["Player0"], a.tags["Player1"]) == ("greedy", "random")
        assert (b.tags["Player0"], b.tags["Player1"]) == ("random", "greedy")
        assert a.tags["AgentA"] == "greedy" and a.tags["AgentB"] == "random"
        # common dice: the first roll of both games of a pair is the same
        assert a.actions[0] == b.actions[0]


def test_playouts_save_pgn(tmp_path):
    r = dc.playouts("dice_chess", 4, seed=2, max_plies=40, save=tmp_path / "p.pgn")
    recs = records.read_pgn((tmp_path / "p.pgn").read_text())
    arrays = {"plies": r.plies, "winner": r.winner, "termination": r.termination}
    for i, rec in enumerate(recs):
        assert_replays(rec, arrays, i)


def test_bad_save_paths_fail_before_the_run(tmp_path):
    missing = tmp_path / "no_such_dir" / "g.jsonl"
    calls = [
        lambda save: dc.arena("chess", ["random", "random"], 2, save=save),
        lambda save: dc.paired_games("chess", ("random", "random"), 2, save=save),
        lambda save: dc.playouts("chess", 2, save=save),
    ]
    for run in calls:
        with pytest.raises(ValueError, match="does not exist"):
            run(missing)
        with pytest.raises(ValueError, match="is a directory"):
            run(tmp_path)
        with pytest.raises(ValueError, match="empty"):
            run("")
        with pytest.raises(TypeError, match="file path"):
            run(3)
    assert not missing.parent.exists() and os.listdir(tmp_path) == []
    with pytest.raises(ValueError, match="built-in"):
        dc.arena("chess", ["random", lambda s: s.legal_actions()[0]], 2, save=tmp_path / "x")
