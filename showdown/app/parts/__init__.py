"""The parts ``showdown run`` is put together from, one module each, so that the composition root
(:mod:`showdown.app.subcommands.run`) reads in a page.

- :mod:`~showdown.app.parts.shutdown`: the named phases every part is closed in, in one order;
- :mod:`~showdown.app.parts.table`: the table's record: the journal's lock, the journal, the
  session;
- :mod:`~showdown.app.parts.unit_source`: where the showdowns come from (the keyboard, the
  simulated unit with its virtual players, or the real unit) behind one type, with the one
  recorder of the unit's outcomes;
- :mod:`~showdown.app.parts.tournament_link`: the table's link to an event, joined at start or later
  from Set-up;
- :mod:`~showdown.app.parts.front_ends`: the scoreboard and the phone page.

What plays on the simulated table is the simulation layer's (:mod:`showdown.playtest.workers`), and
an event's membership the event layer's (:mod:`showdown.tournament.membership`).
"""
