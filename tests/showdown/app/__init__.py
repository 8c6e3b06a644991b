"""Tests of showdown.app."""
