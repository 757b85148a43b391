"""Probes of three-dice DiceChess: a player whose agent depends on the dice
left in the turn, against a fixed opponent (docs/search-measurements.md, "Not done yet").

    S=search:nodes=10000
    .venv/bin/python scripts/turn_probe.py "$S" --games 400 --seed 21
    .venv/bin/python scripts/turn_probe.py "bydice:search:nodes=100000|$S|$S"
    .venv/bin/python scripts/turn_probe.py "bydice:$S,depth=1|$S,depth=2|$S,depth=3"

The player is an agent spec, or ``bydice:A|B|C``: spec A decides with one
die left in the turn, B with two, C with three (one agent each, kept for the
whole game, so each keeps its own table). The opponent is an agent spec
(default ``expectimax:depth=2``).

Game ``i`` (from 0): the player takes player ``i % 2`` (colours alternate);
both agents are seeded with ``i``; the rolls come from Python's
``random.Random(seed * 1000003 + i // 2)``, one draw per roll, so games ``2k``
and ``2k + 1`` share their stream of draws (common dice while the games
agree). Same arguments, same results. Prints the score with its 95% Wilson
interval; ``--out`` also writes every game's points (JSON list).
"""

from __future__ import annotations

import argparse
import json
import random
from collections.abc import Callable

import dicechess as dc
from dicechess.analysis import wilson_interval

Policy = Callable[[dc.State], int]


def make_player(spec: str, seed: int) -> Policy:
    """An agent spec, or ``bydice:A|B|C`` (the spec per dice left: 1, 2, 3)."""
    if not spec.startswith("bydice:"):
        agent = dc.Agent(spec, seed=seed)
        return agent.select
    specs = spec.removeprefix("bydice:").split("|")
    if len(specs) != 3:
        raise ValueError(f"bydice needs three specs (1, 2, 3 dice left), got {len(specs)}")
    agents = {k: dc.Agent(s, seed=seed) for k, s in zip((1, 2, 3), specs)}

    def select(state: dc.State) -> int:
        left = state.dice_left
        if not left:
            raise ValueError("bydice players need three-dice DiceChess (dice left in the turn)")
        return agents[len(left)].select(state)

    return select


def roll(state: dc.State, rng: random.Random) -> int:
    """One outcome drawn from the chance node's distribution (one draw)."""
    outcomes, probs = zip(*state.chance_outcomes())
    return rng.choices(outcomes, weights=probs)[0]


def play(player: str, opponent: str, game: int, seed: int, variant: str) -> float:
    """Points of ``player`` in game ``game`` (1, 0.5 or 0)."""
    rng = random.Random(seed * 1000003 + game // 2)
    side = game % 2
    me = make_player(player, game)
    other = dc.Agent(opponent, seed=game)
    s = dc.State(variant)
    while not s.is_terminal():
        if s.is_chance_node():
            s.apply_action(roll(s, rng))
        elif s.current_player() == side:
            s.apply_action(me(s))
        else:
            s.apply_action(other.select(s))
    winner = s.winner()
    return 0.5 if winner is None else float(winner == side)


def main(argv: list[str] | None = None) -> list[float]:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("player", help="agent spec, or bydice:A|B|C")
    ap.add_argument("--opponent", default="expectimax:depth=2")
    ap.add_argument("--games", type=int, default=400)
    ap.add_argument("--seed", type=int, default=21)
    ap.add_argument("--variant", default="dice_chess3")
    ap.add_argument("--out", help="write every game's points here (JSON)")
    a = ap.parse_args(argv)
    if a.games < 1:
        ap.error("--games must be at least 1")
    points = [play(a.player, a.opponent, i, a.seed, a.variant) for i in range(a.games)]
    total = sum(points)
    lo, hi = wilson_interval(total, a.games)
    print(
        f"{a.variant}: {a.player} vs {a.opponent}, seed {a.seed}: "
        f"{total:g}/{a.games} = {total / a.games:.4f} [{lo:.3f}, {hi:.3f}]"
    )
    if a.out:
        with open(a.out, "w") as f:
            json.dump(points, f)
    return points


if __name__ == "__main__":
    main()
