"""``tranquility serve``: the board as a web page (HTML and SVG, clicks) and a JSON API
whose answers are the CLI's ``--json`` (docs/web.md)."""
