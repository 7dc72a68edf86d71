"""The package's version, read from its installed metadata on first use."""

from __future__ import annotations


def __getattr__(name: str) -> str:
    # Read only when asked: importing the metadata machinery costs start-up time that most
    # commands never need.
    if name == "__version__":
        from importlib.metadata import PackageNotFoundError, version

        try:
            return version("tranquility-solver")
        except PackageNotFoundError:  # a checkout that was never installed
            return "0+unknown"
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
