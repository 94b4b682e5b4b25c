"""What a message shows, whatever front end shows it: its text (HTML), rows of buttons and a
photo. A button is a `Choice` (a label and the press it sends back) or a `Link` (a label and an
address it opens); no front end's types are in it: the Telegram client turns the rows into an
inline keyboard (bot/client/api.py), a page draws choices as its own buttons."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from dataclasses import dataclass, field

from engine.cards import Card
from locales import t

from .. import callbacks

MAX_TEXT = 4096


@dataclass(frozen=True, slots=True)
class Choice:
    """One button as every front end shows it: its label and the press it sends (the callback
    data a chat button carries, and a page's button posts); `card`: the card of the hand it
    plays or marks (a page draws it on that card), `marked`: that card is marked for a discard;
    `primary`: the step that moves the table on (Start, the next deal, a discard confirmed),
    which a page puts on Telegram's main button."""

    label: str
    press: str
    card: Card | None = None
    marked: bool = False
    primary: bool = False


@dataclass(frozen=True, slots=True)
class Link:
    """A button that opens an address: a web page or a chat (`app` False), or the Mini App in
    place, over the chat it is pressed in (`app` True)."""

    label: str
    url: str
    app: bool = False


Button = Choice | Link
Rows = tuple[tuple[Button, ...], ...]


@dataclass(frozen=True, slots=True, init=False)
class Rendered:
    """A message's content: HTML text and rows of buttons; with `photo` (a PNG), a photo message
    whose caption is the text (edited as media: the Preferans pulya sheet).

    `keyboard` (the rows as JSON) and `digest` (a short fingerprint, to avoid sending an identical
    edit) are computed once, when the content is made. The JSON has the shape of the Bot API's
    inline keyboard, keys sorted, so that the digests stored before the buttons were neutral still
    match what a message shows (a restart edits nothing it need not)."""

    text: str
    rows: Rows
    photo: bytes | None = field(repr=False)
    keyboard: str = field(repr=False, compare=False)
    digest: str = field(repr=False, compare=False)

    def __init__(
        self, text: str, rows: Sequence[Sequence[Button]] = (), photo: bytes | None = None
    ) -> None:
        shown = tuple(tuple(row) for row in rows)
        keyboard = _keyboard(shown)
        hasher = hashlib.sha1(f"{text}\x00{keyboard}".encode())
        if photo is not None:
            hasher.update(b"\x00" + photo)
        object.__setattr__(self, "text", text)
        object.__setattr__(self, "rows", shown)
        object.__setattr__(self, "photo", photo)
        object.__setattr__(self, "keyboard", keyboard)
        object.__setattr__(self, "digest", hasher.hexdigest()[:16])

    def below(self, *rows: Sequence[Button]) -> Rendered:
        """The same message with more rows of buttons below its own."""
        return Rendered(self.text, (*self.rows, *rows), self.photo)


def _keyboard(rows: Rows) -> str:
    """The rows as JSON ("" for none): the Bot API's inline keyboard as python-telegram-bot
    writes it (keys sorted, ASCII), so that a digest keeps its value."""
    if not rows:
        return ""
    keyboard = [[_button(button) for button in row] for row in rows]
    return json.dumps({"inline_keyboard": keyboard}, sort_keys=True)


def _button(button: Button) -> dict[str, object]:
    if isinstance(button, Choice):
        return {"text": button.label, "callback_data": button.press}
    if button.app:
        return {"text": button.label, "web_app": {"url": button.url}}
    return {"text": button.label, "url": button.url}


def deep_link(bot_username: str, payload: str) -> str:
    """A t.me link that opens the private chat with the bot and sends /start payload."""
    return f"https://t.me/{bot_username}?start={payload}"


def fit(text: str) -> str:
    """A message's text cut to Telegram's 4096 characters (a last guard: never reached by our
    own layouts)."""
    if len(text) <= MAX_TEXT:
        return text
    return text[: MAX_TEXT - 1] + "…"


def next_deal_choice(lang: str, table_id: int, deal_no: int) -> Choice:
    """A result's button that deals the next hand (in the chat and on the page)."""
    return Choice(t(lang, "btn.next_deal"), callbacks.encode("n", table_id, deal_no), primary=True)
