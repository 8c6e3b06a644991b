"""Join codes, per-table secrets, Mosquitto's password hashes and the entries' signatures.

Secrets come from :mod:`secrets`; a password is stored only as Mosquitto's ``$7$`` hash
(PBKDF2-SHA512, a 12-byte salt: what ``mosquitto_passwd`` writes), which both brokers check
(Mosquitto itself, and the embedded broker's plugin in :mod:`showdown.tournament.embedded_broker`).
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets
from dataclasses import dataclass

from pydantic import SecretStr

__all__ = [
    "CODE_ALPHABET",
    "JoinCode",
    "check_password",
    "hash_password",
    "new_secret",
    "sign",
    "verify",
]

CODE_ALPHABET = "23456789ABCDEFGHJKLMNPQRSTUVWXYZ"
"""Letters and digits without look-alikes (no 0/O, 1/I/L): a code read off a screen across a
room is typed right."""

CODE_LENGTH = 8
HASH_ITERATIONS = 1000
"""PBKDF2 rounds of a stored password (Mosquitto's own tool uses 101; the passwords here are
random, so the rounds guard against nothing a longer secret would not)."""


def new_secret() -> SecretStr:
    """A random password or signing key: 32 URL-safe characters (192 bits)."""
    return SecretStr(secrets.token_urlsafe(24))


@dataclass(frozen=True)
class JoinCode:
    """A join code and when it stops being accepted (seconds since the epoch)."""

    code: SecretStr
    expires: float

    @classmethod
    def new(cls, now: float, minutes: float) -> JoinCode:
        code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
        return cls(SecretStr(code), now + minutes * 60)

    def accepts(self, offered: str, now: float) -> bool:
        """Whether ``offered`` is this code (any case, dashes and spaces ignored) and unexpired."""
        typed = offered.upper().replace("-", "").replace(" ", "")
        return now < self.expires and hmac.compare_digest(
            typed.encode(), self.code.get_secret_value().encode())


def hash_password(password: str, *, salt: bytes | None = None,
                  iterations: int = HASH_ITERATIONS) -> str:
    """Mosquitto's ``$7$`` hash of ``password``."""
    salt = salt if salt is not None else secrets.token_bytes(12)
    digest = hashlib.pbkdf2_hmac("sha512", password.encode(), salt, iterations)
    return (f"$7${iterations}${base64.b64encode(salt).decode()}$"
            f"{base64.b64encode(digest).decode()}")


def check_password(password: str, stored: str) -> bool:
    """Whether ``password`` matches a ``$7$`` hash (False for anything else)."""
    parts = stored.split("$")
    if len(parts) != 5 or parts[1] != "7":
        return False
    try:
        iterations = int(parts[2])
        salt, expected = base64.b64decode(parts[3]), base64.b64decode(parts[4])
    except ValueError:
        return False
    if not 1 <= iterations <= 1_000_000:
        return False
    digest = hashlib.pbkdf2_hmac("sha512", password.encode(), salt, iterations)
    return hmac.compare_digest(digest, expected)


def sign(key: SecretStr, data: bytes) -> str:
    """HMAC-SHA256 of ``data`` with ``key``, hex."""
    return hmac.new(key.get_secret_value().encode(), data, hashlib.sha256).hexdigest()


def verify(key: SecretStr, data: bytes, mac: str) -> bool:
    """Whether ``mac`` is ``data``'s signature with ``key``."""
    return hmac.compare_digest(sign(key, data), mac)
