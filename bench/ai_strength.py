"""How strong the computer players are: duplicate matches between levels, per game.

Run: `nice -n 15 python bench/ai_strength.py [--deals 2000] [--strong-deals N]
[--games frap,khrap,student_khrap,napoleon,preferans] [--players N] [--seed 1] [--jobs 1]
[--pairs strong-rules,rules-random] [--card-play-loss [--loss-levels master,amateur]]
[--no-matches]`.

Every deck is played twice with the two levels on alternating seats (A B A B, then B A B A), the
same dealer and the same deck, so the cards' luck cancels: what remains is the levels' play. Each
deal starts with an empty pot and an ante of 10; what the pot holds at its end (all-pass antes,
F8; penalties, F14) is shared equally, since it is played for in later deals — the same payoff
the strong level plays for (ai/games.py). For each duplicate deal the figure is the mean chips
per deal of a seat of level A minus that of level B; the bench prints its mean with a 95 %
confidence interval (normal approximation over the duplicate deals), each level's own mean, and
the CPU time of the strong level's decisions (those with a choice), whose p99 is the speed goal.
The last lines, one per game, have a fixed form for comparing runs.

Every game of the registry (engine/games.py) is played the same way, at its default table (four;
Preferans three, P1) or `--players` clamped to the sizes it is played at, and measured in its
registry entry's unit. Preferans is played one deal at a time from an empty sheet (Sochi
rules, no raspasy before it), and its figure is in whists: each seat's P16
settlement of the deal's own entries, a pulya point counted as a gora point written off (the
payoff of preferans/pulya.deal_value, which the strong level plays for).

`--pairs A-B,...` picks the matches (default strong-rules,rules-random); for Preferans `exact` is an
earlier Master (card play exact from the first trick where 16 imagined deals fit a budget of
positions, the deals fitting the whist words too), kept in the bench: it did not win whists; `today`
the Master before its modest contracts (ai/pref_search.lookahead); `before` the Master before it
played the other seats out as the rules level (60 playouts a decision, every seat played out as its
own); `ddwords` the Master weighing the contract and the whist words over 6 imagined deals solved
exactly from the first lead (bench only: over the time budget). Two levels see every card, the
ceilings (`SEES_ALL`: the bench gives them the real deal as their only world): `seer` plays each
candidate out once on the real deal, the others as the rules level; `oracle` solves its card play
and its contract and whist words exactly on it (the others played out as itself). Each Preferans
match also prints A − B by what the two tables played (raspasy, or a contract or misère and its
declarer's level): its deals, its share of A − B a deal, its mean. `--counts N` checks the rules
level's count of each denomination against the declarer's tricks double dummy in N seeded deals'
contracts.
`--card-play-loss` also plays `--deals` seeded Preferans deals with one level at every
seat (`--loss-levels`, default master,amateur; also exact, exactfull, before) and, for each card
played, takes the double-dummy value of the best card in the real position (all hands known, for
this measure only; ai/pref_dd.py, the counted side as the solver sees it: the declarer against the
defenders, in raspasy the seat to play against the other two) less the value of the card chosen: the
card-play loss in tricks, summed per deal, with its 95 % interval for the declarer's trick
contracts, whisting (the defence of one, light play too), misère (both sides) and raspasy, and in
all (over the deals with card play). Its last line: `preferans card-play loss: master X [lo, hi]
amateur Y [lo, hi] tricks a deal`. `--no-matches` measures the loss alone.
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import sys
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, replace
from functools import partial
from typing import Any

from engine.ai import LEVELS, pref_knowledge
from engine.ai.pref_dd import DDSolver
from engine.ai.pref_search import EXACT_NODES, EXACT_TOTAL
from engine.ai.pref_search import strong as pref_strong
from engine.ai.preferans import DENOMINATIONS, tricks
from engine.ai.preferans import choose as rules_choose
from engine.cards import make_deck, shuffled
from engine.games import GAMES
from engine.preferans.actions import PrefDo
from engine.preferans.deal import Phase, PrefDeal
from engine.preferans.outcome import PrefRules

PREFERANS = "preferans"  # the card-play loss measures Preferans's card play
OLD = {"playouts": 60, "others": None}  # an earlier Master's playouts: below
BENCH_LEVELS: dict[str, Any] = {
    **LEVELS,
    # An earlier Master, card play exact from the first trick where it fits (`--pairs exact-...`).
    "exact": partial(
        pref_strong,
        solve_tricks=10,
        solve_nodes=EXACT_NODES,
        solve_total=EXACT_TOTAL,
        whists=True,
        **OLD,
    ),
    "today": partial(pref_strong, modest=False, **OLD),  # the Master before its modest contracts
    "before": partial(pref_strong, **OLD),  # 60 playouts a decision, every seat as its own
    "ddwords": partial(pref_strong, dd_words=6, solve_total=24000, **OLD),
    # `exact` without its budget: every card from the first trick solved over 16 imagined deals.
    "exactfull": partial(
        pref_strong, solve_tricks=10, solve_nodes=None, solve_total=10**12, whists=True, **OLD
    ),
    # Sees every card (the bench's ceilings; no player in the bot does): `seer` plays
    # each candidate out once on the real deal, the others as the rules level; `oracle` solves
    # its card play and its contract and whist words exactly on the real deal (the others
    # played out as itself).
    "seer": partial(pref_strong, playouts=1, solve_tricks=0),
    "oracle": partial(
        pref_strong,
        playouts=1,
        solve_samples=1,
        solve_tricks=10,
        solve_total=10**9,
        dd_words=1,
        others=None,
    ),
}
SEES_ALL = frozenset({"seer", "oracle"})
NAMES = ("p0", "p1", "p2", "p3", "p4", "p5")


@dataclass
class Match:
    """One duplicate deal: the A-minus-B figure, each level's mean, the strong decisions' times."""

    diff: float
    mean_a: float
    mean_b: float
    strong_times: list[float]
    kind: str = ""  # Preferans: what the two tables played (`deal_kind`), "/" between them


def play_deal(
    game: str, players: int, deck_seed: str, levels: list[str], times: list[float],
    kinds: list[str] | None = None,
) -> list[float]:  # fmt: skip
    """One deal of `game` with the given level at each seat; returns what it gave each seat in
    the game's unit (the Frap family's chips plus an equal share of the pot left at the end, the
    pot being played for later, F3, F8, F15; Preferans's whists, P16). What was played is added
    to `kinds` for the games `KINDS` names."""
    entry = GAMES[game]
    rules: dict[str, Any] = {}  # each game's default (the family's classic preset, Sochi)
    deck_rng = random.Random(deck_seed)
    deck = shuffled(make_deck(entry.deck_size(rules, players)), deck_rng)
    deal = entry.new(rules, NAMES[:players], deck_rng.randrange(players), deck)
    rngs = [random.Random(f"{deck_seed}/{levels[s]}/{s}") for s in range(players)]
    while not deal.finished:
        seat = entry.to_act(deal)  # P7: the lone whister decides the passer's cards in light play
        assert seat is not None
        seen = seen_all(deal, seat) if levels[seat] in SEES_ALL else entry.knowledge(deal, seat)
        deal, _ = deal.apply(_decide(levels[seat], seen, rngs[seat], times))
    if kinds is not None and game in KINDS:
        kinds.append(KINDS[game](deal, levels))
    return entry.payoff(deal)


def seen_all(deal: PrefDeal, seat: int) -> Any:
    """The seat's knowledge with every card shown: the real deal as its only world (the bench's
    ceiling, `SEES_ALL`; no player in the bot sees it)."""
    return replace(
        pref_knowledge(deal, seat), world=deal.copy(), unseen=(), hidden_hands=(),
        hidden_talon=0, hidden_discards=False, pinned=(),
    )  # fmt: skip


def deal_kind(deal: PrefDeal, levels: list[str]) -> str:
    """What a finished Preferans deal was: raspasy, or a contract or misère and the level of
    its declarer."""
    if deal.raspasy:
        return "raspasy"
    kind = "misère" if deal.contract == "misere" else "contract"
    return f"{kind} by {levels[deal.declarer or 0]}"


KINDS: dict[str, Callable[[Any, list[str]], str]] = {PREFERANS: deal_kind}  # --pairs by kind


def new_preferans(deck_seed: str) -> PrefDeal:
    """The seeded Preferans deal of three (its deck and first dealer from `deck_seed`)."""
    deck_rng = random.Random(deck_seed)
    deck = shuffled(make_deck(32), deck_rng)
    return PrefDeal.new(PrefRules(), NAMES[:3], deck_rng.randrange(3), deck)[0]


def _decide(level: str, knowledge: Any, rng: random.Random, times: list[float]) -> Any:
    """The level's action on the seat's knowledge (of any game); a strong decision with a choice
    adds its CPU time to `times`."""
    start = time.process_time()
    action = BENCH_LEVELS[level](knowledge, rng)
    if level in BENCH_LEVELS and level not in ("random", "rules") and len(knowledge.legal) > 1:
        times.append(time.process_time() - start)
    return action


def duplicate(game: str, players: int, a: str, b: str, seed: int, index: int) -> Match:
    """The deck number `index` played with A on the even seats, then on the odd ones."""
    deck_seed = f"{seed}/{game}/{index}"
    totals = {a: 0.0, b: 0.0}
    times: list[float] = []
    kinds: list[str] = []
    for shift in (0, 1):
        levels = [a if (seat + shift) % 2 == 0 else b for seat in range(players)]
        for seat, chips in enumerate(play_deal(game, players, deck_seed, levels, times, kinds)):
            totals[levels[seat]] += chips
    count_a = sum(1 for shift in (0, 1) for s in range(players) if (s + shift) % 2 == 0)
    count_b = 2 * players - count_a
    mean_a, mean_b = totals[a] / count_a, totals[b] / count_b
    return Match(mean_a - mean_b, mean_a, mean_b, times, " / ".join(sorted(kinds)))


def report_kinds(game: str, a: str, b: str, matches: list[Match]) -> None:
    """Where the difference comes from (the games `KINDS` names): for each pair of what the two
    tables of a duplicate deal played, its deals, its share of A − B a deal and its mean."""
    by_kind: dict[str, list[float]] = {}
    for match in matches:
        by_kind.setdefault(match.kind, []).append(match.diff)
    for kind, diffs in sorted(by_kind.items(), key=lambda item: -abs(sum(item[1]))):
        mean, low, high = interval(diffs)
        print(
            f"{game} {a}-vs-{b} by kind, {kind}: {len(diffs)} deals, share "
            f"{sum(diffs) / len(matches):+.2f} a deal, mean {mean:+.2f} [{low:.2f}, {high:.2f}]",
            flush=True,
        )


def _run(args: tuple[str, int, str, str, int, int, int]) -> list[Match]:
    game, players, a, b, seed, first, last = args
    return [duplicate(game, players, a, b, seed, i) for i in range(first, last)]


def interval(values: list[float]) -> tuple[float, float, float]:
    """The mean and its 95 % confidence interval."""
    mean = statistics.fmean(values)
    half = 1.96 * statistics.stdev(values) / math.sqrt(len(values)) if len(values) > 1 else 0.0
    return mean, mean - half, mean + half


def p99_ms(times: list[float]) -> float:
    """The 99th percentile of the times, in milliseconds."""
    if not times:
        return 0.0
    ordered = sorted(times)
    return 1000 * ordered[min(len(ordered) - 1, math.ceil(0.99 * len(ordered)) - 1)]


def measure(
    game: str, players: int, a: str, b: str, deals: int, seed: int, jobs: int
) -> list[Match]:
    """`deals` duplicate deals of `game` between levels A and B, over `jobs` processes."""
    step = max(1, min(20, math.ceil(deals / (jobs * 8))))  # progress at least every 20 deals
    chunks = [
        (game, players, a, b, seed, first, min(deals, first + step))
        for first in range(0, deals, step)
    ]
    matches: list[Match] = []
    with ProcessPoolExecutor(jobs) as pool:
        for result in pool.map(_run, chunks):
            matches += result
            if len(matches) > 1:
                mean, low, high = interval([m.diff for m in matches])
                times = [t for m in matches for t in m.strong_times]
                print(
                    f"  ... {game} {a}-vs-{b}: {len(matches)} of {deals}: {mean:+.2f} "
                    f"[{low:.2f}, {high:.2f}]; strong decisions {len(times)}, median "
                    f"{1000 * statistics.median(times or [0]):.0f} ms, p99 {p99_ms(times):.0f} ms",
                    file=sys.stderr,
                    flush=True,
                )
    return matches


# ---- card-play loss -----------------------------------------------------------------------------

LOSS_KINDS = ("contract", "whisting", "misère", "raspasy")
# exact, exactfull and before: bench only
LOSS_LEVELS = (
    ("master", "strong"),
    ("amateur", "rules"),
    ("exact", "exact"),
    ("exactfull", "exactfull"),
    ("before", "before"),
)


def loss_kind(deal: PrefDeal) -> str:
    """What the card to play is part of: the declarer's trick contract, the defence against one
    (whisting, light play too), misère (either side), raspasy."""
    if deal.raspasy:
        return "raspasy"
    if deal.contract == "misere":
        return "misère"
    return "contract" if deal.turn == deal.declarer else "whisting"


def card_loss(deal: PrefDeal, seat: int, chosen: Any) -> float:
    """The double-dummy value of the best card in the real position (all hands known, for the
    measure only) less that of the card chosen, in tricks for the side to play."""
    solver = DDSolver(deal)
    values = {a.card: solver.counted(a.seat, a.card) for a in deal.legal_actions() if a.card}
    mover = deal.order.index(seat)
    own = values[chosen.card]
    if solver.maximisers[mover]:
        return max(values.values()) - own
    return own - min(values.values())


def deal_loss(deck_seed: str, level: str) -> dict[str, float]:
    """One Preferans deal with `level` at every seat: each kind's card-play loss summed over the
    deal (the kinds of card play it had only)."""
    deal = new_preferans(deck_seed)
    rngs = [random.Random(f"{deck_seed}/{level}/{s}") for s in range(3)]
    loss: dict[str, float] = {}
    while not deal.finished:
        seat = deal.controller
        assert seat is not None
        action = _decide(level, pref_knowledge(deal, seat), rngs[seat], [])
        if deal.phase is Phase.PLAY:
            kind = loss_kind(deal)
            loss[kind] = loss.get(kind, 0.0) + card_loss(deal, deal.turn or 0, action)
        deal, _ = deal.apply(action)
    return loss


def _loss_run(args: tuple[str, int, int, int]) -> tuple[list[dict[str, float]], float]:
    level, seed, first, last = args
    started = time.process_time()
    found = [deal_loss(f"{seed}/{PREFERANS}/{i}", level) for i in range(first, last)]
    return found, time.process_time() - started


def measure_loss(
    level: str, deals: int, seed: int, jobs: int
) -> tuple[list[dict[str, float]], float]:
    """The card-play loss of `deals` seeded deals played by `level` at every seat, and the CPU
    seconds it took (the level's play and the measure's solving)."""
    step = max(1, min(20, math.ceil(deals / (jobs * 8))))
    chunks = [(level, seed, first, min(deals, first + step)) for first in range(0, deals, step)]
    found: list[dict[str, float]] = []
    cpu = 0.0
    with ProcessPoolExecutor(jobs) as pool:
        for result, seconds in pool.map(_loss_run, chunks):
            found += result
            cpu += seconds
            print(f"  ... {level} card-play loss: {len(found)} of {deals}", file=sys.stderr)
    return found, cpu


def report_loss(deals: int, seed: int, jobs: int, names: list[str]) -> str:
    """Print each level's loss per kind of card play; return the fixed last line."""
    parts = []
    for name, level in LOSS_LEVELS:
        if name not in names:
            continue
        found, cpu = measure_loss(level, deals, seed, jobs)
        for kind in LOSS_KINDS:
            values = [f[kind] for f in found if kind in f]
            if values:
                mean, low, high = interval(values)
                print(
                    f"preferans {name} card-play loss, {kind}: {mean:.3f} [{low:.3f}, {high:.3f}] "
                    f"tricks a deal over {len(values)} deals",
                    flush=True,
                )
        played = [sum(f.values()) for f in found if f]
        mean, low, high = interval(played)
        print(
            f"preferans {name} card-play loss, all: {mean:.3f} [{low:.3f}, {high:.3f}] over "
            f"{len(played)} deals with card play ({cpu:.0f} s of CPU)",
            flush=True,
        )
        parts.append(f"{name} {mean:.3f} [{low:.3f}, {high:.3f}]")
    return f"preferans card-play loss: {' '.join(parts)} tricks a deal"


# ---- the rules level's count against double dummy -----------------------------------------------


def count_check(deals: int, seed: int) -> None:
    """For `deals` seeded deals the rules level bids and discards to a trick contract: each
    denomination's count (`ai/preferans.tricks`, rounded to the half) against the declarer's
    tricks double dummy in its lowest contract the bid allows, both defenders whisting (the
    hands known: for the measure only). Prints the mean tricks per denomination kind and count."""
    found: dict[tuple[str, float], list[int]] = {}
    for index in range(deals):
        deal = new_preferans(f"{seed}/{PREFERANS}/{index}")
        while not deal.finished and deal.phase is not Phase.CONTRACT:
            seat = deal.controller
            assert seat is not None
            deal, _ = deal.apply(rules_choose(deal, seat, deal.legal_actions()))
        if deal.phase is not Phase.CONTRACT:
            continue
        declarer = deal.controller
        assert declarer is not None
        legal = deal.legal_actions()
        for suffix, trump in DENOMINATIONS:
            named = [a for a in legal if (a.bid or "")[1:] == suffix]
            if not named:
                continue
            played, _ = deal.apply(named[0])
            while played.phase is not Phase.PLAY:
                words = {a.do: a for a in played.legal_actions()}
                played, _ = played.apply(words.get(PrefDo.WHIST) or words[PrefDo.LIGHT])
            count = round(2 * tricks(deal.hands[declarer], trump)) / 2
            kind = "no trump" if trump is None else "suit"
            found.setdefault((kind, count), []).append(DDSolver(played).ends()[declarer])
    for (kind, count), taken in sorted(found.items()):
        print(
            f"preferans count {kind} {count:.1f}: {statistics.fmean(taken):.2f} tricks double "
            f"dummy over {len(taken)} contracts",
            flush=True,
        )


def main() -> None:
    """Run the matches and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=2000, help="duplicate deals per game and pair")
    parser.add_argument(
        "--strong-deals", type=int, help="duplicate deals with the strong level (default --deals)"
    )
    parser.add_argument("--games", default=",".join(GAMES))
    parser.add_argument("--players", type=int, help="each game's table (default: its usual one)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument(
        "--pairs", default="strong-rules,rules-random",
        help="the matches, A-B each (levels random, rules, strong; Preferans also exact: "
        "an earlier Master, exact from the first trick)",
    )  # fmt: skip
    parser.add_argument(
        "--card-play-loss", action="store_true",
        help="Preferans: also the Master's and the Amateur's card-play loss over --deals deals",
    )  # fmt: skip
    parser.add_argument(
        "--loss-levels",
        default="master,amateur",
        help="the levels whose card-play loss to measure (also exact: an earlier Master)",
    )
    parser.add_argument(
        "--matches", action=argparse.BooleanOptionalAction, default=True,
        help="play the duplicate matches (--no-matches: the card-play loss alone)",
    )  # fmt: skip
    parser.add_argument(
        "--counts", type=int, default=0,
        help="Preferans: the rules level's count against double dummy over so many deals",
    )  # fmt: skip
    args = parser.parse_args()
    if args.counts:
        count_check(args.counts, args.seed)
    summary = []
    for game in args.games.split(",") if args.matches else ():
        parts, times = [], []
        for a, b in (pair.split("-") for pair in args.pairs.split(",")):
            started = time.perf_counter()
            deals = args.strong_deals if "strong" in (a, b) and args.strong_deals else args.deals
            seats = GAMES[game].seats
            players = GAMES[game].default_players if args.players is None else args.players
            players = min(max(players, seats.start), seats.stop - 1)
            matches = measure(game, players, a, b, deals, args.seed, args.jobs)
            mean, low, high = interval([m.diff for m in matches])
            mean_a = statistics.fmean(m.mean_a for m in matches)
            mean_b = statistics.fmean(m.mean_b for m in matches)
            times += [t for m in matches for t in m.strong_times]
            print(
                f"{game} {a}-vs-{b}: {len(matches)} duplicate deals, {a} {mean_a:+.2f} and "
                f"{b} {mean_b:+.2f} {GAMES[game].unit} per deal a "
                f"seat; {a} − {b} {mean:+.2f} "
                f"[{low:.2f}, {high:.2f}] ({time.perf_counter() - started:.0f} s)",
                flush=True,
            )
            parts.append(f"{a}-vs-{b} {mean:+.2f} [{low:.2f}, {high:.2f}]")
            if game in KINDS:
                report_kinds(game, a, b, matches)
        if times:
            print(
                f"{game} strong decisions: {len(times)}, "
                f"median {1000 * statistics.median(times):.0f} ms, p99 {p99_ms(times):.0f} ms, "
                f"max {1000 * max(times):.0f} ms (CPU time)",
                flush=True,
            )
        summary.append(f"{game}: {' '.join(parts)} p99 {p99_ms(times):.0f} ms")
    if args.card_play_loss:
        names = args.loss_levels.split(",")
        summary.append(report_loss(args.deals, args.seed, args.jobs, names))
    for line in summary:
        print(line)


if __name__ == "__main__":
    main()
