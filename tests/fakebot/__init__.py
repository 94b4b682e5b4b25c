"""A strict fake Telegram Bot API server for end-to-end tests of the bot."""

from tests.fakebot.clock import FakeClock
from tests.fakebot.html_check import HtmlError, ParsedText, parse_html, utf16_len, visible_text
from tests.fakebot.models import (
    ApiCall,
    ApiError,
    CallbackRecord,
    FakeChat,
    FakeUser,
    StoredDocument,
    StoredMessage,
    StoredPhoto,
)
from tests.fakebot.server import FakeTelegram

__all__ = [
    "ApiCall",
    "ApiError",
    "CallbackRecord",
    "FakeChat",
    "FakeClock",
    "FakeTelegram",
    "FakeUser",
    "HtmlError",
    "ParsedText",
    "StoredDocument",
    "StoredMessage",
    "StoredPhoto",
    "parse_html",
    "utf16_len",
    "visible_text",
]
