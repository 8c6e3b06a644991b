"""The seeded Swiss evenings the benches play, built one way, so that `showdown bench seating`
and `showdown bench host` measure the same events."""

from __future__ import annotations

from engine.tournament import GameRecord, PlayerLine, TournamentFormat, TournamentSettings


def swiss_settings(players: int, rounds: int) -> TournamentSettings:
    """A Swiss event of ``players`` (P01, P02, ...) at tables of four, four hands a round."""
    names = tuple(f"P{i:02}" for i in range(1, players + 1))
    return TournamentSettings(TournamentFormat.SWISS, names,
                              tuple(f"t{i}" for i in range(1, players // 4 + 1)),
                              rounds=rounds, hands_per_round=4)


def game(table: str, number: int, players: tuple[str, ...], points: list[int], *,
         over: bool = True) -> GameRecord:
    """Round ``number``'s game at ``table``: each player's points, finished or in play."""
    return GameRecord(table, f"r{number}", 1, number,
                      tuple(PlayerLine(n, p, 0, 0, None) for n, p in zip(players, points,
                                                                           strict=True)),
                      hands=4 if over else 1, over=over)
