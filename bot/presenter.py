"""Keeps messages up to date: each "slot" (the lobby, a table, a player's hand) is one message,
posted once and then edited with only the latest content (coalesced, never an identical edit)."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import timedelta

from telegram.error import (
    BadRequest,
    ChatMigrated,
    Forbidden,
    NetworkError,
    RetryAfter,
    TimedOut,
)

from .client.api import FrapBot
from .client.cutoff import Cutoff, ShuttingDown
from .client.ratelimit import SendLimiter
from .storage import Storage, StorageUnavailable
from .view.message import Rendered

log = logging.getLogger(__name__)

ForbiddenHandler = Callable[[int], Awaitable[None]]
MigratedHandler = Callable[[int, int], Awaitable[None]]
_GONE = ("message to edit not found", "message can't be edited", "message_id_invalid")
_MUTED = "not enough rights to send"  # a 400: the bot stays in the group but may not write
# Telegram errors (429, 5xx, network) are waited out: a slot keeps trying until its
# latest content is shown, a one-off message for about a minute; never longer than _PAUSE_CAP
# between tries (or what a 429's retry_after asks).
_POST_RETRIES = 15
_SAVE_EVERY = 0.5  # seconds between batched digest writes
_PAUSE_CAP = 5.0


@dataclass
class _Slot:
    name: str
    chat_id: int
    message_id: int | None = None
    shown: str | None = None  # digest of what the message shows
    wanted: Rendered | None = None
    task: asyncio.Task[None] | None = None
    retired: bool = False  # dropped once it shows its latest content
    renew: bool = False  # post the content as a new message (it notifies), delete the old one
    renew_if_spare: bool = False  # …only if Telegram's budget spares a message (a turn ping)


class Presenter:
    """Sends and edits the bot's messages; the game service only says what each slot should show."""

    def __init__(self, bot: FrapBot, storage: Storage, cutoff: Cutoff | None = None) -> None:
        self.bot = bot
        self.storage = storage
        # the shutdown's cut-off (bot/client/cutoff.py): no retry after it, and no wait for one
        self.cutoff = cutoff
        self._slots: dict[str, _Slot] = {}
        self.on_forbidden: ForbiddenHandler | None = None
        # A group that became a supergroup (told by a ChatMigrated error), and a group
        # the bot was removed from or may not write to. Both handlers take the chat's lock, and
        # the presenter may be sending under it: they run as tasks of their own.
        self.on_migrated: MigratedHandler | None = None
        self.on_removed: ForbiddenHandler | None = None
        self.moves: dict[int, int] = {}  # old group id → supergroup id
        self._background: set[asyncio.Task[None]] = set()
        # Digests of edited messages are written in batches (one write per action, not
        # one per message); a new message's id is written at once, so it is never posted twice.
        self._unsaved: dict[str, tuple[str, int, int, str]] = {}
        self._dropped: set[str] = set()  # retired slots whose rows are still stored
        # renewed slots' old messages, deleted once the new ids are stored (a full disk)
        self._orphans: list[tuple[int, int]] = []
        self._saver: asyncio.Task[None] | None = None
        self._posts: dict[int, int] = {}  # the bot's last message in each chat, as stored
        self.renewals_skipped = 0  # pings sent as edits: Telegram's budget was spent
        self._back = asyncio.Event()  # set when Telegram answers again after trouble
        self._answers = 0  # how many times it did (a try's pause compares with its start)

    async def load(self) -> None:
        """Remember the messages shown before a restart, so they are edited, not re-posted."""
        for name, (chat_id, message_id, digest) in (
            await self.storage.messages.message_slots()
        ).items():
            self._slots[name] = _Slot(name, chat_id, message_id, digest)
        self._posts = await self.storage.messages.last_posts()
        shown = [(s.chat_id, s.message_id) for s in self._slots.values() if s.message_id]
        self.bot.recall(self._posts, shown)
        self.moves.update(self.storage.chats.moves)

    def where(self, chat_id: int) -> int:
        """The chat's id now (a group that became a supergroup has a new one)."""
        return self.moves.get(chat_id, chat_id)

    def message_id(self, name: str) -> int | None:
        """The message that shows a slot, if posted."""
        slot = self._slots.get(name)
        return slot.message_id if slot else None

    def show(
        self,
        name: str,
        chat_id: int,
        content: Rendered,
        *,
        renew: bool = False,
        if_spare: bool = False,
    ) -> None:
        """Make slot `name` show `content`: post it the first time, edit it later (a slot moved
        to another chat, a group's new supergroup, is posted there anew); `renew`: post it again
        at the bottom of the chat and delete the old message, because Telegram notifies of new
        messages only (a turn ping); `if_spare`: only if Telegram's budget of new
        messages spares one now, else edit it."""
        chat_id = self.where(chat_id)
        slot = self._slots.get(name)
        if slot is None or self.where(slot.chat_id) != chat_id:
            slot = self._slots[name] = _Slot(name, chat_id)
            self._dropped.discard(name)
        slot.wanted = content
        if renew and slot.message_id is not None:
            slot.renew_if_spare = if_spare if not slot.renew else slot.renew_if_spare and if_spare
            slot.renew = True
        if slot.task is None or slot.task.done():
            slot.task = asyncio.create_task(self._run(slot), name=f"slot {name}")

    def retire(self, *names: str) -> None:
        """Stop tracking these slots (a name ending in ':' stands for every slot it begins) as
        soon as each shows its latest content: their messages stay as they are, and neither
        memory nor the database keeps a row per message of every deal ever played."""
        for slot in [
            slot
            for name, slot in self._slots.items()
            if any(name == n or (n.endswith(":") and name.startswith(n)) for n in names)
        ]:
            slot.retired = True
            if slot.task is None or slot.task.done():
                self._drop(slot)

    def _drop(self, slot: _Slot) -> None:
        if self._slots.get(slot.name) is slot:
            del self._slots[slot.name]
            self._unsaved.pop(slot.name, None)
            self._dropped.add(slot.name)
            self._save_soon()

    async def forget(self, name: str) -> None:
        """Stop tracking slot `name` now (after its update in flight): its next `show` posts a
        new message."""
        slot = self._slots.pop(name, None)
        if slot is not None and slot.task is not None:
            await asyncio.gather(slot.task, return_exceptions=True)
        self._unsaved.pop(name, None)
        self._dropped.discard(name)
        await self.storage.messages.remember_messages([], forget=[name])

    async def flush(self) -> None:
        """Wait until every slot shows its latest content (or gave up), a chat's migration or
        removal it found included."""
        while tasks := [
            *(s.task for s in self._slots.values() if s.task and not s.task.done()),
            *self._background,
            *self.bot.sweeps,  # duplicates of sends whose answers were lost (bot/client/api.py)
        ]:
            await asyncio.gather(*tasks, return_exceptions=True)

    async def close(self, timeout: float) -> None:
        """At shutdown: flush, but stop trying after `timeout` seconds (Telegram may be down);
        then store every digest, so a restart edits nothing that is already shown."""
        try:
            await asyncio.wait_for(self.flush(), timeout)
        except TimeoutError:
            log.warning("shutting down with messages not yet updated")
            for slot in self._slots.values():
                if slot.task is not None:
                    slot.task.cancel()
            await asyncio.gather(
                *(s.task for s in self._slots.values() if s.task), return_exceptions=True
            )
        await asyncio.gather(*self._background, return_exceptions=True)
        if self._saver is not None:  # a batch it was writing is kept for this last save
            self._saver.cancel()
            await asyncio.gather(self._saver, return_exceptions=True)
        await self.save()

    async def post(
        self, chat_id: int, content: Rendered, *, reply_to: int | None = None
    ) -> int | None:
        """Post a one-off message (retrying network trouble): its id, or None if it could not be
        delivered. `reply_to`: the message it answers (sent even if that one is gone)."""
        chat_id = self.where(chat_id)
        for attempt in range(1, _POST_RETRIES + 2):
            answers = self._answers
            try:
                if content.photo is not None:
                    posted = await self.bot.post_photo(
                        chat_id, content.photo, content.text, content.rows
                    )
                else:
                    posted = await self.bot.post_text(
                        chat_id, content.text, content.keyboard, reply_to=reply_to
                    )
                self._save_soon()  # the chat's last post, stored with the next batch
                return posted
            except ChatMigrated as exc:  # the message it answers stayed in the old group
                chat_id, reply_to = self.migrated(chat_id, exc.new_chat_id), None
            except Forbidden:
                await self._forbidden(chat_id)
                return None
            except BadRequest as exc:
                log.warning("could not post to %s: %s", chat_id, exc)
                if _MUTED in exc.message.lower():
                    self._removed(chat_id)
                return None
            except ShuttingDown:  # counted for the shutdown's summary
                return None
            except (TimedOut, NetworkError, RetryAfter) as exc:
                if attempt > _POST_RETRIES:
                    log.error("could not post to %s: %s", chat_id, exc)
                    return None
                woken = None if isinstance(exc, RetryAfter) else answers
                await self._pause(_pause(exc, attempt), woken=woken)
        return None

    async def _run(self, slot: _Slot) -> None:
        try:
            await self._update(slot)
        finally:
            if slot.retired:
                self._drop(slot)

    async def _update(self, slot: _Slot) -> None:
        failures = 0
        while slot.wanted is not None and (
            slot.wanted.digest != slot.shown
            or slot.renew
            or self.where(slot.chat_id) != slot.chat_id
        ):
            if self.where(slot.chat_id) != slot.chat_id:  # the group became a supergroup: the
                slot.chat_id = self.where(slot.chat_id)  # old message stays, a new one is
                slot.message_id, slot.shown = None, None  # posted in the supergroup
            content = slot.wanted
            answers = self._answers
            try:
                await self._send(slot, content)
                failures = 0
            except BadRequest as exc:
                text = exc.message.lower()
                if "not modified" in text:
                    slot.shown = content.digest
                elif any(gone in text for gone in _GONE):
                    slot.message_id, slot.shown = None, None  # deleted: post it again
                else:
                    log.error("slot %s: %s", slot.name, exc)
                    if _MUTED in text:
                        self._removed(slot.chat_id)
                    return
            except ChatMigrated as exc:  # the loop posts it in the supergroup
                self.migrated(slot.chat_id, exc.new_chat_id)
            except Forbidden:
                await self._forbidden(slot.chat_id)
                return
            except ShuttingDown:  # the message keeps what it shows (the summary counts it)
                return
            except (TimedOut, NetworkError, RetryAfter) as exc:
                failures += 1  # no giving up: the message must end up showing the latest state
                # no line per try: bot.metrics.Telegram says once that Telegram is down
                log.debug("slot %s: %s (try %d)", slot.name, exc, failures)
                woken = None if isinstance(exc, RetryAfter) else answers
                await self._pause(_pause(exc, failures), woken=woken)

    async def _pause(self, seconds: float, *, woken: int | None) -> None:
        """The wait before trying again: cut short by the shutdown's cut-off, after which the
        next try fails at once and ends the loop; and, unless `woken` is None, by Telegram
        answering again (after an outage every message shows the latest state at once, not
        after its back-off; a 429's pause is Telegram's own and is not cut). `woken`: how many
        times Telegram had answered again when the failed try began; if it has since, while
        that try was under way, there is no wait at all."""
        if woken is not None and woken != self._answers:
            return
        sleep = asyncio.sleep(seconds) if self.cutoff is None else self.cutoff.sleep(seconds)
        if woken is None:
            await sleep
            return
        waits = [asyncio.ensure_future(sleep), asyncio.ensure_future(self._back.wait())]
        try:
            await asyncio.wait(waits, return_when=asyncio.FIRST_COMPLETED)
        finally:
            for wait in waits:
                wait.cancel()

    def wake(self) -> None:
        """Telegram answers again: the tries waiting out a back-off go now."""
        self._answers += 1
        self._back.set()
        self._back = asyncio.Event()

    async def _send(self, slot: _Slot, content: Rendered) -> None:
        old = slot.message_id if slot.renew else None
        if old is not None and slot.renew_if_spare and not await self._spare():
            # a busy bot: an edit now beats a notification after a queue of new messages
            old, slot.renew = None, False
            self.renewals_skipped += 1
        posted = slot.message_id is None or old is not None
        if content.photo is not None:  # a photo's slot: posted once, then its media edited
            if old is not None:
                slot.message_id = None  # posted anew at the bottom, the old one deleted
            slot.message_id = await self._send_photo(slot, content, content.photo)
            slot.renew = False
        elif posted:
            slot.message_id = await self.bot.post_text(slot.chat_id, content.text, content.keyboard)
            slot.renew = False
        else:
            assert slot.message_id is not None
            await self.bot.edit_text(slot.chat_id, slot.message_id, content.text, content.keyboard)
        slot.shown = content.digest
        row = (slot.name, slot.chat_id, slot.message_id, content.digest)
        if posted:
            # A new message's id is written at once, so that it is never posted twice; a
            # renewed slot's before its old message is deleted, so that a restart never edits
            # a message the bot deleted itself.
            self._unsaved.pop(slot.name, None)
            try:
                await self._remember([row])
            except StorageUnavailable:  # the disk is full: written when it takes it again,
                self._unsaved[slot.name] = row  # and only then is the old message deleted
                self._save_soon()
                if old is not None:
                    self._orphans.append((slot.chat_id, old))
                    old = None
        else:  # an edit: written with the next batch
            self._unsaved[slot.name] = row
            self._save_soon()
        if old is not None:  # in the background: the slot's next content need not wait for it
            self._soon(self._delete(slot.chat_id, old))

    async def _spare(self) -> bool:
        limiter = self.bot.rate_limiter
        return not isinstance(limiter, SendLimiter) or await limiter.spare()

    async def _delete(self, chat_id: int, message_id: int) -> None:
        """Delete a message the slot no longer shows; one that cannot go (Telegram lets a bot
        delete only messages younger than 48 hours) loses its buttons instead."""
        try:
            await self.bot.delete_message(chat_id, message_id)
            return
        except BadRequest as exc:
            log.info("message %s/%s not deleted: %s", chat_id, message_id, exc)
            if "not found" in exc.message.lower():
                return  # deleted already (the player cleared the chat)
        except (Forbidden, TimedOut, NetworkError, RetryAfter, ShuttingDown) as exc:
            log.info("message %s/%s not deleted: %s", chat_id, message_id, exc)
            return
        try:
            await self.bot.edit_message_reply_markup(chat_id, message_id, reply_markup=None)
        except (BadRequest, Forbidden, TimedOut, NetworkError, RetryAfter) as exc:
            log.info("message %s/%s keeps its buttons: %s", chat_id, message_id, exc)

    async def _send_photo(self, slot: _Slot, content: Rendered, photo: bytes) -> int:
        """The slot's photo message posted, or its media and caption edited: its id."""
        if slot.message_id is None:
            return await self.bot.post_photo(slot.chat_id, photo, content.text, content.rows)
        await self.bot.edit_photo(slot.chat_id, slot.message_id, photo, content.text, content.rows)
        return slot.message_id

    def _save_soon(self) -> None:
        """Write what changed in the next moment (digests edited, slots retired) together."""
        if self._saver is None or self._saver.done():
            self._saver = asyncio.create_task(self._save_later(), name="presenter saver")

    async def _save_later(self) -> None:
        await asyncio.sleep(_SAVE_EVERY)
        await self.save()

    def _save_later_again(self) -> None:
        """After a failed batch: another try in a while (the running saver is this one)."""
        self._saver = asyncio.create_task(self._save_later(), name="presenter saver")

    async def save(self) -> None:
        """Write every digest not yet stored, and forget the retired slots: one transaction."""
        rows, self._unsaved = list(self._unsaved.values()), {}
        dropped, self._dropped = sorted(self._dropped), set()
        orphans, self._orphans = self._orphans, []
        posts = self._new_posts()
        if rows or dropped or posts:
            try:
                await self._remember(rows, forget=dropped, posts=posts)
            except StorageUnavailable as exc:  # kept for the next batch
                log.debug("message ids not saved: %s", exc)
                self._keep(rows, dropped, orphans)
                self._save_later_again()
                return
            except asyncio.CancelledError:  # shutdown stopped the batch: `close` writes it
                self._keep(rows, dropped, orphans)
                raise
        for chat_id, message_id in orphans:  # the new ids are stored: the old messages go
            self._soon(self._delete(chat_id, message_id))

    async def _remember(
        self,
        rows: list[tuple[str, int, int, str]],
        forget: list[str] | None = None,
        posts: dict[int, int] | None = None,
    ) -> None:
        """Store these slots' messages and forget those, with the chats' last posts not yet
        stored (`posts`, if already found)."""
        posts = self._new_posts() if posts is None else posts
        await self.storage.messages.remember_messages(rows, forget=forget or [], posts=posts)
        self._posts.update(posts)

    def _new_posts(self) -> dict[int, int]:
        """The chats whose last post is not the one stored."""
        return {c: m for c, m in self.bot.last_posts.items() if self._posts.get(c) != m}

    def _keep(
        self,
        rows: list[tuple[str, int, int, str]],
        dropped: list[str],
        orphans: list[tuple[int, int]],
    ) -> None:
        """A batch that was not written goes back to wait for the next one (a newer digest of
        the same slot, taken meanwhile, wins), and the old messages waiting on it with it."""
        for row in rows:
            self._unsaved.setdefault(row[0], row)
        self._dropped.update(n for n in dropped if n not in self._slots)
        self._orphans[:0] = orphans

    async def _forbidden(self, chat_id: int) -> None:
        if chat_id > 0 and self.on_forbidden is not None:
            await self.on_forbidden(chat_id)
        elif chat_id < 0:  # "bot was kicked from the group chat", "bot is not a member"
            self._removed(chat_id)

    def migrated(self, old_id: int, new_id: int) -> int:
        """Telegram said group `old_id` is supergroup `new_id` now: send there from now on, and
        have the service move the chat (once per run; the move itself is idempotent)."""
        if self.moves.get(old_id) != new_id:
            log.info("chat %s became supergroup %s", old_id, new_id)
            self.moves[old_id] = new_id
            if self.on_migrated is not None:
                self._soon(self.on_migrated(old_id, new_id))
        return new_id

    def _removed(self, chat_id: int) -> None:
        if self.on_removed is not None:
            self._soon(self.on_removed(chat_id))

    def _soon(self, job: Awaitable[None]) -> None:
        task = asyncio.create_task(_logged(job), name="presenter signal")
        self._background.add(task)
        task.add_done_callback(self._background.discard)


async def _logged(job: Awaitable[None]) -> None:
    """Run a job nobody awaits; its failure is logged, not lost."""
    try:
        await job
    except Exception:
        log.exception("handling a chat's migration or removal failed")


def _pause(exc: Exception, attempt: int) -> float:
    """How long to wait before trying again: Telegram's retry_after, else exponential backoff."""
    if isinstance(exc, RetryAfter):
        wait = exc.retry_after
        return float(wait.total_seconds() if isinstance(wait, timedelta) else wait)
    return min(_PAUSE_CAP, 0.5 * 2.0 ** (attempt - 1))
