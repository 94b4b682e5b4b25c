"""The pulya scoresheet: deal after deal with overflow (P15), its end (P14), the raspasy streak
(P10), and the settlement in whole whists (P16)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from operator import add

from ..errors import IllegalAction
from .outcome import Entries, Entry, Outcome, Overflow, PrefRules
from .scoring import explained

HELP_WHISTS = 10  # P15: the helper writes 10 whists per point on the player he helps
WHIST_SCALE = 10  # P16: a point of gora is worth 10 whists, shared by all


@dataclass(frozen=True, slots=True)
class Line:
    """One deal on the sheet: its outcome, its dealer, and what it wrote after overflow (P15);
    why: each entry as scored (P9–P13) and each overflow's move, which together make `entries`."""

    outcome: Outcome
    dealer: int
    streak: int  # raspasy in a row before this deal (P10)
    entries: Entries
    scored: tuple[Entry, ...] = ()
    overflow: tuple[Overflow, ...] = ()


@dataclass(frozen=True, slots=True)
class Pulya:
    """A pulya's sheet: every player's pulya, gora and whists on each other, deal by deal."""

    players: int
    first_dealer: int
    rules: PrefRules = field(default_factory=PrefRules)
    pulya: tuple[int, ...] = ()
    gora: tuple[int, ...] = ()
    whists: tuple[tuple[int, ...], ...] = ()  # whists[i][j]: whists i wrote on j
    streak: int = 0  # raspasy in a row at the end of the sheet (P10)
    lines: tuple[Line, ...] = ()

    @staticmethod
    def new(players: int, first_dealer: int, rules: PrefRules | None = None) -> Pulya:
        """An empty sheet for `players` (3 or 4), the first dealer drawn by the caller (P3)."""
        if players not in (3, 4):
            raise IllegalAction("P1", f"Preferans is for 3 or 4 players, not {players}")
        if not 0 <= first_dealer < players:
            raise IllegalAction("P3", f"the first dealer {first_dealer} is not a seat")
        zero = Entries.zero(players)
        return Pulya(
            players, first_dealer, rules or PrefRules(), zero.pulya, zero.gora, zero.whists
        )

    @property
    def deals(self) -> int:
        """How many deals the sheet holds."""
        return len(self.lines)

    @property
    def dealer(self) -> int:
        """Who deals next: clockwise after every deal, raspasy included (P3)."""
        return (self.first_dealer + len(self.lines)) % self.players

    @property
    def finished(self) -> bool:
        """Whether every player's pulya has reached the target (P14)."""
        return all(points >= self.rules.target for points in self.pulya)

    def add(self, outcome: Outcome) -> Pulya:
        """The sheet after one more deal; raises IllegalAction for an impossible deal or one
        after the end (P14)."""
        if self.finished:
            raise IllegalAction("P14", "the pulya is over: every pulya has reached the target")
        dealer = self.dealer
        written, why = explained(outcome, self.players, dealer, self.streak, self.rules)
        # What this deal writes after overflow: the scored gora and whists plus P15's moves.
        pulya = list(self.pulya)
        added = [0] * self.players
        gora = list(written.gora)
        whists = [list(row) for row in written.whists]
        moved = self._fill(written.pulya, dealer, pulya, added, gora, whists)
        applied = Entries(tuple(added), tuple(gora), tuple(map(tuple, whists)))
        streak = self.streak + 1 if outcome.contract is None else 0  # P10: any other deal ends it
        return Pulya(
            self.players,
            self.first_dealer,
            self.rules,
            tuple(pulya),
            _plus(self.gora, applied.gora),
            tuple(_plus(old, new) for old, new in zip(self.whists, applied.whists, strict=True)),
            streak,
            (*self.lines, Line(outcome, dealer, self.streak, applied, why, moved)),
        )

    def _fill(
        self,
        entries: Sequence[int],
        dealer: int,
        pulya: list[int],
        added: list[int],
        gora: list[int],
        whists: list[list[int]],
    ) -> tuple[Overflow, ...]:
        # P15, P18: from the first hand clockwise; points beyond T help the open pulya with the
        # most points (ties: nearest clockwise from the helper), chosen again after each fill;
        # what nobody can take comes off the helper's own gora.
        n, target = self.players, self.rules.target
        moved: list[Overflow] = []
        for step in range(1, n + 1):
            seat = (dealer + step) % n
            rest = entries[seat]
            if not rest:
                continue
            own = min(rest, target - pulya[seat])
            pulya[seat] += own
            added[seat] += own
            rest -= own
            while rest and self.rules.overflow == "help":
                open_seats = [j for j in range(n) if j != seat and pulya[j] < target]
                if not open_seats:
                    break
                helped = min(open_seats, key=lambda j: (-pulya[j], (j - seat) % n))
                given = min(rest, target - pulya[helped])
                pulya[helped] += given
                added[helped] += given
                whists[seat][helped] += HELP_WHISTS * given
                moved.append(Overflow(seat, given, helped, HELP_WHISTS * given))
                rest -= given
            gora[seat] -= rest
            if rest:
                moved.append(Overflow(seat, rest))
        return tuple(moved)

    def top_up(self) -> tuple[int, ...]:
        """What stopping now adds to each gora: T − pulya for an open pulya (P14)."""
        return tuple(max(0, self.rules.target - points) for points in self.pulya)

    def balances(self) -> tuple[int, ...]:
        """The settlement in whole whists, summing to zero (P16); while the pulya is open, what
        stopping now would give (P14's top-up included)."""
        gora = [g + extra for g, extra in zip(self.gora, self.top_up(), strict=True)]
        return settle(gora, self.whists)


def settle(gora: Sequence[int], whists: Sequence[Sequence[int]]) -> tuple[int, ...]:
    """Balances in whole whists from gora and whists[i][j] (P16): Sᵢ = Σⱼ(Wᵢⱼ − Wⱼᵢ) +
    (10/n)(ΣG − n·Gᵢ), rounded down, the d whists left one each to the smallest gora."""
    n = len(gora)
    total = sum(gora)
    scaled = [
        n * sum(whists[i][j] - whists[j][i] for j in range(n)) + WHIST_SCALE * (total - n * gora[i])
        for i in range(n)
    ]  # X = n·S is a whole number
    whole = [x // n for x in scaled]
    left = -sum(whole)  # 0 <= left < n
    for seat in sorted(range(n), key=lambda i: (gora[i], i))[:left]:
        whole[seat] += 1
    return tuple(whole)


def deal_value(entries: Entries, players: int) -> list[float]:
    """Each seat's value of one deal in whists: P16's settlement of its entries alone, with the
    pulya counted as gora written off (P14: each pulya point short of the target is a gora point
    at the end, so a point in the pulya is worth one gora point less). The figure the strong
    computer player plays for and the benches report."""
    net = [g - p for g, p in zip(entries.gora, entries.pulya, strict=True)]
    total = sum(net)
    return [
        sum(entries.whists[i][j] - entries.whists[j][i] for j in range(players))
        + WHIST_SCALE / players * (total - players * net[i])
        for i in range(players)
    ]


def _plus(old: tuple[int, ...], new: tuple[int, ...]) -> tuple[int, ...]:
    """`old` plus `new` seat by seat (the same tuple when `new` writes nothing: most rows)."""
    return tuple(map(add, old, new)) if any(new) else old
