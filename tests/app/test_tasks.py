"""The long work's settings read once for the command and the server (``tranquility.app.tasks``):
the same flags and the same request fields give the same budget."""

from __future__ import annotations

from tranquility.app import work
from tranquility.app.tasks import budget_of, explain_split
from tranquility.cli.options import Limits
from tranquility.solver.search.budget import Budget
from tranquility.solver.verdicts import Proof


def test_a_commands_limits_and_a_requests_fields_make_the_same_budget():
    assert Limits(7.0, 1, False).budget() == work.request_budget({"time_limit": 7}, "solve") == Budget(seconds=7, workers=1)
    assert Limits(None, 1, True).budget() == work.request_budget({"reproducible": True}, "solve")
    assert budget_of(None, 3, True).workers == 1  # fixed budgets run on one thread


def test_a_budget_keeps_its_base_and_takes_the_proof_asked():
    base = Budget(seconds=5, search_nodes=123)
    assert budget_of(None, 2, False, base) == base  # no clock given: the base's own
    given = budget_of(9, 2, False, base, Proof.WHOLE)
    assert (given.seconds, given.workers, given.search_nodes, given.proof) == (9, 2, 123, Proof.WHOLE)


def test_an_explanation_splits_its_seconds_a_third_to_the_critical_checks():
    assert explain_split(30) == (20, 10)
    assert explain_split(30, 5) == (25, 5)
    assert explain_split(None) == (None, 30.0)  # reproducible: no total
