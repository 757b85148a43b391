"""dicechess: exact, fast dice-chess variants with explicit chance nodes.

The rules core is written in Rust (the compiled extension ``dicechess._core``);
this package re-exports it and adds the Python-side tooling.

>>> import dicechess as dc
>>> s = dc.State("chess")
>>> s.current_player(), len(s.legal_actions())
(0, 20)
>>> s.apply_san("e4")
>>> s.action_to_string(s.string_to_action("e7e5"))
'e5'
>>> s.apply_san("e5"); s.fen()
'rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2'
"""

from . import luck, sim
from ._core import (
    CHANCE,
    TERMINAL,
    TERMINATIONS,
    Agent,
    State,
    VecEnv,
    __version__,
    num_actions,
    observation_planes,
    perft,
    variants,
)
from .arena import ArenaResult, arena
from .luck import RollLuckResult, roll_luck
from .paired import PairedResult, paired_games
from .registry import VariantInfo, variant_info
from .runner import RunOptions
from .sim import PlayoutResult, playouts

__all__ = [
    "Agent",
    "ArenaResult",
    "arena",
    "CHANCE",
    "TERMINAL",
    "TERMINATIONS",
    "State",
    "VecEnv",
    "__version__",
    "num_actions",
    "observation_planes",
    "perft",
    "variants",
    "VariantInfo",
    "variant_info",
    "PlayoutResult",
    "playouts",
    "sim",
    "RollLuckResult",
    "roll_luck",
    "luck",
    "PairedResult",
    "paired_games",
    "RunOptions",
]


def _register_gym_envs() -> None:
    """Registers ``dicechess/<Variant>-v0`` with gymnasium if it is installed
    (gymnasium is an optional dependency: ``pip install 'dicechess[gym]'``)."""
    import importlib.util

    if importlib.util.find_spec("gymnasium") is None:
        return
    try:
        from . import gym as _gym  # noqa: F401  (registers on import)
    except ImportError:  # pragma: no cover - a broken gymnasium install
        pass


_register_gym_envs()
