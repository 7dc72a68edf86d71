"""Who may talk to the server: a request's ``Host`` must name the address served, and a
request from a page of another origin is refused, unless ``--allow-origin`` names it.

Without the ``Host`` check, a name the attacker controls that resolves to 127.0.0.1 (DNS
rebinding) makes the server same-origin to the attacker's page; without the ``Origin``
check, any page open in the same browser could start jobs and fill the boards (a ``POST``
with ``Content-Type: text/plain`` needs no preflight). A client that is not a browser (curl,
a script) sends no ``Origin`` and is let through: it could reach the port anyway.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Awaitable, Callable, Iterable
from urllib.parse import urlsplit

from aiohttp import web
from aiohttp.typedefs import Middleware

LOOPBACK_NAMES = frozenset({"localhost", "127.0.0.1", "::1"})
WILDCARDS = frozenset({"0.0.0.0", "::", ""})

Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]
Refuse = Callable[[int, str], web.StreamResponse]


def _split_host(value: str) -> tuple[str, int | None] | None:
    """``name[:port]`` or ``[v6][:port]`` as (lower-case name, port); None when malformed."""
    value = value.strip().lower()
    if value.startswith("["):
        name, bracket, rest = value[1:].partition("]")
        if not bracket or (rest and not rest.startswith(":")):
            return None
        port_text = rest[1:]
    else:
        name, colon, port_text = value.rpartition(":") if value.count(":") == 1 else (value, "", "")
        if not colon:
            name, port_text = value, ""
    if not name:
        return None
    if not port_text:
        return name, None
    return (name, int(port_text)) if port_text.isdigit() and len(port_text) <= 5 else None


def _is_ip(name: str) -> bool:
    try:
        ipaddress.ip_address(name)
    except ValueError:
        return False
    return True


def is_loopback(name: str) -> bool:
    """Whether ``name`` (a host name or address, brackets allowed) is this machine only."""
    name = name.strip().strip("[]").lower()
    return name in LOOPBACK_NAMES or (_is_ip(name) and ipaddress.ip_address(name).is_loopback)


def origin_of(url: str) -> str:
    """An origin as a browser sends it (``scheme://host[:port]``, lower case): ``--allow-origin``'s form."""
    parts = urlsplit(url.strip())
    if parts.scheme not in ("http", "https") or not parts.netloc or parts.path not in ("", "/") or parts.query:
        raise ValueError(f"{url!r} is not an origin (scheme://host[:port], e.g. http://localhost:3000)")
    return f"{parts.scheme}://{parts.netloc.lower()}"


class Guard:
    """The Host and Origin checks for a server at ``host`` (its ``--host``), port ``port``
    once bound, letting ``allowed`` origins through as well (with CORS headers)."""

    def __init__(self, host: str, allowed: Iterable[str] = ()):
        self.host = host.strip().strip("[]").lower()
        self.allowed = frozenset(origin_of(origin) for origin in allowed)
        self.port: int | None = None

    def host_ok(self, header: str) -> bool:
        split = _split_host(header)
        if split is None:
            return False
        name, port = split
        if (port or 80) != self.port:
            return False
        if name == self.host:
            return True
        if self.host in WILDCARDS:  # served on every address: any address of this machine, by number
            return _is_ip(name) or name == "localhost"
        if is_loopback(self.host):
            return is_loopback(name)
        return any(urlsplit(origin).hostname == name for origin in self.allowed)

    def served_as(self) -> str:
        shown = f"[{self.host}]" if ":" in self.host else self.host
        return f"{shown}:{self.port}" + (" (or localhost)" if is_loopback(self.host) else "")

    def middleware(self, refuse: Refuse) -> Middleware:
        @web.middleware
        async def guard(request: web.Request, handler: Handler) -> web.StreamResponse:
            host = request.headers.get("Host")
            if host is not None and not self.host_ok(host):
                return refuse(403, f"Host: this server answers to {self.served_as()}, not {host[:80]!r}")
            origin = request.headers.get("Origin")
            foreign = origin is not None and origin.lower() != f"http://{(host or '').lower()}"
            if foreign and origin is not None and origin.lower() not in self.allowed:
                return refuse(403, f"Origin: {origin[:80]!r} may not use this server (serve --allow-origin lets one in)")
            if not foreign or origin is None:
                return await handler(request)
            cors = {"Access-Control-Allow-Origin": origin, "Vary": "Origin"}
            if request.method == "OPTIONS":  # a preflight of an allowed origin
                allow = {"Access-Control-Allow-Methods": "GET, POST, DELETE", "Access-Control-Allow-Headers": "Content-Type"}
                return web.Response(status=204, headers={**cors, **allow})
            request["cors"] = cors  # added as the answer is prepared (an event stream's too)
            return await handler(request)

        return guard

    @staticmethod
    async def add_cors(request: web.Request, response: web.StreamResponse) -> None:
        """``on_response_prepare``: an allowed origin's CORS headers on its answers."""
        response.headers.update(request.get("cors", {}))
