"""The ``tranquility`` program's entry point: Ctrl-C is taken in hand before anything
else is imported (cli/interrupts.py), then the command line runs."""

import sys

from tranquility.cli import interrupts

# A pool's worker process imports the program's script again, as ``__mp_main__``: it must
# keep what it inherited (Ctrl-C ignored, SIGTERM's default), so that only the program
# answers an interrupt, and the pool can stop a worker without a word from it.
if "__mp_main__" not in sys.modules:
    interrupts.install()


def main() -> None:
    from tranquility.cli.main import main as tranquility

    tranquility(prog_name="tranquility")
