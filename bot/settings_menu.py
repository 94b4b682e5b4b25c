"""The /settings menu: house rules (RULES.md options), ante, turn timer and language per chat."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from telegram import InlineKeyboardButton, InlineKeyboardMarkup

from engine.frap import FrapRules
from engine.student import StudentRules
from locales import LANGUAGES, t

from . import callbacks, games
from .render import Rendered
from .storage import ChatRow

ANTES = (0, 1, 2, 5, 10, 20, 50, 100)
TIMERS = (0, 30, 60, 90, 180, 300)

# Each rule option: its values in the order a press cycles through them.
RULE_OPTIONS: dict[str, tuple[Any, ...]] = {
    "penalties": ("graded", "flat"),  # F14
    "failed_declarer_collects": (True, False),  # F13
    "ante": ("penalty_carries", "every_deal"),  # F3
    "cut_when_uncontested": (False, True),  # F6
    "cutting_in": (True, False),  # F10
    "lead": ("last_cutter", "first_cutter"),  # F11
    "must_whist": (False, True),  # K6
}
STUDENT_OPTIONS: dict[str, tuple[Any, ...]] = {"joker_lead": ("trumps", "named_suit")}  # SK2
_SHORT = {
    "penalties": "pen",
    "failed_declarer_collects": "fdc",
    "ante": "am",
    "cut_when_uncontested": "cwu",
    "cutting_in": "cut",
    "lead": "lead",
    "must_whist": "mw",
    "joker_lead": "jl",
}
_LONG = {short: long for long, short in _SHORT.items()}


def _next(values: tuple[Any, ...], current: Any) -> Any:
    index = values.index(current) if current in values else -1
    return values[(index + 1) % len(values)]


def menu(chat: ChatRow) -> Rendered:
    """The settings message with one button per setting; a press moves it to the next value."""
    lang = chat.lang
    frap = FrapRules.from_dict(games.rules_for("frap", chat.rules))
    student = StudentRules.from_dict(games.rules_for("student_khrap", chat.rules))
    rows = [
        [
            InlineKeyboardButton(
                t(lang, "set.game", value=t(lang, f"game.{chat.game}")),
                callback_data=callbacks.encode("c", code="game"),
            )
        ]
    ]
    for option, short in _SHORT.items():
        value = getattr(student if option in STUDENT_OPTIONS else frap, option)
        label = t(lang, f"set.{option}", value=t(lang, f"set.{option}.{str(value).lower()}"))
        rows.append([InlineKeyboardButton(label, callback_data=callbacks.encode("c", code=short))])
    rows.append(
        [
            InlineKeyboardButton(
                t(lang, "set.ante_value", ante=chat.ante),
                callback_data=callbacks.encode("c", code="ante"),
            ),
            InlineKeyboardButton(
                t(lang, "set.timer", value=_timer(lang, chat.turn_timeout)),
                callback_data=callbacks.encode("c", code="timer"),
            ),
        ]
    )
    rows.append(
        [
            InlineKeyboardButton(
                t(lang, "set.language"), callback_data=callbacks.encode("c", code="lang")
            )
        ]
    )
    text = t(lang, "set.title") + "\n\n" + rules_summary(chat)
    return Rendered(text, InlineKeyboardMarkup(rows))


def _timer(lang: str, seconds: int) -> str:
    return t(lang, "set.timer.off") if seconds == 0 else t(lang, "set.timer.seconds", n=seconds)


def apply_press(chat: ChatRow, code: str) -> dict[str, Any]:
    """The chat fields a settings press changes; raises ValueError for an unknown code."""
    if code in _LONG and _LONG[code] in STUDENT_OPTIONS:
        option = _LONG[code]
        student = StudentRules.from_dict(games.rules_for("student_khrap", chat.rules))
        value = _next(STUDENT_OPTIONS[option], getattr(student, option))
        return {"rules": {**chat.rules, option: value}}
    if code in _LONG:
        option = _LONG[code]
        rules = FrapRules.from_dict(games.rules_for("frap", chat.rules))
        rules = replace(rules, **{option: _next(RULE_OPTIONS[option], getattr(rules, option))})
        kept = {k: v for k, v in chat.rules.items() if k in STUDENT_OPTIONS}
        return {"rules": {**rules.to_dict(), **kept}}
    if code == "game":
        return {"game": games.next_game(chat.game)}
    if code == "ante":
        return {"ante": _next(ANTES, chat.ante)}
    if code == "timer":
        return {"turn_timeout": _next(TIMERS, chat.turn_timeout)}
    if code == "lang":
        return {"lang": _next(LANGUAGES, chat.lang)}
    raise ValueError(code)


def rules_summary(chat: ChatRow, game: str | None = None) -> str:
    """The house rules of `game` (the chat's default if None) in force, briefly, in the chat's
    language (for /rules and /settings)."""
    lang = chat.lang
    game = game or chat.game
    if game == "student_khrap":
        student = StudentRules.from_dict(games.rules_for(game, chat.rules))
        lines = [t(lang, "rules.basics.student_khrap"), t(lang, "rules.ante", ante=chat.ante)]
        lines.append(t(lang, f"rules.joker_lead.{student.joker_lead}"))
    else:
        rules = FrapRules.from_dict(games.rules_for(game, chat.rules))
        lines = [t(lang, "rules.basics" if game == "frap" else "rules.basics.khrap")]
        ante = t(lang, "rules.ante", ante=chat.ante) + " " + t(lang, f"rules.ante.{rules.ante}")
        lines.append(ante)
        lines.append(t(lang, f"rules.penalties.{rules.penalties}"))
        lines.append(t(lang, f"rules.fdc.{str(rules.failed_declarer_collects).lower()}"))
        lines.append(t(lang, f"rules.cwu.{str(rules.cut_when_uncontested).lower()}"))
        if rules.cutting_in:
            lines.append(t(lang, f"rules.cutting_in.{rules.lead}"))
        else:
            lines.append(t(lang, "rules.cutting_in.off"))
        if game == "khrap" and rules.must_whist:
            lines.append(t(lang, "rules.must_whist.true"))
    lines.append(t(lang, "rules.timer", value=_timer(lang, chat.turn_timeout)))
    return "\n".join(lines)
