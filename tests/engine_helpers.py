"""Helpers for the engine tests: rigged decks, compact action scripts and card accounting."""

from __future__ import annotations

import random
import subprocess
import sys
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any, TypeVar

from engine.actions import Action, Do, Verb
from engine.cards import Card, Suit, make_deck, shuffled
from engine.deal import TrickDeal
from engine.events import ChipsMoved, Event
from engine.frap import PRESETS, FrapDeal, FrapRules
from engine.games import GAMES
from engine.napoleon import NapoleonDo
from engine.student import StudentDo

NAMES = ("ann", "bob", "cat", "dan", "eve", "fay", "gus", "hal", "ivy", "jon", "kim", "lee")

Hands = Mapping[int, str | Sequence[str]]


D = TypeVar("D", bound=TrickDeal)


def cards(codes: str | Iterable[str]) -> tuple[Card, ...]:
    """Cards from codes: 'AS KS 7H' or ['AS', 'KS']."""
    if isinstance(codes, str):
        codes = codes.split()
    return tuple(Card.parse(code) for code in codes)


def rig_deck(
    n: int,
    dealer: int,
    hands: Hands,
    turnup: str,
    stock: str | Sequence[str] = (),
    *,
    size: int | None = None,
    hand_size: int = 4,
) -> tuple[Card, ...]:
    """A top-first deck that deals `hands[seat]` (`hand_size` cards each: 4 in Frap, 5 in Khrap
    and Napoleon) to each named seat (F4: one card at a time from the dealer's left), then turns
    `turnup`, then has `stock` on top of the stock.

    Seats not named get the lowest unused cards; the rest of the deck follows `stock`.
    """
    size = size or FrapRules().deck_size_for(n)
    wanted = {seat: list(cards(hand)) for seat, hand in hands.items()}
    top = list(cards(stock))
    used = [card for hand in wanted.values() for card in hand] + [*cards(turnup), *top]
    assert len(used) == len(set(used)), f"a card is wanted twice: {Counter(used).most_common(1)}"
    assert all(len(hand) == hand_size for hand in wanted.values()), f"a hand is {hand_size} cards"
    spare = [card for card in make_deck(size) if card not in used]
    for seat in range(n):
        if seat not in wanted:
            wanted[seat], spare = spare[:hand_size], spare[hand_size:]
    dealt = [wanted[(dealer + 1 + i) % n][i // n] for i in range(hand_size * n)]
    deck = (*dealt, *cards(turnup), *top, *spare)
    assert sorted(deck, key=str) == sorted(make_deck(size), key=str)
    return deck


def new_deal(
    n: int = 4,
    *,
    dealer: int | None = None,
    hands: Hands | None = None,
    turnup: str = "7H",
    stock: str | Sequence[str] = (),
    rules: FrapRules | None = None,
    ante: int = 10,
    pot: int = 0,
    pot_has_penalty: bool = False,
    redeal: bool = False,
    players: Sequence[str] | None = None,
) -> FrapDeal:
    """A fresh deal on a rigged deck; by default seat 0 is left of the dealer and bids first."""
    rules = rules or FrapRules()
    dealer = n - 1 if dealer is None else dealer
    deck = rig_deck(n, dealer, hands or {}, turnup, stock, size=rules.deck_size_for(n))
    deal, _ = FrapDeal.new(
        rules,
        players or NAMES[:n],
        dealer,
        ante,
        pot,
        deck,
        pot_has_penalty=pot_has_penalty,
        redeal=redeal,
    )
    return deal


# Every family game's words by their record word (a word two games spell alike: one of them,
# which a deal takes as its own, being equal).
WORDS: dict[str, Verb] = {
    word: verb for deal in TrickDeal._BY_NAME.values() for word, verb in deal.WORDS.items()
}


def act(step: str, words: Mapping[str, Verb] = WORDS) -> Action:
    """An action from compact text in a game's `words` (by default any game's). Besides Frap's
    words ('1 discard 7S 8S', '2 cut turnup', '2 cut_discard 9C', '0 play AH'): '0 khrap',
    '1 pomogu', '2 call_discard 9C', Napoleon's '1 bid 3', '2 napoleon', '0 here', and the 7♠
    as '0 play 7S joker', '0 play 7S plain' or, naming the suit a led joker asks for, '0 play
    7S joker H'."""
    seat_text, do_text, *rest = step.split()
    seat, do = int(seat_text), words[do_text]
    if do is Do.DISCARD:
        return Action(seat, do, cards=cards(rest))
    if do is NapoleonDo.BID:
        (number,) = rest
        return Action(seat, do, tricks=int(number))
    if do is Do.CUT:
        assert rest in (["turnup"], ["stock"]), step
        return Action(seat, do, turnup=rest == ["turnup"])
    if do is Do.PLAY and len(rest) > 1:
        code, how, *suit = rest
        assert how in ("joker", "plain") and len(suit) <= 1, step
        named = Suit.parse(suit[0]) if suit else None
        return Action(seat, do, card=Card.parse(code), joker=how == "joker", suit=named)
    if do in (Do.PLAY, Do.DARK_DISCARD, Do.CUT_DISCARD, StudentDo.CALL_DISCARD):
        (code,) = rest
        return Action(seat, do, card=Card.parse(code))
    assert not rest, step
    return Action(seat, do)


def run(deal: D, script: str) -> tuple[D, list[Event]]:
    """Apply the ';'-separated steps of `script`; returns the deal and every event."""
    events: list[Event] = []
    for step in script.split(";"):
        if step.strip():
            deal, new_events = deal.apply(act(step, deal.WORDS))
            events += new_events
    return deal, events


def play_tricks(deal: D, plan: Sequence[Mapping[int, str]]) -> tuple[D, list[Event]]:
    """Play the tricks of `plan` (one {seat: step text after the seat, e.g. 'AS' or '7S joker'}
    per trick) in whatever order the deal asks."""
    events: list[Event] = []
    for trick in plan:
        for _ in trick:
            seat = deal.to_act
            assert seat is not None and seat in trick, (seat, trick, deal.phase)
            deal, new_events = deal.apply(act(f"{seat} play {trick[seat]}"))
            events += new_events
    return deal, events


def trick_plan(
    winners: Sequence[int], seats: Sequence[int], suits: str = "SCDS", ranks: str = "AKQJT987"
) -> tuple[dict[int, list[str]], list[dict[int, str]]]:
    """Hands and a card plan in which trick k is won by `winners[k]` (F12).

    Trick k is played in suit `suits[k]` (never the trump): each of `seats` holds one card of it
    and follows suit; the winner holds the highest. Returns {seat: codes} and the plan.
    """
    left = {suit: list(ranks) for suit in set(suits)}
    hands: dict[int, list[str]] = {seat: [] for seat in seats}
    plan: list[dict[int, str]] = []
    for winner, suit in zip(winners, suits, strict=True):
        order = [winner, *(seat for seat in seats if seat != winner)]
        trick = {seat: left[suit].pop(0) + suit for seat in order}
        for seat, code in trick.items():
            hands[seat].append(code)
        plan.append(trick)
    return hands, plan


def chip_moves(events: Iterable[Event]) -> list[ChipsMoved]:
    """The chip movements among `events`."""
    return [event for event in events if isinstance(event, ChipsMoved)]


def accounted(deal: TrickDeal) -> list[Card]:
    """Every card the deal knows of: hands, stock, discards, dead turn-ups, turn-up and tricks."""
    found = [card for hand in deal.hands for card in hand]
    found += [*deal.stock, *deal.discards, *deal.dead_turnups]
    found += [deal.turnup] if deal.turnup is not None else []
    found += [play.card for trick in deal.tricks_played for play in trick]
    found += [play.card for play in deal.trick]
    return found


def random_rules(rng: random.Random, n: int) -> FrapRules:
    """A preset with random option overrides, sometimes a fixed deck that fits N players (F1)."""
    base = PRESETS[rng.choice(sorted(PRESETS))]
    fitting = [size for size in (32, 36, 52) if size >= 4 * n + 1]
    return FrapRules(
        deck_size=rng.choice(fitting) if rng.random() < 0.25 else None,
        penalties=rng.choice(["graded", "flat"]) if rng.random() < 0.5 else base.penalties,
        failed_declarer_collects=rng.random() < 0.5,
        ante=rng.choice(["penalty_carries", "every_deal"]),
        cut_when_uncontested=rng.random() < 0.5,
        cutting_in=rng.random() < 0.8,
        lead=rng.choice(["last_cutter", "first_cutter"]),
    )


def random_deal(rng: random.Random, n: int, rules: FrapRules) -> tuple[FrapDeal, list[Event]]:
    """A shuffled deal with a random dealer, ante, pot and penalty flag, and its opening events."""
    deck = shuffled(make_deck(rules.deck_size_for(n)), rng)
    return FrapDeal.new(
        rules,
        NAMES[:n],
        rng.randrange(n),
        rng.choice([0, 1, 5, 10, 7]),
        rng.choice([0, 0, 13, 130]),
        deck,
        pot_has_penalty=rng.random() < 0.3,
        redeal=rng.random() < 0.1,
    )


def random_action(deal: TrickDeal, rng: random.Random, *, calls: float = 0.5) -> Action:
    """A random legal action of the seat to act, in any game of the family. Opening the hand
    (F7) is taken only half the time; where a pass is legal it is said with probability
    1 − `calls`, else another word."""
    seat = deal.to_act
    assert seat is not None
    legal = deal.legal_actions(seat)
    if len(legal) > 1 and legal[0].do is Do.LOOK and rng.random() < 0.5:
        legal = legal[1:]
    words = [a for a in legal if a.do is not Do.PASS]
    if words and len(words) < len(legal):
        legal = words if rng.random() < calls else [a for a in legal if a.do is Do.PASS]
    return rng.choice(legal)


ROOT = Path(__file__).resolve().parent.parent
RECORDS = Path(__file__).resolve().parent / "records"


def cli(*args: str) -> subprocess.CompletedProcess[str]:
    """Run `python -m engine ...` from the project root."""
    return subprocess.run(
        [sys.executable, "-m", "engine", *args],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
        check=False,
    )


def printed(name: str) -> str:
    """What `python -m engine replay` prints for record `name`, as written beside it in
    `tests/records/<name>.replay.txt` (below its `#` lines saying why)."""
    lines = (RECORDS / f"{name}.replay.txt").read_text(encoding="utf-8").splitlines()
    (line,) = [line for line in lines if not line.startswith("#")]
    return line


def replayed(*prefixes: str) -> list[str]:
    """The records with a `.replay.txt` beside them whose names begin with one of `prefixes`."""
    names = (path.name.removesuffix(".replay.txt") for path in RECORDS.glob("*.replay.txt"))
    return sorted(name for name in names if name.startswith(prefixes))


def rules_played(game: str, rng: random.Random, players: int) -> dict[str, Any]:
    """A deal of a registry game played by its rules level at every seat, as its record."""
    entry = GAMES[game]
    names = [f"p{i}" for i in range(players)]
    deck = shuffled(make_deck(entry.deck_size({}, players)), rng)
    state = entry.new({}, names, rng.randrange(players), deck)
    while (seat := entry.to_act(state)) is not None:
        state, _ = state.apply(entry.computer.choose(state, seat, entry.legal(state)))
    return entry.to_record(state)
