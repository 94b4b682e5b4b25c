"""The lobby's message: the game, who sits, what a deal costs, and its buttons."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from locales import t

from .. import callbacks, computer, games
from ..format import name
from ..view.message import Button, Choice, Link, Rendered, deep_link
from ..view.message import fit as _fit


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
    game's own amounts), and Join / Leave / Start / game buttons; with `computers`
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

    rows: list[Sequence[Button]] = [
        *lobby_choices(lang, table_id, game, computers=computers, private=private)
    ]
    if not private:
        link = deep_link(bot_username, f"j{table_id}")
        rows.append([Link(t(lang, "btn.open_bot"), link)])
    return Rendered(_fit("\n".join(lines)), rows)


def lobby_choices(
    lang: str, table_id: int, game: str, *, computers: bool, private: bool
) -> list[list[Choice]]:
    """The lobby's buttons, row by row, for the chat's message and the page alike: Join and
    Leave (not at a practice table), a computer player of each level and one that stands the
    last up (`computers`), Start and the next game."""

    def choice(label: str, kind: str, code: str = "", primary: bool = False) -> Choice:
        return Choice(label, callbacks.encode(kind, table_id, code=code), primary=primary)

    rows = (
        [] if private else [[choice(t(lang, "btn.join"), "j"), choice(t(lang, "btn.leave"), "l")]]
    )
    if computers:
        rows.append(
            [
                choice(
                    t(lang, "btn.add_computer", level=t(lang, f"computer.level.{level}")),
                    "m",
                    str(i),
                )
                for i, level in enumerate(computer.ORDER)
            ]
        )
        rows.append([choice(t(lang, "btn.remove_computer"), "m", "-")])
    title = games.ui(game).title(lang)
    start = choice(t(lang, "btn.start"), "s", primary=True)
    rows.append([start, choice(t(lang, "btn.game", game=title), "g")])
    return rows
