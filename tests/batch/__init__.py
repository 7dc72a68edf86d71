"""Tests of solver.batch: the odds (store, runner, scheduler check) and the bench suites."""
