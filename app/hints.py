"""The hints a front end gives a player about one card, and the fair hint at a table.

A **card hint** answers for the card the player has chosen: the best cell for it (a move
with it that keeps the win), or that it should not be played now (every move with it
loses the win) and which move is better. The board's hint names the best move of all; when
that move plays another card, the card's own moves are solved (``rank_moves`` on that card
alone), within the same budget.

The **fair hint** is a seat's at a table: each of its moves played out in worlds dealt to
fit what the seat has seen (``fair_estimates``). The job is given the seat's observation,
its memory and its moves, nothing else of the game, so the process that plays the worlds
out holds no card the seat has not seen (``fair_job``), and two games that differ only in
cards the seat cannot see give the same hint.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tranquility.solver.analysis.board import Board, BoardError, Hint
from tranquility.solver.analysis.table import Table, fair_estimates
from tranquility.solver.engine.actions import Action, ChoiceKind, choice_of
from tranquility.solver.engine.cards import Card, card_name
from tranquility.solver.formats.codecs import action_to_json
from tranquility.solver.formats.notation import format_action
from tranquility.solver.search.budget import Budget
from tranquility.solver.search.lookahead import MoveEstimate
from tranquility.solver.verdicts import Objective, Verdict

from .fields import RequestError, shown

SHOWN_MOVES = 5  # the fair hint's moves listed, best first


def hand_card(body: Mapping[str, Any], hand: tuple[Card, ...]) -> Card | None:
    """``card``: a card of ``hand`` (an island's number, or ``"S"``, ``"F"``, ``"M"``), or
    None when the request names none."""
    if "card" not in body:
        return None
    value = body["card"]
    if isinstance(value, bool) or not isinstance(value, int | str):
        raise RequestError(f"card: expected a card of the hand (a number, S, F or M), got {shown(value)}")
    card: Card = int(value) if isinstance(value, str) and value.isdigit() else value
    if card not in hand:
        held = " ".join(map(str, hand)) or "no card"
        raise RequestError(f"card: {str(card)[:20]} is not in the hand of the seat to move ({held})")
    return card


def _move_json(action: Action) -> dict:
    return {"notation": format_action(action), "action": action_to_json(action)}


def _plays(action: Action | None, card: Card) -> bool:
    return action is not None and choice_of(action).kind != ChoiceKind.DISCARD and choice_of(action).card == card


def card_hint(board: Board, card: Card, hint: Hint, budget: Budget, objective: Objective) -> dict:
    """What to do with ``card`` at the board's position, given the position's ``hint``:
    ``verdict`` (win: a move with it keeps the win; no-win: none does; unknown), ``best``
    (its best move, when one wins), ``better`` (the hint's move, when it plays another card
    and ``card`` has no better answer) and ``words``."""
    from tranquility.solver.analysis.ranking import rank_moves

    name = card_name(card)
    found: dict[str, Any] = {"card": card, "verdict": Verdict.UNKNOWN, "best": None, "better": None}
    if not any(_plays(move.action, card) for move in board.choices):
        found["verdict"] = Verdict.NO_WIN
        return {**found, "words": _no_move_words(card)}
    if _plays(hint.best, card):
        assert hint.best is not None
        return {
            **found,
            "verdict": Verdict.WIN,
            "best": _move_json(hint.best),
            "words": _best_words(name, hint.best, "the hint's own move, a win"),
        }
    if hint.verdict == Verdict.NO_WIN:
        return {**found, "verdict": Verdict.NO_WIN, "words": f"No move wins from here, {name} neither: {hint.reason}."}
    top = rank_moves(board.line, budget, objective, card=card).moves[0]
    better = hint.best
    other = None if better is None else _move_json(better)
    instead = "" if better is None else f" Instead, {_move_words(better)}."
    if top.verdict == Verdict.WIN:
        spare = "" if top.spare is None else f" with {top.spare} card(s) to spare"
        said = _best_words(name, top.action, f"it keeps a win{spare}")
        if better is not None:
            said += f" The best move the hint found: {_move_words(better)}."
        return {**found, "verdict": Verdict.WIN, "best": _move_json(top.action), "better": other, "words": said}
    if top.verdict == Verdict.NO_WIN:
        said = f"Do not play {name} now: every move with it loses the win.{instead}"
        return {**found, "verdict": Verdict.NO_WIN, "better": other, "words": said}
    said = f"Whether a move with {name} keeps the win is unknown (the solves ran out of time).{instead}"
    return {**found, "better": other, "words": said}


def _no_move_words(card: Card) -> str:
    why = "no cell takes it" if isinstance(card, int) else "its rule does not allow it yet"
    return f"{card_name(card)} has no legal move now: {why}."


def _best_words(name: str, action: Action, what: str) -> str:
    return f"Best for your {name}: {_move_words(action)}, {what}."


def _move_words(action: Action) -> str:
    """``action`` as a player says it, its notation after it: play 24 at cell 13, paying 5 (24@13-5)."""
    cell, paid = getattr(action, "cell", None), getattr(action, "discard", ())
    kind = choice_of(action).kind
    if kind == ChoiceKind.DISCARD:
        said = f"discard {', '.join(map(card_name, paid))}"
    else:
        card = card_name(choice_of(action).card or "")
        said = f"play {card if kind == ChoiceKind.ISLAND else 'the ' + card}" + ("" if cell is None else f" at cell {cell}")
        said += f", paying {', '.join(map(card_name, paid))}" if paid else ""
    return f"{said} ({format_action(action)})"


# -- the fair hint at a table ----------------------------------------------------------------------


def fair_job(table: Table, card: Card | None) -> dict:
    """The fair hint's job for the person at ``table``: its seat's observation, memory and
    legal moves, the seed and the worlds per move, and the card asked about. Nothing else
    of the game goes to the process that plays it."""
    if table.start is not None:
        raise BoardError("the Start event waits for your share: there is no move to hint at")
    if not table.my_turn:
        now = "the game is over" if table.board.over else f"seat {table.board.state.seat} is to move"
        raise BoardError(f"the hint is for your turn: {now}")
    if table.board.state.must_play_start():
        raise BoardError("the Start is your only move (S): there is nothing to compare")
    seating = table.seating
    return {
        "observation": table.view,
        "memory": table.memory,
        "moves": [move.action for move in table.moves],
        "seed": seating.seed,
        "samples": seating.hint_samples,
        "card": card,
    }


def fair_hint(body: Mapping[str, Any]) -> dict:
    """The fair hint (``fair_job``'s body): every move played in the same worlds, ranked as
    ``FairHint`` ranks them (the most worlds won, then the most cells filled and cards to
    spare); the best, the first few, and for ``card`` its own best move against the best."""
    obs, samples, card = body["observation"], body["samples"], body["card"]
    played = fair_estimates(obs, body["memory"], body["moves"], body["seed"], samples)
    estimates = sorted(played, key=lambda e: (-e.wins, -e.rest))
    best = estimates[0]
    found: dict[str, Any] = {
        "samples": samples,
        "moves": len(estimates),
        "best": _estimate_json(best),
        "ranked": [_estimate_json(e) for e in estimates[:SHOWN_MOVES]],
        "words": [f"Hint: {_move_words(best.action)}: {_won(best)} dealt to fit what you have seen."],
        "card": None,
    }
    if card is not None:
        found["card"] = _fair_card(card, [e for e in estimates if _plays(e.action, card)], best)
        found["words"] = [found["card"]["words"]]
    return found


def _fair_card(card: Card, mine: list[MoveEstimate], best: MoveEstimate) -> dict:
    name = card_name(card)
    if not mine:
        return {
            "card": card,
            "best": None,
            "better": _estimate_json(best),
            "words": _no_move_words(card),
        }
    top = mine[0]
    said = _best_words(name, top.action, f"{_won(top)} dealt to fit what you have seen")
    better = None
    if top.wins == 0 and best.wins > 0:
        said = f"Do not play {name} now: it won no world at any cell. Instead, {_move_words(best.action)}: {_won(best)}."
        better = _estimate_json(best)
    elif best.wins > top.wins:
        said += f" Better: {_move_words(best.action)}, {_won(best)}."
        better = _estimate_json(best)
    return {"card": card, "best": _estimate_json(top), "better": better, "words": said}


def _won(estimate: MoveEstimate) -> str:
    return f"won in {estimate.wins} of {estimate.worlds} worlds"


def _estimate_json(estimate: MoveEstimate) -> dict:
    low, high = estimate.interval()
    return {
        **_move_json(estimate.action),
        "wins": estimate.wins,
        "worlds": estimate.worlds,
        "low": round(low, 3),
        "high": round(high, 3),
    }
