"""Batched playouts: reproducibility, summaries, bad input."""

from __future__ import annotations

import numpy as np
import pytest

import dicechess as dc

FIELDS = ["winner", "plies", "chance_events", "termination", "player0_color"]


@pytest.mark.parametrize("variant", dc.variants())
def test_same_arrays_for_any_threads_and_chunks(variant: str) -> None:
    a = dc.playouts(variant, 60, seed=3, threads=1, max_plies=120)
    b = dc.playouts(variant, 60, seed=3, threads=2, chunk_size=7, max_plies=120)
    for f in FIELDS:
        assert np.array_equal(getattr(a, f), getattr(b, f)), f
    c = dc.playouts(variant, 60, seed=4, threads=2, max_plies=120)
    assert not all(np.array_equal(getattr(a, f), getattr(c, f)) for f in FIELDS)


def test_summary_and_codes() -> None:
    r = dc.playouts("chess", 200, seed=1)
    s = r.summary()
    assert s["games"] == 200 == len(r)
    assert s["player0_wins"] + s["player1_wins"] + s["draws"] + s["truncated"] == 200
    assert sum(s["terminations"].values()) == 200
    assert set(s["terminations"]) <= set(dc.TERMINATIONS)
    assert (r.plies > 0).all()
    # Chess: a decisive game ends in checkmate, and the loser is the side to move.
    mate = r.termination == dc.TERMINATIONS.index("checkmate")
    assert ((r.winner >= 0) == mate).all()
    assert r.winner.dtype == np.int8 and r.plies.dtype == np.uint32


def test_truncation_code() -> None:
    r = dc.playouts("chess", 20, seed=1, max_plies=10)
    assert (r.winner == dc.sim.TRUNCATED).all()
    assert (r.plies == 10).all()


def test_zero_games() -> None:
    r = dc.playouts("chess", 0)
    assert len(r) == 0 and r.summary() == {"games": 0}


@pytest.mark.parametrize(
    "kwargs, exc, msg",
    [
        ({"n_games": -1}, ValueError, "n_games"),
        ({"n_games": 10**12}, ValueError, "n_games"),
        ({"n_games": 1.5}, TypeError, "n_games"),
        ({"n_games": 5, "threads": 0}, ValueError, "threads"),
        ({"n_games": 5, "seed": -3}, ValueError, "seed"),
        ({"n_games": 5, "agents": ("random", "alphazero")}, ValueError, "valid specs"),
        ({"n_games": 5, "agents": ("random",)}, ValueError, "one spec or callable per player"),
        ({"n_games": 5, "bogus": 1}, ValueError, "unknown option"),
    ],
)
def test_bad_input(kwargs: dict, exc: type, msg: str) -> None:
    with pytest.raises(exc, match=msg):
        dc.playouts("chess", **kwargs)


def test_unknown_variant() -> None:
    with pytest.raises(ValueError, match="known variants"):
        dc.playouts("nope", 3)
