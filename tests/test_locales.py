"""The gettext catalogs: complete, consistent with the template, and open to a new language."""

from __future__ import annotations

import ast
import os
import re
import shutil
from pathlib import Path
from string import Formatter

import pytest
from babel.messages.catalog import Catalog, Message
from babel.messages.pofile import write_po
from pydantic import ValidationError

import locales
from bot.config import Settings
from locales import catalogs

ROOT = Path(__file__).resolve().parent.parent
LOCALES = ROOT / "locales"
TEMPLATE = catalogs.read(LOCALES / catalogs.TEMPLATE)
SHIPPED = catalogs.po_files(LOCALES)


def _forms(text: str | tuple[str, ...] | list[str] | None) -> list[str]:
    return [text] if isinstance(text, str) else list(text or [])


def _fields(text: str) -> set[str]:
    """The replacement fields of a str.format string (raises on a stray brace)."""
    return {name for _, name, _, _ in Formatter().parse(text) if name is not None}


def _messages(catalog: Catalog) -> dict[str, Message]:
    return {m.context: m for m in catalog if m.id and m.context}


def test_the_template_gives_every_message_a_key_and_an_english_text() -> None:
    messages = [m for m in TEMPLATE if m.id]
    assert messages and all(m.context for m in messages)
    assert len({m.context for m in messages}) == len(messages)
    assert locales.t("en", "table.tricks", n=2) == "2 tricks"


@pytest.mark.parametrize("lang", sorted(SHIPPED))
def test_every_message_is_translated_in_every_catalog(lang: str) -> None:
    catalog = catalogs.read(SHIPPED[lang])
    translated = _messages(catalog)
    assert set(translated) == set(_messages(TEMPLATE))
    for key, message in translated.items():
        assert not message.fuzzy, key
        assert all(_forms(message.string)), key
        if message.pluralizable:
            assert len(_forms(message.string)) == catalog.num_plurals, key


@pytest.mark.parametrize("lang", sorted(SHIPPED))
def test_placeholders_match_the_template_in_every_form(lang: str) -> None:
    for key, message in _messages(catalogs.read(SHIPPED[lang])).items():
        wanted = set().union(*(_fields(f) for f in _forms(message.id)))
        for form in _forms(message.string):
            assert _fields(form) == wanted, (key, form)


def _keys_named_in(path: Path) -> set[str]:
    """The literal keys of `t(lang, "key")` calls (both branches of a conditional key too)."""
    keys: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "t":
            key = node.args[1] if len(node.args) > 1 else None
            options = [key.body, key.orelse] if isinstance(key, ast.IfExp) else [key]
            keys |= {
                o.value for o in options if isinstance(o, ast.Constant) and isinstance(o.value, str)
            }
    return keys


def test_every_key_the_bot_names_is_in_the_template() -> None:
    named = set().union(*(_keys_named_in(p) for p in (ROOT / "bot").rglob("*.py")))
    assert len(named) > 50  # the walk finds the calls
    assert {k for k in named if not locales.has(k)} == set()


@pytest.mark.parametrize(
    ("n", "form"),
    [(1, "взятка"), (2, "взятки"), (4, "взятки"), (5, "взяток"), (11, "взяток"),
     (12, "взяток"), (21, "взятка"), (22, "взятки"), (25, "взяток"), (111, "взяток"),
     (101, "взятка"), (0, "взяток")],
)  # fmt: skip
def test_russian_plurals_follow_the_catalog_header(n: int, form: str) -> None:
    assert locales.t("ru", "table.tricks", n=n) == f"{n} {form}"


def test_english_plurals_come_from_the_template() -> None:
    assert [locales.t("en", "table.tricks", n=n) for n in (0, 1, 2)] == [
        "0 tricks", "1 trick", "2 tricks"
    ]  # fmt: skip


def test_shipped_languages_and_picking_one() -> None:
    assert locales.LANGUAGES[:2] == (locales.DEFAULT, locales.SOURCE) == ("ru", "en")
    assert set(locales.LANGUAGES) == {"en", *SHIPPED}
    assert locales.pick_language("en-US") == "en"
    assert locales.pick_language("uk") == "ru"  # no Ukrainian catalog: Russian reads better
    assert locales.pick_language("de") == "en"
    assert locales.pick_language(None) == "ru"
    assert locales.t("xx", "table.tricks", n=5) == locales.t("ru", "table.tricks", n=5)


def _locale_dir(tmp_path: Path) -> Path:
    """A copy of the project's template and catalogs (sources only, no compiled files)."""
    root = tmp_path / "locales"
    root.mkdir()
    shutil.copy(LOCALES / catalogs.TEMPLATE, root)
    for lang, po in SHIPPED.items():
        (root / lang / "LC_MESSAGES").mkdir(parents=True)
        shutil.copy(po, root / lang / "LC_MESSAGES")
    return root


def _add_catalog(root: Path, catalog: Catalog) -> Path:
    """Write `catalog` as the new language's .po: the one file adding a language takes."""
    folder = root / str(catalog.locale) / "LC_MESSAGES"
    folder.mkdir(parents=True)
    path = folder / f"{catalogs.DOMAIN}.po"
    with path.open("wb") as f:
        write_po(f, catalog)
    return path


def _template_id(key: str) -> str | tuple[str, ...] | list[str]:
    message_id = _messages(TEMPLATE)[key].id
    assert message_id is not None
    return message_id


def test_a_new_catalog_is_a_new_language_falling_back_to_the_default(tmp_path: Path) -> None:
    root = _locale_dir(tmp_path)
    uk = Catalog(locale="uk", fuzzy=False)  # Babel fills in CLDR's Plural-Forms for Ukrainian
    uk.add(_template_id("lobby.closed"), "Стіл закрито.", context="lobby.closed")
    forms = ("{n} взяття", "{n} взяття·few", "{n} взять")
    uk.add(_template_id("table.tricks"), forms, context="table.tricks")
    _add_catalog(root, uk)
    new = locales.Locales(root)
    assert "uk" in new.languages
    assert new.pick_language("uk-UA") == "uk"
    assert new.t("uk", "lobby.closed") == "Стіл закрито."
    assert [new.t("uk", "table.tricks", n=n) for n in (1, 3, 5, 21)] == [
        "1 взяття", "3 взяття·few", "5 взять", "21 взяття"
    ]  # fmt: skip
    assert new.t("uk", "lobby.started") == locales.t(locales.DEFAULT, "lobby.started")
    assert new.t("uk", "hand.my_tricks", n=3) == locales.t(locales.DEFAULT, "hand.my_tricks", n=3)


def test_plural_forms_come_from_the_catalogs_own_header(tmp_path: Path) -> None:
    root = _locale_dir(tmp_path)
    # CLDR's French, as Babel writes it: 0 is singular (unlike English), a million is "many".
    fr = Catalog(locale="fr", fuzzy=False)
    forms = ("{n} pli", "{n} de plis", "{n} plis")
    fr.add(_template_id("table.tricks"), forms, context="table.tricks")
    _add_catalog(root, fr)
    new = locales.Locales(root)
    assert [new.t("fr", "table.tricks", n=n) for n in (0, 1, 2, 10**6)] == [
        "0 pli", "1 pli", "2 plis", "1000000 de plis"
    ]  # fmt: skip
    assert new.t("en", "table.tricks", n=0) == "0 tricks"


def test_a_fuzzy_translation_is_not_used(tmp_path: Path) -> None:
    root = _locale_dir(tmp_path)
    uk = Catalog(locale="uk", fuzzy=False)
    uk.add(_template_id("lobby.closed"), "Стіл закрито?", context="lobby.closed", flags=["fuzzy"])
    _add_catalog(root, uk)
    assert locales.Locales(root).t("uk", "lobby.closed") == locales.t("ru", "lobby.closed")


def test_an_edited_catalog_is_recompiled_at_load(tmp_path: Path) -> None:
    root = _locale_dir(tmp_path)
    uk = Catalog(locale="uk", fuzzy=False)
    uk.add(_template_id("lobby.closed"), "Стіл закрито.", context="lobby.closed")
    po = _add_catalog(root, uk)
    assert locales.Locales(root).t("uk", "lobby.closed") == "Стіл закрито."
    mo = po.with_suffix(".mo")
    assert mo.exists()  # cached beside the .po
    edited = Catalog(locale="uk", fuzzy=False)
    edited.add(_template_id("lobby.closed"), "Стіл зачинено.", context="lobby.closed")
    with po.open("wb") as f:
        write_po(f, edited)
    later = mo.stat().st_mtime + 1  # a file system's clock may not tick between the two writes
    os.utime(po, (later, later))
    assert locales.Locales(root).t("uk", "lobby.closed") == "Стіл зачинено."


def test_an_installed_package_reads_the_compiled_catalogs_alone(tmp_path: Path) -> None:
    root = _locale_dir(tmp_path)
    for mo in catalogs.compile_all(root):
        mo.with_suffix(".po").unlink()  # a wheel ships only the .mo files
    new = locales.Locales(root)
    assert new.languages == locales.LANGUAGES
    assert new.t("ru", "table.tricks", n=5) == locales.t("ru", "table.tricks", n=5)


def test_the_default_language_setting_takes_any_language_with_a_catalog() -> None:
    token = "123:" + "a" * 30
    assert Settings(bot_token=token, default_language="en").default_language == "en"
    with pytest.raises(ValidationError, match="no translations for 'xx'"):
        Settings(bot_token=token, default_language="xx")


_RULE_NUMBER = re.compile(r"\b(?:F|K|SK|N|P)\d+\b|\{rule\}")


@pytest.mark.parametrize("lang", ["en", *sorted(SHIPPED)])
def test_no_text_names_a_rule_number(lang: str) -> None:
    """A rule's number (P4, F8) is for code and tests, never in a text a player reads."""
    assert _matching(lang, _RULE_NUMBER) == []


def _matching(lang: str, pattern: re.Pattern[str]) -> list[tuple[str, str]]:
    """Every text of a language's catalog (English: the template's) that `pattern` finds in."""
    catalog = TEMPLATE if lang == "en" else catalogs.read(SHIPPED[lang])
    return [
        (m.context, text)
        for m in catalog
        if m.id and m.context
        for text in _forms(m.id if lang == "en" else m.string)
        if pattern.search(text)
    ]


# A deal named by its number, bare: "deal 3", "Deal {deal_no}", «сдача 3», «Сдачи {n}».
_BARE_DEAL_NUMBER = re.compile(r"(?i)\b(?:deal|сдач[аиеу])\s+(?:\{\w+\}|\d)")


@pytest.mark.parametrize("lang", ["en", *sorted(SHIPPED)])
def test_every_game_numbers_its_deals_one_way(lang: str) -> None:
    """One word for one thing: every game's headings, its results and the page's title name a
    deal "deal #3" / «сдача №3», never "deal 3" in one game and "deal #3" in another."""
    assert _matching(lang, _BARE_DEAL_NUMBER) == []


# The messages a screen gives a page as data (a player's question): runs of words, their stress
# kept, no markup in them.
ASKED = re.compile(r"(^|\.)ask\.")


@pytest.mark.parametrize("lang", locales.LANGUAGES)
def test_every_question_is_drawn_as_runs_the_chat_writes_in_html(lang: str) -> None:
    """Each question's runs read as the chat's HTML does with its tags taken off, the <b> runs
    stressed; a value goes in as it is (a name with HTML in it is text here, escaped there)."""
    from bot.view.screen import said, said_html

    values = {"name": "<i>Bob</i> & Co", "bid": "7♥", "level": "3", "n": 1}
    asked = [m.context for m in TEMPLATE if m.id and m.context and ASKED.search(m.context)]
    assert len(asked) > 20
    for key in asked:
        message = said(lang, key, **values)
        text = "".join(run.text for run in message.text)
        html = said_html(lang, message)
        assert re.sub(r"</?b>", "", html) == text.replace("&", "&amp;").replace(
            "<", "&lt;").replace(">", "&gt;"), key  # fmt: skip
        assert [run.text for run in message.text if run.strong] == re.findall(
            r"<b>(.*?)</b>", html, re.DOTALL), key  # fmt: skip
    whisting = said(lang, "pref.ask.whisting", name="<i>Bob</i>", bid="7♥")
    assert "<i>Bob</i>" in "".join(run.text for run in whisting.text)
    assert "&lt;i&gt;Bob&lt;/i&gt;" in said_html(lang, whisting)
