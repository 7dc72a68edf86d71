"""``tranquility serve``'s web server (aiohttp, docs/web.md): the board page and its JSON API.

The event loop only routes, reads and writes: every solve runs in the worker pool
(``pool.Pool``: bounded, a queue with a limit, a cap per job); a bot's decision, which is
quicker but not instant, runs in a thread. Requests are small: a body over
``MAX_BODY`` bytes is refused, bad JSON and an unusable game are a 400 with the one-line
message the CLI gives, and no request names a file on the server (``api``'s game forms).
"""

from __future__ import annotations

import asyncio
import json
import secrets
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass, field
from importlib.resources import files
from typing import Any

from aiohttp import web
from tranquility.app import fields, source, work
from tranquility.app.sessions import BoardSession, TableSession
from tranquility.solver.errors import BadInput

from .guard import Guard
from .pool import Busy, JobFailed, Pool, Stopped, Ticket, TooLong, WorkerLost
from .sessions import Kept, Sessions

MAX_BODY = 1 << 20  # bytes: a line file of a long game is about 20 KB
MAX_JOBS = 100  # long jobs kept for their events at once; the oldest finished go first
KEEP_JOBS = 600.0  # seconds a finished job's events are kept for a page to read them
STATIC = files("tranquility.cli.web_board") / "static"
# The page loads nothing but what this server sends (docs/web.md): no other origin at all.
HEADERS = {
    "Content-Security-Policy": "default-src 'self'; frame-src 'self' data:; img-src 'self' data:; "
    "style-src 'self' 'unsafe-inline'; script-src 'self' 'unsafe-inline'; base-uri 'none'; form-action 'none'; "
    "frame-ancestors 'self'",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
}


def _error(status: int, message: str) -> web.Response:
    return web.json_response({"error": message}, status=status, headers=HEADERS)


@web.middleware
async def _answers(request: web.Request, handler: Callable[[web.Request], Awaitable[web.StreamResponse]]) -> web.StreamResponse:
    """Every failure as ``{"error": "one line"}`` with its status; never a traceback."""
    try:
        response = await handler(request)
    except web.HTTPRequestEntityTooLarge:
        return _error(413, f"the request is larger than this server takes ({MAX_BODY} bytes)")
    except web.HTTPException as exc:
        if exc.status < 400:
            raise
        return _error(exc.status, exc.reason)
    except BadInput as exc:
        return _error(400, str(exc))
    except JobFailed as exc:
        return _error(400 if exc.bad else 500, str(exc))
    except (Busy, Stopped, TooLong, WorkerLost) as exc:
        return _error(503, str(exc))
    except Exception as exc:  # a bug: said as the CLI says it, and the server goes on
        return _error(500, f"internal error (a bug): {type(exc).__name__}: {exc}")
    for key, value in HEADERS.items():
        response.headers.setdefault(key, value)
    return response


async def _body(request: web.Request) -> dict:
    """The request's JSON object (``fields.json_object``)."""
    return fields.json_object((await request.read()).decode("utf-8", errors="replace"))


def _query(request: web.Request) -> dict:
    """A GET's query as a body (``fields.query_object``)."""
    return fields.query_object(request.query, ("seed", "players", "grade"))


@dataclass
class Job:
    """A long job the page follows (its progress as server-sent events) and may cancel."""

    kind: str
    ticket: Ticket = field(default_factory=Ticket)
    events: list[tuple[str, Any]] = field(default_factory=list)
    changed: asyncio.Event = field(default_factory=asyncio.Event)
    done: bool = False
    ended: float = 0.0  # when it ended (the loop's clock): it is forgotten KEEP_JOBS seconds later

    def tell(self, event: str, data: Any) -> None:
        if self.done:  # a job ends once: a late answer after the server gave up on it is dropped
            return
        self.events.append((event, data))
        if event in ("done", "error"):
            self.done, self.ended = True, time.monotonic()
        self.changed.set()


class Server:
    """The routes, over one worker pool, the games in play and the long jobs followed."""

    def __init__(self, pool: Pool, keep_jobs: float = KEEP_JOBS):
        self.pool, self.keep_jobs = pool, keep_jobs
        self.sessions = Sessions()
        self.jobs: OrderedDict[str, Job] = OrderedDict()
        self.tasks: set[asyncio.Task] = set()

    def app(self, host: str = "127.0.0.1", allow_origins: Iterable[str] = ()) -> web.Application:
        """The routes, behind the Host and Origin checks (``guard``) for a server at ``host``."""
        self.guard = Guard(host, allow_origins)
        app = web.Application(client_max_size=MAX_BODY, middlewares=[_answers, self.guard.middleware(_error)])
        app.on_response_prepare.append(self.guard.add_cors)
        app.add_routes(
            [
                web.get("/", self.page),
                web.static("/static", str(STATIC), follow_symlinks=False),
                web.get("/api/openapi.json", self.openapi),
                web.get("/api/options", self.options),
                web.get("/api/deal", self.deal),
                web.get("/api/puzzles", self.puzzles),
                *[web.post(f"/api/{kind}", self.answer) for kind in work.LONG_KINDS],
                web.post("/api/jobs", self.start_job),
                web.get("/api/jobs/{id}/events", self.job_events),
                web.delete("/api/jobs/{id}", self.cancel_job),
                web.post("/api/html/explain", self.explain_page),
                web.post("/api/html/analysis", self.analysis_page),
                web.post("/api/board", self.new_board),
                web.get("/api/board/{id}", self.board_view),
                web.get("/api/board/{id}/line", self.board_line),
                web.post("/api/board/{id}/{op}", self.board_op),
                web.post("/api/table", self.new_table),
                web.get("/api/table/{id}", self.table_view),
                web.post("/api/table/{id}/{op}", self.table_op),
            ]
        )
        return app

    # -- the page ------------------------------------------------------------------------

    async def page(self, request: web.Request) -> web.Response:
        return web.Response(text=(STATIC / "board.html").read_text(encoding="utf-8"), content_type="text/html")

    # -- the API: the CLI's answers ------------------------------------------------------

    async def openapi(self, request: web.Request) -> web.Response:
        from .openapi import document

        return web.json_response(document())

    async def options(self, request: web.Request) -> web.Response:
        return web.json_response(work.options_json())

    async def deal(self, request: web.Request) -> web.Response:
        return web.json_response(work.deal_json(_query(request)))

    async def puzzles(self, request: web.Request) -> web.Response:
        return web.json_response(work.puzzles_json(_query(request)))

    async def answer(self, request: web.Request) -> web.Response:
        """``POST /api/KIND``: the job run to its end, its answer the CLI's ``--json``."""
        kind = request.path.rsplit("/", 1)[1]
        return web.json_response(await self.pool.run(kind, await _body(request), _ignore, Ticket()))

    async def start_job(self, request: web.Request) -> web.Response:
        """``POST /api/jobs`` ``{"kind": ..., ...}``: the job started, its id at once."""
        body = await _body(request)
        kind = work.job_kind(body)  # a bad field is a 400 now, not an event later
        if self.pool.full():
            raise Busy(self.pool.busy_message())
        key, job = secrets.token_urlsafe(9), Job(kind)
        self._keep(key, job)
        task = asyncio.get_running_loop().create_task(self._run(job, body))
        self.tasks.add(task)  # held until it ends: the loop keeps only a weak reference
        task.add_done_callback(self.tasks.discard)
        return web.json_response({"id": key, "kind": kind}, status=202)

    async def _run(self, job: Job, body: dict) -> None:
        try:
            job.tell("done", await self.pool.run(job.kind, body, lambda step: job.tell("progress", step), job.ticket))
        except (BadInput, JobFailed) as exc:
            job.tell("error", {"error": str(exc), "status": 400 if getattr(exc, "bad", True) else 500})
        except (Busy, Stopped, TooLong, WorkerLost) as exc:
            job.tell("error", {"error": str(exc), "status": 503})
        except asyncio.CancelledError:
            job.tell("error", {"error": "the server stopped before this job ended", "status": 503})
            raise
        except Exception as exc:  # a bug: said as the CLI says it; the job ends and the server goes on
            job.tell("error", {"error": f"internal error (a bug): {type(exc).__name__}: {exc}", "status": 500})

    async def stop(self, grace: float) -> None:
        """Every job cut as Ctrl-C cuts the command (``grace`` seconds for what it found),
        the workers killed, and every job still open ended, so no event stream waits."""
        for job in self.jobs.values():
            job.ticket.cancel()
        await self.pool.close(grace)
        for job in self.jobs.values():
            job.tell("error", {"error": "the server stopped before this job ended", "status": 503})

    def _forget_old(self) -> None:
        """Finished jobs kept longer than ``keep_jobs`` seconds are forgotten (their events 404)."""
        now = time.monotonic()
        for key in [key for key, job in self.jobs.items() if job.done and now - job.ended > self.keep_jobs]:
            del self.jobs[key]

    def _keep(self, key: str, job: Job) -> None:
        self._forget_old()
        while len(self.jobs) >= MAX_JOBS:
            finished = next((k for k, j in self.jobs.items() if j.done), None)
            if finished is None:
                raise Busy(f"the server follows {MAX_JOBS} jobs already; try again shortly")
            del self.jobs[finished]
        self.jobs[key] = job

    def _job(self, request: web.Request) -> Job:
        self._forget_old()
        job = self.jobs.get(request.match_info["id"])
        if job is None:
            raise web.HTTPNotFound(reason=f"no job {request.match_info['id']!r} (finished long ago, or never started)")
        return job

    async def job_events(self, request: web.Request) -> web.StreamResponse:
        """The job's progress, then its answer (``done``) or its failure (``error``), as
        server-sent events; those already past are sent first."""
        job = self._job(request)
        response = web.StreamResponse(headers={"Content-Type": "text/event-stream", "Cache-Control": "no-cache", **HEADERS})
        await response.prepare(request)
        sent = 0
        while True:
            job.changed.clear()
            for event, data in job.events[sent:]:
                await response.write(f"event: {event}\ndata: {json.dumps(data)}\n\n".encode())
            sent = len(job.events)
            if job.done:
                return response
            await job.changed.wait()

    async def cancel_job(self, request: web.Request) -> web.Response:
        """Stop the job: it ends as Ctrl-C ends the command, with what it found (interrupted)."""
        job = self._job(request)
        job.ticket.cancel()
        return web.json_response({"id": request.match_info["id"], "cancelled": not job.done})

    async def explain_page(self, request: web.Request) -> web.Response:
        """``explain --html``'s page for an explanation (``explain --json``'s document)."""
        from ..html import replay_html

        line, data = work.explained_line(await _body(request))
        return web.Response(text=replay_html(line, data), content_type="text/html")

    async def analysis_page(self, request: web.Request) -> web.Response:
        """``analyze --html``'s page: the line (``game``) with its perfect and fair analysis."""
        from ..html import analysis_html

        return web.Response(text=analysis_html(*work.analysed_line(await _body(request))), content_type="text/html")

    # -- the board ---------------------------------------------------------------------------

    def _kept(self, request: web.Request, kind: type) -> Kept:
        found = self.sessions.get(request.match_info["id"])
        if found is None or not isinstance(found.session, kind):
            raise web.HTTPNotFound(reason=f"no game {request.match_info['id']!r} here (the server forgets one unused for hours)")
        return found

    def _session(self, request: web.Request, kind: type) -> Any:
        return self._kept(request, kind).session

    def _view(self, key: str, session: BoardSession | TableSession) -> web.Response:
        return web.json_response({"id": key, **session.view().to_json()})

    async def new_board(self, request: web.Request) -> web.Response:
        """``POST /api/board`` with a game (``source``'s forms): a board at its end."""
        session = BoardSession(source.board_of(await _body(request)))
        return self._view(self.sessions.add(session), session)

    async def board_view(self, request: web.Request) -> web.Response:
        return self._view(request.match_info["id"], self._session(request, BoardSession))

    async def board_line(self, request: web.Request) -> web.Response:
        """The game so far as a line file, to save (``play``'s save)."""
        from tranquility.solver.formats.codecs import line_to_json

        board = self._session(request, BoardSession).board
        data = line_to_json(board.line, None if board.goal is None else board.goal.tag)
        name = f"game-{board.turn}.json"
        return web.json_response(data, headers={"Content-Disposition": f'attachment; filename="{name}"'})

    async def board_op(self, request: web.Request) -> web.Response:
        """``play`` (``{"action": ...}``), ``undo``, ``redo``, ``back``: the view; ``hint``
        and ``check`` solve, in the pool, and answer with the hint (``{"id", "hint"}``) or
        with the check and the verdicts it proved (not the whole view)."""
        from tranquility.solver.formats.codecs import line_to_json

        key, op = request.match_info["id"], request.match_info["op"]
        session: BoardSession = self._session(request, BoardSession)
        body = await _body(request)
        if op in ("hint", "check"):
            line = session.board.line
            taken = (*work.BUDGET_KEYS, "card") if op == "hint" else work.BUDGET_KEYS
            asked = {name: body[name] for name in taken if name in body}
            answer = await self.pool.run(
                op, {**asked, "game": line_to_json(line), "known": session.verdicts()}, _ignore, Ticket()
            )
            if op == "hint":
                return web.json_response({"id": key, "hint": answer})
            session.learn(line, answer["verdicts"])
            board, proofs = session.board, session.proofs
            return web.json_response(
                {
                    "id": key,
                    "turn": board.turn,
                    "check": answer,
                    "verdicts": session.verdicts(),
                    "thrown_at": proofs.thrown_at(board),
                    "last_winnable": proofs.last_winnable(board),
                }
            )
        match op:
            case "play":
                session.play(fields.field(body, "action", (dict, str)))
            case "undo":
                session.undo()
            case "redo":
                session.redo()
            case "back":
                session.back()
            case _:
                raise web.HTTPNotFound(reason=f"no board operation {op!r} (play, undo, redo, back, hint, check)")
        return self._view(key, session)

    # -- the table ---------------------------------------------------------------------------

    async def new_table(self, request: web.Request) -> web.Response:
        """``POST /api/table`` with a game, ``seat`` and ``bots`` (a policy, tuned by default)."""
        body = await _body(request)
        seating = source.seating_of(body)
        table = await asyncio.to_thread(seating.sit, source.board_of(body))
        session = TableSession(table)
        return self._view(self.sessions.add(session), session)

    async def table_view(self, request: web.Request) -> web.Response:
        return self._view(request.match_info["id"], self._session(request, TableSession))

    async def table_op(self, request: web.Request) -> web.Response:
        """``play`` (``{"action": ...}`` or ``{"action": "S"}``), ``give`` (``{"cards"}``),
        ``rocks`` (``{"row"}``), ``step`` (one bot acts): the view; ``hint`` (``{"card"}``
        optional): the person's fair hint, ``{"id", "turn", "hint"}``."""
        key, op = request.match_info["id"], request.match_info["op"]
        kept = self._kept(request, TableSession)
        session = kept.session
        assert isinstance(session, TableSession)  # _kept checked its kind
        body = await _body(request)
        if op == "hint":
            return await self._fair_hint(key, session, body)
        async with kept.lock:
            await self._table_act(session, op, body)
        return self._view(key, session)

    async def _fair_hint(self, key: str, session: TableSession, body: dict) -> web.Response:
        """The fair hint, solved in the pool from the seat's own observation and memory
        (``hints.fair_job``): the worker is given no card the seat has not seen."""
        from tranquility.app.hints import fair_job, hand_card

        table = session.table
        job = fair_job(table, hand_card(body, table.view.hand))
        answer = await self.pool.run("fair_hint", job, _ignore, Ticket())
        return web.json_response({"id": key, "turn": table.board.turn, "hint": answer})

    async def _table_act(self, session: TableSession, op: str, body: dict) -> None:
        match op:
            case "play":
                session.play(fields.field(body, "action", (dict, str)))
            case "give":
                session.give(fields.field(body, "cards", list, []))
            case "rocks":
                session.rocks(fields.integer(body, "row", 0, fields.MAX_INT))
            case "step":
                await asyncio.to_thread(session.step)
            case _:
                raise web.HTTPNotFound(reason=f"no table operation {op!r} (play, give, rocks, step, hint)")


def _ignore(step: dict) -> None:
    """Progress nobody follows (a request answered when its job ends)."""
