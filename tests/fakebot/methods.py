"""The Bot API methods the fake server implements, with Telegram's validation and errors."""

from __future__ import annotations

import json
import time
from collections.abc import Awaitable, Callable
from typing import Any

from tests.fakebot.html_check import HtmlError, ParsedText, parse_html, strip_text, utf16_len
from tests.fakebot.limits import FloodControl
from tests.fakebot.models import (
    GROUP,
    FakeChat,
    Json,
    StoredDocument,
    StoredMessage,
    bad_request,
    forbidden,
    upgraded,
)
from tests.fakebot.params import Params
from tests.fakebot.webhook import GET_UPDATES_CONFLICT, Webhook
from tests.fakebot.world import World, member_json

Handler = Callable[[Params], Awaitable[Any]]

MAX_TEXT = 4096
MAX_CAPTION = 1024
MAX_CALLBACK_DATA_BYTES = 64
MAX_CALLBACK_ANSWER = 200

NOT_MODIFIED = (
    "message is not modified: specified new message content and reply markup are exactly the "
    "same as a current content and reply markup of the message"
)
QUERY_TOO_OLD = "query is too old and response timeout expired or query ID is invalid"
_COMMAND_CHARS = frozenset("abcdefghijklmnopqrstuvwxyz0123456789_")
_BUTTON_ACTIONS = (
    "callback_data", "url", "switch_inline_query", "switch_inline_query_current_chat",
    "switch_inline_query_chosen_chat", "web_app", "login_url", "callback_game", "pay",
    "copy_text",
)  # fmt: skip


class BotApi:
    """Implements the bot-side methods against a World; ``handler(name)`` finds one."""

    def __init__(
        self, world: World, flood: FloodControl, now: Callable[[], float], webhook: Webhook
    ) -> None:
        self.world = world
        self.webhook = webhook
        self.flood = flood
        self.now = now
        self.commands: dict[tuple[str, str], list[Json]] = {}
        self.menu_buttons: dict[int | None, Json] = {}
        self._handlers: dict[str, Handler] = {
            name.lower(): getattr(self, _snake(name))
            for name in (
                "getMe", "getUpdates", "setWebhook", "deleteWebhook", "getWebhookInfo",
                "setMyCommands",
                "deleteMyCommands", "getMyCommands", "setChatMenuButton", "getChatMenuButton",
                "sendMessage", "editMessageText", "editMessageReplyMarkup", "deleteMessage",
                "answerCallbackQuery", "sendDocument", "getFile", "getChat", "getChatMember",
                "getChatAdministrators", "getChatMemberCount", "sendChatAction",
            )
        }  # fmt: skip

    def register(self, method: str, handler: Handler) -> None:
        """Serve Bot API ``method`` with a handler implemented elsewhere (media.py)."""
        self._handlers[method.lower()] = handler

    def handler(self, method: str) -> Handler | None:
        """The implementation of Bot API ``method`` (case-insensitive), or None."""
        return self._handlers.get(method.lower())

    # -- bot and updates ------------------------------------------------------------------

    async def get_me(self, p: Params) -> Json:
        """getMe."""
        return {
            **self.world.bot.to_api(),
            "can_join_groups": True,
            "can_read_all_group_messages": False,
            "supports_inline_queries": False,
            "can_connect_to_business": False,
            "has_main_web_app": False,
        }

    async def get_updates(self, p: Params) -> list[Json]:
        """getUpdates with offset/limit/timeout/allowed_updates and long polling."""
        if self.webhook.url:
            raise GET_UPDATES_CONFLICT
        limit = min(max(p.optional_integer("limit") or 100, 1), 100)
        timeout = max(p.number("timeout"), 0.0)
        self.world.updates.set_allowed(p.obj("allowed_updates"))
        return await self.world.updates.fetch(p.optional_integer("offset"), limit, timeout)

    async def set_webhook(self, p: Params) -> bool:
        """setWebhook (tests/fakebot/webhook.py)."""
        return self.webhook.set(p)

    async def delete_webhook(self, p: Params) -> bool:
        """deleteWebhook; honours drop_pending_updates."""
        return self.webhook.delete(drop_pending=p.flag("drop_pending_updates"))

    async def get_webhook_info(self, p: Params) -> Json:
        """getWebhookInfo."""
        return self.webhook.info()

    # -- commands and menu ----------------------------------------------------------------

    async def set_my_commands(self, p: Params) -> bool:
        """setMyCommands, stored per (scope, language_code)."""
        commands = p.obj("commands")
        if not isinstance(commands, list) or len(commands) > 100:
            raise bad_request("can't parse commands JSON object")
        for command in commands:
            _check_command(command)
        self.commands[self._scope_key(p)] = [
            {"command": c["command"], "description": c["description"]} for c in commands
        ]
        return True

    async def delete_my_commands(self, p: Params) -> bool:
        """deleteMyCommands."""
        self.commands.pop(self._scope_key(p), None)
        return True

    async def get_my_commands(self, p: Params) -> list[Json]:
        """getMyCommands (no fallback between scopes, like Telegram)."""
        return self.commands.get(self._scope_key(p), [])

    async def set_chat_menu_button(self, p: Params) -> bool:
        """setChatMenuButton."""
        button = p.obj("menu_button") or {"type": "default"}
        kinds = ("commands", "web_app", "default")
        if not isinstance(button, dict) or button.get("type") not in kinds:
            raise bad_request("can't parse menu button JSON object")
        self.menu_buttons[p.optional_integer("chat_id")] = button
        return True

    async def get_chat_menu_button(self, p: Params) -> Json:
        """getChatMenuButton."""
        chat_id = p.optional_integer("chat_id")
        return self.menu_buttons.get(chat_id) or self.menu_buttons.get(None) or {"type": "commands"}

    @staticmethod
    def _scope_key(p: Params) -> tuple[str, str]:
        return scope_key(p.obj("scope"), p.text("language_code"))

    # -- messages -------------------------------------------------------------------------

    async def send_message(self, p: Params) -> Json:
        """sendMessage."""
        chat = self._writable_chat(p)
        content = self._content(p, "text", MAX_TEXT, "message is too long", required=True)
        markup = self._reply_markup(p, inline_only=False, chat=chat)
        reply_to = self._reply_target(chat, p)
        self._count_new_message(chat)
        message = self.world.new_message(
            chat, None, text=content.text, html=p.text("text") or "", entities=content.entities,
            parse_mode=p.text("parse_mode"), reply_markup=markup, reply_to=reply_to,
            notified=not p.flag("disable_notification"),
        )  # fmt: skip
        return message.to_api(self.world.bot)

    async def send_document(self, p: Params) -> Json:
        """sendDocument (multipart upload or a file_id the fake issued before)."""
        chat = self._writable_chat(p)
        name, content, mime = self._document_source(p)
        caption = self._content(
            p, "caption", MAX_CAPTION, "message caption is too long", required=False
        )
        markup = self._reply_markup(p, inline_only=False, chat=chat)
        reply_to = self._reply_target(chat, p)
        self._count_new_message(chat)
        message = self.world.new_message(
            chat, None, text=caption.text, html=p.text("caption") or "",
            entities=caption.entities, parse_mode=p.text("parse_mode"), reply_markup=markup,
            reply_to=reply_to, notified=not p.flag("disable_notification"),
        )  # fmt: skip
        serial = self.world.serial()
        document = StoredDocument(
            file_id=f"BQACAgIAAxkBAAI{serial:06d}fakefileid", file_unique_id=f"AgAD{serial:06d}",
            file_name=name, mime_type=mime, content=content, chat_id=chat.id,
            message_id=message.message_id,
        )  # fmt: skip
        message.document = document
        self.world.files[document.file_id] = document
        return message.to_api(self.world.bot)

    async def edit_message_text(self, p: Params) -> Json:
        """editMessageText; omitting reply_markup removes the inline keyboard, as in Telegram."""
        message = self._own_message(p, "edit")
        if message.document is not None or message.photo is not None:
            raise bad_request("there is no text in the message to edit")
        content = self._content(p, "text", MAX_TEXT, "message is too long", required=True)
        markup = self._reply_markup(p, inline_only=True, chat=message.chat)
        same_text = content.text == message.text and content.entities == message.entities
        if same_text and _keyboard(markup) == _keyboard(message.reply_markup):
            raise bad_request(NOT_MODIFIED)
        message.history.append(message.text)
        message.text, message.entities = content.text, content.entities
        message.html, message.parse_mode = p.text("text") or "", p.text("parse_mode")
        self._apply_edit(message, markup)
        return message.to_api(self.world.bot)

    async def edit_message_reply_markup(self, p: Params) -> Json:
        """editMessageReplyMarkup."""
        message = self._own_message(p, "edit")
        markup = self._reply_markup(p, inline_only=True, chat=message.chat)
        if _keyboard(markup) == _keyboard(message.reply_markup):
            raise bad_request(NOT_MODIFIED)
        self._apply_edit(message, markup)
        return message.to_api(self.world.bot)

    async def delete_message(self, p: Params) -> bool:
        """deleteMessage: own messages always; others' only in private chats or as admin."""
        chat = self._known_chat(p)
        message = self.world.find_message(chat, p.integer("message_id"))
        if message is None:
            raise bad_request("message to delete not found")
        if not message.from_bot and not chat.is_private and chat.bot_status != "administrator":
            raise bad_request("message can't be deleted")
        message.deleted = True
        return True

    async def answer_callback_query(self, p: Params) -> bool:
        """answerCallbackQuery: each query can be answered once."""
        record = self.world.callbacks.get(p.text("callback_query_id") or "")
        if record is None or record.answered:
            raise bad_request(QUERY_TOO_OLD)
        text = p.text("text") or ""
        if len(text) > MAX_CALLBACK_ANSWER:
            raise bad_request("MESSAGE_TOO_LONG")
        record.answer = {
            "text": text or None,
            "show_alert": p.flag("show_alert"),
            "url": p.text("url"),
            "cache_time": p.optional_integer("cache_time"),
        }
        return True

    async def send_chat_action(self, p: Params) -> bool:
        """sendChatAction."""
        self._writable_chat(p)
        p.required_text("action")
        return True

    async def get_file(self, p: Params) -> Json:
        """getFile for documents and photos the bot uploaded."""
        file_id = p.text("file_id") or ""
        photo = self.world.photos.get(file_id)
        if photo is not None:
            [size] = [size for size in photo.sizes() if size["file_id"] == file_id]
            return {
                "file_id": file_id,
                "file_unique_id": size["file_unique_id"],
                "file_size": len(photo.content),
                "file_path": f"photos/{file_id}",
            }
        document = self.world.files.get(file_id)
        if document is None:
            raise bad_request("invalid file_id")
        return {
            "file_id": document.file_id,
            "file_unique_id": document.file_unique_id,
            "file_size": len(document.content),
            "file_path": f"documents/{document.file_id}",
        }

    # -- chats ----------------------------------------------------------------------------

    async def get_chat(self, p: Params) -> Json:
        """getChat (ChatFullInfo with the fields python-telegram-bot requires)."""
        chat = self._known_chat(p)
        if chat.is_private and chat.user is not None and not chat.user.started:
            raise bad_request("chat not found")
        return {
            **chat.to_api(),
            "accent_color_id": 0,
            "max_reaction_count": 11,
            "accepted_gift_types": {
                "unlimited_gifts": False,
                "limited_gifts": False,
                "unique_gifts": False,
                "premium_subscription": False,
                "gifts_from_channels": False,
            },
        }

    async def get_chat_member(self, p: Params) -> Json:
        """getChatMember."""
        chat = self._known_chat(p)
        user_id = p.integer("user_id")
        bot = self.world.bot
        if user_id == bot.id:
            return member_json(chat.bot_status, bot.to_api())
        user = self.world.users.get(user_id)
        if user is None:
            raise bad_request("user not found")
        if chat.is_private:
            return member_json("member" if chat.id == user_id else "left", user.to_api())
        return member_json(chat.status_of(user_id), user.to_api())

    async def get_chat_administrators(self, p: Params) -> list[Json]:
        """getChatAdministrators: creator and admins (the bot too if it is an admin)."""
        chat = self._known_chat(p)
        if chat.is_private:
            raise bad_request("there are no administrators in the private chat")
        admins = [
            member_json(status, self.world.users[user_id].to_api())
            for user_id, status in chat.members.items()
            if status in ("creator", "administrator")
        ]
        if chat.bot_status == "administrator":
            admins.append(member_json("administrator", self.world.bot.to_api()))
        return admins

    async def get_chat_member_count(self, p: Params) -> int:
        """getChatMemberCount (members plus the bot)."""
        chat = self._known_chat(p)
        if chat.is_private:
            return 2
        return len(chat.members) + (chat.bot_status in ("member", "administrator"))

    # -- shared checks --------------------------------------------------------------------

    def _known_chat(self, p: Params) -> FakeChat:
        raw = p.required_text("chat_id")
        try:
            chat = self.world.chat(int(raw))
        except (KeyError, ValueError):
            raise bad_request("chat not found") from None
        if chat.migrated_to is not None:
            raise upgraded(chat.migrated_to)
        return chat

    def _writable_chat(self, p: Params) -> FakeChat:
        """The target chat of a send/edit, with Telegram's 400/403 errors."""
        chat = self._known_chat(p)
        user = chat.user
        if user is not None:
            if user.blocked:
                raise forbidden("bot was blocked by the user")
            if not user.started:
                raise forbidden("bot can't initiate conversation with a user")
        elif chat.bot_status == "kicked":
            raise forbidden(f"bot was kicked from the {_kind(chat)} chat")
        elif chat.bot_status == "left":
            raise forbidden(f"bot is not a member of the {_kind(chat)} chat")
        elif chat.bot_status == "restricted":
            raise bad_request("not enough rights to send text messages to the chat")
        return chat

    def _own_message(self, p: Params, verb: str) -> StoredMessage:
        if p.has("inline_message_id"):
            raise bad_request("fakebot does not implement inline_message_id")
        chat = self._writable_chat(p)
        message_id = p.integer("message_id", bad_request(f"message to {verb} not found"))
        message = self.world.find_message(chat, message_id)
        if message is None:
            raise bad_request(f"message to {verb} not found")
        if not message.from_bot:
            raise bad_request("message can't be edited")
        return message

    def _apply_edit(self, message: StoredMessage, markup: Json | None) -> None:
        message.reply_markup = markup
        message.edits += 1
        message.edit_date = int(time.time())

    def _content(
        self, p: Params, field: str, limit: int, too_long: str, *, required: bool
    ) -> ParsedText:
        """Visible text and entities of ``field`` after parse_mode, with Telegram's limits."""
        raw = p.text(field) or ""
        if not raw.strip():
            if required:
                raise bad_request("message text is empty")
            return ParsedText("")
        entities_field = "entities" if field == "text" else "caption_entities"
        parsed = strip_text(self._parse(raw, p, entities_field))
        if not parsed.text and required:
            raise bad_request("message text is empty")
        if utf16_len(parsed.text) > limit:
            raise bad_request(too_long)
        return parsed

    @staticmethod
    def _parse(raw: str, p: Params, entities_field: str) -> ParsedText:
        mode = (p.text("parse_mode") or "").lower()
        if not mode:
            return ParsedText(raw, list(p.obj(entities_field) or []))
        if mode == "html":
            try:
                return parse_html(raw)
            except HtmlError as err:
                raise bad_request(f"can't parse entities: {err}") from None
        if mode in ("markdown", "markdownv2"):
            raise bad_request(f"fakebot does not implement parse_mode {p.text('parse_mode')}")
        raise bad_request("unsupported parse_mode")

    def _reply_markup(self, p: Params, *, inline_only: bool, chat: FakeChat) -> Json | None:
        markup = p.obj("reply_markup", "reply keyboard markup")
        if markup is None:
            return None
        if not isinstance(markup, dict):
            raise bad_request("can't parse reply keyboard markup JSON object")
        if "inline_keyboard" in markup:
            _check_inline_keyboard(markup["inline_keyboard"], private=chat.is_private)
            return markup
        if inline_only:
            raise bad_request("inline keyboard expected")
        return markup

    def _reply_target(self, chat: FakeChat, p: Params) -> StoredMessage | None:
        params = p.obj("reply_parameters")
        if isinstance(params, dict):
            message_id = params.get("message_id")
            allow_missing = bool(params.get("allow_sending_without_reply"))
        else:
            message_id = p.optional_integer("reply_to_message_id")
            allow_missing = p.flag("allow_sending_without_reply")
        if message_id is None:
            return None
        target = self.world.find_message(chat, int(message_id))
        if target is None and not allow_missing:
            raise bad_request("message to be replied not found")
        return target

    def _count_new_message(self, chat: FakeChat) -> None:
        now = self.now()
        self.flood.check(chat.id, not chat.is_private, now)
        self.flood.record(chat.id, not chat.is_private, now)

    def _document_source(self, p: Params) -> tuple[str, bytes, str | None]:
        upload = p.upload("document")
        if upload is not None:
            if not upload.content:
                raise bad_request("file must be non-empty")
            return upload.filename, upload.content, upload.content_type
        reference = p.text("document")
        if not reference:
            raise bad_request("there is no document in the request")
        known = self.world.files.get(reference)
        if known is None:
            raise bad_request("wrong file identifier/HTTP URL specified")
        return known.file_name, known.content, known.mime_type


def scope_key(scope: Any, language_code: str | None) -> tuple[str, str]:
    """Storage key of a BotCommandScope object plus language code."""
    scope = scope or {"type": "default"}
    if not isinstance(scope, dict) or "type" not in scope:
        raise bad_request("can't parse BotCommandScope JSON object")
    return json.dumps(scope, sort_keys=True), language_code or ""


def _kind(chat: FakeChat) -> str:
    """How Telegram's errors name a group chat's type."""
    return "group" if chat.type == GROUP else "supergroup"


def _snake(name: str) -> str:
    return "".join(f"_{c.lower()}" if c.isupper() else c for c in name)


def _keyboard(markup: Json | None) -> list[Any] | None:
    """The inline keyboard for not-modified comparisons (an empty keyboard is none)."""
    rows = (markup or {}).get("inline_keyboard")
    return rows or None


def _check_inline_keyboard(rows: Any, *, private: bool) -> None:
    if not isinstance(rows, list) or not all(isinstance(row, list) for row in rows):
        raise bad_request("can't parse inline keyboard button: InlineKeyboardButton must be Object")
    for row in rows:
        for button in row:
            _check_button(button)
            if "web_app" in button and not private:  # Mini App buttons: private chats only
                raise bad_request("BUTTON_TYPE_INVALID")


def _check_button(button: Any) -> None:
    if not isinstance(button, dict) or not isinstance(button.get("text"), str):
        raise bad_request(
            'can\'t parse inline keyboard button: Field "text" must be of type String'
        )
    if not button["text"].strip():
        raise bad_request("BUTTON_TEXT_INVALID")
    if not any(key in button for key in _BUTTON_ACTIONS):
        raise bad_request(
            "can't parse inline keyboard button: Text buttons are unallowed in the inline keyboard"
        )
    data = button.get("callback_data")
    if data is not None:
        size = len(data.encode("utf-8")) if isinstance(data, str) else 0
        if not 1 <= size <= MAX_CALLBACK_DATA_BYTES:
            raise bad_request("BUTTON_DATA_INVALID")
    url = button.get("url")
    if url is not None and not str(url).startswith(("http://", "https://", "tg://")):
        raise bad_request("BUTTON_URL_INVALID")


def _check_command(command: Any) -> None:
    if not isinstance(command, dict):
        raise bad_request("can't parse BotCommand JSON object")
    name = command.get("command")
    if not isinstance(name, str) or not 1 <= len(name) <= 32 or set(name) - _COMMAND_CHARS:
        raise bad_request("BOT_COMMAND_INVALID")
    description = command.get("description")
    if not isinstance(description, str) or not 1 <= len(description.strip()) <= 256:
        raise bad_request("BOT_COMMAND_DESCRIPTION_INVALID")
