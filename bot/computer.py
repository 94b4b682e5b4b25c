"""Computer players at the bot's tables: who they are and how their moves are made.

A computer seat is a player with a negative id (Telegram's user ids are positive, and 0 is the
evening summary's pot): `-(100 · level + k)`, level 1–3 in `engine.ai.LEVELS`'s order and k its
number at a table. It owns a balance and ledger rows in each chat like anyone, and is never sent
a private message. Its move is chosen from what its seat may know (`engine.knowledge`) and the
legal actions, never from the deal itself (a match of many deals, a Preferans pulya, gives its
seat's knowledge through its kind of table, `GameKind.knowledge`): the strong level's search
runs in a worker process (at most `workers` at once; or, with a broker, on the workers behind it:
bot/remote.py), the cheap levels on the event loop; the move is applied after a human-like pause,
counted from the moment the move passed to it, under the chat's lock.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import multiprocessing
import os
import random
from collections.abc import Awaitable, Callable, Iterable
from concurrent.futures import Executor, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, overload

from engine.actions import Action, Do
from engine.ai import LEVELS, Knowledge, PrefKnowledge, rules_player
from engine.errors import IllegalAction
from engine.games import GAMES
from engine.preferans.actions import PrefAction
from locales import t

from . import metrics
from .storage import RETRY_AFTER, StorageUnavailable

if TYPE_CHECKING:
    from taskiq_redis import ListQueueBroker

    from .remote import Remote

log = logging.getLogger(__name__)

ORDER = tuple(LEVELS)  # random, rules, strong: the lobby's buttons, and the ids' level digit
SPAN = 100  # computer seats of one level at a table: k < SPAN
SEARCHING = frozenset({"strong"})  # the levels that think in a worker process
MARK = "🤖"
PRACTICE_LEVEL = "rules"  # seated at a new practice table (as many as its game's UI says)
WORKER_NICENESS = 5  # the search processes' lower priority than the bot's own

Seen = Knowledge | PrefKnowledge  # what a seat may know: of a deal of the Frap family, of Preferans
Move = Action | PrefAction
# A computer player's move: (table id, the position it was thought for, its action).
Apply = Callable[[int, Any, Move], Awaitable[None]]


def seat_id(level: str, k: int) -> int:
    """The id of computer player number `k` (from 1) of a level."""
    return -((ORDER.index(level) + 1) * SPAN + k)


def is_computer(user_id: int) -> bool:
    """Whether a seat is a computer player (a Telegram user id never is negative)."""
    return user_id < 0


def people(user_ids: Iterable[int]) -> list[int]:
    """The seats that are people, not computer players."""
    return [uid for uid in user_ids if not is_computer(uid)]


def level_of(user_id: int) -> str:
    """The level a computer player plays at."""
    return ORDER[-user_id // SPAN - 1]


def name(lang: str, user_id: int) -> str:
    """Its name at the table: the mark, the level's name, and its number from the second on."""
    k = -user_id % SPAN
    word = t(lang, f"computer.level.{level_of(user_id)}")
    return f"{MARK} {word}" + (f" {k}" if k > 1 else "")


def next_seat(level: str, seats: Iterable[int]) -> int:
    """The id for one more computer player of a level at a table with these seats."""
    taken = set(seats)
    return next(seat_id(level, k) for k in range(1, SPAN) if seat_id(level, k) not in taken)


def plays(game: str) -> bool:
    """Whether a registered game gets computer seats: the engine has computer players for it
    (every game of the engine's registry has them)."""
    return game in GAMES


@overload
def stand_in(knowledge: Knowledge) -> Action: ...
@overload
def stand_in(knowledge: PrefKnowledge) -> PrefAction: ...
def stand_in(knowledge: Seen) -> Move:
    """The move for a player who is away: the rules level on his seat's knowledge (instead
    of the plain safe default)."""
    return rules_player(knowledge, random.Random())


def decide(knowledge: Seen, level: str, seed: int) -> Move:
    """A level's move: a pure function of what the seat may know, the level and the seed, the
    same wherever it runs (a worker process of the bot's, a worker on another machine)."""
    return LEVELS[level](knowledge, random.Random(seed))


# What the remote workers run, by the short name a task gives (bot/remote.py): nothing else.
TASKS: dict[str, Callable[..., Any]] = {"decide": decide}


def worker_broker() -> ListQueueBroker:
    """`python -m bot worker`'s broker, running `TASKS` (taskiq imports it by name in each
    worker process)."""
    from .remote import worker_broker

    return worker_broker(TASKS)


class Unavailable(Exception):
    """A call got no value from a worker: the pool broke, or (remote) the broker or a worker
    failed, or the value came past the deadline."""


def cores() -> int:
    """The CPUs this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


@dataclass
class _Move:
    task: asyncio.Task[None]
    deal: object  # the position it is thought for (a deal: a new object after each step)
    applying: bool = False  # past the pause, under the chat's lock: never cancelled


class Computers:
    """Makes the computer players' moves: one pending move per table at most."""

    def __init__(
        self,
        apply: Apply,
        *,
        pause: tuple[float, float] = (1.0, 2.0),
        workers: int = 0,
        rng: random.Random | None = None,
        broker: str | None = None,
        deadline: float = 5.0,
        secret: str = "",
        queue_max: int = 64,
    ) -> None:
        self._apply = apply
        self.pause = pause
        self.workers = workers or cores()
        self.rng = rng or random.SystemRandom()
        self.deadline = deadline  # seconds a remote call waits (the local pool has none)
        self._pool: Executor | None = None
        self._remote: Remote | None = None
        if broker:  # the remote path's libraries are imported only when it is used
            from .remote import Remote

            self._remote = Remote(broker, secret, TASKS, queue_max)
        self._down_since: float | None = None  # when the workers last gave no move
        self._stand_ins = 0  # moves by the rules level since then
        self._moves: dict[int, _Move] = {}  # by table id
        self._tasks: set[asyncio.Task[None]] = set()  # every move not yet over (kept referenced)

    def schedule(
        self, table_id: int, deal: object, user_id: int, knowledge: Callable[[], Seen]
    ) -> None:
        """Think about the computer seat's move in `deal` (its turn now) from what the seat may
        know of it (`knowledge`, the engine's view) and make it after the pause; a move pending
        at this table for an earlier deal is dropped, one for this very deal goes on (the
        table's timer is re-armed for many reasons)."""
        pending = self._moves.get(table_id)
        if pending is not None and pending.deal is deal:
            return
        self.cancel(table_id)
        level = level_of(user_id)
        seen = knowledge()  # all the player is given: nothing hidden
        task = asyncio.create_task(self._move(table_id, deal, seen, level), name=f"ai {table_id}")
        move = self._moves[table_id] = _Move(task, deal)
        self._tasks.add(task)
        task.add_done_callback(lambda _: self._done(table_id, move))

    def cancel(self, table_id: int) -> None:
        """Drop the table's pending move (unless it is being applied now: that one has the
        chat's lock and checks the deal it was thought for)."""
        move = self._moves.get(table_id)
        if move is not None and not move.applying:
            move.task.cancel()
            del self._moves[table_id]

    def _done(self, table_id: int, move: _Move) -> None:
        self._tasks.discard(move.task)
        if self._moves.get(table_id) is move:
            del self._moves[table_id]
        if not move.task.cancelled() and move.task.exception() is not None:
            log.error("table %s: a computer move failed", table_id, exc_info=move.task.exception())

    async def _move(self, table_id: int, deal: object, knowledge: Seen, level: str) -> None:
        loop = asyncio.get_running_loop()
        started = loop.time()
        action = await self.choose(knowledge, level)
        metrics.COMPUTER_MOVE_SECONDS.labels(level).observe(loop.time() - started)
        if action.do is not Do.LOOK:  # F7: opening one's cards is no move to wait for
            await asyncio.sleep(max(0.0, self.rng.uniform(*self.pause) - (loop.time() - started)))
        move = self._moves.get(table_id)
        if move is not None and move.task is asyncio.current_task():
            move.applying = True
        while True:
            try:
                await self._apply(table_id, deal, action)
                return
            except StorageUnavailable as exc:  # again once the database takes it
                log.warning("table %s: computer move not saved (%s); trying again", table_id, exc)
                await asyncio.sleep(RETRY_AFTER)
            except IllegalAction as exc:  # whatever produced it: the rules level moves instead
                if action == (fallback := stand_in(knowledge)):
                    raise
                metrics.REMOTE_REFUSED.labels("refused").inc()
                log.warning(
                    "table %s: computer move refused (%s); the rules level moves", table_id, exc
                )
                action = fallback

    async def choose(self, knowledge: Seen, level: str) -> Move:
        """The level's action for this knowledge; a search runs in a worker process (it is
        sent `decide`, the knowledge, the level and a seed: a worker imports only the engine
        and this module). When no worker gives it, the rules level's move, once."""
        seed = self.rng.getrandbits(64)
        if level not in SEARCHING or len(knowledge.legal) == 1:
            return decide(knowledge, level, seed)
        try:
            move: Move = await self.call(decide, knowledge, level, seed, seat=knowledge.seat)
        except Unavailable as exc:
            self._stand_in(str(exc))
            return rules_player(knowledge, random.Random(seed))
        if move not in knowledge.legal:  # a worker's word counts only when it is a legal action
            metrics.REMOTE_REFUSED.labels("illegal").inc()
            self._stand_in("an answer that is no legal action of the seat")
            return rules_player(knowledge, random.Random(seed))
        if self._down_since is not None:
            log.warning(
                "the computer players' workers answer again after %.0f s "
                "(moves by the rules level meanwhile: %d)",
                asyncio.get_running_loop().time() - self._down_since,
                self._stand_ins,
            )
            self._down_since, self._stand_ins = None, 0
        return move

    async def call(
        self, function: Callable[..., Any], *args: Any, seat: int, timeout: float = 0
    ) -> Any:
        """`function(*args)` for `seat` in a worker process: a pure module-level function of
        the engine (a decision), sent with its arguments to the bot's own pool or, with a
        broker, to its workers (by its name in `TASKS`: nothing else is run there),
        whose value must be back within `timeout` seconds (the deadline if 0). Unavailable when
        no worker gives it."""
        if self._remote is not None:
            from .remote import Failed  # imported with the remote path, never without it

            try:
                deadline = timeout or self.deadline
                return await self._remote.call(function, *args, seat=seat, timeout=deadline)
            except Failed as exc:
                raise Unavailable(str(exc)) from exc
        loop = asyncio.get_running_loop()
        try:
            return await loop.run_in_executor(self._executor(), function, *args)
        except BrokenProcessPool as exc:  # a worker died (killed, out of memory): a new pool
            self._pool = None
            raise Unavailable("the worker pool broke") from exc

    def _stand_in(self, why: str) -> None:
        """One line when the workers stop giving moves, one when they are back."""
        self._stand_ins += 1
        if self._down_since is None:
            self._down_since = asyncio.get_running_loop().time()
            log.warning(
                "the computer players' workers gave no move (%s); the rules level moves "
                "until they do",
                why,
            )

    async def work(self, function: Callable[..., Any], *args: Any) -> Any:
        """`function(*args)`, an engine function of plain data (a deal's review), in a worker
        process: the event loop never waits on a long search."""
        loop = asyncio.get_running_loop()
        try:
            return await loop.run_in_executor(self._executor(), function, *args)
        except BrokenProcessPool:  # a worker died: a new pool next time
            self._pool = None
            raise

    def _executor(self) -> Executor:
        if self._pool is None:  # forkserver: never fork the bot's threads (aiosqlite, HTTP)
            methods = multiprocessing.get_all_start_methods()
            context = multiprocessing.get_context("forkserver" if "forkserver" in methods else None)
            # a worker yields the CPU to the bot's event loop: a press is never slowed by a search
            nicer = functools.partial(os.nice, WORKER_NICENESS)
            self._pool = ProcessPoolExecutor(
                max_workers=self.workers, mp_context=context, initializer=nicer
            )
        return self._pool

    async def close(self) -> None:
        """Drop every pending move, wait for those being applied, stop the workers."""
        for table_id in list(self._moves):
            self.cancel(table_id)
        await asyncio.gather(*self._tasks, return_exceptions=True)
        if self._pool is not None:
            self._pool.shutdown(wait=True, cancel_futures=True)
            self._pool = None
        if self._remote is not None:
            await self._remote.close()
