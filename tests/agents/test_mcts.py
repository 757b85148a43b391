"""The ``mcts`` agent from Python: budgets, determinism, tactics, spec errors."""

import pytest

import dicechess as dc

MATE_IN_ONE = "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1"


@pytest.mark.parametrize("spec", ["mcts:sims=1", "mcts:sims=200", "mcts:nodes=2000"])
def test_mate_in_one(spec: str) -> None:
    s = dc.State("chess", fen=MATE_IN_ONE)
    assert dc.Agent(spec, seed=1).select(s) == s.string_to_action("Ra8#")


@pytest.mark.parametrize("variant", ["chess", "vegas", "dice_chess3", "random_move_number"])
def test_same_seed_same_move_and_policy(variant: str) -> None:
    s = dc.State(variant)
    k = 0
    while s.is_chance_node():  # varied outcomes: equal throws would tie forever
        outcomes = s.chance_outcomes()
        s.apply_action(outcomes[k % len(outcomes)][0])
        k += 1
    a, b = dc.Agent("mcts:sims=64", seed=5), dc.Agent("mcts:sims=64", seed=5)
    assert a.select(s) == b.select(s)
    assert a.policy(s) == b.policy(s)
    assert a.select(s) in s.legal_actions()


def test_canonical_spec() -> None:
    assert dc.Agent("mcts:sims=7").spec == (
        "mcts:sims=7,c=1.4,select=puct,leaf=qsearch,rollout=none,rollout_plies=40"
    )
    # The first-wave agent (docs/search-measurements.md): `chance` shows only when not default.
    first_wave = "mcts:sims=200,select=uct,leaf=material,chance=sample,rollout=random,c=0.7"
    assert dc.Agent(first_wave).spec == (
        "mcts:sims=200,c=0.7,select=uct,leaf=material,chance=sample,rollout=random,rollout_plies=40"
    )


@pytest.mark.parametrize(
    ("spec", "why"),
    [
        ("mcts", "needs a budget"),
        ("mcts:sims=5,select=ucb", "select must be puct or uct"),
        ("mcts:sims=5,leaf=deep", "leaf must be qsearch, static or material"),
        ("mcts:sims=5,chance=all", "chance must be stratified or sample"),
        ("mcts:ms=abc", "ms must be an integer"),
        ("mcts:sims=5,depth=2", "unknown parameter"),
    ],
)
def test_bad_specs(spec: str, why: str) -> None:
    with pytest.raises(ValueError, match=why) as e:
        dc.Agent(spec)
    assert "sims, nodes, ms, c, select, leaf, chance, rollout, rollout_plies" in str(e.value)
