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

from ._core import (
    CHANCE,
    TERMINAL,
    TERMINATIONS,
    Agent,
    State,
    __version__,
    num_actions,
    perft,
    variants,
)
from . import sim
from .sim import PlayoutResult, playouts

__all__ = [
    "Agent",
    "CHANCE",
    "TERMINAL",
    "TERMINATIONS",
    "State",
    "__version__",
    "num_actions",
    "perft",
    "variants",
    "PlayoutResult",
    "playouts",
]
