"""The public API: every name ``tranquility.solver`` lists imports from it (and is the very
object of the module that defines it), importing the package stays light, and every import
path the docs and the README name works."""

from __future__ import annotations

import ast
import importlib
import re
import subprocess
import sys
from pathlib import Path

import pytest
import tranquility.solver as api

ROOT = Path(__file__).resolve().parent.parent
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]


@pytest.mark.parametrize("name", api.__all__)
def test_every_public_name_imports_from_the_package(name):
    value = getattr(api, name)
    if name != "__version__":
        assert getattr(importlib.import_module(f"tranquility.solver.{api._API[name]}"), name) is value
    assert name in dir(api)


def test_type_checkers_see_the_same_names_from_the_same_modules():
    """The package's TYPE_CHECKING imports (what mypy and editors read) name exactly the
    modules its loader imports from."""
    tree = ast.parse(Path(api.__file__).read_text(encoding="utf-8"))
    block = next(n for n in tree.body if isinstance(n, ast.If) and getattr(n.test, "id", "") == "TYPE_CHECKING")
    typed = {a.name: node.module for node in block.body if isinstance(node, ast.ImportFrom) for a in node.names}
    assert typed == api._API


def test_an_unknown_name_is_an_attribute_error():
    with pytest.raises(AttributeError, match="no attribute 'solver_of_everything'"):
        api.solver_of_everything  # noqa: B018


def test_the_package_example_runs():
    from tranquility.solver import OFFICIAL, Budget, Verdict, deal, solve

    result = solve(deal(OFFICIAL, players=4, seed=1), Budget(seconds=10))
    assert result.verdict == Verdict.WIN and result.line is not None


def test_importing_the_package_loads_no_solver():
    code = (
        "import sys, tranquility.solver\n"
        "heavy = [m for m in ('ortools', 'tranquility.solver.analysis.portfolio', 'tranquility.solver.engine.state') "
        "if m in sys.modules]\n"
        "assert not heavy, heavy\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr


def doc_imports() -> list[tuple[str, str, str | None]]:
    """(doc, module, name) for every ``from M import a, b`` and every dotted
    ``tranquility.solver.x.y`` the docs name (name None: a module, or a module's attribute)."""
    found: list[tuple[str, str, str | None]] = []
    for doc in DOCS:
        text = doc.read_text(encoding="utf-8")
        for module, names in re.findall(r"from (tranquility\.[\w.]+) import ([\w, ]+)", text):
            found += [(doc.name, module, n.split(" as ")[0].strip()) for n in names.split(",") if n.strip()]
        for dotted in re.findall(r"`(tranquility\.(?:solver|puzzles|cli)(?:\.\w+)*)", text):
            found.append((doc.name, dotted, None))
    return found


@pytest.mark.parametrize(("doc", "module", "name"), doc_imports())
def test_every_import_path_the_docs_name_works(doc, module, name):
    if name is not None:
        assert hasattr(importlib.import_module(module), name), f"{doc}: from {module} import {name}"
        return
    parts = module.split(".")
    for cut in range(len(parts), 1, -1):  # the longest importable prefix, then attributes
        try:
            value = importlib.import_module(".".join(parts[:cut]))
        except ModuleNotFoundError:
            continue
        for attribute in parts[cut:]:
            assert hasattr(value, attribute), f"{doc}: {module}"
            value = getattr(value, attribute)
        return
    pytest.fail(f"{doc}: {module} does not import")


def test_no_two_public_classes_share_a_name():
    """One name, one idea: a class name names one class in the whole package."""
    import ast
    from collections import defaultdict
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent
    where: dict[str, list[str]] = defaultdict(list)
    for folder in ("solver", "cli", "app", "puzzles"):
        for path in sorted((root / folder).rglob("*.py")):
            for node in ast.parse(path.read_text(encoding="utf-8")).body:
                if isinstance(node, ast.ClassDef) and not node.name.startswith("_"):
                    where[node.name].append(str(path.relative_to(root)))
    assert {name: paths for name, paths in where.items() if len(paths) > 1} == {}
