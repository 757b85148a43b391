"""What determines a study's numbers: the variants, the agent families of the
compute ladder, the games per matchup, the seed (recorded in results.json)."""

from __future__ import annotations

import hashlib
import zlib
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from .. import _core
from ..registry import variant_info

#: Schema version of results.json (docs/study.md describes it).
RESULTS_VERSION = 3

#: The variants without chance nodes: zero-luck controls (from the registry).
CONTROLS = tuple(name for name, v in variant_info().items() if not v.chance)

#: The agent families of a compute ladder: the spec of rung ``k`` (budget ``2^k``).
FAMILY_SPECS = {"search": "search:nodes={}", "mcts": "mcts:sims={}"}
#: The family whose numbers are the headline; the others check its robustness.
HEADLINE_FAMILY = "search"


@dataclass
class StudyConfig:
    """Everything that determines a study's numbers (recorded in results.json).

    The ladder of a family is ``random`` plus ``FAMILY_SPECS[family]`` at budgets
    ``2^k`` for each ``k`` in the family's rungs. Rungs one apart play ``pairs``
    pairs of games (two games on common dice, colours swapped), rungs two apart
    ``pairs_two_apart`` pairs; the second family plays ``mcts_pairs`` and
    ``mcts_pairs_two_apart``."""

    variants: list[str] = field(default_factory=lambda: list(_core.variants()))
    #: log2 of the node budgets of the search family (9 rungs plus ``random``).
    search_rungs: list[int] = field(default_factory=lambda: list(range(4, 13)))
    #: log2 of the simulation budgets of the MCTS family (the robustness check).
    mcts_rungs: list[int] = field(default_factory=lambda: list(range(3, 8)))
    #: Pairs of games per matchup of adjacent rungs (2 games each). The ladders feed
    #: the appendix only (not validated); half the second edition's 100, so that the
    #: default run, calibration games included, fits in 30 minutes on 2 cores.
    pairs: int = 50
    #: Pairs per matchup of rungs two apart.
    pairs_two_apart: int = 25
    #: The second family plays as many (its verdicts weigh as much as the first's).
    mcts_pairs: int = 50
    mcts_pairs_two_apart: int = 25
    #: Random decisions each pair opens with (both games alike): varies the games of
    #: deterministic agents, which would otherwise replay one game in every pair of a
    #: game without dice.
    opening_plies: int = 4
    #: Random-vs-random games per variant (colour advantage in random play, lengths, endings).
    playout_games: int = 20_000
    #: The luck families (``study.calibration.LUCK_FAMILIES``) whose games measure the
    #: luck-equivalent, each calibrated on its own games of the twin with the luck dial.
    luck_families: list[str] = field(default_factory=lambda: ["search", "mcts", "material"])
    #: The ``zero`` luck family's networks: a directory with ``<game>/best.pt`` per game
    #: (e.g. ``data/zero``, whose runs ``dicechess train`` made); the family measures only
    #: the variants whose network and whose twin's network are there.
    zero_models: str | None = None
    #: Pairs of luck-valued games per variant and family (the stronger agent with
    #: either colour), and per calibration game.
    luck_pairs: int = 100
    #: The luck dial's grid on each twin (q = 0, the twin itself, is always played).
    calibration_q: list[float] = field(
        default_factory=lambda: [0.025, 0.075, 0.125, 0.2, 0.35, 0.5, 0.7]
    )
    #: Games between the top two search rungs whose rolls are valued by the search at
    #: ``2^luck_nodes_log2`` nodes (the second edition's luck-adjusted results; off by
    #: default: the luck families' games supersede them).
    luck_games: int = 0
    #: log2 of the node budget of the search that values each roll.
    luck_nodes_log2: int = 8
    #: Bootstrap resamples for every interval.
    bootstrap: int = 200
    #: Anchor the chess ladder to absolute Elo: ``"stockfish"`` (needs the stockfish
    #: binary and python-chess) or None.
    anchor: str | None = None
    #: Games per Stockfish level of the anchor gauntlet.
    anchor_games: int = 20
    seed: int = 0
    threads: int | None = None
    backend: str = "local"
    ray_address: str | None = None
    quick: bool = False

    @classmethod
    def quick_config(cls, **kw: Any) -> StudyConfig:
        """A small, fast study (a minute or less): the shape of the full one."""
        base: dict[str, Any] = {
            "search_rungs": [3, 4, 5, 6],
            "mcts_rungs": [2, 3, 4],
            "pairs": 6,
            "pairs_two_apart": 3,
            "mcts_pairs": 3,
            "mcts_pairs_two_apart": 2,
            "playout_games": 500,
            "luck_games": 0,
            "luck_nodes_log2": 5,
            "luck_pairs": 3,
            "calibration_q": [0.1, 0.4],
            "bootstrap": 20,
            "anchor_games": 2,
            "quick": True,
        }
        base.update({k: v for k, v in kw.items() if v is not None})
        return cls(**base)

    def families(self) -> dict[str, list[int]]:
        """The rungs (log2 budgets) of each family played."""
        return {"search": list(self.search_rungs), "mcts": list(self.mcts_rungs)}

    def pairs_for(self, family: str, gap: int) -> int:
        """Pairs per matchup of rungs ``gap`` apart in ``family``."""
        if family == "mcts":
            return self.mcts_pairs if gap == 1 else self.mcts_pairs_two_apart
        return self.pairs if gap == 1 else self.pairs_two_apart

    def check(self) -> None:
        """ValueError for unknown variants, bad rungs and non-positive sizes."""
        from .calibration import LUCK_FAMILIES

        known = _core.variants()
        unknown = [v for v in self.variants if v.split(":", 1)[0] not in known]
        if unknown:
            raise ValueError(f"unknown variant(s) {', '.join(unknown)}; known: {', '.join(known)}")
        for v in self.variants:
            if ":" in v:
                try:
                    _core.State(v)
                except ValueError as e:
                    raise ValueError(f"variant {v!r}: {e}") from None
        bad = [f for f in self.luck_families if f not in LUCK_FAMILIES]
        if bad or len(set(self.luck_families)) != len(self.luck_families):
            raise ValueError(
                f"luck_families must be distinct names among {', '.join(LUCK_FAMILIES)}, "
                f"got {self.luck_families}"
            )
        if "zero" in self.luck_families and not self.zero_models:
            raise ValueError(
                "the zero luck family needs zero_models (--zero-models DIR): a directory "
                "with <game>/best.pt per game, e.g. data/zero"
            )
        if self.zero_models and not Path(self.zero_models).is_dir():
            raise ValueError(f"zero_models {self.zero_models!r} is not a directory")
        if self.luck_families and self.luck_pairs < 2:
            raise ValueError(f"luck_pairs must be at least 2, got {self.luck_pairs}")
        grid = list(self.calibration_q)
        if self.luck_families and (
            len(grid) < 2 or sorted(set(grid)) != grid or not all(0 < q <= 1 for q in grid)
        ):
            raise ValueError(
                f"calibration_q must be at least 2 increasing luck levels in (0, 1], got {grid}"
            )
        if not self.variants:
            raise ValueError("at least one variant is needed")
        if len(set(self.variants)) != len(self.variants):
            raise ValueError(f"variants are listed twice: {', '.join(self.variants)}")
        for fam, rungs in self.families().items():
            if len(rungs) < 2:
                raise ValueError(f"the {fam} family needs at least 2 rungs, got {rungs}")
            if sorted(set(rungs)) != list(rungs) or not all(0 <= k <= 24 for k in rungs):
                raise ValueError(
                    f"{fam} rungs must be increasing log2 budgets in 0..24, got {rungs}"
                )
        for name in ("pairs", "pairs_two_apart", "mcts_pairs", "mcts_pairs_two_apart"):
            if getattr(self, name) < 2:
                raise ValueError(f"{name} must be at least 2 (intervals need 2 pairs)")
        for name in ("playout_games", "anchor_games"):
            if getattr(self, name) < 1:
                raise ValueError(f"{name} must be at least 1, got {getattr(self, name)}")
        if self.luck_games < 0 or not 0 <= self.luck_nodes_log2 <= 24:
            raise ValueError("luck_games must be >= 0 and luck_nodes_log2 in 0..24")
        if not 0 <= self.opening_plies <= 40:
            raise ValueError(f"opening_plies must be in 0..40, got {self.opening_plies}")
        if self.bootstrap < 10:
            raise ValueError(f"bootstrap must be at least 10, got {self.bootstrap}")
        if self.anchor not in (None, "stockfish"):
            raise ValueError(f"anchor must be 'stockfish' or None, got {self.anchor!r}")

    def numbers_key(self) -> dict[str, Any]:
        """The options a variant's numbers depend on (not threads, backend or variants):
        finished variants are reused by a rerun only when these match."""
        from .calibration import LUCK_FAMILIES

        d = asdict(self)
        for k in ("variants", "threads", "backend", "ray_address", "anchor", "anchor_games"):
            d.pop(k)
        # The families' agents and valuers decide their games as much as the sizes do.
        d["luck_family_specs"] = {f: asdict(LUCK_FAMILIES[f]) for f in self.luck_families}
        if "zero" in self.luck_families and self.zero_models:
            # The networks decide the zero family's games: their bytes, not their path.
            d.pop("zero_models")
            d["zero_model_digests"] = {
                m.parent.name: hashlib.sha256(m.read_bytes()).hexdigest()
                for m in sorted(Path(self.zero_models).glob("*/best.pt"))
            }
        return d


def part_seed(seed: int, variant: str, part: str) -> int:
    """The seed of one part of one variant: a pure function of its inputs."""
    return (seed * 0x9E3779B1 + zlib.crc32(f"{variant}/{part}".encode())) % 2**63


def rung_specs(family: str, rungs: list[int]) -> list[str]:
    """``random`` then the family's spec at each budget ``2^k``."""
    return ["random"] + [FAMILY_SPECS[family].format(2**k) for k in rungs]
