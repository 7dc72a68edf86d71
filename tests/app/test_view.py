"""One view of a game in play (``tranquility.app.view``): what the page is sent is the same
value the terminal board draws, a board's with the check's proofs, a table's with one seat's
cards alone; and a session's moves go through the engine."""

from __future__ import annotations

import json

import pytest
from tranquility.app.sessions import BoardSession, TableSession
from tranquility.app.view import board_view, table_view
from tranquility.solver.analysis.board import Board, BoardError, Proofs
from tranquility.solver.analysis.table import Seating
from tranquility.solver.engine.deal import deal
from tranquility.solver.engine.line import Line
from tranquility.solver.engine.rules import OFFICIAL
from tranquility.solver.formats.notation import parse_notation
from tranquility.solver.search.budget import Budget
from tranquility.solver.verdicts import Verdict

from ..helpers import SMALL

QUICK = Budget(seconds=2, greedy_playouts=100)


def small() -> Line:
    """Seed 1, one seat, a 2x3 grid (tests/cli/test_play.py's)."""
    return parse_notation(f"deal 1 1 {SMALL}\n")


def test_the_board_json_is_its_view_with_the_checks_proofs():
    start = Board.open(small())
    threw = start.play("5@4")  # proven lost by the complete search; the deal is a proven win
    proofs = Proofs().check(start, QUICK).check(threw, QUICK)
    view = board_view(threw, proofs)
    data = json.loads(json.dumps(view.to_json()))
    assert (view.thrown_at, view.last_winnable) == (1, 0) == (data["thrown_at"], data["last_winnable"])
    assert view.verdicts == {0: Verdict.WIN, 1: Verdict.NO_WIN} and data["verdicts"] == {"0": "win", "1": "no-win"}
    assert [(h["turn"], h["notation"], h["words"]) for h in data["history"]] == list(view.history) == list(threw.history())
    assert [m["notation"] for m in data["moves"]] == [m.token for m in view.moves] == [m.token for m in threw.moves]
    assert board_view(threw).thrown_at is None  # without the check's proofs, nothing is proven


def test_the_start_offers_its_suggested_payment_alone():
    board = Board.open(deal(OFFICIAL, 2, 1))
    while not any(m.choice.kind == "start" for m in board.moves):
        board = board.play_action(board.moves[0].action)
    start = next(m for m in board_view(board).to_json()["moves"] if m["kind"] == "start")
    suggested = next(m for m in board.moves if m.choice.kind == "start")
    assert start["options"] == [{"notation": suggested.token, "action": start["action"]}]


def test_a_table_view_shows_the_seats_own_hand_alone_until_the_game_is_over():
    table = Seating(1, "tuned").sit(Board.open(deal(OFFICIAL, 3, 2)))
    view = table_view(table)
    data = view.to_json()
    assert view.kind == "table" and data["seat"] == 1 and data["hand"] == list(table.view.hand)
    assert "hands" not in data and "line" not in data and "position" not in data
    assert [m.token for m in view.moves] == [m["notation"] for m in data["moves"]]


def test_a_board_session_plays_through_the_engine_and_keeps_the_proofs_it_learns():
    session = BoardSession(Board.open(small()))
    session.play("10@4")
    session.play(session.view().to_json()["moves"][0]["action"])  # an action object, as the page sends it
    assert session.view().turn == 2
    session.undo()
    assert session.view().turn == 1 and session.view().to_json()["can_redo"]
    with pytest.raises(BoardError, match="proven winnable"):
        session.back()
    session.learn(session.board.line, {"0": "win"})
    assert session.verdicts() == {"0": "win"}
    session.back()
    assert session.view().turn == 0


def test_a_table_session_refuses_a_move_for_another_seat():
    session = TableSession(Seating(0, "tuned").sit(Board.open(deal(OFFICIAL, 2, 1))))
    move = session.view().moves[0]
    with pytest.raises(BoardError, match="you play seat 0, not seat 1"):
        session.play({**json.loads(json.dumps(session.view().to_json()["moves"][0]["action"])), "seat": 1})
    session.play(move.token)
    assert session.view().turn >= 1
