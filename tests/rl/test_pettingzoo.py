"""PettingZoo AEC env: api_test, seed_test, masks, multi-move turns, pickling."""

import pickle

import numpy as np
import pytest

pytest.importorskip("pettingzoo")
from pettingzoo.test import api_test, seed_test  # noqa: E402

import dicechess as dc  # noqa: E402
from dicechess.pettingzoo import env as make_env  # noqa: E402
from dicechess.pettingzoo import raw_env  # noqa: E402

VARIANTS = dc.variants()


@pytest.mark.parametrize("variant", VARIANTS)
def test_api_test(variant):
    api_test(make_env(variant, max_plies=60), num_cycles=200)


@pytest.mark.parametrize("variant", VARIANTS)
def test_seed_test(variant):
    seed_test(lambda: make_env(variant, max_plies=60), num_cycles=50)


def play(e, seed, limit=2000):
    e.reset(seed=seed)
    rng = np.random.default_rng(seed)
    trace = []
    for agent in e.agent_iter(limit):
        obs, reward, term, trunc, info = e.last()
        if term or trunc:
            trace.append((agent, reward))
            e.step(None)
            continue
        legal = np.flatnonzero(obs["action_mask"])
        a = int(rng.choice(legal))
        trace.append((agent, a))
        e.step(a)
    return trace


@pytest.mark.parametrize("variant", VARIANTS)
def test_masks_and_game_flow(variant):
    e = raw_env(variant, max_plies=150)
    for seed in range(3):
        e.reset(seed=seed)
        repeats = 0
        prev = None
        while True:
            agent = e.agent_selection
            if e.terminations[agent] or e.truncations[agent]:
                break
            s = e.state_
            p = e.agent_name_mapping[agent]
            assert s.current_player() == p
            obs = e.observe(agent)
            assert np.flatnonzero(obs["action_mask"]).tolist() == s.legal_actions()
            other = e.possible_agents[1 - p]
            assert e.observe(other)["action_mask"].sum() == 0
            np.testing.assert_array_equal(obs["observation"], s.observation_tensor(p))
            if agent == prev:
                repeats += 1
            prev = agent
            e.step(int(np.random.default_rng(seed).choice(s.legal_actions())))
        s = e.state_
        assert s.is_terminal()
        for i, a in enumerate(e.possible_agents):
            assert e._cumulative_rewards[a] == s.returns()[i]
        # RMNC turns have several moves; in Vegas a checking move earns a free
        # move; a Cubic Checkers multi-jump is one decision per landing; Dice
        # Chess: forced passes, and three moves a turn with three dice
        multi = ("random_move_number", "vegas", "cubic_checkers", "dice_chess", "dice_chess3")
        if variant not in multi:
            assert repeats == 0


def test_rmnc_same_agent_acts_several_times():
    e = raw_env("random_move_number", max_plies=200)
    found = False
    for seed in range(10):
        trace = play(e, seed)
        agents = [a for a, x in trace]
        if any(x == y for x, y in zip(agents, agents[1:])):
            found = True
            break
    assert found


def test_seeded_trajectories_reproducible():
    a = play(make_env("vegas", max_plies=100), 5)
    b = play(make_env("vegas", max_plies=100), 5)
    assert a == b
    assert play(make_env("vegas", max_plies=100), 6) != a


def test_illegal_action_loses_by_default():
    e = make_env("chess")
    e.reset(seed=0)
    fen = e.unwrapped.state_.fen()
    e.step(0)
    assert e.unwrapped.state_.fen() == fen
    _obs, reward, term, _trunc, info = e.last()
    assert e.agent_selection == "player_0" and reward == -1.0 and term
    assert info["termination"] == "illegal_action"
    assert e.rewards == {"player_0": -1.0, "player_1": 0.0}
    assert all(e.terminations.values())
    with pytest.raises(ValueError, match="illegal_action must be one of lose, raise"):
        raw_env("chess", illegal_action="skip")


def test_illegal_action_raise():
    e = raw_env("chess", illegal_action="raise")
    e.reset(seed=0)
    fen = e.state_.fen()
    with pytest.raises(ValueError, match="illegal action 0 for player_0: 20 legal"):
        e.step(0)
    with pytest.raises(TypeError):
        e.step(2.0)
    assert e.state_.fen() == fen


def test_pickle_mid_game():
    e = raw_env("fluky", max_plies=100)
    e.reset(seed=2)
    for _ in range(5):
        e.step(e.state_.legal_actions()[0])
    e2 = pickle.loads(pickle.dumps(e))
    assert e2.state_.history() == e.state_.history()
    assert e2.agent_selection == e.agent_selection
    a = e.state_.legal_actions()[-1]
    e.step(a)
    e2.step(a)
    assert e.state_.fen() == e2.state_.fen()


def test_render():
    e = raw_env("cubic", render_mode="ansi")
    e.reset(seed=0)
    assert "player" in e.render()


def test_doctests():
    import doctest

    import dicechess.pettingzoo as mod

    failures, tried = doctest.testmod(mod)
    assert tried > 0 and failures == 0


@pytest.mark.parametrize("variant", VARIANTS)
def test_render_test(variant, capsys):
    """PettingZoo's render_test on every render mode, "human" included (it prints)."""
    from pettingzoo.test import render_test

    render_test(lambda render_mode=None: make_env(variant, render_mode=render_mode, max_plies=60))
    assert "player" in capsys.readouterr().out


def test_performance_benchmark(capsys):
    """PettingZoo's performance_benchmark runs (5 s of random play; it prints
    the rate and checks nothing about speed)."""
    from pettingzoo.test import performance_benchmark

    performance_benchmark(make_env("vegas", max_plies=100))
    assert "turns per second" in capsys.readouterr().out


@pytest.mark.parametrize("layout", ["chw", "hwc", "flat"])
def test_obs_layouts_and_fixed_shape_infos(layout):
    e = make_env("dice_chess", obs_layout=layout, max_plies=60)
    api_test(e, num_cycles=50)
    e.reset(seed=3)
    obs, _r, _te, _tr, info = e.last()
    p = e.unwrapped.agent_name_mapping[e.agent_selection]
    tensor = e.unwrapped.state_.observation_tensor(p)
    expected = {"chw": tensor, "hwc": tensor.transpose(1, 2, 0), "flat": tensor.ravel()}[layout]
    np.testing.assert_array_equal(obs["observation"], expected)
    assert info["termination"] == "" and info["dice"] == e.unwrapped.state_.dice
    assert info["rolls"].shape == (32,) and info["num_rolls"] >= 1
    assert (info["rolls"][info["num_rolls"] :] == -1).all()
