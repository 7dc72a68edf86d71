"""A soak of ``tranquility serve`` (docs/web.md, "Soak"): not a test, a command.
``python -m tests.web_soak`` starts a server on loopback with one worker, opens ``--boards``
boards and abandons them, then runs ``--jobs`` jobs one after the other, following each
one's events to its end; ``--kills`` of them lose their worker (SIGKILL, as the out-of-memory
killer sends it) once they are solving. It prints the server's memory (its own resident
set, and its workers') and its open files before and after, how each job ended, and how long
Ctrl-C took to stop it. Every wait is bounded: a hang is a failure, not a stall."""

from __future__ import annotations

import argparse
import os
import signal
import threading
import time

from .web_board_server import SECONDS, events, request, serving, wait_until, workers


def rss_kib(pid: int) -> int:
    with open(f"/proc/{pid}/status", encoding="ascii") as status:
        return next(int(line.split()[1]) for line in status if line.startswith("VmRSS:"))


def open_files(pid: int) -> int:
    return len(os.listdir(f"/proc/{pid}/fd"))


def reading(pid: int, children: list[int]) -> str:
    return (
        f"server {rss_kib(pid) / 1024:6.1f} MiB, {open_files(pid):3d} open files; "
        f"workers {sum(rss_kib(child) for child in children) / 1024:6.1f} MiB"
    )


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m tests.web_soak", description=__doc__.split("\n\n")[0])
    parser.add_argument("--boards", type=int, default=1000, help="boards opened and abandoned")
    parser.add_argument("--jobs", type=int, default=200, help="jobs run, one after the other")
    parser.add_argument("--kills", type=int, default=20, help="of which this many lose their worker")
    args = parser.parse_args(argv)
    every = max(1, args.jobs // max(1, args.kills))
    with serving("--workers", "1", "--queue", "4") as (proc, base):
        assert request(base, "POST", "/api/verify", {"seed": 0, "players": 2})[0] == 200  # the worker is ready
        print(f"before: {reading(proc.pid, workers(proc))}")
        started = time.monotonic()
        for board in range(args.boards):
            status, view = request(base, "POST", "/api/board", {"seed": board, "players": 2 + board % 3})
            assert status == 200, view
        print(f"{args.boards} boards opened and abandoned in {time.monotonic() - started:.1f} s")
        print(f"after the boards: {reading(proc.pid, workers(proc))}")
        ended = {"done": 0, "error": 0}
        killed = 0
        started = time.monotonic()
        for job in range(args.jobs):
            doomed = killed < args.kills and job % every == 0
            # A doomed job explains for 5 s, long enough to be killed mid-way; the others solve quickly.
            body = {"kind": "explain", "time_limit": 5} if doomed else {"kind": "solve", "time_limit": 0.5}
            status, begun = request(base, "POST", "/api/jobs", {**body, "seed": job, "players": 2 + job % 3})
            assert status == 202, begun
            got: list = []
            follow = threading.Thread(target=events, args=(base, begun["id"], got), daemon=True)
            follow.start()
            if doomed:
                wait_until(lambda found=got: any(event == "progress" for event, _ in found))
                os.kill(workers(proc)[0], signal.SIGKILL)
                killed += 1
            follow.join(SECONDS)
            assert not follow.is_alive(), f"job {job}: its events never ended"
            ended[got[-1][0]] += 1
        print(
            f"{args.jobs} jobs in {time.monotonic() - started:.1f} s: {ended['done']} answered, "
            f"{ended['error']} ended with an error event ({killed} lost their worker)"
        )
        assert request(base, "POST", "/api/verify", {"seed": 1, "players": 2})[0] == 200
        print(f"after the jobs: {reading(proc.pid, workers(proc))}")
        started = time.monotonic()
        proc.send_signal(signal.SIGINT)
        code = proc.wait(SECONDS)
        print(f"Ctrl-C: exit {code} after {time.monotonic() - started:.1f} s")


if __name__ == "__main__":
    main()
