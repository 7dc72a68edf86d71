"""A request's JSON, read and typed: every field of the wrong type (``null`` included) or out
of its range is a ``RequestError`` (BadInput, a 400) naming the field, in one short line.
A number too long to be any field's value is never converted digit by digit."""

from __future__ import annotations

import json
import math
import re
from collections.abc import Mapping
from typing import Any

from tranquility.solver.engine.deal import MAX_SEED as MAX_SEED  # a request's seed of a deal, as deal --seed takes it
from tranquility.solver.errors import BadInput

MAX_INT = 2**31 - 1  # any other count or seed a request gives
MAX_DIGITS = 40  # digits of an integer read as one: a seed's 2^64 has 20


class RequestError(BadInput):
    """A request the application cannot use (a missing or mistyped field): answered 400."""


def json_object(text: str) -> dict:
    """A request body: a JSON object (empty text is ``{}``); bad JSON is the CLI's one-line
    message. A number longer than MAX_DIGITS is read as a float, so that the field that
    wants an integer names it."""
    from tranquility.solver.formats.json_values import parse_json

    try:
        data = json.loads(text or "{}", parse_int=_json_int)
    except (ValueError, RecursionError):
        data = parse_json(text, "body")  # not JSON: raises the CLI's one-line message
    if not isinstance(data, dict):
        raise RequestError(f"body: expected a JSON object, got {_JSON_NAMES.get(type(data).__name__, 'null')}")
    return data


def query_object(pairs: Mapping[str, str], integers: tuple[str, ...]) -> dict:
    """A query string as a body: the ``integers`` keys read as integers when they are
    digits, ``rule`` as ``KEY=VALUE`` pairs, empty values left out."""
    body: dict[str, Any] = {}
    for key, value in pairs.items():
        if key == "rule":
            name, _, setting = value.partition("=")
            body.setdefault("rule", {})[name.strip()] = setting.strip()
        elif key in integers and re.fullmatch(r"-?[0-9]+", value.strip()):
            body[key] = _json_int(value.strip())
        elif value != "":
            body[key] = value
    return body


def _json_int(text: str) -> int | float:
    return int(text) if len(text) <= MAX_DIGITS else float(text)


def field(body: Mapping[str, Any], key: str, kind: type | tuple[type, ...], default: Any = None, name: str = "") -> Any:
    """``body[key]`` when it is of ``kind`` (``default`` when absent); else RequestError
    naming it (``name``, or ``key``), ``null`` included: a field is given a value or left out."""
    if key not in body:
        return default
    value = body[key]
    if not isinstance(value, kind) or (isinstance(value, bool) and kind not in (bool, (bool,))):
        names = kind.__name__ if isinstance(kind, type) else " or ".join(k.__name__ for k in kind)
        raise RequestError(f"{name or key}: expected {_KIND_WORDS.get(names, names)}, got {shown(value)}")
    return value


def integer(body: Mapping[str, Any], key: str, low: int, high: int, default: int | None = None) -> Any:
    """``body[key]``, an integer from ``low`` to ``high`` (``default`` when absent)."""
    value = field(body, key, int, default)
    if value is not None and not low <= value <= high:
        raise RequestError(f"{key}: an integer from {low} to {high}, not {shown(value)}")
    return value


def shown(value: Any) -> str:
    """A value as an error names it, in one short line (a huge number by its size)."""
    if value is None:
        return "null"
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) >= 10**18:
        return f"a number of {len(str(abs(value)))} digits"
    if isinstance(value, float) and not math.isfinite(value):
        return "a number too large to use"
    return f"{_JSON_NAMES.get(type(value).__name__, type(value).__name__)} {json.dumps(value)[:40]}"


_KIND_WORDS = {
    "str": "a string",
    "int": "an integer",
    "dict": "an object",
    "bool": "true or false",
    "list": "a list",
    "int or float": "a number",
    "str or int or bool": "a string, a number or true or false",
    "str or dict": "a string or an object",
    "dict or str": "an object or a string",
}
_JSON_NAMES = {"str": "string", "int": "integer", "float": "number", "dict": "object", "list": "list", "bool": "boolean"}
