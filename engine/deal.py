"""What every trick-taking deal of the Frap family shares: seats, the stock and the turn-up, the
pot and each seat's chips, the queue of who acts, tricks, and the hand record (HAND_FORMAT.md).

Each game (Frap and Khrap in `frap/`, Student Khrap in `student/`, Napoleon in `napoleon/`) is a
subclass that adds its own
phases and rules; the mechanics here are written once.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from functools import cache, lru_cache
from itertools import combinations
from typing import Any, ClassVar, Self, TypeVar

from .actions import Action, Do, Verb, words
from .cards import BY_INDEX, Card, Suit, make_deck, parse_cards
from .errors import IllegalAction
from .events import (
    CardPlayed,
    ChipsMoved,
    DealSettled,
    Event,
    Reason,
    TrickWon,
    TurnupTaken,
    exchanged,
)
from .tricks import Play, clockwise, deal_round_robin, in_order, trick_winner

FORMAT = "frap-hand/1"
T = TypeVar("T")


class _Start(StrEnum):
    DEALT = "dealt"


@dataclass
class TrickDeal:
    """The state all games of the family share. Subclasses set `game` and add their own fields."""

    game: ClassVar[str]
    MIN_PLAYERS: ClassVar[int]
    MAX_PLAYERS: ClassVar[int]
    MAX_ROUNDS: ClassVar[int] = 3  # bidding rounds before the redeal (F8, K3, SK5)
    DECLARER_NEEDS: ClassVar[int] = 2  # tricks the declarer promises (F5, K2, SK4)
    HAND_SIZE: ClassVar[int] = 4  # cards dealt to each seat (F4, K1, SK1)
    FINISHED: ClassVar[StrEnum]  # the game's Phase.FINISHED
    # The words its records say: Frap's (`Do`, every family game's) and its own (a `Verb` of its
    # package); `WORDS` has each by its spelling (made from `VERBS`).
    VERBS: ClassVar[tuple[type[Verb], ...]] = (Do,)
    WORDS: ClassVar[dict[str, Verb]] = words(VERBS)
    # The fields each word carries besides `seat` and `do` (HAND_FORMAT); any other is refused.
    ACTION_FIELDS: ClassVar[dict[Verb, frozenset[str]]] = {
        Do.PLAY: frozenset({"card"}),
        Do.DARK_DISCARD: frozenset({"card"}),
        Do.CUT_DISCARD: frozenset({"card"}),
        Do.DISCARD: frozenset({"cards"}),
        Do.CUT: frozenset({"turnup"}),
    }
    # Words whose cards go face down: others see only that something was discarded (F9, SK6).
    FACE_DOWN: ClassVar[frozenset[Verb]] = frozenset({Do.DISCARD})
    # Words after which a hand holds cards it did not hold when it spoke (F9, SK6).
    CHANGES_HAND: ClassVar[frozenset[Verb]] = frozenset({Do.DISCARD})
    _BY_NAME: ClassVar[dict[str, type[TrickDeal]]] = {}  # every family game, by its record name

    def __init_subclass__(cls, **kwargs: Any) -> None:
        """A class that names its `game` is that game's deal: records of it replay (record.py),
        in its words (`VERBS`)."""
        super().__init_subclass__(**kwargs)
        cls.WORDS = words(cls.VERBS)
        if "game" in cls.__dict__:
            TrickDeal._BY_NAME[cls.game] = cls

    @staticmethod
    def named(game: object) -> type[TrickDeal] | None:
        """The deal class of the family game a record names, if there is one."""
        return TrickDeal._BY_NAME.get(game) if isinstance(game, str) else None

    players: tuple[str, ...]
    dealer: int
    ante: int
    start_pot: int  # the pot before this deal's ante
    pot_had_penalty: bool  # the previous deal left penalty money in the pot (F3)
    redeal: bool  # the redeal after the all-pass rounds: no ante at its start
    deck: tuple[Card, ...]  # top card first
    # Every field holds an immutable value (tuples, not lists): a step rebinds what it changes, so
    # a state is copied by copying its fields' references (`copy`), and no step can change a state
    # that someone else still holds.
    hands: tuple[tuple[Card, ...], ...] = ()
    next_card: int = 0  # index in `deck` of the top of the stock
    turnup: Card | None = None  # on the table, claimable
    trump: Suit = Suit.SPADES
    dead_turnups: tuple[Card, ...] = ()
    discards: tuple[Card, ...] = ()  # face down
    phase: StrEnum = field(default_factory=lambda: _Start.DEALT)  # each game has its own Phase
    round: int = 1  # bidding round
    queue: tuple[int, ...] = ()  # seats still to act in this phase; [0] acts
    bids: tuple[Verb | None, ...] = ()  # each seat's latest word
    declarer: int | None = None
    leader: int | None = None
    trick: tuple[Play, ...] = ()
    tricks_played: tuple[tuple[Play, ...], ...] = ()
    tricks_won: tuple[int, ...] = ()
    p0: int = 0  # the pot when play starts
    delta: tuple[int, ...] = ()  # each seat's chips over the deal
    pot_has_penalty: bool = False  # the pot now holds penalty money
    needs_redeal: bool = False  # finished by all-pass rounds: the same dealer redeals
    actions: tuple[Action, ...] = ()
    # What `legal_actions` has worked out for this state, by seat: a cache, not state.
    _offers: dict[int, list[Action]] = field(
        default_factory=dict, init=False, repr=False, compare=False
    )

    # ---- questions ------------------------------------------------------------------------------

    @property
    def n(self) -> int:
        """The number of players."""
        return len(self.players)

    @property
    def left_of_dealer(self) -> int:
        """The seat that is dealt and speaks first (F2)."""
        return (self.dealer + 1) % self.n

    @property
    def pot(self) -> int:
        """The chips in the pot now."""
        return self.start_pot - sum(self.delta)

    @property
    def stock(self) -> tuple[Card, ...]:
        """The cards left in the stock, top first."""
        return self.deck[self.next_card :]

    @property
    def stock_size(self) -> int:
        """How many cards the stock holds."""
        return len(self.deck) - self.next_card

    @property
    def finished(self) -> bool:
        """Whether the deal is over."""
        return self.phase is self.FINISHED

    @property
    def to_act(self) -> int | None:
        """The seat whose turn it is, or None when the deal is over."""
        return None if self.finished else self.queue[0]

    @property
    def participants(self) -> list[int]:
        """The seats that play tricks."""
        raise NotImplementedError

    @property
    def next_dealer(self) -> int:
        """Who deals the next deal (F2: the next seat; F8: the same dealer for a redeal)."""
        return self.dealer if self.needs_redeal else (self.dealer + 1) % self.n

    def legal_actions(self, seat: int) -> list[Action]:
        """Every action `seat` may take now (worked out once per state and seat)."""
        return self._offered_to(seat).copy()

    def _offered_to(self, seat: int) -> list[Action]:
        """`legal_actions` as worked out for this state (never to be changed by the caller)."""
        offers = self._offers.get(seat)
        if offers is None:
            offers = self._offers[seat] = self._offer(seat)
        return offers

    def _offer(self, seat: int) -> list[Action]:
        """Every action `seat` may take now: each game's rules (F5–F12, K, SK, N)."""
        raise NotImplementedError

    def forced_move(self) -> Action | None:
        """The move nobody chooses, which the host makes at once: the one legal card
        of the seat due at the last trick (every hand down to its last card); None otherwise."""
        seat = self.to_act
        if seat is None or len(self.hands[seat]) != 1:
            return None
        plays = [a for a in self._offered_to(seat) if a.do is Do.PLAY]
        return plays[0] if len(plays) == 1 else None

    def role(self, seat: int) -> str | None:
        """What the seat is in this deal, for the table: "declarer", "whister", … or None."""
        raise NotImplementedError

    def hand_hidden(self, seat: int) -> bool:
        """Whether the seat's own hand is still face down (F7)."""
        return False

    @property
    def trump_named(self) -> bool:
        """Whether `trump` is known yet (the turn-up names it at once; N4: the first lead)."""
        return True

    @property
    def contract(self) -> Verb | None:
        """The declarer's word (frap, dark frap, khrap, veselyu, …), or None before there is one."""
        return self.bids[self.declarer] if self.declarer is not None else None

    @property
    def dark(self) -> bool:
        """Whether the contract was said before its declarer looked at his hand (F7)."""
        return False

    @property
    def declarer_needs(self) -> int:
        """The tricks the declarer's contract promises (F5, K2, SK4; N2: the bid)."""
        return self.DECLARER_NEEDS

    def bid_level(self, seat: int) -> int | None:
        """The height of the seat's latest bid where bids have one (N2), else None."""
        return None

    # ---- applying -------------------------------------------------------------------------------

    def apply(self, action: Action) -> tuple[Self, list[Event]]:
        """The state after `action` and what happened; raises IllegalAction and changes nothing.

        An action that `legal_actions` offers (the same or an equal one) is taken as offered,
        without checking it again; any other goes through every check, which names the rule it
        breaks, and is taken if it passes (a discard naming its cards in another order)."""
        new = self.copy()
        offered = self._offered(action)
        if offered is not None:
            return new, new._step(offered)
        return new, new._apply_in_place(self._normalised(action))

    def copy(self) -> Self:
        """An independent copy: every field is immutable, so the copy shares their values. It has
        worked nothing out yet, so its fields may be changed before it is asked anything (the
        computer players imagine hidden cards so)."""
        new = object.__new__(type(self))
        state = new.__dict__ = self.__dict__.copy()  # the copy's own dict, not refilled key by key
        state["_offers"] = {}
        return new

    def _offered(self, action: Action) -> Action | None:
        """The action of `legal_actions` equal to `action`, or None."""
        seat = action.seat
        if type(seat) is not int:
            return None  # not a seat: the checks say why
        offers = self._offered_to(seat)
        # `in` first: a failed `index` would spell the action out in its error message.
        return offers[offers.index(action)] if action in offers else None

    def _apply_in_place(self, action: Action) -> list[Event]:
        """Check `action` against the rules (IllegalAction names the rule), then take it."""
        raise NotImplementedError

    def _step(self, action: Action) -> list[Event]:
        """Take a legal action: change this (new) state and say what happened."""
        raise NotImplementedError

    def _normalised(self, action: Action) -> Action:
        """`do` as one of the game's verbs and `cards` as a tuple, as in a replayed record, so
        that a plain string (or another game's word spelled alike) cannot pass for another action
        and live and replayed deals compare equal; a field the word does not take (a card on a
        pass, a joker flag in Frap) is refused, not recorded."""
        do, cards = action.do, action.cards
        if type(do) not in self.VERBS or not (cards is None or type(cards) is tuple):
            try:
                do = self.WORDS[do]
            except (KeyError, TypeError):
                word = str(do) if isinstance(do, str) else do  # the word, not its class
                raise IllegalAction(self._phase_rule(), f"no such action {word!r}") from None
            action = action._replace(do=do, cards=None if cards is None else tuple(cards))
        for name in _fields_refused(self.ACTION_FIELDS.get(do, _NO_FIELDS)):
            if getattr(action, name) is not None:
                raise IllegalAction(self._phase_rule(), f"{do.value} takes no {name}")
        return action

    def _phase_rule(self) -> str:
        """The rule point that governs the current phase (named in refusals)."""
        raise NotImplementedError

    def _check_seat_and_turn(
        self, action: Action, allowed: set[Verb] | frozenset[Verb], finished_rule: str
    ) -> None:
        if self.finished:
            raise IllegalAction(finished_rule, "the deal is over")
        if not 0 <= action.seat < self.n:
            raise IllegalAction("F2", f"there is no seat {action.seat}")
        if action.do not in allowed:
            raise IllegalAction(self._phase_rule(), f"cannot {action.do.value} now ({self.phase})")
        if action.seat != self.queue[0]:
            raise IllegalAction(
                self._phase_rule(), f"it is seat {self.queue[0]}'s turn, not seat {action.seat}'s"
            )

    # ---- shared mechanics -----------------------------------------------------------------------

    @classmethod
    def _check_header(
        cls, players: Sequence[str], dealer: int, ante: int, pot: int, deck: Sequence[Card],
        deck_size: int, hand_size: int,
    ) -> None:  # fmt: skip
        """F1–F3 for any game: seat count, distinct names, the whole deck, sane numbers."""
        n = len(players)
        if not cls.MIN_PLAYERS <= n <= cls.MAX_PLAYERS:
            raise ValueError(
                f"F1: {cls.game} is for {cls.MIN_PLAYERS}–{cls.MAX_PLAYERS} players, not {n}"
            )
        if not all(isinstance(name, str) for name in players) or len(set(players)) != n:
            # HAND_FORMAT: names label the seats in a record's outcome, so they must differ.
            raise ValueError("F2: the players must be distinct names")
        if deck_size < hand_size * n + 1:
            raise ValueError(f"F1: a deck of {deck_size} cards is too small for {n} players")
        if len(deck) != deck_size or frozenset(map(id, deck)) != _full_deck(deck_size):
            raise ValueError(f"F1: the deck must be the {deck_size}-card deck, each card once")
        if not _is_int(dealer) or not 0 <= dealer < n:
            raise ValueError(f"F2: no seat {dealer!r} to deal")
        if not (_is_int(ante) and _is_int(pot)) or ante < 0 or pot < 0:
            raise ValueError("F3: the ante and the pot are whole numbers of chips, not negative")

    def _start(
        self, hand_size: int, *, ante: bool, events: list[Event], turn_up: bool = True,
        reason: Reason = Reason.ANTE,
    ) -> None:  # fmt: skip
        """Antes if due, `hand_size` cards to each seat one at a time, the turn-up (F3, F4);
        Napoleon turns nothing up and calls its ante a contribution (N1)."""
        n = self.n
        self.bids = (None,) * n
        self.tricks_won = (0,) * n
        self.delta = (0,) * n
        if ante:
            self._everyone_pays(reason, events)
        self.hands, self.next_card = deal_round_robin(self.deck, self.left_of_dealer, n, hand_size)
        if turn_up:
            self._turn_up_next()
        self.queue = clockwise(self.left_of_dealer, n)

    @property
    def _declarer(self) -> int:
        assert self.declarer is not None
        return self.declarer

    def _everyone_pays(self, reason: Reason, events: list[Event]) -> None:
        ante = self.ante
        if ante:
            events += [
                ChipsMoved(seat, -ante, reason) for seat in clockwise(self.left_of_dealer, self.n)
            ]
            self.delta = tuple(chips - ante for chips in self.delta)

    def _move(self, move: ChipsMoved, events: list[Event]) -> None:
        self.delta = with_item(self.delta, move.seat, self.delta[move.seat] + move.amount)
        events.append(move)

    def _draw(self, count: int) -> tuple[Card, ...]:
        drawn = self.deck[self.next_card : self.next_card + count]
        self.next_card += count
        return drawn

    def _turn_up_next(self) -> None:
        (self.turnup,) = self._draw(1)
        self.trump = self.turnup.suit

    def _take_turnup(self, seat: int, events: list[Event]) -> None:
        card = self.turnup
        assert card is not None
        self.turnup = None
        self._set_hand(seat, (*self.hands[seat], card))
        events.append(TurnupTaken(seat, card))

    def _discard_one(self, action: Action, rule: str, events: list[Event]) -> None:
        seat, card, hand = action.seat, action.card, self.hands[action.seat]
        if card is None:
            raise IllegalAction(rule, "say which card is discarded")
        if card not in hand:
            raise IllegalAction(rule, f"{card} is not in the hand")
        at = hand.index(card)
        self._set_hand(seat, hand[:at] + hand[at + 1 :])
        self.discards += (card,)
        events.append(exchanged(seat, 1, 0))

    def _set_hand(self, seat: int, hand: tuple[Card, ...]) -> None:
        self.hands = with_item(self.hands, seat, hand)

    def _drop_hand(self, seat: int, keep: Sequence[Card] = ()) -> None:
        """Put the seat's cards face down, all but `keep`."""
        hand = self.hands[seat]
        self.discards += tuple(card for card in hand if card not in keep)
        self._set_hand(seat, tuple(card for card in hand if card in keep))

    def _exchange_options(self, seat: int, most: int) -> list[Action]:
        """DISCARD actions for every set of up to `most` cards the stock can replace (F9, SK6)."""
        hand = self.hands[seat]
        limit = min(most, self.stock_size)
        return [
            Action(seat, Do.DISCARD, None, combo)
            for k in range(limit + 1)
            for combo in combinations(hand, k)
        ]

    def _exchange(self, action: Action, rule: str, events: list[Event]) -> None:
        """Discard the named cards face down and draw as many from the stock (F9, SK6)."""
        seat, cards = action.seat, action.cards
        if cards is None:
            raise IllegalAction(rule, "say which cards to discard (possibly none)")
        hand = self.hands[seat]
        if len(set(cards)) != len(cards):
            raise IllegalAction(rule, "a card is named twice")
        for card in cards:
            if card not in hand:
                raise IllegalAction(rule, f"{card} is not in the hand")
        if len(cards) > self.stock_size:
            raise IllegalAction(rule, f"the stock holds only {self.stock_size} cards")
        kept = tuple(card for card in hand if card not in cards)
        self.discards += cards
        self._set_hand(seat, kept + self._draw(len(cards)))
        events.append(exchanged(seat, len(cards), len(cards)))

    def _lay(
        self, seat: int, card: Card, tricks_in_deal: int, events: list[Event], joker: bool = False
    ) -> None:
        """Put a card on the trick (`joker`: the SK2 joker); when everyone has played, the trick is
        won and the next led, or after the last trick (N4: or once the outcome is certain) the
        deal is settled (F12)."""
        hand = self.hands[seat]
        at = hand.index(card)
        self._set_hand(seat, hand[:at] + hand[at + 1 :])
        self.trick += (Play(seat, card, joker) if joker else _LAID[seat][card.index],)
        events.append(_PLAYED[seat][card.index])
        self.queue = self.queue[1:]
        if self.queue:
            return
        trick = self.trick
        winner = trick_winner(trick, self.trump)
        self.tricks_won = with_item(self.tricks_won, winner, self.tricks_won[winner] + 1)
        self.tricks_played += (trick,)
        events.append(TrickWon(len(self.tricks_played), winner, tuple(p.card for p in trick)))
        self.trick = ()
        if len(self.tricks_played) == tricks_in_deal or self._play_stops():
            self._settle(events)
        else:
            self.leader = winner
            self.queue = in_order(self.participants, winner, self.n)

    def _play_stops(self) -> bool:
        """Whether play ends before the last trick (N4); the Frap games play every trick."""
        return False

    def _settle(self, events: list[Event]) -> None:
        raise NotImplementedError

    def _declarer_takes_pot(self, events: list[Event]) -> None:
        """Nobody stands against the declarer: the whole pot is his, no play (F6, SK4)."""
        self._move(ChipsMoved(self._declarer, self.pot, Reason.POT_TAKEN), events)
        self.pot_has_penalty = False
        self._finish(events)

    def _finish(self, events: list[Event]) -> None:
        self.phase = self.FINISHED
        self.queue = ()
        events.append(
            DealSettled(
                self.delta, self.tricks_won, self.pot, self.pot_has_penalty,
                self.needs_redeal,
            )
        )  # fmt: skip

    # ---- records --------------------------------------------------------------------------------

    def rules_record(self) -> dict[str, Any]:
        """The record's `rules` object."""
        raise NotImplementedError

    def to_record(self) -> dict[str, Any]:
        """The deal as a `frap-hand/1` record: header plus every action so far."""
        record: dict[str, Any] = {
            "format": FORMAT,
            "game": self.game,
            "rules": self.rules_record(),
            "players": list(self.players),
            "dealer": self.dealer,
            "ante": self.ante,
            "pot": self.start_pot,
            "pot_has_penalty": self.pot_had_penalty,
            "deck": [str(card) for card in self.deck],
            "actions": [action.to_record() for action in self.actions],
        }
        if self.redeal:
            record["redeal"] = True
        return record

    @classmethod
    def start_from_record(cls, record: dict[str, Any]) -> Self:
        """The deal a record starts with, before any of its actions; ValueError if malformed."""
        rules = record.get("rules", {"preset": "classic"})
        players, deck = record["players"], record["deck"]
        if not isinstance(rules, dict):
            raise ValueError("rules must be an object")
        if not isinstance(players, list):
            raise ValueError("players must be a list of names")
        if not isinstance(deck, list) or not all(isinstance(code, str) for code in deck):
            raise ValueError("deck must be a list of card codes")
        flags = {name: record.get(name, False) for name in ("pot_has_penalty", "redeal")}
        for name, value in flags.items():
            if not isinstance(value, bool):
                raise ValueError(f"{name} must be true or false")
        deal, _ = cls.create(
            rules, players, record["dealer"], record["ante"], record["pot"], parse_cards(deck),
            pot_has_penalty=flags["pot_has_penalty"], redeal=flags["redeal"],
        )  # fmt: skip
        return deal

    @classmethod
    def create(
        cls, rules: dict[str, Any], players: Sequence[str], dealer: int, ante: int, pot: int,
        deck: Sequence[Card], *, pot_has_penalty: bool = False, redeal: bool = False,
    ) -> tuple[Self, list[Event]]:  # fmt: skip
        """Start a deal from a record-style `rules` object (the same for every game)."""
        raise NotImplementedError

    @classmethod
    def deck_size_for(cls, rules: dict[str, Any], n_players: int) -> int:
        """The deck a deal of `n_players` is played with under these rules."""
        raise NotImplementedError


_OPTIONAL_FIELDS = ("card", "cards", "turnup", "joker", "suit", "tricks")
_NO_FIELDS: frozenset[str] = frozenset()


@cache
def _fields_refused(takes: frozenset[str]) -> tuple[str, ...]:
    """The optional fields of an Action that a word taking `takes` must leave unset."""
    return tuple(name for name in _OPTIONAL_FIELDS if name not in takes)


MAX_SEATS = 12  # the most seats any game of the family has (F1)


# A card laid on a trick and the event that says so, per seat, at the card's index (`_lay`).
_LAID = tuple(tuple(Play(seat, card) for card in BY_INDEX) for seat in range(MAX_SEATS))
_PLAYED = tuple(tuple(CardPlayed(seat, card) for card in BY_INDEX) for seat in range(MAX_SEATS))


def card_actions(seat: int, do: Verb) -> tuple[Action, ...]:
    """The shared Actions of `seat` saying `do` (a word that names one card: play, a discard of
    one), at each card's index: `card_actions(seat, Do.PLAY)[card.index]`."""
    return _card_actions(do)[seat]


# The Actions that name one card, per seat, at the card's index, made once per word: `legal_
# actions` offers them again and again, and a list index is cheaper than any lookup by value.
# Typed: two games' words spelled alike are equal, yet each game's Actions say its own.
@lru_cache(maxsize=None, typed=True)
def _card_actions(do: Verb) -> tuple[tuple[Action, ...], ...]:
    return tuple(tuple(Action(seat, do, card) for card in BY_INDEX) for seat in range(MAX_SEATS))


@lru_cache(maxsize=None, typed=True)
def shared_action(
    seat: int, do: Verb, card: Card | None = None, turnup: bool | None = None,
    joker: bool | None = None, suit: Suit | None = None,
) -> Action:  # fmt: skip
    """A shared Action (immutable): `legal_actions` offers the same few again and again (a seat,
    a word, at most one card: a small set), and building a frozen dataclass costs more than
    finding it again. Typed, as `_card_actions`."""
    return Action(seat, do, card, None, turnup, joker, suit)


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


@cache
def _full_deck(size: int) -> frozenset[int]:
    """The deck's cards by identity (each card is one object): cheaper to compare than hashes."""
    return frozenset(map(id, make_deck(size)))


def with_item(values: tuple[T, ...], at: int, value: T) -> tuple[T, ...]:
    """`values` with the one at `at` replaced."""
    changed = list(values)
    changed[at] = value
    return tuple(changed)
