"""State of the fake Telegram world and what users do in it (the client side)."""

from __future__ import annotations

import time
from typing import Any

from tests.fakebot.models import (
    GROUP,
    PRIVATE,
    SUPERGROUP,
    BotIdentity,
    CallbackRecord,
    FakeChat,
    FakeUser,
    Json,
    StoredDocument,
    StoredMessage,
    StoredPhoto,
)
from tests.fakebot.updates import UpdateQueue
from tests.fakebot.user_text import command_target, mentions, user_entities

ChatRef = int | FakeChat | FakeUser


class World:
    """Users, chats, messages, callback queries and files, shared by both sides."""

    def __init__(self, bot: BotIdentity, updates: UpdateQueue) -> None:
        self.bot = bot
        self.updates = updates
        self.users: dict[int, FakeUser] = {}
        self.chats: dict[int, FakeChat] = {}
        self.callbacks: dict[str, CallbackRecord] = {}
        self.files: dict[str, StoredDocument] = {}
        self.photos: dict[str, StoredPhoto] = {}  # every size's file_id -> the photo
        self._serial = 0

    # -- lookup ---------------------------------------------------------------------------

    def serial(self) -> int:
        """A fresh number for ids (callback queries, files)."""
        self._serial += 1
        return self._serial

    def add_user(self, user: FakeUser) -> FakeUser:
        """Register ``user``; ids must be unique positive numbers."""
        if user.id <= 0 or user.id in self.users or user.id == self.bot.id:
            raise ValueError(f"user id {user.id} is invalid or already taken")
        self.users[user.id] = user
        return user

    def add_group(self, chat: FakeChat) -> FakeChat:
        """Register a group chat."""
        if chat.id >= 0 or chat.id in self.chats:
            raise ValueError(f"group chat id {chat.id} must be negative and unique")
        self.chats[chat.id] = chat
        return chat

    def private_chat(self, user: FakeUser) -> FakeChat:
        """The private chat of ``user`` with the bot, created on first use."""
        chat = self.chats.get(user.id)
        if chat is None:
            chat = self.chats[user.id] = FakeChat(user.id, PRIVATE, user=user)
        return chat

    def chat(self, ref: ChatRef) -> FakeChat:
        """Resolve a chat id, chat or user (its private chat) to a known chat."""
        if isinstance(ref, FakeChat):
            return ref
        if isinstance(ref, FakeUser):
            return self.private_chat(ref)
        if ref in self.users:
            return self.private_chat(self.users[ref])
        if ref in self.chats:
            return self.chats[ref]
        raise KeyError(f"no chat {ref} in the fake world")

    def find_message(self, chat: FakeChat, message_id: int) -> StoredMessage | None:
        """The live (not deleted) message ``message_id`` of ``chat``."""
        for message in chat.messages:
            if message.message_id == message_id:
                return None if message.deleted else message
        return None

    def new_message(self, chat: FakeChat, sender: FakeUser | None, **fields: Any) -> StoredMessage:
        """Store a new message in ``chat`` with the next message id."""
        message = StoredMessage(
            chat=chat,
            message_id=chat.next_message_id(),
            sender=sender,
            date=int(time.time()),
            **fields,
        )
        chat.messages.append(message)
        return message

    # -- what users do --------------------------------------------------------------------

    def user_message(
        self, user: FakeUser, chat: FakeChat, text: str, reply_to: StoredMessage | None
    ) -> StoredMessage:
        """``user`` types ``text`` in ``chat``; the update is queued if the bot may see it."""
        self._check_can_write(user, chat)
        if not text.strip():
            raise AssertionError("a Telegram client cannot send an empty message")
        if reply_to is not None and (reply_to.deleted or reply_to.chat is not chat):
            raise AssertionError(f"cannot reply to {reply_to!r} from {chat!r}")
        if chat.is_private:
            user.started = True
            if user.blocked:
                self.set_blocked(user, blocked=False)  # writing to a blocked bot unblocks it
        message = self.new_message(
            chat, user, text=text, html=text, entities=user_entities(text), reply_to=reply_to
        )
        if self._bot_receives(message):
            self.updates.push("message", message.to_api(self.bot))
        return message

    def user_press(
        self, user: FakeUser, message: StoredMessage, text: str | None, data: str | None
    ) -> CallbackRecord:
        """``user`` presses an inline button of ``message``; queues a callback_query update."""
        if message.deleted:
            raise AssertionError(f"{message!r} was deleted; its buttons cannot be pressed")
        self._check_can_see(user, message.chat)
        button_data = self._find_button(message, text, data)
        record = CallbackRecord(
            id=str(4_000_000_000_000_000 + self.serial()), user=user, message=message,
            data=button_data,
        )  # fmt: skip
        self.callbacks[record.id] = record
        self.updates.push(
            "callback_query",
            {
                "id": record.id,
                "from": user.to_api(),
                "message": message.to_api(self.bot),
                "chat_instance": message.chat.chat_instance,
                "data": button_data,
            },
        )
        return record

    def migrate(self, group: FakeChat, new_id: int) -> FakeChat:
        """An admin turns basic group ``group`` into supergroup ``new_id`` (same members, title,
        bot rights); from now on every call on the old id is refused with migrate_to_chat_id."""
        if group.type != GROUP or group.migrated_to is not None:
            raise AssertionError(f"{group!r} is not a basic group that can be upgraded")
        chat = FakeChat(new_id, SUPERGROUP, title=group.title, privacy=group.privacy)
        chat.members = dict(group.members)
        chat.bot_status = group.bot_status
        self.add_group(chat)
        group.migrated_to = new_id
        return chat

    def announce_migration(self, group: FakeChat, by: FakeUser) -> None:
        """The two service messages of an upgrade, as Telegram sends them to a bot in both chats:
        ``migrate_to_chat_id`` in the old group, then ``migrate_from_chat_id`` in the new one."""
        if group.migrated_to is None:
            raise AssertionError(f"{group!r} was not upgraded")
        new = self.chats[group.migrated_to]
        signals = ((group, "migrate_to_chat_id", new.id), (new, "migrate_from_chat_id", group.id))
        for chat, field, other in signals:
            message = self.new_message(chat, by, service={field: other})
            if chat.bot_status in ("member", "administrator"):  # whatever the privacy mode
                self.updates.push("message", message.to_api(self.bot))

    def set_bot_status(self, group: FakeChat, status: str, by: FakeUser) -> None:
        """An admin changes the bot's membership of ``group`` (kicked, left, restricted,
        member, administrator); the bot gets a ``my_chat_member`` update, as in Telegram."""
        if group.is_private or status == group.bot_status:
            return
        old, group.bot_status = group.bot_status, status
        self.updates.push(
            "my_chat_member",
            {
                "chat": group.to_api(),
                "from": by.to_api(),
                "date": int(time.time()),
                "old_chat_member": member_json(old, self.bot.to_api()),
                "new_chat_member": member_json(status, self.bot.to_api()),
            },
        )

    def member_leaves(self, group: FakeChat, user: FakeUser, by: FakeUser | None = None) -> None:
        """``user`` leaves ``group`` (or ``by``, an admin, removes him), as Telegram tells a bot:
        a ``left_chat_member`` service message whatever the privacy mode, and a ``chat_member``
        update only to a bot that is an admin there (and only if allowed_updates asks for it)."""
        old = group.status_of(user.id)
        if group.is_private or old == "left":
            return
        group.remove(user)
        if group.bot_status not in ("member", "administrator"):
            return
        actor = by or user
        message = self.new_message(group, actor, service={"left_chat_member": user.to_api()})
        self.updates.push("message", message.to_api(self.bot))
        if group.bot_status == "administrator":
            self.updates.push(
                "chat_member",
                {
                    "chat": group.to_api(),
                    "from": actor.to_api(),
                    "date": int(time.time()),
                    "old_chat_member": member_json(old, user.to_api()),
                    "new_chat_member": member_json(
                        "left" if by is None else "kicked", user.to_api()
                    ),
                },
            )

    def member_joins(self, group: FakeChat, user: FakeUser) -> None:
        """``user`` joins ``group``, as Telegram tells a bot: a ``new_chat_members`` service
        message, and a ``chat_member`` update to a bot that is an admin there."""
        old = group.status_of(user.id)
        if group.is_private or old != "left":
            return
        group.add(user)
        if group.bot_status not in ("member", "administrator"):
            return
        message = self.new_message(group, user, service={"new_chat_members": [user.to_api()]})
        self.updates.push("message", message.to_api(self.bot))
        if group.bot_status == "administrator":
            self.updates.push(
                "chat_member",
                {
                    "chat": group.to_api(),
                    "from": user.to_api(),
                    "date": int(time.time()),
                    "old_chat_member": member_json(old, user.to_api()),
                    "new_chat_member": member_json("member", user.to_api()),
                },
            )

    def set_blocked(self, user: FakeUser, blocked: bool) -> None:
        """User blocks/unblocks the bot; the bot gets a ``my_chat_member`` update."""
        if user.blocked == blocked:
            return
        user.blocked = blocked
        old, new = ("member", "kicked") if blocked else ("kicked", "member")
        self.updates.push(
            "my_chat_member",
            {
                "chat": self.private_chat(user).to_api(),
                "from": user.to_api(),
                "date": int(time.time()),
                "old_chat_member": member_json(old, self.bot.to_api()),
                "new_chat_member": member_json(new, self.bot.to_api()),
            },
        )

    # -- rules ----------------------------------------------------------------------------

    def _check_can_see(self, user: FakeUser, chat: FakeChat) -> None:
        if chat.is_private:
            if chat.user is not user:
                raise AssertionError(f"{user!r} cannot act in another user's chat {chat!r}")
        elif chat.status_of(user.id) == "left":
            raise AssertionError(f"{user!r} is not a member of {chat!r}; use group.add(user)")

    def _check_can_write(self, user: FakeUser, chat: FakeChat) -> None:
        self._check_can_see(user, chat)
        if chat.type not in (PRIVATE, GROUP, SUPERGROUP):
            raise AssertionError(f"unsupported chat type {chat.type}")
        if chat.migrated_to is not None:
            raise AssertionError(f"{chat!r} became supergroup {chat.migrated_to}: write there")

    def _bot_receives(self, message: StoredMessage) -> bool:
        """Telegram's privacy-mode rules for what a bot sees in a group."""
        chat = message.chat
        if chat.is_private:
            return True
        if chat.bot_status not in ("member", "administrator"):
            return False
        if not chat.privacy:
            return True
        command = command_target(message.text)
        if command is not None:
            target = command[1]
            return target is None or target.lower() == self.bot.username.lower()
        if message.reply_to is not None and message.reply_to.from_bot:
            return True
        return self.bot.username.lower() in mentions(message.text)

    @staticmethod
    def _find_button(message: StoredMessage, text: str | None, data: str | None) -> str:
        if (text is None) == (data is None):
            raise AssertionError("press(): give exactly one of text= or data=")
        buttons = message.buttons
        if data is not None:
            matches = [b for b in buttons if b[1] == data]
        else:
            matches = [b for b in buttons if b[0] == text]
        if not matches:
            raise AssertionError(f"no button {text or data!r} on {message!r}; it has {buttons}")
        if data is None and len(matches) > 1:
            raise AssertionError(f"several buttons {text!r} on {message!r}; press by data=")
        found = matches[0][1]
        if found is None:
            raise AssertionError(f"button {text or data!r} on {message!r} has no callback_data")
        return found


def member_json(status: str, user: Json) -> Json:
    """Bot API ``ChatMember`` object for ``status``."""
    if status == "creator":
        return {"status": "creator", "user": user, "is_anonymous": False}
    if status == "administrator":
        return {"status": "administrator", "user": user, **_ADMIN_RIGHTS}
    if status == "kicked":
        return {"status": "kicked", "user": user, "until_date": 0}
    if status == "restricted":  # may stay, may not write
        return {
            "status": "restricted",
            "user": user,
            "is_member": True,
            "until_date": 0,
            **{right: False for right in _MEMBER_RIGHTS},
        }
    return {"status": status, "user": user}


_MEMBER_RIGHTS = (
    "can_send_messages", "can_send_audios", "can_send_documents", "can_send_photos",
    "can_send_videos", "can_send_video_notes", "can_send_voice_notes", "can_send_polls",
    "can_send_other_messages", "can_add_web_page_previews", "can_change_info",
    "can_invite_users", "can_pin_messages", "can_manage_topics", "can_edit_tag",
    "can_react_to_messages",
)  # fmt: skip


_ADMIN_RIGHTS = {
    "can_be_edited": False,
    "is_anonymous": False,
    "can_manage_chat": True,
    "can_delete_messages": True,
    "can_manage_video_chats": True,
    "can_restrict_members": True,
    "can_promote_members": False,
    "can_change_info": True,
    "can_invite_users": True,
    "can_post_stories": False,
    "can_edit_stories": False,
    "can_delete_stories": False,
    "can_pin_messages": True,
    "can_manage_topics": False,
}
