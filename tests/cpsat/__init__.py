"""Tests of solver.cpsat: the model against the engine and the complete search, objectives, binds, improve."""
