"""The API described: the OpenAPI 3.1 document ``GET /api/openapi.json`` serves. A test
keeps its paths equal to the server's routes, and schemathesis fuzzes every operation it
lists against a running server (tests/cli/test_web_api_fuzz.py)."""

from __future__ import annotations

from typing import Any

from tranquility.app import work
from tranquility.app.fields import MAX_INT, MAX_SEED
from tranquility.app.work import LONG_KINDS, MAX_SAMPLES
from tranquility.solver.engine.rules import PRESETS
from tranquility.solver.verdicts import Objective

BOARD_OPS = ("play", "undo", "redo", "back", "hint", "check")
TABLE_OPS = ("play", "give", "rocks", "step", "hint")

_ref = "#/components/schemas/"


def _json(schema: dict) -> dict:
    return {"content": {"application/json": {"schema": schema}}}


def _answer(description: str, schema: dict | None = None, errors: dict[str, str] | None = None) -> dict:
    """A 200 (``schema``, any object by default) and the errors, each ``{"error": "one line"}``."""
    found: dict[str, Any] = {"200": {"description": description, **_json(schema or {"type": "object"})}}
    for status, said in {"400": "the request cannot be used (the field named)", **(errors or {})}.items():
        found[status] = {"description": said, **_json({"$ref": _ref + "Error"})}
    found["403"] = {"description": "a foreign Host or Origin", **_json({"$ref": _ref + "Error"})}
    return found


def _body(*schemas: str, required: bool = True) -> dict:
    merged = {"allOf": [{"$ref": _ref + name} for name in schemas]} if len(schemas) > 1 else {"$ref": _ref + schemas[0]}
    return {"required": required, **_json(merged)}


def _id(name: str = "id") -> dict:
    return {"name": name, "in": "path", "required": True, "schema": {"type": "string", "maxLength": 40}}


def _op(name: str, ops: tuple[str, ...]) -> dict:
    return {"name": name, "in": "path", "required": True, "schema": {"type": "string", "enum": list(ops)}}


_BUSY = {"503": "every worker busy and the queue full, the job too long, or its worker died"}
_MISSING = {"404": "no such game (forgotten after hours unused) or job (forgotten once read long ago)"}


def schemas() -> dict[str, Any]:
    """The request bodies' parts, with this server's limits (``--job-cap`` lowers the seconds)."""
    return {
        "Error": {
            "type": "object",
            "required": ["error"],
            "properties": {"error": {"type": "string", "description": "one line, naming the field, card or turn"}},
        },
        "Game": {
            "type": "object",
            "description": "The game: exactly one of game, text, position, puzzle, or seed with players.",
            "anyOf": [
                {"required": ["seed", "players"]},
                *({"required": [key]} for key in ("game", "text", "position", "puzzle")),
            ],
            "properties": {
                "game": {"type": "object", "description": "a deal, line or position file's JSON"},
                "text": {"type": "string", "description": "a game file's text: JSON, tq1 ... or the notation"},
                "position": {"type": "string", "description": "a position's tq1 text or JSON"},
                "puzzle": {"type": "string", "description": "a catalogue puzzle's id"},
                "seed": {"type": "integer", "minimum": 0, "maximum": MAX_SEED},
                "players": {"type": "integer", "minimum": 1, "maximum": 5},
                "rules": {"oneOf": [{"type": "string", "enum": list(PRESETS)}, {"type": "object"}]},
                "rule": {"type": "object", "additionalProperties": {"type": ["string", "integer", "boolean"]}},
            },
        },
        "Budget": {
            "type": "object",
            "properties": {
                "time_limit": {
                    "type": "number",
                    "exclusiveMinimum": 0,
                    "maximum": work.MAX_SECONDS,
                    "description": f"seconds; defaults {work.DEFAULT_SECONDS}",
                },
                "reproducible": {"type": "boolean", "description": "fixed budgets in place of seconds (no time_limit then)"},
                "objective": {"type": "string", "enum": [o.value for o in Objective]},
            },
        },
        "Fair": {
            "type": "object",
            "properties": {
                "fair": {"type": "boolean"},
                "samples": {"type": "integer", "minimum": 1, "maximum": MAX_SAMPLES},
                "turns": {"type": "integer", "minimum": 0, "maximum": MAX_INT},
                "sim_seed": {"type": "integer", "minimum": 0, "maximum": MAX_SEED},
            },
        },
        "Job": {
            "type": "object",
            "required": ["kind"],
            "properties": {"kind": {"type": "string", "enum": list(LONG_KINDS)}},
        },
        "Seating": {
            "type": "object",
            "properties": {
                "seat": {"type": "integer", "minimum": 0, "maximum": MAX_INT},
                "bots": {"type": "string"},
                "bot_seed": {"type": "integer", "minimum": 0, "maximum": MAX_SEED},
            },
        },
        "Operation": {
            "type": "object",
            "description": "play: action (an action object or the notation); give: cards; rocks: row; hint and check: "
            "a Budget (a board's); hint: card, a card of the hand to ask about",
            "properties": {
                "action": {"oneOf": [{"type": "object"}, {"type": "string"}]},
                "cards": {"type": "array", "items": {"type": "integer"}},
                "row": {"type": "integer", "minimum": 0, "maximum": MAX_INT},
                "time_limit": {"type": "number", "exclusiveMinimum": 0, "maximum": work.MAX_SECONDS},
                "objective": {"type": "string", "enum": [o.value for o in Objective]},
                "card": {
                    "oneOf": [{"type": "integer", "minimum": 1}, {"type": "string", "enum": ["S", "F", "M"]}],
                    "description": "hint: the chosen card of the hand, answered for (its best cell, or a better move)",
                },
            },
        },
    }


def document() -> dict:
    """The OpenAPI document of every route the server answers."""
    paths: dict[str, Any] = {
        "/": {"get": {"summary": "the board page", "responses": {"200": {"description": "HTML"}}}},
        "/api/openapi.json": {"get": {"summary": "this document", "responses": _answer("OpenAPI 3.1")}},
        "/api/options": {
            "get": {
                "summary": "the rules presets, the bots' policies, the objectives, the jobs and the limits",
                "responses": _answer(""),
            }
        },
        "/api/deal": {
            "get": {
                "summary": "deal --json: a seeded deal",
                "parameters": [
                    {
                        "name": "seed",
                        "in": "query",
                        "required": True,
                        "schema": {"type": "integer", "minimum": 0, "maximum": MAX_SEED},
                    },
                    {"name": "players", "in": "query", "required": True, "schema": {"type": "integer", "minimum": 1}},
                    {"name": "rules", "in": "query", "schema": {"type": "string", "enum": list(PRESETS)}},
                    {"name": "rule", "in": "query", "schema": {"type": "string", "description": "KEY=VALUE"}},
                ],
                "responses": _answer("the deal file"),
            }
        },
        "/api/puzzles": {
            "get": {
                "summary": "puzzles --json: the catalogue, filtered",
                "parameters": [
                    {"name": "players", "in": "query", "schema": {"type": "integer", "minimum": 1}},
                    {"name": "grade", "in": "query", "schema": {"type": "integer", "minimum": 0}},
                    {"name": "preset", "in": "query", "schema": {"type": "string", "enum": list(PRESETS)}},
                ],
                "responses": _answer("the puzzles", {"type": "array", "items": {"type": "object"}}),
            }
        },
        **{
            f"/api/{kind}": {
                "post": {
                    "summary": f"{kind} --json, run to its end",
                    "requestBody": _body("Game", "Budget", *(("Fair",) if kind == "analyze" else ())),
                    "responses": _answer(f"{kind} --json's document", errors=_BUSY),
                }
            }
            for kind in LONG_KINDS
        },
        "/api/jobs": {
            "post": {
                "summary": "a long job started: its id at once (202), its events to follow",
                "requestBody": _body("Job", "Game", "Budget", "Fair"),
                "responses": {
                    "202": {"description": "started", **_json({"type": "object", "required": ["id", "kind"]})},
                    **{k: v for k, v in _answer("", errors=_BUSY).items() if k != "200"},
                },
            }
        },
        "/api/jobs/{id}/events": {
            "get": {
                "summary": "the job's progress, then done or error, as server-sent events",
                "parameters": [_id()],
                "responses": {
                    "200": {"description": "text/event-stream", "content": {"text/event-stream": {"schema": {"type": "string"}}}},
                    **{k: v for k, v in _answer("", errors=_MISSING).items() if k != "200"},
                },
            }
        },
        "/api/jobs/{id}": {
            "delete": {"summary": "the job cancelled", "parameters": [_id()], "responses": _answer("cancelled", errors=_MISSING)}
        },
        "/api/html/explain": {
            "post": {
                "summary": "explain --html's page",
                "requestBody": _json({"type": "object", "properties": {"explanation": {"type": "object"}}}),
                "responses": {"200": {"description": "HTML"}, **{k: v for k, v in _answer("").items() if k != "200"}},
            }
        },
        "/api/html/analysis": {
            "post": {
                "summary": "analyze --html's page",
                "requestBody": _body("Game"),
                "responses": {"200": {"description": "HTML"}, **{k: v for k, v in _answer("").items() if k != "200"}},
            }
        },
        "/api/board": {
            "post": {
                "summary": "a board at the game's end",
                "requestBody": _body("Game"),
                "responses": _answer("the board's view"),
            }
        },
        "/api/board/{id}": {
            "get": {"summary": "the board's view", "parameters": [_id()], "responses": _answer("the view", errors=_MISSING)}
        },
        "/api/board/{id}/line": {
            "get": {
                "summary": "the game as a line file",
                "parameters": [_id()],
                "responses": _answer("the line", errors=_MISSING),
            }
        },
        "/api/board/{id}/{op}": {
            "post": {
                "summary": "a board operation",
                "parameters": [_id(), _op("op", BOARD_OPS)],
                "requestBody": _body("Operation", required=False),
                "responses": _answer("the view (with the hint or the check)", errors={**_MISSING, **_BUSY}),
            }
        },
        "/api/table": {
            "post": {
                "summary": "a table with bots",
                "requestBody": _body("Game", "Seating"),
                "responses": _answer("the seat's view"),
            }
        },
        "/api/table/{id}": {
            "get": {"summary": "the seat's view", "parameters": [_id()], "responses": _answer("the view", errors=_MISSING)}
        },
        "/api/table/{id}/{op}": {
            "post": {
                "summary": "a table operation",
                "parameters": [_id(), _op("op", TABLE_OPS)],
                "requestBody": _body("Operation", required=False),
                "responses": _answer(
                    "the seat's view (hint: the fair hint, from the seat's view alone)", errors={**_MISSING, **_BUSY}
                ),
            }
        },
    }
    return {
        "openapi": "3.1.0",
        "info": {
            "title": "tranquility serve",
            "version": "1",
            "description": "The board's API: the CLI's --json answers (docs/web.md).",
        },
        "paths": paths,
        "components": {"schemas": schemas()},
    }
