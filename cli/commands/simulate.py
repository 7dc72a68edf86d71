"""``simulate``: a deal played the way a silent table would, or a policy's win rate."""

from __future__ import annotations

import click
from tranquility.solver.errors import BadInput

from ..exits import exit_line
from ..game_input import DealSource, input_error, usage_error
from ..options import (
    count_option,
    deal_source,
    game_file_argument,
    json_option,
    measured_policies,
    output_options,
    policy_option,
    samples_option,
    seat_option,
    sim_seed_option,
)
from ..progress import progress_bar
from ..render.console import dump_json, make_console
from .common import game_of, write_out


@click.command(
    epilog=f"""\b
Examples:
  tranquility simulate --seed 1 --players 4
  tranquility simulate --seed 1 --players 4 --policy greedy --out line.json
  tranquility deal --seed 2 --players 3 --out deal.json
  tranquility simulate deal.json --policy random --sim-seed 7 --json
  tranquility simulate --players 3 --deals 50 --policy cautious
  tranquility simulate --players 2 --deals 20 --rules hungarian --json
  tranquility simulate --seed 1 --players 4 --policy lookahead --samples 4
  tranquility simulate --seed 1 --players 4 --policy lookahead --lookahead-seat 0
  tranquility simulate --seed 1 --players 4 --policy open-hands --samples 4
\b
Policies (docs/simulate.md): tuned, cautious, thrifty, greedy, wavering, random. Each seat
sees only its own hand, the grid and public counts; the Start event's discards are
split by a fixed public rule, each seat choosing its own cards. lookahead also
remembers what its seat saw and tries tuned's best moves in worlds dealt to fit it.
open-hands is no seat: one mind that sees every hand (not the piles) searches as
lookahead does; it measures what silence costs and cannot sit at a table.

{exit_line("it ran (won or lost)")}"""
)
@deal_source
@game_file_argument
@policy_option(
    "--policy",
    "How every seat plays (docs/simulate.md): tuned, the strongest cheap one, by default; open-hands is the ceiling "
    "that sees every hand (no seat: docs/simulate.md, the ceiling ladder).",
    measured_policies,
)
@count_option("--deals", "Play the seeded deals 0..K-1 (with --players, --rules/--rule) and print the win rate.", metavar="K")
@output_options("Write the played line here (tranquility-line/1), won or lost.")
@sim_seed_option(
    "Seed of the policy's own random choices (wavering, random, and lookahead's worlds; the others do not randomise)."
)
@samples_option(
    "lookahead and open-hands: worlds dealt per round of successive halving, the moves still in played out once in "
    "each [default: 60]."
)
@seat_option(
    "--lookahead-seat",
    "lookahead: only seat K looks ahead; the other seats play its blueprint, tuned [default: every seat looks ahead].",
)
@json_option
def simulate(
    source: DealSource,
    file: str | None,
    policy: str,
    deals: int | None,
    sim_seed: int,
    samples: int | None,
    lookahead_seat: int | None,
    out: str | None,
    force: bool,
    as_json: bool,
) -> None:
    """Play a deal the way a silent table would, with one named policy at every seat.

    Each seat sees only its own hand, the grid and what everyone can see (hand and pile
    counts, how many cards lie face down on the discard pile, whether a Start was played).
    Prints the played line, won or lost; with --deals, the policy's win rate.
    """
    from tranquility.solver.engine.deal import DealError, check_players
    from tranquility.solver.engine.rules import Rules
    from tranquility.solver.formats.codecs import line_to_json
    from tranquility.solver.search.lookahead import DEFAULT_SAMPLES, Lookahead, OpenHands
    from tranquility.solver.search.policies import Policy, Tuned, win_rate
    from tranquility.solver.search.policies import simulate as run_simulate
    from tranquility.solver.search.weights import weights_for

    from ..render.verdicts import render_simulation, render_win_rate

    def player(players: int, rules: Rules) -> str | Policy:
        """The policy by name, or a searching one made with its options."""
        if policy == Tuned.name and (note := weights_for(rules, players)[1]) is not None:
            click.echo(note, err=True)
        if policy == OpenHands.name:
            return OpenHands(sim_seed, samples or DEFAULT_SAMPLES)
        if policy != Lookahead.name:
            return policy
        if lookahead_seat is not None and lookahead_seat >= players:
            raise usage_error(f"--lookahead-seat {lookahead_seat}: the game has seats 0..{players - 1}")
        return Lookahead(sim_seed, samples or DEFAULT_SAMPLES, lookahead_seat)

    if policy == OpenHands.name and lookahead_seat is not None:
        raise usage_error(f"--lookahead-seat goes with --policy lookahead; {policy} is one mind at every seat")
    if policy not in (Lookahead.name, OpenHands.name):
        takers = {"--samples": "lookahead or open-hands", "--lookahead-seat": "lookahead"}
        for flag, value in (("--samples", samples), ("--lookahead-seat", lookahead_seat)):
            if value is not None:
                raise usage_error(f"{flag} goes with --policy {takers[flag]}; {policy} does not sample")
    if deals is not None:
        if file is not None or source.seed is not None:
            raise usage_error("--deals plays the seeded deals 0..K-1: give --players P, not --seed or FILE")
        if source.players is None:
            raise usage_error("missing option --players: --deals K needs --players P")
        if out is not None:
            raise usage_error("--out writes one game's line; it does not go with --deals")
        rules = source.rules()
        try:
            check_players(rules, source.players)
        except DealError as exc:
            raise usage_error(f"cannot deal: {exc}") from None
        with progress_bar(make_console(stderr=True), as_json) as progress:
            task = progress.add_task(f"simulate {policy}", total=deals)
            stats = win_rate(
                rules, source.players, deals, player(source.players, rules), sim_seed, on_deal=lambda n, r: progress.advance(task)
            )
        if as_json:
            click.echo(dump_json(stats.to_json()))
        else:
            render_win_rate(make_console(), stats)
        return
    game, file = game_of(source, file)
    table = player(game.line.deal.players, game.line.deal.rules)
    try:
        result = run_simulate(game, table, sim_seed)
    except BadInput as exc:
        raise input_error(file, exc) from None
    if out is not None:
        write_out(out, line_to_json(result.line), force)
        click.echo(f"wrote {out} ({'won' if result.won else 'lost'} after {result.turns} turn(s))", err=True)
    if as_json:
        click.echo(dump_json(result.to_json()))
    else:
        render_simulation(make_console(), result, len(game.line.actions))  # the turns given, which the drawing skips
