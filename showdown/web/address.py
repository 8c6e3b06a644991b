"""The page's address as a phone should type it (or scan it from the scoreboard's QR code).

Where the Pi answers to ``<hostname>.local`` by mDNS (avahi-daemon is running, as on Raspberry
Pi OS), that name is used: it survives the router handing out another address. Elsewhere the
first LAN address of the machine. An address the service was told to bind is used as it is.
"""

from __future__ import annotations

import fcntl
import ipaddress
import socket
import struct
from collections.abc import Callable
from pathlib import Path

__all__ = ["AVAHI_SOCKET", "lan_addresses", "page_url"]

AVAHI_SOCKET = Path("/run/avahi-daemon/socket")
"""Present while avahi-daemon runs: then ``<hostname>.local`` resolves on the LAN."""

_SIOCGIFADDR = 0x8915


def lan_addresses() -> list[str]:
    """This machine's IPv4 addresses other than loopback, interface by interface (Linux)."""
    found = []
    for _index, name in socket.if_nameindex():
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            try:
                packed = fcntl.ioctl(probe.fileno(), _SIOCGIFADDR,
                                     struct.pack("256s", name.encode()[:15]))
            except OSError:  # no IPv4 address on this interface
                continue
        address = socket.inet_ntoa(packed[20:24])
        if not ipaddress.ip_address(address).is_loopback:
            found.append(address)
    return found


def page_url(host: str, port: int, *, mdns: Callable[[], bool] = AVAHI_SOCKET.exists,
             hostname: Callable[[], str] = socket.gethostname,
             addresses: Callable[[], list[str]] = lan_addresses) -> str:
    """The URL a phone on the LAN opens for a page bound to ``host``:``port``."""
    where = host
    if host in ("0.0.0.0", "::", ""):
        name = hostname().split(".")[0]
        if mdns() and name:
            where = f"{name}.local"
        else:
            found = addresses()
            where = found[0] if found else name or "localhost"
    if ":" in where:
        where = f"[{where}]"
    return f"http://{where}/" if port == 80 else f"http://{where}:{port}/"
