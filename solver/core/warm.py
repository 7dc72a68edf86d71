"""Loading a module of the compiled core without stopping the caller: the first use after
install compiles it (tens of CPU seconds, holding Python's lock the whole time), so a caller
that can go on without it (every caller: the reference plays the same games) has it loaded
by a process of its own, on the other core, and switches once that process is done: numba's
cache then holds it, and importing it here takes a second or two. When numba's cache already
holds the module's code, it is imported here at once. Imports no numba."""

from __future__ import annotations

import hashlib
import importlib
import os
import subprocess
import sys
from pathlib import Path

_loading: dict[str, subprocess.Popen] = {}
NICER = 10  # the background load's niceness, above the caller's
_failed: set[str] = set()

# The solver's searches reach for these together (the greedy playouts, then the complete
# search): one background process loads them all, so that the second is ready with the first.
SEARCHES = ("tranquility.solver.core.greedy", "tranquility.solver.core.complete")

# The compiled files (solver/core's modules with numba functions) each entry point compiles.
COMPILES = {
    "tranquility.solver.core.games": ("kernel", "silent"),
    "tranquility.solver.core.greedy": ("kernel", "silent", "twister", "greedy"),
    "tranquility.solver.core.complete": ("kernel", "complete"),
    "tranquility.solver.core.worlds": ("kernel", "silent", "twister", "worlds"),
}


def cached(module: str) -> bool:
    """Whether numba's cache (beside the core, or under ``NUMBA_CACHE_DIR``, which numba then
    uses alone) holds code of every file ``module`` compiles, written after the file was: then
    importing it reads the cache. A guess on the safe side: where it is wrong, the import
    compiles, as it would anyway."""
    files = COMPILES.get(module)
    if files is None:
        return False
    here = Path(os.path.abspath(__file__)).parent
    chosen = os.environ.get("NUMBA_CACHE_DIR")
    # Under NUMBA_CACHE_DIR numba names a module's folder after its own folder and a SHA-1 of
    # the folder's path.
    mirror = f"{here.name}_{hashlib.sha1(str(here).encode()).hexdigest()}"
    place = Path(chosen) / mirror if chosen else here / "__pycache__"
    for name in files:
        written = (here / f"{name}.py").stat().st_mtime
        if not any(index.stat().st_mtime >= written for index in place.glob(f"{name}.*.nbi")):
            return False
    return True


def ready(module: str) -> bool:
    """Whether ``module`` (of solver/core) is loaded: started loading in the background on the
    first ask, imported here once that is done. False for good if the background load failed
    (the caller stays on the reference)."""
    if module in sys.modules:
        return True
    if module in _failed:
        return False
    loading = _loading.get(module)
    if loading is None and cached(module):
        importlib.import_module(module)
        return True
    if loading is None:
        group = SEARCHES if module in SEARCHES else (module,)
        # At a lower priority: where the cores are busy (a solve's CP-SAT workers and its
        # greedy thread), the caller's own search goes first; on a free core it costs nothing.
        loads = f"import os\nif hasattr(os, 'nice'):\n    os.nice({NICER})\nimport {', '.join(group)}"
        process = subprocess.Popen(
            [sys.executable, "-c", loads],
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
