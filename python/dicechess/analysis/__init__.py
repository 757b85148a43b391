"""Statistics for luck-versus-skill studies (needs the ``analysis`` extra: scipy, pandas).

Inputs are plain numpy count matrices over k agents (indices 0..k-1): ``wins[i, j]`` = games
agent i won against agent j over both colours, ``draws[i, j]`` = draws between them
(symmetric); truncated games count as draws. Definitions, formulas and sources:
docs/analysis.md.
"""

from __future__ import annotations

try:
    import scipy  # noqa: F401
except ImportError as exc:  # a clear hint instead of a failure deep inside a function
    raise ImportError("dicechess.analysis needs scipy: pip install 'dicechess[analysis]'") from exc

from .calibration import Strata, luck_equivalent, score_at_luck
from .intervals import (
    clopper_pearson_interval,
    colour_advantage,
    elo_from_score,
    score_interval,
    tally,
    wilson_interval,
)
from .ladder import Estimate, LadderFit, Matchup, fit_ladder, p_equivalent_ladder
from .luck_depth import LuckDepth, fit_luck_depth
from .ratings import RatingFit, fit_ratings
from .skill import LadderDepth, LuckShare, PEquivalent, ladder_depth, luck_share, p_equivalent

__all__ = [
    "Strata",
    "luck_equivalent",
    "score_at_luck",
    "Estimate",
    "LadderFit",
    "LuckDepth",
    "Matchup",
    "fit_ladder",
    "fit_luck_depth",
    "p_equivalent_ladder",
    "LadderDepth",
    "LuckShare",
    "PEquivalent",
    "RatingFit",
    "clopper_pearson_interval",
    "colour_advantage",
    "elo_from_score",
    "fit_ratings",
    "ladder_depth",
    "luck_share",
    "p_equivalent",
    "score_interval",
    "tally",
    "wilson_interval",
]
