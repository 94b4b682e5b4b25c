"""Objects of the fake Telegram world: users, chats, stored messages, calls and errors."""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from tests.fakebot.server import FakeTelegram

Json = dict[str, Any]

PRIVATE = "private"
GROUP = "group"  # a basic group: Telegram upgrades it to a supergroup (a new chat id)
SUPERGROUP = "supergroup"


class ApiError(Exception):
    """A Bot API error response: ``{"ok": false, "error_code": ..., "description": ...}``."""

    def __init__(
        self,
        error_code: int,
        description: str,
        retry_after: int | None = None,
        *,
        migrate_to_chat_id: int | None = None,
    ) -> None:
        super().__init__(f"{error_code} {description}")
        self.error_code = error_code
        self.description = description
        self.retry_after = retry_after
        self.migrate_to_chat_id = migrate_to_chat_id

    def body(self) -> Json:
        """The JSON body Telegram sends for this error (ResponseParameters when it has some)."""
        body: Json = {"ok": False, "error_code": self.error_code, "description": self.description}
        parameters: Json = {}
        if self.retry_after is not None:
            parameters["retry_after"] = self.retry_after
        if self.migrate_to_chat_id is not None:
            parameters["migrate_to_chat_id"] = self.migrate_to_chat_id
        if parameters:
            body["parameters"] = parameters
        return body


def bad_request(detail: str) -> ApiError:
    """A 400 error with Telegram's ``Bad Request: `` prefix."""
    return ApiError(400, f"Bad Request: {detail}")


def forbidden(detail: str) -> ApiError:
    """A 403 error with Telegram's ``Forbidden: `` prefix."""
    return ApiError(403, f"Forbidden: {detail}")


def upgraded(new_chat_id: int) -> ApiError:
    """What Telegram answers any call on a basic group that became a supergroup."""
    return ApiError(
        400,
        "Bad Request: group chat was upgraded to a supergroup chat",
        migrate_to_chat_id=new_chat_id,
    )


@dataclass
class BotIdentity:
    """The bot account the fake server plays."""

    id: int
    username: str
    first_name: str

    def to_api(self) -> Json:
        """Bot API ``User`` object for the bot."""
        return {
            "id": self.id,
            "is_bot": True,
            "first_name": self.first_name,
            "username": self.username,
        }


class FakeUser:
    """A scripted human Telegram user; its coroutines act like a Telegram client."""

    def __init__(
        self,
        tg: FakeTelegram,
        user_id: int,
        first_name: str,
        username: str | None = None,
        language_code: str | None = "ru",
        last_name: str | None = None,
    ) -> None:
        self._tg = tg
        self.id = user_id
        self.first_name = first_name
        self.last_name = last_name
        self.username = username
        self.language_code = language_code
        self.started = False  # has a private chat with the bot (sent it anything privately)
        self.blocked = False  # has blocked the bot

    def __repr__(self) -> str:
        return f"FakeUser({self.id}, {self.first_name!r})"

    def to_api(self) -> Json:
        """Bot API ``User`` object."""
        data: Json = {"id": self.id, "is_bot": False, "first_name": self.first_name}
        if self.last_name:
            data["last_name"] = self.last_name
        if self.username:
            data["username"] = self.username
        if self.language_code:
            data["language_code"] = self.language_code
        return data

    @property
    def dm(self) -> FakeChat:
        """The private chat between this user and the bot (chat id == user id)."""
        return self._tg.private_chat(self)

    async def send(self, chat: FakeChat, text: str) -> StoredMessage:
        """Type ``text`` into ``chat`` (a group or this user's ``dm``)."""
        return await self._tg.user_sends(self, chat, text)

    async def reply(self, message: StoredMessage, text: str) -> StoredMessage:
        """Reply to ``message`` in its chat with ``text``."""
        return await self._tg.user_sends(self, message.chat, text, reply_to=message)

    async def start(self, payload: str | None = None) -> StoredMessage:
        """Open the bot privately (deep link ``?start=payload``): sends ``/start [payload]``."""
        text = "/start" if payload is None else f"/start {payload}"
        return await self._tg.user_sends(self, self.dm, text)

    async def press(
        self, message: StoredMessage, *, text: str | None = None, data: str | None = None
    ) -> str:
        """Press the inline button with this ``text`` or ``data``; returns the callback query id."""
        return await self._tg.user_presses(self, message, text=text, data=data)


class FakeChat:
    """A supergroup or a private chat with the bot."""

    def __init__(
        self,
        chat_id: int,
        chat_type: str,
        *,
        title: str | None = None,
        user: FakeUser | None = None,
        privacy: bool = True,
    ) -> None:
        self.id = chat_id
        self.type = chat_type
        self.title = title
        self.user = user  # the other party of a private chat
        self.privacy = privacy  # bot privacy mode for this group
        self.members: dict[int, str] = {}  # user id -> "creator" | "administrator" | "member"
        self.bot_status = "member"  # "member" | "administrator" | "restricted" | "left" | "kicked"
        self.migrated_to: int | None = None  # a basic group upgraded to this supergroup
        self.messages: list[StoredMessage] = []
        self.chat_instance = f"{abs(chat_id) * 7919 + 104729}"
        self._next_message_id = 1

    def __repr__(self) -> str:
        return f"FakeChat({self.id}, {self.type}, {self.title or self.user!r})"

    @property
    def is_private(self) -> bool:
        """True for a private chat with a user."""
        return self.type == PRIVATE

    def add(self, user: FakeUser, admin: bool = False, creator: bool = False) -> FakeChat:
        """Make ``user`` a member (or admin/creator) of this group; returns the chat."""
        if self.is_private:
            raise AssertionError("cannot add members to a private chat")
        self.members[user.id] = "creator" if creator else "administrator" if admin else "member"
        return self

    def remove(self, user: FakeUser) -> None:
        """Make ``user`` leave this group."""
        self.members.pop(user.id, None)

    def status_of(self, user_id: int) -> str:
        """Chat member status of ``user_id`` (``left`` if not a member)."""
        return self.members.get(user_id, "left")

    def next_message_id(self) -> int:
        """Allocate the next message id in this chat."""
        message_id = self._next_message_id
        self._next_message_id += 1
        return message_id

    def to_api(self) -> Json:
        """Bot API ``Chat`` object."""
        if self.user is not None:
            data: Json = {"id": self.id, "type": PRIVATE, "first_name": self.user.first_name}
            if self.user.last_name:
                data["last_name"] = self.user.last_name
            if self.user.username:
                data["username"] = self.user.username
            return data
        return {"id": self.id, "type": self.type, "title": self.title}

    @property
    def bot_can_write(self) -> bool:
        """Whether the bot is in the group with the right to send messages."""
        return self.bot_status in ("member", "administrator")


@dataclass(eq=False)
class StoredDocument:
    """A file the bot uploaded with sendDocument."""

    file_id: str
    file_unique_id: str
    file_name: str
    mime_type: str | None
    content: bytes
    chat_id: int
    message_id: int

    def to_api(self) -> Json:
        """Bot API ``Document`` object."""
        data: Json = {
            "file_id": self.file_id,
            "file_unique_id": self.file_unique_id,
            "file_name": self.file_name,
            "file_size": len(self.content),
        }
        if self.mime_type:
            data["mime_type"] = self.mime_type
        return data


@dataclass(eq=False)
class StoredPhoto:
    """A photo the bot sent (sendPhoto, editMessageMedia): the upload and the sizes Telegram
    makes of it, each with its own file_id (any of them re-sends the photo)."""

    content: bytes
    width: int
    height: int
    serial: int

    def sizes(self) -> list[Json]:
        """Bot API ``PhotoSize`` objects, smallest first: thumbnails, then the photo itself
        scaled to at most 1280 px on its longer side, as Telegram stores it."""
        longest = max(self.width, self.height)
        limits = [limit for limit in PHOTO_SIZE_LIMITS if limit < longest]
        limits.append(min(longest, PHOTO_SIZE_LIMITS[-1]))
        sizes = []
        for index, limit in enumerate(limits):
            scale = limit / longest
            size: Json = {
                "file_id": f"AgACAgIAAxkBAAI{self.serial:06d}fakephoto{index}",
                "file_unique_id": f"AQAD{self.serial:06d}{index}",
                "width": max(1, round(self.width * scale)),
                "height": max(1, round(self.height * scale)),
            }
            if limit == longest:
                size["file_size"] = len(self.content)
            sizes.append(size)
        return sizes

    @property
    def file_ids(self) -> list[str]:
        """The file_id of every size."""
        return [size["file_id"] for size in self.sizes()]


PHOTO_SIZE_LIMITS = (90, 320, 800, 1280)  # Telegram's s, m, x and y photo sizes


@dataclass(eq=False)
class StoredMessage:
    """A message as the server keeps it; the same object is updated on edit and delete."""

    chat: FakeChat
    message_id: int
    sender: FakeUser | None  # None: sent by the bot
    date: int
    text: str = ""  # visible text (or caption) after entity parsing
    html: str = ""  # raw text as sent (HTML source when parse_mode is HTML)
    parse_mode: str | None = None
    entities: list[Json] = field(default_factory=list)
    reply_markup: Json | None = None
    reply_to: StoredMessage | None = None
    document: StoredDocument | None = None
    photo: StoredPhoto | None = None
    service: Json | None = None  # a service message's field, e.g. {"migrate_to_chat_id": id}
    edits: int = 0
    edit_date: int | None = None
    # Telegram notifies of a new message (unless sent with disable_notification), never of an
    # edit: a player learns it is his move only from a new message
    notified: bool = False
    deleted: bool = False
    history: list[str] = field(default_factory=list)  # previous visible texts, oldest first

    def __repr__(self) -> str:
        who = "bot" if self.sender is None else self.sender.first_name
        return f"<msg {self.chat.id}/{self.message_id} {who}: {self.text[:60]!r}>"

    @property
    def from_bot(self) -> bool:
        """True if the bot sent this message."""
        return self.sender is None

    @property
    def keyboard(self) -> list[list[tuple[str, str | None]]]:
        """Inline keyboard rows of ``(text, callback_data)``; data is None for non-callback."""
        rows = (self.reply_markup or {}).get("inline_keyboard") or []
        return [[(b.get("text", ""), b.get("callback_data")) for b in row] for row in rows]

    @property
    def buttons(self) -> list[tuple[str, str | None]]:
        """All inline buttons as a flat list of ``(text, callback_data)``."""
        return [button for row in self.keyboard for button in row]

    def to_api(self, bot: BotIdentity, *, nested: bool = True) -> Json:
        """Bot API ``Message`` object (``reply_to_message`` one level deep, like Telegram)."""
        data: Json = {
            "message_id": self.message_id,
            "from": bot.to_api() if self.sender is None else self.sender.to_api(),
            "chat": self.chat.to_api(),
            "date": self.date,
        }
        if self.edit_date is not None:
            data["edit_date"] = self.edit_date
        if nested and self.reply_to is not None and not self.reply_to.deleted:
            data["reply_to_message"] = self.reply_to.to_api(bot, nested=False)
        self._add_content(data)
        if self.reply_markup and self.reply_markup.get("inline_keyboard"):
            data["reply_markup"] = self.reply_markup
        return data

    def _add_content(self, data: Json) -> None:
        if self.service is not None:
            data.update(self.service)
            return
        if self.document is not None or self.photo is not None:
            if self.photo is not None:
                data["photo"] = self.photo.sizes()
            else:
                assert self.document is not None
                data["document"] = self.document.to_api()
            if self.text:
                data["caption"] = self.text
                if self.entities:
                    data["caption_entities"] = self.entities
            return
        data["text"] = self.text
        if self.entities:
            data["entities"] = self.entities


@dataclass(eq=False)
class CallbackRecord:
    """A callback query a user produced by pressing a button, and the bot's answer."""

    id: str
    user: FakeUser
    message: StoredMessage
    data: str | None
    answer: Json | None = None
    at: float = field(default_factory=time.monotonic)  # when pressed (time.monotonic)

    @property
    def answered(self) -> bool:
        """True once the bot called answerCallbackQuery for it."""
        return self.answer is not None


@dataclass
class ApiCall:
    """One Bot API request the bot made and what the server answered."""

    method: str
    params: Json
    ok: bool
    status: int
    result: Any = None
    description: str | None = None
    injected: bool = False  # the error came from fail_next()/outage(), not from validation
    at: float = field(default_factory=time.monotonic)  # when it arrived (time.monotonic)
