"""Running the study: for each variant, random playouts (colour advantage in
random play, game lengths, endings), a compute ladder per agent family
(``random`` then doubling budgets; adjacent rungs and rungs two apart play
pairs of games on common dice, colours swapped), and luck-adjusted results
(every roll of games between the top two search rungs valued by the search).
The measures are computed from these raw games (:mod:`.measures`).

Every number is reproducible from the seed: each part of each variant gets
its own seed derived from ``(seed, variant, part)``, so a variant's numbers
do not depend on which other variants run, on the thread count or on the
backend. Each variant's raw games are written as soon as it finishes
(``raw/<variant>.json``) and a rerun with the same options reuses them
once the first pair of each matchup replays as saved.
"""

from __future__ import annotations

import json
import platform
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import numpy as np

from .. import __version__
from ..analysis import colour_advantage
from ..luck import roll_luck
from ..paired import paired_games
from ..sim import player0_score, playouts
from .calibration import calibration_specs, play_luck_games, safe_name
from .config import CONTROLS, RESULTS_VERSION, StudyConfig, part_seed, rung_specs


@dataclass
class Study:
    """A finished study: JSON-ready ``results`` plus the raw games per variant."""

    results: dict[str, Any]
    raw: dict[str, dict[str, Any]]


#: Modules the study needs besides numpy (``pip install 'dicechess[analysis]'``).
STUDY_MODULES = ("scipy", "pandas", "matplotlib")


def missing_modules(progress: bool = False) -> list[str]:
    """The modules the study (and its report) needs that are not installed."""
    import importlib.util

    need = STUDY_MODULES + (("tqdm",) if progress else ())
    return [m for m in need if importlib.util.find_spec(m) is None]


def _finished(result: Any) -> None:
    """Stops the study (KeyboardInterrupt) when a run was cut short by Ctrl-C:
    the variants finished before it are kept, this one is dropped."""
    if result.interrupted:
        raise KeyboardInterrupt


def matchups_of(n_rungs: int) -> list[tuple[int, int]]:
    """The matchups of a ladder of ``n_rungs``: ``(stronger, weaker)`` rung
    indexes one and two apart, in play order."""
    return [(i + gap, i) for gap in (1, 2) for i in range(n_rungs - gap)]


def _white_scores(p0: np.ndarray, colour: np.ndarray) -> np.ndarray:
    return np.where(colour == 0, p0, 1.0 - p0)


def _matchup(
    v: str,
    cfg: StudyConfig,
    fam: str,
    specs: list[str],
    i: int,
    j: int,
    pairs: int | None = None,
) -> dict:
    """Pairs between rungs ``i`` (stronger) and ``j`` on common dice: the
    stronger rung's and White's score in each game, and the game lengths.
    ``pairs``: only the first pairs (a pair's games do not depend on how
    many are played)."""
    n = cfg.pairs_for(fam, i - j) if pairs is None else pairs
    r = paired_games(
        v,
        (specs[i], specs[j]),
        n,
        seed=part_seed(cfg.seed, v, f"{fam}/{i}-{j}"),
        threads=cfg.threads,
        progress=False,
        backend=cfg.backend,
        ray_address=cfg.ray_address,
        opening_plies=cfg.opening_plies,
    )
    _finished(r)
    a0 = player0_score(r.a_first["winner"])
    b0 = player0_score(r.b_first["winner"])
    white = np.stack(
        [
            _white_scores(a0, r.a_first["player0_color"]),
            _white_scores(b0, r.b_first["player0_color"]),
        ],
        axis=1,
    )
    plies = np.stack([r.a_first["plies"], r.b_first["plies"]], axis=1)
    return {
        "i": i,
        "j": j,
        "scores": r.game_scores.tolist(),
        "white": white.tolist(),
        "plies": plies.astype(int).tolist(),
    }


def _playouts(v: str, cfg: StudyConfig) -> dict[str, Any]:
    po = playouts(
        v,
        cfg.playout_games,
        seed=part_seed(cfg.seed, v, "playouts"),
        threads=cfg.threads,
        progress=False,
        backend=cfg.backend,
        ray_address=cfg.ray_address,
    )
    _finished(po)
    s = po.summary()
    colour = colour_advantage(
        s["white_wins"], s["black_wins"], s["games"] - s["white_wins"] - s["black_wins"]
    )
    plies = po.plies.astype(float)
    hist = np.bincount(po.plies.astype(int))
    return {
        **s,
        "options": po.options,
        "colour_advantage": colour,
        "plies_quartiles": np.percentile(plies, [25, 50, 75]).tolist() if len(plies) else [],
        "plies_histogram": hist.tolist(),
    }


def _luck(v: str, cfg: StudyConfig) -> dict[str, Any] | None:
    """Games between the top two search rungs with every roll valued by the
    search at ``2^luck_nodes_log2`` nodes (None for games without dice)."""
    if v in CONTROLS or cfg.luck_games == 0:
        return None
    specs = rung_specs("search", cfg.search_rungs)
    evaluator = f"search:nodes={2**cfg.luck_nodes_log2}"
    lk = roll_luck(
        v,
        cfg.luck_games,
        agents=(specs[-1], specs[-2]),
        evaluator=evaluator,
        seed=part_seed(cfg.seed, v, "luck"),
        threads=cfg.threads,
        progress=False,
        backend=cfg.backend,
        ray_address=cfg.ray_address,
    )
    _finished(lk)
    return {
        "agents": [specs[-1], specs[-2]],
        "evaluator": evaluator,
        "score": lk.score().tolist(),
        "luck_sum": lk.luck_sum.tolist(),
        "n_rolls": lk.n_rolls.astype(int).tolist(),
        "abs_luck_sum": lk.abs_luck_sum.tolist(),
    }


#: Positions per variant at which each search rung's completed depth is measured.
DEPTH_POSITIONS = 24


def probe_depths(v: str, cfg: StudyConfig) -> dict[str, Any]:
    """The depth each search rung completes (mean and max over the same
    positions, reached by random play from the start at a random ply): a flat
    ladder whose rungs all stop at one depth says more about the agent than
    about the game."""
    import random

    from .._core import Agent, State

    rng = random.Random(part_seed(cfg.seed, v, "depth"))
    positions: list[Any] = []
    while len(positions) < DEPTH_POSITIONS:
        s = State(v)
        target = rng.randrange(0, 30)
        decisions = 0
        while not s.is_terminal():
            if s.is_chance_node():
                acts, probs = zip(*s.chance_outcomes())
                s.apply_action(rng.choices(acts, weights=probs)[0])
            elif decisions == target:
                positions.append(s)
                break
            else:
                s.apply_action(rng.choice(s.legal_actions()))
                decisions += 1
    depths = {}
    for spec in rung_specs("search", cfg.search_rungs)[1:]:
        agent = Agent(spec)
        d = [int(agent.search(p)["depth"]) for p in positions]
        depths[spec] = {"mean": float(np.mean(d)), "max": int(max(d)), "min": int(min(d))}
    return {"positions": len(positions), "depth": depths}


def steps_of(v: str, cfg: StudyConfig) -> list[tuple[str, Any]]:
    """The parts of one variant, in order: ("playouts", None), ("ladder",
    (family, i, j)) for every matchup, ("luck", None) for dice variants when
    ``luck_games`` asks for them, ("luck_games", family) for each luck family."""
    steps: list[tuple[str, Any]] = [("playouts", None)]
    for fam, rungs in cfg.families().items():
        steps += [("ladder", (fam, i, j)) for i, j in matchups_of(len(rungs) + 1)]
    if v not in CONTROLS and cfg.luck_games:
        steps.append(("luck", None))
    steps += [("luck_games", fam) for fam in cfg.luck_families]
    return steps


def _luck_games(
    v: str, cfg: StudyConfig, fam: str, pairs: int | None = None
) -> dict[str, Any] | None:
    """The family's luck games of ``v`` (None: the zero family has no network for it)."""
    return play_luck_games(
        v,
        fam,
        cfg.luck_pairs if pairs is None else pairs,
        seed=part_seed(cfg.seed, v, f"luck/{fam}"),
        threads=cfg.threads,
        backend=cfg.backend,
        ray_address=cfg.ray_address,
        zero_models=cfg.zero_models,
    )


def play_calibration(spec: str, cfg: StudyConfig, tick: Callable[[str], None]) -> dict[str, Any]:
    """The luck families' games of one calibration game (``chess:luck=0.1``)."""
    raw: dict[str, Any] = {"variant": spec, "luck_games": {}, "seconds": {}}
    for n, fam in enumerate(cfg.luck_families):
        if n:
            tick("")
        tick(f"{spec}: {fam} luck games")
        t0 = time.perf_counter()
        games = _luck_games(spec, cfg, fam)
        if games is not None:
            raw["luck_games"][fam] = games
        raw["seconds"][fam] = time.perf_counter() - t0
    return raw


def play_variant(v: str, cfg: StudyConfig, tick: Callable[[str], None]) -> dict[str, Any]:
    """All the raw games of one variant (JSON-ready)."""
    seconds: dict[str, float] = {}
    families: dict[str, Any] = {
        fam: {
            "rungs": rung_specs(fam, rungs),
            "log2_compute": [None, *rungs],
            "matchups": [],
        }
        for fam, rungs in cfg.families().items()
    }
    raw: dict[str, Any] = {"variant": v, "families": families, "luck": None}
    first = True
    for kind, what in steps_of(v, cfg):
        if not first:
            tick("")  # the previous part is done
        first = False
        t0 = time.perf_counter()
        if kind == "playouts":
            tick(f"{v}: random playouts")
            raw["playouts"] = _playouts(v, cfg)
        elif kind == "ladder":
            fam, i, j = what
            specs = families[fam]["rungs"]
            tick(f"{v}: {specs[i]} vs {specs[j]}")
            families[fam]["matchups"].append(_matchup(v, cfg, fam, specs, i, j))
            kind = fam
        elif kind == "luck_games":
            tick(f"{v}: {what} luck games")
            games = _luck_games(v, cfg, what)
            if games is not None:
                raw.setdefault("luck_games", {})[what] = games
            kind = f"luck/{what}"
        else:
            tick(f"{v}: luck of each roll")
            raw["luck"] = _luck(v, cfg)
        seconds[kind] = seconds.get(kind, 0.0) + time.perf_counter() - t0
    raw["search_depth"] = probe_depths(v, cfg)
    raw["seconds"] = seconds
    return raw


def _raw_path(out: Path, v: str) -> Path:
    return out / "raw" / f"{safe_name(v)}.json"


def _calibration_path(out: Path, spec: str) -> Path:
    return out / "raw" / "calibration" / f"{safe_name(spec)}.json"


def load_raw(
    out: Path | None, v: str, cfg: StudyConfig, calibration: bool = False
) -> dict[str, Any] | None:
    """A variant's (or a calibration game's) raw games from an earlier run with
    the same options, if any."""
    if out is None:
        return None
    p = _calibration_path(out, v) if calibration else _raw_path(out, v)
    if not p.exists():
        return None
    try:
        saved = json.loads(p.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    check_raw(p, saved, calibration)
    if saved.get("version") != RESULTS_VERSION or saved.get("config") != cfg.numbers_key():
        return None
    raw: dict[str, Any] = saved["raw"]
    if not calibration and "search_depth" not in raw:  # saved before the probe existed
        raw["search_depth"] = probe_depths(v, cfg)
    return raw


def check_raw(path: Path, saved: Any, calibration: bool = False) -> None:
    """ValueError naming ``path`` and the way out unless ``saved`` (its JSON)
    has the shape :func:`save_raw` writes: a rerun would otherwise crash
    deep inside the measures on a file of the wrong shape."""

    def bad(what: str) -> ValueError:
        return ValueError(
            f"{path} is not a raw games file of this study ({what}); delete it, "
            "or rerun with --fresh to replay every variant"
        )

    if not isinstance(saved, dict):
        raise bad(f"a JSON {type(saved).__name__}, not an object")
    if saved.get("version") != RESULTS_VERSION:
        return  # another version's file: replayed, not read
    raw = saved.get("raw")
    if not isinstance(raw, dict):
        raise bad('no "raw" object')
    games = raw.get("luck_games", {})
    if not isinstance(games, dict) or not all(
        isinstance(g, dict) and isinstance(g.get("rows"), list) for g in games.values()
    ):
        raise bad('"luck_games" is not an object of families with "rows" lists')
    if calibration:
        return
    families = raw.get("families")
    if not isinstance(families, dict):
        raise bad('no "families" object')
    for fam, ladder in families.items():
        ok = isinstance(ladder, dict) and isinstance(ladder.get("rungs"), list)
        matchups = ladder.get("matchups") if isinstance(ladder, dict) else None
        if not (ok and isinstance(matchups, list) and all(isinstance(m, dict) for m in matchups)):
            raise bad(f'family {fam!r} has no "rungs" list and "matchups" list of objects')
    for key in ("playouts", "luck", "search_depth", "seconds"):
        if raw.get(key) is not None and not isinstance(raw[key], dict):
            raise bad(f'"{key}" is not an object')


def stale_matchups(v: str, cfg: StudyConfig, raw: dict[str, Any]) -> list[str]:
    """The matchups of saved raw games whose first pair this build plays
    differently (empty when every first pair replays as saved).

    The options alone cannot tell whether saved games are still the agents'
    games: a change to the engine or the rules since they were played
    changes them too. Each matchup's first pair is replayed (its seed and
    opening do not depend on the number of pairs) and compared with the
    saved one, result and length of both games: about one pair in a hundred
    of the variant's ladder games."""
    stale = []
    for fam, games in (raw.get("luck_games") or {}).items():
        if fam == "zero":
            # A network's answers may differ in the last bits with the batch they share,
            # so one pair replayed alone is no test; the networks' digests are in the key.
            continue
        again = _luck_games(v, cfg, fam, pairs=1)
        if (
            again is None
            or again["rows"][0] != games["rows"][0]
            or again["plies"][0] != games["plies"][0]
        ):
            stale.append(f"{fam} luck games")
    for fam, ladder in raw.get("families", {}).items():
        specs = ladder["rungs"]
        for saved in ladder["matchups"]:
            i, j = saved["i"], saved["j"]
            again = _matchup(v, cfg, fam, specs, i, j, pairs=1)
            if any(again[k][0] != saved[k][0] for k in ("scores", "white", "plies")):
                stale.append(f"{specs[i]} vs {specs[j]}")
    return stale


def save_raw(
    out: Path, v: str, cfg: StudyConfig, raw: dict[str, Any], calibration: bool = False
) -> Path:
    """Writes a finished variant's (or calibration game's) raw games
    (atomically: a Ctrl-C while writing leaves no half file)."""
    p = _calibration_path(out, v) if calibration else _raw_path(out, v)
    p.parent.mkdir(parents=True, exist_ok=True)
    tmp = p.with_suffix(".tmp")
    data = {"version": RESULTS_VERSION, "config": cfg.numbers_key(), "raw": raw}
    tmp.write_text(json.dumps(data), encoding="utf-8")
    tmp.replace(p)
    return p


def run_study(
    config: StudyConfig | None = None,
    progress: bool | None = None,
    out: Path | str | None = None,
    **overrides: Any,
) -> Study:
    """Runs the study (``StudyConfig`` defaults, or ``config``, with keyword
    ``overrides``) and returns its results. ``progress``: tqdm bars, one over
    the variants and one over the current variant's parts (default: on).
    ``out``: a directory where each variant's raw games are written as soon
    as it finishes (``raw/<variant>.json``); variants already there from a run
    with the same options are reused, so an interrupted study resumes, unless
    this build plays a matchup's first pair differently (another engine or
    rules: the variant is replayed and listed in ``results["replayed_stale"]``).
    Ctrl-C stops the study and returns the variants finished so far, with
    ``results["interrupted"]`` true."""
    cfg = config or StudyConfig()
    for k, val in overrides.items():
        if not hasattr(cfg, k):
            raise TypeError(f"unknown study option {k!r}")
        setattr(cfg, k, val)
    cfg.check()
    out = None if out is None else Path(out)
    show = progress is None or progress
    outer = inner = None
    units = [(v, False) for v in cfg.variants]
    if cfg.luck_families:
        units += [(c, True) for c in calibration_specs(cfg.variants, cfg.calibration_q)]
    if show:
        from tqdm.auto import tqdm

        outer = tqdm(total=len(units), unit="game", desc="study", position=0)

    t0 = time.perf_counter()
    raws: dict[str, dict[str, Any]] = {}
    calib: dict[str, dict[str, Any]] = {}
    resumed: list[str] = []
    replayed: dict[str, list[str]] = {}
    interrupted = False
    try:
        for v, is_cal in units:
            if is_cal and v in raws and "luck_games" in raws[v]:
                calib[v] = raws[v]  # a study variant is its own calibration game
            else:
                raw = load_raw(out, v, cfg, calibration=is_cal)
                if raw is not None:
                    # Replaying the first pairs takes seconds to a minute.
                    if outer is not None:
                        outer.set_postfix_str(f"{v}: checking saved games")
                    try:
                        stale = stale_matchups(v, cfg, raw)
                    except (KeyError, IndexError, TypeError, ValueError) as e:
                        where = (
                            (_calibration_path(out, v) if is_cal else _raw_path(out, v))
                            if out is not None
                            else v
                        )
                        raise ValueError(
                            f"{where} is not a raw games file of this study "
                            f"({type(e).__name__}: {e}); delete it, or rerun with --fresh to "
                            "replay every variant"
                        ) from None
                    if stale:
                        # Saved by another engine or rules: replayed, and said so.
                        replayed[v] = stale
                        raw = None
                if raw is not None:
                    resumed.append(v)
                else:
                    if show:
                        from tqdm.auto import tqdm

                        parts = len(cfg.luck_families) if is_cal else len(steps_of(v, cfg))
                        inner = tqdm(total=parts, unit="part", desc=v, position=1, leave=False)

                    def tick(what: str, bar: Any = inner) -> None:
                        # A description starts a part; an empty one ends the last.
                        if bar is not None:
                            if what:
                                bar.set_postfix_str(what[:60])
                            else:
                                bar.update(1)

                    raw = play_calibration(v, cfg, tick) if is_cal else play_variant(v, cfg, tick)
                    tick("")
                    if inner is not None:
                        inner.close()
                        inner = None
                    if out is not None:
                        save_raw(out, v, cfg, raw, calibration=is_cal)
                (calib if is_cal else raws)[v] = raw
            if outer is not None:
                outer.set_postfix_str("")
                outer.update(1)
    except KeyboardInterrupt:
        interrupted = True
    finally:
        for bar in (inner, outer):
            if bar is not None:
                bar.close()
    anchor = None
    if cfg.anchor == "stockfish" and not interrupted:
        anchor, interrupted = _anchor(cfg, raws, progress=show)
    results = {
        "version": RESULTS_VERSION,
        "dicechess_version": __version__,
        "python": platform.python_version(),
        "numpy": np.__version__,
        "seed": cfg.seed,
        "config": asdict(cfg),
        "seconds_games": time.perf_counter() - t0,
        # The games' own time when they were played (also for reused variants).
        "seconds_played": float(sum(sum(r.get("seconds", {}).values()) for r in raws.values())),
        "resumed": resumed,
        "replayed_stale": replayed,
        "interrupted": interrupted,
        **_measure(raws, cfg, show),
        "calibration": _calibrate(raws, calib, cfg),
    }
    results["seconds"] = time.perf_counter() - t0
    if anchor is not None:
        from .anchor import anchor_ladder

        chess = results["variants"].get("chess")
        results["anchor"] = anchor_ladder(anchor, chess["ladder"]) if chess else anchor
    return Study(results, raws)


def _calibrate(
    raws: dict[str, dict[str, Any]], calib: dict[str, dict[str, Any]], cfg: StudyConfig
) -> dict[str, Any] | None:
    """The luck-equivalents (None without luck families)."""
    if not cfg.luck_families:
        return None
    from .calibration import luck_equivalents

    return luck_equivalents(
        raws,
        calib,
        list(cfg.calibration_q),
        list(cfg.luck_families),
        # 1,000 resamples: the estimator's coverage was measured at this size
        # (tests/study/test_calibration.py; 200 covered less often).
        n_boot=1000,
        seed=cfg.seed,
    )


def _measure(raws: dict[str, dict[str, Any]], cfg: StudyConfig, progress: bool) -> dict:
    """Every measure, with a progress bar over the variants (the bootstrap
    refits every ladder ``cfg.bootstrap`` times)."""
    from .measures import measure

    bar = None
    if progress and raws:
        from tqdm.auto import tqdm

        bar = tqdm(total=len(raws), unit="variant", desc="measures (bootstrap)")
    try:
        return measure(raws, cfg, tick=None if bar is None else lambda v: bar.update(1))
    finally:
        if bar is not None:
            bar.close()


def _anchor(
    cfg: StudyConfig, raws: dict[str, dict[str, Any]], progress: bool
) -> tuple[dict[str, Any], bool]:
    """The Stockfish gauntlet of the top chess search rung (``{"skipped": why}``
    when it cannot run), and whether Ctrl-C stopped it."""
    from .anchor import LEVELS, gauntlet

    if "chess" not in raws:
        return {"skipped": "chess is not among the variants"}, False
    spec = rung_specs("search", cfg.search_rungs)[-1]
    bar = None
    if progress:
        from tqdm.auto import tqdm

        bar = tqdm(total=len(LEVELS), unit="level", desc="chess anchor")

    def tick(what: str) -> None:
        if bar is not None:
            bar.set_postfix_str(what[:60])
            bar.update(1)

    try:
        return (
            gauntlet(
                spec,
                cfg.anchor_games,
                part_seed(cfg.seed, "chess", "anchor"),
                cfg.opening_plies,
                n_boot=cfg.bootstrap,
                tick=tick,
            ),
            False,
        )
    except KeyboardInterrupt:
        return {"skipped": "interrupted"}, True
    finally:
        if bar is not None:
            bar.close()
