"""dc.Agent and agent playouts: decisions, policies, determinism, bad input."""

from __future__ import annotations

import pytest

import dicechess as dc

SPECS = ["random", "greedy", "expectimax:depth=2", "mcts:sims=50"]


@pytest.mark.parametrize("spec", SPECS)
def test_mate_in_one_and_policy(spec: str) -> None:
    s = dc.State("chess", fen="6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1")
    a = dc.Agent(spec, seed=1)
    pol = dict(a.policy(s))
    assert set(pol) == set(s.legal_actions())
    assert abs(sum(pol.values()) - 1.0) < 1e-9
    act = a.select(s)
    assert act in s.legal_actions()
    if spec != "random":
        assert s.action_to_string(act) == "Ra8#"
    # Same seed, same calls: same decision.
    assert dc.Agent(spec, seed=1).select(s) == dc.Agent(spec, seed=1).select(s)


@pytest.mark.parametrize(
    "bad", ["alphazero", "mcts:sims=-3", "expectimax:depth=x", "greedy:depth=2"]
)
def test_bad_specs(bad: str) -> None:
    with pytest.raises(ValueError, match="valid specs"):
        dc.Agent(bad)
    with pytest.raises(ValueError, match="valid specs"):
        dc.playouts("chess", 2, agents=(bad, "random"))


def test_not_a_decision_node() -> None:
    s = dc.State("vegas")
    assert s.is_chance_node()
    with pytest.raises(ValueError, match="decision"):
        dc.Agent("greedy").select(s)


@pytest.mark.parametrize("variant", dc.variants())
def test_agent_playouts_reproducible(variant: str) -> None:
    a = dc.playouts(variant, 6, seed=2, agents=("greedy", "random"), threads=1, max_plies=40)
    b = dc.playouts(
        variant, 6, seed=2, agents=("greedy", "random"), threads=2, chunk_size=4, max_plies=40
    )
    assert (a.winner == b.winner).all() and (a.plies == b.plies).all()
