"""Telegram-style validation of ``parse_mode="HTML"`` message text.

The parser follows the behaviour of TDLib's ``parse_html`` (which the Bot API server uses):
same tag set, same attribute rules and the same error wording, so a message that fails here
fails in real Telegram with the same ``can't parse entities: ...`` description.

Deliberately stricter than real Telegram: an ``&`` that does not start one of ``&lt; &gt; &amp;
&quot;`` or a numeric entity is an error here, while Telegram silently keeps it as text. This
catches user-supplied strings (names, titles) that reached the HTML without ``html.escape``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

__all__ = [
    "ALLOWED_TAGS",
    "HtmlError",
    "ParsedText",
    "parse_html",
    "strip_text",
    "utf16_len",
    "visible_text",
]

ALLOWED_TAGS = frozenset(
    {
        "a", "b", "strong", "i", "em", "u", "ins", "s", "strike", "del", "span",
        "tg-spoiler", "code", "pre", "blockquote", "tg-emoji",
    }
)  # fmt: skip

_SIMPLE_ENTITY_TYPES = {
    "b": "bold",
    "strong": "bold",
    "i": "italic",
    "em": "italic",
    "u": "underline",
    "ins": "underline",
    "s": "strikethrough",
    "strike": "strikethrough",
    "del": "strikethrough",
    "tg-spoiler": "spoiler",
    "span": "spoiler",
}

_NAMED_ENTITIES = {"lt": "<", "gt": ">", "amp": "&", "quot": '"'}
_ENTITY_RE = re.compile(r"&(?:#(\d{1,8})|#[xX]([0-9a-fA-F]{1,6})|([a-zA-Z]+));")
_UNQUOTED_VALUE_CHARS = frozenset(
    "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.-"
)


class HtmlError(ValueError):
    """Markup Telegram would reject; ``str(err)`` is the part after "can't parse entities: "."""


@dataclass
class ParsedText:
    """Visible text plus Bot API ``MessageEntity`` dicts (offsets in UTF-16 code units)."""

    text: str
    entities: list[dict[str, Any]] = field(default_factory=list)


@dataclass
class _OpenTag:
    name: str
    argument: str | None
    offset: int  # UTF-16 offset in the visible text where the entity starts


def utf16_len(text: str) -> int:
    """Length of ``text`` in UTF-16 code units, the unit Telegram uses for offsets/limits."""
    return len(text.encode("utf-16-le")) // 2


def visible_text(html: str) -> str:
    """Validate ``html`` like Telegram and return the text the user would see."""
    return parse_html(html).text


def parse_html(html: str) -> ParsedText:
    """Parse Telegram HTML into visible text and entities, raising HtmlError like Telegram."""
    return _HtmlParser(html).run()


def strip_text(parsed: ParsedText) -> ParsedText:
    """Trim surrounding whitespace as Telegram does, shifting and clipping entities."""
    text = parsed.text
    stripped = text.strip()
    if stripped == text:
        return parsed
    lead = utf16_len(text[: len(text) - len(text.lstrip())])
    end = lead + utf16_len(stripped)
    entities = []
    for entity in parsed.entities:
        start = max(entity["offset"], lead)
        stop = min(entity["offset"] + entity["length"], end)
        if stop > start:
            entities.append({**entity, "offset": start - lead, "length": stop - start})
    return ParsedText(stripped, entities)


class _HtmlParser:
    """Single-use state machine over one HTML string."""

    def __init__(self, source: str) -> None:
        self.src = source
        self.pos = 0
        self.out: list[str] = []
        self.out_len = 0  # UTF-16 length of the visible text produced so far
        self.open: list[_OpenTag] = []
        self.entities: list[dict[str, Any]] = []

    # -- helpers -------------------------------------------------------------------------

    def _byte_offset(self, index: int) -> int:
        return len(self.src[:index].encode("utf-8"))

    def _peek(self) -> str:
        return self.src[self.pos] if self.pos < len(self.src) else ""

    def _emit(self, chunk: str) -> None:
        self.out.append(chunk)
        self.out_len += utf16_len(chunk)

    def _skip_spaces(self) -> None:
        while self.pos < len(self.src) and self.src[self.pos].isspace():
            self.pos += 1

    def _at_end(self) -> bool:
        return self.pos >= len(self.src)

    # -- main loop -----------------------------------------------------------------------

    def run(self) -> ParsedText:
        """Parse the whole source; raises HtmlError at the first problem."""
        while not self._at_end():
            char = self.src[self.pos]
            if char == "&":
                self._emit(self._entity())
            elif char == "<":
                self._tag()
            else:
                self._emit(char)
                self.pos += 1
        if self.open:
            raise HtmlError(
                f'Can\'t find end tag corresponding to start tag "{self.open[-1].name}"'
            )
        for entity in self.entities:
            entity.pop("_language", None)  # only meaningful inside <pre>
        self.entities.sort(key=lambda e: (e["offset"], -e["length"]))
        return ParsedText("".join(self.out), self.entities)

    def _entity(self) -> str:
        start = self.pos
        match = _ENTITY_RE.match(self.src, start)
        if match is None:
            raise HtmlError(f'Unescaped "&" at byte offset {self._byte_offset(start)}; use "&amp;"')
        decimal, hexadecimal, name = match.groups()
        self.pos = match.end()
        if name is not None:
            if name not in _NAMED_ENTITIES:
                raise HtmlError(
                    f'Unsupported HTML entity "{match.group(0)}" at byte offset '
                    f"{self._byte_offset(start)}"
                )
            return _NAMED_ENTITIES[name]
        code = int(decimal) if decimal is not None else int(hexadecimal, 16)
        if code == 0 or code > 0x10FFFF or 0xD800 <= code <= 0xDFFF:
            raise HtmlError(
                f'Unsupported HTML entity "{match.group(0)}" at byte offset '
                f"{self._byte_offset(start)}"
            )
        return chr(code)

    def _tag(self) -> None:
        begin = self.pos
        self.pos += 1
        if self._peek() == "/":
            self._end_tag(begin)
        else:
            self._start_tag(begin)

    # -- start tags ----------------------------------------------------------------------

    def _start_tag(self, begin: int) -> None:
        name_start = self.pos
        while not self._at_end() and not self.src[self.pos].isspace() and self._peek() != ">":
            self.pos += 1
        if self._at_end():
            raise HtmlError(f"Unclosed start tag at byte offset {self._byte_offset(begin)}")
        name = self.src[name_start : self.pos].lower()
        if name not in ALLOWED_TAGS:
            raise HtmlError(
                f'Unsupported start tag "{name}" at byte offset {self._byte_offset(begin)}'
            )
        argument = self._attributes(name, begin)
        self.pos += 1  # the closing ">"
        if name == "span" and argument != "spoiler":
            raise HtmlError(
                f'Tag "span" must have class "tg-spoiler" at byte offset {self._byte_offset(begin)}'
            )
        self.open.append(_OpenTag(name, argument, self.out_len))

    def _attributes(self, tag: str, begin: int) -> str | None:
        argument: str | None = None
        while True:
            self._skip_spaces()
            if self._at_end():
                raise HtmlError(
                    f'Unclosed start tag "{tag}" at byte offset {self._byte_offset(begin)}'
                )
            if self._peek() == ">":
                return argument
            attr_name = self._attribute_name(tag, begin)
            self._skip_spaces()
            if self._peek() != "=":
                if tag == "blockquote" and attr_name == "expandable":
                    argument = "expandable"
                continue
            self.pos += 1
            self._skip_spaces()
            if self._at_end():
                raise HtmlError(
                    f'Unclosed start tag "{tag}" at byte offset {self._byte_offset(begin)}'
                )
            value = self._attribute_value(begin)
            argument = _tag_argument(tag, attr_name, value, argument)

    def _attribute_name(self, tag: str, begin: int) -> str:
        start = self.pos
        while (
            not self._at_end()
            and not self.src[self.pos].isspace()
            and self.src[self.pos] not in "=>/\"'"
        ):
            self.pos += 1
        name = self.src[start : self.pos].lower()
        if not name:
            raise HtmlError(
                f'Empty attribute name in the tag "{tag}" at byte offset {self._byte_offset(begin)}'
            )
        return name

    def _attribute_value(self, begin: int) -> str:
        quote = self._peek()
        if quote not in "\"'":
            start = self.pos
            while self._peek() and self._peek() in _UNQUOTED_VALUE_CHARS:
                self.pos += 1
            if not self._at_end() and not self._peek().isspace() and self._peek() != ">":
                raise HtmlError(
                    f"Unexpected end of name token at byte offset {self._byte_offset(self.pos)}"
                )
            return self.src[start : self.pos].lower()
        self.pos += 1
        chunks: list[str] = []
        while not self._at_end() and self._peek() != quote:
            if self._peek() == "&":
                chunks.append(self._entity())
            else:
                chunks.append(self._peek())
                self.pos += 1
        if self._at_end():
            raise HtmlError(f"Unclosed start tag at byte offset {self._byte_offset(begin)}")
        self.pos += 1
        return "".join(chunks)

    # -- end tags ------------------------------------------------------------------------

    def _end_tag(self, begin: int) -> None:
        if not self.open:
            raise HtmlError(f"Unexpected end tag at byte offset {self._byte_offset(begin)}")
        self.pos += 1  # the "/"
        name_start = self.pos
        while not self._at_end() and not self.src[self.pos].isspace() and self._peek() != ">":
            self.pos += 1
        end_name = self.src[name_start : self.pos].lower()
        self._skip_spaces()
        if self._peek() != ">":
            raise HtmlError(f"Unclosed end tag at byte offset {self._byte_offset(begin)}")
        self.pos += 1
        tag = self.open[-1]
        if end_name and end_name != tag.name:
            raise HtmlError(
                f"Unmatched end tag at byte offset {self._byte_offset(begin)}, "
                f'expected "</{tag.name}>", found "</{end_name}>"'
            )
        self.open.pop()
        if self.out_len > tag.offset:
            self._add_entity(tag, self.out_len - tag.offset)

    def _add_entity(self, tag: _OpenTag, length: int) -> None:
        entity: dict[str, Any] = {"offset": tag.offset, "length": length}
        if tag.name in _SIMPLE_ENTITY_TYPES:
            entity["type"] = _SIMPLE_ENTITY_TYPES[tag.name]
        elif tag.name == "a":
            if not tag.argument:
                return
            entity.update(type="text_link", url=tag.argument)
        elif tag.name == "blockquote":
            entity["type"] = "expandable_blockquote" if tag.argument else "blockquote"
        elif tag.name == "tg-emoji":
            if not (tag.argument or "").isdigit():
                raise HtmlError("Invalid custom emoji identifier specified")
            entity.update(type="custom_emoji", custom_emoji_id=tag.argument)
        elif tag.name == "code":
            entity["type"] = "code"
            if tag.argument:
                entity["_language"] = tag.argument
        elif self._is_code_block(entity):
            self._promote_code_to_pre()
            return
        else:
            entity["type"] = "pre"
        self.entities.append(entity)

    def _is_code_block(self, pre: dict[str, Any]) -> bool:
        """Whether ``pre`` exactly wraps the ``code`` entity closed just before it."""
        if not self.entities:
            return False
        last = self.entities[-1]
        return bool(
            last["type"] == "code"
            and last["offset"] == pre["offset"]
            and last["length"] == pre["length"]
        )

    def _promote_code_to_pre(self) -> None:
        """Fold ``<pre><code class="language-x">`` into one ``pre`` entity with a language."""
        last = self.entities[-1]
        last["type"] = "pre"
        language = last.pop("_language", None)
        if language:
            last["language"] = language


def _tag_argument(tag: str, attr: str, value: str, current: str | None) -> str | None:
    """The one attribute of ``tag`` Telegram cares about, or ``current`` if ``attr`` is not it."""
    if tag == "a" and attr == "href":
        return value
    if tag == "code" and attr == "class" and value.startswith("language-"):
        return value.removeprefix("language-")
    if tag == "span" and attr == "class" and value.startswith("tg-"):
        return value.removeprefix("tg-")
    if tag == "tg-emoji" and attr == "emoji-id":
        return value
    if tag == "blockquote" and attr == "expandable":
        return "expandable"
    return current
