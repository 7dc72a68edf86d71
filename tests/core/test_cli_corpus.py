"""One truth, two speeds, as a user sees it: each command that plays many games or searches
prints the same answer with every search on the reference (``TRANQUILITY_CORE=off``) as with
the compiled core, but for its timings."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from tranquility.cli.main import main

CORPUS = (
    "solve --seed 5 --players 3 --reproducible --json",
    "solve --seed 9 --players 2 --rules rocks-manual --reproducible --json",
    "simulate --players 4 --deals 12 --policy tuned --json",
    "simulate --players 3 --deals 8 --policy thrifty --rules monsters --json",
    "simulate --seed 1 --players 2 --policy lookahead --samples 4 --json",
    "grade --seed 3 --players 2 --json",
    "moves --seed 1 --players 4 --reproducible --json",
    "odds --players 2 --deals 6 --reproducible --policy tuned --json",
)


def timeless(value):
    """``value`` without the figures that time the run (seconds, rates)."""
    if isinstance(value, dict):
        return {k: timeless(v) for k, v in value.items() if "second" not in k and not k.endswith(("_s", "_per_s"))}
    if isinstance(value, list):
        return [timeless(v) for v in value]
    return value


def answer(command: str, folder: Path, monkeypatch) -> dict:
    """The command's JSON answer, run in ``folder`` (``odds`` keeps its verdicts in a database
    there, and would not solve what an earlier run stored)."""
    folder.mkdir()
    monkeypatch.chdir(folder)
    result = CliRunner().invoke(main, command.split())
    assert result.exit_code in (0, 1), result.output
    return timeless(json.loads(result.stdout))


@pytest.mark.slow
@pytest.mark.parametrize("command", CORPUS)
def test_the_core_changes_no_answer(command, monkeypatch, tmp_path):
    monkeypatch.setenv("TRANQUILITY_CORE", "off")
    reference = answer(command, tmp_path / "reference", monkeypatch)
    monkeypatch.delenv("TRANQUILITY_CORE")
    assert answer(command, tmp_path / "core", monkeypatch) == reference
