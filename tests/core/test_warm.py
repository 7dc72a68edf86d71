"""Loading a compiled module in the background: the caller goes on meanwhile, switches once
the other process has loaded it, and stays on the reference for good if that failed."""

from __future__ import annotations

import sys
import time

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
