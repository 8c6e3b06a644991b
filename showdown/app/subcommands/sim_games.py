"""``showdown sim games``: complete games of UNO Showdown at simulated tables.

Bots play by the engine's rules. Each seat has its own virtual player whose reaction speed stays
the same from game to game, as a person's would, so the fastest hands win most showdowns (and,
taking fewer cards, most games). Every showdown runs on the simulated unit through the real state
machine (virtual players, cards landing on the count lines) and every entry goes through the real
session into a journal in a temporary SQLite file (or ``--db``). At the end every game is read
back from the journal and checked: it ended, it has winners, the file passes its integrity check.
"""

from __future__ import annotations

import argparse
import json
import logging
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

from engine.rules import PRESETS, preset
from engine.scoring import ScoringSettings
from showdown.app.arguments import GAMES_MAX, TARGET_MAX, int_in_range, seed
from showdown.app.config import load_settings
from showdown.app.errors import UserError
from showdown.game.journal import Journal, JournalError, check_file, check_writable
from showdown.game.lock import JournalLock
from showdown.game.session import Session, SessionError, fold
from showdown.game.storage import journal_argument
from showdown.playtest.bot_table import NAMES, BotTable, TableError
from showdown.playtest.referee import SimulatedReferee, check_timings
from showdown.unit.config import UnitSettings

NAME = "games"
GROUP = "sim"
HELP = "play complete games at simulated tables (bots, the simulated unit, the real session)"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Options of ``showdown sim games``."""
    parser.add_argument("--count", type=int_in_range(1, GAMES_MAX), default=10,
                        help=f"games to play, 1-{GAMES_MAX} (default 10)")
    parser.add_argument("--players", type=int_in_range(2, 10), default=4,
                        help="players per table, 2-10")
    parser.add_argument("--seed", type=seed, default=1, help="seed for shuffles, bots and players")
    parser.add_argument(
        "--preset", default="showdown", help=f"rules: {', '.join(PRESETS)} (default showdown)"
    )
    parser.add_argument("--target", type=int_in_range(1, TARGET_MAX),
                        help=f"target score, 1-{TARGET_MAX} (default: the preset's, 500)")
    parser.add_argument("--db", type=journal_argument,
                        help="keep the journal here (default: a temporary file)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")


def play(
    db: Path, *, count: int, players: int, seed: int, preset_name: str, target: int | None,
    settings: UnitSettings | None = None,
) -> dict[str, Any]:
    """Play *count* games into the journal at *db* on a unit with *settings* (default: the
    defaults); the figures as a JSON-ready dict."""
    rules = preset(preset_name)
    scoring = ScoringSettings(target=target or rules.target_score)
    started = time.perf_counter()
    unit = SimulatedReferee(settings, seed=seed, fast=True)
    try:
        with JournalLock.acquire(db), Journal.open(db, writable=True) as journal:
            session = Session(journal)
            table = BotTable(
                session, unit, seed=seed, players=players, preset_name=preset_name,
                scoring=scoring,
            )
            for number in range(count):
                table.play_game(game_number=number)
    finally:
        unit.close()
    seconds = time.perf_counter() - started
    rounds = showdowns = reached = 0
    winners: Counter[int] = Counter()
    wins_by_name: Counter[str] = Counter()
    with Journal.open(db, read_only=True) as journal:
        integrity = journal.integrity_check()
        games = journal.games()
        for row in games:
            state = fold(row.id, journal.entries(row.id))
            if state is None or not state.is_over:
                continue
            reached += 1
            rounds += len(state.rounds)
            showdowns += len(state.showdowns)
            for name in state.winners:
                winners[state.players.index(name)] += 1
                wins_by_name[name] += 1
    tally = unit.tally
    return {
        "games": len(games),
        "games_reaching_target": reached,
        "target": scoring.target,
        "players": players,
        "preset": preset_name,
        "seed": seed,
        "rounds": rounds,
        "showdowns": showdowns,
        "false_starts": tally.false_starts,
        "side_count_decisions": tally.side_counts,
        "replays": tally.replays,
        "timeouts": tally.timeouts,
        "possible_jams": tally.possible_jams,
        "seconds": round(seconds, 3),
        "winners_by_seat": {str(seat): winners.get(seat, 0) for seat in range(players)},
        "mean_reaction_ms_by_seat": {
            str(seat): round(unit.player(name).reaction_mean_ms, 1)
            for seat, name in enumerate(NAMES[:players])
        },
        "integrity_check": integrity,
    }


def run(args: argparse.Namespace) -> int:
    """Play, check, print."""
    # The unit's warnings (a possible jam, ...) are counted in the figures; do not print each.
    logging.basicConfig(level=logging.ERROR)
    if not 2 <= args.players <= 10:
        raise UserError(f"--players must be 2-10, not {args.players}")
    if args.preset not in PRESETS:
        raise UserError(f"unknown preset {args.preset!r}: choose one of {', '.join(PRESETS)}")
    if args.target is not None and args.target < 1:
        raise UserError("--target must be a positive number of points")
    # $SHOWDOWN_CONFIG is read and checked as every other command does (a bad file is refused).
    settings = load_settings().unit
    try:
        check_timings(settings.timing)  # before any file is made
    except TableError as error:
        raise UserError(f"the simulated table cannot play: {error}") from None
    try:
        options = {"count": args.count, "players": args.players, "seed": args.seed,
                   "preset_name": args.preset, "target": args.target, "settings": settings}
        if args.db is not None:
            # what the service refuses at start, refused here too: a FIFO (SQLite would wait on
            # it for ever), a folder, a read-only disk or a full one, each in one line
            check_file(args.db)
            check_writable(args.db)
            figures = play(args.db, **options)
        else:
            with tempfile.TemporaryDirectory(prefix="showdown-sim-") as folder:
                figures = play(Path(folder) / "games.db", **options)
    except (JournalError, SessionError) as error:
        raise UserError(str(error)) from None
    except TableError as error:
        raise UserError(f"the simulated table stopped: {error}") from None
    if args.json:
        print(json.dumps(figures))
    else:
        print(
            f"{figures['games']} games ({figures['games_reaching_target']} reached "
            f"{figures['target']}), {figures['rounds']} rounds, {figures['showdowns']} showdowns "
            f"({figures['false_starts']} false starts, {figures['replays']} replays) in "
            f"{figures['seconds']} s"
        )
        seats = ", ".join(f"seat {s}: {n}" for s, n in figures["winners_by_seat"].items())
        print(f"wins by seat: {seats}; journal integrity: {figures['integrity_check']}")
    ok = figures["games_reaching_target"] == figures["games"] == args.count
    return 0 if ok and figures["integrity_check"] == "ok" else 1
