"""Tests of solver.engine: the rules, the dealer and its PRNG, the state, positions, and the invariants of random play."""
