"""Network-guided self-play speed: ``dicechess.zero``'s batched search
against the per-leaf approach, side by side in one run with one fixed net.

The net is the issue's reference size, a 6-block, 64-channel
:class:`dicechess.zero.ZeroNet` for Gardner (5x5; seeded, untrained: speed
does not depend on the weights' values). Three ways to play self-play games
with it, each with 32 simulations a move:

* **batched** (``dicechess._core._zero_play``): 128 games in flight, their
  leaves evaluated together (one network call per round, the GIL released
  while Rust searches);
* **per-leaf, Rust tree**: the same search with one game in flight, so
  every network call evaluates one leaf (what calling the net from each
  leaf costs, with the tree still in Rust);
* **OpenSpiel** (when ``open_spiel`` is installed): OpenSpiel's Python
  ``MCTSBot`` over ``dicechess.openspiel`` with an evaluator calling the net
  per leaf, the loop of OpenSpiel's Python AlphaZero evaluator.

Reported per way: network evaluations (leaves) per second, self-play
decisions per second (evaluations / 32: every decision runs 32 simulations,
and a simulation that ends in a finished game calls no network in either
search), the mean batch, and the share of wall time
spent outside the network's forward pass (target for the batched search at
batch 64 or more: under 20%). Medians of ``--rounds`` alternating rounds;
the load average is printed because the machine may be shared.

Run: ``make bench`` or ``.venv/bin/python benches/zero_selfplay.py [--quick]``
(needs torch: ``make venv-rl``).
"""

from __future__ import annotations

import argparse
import os
import statistics
import time
from typing import Any

import numpy as np

try:
    import torch

    from dicechess import _core, zero
except ImportError:  # torch is optional for `make bench`
    torch = None

VARIANT = "gardner"
SIMS = 32


def make_net() -> Any:
    torch.manual_seed(0)
    return zero.ZeroNet(zero.NetShape.for_variant(VARIANT, blocks=6, channels=64)).eval()


def batched(net: Any, games: int, parallel: int, seed: int) -> dict[str, float]:
    """Self-play with ``parallel`` games in flight, stopped once ``games``
    have finished: the steady state of a long run (the tail of a fixed set
    of games, when fewer and fewer remain in flight, is left out)."""
    ev = zero.Evaluator(net)

    def stop(finished: int, _samples: int) -> None:
        if finished >= games:
            raise KeyboardInterrupt  # _zero_play keeps what finished

    t = time.perf_counter()
    r = _core._zero_play(
        VARIANT,
        [ev],
        (0, 0),
        1_000_000,
        parallel=parallel,
        seed=seed,
        sims=SIMS,
        gumbel_m=16,
        temperature_plies=8,
        record=True,
        progress=stop,
    )
    wall = time.perf_counter() - t
    return {
        "positions/s": r["leaves"] / wall / SIMS,
        "evals/s": r["leaves"] / wall,
        "batch": r["leaves"] / r["batches"],
        "outside": 1 - ev.forward_seconds / wall,
    }


def openspiel_loop(net: Any, positions: int, seed: int) -> dict[str, float]:
    from open_spiel.python.algorithms import mcts

    from dicechess import openspiel as dos

    class NetEvaluator(mcts.Evaluator):  # type: ignore[misc]
        """OpenSpiel AlphaZero's evaluator loop: one forward per leaf."""

        def __init__(self) -> None:
            self.forward = 0.0
            self.calls = 0
            self.last: tuple[str, tuple[np.ndarray, float]] | None = None

        def _infer(self, state: Any) -> tuple[np.ndarray, float]:
            # evaluate() and prior() of one leaf share one forward (as
            # OpenSpiel's AlphaZeroEvaluator's cache makes them).
            key = str(state.history())
            if self.last is not None and self.last[0] == key:
                return self.last[1]
            obs = np.asarray(state.observation_tensor(), np.float32).reshape(1, 22, 5, 5)
            with torch.inference_mode():
                t = time.perf_counter()
                logits, value = net(torch.from_numpy(obs))
                self.forward += time.perf_counter() - t
            self.calls += 1
            out = (logits[0].numpy(), float(value[0]))
            self.last = (key, out)
            return out

        def evaluate(self, state: Any) -> np.ndarray:
            _, v = self._infer(state)
            p = state.current_player()
            return np.array([v, -v] if p == 0 else [-v, v])

        def prior(self, state: Any) -> list[tuple[int, float]]:
            if state.is_chance_node():
                return state.chance_outcomes()
            logits, _ = self._infer(state)
            legal = state.legal_actions()
            x = logits[legal] - logits[legal].max()
            p = np.exp(x) / np.exp(x).sum()
            return list(zip(legal, p))

    game = dos.load_game(VARIANT)
    ev = NetEvaluator()
    bot = mcts.MCTSBot(
        game,
        1.25,
        SIMS,
        ev,
        solve=False,
        random_state=np.random.RandomState(seed),
        child_selection_fn=mcts.SearchNode.puct_value,
    )
    rng = np.random.default_rng(seed)
    made = 0
    t = time.perf_counter()
    while made < positions:
        s = game.new_initial_state()
        while not s.is_terminal() and made < positions:
            if s.is_chance_node():
                acts, probs = zip(*s.chance_outcomes())
                s.apply_action(int(rng.choice(acts, p=probs)))
            else:
                s.apply_action(bot.step(s))
                made += 1
    wall = time.perf_counter() - t
    return {
        "positions/s": ev.calls / wall / SIMS,
        "evals/s": ev.calls / wall,
        "batch": 1.0,
        "outside": 1 - ev.forward / wall,
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--quick", action="store_true", help="fewer games, one round")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument(
        "--threads",
        type=int,
        default=1,
        help="torch threads (default 1: on a shared 2-core machine, 2 threads spin and stall)",
    )
    args = ap.parse_args()
    if torch is None:
        print("zero_selfplay: torch is not installed (make venv-rl); skipped")
        return
    torch.set_num_threads(args.threads)
    rounds = 1 if args.quick else args.rounds
    games = 32 if args.quick else 128
    net = make_net()
    try:
        import pyspiel  # noqa: F401

        have_openspiel = True
    except ImportError:
        have_openspiel = False
    rows: dict[str, list[dict[str, float]]] = {}
    for k in range(rounds):
        rows.setdefault("batched, 128 games in flight", []).append(batched(net, games, 128, k))
        rows.setdefault("per-leaf, Rust tree (1 game)", []).append(batched(net, 1, 1, k))
        if have_openspiel:
            rows.setdefault("OpenSpiel MCTSBot, per-leaf", []).append(openspiel_loop(net, 60, k))
    print(
        f"zero self-play, {VARIANT}, 6x64 net, {SIMS} simulations a move, torch threads "
        f"{torch.get_num_threads()}, load {os.getloadavg()[0]:.2f}, medians of {rounds} round(s)"
    )
    print(f"{'':32} {'decisions/s':>12} {'evals/s':>9} {'batch':>6} {'outside the net':>16}")
    med: dict[str, dict[str, float]] = {}
    for name, rs in rows.items():
        med[name] = {key: statistics.median(r[key] for r in rs) for key in rs[0]}
        m = med[name]
        print(
            f"{name:32} {m['positions/s']:12.1f} {m['evals/s']:9.0f} {m['batch']:6.1f} "
            f"{m['outside']:15.1%}"
        )
    base = med["batched, 128 games in flight"]
    for name, m in med.items():
        if name.startswith("batched"):
            continue
        print(f"batched / {name}: {base['evals/s'] / m['evals/s']:.1f}x evaluations/s")
    verdict = "met" if base["outside"] < 0.20 and base["batch"] >= 64 else "not met"
    print(
        f"target (batch >= 64, under 20% of wall time outside the net): {verdict} "
        f"(batch {base['batch']:.1f}, outside {base['outside']:.1%})"
    )


if __name__ == "__main__":
    main()
