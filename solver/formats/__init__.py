"""The file formats: the JSON codecs of deal and line files, the position's JSON and text
forms, the notation, the names and JSON of a rule set, and reading a game file in any form.

Layer 2. May import: the engine (and ``errors``, ``verdicts``)."""
