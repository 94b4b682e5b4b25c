"""Every user-facing string, in Russian and English, with Russian plural forms.

`t(lang, key, **values)` formats a string; an entry that is a dict of plural forms picks the form
for `values["n"]`. Values are inserted as given: callers escape user text for HTML.
"""

from __future__ import annotations

from typing import Any

from locales import en, ru

LANGUAGES = ("ru", "en")
DEFAULT = "ru"
_TABLES: dict[str, dict[str, str | dict[str, str]]] = {"ru": ru.STRINGS, "en": en.STRINGS}


def pick_language(code: str | None, fallback: str = DEFAULT) -> str:
    """The supported language for a Telegram language code ('ru', 'en-US', None…)."""
    if code:
        base = code.split("-")[0].lower()
        if base in _TABLES:
            return base
        if base in ("uk", "be", "kk"):
            return "ru"
        return "en"
    return fallback


def plural_form(lang: str, n: int) -> str:
    """The CLDR plural category of `n`: ru one/few/many, en one/other."""
    n = abs(n)
    if lang == "ru":
        if n % 10 == 1 and n % 100 != 11:
            return "one"
        if 2 <= n % 10 <= 4 and not 12 <= n % 100 <= 14:
            return "few"
        return "many"
    return "one" if n == 1 else "other"


def t(lang: str, key: str, /, **values: Any) -> str:
    """The string `key` in `lang`, formatted with `values`."""
    table = _TABLES.get(lang, _TABLES[DEFAULT])
    entry = table[key]
    if isinstance(entry, dict):
        entry = entry[plural_form(lang, int(values["n"]))]
    return entry.format(**values) if values else entry


def has(key: str) -> bool:
    """Whether `key` exists (in every language)."""
    return all(key in table for table in _TABLES.values())
