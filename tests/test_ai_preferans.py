"""Computer players for Preferans (engine/ai/preferans.py, engine/ai/pref_search.py): every level
plays only legal actions, no level peeks, the settlement in whists is P16's, the exact solver
agrees with a plain minimax over the engine, and the rules level's key choices on rigged deals."""

from __future__ import annotations

import random
from collections import Counter
from functools import partial

import pytest

from engine.ai import LEVELS, pref_knowledge, pref_search, rules_player
from engine.ai.pref_dd import DDSolver
from engine.ai.pref_search import Policy, strong
from engine.ai.preferans import choose as rules_choose
from engine.cards import Card, make_deck
from engine.games import GAMES
from engine.preferans.actions import PrefAction, PrefDo
from engine.preferans.deal import PrefDeal
from engine.preferans.knowledge import PrefKnowledge
from engine.preferans.record import start, to_record
from tests.pref_deal_helpers import act, new, plays, run
from tests.pref_solver_reference import random_position, random_start

QUICK_STRONG = partial(strong, playouts=4, solve_samples=2)  # what it may play: any budget
PLAYERS = {**LEVELS, "strong": QUICK_STRONG}
DEALS = 2000
STRONG_EVERY = 20  # one deal in so many has a strong seat


def _decide(deal: PrefDeal) -> PrefKnowledge:
    seat = deal.controller
    assert seat is not None
    return pref_knowledge(deal, seat)


def test_every_level_plays_only_legal_actions() -> None:
    """Seeded random deals with a random level at each seat: what each level chose is listed by
    the engine and applies; between them the levels reach every phase and kind of deal."""
    rng = random.Random("pref/legal")
    words: dict[str, Counter[str]] = {level: Counter() for level in PLAYERS}
    kinds: Counter[str] = Counter()
    for i in range(DEALS):
        deal = random_start(rng)
        levels = ["random", "rules", "strong"] if i % STRONG_EVERY == 0 else ["random", "rules"]
        seats = [rng.choice(levels) for _ in range(deal.n)]
        while not deal.finished:
            knowledge = _decide(deal)
            action = PLAYERS[seats[knowledge.seat]](knowledge, rng)
            assert action in knowledge.legal
            assert action in deal.legal_actions()
            words[seats[knowledge.seat]][action.do.value] += 1
            deal, _ = deal.apply(action)
        assert deal.outcome is not None
        kinds[deal.outcome.kind] += 1
    for level, seen in words.items():
        assert {"play", "pass", "bid", "discard", "contract", "whist"} <= set(seen), (level, seen)
    assert set(kinds) == {"game", "misere", "raspasy", "uncontested", "half_whist"}, kinds


def _hidden_twin(deal: PrefDeal, knowledge: PrefKnowledge, rng: random.Random) -> PrefDeal:
    """The same deal with the cards the seat cannot place (others' hidden hands, an unseen
    discard or talon; not a shown talon's cards) permuted within each suit, so every void shown
    by play still holds; the same actions, renamed alike, replayed on the new deck."""
    hidden = [card for card in knowledge.unseen if card not in knowledge.pinned]
    rename: dict[Card, Card] = {}
    for suit in {card.suit for card in hidden}:
        group = [card for card in hidden if card.suit is suit]
        rename.update(zip(group, rng.sample(group, len(group)), strict=True))
    record = to_record(deal)
    deck = [rename.get(card, card) for card in deal.deck]
    twin = start({**record, "deck": [str(card) for card in deck]})
    for action in deal.actions:
        if action.cards is not None:
            action = PrefAction(action.seat, action.do, cards=tuple(rename.get(c, c) for c in
                                                                    action.cards))  # fmt: skip
        twin, _ = twin.apply(action)
    return twin


def test_no_level_peeks_at_hidden_cards() -> None:
    """At random decision points: a twin deal with the seat's unseen cards renamed gives the seat
    the same knowledge, and each level (seeded alike) the same action."""
    rng = random.Random("pref/peek")
    checked: Counter[str] = Counter()
    changed = 0
    for _ in range(300):
        deal = random_start(rng)
        stop = rng.randrange(40)
        while not deal.finished and len(deal.actions) < stop:
            legal = deal.legal_actions()
            passes = [a for a in legal if a.do is PrefDo.PASS]
            pick = rng.choice(passes if passes and rng.random() < 0.4 else legal)
            deal, _ = deal.apply(pick)
        if deal.finished:
            continue
        mine = _decide(deal)
        twin = _hidden_twin(deal, mine, rng)
        hidden = (deal.hands, deal.talon, deal.discards)
        changed += (twin.hands, twin.talon, twin.discards) != hidden
        theirs = _decide(twin)
        assert theirs == mine
        for player in PLAYERS.values():
            seed = rng.random()
            assert player(mine, random.Random(seed)) == player(theirs, random.Random(seed))
        checked[str(deal.phase)] += 1
    assert {"bidding", "discard", "whisting", "play"} <= set(checked), checked
    assert changed > 0.8 * checked.total(), (changed, checked)


def test_seat_knowledge_hides_the_talon_until_shown_and_the_discard_always() -> None:
    """P5: before the auction ends nobody knows the talon; a trick bid shows it to all; the
    discard is the declarer's alone."""
    deal = new(HANDS, TALON)
    assert set(cards_of(TALON)) <= set(pref_knowledge(deal, 1).unseen)
    deal = run(deal, ["0: bid 6H", "1: pass", "2: pass"])
    deal = run(deal, ["0: discard 7C 8C"])
    defender = GAMES[deal.game].knowledge(deal, 1)  # any game's seat knowledge: the registry
    assert defender.pinned == deal.talon  # shown, but in the declarer's hand or his discard
    assert set(cards_of("7C 8C")) <= set(defender.unseen)
    assert defender.history[-1] == PrefAction(0, PrefDo.DISCARD)
    assert pref_knowledge(deal, 0).unseen == tuple(sorted(
        (*deal.hands[1], *deal.hands[2]), key=lambda c: ("SCDH".index(c.suit.value), c.rank)
    ))  # fmt: skip


# ---- the exact solver ---------------------------------------------------------------------------


def _minimax(deal: PrefDeal, counted: int, maximisers: set[int]) -> int:
    """The counted seat's tricks to the end with the engine's own legal cards, best play."""
    if deal.finished:
        return deal.won[counted]
    results = [_minimax(deal.apply(a)[0], counted, maximisers) for a in deal.legal_actions()]
    return max(results) if deal.turn in maximisers else min(results)


def test_the_solver_agrees_with_plain_minimax_over_the_engine() -> None:
    """Random deals played at random to three tricks from the end (contracts, misère, raspasy):
    for every card the seat to play may play, the solver's tricks for the counted seat are the
    minimax value over the engine's legal moves."""
    rng = random.Random("pref/solver")
    kinds: Counter[str] = Counter()
    while kinds.total() < 90:
        deal = random_position(rng, 3)
        seat = deal.turn
        assert seat is not None
        counted = seat if deal.raspasy else deal.declarer
        assert counted is not None
        if deal.raspasy or deal.contract == "misere":
            maximisers = {s for s in deal.order if s != counted}
        else:
            maximisers = {counted}
        for action in deal.legal_actions():
            assert action.card is not None
            won = DDSolver(deal).after(seat, action.card)
            assert won[counted] == _minimax(deal.apply(action)[0], counted, maximisers)
            assert sum(won) == 10
        kinds["raspasy" if deal.raspasy else deal.contract or ""] += 1
    assert kinds["raspasy"] and kinds["misere"], kinds


# ---- the rules level on rigged deals ------------------------------------------------------------

# Seat 0 is the first hand (the last seat deals). A heart hand with seven sure tricks.
HANDS = ("AH KH QH JH TH AS KS 7C 8C 7D", "QS JS TS 9S AC KC QC AD KD QD",
         "8S 7S JC TC 9C JD TD 9D 8D 9H")  # fmt: skip
TALON = "8H 7H"


def cards_of(text: str) -> list[Card]:
    return [Card.parse(code) for code in text.split()]


def rules(deal: PrefDeal) -> PrefAction:
    """The rules level's action for the seat that decides."""
    return rules_player(_decide(deal), random.Random(0))


def test_p4_a_hand_of_sure_tricks_bids_and_a_weak_hand_passes() -> None:
    deal = new(HANDS, TALON)
    assert rules(deal) == act(0, "bid 6S")  # the lowest bid, with 7+ tricks in hearts
    deal = run(deal, ["0: bid 6S", "1: bid 6C"])
    assert rules(deal) == act(2, "pass")  # jacks and tens: no trick to count


def test_p4_misere_only_with_a_hand_that_cannot_be_forced_to_take_a_trick() -> None:
    safe = ("7S 9S 7C 9C JC 7D 9D 7H 8H 9H", "AS KS QS AC KC QC AD KD AH KH",
            "8S TS JS 8C TC 8D TD JD TH JH")  # fmt: skip
    assert rules(new(safe, "QD QH")) == act(0, "misere")
    unsafe = (safe[0].replace("7S", "AD"), safe[1].replace("AD", "7S"), safe[2])
    assert rules(new(unsafe, "QD QH")).do is not PrefDo.MISERE  # a lone ace of diamonds


def test_p5_the_declarer_discards_to_void_a_suit_and_keeps_his_tops() -> None:
    deal = run(new(HANDS, TALON), ["0: bid 6H", "1: pass", "2: pass"])
    thrown = set(rules(deal).cards or ())
    assert thrown < set(cards_of("7C 8C 7D"))  # the low side cards go: hearts, A K of spades kept
    assert set(cards_of("7C 8C")) <= thrown or set(cards_of("7D")) <= thrown  # a void made


def test_p5_the_contract_is_the_hand_s_count_in_its_best_suit() -> None:
    deal = run(new(HANDS, TALON), ["0: bid 6H", "1: pass", "2: pass", "0: discard 7C 8C"])
    assert rules(deal) == act(0, "contract 9H")  # seven top hearts, A K of spades: nine tricks


# The hands and talon of `_nine_no_trump_counted`.
NINE_NT = (("TS 9S 8S TC 9C 8C KD QD JD 8H", "AS KS QS JS AC KC QC JC AD 7H",
            "7S 7C TD 9D 8D 7D AH KH QH JH"), "TH 9H")  # fmt: skip


def _nine_no_trump_counted() -> PrefDeal:
    """Four top spades, four top clubs and an ace after the discard: the rules level counts
    nine tricks in no trump, but the first hand leads a heart to the hand with four of them."""
    return run(new(*NINE_NT), ["0: pass", "1: bid 6S", "2: pass", "1: discard TH 9H"])


def test_p5_the_master_names_a_suit_where_the_rules_count_overstates_no_trump() -> None:
    """Double dummy the declarer takes six tricks in no trump, nine in spades. The Master's
    look-ahead names the lowest spade contract, and the Master weighs spades and clubs, never
    that no trump (the Master before it kept the rules level's 9NT)."""
    deal = _nine_no_trump_counted()
    legal = deal.legal_actions()
    assert rules_player(_decide(deal), random.Random(0)) == act(1, "contract 9NT")
    assert pref_search.lookahead(deal, 1, legal) == act(1, "contract 6S")
    for contract, made in (("9NT", 6), ("9S", 9)):
        played = run(deal, [f"1: contract {contract}", "2: whist", "0: whist"])
        assert DDSolver(played).ends()[1] == made
    for seed in range(3):
        chosen = strong(_decide(deal), random.Random(seed)).bid or ""
        assert chosen[-1] in "SC", chosen
    assert strong(_decide(deal), random.Random(2), modest=False) == act(1, "contract 9NT")


def test_p5_p6_the_contract_and_the_whist_by_double_dummy_counts(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The bench's `ddwords`: the contract weighed over imagined deals solved exactly from the
    first lead, no playout; a suit contract, and against 7♠ the hand with four top hearts
    whists. A budget of one position plays them out, from the same imagined deals."""
    deal = _nine_no_trump_counted()
    knowledge = _decide(deal)
    assert strong(knowledge, random.Random(5), dd_words=2, solve_total=1) == strong(
        knowledge, random.Random(5)
    )
    monkeypatch.setattr(pref_search, "_played_out", _no_playouts)
    for seed in range(2):
        chosen = strong(knowledge, random.Random(seed), dd_words=6).bid or ""
        assert chosen[-1] in "SC", chosen
    seven = run(deal, ["1: contract 7S"])
    assert strong(_decide(seven), random.Random(0), dd_words=6) == act(2, "whist")


@pytest.mark.parametrize(
    ("hand_1", "word"),
    [
        ("QS JS TS 9S AC KC QC AD KD QD", "whist"),  # two aces, two kings against 6♥
        ("QS JS TS 9S QC JC 9C QD JD 9D", "pass"),  # nothing that takes a trick
    ],
)
def test_p6_the_first_defender_whists_when_he_can_take_his_share(hand_1: str, word: str) -> None:
    rest = sorted(set(make_deck(32)) - set(cards_of(HANDS[0])) - set(cards_of(hand_1))
                  - set(cards_of(TALON)), key=str)  # fmt: skip
    hands = (HANDS[0], hand_1, " ".join(str(c) for c in rest))
    deal = run(new(hands, TALON), ["0: bid 6H", "1: pass", "2: pass", "0: discard 7C 8C"])
    deal = run(deal, ["0: contract 6H"])
    assert rules(deal) == act(1, word)


def test_p6_after_a_pass_a_weak_second_defender_half_whists_a_six() -> None:
    deal = run(new(HANDS, TALON), ["0: bid 6H", "1: pass", "2: pass", "0: discard 7C 8C"])
    deal = run(deal, ["0: contract 6H", "1: pass"])
    assert rules(deal) == act(2, "half_whist")  # seat 2 holds nothing: the free whists


def test_p8_masters_are_played_and_nothing_is_wasted_on_a_lost_trick() -> None:
    deal = run(new(HANDS, TALON), ["0: bid 6H", "1: pass", "2: pass", "0: discard 7C 8C"])
    deal = run(deal, ["0: contract 6H", "1: whist", "2: whist"])
    assert rules(deal) == act(0, "play AH")  # the declarer draws trumps with the master
    deal = plays(deal, ["0:AH 1:AC 2:9H", "0:7D"])
    assert rules(deal) == act(1, "play QD")  # second: take it with the cheapest master
    deal = plays(new(HANDS, TALON), [])
    deal = run(deal, ["0: bid 6H", "1: pass", "2: pass", "0: discard 7C 8C", "0: contract 6H",
                      "1: whist", "2: whist"])  # fmt: skip
    deal = plays(deal, ["0:AS"])
    assert rules(deal) == act(1, "play 9S")  # the ace cannot be beaten: the lowest spade


def test_p9_the_misere_declarer_ducks_with_his_highest_losing_card() -> None:
    safe = ("7S 9S 7C 9C JC 7D 9D 7H 8H 9H", "AS KS QS AC KC QC AD KD AH KH",
            "8S TS JS 8C TC 8D TD JD TH JH")  # fmt: skip
    deal = run(new(safe, "QD QH"), ["0: misere", "1: pass", "2: pass", "0: discard QD QH"])
    assert rules(deal) == act(0, "play 7S")  # the lowest card someone can beat
    deal = plays(deal, ["0:7S 1:AS 2:8S", "1:KC"])
    deal = plays(deal, ["2:8C"])
    assert rules(deal) == act(0, "play JC")  # the highest club under the king


# ---- an earlier Master's exact card play (bench/ai_strength.py's `exact`) ---------------------

EXACT = partial(strong, solve_tricks=10, solve_nodes=pref_search.EXACT_NODES, whists=True)


def _six_hearts_whisted() -> PrefDeal:
    """HANDS's 6♥ with both defenders whisting: the declarer leads the first trick."""
    deal = run(new(HANDS, TALON), ["0: bid 6H", "1: pass", "2: pass", "0: discard 7C 8C"])
    return run(deal, ["0: contract 6H", "1: whist", "2: whist"])


def test_exact_play_solves_imagined_deals_from_the_first_trick(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The first lead of a trick contract, within the budget: 16 imagined deals solved, no
    playout (one would fail here), and the card is the declarer's master trump."""
    deal = _six_hearts_whisted()
    monkeypatch.setattr(pref_search, "_played_out", _no_playouts)
    assert EXACT(_decide(deal), random.Random(1)) == act(0, "play AH")
    with pytest.raises(AssertionError, match="played out"):
        strong(_decide(deal), random.Random(1))  # the Master plays the first tricks out


def _no_playouts(*_: object) -> PrefAction:
    raise AssertionError("played out where the deals fit the budget")


def test_exact_play_plays_out_a_card_whose_deals_do_not_fit_the_budget() -> None:
    """A budget of one position cannot solve a first trick: the card is the playouts' choice,
    from the same imagined deals as without the try (the generator's state is put back)."""
    knowledge = _decide(_six_hearts_whisted())
    tried = EXACT(knowledge, random.Random(2), solve_nodes=1)
    assert tried == strong(knowledge, random.Random(2), solve_tricks=0, whists=True)


def test_p6_the_imagined_deals_read_the_whist_words() -> None:
    """A whist with an imagined hand that counts no defensive trick does not fit it; the
    auction's words alone do not see it."""
    deal = _six_hearts_whisted()
    knowledge = pref_knowledge(deal, 0)  # the declarer: the defenders' hands are hidden
    world = deal.copy()
    fits, judged = pref_search._fits(world, knowledge)
    auction_fits, auction_judged = pref_search._fits(world, knowledge, whists=False)
    assert (fits, judged) == (auction_fits + 2, auction_judged + 2)  # both whists fit
    world.hands[2] = tuple(cards_of("8S 7S 9C 8C 7C 9D 8D 7D TH 9H"))  # imagined: no trick
    fits, judged = pref_search._fits(world, knowledge)
    assert (fits, judged) == (auction_fits + 1, auction_judged + 2)
    assert not pref_search._whist_fits(world, act(2, "whist"))
    assert pref_search._whist_fits(world, act(2, "pass"))


# ---- the Master's playouts ------------------------------------------------------------------


def _playouts_of(monkeypatch: pytest.MonkeyPatch, deal: PrefDeal) -> tuple[int, Policy]:
    """The number of playouts the Master's decision at `deal` may take, and its playout policy."""
    seen: list[tuple[int, Policy]] = []

    def capture(
        knowledge: PrefKnowledge, candidates: list[PrefAction], default: PrefAction,
        rng: random.Random, playouts: int, whists: bool, policy: Policy,
    ) -> PrefAction:  # fmt: skip
        seen.append((playouts, policy))
        return default

    monkeypatch.setattr(pref_search, "_played_out", capture)
    strong(_decide(deal), random.Random(0))
    return seen[0]


def test_p5_the_master_plays_the_others_out_as_the_rules_level_and_itself_modestly(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """In the Master's playouts another seat names the rules level's 9NT (six tricks double
    dummy: the others' words are read as the rules level's, and so they are played), the
    Master's own seat the modest 6♠."""
    contract = _nine_no_trump_counted()
    legal = contract.legal_actions()
    _, seat_2 = _playouts_of(monkeypatch, run(new(*NINE_NT), ["0: pass", "1: bid 6S"]))
    assert seat_2(contract, 1, legal) == act(1, "contract 9NT")
    discard = run(new(*NINE_NT), ["0: pass", "1: bid 6S", "2: pass"])
    _, seat_1 = _playouts_of(monkeypatch, discard)
    assert seat_1(contract, 1, legal) == act(1, "contract 6S")


def test_the_master_plays_out_as_many_cards_a_decision_as_the_deal_goes_on(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """BIDDING_PLAYOUTS in the auction; in the play PLAYOUTS whole deals' worth of cards, so more
    playouts as fewer cards are left, at most MOST_PLAYOUTS."""
    bidding = new(HANDS, TALON)
    assert _playouts_of(monkeypatch, bidding)[0] == pref_search.BIDDING_PLAYOUTS
    deal = _six_hearts_whisted()
    budgets = {}
    while not deal.finished:
        left = sum(len(hand) for hand in deal.hands)
        budgets[left] = pref_search.playout_budget(deal)
        seat = deal.controller
        assert seat is not None
        deal, _ = deal.apply(rules_choose(deal, seat, deal.legal_actions()))
    assert budgets[30] == pref_search.PLAYOUTS
    assert budgets[15] == 2 * pref_search.PLAYOUTS
    assert budgets[3] == pref_search.MOST_PLAYOUTS
    assert list(budgets.values()) == sorted(budgets.values())
