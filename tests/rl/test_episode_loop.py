"""One episode loop (src/sim/episode.rs): the single gym env, the vector env
and PettingZoo play the same games for one seed and one action sequence.

Env ``k`` of a vector env seeded ``s`` is seeded ``s + k`` (Gymnasium's
per-env convention), so it must match ``gymnasium.make(id)`` reset with seed
``s + k``: observations, masks, rewards and flags at every step of whole
episodes, autoreset included (the vector env's NEXT_STEP reset against the
single env's ``reset()`` without a seed, i.e. its next episode).
"""

import numpy as np
import pytest

gymnasium = pytest.importorskip("gymnasium")

import dicechess as dc  # noqa: E402
import dicechess.gym as dgym  # noqa: E402
from dicechess.rlspaces import NOOP_ACTION  # noqa: E402

# (id, seed, opponent): dice, multi-move turns, stocks, jumps; built-in opponents.
CASES = [
    ("Chess", 3, "random"),
    ("Vegas", 5, "random"),
    ("Fluky", 7, "greedy"),
    ("DiceChess", 2, "random"),
    ("DiceChess3", 4, "random"),
    ("RandomMoveNumber", 6, "random"),
    ("CubicCheckers", 9, "random"),
    ("Cubic", 8, "expectimax:depth=1"),
    ("Metamorph", 11, "random"),
    ("Gardner", 12, "greedy"),
]
MAX_PLIES = 40


def assert_same(single, venv_out, k):
    """The single env's (obs, reward, terminated, truncated) == env k's."""
    (obs_s, r_s, te_s, tr_s), (obs_v, r_v, te_v, tr_v) = single, venv_out
    np.testing.assert_array_equal(obs_s["observation"], obs_v["observation"][k])
    np.testing.assert_array_equal(obs_s["action_mask"], obs_v["action_mask"][k])
    assert (r_s, te_s, tr_s) == (float(r_v[k]), bool(te_v[k]), bool(tr_v[k]))


def any_legal(obs, rng):
    """One random legal action per env (0 where an env has none: autoreset)."""
    acts = []
    for m in obs["action_mask"]:
        legal = np.flatnonzero(m)
        acts.append(int(rng.choice(legal)) if len(legal) else 0)
    return np.array(acts, dtype=np.int64)


def compare(name, seed, opponent, num_envs, k, episodes=3, batch_seed=None):
    env_id = f"dicechess/{name}-v0"
    single = gymnasium.make(env_id, opponent=opponent, max_plies=MAX_PLIES)
    batch_seed = seed - k if batch_seed is None else batch_seed
    venv = gymnasium.make_vec(
        env_id, num_envs=num_envs, seed=batch_seed, opponent=opponent, max_plies=MAX_PLIES
    )
    rng = np.random.default_rng(seed)
    obs_s, info = single.reset(seed=seed)
    obs_v, _ = venv.reset(seed=batch_seed)
    assert_same(
        (obs_s, 0.0, False, False),
        (obs_v, [0.0] * num_envs, [False] * num_envs, [False] * num_envs),
        k,
    )
    steps = 0
    for episode in range(episodes):
        done = False
        while not done:
            acts = any_legal(obs_v, rng)
            a = int(acts[k])
            assert obs_s["action_mask"][a] == 1
            obs_s, r_s, te_s, tr_s, info = single.step(a)
            obs_v, r_v, te_v, tr_v, _ = venv.step(acts)
            assert_same((obs_s, r_s, te_s, tr_s), (obs_v, r_v, te_v, tr_v), k)
            assert single.unwrapped.state.history() == venv.history(k)
            done = te_s or tr_s
            steps += 1
        assert info["termination"] != ""
        # Autoreset: the vector env's next step starts env k's next episode,
        # which is the single env's next episode (reset without a seed).
        obs_v, r_v, te_v, tr_v, _ = venv.step(any_legal(obs_v, rng))
        obs_s, info = single.reset()
        assert_same((obs_s, 0.0, False, False), (obs_v, r_v, te_v, tr_v), k)
        assert single.unwrapped.state.history() == venv.history(k)
        assert venv.env.episode(k) == episode + 1
    venv.close()
    return steps


@pytest.mark.parametrize(("name", "seed", "opponent"), CASES)
def test_single_env_equals_vecenv_of_one(name, seed, opponent):
    assert compare(name, seed, opponent, num_envs=1, k=0) > 3


@pytest.mark.parametrize(("name", "seed", "opponent"), CASES[:5])
@pytest.mark.parametrize("k", [1, 3])
def test_single_env_equals_env_k_of_a_batch(name, seed, opponent, k):
    """Env k of a batch seeded s - k is the single env seeded s."""
    compare(name, seed + 3, opponent, num_envs=4, k=k)


@pytest.mark.parametrize("name", ["Vegas", "Chess", "Fluky"])
def test_the_comparison_fails_for_another_seed(name):
    """The check can fail: env 1 of a batch seeded s is not the single env
    seeded s (nor is env 0 of a batch seeded s + 1 the single env seeded s)."""
    with pytest.raises(AssertionError):
        compare(name, 5, "random", num_envs=2, k=1, batch_seed=5)
    with pytest.raises(AssertionError):
        compare(name, 5, "random", num_envs=1, k=0, batch_seed=6)


@pytest.mark.parametrize("variant", ["vegas", "dice_chess3", "random_move_number"])
def test_pettingzoo_equals_self_play_vecenv(variant):
    """PettingZoo (self-play) runs the same loop as VecEnv(opponent=None)."""
    pytest.importorskip("pettingzoo")
    from dicechess.pettingzoo import raw_env

    e = raw_env(variant, max_plies=MAX_PLIES, obs_layout="chw")
    v = dc.VecEnv(variant, 1, seed=13, max_plies=MAX_PLIES)
    e.reset(seed=13)
    obs, mask, rewards, term, trunc, player = v.reset()
    rng = np.random.default_rng(1)
    while True:
        agent = e.agent_selection
        p = e.agent_name_mapping[agent]
        over = e.terminations[agent] or e.truncations[agent]
        # The VecEnv shows the player to move's view, player 0's at the end.
        ob = e.observe("player_0" if over else agent)
        np.testing.assert_array_equal(ob["observation"], obs[0])
        if over:
            # PettingZoo's dead step takes None (its mask is all zero); the
            # VecEnv's finished game marks only the no-op its next step ignores.
            assert not ob["action_mask"].any()
            assert np.flatnonzero(mask[0]).tolist() == [NOOP_ACTION]
            break
        np.testing.assert_array_equal(ob["action_mask"].astype(bool), mask[0])
        assert player[0] == p
        a = int(rng.choice(np.flatnonzero(mask[0])))
        e.step(a)
        obs, mask, rewards, term, trunc, player = v.step(np.array([a]))
        assert e.state_.history() == v.history(0)
    assert [e.rewards[x] for x in e.possible_agents] == rewards[0].tolist()
    assert bool(term[0]) == all(e.terminations.values())
    assert bool(trunc[0]) == all(e.truncations.values())


def test_episode_binding_pickles_mid_game():
    import pickle

    ep = dc._core.Episode("vegas", agent_player="random", opponent="random", max_plies=60)
    ep.reset(21, 2)
    ep.step(int(np.flatnonzero(ep.mask())[0]))
    ep2 = pickle.loads(pickle.dumps(ep))
    assert ep2.history == ep.history and ep2.agent_player == ep.agent_player
    while not ep.over:
        a = int(np.flatnonzero(ep.mask())[-1])
        ep.step(a)
        ep2.step(a)
        assert ep2.history == ep.history and ep2.rolls == ep.rolls
    assert ep2.returns() == ep.returns()
    with pytest.raises(ValueError, match="agent_player"):
        dc._core.Episode("chess", agent_player=2)
    with pytest.raises(ValueError, match="illegal_action"):
        dc._core.Episode("chess", illegal_action="skip")
    assert dgym.ILLEGAL_ACTION_REWARD == -1.0
