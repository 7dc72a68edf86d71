"""The compiled core loaded by threads at once: numba's import in two threads together fails
("partially initialized module"), so the search modules load the core one thread at a time."""

from __future__ import annotations

import subprocess
import sys

import pytest

# Four threads of a fresh process ask for the compiled core together, as two tables' bots
# and a solve's greedy thread may in the server: each through the search layer's own path.
THREADS = """
import random, threading
from tranquility.solver.engine.deal import deal
from tranquility.solver.engine.line import Line
from tranquility.solver.engine.observation import observe
from tranquility.solver.engine.rules import PRESETS
from tranquility.solver.search import greedy, policies

state = Line(deal(PRESETS["official"], 2, 1)).initial_state()
failed = []

def bot():
    policies.act_as(policies.make_policy("tuned"), observe(state, state.seat))

def playouts():
    greedy.seeded_playouts(state, 0, 2)

def run(work):
    try:
        work()
    except Exception as error:
        failed.append(repr(error))

threads = [threading.Thread(target=run, args=(work,)) for work in (bot, playouts, bot, playouts)]
for thread in threads:
    thread.start()
for thread in threads:
    thread.join()
print(failed)
"""


@pytest.mark.slow
def test_threads_load_the_core_together_without_an_import_error():
    done = subprocess.run([sys.executable, "-c", THREADS], capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"
