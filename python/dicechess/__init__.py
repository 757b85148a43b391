"""dicechess: exact, fast dice-chess variants with explicit chance nodes.

The rules core is written in Rust (the compiled extension ``dicechess._core``);
this package re-exports it and adds the Python-side tooling.
"""

from ._core import __version__

__all__ = ["__version__"]
