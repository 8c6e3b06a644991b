"""Decode a capture of serial bytes into the protocol's text form, one frame a line.

``python -m firmware_bridge.dump capture.bin`` (or ``-`` for standard input, or ``--hex`` to read
hexadecimal text such as the examples of ``PROTOCOL.md``). Bad frames are listed with why they were
dropped; nothing else stops the dump.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from firmware_bridge.codec import DecodeError, FrameDecoder

__all__ = ["dump", "main"]


def dump(data: bytes) -> list[str]:
    """One line per frame: ``seq=5 Fire(direction=2, pulse_ms=250)`` or ``bad frame: ...``."""
    lines = []
    for item in FrameDecoder().feed(data):
        lines.append(f"bad frame: {item}" if isinstance(item, DecodeError) else str(item))
    return lines


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of ``python -m firmware_bridge.dump``."""
    parser = argparse.ArgumentParser(prog="python -m firmware_bridge.dump", description=__doc__)
    parser.add_argument("capture", help="a file of raw serial bytes, or - for standard input")
    parser.add_argument("--hex", action="store_true", help="the capture is hexadecimal text")
    args = parser.parse_args(argv)
    try:
        if args.capture == "-":
            raw = sys.stdin.buffer.read()
        else:
            with open(args.capture, "rb") as handle:
                raw = handle.read()
        data = bytes.fromhex(raw.decode("ascii")) if args.hex else raw
    except (OSError, ValueError, UnicodeDecodeError) as exc:
        print(f"firmware_bridge.dump: error: {exc}", file=sys.stderr)
        return 2
    for line in dump(data):
        print(line)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
