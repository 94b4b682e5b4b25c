"""/stats as the group reads it (issue 16): the facts gathered from storage and the engine's
replay, and the text of a player's statistics and of the chat's records."""

from __future__ import annotations

import asyncio
from collections.abc import Mapping

from engine.record import ReplayError, replay
from engine.views import table_view
from locales import t

from . import games
from .format import name, signed
from .stats import ChatRecords, DealFacts, PlayerStats
from .storage import DealRow, Storage


async def gather(storage: Storage, chat_id: int) -> list[DealFacts]:
    """Every finished deal of the chat as statistics need it (replays run off the event loop)."""
    rows = await storage.deal_sums(chat_id)
    return await asyncio.to_thread(
        lambda: [_facts(deal, game, deltas, taken) for deal, game, deltas, taken in rows]
    )


def _facts(deal: DealRow, game: str, deltas: dict[int, int], taken: dict[int, int]) -> DealFacts:
    """One deal's facts: the ledger's sums, and from its record who declared and if he made it."""
    declarer, made = None, False
    own = games.ui(game).declared(deal.record) if game in games.REGISTRY else None
    if own is not None:
        seat, made = own
        return DealFacts(
            deal.deal_id, game, deltas, taken, None if seat is None else deal.seats[seat], made
        )
    try:
        view = table_view(replay(deal.record))
    except (ReplayError, KeyError, ValueError):
        view = None
    if view is not None and view.declarer is not None and not view.needs_redeal:
        declarer = deal.seats[view.declarer]
        made = view.seats[view.declarer].tricks >= view.declarer_needs
    return DealFacts(deal.deal_id, game, deltas, taken, declarer, made)


def player_text(lang: str, label: str, stats: PlayerStats) -> str:
    """A player's statistics (HTML)."""
    lines = [t(lang, "stats.title", name=name(label))]
    if not stats.deals:
        lines.append(t(lang, "stats.no_deals"))
        return "\n".join(lines)
    per_game = ", ".join(
        f"{games.ui(game).title(lang) if game in games.REGISTRY else game}: {n}"
        for game, n in stats.deals.most_common()
    )
    lines.append(t(lang, "stats.deals", total=stats.deals.total(), games=per_game))
    lines.append(t(lang, "stats.declared", declared=stats.declared, made=stats.made))
    lines.append(
        t(lang, "stats.best_worst", best=signed(stats.best or 0), worst=signed(stats.worst or 0))
    )
    lines.append(t(lang, "stats.biggest_pot", amount=stats.biggest_pot))
    if stats.streak > 0:
        lines.append(t(lang, "stats.streak_won", n=stats.streak))
    elif stats.streak < 0:
        lines.append(t(lang, "stats.streak_lost", n=-stats.streak))
    return "\n".join(lines)


def records_text(lang: str, records: ChatRecords, labels: Mapping[int, str]) -> str:
    """The chat's records (HTML); empty when no deal has been played."""
    rows = [
        ("stats.record_best", records.best_deal, True),
        ("stats.record_worst", records.worst_deal, True),
        ("stats.record_pot", records.biggest_pot, False),
        ("stats.record_deals", records.most_deals, False),
    ]
    lines = [
        t(
            lang,
            key,
            name=name(labels.get(record.user_id, "?")),
            value=signed(record.value) if with_sign else str(record.value),
        )
        for key, record, with_sign in rows
        if record is not None
    ]
    return "\n".join([t(lang, "stats.records"), *lines]) if lines else ""
