"""Membership: the bot blocked or removed, a group that became a supergroup, a
member who left the group or joined it (told to the Mini App's server)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from datetime import UTC, tzinfo

from telegram import ChatMemberUpdated, Update, User
from telegram.constants import ChatMemberStatus, ChatType
from telegram.error import ChatMigrated, TelegramError

from ..service import GameService
from .common import Chats, Common, Context, person

_MEMBER = (ChatMemberStatus.OWNER, ChatMemberStatus.ADMINISTRATOR, ChatMemberStatus.MEMBER)


class Members(Common):
    """Who is in the chat, and the chat itself moving."""

    def __init__(self, service: GameService, chats: Chats, time_zone: tzinfo = UTC) -> None:
        super().__init__(service, chats, time_zone)
        # told (chat id, user id, member now?) when a member leaves or joins a group: the Mini
        # App's server ends or grants his pages of its tables at once
        self.membership: list[Callable[[int, int, bool], Awaitable[None]]] = []

    async def my_member(self, update: Update, context: Context) -> None:
        """A user blocked (or unblocked) the bot in their private chat; in a group, the bot was
        removed or may no longer write."""
        change = update.my_chat_member
        if change is None:
            return
        if change.chat.type != ChatType.PRIVATE:
            member = change.new_chat_member
            gone = member.status in (ChatMemberStatus.LEFT, ChatMemberStatus.BANNED)
            muted = member.status == ChatMemberStatus.RESTRICTED and not getattr(
                member, "can_send_messages", True
            )
            if gone or muted:
                if change.chat.type == ChatType.GROUP and await self._upgraded(context, change):
                    return  # a basic group that became a supergroup: the bot was not removed
                await self.service.removed(change.chat.id)
            return
        status = change.new_chat_member.status
        if status == ChatMemberStatus.BANNED:
            await self.service.dm_forbidden(change.from_user.id)
        elif status == ChatMemberStatus.MEMBER:
            await self.service.touch(person(change.from_user), started=True)

    async def _upgraded(self, context: Context, change: ChatMemberUpdated) -> bool:
        """Whether Telegram refuses calls on this basic group because it is a supergroup now
        (then the chat moves there instead of its table being closed)."""
        try:
            await context.bot.get_chat(change.chat.id)
        except ChatMigrated as exc:
            await self.service.migrate(change.chat.id, exc.new_chat_id)
            return True
        except TelegramError:
            pass
        return False

    async def migrated(self, update: Update, context: Context) -> None:
        """A group became a supergroup: the service messages in the old chat (migrate_to) and in
        the new one (migrate_from); whichever comes first moves the chat."""
        message = update.effective_message
        if message is None:
            return
        if message.migrate_to_chat_id:
            await self.service.migrate(message.chat_id, message.migrate_to_chat_id)
        elif message.migrate_from_chat_id:
            await self.service.migrate(
                message.migrate_from_chat_id, message.chat_id, message.chat.title
            )

    async def member_left(self, update: Update, context: Context) -> None:
        """A member left the group or was removed (a left_chat_member service message, which
        a bot gets whatever its privacy mode, or a chat_member update, which an admin bot gets):
        he stands up from the table at the end of his deal, and his Mini App pages
        of the group's tables close now (`membership` listeners). A chat_member update that
        makes him a member again grants the pages at once, as `member_joined` does."""
        chat_id: int | None = None
        gone: User | None = None
        change = update.chat_member
        if change is not None:
            member = change.new_chat_member
            if member.status in _MEMBER or getattr(member, "is_member", False):
                await self._membership(change.chat.id, [member.user], True)
            elif member.status in (ChatMemberStatus.LEFT, ChatMemberStatus.BANNED):
                chat_id, gone = change.chat.id, member.user
        elif update.effective_message is not None:
            chat_id = update.effective_message.chat_id
            gone = update.effective_message.left_chat_member
        if chat_id is None or gone is None or gone.is_bot:
            return
        await self.service.lobby.stand_up(chat_id, gone.id, kicked=False)
        await self._membership(chat_id, [gone], False)

    async def member_joined(self, update: Update, context: Context) -> None:
        """Members joined the group (the new_chat_members service message): a page of the
        group's tables opens for them at once."""
        message = update.effective_message
        if message is not None and message.new_chat_members:
            await self._membership(message.chat_id, list(message.new_chat_members), True)

    async def _membership(self, chat_id: int, users: list[User], member: bool) -> None:
        for user in users:
            if not user.is_bot:
                for listener in self.membership:
                    await listener(chat_id, user.id, member)
