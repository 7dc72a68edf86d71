"""The wheel installs one import package, ``tranquility``, and carries what the installed
tool needs: a fresh virtual environment holding only the wheel lists and opens a shipped
puzzle, and replays its solution as a win."""

from __future__ import annotations

import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest
from tranquility.puzzles.grade import calibration_file
from tranquility.puzzles.shipped import catalogue
from tranquility.solver.version import __version__

REPO = Path(__file__).resolve().parent.parent

OPEN_A_PUZZLE = """
from tranquility.puzzles.shipped import catalogue, puzzle, solution
from tranquility.solver.engine.verify import verify
entries = catalogue()
first = entries[0]
deal = puzzle(first.id)
check = verify(solution(first.id))
assert deal.players == first.players and deal.seed == first.seed
assert check.legal and check.won
print(len(entries), first.id)
"""


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("wheel")
    # The build backend at its locked version, as the README's test command installs it.
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(out), str(REPO)],
        check=True,
        capture_output=True,
        env={**os.environ, "PIP_CONSTRAINT": str(REPO / "requirements.lock")},
    )
    (found,) = out.glob("*.whl")
    return found


@pytest.mark.slow
def test_the_wheel_installs_no_other_top_level_name(wheel):
    names = zipfile.ZipFile(wheel).namelist()
    assert {n.split("/")[0] for n in names} == {"tranquility", f"tranquility_solver-{__version__}.dist-info"}
    assert "tranquility/puzzles/catalogue/index.json" in names
    shipped = {n for n in names if n.startswith("tranquility/puzzles/catalogue/")}
    listed = {f"tranquility/puzzles/catalogue/{f}" for e in catalogue() for f in (e.file, e.solution)}
    assert shipped == listed | {"tranquility/puzzles/catalogue/index.json"}  # every puzzle and solution
    calibrations = {n for n in names if n.startswith("tranquility/puzzles/calibration")}
    assert calibrations == {f"tranquility/puzzles/{calibration_file(r).name}" for r in {e.rules for e in catalogue()}}


@pytest.mark.slow
def test_a_fresh_install_opens_a_catalogue_puzzle(wheel, tmp_path):
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    python = venv / "bin" / "python"
    subprocess.run(
        [sys.executable, "-m", "pip", "--python", str(python), "install", "--no-deps", "-q", str(wheel)],
        check=True,
        capture_output=True,
    )
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME")}
    # Run away from the checkout, so that only the installed package can be imported.
    done = subprocess.run([str(python), "-c", OPEN_A_PUZZLE], cwd=tmp_path, env=env, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == [str(len(catalogue())), "tq1-1p-8cf48077-2"]
    assert (venv / "bin" / "tranquility").exists()


# Other metadata, then tranquility --version, in a fresh process: click keeps the version
# it read the first time --version is asked in a process.
OTHER_VERSION = """
import importlib.metadata as metadata
real = metadata.version
metadata.version = lambda name: "9.8.7" if name == "tranquility-solver" else real(name)
from tranquility.cli.main import main
main(["--version"])
"""


def test_the_version_comes_from_the_package_metadata(monkeypatch):
    from importlib import metadata

    import tranquility.solver as package
    from tranquility.solver import version as module

    assert __version__ == metadata.version("tranquility-solver")
    # Whatever the metadata says is the version everywhere it is reported: no second
    # version number is written into the code.
    real = metadata.version
    monkeypatch.setattr(metadata, "version", lambda name: "9.8.7" if name == "tranquility-solver" else real(name))
    assert module.__version__ == package.__version__ == "9.8.7"
    shown = subprocess.run([sys.executable, "-c", OTHER_VERSION], capture_output=True, text=True)
    assert shown.returncode == 0, shown.stderr
    assert shown.stdout == "tranquility, version 9.8.7\n"
