"""What binds: which rules together make a position unwinnable, read off the CP-SAT model.

The model is built with one assumption literal per rule group of the position
(``model.rule_groups``: the base game's, and the Sea Monsters' and the Jagged Rocks' while
those modules are in play); a group whose literal is not assumed is switched off, and
switching groups off only ever removes constraints. CP-SAT proves the position's model
infeasible under all assumptions and names a sufficient subset of them; a deletion filter
then switches each named group off in turn and keeps it only if the win becomes possible
without it. The result is a set of rule groups that together make the win impossible,
minimal when every re-solve was decided. Each group is then put in words with the facts
of the position it is about (where the Start and Finish cards lie, the tightest run of
empty cells, the cards the costs need).
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from tranquility.solver.engine.cards import FINISH, MONSTER, START, is_island
from tranquility.solver.engine.rules import Rocks
from tranquility.solver.engine.state import State
from tranquility.solver.search.bounds import empty_runs, least_total_cost, live_islands, monsters_left


@dataclass(frozen=True)
class Binding:
    """``status``: proven (CP-SAT proved the model infeasible; ``groups`` is sufficient),
    winnable (the model has a win: nothing binds), unknown (no proof in the budget)."""

    status: str
    groups: tuple[str, ...]
    minimal: bool  # every group was shown necessary (the win is possible without it)
    solves: int
    facts: tuple[str, ...]

    def to_json(self) -> dict:
        return {
            "status": self.status,
            "groups": list(self.groups),
            "minimal": self.minimal,
            "solves": self.solves,
            "facts": list(self.facts),
        }


def what_binds(state: State, seconds: float = 20.0, deterministic: float | None = None) -> Binding:
    """The rule groups that make ``state`` unwinnable, within ``seconds`` in all; with
    ``deterministic``, each solve is also capped at that much CP-SAT deterministic time
    (reproducible results when the seconds do not run out first)."""
    from ortools.sat.python import cp_model
    from tranquility.solver.cpsat.model import Frame, build_model, horizon, rule_groups
    from tranquility.solver.cpsat.run_model import CpsatLimits, interruptible_solve, new_solver

    until = time.monotonic() + seconds
    solves = 0

    def run(groups: list[str], share: float, core: bool) -> tuple[cp_model.CpSolverStatus, list[str]]:
        """Solve with ``groups`` on and the others off. With ``core``, the groups are
        assumptions and CP-SAT names a sufficient subset; without, they are fixed, which
        lets presolve drop the switched-off constraints (much faster)."""
        nonlocal solves
        solves += 1
        game = build_model(state, horizon(state), relaxable=True)
        if core:
            game.model.add_assumptions([game.rule_on[g] for g in groups])
        else:
            for g, literal in game.rule_on.items():
                game.model.add(literal == int(g in groups))
        # One worker: CP-SAT reports assumption cores with one worker only.
        seconds = max(0.05, (until - time.monotonic()) * share)
        solver = new_solver(CpsatLimits(workers=1, seconds=seconds, deterministic=deterministic))
        status = interruptible_solve(solver, game.model)
        if not (core and status == cp_model.INFEASIBLE):
            return status, list(groups)
        named = {game.rule_on[g].index for g in groups} & set(solver.sufficient_assumptions_for_infeasibility())
        return status, [g for g in groups if game.rule_on[g].index in named]

    status, needed = run(list(rule_groups(Frame.of(state, 0))), 0.5, core=True)
    if status in (cp_model.FEASIBLE, cp_model.OPTIMAL):
        return Binding("winnable", (), True, solves, ())
    if status != cp_model.INFEASIBLE:
        return Binding("unknown", (), False, solves, ())
    minimal = True
    candidates = list(needed)
    for i, group in enumerate(candidates):
        rest = [g for g in needed if g != group]
        trial, _ = run(rest, 1.0 / (len(candidates) - i), core=False)
        if trial == cp_model.INFEASIBLE:
            needed = rest
        elif trial not in (cp_model.FEASIBLE, cp_model.OPTIMAL):
            minimal = False
    return Binding("proven", tuple(needed), minimal, solves, tuple(describe_group(state, g) for g in needed))


# -- the groups in words ---------------------------------------------------------------------


def describe_group(state: State, group: str) -> str:
    return _DESCRIBE[group](state)


def in_words(groups: list[str] | tuple[str, ...], facts: list[str] | tuple[str, ...]) -> list[str]:
    """Each binding group as the text, --json and --html views show it: the rule
    (``model.RULE_GROUPS``), then the position's facts about it."""
    from tranquility.solver.cpsat.model import RULE_GROUPS

    return [f"{RULE_GROUPS[group]}. {fact}" for group, fact in zip(groups, facts, strict=True)]


def _where(state: State, card) -> list[str]:
    places = []
    for s in range(state.players):
        if card in state.hands[s]:
            places.append(f"in seat {s + 1}'s hand")
        pile = state.pile(s)
        places += [f"card {i + 1} of {len(pile)} in seat {s + 1}'s pile" for i, c in enumerate(pile) if c == card]
    return places


def _tightest_run(state: State):
    live = live_islands(state)
    in_play = [c for h in state.hands for c in h] + [c for s in range(state.players) for c in state.pile(s)]
    available = sorted(c for c in in_play if is_island(c) and c in live)
    runs = [(sum(1 for c in available if low < c < high) - run, low, high, run) for low, high, run in empty_runs(state)]
    if not runs:
        return None
    slack, low, high, run = min(runs)
    return slack, low, high, run, [c for c in available if low < c < high]


def _order(state: State) -> str:
    tight = _tightest_run(state)
    text = "The grid must ascend"
    if tight is None:
        return text + "."
    slack, low, high, run, fits = tight
    top = high if high <= state.rules.islands else "the end"
    have = f"has {len(fits)} island(s) left that fit ({_listed(fits)})" if fits else "has no island left that fits"
    text += f": the tightest run, {run} empty cell(s) between {low or 'the start'} and {top}, {have}: "
    text += f"{-slack} too few." if slack < 0 else f"{slack} to spare."
    gone = [_gone(state, v) for v in range(low + 1, min(high, state.rules.islands + 1)) if v not in fits]
    if gone and len(gone) <= 6:
        text += " " + "; ".join(gone) + "."
    return text


def _listed(values: list[int]) -> str:
    return ", ".join(map(str, values[:12])) + (", ..." if len(values) > 12 else "")


def _gone(state: State, island: int) -> str:
    """Where an island that can no longer be placed went."""
    if island in state.grid:
        return f"{island} lies in cell {state.grid.index(island)}"
    if island in state.deal.removed_islands:
        return f"{island} was removed from the game"
    return f"{island} was paid or discarded"


def _cost(state: State) -> str:
    empty = sum(v is None for v in state.grid)
    text = (
        f"Placement costs: the {empty} empty cell(s) cost at least {least_total_cost(state)} card(s) "
        f"in all, out of {state.cards_left} card(s) left in hands and piles."
    )
    monsters = monsters_left(state)
    if not monsters:
        return text
    # The plays themselves, as the horizon counts them (model.horizon): what is left pays the costs.
    start = "" if state.start_played else f", the Start and its {state.rules.start_discards} discard(s)"
    plays = empty + 2 * monsters + (0 if state.start_played else 1 + state.rules.start_discards) + 1
    return text + (
        f" With {monsters} Sea Monster(s) to go, the plays alone take {plays} of them: {empty + monsters} islands "
        f"(each monster's cell is filled again), the {monsters} monster(s){start} and a Finish."
    )


def _draw(state: State) -> str:
    tight = _tightest_run(state)
    if tight is None:
        return "Islands are played from hand: a seat has to draw a card before playing it."
    *_, fits = tight
    deep = [f"{c} ({_where(state, c)[0]})" for c in fits[:6] if _where(state, c)]
    where = "; ".join(deep)
    return f"Islands are played from hand, drawn in pile order; the islands that fit the tightest run lie at: {where}."


def _finish(state: State) -> str:
    places = _where(state, FINISH)
    if not places:
        return "No Finish card is left."
    start = _where(state, START)
    after = "" if state.start_played or not start else f"; the Start card is {start[0]}"
    return f"The Finish is played from hand after the Start: Finish cards lie {', '.join(places)}{after}."


def _start(state: State) -> str:
    rules = state.rules
    if state.start_played:
        return "The Start event is over; its discards are paid."
    where = _where(state, START)
    forced = ""
    if rules.hand - 1 < rules.start_discards and state.players == 1:
        forced = f"; one hand of {rules.hand - 1} card(s) cannot pay it, so the first round throws the whole hand away"
        pile = state.pile(0)
        if START in pile:
            depth = pile.index(START)
            before = [i + 1 for i, c in enumerate(pile[:depth]) if c == FINISH]
            after = [i + 1 for i, c in enumerate(pile) if c == FINISH and i > depth]
            forced += (
                f", with every Finish card drawn by then (Finish cards at {', '.join(map(str, before)) or 'none'} "
                f"of the pile before it, {', '.join(map(str, after)) or 'none'} after it)"
            )
    held = where[0] if where else "not in play"
    return f"The Start card ({held}) must be played when held and costs the team {rules.start_discards} cards{forced}."


def _hand(state: State) -> str:
    return (
        f"An action needs cards in hand: a hand holds {state.rules.hand}, a play costing c needs c + 1, "
        f"a discard two; seats hold {', '.join(str(len(h)) for h in state.hands)} and have "
        f"{', '.join(str(len(state.pile(s))) for s in range(state.players))} left to draw."
    )


def _discards(state: State) -> str:
    return "Costs and discards come from the paying seat's own hand, with cards the line never plays."


def _monsters(state: State) -> str:
    rules = state.rules
    left = monsters_left(state)
    places = _where(state, MONSTER)
    where = f"; Sea Monster cards lie {', '.join(places)}" if places else "; none is left in a hand or pile"
    if len(places) < left:
        where += f": {left - len(places)} too few, as a discarded Sea Monster can never be played"
    return (
        f"Sea Monsters: the Finish waits for all {rules.monsters} to be played ({state.monsters_played} played, "
        f"{left} to go{where}); each sinks a placed island, whose cell must be filled again, "
        "so each costs a turn, its card and one more island."
    )


def _rocks(state: State) -> str:
    rules = state.rules
    if state.rocks_row is None:
        return "The Jagged Rocks have left the game: no row is blocked any more."
    how = (
        "the deal's rolls move them after every action"
        if rules.rocks == Rocks.AUTO
        else "after every action the seat moves them to another row, or pays two cards to keep them"
    )
    return (
        f"The Jagged Rocks block row {state.rocks_row} (row 0 is the bottom row): no island is placed there "
        f"while they stay; {how}, until {rules.rocks_leave_rows} row(s) are complete "
        f"({state.complete_rows} now)."
    )


_DESCRIBE = {
    "order": _order,
    "cost": _cost,
    "draw": _draw,
    "finish": _finish,
    "start": _start,
    "hand": _hand,
    "discards": _discards,
    "monsters": _monsters,
    "rocks": _rocks,
}
