"""Type stubs for the compiled extension module ``dicechess._core``."""

__version__: str
