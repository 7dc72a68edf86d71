"""Tests of solver.search: bounds, the greedy player and its baseline, the complete search,
the policies (simulate, lookahead, tuned)."""
