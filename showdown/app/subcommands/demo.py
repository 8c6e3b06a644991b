"""``showdown demo``: a bot game of UNO to the target, printed round by round.

Four bots (two heuristic, two random-legal) play under a preset; each round's winner, points
and the running totals are printed.
"""

from __future__ import annotations

import argparse

from engine.bots import Bot, HeuristicBot, RandomBot
from engine.game import Game
from engine.round import Round
from engine.rules import PRESETS, UnknownPresetError, preset
from engine.scoring import RoundScore
from showdown.app.arguments import TARGET_MAX, int_in_range, seed
from showdown.app.errors import UserError

NAME = "demo"
GROUP = None
HELP = "play a bot game of UNO to 500 in the terminal, printing each round and the totals"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Options: players, seed, preset, target."""
    parser.add_argument("--players", type=int, default=4, help="2-10 players (default 4)")
    parser.add_argument("--seed", type=seed, default=1, help="seed for shuffles and bots")
    parser.add_argument(
        "--preset", default="official", help=f"rule set: {', '.join(PRESETS)} (default official)"
    )
    parser.add_argument("--target", type=int_in_range(1, TARGET_MAX), default=None,
                        help=f"target score, 1-{TARGET_MAX} (default 500)")


def run(args: argparse.Namespace) -> int:
    """Play the game and print it."""
    try:
        rules = preset(args.preset)
    except UnknownPresetError as exc:
        raise UserError(str(exc)) from None
    if not 2 <= args.players <= 10:
        raise UserError(f"--players must be 2-10, not {args.players}")
    if args.target is not None:
        if args.target < 1:
            raise UserError("--target must be a positive number of points")
        rules = rules.model_copy(update={"target_score": args.target})
    game = Game(rules, args.players, seed=args.seed)
    bots: list[Bot] = [
        HeuristicBot(args.seed * 100 + seat) if seat % 2 == 0 else RandomBot(args.seed * 100 + seat)
        for seat in range(args.players)
    ]
    names = [
        f"P{seat + 1} ({'heuristic' if seat % 2 == 0 else 'random'})"
        for seat in range(args.players)
    ]
    print(
        f"UNO, preset {args.preset!r}, {args.players} players, first to {rules.target_score}. "
        f"{names[game.dealer]} deals first."
    )

    def report(rnd: Round, score: RoundScore) -> None:
        went_out = score.result.went_out
        played = len(rnd.history)
        totals = "  ".join(f"P{s + 1} {t:>4}" for s, t in enumerate(score.totals))
        print(
            f"Round {score.index + 1:>2}: {names[went_out]} went out after {played} moves, "
            f"+{sum(score.result.hand_points)}  | {totals}"
        )

    winners = game.play(bots, on_round=report)
    print(
        "Winner: " + ", ".join(names[w] for w in winners) + f" with {game.sheet.totals[winners[0]]}"
    )
    return 0
