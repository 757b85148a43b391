"""Running the study: for each variant, random playouts (colour advantage,
game lengths, endings), a round-robin arena over an agent ladder (ratings,
luck share, ladder depth), per-roll luck along greedy games, and, against
orthodox chess with the same agents, the p-chess equivalent.

Every number is reproducible from the seed: each part of each variant gets
its own seed derived from ``(seed, variant, part)``, so a variant's numbers
do not depend on which other variants run.
"""

from __future__ import annotations

import platform
import time
import zlib
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

import numpy as np

from .. import __version__, _core
from ..analysis import (
    colour_advantage,
    fit_ratings,
    ladder_depth,
    luck_share,
    p_equivalent,
)
from ..arena import ArenaResult, arena
from ..luck import RollLuckResult, roll_luck
from ..sim import PlayoutResult, playouts

#: The default agent ladder, weakest first (docs/agents.md has the measurements).
DEFAULT_AGENTS = ("random", "greedy", "expectimax:depth=2", "mcts:sims=200")
QUICK_AGENTS = ("random", "greedy", "expectimax:depth=1")
#: The variants without dice: zero-luck controls.
CONTROLS = ("chess", "cubic", "cubic_checkers", "gardner")


@dataclass
class StudyConfig:
    """Everything that determines a study's numbers (recorded in results.json)."""

    variants: list[str] = field(default_factory=lambda: list(_core.variants()))
    agents: list[str] = field(default_factory=lambda: list(DEFAULT_AGENTS))
    #: Arena games per pair of agents (colours alternated).
    games_per_pair: int = 60
    #: Random-vs-random games per variant (colour advantage, lengths, endings).
    playout_games: int = 20_000
    #: Greedy-vs-greedy games per variant for per-roll luck.
    luck_games: int = 200
    #: Depth of the expectimax evaluator that values each roll.
    luck_depth: int = 1
    #: Bootstrap resamples for the p-equivalent interval.
    bootstrap: int = 200
    seed: int = 0
    threads: int | None = None
    backend: str = "local"
    ray_address: str | None = None
    quick: bool = False

    @classmethod
    def quick_config(cls, **kw: Any) -> StudyConfig:
        """A small, fast study (a minute or less): the shape of the full one."""
        base: dict[str, Any] = {
            "agents": list(QUICK_AGENTS),
            "games_per_pair": 16,
            "playout_games": 500,
            "luck_games": 12,
            "bootstrap": 20,
            "quick": True,
        }
        base.update({k: v for k, v in kw.items() if v is not None})
        return cls(**base)

    def check(self) -> None:
        """ValueError for unknown variants or agents and non-positive sizes."""
        known = _core.variants()
        unknown = [v for v in self.variants if v not in known]
        if unknown:
            raise ValueError(f"unknown variant(s) {', '.join(unknown)}; known: {', '.join(known)}")
        if not self.variants:
            raise ValueError("at least one variant is needed")
        if len(self.agents) < 2:
            raise ValueError(f"the study needs at least 2 agents, got {len(self.agents)}")
        for a in self.agents:
            _core._agent_spec(a)  # ValueError listing the valid specs
        for name in ("games_per_pair", "playout_games", "luck_games"):
            if getattr(self, name) < 1:
                raise ValueError(f"{name} must be at least 1, got {getattr(self, name)}")


def part_seed(seed: int, variant: str, part: str) -> int:
    """The seed of one part of one variant: a pure function of its inputs."""
    return (seed * 0x9E3779B1 + zlib.crc32(f"{variant}/{part}".encode())) % 2**63


@dataclass
class VariantData:
    """The raw per-game results behind a variant's numbers (for plots and CSV)."""

    playouts: PlayoutResult
    arena: ArenaResult
    luck: RollLuckResult | None


@dataclass
class Study:
    """A finished study: JSON-ready ``results`` plus the raw data per variant."""

    results: dict[str, Any]
    data: dict[str, VariantData]


def _finished(result: Any) -> None:
    """Stops the study (KeyboardInterrupt) when a run was cut short by Ctrl-C:
    the variants finished before it are kept, this one is dropped."""
    if result.interrupted:
        raise KeyboardInterrupt


#: Modules the study needs besides numpy (``pip install 'dicechess[analysis]'``).
STUDY_MODULES = ("scipy", "pandas", "matplotlib")


def missing_modules(progress: bool = False) -> list[str]:
    """The modules the study (and its report) needs that are not installed."""
    import importlib.util

    need = STUDY_MODULES + (("tqdm",) if progress else ())
    return [m for m in need if importlib.util.find_spec(m) is None]


def _floats(a: Any) -> Any:
    return np.asarray(a, dtype=float).tolist()


def _variant(
    v: str, cfg: StudyConfig, tick: Callable[[str], None]
) -> tuple[dict[str, Any], VariantData]:
    run: dict[str, Any] = {"threads": cfg.threads, "progress": False}
    dist: dict[str, Any] = {"backend": cfg.backend, "ray_address": cfg.ray_address}
    seconds: dict[str, float] = {}

    t0 = time.perf_counter()
    tick(f"{v}: playouts")
    po = playouts(v, cfg.playout_games, seed=part_seed(cfg.seed, v, "playouts"), **run, **dist)
    _finished(po)
    s = po.summary()
    seconds["playouts"] = time.perf_counter() - t0
    colour = colour_advantage(
        s["white_wins"], s["black_wins"], s["games"] - s["white_wins"] - s["black_wins"]
    )
    plies = po.plies.astype(float)

    t0 = time.perf_counter()
    tick(f"{v}: arena")
    ar = arena(
        v, cfg.agents, cfg.games_per_pair, seed=part_seed(cfg.seed, v, "arena"), **run, **dist
    )
    seconds["arena"] = time.perf_counter() - t0
    _finished(ar)
    wins, draws = ar.wins, ar.draws
    fit = fit_ratings(wins, draws, names=ar.agents)
    share = luck_share(wins, draws)
    # The ladder in the fitted rating order (ladder_depth would refit the same ratings).
    order = [int(i) for i in np.argsort(-fit.ratings, kind="stable")]
    ladder = ladder_depth(wins, draws, order=order, confidence=0.95)
    asum = ar.summary()

    lk = None
    luck_row = None
    if cfg.luck_games and v not in CONTROLS:
        t0 = time.perf_counter()
        tick(f"{v}: roll luck")
        lk = roll_luck(
            v,
            cfg.luck_games,
            agents=("greedy", "greedy"),
            eval_depth=cfg.luck_depth,
            per_roll=True,
            seed=part_seed(cfg.seed, v, "luck"),
            **run,
        )
        _finished(lk)
        luck_row = lk.summary()
        seconds["roll_luck"] = time.perf_counter() - t0

    row = {
        "variant": v,
        "options": po.options,
        "seeds": {p: part_seed(cfg.seed, v, p) for p in ("playouts", "arena", "luck")},
        "seconds": seconds,
        "playouts": {
            **s,
            "colour_advantage": colour,
            "plies_quartiles": _floats(np.percentile(plies, [25, 50, 75])) if len(plies) else [],
        },
        "arena": {
            "agents": ar.agents,
            "games_per_pair": ar.games_per_pair,
            "games": ar.games,
            "wins": wins.tolist(),
            "draws": draws.tolist(),
            "scores": [[None if np.isnan(x) else float(x) for x in r] for r in ar.scores()],
            "player0_score": asum["player0_score"],
            "draw_rate": asum["draw_rate"],
            "truncated_rate": asum["truncated_rate"],
            "mean_plies": float(ar.plies.mean()),
        },
        "ratings": {
            "agents": fit.names,
            "elo": _floats(fit.ratings),
            "lo": _floats(fit.lo),
            "hi": _floats(fit.hi),
            "nu": fit.nu,
            "spread": fit.spread(),
            "mle_exists": fit.mle_exists,
        },
        "luck_share": asdict(share),
        "ladder": {
            "depth": ladder.depth,
            "order": [ar.agents[i] for i in ladder.order],
            "pairs": [
                {**p, "stronger": ar.agents[p["stronger"]], "weaker": ar.agents[p["weaker"]]}
                for p in ladder.pairs
            ],
        },
        "roll_luck": luck_row,
        "p_equivalent": None,
    }
    return row, VariantData(po, ar, lk)


def run_study(
    config: StudyConfig | None = None,
    progress: bool | None = None,
    **overrides: Any,
) -> Study:
    """Runs the study (``StudyConfig`` defaults, or ``config``, with keyword
    ``overrides``) and returns its results. ``progress``: a tqdm bar over the
    study's steps (default: on). Ctrl-C stops it and returns the variants
    finished so far, with ``results["interrupted"]`` true."""
    cfg = config or StudyConfig()
    for k, val in overrides.items():
        if not hasattr(cfg, k):
            raise TypeError(f"unknown study option {k!r}")
        setattr(cfg, k, val)
    cfg.check()
    steps = sum(2 + (v not in CONTROLS) for v in cfg.variants)
    bar = None
    if progress is None or progress:
        from tqdm.auto import tqdm

        bar = tqdm(total=steps, unit="step", desc="study")

    def tick(what: str) -> None:
        if bar is not None:
            bar.set_postfix_str(what)
            if bar.n < steps:
                bar.update(1)

    t0 = time.perf_counter()
    rows: list[dict[str, Any]] = []
    data: dict[str, VariantData] = {}
    interrupted = False
    try:
        for v in cfg.variants:
            row, d = _variant(v, cfg, tick)
            rows.append(row)
            data[v] = d
    except KeyboardInterrupt:
        interrupted = True
    finally:
        if bar is not None:
            bar.close()
    _add_p_equivalents(rows, cfg)
    results = {
        "dicechess_version": __version__,
        "python": platform.python_version(),
        "numpy": np.__version__,
        "config": asdict(cfg),
        "seconds": time.perf_counter() - t0,
        "variants": rows,
        "interrupted": interrupted,
    }
    return Study(results, data)


def _mle_subset(wins: np.ndarray, draws: np.ndarray, names: list[str]) -> tuple[list[int], bool]:
    """The agents whose ratings have a finite maximum-likelihood fit: while some
    agent won or lost every game, the lowest-rated agent is left out (at least
    two remain). Returns them and whether their fit's MLE exists."""
    keep = list(range(len(names)))
    while True:
        sub = np.ix_(keep, keep)
        fit = fit_ratings(wins[sub], draws[sub], names=[names[i] for i in keep])
        if fit.mle_exists or len(keep) <= 2:
            return keep, fit.mle_exists
        keep.pop(int(np.argmin(fit.ratings)))


def _add_p_equivalents(rows: Sequence[dict[str, Any]], cfg: StudyConfig) -> None:
    """p-chess equivalents of every variant against the chess arena (same
    agents). Agents with perfect records in the variant (infinite ratings) are
    left out of both arenas, so the variant's spread is a real estimate;
    chess's own ladder may be perfect (p-chess with p < 1 is not)."""
    chess = next((r for r in rows if r["variant"] == "chess"), None)
    if chess is None:
        return
    wc, dc = np.array(chess["arena"]["wins"]), np.array(chess["arena"]["draws"])
    for r in rows:
        if r["variant"] == "chess":
            continue
        wv, dv = np.array(r["arena"]["wins"]), np.array(r["arena"]["draws"])
        keep, mle_exists = _mle_subset(wv, dv, r["arena"]["agents"])
        sub = np.ix_(keep, keep)
        pe = p_equivalent(
            wv[sub],
            dv[sub],
            wc[sub],
            dc[sub],
            n_boot=cfg.bootstrap,
            seed=part_seed(cfg.seed, r["variant"], "bootstrap"),
        )
        r["p_equivalent"] = {
            **asdict(pe),
            "agents": [r["arena"]["agents"][i] for i in keep],
            "variant_mle_exists": bool(mle_exists),
        }
