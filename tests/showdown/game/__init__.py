"""Tests of showdown.game."""
