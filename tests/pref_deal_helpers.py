"""Helpers for the Preferans deal tests: rigged decks, compact action scripts, random playouts."""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from typing import Any

from bot.games import preferans as pref
from bot.games.preferans import screen as pref_screen
from bot.view.message import Rendered
from bot.view.screen import ContractScreen
from engine.cards import Card, make_deck, shuffled
from engine.preferans.actions import PrefAction, PrefDo
from engine.preferans.deal import PrefDeal
from engine.preferans.match import Match, default_action
from engine.preferans.outcome import PrefRules
from engine.preferans.pulya import Pulya
from engine.preferans.views import PrefSeatView, PrefTableView
from tests.engine_helpers import cards

NAMES = ("ann", "bob", "cat", "dan")


def rig(hands: Sequence[str], talon: str) -> tuple[Card, ...]:
    """A deck (top first) that P3 deals as `hands` (by position from the first hand) and `talon`:
    one round of packets of 2, the talon, four more rounds."""
    held = [cards(hand) for hand in hands]
    assert len(held) == 3 and all(len(hand) == 10 for hand in held)
    deck: list[Card] = []
    for packet in range(5):
        if packet == 1:
            deck += cards(talon)
        for hand in held:
            deck += hand[2 * packet : 2 * packet + 2]
    assert len(deck) == 32 and len(set(deck)) == 32, "a rigged deck holds each card once"
    return tuple(deck)


def new(
    hands: Sequence[str], talon: str, *, players: int = 3, dealer: int | None = None,
    streak: int = 0, **options: Any,
) -> PrefDeal:  # fmt: skip
    """A deal from rigged hands; by default the last seat deals, so seat 0 is the first hand."""
    dealer = players - 1 if dealer is None else dealer
    deal, _ = PrefDeal.new(
        PrefRules.from_dict(options), NAMES[:players], dealer, rig(hands, talon), streak
    )
    return deal


def act(seat: int, text: str) -> PrefAction:
    """One action from a short text: 'pass', 'bid 7H', 'discard 7S 8S', 'contract 7H',
    'play AS', 'whist', 'half_whist', 'misere', 'here', 'light', 'dark'."""
    do, *rest = text.split()
    kind = PrefDo(do)
    if kind is PrefDo.PLAY:
        return PrefAction(seat, kind, card=Card.parse(rest[0]))
    if kind is PrefDo.DISCARD:
        return PrefAction(seat, kind, cards=cards(rest))
    if kind in (PrefDo.BID, PrefDo.CONTRACT):
        return PrefAction(seat, kind, bid=rest[0])
    return PrefAction(seat, kind)


def run(deal: PrefDeal, script: Iterable[str]) -> PrefDeal:
    """Apply a script of 'seat: action' steps, e.g. ['0: bid 6S', '1: pass']."""
    for step in script:
        seat, text = step.split(":", 1)
        deal, _ = deal.apply(act(int(seat), text.strip()))
    return deal


def plays(deal: PrefDeal, tricks: Iterable[str]) -> PrefDeal:
    """Play whole tricks given as 'seat:card seat:card seat:card' in playing order."""
    for trick in tricks:
        for step in trick.split():
            seat, code = step.split(":")
            deal, _ = deal.apply(PrefAction(int(seat), PrefDo.PLAY, card=Card.parse(code)))
    return deal


def random_deal(
    rng: random.Random, rules: PrefRules | None = None, players: int = 3, streak: int = 0,
    pass_often: bool = True,
) -> tuple[PrefDeal, list[PrefDeal]]:  # fmt: skip
    """A random legal deal to its end and every state on the way. With `pass_often` the auction
    and the whisting pass half the time, so that raspasy, misère and passes all happen."""
    deal, _ = PrefDeal.new(
        rules or PrefRules(), NAMES[:players], rng.randrange(players),
        shuffled(make_deck(32), rng), streak,
    )  # fmt: skip
    states = [deal]
    while not deal.finished:
        legal = deal.legal_actions()
        passes = [a for a in legal if a.do is PrefDo.PASS]
        pick = passes[0] if pass_often and passes and rng.random() < 0.5 else rng.choice(legal)
        deal, _ = deal.apply(pick)
        states.append(deal)
    return deal, states


# RULES P17 (a)'s cards: the first hand holds all the hearts; used wherever the cards do not matter.
HANDS = ("AH KH QH JH TH 9H 8H 7H 7S 7C", "AS KS QS JS TS 9S AD KD QD JD",
         "AC KC QC JC TC 9C TD 9D 8D 7D")  # fmt: skip
TALON = "8S 8C"


def fresh(**options: Any) -> PrefDeal:
    """A deal of HANDS and TALON (seat 0 the first hand) under these options."""
    return new(HANDS, TALON, **options)


def words(deal: PrefDeal) -> list[str]:
    """The legal actions now as short texts ('pass', 'bid 6S', 'here', …)."""
    return [" ".join([a.do.value, *([a.bid] if a.bid else [])]) for a in deal.legal_actions()]


def random_move(rng: random.Random, deal: PrefDeal) -> PrefAction:
    """A random legal move, or now and then the timer's (its passes end many deals in raspasy,
    which writes pulya, so a pulya of random moves closes within a few dozen deals)."""
    action = default_action(deal) if rng.random() < 0.3 else None
    return action or rng.choice(deal.legal_actions())


def screen_of(
    lang: str,
    view: PrefSeatView | PrefTableView,
    ids: tuple[int, int, int] = (1, 1, 1),
    selection: Sequence[Card] = (),
) -> ContractScreen:
    """A player's screen as the bot builds it, from his seat view alone (or the public's from
    the table's view), on a fresh sheet, its presses naming the table, deal and step of
    `ids`."""
    public = view.table if isinstance(view, PrefSeatView) else view
    names = tuple(seat.name for seat in public.seats)
    sheet = Pulya.new(len(names), public.dealer, PrefRules())
    return pref_screen.build(
        pref.UI,
        Match(names, sheet, 1, None),
        public,
        view if isinstance(view, PrefSeatView) else None,
        lang,
        ids,
        selection,
        lambda at, name: (at, name, False, False, None),
    )


def table_message(
    lang: str, table: PrefTableView, deal_no: int, target: int, **shown: Any
) -> Rendered:
    """The group's table message as the bot draws it: from the public screen (`screen_of`)."""
    return pref.table_message(lang, screen_of(lang, table), deal_no, target, **shown)


def hand_message(
    lang: str,
    view: PrefSeatView,
    table_id: int,
    deal_no: int,
    step: int,
    chat_title: str,
    selection: Sequence[Card] = (),
    **shown: Any,
) -> Rendered:
    """A player's control message as the bot draws it: from his screen (`screen_of`)."""
    seen = screen_of(lang, view, (table_id, deal_no, step), selection)
    return pref.hand_message(lang, seen, view.seat, deal_no, chat_title, **shown)
