"""One exit-code table for every command (docs/cli.md), and the one place that turns an
escaping exception into its exit code.

Bad input and bugs are kept apart: only a typed input error (the library's ``BadInput``,
click's usage errors, an ``OSError`` on a path) exits 2 with one line; anything else is a
bug, exit 3, with a hint to rerun with ``--debug`` for the traceback.
"""

from __future__ import annotations

import os
import select
import sys
import traceback

import click
from tranquility.solver import stop_signals

from . import interrupts

OK, NO, BAD_INPUT, BUG, INTERRUPTED, TERMINATED = 0, 1, 2, 3, 130, 143

# The table, once: (code, in a --help line, in full). docs/cli.md spells it out.
EXIT_CODES: tuple[tuple[int, str, str], ...] = (
    (OK, "done", "done (for a checking command: the answer is yes)"),
    (NO, "the answer is no", "the command ran and its answer is no"),
    (BAD_INPUT, "the input cannot be used", "the input cannot be used (a file, deal, option or output path)"),
    (BUG, "a bug", "a bug (an internal error; rerun with --debug for the traceback)"),
    (INTERRUPTED, "interrupted", "interrupted (Ctrl-C, or the reader of the output went away)"),
    (TERMINATED, "told to stop", "told to stop (SIGTERM): what was done is kept, as after Ctrl-C"),
)
DOCS = "docs/cli.md"


def exit_line(done: str | None = None, no: str | None = None) -> str:
    """The one line every command's --help ends with: the table, with the command's own
    words for 0 and, for a command that answers a question, 1 (left out otherwise)."""
    own = {OK: done, NO: no}
    parts = [f"{code} {own.get(code) or short}" for code, short, _ in EXIT_CODES if code != NO or no is not None]
    return f"Exit status: {', '.join(parts)} ({DOCS})."


def exit_table() -> str:
    """The whole table, for the top-level --help (a click \\b block: lines kept as they are)."""
    rows = "\n".join(f"  {code:>3}  {full}" for code, _, full in EXIT_CODES)
    return f"\b\nExit status, the same for every command ({DOCS}):\n{rows}"


class InputError(click.ClickException):
    """The input cannot be used (a file, an option, an output path): exit 2, one line."""

    exit_code = BAD_INPUT


class Group(click.Group):
    """The ``tranquility`` group: every command's exceptions end here, as one exit code.

    ``BadInput`` and ``OSError`` -> 2 with one line; ``KeyboardInterrupt`` -> 130 with a
    short message (a solve turns Ctrl-C inside CP-SAT into ``unknown`` itself and exits 0);
    any other exception -> 3, "internal error (a bug)", with the traceback under --debug.
    click's own usage errors (exit 2) and explicit exits pass through unchanged."""

    def make_context(self, info_name, args, parent=None, **extra) -> click.Context:
        try:
            return super().make_context(info_name, args, parent, **extra)
        except click.UsageError as exc:
            raise _one_line(exc) from None

    def invoke(self, ctx: click.Context):
        """The command's exit code, 143 in place of any other once SIGTERM came: the command
        has answered it as it answers Ctrl-C (docs/cli.md, "Ctrl-C")."""
        try:
            result = self._invoked(ctx)
        except click.exceptions.Exit:
            if stop_signals.terminated():
                ctx.exit(TERMINATED)
            raise
        if stop_signals.terminated():
            ctx.exit(TERMINATED)
        return result

    def _invoked(self, ctx: click.Context):
        from tranquility.solver.errors import BadInput, InternalError

        debug = bool(ctx.params.get("debug"))
        interrupts.command_started()
        try:
            try:
                return super().invoke(ctx)
            finally:
                _flush_to_the_reader()
        except click.UsageError as exc:
            raise _one_line(exc) from None
        except (click.ClickException, click.exceptions.Exit, click.exceptions.Abort):
            raise
        except KeyboardInterrupt:
            _interrupted(ctx)
        except BrokenPipeError:
            # The reader of the output went away (`tranquility ... | head`): stop quietly.
            _silence_stdout()
            ctx.exit(INTERRUPTED)
        except BadInput as exc:
            _traceback(debug)
            raise InputError(str(exc)) from None
        except OSError as exc:
            _traceback(debug)
            raise InputError(os_message(exc)) from None
        except Exception as exc:  # the one place bugs are reported
            if _caused_by_an_interrupt(exc):
                _interrupted(ctx)
            _traceback(debug)
            what = str(exc) if isinstance(exc, InternalError) else f"{type(exc).__name__}: {exc}"
            hint = "" if debug else "; rerun with --debug for the traceback"
            click.echo(f"Error: internal error (a bug): {what}{hint}", err=True)
            ctx.exit(BUG)
        finally:
            interrupts.command_ended()


def _one_line(exc: click.UsageError) -> click.ClickException:
    """A usage error as every input error is shown: one line, exit 2 (click's own show is
    four: the usage, a hint, a blank line and the error). The command's help is named in
    it; asking for help with no arguments still shows the help."""
    if isinstance(exc, click.exceptions.NoArgsIsHelpError):
        return exc
    where = f" (see '{exc.ctx.command_path} --help')" if exc.ctx is not None else ""
    return InputError(f"{exc.format_message()}{where}")


def _interrupted(ctx: click.Context) -> None:
    click.echo("Terminated." if stop_signals.terminated() else "Interrupted.", err=True)
    ctx.exit(INTERRUPTED)


def _caused_by_an_interrupt(exc: BaseException) -> bool:
    """Whether Ctrl-C is behind ``exc``: an extension module whose import it cut short
    raises ImportError ("initialization failed") from the KeyboardInterrupt."""
    seen: set[int] = set()
    cause: BaseException | None = exc
    while cause is not None and id(cause) not in seen:
        if isinstance(cause, KeyboardInterrupt):
            return True
        seen.add(id(cause))
        cause = cause.__cause__ or cause.__context__
    return False


def os_message(exc: OSError, path: object = None) -> str:
    """``<path>: <reason>`` for an OSError (the path from the error when not given)."""
    path = path if path is not None else exc.filename
    reason = exc.strerror or str(exc)
    return f"{path}: {reason}" if path is not None and str(path) not in reason else reason


def _flush_to_the_reader() -> None:
    """Flush stdout here, not at the interpreter's exit (where a closed pipe would be
    "Exception ignored" on stderr), and raise BrokenPipeError when its reader has gone:
    whether a write failed depends only on how the output was cut into writes (rich writes
    line by line, a JSON document goes in one piece that the pipe may take whole), so a
    reader gone before the end is the same quiet 130 either way."""
    sys.stdout.flush()
    try:
        poller = select.poll()
        poller.register(sys.stdout.fileno(), select.POLLOUT)
        gone = any(event & select.POLLERR for _, event in poller.poll(0))
    except (AttributeError, OSError, ValueError):  # not a file (a test's runner) or no poll
        return
    if gone:
        raise BrokenPipeError


def _traceback(debug: bool) -> None:
    if debug:
        traceback.print_exc(file=sys.stderr)


def _silence_stdout() -> None:
    """Point stdout at /dev/null so that the interpreter's final flush does not fail again."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):
        pass
