"""Ctrl-C from the program's first line to its last (docs/cli.md, "Ctrl-C").

``install`` is the first thing the entry module does, before any other import, so an
interrupt at any moment has one of three outcomes:

- before the command has started (importing, parsing the options): exit 130 at once,
  with "Interrupted." on stderr; nothing has been done, so nothing is lost;
- while the command runs: a ``KeyboardInterrupt``, which the command answers for (a solve
  reports ``unknown``, a batch keeps what it stored) and ``exits.Group`` turns into 130
  when it escapes;
- once the command has ended: ignored (SIG_IGN, which the interpreter's own shutdown
  leaves in place, where a handler would be reset to the default and the process killed
  after its answer was out).

SIGTERM (``kill``, ``timeout``, a job scheduler) is the same, with a stronger meaning: stop
now. Before the command has started: "Terminated.", exit 143. While it runs: the program
notes it (``solver.stop_signals.terminate``), so that a batch stops at once where a first Ctrl-C
would only end the case under way, and the command ends as Ctrl-C ends it, stopping its
worker processes and keeping what it stored, then exits 143 (``exits.Group``). Once it has
ended: ignored, as Ctrl-C is.

Only this module's standard-library imports run before the handlers are in place.
"""

import os
import signal

_STARTING, _RUNNING, _ENDED = "starting", "running", "ended"
_phase = _STARTING
_installed = False  # only the program installs it: a command run in-process (tests) leaves Ctrl-C alone


def _swallowed(frame) -> bool:
    """Whether an exception raised in ``frame`` would be printed and dropped on its way out:
    the interpreter ignores what escapes a finalizer or a weak reference's callback (the
    import system's module locks have one), so the interrupt would be lost."""
    while frame is not None:
        code = frame.f_code
        if code.co_name == "__del__" or (code.co_name == "cb" and code.co_filename.startswith("<frozen importlib")):
            return True
        frame = frame.f_back
    return False


def _deferred(signum: int, frame) -> bool:
    """Whether the signal lands where its exception would be dropped (``_swallowed``): then
    it is sent once more, from another thread, without waiting for it, and this one handles
    it when it next can, again until that frame has returned (raised from here, it would be
    handled at once, in the same frame)."""
    if not _swallowed(frame):
        return False
    import _thread

    _thread.start_new_thread(os.kill, (os.getpid(), signum))
    return True


def _on_sigint(signum, frame) -> None:
    if _phase == _STARTING:
        os.write(2, b"Interrupted.\n")
        os._exit(130)
    if _deferred(signum, frame):
        return
    raise KeyboardInterrupt


def _on_sigterm(signum, frame) -> None:
    if _phase == _STARTING:
        os.write(2, b"Terminated.\n")
        os._exit(128 + signal.SIGTERM)
    if _phase == _ENDED:
        return
    if _deferred(signum, frame):
        return
    from tranquility.solver import stop_signals  # loaded with cli.exits, before the command started

    stop_signals.terminate()
    raise KeyboardInterrupt


def install() -> None:
    global _installed
    _installed = True
    signal.signal(signal.SIGINT, _on_sigint)
    signal.signal(signal.SIGTERM, _on_sigterm)


def command_started() -> None:
    global _phase
    _phase = _RUNNING


def command_ended() -> None:
    global _phase
    _phase = _ENDED
    if _installed:
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
