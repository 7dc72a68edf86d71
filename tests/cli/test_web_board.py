"""``tranquility serve``'s JSON API (cli/web_board/, docs/web.md): every endpoint's answer
against the CLI's ``--json`` for the same input, the errors, the busy answer, the cancel,
and the table's views, which must hold no card the person's seat cannot see.

The server runs as the program runs it: a subprocess on a free loopback port."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time
import urllib.request
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
from ..web_board_server import SECONDS, events, request, served, serving, wait_until, workers

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
    assert status == 200, data
    assert untimed(data) == untimed(cli_json("analyze", short, "--time-limit", 1))
    status, data = request(base, "POST", "/api/analyze", {"game": solution_game(4), "time_limit": 1, "fair": True, "samples": 4})
    assert status == 200 and set(data) == {"perfect", "fair"}, data
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


def test_a_hint_for_a_chosen_card_answers_for_that_card(base):
    status, view = request(base, "POST", "/api/board", {"puzzle": PUZZLE})
    key = view["id"]
    status, data = request(base, "POST", f"/api/board/{key}/hint", {"card": 74})
    assert status == 200, data
    hint, about = data["hint"], data["hint"]["card"]
    assert hint["best"]["action"]["play"] != 74  # the best move plays another card: 74 is answered for all the same
    assert about["verdict"] == "win" and about["best"]["action"]["play"] == 74 and about["better"] == hint["best"]
    assert about["words"].startswith("Best for your 74: play 74 at cell ")
    request(base, "POST", f"/api/board/{key}/play", {"action": about["best"]["action"]})
    status, checked = request(base, "POST", f"/api/board/{key}/check", {"time_limit": 5})
    assert checked["check"]["judgement"] == "kept", checked
    status, data = request(base, "POST", f"/api/board/{key}/hint", {"card": 19})
    assert status == 400 and data["error"].startswith("card: 19 is not in the hand of the seat to move (")
    # a card every move of which loses the win, while another move keeps it
    lost = "tq1-1p-8cf48077-25"
    moves = " ".join(format_action(a) for a in shipped.solution(lost).actions[:33])
    status, view = request(base, "POST", "/api/board", {"puzzle": lost})
    status, view = request(base, "POST", f"/api/board/{view['id']}/play", {"action": moves})
    assert 64 in view["hand"], view["hand"]
    status, data = request(base, "POST", f"/api/board/{view['id']}/hint", {"card": 64, "time_limit": 4})
    about = data["hint"]["card"]
    assert data["hint"]["verdict"] == "win" and about["verdict"] == "no-win" and about["best"] is None
    assert about["better"] == data["hint"]["best"]
    assert about["words"].startswith("Do not play 64 now: every move with it loses the win.")


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
        # It is improving its win, where a cancel answers with the best line so far.
        wait_until(lambda: any(event == "progress" and "improving" in data["text"] for event, data in got))
        wait_until(lambda: request(url, "POST", "/api/verify", {"seed": 1, "players": 2})[0] == 503)
        status, data = request(url, "POST", "/api/jobs", hard)
        assert status == 503 and "busy" in data["error"]
        status, data = request(url, "DELETE", f"/api/jobs/{started['id']}")
        assert status == 200 and data["cancelled"]
        follow.join(SECONDS)
        assert got[-1][0] == "done", got[-1]
        answer = got[-1][1]  # what was found by the cancel (a win, or nothing yet), long before 25 s
        assert answer["seconds"] < 15
        assert answer["verdict"] == "win" or answer["method"] == "interrupted"
        status, data = request(url, "POST", "/api/solve", {"seed": 1, "players": 2, "time_limit": 5})
        assert status == 200 and data["verdict"] == "win"  # the worker is free again


# -- a server that survives its workers ---------------------------------------------------------

LONG = {"kind": "explain", "seed": 1, "players": 4, "time_limit": 25}  # solving for 25 s unless cut


def _following(url: str, body: dict) -> tuple[threading.Thread, list]:
    """A long job started and its events followed, once it is solving (its first progress)."""
    status, started = request(url, "POST", "/api/jobs", body)
    assert status == 202, started
    got: list = []
    follow = threading.Thread(target=events, args=(url, started["id"], got))
    follow.start()
    wait_until(lambda: any(event == "progress" for event, _ in got))
    return follow, got


def _gone(pid: int) -> bool:
    """Whether the process has died (a zombie, not yet reaped by the server, or reaped)."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] == "Z"
    except FileNotFoundError:
        return True


@pytest.mark.parametrize("signum, code", [(signal.SIGINT, 130), (signal.SIGTERM, 143)])
def test_a_worker_killed_mid_job_ends_the_job_is_replaced_and_the_server_still_stops(signum, code):
    with serving("--workers", "1") as (proc, url):
        (worker,) = workers(proc)
        follow, got = _following(url, LONG)
        os.kill(worker, signal.SIGKILL)  # as the out-of-memory killer would
        follow.join(SECONDS)
        assert not follow.is_alive() and got[-1][0] == "error", got[-1:]
        assert got[-1][1]["status"] == 503 and "died" in got[-1][1]["error"]
        status, data = request(url, "POST", "/api/verify", {"seed": 1, "players": 2})
        assert status == 200 and data["legal"], data
        (fresh,) = workers(proc)
        assert fresh != worker
        os.kill(fresh, signal.SIGKILL)  # an idle worker killed: the next job gets a new one
        wait_until(lambda: _gone(fresh))
        assert request(url, "POST", "/api/verify", {"seed": 2, "players": 2})[0] == 200
        follow, got = _following(url, LONG)
        os.kill(workers(proc)[0], signal.SIGSTOP)  # a worker that will answer nothing, ever
        started = time.monotonic()
        proc.send_signal(signum)
        assert proc.wait(SECONDS) == code
        assert time.monotonic() - started < 5
        follow.join(SECONDS)
        assert not follow.is_alive() and got[-1][0] in ("done", "error")
        assert "Traceback" not in proc.stderr.read()  # type: ignore[union-attr]


def test_ctrl_c_cuts_a_running_job_and_its_stream_ends():
    with serving("--workers", "1") as (proc, url):
        follow, got = _following(url, LONG)
        started = time.monotonic()
        proc.send_signal(signal.SIGINT)
        assert proc.wait(SECONDS) == 130
        assert time.monotonic() - started < 5
        follow.join(SECONDS)
        assert not follow.is_alive() and got[-1][0] in ("done", "error")


def test_finished_jobs_expire():
    with served("--keep-jobs", "1") as url:
        status, started = request(url, "POST", "/api/jobs", {"kind": "verify", "seed": 1, "players": 2})
        assert status == 202
        assert events(url, started["id"])[-1][0] == "done"
        time.sleep(1.5)
        status, data = request(url, "DELETE", f"/api/jobs/{started['id']}")
        assert status == 404 and "no job" in data["error"]


# -- who may use the server ------------------------------------------------------------------


def test_a_foreign_host_or_origin_is_refused(base):
    port = base.rstrip("/").rsplit(":", 1)[1]
    for host in ("evil.example", f"evil.example:{port}", "127.0.0.1:1", f"127.0.0.1.nip.io:{port}", "[::1", f"x:{port}:y"):
        status, data = request(base, "GET", "/api/deal?seed=1&players=2", headers={"Host": host})
        assert status == 403 and data["error"].startswith("Host:"), (host, data)
    for host in (f"127.0.0.1:{port}", f"localhost:{port}", f"[::1]:{port}"):
        assert request(base, "GET", "/api/deal?seed=1&players=2", headers={"Host": host})[0] == 200, host
    job = {"kind": "solve", "seed": 1, "players": 2}
    for origin in ("http://evil.example", "null", f"http://localhost:{int(port) + 1}"):
        raw = json.dumps(job).encode()
        status, data = request(base, "POST", "/api/jobs", raw=raw, headers={"Origin": origin, "Content-Type": "text/plain"})
        assert status == 403 and data["error"].startswith("Origin:"), (origin, data)
    status, _ = request(base, "POST", "/api/jobs", {**job, "kind": "verify"}, headers={"Origin": base.rstrip("/")})
    assert status == 202  # the page's own origin


def test_allow_origin_lets_one_origin_in_with_cors():
    with served("--allow-origin", "http://localhost:3000") as url:
        status, _ = request(url, "GET", "/api/deal?seed=1&players=2", headers={"Origin": "http://localhost:3000"})
        assert status == 200
        assert request(url, "GET", "/api/deal?seed=1&players=2", headers={"Origin": "http://localhost:3001"})[0] == 403
        req = urllib.request.Request(url + "api/jobs", method="OPTIONS", headers={"Origin": "http://localhost:3000"})
        with urllib.request.urlopen(req, timeout=SECONDS) as answer:
            assert answer.status == 204 and answer.headers["Access-Control-Allow-Origin"] == "http://localhost:3000"
    result = run("serve", "--allow-origin", "localhost:3000")
    assert result.exit_code == 2 and "--allow-origin" in result.stderr and "Traceback" not in result.stderr


# -- the table ------------------------------------------------------------------------------


def test_a_table_view_holds_no_card_the_seat_cannot_see(base):
    from tests.web_board_leaks import hidden_cards_in, play_table_by_api

    bodies, line = play_table_by_api(base, seed=3, players=3, seat=1)
    assert line is not None and bodies
    leaks = [found for body in bodies if (found := hidden_cards_in(body, line, seat=1))]
    assert not leaks, leaks[:3]


def test_the_fair_hint_at_a_table_reads_no_hidden_card(base):
    """Two deals that differ only in cards seat 0 cannot see (the other seats' hands and
    every pile but the seat's own hand) give seat 0 the same view and the same hint."""
    status, dealt = request(base, "GET", "/api/deal?seed=5&players=3")
    first = {key: value for key, value in dealt.items() if key not in ("seed", "dealer")}
    hand, piles = first["rules"]["hand"], first["piles"]
    hidden = [card for pile in (piles[0][hand:], *piles[1:]) for card in pile][::-1]
    sizes = [len(piles[0]) - hand, *(len(pile) for pile in piles[1:])]
    cut = [sum(sizes[:k]) for k in range(len(sizes) + 1)]
    second = {**first, "piles": [piles[0][:hand] + hidden[: cut[1]], *(hidden[cut[k] : cut[k + 1]] for k in (1, 2))]}
    every = [sorted(str(card) for pile in game["piles"] for card in pile) for game in (first, second)]
    assert second["piles"][1][:hand] != piles[1][:hand] and every[0] == every[1]
    found, tables = [], []
    for game in (first, second):
        status, view = request(base, "POST", "/api/table", {"game": game, "seat": 0})
        assert status == 200 and view["my_turn"], view
        tables.append(view.pop("id"))
        status, hint = request(base, "POST", f"/api/table/{tables[-1]}/hint", {})
        assert status == 200 and hint["turn"] == 0, hint
        found.append((view, hint["hint"]))
    (view, hint), again = found
    assert again == (view, hint)
    assert hint["best"]["action"] in [m["action"] for m in view["moves"]] and hint["words"][0].startswith("Hint: ")
    card = next(c for c in view["hand"] if any(m["card"] == c for m in view["moves"]))
    status, data = request(base, "POST", f"/api/table/{tables[0]}/hint", {"card": card})
    about = data["hint"]["card"]
    assert status == 200 and about["card"] == card and about["best"]["action"]["play"] == card
    assert about["words"].startswith(f"Best for your {card}: ")


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
