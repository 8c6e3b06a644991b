"""The phone page: a live page of the table and of the event, served by the Pi on the LAN.

A layer beside the scoreboard: both draw what the game and the event hold, and neither imports
the other. An ASGI app (Starlette) served by uvicorn in a process of its own, fed by the service
(:mod:`showdown.web.process`); the page follows the table by Server-Sent Events. Reading is open
to the LAN; the only writes (undo, edit a round) need the table's PIN (docs/web.md).
"""
