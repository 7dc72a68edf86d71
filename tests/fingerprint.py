"""A fingerprint of what the tool answers, to compare two versions of the code that must behave
the same (a restructuring, a speed-up):

    python -m tests.fingerprint --out before.json      # on the old code
    python -m tests.fingerprint --out after.json --compare before.json

For every seeded official deal (seeds 0-99 by default, 1-5 players) it hashes the line and the
verdict of ``solve --reproducible``, the line of ``simulate`` with every silent policy, and the
whole answer of ``grade``, all through the CLI's ``--json`` (in process), so that it runs on any
version whatever the library's module paths. Times and statistics are left out: they are not
reproducible. ``--compare`` names every deal whose answer changed and exits 1 if any did."""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
import time
from pathlib import Path

from click.testing import CliRunner
from tranquility.cli.main import main as tranquility

POLICIES = ("cautious", "thrifty", "greedy", "wavering", "random")
NOT_REPRODUCIBLE = ("seconds", "stats", "phases")


def answer(args: list[str]) -> dict:
    result = CliRunner().invoke(tranquility, [*args, "--json"], catch_exceptions=False)
    if result.exit_code not in (0, 1):
        raise SystemExit(f"tranquility {' '.join(args)}: exit {result.exit_code}: {result.output[-300:]}")
    return json.loads(result.stdout)


def digest(value: object) -> str:
    return hashlib.sha256(json.dumps(value, sort_keys=True).encode()).hexdigest()[:16]


def fingerprint_deal(seed: int, players: int) -> dict[str, str]:
    deal = ["--seed", str(seed), "--players", str(players)]
    solved = answer(["solve", *deal, "--reproducible"])
    found = {"solve": digest({k: v for k, v in solved.items() if k not in NOT_REPRODUCIBLE})}
    for policy in POLICIES:
        played = answer(["simulate", *deal, "--policy", policy])
        found[f"simulate {policy}"] = digest(played)
    found["grade"] = digest(answer(["grade", *deal]))
    return found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seeds", type=int, default=100, help="seeds 0..N-1 (default 100)")
    parser.add_argument("--players", type=int, nargs="+", default=[1, 2, 3, 4, 5])
    parser.add_argument("--out", type=Path, required=True, help="where to write the fingerprint (JSON)")
    parser.add_argument("--compare", type=Path, help="an earlier fingerprint to compare with")
    options = parser.parse_args(argv)
    started = time.monotonic()
    deals: dict[str, dict[str, str]] = {}
    for players in options.players:
        for seed in range(options.seeds):
            deals[f"{players}p seed {seed}"] = fingerprint_deal(seed, players)
        print(f"{players} players: {options.seeds} deals, {time.monotonic() - started:.0f} s", file=sys.stderr)
    whole = {"all": digest(deals), "deals": deals}
    options.out.write_text(json.dumps(whole, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    print(f"fingerprint {whole['all']} over {len(deals)} deals")
    if options.compare is None:
        return 0
    before = json.loads(options.compare.read_text(encoding="utf-8"))["deals"]
    changed = [
        f"{deal}: {what}"
        for deal, answers in deals.items()
        for what, value in answers.items()
        if before.get(deal, {}).get(what) != value
    ]
    print("\n".join(changed) if changed else f"the same answers as {options.compare}")
    return 1 if changed else 0


if __name__ == "__main__":
    raise SystemExit(main())
