"""A real X server (Debian's ``Xvfb``) and a real pointer and keyboard (``xdotool``) on
``showdown scoreboard``: the rig of the tests that use the screen as people do.

The scoreboard runs in a process of its own on its own display, with SDL on X11, and writes what
each changed frame shows to its trace file (:mod:`showdown.scoreboard.trace`): the rig reads
where each control is and what the screen says there, never the pixels. A tap is a click of the
X server's pointer at the control's centre; typing goes through the X keyboard, as a USB
keyboard's would. Characters the keyboard map lacks (Japanese, Chinese) are put on spare
keycodes with ``xmodmap`` first, each name's own: ``xdotool type`` maps them for a moment
only, and the scoreboard reads a key after xdotool has taken its mapping back.

Waiting is for what the screen shows, read again until it is there or a deadline passes: the
scoreboard's frames come when they come, on another process's clock.
"""

from __future__ import annotations

import json
import os
import select
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

TOOLS = {"Xvfb": "xvfb", "xdotool": "xdotool", "xmodmap": "x11-xserver-utils"}
"""The programs the rig runs, and the Debian package of each."""

Frame = dict[str, Any]
"""One frame as the trace describes it."""
Widget = dict[str, Any]


def why_not() -> str | None:
    """Why the tests on a real X server cannot run here (None: they can)."""
    missing = [tool for tool in TOOLS if shutil.which(tool) is None
               and not Path("/usr/bin", tool).exists()]
    if not missing:
        return None
    packages = " ".join(sorted({TOOLS[tool] for tool in missing}))
    return (f"no {', '.join(missing)}: install Debian's {packages} "
            f"(apt-get install -y {packages}) to run the tests on a real X server")


def _tool(name: str) -> str:
    return shutil.which(name) or str(Path("/usr/bin", name))


@contextmanager
def xvfb(timeout_s: float = 30.0) -> Iterator[str]:
    """An X server of its own on a free display number (``-displayfd``); its ``DISPLAY``."""
    read, write = os.pipe()
    process = subprocess.Popen(
        [_tool("Xvfb"), "-displayfd", str(write), "-screen", "0", "1024x768x24",
         "-nolisten", "tcp"],
        pass_fds=(write,), stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    os.close(write)
    try:
        number = b""
        deadline = time.monotonic() + timeout_s
        while not number.endswith(b"\n"):
            ready, _, _ = select.select([read], [], [], max(0.0, deadline - time.monotonic()))
            chunk = os.read(read, 16) if ready else b""
            if not chunk:
                process.kill()
                _, err = process.communicate()
                raise AssertionError(f"Xvfb did not start: {err.decode(errors='replace')}")
            number += chunk
        yield f":{int(number)}"
    finally:
        os.close(read)
        if process.poll() is None:
            process.terminate()
        process.wait(30)
        if process.stderr is not None:
            process.stderr.close()


class Scoreboard:
    """``showdown scoreboard --db DB`` on ``display``, driven by pointer and keyboard."""

    def __init__(self, display: str, db: Path, trace: Path) -> None:
        self.display = display
        self.db = db
        self.trace = trace
        self.process: subprocess.Popen[str] | None = None
        self.last: Frame = {}
        self._log = trace.with_suffix(".log")
        self.taps = 0

    @property
    def env(self) -> dict[str, str]:
        """The environment of the scoreboard and the X tools: this display, SDL on X11, a
        UTF-8 locale (X11 hands SDL the characters typed through it), the trace."""
        return {**os.environ, "DISPLAY": self.display, "SDL_VIDEODRIVER": "x11",
                "SDL_AUDIODRIVER": "dummy", "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8",
                "SHOWDOWN_UI_TRACE": str(self.trace), "PYTHONUNBUFFERED": "1"}

    def start(self, timeout_s: float = 60.0) -> Frame:
        """Start it and wait for its first frame."""
        with self._log.open("w") as log:
            self.process = subprocess.Popen(
                [sys.executable, "-m", "showdown", "scoreboard", "--db", str(self.db)],
                env=self.env, stdout=log, stderr=subprocess.STDOUT, text=True)
        return self.wait(lambda frame: True, "the first frame", timeout_s)

    def stop(self) -> int:
        """Esc on its window (the loop ends, the journal closes), else SIGTERM; its exit
        status."""
        assert self.process is not None
        if self.process.poll() is None and self.last.get("window"):
            self.key("Escape")
        try:
            return self.process.wait(20)
        except subprocess.TimeoutExpired:
            self.process.send_signal(signal.SIGTERM)
            return self.process.wait(20)

    def output(self) -> str:
        """What the process printed."""
        return self._log.read_text(errors="replace") if self._log.exists() else ""

    # -- what the screen shows ---------------------------------------------------------------

    def _read(self) -> Frame | None:
        try:
            found: Frame = json.loads(self.trace.read_text(encoding="utf-8"))
        except (FileNotFoundError, json.JSONDecodeError):
            return None
        return found

    def wait(self, shows: Callable[[Frame], bool], what: str, timeout_s: float = 20.0,
             *, after: int = -1) -> Frame:
        """The first frame (numbered above ``after``) for which ``shows`` is true, read again
        until it comes; fails saying ``what`` was awaited and what the screen showed."""
        deadline = time.monotonic() + timeout_s
        while True:
            frame = self._read()
            if frame is not None:
                self.last = frame
                if frame["frame"] > after and shows(frame):
                    return frame
            if self.process is not None and self.process.poll() is not None:
                raise AssertionError(f"the scoreboard ended waiting for {what}:\n{self.output()}")
            if time.monotonic() > deadline:
                raise AssertionError(
                    f"the screen never showed {what}; it shows {describe(self.last)}")
            time.sleep(0.01)  # the other process's frames: look again soon

    def widget(self, widget_id: str, frame: Frame | None = None) -> Widget:
        """A widget of the frame (default: the last seen), by id."""
        for found in (frame or self.last)["widgets"]:
            if found["id"] == widget_id:
                return found  # type: ignore[no-any-return]
        raise AssertionError(f"no widget {widget_id!r} on {describe(frame or self.last)}")

    def text(self, widget_id: str) -> str:
        """What a widget of the last frame says."""
        return str(self.widget(widget_id)["text"])

    # -- pointer and keyboard ----------------------------------------------------------------

    def tap(self, widget_id: str, then: Callable[[Frame], bool] | None = None,
            what: str = "", *, changes: bool = True) -> Frame:
        """Click a control at its centre with the X pointer, once it is on screen and can be
        tapped; then wait for the next frame (and for ``then``, if given). ``changes=False``: the
        tap may change nothing on screen (a row chosen already), so no frame is awaited; the
        next click still comes after it, in the X server's order."""
        target = self.wait(lambda frame: any(w["id"] == widget_id and w["tappable"]
                                             for w in frame["widgets"]),
                           f"a control {widget_id!r} to tap")
        box = self.widget(widget_id, target)
        x, y, width, height = box["rect"]
        self._xdotool("mousemove", "--window", str(target["window"]), str(x + width // 2),
                      str(y + height // 2), "click", "1")
        self.taps += 1
        if not changes:
            return target
        return self.wait(then or (lambda frame: True),
                         what or f"the frame after a tap on {widget_id!r}",
                         after=target["frame"])

    def tap_text(self, text: str, then: Callable[[Frame], bool] | None = None, *,
                 changes: bool = True) -> Frame:
        """Click the control whose words contain ``text`` (see :meth:`tap`)."""
        frame = self.wait(lambda f: any(text in w["text"] and w["tappable"]
                                        for w in f["widgets"]), f"a control saying {text!r}")
        found = next(w for w in frame["widgets"] if text in w["text"] and w["tappable"])
        return self.tap(found["id"], then, changes=changes)

    def type(self, text: str) -> None:
        """Type on the X keyboard (a USB keyboard's way): characters the keyboard map lacks are
        put on spare keycodes first."""
        window = str(self.last["window"])
        self._xdotool("mousemove", "--window", window, "1", "1")  # the keyboard follows it
        if text.isascii():
            self._xdotool("type", "--delay", "15", text)
            return
        symbols = [f"U{ord(char):04X}" for char in dict.fromkeys(text)]
        spare = self._spare_keycodes()
        if len(symbols) > len(spare):
            raise AssertionError(f"{len(symbols)} characters, {len(spare)} spare keycodes")
        subprocess.run([_tool("xmodmap"), *(arg for code, symbol in zip(spare, symbols,
                                                                       strict=False)
                                            for arg in ("-e", f"keycode {code} = {symbol}"))],
                       env=self.env, check=True, timeout=20)
        self._xdotool("key", "--delay", "15", *(f"U{ord(char):04X}" for char in text))

    def key(self, name: str) -> None:
        """Press and release a key by its X name (``Return``)."""
        self._xdotool("mousemove", "--window", str(self.last["window"]), "1", "1", "key", name)

    def _spare_keycodes(self) -> list[int]:
        """Keycodes with nothing on them in the X server's keyboard map (a few the rig maps
        itself are reused)."""
        shown = subprocess.run([_tool("xmodmap"), "-pke"], env=self.env, check=True, timeout=20,
                               capture_output=True, text=True).stdout
        spare = []
        for line in shown.splitlines():
            code, _, symbols = line.partition("=")
            if not symbols.split() or symbols.split()[0].startswith("U"):
                spare.append(int(code.split()[1]))
        return spare

    def _xdotool(self, *args: str) -> None:
        subprocess.run([_tool("xdotool"), *args], env=self.env, check=True, timeout=20)


def describe(frame: Frame) -> str:
    """A frame in a line or two: its screen, banner and the words of its widgets."""
    if not frame:
        return "nothing yet"
    texts = [f"{w['id']}={w['text']!r}" for w in frame["widgets"] if w["text"]]
    return (f"frame {frame['frame']} of {frame['screen']!r} ({frame['language']}), banner "
            f"{frame['banner']}: {', '.join(texts)}")
