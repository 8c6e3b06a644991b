"""The dump tool prints the protocol's one text form, and names bad frames instead of failing."""

from __future__ import annotations

from pathlib import Path

import pytest

from firmware_bridge.codec import encode_frame
from firmware_bridge.dump import dump, main
from firmware_bridge.messages import Fire, Heartbeat


def test_dump_prints_each_frame_and_each_bad_one() -> None:
    data = encode_frame(Fire(2, 250), 5) + b"\x05junk\x00" + encode_frame(Heartbeat(7))
    lines = dump(data)
    assert lines[0] == "seq=5 Fire(direction=2, pulse_ms=250)"
    assert lines[1].startswith("bad frame: ")
    assert lines[2] == "seq=0 Heartbeat(token=7)"


def test_dump_reads_the_hex_of_the_protocol_document(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    capture = tmp_path / "capture.hex"
    capture.write_text("05 16 05 02 fa 03 f6 fc 00\n")
    assert main([str(capture), "--hex"]) == 0
    assert capsys.readouterr().out == "seq=5 Fire(direction=2, pulse_ms=250)\n"


def test_dump_of_a_missing_file_is_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["/nonexistent/capture.bin"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("firmware_bridge.dump: error:") and err.count("\n") == 1
