"""dicechess: exact, fast dice-chess variants with explicit chance nodes.

The rules core is written in Rust (the compiled extension ``dicechess._core``);
this package re-exports it and adds the Python-side tooling.

>>> import dicechess as dc
>>> s = dc.State("chess")
>>> s.current_player(), len(s.legal_actions())
(0, 20)
>>> s.apply_san("e4"); s.action_to_string(s.legal_actions()[0]) in {"Na6", "a6", "a5", "b6"}
True
"""

from ._core import (
    CHANCE,
    TERMINAL,
    TERMINATIONS,
    State,
    __version__,
    num_actions,
    perft,
    variants,
)
from .sim import PlayoutResult, playouts

__all__ = [
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
