"""The ``dicechess`` command-line interface: ``study``, ``play``, ``perft``, ``bench``,
``analyse``."""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import time
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any, NoReturn

from . import __version__, _core


class _Parser(argparse.ArgumentParser):
    """Argument errors: one line on stderr and exit status 2 (no usage dump)."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: error: {message} (see --help)\n")


def _variant_list(text: str) -> list[str]:
    """Variant names or specs, comma-separated; a ``key=value`` part without a name
    belongs to the spec before it (``chess:luck=0.1,max_plies=300,fluky``)."""
    names: list[str] = []
    for part in (p.strip() for p in text.split(",")):
        if not part:
            continue
        if "=" in part and ":" not in part and names and ":" in names[-1]:
            names[-1] += "," + part
        else:
            names.append(part)
    if not names:
        raise argparse.ArgumentTypeError(
            f"expected variant names, got {text!r}; known: {', '.join(_core.variants())}"
        )
    unknown = [v for v in names if v.split(":", 1)[0] not in _core.variants()]
    if unknown:
        raise argparse.ArgumentTypeError(
            f"unknown variant(s) {', '.join(unknown)}; known: {', '.join(_core.variants())}"
        )
    for v in names:
        if ":" in v:
            try:
                _core.State(v)
            except ValueError as e:
                raise argparse.ArgumentTypeError(f"variant {v!r}: {e}") from None
    return names


def _luck_families(text: str) -> list[str]:
    from .study.calibration import LUCK_FAMILIES

    names = [f.strip() for f in text.split(",") if f.strip()]
    bad = [f for f in names if f not in LUCK_FAMILIES]
    if not names or bad:
        raise argparse.ArgumentTypeError(
            f"expected luck families among {', '.join(LUCK_FAMILIES)}, got {text!r}"
        )
    return names


def _luck_grid(text: str) -> list[float]:
    try:
        grid = [float(q) for q in text.split(",") if q.strip()]
    except ValueError:
        grid = []
    if len(grid) < 2 or sorted(set(grid)) != grid or not all(0 < q <= 1 for q in grid):
        raise argparse.ArgumentTypeError(
            f"expected at least 2 increasing luck levels in (0, 1], e.g. 0.05,0.1,0.2,0.4,0.7; "
            f"got {text!r}"
        )
    return grid


def _one_variant(text: str) -> str:
    names = _variant_list(text)
    if len(names) != 1:
        raise argparse.ArgumentTypeError(f"expected one variant, got {len(names)}: {text!r}")
    return names[0]


#: The deepest perft the core runs.
MAX_PERFT_DEPTH = 12


def _depth(text: str) -> int:
    try:
        n = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected an integer depth, got {text!r}") from None
    if not 0 <= n <= MAX_PERFT_DEPTH:
        raise argparse.ArgumentTypeError(f"the depth must be from 0 to {MAX_PERFT_DEPTH}, got {n}")
    return n


def _positive(text: str) -> int:
    try:
        n = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a positive integer, got {text!r}") from None
    if n < 1:
        raise argparse.ArgumentTypeError(f"expected a positive integer, got {n}")
    return n


def _node_budgets(text: str) -> tuple[int, ...]:
    """Increasing positive node budgets, comma-separated ('' for none)."""
    parts = [p.strip() for p in text.split(",") if p.strip()]
    budgets = tuple(_positive(p) for p in parts)
    if list(budgets) != sorted(set(budgets)):
        raise argparse.ArgumentTypeError(
            f"expected increasing node budgets such as 16,64,256, got {text!r}"
        )
    return budgets


def _even_games(text: str) -> int:
    n = _positive(text)
    if n < 4 or n % 2:
        raise argparse.ArgumentTypeError(
            f"--games counts games in pairs: expected an even number of at least 4, got {n}"
        )
    return n


def _rungs(text: str) -> list[int]:
    """``4-12`` or ``4,6,8``: log2 budgets."""
    try:
        if "-" in text:
            lo, hi = (int(t) for t in text.split("-", 1))
            ks = list(range(lo, hi + 1))
        else:
            ks = [int(t) for t in text.split(",") if t.strip()]
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"expected log2 budgets like 4-12 or 4,6,8, got {text!r}"
        ) from None
    if len(ks) < 2 or sorted(set(ks)) != ks or not all(0 <= k <= 24 for k in ks):
        raise argparse.ArgumentTypeError(
            f"expected at least 2 increasing log2 budgets in 0..24, got {text!r}"
        )
    return ks


def _seed(text: str) -> int:
    try:
        n = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected an integer seed, got {text!r}") from None
    if not 0 <= n < 2**63:
        raise argparse.ArgumentTypeError(f"the seed must be from 0 to 2**63-1, got {n}")
    return n


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="dicechess",
        description="Exact, fast dice-chess variants: studies, play, benchmarks.",
    )
    parser.add_argument("--version", action="version", version=f"dicechess {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

    st = sub.add_parser(
        "study",
        help="run the luck-versus-skill study over every variant (the main job)",
        description="Each variant's luck-equivalent q: three agent families play "
        "luck-valued games in the variant and in its dice-free twin with the luck dial "
        "(chess:luck=q, gardner:luck=q), and each family maps the variant's luck per game "
        "onto q through its own calibration curve, with a 95% interval. The compute "
        "ladders of the second edition (Elo per doubling, skill classes, luck alpha, "
        "p-equivalent) follow in an appendix marked not validated. Writes report.md, "
        "report.html, PNG plots, results.json, CSV and the raw games (raw/) into --out; "
        "a rerun with the same options resumes from raw/.",
    )
    st.add_argument(
        "--variants",
        type=_variant_list,
        default=None,
        help="comma-separated names or specs with options (fluky,chess:luck=0.15)",
    )
    st.add_argument(
        "--games",
        type=_even_games,
        default=None,
        help="games per matchup of adjacent rungs, in both families (even; matchups two "
        "apart play half as many)",
    )
    st.add_argument(
        "--search-rungs", type=_rungs, default=None, help="log2 node budgets, e.g. 4-12"
    )
    st.add_argument("--mcts-rungs", type=_rungs, default=None, help="log2 simulations, e.g. 3-7")
    st.add_argument(
        "--playout-games", type=_positive, default=None, help="random playouts per variant"
    )
    st.add_argument(
        "--luck-games",
        type=_positive,
        default=None,
        help="games between the top two search rungs with every roll valued",
    )
    st.add_argument(
        "--luck-pairs",
        type=_positive,
        default=None,
        help="pairs of luck-valued games per variant, luck family and calibration game",
    )
    st.add_argument(
        "--luck-families",
        type=_luck_families,
        default=None,
        help="comma-separated luck families (search, mcts, material, zero; default the "
        "first three)",
    )
    st.add_argument(
        "--zero-models",
        default=None,
        help="the zero luck family's networks: a directory with <game>/best.pt (e.g. data/zero)",
    )
    st.add_argument(
        "--calibration-q",
        type=_luck_grid,
        default=None,
        help="the luck dial's grid on each twin, e.g. 0.05,0.1,0.2,0.4,0.7",
    )
    st.add_argument(
        "--anchor",
        choices=["stockfish"],
        default=None,
        help="anchor the chess ladder to absolute Elo against Stockfish (skipped cleanly "
        "when stockfish or python-chess is missing)",
    )
    st.add_argument("--seed", type=_seed, default=0)
    st.add_argument("--threads", type=_positive, default=None)
    st.add_argument("--out", type=Path, default=Path("study"))
    st.add_argument("--quick", action="store_true", help="a small, fast run (under a minute)")
    st.add_argument("--force", action="store_true", help="overwrite an existing report")
    st.add_argument(
        "--fresh", action="store_true", help="replay every variant (ignore raw/ from earlier runs)"
    )
    st.add_argument(
        "--ray",
        nargs="?",
        const="",
        default=None,
        metavar="ADDRESS",
        help="run the games on Ray (a local cluster, or the cluster at ADDRESS)",
    )
    st.add_argument("--no-progress", action="store_true", help="no progress bar")

    pl = sub.add_parser("play", help="play one game (random, or between agents) and print it")
    pl.add_argument("variant", type=_one_variant)
    pl.add_argument("--seed", type=int, default=0)
    pl.add_argument("--max-plies", type=_positive, default=None)
    pl.add_argument(
        "--agents",
        nargs=2,
        metavar=("WHITE", "BLACK"),
        default=None,
        help="agent specs for player 0 and player 1 (e.g. greedy "
        "zero:model=runs/gardner/best.pt,sims=200); default: random moves",
    )

    tr = sub.add_parser(
        "train",
        help="train a network by self-play (AlphaZero style; needs dicechess[zero])",
        description="Self-play with the network-guided search, a replay buffer and "
        "checkpoints in OUT (best.pt, last.pt, buffer.npz, log.csv, log.json); a run "
        "already in OUT resumes. Ctrl-C keeps the last finished iteration.",
    )
    tr.add_argument("variant", type=_one_variant)
    tr.add_argument("--out", required=True, help="the run's directory")
    tr.add_argument(
        "--minutes", type=float, default=None, help="stop starting iterations after this"
    )
    tr.add_argument("--iterations", type=_positive, default=None, help="iterations to run")
    tr.add_argument("--seed", type=int, default=0)
    tr.add_argument("--blocks", type=_positive, default=6)
    tr.add_argument("--channels", type=_positive, default=64)
    tr.add_argument("--sims", type=_positive, default=64, help="self-play simulations a move")
    tr.add_argument(
        "--gumbel-m", type=int, default=16, help="Gumbel root actions (0: PUCT + Dirichlet)"
    )
    tr.add_argument("--games-per-iteration", type=_positive, default=64)
    tr.add_argument("--parallel", type=_positive, default=64, help="self-play games in flight")
    tr.add_argument("--eval-every", type=int, default=5)
    tr.add_argument("--eval-pairs", type=int, default=20)
    tr.add_argument("--eval-sims", type=_positive, default=64)
    tr.add_argument(
        "--eval-ladder",
        type=_node_budgets,
        default=(16, 64, 256),
        help="node budgets of the search rungs played at each evaluation, comma-separated "
        "(default 16,64,256; '' for none)",
    )
    tr.add_argument(
        "--device", default=None, help="torch device (default: cuda if present, else cpu)"
    )
    tr.add_argument(
        "--threads", type=_positive, default=None, help="torch threads (default: torch's own)"
    )
    tr.add_argument("--no-progress", action="store_true", help="no progress bar")

    ma = sub.add_parser(
        "match",
        help="a trained network against built-in agents, in pairs on common dice",
    )
    ma.add_argument("model", help="a model file (best.pt)")
    ma.add_argument(
        "opponents", nargs="+", help="agent specs (random, greedy, search:nodes=256, ...)"
    )
    ma.add_argument("--pairs", type=_positive, default=200)
    ma.add_argument("--sims", type=_positive, default=200)
    ma.add_argument("--seed", type=int, default=0)
    ma.add_argument("--opening-plies", type=int, default=2)

    pf = sub.add_parser("perft", help="count leaf nodes of the move tree")
    pf.add_argument("variant", type=_one_variant)
    pf.add_argument("depth", type=_depth)
    pf.add_argument("--fen", default=None)

    an = sub.add_parser(
        "analyse",
        help="search a position with the search engine",
        description="Search a position with the search engine. Before a roll (a chance "
        "node, such as the start of the dice games) every roll is searched and the "
        "expectation reported; --roll picks one roll instead.",
    )
    an.add_argument("variant", type=_one_variant, help="the variant (see `dicechess play`)")
    an.add_argument("--fen", default=None, help="the position, dice included (default: the start)")
    an.add_argument(
        "--roll",
        default=None,
        help="before the search, roll this outcome (e.g. PNB in dice_chess3); only before a roll",
    )
    an.add_argument(
        "--nodes", type=_positive, default=None, help="node budget (per roll before a roll)"
    )
    an.add_argument(
        "--ms", type=_positive, default=None, help="time budget (per roll before a roll)"
    )
    an.add_argument(
        "--depth", type=_positive, default=None, help="depth budget (per roll before a roll)"
    )
    an.add_argument(
        "--agent", default="search", help="a search spec with options (default: search)"
    )
    an.add_argument(
        "--quiet", action="store_true", help="no line per completed iteration, only the result"
    )
    an.add_argument("--no-progress", action="store_true", help="no progress bar (before a roll)")

    rp = sub.add_parser("replay", help="replay recorded games (PGN or .jsonl)")
    rp.add_argument("file", help="a PGN file, or JSON Lines (.jsonl)")
    rp.add_argument("--game", type=int, default=None, help="only game N (from 1)")
    rp.add_argument("--svg", metavar="DIR", default=None, help="write SVG boards into DIR")

    be = sub.add_parser("bench", help="random playout speed per variant")
    be.add_argument("--games", type=_positive, default=2000)
    be.add_argument("--threads", type=_positive, default=None)
    return parser


def _cmd_study(args: argparse.Namespace) -> int:
    from .study import (
        StudyConfig,
        existing_outputs,
        markdown_table,
        run_study,
        summary_rows,
        write_report,
    )
    from .study.run import missing_modules

    missing = missing_modules(progress=not args.no_progress)
    if missing:
        print(
            f"dicechess: the study needs {', '.join(missing)}, which is not installed; "
            "pip install 'dicechess[analysis]'" + (" tqdm" if "tqdm" in missing else ""),
            file=sys.stderr,
        )
        return 2

    sizes: dict[str, Any] = {
        "variants": args.variants,
        "search_rungs": args.search_rungs,
        "mcts_rungs": args.mcts_rungs,
        "playout_games": args.playout_games,
        "luck_games": args.luck_games,
        "luck_pairs": args.luck_pairs,
        "luck_families": args.luck_families,
        "zero_models": args.zero_models,
        "calibration_q": args.calibration_q,
        "anchor": args.anchor,
        "seed": args.seed,
        "threads": args.threads,
    }
    if args.games is not None:
        pairs = args.games // 2
        sizes.update(
            pairs=pairs,
            pairs_two_apart=max(2, pairs // 2),
            mcts_pairs=pairs,
            mcts_pairs_two_apart=max(2, pairs // 2),
        )
    if args.ray is not None:
        sizes["backend"] = "ray"
        sizes["ray_address"] = args.ray or None
    given = {k: v for k, v in sizes.items() if v is not None}
    cfg = StudyConfig.quick_config(**given) if args.quick else StudyConfig(**given)
    out: Path = args.out
    try:
        cfg.check()
        existing = existing_outputs(out)
    except ValueError as e:
        print(f"dicechess: {e}", file=sys.stderr)
        return 2
    except OSError as e:
        print(f"dicechess: cannot use --out {str(out)[:80]!r}: {e.strerror or e}", file=sys.stderr)
        return 2
    if existing and not args.force and not _resumable(out):
        print(f"dicechess: {existing[0]} exists; use --force to overwrite", file=sys.stderr)
        return 2
    try:
        out.mkdir(parents=True, exist_ok=True)
        probe = out / ".write-test"
        probe.write_text("")
        probe.unlink()
        if args.fresh and (out / "raw").is_dir():
            for p in [*(out / "raw").glob("*.json"), *(out / "raw").glob("calibration/*.json")]:
                p.unlink()
    except OSError as e:
        print(f"dicechess: cannot write to {str(out)[:80]!r}: {e.strerror or e}", file=sys.stderr)
        return 2
    try:
        study = run_study(cfg, progress=not args.no_progress, out=out)
    except (ValueError, ImportError) as e:
        print(f"dicechess: {e}", file=sys.stderr)
        return 2
    interrupted = study.results.get("interrupted", False)
    if not study.results["variants"]:
        print(
            "dicechess: interrupted before any variant finished; nothing written", file=sys.stderr
        )
        return 130
    if study.results["resumed"]:
        print(f"resumed: {', '.join(study.results['resumed'])} (from {out / 'raw'})")
    for v, stale in study.results["replayed_stale"].items():
        print(f"replayed: {v} (its saved games are another build's: {stale[0]} differs)")
    print(markdown_table(*summary_rows(study.results)))
    for p in write_report(study, out, force=True):
        print(f"wrote {p}")
    if interrupted:
        done = ", ".join(study.results["variants"])
        print(
            f"dicechess: interrupted; the report has the variants finished: {done} "
            "(run the same command again to resume)",
            file=sys.stderr,
        )
        return 130
    return 0


def _resumable(out: Path) -> bool:
    """Whether ``out`` holds an interrupted study or a half-written report
    (killed while writing it): either may be replaced without --force, the
    rerun completes it."""
    from .study.report import report_complete

    if not report_complete(out):
        return True
    try:
        return bool(json.loads((out / "results.json").read_text(encoding="utf-8"))["interrupted"])
    except (OSError, ValueError, KeyError, TypeError):
        return False


def _cmd_play(args: argparse.Namespace) -> int:
    opts = {} if args.max_plies is None else {"max_plies": args.max_plies}
    s = _core.State(args.variant, **opts)
    rng = random.Random(args.seed)
    deciders: list[Any] = [None, None]
    if args.agents is not None:
        from .runner import check_agent

        for p, spec in enumerate(args.agents):
            agent = check_agent(spec)
            deciders[p] = agent if callable(agent) else _core.Agent(agent, seed=args.seed).select
    words = []
    while not s.is_terminal():
        if s.is_chance_node():
            acts, probs = zip(*s.chance_outcomes())
            a = rng.choices(acts, weights=probs)[0]
            words.append(f"[{s.action_to_string(a)}]")
        else:
            decide = deciders[s.current_player()]
            a = rng.choice(s.legal_actions()) if decide is None else int(decide(s))
            words.append(s.action_to_string(a))
        s.apply_action(a)
    print(" ".join(words))
    print(s)
    print(f"result: {s.termination()}, returns {s.returns()}")
    return 0


def _cmd_train(args: argparse.Namespace) -> int:
    if args.minutes is None and args.iterations is None:
        raise ValueError("give --minutes or --iterations (or both)")
    from . import zero

    if args.threads is not None:
        import torch

        torch.set_num_threads(args.threads)
    r = zero.train(
        args.variant,
        args.out,
        minutes=args.minutes,
        iterations=args.iterations,
        progress=not args.no_progress,
        device=args.device,
        seed=args.seed,
        blocks=args.blocks,
        channels=args.channels,
        sims=args.sims,
        gumbel_m=args.gumbel_m,
        games_per_iteration=args.games_per_iteration,
        parallel=args.parallel,
        eval_every=args.eval_every,
        eval_pairs=args.eval_pairs,
        eval_sims=args.eval_sims,
        eval_ladder=args.eval_ladder,
    )
    last = r.log[-1] if r.log else {}
    scores = ", ".join(
        f"{k[6:]} {v:.3f}"
        for k, v in last.items()
        if k.startswith("score_") and not k.endswith(("_lo", "_hi"))
    )
    state = "interrupted" if r.interrupted else "done"
    print(
        f"{state}: {r.iterations} iterations in {r.out}"
        + (f"; last evaluation: {scores}" if scores else "")
    )
    return 130 if r.interrupted else 0


def _cmd_match(args: argparse.Namespace) -> int:
    from . import zero

    net, info = zero.load_model(args.model)
    ev = zero.Evaluator(net)
    for opp in args.opponents:
        m = zero.match(
            ev,
            info["variant"],
            opp,
            args.pairs,
            sims=args.sims,
            seed=args.seed,
            opening_plies=args.opening_plies,
            options=info.get("options", {}),
        )
        print(m)
        if m.interrupted:
            return 130
    return 0


def _cmd_perft(args: argparse.Namespace) -> int:
    t0 = time.perf_counter()
    try:
        n = _core.perft(args.variant, args.depth, fen=args.fen)
    except ValueError as e:
        print(f"dicechess: {e}", file=sys.stderr)
        return 2
    secs = time.perf_counter() - t0
    print(f"{n} nodes in {secs:.3f} s ({n / max(secs, 1e-9) / 1e6:.1f} M nodes/s)")
    return 0


def _cmd_bench(args: argparse.Namespace) -> int:
    from .sim import playouts

    print("| variant | games/s | plies/s |")
    print("|---|---|---|")
    for v in _core.variants():
        t0 = time.perf_counter()
        r = playouts(v, args.games, seed=1, threads=args.threads, progress=False)
        secs = time.perf_counter() - t0
        if r.interrupted:
            raise KeyboardInterrupt  # a partial run's rate would be wrong
        print(f"| {v} | {len(r) / secs:.0f} | {r.plies.sum() / secs:.0f} |")
    return 0


def _cmd_analyse(args: argparse.Namespace) -> int:
    try:
        opts = {} if args.fen is None else {"fen": args.fen}
        s = _core.State(args.variant, **opts)
        if args.roll is not None and not s.is_terminal():
            if s.max_chance_outcomes() == 0:
                raise ValueError(f"--roll: {args.variant} has no dice")
            if not s.is_chance_node():
                raise ValueError(
                    f"--roll needs a position before a roll; in this one player "
                    f"{s.current_player()} decides, the dice showing {s.dice_left or s.dice}"
                )
            s.apply_action(s.string_to_action(args.roll))
        if s.is_terminal():
            raise ValueError(f"the game is over ({s.termination()})")
        agent = _core.Agent(args.agent)
        nodes, ms, depth = args.nodes, args.ms, args.depth
        if nodes is None and ms is None and depth is None:
            # About a second in all; before a roll, shared by the rolls.
            rolls = len(s.chance_outcomes()) if s.is_chance_node() else 1
            ms = max(1000 // rolls, 10)
        t0 = time.perf_counter()
        if s.is_chance_node():
            r = agent.search_rolls(s, nodes, ms, depth, progress=not args.no_progress)
        else:
            show = None if args.quiet else _print_iteration
            r = agent.search(s, nodes, ms, depth, info=show)
    except ValueError as e:
        print(f"dicechess: {e}", file=sys.stderr)
        return 2
    secs = time.perf_counter() - t0
    rate = f"{r['nodes'] / max(secs, 1e-9) / 1e3:.0f} k nodes/s"
    if "rolls" not in r:
        print(
            f"best {r['move']}  value {r['value']:+.0f} cp  depth {r['depth']}"
            f"  nodes {r['nodes']}  {rate}"
        )
        print("pv " + " ".join(r["pv"]))
        return 0
    print(
        f"before the roll: value {r['value']:+.0f} cp for player {r['player']} "
        f"(the expectation over {len(r['rolls'])} rolls)  nodes {r['nodes']}  {rate}"
    )
    print(_rolls_table(r["rolls"]))
    return 0


def _print_iteration(r: dict[str, Any]) -> None:
    """One line per completed iteration, as engines print them."""
    print(
        f"depth {r['depth']:>2}  value {r['value']:>+7.0f} cp  nodes {r['nodes']:>10}"
        f"  {r['elapsed']:>6.2f} s  pv {' '.join(r['pv'])}",
        flush=True,
    )


def _rolls_table(rolls: list[dict[str, Any]]) -> str:
    """One line per roll: its chance, best move, value, depth and line."""
    width = max(4, *(len(r["roll"]) for r in rolls))
    lines = [f"{'roll':<{width}}  {'chance':>6}  {'best':<8}  {'value':>8}  depth  pv"]
    for r in rolls:
        best = r["move"] if r["move"] is not None else "-"
        depth = r["depth"] if r["depth"] is not None else "-"
        if r["move"] is not None:
            line = " ".join(r["pv"][:8])
        elif r["nodes"]:
            line = "(no decision: valued over the roll that follows)"
        else:
            line = "(no decision)"
        lines.append(
            f"{r['roll']:<{width}}  {r['probability']:>6.4f}  {best:<8}  {r['value']:>+8.0f}"
            f"  {depth!s:>5}  {line}"
        )
    return "\n".join(lines)


def _cmd_replay(args: argparse.Namespace) -> int:
    from .records import Record, iter_file
    from .replay import svg_files, text_steps

    if args.svg is not None and os.path.exists(args.svg) and not os.path.isdir(args.svg):
        raise ValueError(f"--svg {args.svg}: not a directory (give a directory for the boards)")
    if args.game is not None and args.game < 1:
        raise ValueError(f"--game must be 1 or more, got {args.game}")
    # One game at a time, the file read in chunks: a huge file is never read
    # whole, and with --game nothing after the game wanted is read.
    games: Iterator[tuple[int, Record]]
    if args.game is None:
        games = enumerate(iter_file(args.file), 1)
    else:
        games = ((args.game, r) for r in iter_file(args.file, args.game - 1, 1))
    shown = 0
    while True:
        try:
            n, rec = next(games)
        except StopIteration:
            break
        except OSError as e:
            print(f"dicechess: cannot read {args.file}: {e.strerror or e}", file=sys.stderr)
            return 2
        shown += 1
        if args.svg is not None:
            paths = svg_files(rec, Path(args.svg) / f"game_{n:03d}")
            print(f"game {n}: {len(paths)} boards in {paths[0].parent}")
            continue
        print(f"== game {n} ({rec.variant})")
        for step in text_steps(rec):
            print(step)
            print()
    if args.game is not None and not shown:
        raise ValueError(f"--game {args.game}: {args.file} has fewer games")
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command is None:
        parser.print_help()
        return 2
    handlers = {
        "study": _cmd_study,
        "play": _cmd_play,
        "train": _cmd_train,
        "match": _cmd_match,
        "perft": _cmd_perft,
        "bench": _cmd_bench,
        "analyse": _cmd_analyse,
        "replay": _cmd_replay,
    }
    try:
        return handlers[args.command](args)
    except KeyboardInterrupt:
        print("dicechess: interrupted", file=sys.stderr)
        return 130
    except ValueError as e:
        # Arguments the parser could not check (e.g. a FEN, an option's range).
        print(f"dicechess: {e}", file=sys.stderr)
        return 2
    except OSError as e:
        # A file or directory that cannot be read or written: one line, no traceback.
        where = f"{e.filename}: " if e.filename is not None else ""
        print(f"dicechess: {where}{e.strerror or e}", file=sys.stderr)
        return 2
    except MemoryError:
        print("dicechess: out of memory", file=sys.stderr)
        return 2


if __name__ == "__main__":
    raise SystemExit(main())
