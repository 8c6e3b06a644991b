"""One round of UNO: set-up, commands in, events out.

Quick start::

    from engine import Round, RoundSetup, preset, Draw
    rnd = Round.new(preset("official"), RoundSetup(players=4, dealer=0, seed=7))
    for cmd in rnd.legal_actions():      # every command some player may issue now
        ...
    events = rnd.apply(Draw(player=rnd.state.turn))

A command that breaks a rule raises :class:`~engine.errors.RuleError` and changes nothing: every
check runs before the first change. Seats are numbered going left (clockwise); the first player
sits left of the dealer.

Order in which a played card's effects apply (documented, and tested for the known traps):

1. the card leaves the hand for the discard pile; the colour to follow is set (chosen for wilds);
2. the UNO call is settled (called, exposed to a catch, or a false call);
3. Reverse changes the direction (so a Showdown icon on a Reverse duels the *new* next player);
4. hand effects (Swap Hands, Shuffle Hands, a Customizable effect, Killer UNO's 0 passing every
   hand) - not when it was the last card;
5. a draw card (Draw Two, Wild Draw 4, Killer UNO's red 0) becomes pending on the next player
   (stacking, deflecting or challenging answers it, as the rules allow); on a last card the next
   player draws at once and cannot challenge;
6. the next turn is worked out (Skip, Reverse with two players, a penalty skips its victim);
7. a showdown starts (a Showdown icon against the next player in the current direction, a Wild
   Showdown against the chosen opponent, or any going-out under ``showdown_every_go_out``) and
   must be settled before anything else; a last-card showdown decides whether the round ends;
8. the round ends when a hand is empty and no showdown is pending.

A Killer UNO jump-in (:mod:`engine.jump_in`) gives the turn to the jumper and then plays the card
by these same steps. Readings where the seeds are silent, chosen once and tested:

- Stacking and the challenge: stacking (or deflecting) begins the victim's turn, so it gives up
  the challenge; the next victim may challenge only the latest Wild Draw 4. Guilty: its player
  draws 4 and those 4 leave the pending total (the rest still faces the challenger, who then
  plays); innocent: the challenger draws the whole pending total + 2 and loses the turn. A
  stacked Wild Draw 4 is legal on the same test as any other (no card of the current colour).
- UNO: said with ``PlayCard(uno=True)``, or by ``CallUno`` on your turn holding two cards, or
  as a self-catch before anyone catches you (:mod:`engine.uno_call`). A player brought down to
  one card by someone else's card (Swap Hands, Shuffle Hands, a Customizable effect, a 0
  passing hands) has nothing to say and cannot be caught; drawing, or a hand swapped, passed or
  reshuffled, cancels a call. The catch window closes when the next player begins their turn by
  drawing (the Wild Draw 4 penalty too, taken or after losing the challenge) or playing; under
  003's ``uno_catch_window="next-discard"`` only the next card played closes it. A pending
  showdown accepts only its result, so catches wait, and the window is still open after it.
- A Showdown icon on the first card turned up starts no showdown (only a Wild Showdown does).
"""

from __future__ import annotations

import json
import random
from collections.abc import Sequence
from typing import Any, Final, Literal

from engine import actions, effects, hand_passing, jump_in, legality, penalties, uno_call
from engine.card_facts import card_facts
from engine.cards import CardKind, parse_code
from engine.commands import (
    COMMAND_ADAPTER,
    CallUno,
    CatchUno,
    Challenge,
    ChooseOpening,
    Command,
    Draw,
    JumpIn,
    Pass,
    Penalty,
    PlayCard,
    ShowdownResult,
    WrongCard,
)
from engine.deck import Deck, builtin_deck
from engine.errors import RuleError
from engine.events import (
    CardReturned,
    ColourChosen,
    DirectionChanged,
    Event,
    JumpedIn,
    Reshuffled,
    ShowdownSettled,
    ShowdownStarted,
    WrongCardPenalised,
)
from engine.interned import (
    CHALLENGE_DECIDED,
    COLOUR_CHOSEN,
    DIRECTION_CHANGED,
    SEATS,
    TURN_SKIPPED,
    TURN_STARTED,
    card_drawn,
    card_played,
    cards_drawn,
    play_card,
    round_ended,
    round_started,
)
from engine.rng import generator, shuffle
from engine.rules import RuleSet
from engine.state import PendingShowdown, Phase, RoundSetup, RoundState
from engine.tables import NO_KIND, DeckTables, tables_for

__all__ = ["HAND_SIZE", "MAX_PLAYERS", "MIN_PLAYERS", "Round", "RoundSetup"]

HAND_SIZE: Final = 7
MIN_PLAYERS: Final = 2
MAX_PLAYERS: Final = SEATS

_SKIP: Final = int(CardKind.SKIP)
_REVERSE: Final = int(CardKind.REVERSE)
_DRAW_TWO: Final = int(CardKind.DRAW_TWO)
_WD4: Final = int(CardKind.WILD_DRAW_FOUR)
_WILD: Final = int(CardKind.WILD)
_SHUFFLE: Final = int(CardKind.WILD_SHUFFLE_HANDS)
_CUSTOM: Final = int(CardKind.WILD_CUSTOMIZABLE)
_SWAP: Final = int(CardKind.WILD_SWAP_HANDS)
_BLANK: Final = int(CardKind.BLANK)
_SHOWDOWN: Final = int(CardKind.WILD_SHOWDOWN)
_NINE: Final = int(CardKind.NINE)
_ZERO: Final = int(CardKind.ZERO)
_K: Final = NO_KIND + 1

# Module-level names for the phases: a local lookup instead of an enum attribute on the hot path.
_OPENING: Final = Phase.OPENING
_PLAY: Final = Phase.PLAY
_DRAWN: Final = Phase.DRAWN
_SHOWDOWN_PHASE: Final = Phase.SHOWDOWN
_OVER: Final = Phase.OVER
_PLAY_OR_DRAWN: Final = (Phase.PLAY, Phase.DRAWN)

# The command classes under Final names, for Round.step's dispatch: a compiled build (make bench)
# reads Final names directly instead of looking imported names up in the module dict.
_PlayCard: Final = PlayCard
_Draw: Final = Draw
_Pass: Final = Pass
_CallUno: Final = CallUno
_CatchUno: Final = CatchUno
_Challenge: Final = Challenge
_ShowdownResult: Final = ShowdownResult
_ChooseOpening: Final = ChooseOpening
_WrongCard: Final = WrongCard
_JumpIn: Final = JumpIn
_Penalty: Final = Penalty


def _check_players(rules: RuleSet, players: int) -> None:
    """A round seats 2-10 players (001), or fewer where the rule set says (002: 2-8)."""
    most = min(rules.max_players, MAX_PLAYERS)
    if not MIN_PLAYERS <= players <= most:
        raise RuleError(
            "players", f"these rules are for {MIN_PLAYERS}-{most} players, not {players}"
        )


class Round:
    """A round in play. Build one with :meth:`new`; drive it with :meth:`apply`.

    Public attributes: ``rules``, ``deck``, ``setup``, ``state`` (a
    :class:`~engine.state.RoundState`; read it, do not change it), ``history`` (the commands
    applied so far, enough to :meth:`replay` the round), ``events`` (every event so far),
    ``tables`` (the deck's per-card facts), ``rng`` (the round's shuffle).

    :meth:`emit`, :meth:`next_seat`, :meth:`draw_cards` and :meth:`hand_changed` are the hooks
    card effects (:mod:`engine.effects`) change a round with while a command is applied; they
    record no command, so outside the engine a round changes only through :meth:`apply`.
    """

    def __init__(
        self,
        rules: RuleSet,
        deck: Deck,
        setup: RoundSetup,
        state: RoundState,
        rng: random.Random | None = None,
    ) -> None:
        _check_players(rules, state.players)
        self.rules = rules
        self.deck = deck
        self.setup = setup
        self.state = state
        self.tables: DeckTables = tables_for(deck)
        facts = card_facts(deck, rules)
        self.values: tuple[int, ...] = facts.values
        self.draws: tuple[int, ...] = facts.draws
        """Cards each card id makes the next player draw under these rules."""
        self.plain: tuple[bool, ...] = facts.plain
        """Each card id: a number card whose play has no effect under these rules."""
        # Rule switches read turn by turn, kept as plain attributes rather than looked up on
        # the pydantic rule set each time: the cards a Draw may take, whether a drawn action
        # card stops it, whether drawing closes the UNO catch window.
        self._draw_limit = (
            (rules.draw_until_max or 10**6) if rules.draw == "until-playable" else 1
        )
        self._drawn_any = rules.play_drawn == "any"
        self._draw_closes_catch = rules.uno_catch_window == "next-turn"
        self.rng = rng if rng is not None else generator(setup.seed)
        self.history: list[Command] = []
        self.events: list[Event] = []
        self._start: tuple[RoundState, Any] | None = None
        self._dealt = False  # True: dealt by new(), so the start is rebuilt from ``setup``

    # ----------------------------------------------------------------- set-up

    @classmethod
    def new(cls, rules: RuleSet, setup: RoundSetup, deck: Deck | None = None) -> Round:
        """Deal a new round. ``deck`` defaults to the built-in deck named by ``rules.deck``."""
        deck = deck if deck is not None else builtin_deck(rules.deck)
        players = setup.players
        _check_players(rules, players)
        if not 0 <= setup.dealer < players:
            raise RuleError("dealer", f"dealer must be a seat 0-{players - 1}")
        if len(deck) < HAND_SIZE * players + 2:
            raise RuleError("deck-size", f"{len(deck)} cards cannot deal {players} hands of 7")
        rng = generator(setup.seed)
        if setup.deck_order is not None:
            order = list(setup.deck_order)
            if sorted(order) != list(range(len(deck))):
                raise RuleError("deck-order", "deck_order must list every card id exactly once")
        else:
            order = list(range(len(deck)))
            shuffle(rng, order)
        # Deal one card at a time from the top (order[0]), starting left of the dealer: seat
        # ``dealer + 1 + j`` gets order[j], order[j + players], ... (slices, not 7 x players pops).
        dealt = HAND_SIZE * players
        first = setup.dealer + 1
        hands: list[list[int]] = [[] for _ in range(players)]
        for offset in range(players):
            hands[(first + offset) % players] = order[offset:dealt:players]
        pile = order[dealt:]
        pile.reverse()  # the draw pile's top is the list's end
        state = RoundState(
            players=players,
            dealer=setup.dealer,
            hands=hands,
            draw_pile=pile,
            discard=[],
            uno_called=[False] * players,
        )
        rnd = cls(rules, deck, setup, state, rng)
        rnd._open()
        # No snapshot of the start: a dealt round is rebuilt from ``setup`` when asked for
        # (``initial``, ``to_dict``), which saves a state copy and a 625-word rng state per deal.
        rnd._dealt = True
        return rnd

    @classmethod
    def from_position(
        cls,
        rules: RuleSet,
        hands: Sequence[Sequence[str]],
        discard: Sequence[str],
        draw: Sequence[str] = (),
        *,
        turn: int = 0,
        dealer: int | None = None,
        colour: int | None = None,
        direction: int = 1,
        rest: Literal["draw", "discard"] = "draw",
        deck: Deck | None = None,
        seed: int = 0,
    ) -> Round:
        """A round in the middle of play, written with card codes (for scenarios and tests).

        ``hands[seat]`` and ``discard`` (bottom first, top last) and ``draw`` (top first) name
        cards by code (``"R7"``, ``"W+4"``; a Showdown icon card as ``"G5*3"``); each code takes
        the lowest unused card id with that face. Every card not named goes to the bottom of
        the draw pile (``rest="draw"``) or under the discard pile (``rest="discard"``), so the
        deck is always complete. ``colour`` defaults to the top card's colour; it is required
        when the top card is a wild. It is ``turn``'s turn, in the ``PLAY`` phase.
        """
        deck = deck if deck is not None else builtin_deck(rules.deck)
        players = len(hands)
        _check_players(rules, players)
        free: dict[str, list[int]] = {}
        for card_id, card in enumerate(deck.cards):
            free.setdefault(card.code, []).append(card_id)

        def take(code: str) -> int:
            key = parse_code(code).code
            ids = free.get(key)
            if not ids:
                raise RuleError("position", f"deck {deck.name!r} has no (more) {key} cards")
            return ids.pop(0)

        hand_ids = [[take(code) for code in hand] for hand in hands]
        discard_ids = [take(code) for code in discard]
        draw_ids = [take(code) for code in draw]
        if not discard_ids:
            raise RuleError("position", "the discard pile needs a top card")
        remaining = sorted(card for ids in free.values() for card in ids)
        if rest == "discard":
            discard_ids = remaining + discard_ids
            remaining = []
        pile = list(reversed(draw_ids + remaining))
        top = discard_ids[-1]
        tables = tables_for(deck)
        if colour is None:
            if tables.is_wild[top]:
                raise RuleError("position", "give the colour chosen for the wild on top")
            colour = tables.colour[top]
        state = RoundState(
            players=players,
            dealer=(turn - direction) % players if dealer is None else dealer,
            hands=hand_ids,
            draw_pile=pile,
            discard=discard_ids,
            colour=colour,
            turn=turn,
            direction=direction,
            uno_called=[False] * players,
        )
        rnd = cls(rules, deck, RoundSetup(players=players, dealer=state.dealer, seed=seed), state)
        rnd._start = (rnd.state.copy(), rnd.rng.getstate())
        return rnd

    def _open(self) -> None:
        """Turn up the first card and apply rules.md's first-card rules."""
        st, t, rules = self.state, self.tables, self.rules
        while True:
            card = st.draw_pile.pop()
            kind = t.kind[card]
            if kind == _WD4 or (kind == _WILD and rules.first_wild == "return"):
                st.draw_pile.append(card)
                shuffle(self.rng, st.draw_pile)
                self.emit(CardReturned(card=card))
                continue
            break
        st.discard.append(card)
        n, dealer = st.players, st.dealer
        first = (dealer + 1) % n
        st.colour = t.colour[card]
        if t.is_wild[card]:
            st.turn, st.phase = first, Phase.OPENING
        elif kind == _REVERSE:
            st.direction = -1
            st.turn = dealer if rules.first_reverse == "dealer" else (dealer - 1) % n
        elif kind in (_SKIP, _DRAW_TWO):
            st.turn = (first + 1) % n
        else:
            st.turn = first
        self.emit(round_started(dealer, n, card, st.turn, st.direction))
        if kind == _DRAW_TWO:
            self.draw_cards(first, 2, "opening")
            self._spend_top()
            self.emit(TURN_SKIPPED[first])
        elif kind == _SKIP:
            self.emit(TURN_SKIPPED[first])
        if st.phase is Phase.PLAY:
            self.emit(TURN_STARTED[st.turn])

    # ----------------------------------------------------------------- public API

    def apply(self, command: Command) -> list[Event]:
        """Apply ``command`` and return the events it caused.

        Raises :class:`~engine.errors.RuleError` (naming the rule) and changes nothing when the
        command breaks a rule.
        """
        mark = len(self.events)
        self.step(command)
        return self.events[mark:]

    def step(self, command: Command) -> None:
        """:meth:`apply` without returning the new events (they are still appended to
        :attr:`events`): for loops that play many commands and read no events, like bots."""
        events = self.events  # handlers emit straight into the round's event list
        mark = len(events)
        try:
            # Most frequent first; direct calls rather than a table of handlers, so a compiled
            # build calls them natively. The two commands that make nine in ten go by
            # their exact type first: isinstance() of an interpreted class walks its bases.
            if type(command) is _PlayCard:
                self._play(command)
            elif type(command) is _Draw:
                self._draw_cmd(command)
            elif isinstance(command, _PlayCard):
                self._play(command)
            elif isinstance(command, _Draw):
                self._draw_cmd(command)
            elif isinstance(command, _Pass):
                self._pass(command)
            elif isinstance(command, _CallUno):
                uno_call.call(self, command)
            elif isinstance(command, _CatchUno):
                uno_call.catch(self, command)
            elif isinstance(command, _Challenge):
                self._challenge(command)
            elif isinstance(command, _ShowdownResult):
                self._showdown_result(command)
            elif isinstance(command, _ChooseOpening):
                self._choose_opening(command)
            elif isinstance(command, _WrongCard):
                self._wrong_card(command)
            elif isinstance(command, _JumpIn):
                self._jump_in(command)
            elif isinstance(command, _Penalty):
                penalties.give(self, command, penalties.check(self.state, self.rules, command))
            else:
                raise RuleError("unknown-command", f"not a command: {command!r}")
        except RuleError:
            del events[mark:]  # checks run before changes; this only guards that promise
            raise
        self.history.append(command)

    def legal_actions(self, seat: int | None = None, *, reactions: bool = True) -> list[Command]:
        """Every command that would be accepted now (only ``seat``'s when given).

        Includes UNO calls and catches while the catch window is open, and both possible
        :class:`~engine.commands.ShowdownResult` outcomes while a showdown is pending.
        :class:`~engine.commands.WrongCard` reports are never listed (they record a mistake).
        ``reactions=False`` leaves out the UNO self-call and catches.
        """
        return actions.legal_actions(self.state, self.tables, self.rules, seat, reactions=reactions)

    @property
    def over(self) -> bool:
        """True once someone has gone out."""
        return self.state.phase is Phase.OVER

    @property
    def top(self) -> int:
        """The id of the discard pile's top card."""
        return self.state.discard[-1]

    def hand_points(self) -> tuple[int, ...]:
        """Each seat's card values as things stand (rules.md "Card values")."""
        values = self.values
        return tuple(sum(values[c] for c in hand) for hand in self.state.hands)

    def is_playable(self, card: int) -> bool:
        """Would ``card`` match the discard pile now (ignoring whose hand holds it)?"""
        return bool(legality.match_row(self.state, self.tables)[card])

    def wild_draw_four_is_legal(self, seat: int, card: int) -> bool:
        """Whether ``seat`` may play the Wild Draw 4 ``card`` without bluffing (rules.md "Wild
        Draw 4 legality"; :func:`engine.legality.wild_draw_four_is_legal`)."""
        return legality.wild_draw_four_is_legal(self.state, self.tables, self.rules, seat, card)

    # ----------------------------------------------------------------- serialisation

    def to_dict(self) -> dict[str, Any]:
        """The whole round as JSON-ready data: rules, deck, set-up, state, shuffle state, the
        commands so far and the starting state (``start``), so a loaded round can be replayed."""
        data = self._as_dict(self.state, self.rng.getstate(), self.history)
        start = self._start_point()
        if start is not None:
            state, (version, internal, gauss) = start
            data["start"] = {"state": state.to_dict(), "rng": [version, list(internal), gauss]}
        return data

    def _start_point(self) -> tuple[RoundState, Any] | None:
        """The state and shuffle state before the first command, or None if unknown."""
        if self._start is None and self._dealt:
            fresh = Round.new(self.rules, self.setup, self.deck)  # the same deal, again
            self._start = (fresh.state, fresh.rng.getstate())
        return self._start

    @property
    def initial(self) -> dict[str, Any]:
        """The round as it was dealt (or positioned), before any command: :meth:`to_dict` form."""
        start = self._start_point()
        if start is None:
            raise ValueError("this round has no recorded start")
        state, rng_state = start
        return self._as_dict(state, rng_state, [])

    def _as_dict(self, state: RoundState, rng_state: Any, history: list[Command]) -> dict[str, Any]:
        version, internal, gauss = rng_state
        return {
            "rules": self.rules.model_dump(mode="json"),
            "deck": {"name": self.deck.name, "codes": self.deck.codes},
            "setup": self.setup.to_dict(),
            "state": state.to_dict(),
            "rng": [version, list(internal), gauss],
            "history": [COMMAND_ADAPTER.dump_python(c, mode="json") for c in history],
        }

    def to_json(self) -> str:
        """:meth:`to_dict` as a JSON string."""
        return json.dumps(self.to_dict(), separators=(",", ":"))

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Round:
        """Inverse of :meth:`to_dict` (events are not stored; :attr:`events` starts empty)."""
        deck = Deck.from_codes(data["deck"]["name"], data["deck"]["codes"])
        rnd = cls(
            RuleSet.model_validate(data["rules"]),
            deck,
            RoundSetup.from_dict(data["setup"]),
            RoundState.from_dict(data["state"]),
        )
        version, internal, gauss = data["rng"]
        rnd.rng.setstate((version, tuple(internal), gauss))
        rnd.history = [COMMAND_ADAPTER.validate_python(c) for c in data.get("history", [])]
        start = data.get("start")
        if start is not None:
            version, internal, gauss = start["rng"]
            rnd._start = (RoundState.from_dict(start["state"]), (version, tuple(internal), gauss))
        elif not rnd.history:
            rnd._start = (rnd.state.copy(), rnd.rng.getstate())
        return rnd

    @classmethod
    def from_json(cls, text: str) -> Round:
        """Inverse of :meth:`to_json`."""
        return cls.from_dict(json.loads(text))

    @classmethod
    def replay(
        cls, rules: RuleSet, setup: RoundSetup, commands: list[Command], deck: Deck | None = None
    ) -> Round:
        """Deal the round again from ``setup`` and apply ``commands`` in order."""
        rnd = cls.new(rules, setup, deck)
        for command in commands:
            rnd.apply(command)
        return rnd

    def replayed(self) -> Round:
        """A fresh copy of this round rebuilt from its starting state and its :attr:`history`
        (works for rounds from :meth:`new` and from :meth:`from_position`)."""
        rnd = Round.from_dict(self.initial)
        for command in self.history:
            rnd.apply(command)
        return rnd

    # ----------------------------------------------------------------- hooks for card effects
    # What engine.effects (and this class) change a round with while a command is applied: the
    # interface effects.RoundHooks names. They record no command, so anywhere else a change
    # made with them would be lost by replaying or saving the round.

    def emit(self, event: Event) -> None:
        """Record ``event`` as caused by the command being applied."""
        self.events.append(event)

    def next_seat(self, seat: int, steps: int = 1) -> int:
        """The seat ``steps`` places after ``seat`` in the current direction of play."""
        st = self.state
        return (seat + st.direction * steps) % st.players

    def draw_cards(self, seat: int, count: int, reason: str) -> list[int]:
        """``seat`` draws ``count`` cards, top first (fewer if the piles run out; reshuffling
        the discard pile as needed), recorded as one event with ``reason``; its UNO call lapses
        as in :meth:`hand_changed`. Returns the cards drawn."""
        st = self.state
        hand = st.hands[seat]
        pile = st.draw_pile
        if 0 < count <= len(pile):  # the common case: no reshuffle needed
            drawn = pile[-count:]
            del pile[-count:]
            drawn.reverse()  # the top card (the list's end) is drawn first
        else:
            drawn = []
            for _ in range(count):
                card = self._take()
                if card is None:
                    break
                drawn.append(card)
        if drawn:
            hand.extend(drawn)
            st.uno_called[seat] = False  # see hand_changed
            if st.exposed is not None and st.exposed == seat:
                st.exposed = None
            self.events.append(cards_drawn(seat, tuple(drawn), reason))
        return drawn

    def hand_changed(self, seat: int) -> None:
        """A hand changed by something other than its owner's play (swapped, reshuffled,
        discarded from, drawn into): its UNO call lapses (001: it is said again each time a
        player is left with one card) and its owner can no longer be caught."""
        st = self.state
        st.uno_called[seat] = False
        if st.exposed is not None and st.exposed == seat:
            st.exposed = None

    # ----------------------------------------------------------------- helpers

    def _take(self) -> int | None:
        """The top card of the draw pile, reshuffling the discard pile (except its top) first
        if it is empty; None when there is no card left to draw anywhere."""
        st = self.state
        if not st.draw_pile:
            if len(st.discard) <= 1:
                return None
            top = st.discard.pop()
            pile = st.discard
            shuffle(self.rng, pile)
            st.draw_pile = pile
            st.discard = [top]
            self.emit(Reshuffled(cards=len(pile)))
        return st.draw_pile.pop()

    def _draw_one(self, seat: int) -> int | None:
        """``draw_cards(seat, 1, "draw")`` for the plain draw instead of playing (a quarter of
        all commands), without the list handling; the card, or None when none is left."""
        st = self.state
        card = st.draw_pile.pop() if st.draw_pile else self._take()
        if card is None:
            return None
        st.hands[seat].append(card)
        st.uno_called[seat] = False  # see hand_changed
        if st.exposed is not None and st.exposed == seat:
            st.exposed = None
        self.events.append(card_drawn(seat, card))
        return card

    def _begin_turn(self, seat: int) -> None:
        st = self.state
        st.turn = seat
        st.phase = _PLAY
        st.drawn_card = None
        st.turns += 1
        if st.face_up_until is not None and st.face_up_until == seat:
            st.face_up_until = None
        self.events.append(TURN_STARTED[seat])

    def _spend_top(self) -> None:
        """A draw's penalty was taken: under 002's ``spent_draw_colour_only`` its Draw Two (or
        the Skip or Reverse that deflected it) now matches by colour only."""
        st = self.state
        kind = self.tables.kind[st.discard[-1]]
        st.spent = self.rules.spent_draw_colour_only and kind in (_DRAW_TWO, _SKIP, _REVERSE)

    def _close_catch_window(self) -> None:
        """The next player begins their turn without discarding (draws, or loses a challenge):
        nobody can be caught any more, unless the window lasts until the next discard (003,
        ``RuleSet.uno_catch_window``). A card played always closes it (:meth:`_lay_down`)."""
        if self._draw_closes_catch:
            self.state.exposed = None

    def _check_turn(self, player: int, *phases: Phase) -> None:
        st = self.state
        if st.phase not in phases:
            raise legality.phase_refusal(st.phase)
        if player != st.turn:
            raise RuleError(
                "not-your-turn", f"it is player {st.turn}'s turn, not player {player}'s"
            )

    def _check_seat(self, seat: int | None, name: str, player: int) -> int:
        if seat is None or not 0 <= seat < self.state.players or seat == player:
            raise RuleError(
                f"{name}-required",
                f"choose another player (0-{self.state.players - 1}) as {name}",
            )
        return seat

    # ----------------------------------------------------------------- playing a card
    # _play runs the steps of the module docstring in order, one handler per step. Every check
    # is in _check_play, before the first change, so a refused play changes nothing. The
    # handlers are plain methods called directly (no table, no cached bound methods): a compiled
    # build (make bench) then calls them natively.

    def _play(self, cmd: PlayCard) -> None:
        """Play a card: the checks, then its effects in the documented order (steps 1-8)."""
        # Each field read once (a command is an interpreted class: every read is a generic
        # attribute lookup, even compiled); the handlers take plain values.
        player, card, colour, uno = cmd.player, cmd.card, cmd.colour, cmd.uno
        at = self._check_play(cmd, player, card, colour)
        st, t = self.state, self.tables
        last = len(st.hands[player]) == 1
        if self.plain[card] and not last:
            # A number card without an icon (two in five commands) answers no pending draw
            # and has no effect: steps 1-2, then the next seat's turn.
            self._lay_down(player, at, card, None, uno, True)
            self._begin_turn((player + st.direction) % st.players)
            return
        kind = t.kind[card]
        # Judged on the hand and colour before the card leaves: a challenge reads this later.
        legal = kind != _WD4 or self.wild_draw_four_is_legal(player, card)
        self._lay_down(player, at, card, colour, uno, legal)
        if kind == _REVERSE:
            self._reverse()
        extra_turn = False
        if kind in (_SWAP, _SHUFFLE, _CUSTOM, _BLANK) and not last:
            extra_turn = self._hand_effect(cmd, kind)
        elif kind == _ZERO and not last and self.rules.zero_passes_hands and not self.draws[card]:
            hand_passing.pass_hands(self, player)
        following = self._next_turn_after(player, card, kind, legal, last, extra_turn)
        # Only a Wild Showdown, a Showdown icon or (with showdown_every_go_out) a last card can
        # start a showdown: the test spares most plays the call.
        if (kind == _SHOWDOWN or t.icon[card] or last) and self._card_showdown(cmd, kind, last):
            st.turn = following  # who plays once the showdown is settled
        elif last:
            self._end_round(player)
        else:
            self._begin_turn(following)

    def _check_play(self, cmd: PlayCard, player: int, card: int, colour: int | None) -> int:
        """Every rule a play must pass, all before anything changes (a refusal leaves the round
        as it was). Returns the card's place in the hand: found once, it takes the card out."""
        st, t = self.state, self.tables
        phase = st.phase
        if (phase is not _PLAY and phase is not _DRAWN) or player != st.turn:
            self._check_turn(player, *_PLAY_OR_DRAWN)
        hand = st.hands[player]
        at = 0  # the card's place, found by a loop over plain ints (list.index compares objects)
        for held in hand:
            if held == card:
                break
            at += 1
        else:
            raise RuleError("card-not-in-hand", f"player {player} does not hold card {card}")
        if phase is _DRAWN and (st.drawn_card is None or card != st.drawn_card):
            raise RuleError(
                "only-drawn-card", "after drawing, only the card just drawn may be played"
            )
        if st.pending_draw:
            kind = t.kind[card]
            self._check_answer(card, kind)
        elif not t.match[st.colour * _K + (NO_KIND if st.spent else t.top_kind[st.discard[-1]])][
            card
        ]:
            raise RuleError(
                "card-does-not-match",
                f"player {player}'s card must match the colour, number or symbol on top"
                + " (the colour only, once a draw's penalty is taken)" * st.spent,
                seat=player,
            )
        if len(hand) == 1 and not legality.may_go_out_with(t, self.rules, card):
            raise RuleError(
                "last-card-action",
                f"player {player} may not go out on an action or wild card: draw instead",
                seat=player,
            )
        if t.is_wild[card] or colour is not None:  # a number card skips the choices
            self._check_choices(cmd, player, card, colour)
        return at

    def _check_choices(self, cmd: PlayCard, player: int, card: int, colour: int | None) -> None:
        """What the player chose with the card: a wild's colour (and only a wild chooses one),
        a Swap Hands target (none as a last card: it is then a plain Wild), a Wild Showdown's
        opponent and 1-3 cards."""
        t = self.tables
        if t.is_wild[card]:
            if colour is None or not 0 <= colour <= 3:
                raise RuleError("choose-colour", "a wild card needs a colour (0-3)")
        elif colour is not None and colour != t.colour[card]:
            raise RuleError("colour-only-for-wilds", "only a wild card chooses the colour")
        kind = t.kind[card]
        if kind == _SWAP and len(self.state.hands[player]) > 1:
            self._check_seat(cmd.target, "target", player)
        if kind == _SHOWDOWN:
            self._check_seat(cmd.opponent, "opponent", player)
            if cmd.count is None or not 1 <= cmd.count <= 3:
                raise RuleError("showdown-count", "a Wild Showdown loads 1, 2 or 3 cards")

    def _lay_down(  # noqa: PLR0917 - positional on the hot path: a keyword costs more per call
        self, player: int, at: int, card: int, colour: int | None, uno: bool, legal: bool
    ) -> None:
        """Steps 1-2: the card goes from the hand (at index ``at``) onto the discard pile, its
        play is announced (``legal``: an honest Wild Draw 4, for the challenge), the colour to
        follow is set (``colour``, chosen for a wild) and the UNO call settled. Playing begins
        the player's turn, so the catch window on the previous player closes."""
        st = self.state
        st.exposed = None  # a discard closes the catch window under every rule set
        st.spent = False
        st.hands[player].pop(at)  # pop: a compiled build's own list op (del is a generic one)
        st.discard.append(card)
        st.drawn_card = None
        events = self.events
        events.append(card_played(player, card, legal))
        if self.tables.is_wild[card]:
            assert colour is not None
            st.colour = colour
            events.append(COLOUR_CHOSEN[player][colour])
        else:
            st.colour = self.tables.colour[card]
        if uno or len(st.hands[player]) < 2 or st.uno_called[player]:
            uno_call.settle(self, player, uno)
        # else: nothing was said and nothing is due - uno_call.settle would only clear the flag

    def _reverse(self) -> None:
        """Step 3: a Reverse turns play round before anything else reads the direction, so its
        Showdown icon duels, and a deflected draw goes to, the *new* next player."""
        st = self.state
        st.direction = -st.direction
        changed = DIRECTION_CHANGED.get(st.direction)  # +1 or -1 unless set up otherwise
        if changed is None:
            changed = DirectionChanged(direction=st.direction)
        self.events.append(changed)

    def _hand_effect(self, cmd: PlayCard, kind: int) -> bool:
        """Step 4: Swap Hands, Shuffle Hands or the agreed Customizable / Blank effect (never on
        a last card: going out wins). True when the player takes another turn."""
        player = cmd.player
        if kind == _SWAP:
            assert cmd.target is not None
            effects.swap_hands(self, player, cmd.target)
        elif kind == _SHUFFLE:
            effects.shuffle_hands(self, player)
        elif kind in (_CUSTOM, _BLANK):
            return effects.apply_custom(self, player, self.rules.custom_effect)
        return False

    def _next_turn_after(  # noqa: PLR0917 - positional on the hot path
        self, player: int, card: int, kind: int, legal: bool, last: bool, extra_turn: bool
    ) -> int:
        """Steps 5-6: who plays next. A draw card (Draw Two, Wild Draw 4, Killer UNO's red 0),
        or a deflect, puts the draw on the next player, who answers it on their turn; on a last
        card there is no turn left to answer in, so they draw at once and are skipped. Then an
        extra turn, a Skip (or a Reverse with two players), or the next seat."""
        st = self.state
        if self.draws[card]:
            victim = self._pend_draw(player, card, kind, legal)
        elif st.pending_draw:  # a deflect with Skip or Reverse
            st.challenge_offender = None
            victim = self.next_seat(player)
        else:
            victim = -1
        if victim >= 0:
            return self._take_pending(victim) if last else victim
        if extra_turn:
            return player
        if kind == _SKIP or (kind == _REVERSE and st.players == 2):
            return self._skip(player)
        return self.next_seat(player)

    def _pend_draw(self, player: int, card: int, kind: int, legal: bool) -> int:
        """Step 5: a draw card adds its draw (a Draw Two 2, a Wild Draw 4 4) to the draw
        pending on the next player (returned); only a Wild Draw 4 can be challenged (guilty
        unless ``legal``), and not where it may be played at any time (002)."""
        st = self.state
        st.pending_draw += self.draws[card]
        challenged = kind == _WD4 and self.rules.wd4_legality != "any-time"
        st.challenge_offender = player if challenged else None
        st.challenge_guilty = not legal
        return self.next_seat(player)

    def _take_pending(self, victim: int) -> int:
        """``victim`` draws the whole pending total, which ends any challenge, and loses the
        turn; returns the seat after them."""
        st = self.state
        self.draw_cards(victim, st.pending_draw, "penalty")
        st.pending_draw = 0
        st.challenge_offender = None
        self._spend_top()
        self.events.append(TURN_SKIPPED[victim])
        return self.next_seat(victim)

    def _skip(self, player: int) -> int:
        """Step 6 for a Skip (or a two-player Reverse): the next seat loses its turn; returns
        the one after it (with two players, the player again)."""
        skipped = self.next_seat(player)
        self.events.append(TURN_SKIPPED[skipped])
        return self.next_seat(skipped)

    def _card_showdown(self, cmd: PlayCard, kind: int, last: bool) -> bool:
        """Step 7: the showdown the card starts, if any; True when the round enters the
        showdown phase (no card left to load starts none). A Wild Showdown duels the chosen
        opponent, a Showdown icon the next player in the (possibly reversed) direction, and
        under ``showdown_every_go_out`` any last card does, for one card."""
        player, card = cmd.player, cmd.card
        if kind == _SHOWDOWN:
            assert cmd.opponent is not None and cmd.count is not None
            return self._start_showdown(
                player, cmd.opponent, cmd.count, source="wild", card=card, last=last
            )
        icon = self.tables.icon[card]
        if icon:
            return self._start_showdown(
                player, self.next_seat(player), icon, source="icon", card=card, last=last
            )
        if last and self.rules.showdown_every_go_out:
            return self._start_showdown(
                player, self.next_seat(player), 1, source="going-out", card=card, last=True
            )
        return False

    def _check_answer(self, card: int, kind: int) -> None:
        """The current player faces a pending draw: only a permitted stack or deflect may go."""
        st, rules = self.state, self.rules
        if not legality.answer_allowed(st, self.tables, rules, card, kind):
            raise RuleError(
                "answer-the-draw",
                f"player {st.turn} faces a pending draw of {st.pending_draw}: draw it"
                + (", challenge it" if st.challenge_offender is not None else "")
                + (" or stack/deflect as the rules allow" if rules.stacking else "")
                + " (stacking is off)" * (not rules.stacking),
                seat=st.turn,
            )

    def _start_showdown(
        self,
        challenger: int,
        opponent: int,
        count: int,
        *,
        source: str,
        card: int | None,
        last: bool,
    ) -> bool:
        """Enter the showdown phase: load ``count`` cards (fewer if the piles run out) and wait
        for its result, which alone is accepted until then. False, and no showdown, when there
        is not a card left to load."""
        loaded: list[int] = []
        for _ in range(count):
            taken = self._take()
            if taken is None:
                break
            loaded.append(taken)
        if not loaded:
            return False
        st = self.state
        st.showdown = PendingShowdown(challenger, opponent, loaded, source, card, last)
        st.phase = Phase.SHOWDOWN
        self.emit(
            ShowdownStarted(
                challenger=challenger,
                opponent=opponent,
                loaded=tuple(loaded),
                source=source,
                card=card,
                last_card=last,
            )
        )
        return True

    def _end_round(self, player: int) -> None:
        """Step 8, going out: ``player``'s hand is empty and no showdown is pending. Nobody can
        be caught any more; the event carries every hand's points for the score."""
        st = self.state
        st.phase = Phase.OVER
        st.went_out = player
        st.exposed = None
        points = self.hand_points()
        self.emit(round_ended(player, sum(points), points))

    # ----------------------------------------------------------------- other commands

    def _draw_cmd(self, cmd: Draw) -> None:
        st = self.state
        player = cmd.player
        if st.phase is not _PLAY or player != st.turn:
            if st.phase is _DRAWN and player == st.turn:
                raise RuleError("already-drew", "you have drawn this turn: play that card or pass")
            self._check_turn(player, _PLAY)
        if self._draw_closes_catch:
            st.exposed = None  # the catch window closes (see _close_catch_window)
        if st.pending_draw:
            self._begin_turn(self._take_pending(player))
            return
        t = self.tables
        # The match row of legality.match_row, inline: this is a quarter of all commands.
        row = t.match[st.colour * _K + (NO_KIND if st.spent else t.top_kind[st.discard[-1]])]
        for _ in range(self._draw_limit):
            card = self._draw_one(player)
            if card is None:
                break
            if row[card] and (self._drawn_any or t.kind[card] <= _NINE):
                st.phase = _DRAWN
                st.drawn_card = card
                return
        self._begin_turn((player + st.direction) % st.players)

    def _pass(self, cmd: Pass) -> None:
        st = self.state
        if st.phase is not _DRAWN:
            raise RuleError("pass-after-drawing", "you may pass only after drawing a playable card")
        if cmd.player != st.turn:
            self._check_turn(cmd.player, _DRAWN)
        self._begin_turn((cmd.player + st.direction) % st.players)

    def _challenge(self, cmd: Challenge) -> None:
        st, rules = self.state, self.rules
        if rules.wd4_legality == "any-time":
            raise RuleError(
                "no-challenge",
                "a Wild Draw 4 may be played at any time under these rules: nothing to challenge",
                seat=cmd.player,
            )
        if st.phase is not Phase.PLAY or st.challenge_offender is None or cmd.player != st.turn:
            raise RuleError(
                "challenge-only-next-player",
                "only the next player may challenge a Wild Draw 4, before beginning their turn",
            )
        offender = st.challenge_offender
        guilty = st.challenge_guilty
        st.challenge_offender = None
        self.emit(CHALLENGE_DECIDED[cmd.player][offender][guilty])
        if guilty:
            st.pending_draw -= 4
            # Take the card back first, so a reshuffle during the 4-card draw cannot bury it.
            # A Wild Draw 4 that is the only card in the discard pile (a reshuffle left it alone
            # there) stays as the top card: the pile is never empty.
            if rules.wd4_guilty_takes_back and len(st.discard) > 1:
                card = st.discard.pop()
                st.hands[offender].append(card)
                self.hand_changed(offender)
                self.emit(cards_drawn(offender, (card,), "take-back"))
            self.draw_cards(offender, 4, "challenge-guilty")
            return
        # Innocent: the challenger begins (and loses) the turn by drawing, which closes the
        # catch window as taking the draw unchallenged does (001's "beginning a turn").
        self._close_catch_window()
        self.draw_cards(cmd.player, st.pending_draw + 2, "challenge-innocent")
        st.pending_draw = 0
        self.emit(TURN_SKIPPED[cmd.player])
        self._begin_turn(self.next_seat(cmd.player))

    def _choose_opening(self, cmd: ChooseOpening) -> None:
        st, t = self.state, self.tables
        self._check_turn(cmd.player, Phase.OPENING)
        if not 0 <= cmd.colour <= 3:
            raise RuleError("choose-colour", "choose a colour 0-3")
        kind = t.kind[st.discard[-1]]
        if kind == _SWAP and cmd.target is not None:
            self._check_seat(cmd.target, "target", cmd.player)
        if kind == _SHOWDOWN:
            self._check_seat(cmd.opponent, "opponent", cmd.player)
            if cmd.count is None or not 1 <= cmd.count <= 3:
                raise RuleError("showdown-count", "a Wild Showdown loads 1, 2 or 3 cards")
        st.colour = cmd.colour
        self.emit(ColourChosen(player=cmd.player, colour=cmd.colour))
        if kind == _SWAP and cmd.target is not None:
            effects.swap_hands(self, cmd.player, cmd.target)
        # The opening choice is part of the first turn, begun now or once its showdown is settled:
        # that start is not one more turn.
        st.turns -= 1
        if kind == _SHOWDOWN:
            assert cmd.opponent is not None and cmd.count is not None
            if self._start_showdown(
                cmd.player, cmd.opponent, cmd.count, source="wild", card=st.discard[-1], last=False
            ):
                st.turn = cmd.player
                return
        self._begin_turn(cmd.player)

    def _wrong_card(self, cmd: WrongCard) -> None:
        st, t = self.state, self.tables
        penalty = self.rules.wrong_card_penalty
        if not penalty:
            raise RuleError("wrong-card-penalty-off", "the wrong-card penalty is switched off")
        self._check_turn(cmd.player, Phase.PLAY, Phase.DRAWN)
        hand = st.hands[cmd.player]
        if cmd.card not in hand:
            raise RuleError(
                "card-not-in-hand", f"player {cmd.player} does not hold card {cmd.card}"
            )
        try:
            if st.phase is Phase.DRAWN and cmd.card != st.drawn_card:
                raise RuleError("only-drawn-card", "")
            if st.pending_draw:
                self._check_answer(cmd.card, t.kind[cmd.card])
            elif not self.is_playable(cmd.card):
                raise RuleError("card-does-not-match", "")
        except RuleError:
            pass
        else:
            raise RuleError("not-a-wrong-card", "that card may be played: it is not a wrong card")
        self._close_catch_window()
        self.emit(WrongCardPenalised(player=cmd.player, card=cmd.card))
        if st.pending_draw:
            self._spend_top()
        self.draw_cards(cmd.player, penalty + st.pending_draw, "wrong-card")
        st.pending_draw = 0
        st.challenge_offender = None
        self._begin_turn(self.next_seat(cmd.player))

    def _jump_in(self, cmd: JumpIn) -> None:
        """Killer UNO's jump-in (:mod:`engine.jump_in`): the turn passes to the jumper, who
        plays the card as on their own turn. Every check of the play runs before its first
        change, so a refused play only needs the turn put back."""
        st = self.state
        jump_in.check(st, self.tables, self.rules, cmd.player, cmd.card)
        turn, phase, drawn = st.turn, st.phase, st.drawn_card
        st.turn, st.phase, st.drawn_card = cmd.player, _PLAY, None
        self.emit(JumpedIn(player=cmd.player, instead_of=turn))
        try:
            self._play(play_card(cmd.player, cmd.card, None, cmd.uno))
        except RuleError:
            st.turn, st.phase, st.drawn_card = turn, phase, drawn
            raise

    def _showdown_result(self, cmd: ShowdownResult) -> None:
        st = self.state
        duel = st.showdown
        if st.phase is not Phase.SHOWDOWN or duel is None:
            raise RuleError("no-showdown", "there is no showdown to settle")
        if {cmd.winner, cmd.loser} != {duel.challenger, duel.opponent}:
            raise RuleError(
                "showdown-players",
                f"this showdown is between players {duel.challenger} and {duel.opponent}",
            )
        cards = duel.loaded
        st.showdown = None
        st.hands[cmd.loser].extend(cards)
        self.hand_changed(cmd.loser)
        self.emit(
            ShowdownSettled(
                winner=cmd.winner,
                loser=cmd.loser,
                reason=cmd.reason,
                cards=tuple(cards),
                winner_ms=cmd.winner_ms,
                loser_ms=cmd.loser_ms,
            )
        )
        if duel.last_card and cmd.winner == duel.challenger:
            self._end_round(duel.challenger)
            return
        self._begin_turn(st.turn)
