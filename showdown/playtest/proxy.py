"""A TCP relay on the loopback that can cut a table off its broker: the demo's network partition.

Each table of ``showdown event demo`` reaches the broker through its own relay; :meth:`Relay.cut`
drops every open connection and refuses new ones for a while, as a Wi-Fi that is gone would,
while the table goes on playing and recording.
"""

from __future__ import annotations

import contextlib
import socket
import threading
import time

__all__ = ["Relay"]


class Relay:
    """Relays ``127.0.0.1:port`` to ``target`` until :meth:`close`."""

    def __init__(self, target: tuple[str, int]) -> None:
        self.target = target
        self._server = socket.create_server(("127.0.0.1", 0))
        self.port = int(self._server.getsockname()[1])
        self._lock = threading.Lock()
        self._open: list[socket.socket] = []
        self._cut_until = 0.0
        self._closed = False
        threading.Thread(target=self._accept, name=f"relay-{self.port}", daemon=True).start()

    def cut(self, seconds: float) -> None:
        """Drop every connection now and refuse new ones for ``seconds``."""
        with self._lock:
            self._cut_until = time.monotonic() + seconds
            dropped, self._open = self._open, []
        for sock in dropped:
            with contextlib.suppress(OSError):
                sock.shutdown(socket.SHUT_RDWR)
            sock.close()

    def close(self) -> None:
        self._closed = True
        self.cut(0)
        self._server.close()

    def _accept(self) -> None:
        while not self._closed:
            try:
                client, _address = self._server.accept()
            except OSError:
                return
            if time.monotonic() < self._cut_until:
                client.close()
                continue
            try:
                upstream = socket.create_connection(self.target, timeout=5)
            except OSError:
                client.close()
                continue
            upstream.settimeout(None)
            with self._lock:
                self._open += [client, upstream]
            for a, b in ((client, upstream), (upstream, client)):
                threading.Thread(target=self._pump, args=(a, b), daemon=True).start()

    @staticmethod
    def _pump(source: socket.socket, sink: socket.socket) -> None:
        try:
            while data := source.recv(65536):
                sink.sendall(data)
        except OSError:
            pass
        finally:
            for sock in (source, sink):
                with contextlib.suppress(OSError):
                    sock.shutdown(socket.SHUT_RDWR)
