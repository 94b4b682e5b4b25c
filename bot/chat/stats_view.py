"""/stats as the group reads it: the facts gathered from storage and the engine's
replay, and the text of a player's statistics and of the chat's records."""

from __future__ import annotations

import asyncio
from collections.abc import Mapping, Sequence

from locales import t

from .. import games
from ..format import name, signed
from ..stats import ChatRecords, DealFacts, PlayerStats
from ..storage import DealRow, Standing, Storage


def from_pot() -> tuple[str, ...]:
    """The ledger's reasons for chips a player takes from a pot, as each game names them
    (`GameUI.from_pot`: the family's tricks, F13, and whole pot, F6, N6): what /stats calls
    the biggest pot."""
    return tuple(dict.fromkeys(reason for ui in games.REGISTRY.values() for reason in ui.from_pot))


FROM_POT = from_pot()  # (the registered games')


async def gather(storage: Storage, chat_id: int) -> list[DealFacts]:
    """Every finished deal of the chat as statistics need it (replays run off the event loop)."""
    rows = await storage.money.deal_sums(chat_id, from_pot())
    return await asyncio.to_thread(lambda: [_facts(*row) for row in rows])


def _facts(
    deal: DealRow, game: str, deltas: dict[int, int], taken: dict[int, int], closed: bool
) -> DealFacts:
    """One deal's facts: the ledger's sums, from its record who declared and if he made it,
    and for a game whose table is a match, its match and whether that is over."""
    ui = games.REGISTRY.get(game)
    if ui is None:  # a game the bot does not know (any more): its chips only
        return DealFacts(deal.deal_id, game, deltas, taken)
    seat, made, kind = ui.declared(deal.record)
    who = None if seat is None else deal.seats[seat]
    match = ui.match_of(deal)
    return DealFacts(deal.deal_id, game, deltas, taken, who, made, kind, match, closed)


def player_text(
    lang: str, label: str, stats: PlayerStats, rated: Sequence[tuple[str, Standing]] = ()
) -> str:
    """A player's statistics (HTML), with his rating in each game `rated` (the latest played
    first) and what his last evening of it changed."""
    lines = [t(lang, "stats.title", name=name(label))]
    if not stats.deals:
        lines.append(t(lang, "stats.no_deals"))
        return "\n".join(lines)
    per_game = ", ".join(
        f"{games.ui(game).title(lang) if game in games.REGISTRY else game}: {n}"
        for game, n in stats.deals.most_common()
    )
    lines.append(t(lang, "stats.deals", total=stats.deals.total(), games=per_game))
    for game, standing in rated:
        now, before = standing.now, standing.before
        line = t(lang, "stats.rating", game=games.ui(game).title(lang), rating=now.label)
        if before.deals:
            line += " " + t(lang, "stats.rating_change", change=signed(now.shown - before.shown))
        lines.append(line)
    lines.append(t(lang, "stats.declared", declared=stats.declared, made=stats.made))
    for game, kind in dict.fromkeys((game, kind) for game, kind, _ in stats.kinds):
        made = stats.kinds[(game, kind, True)]
        n = made + stats.kinds[(game, kind, False)]
        lines.append(games.ui(game).text(lang, f"stats.kind.{kind}", n=n, made=made))
    for game, totals in stats.matches.items():  # a match counts as a whole (a pulya, P16)
        best, worst = signed(max(totals)), signed(min(totals))
        text = games.ui(game).text(lang, "stats.matches", n=len(totals), best=best, worst=worst)
        lines.append(text)
    if stats.best is not None:  # deals played for their own chips
        best, worst = signed(stats.best), signed(stats.worst or 0)
        lines.append(t(lang, "stats.best_worst", best=best, worst=worst))
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
    for game, pair in records.matches.items():  # per game of matches, in its own words
        for key, record in zip(("record_best_match", "record_worst_match"), pair, strict=True):
            who = name(labels.get(record.user_id, "?"))
            value = signed(record.value)
            lines.append(games.ui(game).text(lang, f"stats.{key}", name=who, value=value))
    return "\n".join([t(lang, "stats.records"), *lines]) if lines else ""
