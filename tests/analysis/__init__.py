"""Tests of solver.analysis: solve (the portfolio), explain and analyze, the fair analysis, the ranked moves."""
