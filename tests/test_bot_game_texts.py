"""Every registered game speaks its own words: seeded random deals of each game are
rendered at every step, in every language, and no message may say another game's word; the
result's reasons add up to each player's change; the last trick stays shown with its winner."""

from __future__ import annotations

import asyncio
import random
import re
from collections.abc import Callable, Iterable, Iterator
from dataclasses import replace
from typing import cast

import pytest

from bot import answers, games
from bot.chat import evening, lobby, settings_menu
from bot.chat import lines as render
from bot.games import preferans as pref
from bot.games.family import account
from bot.games.family import render as family_render
from bot.games.family import screen as family_screen
from bot.games.family.ui import FamilyUI
from bot.games.family.words import FamilyWords
from bot.handlers.common import help_text
from bot.rating import Rating
from bot.storage import ChatRow, DealRow, Standing, Storage, UserRow
from bot.view.message import Button, Choice, Rendered
from bot.view.screen import Held, OpenSeat, Seat, said_html
from engine.cards import make_deck, shuffled
from engine.deal import TrickDeal
from engine.events import ChipsMoved, Exchanged, Reason
from engine.preferans import record as deal_record
from engine.preferans.match import Match
from engine.preferans.outcome import PrefRules
from engine.preferans.views import seat_view as pref_seat_view
from engine.preferans.views import table_view as pref_table_view
from engine.record import story
from engine.views import seat_view, table_view
from locales import LANGUAGES, SEPARATOR
from tests.fakebot.html_check import parse_html
from tests.family_helpers import random_action
from tests.pref_deal_helpers import hand_message as pref_hand_message
from tests.pref_deal_helpers import random_move
from tests.pref_deal_helpers import screen_of as pref_screen_of
from tests.pref_deal_helpers import table_message as pref_table_message

# A computer player's name ends in its number (bot.computer.name): nothing may run into it.
NAMES = ["Алексей", "Ольга", "🤖 Любитель 2", "Dave"]


def _chat(game: str, lang: str) -> ChatRow:
    return ChatRow(1, "Group", lang, game, {"preset": "classic"}, 10, 60, 0)


def _deal(game: str, seed: int, n: int) -> TrickDeal:
    rng = random.Random(seed)
    cls = games.ui(game).deal
    rules = games.rules_for(game, {"preset": "classic"})
    deck = shuffled(make_deck(cls.deck_size_for(rules, n)), rng)
    deal, _ = cls.create(rules, NAMES[:n], rng.randrange(n), 10, rng.choice([0, 40, 280]), deck)
    return deal


def _playout(game: str, seed: int) -> Iterator[TrickDeal]:
    """Every position of one random deal, the finished one last."""
    rng = random.Random(seed)
    cls = games.ui(game).deal
    deal = _deal(game, seed, rng.randint(max(3, cls.MIN_PLAYERS), min(4, cls.MAX_PLAYERS)))
    yield deal
    while not deal.finished:
        deal, _ = deal.apply(random_action(deal, rng, calls=rng.choice([0.1, 0.5])))
        yield deal


def _buttons(content: Rendered) -> Iterator[str]:
    yield content.text
    yield from (b.label for row in content.rows for b in row)


def _texts(game: str, lang: str, seed: int) -> Iterator[str]:
    """Every text the bot shows of one deal of `game`, from the lobby to the deal's end."""
    chat = _chat(game, lang)
    names = NAMES
    yield lobby.lobby(lang, 1, game, names[:2], names[0], 10, "bot", players_range=(2, 4)).text
    yield settings_menu.rules_summary(chat)
    yield from _buttons(settings_menu.menu(chat, game))
    yield from (_match_texts if games.KINDS[game].keeps_players else _deal_texts)(game, lang, seed)


def _match_texts(game: str, lang: str, seed: int) -> Iterator[str]:
    """A match of many deals (a Preferans pulya) as its own service shows it: two random deals
    (its table, every player's message and buttons, the result, the sheet's caption), then
    the settlement of the pulya stopped."""
    rng = random.Random(seed)
    match = Match.start(NAMES[: rng.randint(3, 4)], PrefRules(target=10), 2, rng)
    rows: list[DealRow] = []
    while match.sheet.deals < 2:
        deal = match.deal
        assert deal is not None
        yield pref_table_message(lang, pref_table_view(deal), match.deal_no, 10).text
        for seat in range(deal.n):
            yield from _buttons(
                pref_hand_message(lang, pref_seat_view(deal, seat), 1, 1, 0, "Group")
            )
        step = match.apply(random_move(rng, deal), rng)
        if step.finished_deal is not None:
            for seat in range(deal.n):  # the finished deal's last word in each message
                view = pref_seat_view(step.finished_deal, seat)
                yield pref_hand_message(lang, view, 1, 1, 0, "Group").text
            yield pref.result_message(lang, step.line, step.match).text
            record = deal_record.to_record(step.finished_deal)
            row = DealRow(len(rows) + 1, 1, 1, 1, (1, 2, 3, 4)[: deal.n], record, "finished", 0.0)
            rows.append(row)
            yield render.history_line(lang, row, 1, "01.12 20:00")
            told = render.deal_account(lang, row)
            assert told is not None
            yield told
        match = step.match
    yield _stats_text(lang, "preferans", rows, holding=False)  # mid-pulya: nobody's chips moved
    stopped = match.stop()
    assert match.deal is not None
    for seat in range(match.deal.n):  # /stopgame: the deal voided, the settlement told
        view = replace(pref_seat_view(match.deal, seat), legal=())
        yield pref_hand_message(lang, view, 1, 1, 0, "Group", voided=True, end=stopped).text
    settled = pref.result_message(lang, None, stopped).text
    yield settled
    # the group's next post, the table's closing note, read right after the settlement
    yield settled + "\n\n" + pref.UI.text(lang, "table.stopped")
    yield pref.sheet_photo(lang, stopped)[1]


def _family_table(game: str, lang: str, deal: TrickDeal) -> Rendered:
    """The group's table message of a family deal, drawn from its public screen as the bot
    builds it."""
    ui = games.ui(game)
    assert isinstance(ui, FamilyUI)
    seen = family_screen.build(
        ui, deal, table_view(deal), None, lang, (1, 1, 0), (),
        lambda at, name: (at, name, False, False, None), lambda at: None,
    )  # fmt: skip
    return family_render.table_message(lang, ui, seen, 1, False, "bot")


def _family_hand(game: str, lang: str, deal: TrickDeal, seat: int, chat: str) -> Rendered:
    """A family player's control message, drawn from his screen as the bot builds it."""
    ui = games.ui(game)
    assert isinstance(ui, FamilyUI)
    view = seat_view(deal, seat)
    seen = family_screen.build(
        ui,
        deal,
        table_view(deal),
        view,
        lang,
        (1, 1, 0),
        (),
        lambda at, name: (at, name, False, False, None),
        lambda at: None,
    )
    return family_render.hand_message(lang, ui, seen, seat, 1, chat)


def _deal_texts(game: str, lang: str, seed: int) -> Iterator[str]:
    """One deal the shared service plays, from its first message to /history."""
    deal = None
    for deal in _playout(game, seed):
        yield _family_table(game, lang, deal).text
        for seat in range(deal.n):
            content = _family_hand(game, lang, deal, seat, "Group")
            yield content.text
            yield from (b.label for row in content.rows for b in row)
    assert deal is not None
    record = deal.to_record()
    yield _deal_texts_result(game, lang, deal)
    row = DealRow(1, 1, 1, 1, (1, 2, 3, 4)[: deal.n], record, "finished", 0.0)
    yield render.history_line(lang, row, 1, "01.12 20:00")
    account_text = render.deal_account(lang, row)
    assert account_text is not None
    yield account_text
    yield _stats_text(lang, game, [row], holding=True)
    results = {uid: deal.delta[seat] for seat, uid in enumerate(row.seats)}
    yield evening.session_summary(lang, games.ui(game), 1, results, dict(enumerate(NAMES, 1)))


def _deal_texts_result(game: str, lang: str, deal: TrickDeal) -> str:
    """The group's message at the end of a finished deal."""
    ui, record = games.ui(game), deal.to_record()
    return family_render.result_message(
        lang,
        ui,
        table_view(deal),
        NAMES,
        1,
        {},
        1,
        pot_has_penalty=False,
        offer_next=True,
        record=record,
    ).text


class _Stored:
    """What /stats reads of storage after the walk's deals: the players (none without a username)
    and, `holding`, their chips; a pulya being written has moved nobody's chips yet. It stands
    for each part /stats reads (its chats, money and league) too."""

    def __init__(self, game: str, rows: list[DealRow], holding: bool) -> None:
        self.rows, self.game, self.holding = rows, game, holding
        self.chats = self.money = self.league = self
        self.people = {
            uid: UserRow(uid, NAMES[uid - 1], None, None, True, False) for uid in (1, 2, 3, 4)
        }

    async def balances(self, chat_id: int) -> list[tuple[UserRow, int]]:
        seated = sorted({uid for row in self.rows for uid in row.seats})
        return [(self.people[uid], 0) for uid in seated] if self.holding else []

    async def user(self, uid: int) -> UserRow | None:
        return self.people.get(uid)

    async def users(self, ids: Iterable[int]) -> dict[int, UserRow]:
        return {uid: self.people[uid] for uid in ids if uid in self.people}

    async def deal_sums(self, chat_id: int, taken: object) -> list[tuple[object, ...]]:
        return [(row, self.game, dict.fromkeys(row.seats, 0), {}, False) for row in self.rows]

    async def rated_games(self, chat_id: int) -> list[str]:
        return [self.game]

    async def standings(self, chat_id: int, game: str) -> list[Standing]:
        seated = sorted({uid for row in self.rows for uid in row.seats})
        return [Standing(uid, Rating(), Rating()) for uid in seated]


def _stats_text(lang: str, game: str, rows: list[DealRow], *, holding: bool) -> str:
    """/stats, asked by the last seat, after the walk's deals: with the chat's records, most
    deals the first seat's (a tie goes to the earliest)."""
    storage = cast(Storage, _Stored(game, rows, holding))
    asker = rows[0].seats[-1]
    return asyncio.run(
        answers.player_stats(storage, 1, lang, (asker, NAMES[asker - 1]), None, None)
    )


def _foreign(game: str) -> set[str]:
    own = {w.lower() for w in games.ui(game).own_words}
    return {w.lower() for g in games.ORDER for w in games.ui(g).own_words} - own


# A card as the other language writes it: Russian shows В Д К Т, English J Q K A.
_FOREIGN_CARD = {"ru": re.compile(r"[JQKA][♠♣♦♥]"), "en": re.compile(r"[ВДКТ][♠♣♦♥]")}
_RULE_NUMBER = re.compile(r"(?<![\w-])(?:SK|[EFKNPSW])\d{1,2}\b")  # docs/rules.md's P14, F8, SK3
_HYPHEN_MINUS = re.compile(r"(?<![\w-])-\d")  # "-10" where "−10" is meant
_EMPTY_LABEL = re.compile(r":[ \t]+$", re.M)  # "Ваши карты: " with nothing after the colon
# One word per thing (the catalogs' header), names in the nominative, a trick count against a
# bid as "took 3, needed 2", and no gendered pronoun for a player.
_WRONG = {
    "ru": re.compile(
        r"раздач|ставка \(анте\)|ставками\.|взято \d+ из \d+|\b(?:за|от|у|для) (?:"
        + "|".join(NAMES)
        + r")\b",
        re.I,
    ),
    "en": re.compile(
        r"\bpools?\b|\bbanks?\b|\bgora\b|\d+ of \d+ tricks|\b(?:he|his|him|she|her)\b", re.I
    ),
}


def _defects(text: str, lang: str) -> list[str]:
    """What no text a player reads may hold: a rule's number, a hyphen for a minus, a label with
    nothing after it, a card in the other language's letters, a word the catalogs forbid."""
    plain = parse_html(text).text
    found = [m.group() for m in _RULE_NUMBER.finditer(plain)]
    found += [m.group() for m in _HYPHEN_MINUS.finditer(plain)]
    found += [repr(line) for line in plain.split("\n") if _EMPTY_LABEL.search(line)]
    found += _FOREIGN_CARD[lang].findall(plain)
    found += [m.group() for m in _WRONG[lang].finditer(plain)]
    return found


# Words new players tripped on. Each check looks at a text it concerns (None for any other) and
# says whether that text gets it right; `_TRIPPED` names the games and languages whose walk must
# meet it, so that no check passes by never looking.
def _ten_is_whisted(plain: str, lang: str) -> bool | None:
    """P13: a ten's defenders whist («вистует»); «ловит» is misère's word alone (P9)."""
    if lang != "ru" or "ловит" not in plain:
        return None
    return "мизер" in plain.lower()


def _light_opens_both_hands(plain: str, lang: str) -> bool | None:
    """P7: in light play both defenders' hands are laid open, the whister's own too."""
    ask = {"ru": "В светлую:", "en": "Light:"}
    if lang not in ask or ask[lang] not in plain:
        return None
    return {"ru": "ваши тоже", "en": "yours too"}[lang] in plain


def _records_name_everyone(plain: str, lang: str) -> bool | None:
    """/stats' records name their holder, whether or not he holds chips or a @username."""
    head = {"ru": "Больше всего сдач:", "en": "Most deals played:"}
    if lang not in head or head[lang] not in plain:
        return None
    return not re.search(r"^[^:\n]+: \?,", plain, re.M)


_NUMBER_THEN_CARD = re.compile(r"\d (?:10|[2-9JQKAВДКТ])[♠♣♦♥]")


def _names_set_apart(plain: str, lang: str) -> bool | None:
    """A name (a computer's ends in its number) is set apart from a card beside it."""
    return not _NUMBER_THEN_CARD.search(plain)


_HISTORY_LINE = re.compile(r"^(?:№|#)\d+ ")
HISTORY_WIDTH = 160  # a /history line a phone shows in a few rows


def _history_lines_fit(plain: str, lang: str) -> bool | None:
    """/history breaks a deal where one line would run to hundreds of characters."""
    if not _HISTORY_LINE.match(plain):
        return None
    return all(len(line) <= HISTORY_WIDTH for line in plain.split("\n"))


def _one_column_once(plain: str, lang: str) -> bool | None:
    """A player's whists on one other are named once, whatever their reasons (the consolation
    beside the tricks, P11): «висты на игрока Вера» twice in a line is one too many."""
    said = {"ru": r"висты на игрока ([^:]+):", "en": r"whists \d+ on ([^(]+) \("}
    if lang not in said:
        return None
    lines = [re.findall(said[lang], line) for line in plain.split("\n")]
    named = [found for found in lines if found]
    return None if not named else all(len(set(f)) == len(f) for f in named)


def _stop_said_once(plain: str, lang: str) -> bool | None:
    """A stopped pulya's settlement and the closing note after it do not both begin «Пуля
    остановлена досрочно»."""
    said = {"ru": "остановлена досрочно", "en": "stopped early"}
    if lang not in said or said[lang] not in plain:
        return None
    return plain.count(said[lang]) == 1


def _top_up_as_shown(plain: str, lang: str) -> bool | None:
    """P14/P18: the top-up of an open pulya is counted in the settlement but not printed on the
    sheet: no text may say it was written in the mountain, and the settled sheet's caption
    says what was counted (the walk stops its pulya after two deals: every pulya open)."""
    claim = {"ru": "дописаны в гору", "en": "topped up to the target"}
    caption = {"ru": "Расчёт в вистах:", "en": "Settlement in whists:"}
    counted = {"ru": "Засчитано горой", "en": "Counted as mountain"}
    if lang not in claim:
        return None
    if claim[lang] in plain:
        return False
    return counted[lang] in plain if caption[lang] in plain else None


def _cut_in_explained(plain: str, lang: str) -> bool | None:
    """F10: the cut-in question says what each way does (the turn-up and the stock, or the
    stock alone, then a discard), not only that a cutter must take a trick."""
    ask = {"ru": "Подрезать?", "en": "Cut in?"}
    ways = {
        "ru": ("открытый козырь", "все из колоды", "сносите"),
        "en": ("the turn-up", "all from the stock", "discards one"),
    }
    if lang not in ask or ask[lang] not in plain:
        return None
    return all(word in plain for word in ways[lang])


_SHARE = {
    "ru": re.compile(r": ([+−]\d+) \((?:из них (\d+)|всё) — в (?:банке|кладе)\)$", re.M),
    "en": re.compile(r": ([+−]\d+) \((?:(\d+) of it|all of it) in the (?:pot|treasure)\)$", re.M),
}
_EVENING_POT = {
    "ru": r"^(?:Банк|Клад) за вечер: \+(\d+)$",
    "en": r"^The (?:pot|treasure) over the evening: \+(\d+)$",
}


def _pot_share_said(plain: str, lang: str) -> bool | None:
    """F13: the evening's chips that stayed in the pot are told per player beside his result,
    and add up to the pot's gain (else "Bob −70 … Bob → Carol: 20" leaves 50 unexplained)."""
    if lang not in _SHARE:
        return None
    pot = re.search(_EVENING_POT[lang], plain, re.M)
    if pot is None:
        return None
    shares = [
        int(part) if part else -int(result.replace("−", "-"))
        for result, part in _SHARE[lang].findall(plain)
    ]
    return sum(shares) == int(pot.group(1))


_LOOSE_SEPARATOR = re.compile(r"(?:^|\s)(?<!\u00a0)· ", re.M)


def _separator_bound(plain: str, lang: str) -> bool | None:
    """A separator is bound to the part before it (a no-break space), so a wrapped line never
    starts with it ("· Pot: 40" alone on a phone's line), and no line begins with one."""
    if "· " not in plain:
        return None
    return not _LOOSE_SEPARATOR.search(plain)


_Check = Callable[[str, str], bool | None]
_BOTH = ("ru", "en")
_TRIPPED: dict[str, tuple[_Check, tuple[str, ...], tuple[str, ...]]] = {
    "ten": (_ten_is_whisted, ("preferans",), ("ru",)),
    "light": (_light_opens_both_hands, ("preferans",), _BOTH),
    "records": (_records_name_everyone, tuple(games.ORDER), _BOTH),
    "name_card": (_names_set_apart, (), _BOTH),
    "history": (_history_lines_fit, tuple(games.ORDER), _BOTH),
    "whists_once": (_one_column_once, ("preferans",), _BOTH),
    "stopped": (_stop_said_once, ("preferans",), _BOTH),
    "top_up": (_top_up_as_shown, ("preferans",), _BOTH),
    "cut_in": (_cut_in_explained, ("frap",), _BOTH),
    "pot_share": (_pot_share_said, ("frap", "napoleon"), _BOTH),
    "separator": (_separator_bound, tuple(games.ORDER), _BOTH),
}


def _tripped(text: str, lang: str, met: set[str]) -> list[str]:
    """The checks `text` fails; adds those it concerns to `met`."""
    plain = parse_html(text).text
    failed = []
    for name, (check, _, _) in _TRIPPED.items():
        right = check(plain, lang)
        if right is not None:
            met.add(name)
            if not right:
                failed.append(name)
    return failed


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("game", games.ORDER)
def test_every_game_speaks_only_its_own_words(game: str, lang: str) -> None:
    foreign = _foreign(game)
    assert foreign  # each game has words the others must not say
    met: set[str] = set()
    for seed in range(25):
        for text in _texts(game, lang, seed):
            parse_html(text)  # valid Telegram HTML
            low = text.lower()
            said = [w for w in foreign if w in low]
            assert not said, (game, lang, seed, said, text)
            assert not _defects(text, lang), (game, lang, seed, _defects(text, lang), text)
            tripped = _tripped(text, lang, met)
            assert not tripped, (game, lang, seed, tripped, text)
    want = {name for name, (_, gs, langs) in _TRIPPED.items() if game in gs and lang in langs}
    assert want <= met, (game, lang, want - met)  # the walk reaches what it checks


def _presses(rows: Iterable[Iterable[Button]]) -> list[str]:
    return [b.press for row in rows for b in row if isinstance(b, Choice)]


@pytest.mark.parametrize("game", [g for g in games.ORDER if not games.KINDS[g].keeps_players])
def test_a_family_screen_holds_the_choices_as_facts_and_the_keyboard_is_drawn_from_it(
    game: str,
) -> None:
    """Each choice on a player's screen is a legal action of the engine's, told by its verb and
    the tricks a bid names (N2); his chat keyboard holds exactly the screen's presses, each
    once: the cards' and the choices'."""
    ui = games.ui(game)
    assert isinstance(ui, FamilyUI)
    for seed in range(8):
        for deal in _playout(game, seed):
            for seat in range(deal.n):
                view = seat_view(deal, seat)
                content = _family_hand(game, "ru", deal, seat, "Group")
                seen = family_screen.build(
                    ui, deal, table_view(deal), view, "ru", (1, 1, 0), (),
                    lambda at, name: (at, name, False, False, None), lambda at: None,
                )  # fmt: skip
                cards = [h.press for h in seen.hand or () if h.press is not None]
                acts = [a.press for a in seen.choices]
                assert sorted(_presses(content.rows)) == sorted(cards + acts)
                legal = {(a.do.value, a.tricks) for a in view.legal}
                for act in seen.choices:
                    assert (act.verb, act.level) in legal


def test_a_preferans_screen_holds_the_choices_as_facts_and_the_keyboard_is_drawn_from_it() -> None:
    """Each bid a Preferans player may say is a rung of the ladder with its level and strain
    (P4), each other word a legal action's verb; his chat keyboard holds exactly the screen's
    presses, each once: the cards' (his own, or the passer's open hand in light play, P7), the
    ladder's and the words'."""
    for seed in range(6):
        rng = random.Random(seed)
        match = Match.start(NAMES[: rng.randint(3, 4)], PrefRules(target=10), 2, rng)
        while match.sheet.deals < 2:
            deal = match.deal
            assert deal is not None
            for seat in range(deal.n):
                view = pref_seat_view(deal, seat)
                seen = pref_screen_of("ru", view)
                hands = [*(seen.hand or ()), *(h for s in seen.seats for h in _open(s))]
                cards = {h.press for h in hands if h.press is not None}
                rungs = [r for r in seen.ladder if r.press is not None]
                shown = _presses(pref_hand_message("ru", view, 1, 1, 1, "C").rows)
                assert sorted(shown) == sorted([*cards, *(r.press for r in rungs), *(
                    a.press for a in seen.choices)])  # fmt: skip
                said = {a.bid for a in view.legal if a.bid is not None}
                assert {f"{r.level}{r.strain}" for r in rungs} == said
                assert {a.verb for a in seen.choices} <= {a.do.value for a in view.legal}
            match = match.apply(random_move(rng, deal), rng).match


def _open(seat: Seat) -> tuple[Held, ...]:
    return (seat.open_hand or ()) if isinstance(seat, OpenSeat) else ()


def test_khrap_closed_hand_offers_only_dark_khrap() -> None:
    """Khrap's unopened hand names «храп втёмную», never «фрап втёмную» (K2)."""
    deal = _deal("khrap", 1, 3)
    content = _family_hand("khrap", "ru", deal, deal.to_act or 0, "G")
    buttons = [b.label for row in content.rows for b in row]
    assert "Храп втёмную" in buttons and "храп втёмную" in content.text
    assert "фрап" not in content.text.lower() + " ".join(buttons).lower()


def test_lobby_says_each_games_own_player_limits() -> None:
    for game in games.ORDER:
        low, high = games.ui(game).players
        text = lobby.lobby("ru", 1, game, [], "A", 5, "bot", players_range=(low, high)).text
        assert re.findall(r"от \d+ до \d+", text) == [f"от {low} до {high}"]  # no other's


@pytest.mark.parametrize("game", [g for g in games.ORDER if not games.KINDS[g].keeps_players])
def test_reasons_add_up_to_each_change(game: str) -> None:
    """The result's reasons come from the engine's money events and sum to the change (F13–F15)."""
    seen_penalty = False
    for seed in range(200):
        *_, deal = _playout(game, seed)
        finished, steps = story(deal.to_record())
        items = account.reasons(steps, deal.n, finished.p0)
        for seat in range(deal.n):
            assert sum(i.amount for i in items[seat]) == deal.delta[seat]
            for item in items[seat]:
                if item.times:
                    seen_penalty = True
                    assert item.amount == -item.times * finished.p0
        lines = account.reason_lines(
            "ru", games.ui(game), table_view(deal), list(deal.players), items
        )
        for seat, line in enumerate(lines):
            assert render.signed(deal.delta[seat]) in line
    assert seen_penalty


def test_last_trick_stays_shown_with_its_winner_even_the_deciding_one() -> None:
    for seed in range(20):
        positions = list(_playout("frap", seed))
        final = positions[-1]
        if not final.tricks_played:
            continue
        for deal in positions:
            if deal.tricks_played and not deal.trick:
                table = table_view(deal)
                assert table.last_winner is not None
                text = _family_table("frap", "ru", deal).text
                k = len(deal.tricks_played)
                assert f"Взятка {k}:" in text and f"берёт {NAMES[table.last_winner]}" in text
        return
    pytest.fail("no deal was played out")


def test_russian_keeps_names_in_the_nominative() -> None:
    """No «(а)» forms and no name after a preposition that would decline it."""
    for game in games.ORDER:
        for seed in range(10):
            for text in _texts(game, "ru", seed):
                assert "(а)" not in text and "Слово за" not in text and "Против " not in text


def test_settings_pages_are_per_game_with_distinct_labels() -> None:
    chat = _chat("frap", "en")
    for game in games.ORDER:
        page = settings_menu.menu(chat, game)
        labels = [b.label for row in page.rows for b in row]
        assert len(labels) == len(set(labels)) == len(games.ui(game).options) + 1
    main = settings_menu.menu(chat)
    labels = [b.label for row in main.rows for b in row]
    assert len(labels) == len(set(labels))
    changes, page = settings_menu.apply_press(chat, "o:khrap:pen")
    assert page == "khrap" and changes["rules"]["khrap"] == {"penalties": "flat"}
    chat = replace(chat, **changes)
    assert games.rules_for("khrap", chat.rules)["penalties"] == "flat"
    assert "penalties" not in games.rules_for("frap", chat.rules)  # Frap's own rule is untouched
    assert settings_menu.apply_press(chat, "ante=20") == ({"ante": 20}, "main")
    with pytest.raises(ValueError):
        settings_menu.apply_press(chat, "ante=7")  # numbers only from the list


def test_stakes_while_bidding_follow_f13_f14_and_k4() -> None:
    """The header's stakes with a pot of 60: a Frap trick is a quarter (F13), a frap one short
    pays the pot, none twice, dark up to four times (F14); Khrap's first round takes it all (K4)."""
    frap = _deal("frap", 3, 3)
    pot = frap.pot
    said = games.ui("frap").stakes("en", table_view(frap))
    assert said is not None
    line = said_html("en", said)
    assert f"A trick: {pot // 4}" in line and f"{pot}–{2 * pot}, dark up to {4 * pot}" in line
    khrap = _deal("khrap", 3, 3)
    said = games.ui("khrap").stakes("en", table_view(khrap))
    assert said is not None
    line = said_html("en", said)
    assert f"takes {khrap.pot}{SEPARATOR}" in line and f"a trick {khrap.pot // 5}" in line
    assert line == "".join(run.text for run in said.text)  # the page's words are the chat's
    assert games.ui("frap").stakes("en", table_view(list(_playout("frap", 8))[-1])) is None


@pytest.mark.parametrize("lang", ["ru", "en"])
def test_help_names_every_registered_game_and_its_newgame_word(lang: str) -> None:
    """/help lists the games from the registry, so a new game appears there by registering."""
    text = help_text(lang)
    for game in games.ORDER:
        ui = games.ui(game)
        assert ui.title(lang) in text and ui.aliases[0] in text
    assert "{" not in text


@pytest.mark.parametrize(
    ("lang", "said"),
    [("en", "Carol: drops 4 and draws 5 cards"), ("ru", "Carol: сбрасывает 4 и берёт 5 карт")],
)
def test_F10_the_history_counts_a_cutters_drop_and_draw_apart(lang: str, said: str) -> None:
    """A cutter drops his four cards and draws five (then discards one): the deal's story says
    both counts, not "discards and draws 5 cards" for a four-card hand."""
    names = ["Alice", "Bob", "Carol", "Dave"]
    frap = cast(FamilyWords, games.ui("frap"))
    assert account._event_line(lang, frap, Exchanged(2, 4, 5), names) == said


@pytest.mark.parametrize("lang", ["ru", "en"])
def test_f13_the_odd_chips_of_a_split_pot_are_told(lang: str) -> None:
    """F13: a trick is a quarter of P0 (a fifth in Khrap, K5) and the remainder stays in the
    pot; the result says how much, once trick money was paid and something is left over."""
    said = {"ru": "остаток {n} остаётся в банке", "en": "{n} left over stays in the pot"}[lang]
    seen = set()
    for game in ("frap", "khrap", "student_khrap"):
        for seed in range(40):
            *_, deal = _playout(game, seed)
            _, steps = story(deal.to_record())
            trick_money = [
                e
                for _, events in steps
                for e in events
                if isinstance(e, ChipsMoved) and e.reason is Reason.TRICKS and e.amount
            ]
            text = _deal_texts_result(game, lang, deal)
            if not trick_money:
                assert "left over" not in text and "остаток" not in text, text
                continue
            value = trick_money[0].amount // deal.tricks_won[trick_money[0].seat]
            odd = deal.p0 - value * sum(deal.tricks_won)
            seen.add(odd > 0)
            if odd:
                assert said.format(n=odd) in parse_html(text).text, text
            else:
                assert said.split("{n}")[1] not in text, text
    assert seen == {True, False}  # both kinds of pot were split


@pytest.mark.parametrize("lang", ["ru", "en"])
def test_p14_a_closed_pulya_is_said_closed_once(lang: str) -> None:
    """At a pulya's normal end the group reads its settlement, then the table's closing note
    right after: «Пуля закрыта» once, not at the head of both."""
    said = {"ru": "Пуля закрыта", "en": "The pulya is closed"}[lang]
    rng = random.Random(3)
    match = Match.start(NAMES[:3], PrefRules(target=10), 2, rng)
    while match.deal is not None:
        step = match.apply(random_move(rng, match.deal), rng)
        match = step.match
    settled = pref.result_message(lang, step.line, match).text
    assert said in settled
    closing = pref.UI.text(lang, "table.match_over")
    assert parse_html(settled + "\n\n" + closing).text.count(said) == 1


def test_n3_a_declarers_name_in_the_stakes_stays_text_in_the_chat_and_on_the_page() -> None:
    """Napoleon's stakes name the declarer (N3). A name with HTML in it ("<b>P1</b> & Co") is
    escaped in the acting player's control message (valid Telegram HTML, the name shown as
    typed) and given to the page as the name itself."""
    rng = random.Random(5)
    cls = games.ui("napoleon").deal
    rules = games.rules_for("napoleon", {})
    names = [f"<b>P{i}</b> & Co" for i in range(4)]
    deck = shuffled(make_deck(cls.deck_size_for(rules, 4)), rng)
    deal, _ = cls.create(rules, names, 0, 10, 40, deck)
    seen = 0
    while not deal.finished:
        table = table_view(deal)
        if table.declarer is not None and table.to_act is not None:
            odd = names[table.declarer]
            text = _family_hand("napoleon", "en", deal, table.to_act, "Group").text
            assert odd in parse_html(text).text and "&amp; Co" in text
            stakes = games.ui("napoleon").stakes("en", table)
            assert stakes is not None and odd in "".join(run.text for run in stakes.text)
            seen += 1
        deal, _ = deal.apply(random_action(deal, rng, calls=0.9))
    assert seen, "nobody declared in this seed"
