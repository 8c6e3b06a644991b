"""Mosquitto's ACL file, read: who may publish and subscribe where.

The embedded broker's topic plugin (:mod:`showdown.tournament.embedded_broker`) checks every publish
and subscription against the same file Mosquitto reads, with Mosquitto's rules: ``user``
sections of ``topic [read|write|readwrite] FILTER`` lines, and ``pattern`` lines for every user
with ``%u`` (the user name) and ``%c`` (the client id) filled in. A subscription is allowed only
inside a filter the user may read (a ``+`` in it only where the ACL has a ``+`` or ``#``), so no
wildcard reaches another client's topic.
"""

from __future__ import annotations

from dataclasses import dataclass, field

__all__ = ["Acl", "covers", "matches", "parse_acl"]


def matches(filter_: str, topic: str) -> bool:
    """Whether ``topic`` (no wildcards) matches the topic filter ``filter_``."""
    want, have = filter_.split("/"), topic.split("/")
    for index, part in enumerate(want):
        if part == "#":
            return True
        if index >= len(have) or (part != "+" and part != have[index]):
            return False
    return len(want) == len(have)


def covers(acl: str, subscription: str) -> bool:
    """Whether every topic ``subscription`` can match is inside the ACL filter ``acl``."""
    want, have = acl.split("/"), subscription.split("/")
    for index, part in enumerate(want):
        if part == "#":
            return True
        if index >= len(have) or have[index] == "#":
            return False
        if part != "+" and part != have[index]:
            return False
    return len(want) == len(have)


@dataclass
class Acl:
    """The parsed file: each user's (access, filter) lines and the patterns for everyone."""

    users: dict[str, list[tuple[str, str]]] = field(default_factory=dict)
    patterns: list[tuple[str, str]] = field(default_factory=list)

    def _rules(self, user: str, client: str) -> list[tuple[str, str]]:
        filled = [(access, f.replace("%u", user).replace("%c", client))
                  for access, f in self.patterns]
        return self.users.get(user, []) + filled

    def may_publish(self, user: str, client: str, topic: str) -> bool:
        return any(access in ("write", "readwrite") and matches(f, topic)
                   for access, f in self._rules(user, client))

    def may_subscribe(self, user: str, client: str, subscription: str) -> bool:
        return any(access in ("read", "readwrite") and covers(f, subscription)
                   for access, f in self._rules(user, client))

    def may_receive(self, user: str, client: str, topic: str) -> bool:
        return any(access in ("read", "readwrite") and matches(f, topic)
                   for access, f in self._rules(user, client))


def parse_acl(text: str) -> Acl:
    """Read an ACL file; lines it does not understand deny nothing and allow nothing."""
    acl = Acl()
    user: str | None = None
    for raw in text.splitlines():
        words = raw.split()
        if not words or words[0].startswith("#"):
            continue
        if words[0] == "user" and len(words) == 2:
            user = words[1]
            acl.users.setdefault(user, [])
        elif words[0] in ("topic", "pattern") and len(words) in (2, 3):
            access, filter_ = ("readwrite", words[1]) if len(words) == 2 else (words[1], words[2])
            if access not in ("read", "write", "readwrite"):
                continue
            if words[0] == "pattern":
                acl.patterns.append((access, filter_))
            elif user is not None:
                acl.users[user].append((access, filter_))
    return acl
