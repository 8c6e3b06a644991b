"""The screenshots in docs/: the scoreboard's screens and the event screen, drawn with the pinned
font and compared pixel for pixel by the tests, and the phone page's, taken by headless Chromium
and looked at (``make screenshots``, ``make web-screenshots``)."""
