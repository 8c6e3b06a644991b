"""The event over MQTT: a table's outbox, the host's inbox and state, the brokers, discovery.

A layer above :mod:`showdown.game` (it reads and writes journals) and below the scoreboard and
the application. The contract is docs/event.md; the standings and seating it carries are
computed by :mod:`engine.tournament`.
"""
