"""The strong level for Preferans: imagine the unseen cards many times, consistently with what the
seat knows (the cards played, the talon once shown or turned, the voids shown by play, and the
others' words read as the rules level would say them), and weigh each candidate action on those
deals by what the deal is worth to the seat in whists (P16, preferans/pulya.deal_value).

Late in the play, once the cards are fixed, the deal is solved exactly: 16 imagined deals, each by
the double-dummy solver of ai/pref_dd.py from the trick on the table, each side playing its
best, and the card with the best mean value is played. Earlier — bidding, talon, contract,
whisting and the first tricks — each candidate is played out on the imagined deals, the same
deals serving every candidate, and the rules level's choice is left only for a gain clear of
the sampling noise (as ai/search.py does for the other games). In the playouts the other seats
act as the rules level (their words were read so), the seat itself as the rules level but for
one choice (`lookahead`): it names a modest suit contract, since the rules level's
count overstates no trump. A decision may play out as many cards as 60 whole deals hold (90
deals in the auction): more playouts as the deal goes on (`playout_budget`).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from ..cards import Card, Suit
from ..preferans.actions import PrefAction, PrefDo
from ..preferans.bidding import MISERE, RANK
from ..preferans.deal import Phase, PrefDeal
from ..preferans.knowledge import PrefKnowledge
from ..preferans.outcome import level
from ..preferans.pulya import deal_value
from ..preferans.scoring import score_deal
from . import preferans as rules
from .pref_dd import DDSolver, OverBudget
from .search import best_of

# Playouts per decision, shared among the candidates (bench/ai_strength: speed). A bid's playout
# plays the whole deal; later ones have fewer cards left to play, so as many cards in all are
# played out: PLAYOUTS times the deal's 30 cards, at most MOST_PLAYOUTS.
PLAYOUTS = 60
BIDDING_PLAYOUTS = 90
MOST_PLAYOUTS = 200
DEAL_CARDS = 30  # P1: ten cards to each of the three hands
MIN_SAMPLES = 8  # imagined deals per decision, however many candidates
SOLVE_TRICKS = 4  # solve exactly from this many tricks left (with the cards fixed)
SOLVE_SAMPLES = 16  # imagined deals solved per decision
# An earlier try, exact from the first trick within a budget (bench/ai_strength.py's `exact`):
# card-play loss down by a third, no gain in whists over 1,000 duplicate deals, 3x the CPU.
EXACT_NODES = 5000  # positions one imagined deal may take to solve, else playouts
EXACT_TOTAL = 30000  # positions all the imagined deals of a decision may take (≈150 ms of CPU)
DISCARDS = 5  # discards searched: the rules level's best by its own value
ATTEMPTS = 12  # imagined deals tried for one that fits every word said
SLACK = 1  # ladder places a bidder's count may fall short of his bid in an imagined deal
WHIST_WORDS = (PrefDo.WHIST, PrefDo.PASS, PrefDo.HALF_WHIST)  # P6
Policy = Callable[[PrefDeal, int, Sequence[PrefAction]], PrefAction]


def strong(
    knowledge: PrefKnowledge, rng: random.Random, playouts: int | None = None,
    solve_samples: int = SOLVE_SAMPLES, solve_tricks: int = SOLVE_TRICKS,
    solve_nodes: int | None = None, solve_total: int = EXACT_TOTAL, whists: bool = False,
    modest: bool = True, dd_words: int = 0, others: Policy | None = rules.choose,
) -> PrefAction:  # fmt: skip
    """The strong level's action for the seat that decides (`playouts`: so many a decision,
    else `playout_budget`'s; a card is chosen over `solve_samples` deals solved exactly from
    `solve_tricks` tricks left if each fits in `solve_nodes` positions and all in `solve_total`,
    else by playouts; `whists`: the imagined deals fit the whist words too; `modest`: contracts
    named by `lookahead`, in the playouts and as the choice left unless a gain is clear, else by
    the rules level; `others`: how the other seats act in the playouts, None as the seat
    itself; `dd_words`: the contract and the whist words weighed over so many imagined deals
    solved exactly from the first lead if all fit in `solve_total` positions, else by
    playouts)."""
    legal = knowledge.legal
    world, seat = knowledge.world, knowledge.seat
    policy: Policy = lookahead if modest else rules.choose
    default = policy(world, seat, legal)
    candidates = _candidates(world, seat, legal, default, modest)
    if others is not None:
        policy = _as_seat(seat, policy, others)
    if len(candidates) == 1:
        return candidates[0]
    if world.phase is Phase.PLAY and len(world.hands[world.turn or 0]) <= solve_tricks:
        state = rng.getstate()
        solved = _solved(
            knowledge, candidates, default, rng, solve_samples, solve_nodes, whists, solve_total
        )
        if solved is not None:
            return solved
        rng.setstate(state)  # the playouts draw the same imagined deals as without the try
    if dd_words and world.phase in (Phase.CONTRACT, Phase.WHISTING):
        state = rng.getstate()
        weighed = _dd_weighed(knowledge, candidates, default, rng, dd_words, solve_total, policy)
        if weighed is not None:
            return weighed
        rng.setstate(state)
    if playouts is None:
        playouts = playout_budget(world)
    return _played_out(knowledge, candidates, default, rng, playouts, whists, policy)


def playout_budget(world: PrefDeal) -> int:
    """The playouts a decision may take: BIDDING_PLAYOUTS in the auction, else PLAYOUTS whole
    deals' worth of cards over the cards left (more as the deal goes on, at most MOST_PLAYOUTS)."""
    if world.phase is Phase.BIDDING:
        return BIDDING_PLAYOUTS
    left = sum(len(hand) for hand in world.hands)
    return min(MOST_PLAYOUTS, PLAYOUTS * DEAL_CARDS // left)


def _candidates(
    world: PrefDeal, seat: int, legal: Sequence[PrefAction], default: PrefAction, modest: bool
) -> list[PrefAction]:
    """The actions worth a search: every card but one of each run of touching cards; the few best
    discards; the bids that matter (pass, the next bid, here, misère); every other word."""
    phase = world.phase
    if phase is Phase.PLAY:
        found = _distinct_cards(world, legal)
    elif phase is Phase.DISCARD:
        found = rules.discard_candidates(world, seat, legal, DISCARDS)
    elif phase is Phase.BIDDING:
        found = [a for a in legal if a.do is not PrefDo.BID][:3]
        found += [a for a in legal if a.do is PrefDo.BID][:1]
    elif phase is Phase.CONTRACT:
        found = sorted(legal, key=lambda a: rules.contract_value(world, seat, a))[-4:]
        if modest:
            found = list(dict.fromkeys([*found, *_modest_contracts(world, seat, legal)]))
    else:
        found = list(legal)
    if default not in found:
        found.append(default)
    return found


def _distinct_cards(world: PrefDeal, legal: Sequence[PrefAction]) -> list[PrefAction]:
    """One card of each run in a suit with no card still out (or on the trick) between them."""
    seat = legal[0].seat
    live = {c for hand in world.hands for c in hand} | {p.card for p in world.trick}
    if world.controller != world.declarer:
        live |= set(world.discards)  # unseen: the cards there may lie between
    if world.raspasy:
        live |= set(world.talon[len(world.turned) :])
    live -= set(world.hands[seat])
    kept: list[PrefAction] = []
    previous: Card | None = None
    for action in sorted(legal, key=lambda a: _order(a.card)):
        card = action.card
        assert card is not None
        if (
            previous is not None
            and previous.suit is card.suit
            and not any(c.suit is card.suit and previous.rank < c.rank < card.rank for c in live)
        ):
            previous = card
            continue
        kept.append(action)
        previous = card
    return kept


def _order(card: Card | None) -> tuple[int, int]:
    assert card is not None
    return rules.SUITS.index(card.suit), int(card.rank)


# ---- imagined deals ----------------------------------------------------------------------------


def shown_voids(deal: PrefDeal) -> dict[int, set[Suit]]:
    """Suits each seat has shown it lacks (P8, P10): it did not follow the suit asked for (the
    led card's, or in raspasy's first two tricks the talon card's), and not trumping then shows
    it has no trump either."""
    voids: dict[int, set[Suit]] = {}
    for number, trick in enumerate((*deal.tricks_played, deal.trick)):
        if not trick:
            continue
        talon_trick = deal.raspasy and number < 2
        follow = deal.talon[number].suit if talon_trick else trick[0].card.suit
        for play in trick if talon_trick else trick[1:]:
            if play.card.suit is follow:
                continue
            lacking = voids.setdefault(play.seat, set())
            lacking.add(follow)
            if deal.trump is not None and play.card.suit is not deal.trump:
                lacking.add(deal.trump)
    return voids


def sample(knowledge: PrefKnowledge, rng: random.Random, whists: bool = True) -> PrefDeal:
    """A deal the seat cannot tell from the real one in which the others' words fit their hands
    (the first of a few tries that fits them all, else the one that fits most)."""
    best, fits_best = None, -1
    for _ in range(ATTEMPTS):
        world = sample_world(knowledge, rng)
        fits, judged = _fits(world, knowledge, whists)
        if fits == judged:
            return world
        if fits > fits_best:
            best, fits_best = world, fits
    assert best is not None
    return best


def sample_world(knowledge: PrefKnowledge, rng: random.Random) -> PrefDeal:
    """The unseen cards shuffled over the hidden hands (respecting shown voids), the declarer's
    unseen discard and the unseen talon; the shown talon's unplayed cards stay with the declarer
    (in his hand, or his discard when he has shown a void in their suit)."""
    world = knowledge.world.copy()
    pool = list(knowledge.unseen)
    rng.shuffle(pool)
    voids = shown_voids(world)
    need = {seat: len(world.hands[seat]) for seat in knowledge.hidden_hands}
    hands: dict[int, list[Card]] = {seat: [] for seat in knowledge.hidden_hands}
    discards: list[Card] = []
    if knowledge.pinned:  # only a defender's view of a trick contract: his hand is hidden
        declarer = world.declarer
        assert declarer is not None
        mine, lacking = hands[declarer], voids.get(declarer, set())
        for card in knowledge.pinned:
            pool.remove(card)
            room = need[declarer] - len(mine)
            spare = len(world.discards) - len(discards)
            to_hand = room > 0 and (
                not spare or (card.suit not in lacking and rng.random() * (room + spare) < room)
            )
            (mine if to_hand else discards).append(card)
    for seat in sorted(hands, key=lambda s: -len(voids.get(s, ()))):
        lacking = voids.get(seat, set())
        hand, rest = hands[seat], list[Card]()
        for card in pool:
            fits = card.suit not in lacking
            (hand if fits and len(hand) < need[seat] else rest).append(card)
        pool = rest
        while len(hand) < need[seat]:  # the voids shown cannot all hold (rare): any card
            hand.append(pool.pop())
        world.hands[seat] = tuple(hand)
    if knowledge.hidden_discards:
        while len(discards) < len(world.discards):
            discards.append(pool.pop())
        world.discards = tuple(discards)
    if knowledge.hidden_talon:
        shown = world.talon[: len(world.talon) - knowledge.hidden_talon]
        world.talon = (*shown, *pool[: knowledge.hidden_talon])
    return world


def _fits(world: PrefDeal, knowledge: PrefKnowledge, whists: bool = True) -> tuple[int, int]:
    """How many of the other seats' words fit their imagined hands, of how many judged: a bid
    needs a count near it, a first-call pass a count below the next bid, misère a safe hand, a
    whist word its count (rules level's reading, ai/preferans.py; `whists` False: the auction's
    words only)."""
    fits = judged = 0
    top = -1
    said: set[int] = set()
    whisting = False  # the words after the contract are whist words (P6)
    for action in knowledge.history:
        whisting = whisting or action.do is PrefDo.CONTRACT
        if whisting:
            hidden = action.seat != knowledge.seat and action.seat in knowledge.hidden_hands
            if whists and hidden and action.do in WHIST_WORDS:
                judged += 1
                fits += _whist_fits(world, action)
            continue
        if action.do not in (PrefDo.BID, PrefDo.PASS, PrefDo.MISERE):
            continue
        seat = action.seat
        first = seat not in said
        said.add(seat)
        place = RANK[action.bid] if action.do is PrefDo.BID and action.bid else MISERE
        if seat != knowledge.seat and seat in knowledge.hidden_hands:
            hand = _hand_when_bidding(world, seat)
            if action.do is PrefDo.BID:
                judged += 1
                fits += rules.affordable(hand, rules.TALON_GAIN) >= place - SLACK
            elif action.do is PrefDo.MISERE:
                judged += 1
                fits += rules.unsafe_cards(hand) <= rules.MISERE_RISK + 1
            elif first:
                judged += 1
                next_bid = top + 2 if top + 1 == MISERE else top + 1
                fits += rules.affordable(hand, rules.TALON_GAIN) < next_bid + SLACK
        if action.do is not PrefDo.PASS:
            top = max(top, place)
    return fits, judged


def _whist_fits(world: PrefDeal, action: PrefAction) -> bool:
    """A whist word fits a defender's imagined hand (the rules level's reading, loosened by a
    trick): a whist a count of at least one trick, a pass or half-whist one short of whisting
    alone."""
    if world.contract is None:
        return True
    count = rules.defence_tricks(_hand_when_bidding(world, action.seat), world.trump)
    contract_level = level(world.contract)
    if action.do is PrefDo.WHIST:
        return count >= 1.0
    return count < rules.LONE_WHIST[contract_level] + 1


def _hand_when_bidding(world: PrefDeal, seat: int) -> list[Card]:
    """The ten cards the seat held in the auction: its hand, its played cards, and for the
    declarer his discard less the talon."""
    hand = [*world.hands[seat], *(p.card for t in world.tricks_played for p in t if p.seat == seat)]
    hand += [p.card for p in world.trick if p.seat == seat]
    if seat == world.declarer:
        hand += world.discards
        hand = [c for c in hand if c not in world.talon]
    return hand


# ---- the look-ahead's own choices ----------------------------------------------------------------


def lookahead(deal: PrefDeal, seat: int, legal: Sequence[PrefAction]) -> PrefAction:
    """How the Master's playouts act at every seat, and its choice unless a gain is clear: the
    rules level's, but the contract first in `_modest_contracts`."""
    if deal.phase is Phase.CONTRACT and len(legal) > 1:
        return _modest_contracts(deal, seat, legal)[0]
    return rules.choose(deal, seat, legal)


def _modest_contracts(deal: PrefDeal, seat: int, legal: Sequence[PrefAction]) -> list[PrefAction]:
    """P5: the contracts worth weighing, the modest one first: the lowest the bid allows in
    the suit the hand counts most tricks in, then one and two levels up, then the lowest in
    the next suit. The rules level's count overstates no trump (the defenders lead first and
    run their suits: over 400 seeded deals, `bench/ai_strength.py --counts 400 --seed 26`, a
    no-trump count of 8 took 4.2 tricks double dummy, of 9 5.5; a suit count of 7 6.1, of 8
    7.9), so no trump comes only where no suit may be named."""
    hand = deal.hands[seat]
    suits = sorted(
        ((rules.tricks(hand, trump), suffix) for suffix, trump in rules.DENOMINATIONS[:4]),
        reverse=True,
    )
    by_bid = {a.bid: a for a in legal}
    found: list[PrefAction] = []
    for rank_in_order, (_, suffix) in enumerate(suits[:2]):
        levels = [n for n in range(6, 11) if f"{n}{suffix}" in by_bid]
        for n in levels[: 3 if rank_in_order == 0 else 1]:
            found.append(by_bid[f"{n}{suffix}"])
    return found or sorted(legal, key=lambda a: RANK[a.bid or ""])[:1]


def _as_seat(seat: int, own: Policy, others: Policy) -> Policy:
    """A playout policy: `own` at `seat`, `others` at every other seat (the Master
    reads the others' words as the rules level would say them, and so plays them out)."""

    def policy(deal: PrefDeal, at: int, legal: Sequence[PrefAction]) -> PrefAction:
        return (own if at == seat else others)(deal, at, legal)

    return policy


# ---- weighing the candidates ---------------------------------------------------------------------


def payoff(deal: PrefDeal, seat: int) -> float:
    """What a finished deal is worth to the seat, in whists (P16)."""
    assert deal.entries is not None
    return deal_value(deal.entries, deal.n)[seat]


def play_out(deal: PrefDeal, policy: Policy = rules.choose) -> PrefDeal:
    """The deal played to its end by `policy` (the rules level unless given) at every seat."""
    while not deal.finished:
        seat = deal.controller
        assert seat is not None
        deal, _ = deal.apply(policy(deal, seat, deal.legal_actions()))
    return deal


def _played_out(
    knowledge: PrefKnowledge, candidates: list[PrefAction], default: PrefAction,
    rng: random.Random, playouts: int, whists: bool, policy: Policy,
) -> PrefAction:  # fmt: skip
    """The candidate with the best mean payoff over playouts by `policy`, if it beats the
    policy's own choice by more than the noise; else that choice."""
    seat = knowledge.seat
    least = min(MIN_SAMPLES, playouts)
    most = max(least, playouts // len(candidates))

    def row() -> list[float]:
        imagined = sample(knowledge, rng, whists)
        return [payoff(play_out(imagined.apply(action)[0], policy), seat) for action in candidates]

    return best_of(candidates, default, row, most, least)


def _solved(
    knowledge: PrefKnowledge, candidates: list[PrefAction], default: PrefAction,
    rng: random.Random, samples: int, nodes: int | None, whists: bool, total: int = 0,
) -> PrefAction | None:  # fmt: skip
    """Each candidate card's mean value over imagined deals, each deal solved exactly from the
    trick on the table (ai/pref_dd.py); None if a deal takes more than `nodes` positions, or
    all of them more than `total`."""
    seat = knowledge.seat
    world = knowledge.world
    totals = [0.0] * len(candidates)
    worth: dict[tuple[int, ...], float] = {}
    spent = 0
    for _ in range(samples):
        limit = None if nodes is None else min(nodes, total - spent)
        solver = DDSolver(sample(knowledge, rng, whists), limit=limit)
        try:
            ends = [solver.after(a.seat, a.card) for a in candidates if a.card is not None]
        except OverBudget:
            return None
        spent += solver.nodes
        for i, won in enumerate(ends):
            if won not in worth:
                entries = score_deal(
                    world.outcome_with(won), world.n, world.dealer, world.streak, world.rules
                )
                worth[won] = deal_value(entries, world.n)[seat]
            totals[i] += worth[won]
    best = max(range(len(candidates)), key=lambda i: (totals[i], candidates[i] == default))
    return candidates[best]


def _dd_weighed(
    knowledge: PrefKnowledge, candidates: list[PrefAction], default: PrefAction,
    rng: random.Random, samples: int, total: int, policy: Policy,
) -> PrefAction | None:  # fmt: skip
    """Each candidate word's mean payoff over imagined deals (fitting every word said), each
    taken by `policy` to the first lead and solved exactly from there (ai/pref_dd.py: one
    solve per denomination and deal); None if they take more than `total` positions."""
    seat = knowledge.seat
    totals = [0.0] * len(candidates)
    spent = 0
    for _ in range(samples):
        imagined = sample(knowledge, rng, True)
        solved: dict[object, tuple[int, ...]] = {}
        for i, action in enumerate(candidates):
            deal = imagined.apply(action)[0]
            while not deal.finished and deal.phase is not Phase.PLAY:
                controller = deal.controller
                assert controller is not None
                deal = deal.apply(policy(deal, controller, deal.legal_actions()))[0]
            if deal.finished:
                totals[i] += payoff(deal, seat)
                continue
            key = (deal.trump, deal.contract == "misere")
            if key not in solved:
                solver = DDSolver(deal, limit=total - spent)
                try:
                    solved[key] = solver.ends()
                except OverBudget:
                    return None
                spent += solver.nodes
            entries = score_deal(
                deal.outcome_with(solved[key]), deal.n, deal.dealer, deal.streak, deal.rules
            )
            totals[i] += deal_value(entries, deal.n)[seat]
    best = max(range(len(candidates)), key=lambda i: (totals[i], candidates[i] == default))
    return candidates[best]
