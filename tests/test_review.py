"""The review of a finished deal (engine/review.py, ai/pref_review.py, ai/napoleon_dd.py): each
card's double-dummy values against a brute-force minimax on small endings, the values chained
over whole deals (what a card keeps is what the next card's best keeps, the last what the side
took), the same numbers on every run, a defender's card that gives a trick away, and the hands
only where a deal has no two sides."""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

import pytest

from engine.ai import preferans as pref_rules
from engine.ai.napoleon_dd import NapoleonSolver
from engine.cards import Card, Suit, make_deck, parse_cards, shuffled
from engine.games import GAMES
from engine.napoleon import NapoleonDeal
from engine.preferans.actions import PrefAction
from engine.preferans.deal import PrefDeal
from engine.preferans.outcome import PrefRules
from engine.preferans.record import to_record
from engine.review import Review, Step
from engine.tricks import Play, legal_plays, trick_winner
from tests.engine_helpers import rules_played
from tests.pref_solver_reference import brute_force

NAMES = ("Anna", "Boris", "Vera")

# P8: Anna declares 6♠ and both whist; on her J♠ lead Boris, void in spades and trumps, throws
# A♥, which gives the declarer a trick: best play by all gives her 7, she takes 8.
RIGGED_DECK = (  # noqa: SIM905
    "JS KD JC JH AD 8D TS 8H KH 8C TD 9H TH QD TC AS AH 9C 7H 7D 8S QS JD 7C QH KC KS 7S 9D AC QC "
    "9S"
).split()
RIGGED_ACTIONS: list[dict[str, Any]] = [
    {"seat": 0, "do": "bid", "bid": "6S"}, {"seat": 1, "do": "pass"},
    {"seat": 2, "do": "pass"}, {"seat": 0, "do": "discard", "cards": ["8C", "TC"]},
    {"seat": 0, "do": "contract", "contract": "6S"}, {"seat": 1, "do": "whist"},
    {"seat": 2, "do": "whist"},
    *(
        {"seat": int(seat), "do": "play", "card": card}
        for seat, card in (
            p.split(":")
            for p in (  # noqa: SIM905
                "0:JS 1:AH 2:9S 0:KD 1:TD 2:AD 2:8D 0:AS 1:JD 0:KH 1:JH 2:TH 0:8S 1:JC 2:QD "
                "0:QS 1:9H 2:7H 0:KS 1:9C 2:7D 0:7S 1:7C 2:KC 0:TS 1:9D 2:QC 0:8H 1:AC 2:QH"
            ).split()
        )
    ),
]  # fmt: skip


def rigged_record() -> dict[str, Any]:
    """The rigged Preferans deal's record (the last seat deals: Anna is the first hand)."""
    return {
        "format": "frap-hand/1", "game": "preferans", "rules": {"preset": "sochi"},
        "players": list(NAMES), "dealer": 2, "ante": 0, "pot": 0, "pot_has_penalty": False,
        "raspasy_streak": 0, "deck": RIGGED_DECK, "actions": RIGGED_ACTIONS,
    }  # fmt: skip


def _played_preferans(seed: int) -> dict[str, Any]:
    """A seeded deal played by the rules level at every seat, as its record."""
    rng = random.Random(seed)
    deal, _ = PrefDeal.new(PrefRules(), NAMES, rng.randrange(3), shuffled(make_deck(32), rng))
    while not deal.finished:
        seat = deal.controller
        assert seat is not None
        deal, _ = deal.apply(pref_rules.choose(deal, seat, deal.legal_actions()))
    return to_record(deal)


def _played(game: str, seed: int, players: int) -> dict[str, Any]:
    """A seeded deal of a registry game played by its rules level, as its record."""
    return rules_played(game, random.Random(seed), players)


def _declarer_tricks(review: Review, step: Step, value: int) -> int:
    """A step's value in the declarer's tricks (misère counts them for every side)."""
    misere = review.contract is not None and review.contract.named == "misere"
    if misere or step.seat == review.declarer:
        return value
    return review.total - value


def _chained(review: Review) -> None:
    """What each card played keeps is what the next card's best keeps (each side's best is the
    minimax value of the position it faces)."""
    for step, following in zip(review.steps, review.steps[1:], strict=False):
        kept = _declarer_tricks(review, step, step.value)
        assert kept == _declarer_tricks(review, following, following.best), (step, following)


# ---- small endings against a brute force ----------------------------------------------------


def test_p8_preferans_review_values_are_the_brute_force_minimax_in_the_last_tricks() -> None:
    """Every legal card of the last three tricks of seeded deals, as the review values it (one
    solver over the whole play, its table kept from card to card), is the plain minimax."""
    checked = 0
    for seed in range(40):
        record = _played_preferans(seed)
        review = GAMES["preferans"].review(record)
        if review.only_hands:
            continue
        deal = PrefDeal.new(PrefRules(), NAMES, record["dealer"], parse_cards(record["deck"]))[0]
        plays = iter(review.steps)
        for entry in record["actions"]:
            action = PrefAction.from_record(entry)
            if action.do.value == "play":
                step = next(plays)
                if len(deal.tricks_played) >= 8:
                    declarer = deal.declarer
                    assert declarer is not None
                    maximisers = frozenset(
                        s for s in deal.order if (s != declarer) == (deal.contract == "misere")
                    )
                    for card, value in step.values:
                        after = deal.apply(PrefAction(step.seat, action.do, card=card))[0]
                        counted = after.won[declarer] + brute_force(after, declarer, maximisers)
                        assert _declarer_tricks(review, step, value) == counted
                        checked += 1
            deal = deal.apply(action)[0]
        if checked > 150:
            break
    assert checked > 150


def _napoleon_brute(
    hands: list[list[Card]], trick: list[Play], turn: int, trump: Suit | None, declarer: int
) -> int:
    """The declarer's tricks to the end by plain minimax over N4's legal cards and takers."""
    n = len(hands)
    if not hands[turn]:
        return 0
    led = trick[0].card.suit if trick else None
    results = []
    for card in legal_plays(hands[turn], led, trump):
        hands[turn].remove(card)
        trick.append(Play(turn, card))
        if len(trick) == n:
            taker = trick_winner(trick, trump)
            value = (taker == declarer) + _napoleon_brute(hands, [], taker, trump, declarer)
        else:
            value = _napoleon_brute(hands, trick, (turn + 1) % n, trump, declarer)
        trick.pop()
        hands[turn].append(card)
        results.append(value)
    return max(results) if turn == declarer else min(results)


def test_n4_napoleon_solver_is_the_brute_force_minimax_on_small_endings() -> None:
    """Positions of 2–6 hands of 1–3 cards (up to all five at a table of two or three, the
    first lead naming the trump), some cards on the trick: every legal card's value is the
    plain minimax."""
    rng = random.Random("review/napoleon")
    deal = NapoleonDeal.create({}, ["a", "b"], 0, 10, 0, make_deck(36))[0]
    checked = 0
    for i in range(500):
        n = 2 + i % 5
        k = 1 + i % (5 if n <= 3 else 3)
        deck = shuffled(make_deck(36), rng)
        first = k == 5 and rng.random() < 0.5  # the first lead: no trump yet
        leader = rng.randrange(n)
        laid = 0 if first else rng.randrange(n)
        seat = (leader + laid) % n
        hands = [deck[j * 5 : j * 5 + k - ((j - leader) % n < laid)] for j in range(n)]
        trick = tuple(Play((leader + j) % n, deck[30 + j]) for j in range(laid))
        trump = None if first else rng.choice([*Suit, None])
        position = replace(
            deal, players=tuple(f"p{j}" for j in range(n)), hands=tuple(hands), trick=trick,
            trump=trump, tricks_played=((),) * (5 - k),
            declarer=leader if first else rng.randrange(n),
        )  # fmt: skip
        declarer = position.declarer
        assert declarer is not None
        solver = NapoleonSolver(n, declarer)
        led = trick[0].card.suit if trick else None
        for card in legal_plays(hands[seat], led, trump):
            rest = [list(h) for h in hands]
            rest[seat].remove(card)
            named = card.suit if first else trump
            on = [*trick, Play(seat, card)]
            if len(on) == n:
                taker = trick_winner(on, named)
                expected = (taker == declarer) + _napoleon_brute(rest, [], taker, named, declarer)
            else:
                expected = _napoleon_brute(rest, on, (seat + 1) % n, named, declarer)
            assert solver.counted(position, seat, card) == expected, (position, card)
            checked += 1
    assert checked > 500


# ---- whole deals ----------------------------------------------------------------------------


@pytest.mark.parametrize("seed", [0, 3, 5, 12])  # contracts played out (1, 2: raspasy)
def test_p8_a_whole_preferans_deal_chains_from_the_first_lead_to_the_tricks_taken(
    seed: int,
) -> None:
    """The declarer's tricks with best play from the first lead are the contract's own figure;
    each card keeps what the next one's best keeps; the last card keeps what he took, so the
    tricks taken are the first lead's less what his side gave away plus what the other gave."""
    review = GAMES["preferans"].review(_played_preferans(seed))
    assert review.only_hands is None
    assert review.contract is not None and review.start is not None and review.taken is not None
    named = review.contract.named
    if named != "misere":
        assert review.start == dict(review.contract.tricks)[named.lstrip("0123456789")]
    else:
        assert review.start == review.contract.misere
    _chained(review)
    last = review.steps[-1]
    assert _declarer_tricks(review, last, last.value) == review.taken
    declarer = sum(s.given for s in review.slips if s.seat == review.declarer)
    others = sum(s.given for s in review.slips if s.seat != review.declarer)
    sign = -1 if named == "misere" else 1
    assert review.taken == review.start + sign * (others - declarer)


@pytest.mark.parametrize("players", [2, 3, 4, 6])
def test_n4_a_whole_napoleon_deal_chains_card_by_card(players: int) -> None:
    """Napoleon: each card keeps what the next one's best keeps, and the first lead's best is
    what the declarer's cards take against the rest."""
    for seed in range(6):
        review = GAMES["napoleon"].review(_played("napoleon", seed, players))
        if review.only_hands:
            continue
        assert review.start == review.steps[0].best
        _chained(review)
        assert all(step.cost >= 0 for step in review.steps)


def test_reviews_of_seeded_deals_give_the_same_numbers_every_run() -> None:
    """The same record reviewed twice (fresh solvers) gives the same review, and its JSON reads
    back as the same review."""
    for record in (_played_preferans(1), _played("napoleon", 3, 4), rigged_record()):
        game = GAMES[record["game"]]
        first, second = game.review(record), game.review(record)
        assert first.to_json() == second.to_json()
        assert Review.from_json(first.to_json()) == first


def test_p8_a_defenders_discard_that_gives_a_trick_is_found() -> None:
    """The rigged deal: Boris's A♥ on the first trick cost a trick, the spade he lacks no
    card could save; 6♠ was made with 8 where best play gives 7; the whist was right."""
    review = GAMES["preferans"].review(rigged_record())
    assert review.start == 7 and review.taken == 8
    slips = {slip.seat: slip for slip in review.slips}
    assert slips[1].given == 1 and slips[0].given == 0 and slips[2].given == 0
    worst = slips[1].worst
    assert worst is not None and worst.trick == 1 and str(worst.card) == "AH"
    assert worst.value == 2 and worst.best == 3 and worst.cost == 1
    contract = review.contract
    assert contract is not None and contract.named == "6S"
    assert dict(contract.tricks)["S"] == 7 and contract.best is not None
    assert contract.defence == 3 and contract.obligation == 4
    assert [str(c) for c in review.talon] == ["TS", "8H"]
    assert [str(c) for c in review.discard] == ["8C", "TC"]
    assert [len(hand) for hand in review.hands] == [10, 10, 10]


@pytest.mark.parametrize("game", [name for name in GAMES if name not in ("preferans", "napoleon")])
def test_f_family_reviews_show_the_hands_only(game: str) -> None:
    """The Frap family's several declarers and whisters are no two sides: the hands only."""
    review = GAMES[game].review(_played(game, 1, 4))
    assert review.only_hands == "sides" and not review.steps
    assert all(review.hands)


def test_p10_raspasy_reviews_show_the_hands_only() -> None:
    """Raspasy: each plays for himself, so the review holds the hands (and the talon)."""
    for seed in range(40):
        record = _played_preferans(seed)
        if not any(entry["do"] == "bid" for entry in record["actions"]):
            review = GAMES["preferans"].review(record)
            assert review.only_hands == "raspasy" and not review.steps
            assert len(review.talon) == 2
            return
    raise AssertionError("no raspasy among the seeded deals")
