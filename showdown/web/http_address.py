"""The ``[web]`` section of the configuration: where the phone page is served.

``showdown run --http`` and ``--no-http`` override it for one run. The built-in address (every
interface, port 8080) is given up quietly when it is taken; one written here or given on the
command line is not.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, field_validator

from showdown.web.server import DEFAULT_PORT, WebError, parse_address

__all__ = ["DEFAULT_HTTP", "WebSettings"]

DEFAULT_HTTP = f"0.0.0.0:{DEFAULT_PORT}"
"""Every interface: the phones are on the LAN."""


class WebSettings(BaseModel):
    """``[web]``: ``http = "HOST:PORT"``, ``enabled`` and ``trusted_proxies``."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    http: str = DEFAULT_HTTP
    """Where to serve the page (``HOST:PORT``; ``PORT`` alone means every interface)."""
    enabled: bool = True
    """False: no page (as ``--no-http``)."""
    trusted_proxies: tuple[str, ...] = ()
    """The reverse proxies (their addresses) whose ``X-Forwarded-For`` names the client; none
    by default, so a forwarded header is never believed (it would give a guesser fresh tries
    at the PIN)."""

    @field_validator("http")
    @classmethod
    def _address(cls, value: str) -> str:
        try:
            parse_address(value)
        except WebError as error:
            raise ValueError(str(error)) from None
        return value
