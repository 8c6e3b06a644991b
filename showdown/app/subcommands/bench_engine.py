"""``showdown bench engine``: how fast the rules engine plays complete rounds.

Plays N complete rounds (one round is one "game", as in RLCard) with random-legal bots under a
preset (default: the default rules, UNO calls and catches included) and prints one JSON object
with ``games, players, seconds, games_per_s, actions_per_s``. When RLCard is installed (the
``bench`` extra; ``make bench`` installs it) the same number of RLCard UNO games
(``rlcard.games.uno.game.UnoGame``, random legal actions, 4 players) is timed in the same run,
and ``ratio`` is this engine's 4-player games per second over RLCard's. Never part of the tests.

Both are timed ``--repeat`` times, alternating, and the figures come from each side's fastest
run, as :mod:`timeit` advises (slower runs measure the rest of the machine, not the code; on a
shared 2-core machine single runs of the same work were seen to differ by 1.7x);
``median_games_per_s`` and ``median_ratio`` are printed beside them.

``engine_build`` says whether the engine that ran is the mypyc-compiled build (``"mypyc"``) or
its Python sources (``"python"``), and ``engine_build_why`` why (:mod:`engine.build`).
``digest`` is a SHA-256 over every round's final state and command history, computed outside
the timed part: the compiled and the pure engine must give the same digest for the same
arguments, which ``make bench`` and ``tests/engine/test_build.py`` check.
"""

from __future__ import annotations

import argparse
import hashlib
import importlib.util
import json
import random
import statistics
import time
from typing import Any

from engine import build
from engine.bots import Bot, RandomBot, play_round
from engine.commands import COMMAND_ADAPTER, Command
from engine.round import Round, RoundSetup
from engine.rules import PRESETS, RuleSet, UnknownPresetError, preset
from engine.state import RoundState
from showdown.app.arguments import BENCH_GAMES_MAX, REPEAT_MAX, int_in_range, seed
from showdown.app.errors import UserError

NAME = "engine"
GROUP = "bench"
HELP = "time complete rounds with random-legal bots (and RLCard's UNO when installed)"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Options: games, players, seed, preset, json, no-rlcard."""
    parser.add_argument("--games", type=int_in_range(1, BENCH_GAMES_MAX), default=1000,
                        help=f"complete rounds to play per timed run, 1-{BENCH_GAMES_MAX}")
    parser.add_argument("--players", type=int_in_range(2, 10), default=4,
                        help="2-10 players (default 4)")
    parser.add_argument("--seed", type=seed, default=1, help="seed for deals and bots")
    parser.add_argument("--preset", default="official", help=f"one of {', '.join(PRESETS)}")
    parser.add_argument("--json", action="store_true", help="print one JSON object only")
    parser.add_argument("--no-rlcard", action="store_true", help="skip the RLCard comparison")
    parser.add_argument(
        "--repeat",
        type=int_in_range(1, REPEAT_MAX),
        default=5,
        help=f"timed runs of each, 1-{REPEAT_MAX}, the engine and RLCard alternating (default "
        "5); the figures "
        "are from the fastest run of each, the least disturbed by the rest of the machine, and "
        "the medians are printed beside them",
    )


def time_engine(
    rules: RuleSet, games: int, players: int, seed: int, *, digest: bool = True
) -> dict[str, Any]:
    """Play ``games`` rounds; the figures as a dict (with the rounds' ``digest`` unless
    ``digest=False``: the same arguments always give the same one, so repeats skip it)."""
    rng = random.Random(seed)
    bots: list[Bot] = [RandomBot(seed * 1000 + seat) for seat in range(players)]
    actions = 0
    ends: list[tuple[RoundState, list[Command]]] = []
    started = time.perf_counter()
    for game in range(games):
        rnd = Round.new(rules, RoundSetup(players=players, dealer=game % players, seed=seed + game))
        actions += play_round(rnd, bots, rng)
        if digest:
            ends.append((rnd.state, rnd.history))
    seconds = time.perf_counter() - started
    # The digest is taken after the clock stops: hashing between rounds would be left out of the
    # time but would still evict the engine's data from the caches and slow the timed rounds.
    # Only each round's end state and commands are kept until then (whole rounds, with their
    # event lists, would make every garbage collection during the run slower and slower).
    hashed = hashlib.sha256()
    for state, history in ends:
        hashed.update(_fingerprint(state, history))
    figures: dict[str, Any] = {
        "games": games,
        "players": players,
        "seconds": round(seconds, 4),
        "games_per_s": round(games / seconds, 1),
        "actions_per_s": round(actions / seconds, 1),
        "actions_per_game": round(actions / games, 1),
    }
    if digest:
        figures["digest"] = hashed.hexdigest()
    return figures


def _fingerprint(state: RoundState, history: list[Command]) -> bytes:
    """A round's final state and its commands as canonical JSON (what the digest hashes)."""
    commands = [COMMAND_ADAPTER.dump_python(cmd, mode="json") for cmd in history]
    data = {"state": state.to_dict(), "history": commands}
    return json.dumps(data, sort_keys=True, separators=(",", ":")).encode()


def time_rlcard(games: int, seed: int) -> dict[str, Any]:
    """RLCard's UNO game, 4 players, uniformly random legal actions."""
    import numpy as np  # noqa: PLC0415 - only present with the bench extra
    from rlcard.games.uno.game import UnoGame  # noqa: PLC0415

    rng = random.Random(seed)
    game = UnoGame(num_players=4)
    game.np_random = np.random.RandomState(seed)
    actions = 0
    started = time.perf_counter()
    for _ in range(games):
        game.init_game()
        while not game.is_over():
            legal = game.get_legal_actions()
            game.step(legal[rng.randrange(len(legal))])
            actions += 1
    seconds = time.perf_counter() - started
    return {
        "games": games,
        "players": 4,
        "seconds": round(seconds, 4),
        "games_per_s": round(games / seconds, 1),
        "actions_per_s": round(actions / seconds, 1),
        "actions_per_game": round(actions / games, 1),
    }


def _fastest(runs: list[dict[str, Any]]) -> dict[str, Any]:
    """The run with the most games per second (a copy)."""
    return dict(max(runs, key=lambda run: float(run["games_per_s"])))


def _median(runs: list[dict[str, Any]]) -> float:
    """The median games per second over ``runs``."""
    return round(statistics.median(float(run["games_per_s"]) for run in runs), 1)


def run(args: argparse.Namespace) -> int:
    """Time the engine (and RLCard), print the figures."""
    try:
        rules = preset(args.preset)
    except UnknownPresetError as exc:
        raise UserError(str(exc)) from None
    with_rlcard = not args.no_rlcard and importlib.util.find_spec("rlcard") is not None
    ours: list[dict[str, Any]] = []
    ours4: list[dict[str, Any]] = []
    theirs: list[dict[str, Any]] = []
    for run in range(args.repeat):  # alternating, so a slow spell of the machine hits both
        ours.append(time_engine(rules, args.games, args.players, args.seed, digest=run == 0))
        if with_rlcard:
            if args.players != 4:
                ours4.append(time_engine(rules, args.games, 4, args.seed, digest=False))
            theirs.append(time_rlcard(args.games, args.seed))
    result = _fastest(ours)
    result["digest"] = ours[0]["digest"]
    result["seed"] = args.seed
    result["preset"] = args.preset
    result["engine_build"] = build.running()
    result["engine_build_why"] = build.select()[1].why
    result["repeat"] = args.repeat
    result["median_games_per_s"] = _median(ours)
    if with_rlcard:
        rlcard = _fastest(theirs)
        rlcard["median_games_per_s"] = _median(theirs)
        mine = _fastest(ours4) if ours4 else result
        mine_median = _median(ours4) if ours4 else result["median_games_per_s"]
        result["rlcard"] = rlcard
        result["engine_4_players_games_per_s"] = mine["games_per_s"]
        result["ratio"] = round(mine["games_per_s"] / rlcard["games_per_s"], 2)
        result["median_ratio"] = round(mine_median / rlcard["median_games_per_s"], 2)
    if args.json:
        print(json.dumps(result))
    else:
        for key, value in result.items():
            print(f"{key:>28}: {value}")
    return 0
