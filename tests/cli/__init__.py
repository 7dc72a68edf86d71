"""Tests of tranquility.cli: the commands, their output, progress and Ctrl-C, the play board, the HTML replay, the web boards."""
