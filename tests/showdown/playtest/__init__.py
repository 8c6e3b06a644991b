"""Tests of showdown.playtest."""
