"""The luck dial from Python: ``luck=q`` as a keyword or in the variant spec
(``"chess:luck=0.1"``) wherever a variant is taken, its chance nodes, errors,
pickles, records and runs (docs/rules.md, "The luck option")."""

from __future__ import annotations

import pickle

import numpy as np
import pytest

import dicechess as dc
from dicechess import records


def test_keyword_and_spec_make_the_same_game() -> None:
    a = dc.State("chess", luck=0.1)
    b = dc.State("chess:luck=0.1")
    assert a.variant == b.variant == "chess"
    assert a.options == b.options == {"luck": 0.1, "max_plies": 1000}
    assert a.fen() == b.fen() == dc.State("chess").fen() + " luck:?"
    assert a.is_chance_node()
    assert [(a.action_to_string(x), p) for x, p in a.chance_outcomes()] == [
        ("free", pytest.approx(0.9)),
        ("random", pytest.approx(0.1)),
    ]


def test_a_random_decision_is_drawn_uniformly_and_played_for_the_mover() -> None:
    s = dc.State("gardner", luck=0.5)
    s.apply_action(s.string_to_action("random"))
    outcomes = s.chance_outcomes()
    names = sorted(s.action_to_string(a) for a, _ in outcomes)
    free = dc.State("gardner")
    assert names == sorted(free.action_to_string(a) for a in free.legal_actions())
    assert all(p == pytest.approx(1 / len(outcomes)) for _, p in outcomes)
    move = names[0]
    s.apply_action(s.string_to_action(move))
    free.apply_action(free.string_to_action(move))
    assert s.fen() == free.fen() + " luck:?"


def test_luck_zero_is_the_plain_variant() -> None:
    assert dc.State("chess", luck=0).fen() == dc.State("chess").fen()
    assert not dc.State("chess", luck=0.0).is_chance_node()
    assert "luck" not in dc.State("chess").options


@pytest.mark.parametrize(
    ("variant", "options", "needle"),
    [
        ("chess", {"luck": 1.5}, "from 0 to 1"),
        ("chess", {"luck": -0.01}, "from 0 to 1"),
        ("chess", {"luck": "much"}, "must be a number"),
        ("chess:luck", {}, "key=value"),
        ("chess:luck=0.1", {"luck": 0.3}, "but"),
        ("nochess:luck=0.1", {}, "unknown variant"),
        ("chess:lucky=0.1", {}, "also takes luck"),
    ],
)
def test_bad_luck_is_a_value_error(variant: str, options: dict, needle: str) -> None:
    with pytest.raises(ValueError, match=needle):
        dc.State(variant, **options)


def test_pickles_and_fens_read_back() -> None:
    s = dc.State("fluky", luck=0.3)
    rng = np.random.default_rng(3)
    for _ in range(40):
        if s.is_terminal():
            break
        acts = s.legal_actions()
        s.apply_action(int(acts[rng.integers(len(acts))]))
        again = pickle.loads(pickle.dumps(s))
        assert again.fen() == s.fen()
        assert dc.State("fluky", luck=0.3, fen=s.fen()).fen() == s.fen()


def test_a_start_after_the_coin_pickles_and_restarts() -> None:
    # The default position with the coin already tossed ("free"): the options
    # must say so, or the replay would start at the coin.
    start = dc.State("chess").fen() + " luck:-"
    s = dc.State("chess", luck=0.2, fen=start)
    assert not s.is_chance_node()
    s.apply_san("e4")
    again = pickle.loads(pickle.dumps(s))
    assert again.fen() == s.fen()
    assert dc.State("chess", **s.options).fen() == start


def test_records_replay_games_with_luck() -> None:
    r = dc.playouts("chess:luck=0.4", 3, seed=5, max_plies=60)
    s = dc.State("chess", luck=0.4, max_plies=60)
    rng = np.random.default_rng(1)
    while not s.is_terminal():
        if s.is_chance_node():
            acts, probs = zip(*s.chance_outcomes())
            s.apply_action(int(rng.choice(acts, p=np.array(probs) / sum(probs))))
        else:
            acts = s.legal_actions()
            s.apply_action(int(acts[rng.integers(len(acts))]))
    text = records.to_pgn(s)
    assert "{roll random}" in text or "{roll free}" in text
    back = records.read_pgn(text)[0]
    assert back.options["luck"] == 0.4
    line = records.to_jsonl_line(s)
    assert records.read_jsonl(__import__("io").StringIO(line))[0].actions == back.actions
    assert len(r) == 3 and r.options["luck"] == 0.4


def test_runs_take_the_spec_and_are_reproducible() -> None:
    a = dc.playouts("gardner:luck=0.25", 50, seed=2)
    b = dc.playouts("gardner", 50, seed=2, luck=0.25)
    assert (a.winner == b.winner).all() and (a.plies == b.plies).all()
    c = dc.playouts("gardner", 50, seed=2)
    assert not (a.plies == c.plies).all()
    p = dc.paired_games("chess:luck=0.2", ("search:nodes=32", "random"), 2, seed=1, progress=False)
    assert p.options["luck"] == 0.2
    env = dc.VecEnv("gardner:luck=0.3", 2, seed=1)
    obs = env.reset()
    assert obs is not None


def test_gym_envs_take_the_luck_option() -> None:
    gym = pytest.importorskip("gymnasium")
    env = gym.make("dicechess/Gardner-v0", luck=0.3)
    obs, info = env.reset(seed=1)
    assert "luck:" in info["fen"]
    for _ in range(10):
        action = int(np.flatnonzero(obs["action_mask"])[0])
        obs, _, terminated, truncated, info = env.step(action)
        if terminated or truncated:
            break
    with pytest.raises(ValueError, match="from 0 to 1"):
        gym.make("dicechess/Gardner-v0", luck=2.0).reset()
