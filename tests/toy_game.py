"""A toy two-player trick game, defined here and nowhere else: its engine state, its
bot UI, its kind of table and its catalog words. `tests/test_toy_game.py` registers it and plays
it through the bot; no file outside `tests/` names it.

The rules: two players, two cards each from a four-card deck; the first player leads, the other
plays any card; the higher card of the suit led takes the trick and leads the next. Whoever takes
both tricks takes a chip from the other."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, ClassVar

import locales
from bot import callbacks
from bot.format import card_label, cards_text, name, short, signed
from bot.games.base import DealRetired, DealShown, GameUI, Kind, Moved, NoSheet, ResultShown, who
from bot.storage import ChatRow, Movement
from bot.table.live import OpenTable, Refusal, Turns
from bot.table.steps import DealBegun, RowOnly, Stepped, Voided
from bot.view import screen as s
from bot.view.message import Choice, Rendered, next_deal_choice
from engine.cards import Card
from engine.tricks import Play

GAME = "toy_tricks"
DECK = ("AS", "KS", "QH", "JH")
# Its catalog section (`toy.<key>`), English only: every language falls back to the source.
WORDS = {
    "toy.name": "Toy tricks",
    "toy.table": "🂠 Toy tricks · deal {deal_no}: {tricks}",
    "toy.to_play": "{name} to play.",
    "toy.over": "The deal is over.",
    "toy.hand": "🃏 Toy tricks · your cards: {cards}",
    "toy.wait": "Wait for your turn.",
    "toy.result": "Deal {deal_no}: {winner}",
    "toy.result.chip": "{name} takes a chip.",
    "toy.result.even": "one trick each, no chip moves.",
    "toy.history": "#{number} {date}: {what}",
    "toy.rules": "Two cards each; the higher card of the suit led takes the trick.",
}


# ---- its engine state -----------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ToyDeal:
    """A deal of the toy game: immutable, replayable from its record."""

    players: tuple[str, str]
    hands: tuple[tuple[Card, ...], tuple[Card, ...]]
    leader: int = 0
    trick: tuple[tuple[int, Card], ...] = ()
    won: tuple[int, int] = (0, 0)
    plays: tuple[Card, ...] = ()
    dealt: tuple[tuple[Card, ...], ...] = ()  # the hands as dealt (the record's)

    @classmethod
    def deal(cls, players: Sequence[str], rng: random.Random) -> ToyDeal:
        cards = [Card.parse(code) for code in DECK]
        rng.shuffle(cards)
        hands = (tuple(cards[:2]), tuple(cards[2:]))
        return cls((players[0], players[1]), hands, dealt=hands)

    @property
    def finished(self) -> bool:
        return sum(self.won) == 2

    @property
    def to_act(self) -> int | None:
        if self.finished:
            return None
        return self.leader if not self.trick else 1 - self.leader

    def apply(self, seat: int, card: Card) -> ToyDeal:
        if seat != self.to_act or card not in self.hands[seat]:
            raise ValueError("not a legal card")
        hands = list(self.hands)
        hands[seat] = tuple(c for c in hands[seat] if c != card)
        trick = (*self.trick, (seat, card))
        new = replace(self, hands=(hands[0], hands[1]), trick=trick, plays=(*self.plays, card))
        if len(trick) < 2:
            return new
        (lead_seat, lead), (other_seat, other) = trick
        beats = other.suit == lead.suit and other.rank > lead.rank
        winner = other_seat if beats else lead_seat
        won = (self.won[0] + (winner == 0), self.won[1] + (winner == 1))
        return replace(new, trick=(), won=won, leader=winner)

    def to_record(self) -> dict[str, Any]:
        return {
            "game": GAME,
            "players": list(self.players),
            "hands": [[str(c) for c in hand] for hand in self.dealt],
            "plays": [str(c) for c in self.plays],
        }


def replay(record: dict[str, Any]) -> ToyDeal:
    hands = tuple(tuple(Card.parse(c) for c in hand) for hand in record["hands"])
    players = (str(record["players"][0]), str(record["players"][1]))
    deal = ToyDeal(players, (hands[0], hands[1]), dealt=hands)
    for code in record["plays"]:
        assert deal.to_act is not None
        deal = deal.apply(deal.to_act, Card.parse(code))
    return deal


# ---- its bot UI -------------------------------------------------------------------------------


class ToyUI(GameUI):
    """How the bot shows the toy game: its words in the `toy` section."""

    game: ClassVar[str] = GAME
    section: ClassVar[str] = "toy"
    aliases: ClassVar[tuple[str, ...]] = ("toy",)

    @property
    def players(self) -> tuple[int, int]:
        return 2, 2

    def move_words(self, lang: str, action: Any) -> str:
        return card_label(action[1], lang)

    def history_line(
        self,
        lang: str,
        record: dict[str, Any],
        number: int,
        date: str,
        earlier: Sequence[dict[str, Any]] = (),
    ) -> str:
        return self.text(lang, "history", number=number, date=date, what=_outcome(lang, record))

    def deal_account(
        self,
        lang: str,
        record: dict[str, Any],
        number: int,
        earlier: Sequence[dict[str, Any]] = (),
    ) -> str | None:
        deal = replay(record)
        played = " ".join(card_label(c, lang) for c in deal.plays)
        return "\n".join([self.text(lang, "result", deal_no=number, winner=""), played])

    def declared(self, record: dict[str, Any]) -> tuple[int | None, bool, str | None]:
        return None, False, None

    def option_value(self, chat_rules: dict[str, Any], option: Any) -> Any:
        return None

    def rules_lines(self, lang: str, chat_rules: dict[str, Any]) -> list[str]:
        return [self.text(lang, "rules")]


UI = ToyUI()


def _winner(deal: ToyDeal) -> int | None:
    return None if deal.won[0] == deal.won[1] else (0 if deal.won[0] > deal.won[1] else 1)


def _outcome(lang: str, record: dict[str, Any]) -> str:
    return s.said_html(lang, _outcome_said(lang, record))


def _outcome_said(lang: str, record: dict[str, Any]) -> s.Said:
    deal = replay(record)
    winner = _winner(deal)
    if winner is None:
        return UI.said(lang, "result.even")
    return UI.said(lang, "result.chip", name=short(deal.players[winner]))


# ---- its kind of table --------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ToyPlay(Turns):
    """The toy table's state (`OpenTable.play`)."""

    deal: ToyDeal

    @property
    def step(self) -> int:
        return len(self.deal.plays)

    @property
    def to_act(self) -> int | None:
        return self.deal.to_act

    @property
    def in_play(self) -> bool:
        return not self.deal.finished


def _last_trick(deal: ToyDeal, lang: str) -> s.Taken | None:
    """The last trick taken, and its taker: the leader of the trick after it."""
    done = len(deal.plays) - len(deal.trick)
    if done < 2:
        return None
    plays = [Play(0 if c in deal.dealt[0] else 1, c) for c in deal.plays[done - 2 : done]]
    return s.taken(plays, deal.leader, lang)


def toy_deal(live: OpenTable) -> ToyDeal:
    assert isinstance(live.play, ToyPlay)
    return live.play.deal


class ToyTables(Kind[ToyUI]):
    """The toy game's tables: a deal, its result, the next deal when a player asks."""

    async def start(self, live: OpenTable, chat: ChatRow) -> Moved:
        await self._deal(live, chat)
        return Moved.IN_PLAY

    async def _deal(self, live: OpenTable, chat: ChatRow) -> None:
        seats, _ = await self.host.dealt_in(live, chat)
        names = [live.users[uid].name for uid in seats]
        deal = ToyDeal.deal(names, self.host.rng)
        begun = DealBegun(
            deal.to_record(), seats=seats, dealer=live.row.dealer,
            deal_no=live.row.deal_no + 1, deadline=live.row.deadline,
        )  # fmt: skip
        await self.host.store(live, begun)
        live.play = ToyPlay(deal)
        await self._show(live, chat)

    async def resume(self, live: OpenTable) -> None:
        row = await self.host.storage.tables.current_deal(live.row.table_id)
        if row is not None:
            played = ToyPlay(replay(row.record))
            await self.host.resumed(live, row.deal_id, row.seats)
            live.play = played

    async def refresh(self, live: OpenTable, chat: ChatRow) -> Moved:
        await self._show(live, chat)
        return Moved.IN_PLAY

    async def reshow(self, live: OpenTable, chat: ChatRow, user_id: int) -> None:
        seat = live.deal_seats.index(user_id)
        await self._show(
            live, chat, DealShown(toy_deal(live), live.row.deal_no, seat=seat, anew=user_id)
        )

    async def act(self, live: OpenTable, user_id: int, press: callbacks.Press) -> Moved:
        deal = toy_deal(live)
        if deal.finished or press.deal_no != live.row.deal_no or press.step != live.step:
            raise Refusal("err.stale")
        if user_id not in live.deal_seats:
            raise Refusal("err.not_player")
        seat = live.deal_seats.index(user_id)
        try:
            card = Card.parse(press.code)
        except ValueError as exc:
            raise Refusal("err.stale") from exc
        return await self.move(live, (seat, card), auto=False)

    def between_deals(self, live: OpenTable) -> bool:
        return toy_deal(live).finished

    async def offer_next(self, live: OpenTable, chat: ChatRow) -> None:
        result = ResultShown(live.row.deal_no, current=False, offer_next=True)
        await self.host.show(live, chat, result)

    async def next_deal(self, live: OpenTable, chat: ChatRow) -> Moved:
        await self.host.show(live, chat, ResultShown(live.row.deal_no, current=False))
        await self.host.show(live, chat, DealRetired(live.row.deal_no))
        await self._deal(live, chat)
        return Moved.IN_PLAY

    def position(self, live: OpenTable) -> object | None:
        return toy_deal(live)

    def knowledge(self, live: OpenTable, seat: int) -> Any:
        return toy_deal(live).hands[seat]

    def default(self, live: OpenTable) -> Any:
        deal = toy_deal(live)
        return None if deal.to_act is None else (deal.to_act, deal.hands[deal.to_act][0])

    async def move(
        self, live: OpenTable, action: Any, *, auto: bool, note: tuple[str, str] | None = None
    ) -> Moved:
        seat, card = action
        try:
            new = toy_deal(live).apply(seat, card)
        except ValueError as exc:
            raise Refusal("err.illegal", rule="T1") from exc
        winner = _winner(new) if new.finished else None
        moves = []
        if winner is not None:
            moves = [
                Movement(live.deal_seats[winner], 1, GAME),
                Movement(live.deal_seats[1 - winner], -1, GAME),
            ]
        stepped = Stepped(
            new.to_record(), deadline=live.row.deadline, chips=moves, finished=new.finished
        )
        await self.host.store(live, stepped)
        live.play = ToyPlay(new)
        chat = await self.host.storage.chats.chat(live.row.chat_id)
        await self._show(live, chat)
        return Moved.DEAL_OVER if new.finished else Moved.IN_PLAY

    async def stop(self, live: OpenTable, chat: ChatRow) -> bool:
        voided = live.in_deal and live.deal_id is not None
        await self.host.store(live, Voided() if voided else RowOnly())
        # its messages shown for the last time: no move to make
        await self._show(live, chat, DealShown(toy_deal(live), live.row.deal_no, closing=True))
        return voided

    def seat_view(self, live: OpenTable, seat: int) -> Any:
        return toy_deal(live).hands[seat]

    def public_view(self, live: OpenTable) -> Any:
        return toy_deal(live).won

    def screen(
        self, live: OpenTable, seat: int | None, lang: str, balances: Mapping[int, int]
    ) -> s.Screen | None:
        """The deal as `seat` sees it, from the pieces every game's screen is made of."""
        deal = toy_deal(live)
        mine = seat is not None and deal.to_act == seat
        presses = {}
        if mine and seat is not None:
            step = (live.row.table_id, live.row.deal_no, live.step)
            presses = {c: callbacks.encode("a", *step, str(c)) for c in deal.hands[seat]}
        seats = tuple(
            s.Seat(
                *who(live, i, deal.players[i], balances),
                cards=len(deal.hands[i]),
                tricks=deal.won[i],
                word=None,
                dealer=False,
                out=False,
                figures=(),
            )
            for i in range(2)
        )
        winner = _winner(deal) if deal.finished else None
        result = None
        if deal.finished:
            result = s.Result(
                head=_outcome_said(lang, deal.to_record()),
                seats=tuple(
                    s.ResultSeat(
                        seat=i,
                        name=deal.players[i],
                        delta=None if winner is None else signed(1 if i == winner else -1),
                        reasons=(),
                        total=None,
                    )
                    for i in range(2)
                ),
                foot=None,
            )
        return s.Screen(
            phase="over" if deal.finished else "play",
            mover=deal.to_act,
            seats=seats,
            trump=None,
            trick=s.trick([Play(i, c) for i, c in deal.trick], lang),
            last_trick=_last_trick(deal, lang),
            hand=s.hand(deal.hands[seat], presses, lang) if seat is not None else None,
            choices=(),
            question=(
                self.ui.said(lang, "to_play", name=short(deal.players[deal.to_act]))
                if deal.to_act is not None
                else self.ui.said(lang, "over")
            ),
            result=result,
            finished=deal.finished,
        )

    def shown_screen(
        self, live: OpenTable, shown: DealShown, seat: int | None, lang: str
    ) -> s.Screen:
        seen = self.screen(live, seat, lang, {})
        assert seen is not None
        return seen

    async def _show(self, live: OpenTable, chat: ChatRow, shown: DealShown | None = None) -> None:
        """The deal's messages (its table message is never the current one: no ways in)."""
        shown = shown or DealShown(toy_deal(live), live.row.deal_no, current=False)
        await self.host.show(live, chat, shown)


class ToyChat(NoSheet):
    """How the chat draws the toy game's tables."""

    def __init__(self, ui: ToyUI, bot_username: str) -> None:
        self.ui = ui

    def table_message(
        self, live: OpenTable, chat: ChatRow, shown: DealShown, seen: s.Screen
    ) -> Rendered:
        deal = toy_deal(live)
        tricks = ", ".join(f"{name(p)} {n}" for p, n in zip(deal.players, deal.won, strict=True))
        lines = [self.ui.text(chat.lang, "table", deal_no=shown.deal_no, tricks=tricks)]
        if deal.to_act is None:
            lines.append(self.ui.text(chat.lang, "over"))
        else:
            lines.append(self.ui.text(chat.lang, "to_play", name=name(deal.players[deal.to_act])))
        return Rendered("\n".join(lines))

    def hand_message(
        self, live: OpenTable, chat: ChatRow, shown: DealShown, seen: s.Screen, seat: int,
        lang: str,
    ) -> Rendered:  # fmt: skip
        deal = toy_deal(live)
        text = self.ui.text(lang, "hand", cards=cards_text(deal.hands[seat], lang) or "—")
        moving = not shown.closing and deal.to_act == seat
        rows = []
        if moving:
            buttons = [
                Choice(
                    card_label(card, lang),
                    callbacks.encode(
                        "a", live.row.table_id, live.row.deal_no, live.step, str(card)
                    ),
                )
                for card in deal.hands[seat]
            ]
            rows.append(buttons)
        elif not shown.closing:
            text += "\n" + self.ui.text(lang, "wait")
        return Rendered(text, rows)

    async def result_message(
        self, live: OpenTable, chat: ChatRow, shown: ResultShown, balances: Mapping[int, int]
    ) -> Rendered:
        deal = toy_deal(live)
        what = _outcome(chat.lang, deal.to_record())
        text = self.ui.text(chat.lang, "result", deal_no=shown.deal_no, winner=what)
        rows = [[next_deal_choice(chat.lang, live.row.table_id, shown.deal_no)]]
        return Rendered(text, rows if shown.offer_next else ())


def register(monkeypatch: Any) -> None:
    """The toy game registered (its one registry line) until the test that asks ends
    (`monkeypatch` undoes it), its catalog section added through locales' public call."""
    from bot import games

    locales.add_messages(WORDS)  # its section, kept: no other game reads "toy." keys
    monkeypatch.setattr(games, "REGISTRY", dict(games.REGISTRY))
    monkeypatch.setattr(games, "KINDS", dict(games.KINDS))
    monkeypatch.setattr(games, "ORDER", games.ORDER)
    monkeypatch.setattr(games, "DRAWINGS", dict(games.DRAWINGS))
    games.register(UI, ToyTables, ToyChat)
