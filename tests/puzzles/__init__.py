"""Tests of tranquility.puzzles: grading, generating and the shipped catalogue."""
