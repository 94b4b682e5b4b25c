"""What a message shows: its HTML text, inline keyboard and photo (the presenter's unit)."""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass, field

from telegram import InlineKeyboardButton, InlineKeyboardMarkup

from engine.cards import Card
from locales import t

from .. import callbacks

MAX_TEXT = 4096


@dataclass(frozen=True, slots=True)
class Rendered:
    """A message's content: HTML text and an optional inline keyboard; with `photo` (a PNG),
    a photo message whose caption is the text (edited as media: the Preferans pulya sheet).

    `keyboard` (the markup as Bot API JSON) and `digest` (a short fingerprint, to avoid sending
    an identical edit) are computed once, when the content is made."""

    text: str
    markup: InlineKeyboardMarkup | None = None
    photo: bytes | None = field(default=None, repr=False)
    keyboard: str = field(init=False, repr=False, compare=False)
    digest: str = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        keyboard = self.markup.to_json() if self.markup else ""
        hasher = hashlib.sha1(f"{self.text}\x00{keyboard}".encode())
        if self.photo is not None:
            hasher.update(b"\x00" + self.photo)
        digest = hasher.hexdigest()[:16]
        object.__setattr__(self, "keyboard", keyboard)
        object.__setattr__(self, "digest", digest)


def deep_link(bot_username: str, payload: str) -> str:
    """A t.me link that opens the private chat with the bot and sends /start payload."""
    return f"https://t.me/{bot_username}?start={payload}"


def fit(text: str) -> str:
    """A message's text cut to Telegram's 4096 characters (a last guard: never reached by our
    own layouts)."""
    if len(text) <= MAX_TEXT:
        return text
    return text[: MAX_TEXT - 1] + "…"


@dataclass(frozen=True, slots=True)
class Choice:
    """One button as every front end shows it: its label and the press it sends (the callback
    data a chat button carries, and a page's button posts); `card`: the card of the hand it
    plays or marks (a page draws it on that card), `marked`: that card is marked for a discard."""

    label: str
    press: str
    card: Card | None = None
    marked: bool = False


def keyboard(rows: Sequence[Sequence[Choice]]) -> InlineKeyboardMarkup:
    """Choices as a chat message's inline keyboard, row by row."""
    return InlineKeyboardMarkup(
        [[InlineKeyboardButton(c.label, callback_data=c.press) for c in row] for row in rows]
    )


def next_deal_choice(lang: str, table_id: int, deal_no: int) -> Choice:
    """A result's button that deals the next hand (in the chat and on the page)."""
    return Choice(t(lang, "btn.next_deal"), callbacks.encode("n", table_id, deal_no))
