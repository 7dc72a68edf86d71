"""A load benchmark of ``tranquility serve`` (docs/web.md, "Load test"): not a test, a
command. ``python -m tests.web_load`` starts a server on loopback, runs concurrent clients
asking for hints (``/api/solve``) and every move's verdict (``/api/moves``) on positions of
their own, checks every answer (each winning line replays through the engine as a win, from
the position asked), then does the same work with the CLI (one process per question, as many
at a time as the server has workers) and prints both sides' p50 and p95 latency and
throughput. Bounded: ``--clients``, ``--requests`` each and ``--seconds`` in all."""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

import aiohttp
from tranquility.solver.engine.deal import deal
from tranquility.solver.engine.line import Line
from tranquility.solver.engine.rules import PRESETS
from tranquility.solver.engine.verify import verify
from tranquility.solver.formats.codecs import line_from_json, line_to_json
from tranquility.solver.search.policies import simulate

from .web_board_server import served

KINDS = ("solve", "moves")  # a hint, then every move's verdict


@dataclass(frozen=True)
class Question:
    kind: str
    game: Line
    seconds: float

    @property
    def body(self) -> dict:
        return {"game": line_to_json(self.game), "time_limit": self.seconds}


def questions(clients: int, requests: int, seconds: float) -> list[list[Question]]:
    """Each client's questions: positions of seeded games (2 to 4 players, played by the
    tuned policy) cut at turns that differ from client to client and from one ask to the next."""
    found = []
    for client in range(clients):
        played = simulate(deal(PRESETS["official"], 2 + client % 3, 1000 + client), "tuned", 0).line
        asks = []
        for ask in range(requests):
            cut = (7 * client + 11 * ask) % max(1, len(played.actions) - 2)
            asks.append(Question(KINDS[ask % 2], Line(played.deal, played.actions[:cut]), seconds))
        found.append(asks)
    return found


def check(question: Question, answer: dict) -> None:
    """The answer is right: every winning line starts at the position asked and replays as a win."""
    lines = [answer["line"]] if question.kind == "solve" else [m["line"] for m in answer["moves"]]
    if question.kind == "solve":
        assert answer["verdict"] in ("win", "no-win", "unknown"), answer
    for data in lines:
        if data is None:
            continue
        line = line_from_json(data)
        assert line.actions[: len(question.game.actions)] == question.game.actions, "the line does not start where asked"
        assert verify(line).won, "a winning line that does not replay as a win"


async def serve_side(base: str, work: list[list[Question]], deadline: float) -> tuple[list[float], float]:
    latencies: list[float] = []
    started = time.monotonic()
    timeout = aiohttp.ClientTimeout(total=max(1.0, deadline - time.monotonic()))
    async with aiohttp.ClientSession(timeout=timeout) as session:

        async def client(asks: list[Question]) -> None:
            for question in asks:
                sent = time.monotonic()
                async with session.post(f"{base}api/{question.kind}", json=question.body) as response:
                    answer = await response.json()
                    assert response.status == 200, answer
                latencies.append(time.monotonic() - sent)
                check(question, answer)

        await asyncio.gather(*(client(asks) for asks in work))
    return latencies, time.monotonic() - started


async def cli_side(work: list[list[Question]], workers: int, folder: Path) -> tuple[list[float], float]:
    latencies: list[float] = []
    gate = asyncio.Semaphore(workers)
    started = time.monotonic()

    async def one(index: int, question: Question) -> None:
        path = folder / f"q{index}.json"
        path.write_text(json.dumps(line_to_json(question.game)), encoding="utf-8")
        args = [question.kind, str(path), "--time-limit", str(question.seconds), "--workers", "1", "--json"]
        async with gate:
            sent = time.monotonic()
            proc = await asyncio.create_subprocess_exec(
                sys.executable, "-m", "tranquility.cli", *args, stdout=asyncio.subprocess.PIPE
            )
            out, _ = await proc.communicate()
            latencies.append(time.monotonic() - sent)
        check(question, json.loads(out))

    flat = [q for asks in work for q in asks]
    await asyncio.gather(*(one(i, q) for i, q in enumerate(flat)))
    return latencies, time.monotonic() - started


def summary(name: str, latencies: list[float], wall: float) -> str:
    cuts = statistics.quantiles(latencies, n=20)
    return (
        f"{name:<6} {len(latencies):>4} answers in {wall:6.1f} s: {len(latencies) / wall:5.2f} answers/s, "
        f"p50 {statistics.median(latencies):5.2f} s, p95 {cuts[18]:5.2f} s"
    )


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m tests.web_load", description=__doc__.split("\n\n")[0])
    parser.add_argument("--clients", type=int, default=50, choices=range(1, 201), metavar="N (1-200)")
    parser.add_argument("--requests", type=int, default=2, choices=range(1, 21), metavar="N (1-20)", help="per client")
    parser.add_argument("--time-limit", type=float, default=1.0, help="each question's solver seconds")
    parser.add_argument("--workers", type=int, default=2, help="the server's worker processes, the CLI's processes at once")
    parser.add_argument("--seconds", type=float, default=600, help="the whole benchmark, at most")
    parser.add_argument("--no-cli", action="store_true", help="skip the CLI side")
    args = parser.parse_args(argv)
    deadline = time.monotonic() + args.seconds
    work = questions(args.clients, args.requests, args.time_limit)
    print(
        f"{args.clients} clients x {args.requests} questions (hint, moves), time limit {args.time_limit:g} s, "
        f"{args.workers} workers, loopback"
    )
    queue = str(args.clients * args.requests)
    with served("--workers", str(args.workers), "--queue", queue) as base:
        latencies, wall = asyncio.run(asyncio.wait_for(serve_side(base, work, deadline), deadline - time.monotonic()))
    print(summary("serve", latencies, wall) + "; every answer checked")
    if not args.no_cli:
        with tempfile.TemporaryDirectory() as folder:
            run = cli_side(work, args.workers, Path(folder))
            latencies, wall = asyncio.run(asyncio.wait_for(run, max(1.0, deadline - time.monotonic())))
        print(summary("CLI", latencies, wall) + "; every answer checked")


if __name__ == "__main__":
    main()
