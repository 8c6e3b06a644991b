"""Built-in deck definitions as data files: ``classic``, ``modern``, ``swap``, ``showdown``.

Each ``NAME.json`` holds ``{"name", "description", "cards": [{"code", "count"}, ...]}``; see
:mod:`engine.deck` for the format and :mod:`engine.cards` for the card codes.
"""
