"""What the commands print: rich renderers of the library's values, one module per kind of
answer. Display only: no rule of the game is decided here."""
