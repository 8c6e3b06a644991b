"""The scoreboard's screens, one module each, registered here by name."""

from __future__ import annotations

from showdown.scoreboard.screens.base import Screen
from showdown.scoreboard.screens.chart import ChartScreen
from showdown.scoreboard.screens.choose import ChooseScreen
from showdown.scoreboard.screens.game_over import GameOverScreen
from showdown.scoreboard.screens.games import GamesScreen
from showdown.scoreboard.screens.history import HistoryScreen
from showdown.scoreboard.screens.join import JoinScreen
from showdown.scoreboard.screens.names import NamesScreen
from showdown.scoreboard.screens.penalty import PenaltyScreen
from showdown.scoreboard.screens.phones import PhonesScreen
from showdown.scoreboard.screens.players import PlayersScreen
from showdown.scoreboard.screens.round_end import RoundEndScreen
from showdown.scoreboard.screens.settings import SettingsScreen
from showdown.scoreboard.screens.setup import SetupScreen
from showdown.scoreboard.screens.showdown import ShowdownScreen
from showdown.scoreboard.screens.stats import StatsScreen
from showdown.scoreboard.screens.table import TableScreen
from showdown.scoreboard.screens.tournament import TournamentScreen

SCREENS: dict[str, type[Screen]] = {
    cls.name: cls
    for cls in (
        SetupScreen,
        ChooseScreen,
        NamesScreen,
        TableScreen,
        ShowdownScreen,
        RoundEndScreen,
        HistoryScreen,
        ChartScreen,
        StatsScreen,
        GameOverScreen,
        GamesScreen,
        SettingsScreen,
        PlayersScreen,
        PhonesScreen,
        PenaltyScreen,
        TournamentScreen,
        JoinScreen,
    )
}
"""Every screen class by its name (the name :meth:`Scoreboard.go` takes)."""
