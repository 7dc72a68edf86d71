"""Batch work over many deals: the odds (a SQLite store, its statistics, a resumable runner
over a process pool or a Dask cluster, the figure) and the benchmark suites.

Layer 6, the top of the library. May import: every layer below."""
