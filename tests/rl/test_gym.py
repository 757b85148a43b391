"""Gymnasium envs: checker, seeding, masks, bad input, pickling."""

import pickle
import warnings

import numpy as np
import pytest

gymnasium = pytest.importorskip("gymnasium")
from gymnasium.utils import env_checker  # noqa: E402
from gymnasium.utils.env_checker import check_env  # noqa: E402

import dicechess.gym as dgym  # noqa: E402
from dicechess.rlspaces import NOOP_ACTION  # noqa: E402

IDS = sorted(dgym.ENV_IDS)


def make(name, **kw):
    return gymnasium.make(f"dicechess/{name}-v0", **kw)


def test_registered_by_package_import():
    import importlib

    importlib.import_module("dicechess")
    for name in IDS:
        assert f"dicechess/{name}-v0" in gymnasium.registry


def step_determinism(env, seed=123):
    """gymnasium's check_step_determinism, but the action is sampled after the
    reset: gymnasium samples it before, from the previous episode's state,
    which with illegal_action="raise" may raise ValueError."""
    from gymnasium.utils.env_checker import data_equivalence

    env.reset(seed=seed)
    env.action_space.seed(seed)
    action = env.action_space.sample()
    r1 = env.step(action)
    env.reset(seed=seed)
    r2 = env.step(action)
    for x, y in zip(r1, r2):
        assert data_equivalence(x, y)


@pytest.mark.parametrize("render_mode", [None, "ansi", "rgb_array"])
@pytest.mark.parametrize("name", IDS)
def test_check_env_defaults_without_warnings(name, render_mode):
    """gymnasium's check_env, unmodified, on gymnasium.make(id) with the
    default options: every warning is an error."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        env = gymnasium.make(f"dicechess/{name}-v0", render_mode=render_mode)
        assert env.unwrapped is env
        check_env(env, skip_render_check=False)
        env.close()


@pytest.mark.parametrize("name", IDS)
def test_check_env_with_illegal_action_raise(name, monkeypatch):
    """With illegal_action="raise" the env passes every other check, and the
    step-determinism check when the action is sampled after the reset."""
    env = make(name, max_plies=60, illegal_action="raise")
    monkeypatch.setattr(env_checker, "check_step_determinism", step_determinism)
    check_env(env.unwrapped, skip_render_check=False)
    step_determinism(env.unwrapped)
    env.close()


def test_illegal_action_ends_as_a_loss_by_default():
    env = make("Chess")
    obs, _ = env.reset(seed=1)
    legal = set(np.flatnonzero(obs["action_mask"]).tolist())
    bad = next(a for a in range(env.action_space.n) if a not in legal)
    fen = env.unwrapped.state.fen()
    obs, r, term, trunc, info = env.step(bad)
    assert (r, term, trunc) == (dgym.ILLEGAL_ACTION_REWARD, True, False) == (-1.0, True, False)
    assert info["termination"] == "illegal_action" and info["illegal_action"] == bad
    assert env.unwrapped.state.fen() == fen
    with pytest.raises(RuntimeError, match="reset"):
        env.step(int(next(iter(legal))))
    with pytest.raises(ValueError, match="illegal_action must be one of lose, raise"):
        make("Chess", illegal_action="ignore")
    # a legal action leaves illegal_action at -1
    env.reset(seed=1)
    *_, info = env.step(int(next(iter(legal))))
    assert info["illegal_action"] == -1


def rollout(env, seed, steps=400):
    obs, info = env.reset(seed=seed)
    traj = [info["fen"]]
    rng = np.random.default_rng(seed)
    for _ in range(steps):
        legal = np.flatnonzero(obs["action_mask"])
        a = int(rng.choice(legal))
        obs, r, term, trunc, info = env.step(a)
        traj.append((a, r, info["fen"], tuple(info["rolls"])))
        if term or trunc:
            break
    return traj


@pytest.mark.parametrize("name", IDS)
def test_seed_reproducible(name):
    env = make(name, agent_player="random", max_plies=80)
    a = rollout(env, 7)
    b = rollout(env, 7)
    c = rollout(make(name, agent_player="random", max_plies=80), 7)
    assert a == b == c
    assert rollout(env, 8) != a


@pytest.mark.parametrize("name", IDS)
def test_masks_match_legal_actions_and_rewards(name):
    env = make(name, agent_player="random", max_plies=120, obs_layout="chw").unwrapped
    for seed in range(4):
        obs, info = env.reset(seed=seed)
        done = False
        while not done:
            s = env.state
            assert s.current_player() == env.agent_player
            assert np.flatnonzero(obs["action_mask"]).tolist() == s.legal_actions()
            assert env.action_masks().dtype == bool
            assert obs["observation"].dtype == np.float32
            assert env.observation_space.contains(obs)
            np.testing.assert_array_equal(
                obs["observation"], s.observation_tensor(env.agent_player)
            )
            a = int(env.np_random.choice(s.legal_actions()))
            obs, r, term, trunc, info = env.step(a)
            done = term or trunc
        s = env.state
        assert s.is_terminal()
        # Never an all-zero mask: a finished game marks only the no-op.
        assert np.flatnonzero(obs["action_mask"]).tolist() == [NOOP_ACTION]
        assert env.action_masks().sum() == 1
        assert info["termination"] == s.termination() != ""
        assert r == s.returns()[env.agent_player]
        assert trunc == (s.termination() == "max_plies")


def test_truncation_at_max_plies():
    env = make("Chess", max_plies=4).unwrapped
    env.reset(seed=0)
    for _ in range(2):
        obs, r, term, trunc, info = env.step(int(np.flatnonzero(obs_mask(env))[0]))
    assert trunc and not term and r == 0.0 and info["termination"] == "max_plies"


def obs_mask(env):
    return env.action_masks()


def test_agent_player_one_and_vegas_dice_info():
    env = make("Vegas", agent_player=1).unwrapped
    obs, info = env.reset(seed=3)
    s = env.state
    assert s.current_player() == 1 and s.plies >= 1
    assert info["dice"] == s.dice != ""
    assert info["num_rolls"] >= 1 and info["num_opponent_actions"] >= 1
    # plane "plays_black" is 1 for player 1
    k = env.planes.index("plays_black")
    assert (obs["observation"].reshape(s.observation_tensor().shape)[k] == 1).all()


def test_variant_options_pass_through():
    env = make("Vegas", max_plies=11).unwrapped
    env.reset(seed=0)
    assert env.state.options["max_plies"] == 11
    with pytest.raises(ValueError):
        make("Vegas", no_such_option=3)


def test_bad_actions():
    env = make("Chess", illegal_action="raise").unwrapped
    obs, _ = env.reset(seed=0)
    fen = env.state.fen()
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    with pytest.raises(ValueError, match=rf"illegal action {illegal}.*20 legal"):
        env.step(illegal)
    assert env.state.fen() == fen
    with pytest.raises(TypeError):
        env.step(1.5)
    with pytest.raises(TypeError):
        env.step("e4")
    with pytest.raises(TypeError):
        env.step(True)
    with pytest.raises(ValueError, match="shape"):
        env.step(np.array([1, 2]))
    with pytest.raises(TypeError):
        env.step(np.array(1.0))
    legal = env.state.legal_actions()
    env.step(np.int64(legal[0]))  # numpy integers are fine
    assert env.state.fen() != fen


def test_step_after_end_is_an_error():
    env = make("Chess", max_plies=2).unwrapped
    env.reset(seed=0)
    done = False
    while not done:
        *_, term, trunc, _ = env.step(int(env.state.legal_actions()[0]))
        done = term or trunc
    with pytest.raises(RuntimeError, match="reset"):
        env.step(0)
    env.reset()
    env.step(int(env.state.legal_actions()[0]))


def test_opponent_specs():
    calls = []

    def first(state):
        calls.append(state.fen())
        return state.legal_actions()[0]

    env = make("Chess", opponent=first).unwrapped
    env.reset(seed=0)
    env.step(env.state.legal_actions()[0])
    assert calls
    with pytest.raises(ValueError, match="valid specs|valid agent specs|expectimax"):
        make("Chess", opponent="alphazero")
    # A built-in agent spec as the opponent: greedy takes a hanging queen.
    env = make("Chess", opponent="greedy", fen="3rk3/8/8/8/8/8/8/4K2Q w - - 0 1").unwrapped
    env.reset(seed=0)
    env.step(env.state.string_to_action("Qd5"))
    assert env.state.fen().split()[0] == "4k3/8/8/3r4/8/8/8/4K3"
    with pytest.raises(ValueError, match="agent_player"):
        make("Chess", agent_player=2)


def test_illegal_opponent_action_is_reported():
    env = make("Chess", opponent=lambda s: 99999).unwrapped
    env.reset(seed=0)
    with pytest.raises(ValueError, match="opponent"):
        env.step(env.state.legal_actions()[0])


@pytest.mark.parametrize("name", IDS)
def test_pickle_mid_game(name):
    env = make(name, agent_player="random", max_plies=200).unwrapped
    obs, _ = env.reset(seed=1)
    for _ in range(3):
        obs, _, term, trunc, _ = env.step(int(np.flatnonzero(obs["action_mask"])[0]))
        if term or trunc:
            break
    env2 = pickle.loads(pickle.dumps(env))
    assert env2.state.fen() == env.state.fen()
    assert env2.state.history() == env.state.history()
    if not (term or trunc):
        a = int(np.flatnonzero(obs["action_mask"])[0])
        r1 = env.step(a)
        r2 = env2.step(a)
        assert r1[4]["fen"] == r2[4]["fen"]


@pytest.mark.parametrize("mode", ["ansi", "rgb_array"])
def test_render_modes(mode):
    env = make("Vegas", render_mode=mode)
    env.reset(seed=0)
    out = env.render()
    if mode == "ansi":
        assert isinstance(out, str) and "dice" in out
    else:
        assert out.dtype == np.uint8 and out.ndim == 3 and out.shape[2] == 3
