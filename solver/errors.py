"""The two kinds of failure, kept apart: input that cannot be used, and bugs.

Every error the library raises because of what a user gave it (a file, a rule, a deal, a
line, an option) is a ``BadInput``: the CLI prints its one-line message and exits 2
(``verify`` answers 1 for a well-formed file that breaks a rule, since that is its
question). Anything else that escapes is a bug (exit 3); ``InternalError`` names the bugs
the library catches itself, such as a solver line the rules engine rejects.
"""

from __future__ import annotations


class BadInput(ValueError):
    """The input cannot be used; the message says which file, key, card or turn."""


class InternalError(RuntimeError):
    """A bug caught by the library's own checks (never the user's fault)."""
