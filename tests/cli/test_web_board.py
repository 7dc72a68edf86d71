"""``tranquility serve``'s JSON API (cli/web_board/, docs/web.md): every endpoint's answer
against the CLI's ``--json`` for the same input, the errors, the busy answer, the cancel,
and the table's views, which must hold no card the person's seat cannot see.

The server runs as the program runs it: a subprocess on a free loopback port."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

import pytest
from tranquility.puzzles import shipped
from tranquility.solver.engine.position import Position
from tranquility.solver.engine.verify import verify
from tranquility.solver.formats.codecs import line_from_json, line_to_json
from tranquility.solver.formats.notation import format_action
from tranquility.solver.formats.position_forms import position_to_text

from ..helpers import run
from ..web_board_server import SECONDS, events, request, served, wait_until

PUZZLE = "tq1-1p-8cf48077-2"  # official rules, one seat, grade 1: its solution wins in 39 turns
TIMING = {"seconds", "total_seconds", "stats"}  # what differs between two runs of the same work

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def base() -> Any:
    with served("--workers", "2") as url:
        yield url


def cli_json(*args: Any) -> Any:
    result = run(*args, "--json")
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def untimed(data: Any) -> Any:
    """``data`` without the seconds things took, which two runs never share."""
    if isinstance(data, dict):
        return {key: untimed(value) for key, value in data.items() if key not in TIMING}
    if isinstance(data, list):
        return [untimed(value) for value in data]
    return data


def keys(data: Any) -> Any:
    """The shape of a JSON document: its objects' keys, all the way down (lists by their first)."""
    if isinstance(data, dict):
        return {key: keys(value) for key, value in data.items()}
    if isinstance(data, list) and data:
        return [keys(data[0])]
    return None


def solution_game(turns: int) -> dict:
    line = shipped.solution(PUZZLE)
    return line_to_json(type(line)(line.deal, line.actions[:turns]))


# -- the CLI's answers ----------------------------------------------------------------------


def test_deal_is_deal_json(base):
    status, data = request(base, "GET", "/api/deal?seed=7&players=3&rules=hungarian&rule=monsters=4")
    assert status == 200
    assert data == cli_json("deal", "--seed", 7, "--players", 3, "--rules", "hungarian", "--rule", "monsters=4")


def test_puzzles_is_puzzles_json(base):
    status, data = request(base, "GET", "/api/puzzles?players=1&grade=1&preset=official")
    assert status == 200 and data
    assert data == cli_json("puzzles", "--players", 1, "--grade", 1, "--rules", "official")


def test_verify_is_verify_json_also_for_a_broken_rule(base, tmp_path):
    assert request(base, "POST", "/api/verify", {"game": solution_game(10)})[1] == cli_json(
        "verify", write(tmp_path / "line.json", solution_game(10))
    )
    bad = "deal 1 4\n19@8 19@9\n"
    status, data = request(base, "POST", "/api/verify", {"text": bad})
    assert status == 200 and data["legal"] is False
    result = run("verify", write(tmp_path / "bad.tq", bad), "--json")
    assert data == json.loads(result.stdout)


def test_solve_is_solve_json(base, tmp_path):
    game = solution_game(20)
    status, data = request(base, "POST", "/api/solve", {"game": game, "reproducible": True})
    assert status == 200 and data["verdict"] == "win"
    assert untimed(data) == untimed(cli_json("solve", write(tmp_path / "g.json", game), "--reproducible"))
    assert verify(line_from_json(data["line"])).won


def test_moves_is_moves_json_and_every_winning_line_replays(base, tmp_path):
    game = solution_game(30)
    status, data = request(base, "POST", "/api/moves", {"game": game, "reproducible": True})
    assert status == 200
    assert untimed(data) == untimed(cli_json("moves", write(tmp_path / "g.json", game), "--reproducible"))
    wins = [m for m in data["moves"] if m["verdict"] == "win"]
    assert wins and all(verify(line_from_json(m["line"])).won for m in wins)


def test_explain_and_analyze_are_their_json(base, tmp_path):
    game = solution_game(33)
    path = write(tmp_path / "g.json", game)
    status, data = request(base, "POST", "/api/explain", {"game": game, "time_limit": 3})
    assert status == 200 and data["verdict"] == "win"
    assert keys(data) == keys(cli_json("explain", path, "--time-limit", 3))
    short = write(tmp_path / "short.json", solution_game(4))
    status, data = request(base, "POST", "/api/analyze", {"game": solution_game(4), "time_limit": 1})
    assert status == 200
    assert untimed(data) == untimed(cli_json("analyze", short, "--time-limit", 1))
    status, data = request(base, "POST", "/api/analyze", {"game": solution_game(4), "time_limit": 1, "fair": True, "samples": 4})
    assert status == 200 and set(data) == {"perfect", "fair"}
    assert keys(data) == keys(cli_json("analyze", short, "--time-limit", 1, "--fair", "--samples", 4))


def test_a_game_in_every_form(base):
    line = shipped.solution(PUZZLE)
    text = position_to_text(Position.of(verify(line_from_json(solution_game(5))).state))  # type: ignore[arg-type]
    notation = "deal 1 4\n19@8 4@1\n"
    for body in ({"position": text}, {"text": text}, {"text": notation}, {"puzzle": PUZZLE}, {"seed": 1, "players": 2}):
        status, data = request(base, "POST", "/api/verify", body)
        assert status == 200 and data["legal"], (body, data)
    assert format_action(line.actions[0])  # the solution is a line of the notation


# -- errors -------------------------------------------------------------------------------


def test_errors_are_one_line_400s_with_the_cli_message(base, tmp_path):
    bad = "deal 1 4\n19@8 19@9\n"
    status, data = request(base, "POST", "/api/solve", {"text": bad})
    cli = run("solve", write(tmp_path / "bad.tq", bad))
    assert status == 400 and cli.exit_code == 2
    assert cli.stderr.strip().endswith(data["error"]), (cli.stderr, data)
    assert "\n" not in data["error"]
    cases = {
        b'{"seed": 1,': "body: not valid JSON (line 1, column 12",
        b"[1, 2]": "body: expected a JSON object",
        b'{"seed": 1, "players": 9}': "players",
        b'{"seed": 1}': "needs both seed and players",
        b'{"seed": 1, "players": 2, "time_limit": 0}': "time_limit",
        b'{"seed": 1, "players": 2, "time_limit": 1e9}': "time_limit",
        b'{"seed": 1, "players": 2, "puzzle": "x"}': "give one of",
        b'{"puzzle": "no-such"}': "no shipped puzzle",
        b'{"seed": 1, "players": 2, "rules": "/etc/passwd"}': "rules: a preset",
        b'{"text": "deal-file /etc/passwd\\n"}': "cannot name a deal file",
        b'{"game": {"format": "tranquility-deal/1", "piles": [[1, 1]]}}': "deal",
    }
    for raw, said in cases.items():
        status, data = request(base, "POST", "/api/solve", raw=raw)
        assert status == 400 and said in data["error"] and "\n" not in data["error"], (raw, data)
    status, data = request(base, "POST", "/api/solve", raw=b'{"text": "' + b"x" * (2 << 20) + b'"}')
    assert status == 413 and "larger than" in data["error"]
    assert request(base, "GET", "/api/board/nope")[0] == 404
    assert request(base, "POST", "/api/jobs", {"kind": "rm", "seed": 1, "players": 2})[0] == 400


def test_the_board_plays_through_the_engine(base):
    status, view = request(base, "POST", "/api/board", {"puzzle": PUZZLE})
    assert status == 200 and view["puzzle"]["grade"] == 1 and view["turn"] == 0
    key = view["id"]
    first = shipped.solution(PUZZLE).actions[0]
    status, data = request(base, "POST", f"/api/board/{key}/play", {"action": {"seat": 0, "play": 80, "cell": 0}})
    assert status == 400 and "80" in data["error"]
    status, view = request(base, "POST", f"/api/board/{key}/play", {"action": json.loads(json.dumps(_action(first)))})
    assert status == 200 and view["turn"] == 1 and view["history"][0]["notation"] == format_action(first)
    status, view = request(base, "POST", f"/api/board/{key}/check", {"time_limit": 2})
    assert view["check"]["judgement"] == "kept" and view["verdicts"]["1"] == "win" and view["last_winnable"] == 1
    status, view = request(base, "POST", f"/api/board/{key}/undo", {})
    assert view["turn"] == 0 and view["can_redo"]
    status, view = request(base, "POST", f"/api/board/{key}/redo", {})
    assert view["turn"] == 1
    status, view = request(base, "POST", f"/api/board/{key}/hint", {"time_limit": 2})
    assert view["hint"]["verdict"] == "win" and view["hint"]["best"]["notation"]
    status, line = request(base, "GET", f"/api/board/{key}/line")
    assert status == 200 and line["format"] == "tranquility-line/1" and len(line["actions"]) == 1


def _action(action) -> dict:
    from tranquility.solver.formats.codecs import action_to_json

    return action_to_json(action)


# -- long work: progress, cancel, busy --------------------------------------------------------


def test_a_job_reports_progress_then_its_answer(base):
    status, started = request(base, "POST", "/api/jobs", {"kind": "analyze", "game": solution_game(4), "time_limit": 1})
    assert status == 202
    found = events(base, started["id"])
    assert [e for e, _ in found].count("progress") >= 1 and found[-1][0] == "done"
    assert "positions" in found[-1][1]


def test_busy_is_503_and_a_cancelled_job_ends_with_what_it_found():
    # Improving a line for spare cards runs its whole time limit: no proof of optimality comes.
    hard = {"kind": "solve", "seed": 1, "players": 4, "time_limit": 25, "objective": "spare"}
    with served("--workers", "1", "--queue", "0") as url:
        status, started = request(url, "POST", "/api/jobs", hard)
        assert status == 202
        got: list = []
        follow = threading.Thread(target=events, args=(url, started["id"], got))
        follow.start()
        wait_until(lambda: any(event == "progress" for event, _ in got))  # it is solving
        wait_until(lambda: request(url, "POST", "/api/verify", {"seed": 1, "players": 2})[0] == 503)
        status, data = request(url, "POST", "/api/jobs", hard)
        assert status == 503 and "busy" in data["error"]
        status, data = request(url, "DELETE", f"/api/jobs/{started['id']}")
        assert status == 200 and data["cancelled"]
        follow.join(SECONDS)
        assert got[-1][0] == "done"
        answer = got[-1][1]  # what was found by the cancel (a win, or nothing yet), long before 25 s
        assert answer["seconds"] < 15
        assert answer["verdict"] == "win" or answer["method"] == "interrupted"
        status, data = request(url, "POST", "/api/solve", {"seed": 1, "players": 2, "time_limit": 5})
        assert status == 200 and data["verdict"] == "win"  # the worker is free again


# -- the table ------------------------------------------------------------------------------


def test_a_table_view_holds_no_card_the_seat_cannot_see(base):
    from tests.web_board_leaks import hidden_cards_in, play_table_by_api

    bodies, line = play_table_by_api(base, seed=3, players=3, seat=1)
    assert line is not None and bodies
    leaks = [found for body in bodies if (found := hidden_cards_in(body, line, seat=1))]
    assert not leaks, leaks[:3]


# -- the command --------------------------------------------------------------------------------


def test_serve_warns_off_loopback_and_stops_with_130_on_ctrl_c_143_on_sigterm():
    for signum, code in ((signal.SIGINT, 130), (signal.SIGTERM, 143)):
        args = [sys.executable, "-m", "tranquility.cli", "serve", "--host", "0.0.0.0", "--port", "0"]
        proc = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        assert proc.stdout is not None and proc.stderr is not None
        assert proc.stdout.readline().startswith("serving at http://0.0.0.0:")
        proc.send_signal(signum)
        assert proc.wait(SECONDS) == code
        err = proc.stderr.read()
        assert "anyone who can reach this address" in err and "Traceback" not in err


def write(path: Path, data: Any) -> Path:
    path.write_text(data if isinstance(data, str) else json.dumps(data), encoding="utf-8")
    return path
