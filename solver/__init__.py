"""tranquility-solver: rules engine, deals, lines and solver for the card game Tranquility.

Layers point one way: ``cards``/``rules``/``deal``/``actions``/``state`` (the pure rules
engine) <- ``formats``/``verify`` <- the CP-SAT model and the solvers <- the CLI.
"""

from __future__ import annotations


def __getattr__(name: str) -> str:
    # ``__version__`` is read from the package metadata only when asked: importing the
    # metadata machinery costs start-up time that most commands never need.
    if name == "__version__":
        from importlib.metadata import PackageNotFoundError, version

        try:
            return version("tranquility-solver")
        except PackageNotFoundError:  # a checkout that was never installed
            return "0+unknown"
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
