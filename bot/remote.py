"""The computer players' searches on other machines: taskiq tasks through a Redis broker.

With COMPUTER_BROKER set, `bot.computer.Computers.call` sends a named pure function and its
arguments (a Master's decision: `decide(knowledge, level, seed)`, a seat's knowledge only) as a
taskiq task to a Redis list; `python -m bot worker` (taskiq's worker, any number of processes, on
any machine reaching the broker) runs it and pushes the result on a list of the call's own, on
which the bot blocks (BLPOP): no polling. The bot sends the call and the wait as one pipeline: one
round trip to the broker per call. docs/computer-players.md says why taskiq, with the
figures of bench/remote_engines.py.

Two of taskiq's plug points are set here, nothing else: the messages are pickled as they are
(taskiq's own formatter turns a dataclass into a dict), and the result backend pushes instead of
storing a key to poll. A call that waits past its deadline is dropped by the bot (the caller
then moves by the rules level) and skipped by a worker that picks it up late; a result is read
at most once and expires. The broker must be reachable by the bot and its workers only: a task
is a pickle, which runs code when read.
"""

from __future__ import annotations

import asyncio
import importlib
import logging
import pickle
import time
import uuid
from collections.abc import AsyncGenerator, Callable
from typing import Any, cast

from redis.asyncio import BlockingConnectionPool, Redis
from redis.exceptions import RedisError
from taskiq import AsyncResultBackend, TaskiqFormatter, TaskiqMessage, TaskiqResult
from taskiq.exceptions import TaskiqError
from taskiq.message import BrokerMessage
from taskiq_redis import ListQueueBroker

from . import metrics

log = logging.getLogger(__name__)

QUEUE = "frap:calls"  # the broker's list of calls waiting for a worker
RESULT = "frap:result:"  # + a call's id: the list its result is pushed on
TASK = "frap.call"
WAITS = 2000  # calls waiting at once for their results, at most (Redis takes 10,000 clients)
CONNECT_TIMEOUT = 1.0  # seconds: a broker that is down is known at once, not at the deadline


class Failed(Exception):
    """No value from the workers: the broker or a worker failed (`bot.computer` takes it as
    its own `Unavailable`)."""


class Late(Failed):
    """No result by the deadline."""


def name_of(function: Callable[..., Any]) -> str:
    """A module-level function's name, as a worker imports it."""
    return f"{function.__module__}:{function.__qualname__}"


def resolve(name: str) -> Callable[..., Any]:
    module, _, attribute = name.partition(":")
    function: Callable[..., Any] = getattr(importlib.import_module(module), attribute)
    return function


async def _run(name: str, args: tuple[Any, ...], expires: float) -> tuple[Any, float] | None:
    """The task, in a worker: the function's value and its run time; None, not run, if it came
    past its deadline (its caller has moved on: the broker kept it while no worker was free or
    up). The worker's event loop waits meanwhile: a worker process runs one call at a time."""
    if time.time() > expires:
        log.warning("%s skipped: taken %.1f s past its deadline", name, time.time() - expires)
        return None
    started = time.perf_counter()
    value = resolve(name)(*args)
    return value, time.perf_counter() - started


class _Pickled(TaskiqFormatter):
    def dumps(self, message: TaskiqMessage) -> BrokerMessage:
        body = pickle.dumps(dict(message), protocol=pickle.HIGHEST_PROTOCOL)
        return BrokerMessage(
            task_id=message.task_id, task_name=message.task_name, message=body, labels={}
        )

    def loads(self, message: bytes) -> TaskiqMessage:
        return TaskiqMessage.model_construct(**pickle.loads(message))


class _Pushed(AsyncResultBackend[Any]):
    """Each result pushed on a list of its own, kept `keep` seconds; the caller blocks on it."""

    def __init__(self, url: str, keep: float) -> None:
        # A call waiting (BLPOP) holds a connection: as many connections as calls in flight, up
        # to WAITS (redis-py's own pool stops at 100 and then fails a call at once); past that a
        # call waits for a connection within its deadline. No read time-out: a wait is bounded
        # by its own, the caller's deadline.
        self.redis = Redis(
            connection_pool=BlockingConnectionPool.from_url(
                url,
                max_connections=WAITS,
                timeout=None,
                socket_connect_timeout=CONNECT_TIMEOUT,
                socket_timeout=None,
            )
        )
        self.keep_ms = max(1, int(keep * 1000))

    async def shutdown(self) -> None:
        await self.redis.aclose()

    async def set_result(self, task_id: str, result: TaskiqResult[Any]) -> None:
        key, body = RESULT + task_id, pickle.dumps(result, protocol=pickle.HIGHEST_PROTOCOL)
        async with self.redis.pipeline(transaction=True) as pipe:
            pipe.rpush(key, body)
            pipe.pexpire(key, self.keep_ms)
            await pipe.execute()

    async def is_result_ready(self, task_id: str) -> bool:
        return bool(await self.redis.exists(RESULT + task_id))

    async def get_result(self, task_id: str, with_logs: bool = False) -> TaskiqResult[Any]:
        body = await self.redis.lindex(RESULT + task_id, 0)
        if body is None:
            raise TaskiqError(message=f"no result for {task_id}")
        result: TaskiqResult[Any] = pickle.loads(cast(bytes, body))
        return result


class _Queue(ListQueueBroker):
    """taskiq-redis's list broker, whose workers wait out a broker outage (its own `listen`
    lets a read time-out end the worker process): a line when it begins, one when it ends."""

    async def listen(self) -> AsyncGenerator[bytes, None]:
        down = False
        while True:
            try:
                async with Redis(connection_pool=self.connection_pool) as redis:
                    # under the connection's read time-out (5 s): a quiet queue is no outage
                    got = await redis.brpop([self.queue_name], timeout=1)
                if down:
                    log.warning("the broker answers again")
                    down = False
            except RedisError as exc:
                if not down:
                    log.warning("the broker is unreachable (%s); retrying every second", exc)
                    down = True
                await asyncio.sleep(1)
                continue
            if got is not None:
                yield cast(bytes, got[1])


def broker(url: str, keep: float = 60.0) -> ListQueueBroker:
    """The broker for the bot and its workers: calls on QUEUE, results pushed and kept `keep` s."""
    made = _Queue(url, queue_name=QUEUE, socket_connect_timeout=CONNECT_TIMEOUT)
    made.with_result_backend(_Pushed(url, keep))
    made.formatter = _Pickled()
    made.register_task(_run, task_name=TASK)
    return made


def worker_broker() -> ListQueueBroker:
    """`python -m bot worker`'s broker (taskiq imports it by name in each worker process)."""
    from .config import WorkerSettings

    url = WorkerSettings().computer_broker
    if not url:
        raise SystemExit("COMPUTER_BROKER is not set: the workers take calls from that broker")
    return broker(url)


class Remote:
    """The bot's side: sends calls, waits for each until its deadline."""

    def __init__(self, url: str) -> None:
        self.broker = broker(url)
        self._backend: _Pushed = self.broker.result_backend  # type: ignore[assignment]
        self._started = False

    async def call(self, function: Callable[..., Any], *args: Any, timeout: float) -> Any:
        """`function(*args)` run by a worker; Failed unless its value is back in `timeout`
        seconds (it is then never used: a late value expires unread)."""
        loop = asyncio.get_running_loop()
        sent = loop.time()
        try:
            async with asyncio.timeout(timeout):
                if not self._started:
                    await self.broker.startup()
                    self._started = True
                result = await self._send_and_wait(
                    (name_of(function), args, time.time() + timeout),
                    timeout - (loop.time() - sent),
                )
        except TimeoutError:  # while waiting (or, seldom, while sending)
            result = None
        except (TaskiqError, RedisError, OSError) as exc:
            metrics.REMOTE_TASKS.labels("failed").inc()
            raise Failed(f"the broker: {exc.__cause__ or exc}") from exc
        metrics.REMOTE_TASKS.labels("sent").inc()
        if result is None:
            metrics.REMOTE_TASKS.labels("late").inc()
            raise Late(f"no result in {timeout:g} s")
        if result.is_err:
            metrics.REMOTE_TASKS.labels("failed").inc()
            raise Failed(f"the worker: {result.error!r}")
        if result.return_value is None:  # a worker whose clock is ahead skipped it
            metrics.REMOTE_TASKS.labels("late").inc()
            raise Late("skipped by a worker as past its deadline")
        value, ran = result.return_value
        metrics.REMOTE_TASKS.labels("run").inc()
        metrics.REMOTE_QUEUE_SECONDS.observe(max(0.0, loop.time() - sent - ran))
        return value

    async def _send_and_wait(
        self, args: tuple[Any, ...], timeout: float
    ) -> TaskiqResult[Any] | None:
        """The call's message pushed on the queue and its result waited for in one round trip
        to the broker (a pipeline of LPUSH and BLPOP on one connection), not two: the message
        is taskiq's, made by its formatter, as `kiq` sends it (no middlewares are set)."""
        message = TaskiqMessage(
            task_id=uuid.uuid4().hex, task_name=TASK, labels={}, args=list(args), kwargs={}
        )
        body = self.broker.formatter.dumps(message).message
        async with self._backend.redis.pipeline(transaction=False) as pipe:
            pipe.lpush(QUEUE, body)
            pipe.blpop([RESULT + message.task_id], timeout=max(timeout, 0.001))
            _, got = await pipe.execute()
        if got is None:
            return None
        result: TaskiqResult[Any] = pickle.loads(got[1])
        return result

    async def close(self) -> None:
        if self._started:
            await self.broker.shutdown()
