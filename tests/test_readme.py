"""The quick examples of the README and of docs/ run as written.

**The marker.** A block whose fence opens with "```sh quick" (GitHub still renders it as sh)
promises that every line of it runs in under 10 s on 2 cores, and this module runs it: each
line that is not blank or a comment, verbatim (``sh -c``: one whole command a line, no loops
or backslash continuations), with the installed ``tranquility`` on PATH. A file's quick
blocks run in order, one after the other, in one empty folder made for that file: a quick
block may read what an earlier quick block of the same file wrote, never a file of the
repository or of a plain block. A quick line runs ``tranquility`` or ``printf`` (to make a
file), nothing else. An example exits 0 unless a trailing ``# exits N`` comment says
otherwise (an illegal game for ``verify``, say). A plain "```sh" block is not run; each of
its lines that takes 10 s or more says how long in a comment (``# about 4 min on 2 cores``).
docs/development.md ("The docs' examples") says the same for those who write the docs.

The README's Usage section is one quick block (about 20 s in all on 2 cores: long runs belong
in docs/); each of its examples is a test of its own, and a few outputs are checked against
what its comments promise. Each docs/*.md file with quick blocks is one test.

The examples of every ``--help`` are not run (some are long on purpose), but each file one
of them reads is one that an example before it writes."""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path

import pytest
from tranquility.cli.main import main

from .helpers import run

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
DOCS = ROOT / "docs"
EXITS = re.compile(r"#\s*exits (\d+)\b")
PER_EXAMPLE = 30.0  # seconds: three times what a quick example may take, for a loaded machine
RUNS = ("tranquility", "printf")  # what a quick block may run


def section(text: str, title: str) -> str:
    """The text of a ``## title`` section, up to the next ``## `` heading."""
    start = text.index(f"\n## {title}\n")
    end = text.find("\n## ", start + 1)
    return text[start : end if end != -1 else len(text)]


def sh_blocks(text: str) -> list[str]:
    """Every ``sh`` block at the start of a line, quick or not."""
    return re.findall(r"^```sh(?: quick)?\n(.*?)^```", text, re.DOTALL | re.MULTILINE)


def quick_blocks(text: str) -> list[str]:
    return re.findall(r"^```sh quick\n(.*?)^```", text, re.DOTALL | re.MULTILINE)


def commands(blocks: list[str]) -> list[str]:
    """Every command line of the blocks: not blank, not a comment."""
    lines = [line for block in blocks for line in block.splitlines()]
    return [line for line in lines if line.strip() and not line.lstrip().startswith("#")]


def expected_exit(line: str) -> int:
    found = EXITS.search(line)
    return int(found.group(1)) if found else 0


def read(path: Path) -> str:
    return path.read_text(encoding="utf-8")


USAGE = commands(quick_blocks(section(read(README), "Usage")))
# The docs with quick examples, by name (their lines are read again in the test).
QUICK_DOCS = sorted(p.name for p in DOCS.glob("*.md") if quick_blocks(read(p)))


@dataclass
class Ran:
    line: str
    code: int
    stdout: str
    stderr: str
    seconds: float


def run_examples(lines: list[str], folder: Path) -> list[Ran]:
    """Each line run once, in order, in ``folder``, with the installed ``tranquility``."""
    if shutil.which("tranquility") is None:
        pytest.skip("the tranquility command is not installed (pip install -e .)")
    env = {k: v for k, v in os.environ.items() if k not in ("FORCE_COLOR", "TTY_COMPATIBLE", "TTY_INTERACTIVE")}
    results = []
    for line in lines:
        begun = time.monotonic()
        code, out, err = run_line(line, folder, env)
        results.append(Ran(line, code, out, err, time.monotonic() - begun))
    return results


def check(r: Ran, where: str) -> None:
    """The example exited as its comment says, without a traceback, within PER_EXAMPLE."""
    assert r.code == expected_exit(r.line), (
        f"{where} example {r.line!r} exited {r.code}, expected {expected_exit(r.line)}:\n{r.stderr[-1500:]}"
    )
    assert "Traceback" not in r.stderr, r.stderr[-1500:]
    assert r.seconds < PER_EXAMPLE, (
        f"{where} example {r.line!r} took {r.seconds:.1f} s: make it quicker, or move it to a plain sh block with its time"
    )


@pytest.fixture(scope="module")
def ran(tmp_path_factory) -> list[Ran]:
    """Every Usage example run once, in order, in one empty folder."""
    return run_examples(USAGE, tmp_path_factory.mktemp("readme"))


def run_line(line: str, folder: Path, env: dict[str, str], timeout: float = 120) -> tuple[int, str, str]:
    """``sh -c line`` in its own process group, all of which is killed if it overruns."""
    proc = subprocess.Popen(
        ["sh", "-c", line],
        cwd=folder,
        env=env,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    try:
        out, err = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.communicate()
        return -1, "", f"timed out after {timeout:g} s"
    return proc.returncode, out, err


def test_the_usage_has_examples():
    assert len(USAGE) >= 20
    assert all(line.split()[0] in RUNS for line in USAGE), "only the tool and printf (to make a file)"
    usage = section(read(README), "Usage")
    assert sh_blocks(usage) == quick_blocks(usage), "every sh block of the README's Usage is marked quick"


@pytest.mark.slow
@pytest.mark.parametrize("index", range(len(USAGE)), ids=[line.split("#")[0].strip()[:70] for line in USAGE])
def test_each_example_runs(ran, index):
    check(ran[index], "README")


@pytest.mark.slow
def test_the_outputs_say_what_the_comments_promise(ran):
    by_line = {r.line.split("#")[0].strip(): r for r in ran}
    assert by_line["tranquility verify bad.tq"].stdout.count("ILLEGAL: turn 2: seat 1 plays 19") == 1
    assert by_line["tranquility show my-puzzles/tq1-1p-8cf48077-7.json"].stdout.startswith(
        "my-puzzles/tq1-1p-8cf48077-7.json: puzzle tq1-1p-8cf48077-7, grade 5 of 5"
    )
    assert "WIN" in by_line["tranquility solve position.tq --out win.json"].stdout
    assert '"legal": true' in by_line["tranquility verify line.json --json"].stdout


TEST_COMMAND = "PIP_CONSTRAINT=requirements.lock pip install -e '.[test]' && python -m pytest"


def test_the_two_commands_at_the_top():
    """Set-up on a fresh machine: one command installs and runs the main job, one runs the
    tests (what .ci/run runs, before the linters)."""
    text = README.read_text(encoding="utf-8")
    top = sh_blocks(section(text, "Set-up on a fresh machine"))
    assert [block.strip() for block in top] == [
        "pip install -e . && tranquility solve --seed 1 --players 4",
        TEST_COMMAND,
    ]
    assert TEST_COMMAND in (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()


def test_every_linked_doc_exists():
    text = README.read_text(encoding="utf-8")
    links = re.findall(r"\]\(([^)#]+)(?:#[^)]*)?\)", text)
    assert links and all((ROOT / link).exists() for link in links), [link for link in links if not (ROOT / link).exists()]


# -- the quick examples of docs/ ---------------------------------------------------------------


@pytest.mark.parametrize("path", [README, *sorted(DOCS.glob("*.md"))], ids=lambda p: p.name)
def test_an_sh_fence_is_plain_or_quick_and_a_quick_line_one_command(path):
    """A misspelt marker would leave a block unrun (or unrendered): ```sh is followed by
    nothing or by " quick"; a quick line is one whole command of the tool or printf."""
    text = read(path)
    fences = re.findall(r"^ *```sh(.*)$", text, re.MULTILINE)
    assert all(rest in ("", " quick") for rest in fences), fences
    assert len(sh_blocks(text)) == len(re.findall(r"^```sh", text, re.MULTILINE)), "a quick block starts its line"
    for line in commands(quick_blocks(text)):
        assert line.split()[0] in RUNS, f"{path.name}: a quick line runs only {' or '.join(RUNS)}: {line!r}"
        assert not line.rstrip().endswith("\\") and not line.lstrip().startswith(("for ", "do ", "done")), line


def test_the_docs_have_quick_examples():
    assert {"solving.md", "simulate.md", "puzzles.md", "odds.md"} <= set(QUICK_DOCS), QUICK_DOCS


@pytest.mark.slow
@pytest.mark.parametrize("name", QUICK_DOCS)
def test_the_quick_examples_of_a_doc_run(name, tmp_path):
    """One test per file: its quick blocks, in order, in one empty folder."""
    for r in run_examples(commands(quick_blocks(read(DOCS / name))), tmp_path):
        check(r, f"docs/{name}")


# -- the examples in --help ---------------------------------------------------------------------

COMMANDS = sorted(main.commands)
WRITES = ("--out", "--html", ">")


def help_examples(command: str | None) -> list[str]:
    """The example lines of a command's --help (of the group's, for None)."""
    result = run(*([command] if command else []), "--help")
    assert result.exit_code == 0, result.output
    lines = [line.strip() for line in result.output.split("Examples:\n", 1)[1].splitlines()]
    examples = []
    for line in lines:
        if not line.startswith(("tranquility ", "printf ")):
            break
        examples.append(line)
    return examples


def files_used(line: str) -> tuple[list[str], list[str]]:
    """(files read, files written) by an example line: a written one follows --out, --html
    or >; any other word that names a file (a .json, .tq or .html name, or a path, not a
    URL) is read."""
    reads, writes = [], []
    words = line.replace(">", " > ").split()
    if words[:1] == ["printf"]:  # its words are the file's text: it only writes
        return [], words[words.index(">") + 1 :][:1] if ">" in words else []
    for before, word in zip(["", *words], words, strict=False):
        if before in WRITES:
            writes.append(word)
        elif word not in WRITES and not word.startswith("-") and "://" not in word and re.search(r"\.(json|tq|html)$|/", word):
            reads.append(word.strip("'\""))
    return reads, writes


@pytest.mark.parametrize("command", [None, *COMMANDS])
def test_help_examples_make_their_files_first(command):
    made: list[str] = []
    examples = help_examples(command)
    assert len(examples) >= 3, examples
    for line in examples:
        reads, writes = files_used(line)
        for path in reads:
            assert any(path == m or path.startswith(m.rstrip("/") + "/") for m in made), (
                f"tranquility {command or ''} --help: {line!r} reads {path}, which no example before it writes"
            )
        made += writes


# -- what the README says the solver covers --------------------------------------------------

MODULES = ["--rule monsters=3", "--rules rocks-manual"]


@pytest.mark.slow
@pytest.mark.parametrize("rules", MODULES)
def test_the_readme_says_every_command_takes_the_modules_and_they_do(rules, tmp_path):
    """The README's "What it covers today" is true: the commands that solve take the modules
    (a verdict, never exit 2), CP-SAT alone too."""
    head = " ".join(README.read_text(encoding="utf-8").split("## Set-up")[0].split())
    assert "**every rule option and every module** (Sea Monsters, Jagged Rocks auto and manual" in head
    seeded = ["--seed", "2", "--players", "2", *rules.split()]
    for command in (["solve", "--time-limit", "10"], ["solve", "--method", "cpsat", "--time-limit", "3"]):
        result = run(*command, *seeded, "--json")
        assert result.exit_code == 0, (command, result.stderr)
        assert json.loads(result.stdout)["verdict"] in ("win", "no-win", "unknown")
    explained = run("explain", *seeded, "--time-limit", "6")
    graded = run("grade", *seeded, "--time-limit", "5")
    odds = run("odds", "--players", "2", "--deals", "1", "--time-limit", "5", "--db", tmp_path / "o.sqlite", *rules.split())
    for done in (explained, graded, odds):
        assert done.exit_code in (0, 1) and "Error" not in done.stderr, done.stderr
    dealt = tmp_path / "deal.json"
    assert run("deal", *seeded, "--out", dealt).exit_code == 0
    played = tmp_path / "played.json"
    assert run("simulate", dealt, "--out", played).exit_code == 0
    analysed = run("analyze", played, "--time-limit", "0.5")  # per position: what is asked is that it runs
    assert analysed.exit_code in (0, 1) and "Error" not in analysed.stderr, analysed.stderr
