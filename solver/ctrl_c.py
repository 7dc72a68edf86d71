"""Ctrl-C held back across a step that must not be cut in two."""

from __future__ import annotations

import signal
import threading
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def held() -> Iterator[None]:
    """Hold Ctrl-C back while the body runs, then deliver it as the handler in force would
    have (a KeyboardInterrupt raised on leaving, in the usual case). For a step whose
    interruption would leave something running unseen: starting a thread that must be
    stopped and joined, or a worker process the pool must know in order to stop it.
    Outside the main thread (where no signal handler runs) the body just runs."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    came: list[bool] = []
    previous = signal.signal(signal.SIGINT, lambda signum, frame: came.append(True))
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)
    if came and callable(previous):
        previous(signal.SIGINT, None)
    elif came and previous == signal.SIG_DFL:
        raise KeyboardInterrupt
