"""The Preferans auction (RULES P4, P18): the 26-step ladder, misère, "here" and the passes."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..cards import Suit
from ..errors import IllegalAction

# P4: 6♠ 6♣ 6♦ 6♥ 6NT … 8NT, misère, 9♠ … 10NT; a bid's place on the ladder is its strength.
_DENOMINATIONS = ("S", "C", "D", "H", "NT")
LADDER: tuple[str, ...] = (
    *(f"{level}{d}" for level in (6, 7, 8) for d in _DENOMINATIONS),
    "misere",
    *(f"{level}{d}" for level in (9, 10) for d in _DENOMINATIONS),
)
MISERE = LADDER.index("misere")
RANK: dict[str, int] = {bid: at for at, bid in enumerate(LADDER)}
LOWEST_SEVEN = RANK["7S"]
PASS = "pass"
HERE = "here"


def level(bid: str) -> int:
    """The number of tricks a trick bid promises ("7H" → 7); misère has none."""
    if bid == "misere":
        raise ValueError("misère has no level")
    return int(bid[:-2] if bid.endswith("NT") else bid[:-1])


def strain(bid: str) -> str:
    """The strain a trick bid names ("7H" → "H", "8NT" → "NT"); misère has none."""
    if bid == "misere":
        raise ValueError("misère has no strain")
    return bid.lstrip("0123456789")


def trump_of(bid: str) -> Suit | None:
    """The trump a trick contract names (None for no trump and misère)."""
    if bid == "misere" or bid.endswith("NT"):
        return None
    return Suit(bid[-1])


@dataclass
class Auction:
    """The bidding of one deal: who has passed, the top bid and its holder, and whose turn it is.

    `order` is the active seats from the first hand (P4: he speaks first, then clockwise).
    """

    order: tuple[int, ...]
    here_allowed: bool = True  # option `here=off`
    lowest: int = 0  # the lowest trick bid's place: 7♠ under `raspasy_exit=7` after raspasy
    passed: list[int] = field(default_factory=list)  # seats that passed, in order
    words: dict[int, str] = field(default_factory=dict)  # each seat's latest word
    top: int = -1  # ladder place of the top bid (-1: none yet)
    holder: int | None = None
    misere_seat: int | None = None
    here_right: int | None = None  # P18: who may say "here" now (set when two remain)
    here_settled: bool = False  # P4: the senior's first chance has come (used or let go)
    turn: int | None = None
    done: bool = False

    def __post_init__(self) -> None:
        if self.turn is None and not self.done:
            self.turn = self.order[0]

    def copy(self) -> Auction:
        """An independent copy."""
        new = Auction.__new__(Auction)
        new.__dict__.update(self.__dict__)
        new.passed = self.passed.copy()
        new.words = self.words.copy()
        return new

    @property
    def top_bid(self) -> str | None:
        """The bid to beat (None before the first bid)."""
        return LADDER[self.top] if self.top >= 0 else None

    @property
    def winner(self) -> int | None:
        """The declarer once the auction is over (None: three passes, raspasy)."""
        return self.holder if self.done else None

    def _here_possible(self, seat: int) -> bool:
        """P18: two remain, the right is `seat`'s, the other holds a trick bid."""
        return (
            self.here_allowed
            and len(self.passed) == 1
            and self.here_right == seat
            and self.holder is not None
            and self.holder != seat
            and self.top != MISERE
            and self.misere_seat != seat
        )

    def legal_words(self) -> list[str]:
        """Every call the seat to speak may make: pass, here, misère, then the bids upwards."""
        seat = self.turn
        if seat is None:
            return []
        words = [PASS]
        if self.misere_seat == seat:
            return words  # P4: after misère he may only pass
        if self._here_possible(seat):
            words.append(HERE)
        if seat not in self.words and self.top < MISERE:
            words.append("misere")  # P4/P18: misère only as a first call, over 8NT at most
        start = max(self.top + 1, self.lowest)
        words.extend(bid for bid in LADDER[start:] if bid != "misere")
        return words

    def call(self, seat: int, word: str) -> None:
        """Apply one call in place; raises IllegalAction (and changes nothing) if it is refused."""
        if self.done or seat != self.turn:
            raise IllegalAction("P4", f"it is seat {self.turn}'s turn to bid, not seat {seat}'s")
        if word == PASS:
            self.passed.append(seat)
        elif word == HERE:
            if not self._here_possible(seat):
                raise IllegalAction("P4", "'here' needs two bidders left, the right to it, "
                                    "and a trick bid to take")  # fmt: skip
            self.holder = seat  # P4: the same bid, now his; the right stays with him (P18)
            self.here_settled = True
        elif word == "misere":
            if self.misere_seat == seat or seat in self.words:
                raise IllegalAction("P4", "misère only as a player's first call")
            if self.top >= MISERE:
                raise IllegalAction("P18", f"no misère over {LADDER[self.top]}")
            self._raise(seat, MISERE)
            self.misere_seat = seat
        else:
            place = RANK.get(word)
            if place is None:
                raise IllegalAction("P4", f"no such bid {word!r}")
            if self.misere_seat == seat:
                raise IllegalAction("P4", "after misère the only call is pass")
            if place <= self.top:
                raise IllegalAction("P4", f"{word} is not higher than {LADDER[self.top]}")
            if place < self.lowest:
                raise IllegalAction("P10", f"after raspasy the lowest bid is {LADDER[self.lowest]}")
            self._raise(seat, place)
        self.words[seat] = word
        self._next()

    def _raise(self, seat: int, place: int) -> None:
        if not self.here_settled and self._here_possible(seat):
            # P4/P18: the senior raising at his first chance passes the right to the other bidder
            # for the rest of the auction; after that first chance nobody's raise moves it.
            self.here_right = self.holder
            self.here_settled = True
        self.top = place
        self.holder = seat

    def _next(self) -> None:
        """P4/P18: end at two passes with a bid held, or three passes; else the next to speak."""
        left = [seat for seat in self.order if seat not in self.passed]
        if not left or (len(left) == 1 and self.holder == left[0]):
            self.done = True
            self.turn = None
            if not left:
                self.holder = None
            return
        if len(left) == 2 and self.here_right is None:
            self.here_right = left[0]  # P18: the earlier hand of the last two
        at = self.order.index(self.turn) if self.turn is not None else 0
        for step in range(1, len(self.order) + 1):
            seat = self.order[(at + step) % len(self.order)]
            if seat not in self.passed:
                self.turn = seat
                return
