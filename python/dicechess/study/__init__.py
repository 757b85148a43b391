"""The luck-versus-skill study (the ``dicechess study`` main job), second edition.

For every variant: random playouts (colour advantage, game lengths, endings);
a compute ladder per agent family (``random``, then ``search:nodes=2^k`` and,
for the robustness check, ``mcts:sims=2^k``), whose adjacent rungs and rungs
two apart play pairs of games on common dice with colours swapped; and, for
dice variants, luck-adjusted results (each roll of the top rungs' games
valued by the search). From these: Elo per doubling of compute, skill classes,
luck ``alpha`` and depth ``beta``, the p-equivalent against chess with the same
ladder, White's score at every matchup, the variance pairing removes, and the
robustness of each number to the choice of agents. Orthodox chess, Cubic,
Cubic Checkers and Gardner (no dice) are the controls. Outputs: ``report.md``,
``report.html`` (plots embedded), PNG plots, ``results.json``, CSV tables and
the raw games (``raw/``). Schema and how to read it: docs/study.md.

>>> from dicechess.study import StudyConfig, run_study
>>> cfg = StudyConfig.quick_config(variants=["fluky"], search_rungs=[3, 4],
...                                mcts_rungs=[2, 3], playout_games=50, luck_games=2)
>>> st = run_study(cfg, progress=False)
>>> st.results["variants"]["fluky"]["ladder"][0]["spec"]
'random'
"""

from .config import CONTROLS, FAMILY_SPECS, HEADLINE_FAMILY, StudyConfig
from .report import OUTPUTS, existing_outputs, markdown_table, summary_rows, write_report
from .run import Study, run_study

__all__ = [
    "CONTROLS",
    "FAMILY_SPECS",
    "HEADLINE_FAMILY",
    "OUTPUTS",
    "Study",
    "StudyConfig",
    "existing_outputs",
    "markdown_table",
    "run_study",
    "summary_rows",
    "write_report",
]
