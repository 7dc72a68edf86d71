"""Loading a compiled module in the background: the caller goes on meanwhile, switches once
the other process has loaded it, and stays on the reference for good if that failed."""

from __future__ import annotations

import os
import sys
import time

from tranquility.solver.core import warm
from tranquility.solver.core.warm import ready


def wait_for(module: str) -> list[bool]:
    answers = [ready(module)]
    deadline = time.monotonic() + 60
    while not answers[-1] and time.monotonic() < deadline:
        time.sleep(0.05)
        answers.append(ready(module))
    return answers


def test_a_module_is_loaded_in_the_background_then_here():
    sys.modules.pop("colorsys", None)
    answers = wait_for("colorsys")
    assert answers[0] is False and answers[-1] is True and "colorsys" in sys.modules


def test_a_failed_load_leaves_the_caller_on_the_reference():
    answers = []
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        answers.append(ready("tranquility.solver.core.no_such_module"))
        if len(answers) > 40:
            break
        time.sleep(0.05)
    assert not any(answers)
    assert ready("tranquility.solver.core.no_such_module") is False


def test_a_module_whose_code_numba_keeps_is_known_to_be_cached(tmp_path, monkeypatch):
    """The core's entry points are cached once the suite compiled them (tests/conftest.py); a
    file changed after its cache was written, a file with no cache and an unknown module
    are not."""
    assert all(warm.cached(module) for module in warm.COMPILES)
    assert not warm.cached("tranquility.solver.core.no_such_module")
    monkeypatch.delenv("NUMBA_CACHE_DIR", raising=False)
    monkeypatch.setattr(warm, "__file__", str(tmp_path / "warm.py"))
    monkeypatch.setattr(warm, "COMPILES", {"m": ("kernel", "silent")})
    (tmp_path / "__pycache__").mkdir()
    for name in ("kernel", "silent"):
        (tmp_path / f"{name}.py").write_text("")
    index = tmp_path / "__pycache__" / "kernel.apply-10.py311.nbi"
    index.write_text("")
    assert not warm.cached("m")  # silent has no cache
    (tmp_path / "__pycache__" / "silent.play-3.py311.nbi").write_text("")
    assert warm.cached("m")
    os.utime(index, (0, 0))  # kernel.py changed after its cache was written
    assert not warm.cached("m")


def test_the_background_load_yields_the_cores_to_the_caller(tmp_path, monkeypatch):
    """Where the cores are busy, a solve's own search goes before the first-use compile."""
    (tmp_path / "niceness_probe.py").write_text(
        f"import os\nopen({str(tmp_path / 'nice.txt')!r}, 'a').write(f'{{os.nice(0)}}\\n')\n"
    )
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join([str(tmp_path), os.environ.get("PYTHONPATH", "")]))
    sys.modules.pop("niceness_probe", None)
    monkeypatch.syspath_prepend(str(tmp_path))
    assert wait_for("niceness_probe")[-1] is True
    loaded_there, loaded_here = (int(n) for n in (tmp_path / "nice.txt").read_text().split())
    assert (loaded_there, loaded_here) == (min(19, os.nice(0) + warm.NICER), os.nice(0))
