"""Tests of showdown.sim."""
