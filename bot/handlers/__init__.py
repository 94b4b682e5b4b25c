"""Telegram handlers: decode the update, call the game service, answer through locales/.

One facade, `Handlers`, owning a part per concern, each a class of its module over what
`common` gives them all (the game service, the chats, the time zone; replies, the admin check,
the group-command wrapper, answering a press): `private` (/start, /help), `table` (the table's
commands and buttons), `money` (/pot, /balance, /top, /stats, /history, /export, /newseason:
the answers are built by bot/answers.py), `review` (/review and its buttons), `settings`
(/settings, /rules, /language, /pings and their buttons), `members` (membership and supergroup
moves) and `presses` (every button through one function, `Handlers.handle_press`, which a Mini
App's presses take too). The facade hands the parts' buttons to `presses` by their kind and
gathers their group commands by name (`commands`), which bot/app.py registers.
"""

from __future__ import annotations

from datetime import UTC, tzinfo

from ..callbacks import Kind
from ..service import GameService
from .common import Chats, Command, Pressed, person
from .members import Members
from .money import MoneyCommands
from .presses import Answer, AnywherePress, ChatPress, Presses
from .private import PrivateChat
from .review import Reviews
from .settings import Settings
from .table import TableCommands

__all__ = ["Answer", "Handlers", "Pressed", "person"]


class Handlers:
    """Every command and button of the bot, bound to one game service: its parts, the
    buttons' routes between them and the group commands they answer."""

    def __init__(self, service: GameService, chats: Chats, time_zone: tzinfo = UTC) -> None:
        self.private = PrivateChat(service, chats, time_zone)
        self.table = TableCommands(service, chats, time_zone)
        self.money = MoneyCommands(service, chats, time_zone)
        self.review = Reviews(service, chats, time_zone)
        self.settings = Settings(service, chats, time_zone)
        self.members = Members(service, chats, time_zone)
        # told when a member leaves or joins a group (the Mini App's server listens)
        self.membership = self.members.membership
        # each kind of button (callbacks.Kind) to its handler: the presser's own moves…
        self.anywhere: dict[Kind, AnywherePress] = {
            Kind.ACT: self.table.act_press,
            Kind.TOGGLE: self.table.toggle_press,
        }
        # …and the presses on a chat's message
        self.in_chat: dict[Kind, ChatPress] = {
            Kind.NEXT: self.table.next_press,
            Kind.CONFIG: self.settings.settings_press,
            Kind.CHOICE: self.settings.choice_press,
            Kind.SEASON: self.money.season_press,
            Kind.COMPUTER: self.table.computer_press,
            Kind.KICK: self.table.kick_press,
            Kind.JOIN: self.table.join_press,
            Kind.LEAVE: self.table.leave_press,
            Kind.START: self.table.start_press,
            Kind.GAME: self.table.game_press,
            Kind.REVIEW: self.review.review_press,
            Kind.REPLAY: self.review.replay_press,
        }
        self.presses = Presses(
            service, chats, time_zone, anywhere=self.anywhere, in_chat=self.in_chat
        )
        # the group-only commands by name (/help answers anywhere: `private`)
        self.commands: dict[str, Command] = {
            **self.table.commands(),
            **self.money.commands(),
            **self.review.commands(),
            **self.settings.commands(),
        }

    async def handle_press(self, pressed: Pressed) -> Answer:
        """A press from any front end, handled and answered (`Presses.handle_press`)."""
        return await self.presses.handle_press(pressed)
