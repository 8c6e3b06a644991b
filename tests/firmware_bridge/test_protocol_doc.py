"""PROTOCOL.md is the contract: its worked examples and its constants are checked against code."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from firmware_bridge import protocol
from firmware_bridge.codec import Packet, body_of, decode_frame, encode_frame
from firmware_bridge.messages import MESSAGE_TYPES

DOC = (Path(__file__).parents[2] / "firmware_bridge" / "PROTOCOL.md").read_text()
NAMES = {cls.__name__: cls for cls in MESSAGE_TYPES.values()}


def _examples() -> list[tuple[str, str, str]]:
    blocks = re.findall(r"```frame\n(.*?)```", DOC, re.S)
    out = []
    for block in blocks:
        fields = dict(line.split(":", 1) for line in block.strip().splitlines())
        out.append((fields["message"].strip(), fields["body"].strip(), fields["wire"].strip()))
    return out


EXAMPLES = _examples()


def test_the_document_has_worked_examples() -> None:
    assert len(EXAMPLES) >= 5


@pytest.mark.parametrize(("text", "body", "wire"), EXAMPLES, ids=[e[0] for e in EXAMPLES])
def test_worked_example_bytes(text: str, body: str, wire: str) -> None:
    match = re.fullmatch(r"seq=(\d+) (.*)", text)
    assert match
    sequence, message = int(match[1]), eval(match[2], dict(NAMES))
    assert body_of(message, sequence).hex(" ") == body
    assert encode_frame(message, sequence).hex(" ") == wire
    decoded = decode_frame(bytes.fromhex(wire)[:-1])
    assert decoded == Packet(sequence, message)
    assert str(decoded) == text


def test_every_message_type_in_the_catalogue_matches_the_code() -> None:
    rows = re.findall(r"^\| `0x([0-9A-F]{2})` \| `(\w+)`[^|]*\| `([^`]*)` \|", DOC, re.M)
    assert len(rows) == len(MESSAGE_TYPES)
    for type_hex, name, fmt in rows:
        cls = MESSAGE_TYPES[int(type_hex, 16)]
        assert cls.__name__ == name or (name == "Ack" and cls.__name__ == "McuAck")
        assert (cls.FORMAT if fmt else "<") == (fmt or "<")


def test_every_constant_in_the_document_is_the_code_constant() -> None:
    pairs = re.findall(r"`([A-Z][A-Z_]+) = (0x[0-9A-Fa-f]+|\d+|\"[^\"]+\")`", DOC)
    assert len(pairs) >= 15
    for name, value in pairs:
        assert getattr(protocol, name) == eval(value), name
