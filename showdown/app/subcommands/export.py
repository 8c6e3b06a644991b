"""``showdown export``: a game from the journal as JSON or CSV."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from showdown.app.config import load_settings
from showdown.app.errors import UserError
from showdown.game.alltime import all_time
from showdown.game.export import (
    game_json,
    list_line,
    penalties_csv,
    players_csv,
    players_json,
    rounds_csv,
    showdowns_csv,
)
from showdown.game.journal import Journal, JournalError
from showdown.game.session import Session, SessionError, fold
from showdown.game.storage import add_db_argument, db_path

NAME = "export"
GROUP = None
HELP = "export a game from the journal as JSON or CSV (rounds, showdowns or penalties)"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Options of ``showdown export``."""
    add_db_argument(parser)
    parser.add_argument("--game", type=int, help="game number (default: the latest)")
    parser.add_argument(
        "--list", action="store_true",
        help="list the games and stop: number, date, over (winner, final scores) or open "
        "(round, scores)")
    parser.add_argument("--format", choices=("json", "csv"), default="json")
    rows = parser.add_mutually_exclusive_group()
    rows.add_argument(
        "--showdowns", action="store_true", help="CSV: one row per showdown instead of per round"
    )
    rows.add_argument(
        "--penalties",
        action="store_true",
        help="CSV: one row per table penalty (silence, slap, advice, wrong card, missed UNO)",
    )
    rows.add_argument(
        "--players", action="store_true",
        help="all-time figures per player from every game kept (none deleted, none the "
        "simulated table played): games played and won, points per round, showdowns won and "
        "lost, best and median reaction time, false starts")
    parser.add_argument("-o", "--output", type=Path, help="write here instead of standard output")


def run(args: argparse.Namespace) -> int:
    """Read the journal (never writing to it: a read-only mount or folder will do) and print
    the export."""
    path = db_path(args.db, load_settings().storage)
    if not path.exists() and args.list:  # nothing kept here yet: a list of no games
        print(f"showdown: no journal at {path}: no games", file=sys.stderr)
        return 0
    try:
        journal = Journal.open(path, read_only=True)
    except JournalError as error:
        raise UserError(str(error)) from None
    with journal:
        try:
            text = _export(args, journal, path)
        except (JournalError, SessionError) as error:
            raise UserError(str(error)) from None
    if text is None:
        return 0
    if args.output is None:
        sys.stdout.write(text)
        return 0
    try:
        args.output.write_text(text, encoding="utf-8")
    except OSError as error:
        raise UserError(f"{args.output}: cannot write the export: {error.strerror}") from None
    return 0


def _export(args: argparse.Namespace, journal: Journal, path: Path) -> str | None:
    games = journal.games()
    if args.list:
        labels = journal.game_labels()
        for game in games:
            line = list_line(game.id, game.created_at, fold(game.id, journal.entries(game.id)))
            label = labels.get(game.id)
            if label is not None and label.name:
                line += f"\tnamed {label.name}"
            if label is not None and label.deleted_at:
                line += f"\tdeleted {label.deleted_at}"
            print(line)
        return None
    if args.players:
        records = all_time(kept.state for kept in Session(journal).kept_games())
        return players_json(records) if args.format == "json" else players_csv(records)
    game_id = args.game if args.game is not None else journal.latest_game()
    if game_id is None or game_id not in {g.id for g in games}:
        which = f"no game {args.game}" if args.game is not None else "no games"
        raise UserError(f"{path} has {which}")
    entries = journal.entries(game_id)
    state = fold(game_id, entries)
    if state is None:
        raise UserError(f"game {game_id} was never set up")
    if args.format == "json":
        return json.dumps(game_json(state, entries), indent=2) + "\n"
    if args.showdowns:
        return showdowns_csv(state)
    return penalties_csv(state) if args.penalties else rounds_csv(state)
