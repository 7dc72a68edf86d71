"""Loading a module of the compiled core without stopping the caller: the first use after
install compiles it (tens of CPU seconds, holding Python's lock the whole time), so a caller
that can go on without it (the greedy solver plays the same lines on the reference) has it
loaded by a process of its own, on the other core, and switches once that process is done:
numba's cache then holds it, and importing it here takes a second or two. Imports no numba."""

from __future__ import annotations

import importlib
import subprocess
import sys

_loading: dict[str, subprocess.Popen] = {}
_failed: set[str] = set()

# The solver's searches reach for these together (the greedy playouts, then the complete
# search): one background process loads them all, so that the second is ready with the first.
SEARCHES = ("tranquility.solver.core.greedy", "tranquility.solver.core.complete")


def ready(module: str) -> bool:
    """Whether ``module`` (of solver/core) is loaded: started loading in the background on the
    first ask, imported here once that is done. False for good if the background load failed
    (the caller stays on the reference)."""
    if module in sys.modules:
        return True
    if module in _failed:
        return False
    loading = _loading.get(module)
    if loading is None:
        group = SEARCHES if module in SEARCHES else (module,)
        process = subprocess.Popen(
            [sys.executable, "-c", f"import {', '.join(group)}"],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        for name in group:
            _loading.setdefault(name, process)
        return False
    if loading.poll() is None:
        return False
    del _loading[module]
    if loading.returncode != 0:
        _failed.add(module)
        return False
    importlib.import_module(module)
    return True
