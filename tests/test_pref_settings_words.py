"""The Preferans settings page's buttons and /rules text: every P option's value has
its own words in both languages, and /rules says the options in force for the chat."""

from __future__ import annotations

import pytest

from bot.chat import settings_menu
from bot.games.base import Option
from bot.games.preferans import DEFAULT_WHIST_PRICE, UI, WHIST_PRICES
from bot.storage import ChatRow
from locales import LANGUAGES, t


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("option", UI.options, ids=lambda o: o.key)
def test_each_option_value_has_its_own_label(lang: str, option: Option) -> None:
    # a settings button must tell its values apart (P1, P4, P6, P10–P15)
    labels = [UI.option_label(lang, option, value) for value in option.values]
    assert len(set(labels)) == len(labels)
    assert all("{" not in label and label for label in labels)


@pytest.mark.parametrize("option", UI.options, ids=lambda o: o.key)
def test_each_option_has_words_of_its_own_in_russian(option: Option) -> None:
    # a missing translation falls back to English: the Russian label must differ from it
    value = option.values[0]
    assert UI.option_label("ru", option, value) != UI.option_label("en", option, value)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_rules_say_the_options_in_force(lang: str) -> None:
    chat = {"preferans": {"target": 30, "whist": "gentleman", "whist_price": WHIST_PRICES[-1]}}
    lines = UI.rules_lines(lang, chat)
    by_key = {o.key: o for o in UI.options}
    assert str(30) in lines[1] and str(WHIST_PRICES[-1]) in lines[1]  # P14's target, the price
    assert UI.option_label(lang, by_key["whist"], "gentleman") in lines[2]  # P11
    default = UI.rules_lines(lang, {})
    assert UI.option_label(lang, by_key["whist"], "greedy") in default[2]
    assert default[1] == UI.text(lang, "rules.money", target=10, n=DEFAULT_WHIST_PRICE)


def test_an_unknown_whist_price_falls_back_to_the_default() -> None:
    assert UI.whist_price({"preferans": {"whist_price": 3}}) == DEFAULT_WHIST_PRICE
    assert UI.whist_price({"preferans": {"whist_price": 5}}) == 5


@pytest.mark.parametrize("lang", LANGUAGES)
def test_p16_rules_say_the_whist_price_and_no_ante(lang: str) -> None:
    # a pulya's chips move by the whist's price at its end, never by the chat's ante (F3's)
    chat = ChatRow(1, "Friends", lang, "preferans", {}, 25, 90, 0)
    text = settings_menu.rules_summary(chat, "preferans")
    assert t(lang, "rules.ante", ante=25) not in text and "25" not in text, text
    assert UI.text(lang, "rules.money", target=10, n=DEFAULT_WHIST_PRICE) in text
    assert t(lang, "rules.ante", ante=25) in settings_menu.rules_summary(chat, "frap")
