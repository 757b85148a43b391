"""Playing with a network: matches against built-in agents in pairs on
common dice (many games at once, one network call per batch), and the
network as an agent ``state -> action`` for arenas, playouts, env
opponents and ``dicechess play``."""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from .. import _core
from .._core import State
from ..sim import wilson_interval


@dataclass(frozen=True)
class MatchResult:
    """A network against an opponent: ``games`` games in pairs on common
    dice (the network White in one game of a pair, Black in the other)."""

    opponent: str
    games: int
    wins: int
    draws: int
    losses: int
    #: Interrupted before every pair finished (the counts are the games that did).
    interrupted: bool = False

    @property
    def score(self) -> float:
        """Points per game (a win 1, a draw 1/2)."""
        return (self.wins + 0.5 * self.draws) / self.games if self.games else float("nan")

    @property
    def interval(self) -> tuple[float, float]:
        """The score's 95% Wilson interval (draws as half a point)."""
        return wilson_interval(self.wins + 0.5 * self.draws, self.games)

    def __str__(self) -> str:
        lo, hi = self.interval
        return (
            f"{self.opponent}: {self.score:.3f} [{lo:.3f}, {hi:.3f}] over {self.games} games "
            f"(+{self.wins} ={self.draws} -{self.losses})"
        )


def match(
    evaluate: Callable[[np.ndarray, np.ndarray], tuple[np.ndarray, np.ndarray]],
    variant: str,
    opponent: str,
    pairs: int,
    *,
    sims: int = 200,
    seed: int = 0,
    opening_plies: int = 2,
    parallel: int = 64,
    gumbel_m: int = 0,
    c_puct: float = 1.25,
    options: dict[str, Any] | None = None,
    progress: Callable[[int, int], object] | None = None,
) -> MatchResult:
    """Plays ``pairs`` pairs of games of the network (``evaluate``, e.g. a
    :class:`dicechess.zero.Evaluator`) with ``sims`` simulations a move
    against ``opponent`` (a built-in agent spec), the pair's two games on
    the same dice and the same ``opening_plies`` uniformly random first
    decisions (so that deterministic players in a game without dice do not
    play every pair alike). The network decides by most visits (no noise).
    Ctrl-C returns the games finished so far (``interrupted=True``)."""
    opp = _core._agent_spec(opponent)
    r = _core._zero_play(
        variant,
        [evaluate],
        (0, opp),
        2 * pairs,
        parallel=parallel,
        seed=seed,
        sims=sims,
        c_puct=c_puct,
        gumbel_m=gumbel_m,
        opening_plies=opening_plies,
        paired=True,
        progress=(lambda g, _s: progress(g, 2 * pairs)) if progress else None,
        options=options or {},
    )
    g = r["games"]
    # The network is seat 0: player 0 in even games, player 1 in odd ones.
    net_return = np.where(g["seat_of_player0"] == 0, g["return0"], -g["return0"])
    return MatchResult(
        opponent=opp,
        games=len(net_return),
        wins=int((net_return > 0).sum()),
        draws=int((net_return == 0).sum()),
        losses=int((net_return < 0).sum()),
        interrupted=bool(r["interrupted"]),
    )


@dataclass(frozen=True)
class LuckPairs:
    """Pairs of games between a stronger and a weaker search over one
    network, every chance event valued by the network (its luck for the
    stronger side). ``rows[k]``: the stronger side's result in [-1, 1] and
    its luck in pair ``k``'s first game (it is player 0), then the same in
    the second (it is player 1), as the study's luck families give them."""

    rows: np.ndarray
    plies: np.ndarray
    rolls: np.ndarray
    interrupted: bool = False


def luck_pairs(
    evaluate: Callable[[np.ndarray, np.ndarray], tuple[np.ndarray, np.ndarray]],
    variant: str,
    pairs: int,
    *,
    strong_sims: int = 32,
    weak_sims: int = 4,
    seed: int = 0,
    parallel: int = 64,
    options: dict[str, Any] | None = None,
    progress: Callable[[int, int], object] | None = None,
) -> LuckPairs:
    """Plays ``pairs`` pairs of games of ``variant`` between the network
    searching ``strong_sims`` and ``weak_sims`` simulations a move, on
    common dice (the stronger side player 0 in the first game of a pair,
    player 1 in the second), and values every chance event with the
    network's value head: the value after the outcome drawn minus the value
    expected before it, each outcome's value the exact expectation over
    the chance nodes that follow it (a chain of chance nodes past three
    levels, or past 4,096 states, valued by the network itself). The games
    are the same as without the valuation. Ctrl-C returns the pairs
    finished so far (``interrupted=True``)."""
    if strong_sims < 1 or weak_sims < 1:
        raise ValueError(f"simulation budgets must be positive, got {strong_sims}, {weak_sims}")
    r = _core._zero_play(
        variant,
        [evaluate, evaluate],
        (0, 1),
        2 * pairs,
        parallel=parallel,
        seed=seed,
        sims=strong_sims,
        net_sims=[strong_sims, weak_sims],
        value_chance=0,
        paired=True,
        progress=(lambda g, _s: progress(g, 2 * pairs)) if progress else None,
        options=options or {},
    )
    g = r["games"]
    order = np.argsort(g["index"], kind="stable")
    index, return0, luck0 = g["index"][order], g["return0"][order], g["luck_sum"][order]
    plies, rolls = g["plies"][order], g["n_rolls"][order]
    # Whole pairs only (an interrupted run may end with half of one).
    pair = index // 2
    whole = np.bincount(pair)[pair] == 2
    index, return0, luck0 = index[whole], return0[whole], luck0[whole]
    plies, rolls = plies[whole], rolls[whole]
    first = index % 2 == 0
    rows = np.stack(
        [return0[first], luck0[first], -return0[~first], -luck0[~first]], axis=1
    ).astype(float)
    return LuckPairs(
        rows=rows,
        plies=np.stack([plies[first], plies[~first]], axis=1).astype(int),
        rolls=np.stack([rolls[first], rolls[~first]], axis=1).astype(int),
        interrupted=bool(r["interrupted"]),
    )


class ZeroAgent:
    """A network as an agent ``state -> action``: one search of ``sims``
    simulations per decision (``leaves_per_tree`` leaves per network call),
    the most visited decision. ``ZeroAgent.from_spec("zero:model=DIR/best.pt,sims=200")``
    builds one from a spec string, which arenas, playouts, env opponents and
    ``dicechess play`` also take."""

    def __init__(
        self,
        model: str | os.PathLike[str] | Any,
        *,
        sims: int = 200,
        c_puct: float = 1.25,
        gumbel_m: int = 0,
        leaves_per_tree: int = 8,
        seed: int = 0,
        device: str | None = None,
    ) -> None:
        from .checkpoint import load_model
        from .net import Evaluator, ZeroNet

        self.info: dict[str, Any]
        if isinstance(model, ZeroNet):
            net, self.info = model, {}
            self.name = "zero"
        else:
            net, self.info = load_model(model, device)
            self.name = f"zero:model={model}"
        self.evaluator = Evaluator(net, device)
        self.sims, self.c_puct, self.gumbel_m = int(sims), float(c_puct), int(gumbel_m)
        self.leaves_per_tree, self.seed = int(leaves_per_tree), int(seed)
        self.__qualname__ = f"{self.name},sims={self.sims}"

    @classmethod
    def from_spec(cls, spec: str) -> ZeroAgent:
        """``zero:model=PATH[,sims=N][,c_puct=X][,gumbel_m=M][,leaves_per_tree=K][,seed=S][,device=D]``."""
        name, _, rest = spec.partition(":")
        if name != "zero":
            raise ValueError(f"not a zero spec: {spec!r}")
        kw: dict[str, Any] = {}
        ints = {"sims", "gumbel_m", "leaves_per_tree", "seed"}
        for part in filter(None, (p.strip() for p in rest.split(","))):
            key, eq, value = part.partition("=")
            if not eq:
                raise ValueError(f"zero spec {spec!r}: {part!r} is not key=value")
            if key in ints:
                kw[key] = int(value)
            elif key == "c_puct":
                kw[key] = float(value)
            elif key in ("model", "device"):
                kw[key] = value
            else:
                raise ValueError(
                    f"zero spec {spec!r}: unknown key {key!r} (model, sims, c_puct, gumbel_m, "
                    "leaves_per_tree, seed, device)"
                )
        if "model" not in kw:
            raise ValueError(f"zero spec {spec!r} needs model=PATH (a best.pt written by training)")
        return cls(kw.pop("model"), **kw)

    def search(self, state: State) -> tuple[int, float, np.ndarray, np.ndarray]:
        """``(action, value for the deciding player, legal actions, policy)``."""
        return _core._zero_search(
            state,
            self.evaluator,
            seed=self.seed,
            sims=self.sims,
            c_puct=self.c_puct,
            gumbel_m=self.gumbel_m,
            leaves_per_tree=self.leaves_per_tree,
        )

    def __call__(self, state: State) -> int:
        return int(self.search(state)[0])

    def __repr__(self) -> str:
        return f"ZeroAgent({self.__qualname__!r})"


@dataclass(frozen=True)
class LadderPlace:
    """A network's matches against the rungs of the ``search`` ladder."""

    results: tuple[MatchResult, ...]

    @property
    def place(self) -> str:
        """Where the network sits: ``"below <first rung>"``, ``"between A and
        B"`` (it scores at least 1/2 against A and below 1/2 against B), or
        ``"above <last rung>"``."""
        rungs = self.results
        for i, r in enumerate(rungs):
            if r.score < 0.5:
                return (
                    f"below {r.opponent}"
                    if i == 0
                    else f"between {rungs[i - 1].opponent} and {r.opponent}"
                )
        return f"above {rungs[-1].opponent}"

    def __str__(self) -> str:
        return "\n".join([*(str(r) for r in self.results), f"place: {self.place}"])


def ladder(
    evaluate: Callable[[np.ndarray, np.ndarray], tuple[np.ndarray, np.ndarray]],
    variant: str,
    nodes: tuple[int, ...] = (16, 64, 256, 1024, 4096),
    pairs: int = 50,
    **kw: Any,
) -> LadderPlace:
    """The network's place on the ``search:nodes=N`` ladder: a :func:`match`
    of ``pairs`` pairs against each rung (``kw`` as :func:`match`'s)."""
    return LadderPlace(
        tuple(match(evaluate, variant, f"search:nodes={n}", pairs, **kw) for n in nodes)
    )


def plot_learning_curve(
    log: str | os.PathLike[str] | list[dict[str, Any]], ax: Any = None, ladder: bool = False
) -> Any:
    """The evaluation scores of a training run by iteration (``log``: the
    run's directory, its ``log.json``, or its rows), one line per opponent
    with its 95% interval as a band. ``ladder=True``: instead, the network's
    place on the ``search`` ladder by iteration (the node budget where its
    score crosses 1/2, ``ladder_log2_nodes`` in the log). Returns the axes."""
    import json
    from pathlib import Path

    import matplotlib.pyplot as plt

    if not isinstance(log, list):
        p = Path(log)
        rows = json.loads((p / "log.json" if p.is_dir() else p).read_text())
    else:
        rows = log
    if ax is None:
        _, ax = plt.subplots(figsize=(7, 4))
    if ladder:
        pts = [r for r in rows if "ladder_log2_nodes" in r]
        ax.plot(
            [r["iteration"] for r in pts],
            [2 ** r["ladder_log2_nodes"] for r in pts],
            marker="o",
            label="scores 1/2 against search:nodes=N",
        )
        ax.set_yscale("log", base=2)
        ax.set_xlabel("iteration")
        ax.set_ylabel("search nodes N")
        ax.set_title("Learning curve: place on the search ladder")
        if pts:
            ax.legend(fontsize="small")
        return ax
    opponents = sorted(
        {
            k[6:]
            for r in rows
            for k in r
            if k.startswith("score_") and not k.endswith(("_lo", "_hi"))
        }
    )
    for opp in opponents:
        pts = [r for r in rows if f"score_{opp}" in r]
        x = [r["iteration"] for r in pts]
        ax.plot(x, [r[f"score_{opp}"] for r in pts], marker="o", label=opp)
        ax.fill_between(
            x, [r[f"score_{opp}_lo"] for r in pts], [r[f"score_{opp}_hi"] for r in pts], alpha=0.2
        )
    ax.axhline(0.5, color="grey", lw=0.8, ls="--")
    ax.set_ylim(0, 1)
    ax.set_xlabel("iteration")
    ax.set_ylabel("score against the opponent (95% interval)")
    ax.set_title("Learning curve: evaluation scores during training")
    if opponents:
        ax.legend(title="opponent", fontsize="small")
    return ax
