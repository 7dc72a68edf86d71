"""tranquility-solver: rules engine, deals, lines and solver for the card game Tranquility.

Layers point one way: ``cards``/``rules``/``deal``/``actions``/``state`` (the pure rules
engine) <- ``formats``/``verify`` <- the CP-SAT model and the solvers <- the CLI.
"""

from importlib.metadata import PackageNotFoundError, version

try:
    __version__ = version("tranquility-solver")
except PackageNotFoundError:  # running from a checkout that was never installed
    __version__ = "0+unknown"
