"""The CP-SAT side: the model of the game (docs/model.md), running it (``run_model``) and
crossing between its answer and the engine, the restricted-horizon ladder, what binds a
position, and the improving search (large neighbourhoods).

Layer 4. May import: search, formats, the engine (and ``errors``, ``verdicts``). The model
encodes the rules on its own; the engine checks every line it returns."""
