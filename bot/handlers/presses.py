"""Button presses: one function, `Presses.handle_press`, turns a press (who, in which chat, the
button's data) into the service call and the answer; Telegram's callback query is only its
carrier (`button`), so a Mini App page sends its presses through the same path."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from datetime import UTC, tzinfo

from telegram import Update

from locales import t

from .. import callbacks
from ..callbacks import Kind, Press
from ..client.api import rows_of
from ..service import GameService, Refusal
from ..storage import StorageUnavailable
from .common import Chats, Common, Context, Pressed, answer, log, person


@dataclass(frozen=True, slots=True)
class Answer:
    """What a press is answered with: nothing (None), a short notice, or an alert; or `url`
    to open (the bot's private chat, for one who has not started it)."""

    text: str | None = None
    alert: bool = False
    url: str | None = None


# Refusals told in a toast: a button pressed twice, or after its moment passed, or a review
# already in the chat, needs no modal to be dismissed; the press simply did nothing.
QUIET = frozenset({"err.stale", "review.posted"})

# Seconds a press's handling may take before its callback query is answered without waiting
# for it: Telegram's client shows an error if the spinner turns for long, and the handling may
# wait on the group's budget of new messages (a review posted) for many seconds.
ANSWER_WITHIN = 0.7

# A press that needs no chat: the presser's own move (a/t, on the presser's private message).
AnywherePress = Callable[[int, Press], Awaitable[None]]
# A press on a chat's message: (the press, the decoded data, the chat's id).
ChatPress = Callable[[Pressed, Press, int], Awaitable[None]]


class Presses(Common):
    """The presses' router: each kind of button (callbacks.Kind) to its handler, which the
    other parts of the handlers hold (`Handlers` hands them over)."""

    def __init__(
        self,
        service: GameService,
        chats: Chats,
        time_zone: tzinfo = UTC,
        *,
        anywhere: Mapping[Kind, AnywherePress],
        in_chat: Mapping[Kind, ChatPress],
    ) -> None:
        super().__init__(service, chats, time_zone)
        self.anywhere = anywhere  # the presser's own moves
        self.in_chat = in_chat  # the presses on a chat's message

    async def handle_press(self, pressed: Pressed) -> Answer:
        """Decode a press, check who may press it, act, and say how to answer it: a refusal or a
        step the database did not take as an alert in the presser's language, but a button
        pressed twice, too late or forged (`QUIET`) as a toast; a press that worked with no
        text. Only neutral values come in: whoever carried the press, the chat's front end
        (`Common.chats`) answers who is an admin there and edits the message pressed on."""
        user = pressed.user
        lang = await self.service.user_lang(user.user_id, user.language_code)
        try:
            press = callbacks.decode(pressed.data)
            await self._route(pressed, press)
        except callbacks.BadCallback:
            log.debug("bad callback data from %s: %r", user.user_id, pressed.data)
            return Answer(t(lang, "err.stale"))  # as any button out of its place
        except Refusal as refusal:
            text = t(lang, refusal.key, **refusal.values)
            alert = refusal.url is None and refusal.key not in QUIET
            return Answer(text, alert=alert, url=refusal.url)
        except StorageUnavailable as exc:  # the step was not applied; say so
            log.warning("press of %s not saved: %s", user.user_id, exc)
            return Answer(t(lang, "err.not_saved"), alert=True)
        return Answer()

    async def _route(self, pressed: Pressed, press: Press) -> None:
        kind = Kind(press.kind)
        anywhere = self.anywhere.get(kind)
        if anywhere is not None:
            await anywhere(pressed.user.user_id, press)
            return
        if pressed.chat_id is None:
            raise Refusal("err.stale")
        await self.in_chat[kind](pressed, press, pressed.chat_id)

    async def button(self, update: Update, context: Context) -> None:
        """Every inline button: handled by `handle_press`, and always answered within a second:
        as the handling says if it is done by then, else at once with no text while it goes on
        (a refusal it then comes to changed nothing and is only logged)."""
        query = update.callback_query
        if query is None:
            return
        message = query.message
        pressed = Pressed(
            person(query.from_user),
            message.chat.id if message else None,
            query.data,
            message.message_id if message else 0,
            rows_of(getattr(message, "reply_markup", None)),
        )
        handling = asyncio.ensure_future(self.handle_press(pressed))
        try:
            await asyncio.wait({handling}, timeout=ANSWER_WITHIN)
            if handling.done():
                said = handling.result()
                await answer(query, said.text, alert=said.alert, url=said.url)
                return
            await answer(query, None)  # the spinner stops; the handling goes on
            said = await handling
        finally:
            handling.cancel()  # done by now, unless this handler itself was cancelled
        if said.text is not None:  # a refusal once answered: nothing was done, nothing to show
            log.info("press %r of %s refused after its answer: %s", pressed.data,
                     pressed.user.user_id, said.text)  # fmt: skip
