"""dc.roll_luck (per-roll luck) and dc.Agent.value: same games as playouts,
reproducibility, summary fields, sign conventions, bad input."""

from __future__ import annotations

import math

import numpy as np
import pytest

import dicechess as dc

GAME_KEYS = ["winner", "plies", "chance_events", "termination", "player0_color"]
# White (player 0) to roll with a back-rank mate for the queen (Vegas).
VEGAS_MATE_ROLL = "6k1/5ppp/8/8/8/8/P7/3Q2K1 w - - 0 1"


@pytest.mark.parametrize("variant", ["vegas", "random_move_number"])
def test_same_games_as_playouts(variant: str) -> None:
    agents = ("greedy", "random")
    r = dc.roll_luck(variant, 4, agents=agents, seed=3, max_plies=30)
    p = dc.playouts(variant, 4, seed=3, agents=agents, max_plies=30)
    for k in GAME_KEYS:
        np.testing.assert_array_equal(getattr(r.games, k), getattr(p, k))
    assert r.games.summary() == p.summary()
    assert (r.n_rolls > 0).all() and (r.n_rolls <= r.games.chance_events).all()


def test_reproducible_for_any_threads_and_chunks() -> None:
    kw = dict(agents=("greedy", "greedy"), seed=9, per_roll=True, max_plies=24)
    a = dc.roll_luck("fluky", 4, threads=1, **kw)
    b = dc.roll_luck("fluky", 4, threads=2, chunk_size=3, **kw)
    np.testing.assert_array_equal(a.luck_sum, b.luck_sum)
    np.testing.assert_array_equal(a.max_abs_luck, b.max_abs_luck)
    assert a.rolls is not None and b.rolls is not None
    for k in a.rolls:
        np.testing.assert_array_equal(a.rolls[k], b.rolls[k])
    c = dc.roll_luck("fluky", 4, seed=10, agents=("greedy", "greedy"), max_plies=24)
    assert not np.array_equal(a.luck_sum, c.luck_sum)


def test_per_roll_arrays_add_up() -> None:
    r = dc.roll_luck("vegas", 3, seed=1, per_roll=True, max_plies=30)
    rolls = r.rolls
    assert rolls is not None
    assert len(rolls["luck"]) == int(r.n_rolls.sum())
    np.testing.assert_allclose(rolls["luck"], rolls["v_actual"] - rolls["v_expected"])
    assert (np.abs(rolls["v_actual"]) <= 1).all() and (np.abs(rolls["v_expected"]) <= 1).all()
    for g in range(3):
        mine = rolls["luck"][rolls["game"] == g]
        assert math.isclose(mine.sum(), r.luck_sum[g], abs_tol=1e-9)
        assert math.isclose(np.abs(mine).sum(), r.abs_luck_sum[g], abs_tol=1e-9)
        assert math.isclose(np.abs(mine).max(), r.max_abs_luck[g])
        assert (np.diff(rolls["ply"][rolls["game"] == g]) >= 0).all()
    assert set(np.unique(rolls["player"])) <= {-1, 0, 1}
    df = r.to_pandas(per_roll=True)
    assert len(df) == len(rolls["luck"]) and "v_expected" in df
    games = r.to_pandas()
    assert list(games["luck_sum"]) == list(r.luck_sum) and "score0" in games


def test_summary_fields() -> None:
    r = dc.roll_luck("vegas", 12, seed=2, max_plies=40)
    s = r.summary()
    assert s["games"] == 12 and s["rolls"] == int(r.n_rolls.sum())
    assert s["rolls_per_game"] > 0 and 0 < s["mean_abs_luck_per_roll"] <= 2
    assert s["max_abs_luck"] == pytest.approx(float(r.max_abs_luck.max()))
    assert s["sd_game_luck"] == pytest.approx(float(np.std(r.luck_sum, ddof=1)))
    decisive = (r.games.winner >= 0) & (r.luck_sum != 0)
    assert s["decisive_games_with_luck"] == int(decisive.sum())
    if s["decisive_games_with_luck"]:
        lo, hi = s["luckier_win_rate_ci95"]
        assert 0 <= lo <= s["luckier_win_rate"] <= hi <= 1
    if s["luck_score_r"] is not None:
        r_np = np.corrcoef(r.luck_sum, r.score())[0, 1]
        assert s["luck_score_r"] == pytest.approx(r_np)
        assert s["luck_score_r2"] == pytest.approx(r_np**2)
        assert 0 <= s["luck_score_p"] <= 1


@pytest.mark.parametrize("variant", ["chess", "cubic"])
def test_no_dice_no_rolls(variant: str) -> None:
    r = dc.roll_luck(variant, 2, agents=("greedy", "random"), per_roll=True, max_plies=20)
    assert (r.n_rolls == 0).all() and (r.luck_sum == 0).all()
    assert r.rolls is not None and len(r.rolls["luck"]) == 0
    s = r.summary()
    assert s["rolls"] == 0 and s["luck_score_r"] is None and s["luckier_win_rate"] is None


def test_zero_games() -> None:
    r = dc.roll_luck("vegas", 0)
    assert len(r) == 0 and r.summary() == {"games": 0}


@pytest.mark.parametrize(
    "kwargs, exc, msg",
    [
        ({"agents": ("greedy", "alphazero")}, ValueError, "valid specs"),
        ({"agents": ("greedy",)}, ValueError, "one spec per player"),
        ({"eval_depth": 0}, ValueError, "eval_depth must be from 1 to 4"),
        ({"eval_depth": 5}, ValueError, "eval_depth must be from 1 to 4"),
        ({"eval_depth": 1.5}, TypeError, "eval_depth"),
        ({"eval_depth": True}, TypeError, "eval_depth"),
        ({"n_games": -1}, ValueError, "n_games"),
        ({"threads": 0}, ValueError, "threads"),
        ({"chunk_size": 0}, ValueError, "chunk_size"),
        ({"bogus": 1}, ValueError, "unknown option"),
    ],
)
def test_bad_input(kwargs: dict, exc: type, msg: str) -> None:
    args = {"n_games": 2, **kwargs}
    with pytest.raises(exc, match=msg):
        dc.roll_luck("vegas", **args)


def test_unknown_variant_and_no_per_roll_frame() -> None:
    with pytest.raises(ValueError, match="known variants"):
        dc.roll_luck("nope", 1)
    r = dc.roll_luck("vegas", 1, max_plies=10)
    with pytest.raises(ValueError, match="per_roll=True"):
        r.to_pandas(per_roll=True)


# ------------------------------------------------------------- Agent.value


def test_value_at_decision_nodes_is_for_player_0() -> None:
    # White (player 0) mates in one: value 1 at depth 1.
    white = dc.State("chess", fen="6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1")
    # Black (player 1) mates in one: value -1 for player 0.
    black = dc.State("chess", fen="r5k1/8/8/8/8/8/5PPP/6K1 b - - 0 1")
    for spec in ["greedy", "expectimax:depth=2"]:
        a = dc.Agent(spec)
        assert a.value(white) == 1.0
        assert a.value(black) == -1.0
    before = white.fen()
    dc.Agent("greedy").value(white, depth=3)
    assert white.fen() == before
    # An even position is neither won nor lost at depth 1.
    assert abs(dc.Agent("greedy").value(dc.State("chess"))) < 0.5


def test_value_at_terminal_states() -> None:
    s = dc.State("chess")
    for m in ["f3", "e5", "g4", "Qh4#"]:
        s.apply_san(m)
    assert s.is_terminal() and s.winner() == 1
    assert dc.Agent("greedy").value(s) == -1.0
    assert dc.Agent("expectimax:depth=3").value(s, depth=1) == -1.0


def test_value_at_chance_nodes_is_the_exact_mean() -> None:
    s = dc.State("vegas", fen=VEGAS_MATE_ROLL)
    assert s.is_chance_node()
    a = dc.Agent("greedy")
    mean = 0.0
    mating = 0.0
    for action, p in s.chance_outcomes():
        child = s.clone()
        child.apply_action(action)
        v = a.value(child)
        mean += p * v
        if s.action_to_string(action)[1] in "Q*":
            assert v == 1.0  # Qd8# is on the dice.
            mating += p
    assert mating == pytest.approx(2 / 6)
    assert a.value(s) == pytest.approx(mean, abs=1e-9)
    # Deeper searches are still an expectation over the same roll.
    assert mating <= dc.Agent("greedy").value(s, depth=2) + 1 - mating


@pytest.mark.parametrize("spec", ["random", "mcts:sims=10"])
def test_value_needs_a_searching_agent(spec: str) -> None:
    with pytest.raises(ValueError, match="greedy.*expectimax"):
        dc.Agent(spec).value(dc.State("chess"))


@pytest.mark.parametrize("depth", [0, 9, -1])
def test_value_bad_depth(depth: int) -> None:
    with pytest.raises(ValueError, match="depth must be from 1 to 8"):
        dc.Agent("greedy").value(dc.State("chess"), depth=depth)


def test_ctrl_c_keeps_finished_chunks(monkeypatch: pytest.MonkeyPatch) -> None:
    real = dc._core._roll_luck
    calls = []

    def flaky(*args: object, **kwargs: object) -> dict:
        calls.append(args)
        # The first call validates (0 games); interrupt the third chunk.
        if len(calls) == 4:
            raise KeyboardInterrupt
        return real(*args, **kwargs)

    monkeypatch.setattr(dc._core, "_roll_luck", flaky)
    r = dc.roll_luck("fluky", 10, chunk_size=3, progress=True, max_plies=20)
    assert r.interrupted and r.games.interrupted and len(r) == 6
    full = dc.roll_luck("fluky", 6, max_plies=20)
    np.testing.assert_array_equal(r.luck_sum, full.luck_sum)


def test_search_evaluator_values_rolls_on_the_same_games() -> None:
    """The search engine as the luck evaluator: same games as the default
    evaluator, luck in [-2, 2] per roll, and time budgets refused."""
    kw = {"seed": 4, "agents": ("greedy", "random"), "max_plies": 24, "per_roll": True}
    by_depth = dc.roll_luck("vegas", 3, **kw)
    by_search = dc.roll_luck("vegas", 3, evaluator="search:nodes=64", **kw)
    np.testing.assert_array_equal(by_depth.games.winner, by_search.games.winner)
    np.testing.assert_array_equal(by_depth.n_rolls, by_search.n_rolls)
    assert by_search.rolls is not None
    assert np.all(np.abs(by_search.rolls["luck"]) <= 2.0)
    assert not np.array_equal(by_depth.luck_sum, by_search.luck_sum)
    with pytest.raises(ValueError, match="time budget"):
        dc.roll_luck("vegas", 1, evaluator="search:ms=5")
    with pytest.raises(ValueError, match="luck evaluator"):
        dc.roll_luck("vegas", 1, evaluator="random")
