"""Hypothesis strategies for every message of the catalogue, field ranges from its format."""

from __future__ import annotations

import dataclasses
import struct

from hypothesis import strategies as st

from firmware_bridge.messages import MESSAGE_TYPES, Message

_RANGES = {"B": 0xFF, "H": 0xFFFF, "I": 0xFFFFFFFF}


def message_of(cls: type[Message]) -> st.SearchStrategy[Message]:
    """Any valid instance of ``cls``."""
    codes = cls.FORMAT.lstrip("<")
    assert len(codes) == len(dataclasses.fields(cls))
    assert struct.calcsize(cls.FORMAT) >= 0
    return st.builds(cls, *(st.integers(0, _RANGES[code]) for code in codes))


any_message = st.one_of([message_of(cls) for cls in MESSAGE_TYPES.values()])
