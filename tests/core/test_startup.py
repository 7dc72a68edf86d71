"""The quick commands never load numba: the compiled core is imported by what plays many
games, on first use, so that --help, deal, rules and verify start as fast as before."""

from __future__ import annotations

import subprocess
import sys

import pytest

QUICK = """
import sys
from click.testing import CliRunner
from tranquility.cli.main import main
for args in (["--help"], ["deal", "--seed", "1", "--players", "4", "--out", "d.json"], ["rules"], ["verify", "d.json"],
             ["simulate", "--seed", "3", "--players", "4"]):
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 0, (args, result.output)
print("numba" in sys.modules)
"""


@pytest.mark.slow
def test_quick_commands_do_not_import_numba(tmp_path):
    done = subprocess.run([sys.executable, "-c", QUICK], cwd=tmp_path, capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "False", done.stderr


def test_the_core_is_not_imported_by_the_library_api():
    done = subprocess.run(
        [
            sys.executable,
            "-c",
            "import sys, tranquility.solver.search.policies, tranquility.solver; print('numba' in sys.modules)",
        ],
        capture_output=True,
        text=True,
        check=True,
    )
    assert done.stdout.strip() == "False"
