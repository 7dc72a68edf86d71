"""The ``tranquility`` program's entry point: Ctrl-C is taken in hand before anything
else is imported (cli/interrupts.py), then the command line runs."""

from tranquility.cli import interrupts

interrupts.install()


def main() -> None:
    from tranquility.cli.main import main as tranquility

    tranquility(prog_name="tranquility")
