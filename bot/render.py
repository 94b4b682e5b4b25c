"""Views of the game as Telegram messages: HTML text and inline keyboards, through locales/."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from telegram import InlineKeyboardButton, InlineKeyboardMarkup

from locales import t

from . import callbacks, computer, games
from .format import name, signed
from .storage import ChatRow, DealRow
from .view.message import Rendered, deep_link
from .view.message import fit as _fit

# re-exported: the handlers name players and links through render
__all__ = ["Rendered", "deep_link", "name", "signed"]

# ---- lobby ---------------------------------------------------------------------------------------


def lobby(
    lang: str,
    table_id: int,
    game: str,
    names: Sequence[str],
    creator: str,
    ante: int,
    bot_username: str,
    *,
    players_range: tuple[int, int],
    closed: str | None = None,
    rules: dict[str, Any] | None = None,
    computers: bool = False,
    private: bool = False,
) -> Rendered:
    """The lobby message: the game, who sits, what a deal costs (the chat's `rules` may set a
    game's own amounts), and Join / Leave / Start / game buttons; with `computers` (issue 17)
    one button per level that seats a computer player, and one that stands the last up; a
    `private` (practice) table has no seats for people but its player's."""
    ui = games.ui(game)
    title = ui.title(lang)
    lines = [t(lang, "lobby.title", game=title)]
    if not private:  # a practice table is its player's own
        lines.append(t(lang, "lobby.creator", name=name(creator)))
    lines.append(ui.money_line(lang, rules or {}, ante))
    lines.append(t(lang, "lobby.players_range", low=players_range[0], high=players_range[1]))
    if names:
        players = ", ".join(name(n) for n in names)
        lines.append(t(lang, "lobby.players", n=len(names), players=players))
    else:  # the creator has not opened the private chat yet: not "0 players: nobody"
        lines.append(t(lang, "lobby.empty"))
    if closed:
        lines.append("")
        lines.append(t(lang, closed))
        return Rendered(_fit("\n".join(lines)))
    lines.append("")
    lines.append(t(lang, "lobby.practice_hint" if private else "lobby.hint"))
    if computers:
        lines.append(t(lang, "lobby.computer_hint"))

    def button(label: str, kind: str, code: str = "") -> InlineKeyboardButton:
        return InlineKeyboardButton(
            label, callback_data=callbacks.encode(kind, table_id, code=code)
        )

    rows = (
        [] if private else [[button(t(lang, "btn.join"), "j"), button(t(lang, "btn.leave"), "l")]]
    )
    if computers:
        rows.append(
            [
                button(
                    t(lang, "btn.add_computer", level=t(lang, f"computer.level.{level}")),
                    "m",
                    str(i),
                )
                for i, level in enumerate(computer.ORDER)
            ]
        )
        rows.append([button(t(lang, "btn.remove_computer"), "m", "-")])
    rows.append([button(t(lang, "btn.start"), "s"), button(t(lang, "btn.game", game=title), "g")])
    if not private:
        link = deep_link(bot_username, f"j{table_id}")
        rows.append([InlineKeyboardButton(t(lang, "btn.open_bot"), url=link)])
    return Rendered(_fit("\n".join(lines)), InlineKeyboardMarkup(rows))


# ---- chat commands ----------------------------------------------------------------------------


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
    """Of a table's deals (`Storage.table_deals`), the finished ones played before `deal`: what a
    game whose table is a match reads a deal's entries against (`GameUI.match`)."""
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
