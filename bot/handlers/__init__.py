"""Telegram handlers: decode the update, call the game service, answer through locales/.

One facade, `Handlers`, over a module per concern: `common` (replies, the admin check, the
group-command wrapper, answering a press), `private` (/start, /help), `table` (the table's
commands and buttons), `money` (/pot, /balance, /top, /stats, /history, /export, /newseason:
the answers are built by bot/answers.py), `review` (/review and its button), `settings`
(/settings, /rules, /language, /pings and their buttons), `members` (membership and supergroup
moves) and `presses` (every button through one function, `Handlers.handle_press`, which a Mini
App's presses take too).
"""

from __future__ import annotations

from datetime import UTC, tzinfo

from ..callbacks import Kind
from ..service import GameService
from .common import Chats, Pressed, person
from .members import Members
from .money import MoneyCommands
from .presses import Answer, Presses
from .private import PrivateChat
from .review import Reviews
from .settings import Settings
from .table import TableCommands

__all__ = ["Answer", "Handlers", "Pressed", "person"]


class Handlers(Presses, PrivateChat, TableCommands, MoneyCommands, Reviews, Settings, Members):
    """Every command and button of the bot, bound to one game service."""

    def __init__(self, service: GameService, chats: Chats, time_zone: tzinfo = UTC) -> None:
        super().__init__(service, chats, time_zone)
        # each kind of button (callbacks.Kind) to its handler: the presser's own moves…
        self.anywhere = {Kind.ACT: self.act_press, Kind.TOGGLE: self.toggle_press}
        # …and the presses on a chat's message
        self.in_chat = {
            Kind.NEXT: self.next_press,
            Kind.CONFIG: self.settings_press,
            Kind.CHOICE: self.choice_press,
            Kind.SEASON: self.season_press,
            Kind.COMPUTER: self.computer_press,
            Kind.KICK: self.kick_press,
            Kind.JOIN: self.join_press,
            Kind.LEAVE: self.leave_press,
            Kind.START: self.start_press,
            Kind.GAME: self.game_press,
            Kind.REVIEW: self.review_press,
            Kind.REPLAY: self.replay_press,
        }
