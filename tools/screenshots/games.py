"""The screenshots' games besides the sample game, so the documentation shows the screens at
their fullest: a full table of ten (the most the set-up allows), two with names as long as names
go, some never named ("Player 10"), two of them level all game; an evening at one table with its
saved games; and a Killer UNO game in 002's hero scoring, with its table penalties and a round
that drew pigs. Real session entries, not mocks; the tests of those screens draw them too.
"""

from __future__ import annotations

from engine.rules import PenaltyReason
from engine.scoring import ScoringMode, ScoringSettings
from showdown.game.messages import (
    HandEntry,
    RecordPenalty,
    RecordRound,
    RecordShowdown,
    SetUpGame,
)
from showdown.game.session import Session
from showdown.scoreboard.adapter import SessionPort
from showdown.scoreboard.sample import PLAYERS, sample_game

TEN_PLAYERS = ("Ana", "Budi", "Chen", "Daisuke", "Eko", "Maximilianax", "Gita",
               "王小明王小明王小明王小明", "Player 9", "Player 10")
"""A full table: the most players the set-up allows, two with the longest names the keyboard
takes (Latin and CJK), the last two with the default names."""

TEN_ROUNDS: tuple[tuple[str, dict[str, int]], ...] = (
    ("Chen", {"Ana": 12, "Budi": 30, "Daisuke": 7, "Eko": 45, "Maximilianax": 3, "Gita": 25,
              "王小明王小明王小明王小明": 18, "Player 9": 9, "Player 10": 60}),
    ("Gita", {"Ana": 40, "Budi": 8, "Chen": 22, "Daisuke": 15, "Eko": 5, "Maximilianax": 33,
              "王小明王小明王小明王小明": 11, "Player 9": 27, "Player 10": 4}),
    ("Chen", {"Ana": 6, "Budi": 19, "Daisuke": 50, "Eko": 21, "Maximilianax": 14, "Gita": 2,
              "王小明王小明王小明王小明": 38, "Player 9": 13, "Player 10": 29}),
)
"""Three rounds: only Chen and Gita go out, so everyone else stays at 0 and their lines meet."""


def sample_ten(session: Session) -> SessionPort:
    """Ten players three rounds in, with one showdown, behind a scoreboard port."""
    session.handle(SetUpGame(players=list(TEN_PLAYERS), preset="showdown",
                             scoring=ScoringSettings(target=500), first_dealer="Ana"))
    session.handle(RecordShowdown(
        winner="Player 10", loser="Maximilianax", cards_loaded=1, source="unit",
        left="Maximilianax", right="Player 10",
        reaction_ms={"Maximilianax": 344.0, "Player 10": 251.0}))
    for out, held in TEN_ROUNDS:
        hands = {name: HandEntry(points=points) for name, points in held.items()}
        session.handle(RecordRound(went_out=out, hands=hands))
    return SessionPort(session)


EVENING: tuple[tuple[str, tuple[str, ...], str | None], ...] = (
    # the game's name (None: unnamed), its players, and who goes out every round
    ("Friday night", ("Sakura", "José", "Zoë", "王小明"), "José"),
    ("", ("Ana", "Budi", "Chen"), None),
)
"""Two earlier games of the evening: one finished (José goes out until he wins), one left at its
second round."""


def sample_evening(session: Session) -> SessionPort:
    """An evening at one table: a finished game with a name, a game left unfinished, and the
    sample game being played now, behind a scoreboard port."""
    for name, players, winner in EVENING:
        session.handle(SetUpGame(players=list(players), preset="showdown",
                                 scoring=ScoringSettings(target=200), first_dealer=players[0]))
        for number in range(1, 8):
            out = winner or players[number % len(players)]
            hands = {p: HandEntry(points=10 * number + 5 * i)
                     for i, p in enumerate(players) if p != out}
            session.handle(RecordRound(went_out=out, hands=hands))
            state = session.state
            if state is None or state.is_over or (winner is None and number == 2):
                break
        if name and session.state is not None:
            session.journal.label_game(session.state.game_id, name=name)
    sample_game(session)
    return SessionPort(session)


HERO_ROUNDS: tuple[tuple[str, dict[str, int], tuple[tuple[str, str], ...]], ...] = (
    # who went out, what the others held, and the penalties the table gave before it
    ("Budi", {"Ana": 120, "Chen": 95, "Daisuke": 60}, (("Chen", "silence"),)),
    ("Ana", {"Budi": 80, "Chen": 150, "Daisuke": 40}, (("Daisuke", "slap"),)),
    ("Budi", {"Ana": 90, "Chen": 110, "Daisuke": 70}, ()),
    ("Chen", {"Ana": 60, "Budi": 45, "Daisuke": 85}, (("Ana", "advice"),)),
)
"""Killer UNO in hero scoring: Budi banks 275, then 270, and passes 500 in round 3, drawing a
pig on each of the others; every score goes back to zero and Chen leads the next stretch."""


def sample_hero(session: Session, pigs: int = 3) -> SessionPort:
    """The Killer UNO game in hero scoring, to ``pigs`` pigs (1: over at round 3), with a
    showdown and the table's penalties, behind a scoreboard port."""
    session.handle(SetUpGame(players=list(PLAYERS), preset="killer",
                             scoring=ScoringSettings(mode=ScoringMode.HERO, pigs=pigs),
                             first_dealer="Ana"))
    for number, (out, held, penalties) in enumerate(HERO_ROUNDS, start=1):
        state = session.state
        if state is None or state.is_over:
            break
        if number == 2:
            session.handle(RecordShowdown(
                winner="Ana", loser="Budi", cards_loaded=2, source="unit", left="Ana",
                right="Budi", reaction_ms={"Ana": 244.0, "Budi": 297.0}))
        for player, reason in penalties:
            session.handle(RecordPenalty(player=player, reason=PenaltyReason(reason)))
        hands = {name: HandEntry(points=points) for name, points in held.items()}
        session.handle(RecordRound(went_out=out, hands=hands))
    return SessionPort(session)


WIDE_PLAYERS = (
    "Ada 山田 Ωmega",  # three scripts in one name
    "山田さくら",
    "MMMMMMMMMMMM",
    "ÀÉÎ Ωmega WW",  # accents over capitals: the tallest Latin line
    "WWWWWWWWWWWW",  # twelve of the widest Latin letter
    "さくらさくらさくらさくら",
    "José WWWWWWW",
    "김민준 Ωmega WW",
    "Player 9",  # a seat nobody named: "プレイヤー9", "Pemain 9"...
    "王小明王小明王小明王小明",  # twelve CJK characters
)
"""A table of ten, each name as wide as the keyboard lets a name go in its script (names are
told apart whatever their case, so only one is twelve W's), in seat order."""

WIDE_GAME_NAME = "W" * 24
"""The longest name a saved game takes (the keyboard stops at 24 characters)."""


def sample_wide(session: Session, *, hero: bool = False, over: bool = False) -> SessionPort:
    """The widest names at a table of ten, behind a scoreboard port: a finished game named as
    long as a game's name goes, then this one three rounds in (in Killer UNO's hero scoring
    with ``hero``, a round drawing pigs), with a showdown, a false start and a penalty, every
    player kept for the next game; ``over``: the first round wins it."""
    first, sakura, wide, cjk = (WIDE_PLAYERS[0], WIDE_PLAYERS[1], WIDE_PLAYERS[4],
                                WIDE_PLAYERS[9])
    session.handle(SetUpGame(players=[cjk, wide, first], preset="showdown",
                             scoring=ScoringSettings(target=100), first_dealer=cjk))
    session.handle(RecordRound(went_out=wide, hands={cjk: HandEntry(points=60),
                                                     first: HandEntry(points=70)}))
    if session.state is not None:
        session.journal.label_game(session.state.game_id, name=WIDE_GAME_NAME)
    if hero:
        scoring = ScoringSettings(mode=ScoringMode.HERO, target=200, pigs=1 if over else 3)
    else:
        scoring = ScoringSettings(target=100 if over else 500)
    session.handle(SetUpGame(players=list(WIDE_PLAYERS), preset="killer" if hero else "showdown",
                             scoring=scoring, first_dealer=cjk))
    session.handle(RecordShowdown(winner=wide, loser=cjk, cards_loaded=3, source="unit",
                                  left=wide, right=cjk, reaction_ms={wide: 212.0, cjk: 305.0}))
    session.handle(RecordShowdown(winner=first, loser=sakura, cards_loaded=2,
                                  reason="false-start", source="unit", left=sakura, right=first))
    session.handle(RecordPenalty(player=WIDE_PLAYERS[2], reason=PenaltyReason.ADVICE))
    for out, points in ((wide, 20), (cjk, 35), (first, 40)):
        state = session.state
        if state is None or state.is_over:
            break
        hands = {name: HandEntry(points=points + i) for i, name in enumerate(WIDE_PLAYERS)
                 if name != out}
        session.handle(RecordRound(went_out=out, hands=hands))
    session.journal.remember_players([*WIDE_PLAYERS, "Ωmega ÀÉÎ 12", "さくら山田"])
    session.journal.set_player_colour(wide, "orange")
    return SessionPort(session)
