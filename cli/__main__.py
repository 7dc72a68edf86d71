"""``python -m tranquility.cli``: the program, as the ``tranquility`` command runs it."""

if __name__ == "__main__":
    from tranquility.cli.entry import main

    main()
