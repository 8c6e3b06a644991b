"""The game session: scorekeeping entries, the journal that stores them, export, and the one
translation of a unit's showdown outcome into a session entry."""
