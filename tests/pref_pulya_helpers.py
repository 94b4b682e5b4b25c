"""Helpers for the Preferans pulya tests: random legal outcomes and rules, random played deals."""

from __future__ import annotations

import random

from engine.cards import make_deck, shuffled
from engine.preferans.actions import PrefDo
from engine.preferans.deal import PrefDeal
from engine.preferans.outcome import SUITS, Outcome, PrefRules
from engine.preferans.pulya import Pulya
from engine.preferans.scoring import active_seats, defenders, has_whisting


def random_split(rng: random.Random, seats: list[int], players: int) -> tuple[int | None, ...]:
    """10 tricks shared at random among `seats`; None for a seat that sits out."""
    counts: list[int | None] = [None] * players
    for seat in seats:
        counts[seat] = 0
    for _ in range(10):
        seat = rng.choice(seats)
        counts[seat] = (counts[seat] or 0) + 1
    return tuple(counts)


def random_outcome(rng: random.Random, sheet: Pulya) -> Outcome:
    """A legal outcome for the next deal of `sheet`."""
    n, dealer, rules = sheet.players, sheet.dealer, sheet.rules
    seats = active_seats(n, dealer)
    roll = rng.random()
    if roll < 0.25:
        return Outcome(raspasy=random_split(rng, seats, n))
    declarer = rng.choice(seats)
    if roll < 0.35:
        return Outcome(declarer, "misere", tricks=random_split(rng, seats, n))
    low = 7 if sheet.streak and rules.raspasy_exit == 7 else 6
    bid = rng.randint(low, 10)
    contract = f"{bid}{rng.choice(SUITS)}"
    if not has_whisting(Outcome(declarer, contract), rules):
        return Outcome(declarer, contract, tricks=random_split(rng, seats, n))
    first, second = defenders(declarer, n, dealer)
    calls = [("whist", "whist"), ("whist", "pass"), ("pass", "whist"), ("pass", "pass")]
    if bid in (6, 7):
        calls.append(("pass", "half_whist"))
    chosen = rng.choice(calls)
    defence: list[str | None] = [None] * n
    defence[first], defence[second] = chosen
    if chosen[0] == "pass" and chosen[1] != "whist":
        return Outcome(declarer, contract, tuple(defence))
    mode = rng.choice([None, "light", "dark"]) if "pass" in chosen else None
    return Outcome(declarer, contract, tuple(defence), mode, random_split(rng, seats, n))


def random_rules(rng: random.Random) -> PrefRules:
    """A random choice of every scoring option (P1, P6, P10–P15)."""
    return PrefRules(
        dealer_consolation=rng.random() < 0.5,
        stalingrad=rng.random() < 0.5,
        raspasy_progression=rng.choice(["none", "123", "124"]),
        raspasy_amnesty=rng.random() < 0.5,
        raspasy_exit=rng.choice([6, 7]),
        whist=rng.choice(["greedy", "gentleman"]),
        whist_liability=rng.choice(["full", "capped"]),
        ten=rng.choice(["checked", "whisted"]),
        target=rng.choice([10, 20]),
        overflow=rng.choice(["help", "gora"]),
    )


def played_deal(rng: random.Random, sheet: Pulya, names: list[str]) -> PrefDeal:
    """A random legal deal played to its end as the next deal of `sheet`."""
    deal, _ = PrefDeal.new(
        sheet.rules, names, sheet.dealer, shuffled(make_deck(32), rng), sheet.streak
    )
    while not deal.finished:
        legal = deal.legal_actions()
        passes = [action for action in legal if action.do is PrefDo.PASS]
        deal, _ = deal.apply(passes[0] if passes and rng.random() < 0.4 else rng.choice(legal))
    return deal
