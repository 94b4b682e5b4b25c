"""Statistics per player and the chat's records, from its finished deals: pure."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field


@dataclass(frozen=True, slots=True)
class DealFacts:
    """What statistics need of one finished deal (the ledger's sums, the declarer's fate)."""

    deal_id: int
    game: str
    deltas: dict[int, int]  # user id -> chips won (+) or lost (−) in the deal, antes included
    taken: dict[int, int]  # user id -> chips taken from the pot (tricks, the whole pot)
    declarer: int | None = None
    made: bool = False
    kind: str | None = None  # a contract counted apart (Preferans' misère)
    # A deal of a match (a Preferans pulya, P14): the match's table, and whether it is over. Its
    # chips are the match's settlement, booked on its last deal: not this deal's own.
    match: int | None = None
    settled: bool = False


@dataclass(slots=True)
class PlayerStats:
    """One player's numbers over the chat's deals."""

    deals: Counter[str] = field(default_factory=Counter)  # per game
    declared: int = 0
    made: int = 0
    best: int | None = None
    worst: int | None = None
    biggest_pot: int = 0
    streak: int = 0  # deals won (+) or lost (−) in a row, the latest first; 0 after an even one
    kinds: Counter[tuple[str, str, bool]] = field(default_factory=Counter)  # (game, kind, made)
    matches: dict[str, list[int]] = field(default_factory=dict)  # per game, each settled match's


@dataclass(frozen=True, slots=True)
class Record:
    """A chat record: who holds it and the figure."""

    user_id: int
    value: int


@dataclass(frozen=True, slots=True)
class ChatRecords:
    """The chat's records (None when no deal has been played)."""

    best_deal: Record | None
    worst_deal: Record | None
    biggest_pot: Record | None
    most_deals: Record | None
    matches: dict[str, tuple[Record, Record]] = field(default_factory=dict)  # best, worst a game


def player_stats(user_id: int, deals: Sequence[DealFacts]) -> PlayerStats:
    """A player's statistics over `deals` (oldest first); deals without him are skipped. A
    match counts as a whole: its settlement is its figure, none of its deals is a deal won or
    lost."""
    stats = PlayerStats()
    for (game, _), totals in _match_totals(deals).items():
        if user_id in totals:
            stats.matches.setdefault(game, []).append(totals[user_id])
    for deal in deals:
        if user_id not in deal.deltas:
            continue
        delta = deal.deltas[user_id]
        stats.deals[deal.game] += 1
        if deal.declarer == user_id:
            stats.declared += 1
            stats.made += deal.made
            if deal.kind is not None:
                stats.kinds[(deal.game, deal.kind, deal.made)] += 1
        if deal.match is not None:
            continue
        stats.best = delta if stats.best is None else max(stats.best, delta)
        stats.worst = delta if stats.worst is None else min(stats.worst, delta)
        stats.biggest_pot = max(stats.biggest_pot, deal.taken.get(user_id, 0))
        if delta == 0:
            stats.streak = 0
        elif (delta > 0) == (stats.streak > 0) and stats.streak:
            stats.streak += 1 if delta > 0 else -1
        else:
            stats.streak = 1 if delta > 0 else -1
    return stats


def _match_totals(deals: Iterable[DealFacts]) -> dict[tuple[str, int], dict[int, int]]:
    """Each settled match, (game, table) in the order played: every player's settlement."""
    totals: dict[tuple[str, int], dict[int, int]] = {}
    for deal in deals:
        if deal.match is not None and deal.settled:
            match = totals.setdefault((deal.game, deal.match), {})
            for uid, delta in deal.deltas.items():
                match[uid] = match.get(uid, 0) + delta
    return totals


def chat_records(deals: Sequence[DealFacts]) -> ChatRecords:
    """The chat's records: best and worst single deal, biggest pot taken, most deals played,
    and per game of matches the best and worst settlement of a match (the earliest holder
    keeps a record another only equals)."""
    best: Record | None = None
    worst: Record | None = None
    pot: Record | None = None
    played: Counter[int] = Counter()
    matches: dict[str, tuple[Record, Record]] = {}
    for deal in deals:
        for uid, delta in sorted(deal.deltas.items()):
            played[uid] += 1
            if deal.match is not None:
                continue
            if best is None or delta > best.value:
                best = Record(uid, delta)
            if worst is None or delta < worst.value:
                worst = Record(uid, delta)
            taken = deal.taken.get(uid, 0)
            if taken and (pot is None or taken > pot.value):
                pot = Record(uid, taken)
    most = None
    if played:
        uid, count = max(played.items(), key=lambda item: (item[1], -item[0]))
        most = Record(uid, count)
    for (game, _), totals in _match_totals(deals).items():
        for uid, value in sorted(totals.items()):
            high, low = matches.get(game, (Record(uid, value), Record(uid, value)))
            high = Record(uid, value) if value > high.value else high
            low = Record(uid, value) if value < low.value else low
            matches[game] = (high, low)
    return ChatRecords(best, worst, pot, most, matches)
