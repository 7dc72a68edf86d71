"""``tranquility play``: the board in the terminal (``app``), its command table (``commands``),
its widgets and screens, the table with bots (``table``), the boards it opens (``opening``) and
what it says (``words``)."""
