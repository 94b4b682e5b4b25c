"""A Preferans deal told from its record: replayed, what it wrote on its pulya's sheet (P15's
overflow from the earlier deals), its story's lines for /history N."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import replace
from functools import lru_cache
from typing import Any

from engine.events import TrickWon
from engine.preferans import record as deal_record
from engine.preferans.deal import PrefDeal
from engine.preferans.events import (
    AuctionWon,
    Called,
    ContractNamed,
    Discarded,
    HandsOpened,
    PlayChosen,
    PrefEvent,
    RaspasyStarted,
    TalonTaken,
    TalonTurned,
)
from engine.preferans.outcome import Outcome
from engine.preferans.pulya import Line, Pulya
from locales import SEPARATOR

from ...format import card_label
from .words import WORDS, _cards


def finished_deal(record: dict[str, Any]) -> PrefDeal | None:
    """A finished deal replayed from its record; None if it does not replay or is unfinished."""
    try:
        deal = deal_record.replay(record)
    except ValueError:
        return None
    return deal if deal.finished else None


def written_line(deal: PrefDeal, earlier: Sequence[dict[str, Any]]) -> Line:
    """The line a finished deal wrote on its pulya's sheet, the pulya replayed from its
    `earlier` deals in order (P15's overflow depends on the sheet); where they do not make one
    pulya with it, the deal scored alone (no overflow)."""
    assert deal.outcome is not None
    sheet = _sheet_before(deal, earlier)
    if sheet is None:
        sheet = replace(Pulya.new(len(deal.players), deal.dealer, deal.rules), streak=deal.streak)
    return sheet.add(deal.outcome).lines[-1]


def _sheet_before(deal: PrefDeal, earlier: Sequence[dict[str, Any]]) -> Pulya | None:
    """The pulya's sheet just before `deal`, from its earlier deals' outcomes (each replayed
    once a process: /history shows ten deals of one pulya); None if they do not lead to it:
    the same players, each dealer in turn (P3), the raspasy streak it was dealt with (P10)."""
    if not earlier:
        return None
    try:
        sheet = Pulya.new(len(deal.players), earlier[0]["dealer"], deal.rules)
        for record in earlier:
            outcome = _outcome(json.dumps(record, sort_keys=True))
            if outcome is None or record["dealer"] != sheet.dealer:
                return None
            if record["players"] != list(deal.players):
                return None
            sheet = sheet.add(outcome)
    except (KeyError, TypeError, ValueError):  # IllegalAction included
        return None
    return sheet if (sheet.dealer, sheet.streak) == (deal.dealer, deal.streak) else None


@lru_cache(maxsize=2048)
def _outcome(record: str) -> Outcome | None:
    """The outcome of a finished deal's record (as JSON text), None if it does not replay."""
    deal = finished_deal(json.loads(record))
    return None if deal is None else deal.outcome


def story_lines(lang: str, events: Sequence[PrefEvent], names: Sequence[str]) -> list[str]:
    """The deal's events as lines: the auction's and the whisting's words each on one line, the
    rest one line an event (a card played is told by its trick)."""
    ui = WORDS
    lines: list[str] = []
    words: list[str] = []  # the words said since the last other event
    said = "account.auction"  # P4; after it, the whisting (P6)
    for event in events:
        if isinstance(event, Called):
            word = ui.said_label(lang, event.word)
            words.append(ui.text(lang, "account.said", name=names[event.seat], word=word))
            continue
        if words:  # the auction ends as it is won; the whisting as play starts or the deal ends
            lines.append(ui.text(lang, said, words=SEPARATOR.join(words)))
            words, said = [], "account.whisting"
        line = _event_line(lang, event, names)
        if line is not None:
            lines.append(line)
    return lines


def _event_line(lang: str, event: PrefEvent, names: Sequence[str]) -> str | None:
    ui = WORDS
    if isinstance(event, AuctionWon):
        bid = ui.bid_label(lang, event.bid)
        return ui.text(lang, "account.won", name=names[event.seat], bid=bid)
    if isinstance(event, RaspasyStarted):
        return ui.text(lang, "account.raspasy")
    if isinstance(event, TalonTaken):  # P5: misère's talon is taken unseen
        if event.shown is None:
            return ui.text(lang, "account.talon_unseen", name=names[event.seat])
        return ui.text(
            lang, "account.talon", name=names[event.seat], cards=_cards(lang, event.shown)
        )
    if isinstance(event, Discarded):  # P5: face down, never named
        return ui.text(lang, "account.discarded", name=names[event.seat])
    if isinstance(event, ContractNamed):
        bid = ui.bid_label(lang, event.contract)
        return ui.text(lang, "account.contract", name=names[event.seat], bid=bid)
    if isinstance(event, PlayChosen):
        how = ui.text(lang, "word.light" if event.light else "word.dark")
        return ui.text(lang, "account.chosen", name=names[event.seat], how=how)
    if isinstance(event, HandsOpened):
        return ui.text(lang, "account.opened", names=", ".join(names[s] for s in event.seats))
    if isinstance(event, TalonTurned):  # P10
        return ui.text(lang, "account.turned", card=card_label(event.card, lang))
    if isinstance(event, TrickWon):
        cards = " ".join(card_label(card, lang) for card in event.cards)
        return ui.text(lang, "trick.log", k=event.number, cards=cards, name=names[event.seat])
    return None
