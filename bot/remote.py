"""The computer players' searches on other machines: taskiq tasks through a Redis broker.

With COMPUTER_BROKER set, `bot.computer.Computers.call` sends a task of bot.computer's `TASKS` by
its short name (today only `decide`: a Master's decision, `decide(knowledge, level, seed)`, a
seat's knowledge only) as a taskiq task to a Redis list; `python -m bot worker` (taskiq's worker,
any number of processes, on any machine reaching the broker) runs it and pushes the result on a
list of the call's own, on which the bot blocks (BLPOP): no polling. The bot sends the call (a
script that pushes it unless too many wait) and the wait as one pipeline: one round trip per
call. docs/computer-players.md says why taskiq, with the figures of bench/remote_engines.py.

Nothing on the wire can run code when read, and nothing read from it is trusted: a task and a
result are JSON (bot/wire.py decodes only the engine's classes), each signed with HMAC-SHA256
under COMPUTER_SECRET. A worker checks a task's signature before it reads anything else, and runs
only a function of bot.computer's `TASKS`; the bot checks a result's signature, and that it
answers this very call (its task id) for this very seat, before it decodes the value (which
`bot.computer` still checks is a legal action). Whoever can write to Redis without the secret can
only make calls fail: the rules level moves at once, the refusals are counted
(frap_remote_refused) and logged once a minute.

Two of taskiq's plug points are set here, besides the queue's reader: the formatter (signed
JSON), and the result backend, which pushes instead of storing a key to poll. A call that waits
past its deadline is dropped by the bot (the caller then moves by the rules level) and skipped by
a worker that picks it up late; a result is read at most once and expires. When more than
COMPUTER_QUEUE_MAX calls are waiting for a worker, a call is not sent at all: the rules level
moves at once rather than after the deadline.
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import json
import logging
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

from . import metrics, wire

log = logging.getLogger(__name__)

QUEUE = "frap:calls"  # the broker's list of calls waiting for a worker
RESULT = "frap:result:"  # + a call's id: the list its result is pushed on
TASK = "frap.call"
VERSION = 2  # of the tasks' and results' shape: a message of another is refused
# The version as a message carries it, with the digest of the wire's classes (bot/wire.py tags
# them by number): a bot and workers whose classes differ are of two versions as well.
STAMP = f"{VERSION}.{wire.SCHEMA}"
WAITS = 2000  # calls waiting at once for their results, at most (Redis takes 10,000 clients)
CONNECT_TIMEOUT = 1.0  # seconds: a broker that is down is known at once, not at the deadline
QUIET = 60.0  # seconds: a kind of refusal or skip is logged once, then once a minute at most

# What a worker runs is one of the functions its broker is made with (`broker`'s `tasks`, by the
# short names the tasks give: bot.computer's TASKS), nothing else.
Tasks = dict[str, Callable[..., Any]]

# The two kinds of signed message: a task cannot be passed off as a result, or the other way.
_FOR_TASK, _FOR_RESULT = b"frap task\n", b"frap result\n"

# The call, in one script on the broker: pushed only while at most `bound` calls wait; when more
# do, it is not pushed and its own result list gets an empty entry, so that the wait sent with it
# (the same pipeline) returns at once. The queue's length as it was comes back.
_PUSH = """
local waiting = redis.call('LLEN', KEYS[1])
if waiting <= tonumber(ARGV[2]) then
    redis.call('LPUSH', KEYS[1], ARGV[1])
else
    redis.call('RPUSH', KEYS[2], '')
    redis.call('PEXPIRE', KEYS[2], 60000)
end
return waiting
"""


class Failed(Exception):
    """No value from the workers: the broker or a worker failed, or an answer was refused
    (`bot.computer` takes it as its own `Unavailable`)."""


class Late(Failed):
    """No result by the deadline."""


class Refused(Failed):
    """A message not signed with the secret, or not of this version's shape, or an answer to
    another call or seat: nothing in it is read."""

    def __init__(self, reason: str, detail: str) -> None:
        super().__init__(f"{detail} ({reason})")
        self.reason = reason


class _Quiet:
    """Log a kind of event once, then at most once every QUIET seconds how many more came: a
    flood of forged messages or stale tasks writes a few lines, not one each."""

    def __init__(self) -> None:
        self._more: dict[str, int] = {}  # by kind, while its minute runs

    def note(self, kind: str, first: str, more: str) -> None:
        """`first` now unless this kind was logged within the minute; `more` ("{n} more …")
        when the minute is over, if more came."""
        if kind in self._more:
            self._more[kind] += 1
            return
        log.warning(first)
        self._more[kind] = 0
        asyncio.get_running_loop().call_later(QUIET, self._flush, kind, more)

    def _flush(self, kind: str, more: str) -> None:
        n = self._more.pop(kind)
        if n:
            log.warning(more.format(n=n))
            self._more[kind] = 0
            asyncio.get_running_loop().call_later(QUIET, self._flush, kind, more)


_quiet = _Quiet()


def _refused(refusal: Refused, what: str) -> None:
    metrics.REMOTE_REFUSED.labels(refusal.reason).inc()
    _quiet.note(
        f"{what} {refusal.reason}",
        f"refused {what}: {refusal}",
        f"refused {{n}} more {what}s in the last minute ({refusal.reason})",
    )


def _sign(secret: bytes, kind: bytes, data: dict[str, Any]) -> bytes:
    """`data` as JSON after its signature (hex) and a newline."""
    body = wire.JSON.encode(data).encode()  # compact
    mac = hmac.new(secret, kind + body, hashlib.sha256).hexdigest().encode()
    return mac + b"\n" + body


def _open(secret: bytes, kind: bytes, message: bytes) -> dict[str, Any]:
    """The data of a message `_sign` made with this secret; Refused for any other, which is
    never parsed."""
    mac, newline, body = message.partition(b"\n")
    if not newline or len(mac) != 64:
        raise Refused("unsigned", "a message without a signature")
    expected = hmac.new(secret, kind + body, hashlib.sha256).hexdigest().encode()
    if not hmac.compare_digest(mac, expected):
        raise Refused("signature", "a message whose signature does not match")
    try:
        data = json.loads(body)
    except (ValueError, RecursionError):
        data = None
    if not isinstance(data, dict) or data.get("v") != STAMP:
        raise Refused("version", f"a signed message not of version {STAMP}'s shape")
    return data


_SHAPE: dict[str, type | tuple[type, ...]] = {
    "id": str,
    "fn": str,
    "args": list,
    "expires": (int, float),
    "seat": int,
}


def _task(secret: bytes, message: bytes) -> dict[str, Any]:
    """A task's data, checked for its signature and shape; Refused otherwise."""
    data = _open(secret, _FOR_TASK, message)
    if any(not isinstance(data.get(key), kind) for key, kind in _SHAPE.items()):
        raise Refused("version", f"a signed task not of version {STAMP}'s shape")
    return data


async def _run(tasks: Tasks, task: dict[str, Any]) -> dict[str, Any]:
    """The task, in a worker: the function's value (wire-encoded) and its run time; or that it
    was skipped, come past its deadline (its caller has moved on: the broker kept it while no
    worker was free or up); or why it was refused. The worker's event loop waits meanwhile: a
    worker process runs one call at a time."""
    late = time.time() - task["expires"]
    if late > 0:
        _quiet.note(
            "late",
            f"skipped a task taken {late:.1f} s past its deadline",
            "skipped {n} more tasks past their deadline in the last minute",
        )
        return {"skipped": True}
    function = tasks.get(task["fn"])
    if function is None:
        _refused(Refused("function", f"no task {task['fn']!r} here"), "task")
        return {"error": f"no task {task['fn']!r}"}
    try:
        args = [wire.decode(arg) for arg in task["args"]]
    except wire.WireError as exc:
        _refused(Refused("version", f"arguments not of this version ({exc})"), "task")
        return {"error": "arguments not of this version"}
    started = time.perf_counter()
    value = function(*args)
    return {"value": wire.encode(value), "ran": time.perf_counter() - started}


class _Checked(bytes):
    """A task's message that `_Queue.listen` has checked, with its data: the formatter reads
    that, not the message a second time."""

    data: dict[str, Any]


class _Signed(TaskiqFormatter):
    """A task: its data, signed (`args` holds it whole, as `_run` takes it)."""

    def __init__(self, secret: bytes) -> None:
        self.secret = secret

    def dumps(self, message: TaskiqMessage) -> BrokerMessage:
        (data,) = message.args
        body = _sign(self.secret, _FOR_TASK, data)
        return BrokerMessage(task_id=data["id"], task_name=TASK, message=body, labels={})

    def loads(self, message: bytes) -> TaskiqMessage:
        # `_Queue.listen` gives each message checked, with its data (and has refused any other)
        data = message.data if isinstance(message, _Checked) else _task(self.secret, message)
        # the seat in the labels: the result backend signs it with the result
        labels = {"seat": data["seat"]}
        return TaskiqMessage(
            task_id=data["id"], task_name=TASK, labels=labels, args=[data], kwargs={}
        )


class _Pushed(AsyncResultBackend[Any]):
    """Each result signed for its task and seat, pushed on a list of its own, kept `keep`
    seconds; the caller blocks on it."""

    def __init__(self, url: str, keep: float, secret: bytes) -> None:
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
        self.secret = secret

    async def shutdown(self) -> None:
        await self.redis.aclose()

    async def set_result(self, task_id: str, result: TaskiqResult[Any]) -> None:
        if result.is_err:  # the function raised: its caller's rules level moves
            outcome: dict[str, Any] = {"error": repr(result.error)}
        else:
            outcome = result.return_value
        data = {"v": STAMP, "id": task_id, "seat": result.labels.get("seat"), **outcome}
        key, body = RESULT + task_id, _sign(self.secret, _FOR_RESULT, data)
        async with self.redis.pipeline(transaction=True) as pipe:
            pipe.rpush(key, body)
            pipe.pexpire(key, self.keep_ms)
            await pipe.execute()

    async def is_result_ready(self, task_id: str) -> bool:
        return bool(await self.redis.exists(RESULT + task_id))

    async def get_result(self, task_id: str, with_logs: bool = False) -> TaskiqResult[Any]:
        raise TaskiqError(message="a result is read by the caller's own wait (Remote.call)")


class _Queue(ListQueueBroker):
    """taskiq-redis's list broker, whose workers wait out a broker outage (its own `listen`
    lets a read time-out end the worker process): a line when it begins, one when it ends. A
    task not signed with the secret, or of another version, is dropped here, unread."""

    secret = b""

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
            if got is None:
                continue
            checked = _Checked(cast(bytes, got[1]))
            try:
                checked.data = _task(self.secret, checked)
            except Refused as refusal:
                _refused(refusal, "task")
                continue
            yield checked


def broker(url: str, secret: str, tasks: Tasks, keep: float = 60.0) -> ListQueueBroker:
    """The broker for the bot and its workers: calls of `tasks` on QUEUE, results pushed and kept
    `keep` s, both signed with `secret`."""
    key = secret.encode()
    made = _Queue(url, queue_name=QUEUE, socket_connect_timeout=CONNECT_TIMEOUT)
    made.secret = key
    made.with_result_backend(_Pushed(url, keep, key))
    made.formatter = _Signed(key)

    async def run(task: dict[str, Any]) -> dict[str, Any]:
        return await _run(tasks, task)

    made.register_task(run, task_name=TASK)
    return made


def worker_broker(tasks: Tasks) -> ListQueueBroker:
    """`python -m bot worker`'s broker, running `tasks`."""
    from .config import WorkerSettings

    settings = WorkerSettings()
    if not settings.computer_broker or settings.computer_secret is None:
        raise SystemExit("COMPUTER_BROKER and COMPUTER_SECRET must be set for the workers")
    return broker(settings.computer_broker, settings.computer_secret.get_secret_value(), tasks)


class Remote:
    """The bot's side: sends calls, waits for each until its deadline."""

    def __init__(self, url: str, secret: str, tasks: Tasks, queue_max: int = 64) -> None:
        if not secret:  # the settings refuse a broker without one; so does the code
            raise ValueError("a broker needs COMPUTER_SECRET")
        self.broker = broker(url, secret, tasks)
        self._names = {function: name for name, function in tasks.items()}
        self._backend: _Pushed = self.broker.result_backend  # type: ignore[assignment]
        self._secret = secret.encode()
        self.queue_max = queue_max
        self._started = False

    async def call(
        self, function: Callable[..., Any], *args: Any, seat: int, timeout: float
    ) -> Any:
        """`function(*args)` (one of its `tasks`) for `seat`, run by a worker; Failed unless its
        value is back in `timeout` seconds (it is then never used: a late value expires unread),
        and at once when too many calls wait or the answer is refused."""
        name = self._names[function]  # KeyError: no worker would run it
        loop = asyncio.get_running_loop()
        sent = loop.time()
        try:
            async with asyncio.timeout(timeout):
                if not self._started:
                    await self.broker.startup()
                    self._started = True
                outcome = await self._send_and_wait(
                    name, args, seat, time.time() + timeout, timeout - (loop.time() - sent)
                )
        except TimeoutError:  # while waiting (or, seldom, while sending)
            outcome = None
        except (TaskiqError, RedisError, OSError) as exc:
            metrics.REMOTE_TASKS.labels("failed").inc()
            raise Failed(f"the broker: {exc.__cause__ or exc}") from exc
        except Refused as refusal:
            metrics.REMOTE_TASKS.labels("failed").inc()
            _refused(refusal, "result")
            raise
        metrics.REMOTE_TASKS.labels("sent").inc()
        if outcome is None:
            metrics.REMOTE_TASKS.labels("late").inc()
            raise Late(f"no result in {timeout:g} s")
        if "error" in outcome:
            metrics.REMOTE_TASKS.labels("failed").inc()
            raise Failed(f"the worker: {outcome['error']}")
        if "value" not in outcome:  # a worker whose clock is ahead skipped it
            metrics.REMOTE_TASKS.labels("late").inc()
            raise Late("skipped by a worker as past its deadline")
        try:
            value = wire.decode(outcome["value"])
        except wire.WireError as exc:
            metrics.REMOTE_TASKS.labels("failed").inc()
            _refused(Refused("version", f"a value not of this version ({exc})"), "result")
            raise Failed("a value not of this version") from exc
        metrics.REMOTE_TASKS.labels("run").inc()
        ran = outcome.get("ran")
        if isinstance(ran, (int, float)):
            metrics.REMOTE_QUEUE_SECONDS.observe(max(0.0, loop.time() - sent - ran))
        return value

    async def _send_and_wait(
        self, name: str, args: tuple[Any, ...], seat: int, expires: float, timeout: float
    ) -> dict[str, Any] | None:
        """The call's task pushed on the queue and its result waited for in one round trip to
        the broker (a pipeline of the push script and BLPOP on one connection), not two. None
        past the deadline; Failed at once when more than `queue_max` calls wait; Refused for a
        result not signed for this call and seat."""
        task_id = uuid.uuid4().hex
        data = {
            "v": STAMP,
            "id": task_id,
            "fn": name,
            "args": [wire.encode(arg) for arg in args],
            "expires": expires,
            "seat": seat,
        }
        body = _sign(self._secret, _FOR_TASK, data)  # as the formatter's `dumps` signs it
        async with self._backend.redis.pipeline(transaction=False) as pipe:
            pipe.eval(_PUSH, 2, QUEUE, RESULT + task_id, body, self.queue_max)
            pipe.blpop([RESULT + task_id], timeout=max(timeout, 0.001))
            waiting, got = await pipe.execute()
        if waiting > self.queue_max:
            metrics.REMOTE_TASKS.labels("full").inc()
            raise Failed(f"{waiting} calls wait for a worker already")
        if got is None:
            return None
        result = _open(self._secret, _FOR_RESULT, got[1])
        if result.get("id") != task_id:
            raise Refused("task", "a result for another call")
        if result.get("seat") != seat:
            raise Refused("seat", "a result for another seat")
        return result

    async def close(self) -> None:
        if self._started:
            await self.broker.shutdown()
