"""JSON values read and written with a location in every error: cards, integers, objects,
and whole files (a missing, unreadable or malformed file is a ``FormatError`` naming it)."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from tranquility.solver.engine.cards import FINISH, MONSTER, START, Card, is_island
from tranquility.solver.errors import BadInput
from tranquility.solver.stop_signals import held


class FormatError(BadInput):
    """A file cannot be read or does not follow the format; the message says where."""


def card_from_json(value: Any, where: str) -> Card:
    if is_island(value) or value in (START, FINISH, MONSTER):
        return value
    raise FormatError(f"{where}: {value!r} is not a card (an island number, \"S\", \"F\" or \"M\")")


def cards_from_json(value: Any, where: str) -> tuple[Card, ...]:
    if not isinstance(value, list):
        raise FormatError(f"{where}: must be a list of cards")
    return tuple(card_from_json(v, f"{where}[{i}]") for i, v in enumerate(value))


def int_from_json(value: Any, where: str, low: int = 0) -> int:
    if not is_island(value) or value < low:
        raise FormatError(f"{where}: must be an integer >= {low}, got {value!r}")
    return value


def object_from_json(value: Any, where: str) -> dict:
    if not isinstance(value, dict):
        raise FormatError(f"{where}: must be a JSON object")
    return value


def read_text(path: str | Path) -> str:
    """A file's text (UTF-8); a missing or unreadable file is a FormatError naming it."""
    path = Path(path)
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        raise FormatError(f"{path}: no such file") from None
    except OSError as exc:
        raise FormatError(f"{path}: cannot be read ({exc})") from None
    return decode_text(data, path)


def decode_text(data: bytes, name: str | Path) -> str:
    """Bytes read from ``name`` (a file, or standard input) as text: UTF-8, line ends made
    ``\\n`` as a text-mode read makes them; bytes that are not UTF-8 are a FormatError."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise FormatError(f"{name}: cannot be read ({exc})") from None
    return text.replace("\r\n", "\n").replace("\r", "\n")


def read_json(path: str | Path) -> Any:
    return parse_json(read_text(path), path)


def parse_json(text: str, path: str | Path) -> Any:
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        # Some of json's messages end in " at", waiting for a position: the position is
        # given first, so the message says "here" (e.g. "Unterminated string starting here").
        msg = exc.msg[: -len(" at")] + " here" if exc.msg.endswith(" at") else exc.msg
        raise FormatError(f"{path}: not valid JSON (line {exc.lineno}, column {exc.colno}: {msg})") from None
    except RecursionError:
        raise FormatError(f"{path}: JSON nested too deeply to read") from None


def write_json(path: str | Path, data: Any, force: bool = False) -> None:
    """Write JSON; never overwrite an existing file unless ``force``. The file appears
    whole or not at all: written beside it, then renamed, with Ctrl-C held until then (a
    batch that is interrupted keeps every file it wrote, none cut short)."""
    path = Path(path)
    if path.exists() and not force:
        raise FileExistsError(f"{path} already exists (use --force to overwrite it)")
    text = json.dumps(data, indent=1) + "\n"
    part = path.with_name(f".{path.name}.{os.getpid()}.part")
    with held():
        try:
            part.write_text(text, encoding="utf-8")
            os.replace(part, path)
        finally:
            part.unlink(missing_ok=True)
