"""The services built on the solvers: ``portfolio`` (``solve``: replay, refutations, greedy,
complete search, CP-SAT, and the objectives' improvement), ``explain`` (the best line, its
critical moves), ``analyze`` (where a played game lost the win) and the analysis board
behind ``tranquility play``.

Layer 5. May import: the CP-SAT side, search, formats, the engine (and ``errors``,
``verdicts``)."""
