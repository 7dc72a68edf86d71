"""The compiled core: the game as flat integer arrays and its hot loops compiled by numba.

``layout`` (the arrays, plain Python), ``kernel`` (the rules on them), ``silent`` (the silent
policies and whole games), ``games`` (the searches' entry points, taking and giving the
engine's values), ``twister`` (CPython's random generator on an array), ``greedy`` (the
greedy solver's seeded playouts, drawing from it), ``complete`` (the complete search),
``worlds`` (the lookahead's worlds, dealt from the same draws as the reference's) and
``warm`` (loading a module without stopping the caller, plain Python). The engine
(solver/engine) stays the reference, readable rule by rule; the core is held to it by parity
tests (tests/core/). Nothing here is imported until a caller that plays many games asks for
it, so that the quick commands never load numba.
"""
