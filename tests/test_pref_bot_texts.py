"""Preferans as the bot shows it (bot/games/preferans.py): buttons are exactly the legal actions
and fit Telegram's callback_data; every message is valid HTML within the limits in both
languages; the talon, open hands, raspasy's turned cards and the last trick are on the table
(P5, P7, P8, P9, P10); a deal's result lines and the settlement give the sheet's figures;
/history's account of a deal names the dealer, counts tricks in words and hides the discard."""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from dataclasses import replace
from html import escape

import pytest

from bot import callbacks
from bot.format import card_label, signed
from bot.format import name as shown_name
from bot.games import preferans as pref
from bot.view.message import Choice, Rendered
from engine.cards import Card
from engine.preferans.deal import Phase, PrefDeal
from engine.preferans.match import Match, Step
from engine.preferans.outcome import Outcome, PrefRules
from engine.preferans.pulya import Pulya
from engine.preferans.record import to_record
from engine.preferans.views import seat_view, table_view
from locales import LANGUAGES
from tests.fakebot import parse_html, utf16_len
from tests.pref_deal_helpers import hand_message as pref_hand_message
from tests.pref_deal_helpers import random_move
from tests.pref_deal_helpers import table_message as pref_table_message

MARKUP = ("Алиса & <Ко>", "Bob \"the\" 'Bold'", "Святослав Долгорукий-Оболенский", "Dan")
BIG = (10**12, 999, 9999)  # a table id, a deal number and a step as large as they get


def _states(seed: int, players: int) -> Iterator[tuple[Match, PrefDeal]]:
    rng = random.Random(seed)
    match = Match.start(MARKUP[:players], PrefRules(target=10), 2, rng)
    while not match.finished:
        deal = match.deal
        assert deal is not None
        yield match, deal
        match = match.apply(random_move(rng, deal), rng).match


def _steps(seed: int, names: tuple[str, ...], price: int) -> Iterator[Step]:
    """A pulya to 10 of random legal moves, step by step to its close."""
    rng = random.Random(seed)
    match = Match.start(names, PrefRules(target=10), price, rng)
    while not match.finished:
        assert match.deal is not None and match.sheet.deals < 200  # seeded: it closes sooner
        step = match.apply(random_move(rng, match.deal), rng)
        yield step
        match = step.match


def _valid(content: Rendered) -> str:
    parsed = parse_html(content.text)
    assert 0 < utf16_len(parsed.text) <= 4096
    return parsed.text


def _codes(content: Rendered) -> list[str]:
    return [button.press for row in content.rows for button in row if isinstance(button, Choice)]


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize(("seed", "players"), [(1, 3), (2, 4), (3, 3)])
def test_buttons_are_exactly_the_legal_actions_and_fit_64_bytes(
    lang: str, seed: int, players: int
) -> None:
    table_id, deal_no, step = BIG
    for _, deal in _states(seed, players):
        for seat in range(deal.n):
            view = seat_view(deal, seat)
            content = pref_hand_message(lang, view, table_id, deal_no, step, "Chat <&>")
            _valid(content)
            codes = _codes(content)
            assert all(len(code.encode()) <= callbacks.MAX_BYTES for code in codes)
            presses = [callbacks.decode(code) for code in codes]
            actions = {pref.parse_action(deal.turn or 0, p.code) for p in presses if p.kind == "a"}
            if not view.legal:
                assert not codes  # only the one who decides gets buttons (P7: the whister)
            elif deal.phase is Phase.DISCARD:
                assert {p.kind for p in presses} == {"t"} and not actions  # none chosen yet
            else:
                assert actions == set(view.legal)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_p5_the_discard_is_two_toggled_cards_then_one_confirming_button(lang: str) -> None:
    _, deal = next((m, d) for m, d in _states(4, 3) if d.phase is Phase.DISCARD)
    view = seat_view(deal, deal.turn or 0)
    selection: tuple[Card, ...] = ()
    for card in (view.hand[0], view.hand[5], view.hand[7]):  # the third replaces the first
        content = pref_hand_message(lang, view, 1, 1, 1, "Chat", selection)
        toggles = {callbacks.decode(code) for code in _codes(content)}
        assert {p.kind for p in toggles} == ({"t", "a"} if len(selection) == 2 else {"t"})
        pressed = next(
            p for p in toggles if p.kind == "t" and card in pref.toggle_selection(view, p.code)
        )
        selection = pref.toggle_selection(view, pressed.code)
    assert set(selection) == {view.hand[5], view.hand[7]}
    content = pref_hand_message(lang, view, 1, 1, 1, "Chat", selection)
    confirm = [callbacks.decode(c) for c in _codes(content) if callbacks.decode(c).kind == "a"]
    assert len(confirm) == 1
    action = pref.parse_action(view.seat, confirm[0].code)
    assert action in view.legal and set(action.cards or ()) == set(selection)
    assert len(_codes(content)) == len(view.hand) + 1  # a toggle per card of the 12
    codes = {callbacks.decode(c).code for c in _codes(content)}
    assert callbacks.cards_code([view.hand[7]]) in codes  # pressing 5 un-chooses it
    stranger = next(c for c in deal.deck if c not in view.hand)
    for forged in (view.hand[:3], (stranger,)):  # three cards; a card he does not hold
        with pytest.raises(callbacks.BadCallback):
            pref.toggle_selection(view, callbacks.cards_code(forged))


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("seed", range(4))
def test_the_table_shows_talon_open_hands_turned_cards_and_the_last_trick(
    lang: str, seed: int
) -> None:
    for match, deal in _states(10 + seed, 3 + seed % 2):
        table = table_view(deal)
        text = _valid(pref_table_message(lang, table, match.deal_no, 10))
        if table.talon:  # P5's shown talon, or raspasy's turned cards (P10)
            assert all(card_label(card, lang) in text for card in table.talon)
        for seat in table.seats:
            if seat.open_hand:  # P7 light, P9 misère after the first lead
                assert all(card_label(card, lang) in text for card in seat.open_hand)
        if table.last_trick:  # P8
            assert " ".join(card_label(p.card, lang) for p in table.last_trick) in text
        if table.to_act is not None:
            decides = table.controller if table.controller is not None else table.to_act
            assert table.seats[decides].name in text  # the phase line names who decides


def test_bids_read_with_suit_symbols_and_no_trump_in_each_language() -> None:
    ui = pref.UI
    assert ui.bid_label("ru", "8NT") == "8БК" and ui.bid_label("en", "8NT") == "8NT"
    assert ui.bid_label("en", "7H") == "7♥" and ui.bid_label("ru", "10S") == "10♠"
    assert ui.bid_label("ru", "misere") == "мизер"


@pytest.mark.parametrize(
    "code", ["b", "b11S", "bXYZ", "p7", "pZZ", "x7S", "x7S7S", "q", "bmisere", "c5S", ""]
)
def test_a_forged_code_is_refused(code: str) -> None:
    with pytest.raises(callbacks.BadCallback):
        pref.parse_action(0, code)


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("seed", range(3))
def test_result_lines_give_each_entry_and_the_settlement_whists_times_price(
    lang: str, seed: int
) -> None:
    names = MARKUP[: 3 + seed % 2]
    for step in _steps(300 + seed, names, 5):
        match = step.match
        if step.line is None:
            continue
        lines = pref.result_lines(lang, step.line, names, match.sheet.deals)
        text = _valid(Rendered("\n".join(lines)))
        shown = [parse_html(shown_name(name)).text for name in names]
        said = {  # each player's line: his entries, each with its figures (P9–P13)
            seat: next(x for x in text.split("\n") if x.startswith(f"{shown[seat]}: "))
            for seat in {entry.seat for entry in step.line.scored}
        }
        for entry in step.line.scored:
            value = str(entry.value) if entry.column == "whists" else signed(entry.value)
            figures = [value, str(entry.count), str(entry.each)] if entry.count else [value]
            assert all(figure in said[entry.seat] for figure in figures), (entry, said)
            if entry.on is not None:
                assert shown[entry.on] in said[entry.seat]
        overflow = [x for x in text.split("\n") if x not in said.values()][1:]
        assert len(overflow) == len(step.line.overflow)  # P15: one sentence a move
        for sentence, move in zip(overflow, step.line.overflow, strict=True):
            who = [shown[move.seat]] + ([] if move.to is None else [shown[move.to]])
            assert all(name in sentence for name in who) and str(move.points) in sentence
            assert str(move.whists or "") in sentence
    lines = pref.settlement_lines(lang, names, match.balances(), 5, stopped=False)
    text = _valid(Rendered("\n".join(lines)))
    for whists, chips in zip(match.balances(), match.chips(), strict=True):
        assert signed(whists) in text and signed(chips) in text


def test_p7_light_play_gives_the_whister_the_passers_buttons() -> None:
    for _, deal in _states(21, 3):
        if deal.phase is Phase.PLAY and deal.light and deal.controller != deal.turn:
            assert deal.controller is not None
            view = seat_view(deal, deal.controller)
            content = pref_hand_message("en", view, 1, 1, 1, "Chat")
            codes = [callbacks.decode(c).code for c in _codes(content)]
            plays = {pref.parse_action(deal.turn or 0, c) for c in codes}
            assert plays == set(deal.legal_actions())
            assert (
                _codes(pref_hand_message("en", seat_view(deal, deal.turn or 0), 1, 1, 1, "C")) == []
            )
            return
    pytest.skip("no light play in this seed")  # pragma: no cover


def test_bidding_offers_the_ladder_with_suit_symbols_and_the_words() -> None:
    deal = next(d for _, d in _states(1, 3))
    view = seat_view(deal, deal.turn or 0)
    shown = pref_hand_message("ru", view, 1, 1, 1, "C").rows
    rows = [[b.label for b in row] for row in shown]
    assert rows[0] == ["6♠", "6♣", "6♦", "6♥", "6БК"]  # P2's ladder, a level per row
    assert sorted(b for row in rows for b in row) == sorted(
        pref.UI.button_label("ru", a) for a in view.legal
    )
    assert "пас" in rows[-1] and "мизер" in rows[-1]  # the words after the ladder


@pytest.mark.parametrize("lang", LANGUAGES)
def test_p14_p16_the_last_result_settles_and_the_sheet_caption_carries_the_settlement(
    lang: str,
) -> None:
    rng = random.Random(41)
    match = Match.start(MARKUP[:3], PrefRules(target=10), 4, rng)
    line = None
    while not match.finished:
        assert match.deal is not None and match.sheet.deals < 200  # seeded: it closes sooner
        step = match.apply(random_move(rng, match.deal), rng)
        match, line = step.match, step.line or line
        if step.line is None:
            continue
        result = pref.result_message(lang, step.line, match)
        _valid(result)
        settles = pref.settlement_lines(lang, match.names, match.balances(), 4, stopped=False)
        assert (settles[0] in result.text) == match.finished  # the settlement only at the end
        assert pref.result_lines(lang, step.line, match.names, match.sheet.deals)[0] in result.text
    png, caption = pref.sheet_photo(lang, match)
    assert png.startswith(b"\x89PNG") and utf16_len(parse_html(caption).text) <= 1024
    assert all(signed(value) in parse_html(caption).text for value in match.balances())
    stopped = pref.result_message(lang, None, match.stop())
    assert _valid(stopped).startswith(
        parse_html(pref.UI.text(lang, "result.stopped", price=4, target=10)).text
    )


def _russian_form(n: int) -> str:
    """CLDR's Russian plural of «взятка» for `n`, written out here to check the catalog's."""
    if n % 10 == 1 and n % 100 != 11:
        return "взятка"
    return "взятки" if n % 10 in (2, 3, 4) and n % 100 not in (12, 13, 14) else "взяток"


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("seed", range(3))
def test_p1_p5_a_deals_account_names_the_dealer_counts_tricks_in_words_and_hides_the_discard(
    lang: str, seed: int
) -> None:
    names = MARKUP[: 3 + seed % 2]
    for step in _steps(500 + seed, names, 1):
        deal = step.finished_deal
        if deal is None:
            continue
        text = _valid(Rendered(pref.UI.deal_account(lang, to_record(deal), 999) or ""))
        lines = text.split("\n")
        dealer = "account.dealer_out" if deal.n == 4 else "account.dealer"  # P1
        assert (
            lines[1] == parse_html(pref.UI.text(lang, dealer, name=escape(names[deal.dealer]))).text
        )
        counted = re.findall(r"— (\d+) (взятк[аи]|взяток|tricks?)\b", text)
        assert sum(int(n) for n, _ in counted) == (10 if deal.tricks_played else 0)
        for n, word in counted:
            assert word == (_russian_form(int(n)) if lang == "ru" else "trick" + "s" * (n != "1"))
        bids = {pref.UI.bid_label(lang, a.bid) for a in deal.actions if a.bid}  # «8♠» is a bid too
        hidden = [
            card_label(c, lang)
            for c in deal.discards
            if c not in deal.talon and card_label(c, lang) not in bids
        ]  # P5
        assert not [c for c in hidden if c in text.split()]


def _told(lang: str, sheet: Pulya, outcome: Outcome) -> list[str]:
    """The result lines of `outcome` written on `sheet`, without the headline."""
    names = ("Anna", "Boris", "Vera", "Gleb")[: sheet.players]
    return pref.result_lines(lang, sheet.add(outcome).lines[-1], names, 7)[1:]


def test_p11_p12_p15_each_entry_is_said_with_its_reason_in_both_languages() -> None:
    three = Pulya.new(3, 2)
    four = Pulya.new(4, 3)
    failed = Outcome(0, "7S", (None, "whist", "pass", None), "light", (5, 3, 2, None))  # P17c
    assert _told("en", four, failed) == [
        "Anna: mountain +8 (7♠ down by 2, 4 a trick)",
        "Boris: whists 20 on Anna (5 tricks, 4 a trick) + 8 (consolation: down by 2, 4 a trick)",
        "Vera: whists 8 on Anna (consolation: down by 2, 4 a trick)",
        "Gleb: whists 8 on Anna (consolation: down by 2, 4 a trick)",  # the dealer (P1)
    ]
    assert _told("ru", four, failed)[0] == "Anna: гора +8 (7♠, недобор 2, по 4 за взятку)"
    assert (
        _told("ru", four, failed)[3]
        == "Gleb: висты на игрока Anna: 8 (за недобор 2, по 4 за взятку)"
    )
    short = Outcome(0, "6C", (None, "whist", "whist"), None, (7, 3, 0))  # P12: Vera took none
    assert _told("en", three, short)[2] == (
        "Vera: mountain +4 (2 tricks short of the whister's share, 2 a trick)"
    )
    assert _told("ru", three, short)[2] == (
        "Vera: гора +4 (до доли вистующего не хватило 2 взяток, по 2 за взятку)"
    )
    raspasy = Outcome(raspasy=(0, 4, 6))  # P10
    assert _told("en", replace(three, streak=1), raspasy) == [
        "Anna: " + _word("en", "pulya") + " +2 (raspasy without a trick)",
        "Boris: " + _word("en", "gora") + " +8 (raspasy, 4 tricks, 2 a trick)",
        "Vera: " + _word("en", "gora") + " +12 (raspasy, 6 tricks, 2 a trick)",
    ]
    assert _told("ru", three, raspasy)[1] == "Boris: гора +4 (распасы, 4 взятки, по 1 за взятку)"
    full = replace(three, pulya=(8, 5, 7))
    help_two = Outcome(0, "7D", (None, "pass", "pass"))  # P15: 2 of the 4 go to Vera
    assert _told("en", full, help_two)[1:] == [
        "Anna's pulya is full: 2 points go to Vera's pulya, and Anna writes 20 whists on Vera."
    ]
    assert _told("ru", full, help_two)[1:] == [
        "Пуля игрока Anna закрыта: 2 очка уходят в пулю игрока Vera, "
        "и Anna пишет на игрока Vera вистов: 20."
    ]
    closed = replace(three, pulya=(10, 10, 6))
    off_gora = Outcome(2, "9NT", ("pass", "pass", None))
    assert _told("en", closed, off_gora)[1:] == [
        "Vera's pulya is full: 4 points come off Vera's mountain."
    ]
    assert _told("ru", closed, off_gora)[1:] == [
        "Пуля игрока Vera закрыта: 4 очка списываются с горы игрока Vera."
    ]


def _word(lang: str, column: str) -> str:
    """The sheet's column as a result line names it ('pulya', 'mountain'), without a value."""
    return pref.UI.text(lang, f"result.{column}", value="").strip()


@pytest.mark.parametrize("lang", LANGUAGES)
def test_p15_history_tells_each_deal_as_the_sheet_wrote_it_from_the_pulyas_earlier_deals(
    lang: str,
) -> None:
    """/history N of every deal of a random pulya, given the deals before it, ends with the
    lines the sheet's own line gives (overflows included); without them, the deal alone."""
    rng = random.Random(5)
    match = Match.start(MARKUP[:3], PrefRules(target=20), 1, rng)
    records = []
    while not match.finished:
        assert match.deal is not None
        step = match.apply(random_move(rng, match.deal), rng)
        if step.finished_deal is not None:
            records.append(to_record(step.finished_deal))
        match = step.match
    lines = match.sheet.lines
    assert any(line.overflow for line in lines)  # (this seed's pulya has P15's moves)
    for number, (record, line) in enumerate(zip(records, lines, strict=True), start=1):
        told = pref.UI.deal_account(lang, record, number, records[: number - 1])
        assert told is not None
        result = pref.result_lines(lang, line, match.names, number)
        assert told.endswith("\n\n" + "\n".join(result))
        history = pref.UI.history_line(lang, record, number, "d", records[: number - 1])
        assert history is not None and "\n".join(result[1:]) in history
        if line.overflow:  # told without the pulya: the deal's own entries, no overflow
            alone = pref.UI.deal_account(lang, record, number)
            assert alone is not None and result[-1] not in alone
