"""Hypothesis strategies for every message of the catalogue, field ranges from its format."""

from __future__ import annotations

import dataclasses
import struct

from hypothesis import strategies as st

from firmware_bridge.messages import MESSAGE_TYPES, Message

_RANGES = {"B": 0xFF, "H": 0xFFFF, "I": 0xFFFFFFFF}


def message_of(cls: type[Message]) -> st.SearchStrategy[Message]:
    """Any valid instance of ``cls``: each field within its ``RANGES``, else its format's."""
    codes = cls.FORMAT.lstrip("<")
    fields = dataclasses.fields(cls)
    assert len(codes) == len(fields)
    assert struct.calcsize(cls.FORMAT) >= 0
    return st.builds(cls, *(st.integers(*cls.RANGES.get(field.name, (0, _RANGES[code])))
                            for field, code in zip(fields, codes, strict=True)))


@st.composite
def out_of_range(draw: st.DrawFn, cls: type[Message]) -> Message:
    """An instance of ``cls`` (one with ``RANGES``) with one field outside its range."""
    message = draw(message_of(cls))
    name = draw(st.sampled_from(sorted(cls.RANGES)))
    low, high = cls.RANGES[name]
    code = cls.FORMAT.lstrip("<")[[f.name for f in dataclasses.fields(cls)].index(name)]
    below = st.integers(0, low - 1) if low else st.nothing()
    above = st.integers(high + 1, _RANGES[code]) if high < _RANGES[code] else st.nothing()
    return dataclasses.replace(message, **{name: draw(below | above)})


any_message = st.one_of([message_of(cls) for cls in MESSAGE_TYPES.values()])
