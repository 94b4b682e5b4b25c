"""/pot, and each finished deal told for /history (its line) and /history N (its account) by the
game that played it."""

from __future__ import annotations

from collections.abc import Sequence

from locales import t

from .. import games
from ..format import name, signed
from ..storage import ChatRow, DealRow
from ..view.message import Rendered, deep_link

# re-exported: the handlers name players and links through these lines
__all__ = ["Rendered", "deep_link", "name", "signed"]


def pots(lang: str, chat: ChatRow) -> str:
    """/pot: every game's pot that holds chips, in the registry's order (Napoleon's treasure,
    Frap's pot…); the empty pot when none does."""
    lines = []
    for game in games.ORDER:
        pot = chat.pot_of(game)
        if pot:
            ui = games.ui(game)
            line = ui.text(lang, "pot.line", game=ui.title(lang), pot=pot)
            carried = t(lang, "result.penalty_carries") if chat.penalty_in(game) else ""
            lines.append(line + carried)
    if not lines:
        return t(lang, "pot", pot=0)
    return "\n".join([t(lang, "pot.title"), *lines])


def deal_account(
    lang: str, deal: DealRow, number: int | None = None, earlier: Sequence[DealRow] = ()
) -> str | None:
    """A finished deal as readable text for /history N (bids, buying, every trick, the money),
    titled with `number` (the chat's number for it; else the table's), told by its game
    (`GameUI.deal_account`; `earlier`: its match's deals before it, `match_deals`); None if its
    record cannot be told."""
    number = deal.deal_no if number is None else number
    own = own_ui(deal)
    records = [d.record for d in earlier]
    return own.deal_account(lang, deal.record, number, records) if own is not None else None


def own_ui(deal: DealRow) -> games.GameUI | None:
    """The UI of the game a deal's record names (None: a game the bot does not know)."""
    return games.REGISTRY.get(str(deal.record.get("game", "frap")))


def match_deals(deal: DealRow, table: Sequence[DealRow]) -> list[DealRow]:
    """Of a table's deals (`Tables.table_deals`), the finished ones played before `deal`: what a
    game whose table is a match reads a deal's entries against (`GameUI.match_of`)."""
    return [d for d in table if d.status == "finished" and d.deal_no < deal.deal_no]


def history_line(
    lang: str, deal: DealRow, number: int, date: str, earlier: Sequence[DealRow] = ()
) -> str:
    """One finished deal for /history: the chat's number for it, its date, the contract and each
    player's change, told by its game (`earlier` as for `deal_account`)."""
    own = own_ui(deal)
    if own is None:
        return t(lang, "history.line_plain", number=number, date=date, changes="?")
    return own.history_line(lang, deal.record, number, date, [d.record for d in earlier])
