"""The luck-versus-skill study (the ``dicechess study`` main job).

For every variant: random playouts (colour advantage, game lengths, endings),
a round-robin arena over an agent ladder (Bradley–Terry–Davidson ratings,
luck share, ladder depth), per-roll luck along greedy games, and the p-chess
equivalent against orthodox chess with the same agents. Orthodox chess and
Cubic (no dice) are the zero-luck controls. Outputs: ``report.md``,
``report.html`` (plots embedded), PNG plots, ``results.json`` and CSV tables.

>>> from dicechess.study import StudyConfig, run_study
>>> cfg = StudyConfig.quick_config(variants=["fluky"], games_per_pair=4,
...                                playout_games=50, luck_games=2, bootstrap=0)
>>> st = run_study(cfg, progress=False)
>>> st.results["variants"][0]["arena"]["games"]
12
"""

from .report import OUTPUTS, existing_outputs, markdown_table, summary_rows, write_report
from .run import CONTROLS, DEFAULT_AGENTS, QUICK_AGENTS, Study, StudyConfig, run_study

__all__ = [
    "CONTROLS",
    "DEFAULT_AGENTS",
    "OUTPUTS",
    "QUICK_AGENTS",
    "Study",
    "StudyConfig",
    "existing_outputs",
    "markdown_table",
    "run_study",
    "summary_rows",
    "write_report",
]
