"""``python -m tranquility.cli``: the program, as the ``tranquility`` command runs it."""

from tranquility.cli.entry import main

main()
