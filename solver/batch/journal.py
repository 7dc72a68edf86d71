"""A long run's journal: JSON lines, a header naming the run and its settings, then one
record a line, each flushed and synced as it is written, so a killed run loses at most the
record it was writing and a rerun with the same settings goes on from the records kept."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import IO, Any

from tranquility.solver.errors import BadInput
from tranquility.solver.stop_signals import held


class Journal:
    """The records kept in ``path``; a new file starts with ``header`` (a dict with a
    ``settings`` entry, the rest naming the run: ``what`` in the messages). Opening reads
    the records a run of the same header left, each with its line number (a last line cut
    short by a kill is dropped); a file whose first line names another run, or the same
    run with other settings, is ``BadInput`` naming the file. A path that cannot be read or
    written raises ``OSError``."""

    def __init__(self, path: str | Path, header: dict, what: str) -> None:
        self.path = Path(path)
        data = self.path.read_bytes() if self.path.exists() else b""
        whole = data[: data.rfind(b"\n") + 1]
        lines = whole.decode("utf-8", errors="replace").splitlines()
        self.records: list[tuple[int, Any]] = self._read(lines, header, what) if lines else []
        with held():
            if lines:
                os.truncate(self.path, len(whole))  # a line cut short, if any, goes
            self.file: IO[str] = self.path.open("a" if lines else "w", encoding="utf-8")
            if not lines:
                self.write(header)

    def _read(self, lines: list[str], header: dict, what: str) -> list[tuple[int, Any]]:
        try:
            found = json.loads(lines[0])
        except json.JSONDecodeError:
            found = None
        named = {k: v for k, v in header.items() if k != "settings"}
        if not isinstance(found, dict) or {k: found.get(k) for k in named} != named:
            raise BadInput(f"{self.path}: not a journal of {what} (remove it, or give another --out)")
        if found != header:
            theirs, ours = found.get("settings") or {}, header["settings"]
            said = ", ".join(f"{k} {theirs.get(k)!r} there, {v!r} now" for k, v in ours.items() if theirs.get(k) != v)
            raise BadInput(
                f"{self.path}: a journal of a run with other settings ({said}): "
                "rerun with its settings to finish it, or remove it to start afresh"
            )
        records = []
        for number, text in enumerate(lines[1:], start=2):
            try:
                records.append((number, json.loads(text)))
            except json.JSONDecodeError:
                raise BadInput(f"{self.path}, line {number}: not a record of {what}") from None
        return records

    def write(self, data: dict) -> None:
        with held():  # a line whole or not at all, even on Ctrl-C
            self.file.write(json.dumps(data, separators=(",", ":")) + "\n")
            self.file.flush()
            os.fsync(self.file.fileno())

    def close(self) -> None:
        self.file.close()
