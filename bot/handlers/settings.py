"""Settings: /settings (admins' menu of house rules, ante, timer, language), /rules, /language
and /pings, and their buttons (the menu's double-press guard)."""

from __future__ import annotations

from datetime import UTC, tzinfo

from telegram import Message, Update
from telegram.constants import ChatType

from locales import LANGUAGES, pick_language, t

from .. import callbacks
from ..callbacks import Press
from ..chat import settings_menu
from ..service import GameService, Person, Refusal
from ..view.message import Choice
from .common import Chats, Command, Common, Context, Pressed, person

MENU_PAGES_KEPT = 1000


class Settings(Common):
    """The chat's and the user's settings."""

    def __init__(self, service: GameService, chats: Chats, time_zone: tzinfo = UTC) -> None:
        super().__init__(service, chats, time_zone)
        # the page each settings message was last edited to: a second press on a page already
        # left is stale even when it changed nothing (a navigation button)
        self._menu_pages: dict[tuple[int, int], str] = {}

    def commands(self) -> dict[str, Command]:
        """Its group commands by name (/language and /pings answer anywhere)."""
        return self._commands(self.rules, self.settings)

    async def rules(self, update: Update, context: Context, message: Message, lang: str) -> None:
        """/rules: the house rules in force (the table's game, or the chat's default), briefly."""
        chat = await self.storage.chats.chat(message.chat_id)
        table = self.service.table_in(message.chat_id)
        summary = settings_menu.rules_summary(chat, table.row.game if table else None)
        await self._reply(message, t(lang, "rules.title") + "\n" + summary)

    async def settings(self, update: Update, context: Context, message: Message, lang: str) -> None:
        """/settings: admins change house rules, ante, timer and language with buttons."""
        user = update.effective_user
        assert user is not None
        if not await self._is_admin(message.chat_id, user.id):
            await self._reply(message, t(lang, "err.admins_only"))
            return
        chat = await self.storage.chats.chat(message.chat_id)
        content = settings_menu.menu(chat)
        await self._reply(message, content.text, content.rows)

    async def language(self, update: Update, context: Context) -> None:
        """/language: buttons, one per language (in private: of your messages; in a group: of
        the chat, chosen by admins); /language <code> chooses at once."""
        message, user = update.effective_message, update.effective_user
        if message is None or user is None:
            return
        await self.service.touch(person(user))
        lang = await self._chat_lang(message.chat)
        args = [arg.lower() for arg in context.args or []]
        if len(args) > 1 or (args and args[0] not in LANGUAGES):
            await self._reply(message, t(lang, "usage.language", languages=", ".join(LANGUAGES)))
            return
        private = message.chat.type == ChatType.PRIVATE
        if not args:  # never a silent flip: the choice is the user's
            key, kind = ("lang.choose", "l") if private else ("lang.choose_chat", "g")
            await self._reply(message, t(lang, key), _language_buttons(kind, lang))
            return
        try:
            text = await self._choose_language(message.chat.id, person(user), args[0], private)
        except Refusal as refusal:
            await self._refused(message, lang, refusal)
            return
        await self._reply(message, text)

    async def _choose_language(self, chat_id: int, user: Person, lang: str, private: bool) -> str:
        """Set the user's language (private) or the chat's (admins only); the confirmation."""
        if private:
            await self.storage.chats.set_user(user.user_id, lang=lang)
            await self.service.touch(user)
            return t(lang, "language.set")
        if not await self._is_admin(chat_id, user.user_id):
            raise Refusal("err.admins_only")
        await self.service.in_turn(chat_id, lambda: self.storage.chats.set_chat(chat_id, lang=lang))
        return t(lang, "lang.chat_set")

    async def pings(self, update: Update, context: Context) -> None:
        """/pings in private: whether your turn comes as a new message that notifies you, with
        a button to switch; /pings on|off switches at once."""
        message, user = update.effective_message, update.effective_user
        if message is None or user is None:
            return
        stored = await self.service.touch(person(user))
        lang = pick_language(stored.lang)
        if message.chat.type != ChatType.PRIVATE:
            await self._reply(message, t(await self._chat_lang(message.chat), "cmd.private_only"))
            return
        args = [arg.lower() for arg in context.args or []]
        if len(args) > 1 or (args and args[0] not in ("on", "off")):
            await self._reply(message, t(lang, "ping.usage"))
            return
        on = stored.pings if not args else args[0] == "on"
        if on != stored.pings:
            await self._set_pings(person(user), on)
        text, rows = _pings_menu(lang, on)
        await self._reply(message, text, rows)

    async def _set_pings(self, user: Person, on: bool) -> None:
        await self.storage.chats.set_user(user.user_id, pings=int(on))
        await self.service.touch(user)  # the tables he sits at see it at once

    # ---- buttons (bot/handlers/presses.py routes them here) -------------------------------------

    async def settings_press(self, pressed: Pressed, press: Press, chat_id: int) -> None:
        """c: a button of the settings menu: a value changed, or another page."""
        code = press.code
        if not await self._is_admin(chat_id, pressed.user.user_id):
            raise Refusal("err.admins_only")
        await self.service.in_turn(chat_id, lambda: self._settings_step(pressed, code, chat_id))

    async def _settings_step(self, pressed: Pressed, code: str, chat_id: int) -> None:
        """The settings' press as one of the chat's actions: read, checked against the menu
        pressed, changed, and the menu edited (never overtaken by another press)."""
        chat = await self.storage.chats.chat(chat_id)
        try:
            shown = settings_menu.menu(chat, settings_menu.origin(code))
            changes, page = settings_menu.apply_press(chat, code)
        except ValueError as exc:
            raise Refusal("err.stale") from exc
        where = (chat_id, pressed.message_id)
        left = self._menu_pages.get(where, settings_menu.origin(code))
        if pressed.shown != shown.rows or left != settings_menu.origin(code):
            # pressed on a menu that no longer shows the settings (a double press, another
            # admin): applying it would step a setting twice
            raise Refusal("err.stale")
        if changes:
            await self.storage.chats.set_chat(chat_id, **changes)
            chat = await self.storage.chats.chat(chat_id)
        content = settings_menu.menu(chat, page)  # a press changes a value or the page:
        # never "not modified"; edited under the lock, so never overtaken
        if await self._edit_pressed(pressed, content.text, content.rows):
            if len(self._menu_pages) > MENU_PAGES_KEPT:
                self._menu_pages.clear()  # only a guard against double presses: forgettable
            self._menu_pages[where] = page

    async def choice_press(self, pressed: Pressed, press: Press, chat_id: int) -> None:
        """u: a button of /pings or /language: apply the choice, then show it on the message."""
        user, kind, value = pressed.user, press.code[:1], press.code[1:]
        rows: list[list[Choice]] = []
        if kind == "p" and value in ("0", "1"):
            await self._set_pings(user, value == "1")
            text, rows = _pings_menu(await self.service.user_lang(user.user_id), value == "1")
        elif kind in ("l", "g") and value in LANGUAGES:
            text = await self._choose_language(chat_id, user, value, kind == "l")
        else:
            raise Refusal("err.stale")
        await self._edit_pressed(pressed, text, rows)  # (pressed twice: it says so already)


def _language_buttons(kind: str, current: str) -> list[list[Choice]]:
    """One button per language with a catalog, each named in its own language."""
    buttons = [
        Choice(
            ("✓ " if code == current else "") + t(code, "lang.name"),
            callbacks.encode("u", code=f"{kind}{code}"),
        )
        for code in LANGUAGES
    ]
    return [buttons[i : i + 3] for i in range(0, len(buttons), 3)]


def _pings_menu(lang: str, on: bool) -> tuple[str, list[list[Choice]]]:
    """What /pings shows: the state, and the button that switches it."""
    label, code = ("ping.btn_off", "p0") if on else ("ping.btn_on", "p1")
    button = Choice(t(lang, label), callbacks.encode("u", code=code))
    return t(lang, "ping.on" if on else "ping.off"), [[button]]
