"""The application layer (``tranquility.app``): between the library and the front ends.

What a front end is asked, read once into the library's values: a request's fields, typed
and bounded (``fields``), the game it names (``source``), and each piece of work it asks
for with its budget and objective, answered in the library's JSON shapes (``work``). The
server (``tranquility serve``) parses, calls and renders through it; nothing here knows
HTTP or click."""
