"""Preferans in the group through the real bot and the fake Bot API: `/newgame preferans`, a
whole pulya to 10 to its settlement (raspasy, misère, a half-whist, light play), 4 players with
the dealer sitting out, a restart and /stopgame mid-pulya, a player who leaves mid-pulya,
time-outs. Scripted users press the buttons on their private messages; what the script chooses
is a plan per deal. What every game goes through (a restart, /stopgame, forged presses, the
lobby): tests/test_every_game.py."""

from __future__ import annotations

import asyncio
import json
import re
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path

import pytest

from bot.format import card_label, signed, sorted_hand
from bot.games import preferans as pref
from bot.games.preferans.table import SETTLEMENT, pulya
from engine.cards import ALL_CARDS, Card
from engine.events import TrickWon
from engine.preferans.actions import PrefAction, PrefDo
from engine.preferans.deal import Phase, PrefDeal
from engine.preferans.events import Called
from engine.preferans.match import Match, default_action, from_records
from engine.preferans.outcome import level
from engine.preferans.record import story
from engine.preferans.views import table_view
from locales import SEPARATOR, t
from tests.bot_harness import (
    GROUP_ID,
    RunningBot,
    bot_messages,
    make_players,
    open_table,
    running_bot,
)
from tests.fakebot import FakeTelegram, FakeUser, StoredMessage, utf16_len
from tests.pref_deal_helpers import screen_of

# What the players choose, deal by deal (P6 half-whist, P7 light, P9 misère, P10 raspasy); after
# these, "fast": the first to speak declares an 8 both defenders pass, so the pulya fills.
PLAN = ("half_whist", "light", "misere", "raspasy")


def _live(bot: RunningBot):  # type: ignore[no-untyped-def]
    live = bot.service.table_in(GROUP_ID)
    assert live is not None and live.play is not None
    return live


def _match(bot: RunningBot) -> Match:
    return pulya(_live(bot))


def _control(tg: FakeTelegram, user: FakeUser) -> StoredMessage:
    """The user's private control message of the table (titled with the group's name)."""
    return next(m for m in reversed(bot_messages(tg, user)) if "<b>Friends</b>" in m.html)


def _choose(deal: PrefDeal, plan: str) -> PrefAction:
    """The plan's choice among the legal actions (the timer's default where it says nothing)."""
    legal = deal.legal_actions()
    words = {a.do: a for a in legal}
    bids = [a for a in legal if a.do is PrefDo.BID]
    speaking = deal.phase is Phase.BIDDING
    first = not deal.actions  # the first to speak
    if speaking and plan == "misere" and PrefDo.MISERE in words:
        return words[PrefDo.MISERE]
    if speaking and plan in ("half_whist", "light", "fast") and bids and first:
        return bids[0]  # the lowest bid up the ladder
    if deal.phase is Phase.CONTRACT and plan == "fast":
        return max((a for a in legal if a.bid and level(a.bid) <= 8), key=lambda a: level(a.bid))
    if deal.phase is Phase.WHISTING:
        if plan == "half_whist" and PrefDo.HALF_WHIST in words:
            return words[PrefDo.HALF_WHIST]
        if plan == "light" and PrefDo.WHIST in words and not any(deal.defence):
            return words[PrefDo.WHIST]  # the first defender whists, the second passes
        return words.get(PrefDo.PASS) or legal[0]
    if deal.phase is Phase.LIGHT_OR_DARK and plan == "light":
        return words[PrefDo.LIGHT]
    action = default_action(deal)
    assert action is not None
    return action


async def _press(bot: RunningBot, users: list[FakeUser], action: PrefAction) -> FakeUser:
    """The deciding player presses the button of `action` on his control message (the two
    toggles first for a discard, P5)."""
    live = _live(bot)
    deal = pulya(live).deal
    assert deal is not None and deal.controller is not None
    user = next(u for u in users if u.id == live.deal_seats[deal.controller])
    if action.cards:
        for card in action.cards:
            message = _control(bot.tg, user)
            toggles = [(text, d) for text, d in message.buttons if d and d[:2] == "t:"]
            label = card_label(card, user.language_code or "en")
            data = next(d for text, d in toggles if label in text)
            await user.press(message, data=data)
            await bot.idle()
    message = _control(bot.tg, user)
    code = pref.action_code(action)
    data = next(d for _, d in message.buttons if d and d[:2] == "a:" and d.endswith(":" + code))
    await user.press(message, data=data)
    await bot.idle()
    return user


def _table_text(tg: FakeTelegram) -> str:
    """The group's table message of the deal in play (the latest one with a deal header)."""
    group = bot_messages(tg, tg.chat(GROUP_ID))
    return next(m.text for m in reversed(group) if "pulya to" in m.text)


async def _play(
    bot: RunningBot,
    users: list[FakeUser],
    *,
    until: Callable[[], bool],
    seen: Counter[str] | None = None,
    plans: tuple[str, ...] = PLAN,
) -> None:
    """Play by the plan (`plans`, then "fast") until `until()`; count what the group was shown
    (`seen`)."""
    seen = Counter() if seen is None else seen
    for _ in range(3000):
        if until():
            return
        live = _live(bot)
        match = pulya(live)
        deal = match.deal
        assert deal is not None
        plan = plans[match.sheet.deals] if match.sheet.deals < len(plans) else "fast"
        if deal.controller != deal.turn:  # P7: the whister plays the passer's open cards
            seen["light_buttons"] += 1
            assert deal.turn is not None
            assert f"{deal.players[deal.turn]}, open:" in _table_text(bot.tg)
        if deal.bid == "misere" and deal.phase is Phase.PLAY and deal.tricks_played:
            seen["misere_open"] += _table_text(bot.tg).count(", open:") == 2  # P9
        if deal.raspasy and deal.tricks_played:
            seen["turned"] += "Talon turned:" in _table_text(bot.tg)  # P10
        if deal.tricks_played and not deal.trick:
            seen["last"] += "Last trick:" in _table_text(bot.tg)  # P8
        await _press(bot, users, _choose(deal, plan))
    raise AssertionError("the pulya did not end")


def _named(cards: tuple[Card, ...], lines: list[str], bids: set[str]) -> list[Card]:
    """The cards some line names (a bid said reads like a card, «8♠»: not counted)."""
    return [c for c in cards if c.label not in bids and any(c.label in x.split() for x in lines)]


def _group(tg: FakeTelegram) -> list[StoredMessage]:
    return bot_messages(tg, tg.chat(GROUP_ID))


async def _settled(bot: RunningBot, table_id: int, price: int) -> Match:
    """The pulya as stored, and the ledger holding exactly its settlement × the price (P16)."""
    storage = bot.service.storage
    deals = await storage.tables.table_deals(table_id)
    match = from_records([d.record for d in deals if d.status != "voided"], price)
    rows = await storage.money.ledger_rows(GROUP_ID)
    assert {reason for *_, reason in rows} == {SETTLEMENT}
    booked: dict[int, int] = {}
    for _, uid, amount, _ in rows:
        booked[uid] = booked.get(uid, 0) + amount
    seats = deals[0].seats
    assert booked == {u: price * w for u, w in zip(seats, match.balances(), strict=True) if w}
    chat = await storage.chats.chat(GROUP_ID)
    assert sum(b for _, b in await storage.money.balances(GROUP_ID)) + chat.pot == 0
    assert await storage.check() == []  # a restart starts: a voided deal books nothing
    return match


async def _open(
    bot: RunningBot, tg: FakeTelegram, n: int, price: int, lang: str = "en"
) -> list[FakeUser]:
    group, users = make_players(tg, n, lang=lang)
    # Scripted presses play a deal in a second; people take minutes, far below 20 a minute.
    tg.group_limit = 10_000
    await bot.service.storage.chats.chat(GROUP_ID, "Friends")
    await bot.service.storage.chats.set_chat(
        GROUP_ID, rules={"preferans": {"target": 10, "whist_price": price}}, lang=lang
    )
    await open_table(bot, group, users, "/newgame preferans")
    return users


async def test_p14_p16_a_whole_pulya_to_10_is_played_through_the_group_to_its_settlement(
    tg: FakeTelegram, tmp_path: Path
) -> None:
    async with running_bot(tg, tmp_path / "db.sqlite3", seed=4) as bot:
        users = await _open(bot, tg, 3, price=2)
        table_id = _live(bot).row.table_id
        seen: Counter[str] = Counter()
        await _play(bot, users, until=lambda: bot.service.table_in(GROUP_ID) is None, seen=seen)
        await bot.idle()
        match = await _settled(bot, table_id, price=2)
        assert match.sheet.finished
        group = _group(tg)
        texts = "\n".join(m.text for m in group)
        kinds = [line.outcome.kind for line in match.sheet.lines]
        assert "half_whist" in kinds and "raspasy" in kinds, kinds
        assert any(line.outcome.contract == "misere" for line in match.sheet.lines)
        assert any(line.outcome.play == "light" for line in match.sheet.lines)
        assert all(seen[k] for k in ("light_buttons", "misere_open", "turned", "last")), seen
        assert "half-whist" in texts and "raspasy" in texts
        # each entry with its reason (P6 half-whist, P9 misère, P10 raspasy, P11)
        for reason in ("(half-whist: ", "(raspasy, ", "misère", " made)"):
            assert reason in texts, reason
        [sheet] = [m for m in group if m.photo]  # one photo, its media edited after each deal
        assert sheet.edits == match.sheet.deals - 1
        assert len(group) <= 3 * match.sheet.deals  # at most 3 new messages a deal
        settle = pref.settlement_lines("en", match.names, match.balances(), 2, stopped=False)
        assert all(line in texts for line in settle[1:])
        assert texts.count("The pulya is closed.") == 1 and "The evening's result" in texts
        for seat, user in enumerate(users):  # each message ends with the settlement
            mine = _control(tg, user).text
            whists, chips = signed(match.balances()[seat]), signed(match.chips()[seat])
            assert f"\n\nThe pulya is closed. Your result: {whists} whist" in mine, mine
            assert mine.endswith(f"{chips} in chips.") and not mine.endswith(":")
        # /history tells each deal by what it wrote; /stats counts the contracts declared
        await users[0].send(tg.chat(GROUP_ID), "/history")
        await bot.idle()
        assert "Alice, 8♠:\nAlice: pulya +6 (8♠ made)" in _group(tg)[-1].text  # the "fast" plan
        await users[0].send(tg.chat(GROUP_ID), "/stats")
        await bot.idle()
        stats = _group(tg)[-1].text
        declared = sum(
            line.outcome.declarer == 0 for line in match.sheet.lines if line.outcome.contract
        )
        assert f"Preferans: {match.sheet.deals}" in stats and f"{declared}" in stats, stats
        # a pulya counts as a whole: its settlement is the pulya's, not a deal's (P16)
        mine = signed(match.balances()[0] * 2)
        assert f"Pulyas played: 1; best: {mine}, worst: {mine}" in stats, stats
        assert "Best pulya: " in stats and "Worst pulya: " in stats
        assert "Best deal" not in stats and "pot" not in stats
        # the pulya closed, its table gone: /pulya posts its final sheet again, at the bottom
        await users[1].send(tg.chat(GROUP_ID), "/pulya")
        await bot.idle()
        again = _group(tg)[-1]
        assert again.photo is not None and again.message_id > sheet.message_id
        assert again.text == sheet.text
    assert tg.errors == []


async def test_p4_p10_history_n_tells_each_deal_of_the_pulya_in_full_then_sends_its_record(
    tg: FakeTelegram, tmp_path: Path
) -> None:
    """/history N of the plan's deals (P6 half-whist, P7 light, P9 misère, P10 raspasy): every
    word, the talon only where the table saw it (P5), never the discard, all ten tricks with
    their takers as the engine replays the stored record, what the sheet got; then the JSON."""
    async with running_bot(tg, tmp_path / "db.sqlite3", seed=4) as bot:
        users = await _open(bot, tg, 3, price=1)
        table_id = _live(bot).row.table_id
        await _play(bot, users, until=lambda: _match(bot).sheet.deals == len(PLAN))
        sheet = _match(bot).sheet
        rows = await bot.service.storage.tables.table_deals(table_id)
        for number, (plan, row, line) in enumerate(
            zip(PLAN, rows[: len(PLAN)], sheet.lines, strict=True), start=1
        ):
            await users[0].send(tg.chat(GROUP_ID), f"/history {number}")
            await bot.idle()
            told, sent = _group(tg)[-2:]
            assert utf16_len(told.text) <= 4096
            assert sent.document is not None and sent.document.file_name == f"deal-{number}.json"
            assert json.loads(sent.document.content) == row.record
            deal, steps = story(row.record)
            events = [event for _, events in steps for event in events]
            names = deal.players
            lines = told.text.split("\n")
            assert lines[:3] == [
                f"📜 Preferans{SEPARATOR}deal #{number}",
                lines[1],
                f"Dealer: {names[deal.dealer]}",
            ] and lines[1].startswith("🗓 Played ")
            said = [
                f"{names[e.seat]} — {pref.UI.said_label('en', e.word)}"
                for e in events
                if isinstance(e, Called)
            ]
            words = (PrefDo.BID, PrefDo.PASS, PrefDo.MISERE, PrefDo.HERE)  # P4's, in order
            bidding = next(i for i, a in enumerate(deal.actions) if a.do not in words)
            assert lines[3] == "Auction: " + SEPARATOR.join(said[:bidding])
            tricks = [
                f"{e.number}. {' '.join(c.label for c in e.cards)} → {names[e.seat]}"
                for e in events
                if isinstance(e, TrickWon)
            ]
            assert [x for x in lines if x[:1].isdigit()] == tricks  # in order, each with its taker
            assert len(tricks) == (0 if plan == "half_whist" else 10)
            if tricks:
                took = (f"{names[s]} — {n} trick{'s' * (n != 1)}" for s, n in enumerate(deal.won))
                assert lines[lines.index(tricks[-1]) + 1] == SEPARATOR.join(took)
            untold = [x for x in lines if x not in tricks]  # what is said besides the cards played
            bids = {pref.UI.bid_label("en", a.bid) for a in deal.actions if a.bid}
            if deal.raspasy:  # P10: three passes, the talon's two cards turned for all
                assert lines[4:6] == [
                    "Everyone passed: raspasy",
                    f"Talon card turned: {deal.talon[0].label}",
                ]
                assert (
                    lines[lines.index(tricks[0]) + 1] == f"Talon card turned: {deal.talon[1].label}"
                )
                continue
            assert deal.declarer is not None and deal.bid is not None
            declarer, bid = names[deal.declarer], pref.UI.bid_label("en", deal.bid)
            assert lines[4] == f"{declarer} wins the auction: {bid}"
            assert lines[6] == f"{declarer} discards two cards face down"
            defenders = ", ".join(names[s] for s in deal.defenders)
            if deal.bid == "misere":  # P5: taken unseen; P9: the defenders' hands opened
                assert lines[5] == f"{declarer} takes the talon without showing it"
                assert f"Hands laid open: {defenders}" in lines
                assert not _named(deal.talon, untold, bids)
            else:
                assert deal.contract is not None
                talon = " ".join(c.label for c in sorted_hand(deal.talon))
                assert lines[5] == f"{declarer} shows the talon and takes it: {talon}"
                assert (
                    lines[7]
                    == f"{declarer} names the contract: {pref.UI.bid_label('en', deal.contract)}"
                )
                assert lines[8] == "Whisting: " + SEPARATOR.join(said[bidding:])
                untold.remove(lines[5])
            # P5: the discard is never named
            assert not _named(deal.discards, untold, bids)
            if plan == "light":  # P7: the lone whister's choice, both defenders' hands open
                assert deal.whister is not None
                assert lines[9:11] == [
                    f"{names[deal.whister]} plays light (open)",
                    f"Hands laid open: {defenders}",
                ]
            if plan == "half_whist":
                assert "half-whist" in lines[8]
            result = pref.result_lines("en", line, names, number)  # what the group was shown
            assert told.html.endswith("\n\n" + "\n".join(result))
    assert tg.errors == []


@pytest.mark.parametrize("lang", ["en", "ru"])
async def test_a_players_card_buttons_come_with_the_table_in_his_own_message(
    tg: FakeTelegram, tmp_path: Path, lang: str
) -> None:
    """The plan's deals (P7 light, P9 misère, P10 raspasy): whenever a player's control message
    offers cards, it shows cards beyond his hand (the trick, the last trick, the turned talon
    card, an open hand) in at least two thirds of them, and only cards the table has seen."""
    async with running_bot(tg, tmp_path / "db.sqlite3", seed=4) as bot:
        users = await _open(bot, tg, 3, price=1, lang=lang)
        asked = beyond = 0
        card = re.compile(r"(?:10|[7-9JQKA])[♠♣♦♥]" if lang == "en" else r"(?:10|[7-9ВДКТ])[♠♣♦♥]")
        while _match(bot).sheet.deals < len(PLAN):
            live = _live(bot)
            match = pulya(live)
            deal = match.deal
            assert deal is not None and deal.controller is not None
            if deal.phase is Phase.PLAY:
                uid = live.deal_seats[deal.controller]
                message = _control(tg, next(u for u in users if u.id == uid))
                assert any(d and d[:2] == "a:" for _, d in message.buttons)
                labels = set(card.findall(message.text))
                if deal.contract:  # a contract '9♥' reads like a card
                    labels.discard(pref.UI.bid_label(lang, deal.contract))
                named = {c for c in ALL_CARDS if card_label(c, lang) in labels}
                played = {p.card for trick in (*deal.tricks_played, deal.trick) for p in trick}
                opened = {c for seat in deal.opened for c in deal.hands[seat]}
                table = played | opened | set(deal.turned)
                own = set(deal.hands[deal.controller])
                if deal.controller == deal.declarer:
                    own |= set(deal.discards) | set(deal.talon)
                assert named <= own | table, named - own - table
                asked += 1
                beyond += bool(named - set(deal.hands[deal.controller]))
            await _press(bot, users, _choose(deal, PLAN[match.sheet.deals]))
        assert asked >= 40 and beyond >= 2 / 3 * asked, (beyond, asked)
    assert tg.errors == []


@pytest.mark.parametrize("lang", ["en", "ru"])
async def test_p15_an_overflow_is_said_in_words_and_history_tells_it_as_the_result_and_sheet_did(
    tg: FakeTelegram, tmp_path: Path, lang: str
) -> None:
    """Four "fast" deals to 10: each player's 8 makes +6, so the fourth fills its declarer's
    pulya and 2 points go to another's (P15). The result says so in words and points to the
    sheet; /history and /history N tell the same entries (the pulya replayed, not the deal
    alone), and the sheet holds them."""
    async with running_bot(tg, tmp_path / "db.sqlite3", seed=4) as bot:
        users = await _open(bot, tg, 3, price=1, lang=lang)
        overflowed = lambda: any(line.overflow for line in _match(bot).sheet.lines)  # noqa: E731
        await _play(bot, users, until=overflowed, plans=())
        await bot.idle()
        match = _match(bot)
        line, number = match.sheet.lines[-1], match.sheet.deals
        [move] = line.overflow
        assert move.to is not None and (move.points, move.whists) == (2, 20)
        helper, helped = match.names[move.seat], match.names[move.to]
        told = pref.result_lines(lang, line, match.names, number)
        said = {
            "en": f"{helper}'s pulya is full: 2 points go to {helped}'s pulya, "
            f"and {helper} writes 20 whists on {helped}.",
            "ru": f"Пуля игрока {helper} закрыта: 2 очка уходят в пулю игрока {helped}, "
            f"и {helper} пишет на игрока {helped} вистов: 20.",
        }[lang]
        assert told[-1] == said
        [result] = [m for m in _group(tg) if m.html.startswith(told[0])]
        # (then every hand as dealt: the chat's house option, on by default)
        assert result.html.startswith("\n".join([*told, pref.UI.text(lang, "result.sheet")]))
        assert match.sheet.whists[move.seat][move.to] == 20  # what the sheet holds
        await users[1].send(tg.chat(GROUP_ID), f"/history {number}")
        await bot.idle()
        account = _group(tg)[-2]
        assert account.html.endswith("\n\n" + "\n".join(told))
        await users[1].send(tg.chat(GROUP_ID), "/history")
        await bot.idle()
        assert "\n".join(told[1:]) in _group(tg)[-1].html
    assert tg.errors == []


@pytest.mark.parametrize("lang", ["en", "ru"])
async def test_p16_balance_and_top_in_a_first_pulya_say_chips_move_at_its_close_and_where_all_stand(
    tg: FakeTelegram, tmp_path: Path, lang: str
) -> None:
    async with running_bot(tg, tmp_path / "db.sqlite3", seed=4) as bot:
        users = await _open(bot, tg, 3, price=5, lang=lang)
        await _play(bot, users, until=lambda: _match(bot).sheet.deals == 2, plans=())
        match = _match(bot)
        assert await bot.service.storage.money.balances(GROUP_ID) == []  # no chip has moved yet
        whists = match.balances()  # P16 with P14's top-up, were it closed now
        assert any(whists)
        stands = pref.settlement_lines(lang, match.names, whists, 5, stopped=True)[1:]
        head = pref.UI.text(lang, "standing", price=5, target=10)
        await users[2].send(tg.chat(GROUP_ID), "/balance")
        await bot.idle()
        said = _group(tg)[-1].html
        assert said.split("\n") == [head, *stands]
        await users[2].send(tg.chat(GROUP_ID), "/top")  # the league, not /balance again
        await bot.idle()
        league = [t(lang, "top.title", game=pref.UI.title(lang)), t(lang, "top.none")]
        assert _group(tg)[-1].html.split("\n") == [*league, "", head, *stands]
        assert ("chips move only when it closes" in said) == (lang == "en")
        assert ("фишки переходят, только когда она закрыта" in said) == (lang == "ru")
    assert tg.errors == []


async def test_p1_four_players_the_dealer_sits_out_each_deal(
    tg: FakeTelegram, tmp_path: Path
) -> None:
    async with running_bot(tg, tmp_path / "db.sqlite3", seed=6) as bot:
        users = await _open(bot, tg, 4, price=1)
        table_id = _live(bot).row.table_id
        for _ in range(3):
            live = _live(bot)
            deal = pulya(live).deal
            assert deal is not None and deal.n == 4
            dealer = next(u for u in users if u.id == live.deal_seats[deal.dealer])
            assert "deals, sits out" in _table_text(tg)
            assert not [d for _, d in _control(tg, dealer).buttons if d and d[:2] == "a:"]
            told = _control(tg, dealer).text  # what he does, and what the table does
            assert "You deal and sit out this deal." in told and "Your cards:" not in told
            names = [seat.name for seat in table_view(deal).seats]
            phase = pref.phase_line("en", screen_of("en", table_view(deal)), names)
            assert "Waiting" not in told and phase in told
            deals = pulya(live).sheet.deals
            await _play(bot, users, until=lambda d=deals: _match(bot).sheet.deals > d)
        await users[0].send(tg.chat(GROUP_ID), "/stopgame")
        await bot.idle()
        match = await _settled(bot, table_id, price=1)
        assert match.sheet.deals == 3
    assert tg.errors == []


async def test_a_restart_mid_pulya_resumes_the_pulya_and_the_deal(
    tg: FakeTelegram, tmp_path: Path
) -> None:
    db = tmp_path / "db.sqlite3"
    async with running_bot(tg, db, seed=8) as bot:
        users = await _open(bot, tg, 3, price=1)
        await _play(bot, users, until=lambda: _match(bot).sheet.deals == 2)
        for _ in range(4):  # into the third deal
            deal = _match(bot).deal
            assert deal is not None
            await _press(bot, users, _choose(deal, "fast"))
        before, step = _match(bot), _live(bot).step
    async with running_bot(tg, db, seed=9) as bot:
        await bot.idle()
        assert _match(bot) == before and _live(bot).step == step
        # the buttons shown before the restart still work
        await _play(bot, users, until=lambda: _match(bot).sheet.deals == 3)
        [sheet] = [m for m in _group(tg) if m.photo]
        assert sheet.edits == 2
    assert tg.errors == []


async def test_p14_stopgame_mid_pulya_voids_the_deal_and_settles_with_the_top_up(
    tg: FakeTelegram, tmp_path: Path
) -> None:
    async with running_bot(tg, tmp_path / "db.sqlite3", seed=12) as bot:
        users = await _open(bot, tg, 3, price=5)
        table_id = _live(bot).row.table_id
        await _play(bot, users, until=lambda: _match(bot).sheet.deals == 2)
        await users[1].send(tg.chat(GROUP_ID), "/stopgame")  # not the creator: refused
        await bot.idle()
        assert bot.service.table_in(GROUP_ID) is not None
        late = tg.user(1009, "Zed", language_code="en")
        tg.chat(GROUP_ID).add(late)
        await late.start()
        await late.send(tg.chat(GROUP_ID), "/join")  # a pulya keeps the players it began with
        await bot.idle()
        assert "played to its end by the players who started it" in _group(tg)[-1].text
        await users[2].send(tg.chat(GROUP_ID), "/leave")  # P14: not before the pulya's end
        await bot.idle()
        assert "The pulya is being written — you can leave when it is closed" in _group(tg)[-1].text
        assert users[2].id in _live(bot).row.seats
        sheet = _match(bot).sheet
        await users[0].send(tg.chat(GROUP_ID), "/stopgame")
        await bot.idle()
        match = await _settled(bot, table_id, price=5)
        assert match.balances() == sheet.balances()  # P14: the top-up is in the balances
        deals = await bot.service.storage.tables.table_deals(table_id)
        assert [d.status for d in deals] == ["finished", "finished", "voided"]
        texts = "\n".join(m.text for m in _group(tg))
        assert "the chips moved as settled" in texts and "The evening's result" in texts
        assert "This deal was voided: the pulya was stopped." in _table_text(tg)
        for seat, user in enumerate(users):  # not «Waiting for the others.»
            mine = _control(tg, user).text
            assert "This deal was voided: the pulya was stopped." in mine, mine
            whists = signed(match.balances()[seat])
            assert f"The pulya was stopped early. Your result: {whists} whist" in mine
            assert "Waiting" not in mine
        sheet_line = pref.UI.text("en", "result.sheet")
        results = [m for m in _group(tg) if sheet_line in m.text]  # each points to it
        assert len(results) == 3  # two deals and the stop's settlement
        # the table is gone, the sheet is not: /pulya posts the stopped pulya's final sheet
        [final] = [m for m in _group(tg) if m.photo]
        await users[1].send(tg.chat(GROUP_ID), "/pulya")
        await bot.idle()
        again = _group(tg)[-1]
        assert again.photo is not None and again.message_id > final.message_id
        assert again.text == final.text
        assert again.html == pref.sheet_photo("en", match.stop())[1]  # settled, P14's top-up
    assert tg.errors == []


async def test_pulya_reposts_the_sheet_at_the_bottom(tg: FakeTelegram, tmp_path: Path) -> None:
    async with running_bot(tg, tmp_path / "db.sqlite3", seed=3) as bot:
        users = await _open(bot, tg, 3, price=1)
        await _play(bot, users, until=lambda: _match(bot).sheet.deals == 1)
        [old] = [m for m in _group(tg) if m.photo]
        await users[2].send(tg.chat(GROUP_ID), "/pulya")
        await bot.idle()
        [new] = [m for m in _group(tg) if m.photo]  # the old photo deleted
        assert new.message_id > old.message_id and new.text == old.text
        assert _group(tg)[-1] is new
    assert tg.errors == []


async def _play_for_the_rest(bot: RunningBot, stay: list[FakeUser], absent: FakeUser) -> None:
    """The players who stay press until the next deal is over; the bot moves for `absent`
    (no waiting for him)."""
    deals, deadline = _match(bot).sheet.deals, time.monotonic() + 30
    while _match(bot).sheet.deals == deals:
        assert time.monotonic() < deadline
        deal = _match(bot).deal
        assert deal is not None and deal.controller is not None
        deciding = _live(bot).deal_seats[deal.controller]
        if deciding != absent.id:
            user = next(u for u in stay if u.id == deciding)
            # the deal the bot's move for `absent` began may still be being shown
            await bot.tg.wait_for(lambda u=user: _control(bot.tg, u).buttons)
            await _press(bot, stay, _choose(deal, "fast"))
        else:
            await asyncio.sleep(0.05)
            await bot.idle()


@pytest.mark.parametrize("how", ["leaves", "blocks"])
async def test_a_player_away_for_good_is_played_for_and_the_others_stop_the_pulya(
    tg: FakeTelegram, tmp_path: Path, how: str
) -> None:
    async with running_bot(tg, tmp_path / "db.sqlite3", seed=5, away_delay=0.05) as bot:
        users = await _open(bot, tg, 3, price=1)
        table_id = _live(bot).row.table_id
        await _play(bot, users, until=lambda: _match(bot).sheet.deals == 1)
        gone, stay = users[2], users[:2]
        if how == "leaves":
            tg.member_leaves(tg.chat(GROUP_ID), gone)
            await bot.idle()
            assert gone.id in _live(bot).row.leaving
            assert any("any other player may stop it" in m.text for m in _group(tg))
            last = bot_messages(tg, gone)[-1]  # his control message, edited a last time
            assert last.text.startswith("🚪 You left Friends: the bot plays your cards")
            edits = last.edits
        else:
            gone.blocked = True  # the bot learns it from the 403 of his next private message
        await _play_for_the_rest(bot, stay, gone)
        if how == "leaves":  # his message is not edited for the deals played for him
            assert last.edits == edits and last.text.startswith("🚪 You left")
        if how == "blocks":
            assert _live(bot).users[gone.id].blocked
            assert any("cannot message you privately" in m.text for m in _group(tg))
        await users[1].send(tg.chat(GROUP_ID), "/stopgame")  # not the creator, yet may now
        await bot.idle()
        assert bot.service.table_in(GROUP_ID) is None
        await _settled(bot, table_id, price=1)
        assert "The evening's result" in _group(tg)[-1].text
    assert all(e.status == 403 and e.params["chat_id"] == str(gone.id) for e in tg.errors)


async def test_time_outs_pass_and_mark_the_player_away(tg: FakeTelegram, tmp_path: Path) -> None:
    """(Forged presses, at every game's table: tests/test_every_game.py.)"""
    async with running_bot(tg, tmp_path / "db.sqlite3", seed=7, turn_timeout=1) as bot:
        users = await _open(bot, tg, 3, price=1)
        live = _live(bot)
        deal = pulya(live).deal
        assert deal is not None and deal.controller is not None
        mover = next(u for u in users if u.id == live.deal_seats[deal.controller])
        message = _control(tg, mover)
        assert "⏳" in message.text
        assert _live(bot).step == 0
        told = "the bot moved for you: pass"

        deadline = time.monotonic() + 10
        while not any(told in m.text for m in bot_messages(tg, mover)):
            assert time.monotonic() < deadline, "no time-out"
            await asyncio.sleep(0.1)
        await bot.idle()
        assert _live(bot).step >= 1 and pulya(_live(bot)).deal is not None
        assert any("🤖" in t for m in bot_messages(tg, mover) for t in (*m.history, m.text))
        # his second time-out in a row: away, told so privately and on the table
        while mover.id not in _live(bot).row.away:
            assert time.monotonic() < deadline + 10, "not away"
            await asyncio.sleep(0.1)
        await bot.idle()
        assert any("the bot moves for you" in m.text for m in bot_messages(tg, mover))
        await users[0].send(tg.chat(GROUP_ID), "/stopgame")
        await bot.idle()
    assert tg.errors == []


@pytest.mark.parametrize("word", ["preferans", "преферанс", "пуля"])
async def test_newgame_words_and_the_lobby_button_reach_preferans(
    tg: FakeTelegram, tmp_path: Path, word: str
) -> None:
    async with running_bot(tg, tmp_path / "db.sqlite3") as bot:
        group, users = make_players(tg, 3, lang="en")
        await users[0].start()
        await users[0].send(group, f"/newgame {word}")
        await bot.idle()
        lobby = _group(tg)[-1]
        assert "Preferans" in lobby.text and "Players: 3 to 4." in lobby.text
        assert "Pulya to 10; a whist costs 1 chip." in lobby.text
    assert tg.errors == []
