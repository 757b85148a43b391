"""dicechess.sb3: the Stable-Baselines3 VecEnv over the Rust vector env.

Imports SB3 and sb3-contrib outright (requirements-rl.txt, `make venv-rl`), as
test_rl_libraries.py does: without them this file fails to import instead of
skipping."""

from __future__ import annotations

import gymnasium
import numpy as np
import pytest
from sb3_contrib import MaskablePPO
from stable_baselines3.common.env_util import make_vec_env as sb3_make_vec_env
from stable_baselines3.common.vec_env import VecEnv, VecMonitor

import dicechess.gym  # noqa: F401  (registers the ids)
import dicechess.sb3 as ds
from dicechess.rlspaces import NOOP_ACTION


def legal_actions(masks: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    return np.array([rng.choice(np.flatnonzero(m)) for m in masks])


@pytest.mark.parametrize("env_id", ["dicechess/Fluky-v0", "dicechess/Vegas-v0"])
def test_adapter_plays_the_games_of_a_dummy_vec_env(env_id: str) -> None:
    """Same seeds, same actions: the adapter's observations, rewards, dones,
    infos and masks are those of SB3's DummyVecEnv over the single env
    (which runs the same episode loop, one Python env per game)."""
    n, kw = 4, {"max_plies": 20}
    ours = ds.make_vec_env(env_id, n, seed=3, **kw)
    theirs = sb3_make_vec_env(env_id, n_envs=n, seed=3, env_kwargs=kw)
    assert isinstance(ours, VecEnv)
    assert ours.observation_space == theirs.observation_space
    assert ours.action_space == theirs.action_space
    o1, o2 = ours.reset(), theirs.reset()
    rng = np.random.default_rng(0)
    ended = 0
    for _ in range(150):
        for k in o2:
            np.testing.assert_array_equal(o1[k], o2[k])
        masks = ours.action_masks()
        np.testing.assert_array_equal(masks, np.stack(theirs.env_method("action_masks")))
        np.testing.assert_array_equal(np.stack(ours.env_method("action_masks")), masks)
        a = legal_actions(masks, rng)
        o1, r1, d1, i1 = ours.step(a)
        o2, r2, d2, i2 = theirs.step(a)
        np.testing.assert_array_equal(r1, r2)
        np.testing.assert_array_equal(d1, d2)
        for i in np.flatnonzero(d1):
            ended += 1
            t1, t2 = i1[i]["terminal_observation"], i2[i]["terminal_observation"]
            np.testing.assert_array_equal(t1["observation"], t2["observation"])
            # The final mask: only the no-op (the single env's too).
            assert np.flatnonzero(t1["action_mask"]).tolist() == [NOOP_ACTION]
            np.testing.assert_array_equal(t1["action_mask"], t2["action_mask"])
            assert i1[i]["TimeLimit.truncated"] == i2[i]["TimeLimit.truncated"]
            assert i1[i]["termination"] == i2[i]["termination"] != ""
        # Every observation returned is one to act on.
        assert ours.action_masks().any(axis=1).all()
    assert ended >= 4
    ours.close()
    with pytest.raises(ValueError, match="closed"):
        ours.step(a)


def test_maskable_ppo_learns_with_every_action_legal() -> None:
    """MaskablePPO over the adapter: the Rust env raises on any illegal
    action, so a finished learn() means every action taken was legal."""
    venv = ds.make_vec_env("dicechess/Fluky-v0", 8, seed=0, max_plies=60)
    model = MaskablePPO("MultiInputPolicy", venv, n_steps=32, batch_size=64, n_epochs=1, seed=0)
    model.learn(512)
    assert model.num_timesteps >= 512
    obs = venv.reset()
    masks = venv.action_masks()
    actions, _ = model.predict(obs, action_masks=masks)
    assert all(masks[i, a] for i, a in enumerate(actions))


@pytest.mark.slow
def test_maskable_ppo_issue_size() -> None:
    """The issue's run: MaskablePPO on 64 Fluky envs, learn(8192), every
    action legal (the env raises on any other). With n_steps=128 the rollout
    is exactly 8192 steps (about 2 minutes here); SB3's default n_steps=2048
    would collect one full 131,072-step rollout whatever the total (more
    than 50 minutes of training on a loaded 2-core machine)."""
    venv = ds.make_vec_env("dicechess/Fluky-v0", 64)
    model = MaskablePPO("MultiInputPolicy", venv, n_steps=128, seed=0)
    model.learn(8192)
    assert model.num_timesteps == 8192
    obs = venv.reset()
    masks = venv.action_masks()
    actions, _ = model.predict(obs, action_masks=masks)
    assert masks[np.arange(64), actions].all()


def test_vec_monitor_counts_episodes() -> None:
    venv = VecMonitor(ds.make_vec_env("dicechess/Vegas-v0", 4, seed=1, max_plies=12))
    venv.reset()
    rng = np.random.default_rng(1)
    episodes = []
    for _ in range(60):
        _, _, dones, infos = venv.step(legal_actions(venv.env_method("action_masks"), rng))
        episodes += [info["episode"] for info, d in zip(infos, dones) if d]
    assert episodes and all(e["l"] >= 1 for e in episodes)


def test_seed_env_method_get_attr_set_attr() -> None:
    venv = ds.make_vec_env("fluky", 3, seed=0, max_plies=16)
    assert venv.seed(10) == [10, 11, 12]
    venv.reset()
    assert venv.env.env_seeds == [10, 11, 12]
    # The seeds apply to one reset; later resets restart from them.
    venv.reset()
    assert venv.env.env_seeds == [10, 11, 12]
    single = gymnasium.make("dicechess/Fluky-v0", max_plies=16)
    obs, _ = single.reset(seed=11)
    np.testing.assert_array_equal(venv.reset()["observation"][1], obs["observation"])
    assert venv.get_attr("variant") == ["fluky"] * 3
    assert venv.get_attr("opponent", indices=[0]) == ["random"]
    assert venv.get_attr("render_mode") == [None] * 3
    assert venv.has_attr("action_masks")
    with pytest.raises(AttributeError):
        venv.get_attr("no_such_attribute")
    venv.set_attr("note", 5)
    assert venv.get_attr("note", 1) == [5]
    with pytest.raises(ValueError, match="every env at once"):
        venv.set_attr("note", 6, indices=[0])
    assert venv.env_is_wrapped(VecMonitor) == [False] * 3
    assert venv.env_method("history", indices=[2]) == [venv.env.history(2)]
    assert venv.env_method("fen", indices=0) == [venv.env.fen(0)]
    with pytest.raises(AttributeError, match="action_masks, history, fen"):
        venv.env_method("render")
    with pytest.raises(IndexError, match="from 0 to 2, got 3"):
        venv.get_attr("variant", indices=[3])
    venv.set_options({"fen": "x"})
    with pytest.raises(ValueError, match="reset options are not supported"):
        venv.reset()


def test_bad_arguments() -> None:
    with pytest.raises(ValueError, match="unknown env id 'dicechess/Nope-v0'; valid ids: "):
        ds.make_vec_env("dicechess/Nope-v0", 2)
    with pytest.raises(TypeError, match="env_id must be a str"):
        ds.make_vec_env(3, 2)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="agent spec string"):
        ds.make_vec_env("dicechess/Fluky-v0", 2, opponent=None)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="valid specs"):
        ds.make_vec_env("dicechess/Fluky-v0", 2, opponent="stockfish")
    with pytest.raises(ValueError, match="num_envs must be from 1 to 65536, got 0"):
        ds.make_vec_env("dicechess/Fluky-v0", 0)
    # The module:id form (for subprocess workers) names the same variant.
    assert ds.variant_of("dicechess.gym:dicechess/Fluky-v0") == "fluky"
    venv = ds.make_vec_env("dicechess/Fluky-v0", 2)
    with pytest.raises(RuntimeError, match="step_async"):
        venv.step_wait()
    with pytest.raises(NotImplementedError, match="does not render"):
        venv.get_images()


def test_subproc_vec_env_from_a_notebook_cell(tmp_path, monkeypatch) -> None:
    """SB3's SubprocVecEnv started from a Jupyter cell (run by nbclient on the
    venv's kernel): its workers are fresh interpreters, so the id names the
    module that registers it, "dicechess.gym:dicechess/Fluky-v0" (docs/rl.md)."""
    import sys
    from pathlib import Path

    import nbformat
    from nbclient import NotebookClient

    cell = (
        "from sb3_contrib import MaskablePPO\n"
        "from stable_baselines3.common.env_util import make_vec_env\n"
        "from stable_baselines3.common.vec_env import SubprocVecEnv\n"
        "venv = make_vec_env('dicechess.gym:dicechess/Fluky-v0', n_envs=2, seed=0,\n"
        "                    vec_env_cls=SubprocVecEnv, env_kwargs={'max_plies': 40})\n"
        "model = MaskablePPO('MultiInputPolicy', venv, n_steps=64, batch_size=64, seed=0)\n"
        "model.learn(128)\n"
        "venv.close()\n"
        "print(model.num_timesteps)\n"
    )
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(cell)])
    venv_dir = Path(sys.executable).parent.parent
    # The venv's kernelspec, never one in the home directory (as `make notebooks`).
    monkeypatch.setenv("JUPYTER_PATH", str(venv_dir / "share" / "jupyter"))
    monkeypatch.setenv("JUPYTER_PREFER_ENV_PATH", "1")
    NotebookClient(
        nb, timeout=600, kernel_name="python3", resources={"metadata": {"path": str(tmp_path)}}
    ).execute()
    out = "".join(o.get("text", "") for o in nb.cells[0].outputs if o.output_type == "stream")
    assert int(out.split()[-1]) >= 128


def test_sb3_make_vec_env_with_a_callable_opponent() -> None:
    shapes: list[tuple[int, ...]] = []

    def frozen(obs: np.ndarray, mask: np.ndarray) -> np.ndarray:
        shapes.append(obs.shape)
        return np.argmax(mask, axis=1)

    venv = ds.make_vec_env(
        "dicechess/Vegas-v0", 4, seed=2, opponent=frozen, obs_layout="hwc", max_plies=12
    )
    assert venv.opponent is frozen
    venv.reset()
    for _ in range(20):
        _, _, _, infos = venv.step(np.argmax(venv.action_masks(), axis=1))
        assert all("opponent_index" not in i for i in infos)  # one opponent: no index
    # The callable sees the adapter's layout ("hwc"), batch first.
    assert shapes and {s[1:] for s in shapes} == {venv.observation_space["observation"].shape}
    pool = ds.make_vec_env(
        "dicechess/Vegas-v0", 4, seed=2, opponent=["greedy", frozen], max_plies=12
    )
    assert pool.get_attr("opponent")[0] == ["greedy", frozen]
    pool.reset()
    seen = set()
    for _ in range(40):
        _, _, _, infos = pool.step(np.argmax(pool.action_masks(), axis=1))
        seen |= {i["opponent_index"] for i in infos}
    assert seen == {0, 1}


def test_maskable_ppo_against_a_frozen_copy_of_itself() -> None:
    """The docs' self-play recipe: the opponent is a frozen copy's predict."""
    frozen_model: list[MaskablePPO] = []

    def frozen(obs: np.ndarray, mask: np.ndarray) -> np.ndarray:
        action, _ = frozen_model[0].predict(
            {"observation": obs, "action_mask": mask.astype(np.int8)},
            action_masks=mask,
            deterministic=True,
        )
        return action

    venv = ds.make_vec_env("dicechess/Fluky-v0", 4, opponent=[frozen, "random"], max_plies=40)
    model = MaskablePPO("MultiInputPolicy", venv, n_steps=32, batch_size=64, seed=0)
    frozen_model.append(MaskablePPO("MultiInputPolicy", venv, seed=1))
    frozen_model[0].policy.load_state_dict(model.policy.state_dict())
    model.learn(128)
    assert model.num_timesteps >= 128
