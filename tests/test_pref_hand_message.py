"""A Preferans player's own message shows the table while he decides: the bid to beat
(P4), the contract in the whisting question and the other defender's word (P6), the contract and
trump, raspasy's turned talon (P10), the open hands (P7, P9) and whose cards the whister plays, the
trick with who laid each card and the last trick's taker (P8), and to the declarer the cards that
came from the talon (P5, a misère's too). Never a card the seat may not see; never longer than
the group's table message."""

from __future__ import annotations

import random
import re
from collections.abc import Iterator

import pytest

from bot.format import card_label, cards_text
from bot.games import preferans as pref
from engine.cards import ALL_CARDS, Card
from engine.preferans.actions import PrefDo
from engine.preferans.deal import Phase, PrefDeal
from engine.preferans.match import Match
from engine.preferans.outcome import PrefRules
from engine.preferans.views import seat_view, table_view
from locales import LANGUAGES, SEPARATOR
from tests.fakebot import parse_html
from tests.pref_deal_helpers import HANDS, NAMES, TALON, new, plays, random_move, run
from tests.pref_deal_helpers import hand_message as pref_hand_message
from tests.pref_deal_helpers import table_message as pref_table_message

UI = pref.UI
# A card as any message names it (the Russian letters В Д К Т for J Q K A too).
_LABELS = {card.label: card for card in ALL_CARDS if card.rank >= 7}
for _en, _ru in (("J", "В"), ("Q", "Д"), ("K", "К"), ("A", "Т")):
    _LABELS |= {_ru + label[1:]: c for label, c in _LABELS.items() if label[:-1] == _en}
_CARD = re.compile(r"(?<![0-9])(10|[7-9JQKAВДКТ])([♠♣♦♥])")


def _text(lang: str, deal: PrefDeal, seat: int) -> str:
    view = seat_view(deal, seat)
    return parse_html(pref_hand_message(lang, view, 1, 1, 1, "Chat").text).text


def _bid_lines(lang: str, deal: PrefDeal) -> list[str]:
    """The lines that name a bid or the contract (a bid '9♥' reads like a card)."""
    table = table_view(deal)
    names = [seat.name for seat in table.seats]
    lines = []
    if table.top_bid is not None and table.holder is not None:
        bid = UI.bid_label(lang, table.top_bid)
        lines.append(UI.text(lang, "table.top_bid", name=names[table.holder], bid=bid))
    if table.contract is not None and table.declarer is not None:
        bid = UI.bid_label(lang, table.contract)
        for key in ("table.contract", "ask.whisting"):
            lines.append(UI.text(lang, key, name=names[table.declarer], bid=bid))
    return [parse_html(line).text for line in lines]


def _cards_in(lang: str, deal: PrefDeal, text: str) -> set[Card]:
    for line in _bid_lines(lang, deal):
        text = text.replace(line, "")
    return {_LABELS[rank + suit] for rank, suit in _CARD.findall(text)}


def _seen(deal: PrefDeal, seat: int) -> set[Card]:
    """What the rules let `seat` see, from the deal itself: his hand, his discard and the talon
    he took (declarer, P5), a talon shown (P5) or turned (P10), open hands (P7, P9), the cards
    played."""
    seen = set(deal.hands[seat]) | set(deal.turned)
    if seat == deal.declarer:
        seen |= set(deal.discards) | set(deal.talon)
    if deal.talon_shown:
        seen |= set(deal.talon)
    for other in deal.opened:
        seen |= set(deal.hands[other])
    for trick in (*deal.tricks_played, deal.trick):
        seen |= {play.card for play in trick}
    return seen


def _states(seed: int, players: int) -> Iterator[PrefDeal]:
    """Every state of a random pulya to 10."""
    rng = random.Random(seed)
    match = Match.start(NAMES[:players], PrefRules(target=10), 1, rng)
    while not match.finished:
        assert match.deal is not None
        yield match.deal
        match = match.apply(random_move(rng, match.deal), rng).match


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize(("seed", "players"), [(1, 3), (2, 4), (3, 3)])
def test_a_players_card_buttons_come_with_cards_beyond_his_hand_in_two_thirds_of_them(
    lang: str, seed: int, players: int
) -> None:
    asked = beyond = 0
    for deal in _states(seed, players):
        if deal.phase is not Phase.PLAY:
            continue
        assert deal.controller is not None
        view = seat_view(deal, deal.controller)
        text = _text(lang, deal, deal.controller)
        asked += 1
        beyond += bool(_cards_in(lang, deal, text) - set(view.hand))
    assert asked > 50 and beyond >= 2 / 3 * asked, (beyond, asked)


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize(("seed", "players"), [(4, 3), (5, 4)])
def test_no_message_shows_a_card_its_seat_may_not_see(lang: str, seed: int, players: int) -> None:
    for deal in _states(seed, players):
        for seat in range(deal.n):
            shown = _cards_in(lang, deal, _text(lang, deal, seat))
            assert shown <= _seen(deal, seat), (seat, shown - _seen(deal, seat))


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("seed", range(2))
def test_the_players_message_is_no_longer_than_the_table_message(lang: str, seed: int) -> None:
    for deal in _states(20 + seed, 3):
        if deal.controller is None:
            continue
        own = pref_hand_message(lang, seat_view(deal, deal.controller), 1, 1, 1, "Chat").text
        group = pref_table_message(lang, table_view(deal), 1, 10).text
        assert own.count("\n") <= group.count("\n")


@pytest.mark.parametrize("lang", LANGUAGES)
def test_p4_the_bidder_sees_the_bid_to_beat_and_who_holds_it(lang: str) -> None:
    deal = new(HANDS, TALON)
    assert UI.text(lang, "hand.no_bid") in _text(lang, deal, 0)
    deal = run(deal, ["0: bid 6S"])
    top = UI.text(lang, "table.top_bid", name="ann", bid="6♠")
    assert top in _text(lang, deal, 1)
    assert top not in _text(lang, deal, 2)  # he waits: his message says only that


def test_p4_p6_the_words_read_in_each_language() -> None:
    deal = run(new(HANDS, TALON), ["0: bid 6S"])
    assert "Старшая заявка: 6♠ (ann)" in _text("ru", deal, 1)
    assert "Top bid: 6♠ (ann)" in _text("en", deal, 1)
    deal = run(deal, ["1: pass", "2: pass", "0: discard 7S 7C", "0: contract 6H"])
    assert "ann играет 6♥ — вист или пас?" in _text("ru", deal, 1)
    assert "ann plays 6♥ — whist or pass?" in _text("en", deal, 1)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_p6_the_defender_sees_the_contract_its_declarer_and_the_other_defenders_word(
    lang: str,
) -> None:
    deal = run(new(HANDS, TALON), ["0: bid 6H", "1: pass", "2: pass"])
    deal = run(deal, ["0: discard 7S 7C", "0: contract 7H"])
    question = UI.text(lang, "ask.whisting", name="ann", bid="7♥")
    assert question in _text(lang, deal, 1)
    deal = run(deal, ["1: pass"])
    text = _text(lang, deal, 2)
    assert question in text and f"bob{SEPARATOR}{UI.text(lang, 'role.passer')}" in text
    deal = run(deal, ["2: half_whist"])  # P6: the first defender answers the half-whist
    assert f"cat{SEPARATOR}{UI.text(lang, 'role.half_whister')}" in _text(lang, deal, 1)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_p5_the_declarer_sees_which_two_cards_came_from_the_talon(lang: str) -> None:
    taken = UI.text(lang, "hand.from_talon", cards="8♠ 8♣")
    deal = run(new(HANDS, TALON), ["0: bid 6H", "1: pass", "2: pass"])
    assert taken in _text(lang, deal, 0)
    deal = run(deal, ["0: discard 7S 7C"])
    assert taken in _text(lang, deal, 0)  # while he names the contract


@pytest.mark.parametrize("lang", LANGUAGES)
def test_p9_the_misere_declarer_sees_the_talon_he_took_and_nobody_else_does(lang: str) -> None:
    deal = run(new(HANDS, TALON), ["0: misere", "1: pass", "2: pass"])
    text = _text(lang, deal, 0)
    assert UI.text(lang, "hand.from_talon", cards="8♠ 8♣") in text
    for seat in (1, 2):
        shown = _cards_in(lang, deal, _text(lang, deal, seat))
        assert not {Card.parse("8S"), Card.parse("8C")} & shown


@pytest.mark.parametrize("lang", LANGUAGES)
def test_p8_play_shows_the_contract_trump_the_trick_by_who_laid_it_and_the_last_trick(
    lang: str,
) -> None:
    deal = run(new(HANDS, TALON), ["0: bid 6H", "1: pass", "2: pass"])
    deal = run(deal, ["0: discard 7S 7C", "0: contract 6H", "1: whist", "2: whist"])
    contract = UI.text(lang, "table.contract", name="ann", bid="6♥")
    trump = UI.text(lang, "hand.trump", suit="♥")
    assert parse_html(f"{contract}{SEPARATOR}{trump}").text in _text(lang, deal, 0)
    deal = plays(deal, ["0:AH"])
    ah, as_, ac = (card_label(Card.parse(code), lang) for code in ("AH", "AS", "AC"))
    assert UI.text(lang, "table.trick", cards=f"ann — {ah}") in _text(lang, deal, 1)
    deal = plays(deal, ["1:AS"])
    assert UI.text(lang, "table.trick", cards=f"ann — {ah}, bob — {as_}") in _text(lang, deal, 2)
    deal = plays(deal, ["2:AC"])
    last = UI.text(lang, "table.last", cards=f"{ah} {as_} {ac}", name="ann")
    assert last in _text(lang, deal, 0)
    assert UI.text(lang, "table.trick", cards=f"ann — {ah}") not in _text(lang, deal, 0)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_no_trump_contract_says_so(lang: str) -> None:
    deal = run(new(HANDS, TALON), ["0: bid 6NT", "1: pass", "2: pass"])
    deal = run(deal, ["0: discard 7S 7C", "0: contract 6NT", "1: whist", "2: whist"])
    assert UI.text(lang, "hand.no_trump") in _text(lang, deal, 0)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_p10_raspasy_shows_the_turned_talon_card(lang: str) -> None:
    deal = run(new(HANDS, TALON), ["0: pass", "1: pass", "2: pass"])
    text = _text(lang, deal, 0)
    assert parse_html(UI.text(lang, "table.raspasy")).text in text
    assert UI.text(lang, "table.turned", cards="8♠") in text
    deal = plays(deal, ["0:7S", "1:9S"])
    assert UI.text(lang, "table.turned", cards="8♠") in _text(lang, deal, 2)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_p7_light_play_shows_the_open_hands_and_whose_cards_the_whister_plays(lang: str) -> None:
    deal = run(new(HANDS, TALON), ["0: bid 6H", "1: pass", "2: pass"])
    deal = run(deal, ["0: discard 7S 7C", "0: contract 6H", "1: whist", "2: pass", "1: light"])
    text = _text(lang, deal, 0)
    for seat in (1, 2):
        hand = cards_text(deal.hands[seat], lang)
        assert UI.text(lang, "table.open", name=NAMES[seat], cards=hand) in text
    deal = plays(deal, ["0:AH", "1:AS"])
    assert deal.turn == 2 and deal.controller == 1
    text = _text(lang, deal, 1)
    hand = cards_text(deal.hands[2], lang)
    assert UI.text(lang, "hand.playing_for", name="cat", cards=hand) in text
    bobs = cards_text(deal.hands[1], lang)
    assert UI.text(lang, "table.open", name="bob", cards=bobs) not in text


def test_p7_the_whister_is_told_whose_cards_he_plays_in_the_nominative() -> None:
    deal = run(new(HANDS, TALON), ["0: bid 6H", "1: pass", "2: pass"])
    deal = run(deal, ["0: discard 7S 7C", "0: contract 6H", "1: whist", "2: pass", "1: light"])
    deal = plays(deal, ["0:AH", "1:AS"])
    assert "Вы играете карты игрока cat: " in _text("ru", deal, 1)
    assert "You play the cards of cat: " in _text("en", deal, 1)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_p9_misere_opens_the_defenders_hands_after_the_first_lead(lang: str) -> None:
    deal = run(new(HANDS, TALON), ["0: misere", "1: pass", "2: pass", "0: discard AH KH"])
    text = _text(lang, deal, 0)
    contract = UI.text(lang, "table.contract", name="ann", bid=UI.text(lang, "misere"))
    assert parse_html(contract).text in text
    bobs = cards_text(deal.hands[1], lang)
    assert UI.text(lang, "table.open", name="bob", cards=bobs) not in text
    deal = plays(deal, ["0:7H"])
    assert deal.legal_actions()[0].do is PrefDo.PLAY
    text = _text(lang, deal, 1)
    assert UI.text(lang, "table.open", name="cat", cards=cards_text(deal.hands[2], lang)) in text
    assert UI.text(lang, "table.trick", cards="ann — 7♥") in text
