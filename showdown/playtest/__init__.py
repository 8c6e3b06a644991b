"""Simulation drivers above the unit and the game: the bot table, its referee, the duel driver and
the keyboard/panel unit of ``--interactive``."""
