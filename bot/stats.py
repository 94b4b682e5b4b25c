"""Statistics per player and the chat's records (issue 16), from its finished deals: pure."""

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


def player_stats(user_id: int, deals: Sequence[DealFacts]) -> PlayerStats:
    """A player's statistics over `deals` (oldest first); deals without him are skipped."""
    stats = PlayerStats()
    for deal in deals:
        if user_id not in deal.deltas:
            continue
        delta = deal.deltas[user_id]
        stats.deals[deal.game] += 1
        if deal.declarer == user_id:
            stats.declared += 1
            stats.made += deal.made
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


def chat_records(deals: Iterable[DealFacts]) -> ChatRecords:
    """The chat's records: best and worst single deal, biggest pot taken, most deals played
    (the earliest holder keeps a record another only equals)."""
    best: Record | None = None
    worst: Record | None = None
    pot: Record | None = None
    played: Counter[int] = Counter()
    for deal in deals:
        for uid, delta in sorted(deal.deltas.items()):
            played[uid] += 1
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
    return ChatRecords(best, worst, pot, most)
