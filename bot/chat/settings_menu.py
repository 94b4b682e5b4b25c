"""The /settings menu: a main page (default game, ante, timer, language) and one page per game
with only that game's house rules; numbers are picked from a short list.

Every button's code names the page it sits on (`origin`), so a press on a page the message no
longer shows is refused rather than applied twice."""

from __future__ import annotations

from typing import Any

from locales import LANGUAGES, t

from .. import callbacks, games
from ..storage import ChatRow
from ..view.message import Choice, Rendered
from ..view.review import SHOW_HANDS, shows_hands

ANTES = (0, 1, 2, 5, 10, 20, 50, 100)
TIMERS = (0, 30, 60, 90, 180, 300)
BANKROLLS = (0, 100, 200, 500, 1000, 2000)  # F15's starting bankroll; 0: none
MAIN = "main"
_PICKERS = ("ante", "timer", "game", "bankroll")  # pages that list values to pick from


def bankroll(chat: ChatRow) -> int:
    """The chat's starting bankroll per player (F15), 0 when it plays without one;
    kept among the chat's rules, beside the games' own options."""
    value = chat.rules.get("bankroll", 0)
    return value if isinstance(value, int) and value > 0 else 0


def _bankroll(lang: str, value: int) -> str:
    return t(lang, "bankroll.off") if value == 0 else str(value)


def _button(label: str, code: str) -> Choice:
    return Choice(label, callbacks.encode("c", code=code))


def _rows(buttons: list[Choice], width: int) -> list[list[Choice]]:
    return [buttons[i : i + width] for i in range(0, len(buttons), width)]


def _timer(lang: str, seconds: int) -> str:
    return t(lang, "set.timer.off") if seconds == 0 else t(lang, "set.timer.seconds", n=seconds)


def menu(chat: ChatRow, page: str = MAIN) -> Rendered:
    """The settings message showing `page`: the main page, a game's page or a value picker."""
    lang = chat.lang
    back = [_button(t(lang, "set.back"), f"b:{page}")]
    if page in games.REGISTRY:
        ui = games.ui(page)
        rows = [
            [
                _button(
                    ui.option_label(lang, o, ui.option_value(chat.rules, o)), f"o:{page}:{o.short}"
                )
            ]
            for o in ui.options
        ]
        text = t(lang, "set.game_title", game=ui.title(lang)) + "\n\n" + rules_summary(chat, page)
        return Rendered(text, [*rows, back])
    if page == "ante":
        marked = [_mark(str(a), a == chat.ante) for a in ANTES]
        picks = [_button(label, f"ante={a}") for label, a in zip(marked, ANTES, strict=True)]
        return Rendered(t(lang, "set.pick_ante"), [*_rows(picks, 4), back])
    if page == "timer":
        picks = [
            _button(_mark(_timer(lang, s), s == chat.turn_timeout), f"timer={s}") for s in TIMERS
        ]
        return Rendered(t(lang, "set.pick_timer"), [*_rows(picks, 3), back])
    if page == "bankroll":
        picks = [
            _button(_mark(_bankroll(lang, b), b == bankroll(chat)), f"bankroll={b}")
            for b in BANKROLLS
        ]
        text = t(lang, "bankroll.pick")
        return Rendered(text, [*_rows(picks, 3), back])
    if page == "game":
        picks = [
            _button(_mark(ui.title(lang), ui.game == chat.game), f"game={ui.game}")
            for ui in games.REGISTRY.values()
        ]
        return Rendered(t(lang, "set.pick_game"), [*_rows(picks, 1), back])
    return _main(chat)


def _mark(label: str, current: bool) -> str:
    return f"✅ {label}" if current else label


def _main(chat: ChatRow) -> Rendered:
    lang = chat.lang
    rows = [
        [_button(t(lang, "set.rules_of", game=ui.title(lang)), f"p:{ui.game}")]
        for ui in games.REGISTRY.values()
    ]
    rows.append([_button(t(lang, "set.game", value=games.ui(chat.game).title(lang)), "game")])
    rows.append(
        [
            _button(t(lang, "set.ante_value", ante=chat.ante), "ante"),
            _button(t(lang, "set.timer", value=_timer(lang, chat.turn_timeout)), "timer"),
        ]
    )
    rows.append(
        [_button(t(lang, "bankroll.button", value=_bankroll(lang, bankroll(chat))), "bankroll")]
    )
    rows.append([_button(t(lang, "review.setting", value=_hands(lang, chat)), "hands")])
    rows.append([_button(t(lang, "set.language"), "lang")])
    lines = [
        t(lang, "set.title"),
        "",
        t(lang, "set.game", value=games.ui(chat.game).title(lang)),
        t(lang, "rules.ante", ante=chat.ante),
        t(lang, "rules.timer", value=_timer(lang, chat.turn_timeout)),
        t(lang, "bankroll.rule", value=_bankroll(lang, bankroll(chat))),
        t(lang, "review.rule", value=_hands(lang, chat)),
    ]
    return Rendered("\n".join(lines), rows)


def _hands(lang: str, chat: ChatRow) -> str:
    return t(lang, "review.on" if shows_hands(chat) else "review.off")


def origin(code: str) -> str:
    """The page a button with this code sits on; raises ValueError for an unknown code."""
    head, _, rest = code.partition(":")
    if head == "p" and rest in games.REGISTRY:
        return MAIN
    if head == "b" and (rest in games.REGISTRY or rest in _PICKERS):
        return rest
    if head == "o" and rest.partition(":")[0] in games.REGISTRY:
        return rest.partition(":")[0]
    if code in (*_PICKERS, "lang", "hands"):
        return MAIN
    name, eq, _ = code.partition("=")
    if eq and name in _PICKERS:
        return name
    raise ValueError(code)


def apply_press(chat: ChatRow, code: str) -> tuple[dict[str, Any], str]:
    """The chat fields a settings press changes and the page to show next; raises ValueError
    for an unknown code or value."""
    origin(code)
    head, _, rest = code.partition(":")
    if head == "p":
        return {}, rest
    if head == "b":
        return {}, MAIN
    if head == "o":
        game, _, short = rest.partition(":")
        return {"rules": _toggle(chat, game, short)}, game
    if code in _PICKERS:
        return {}, code
    if code == "hands":  # every hand shown at a deal's end, or not
        return {"rules": {**chat.rules, SHOW_HANDS: not shows_hands(chat)}}, MAIN
    if code == "lang":
        index = LANGUAGES.index(chat.lang) if chat.lang in LANGUAGES else -1
        return {"lang": LANGUAGES[(index + 1) % len(LANGUAGES)]}, MAIN
    name, _, value = code.partition("=")
    if name == "game":
        if value not in games.REGISTRY:
            raise ValueError(code)
        return {"game": value}, MAIN
    number = int(value)
    if name == "bankroll":
        if number not in BANKROLLS:
            raise ValueError(code)
        return {"rules": {**chat.rules, "bankroll": number}}, MAIN
    if number not in (ANTES if name == "ante" else TIMERS):
        raise ValueError(code)
    return {"ante" if name == "ante" else "turn_timeout": number}, MAIN


def _toggle(chat: ChatRow, game: str, short: str) -> dict[str, Any]:
    """The chat's rules with `game`'s option `short` moved to its next value (kept per game)."""
    ui = games.ui(game)
    option = next((o for o in ui.options if o.short == short), None)
    if option is None:
        raise ValueError(short)
    current = ui.option_value(chat.rules, option)
    index = option.values.index(current) if current in option.values else -1
    value = option.values[(index + 1) % len(option.values)]
    own = chat.rules.get(game)
    mine = dict(own) if isinstance(own, dict) else {}
    return {**chat.rules, game: {**mine, option.key: value}}


def rules_summary(chat: ChatRow, game: str | None = None) -> str:
    """The house rules of `game` (the chat's default if None) in force, briefly, in the chat's
    language (for /rules and /settings)."""
    lang = chat.lang
    ui = games.ui(game or chat.game)
    lines = ui.rules_lines(lang, chat.rules)
    if ui.uses_ante:
        lines.insert(1, t(lang, "rules.ante", ante=chat.ante))
    lines.append(t(lang, "rules.timer", value=_timer(lang, chat.turn_timeout)))
    if bankroll(chat):
        lines.append(t(lang, "bankroll.rule", value=bankroll(chat)))
    return "\n".join(lines)
