"""dc.arena round robins and Python callables as agents (the slow path)."""

from __future__ import annotations

import numpy as np
import pytest

import dicechess as dc
from dicechess import _core
from dicechess.sim import Shard, run_shard


def first_legal(state: dc.State) -> int:
    return state.legal_actions()[0]


def arrays_equal(a: dc.ArenaResult, b: dc.ArenaResult) -> bool:
    keys = ["player0", "player1", "winner", "plies", "chance_events", "termination"]
    return all(np.array_equal(getattr(a, k), getattr(b, k)) for k in keys)


def test_round_robin_shape_and_colours() -> None:
    r = dc.arena("fluky", ["random", "greedy", "random"], games_per_pair=5, seed=3)
    assert r.games == 15 and r.agents == ["random", "greedy", "random"]
    # Each pair: 3 games with the first agent as player 0, 2 with the second.
    for i, j in [(0, 1), (0, 2), (1, 2)]:
        assert ((r.player0 == i) & (r.player1 == j)).sum() == 3
        assert ((r.player0 == j) & (r.player1 == i)).sum() == 2
    w, d = r.wins, r.draws
    assert np.array_equal(d, d.T) and np.all(np.diag(w) == 0)
    assert (w + w.T + d)[np.triu_indices(3, 1)].tolist() == [5, 5, 5]
    s = r.scores()
    off = ~np.eye(3, dtype=bool)
    assert np.allclose((s + s.T)[off], 1.0) and np.isnan(np.diag(s)).all()


def test_no_swap_keeps_seats() -> None:
    r = dc.arena("vegas", ["random", "greedy"], games_per_pair=4, swap_colours=False, seed=1)
    assert r.player0.tolist() == [0] * 4 and r.player1.tolist() == [1] * 4


def test_reproducible_for_threads_and_chunks() -> None:
    args = ("random_move_number", ["random", "greedy", "expectimax:depth=1"])
    a = dc.arena(*args, games_per_pair=7, seed=11, threads=1, chunk_size=2)
    b = dc.arena(*args, games_per_pair=7, seed=11, threads=2, chunk_size=256)
    c = dc.arena(*args, games_per_pair=7, seed=12, threads=2)
    assert arrays_equal(a, b)
    assert not arrays_equal(a, c)


def test_pair_games_are_playouts_of_the_pair() -> None:
    """Game k of pair p is game index p * 2**32 + k of the run."""
    r = dc.arena("fluky", ["random", "greedy", "random"], games_per_pair=4, seed=5)
    # Pair 2 = agents (1, 2): its first two games have agent 1 as player 0.
    part = run_shard(Shard("fluky", ("greedy", "random"), 5, 2 << 32, 2, {}))
    sel = np.flatnonzero((r.player0 == 1) & (r.player1 == 2))
    assert np.array_equal(r.winner[sel], part["winner"])
    assert np.array_equal(r.plies[sel], part["plies"])


def test_table_matches_counts(tmp_path) -> None:
    pytest.importorskip("pandas")
    r = dc.arena("chess", ["random", "greedy"], games_per_pair=6, seed=2, max_plies=120)
    t = r.table()
    assert len(t) == 2 * r.games
    assert set(t.columns) >= {"agent", "opponent", "colour", "result", "outcome"}
    greedy = t[t.agent == "greedy"]
    assert greedy.result.sum() == pytest.approx(r.wins[1, 0] + 0.5 * r.draws[1, 0])
    # Every game appears once per colour.
    assert t.groupby("game").colour.apply(lambda c: sorted(c) == ["black", "white"]).all()
    p = r.to_csv(tmp_path / "games.csv")
    assert p.read_text().splitlines()[0].startswith("game,agent,opponent,colour,result")


def test_callable_agent_in_arena_and_playouts() -> None:
    r = dc.arena("vegas", ["greedy", first_legal], games_per_pair=4, seed=9)
    assert r.agents == ["greedy", "first_legal"] and r.games == 4
    again = dc.arena("vegas", ["greedy", first_legal], games_per_pair=4, seed=9)
    assert arrays_equal(r, again)
    p = dc.playouts("cubic", 3, seed=1, agents=(first_legal, "random"))
    assert p.agents == ("first_legal", "random") and len(p) == 3


def test_callable_path_replays_the_rust_path() -> None:
    """The slow path plays exactly the games the Rust path plays for spec strings."""
    for variant in _core.variants():
        fast = run_shard(Shard(variant, ("greedy", "random"), 4, 100, 3, {"max_plies": 200}))
        slow = _core._playouts_callable(variant, ("greedy", "random"), 4, 100, 3, max_plies=200)
        for k in fast:
            assert np.array_equal(fast[k], slow[k]), (variant, k)


def test_callable_sees_the_game_so_far() -> None:
    seen = []

    def agent(state: dc.State) -> int:
        seen.append(len(state.history()))
        return state.legal_actions()[-1]

    dc.playouts("fluky", 1, seed=3, agents=(agent, agent), max_plies=6)
    assert seen[0] == 0 and seen == sorted(seen) and len(seen) == 6


def test_bad_callables_give_clear_errors() -> None:
    with pytest.raises(ValueError, match="refused.*not legal"):
        dc.playouts("chess", 1, agents=(lambda s: 4000, "random"))
    with pytest.raises(TypeError, match="must return an int"):
        dc.playouts("chess", 1, agents=(lambda s: "e4", "random"))
    with pytest.raises(ZeroDivisionError):
        dc.playouts("chess", 1, agents=(lambda s: 1 // 0, "random"))


@pytest.mark.parametrize(
    "kwargs, exc, msg",
    [
        ({"agents": ["random"]}, ValueError, "at least 2 agents"),
        ({"agents": "random"}, TypeError, "list of agent"),
        ({"agents": ["random", "mcts:sims=-3"]}, ValueError, "valid specs"),
        ({"agents": ["random", 3]}, TypeError, "spec string or a callable"),
        ({"games_per_pair": 0}, ValueError, "at least 1"),
        ({"games_per_pair": -1}, ValueError, "games_per_pair"),
        ({"games_per_pair": 2.5}, TypeError, "games_per_pair must be an int"),
        ({"seed": -1}, ValueError, "seed"),
        ({"threads": 0}, ValueError, "threads"),
        ({"backend": "dask"}, ValueError, "unknown backend"),
        ({"variant": "checkers"}, ValueError, "unknown variant"),
    ],
)
def test_bad_arena_arguments(kwargs, exc, msg) -> None:
    args = {"variant": "fluky", "agents": ["random", "greedy"], "games_per_pair": 2, **kwargs}
    with pytest.raises(exc, match=msg):
        dc.arena(**args)
