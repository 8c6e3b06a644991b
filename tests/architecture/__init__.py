"""Tests of how the packages fit together."""
