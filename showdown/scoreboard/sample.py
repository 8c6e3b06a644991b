"""A game under way, so ``showdown bench scoreboard`` times the screens a table sees an hour into
an evening; the documentation's screenshots and the tests draw it too.

Four players, four rounds, three showdowns and a false start recorded through the session's
commands (real entries, not mocks), and the showdown screen's stages as the unit reports them.
The screenshots' other games (ten players, an evening, Killer UNO) are in
``tools/screenshots/games.py``, outside the product.
"""

from __future__ import annotations

from engine.scoring import ScoringSettings
from showdown.game.messages import HandEntry, RecordRound, RecordShowdown, SetUpGame
from showdown.game.session import Session
from showdown.scoreboard.adapter import SessionPort
from showdown.scoreboard.view import ShowdownView, Side, Stage

PLAYERS = ("Ana", "Budi", "Chen", "Daisuke")

ROUNDS: tuple[tuple[str, dict[str, int]], ...] = (
    ("Budi", {"Ana": 23, "Chen": 41, "Daisuke": 12}),
    ("Ana", {"Budi": 9, "Chen": 67, "Daisuke": 30}),
    ("Daisuke", {"Ana": 15, "Budi": 52, "Chen": 8}),
    ("Ana", {"Budi": 35, "Chen": 20, "Daisuke": 44}),
)

SHOWDOWNS: tuple[tuple[str, str, str, float, float], ...] = (
    # left, right, winner, left ms, right ms
    ("Ana", "Chen", "Ana", 231.0, 289.0),
    ("Budi", "Daisuke", "Daisuke", 402.0, 264.0),
    ("Chen", "Ana", "Ana", 318.0, 207.0),
)

RESULT = ShowdownView(Stage.RESULT, "Ana", "Chen", 2, winner="Ana", loser="Chen",
                      reason="race", left_ms=231.0, right_ms=289.0, launch_toward=Side.RIGHT,
                      counts=(0, 2))
"""The showdown screen's last result, as the unit reported it."""

COUNTDOWN = ShowdownView(Stage.COUNTDOWN, "Ana", "Chen", 2, beat=2, beats=3)
"""The showdown screen counting down: the second of three beats."""
GO = ShowdownView(Stage.GO, "Ana", "Chen", 2)
"""The showdown screen at green."""
FALSE_START = ShowdownView(Stage.FALSE_START, "Ana", "Chen", 2, false_start_side=Side.RIGHT)
"""The showdown screen after the right-hand player slammed before green."""

WINNING_TOTAL = 205
"""The leader's total after the sample's last round: a game to this target ends there."""


def sample_game(session: Session, target: int = 500) -> None:
    """Record the sample game in ``session`` (set-up, showdowns, rounds)."""
    session.handle(SetUpGame(players=list(PLAYERS), preset="showdown",
                             scoring=ScoringSettings(target=target), first_dealer="Ana"))
    for i, (out, held) in enumerate(ROUNDS):
        if i < len(SHOWDOWNS):
            left, right, winner, left_ms, right_ms = SHOWDOWNS[i]
            loser = right if winner == left else left
            session.handle(RecordShowdown(
                winner=winner, loser=loser, cards_loaded=2, source="unit", left=left,
                right=right, reaction_ms={left: left_ms, right: right_ms}))
        if i == len(SHOWDOWNS):  # Budi slams before green: a false start, Budi takes the cards
            session.handle(RecordShowdown(
                winner="Chen", loser="Budi", cards_loaded=2, reason="false-start", source="unit",
                left="Budi", right="Chen"))
        hands = {name: HandEntry(points=points) for name, points in held.items()}
        session.handle(RecordRound(went_out=out, hands=hands))


def sample_table(session: Session) -> SessionPort:
    """The sample game behind a scoreboard port, with the last showdown's result mirrored."""
    sample_game(session)
    table = SessionPort(session)
    table.unit_changed(RESULT)
    return table
