"""A Preferans game at a table is a pulya (P14): many deals on one sheet, chips moved once at its
end (P16 × the whist price). Pure: plain data in, a new match out; the shuffle is injected; the
whole match is JSON (the sheet as a `pref-pulya/1` record, the deal in play as its record)."""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from ..cards import Card, make_deck, shuffled, suit_order
from . import pulya_record
from . import record as deal_record
from .actions import PrefAction, PrefDo
from .bidding import trump_of
from .deal import Phase, PrefDeal
from .events import PrefEvent
from .outcome import PrefRules
from .pulya import Line, Pulya

FORMAT = "bot-pulya/1"
DECK = 32  # P2: 7..A


@dataclass(frozen=True, slots=True)
class Match:
    """One pulya at a table: the names (distinct, P1), the sheet, the deal in play (None once the
    pulya is over or stopped), the whist's price in chips, and whether it was stopped early."""

    names: tuple[str, ...]
    sheet: Pulya
    whist_price: int
    deal: PrefDeal | None
    stopped: bool = False

    @staticmethod
    def start(
        names: Sequence[str], rules: PrefRules, whist_price: int, rng: random.Random
    ) -> Match:
        """A new pulya: the first dealer drawn (P3) and the first deal dealt."""
        if whist_price < 1:
            raise ValueError("a whist costs at least one chip")
        sheet = Pulya.new(len(names), rng.randrange(len(names)), rules)
        return Match(tuple(names), sheet, whist_price, None).dealt(rng)

    def dealt(self, rng: random.Random) -> Match:
        """The match with the next deal dealt by the sheet's next dealer (P3), carrying the
        raspasy streak (P10)."""
        deck = shuffled(make_deck(DECK), rng)
        deal, _ = PrefDeal.new(
            self.sheet.rules, self.names, self.sheet.dealer, deck, streak=self.sheet.streak
        )
        return replace(self, deal=deal)

    @property
    def finished(self) -> bool:
        """Whether the pulya is over: every pulya at the target (P14), or stopped."""
        return self.stopped or self.sheet.finished

    @property
    def deal_no(self) -> int:
        """The number of the deal in play (from 1), or of the last one written when over."""
        return self.sheet.deals + (1 if self.deal is not None else 0)

    def apply(self, action: PrefAction, rng: random.Random) -> Step:
        """The match after one action; a deal it finishes is written on the sheet (P15) and,
        unless the pulya is then over (P14), the next dealer deals at once (P3). Raises
        IllegalAction (from the engine) and changes nothing for an illegal action."""
        if self.deal is None:
            raise ValueError("the pulya is over")
        deal, events = self.deal.apply(action)
        if not deal.finished:
            return Step(replace(self, deal=deal), events, None, None)
        assert deal.outcome is not None
        sheet = self.sheet.add(deal.outcome)
        after = replace(self, sheet=sheet, deal=None)
        if not sheet.finished:
            after = after.dealt(rng)
        return Step(after, events, deal, sheet.lines[-1])

    def stop(self) -> Match:
        """/stopgame: the deal in play is voided and the pulya closed as it stands (P14)."""
        return replace(self, deal=None, stopped=True)

    def balances(self) -> tuple[int, ...]:
        """Whole whists per player (P16), with P14's top-up while a pulya is open."""
        return self.sheet.balances()

    def chips(self) -> tuple[int, ...]:
        """The settlement in chips: whists × the whist price; sums to zero as the whists do."""
        return tuple(whists * self.whist_price for whists in self.balances())

    # ---- JSON -----------------------------------------------------------------------------------

    def to_json(self) -> dict[str, Any]:
        """The match as JSON: the sheet's record and the deal in play's record."""
        return {
            "format": FORMAT,
            "sheet": pulya_record.to_record(self.sheet, self.names),
            "whist_price": self.whist_price,
            "deal": None if self.deal is None else deal_record.to_json(self.deal),
            "stopped": self.stopped,
        }

    @staticmethod
    def from_json(data: dict[str, Any]) -> Match:
        """A match back from `to_json` (the sheet re-scored, the deal replayed); ValueError if
        malformed (PulyaError and ReplayError are ValueErrors)."""
        if data.get("format") != FORMAT:
            raise ValueError(f"not a {FORMAT} match")
        sheet, names = pulya_record.load(data["sheet"])
        deal = None if data.get("deal") is None else deal_record.from_json(data["deal"])
        price = data.get("whist_price")
        if not isinstance(price, int) or isinstance(price, bool) or price < 1:
            raise ValueError("whist_price must be a whole number of chips")
        return Match(tuple(names), sheet, price, deal, bool(data.get("stopped", False)))


def from_records(records: Sequence[dict[str, Any]], whist_price: int) -> Match:
    """A pulya rebuilt from its deals as the bot stores them (one record per deal, in order;
    the last may be in play): the sheet from the finished ones (checked against it by
    pulya_record, P1, P3, P10), the deal in play replayed. So a restart needs nothing but the
    deals already kept; ValueError if they do not make one pulya."""
    if not records:
        raise ValueError("a pulya has at least its first deal")
    first = records[0]
    *done, last = records
    in_play = deal_record.replay(dict(last))
    if in_play.finished:
        done, in_play_or_none = list(records), None
    else:
        in_play_or_none = in_play
    sheet_record = {
        "format": pulya_record.FORMAT,
        "game": pulya_record.GAME,
        "rules": first.get("rules", {}),
        "players": first["players"],
        "first_dealer": first["dealer"],
        "deals": [{"record": dict(record)} for record in done],
    }
    sheet, names = pulya_record.load(sheet_record)
    if in_play_or_none is not None and (
        list(in_play_or_none.players) != names
        or in_play_or_none.dealer != sheet.dealer
        or in_play_or_none.streak != sheet.streak
        or in_play_or_none.rules != sheet.rules
    ):
        raise ValueError("the deal in play does not follow the pulya's deals (P3, P10)")
    return Match(tuple(names), sheet, whist_price, in_play_or_none)


@dataclass(frozen=True, slots=True)
class Step:
    """What one action did: the new match, the deal's events, and, when it ended a deal, the
    finished deal and the line it wrote on the sheet."""

    match: Match
    events: list[PrefEvent]
    finished_deal: PrefDeal | None
    line: Line | None


def default_action(deal: PrefDeal) -> PrefAction | None:
    """The move made for a player who timed out or is away: pass in bidding and whisting, the
    lowest legal card in play; the bid itself as the contract, the two lowest cards outside the
    trump as the discard, and dark for a lone whister (the passer keeps his own hand)."""
    legal = deal.legal_actions()
    if not legal:
        return None
    by_do = {action.do: action for action in legal}
    if deal.phase in (Phase.BIDDING, Phase.WHISTING):
        return by_do[PrefDo.PASS]
    if deal.phase is Phase.LIGHT_OR_DARK:
        return by_do[PrefDo.DARK]
    if deal.phase is Phase.CONTRACT:
        return next(a for a in legal if a.bid == deal.bid)
    if deal.phase is Phase.DISCARD:
        trump = trump_of(deal.bid) if deal.bid and deal.bid != "misere" else None
        misere = deal.bid == "misere"
        # misère: shed the highest cards; a trick game: the lowest outside the trump
        ranked = sorted(
            deal.hands[legal[0].seat],
            key=lambda c: (-c.rank if misere else (c.suit is trump, c.rank), suit_order(c.suit)),
        )
        two = frozenset(ranked[:2])
        return next(a for a in legal if frozenset(a.cards or ()) == two)
    return min(legal, key=lambda a: _low(a.card))


def _low(card: Card | None) -> tuple[int, int]:
    assert card is not None
    return (card.rank, suit_order(card.suit))
