"""Tests of solver.formats: deal, line and position files, the notation, reading any game file."""
