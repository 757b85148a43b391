"""``scripts/turn_probe.py``: the three-dice probes of docs/search-measurements.md replay
(same arguments, same games) and pick the agent by the dice left."""

import json
import random

import pytest

import dicechess as dc


@pytest.fixture(scope="module")
def probe(load_script):
    return load_script("turn_probe")


def test_same_arguments_same_games(probe, tmp_path, capsys):
    args = ["search:nodes=100", "--opponent", "random", "--games", "4", "--seed", "5"]
    out = tmp_path / "points.json"
    first = probe.main([*args, "--out", str(out)])
    assert probe.main(args) == first == json.loads(out.read_text())
    assert all(p in (0.0, 0.5, 1.0) for p in first)
    assert "vs random, seed 5:" in capsys.readouterr().out


def test_bydice_asks_the_agent_of_the_dice_left(probe):
    specs = ["search:nodes=30", "expectimax:depth=1", "search:nodes=60"]
    player = probe.make_player("bydice:" + "|".join(specs), 0)
    s = dc.State("dice_chess3")
    s.apply_action(s.chance_outcomes()[0][0])
    seen = set()
    while not s.is_chance_node() and not s.is_terminal():
        left = len(s.dice_left)
        seen.add(left)
        a = player(s)
        assert a == dc.Agent(specs[left - 1], seed=0).select(s)
        s.apply_action(a)
    assert seen == {1, 2, 3}


def test_bydice_needs_three_specs_and_three_dice(probe):
    with pytest.raises(ValueError, match="three specs"):
        probe.make_player("bydice:random|random", 0)
    player = probe.make_player("bydice:random|random|random", 0)
    with pytest.raises(ValueError, match="three-dice DiceChess"):
        player(dc.State("chess"))


def test_rolls_follow_the_distribution(probe):
    s = dc.State("dice_chess3")
    outcomes = dict(s.chance_outcomes())
    rng = random.Random(0)
    draws = [probe.roll(s, rng) for _ in range(20000)]
    pnk = next(o for o in outcomes if s.action_to_string(o) == "PNK")
    # PNK: 6/216; 20,000 draws give 556 expected, sd about 23.
    assert abs(draws.count(pnk) - 20000 * outcomes[pnk]) < 5 * 23
