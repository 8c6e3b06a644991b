"""Finding an event on the LAN by mDNS (python-zeroconf), and announcing one.

The host registers ``_showdown-event._tcp.local.`` with its broker's port and, in the TXT
record, the event's id and name; ``showdown run --event CODE`` (no ``@HOST``) browses for it.
Where multicast does not reach (another subnet, a guest Wi-Fi), the address is typed instead.
"""

from __future__ import annotations

import socket
import threading
from dataclasses import dataclass

from zeroconf import IPVersion, ServiceBrowser, ServiceInfo, ServiceStateChange, Zeroconf

__all__ = ["SERVICE", "Announcement", "Found", "find"]

SERVICE = "_showdown-event._tcp.local."


@dataclass(frozen=True)
class Found:
    """An event found on the LAN."""

    event: str
    name: str
    host: str
    port: int


class Announcement:
    """The host's mDNS record, registered until :meth:`close`."""

    def __init__(self, event: str, name: str, address: str, port: int,
                 interfaces: list[str] | None = None) -> None:
        self.zeroconf = Zeroconf(interfaces=interfaces or ["0.0.0.0"],
                                 ip_version=IPVersion.V4Only)
        self.info = ServiceInfo(
            SERVICE, f"showdown-{event}.{SERVICE}", addresses=[socket.inet_aton(address)],
            port=port, properties={"event": event, "name": name[:60]},
            server=f"showdown-{event}.local.")
        self.zeroconf.register_service(self.info)

    def close(self) -> None:
        self.zeroconf.unregister_service(self.info)
        self.zeroconf.close()


def find(timeout_s: float = 5.0, interfaces: list[str] | None = None) -> list[Found]:
    """The events announced on the LAN within ``timeout_s``."""
    zeroconf = Zeroconf(interfaces=interfaces or ["0.0.0.0"],
                        ip_version=IPVersion.V4Only)
    names: list[str] = []
    seen = threading.Event()

    def changed(zeroconf: Zeroconf, service_type: str, name: str,
                state_change: ServiceStateChange) -> None:
        if state_change is ServiceStateChange.Added:
            names.append(name)
            seen.set()

    browser = ServiceBrowser(zeroconf, SERVICE, handlers=[changed])
    try:
        seen.wait(timeout_s)
        found = []
        for name in list(names):
            info = zeroconf.get_service_info(SERVICE, name, timeout=int(timeout_s * 1000))
            if info is None or not info.parsed_addresses():
                continue
            props = {k.decode(): (v or b"").decode() for k, v in info.properties.items()}
            found.append(Found(props.get("event", ""), props.get("name", ""),
                               info.parsed_addresses()[0], int(info.port or 0)))
        return found
    finally:
        browser.cancel()
        zeroconf.close()
