"""Tests of showdown.unit."""
