"""A finished deal's review: /review [N] and the "Review" button under a deal's result
(bot/chat/review.py works it out and words it), and its "play again" buttons."""

from __future__ import annotations

import asyncio
from datetime import UTC, tzinfo
from weakref import WeakValueDictionary

from telegram import Message, Update

from locales import t

from .. import computer
from ..callbacks import Press
from ..chat import review
from ..service import GameService, Refusal
from ..storage import DealRow
from ..view.message import Rendered
from .common import IN_CHAT, Chats, Command, Common, Context, Pressed, is_id


class Reviews(Common):
    """/review and its button."""

    def __init__(self, service: GameService, chats: Chats, time_zone: tzinfo = UTC) -> None:
        super().__init__(service, chats, time_zone)
        # a lock per deal whose review is being posted by its button: held while it is looked up
        # and posted, so presses at once post it once (a lock lives while someone holds it)
        self._posting: WeakValueDictionary[int, asyncio.Lock] = WeakValueDictionary()

    def commands(self) -> dict[str, Command]:
        """Its group command by name."""
        return self._commands(self.review)

    async def review(self, update: Update, context: Context, message: Message, lang: str) -> None:
        """/review: the review of the chat's last deal; /review <number>: of that deal (the
        numbers /history shows)."""
        args = context.args or []
        if len(args) > 1 or (args and not is_id(args[0])):
            await self._reply(message, t(lang, "usage.review"))
            return
        wanted = int(args[0]) if args else None
        found = await self.storage.history.numbered_deals(message.chat_id, number=wanted)
        if not found:
            await self._reply(message, t(lang, "history.no_such"))
            return
        ((number, deal),) = found
        await self._reply(message, await self._text(deal, number, lang), review.again(lang, deal))

    async def review_press(self, pressed: Pressed, press: Press, chat_id: int) -> None:
        """r: the button under a deal's result (it names the deal): the review is posted under
        the result, for the players of the deal and the members of its chat only, and once: a
        later press is told it is in the chat already."""
        deal = await self.storage.history.finished_deal(press.table_id)
        if deal is None:
            raise Refusal("err.stale")
        if deal.chat_id != chat_id or not await self._may_see(deal, pressed.user.user_id):
            raise Refusal("review.refused")
        number = await self.storage.history.deal_number(deal)
        lock = self._posting.setdefault(deal.deal_id, asyncio.Lock())
        async with lock:
            if await self.storage.history.review_message(deal.deal_id) is not None:
                raise Refusal("review.posted", number=number)
            chat = await self.storage.chats.chat(chat_id)
            text = await self._text(deal, number, chat.lang)
            posted = await self.service.presenter.post(
                chat_id,
                Rendered(text, review.again(chat.lang, deal)),
                reply_to=pressed.message_id or None,
            )
            if posted is not None:  # not delivered: the next press tries again
                await self.storage.history.save_review_message(deal.deal_id, posted)

    async def replay_press(self, pressed: Pressed, press: Press, chat_id: int) -> None:
        """p: a player of the deal plays it again in his private chat, from his seat, against
        computer players of the level pressed (a practice table: his practice chips)."""
        deal = await self.storage.history.finished_deal(press.table_id)
        if deal is None:
            raise Refusal("err.stale")
        user = pressed.user
        if deal.chat_id != chat_id or user.user_id not in deal.seats:
            raise Refusal("review.replay_refused")
        lang = await self.service.user_lang(user.user_id, user.language_code)
        level = computer.ORDER[int(press.code)]
        await self.service.replay(user, deal, level, t(lang, "practice.title"))

    async def _text(self, deal: DealRow, number: int, lang: str) -> str:
        worked = await review.review_of(self.storage, self.service.computers, deal)
        return review.message(lang, worked, number)

    async def _may_see(self, deal: DealRow, user_id: int) -> bool:
        """A player of the deal, or a member of its chat."""
        if user_id in deal.seats or deal.chat_id == user_id:
            return True
        return await self.chats.status(deal.chat_id, user_id) in IN_CHAT
