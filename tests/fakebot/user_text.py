"""Entities a Telegram client attaches to text typed by a user (commands and @mentions)."""

from __future__ import annotations

import re
from typing import Any

from tests.fakebot.html_check import utf16_len

_COMMAND_RE = re.compile(r"(?<![\w/])/[A-Za-z0-9_]{1,64}(?:@[A-Za-z0-9_]{3,32})?(?![\w@/])")
_MENTION_RE = re.compile(r"(?<![\w@/])@[A-Za-z0-9_]{4,32}(?!\w)")


def user_entities(text: str) -> list[dict[str, Any]]:
    """``bot_command`` and ``mention`` entities for ``text``, UTF-16 offsets, in text order."""
    spans: list[tuple[int, int, str]] = []
    for match in _COMMAND_RE.finditer(text):
        spans.append((match.start(), match.end(), "bot_command"))
    taken = [(start, end) for start, end, _ in spans]
    for match in _MENTION_RE.finditer(text):
        if not any(start <= match.start() < end for start, end in taken):
            spans.append((match.start(), match.end(), "mention"))
    spans.sort()
    return [
        {"offset": utf16_len(text[:start]), "length": utf16_len(text[start:end]), "type": kind}
        for start, end, kind in spans
    ]


def command_target(text: str) -> tuple[str, str | None] | None:
    """``(command, bot_username_or_None)`` if ``text`` starts with a bot command, else None."""
    match = _COMMAND_RE.match(text)
    if match is None:
        return None
    command, _, target = match.group(0)[1:].partition("@")
    return command, target or None


def mentions(text: str) -> list[str]:
    """Usernames (without ``@``) mentioned in ``text``, lower-cased."""
    entities = user_entities(text)
    return [
        _utf16_slice(text, entity["offset"], entity["length"])[1:].lower()
        for entity in entities
        if entity["type"] == "mention"
    ]


def _utf16_slice(text: str, offset: int, length: int) -> str:
    """Slice ``text`` by UTF-16 offsets."""
    raw = text.encode("utf-16-le")
    return raw[offset * 2 : (offset + length) * 2].decode("utf-16-le")
