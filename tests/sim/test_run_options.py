"""RunOptions: the one definition of the run-control arguments that
playouts, arena, paired_games and roll_luck share."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import dicechess as dc
from dicechess import _core


@pytest.mark.parametrize(
    "field, value, exc, allowed",
    [
        ("seed", -1, ValueError, r"seed must be an integer from 0 to 2\*\*64-1, got -1"),
        ("seed", 2**64, ValueError, "seed must be an integer from 0 to 2"),
        ("seed", 1.5, ValueError, "seed must be an integer"),
        ("seed", True, ValueError, "seed must be an integer"),
        (
            "threads",
            0,
            ValueError,
            rf"threads must be an int from 1 to {_core.MAX_THREADS} or None",
        ),
        ("threads", "2", ValueError, "threads must be an int"),
        ("chunk_size", 0, ValueError, rf"chunk_size must be an int from 1 to {_core.MAX_BATCH}"),
        ("chunk_size", 2.0, ValueError, "chunk_size must be an int"),
        ("progress", "yes", TypeError, "progress must be True, False or None"),
        ("backend", "dask", ValueError, "unknown backend 'dask'; choose one of local, ray"),
        ("ray_address", 6379, TypeError, "ray_address must be a str"),
        ("save", 3, TypeError, r"save must be a file path \(str or os.PathLike\)"),
        ("save", "/no/such/dir/x.jsonl", ValueError, "does not exist"),
    ],
)
def test_bad_values_say_what_is_allowed(field: str, value: Any, exc: type, allowed: str) -> None:
    with pytest.raises(exc, match=allowed):
        dc.RunOptions(**{field: value})
    # The entry points' keywords are checked by the same code.
    kwargs: dict[str, Any] = {field: value}
    with pytest.raises(exc, match=allowed):
        dc.playouts("chess", 2, **kwargs)
    if field != "save":
        with pytest.raises(exc, match=allowed):
            dc.roll_luck("vegas", 2, max_plies=10, **kwargs)
    with pytest.raises(exc, match=allowed):
        dc.paired_games("fluky", ("random", "greedy"), 2, **kwargs)
    with pytest.raises(exc, match=allowed):
        dc.arena("fluky", ["random", "greedy"], 2, **kwargs)


def test_good_values_and_defaults() -> None:
    run = dc.RunOptions()
    assert (run.seed, run.threads, run.progress, run.chunk_size) == (0, None, None, None)
    assert (run.backend, run.ray_address, run.save) == ("local", None, None)
    dc.RunOptions(seed=np.uint64(2**64 - 1), threads=np.int64(1), progress=np.bool_(False))
    with pytest.raises(dataclasses.FrozenInstanceError):
        run.seed = 3  # type: ignore[misc]


def test_progress_default_depends_on_the_run_size() -> None:
    assert not dc.RunOptions().show_progress(20, above=20)
    assert dc.RunOptions().show_progress(21, above=20)
    assert dc.RunOptions(progress=True).show_progress(0, above=20)
    assert not dc.RunOptions(progress=False).show_progress(10**6, above=20)


def _same(a: dict[str, np.ndarray], b: dict[str, np.ndarray]) -> None:
    assert a.keys() == b.keys()
    for k in a:
        np.testing.assert_array_equal(a[k], b[k], err_msg=k)


def _arrays(r: Any) -> dict[str, np.ndarray]:
    return {k: getattr(r, k) for k in ("winner", "plies", "termination", "chance_events")}


def test_options_give_the_same_runs_as_the_keywords() -> None:
    run = dc.RunOptions(seed=7, threads=1, chunk_size=3)
    p_kw = dc.playouts("fluky", 10, seed=7, threads=1, chunk_size=3, agents=("greedy", "random"))
    p_opt = dc.playouts("fluky", 10, agents=("greedy", "random"), options=run)
    assert p_opt.seed == 7
    _same(_arrays(p_kw), _arrays(p_opt))
    # Without a chunk size the entry point's own default is used (same games).
    _same(
        _arrays(p_kw),
        _arrays(
            dc.playouts("fluky", 10, agents=("greedy", "random"), options=dc.RunOptions(seed=7))
        ),
    )

    a_kw = dc.arena("fluky", ["random", "greedy"], 4, seed=7, threads=1, chunk_size=3)
    a_opt = dc.arena("fluky", ["random", "greedy"], 4, options=run)
    _same(_arrays(a_kw), _arrays(a_opt))
    np.testing.assert_array_equal(a_kw.player0, a_opt.player0)

    pr_kw = dc.paired_games("fluky", ("greedy", "random"), 5, seed=7, threads=1, chunk_size=3)
    pr_opt = dc.paired_games("fluky", ("greedy", "random"), 5, options=run)
    _same(pr_kw.a_first, pr_opt.a_first)
    _same(pr_kw.b_first, pr_opt.b_first)

    l_kw = dc.roll_luck("vegas", 3, seed=7, threads=1, chunk_size=3, max_plies=30)
    l_opt = dc.roll_luck("vegas", 3, options=run, max_plies=30)
    np.testing.assert_array_equal(l_kw.luck_sum, l_opt.luck_sum)
    _same(_arrays(l_kw.games), _arrays(l_opt.games))


def test_options_save_like_the_keyword(tmp_path: Path) -> None:
    kw, opt = tmp_path / "kw.jsonl", tmp_path / "opt.jsonl"
    dc.playouts("chess", 3, seed=2, max_plies=20, save=kw)
    dc.playouts("chess", 3, max_plies=20, options=dc.RunOptions(seed=2, save=opt))
    assert kw.read_text() == opt.read_text() != ""


def test_options_and_keywords_together_are_refused() -> None:
    with pytest.raises(
        TypeError, match="either in options= or as keywords, not both.*seed, threads"
    ):
        dc.playouts("chess", 2, seed=1, threads=1, options=dc.RunOptions())
    with pytest.raises(TypeError, match="arena: give the run-control arguments"):
        dc.arena("fluky", ["random", "greedy"], 2, chunk_size=5, options=dc.RunOptions())
    # Keywords left at their defaults (also the entry point's chunk size) are fine.
    dc.paired_games("fluky", ("random", "greedy"), 1, chunk_size=512, options=dc.RunOptions())
    with pytest.raises(TypeError, match="options must be a dicechess.RunOptions, got dict"):
        dc.playouts("chess", 2, options={"seed": 1})  # type: ignore[arg-type]


def test_roll_luck_does_not_save(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="roll_luck does not save games; leave save=None"):
        dc.roll_luck("vegas", 1, options=dc.RunOptions(save=tmp_path / "x.jsonl"))


def test_check_run_args_is_the_same_check() -> None:
    from dicechess import sim

    sim.check_run_args(0, None, 1)
    with pytest.raises(ValueError, match="chunk_size must be an int from 1 to"):
        sim.check_run_args(0, None, 0)
