"""tranquility-solver: rules engine, deals, lines and solver for the card game Tranquility.

Layers point one way: ``cards``/``rules``/``deal``/``actions``/``state`` (the pure rules
engine) <- ``formats``/``verify`` <- the CP-SAT model and the solvers <- the CLI.
"""

__version__ = "0.1.0"
