"""One Preferans deal as a state machine (RULES P1–P10, P18): auction, talon, discard, contract,
whisting, light or dark, play, misère and raspasy. `apply` gives a new state and its events; the
finished deal holds its `Outcome` and the `Entries` the scoring writes for it."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from functools import cache
from itertools import combinations
from typing import ClassVar

from ..cards import ALL_CARDS, Card, Suit, make_deck
from ..errors import IllegalAction
from ..events import CardPlayed, TrickWon
from ..tricks import Play
from .actions import PrefAction, PrefDo, word
from .bidding import LADDER, LOWEST_SEVEN, RANK, Auction, level, trump_of
from .events import (
    AuctionWon,
    Called,
    ContractNamed,
    DealOver,
    Discarded,
    HandsOpened,
    PlayChosen,
    PrefEvent,
    RaspasyStarted,
    TalonTaken,
    TalonTurned,
)
from .outcome import Entries, Outcome, PrefRules
from .play import legal_cards, winner
from .scoring import score_deal

TRICKS = 10
FIRST_TALON, LAST_TALON = 6, 8  # P3: one round of packets of 2 to three hands, then the talon


class Phase(StrEnum):
    """The stages of a deal, in order (P4–P8)."""

    BIDDING = "bidding"
    DISCARD = "discard"
    CONTRACT = "contract"
    WHISTING = "whisting"
    LIGHT_OR_DARK = "light_or_dark"
    PLAY = "play"
    FINISHED = "finished"


_PHASE_RULE = {
    Phase.BIDDING: "P4",
    Phase.DISCARD: "P5",
    Phase.CONTRACT: "P5",
    Phase.WHISTING: "P6",
    Phase.LIGHT_OR_DARK: "P7",
    Phase.PLAY: "P8",
    Phase.FINISHED: "P8",
}
_PLAYING = (Phase.PLAY, Phase.FINISHED)
_BIDDING_WORDS = {PrefDo.BID: None, PrefDo.MISERE: "misere", PrefDo.HERE: "here",
                  PrefDo.PASS: "pass"}  # fmt: skip


@dataclass
class PrefDeal:
    """The whole state of one deal; `turn` is the seat whose hand or word is due (`controller`
    says who decides it: in light play the lone whister plays the passer's cards, P7)."""

    game: ClassVar[str] = "preferans"
    MIN_PLAYERS: ClassVar[int] = 3  # P1: three, or four with the dealer sitting out
    MAX_PLAYERS: ClassVar[int] = 4

    players: tuple[str, ...]
    dealer: int
    rules: PrefRules
    streak: int  # raspasy in a row just before this deal (P10)
    deck: tuple[Card, ...]  # top card first
    order: tuple[int, ...]  # the active seats from the first hand (P1, P3)
    talon: tuple[Card, ...]
    auction: Auction
    hands: list[tuple[Card, ...]] = field(default_factory=list)
    phase: Phase = Phase.BIDDING
    turn: int | None = None
    declarer: int | None = None
    bid: str | None = None  # the winning bid (after "here": the one taken, P18)
    contract: str | None = None
    discards: tuple[Card, ...] = ()
    defence: tuple[str | None, ...] = ()  # by seat: whist/pass/half_whist
    half_whist: bool = False  # the second defender said half-whist; the first answers (P6)
    raspasy: bool = False  # three passes (P10)
    whister: int | None = None  # the lone whister (P7)
    light: bool | None = None
    opened: tuple[int, ...] = ()  # hands laid open to all (P7 light, P9 misère)
    trump: Suit | None = None
    trick: tuple[Play, ...] = ()
    tricks_played: tuple[tuple[Play, ...], ...] = ()
    won: tuple[int, ...] = ()  # tricks by seat
    actions: list[PrefAction] = field(default_factory=list)
    outcome: Outcome | None = None
    entries: Entries | None = None

    # ---- starting -------------------------------------------------------------------------------

    @classmethod
    def new(
        cls, rules: PrefRules, players: Sequence[str], dealer: int, deck: Sequence[Card],
        streak: int = 0,
    ) -> tuple[PrefDeal, list[PrefEvent]]:  # fmt: skip
        """Deal `deck` (top first) as P3 says; the first hand is to bid. ValueError if malformed."""
        n = len(players)
        if not cls.MIN_PLAYERS <= n <= cls.MAX_PLAYERS:
            raise ValueError(f"P1: Preferans is for 3 or 4 players, not {n}")
        if not all(isinstance(name, str) for name in players) or len(set(players)) != n:
            raise ValueError("P1: the players must be distinct names")
        if not _is_int(dealer) or not 0 <= dealer < n:
            raise ValueError(f"P3: no seat {dealer!r} to deal")
        if not _is_int(streak) or streak < 0:
            raise ValueError("P10: raspasy_streak is a whole number, not negative")
        if len(deck) != 32 or frozenset(deck) != _deck32():
            raise ValueError("P2: the deck must be the 32 cards 7..A, each once")
        deck = tuple(_CANONICAL[card] for card in deck)  # the shared Card objects (see _PLAYS)
        order = tuple((dealer + i) % n for i in range(1, n + 1) if n == 3 or i < n)
        hands: list[list[Card]] = [[] for _ in range(n)]
        at = 0
        for packet in range(5):  # P3: one round of packets, the talon, four more rounds
            if packet == 1:
                at = LAST_TALON
            for seat in order:
                hands[seat] += deck[at : at + 2]
                at += 2
        lowest = LOWEST_SEVEN if rules.raspasy_exit == 7 and streak >= 1 else 0
        auction = Auction(order, here_allowed=rules.here == "on", lowest=lowest)
        deal = cls(
            players=tuple(players), dealer=dealer, rules=rules, streak=streak, deck=deck,
            order=order, talon=deck[FIRST_TALON:LAST_TALON], auction=auction,
            hands=[tuple(hand) for hand in hands], turn=order[0], defence=(None,) * n,
            won=(0,) * n,
        )  # fmt: skip
        return deal, []

    # ---- questions ------------------------------------------------------------------------------

    @property
    def n(self) -> int:
        """The number of players at the table (3 or 4)."""
        return len(self.players)

    @property
    def finished(self) -> bool:
        """Whether the deal is over."""
        return self.phase is Phase.FINISHED

    @property
    def first_hand(self) -> int:
        """The dealer's left among the active seats: he bids first and leads first (P4, P8)."""
        return self.order[0]

    @property
    def sitting_out(self) -> int | None:
        """The dealer at a table of four (P1)."""
        return self.dealer if self.n == 4 else None

    @property
    def defenders(self) -> tuple[int, int]:
        """The declarer's opponents, the first to speak first (P18: clockwise, dealer skipped)."""
        at = self.order.index(self._declarer)
        return self.order[(at + 1) % 3], self.order[(at + 2) % 3]

    @property
    def controller(self) -> int | None:
        """Who decides the action due: the lone whister for the passer's cards in light play."""
        if self.light and self.turn not in (None, self.whister, self.declarer):
            return self.whister
        return self.turn

    @property
    def talon_shown(self) -> bool:
        """P5: the talon is shown when a trick bid wins the auction (not for misère)."""
        return self.bid is not None and self.bid != "misere"

    @property
    def turned(self) -> tuple[Card, ...]:
        """Raspasy's talon cards turned so far (P10: one for each of the first two tricks)."""
        if not self.raspasy:
            return ()
        return self.talon[: min(2, len(self.tricks_played) + 1)]

    def role(self, seat: int) -> str | None:
        """declarer, whister, passer, half_whister, defender (misère, ten), out, or None."""
        if seat == self.sitting_out:
            return "out"
        if self.declarer is None:
            return None
        if seat == self.declarer:
            return "declarer"
        said = self.defence[seat]
        if said == "whist":
            return "whister"
        if said is not None:
            return "passer" if said == "pass" else "half_whister"
        # misère and the checked ten: both defend without whisting calls (P9, P13)
        return "defender" if self.contract and self.phase in _PLAYING else None

    def legal_actions(self) -> list[PrefAction]:
        """Every action the seat due may take now (for `controller` to choose from)."""
        seat = self.turn
        if seat is None:
            return []
        phase = self.phase
        if phase is Phase.PLAY:
            plays = _PLAYS[seat]
            return [plays[id(card)] for card in self._legal_cards(self.hands[seat])]
        if phase is Phase.BIDDING:
            return [_bidding_action(seat, said) for said in self.auction.legal_words()]
        if phase is Phase.DISCARD:
            hand = self.hands[seat]
            return [PrefAction(seat, PrefDo.DISCARD, cards=two) for two in combinations(hand, 2)]
        if phase is Phase.CONTRACT:
            assert self.bid is not None
            return [word(seat, PrefDo.CONTRACT, bid) for bid in _contracts_from(self.bid)]
        if phase is Phase.WHISTING:
            return [word(seat, do) for do in self._whisting_words(seat)]
        return [word(seat, PrefDo.LIGHT), word(seat, PrefDo.DARK)]

    def forced_move(self) -> PrefAction | None:
        """The move nobody chooses, which the host makes at once: the one legal card
        of the seat due at the last trick (P8: each hand holds its last card); None otherwise."""
        if self.phase is not Phase.PLAY or len(self.tricks_played) != TRICKS - 1:
            return None
        legal = self.legal_actions()
        return legal[0] if len(legal) == 1 else None

    # ---- applying -------------------------------------------------------------------------------

    def apply(self, action: PrefAction) -> tuple[PrefDeal, list[PrefEvent]]:
        """The state after `action` and what happened; raises IllegalAction, changing nothing."""
        if type(action) is not PrefAction or type(action.do) is not PrefDo:
            raise IllegalAction(self._rule(), f"not a Preferans action: {action!r}")
        if self.phase is Phase.FINISHED:
            raise IllegalAction("P8", "the deal is over")
        if action.seat != self.turn:
            raise IllegalAction(
                self._rule(), f"it is seat {self.turn}'s turn, not seat {action.seat}'s"
            )
        new = self._copy()
        events: list[PrefEvent] = []
        if self.phase is Phase.PLAY and action.do is PrefDo.PLAY:
            new._play(action, events)  # the common case, without hashing two enums
        else:
            handler = _HANDLERS.get((self.phase, action.do))
            if handler is None:
                raise IllegalAction(self._rule(), f"cannot {action.do.value} now ({self.phase})")
            handler(new, action, events)
        new.actions.append(action)
        return new, events

    def copy(self) -> PrefDeal:
        """An independent copy (the hands and actions lists are new; every other field is
        immutable or, like the auction, copied while it can still change)."""
        return self._copy()

    def _copy(self) -> PrefDeal:
        new = object.__new__(PrefDeal)
        # Only the two lists are copied: every other field is immutable and replaced on change.
        state = self.__dict__.copy()
        state["hands"] = self.hands.copy()
        state["actions"] = self.actions.copy()
        if self.phase is Phase.BIDDING:
            state["auction"] = self.auction.copy()
        new.__dict__ = state
        return new

    def _rule(self) -> str:
        return _PHASE_RULE[self.phase]

    def _no_cards(self, action: PrefAction) -> None:
        if action.card is not None or action.cards is not None:
            raise IllegalAction(self._rule(), f"{action.do.value} names no cards")

    @property
    def _declarer(self) -> int:
        assert self.declarer is not None
        return self.declarer

    # ---- bidding (P4) ---------------------------------------------------------------------------

    def _bidding(self, action: PrefAction, events: list[PrefEvent]) -> None:
        said = _BIDDING_WORDS[action.do] or action.bid
        if action.do is PrefDo.BID and (said is None or said == "misere"):
            raise IllegalAction("P4", "a bid names one of 6S … 10NT")
        if action.do is not PrefDo.BID and action.bid is not None:
            raise IllegalAction("P4", f"{action.do.value} takes no bid")
        self._no_cards(action)
        assert said is not None
        self.auction.call(action.seat, said)
        events.append(Called(action.seat, said))
        if not self.auction.done:
            self.turn = self.auction.turn
            return
        declarer = self.auction.holder
        if declarer is None:
            self.raspasy = True
            events.append(RaspasyStarted())
            self._start_play(events)
            return
        self.declarer = declarer
        self.bid = LADDER[self.auction.top]
        events.append(AuctionWon(declarer, self.bid))
        # P5: the talon is shown (not for misère) and taken; taking it is not an action (P18).
        events.append(TalonTaken(declarer, self.talon if self.talon_shown else None))
        self.hands[declarer] = self.hands[declarer] + self.talon
        self.phase = Phase.DISCARD
        self.turn = declarer

    # ---- talon and contract (P5) ----------------------------------------------------------------

    def _discard(self, action: PrefAction, events: list[PrefEvent]) -> None:
        cards, seat = action.cards, action.seat
        if cards is None or action.bid is not None or action.card is not None:
            raise IllegalAction("P5", "a discard names its cards and nothing else")
        hand = self.hands[seat]
        if len(cards) != 2 or cards[0] == cards[1]:
            raise IllegalAction("P5", "the declarer discards exactly 2 cards")
        for card in cards:
            if card not in hand:
                raise IllegalAction("P5", f"{card} is not in the hand")
        self.hands[seat] = tuple(card for card in hand if card not in cards)
        self.discards = tuple(cards)
        events.append(Discarded(seat))
        if self.bid == "misere":
            self.contract = "misere"
            self._start_play(events)  # P9: misère is not whisted
        else:
            self.phase = Phase.CONTRACT

    def _contract(self, action: PrefAction, events: list[PrefEvent]) -> None:
        self._no_cards(action)
        contract, bid = action.bid, self.bid
        assert bid is not None
        if contract is None or contract not in RANK or contract == "misere":
            raise IllegalAction("P5", "the contract is one of 6S … 10NT (never misère)")
        if RANK[contract] < RANK[bid]:
            raise IllegalAction("P5", f"the contract must be at least {bid}")
        self.contract = contract
        self.trump = trump_of(contract)
        events.append(ContractNamed(action.seat, contract))
        tricks = level(contract)
        if (tricks == 10 and self.rules.ten == "checked") or (
            self.rules.stalingrad and contract == "6S"
        ):
            # P13 / P6 `stalingrad`: no whisting calls, both defenders play closed (P18).
            if tricks != 10:
                for seat in self.defenders:
                    self._say(seat, "whist")
            self._start_play(events)
            return
        self.phase = Phase.WHISTING
        self.turn = self.defenders[0]

    # ---- whisting (P6, P7) ----------------------------------------------------------------------

    def _whisting_words(self, seat: int) -> tuple[PrefDo, ...]:
        first, _ = self.defenders
        if seat == first or self.defence[first] == "whist":
            return (PrefDo.WHIST, PrefDo.PASS)
        assert self.contract is not None
        if level(self.contract) <= 7:
            return (PrefDo.WHIST, PrefDo.HALF_WHIST, PrefDo.PASS)  # P6: half-whist on 6 and 7
        return (PrefDo.WHIST, PrefDo.PASS)

    def _whisting(self, action: PrefAction, events: list[PrefEvent]) -> None:
        self._no_cards(action)
        if action.bid is not None:
            raise IllegalAction("P6", f"{action.do.value} takes no bid")
        seat, do = action.seat, action.do
        if do not in self._whisting_words(seat):
            raise IllegalAction("P6", "half-whist only by the second defender after a pass, on 6 "
                                "or 7")  # fmt: skip
        first, second = self.defenders
        events.append(Called(seat, do.value))
        if self.half_whist:  # P6: the first defender answers the half-whist
            if do is PrefDo.WHIST:  # the returned whist: the half-whister counts as a passer
                self._say(first, "whist")
                self._say(second, "pass")
                self._lone_whister(first)
            else:
                self._finish(events)  # P6: no play; the half-whister writes his whists
            return
        self._say(seat, do.value)
        if do is PrefDo.HALF_WHIST:
            self.half_whist = True
            self.turn = first
            return
        if seat == first:
            self.turn = second
            return
        whisting = [s for s in (first, second) if self.defence[s] == "whist"]
        if len(whisting) == 2:
            self._start_play(events)  # P7: two whisters play closed
        elif whisting:
            self._lone_whister(whisting[0])
        else:
            self._finish(events)  # P6: both passed, the contract is made without play

    def _say(self, seat: int, said: str) -> None:
        self.defence = (*self.defence[:seat], said, *self.defence[seat + 1 :])

    def _lone_whister(self, seat: int) -> None:
        self.whister = seat
        self.phase = Phase.LIGHT_OR_DARK
        self.turn = seat

    def _light_or_dark(self, action: PrefAction, events: list[PrefEvent]) -> None:
        self._no_cards(action)
        if action.bid is not None:
            raise IllegalAction("P7", f"{action.do.value} takes no bid")
        self.light = action.do is PrefDo.LIGHT
        events.append(PlayChosen(action.seat, self.light))
        if self.light:  # P7: both defenders' hands laid open before the first lead
            self.opened = self.defenders
            events.append(HandsOpened(self.opened))
        self._start_play(events)

    # ---- play (P8–P10) --------------------------------------------------------------------------

    def _start_play(self, events: list[PrefEvent]) -> None:
        self.phase = Phase.PLAY
        self.turn = self.first_hand  # P8: the first hand leads the first trick in every contract
        if self.raspasy:
            events.append(TalonTurned(self.talon[0]))

    def _follow(self) -> tuple[Suit | None, Suit | None]:
        """The suit to follow now (None: a free lead) and the trump a void hand must play."""
        done = len(self.tricks_played)
        if self.raspasy and done < 2:
            return self.talon[done].suit, None  # P10: the talon card's suit, for every hand
        if self.trick:
            return self.trick[0].card.suit, self.trump  # P8
        return None, None

    def _legal_cards(self, hand: tuple[Card, ...]) -> list[Card] | tuple[Card, ...]:
        follow, trump = self._follow()
        return hand if follow is None else legal_cards(hand, follow, trump)

    def _play(self, action: PrefAction, events: list[PrefEvent]) -> None:
        seat, card = action.seat, action.card
        if card is None or action.bid is not None or action.cards is not None:
            raise IllegalAction("P8", "a play names one card and nothing else")
        hand = self.hands[seat]
        try:
            at = hand.index(card)
        except ValueError:
            raise IllegalAction("P8", f"{card} is not in seat {seat}'s hand") from None
        card = hand[at]
        follow, trump = self._follow()
        # P8/P10: a card off the suit only when void; then a trump when there is one.
        if (
            follow is not None
            and card.suit is not follow
            and (
                any(c.suit is follow for c in hand)
                or (
                    trump is not None
                    and card.suit is not trump
                    and any(c.suit is trump for c in hand)
                )
            )
        ):
            raise IllegalAction(self._follow_rule(), self._why(hand))
        self.hands[seat] = hand[:at] + hand[at + 1 :]
        self.trick += (_LAID[seat][id(card)],)
        events.append(_PLAYED[seat][id(card)])
        if self.contract == "misere" and not self.tricks_played and len(self.trick) == 1:
            self.opened = self.defenders  # P9: open after the first trick's lead
            events.append(HandsOpened(self.opened))
        if len(self.trick) < 3:
            self.turn = self.order[(self.order.index(seat) + 1) % 3]
            return
        done = len(self.tricks_played)
        follow = self.talon[done].suit if self.raspasy and done < 2 else None
        taker = winner(self.trick, self.trump, follow)
        self.won = (*self.won[:taker], self.won[taker] + 1, *self.won[taker + 1 :])
        self.tricks_played += (self.trick,)
        events.append(TrickWon(done + 1, taker, tuple(play.card for play in self.trick)))
        self.trick = ()
        if done + 1 == TRICKS:
            self._finish(events)
            return
        if self.raspasy and done + 1 < 3:
            self.turn = self.first_hand  # P10: the first hand plays first in tricks 1–3
            if done + 1 < 2:
                events.append(TalonTurned(self.talon[done + 1]))
        else:
            self.turn = taker

    def _follow_rule(self) -> str:
        if self.raspasy:
            return "P10"
        return "P9" if self.contract == "misere" else "P8"

    def _why(self, hand: tuple[Card, ...]) -> str:
        done = len(self.tricks_played)
        if self.raspasy and done < 2:
            return f"must follow the talon card's suit {self.talon[done].suit.symbol}"
        led = self.trick[0].card.suit
        if any(card.suit is led for card in hand):
            return f"must follow suit {led.symbol}"
        assert self.trump is not None
        return f"must play a trump {self.trump.symbol}"

    # ---- the end --------------------------------------------------------------------------------

    def _finish(self, events: list[PrefEvent]) -> None:
        self.phase = Phase.FINISHED
        self.turn = None
        self.outcome = self._outcome()
        self.entries = score_deal(self.outcome, self.n, self.dealer, self.streak, self.rules)
        events.append(DealOver(self.outcome.kind))

    def _outcome(self) -> Outcome:
        return self.outcome_with(self.won)

    def outcome_with(self, won: Sequence[int]) -> Outcome:
        """The outcome this deal would have if its seats ended with `won` tricks (the deal's own
        at its end; a computer player weighs the ends it foresees this way)."""
        out = self.sitting_out
        tricks = tuple(None if seat == out else won[seat] for seat in range(self.n))
        if self.raspasy:
            return Outcome(raspasy=tricks)
        played = bool(self.tricks_played) or self.phase is Phase.PLAY
        defence = None
        if self.contract != "misere" and not (
            self.contract is not None and level(self.contract) == 10 and self.rules.ten == "checked"
        ):
            defence = self.defence
        play = None
        if self.whister is not None and self.light is not None:
            play = "light" if self.light else "dark"
        return Outcome(
            declarer=self.declarer, contract=self.contract, defence=defence, play=play,
            tricks=tricks if played else None,
        )  # fmt: skip


@cache
def _bidding_action(seat: int, said: str) -> PrefAction:
    if said in RANK and said != "misere":
        return PrefAction(seat, PrefDo.BID, bid=said)
    return PrefAction(seat, {"misere": PrefDo.MISERE, "here": PrefDo.HERE}.get(said, PrefDo.PASS))


@cache
def _contracts_from(bid: str) -> tuple[str, ...]:
    """P5: every contract at least as high as the winning bid, never misère."""
    return tuple(c for c in LADDER[RANK[bid] :] if c != "misere")


@cache
def _deck32() -> frozenset[Card]:
    return frozenset(make_deck(32))


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


# Each seat's play of each card, found by the card's identity: cheaper than hashing a Card, and
# exact, as legal cards come from hands dealt from the one set of Card objects (ALL_CARDS).
_PLAYS = [{id(card): PrefAction(seat, PrefDo.PLAY, card=card) for card in ALL_CARDS}
          for seat in range(4)]  # fmt: skip
# The same for the (immutable) card on the trick and the event that says it was played.
_LAID = [{id(card): Play(seat, card) for card in ALL_CARDS} for seat in range(4)]
_PLAYED = [{id(card): CardPlayed(seat, card) for card in ALL_CARDS} for seat in range(4)]

_CANONICAL = {card: card for card in ALL_CARDS}

_HANDLERS = {
    **{(Phase.BIDDING, do): PrefDeal._bidding for do in _BIDDING_WORDS},
    (Phase.DISCARD, PrefDo.DISCARD): PrefDeal._discard,
    (Phase.CONTRACT, PrefDo.CONTRACT): PrefDeal._contract,
    **{(Phase.WHISTING, do): PrefDeal._whisting for do in
       (PrefDo.WHIST, PrefDo.PASS, PrefDo.HALF_WHIST)},
    (Phase.LIGHT_OR_DARK, PrefDo.LIGHT): PrefDeal._light_or_dark,
    (Phase.LIGHT_OR_DARK, PrefDo.DARK): PrefDeal._light_or_dark,
    (Phase.PLAY, PrefDo.PLAY): PrefDeal._play,
}  # fmt: skip
