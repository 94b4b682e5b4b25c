"""One deal of Napoleon (Клад Наполеона, docs/rules.md N1–N8) as a state machine.

36 cards, 2–6 players, 5 cards each and no turn-up. Bidding from the dealer: 1–5 tricks or
napoleon, the dealer alone may say "here" to take a bid over at its level. The declarer may
exchange one card, leads, and his first card names the trump; everyone plays, and play stops as
soon as the outcome is certain. The treasure is the deal's pot: everyone contributes to it at the
start (N1), a failed bid feeds it and a napoleon made takes it (N5–N7).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from functools import cache
from typing import Any, ClassVar, Self

from ..actions import Action, Do, Verb
from ..cards import Card
from ..deal import TrickDeal, _is_int, card_actions, with_item
from ..errors import IllegalAction
from ..events import Event, Reason, bid_made
from ..tricks import clockwise, legal_plays, why_illegal
from .rules import NapoleonRules
from .settle import ALL_TRICKS, NAPOLEON, settle

HAND_SIZE = 5  # N1
DECK_SIZE = 36  # N1


class NapoleonDo(Verb):
    """Napoleon's own words (N2): a bid of 1–5 tricks (with `tricks`), napoleon, and the
    dealer's "here"."""

    BID = "bid"
    NAPOLEON = "napoleon"
    HERE = "here"


class Phase(StrEnum):
    """The stage a Napoleon deal is in."""

    BIDDING = "bidding"  # N2
    EXCHANGE = "exchange"  # N3
    PLAY = "play"  # N4
    FINISHED = "finished"  # N5–N7


_PHASE_RULE = {Phase.BIDDING: "N2", Phase.EXCHANGE: "N3", Phase.PLAY: "N4"}
_PHASE_ACTIONS: dict[Phase, frozenset[Verb]] = {
    Phase.BIDDING: frozenset({NapoleonDo.BID, NapoleonDo.NAPOLEON, NapoleonDo.HERE, Do.PASS}),
    Phase.EXCHANGE: frozenset({Do.DISCARD}),
    Phase.PLAY: frozenset({Do.PLAY}),
    Phase.FINISHED: frozenset(),
}


@dataclass
class NapoleonDeal(TrickDeal):
    """The whole state of one Napoleon deal. Use `new`, `apply` and `start_from_record`.

    `ante` is each player's contribution c to the treasure and `start_pot` the treasure before
    the deal (N1); `stake` is u, the chips per trick of the bid (N5)."""

    game: ClassVar[str] = "napoleon"
    MIN_PLAYERS: ClassVar[int] = 2  # N1
    MAX_PLAYERS: ClassVar[int] = 6
    MAX_ROUNDS: ClassVar[int] = 1  # N2: one bidding, no new trump rounds
    HAND_SIZE: ClassVar[int] = HAND_SIZE
    FINISHED: ClassVar[StrEnum] = Phase.FINISHED
    VERBS: ClassVar[tuple[type[Verb], ...]] = (Do, NapoleonDo)
    ACTION_FIELDS: ClassVar[dict[Verb, frozenset[str]]] = {
        NapoleonDo.BID: frozenset({"tricks"}),
        Do.DISCARD: frozenset({"cards"}),
        Do.PLAY: frozenset({"card"}),
    }

    rules: NapoleonRules = field(default_factory=NapoleonRules)
    phase: Phase = Phase.BIDDING
    stake: int = 0  # u (N5)
    level: int = 0  # the highest bid so far: 0 none, 1–5 tricks, NAPOLEON (N2)
    holder: int | None = None  # who holds it
    levels: tuple[int, ...] = ()  # each seat's latest bid (0: none or pass)

    # ---- creation -------------------------------------------------------------------------------

    @classmethod
    def new(
        cls,
        rules: NapoleonRules,
        players: Sequence[str],
        dealer: int,
        contribution: int,
        treasure: int,
        deck: Sequence[Card],
        *,
        stake: int | None = None,
    ) -> tuple[NapoleonDeal, list[Event]]:
        """Start a deal: everyone pays `contribution` into `treasure`, five cards each from the
        dealer's left (N1); `stake` (u) defaults to the contribution; `deck` is top card first."""
        cls._check_header(players, dealer, contribution, treasure, deck, DECK_SIZE, HAND_SIZE)
        stake = _checked_stake(contribution if stake is None else stake)
        deal = cls(
            players=tuple(players), dealer=dealer, ante=contribution, start_pot=treasure,
            pot_had_penalty=False, redeal=False, deck=tuple(deck), rules=rules, stake=stake,
        )  # fmt: skip
        events: list[Event] = []
        deal._start(HAND_SIZE, ante=True, events=events, turn_up=False, reason=Reason.CONTRIBUTION)
        deal.levels = (0,) * deal.n
        deal.queue = clockwise(dealer, deal.n)  # N2: the dealer speaks first
        return deal, events

    @classmethod
    def create(
        cls, rules: dict[str, Any], players: Sequence[str], dealer: int, ante: int, pot: int,
        deck: Sequence[Card], *, pot_has_penalty: bool = False, redeal: bool = False,
        stake: int | None = None,
    ) -> tuple[NapoleonDeal, list[Event]]:  # fmt: skip
        """Start a deal from a record-style `rules` object; `ante` is the contribution c, `pot`
        the treasure, `stake` u (default c). N1: every deal, a redeal included, starts with the
        contributions, so the two flags change nothing."""
        rules_object = NapoleonRules.from_dict(rules)
        return cls.new(rules_object, players, dealer, ante, pot, deck, stake=stake)

    @classmethod
    def start_from_record(cls, record: dict[str, Any]) -> Self:
        """The deal a record starts with; its optional `stake` is u (default: `ante`)."""
        deal = super().start_from_record(record)
        deal.stake = _checked_stake(record.get("stake", deal.ante))
        return deal

    @classmethod
    def deck_size_for(cls, rules: dict[str, Any], n_players: int) -> int:
        """N1: always the 36-card deck."""
        return DECK_SIZE

    def rules_record(self) -> dict[str, Any]:
        """The record's `rules` object (no preset: HAND_FORMAT)."""
        return self.rules.to_dict()

    def to_record(self) -> dict[str, Any]:
        """The deal as a record; `stake` is always written."""
        return {**super().to_record(), "stake": self.stake}

    # ---- questions ------------------------------------------------------------------------------

    @property
    def participants(self) -> list[int]:
        """N4: once there is a declarer, everyone plays, those who passed included."""
        return list(range(self.n)) if self.declarer is not None else []

    @property
    def trump_named(self) -> bool:
        """N4: the declarer's first lead names the trump."""
        return bool(self.trick or self.tricks_played)

    @property
    def contract(self) -> Verb | None:
        """napoleon or a numbered bid, once bidding has made a declarer."""
        if self.declarer is None:
            return None
        return NapoleonDo.NAPOLEON if self.level == NAPOLEON else NapoleonDo.BID

    @property
    def declarer_needs(self) -> int:
        """The tricks the highest bid promises: its number, five for napoleon (N2)."""
        return min(self.level, ALL_TRICKS)

    def bid_level(self, seat: int) -> int | None:
        """The seat's latest bid: 1–5 tricks, NAPOLEON; None for a pass or before speaking."""
        return self.levels[seat] or None

    def role(self, seat: int) -> str | None:
        """ "declarer", or "opponent" for every other seat once bidding is over (N4); None while
        bidding."""
        if self.declarer is None:
            return None
        return "declarer" if seat == self.declarer else "opponent"

    def _offer(self, seat: int) -> list[Action]:
        """Every action `seat` may take now."""
        if self.finished or seat != self.queue[0]:
            return []
        match self.phase:
            case Phase.BIDDING:
                here = seat == self.dealer and self.holder is not None
                return list(_bidding_words(seat, self.level, here))
            case Phase.EXCHANGE:
                return self._exchange_options(seat, 1)  # N3
            case Phase.PLAY:
                led = self.trick[0].card.suit if self.trick else None
                hand = self.hands[seat]
                row = card_actions(seat, Do.PLAY)
                return [row[c.index] for c in legal_plays(hand, led, self.trump)]
        return []

    def _why_not(self, action: Action) -> str | None:
        """Why the bidding word may not be said now (N2), or None if it may."""
        match action.do:
            case NapoleonDo.BID:
                k = action.tricks
                if k is None:
                    return "say how many tricks (1–5)"
                if not _is_int(k) or not 1 <= k <= ALL_TRICKS:
                    return f"a bid is 1–5 tricks (above that, napoleon), not {k!r}"
                if self.level == NAPOLEON:
                    return "nobody can go above napoleon"
                if k <= self.level:
                    return f"bid higher than {self.level}"
            case NapoleonDo.NAPOLEON if self.level == NAPOLEON:
                return "nobody can go above napoleon"
            case NapoleonDo.HERE if action.seat != self.dealer:
                return "only the dealer may say here"
            case NapoleonDo.HERE if self.holder is None:
                return "here takes over a bid; none is made"
        return None

    # ---- applying -------------------------------------------------------------------------------

    def _phase_rule(self) -> str:
        if self.phase is Phase.FINISHED:
            return "N4" if self.tricks_played else "N2"
        return _PHASE_RULE[self.phase]

    def _apply_in_place(self, action: Action) -> list[Event]:
        finished_rule = "N4" if self.tricks_played else "N2"
        self._check_seat_and_turn(action, _PHASE_ACTIONS[self.phase], finished_rule)
        return self._step(action)

    def _step(self, action: Action) -> list[Event]:
        events: list[Event] = []
        _HANDLERS[self.phase](self, action, events)
        self.actions += (action,)
        return events

    def _bid(self, action: Action, events: list[Event]) -> None:
        """N2: higher, napoleon, the dealer's here, or pass; the last bidder standing declares."""
        why = self._why_not(action)
        if why is not None:
            raise IllegalAction("N2", why)
        seat, do = action.seat, action.do
        if do is Do.PASS:
            self.levels = with_item(self.levels, seat, 0)
            self.queue = self.queue[1:]  # out of the bidding
        else:
            if do is NapoleonDo.BID:
                assert action.tricks is not None
                self.level = action.tricks
            elif do is NapoleonDo.NAPOLEON:
                self.level = NAPOLEON
            self.holder = seat  # "here" keeps the level and takes the bid over
            self.levels = with_item(self.levels, seat, self.level)
            self.queue = (*self.queue[1:], seat)  # to the back of the bidding
        self.bids = with_item(self.bids, seat, do)
        events.append(bid_made(seat, do, self.level if do is not Do.PASS else None))
        if self.holder is not None and len(self.queue) == 1:
            assert self.queue == (self.holder,)  # the holder never speaks while holding
            self.declarer = self.holder
            self.phase = Phase.EXCHANGE  # N3: the declarer decides before the first lead
        elif not self.queue:
            self._finish(events)  # N2: everyone passed; the contributions stay in the treasure

    def _exchange_card(self, action: Action, events: list[Event]) -> None:
        """N3: one card face down and the top of the stock, or keep the hand."""
        if action.cards is not None and len(action.cards) > 1:
            raise IllegalAction("N3", "exchange one card, or keep the hand")
        self._exchange(action, "N3", events)
        self.phase = Phase.PLAY
        self.leader = self._declarer  # N4: the declarer leads the first trick
        self.p0 = self.pot
        self.queue = clockwise(self._declarer, self.n)

    def _play(self, action: Action, events: list[Event]) -> None:
        """N4 (as F12): follow suit, else trump, else anything; the first lead names the trump."""
        seat, card = action.seat, action.card
        if card is None:
            raise IllegalAction("N4", "say which card is played")
        hand = self.hands[seat]
        led = self.trick[0].card.suit if self.trick else None
        if card not in legal_plays(hand, led, self.trump):
            raise IllegalAction("N4", why_illegal(card, hand, led, self.trump) or "")
        if not self.tricks_played and not self.trick:
            self.trump = card.suit  # N4: the suit of the first card led is trump
        self._lay(seat, card, HAND_SIZE, events)

    def _play_stops(self) -> bool:
        """N4: the declarer has taken his bid, or the tricks left cannot make it up."""
        needs, taken = self.declarer_needs, self.tricks_won[self._declarer]
        return taken >= needs or taken + HAND_SIZE - len(self.tricks_played) < needs

    def _settle(self, events: list[Event]) -> None:
        """N5–N7 with the treasure as it stands after this deal's contributions (N6)."""
        moves = settle(
            self.rules, n=self.n, declarer=self._declarer, level=self.level,
            made=self.tricks_won[self._declarer] >= self.declarer_needs, stake=self.stake,
            treasure=self.p0,
        )  # fmt: skip
        for move in moves:
            self._move(move, events)
        self._finish(events)


def _checked_stake(stake: object) -> int:
    """N5: u is a whole number of chips, not negative."""
    if not _is_int(stake) or not isinstance(stake, int) or stake < 0:
        raise ValueError("N5: the stake is a whole number of chips, not negative")
    return stake


@cache
def _bidding_words(seat: int, level: int, here: bool) -> tuple[Action, ...]:
    """N2: every bid above `level`, napoleon unless it is bid, the dealer's "here" over another's
    bid, and pass (the words `_why_not` accepts; a shared, immutable tuple)."""
    bids = [Action(seat, NapoleonDo.BID, tricks=k) for k in range(level + 1, ALL_TRICKS + 1)]
    if level < NAPOLEON:
        bids.append(Action(seat, NapoleonDo.NAPOLEON))
    if here:
        bids.append(Action(seat, NapoleonDo.HERE))
    return (*bids, Action(seat, Do.PASS))


_HANDLERS: dict[Phase, Callable[[NapoleonDeal, Action, list[Event]], None]] = {
    Phase.BIDDING: NapoleonDeal._bid,
    Phase.EXCHANGE: NapoleonDeal._exchange_card,
    Phase.PLAY: NapoleonDeal._play,
}
