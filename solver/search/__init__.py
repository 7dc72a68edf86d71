"""Search over the engine's states: the bounds and refutations of a position, move
generation, the greedy player, the complete search, the silent-table policies, the lookahead
policy (a seat's memory and the worlds it samples) and the objectives a line is scored on.

Layer 3. May import: formats, the engine (and ``errors``, ``verdicts``)."""
