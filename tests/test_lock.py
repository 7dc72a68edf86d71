"""requirements.lock (made by ``bash .ci/lock``) and pyproject.toml name the same packages:
every dependency, test tool and build requirement declared in pyproject.toml is pinned in the
lock at a version its specifier admits, and the lock pins nothing as a direct requirement that
pyproject.toml does not declare. A dependency added to one and not the other fails here."""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass
from pathlib import Path

import pytest
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

ROOT = Path(__file__).resolve().parent.parent
LOCK = ROOT / "requirements.lock"
PROJECT = "tranquility-solver (pyproject.toml)"


@dataclass(frozen=True)
class Pin:
    name: str
    version: str
    via: tuple[str, ...]


def read_lock(text: str) -> list[Pin]:
    """The pins of a lock written by ``uv pip compile``, each with the names on its ``# via``
    lines (none for what came from standard input: the build backend)."""
    pins: list[Pin] = []
    name = version = ""
    via: list[str] = []
    for line in text.splitlines():
        pin = re.fullmatch(r"([A-Za-z0-9._-]+)==([^\s;]+)(\s*;.*)?", line.strip())
        if pin and not line.startswith(" "):
            if name:
                pins.append(Pin(name, version, tuple(via)))
            name, version, via = canonicalize_name(pin[1]), pin[2], []
        elif name and (parent := re.fullmatch(r"\s+#\s+(?:via\s+|\s+)(\S.*)", line)):
            via.append(parent[1].strip())
    if name:
        pins.append(Pin(name, version, tuple(via)))
    return pins


def declared(pyproject: dict) -> dict[str, list[Requirement]]:
    """What pyproject.toml asks for: the dependencies, every extra and the build requires."""
    texts = [
        *pyproject["project"]["dependencies"],
        *(r for extra in pyproject["project"].get("optional-dependencies", {}).values() for r in extra),
        *pyproject["build-system"]["requires"],
    ]
    found: dict[str, list[Requirement]] = {}
    for text in texts:
        requirement = Requirement(text)
        found.setdefault(canonicalize_name(requirement.name), []).append(requirement)
    return found


def disagreements(lock_text: str, pyproject: dict) -> list[str]:
    pins = read_lock(lock_text)
    wanted = declared(pyproject)
    direct = {pin.name for pin in pins if PROJECT in pin.via or not pin.via}
    problems = [f"{name}: in pyproject.toml, not in requirements.lock" for name in sorted(set(wanted) - direct)]
    problems += [f"{name}: in requirements.lock, not in pyproject.toml" for name in sorted(direct - set(wanted))]
    for pin in pins:
        for requirement in wanted.get(pin.name, []):
            if not requirement.specifier.contains(pin.version, prereleases=True):
                problems.append(f"{pin.name}: locked at {pin.version}, pyproject.toml asks {requirement.specifier}")
    locked = {pin.name for pin in pins}
    problems += [
        f"{pin.name}: locked for {parent}, which the lock does not hold"
        for pin in pins
        for parent in pin.via
        if parent != PROJECT and canonicalize_name(parent) not in locked
    ]
    return problems


@pytest.fixture(scope="module")
def pyproject() -> dict:
    return tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))


def test_the_lock_and_pyproject_agree(pyproject):
    problems = disagreements(LOCK.read_text(encoding="utf-8"), pyproject)
    assert not problems, "run bash .ci/lock (docs/development.md):\n" + "\n".join(problems)


def test_a_dependency_added_to_one_side_only_is_caught(pyproject):
    text = LOCK.read_text(encoding="utf-8")
    def with_dependencies(dependencies: list[str]) -> dict:
        return {**pyproject, "project": {**pyproject["project"], "dependencies": dependencies}}

    added = with_dependencies([*pyproject["project"]["dependencies"], "sympy>=1.12"])
    assert disagreements(text, added) == ["sympy: in pyproject.toml, not in requirements.lock"]
    hand_pinned = text + "left-pad==1.0\n    # via tranquility-solver (pyproject.toml)\n"
    assert disagreements(hand_pinned, pyproject) == ["left-pad: in requirements.lock, not in pyproject.toml"]
    raised = [("click>=99" if Requirement(r).name == "click" else r) for r in pyproject["project"]["dependencies"]]
    click = next(pin for pin in read_lock(text) if pin.name == "click")
    assert disagreements(text, with_dependencies(raised)) == [
        f"click: locked at {click.version}, pyproject.toml asks >=99"
    ]


def test_the_lock_pins_every_package_exactly():
    lines = [line for line in LOCK.read_text(encoding="utf-8").splitlines() if line and not line.startswith((" ", "#"))]
    assert lines and all("==" in line for line in lines), [line for line in lines if "==" not in line]
    pinned = {pin.name for pin in read_lock(LOCK.read_text(encoding="utf-8"))}
    assert pinned >= {"ortools", "click", "pytest", "mypy", "ruff", "setuptools"}
