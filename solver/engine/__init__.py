"""The rules engine, pure Python: cards, rule sets, actions, deals and the seeded dealer,
the game state and its transitions (the one place where the rules of Tranquility live),
positions, lines of play and the replay verifier.

Layer 1, the bottom. May import: ``tranquility.solver.errors`` and ``verdicts`` only."""
