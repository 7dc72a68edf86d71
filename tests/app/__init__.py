"""Tests of tranquility.app: a request's fields, the game it names, the work it asks for."""
