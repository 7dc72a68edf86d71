"""The games the page plays, kept between requests by id (``tranquility.app.sessions``'
boards and tables): at most MAX_SESSIONS, each dropped after IDLE_SECONDS unused, and a
table's requests one at a time (a bot's move runs in a thread while the next request may
come)."""

from __future__ import annotations

import asyncio
import secrets
import time
from collections import OrderedDict
from dataclasses import dataclass, field

from tranquility.app.sessions import BoardSession, TableSession

MAX_SESSIONS = 200  # games kept at once; the one unused longest goes first
IDLE_SECONDS = 3 * 3600.0  # a game untouched this long is dropped


@dataclass
class Kept:
    """A game in play, when it was last used, and the lock that lets one request change it."""

    session: BoardSession | TableSession
    used: float = field(default_factory=time.monotonic)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)


class Sessions:
    """The games in play, by id: at most MAX_SESSIONS, each dropped after IDLE_SECONDS."""

    def __init__(self) -> None:
        self.games: OrderedDict[str, Kept] = OrderedDict()

    def add(self, session: BoardSession | TableSession) -> str:
        self._drop_idle()
        while len(self.games) >= MAX_SESSIONS:
            self.games.popitem(last=False)
        key = secrets.token_urlsafe(9)
        self.games[key] = Kept(session)
        return key

    def get(self, key: str) -> Kept | None:
        found = self.games.get(key)
        if found is None:
            return None
        found.used = time.monotonic()
        self.games.move_to_end(key)
        return found

    def _drop_idle(self) -> None:
        now = time.monotonic()
        for key in [key for key, kept in self.games.items() if now - kept.used > IDLE_SECONDS]:
            del self.games[key]
