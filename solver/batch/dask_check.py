"""Whether an address is a Dask scheduler's, asked before a Dask client is given it.

``distributed.Client`` retries a refused or silent address until its timeout and reads
whatever answers as its own protocol: the first eight bytes of an HTTP reply become a
length of exbibytes, which it tries to allocate. ``check_scheduler`` speaks as much of
the protocol as a yes or no needs, every wait within one deadline and every length
bounded before anything is read: it sends the handshake both ends of a Dask connection
send and the ``identity`` request, then reads the peer's handshake and the reply, which
names the server's type.

A message on the wire is what ``distributed.comm.tcp`` writes: its length (8 bytes), then
the frames of ``distributed.protocol.utils.pack_frames`` (their count, their lengths,
their bytes); the first frame is the message in msgpack. Only msgpack is decoded here,
never a pickle.
"""

from __future__ import annotations

import pickle
import socket
import struct
import sys
import time
from urllib.parse import urlsplit

import msgpack
from tranquility.solver.errors import BadInput

WORD = struct.Struct("Q")  # distributed's lengths: 8 bytes, native order

# The reply to ``identity`` lists the scheduler's workers (about a kilobyte each), so the
# bound is generous; a length read from text is still far above it (any printable eighth
# byte makes it at least 2**56).
MAX_MESSAGE = 64 * 2**20

SHOWN = 60  # characters of a foreign answer quoted in the error


class NotAScheduler(BadInput):
    """What answers at the address is not a Dask scheduler, or nothing answers."""


class NoAnswer(NotAScheduler):
    """Nothing answered within the timeout."""


def scheduler_address(text: str) -> tuple[str, int]:
    """(host, port) of ``tcp://HOST:PORT`` or ``HOST:PORT`` (an IPv6 host in brackets)."""
    scheme, sep, rest = text.partition("://")
    if not sep:
        scheme, rest = "tcp", text
    try:
        parts = urlsplit(f"//{rest}")
        host, port = parts.hostname, parts.port
    except ValueError:  # a port out of range, an unclosed "[" of an IPv6 host
        host = port = None
    if scheme != "tcp" or not host or not port or parts.netloc != rest or "@" in rest:
        raise BadInput(f"{text}: not a scheduler address; give tcp://HOST:PORT")
    return host, port


def check_scheduler(text: str, timeout: float) -> str:
    """The address ``text`` as ``tcp://HOST:PORT`` once a Dask scheduler has answered
    there within ``timeout`` seconds; ``NotAScheduler`` (a ``BadInput``) naming what
    happened otherwise: the connection refused, no answer (``NoAnswer``), or what answered."""
    host, port = scheduler_address(text)
    address = f"tcp://[{host}]:{port}" if ":" in host else f"tcp://{host}:{port}"
    deadline = time.monotonic() + timeout
    try:
        with socket.create_connection((host, port), timeout=timeout) as sock:
            peer = _Peer(sock, deadline)
            sock.sendall(_message(_HANDSHAKE) + _message({"op": "identity", "reply": True}))
            handshake = peer.message()
            if not isinstance(handshake, dict) or "pickle-protocol" not in handshake:
                raise peer.foreign()
            identity = peer.message()
    except _Foreign as exc:
        raise NotAScheduler(f"{text}: not a Dask scheduler ({exc})") from None
    except TimeoutError:
        raise NoAnswer(f"{text}: no answer within {timeout:g} s") from None
    except ConnectionRefusedError:
        raise NotAScheduler(f"{text}: connection refused") from None
    except socket.gaierror as exc:
        raise NotAScheduler(f"{text}: unknown host {host} ({exc.strerror})") from None
    except OSError as exc:
        raise NotAScheduler(f"{text}: {exc.strerror or exc}") from None
    kind = identity.get("type") if isinstance(identity, dict) else None
    if kind != "Scheduler":
        what = f"it is a Dask {kind.lower()}" if isinstance(kind, str) else "it speaks Dask's protocol but did not say what it is"
        raise NotAScheduler(f"{text}: not a Dask scheduler ({what})")
    return address


# A client's handshake (``Comm.handshake_info``), with one more entry that ends in a blank
# line: a server of a line protocol such as HTTP then answers at once, and the error can
# quote it, where it would otherwise wait for the rest of a request until the timeout.
_HANDSHAKE = {
    "compression": None,
    "python": tuple(sys.version_info)[:3],
    "pickle-protocol": pickle.HIGHEST_PROTOCOL,
    "tranquility": "scheduler check\r\n\r\n",
}


def _message(msg: dict) -> bytes:
    frame = msgpack.packb(msg, use_bin_type=True)
    body = WORD.pack(1) + WORD.pack(len(frame)) + frame
    return WORD.pack(len(body)) + body


class _Foreign(Exception):
    """The peer is not a Dask server; the message says what it answered."""


class _Peer:
    """Reading the messages of ``sock``, everything received kept to quote."""

    def __init__(self, sock: socket.socket, deadline: float) -> None:
        self.sock = sock
        self.deadline = deadline
        self.received = bytearray()
        self.at = 0  # where the next message starts in ``received``

    def message(self) -> object:
        (size,) = WORD.unpack(self._read(WORD.size))
        if not 2 * WORD.size <= size <= MAX_MESSAGE:
            raise self.foreign()
        body = memoryview(self._read(size))
        (count,) = WORD.unpack_from(body)
        if not 1 <= count <= size // WORD.size - 1:
            raise self.foreign()
        (first,) = WORD.unpack_from(body, WORD.size)
        start = WORD.size * (1 + count)
        if start + first > size:
            raise self.foreign()
        try:
            return msgpack.unpackb(body[start : start + first], raw=False, strict_map_key=False, use_list=False)
        except (ValueError, TypeError):
            raise self.foreign() from None

    def _read(self, count: int) -> bytes:
        """The next ``count`` bytes; a peer that stops short, closing or silent, is foreign
        once it has said anything (silence from the start is a timeout)."""
        while len(self.received) < self.at + count:
            left = self.deadline - time.monotonic()
            try:
                if left <= 0:
                    raise TimeoutError
                self.sock.settimeout(left)
                chunk = self.sock.recv(65536)
            except (TimeoutError, ConnectionResetError):
                if self.received:
                    raise self.foreign() from None
                raise
            if not chunk:
                raise self.foreign()
            self.received += chunk
        self.at += count
        return bytes(self.received[self.at - count : self.at])

    def foreign(self) -> _Foreign:
        """The error quoting what answered: the first line it sent."""
        if not self.received:
            return _Foreign("it closed the connection without answering")
        line = bytes(self.received).split(b"\n", 1)[0].rstrip(b"\r").decode("latin-1")
        shown = line if len(line) <= SHOWN else line[:SHOWN] + "..."
        return _Foreign(f"it answered {shown!r}")
