"""Every user-facing string, as gettext catalogs (docs/translations.md).

`messages.pot` is the source: each message's context (msgctxt) is the key the code passes to `t`,
its msgid the English text. `<lang>/LC_MESSAGES/messages.po` translates it into one language, with
that catalog's own Plural-Forms; a message missing from a catalog comes from the default language's.
Values are inserted as given: callers escape user text for HTML.
"""

from __future__ import annotations

import html
import re
from collections.abc import Mapping
from gettext import NullTranslations
from pathlib import Path
from string import Formatter
from typing import Any

from locales import catalogs

SOURCE = "en"  # the language of the template's msgids; it needs no catalog
DEFAULT = "ru"  # a new chat's language, and where a catalog's missing messages come from
# Without a catalog of their own, these readers get Russian rather than English.
_READ_RUSSIAN = ("uk", "be", "kk")
# What sets parts of a line apart ("Trumps: ♠ · Pot: 40"), bound to the part before it by a
# no-break space: a line a phone wraps breaks after the dot, never starts with it. The
# catalogs write a plain " · " (translators need not type the no-break space): `t` binds it.
SEPARATOR = "\u00a0· "
_STRONG = re.compile(r"<b>(.*?)</b>", re.DOTALL)  # a stressed run of a message
_FORMATTER = Formatter()


class Locales:
    """The messages of one locale directory: the template and every language's catalog."""

    def __init__(self, root: Path) -> None:
        self._messages: dict[str, tuple[str, str | None]] = {}
        for message in catalogs.read(root / catalogs.TEMPLATE):
            if message.id and message.context:
                ids = message.id
                single = (ids, None) if isinstance(ids, str) else (ids[0], ids[1])
                self._messages[message.context] = single
        files = catalogs.po_files(root)
        default = catalogs.load(files[DEFAULT]) if DEFAULT in files else NullTranslations()
        self._by_lang: dict[str, NullTranslations] = {SOURCE: NullTranslations(), DEFAULT: default}
        for lang, po in files.items():
            if lang != DEFAULT:
                translations = catalogs.load(po)
                if lang != SOURCE:
                    translations.add_fallback(default)
                self._by_lang[lang] = translations
        rest = sorted(set(self._by_lang) - {DEFAULT, SOURCE})
        self.languages: tuple[str, ...] = (DEFAULT, SOURCE, *rest)
        self._catalogued = frozenset(self._messages)
        self._added: dict[str, dict[str, str]] = {}  # `add`'s messages, by language, not English

    def t(self, lang: str, key: str, /, **values: Any) -> str:
        """The message `key` in `lang`, formatted with `values` (a plural one by `values["n"]`)."""
        text = self._template(lang, key, values)
        return text.format(**values) if values else text

    def spans(self, lang: str, key: str, /, **values: Any) -> tuple[tuple[str, bool], ...]:
        """The message `key` as `t` words it, in runs of plain text, each with whether the
        message stresses it (its <b> markup, the only markup a message drawn this way may
        hold); `values` go in as they are, since nothing here is HTML, and a value that is
        itself runs (a tuple of them) goes in run by run, stressed where it or the message
        stresses it."""
        runs: list[tuple[str, bool]] = []
        for at, part in enumerate(_STRONG.split(self._template(lang, key, values))):
            if "<" in part or ">" in part:
                raise ValueError(f"{key}: markup other than <b> in {part!r}")
            strong = at % 2 == 1
            for literal, field, spec, conversion in _FORMATTER.parse(html.unescape(part)):
                if literal:
                    runs.append((literal, strong))
                if field is None:
                    continue
                value = values[field]
                if isinstance(value, tuple):
                    runs += [(text, strong or stressed) for text, stressed in value]
                else:
                    shown = _FORMATTER.convert_field(value, conversion)
                    runs.append((_FORMATTER.format_field(shown, spec or ""), strong))
        merged: list[tuple[str, bool]] = []
        for text, strong in runs:
            if merged and merged[-1][1] == strong:
                merged[-1] = (merged[-1][0] + text, strong)
            elif text:
                merged.append((text, strong))
        return tuple(merged)

    def _template(self, lang: str, key: str, values: Mapping[str, Any]) -> str:
        single, plural = self._messages[key]
        translations = self._by_lang.get(lang) or self._by_lang[DEFAULT]
        added = self._added_text(lang, key) if self._added else None
        if added is not None:
            text = added
        elif plural is None:
            text = translations.pgettext(key, single)
        else:
            text = translations.npgettext(key, single, plural, int(values["n"]))
        return text.replace(" · ", SEPARATOR)

    def add(self, messages: Mapping[str, str], lang: str = SOURCE) -> None:
        """Messages brought by a game's own package rather than the catalogs (a game the
        tests define), each key's text in `lang`: the English one is read in every language
        that has none of its own (as a catalog's missing message, the default language's
        first); a key the catalogs hold keeps theirs."""
        for key, text in messages.items():
            if lang == SOURCE:
                self._messages.setdefault(key, (text, None))
            elif key not in self._catalogued:
                self._added.setdefault(lang, {})[key] = text

    def _added_text(self, lang: str, key: str) -> str | None:
        """A message `add` brought in `lang`, or else in the default language (where a
        catalog's missing messages come from); None in English or where there is none."""
        if lang == SOURCE:
            return None
        for each in (lang, DEFAULT) if lang in self._by_lang else (DEFAULT,):
            text = self._added.get(each, {}).get(key)
            if text is not None:
                return text
        return None

    def has(self, key: str) -> bool:
        """Whether `key` is a message (every language has it, if only by falling back)."""
        return key in self._messages

    def pick_language(self, code: str | None, fallback: str = DEFAULT) -> str:
        """The supported language for a Telegram language code ('ru', 'en-US', None…)."""
        if not code:
            return fallback
        base = code.split("-")[0].lower()
        if base in self._by_lang:
            return base
        return "ru" if base in _READ_RUSSIAN else SOURCE


_LOCALES = Locales(Path(__file__).parent)
LANGUAGES = _LOCALES.languages
t = _LOCALES.t
spans = _LOCALES.spans
has = _LOCALES.has
add_messages = _LOCALES.add
pick_language = _LOCALES.pick_language
