"""Ctrl-C (and SIGTERM) held back across a step that must not be cut in two, and whether
the program was told to stop (SIGTERM), which every batch obeys at once."""

from __future__ import annotations

import signal
import threading
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from multiprocessing.context import ForkServerContext

_terminated = False


def terminate() -> None:
    """Note that the program was told to stop (SIGTERM, as ``kill`` and job schedulers send
    it): a batch stops at once, as after a second Ctrl-C, keeping what it has done."""
    global _terminated
    _terminated = True


def terminated() -> bool:
    """Whether the program was told to stop (``terminate``)."""
    return _terminated


HELD = (signal.SIGTERM, signal.SIGINT)  # the order they are delivered in, once let through


@contextmanager
def held() -> Iterator[None]:
    """Hold Ctrl-C and SIGTERM back while the body runs, then deliver the one that came as
    the handler in force would have (a KeyboardInterrupt raised on leaving, in the usual
    case; SIGTERM first when both came: it is the stronger). For a step whose interruption
    would leave something running unseen: starting a thread that must be stopped and
    joined, or a worker process the pool must know in order to stop it. Outside the main
    thread (where no signal handler runs) the body just runs."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    came: set[int] = set()
    previous = {signum: signal.signal(signum, lambda signum, frame: came.add(signum)) for signum in HELD}
    try:
        yield
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler)
    for signum in HELD:
        if signum in came:
            _deliver(signum, previous[signum])
            return


def _deliver(signum: int, handler: signal._HANDLER) -> None:
    if callable(handler):
        handler(signum, None)
    elif handler == signal.SIG_DFL and signum == signal.SIGINT:
        raise KeyboardInterrupt
    elif handler == signal.SIG_DFL:
        signal.raise_signal(signum)  # the default: the process ends, as it would have


def forkserver(modules: Iterable[str]) -> ForkServerContext:
    """The 'forkserver' context, its server started now with ``modules`` imported: worker
    processes forked by that one-threaded server, never by a parent that runs threads (a
    fork in the middle of another thread's import leaves the child a half-imported module,
    and any lock that thread held, held for good). The server starts with Ctrl-C ignored
    (SIG_IGN, the one disposition a new program inherits), which it and every process it
    forks keep until they set their own: the parent alone answers Ctrl-C, by stopping them."""
    import multiprocessing
    from multiprocessing import forkserver as server

    context = multiprocessing.get_context("forkserver")
    context.set_forkserver_preload(sorted(set(modules)))
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        server.ensure_running()
    finally:
        signal.signal(signal.SIGINT, previous)
    return context
