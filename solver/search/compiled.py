"""The compiled core's modules (solver/core), imported by one thread at a time.

numba's own import is not safe in two threads at once: the second thread meets a half
initialised ``numba.types`` (or ``core.kernel``) and fails with ImportError ("partially
initialized module"). A process that plays in threads (the server's bots, a solve's greedy
thread beside its ladder) can ask for the core in two of them together, so every search
module loads it through ``load`` or ``ready`` here before it imports a name from it.

``TRANQUILITY_CORE=off`` in the environment keeps every search on the reference (the same
results, slower): to tell a bug of the core from one of the reference."""

from __future__ import annotations

import importlib
import os
import threading

from tranquility.solver.core.warm import ready as warm_ready

_lock = threading.Lock()
_loaded: set[str] = set()  # modules imported whole here: later asks need no lock


def load(module: str) -> None:
    """Import ``module`` (its full name) now, in this thread, the others waiting for it."""
    if module in _loaded:
        return
    with _lock:
        importlib.import_module(module)
        _loaded.add(module)


def ready(module: str) -> bool:
    """``core.warm.ready`` (loaded by a process of its own first, then imported here), its
    import made under the same lock as ``load``'s; never with ``TRANQUILITY_CORE=off``."""
    if os.environ.get("TRANQUILITY_CORE") == "off":
        return False
    if module in _loaded:
        return True
    with _lock:
        if not warm_ready(module):
            return False
        _loaded.add(module)
        return True
