"""Which distributed task engine for the computer players' remote path: the overhead per task.

Run: `nice -n 15 python bench/remote_engines.py [--tasks 300] [--decisions 100] [--engines ...]`
(needs Debian's redis-server, and each engine measured installed: taskiq and taskiq-redis,
celery[redis], distributed).

For each engine: a broker on 127.0.0.1 (redis-server; Dask's own scheduler), one worker process
running one task at a time, and the client on an asyncio event loop as the bot's would be. Tasks
are sent one after another, so no task queues behind another: what is measured is the engine's
own cost. Printed per engine, median and p99:

- a trivial task (its argument back): the whole round trip from the loop;
- a Master decision (the strong level on a seat's knowledge, positions as bench/computer_moves.py
  collects them): the round trip less the search's own time measured inside the worker.

The pickle serializer everywhere (a seat's knowledge is a dataclass of the engine). How each
client waits on the loop: taskiq awaits its result backend (polling it every `--poll` seconds);
Celery's `AsyncResult.get` is blocking, so it runs in a thread; Dask's future is awaited.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import statistics
import subprocess
import sys
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.redis_helpers import RedisServer, free_port  # noqa: E402

URL = os.environ.get("BENCH_BROKER", "redis://127.0.0.1:6379/0")


def trivial(value: Any) -> Any:
    return value


def master(call: tuple[Any, int]) -> tuple[Any, float]:
    """(A seat's knowledge, a seed) in one tuple: taskiq turns a dataclass argument into a dict."""
    from engine.ai import LEVELS

    knowledge, seed = call
    started = time.perf_counter()
    action = LEVELS["strong"](knowledge, random.Random(seed))
    return action, time.perf_counter() - started


# taskiq: the broker and its tasks, built at import for `taskiq worker bench.remote_engines:broker`
try:
    import pickle

    from taskiq import TaskiqFormatter, TaskiqMessage
    from taskiq.message import BrokerMessage
    from taskiq.serializers import PickleSerializer
    from taskiq_redis import ListQueueBroker, RedisAsyncResultBackend

    class PickleFormatter(TaskiqFormatter):
        """The message pickled as it is (taskiq's own formatter turns a dataclass into a dict)."""

        def dumps(self, message: TaskiqMessage) -> BrokerMessage:
            body = pickle.dumps(dict(message))
            return BrokerMessage(
                task_id=message.task_id, task_name=message.task_name, message=body,
                labels=message.labels,
            )  # fmt: skip

        def loads(self, message: bytes) -> TaskiqMessage:
            return TaskiqMessage.model_construct(**pickle.loads(message))

    def _taskiq(url: str) -> Any:
        backend = RedisAsyncResultBackend(url, result_px_time=60_000, serializer=PickleSerializer())
        made = ListQueueBroker(url, queue_name="bench").with_result_backend(backend)
        made.formatter = PickleFormatter()
        return made, made.task(task_name="trivial")(trivial), made.task(task_name="master")(master)

    broker, taskiq_trivial, taskiq_master = _taskiq(URL)
except ImportError:
    pass

# Celery, for `celery -A bench.remote_engines worker`
try:
    from celery import Celery

    app = Celery("bench", broker=URL, backend=URL)
    app.conf.update(
        task_serializer="pickle",
        result_serializer="pickle",
        accept_content=["pickle"],
        worker_prefetch_multiplier=1,
        result_expires=60,
    )
    celery_trivial = app.task(name="trivial")(trivial)
    celery_master = app.task(name="master")(master)
except ImportError:
    pass


def _pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def _line(what: str, values: list[float]) -> str:
    return (
        f"  {what}: median {statistics.median(values) * 1e3:.2f} ms, "
        f"p99 {_pct(values, 0.99) * 1e3:.2f} ms ({len(values)} tasks)"
    )


async def measure(
    send_trivial: Callable[[int], Awaitable[Any]],
    send_master: Callable[[Any, int], Awaitable[tuple[Any, float]]],
    tasks: int,
    decisions: list[Any],
) -> None:
    for i in range(20):  # connections up, imports done
        await send_trivial(i)
    rounds = []
    for i in range(tasks):
        started = time.perf_counter()
        assert await send_trivial(i) == i
        rounds.append(time.perf_counter() - started)
    print(_line("trivial task, round trip", rounds))
    overheads = []
    for i, knowledge in enumerate(decisions):
        started = time.perf_counter()
        _, search = await send_master(knowledge, i)
        overheads.append(time.perf_counter() - started - search)
    print(_line("Master decision, round trip less the search", overheads))


def _spawn(args: list[str], env: dict[str, str]) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        args, cwd=ROOT, env={**os.environ, **env, "PYTHONPATH": str(ROOT)},
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip


async def bench_taskiq(url: str, tasks: int, decisions: list[Any], poll: float) -> None:
    worker = _spawn(
        [sys.executable, "-m", "taskiq", "worker", "bench.remote_engines:broker",
         "--workers", "1", "--max-async-tasks", "1", "--max-prefetch", "0"],
        {"BENCH_BROKER": url},
    )  # fmt: skip
    await broker.startup()
    try:

        async def send_trivial(value: int) -> Any:
            task = await taskiq_trivial.kiq(value)
            return (await task.wait_result(check_interval=poll, timeout=30)).return_value

        async def send_master(knowledge: Any, seed: int) -> tuple[Any, float]:
            task = await taskiq_master.kiq((knowledge, seed))
            result = await task.wait_result(check_interval=poll, timeout=30)
            if result.is_err:
                raise RuntimeError(result.error)
            value: tuple[Any, float] = result.return_value
            return value

        print(f"taskiq + taskiq-redis (ListQueueBroker; results polled every {poll * 1e3:g} ms)")
        await measure(send_trivial, send_master, tasks, decisions)
    finally:
        await broker.shutdown()
        worker.kill()
        worker.wait()


async def bench_celery(url: str, tasks: int, decisions: list[Any]) -> None:
    worker = _spawn(
        [sys.executable, "-m", "celery", "-A", "bench.remote_engines", "worker", "-P", "solo",
         "--without-gossip", "--without-mingle", "--without-heartbeat", "-l", "warning"],
        {"BENCH_BROKER": url, "C_FORCE_ROOT": "1"},  # Celery refuses pickle as root without it
    )  # fmt: skip
    try:

        async def send_trivial(value: int) -> Any:
            result = celery_trivial.apply_async((value,))
            return await asyncio.to_thread(result.get, timeout=30)

        async def send_master(knowledge: Any, seed: int) -> tuple[Any, float]:
            result = celery_master.apply_async(((knowledge, seed),))
            value: tuple[Any, float] = await asyncio.to_thread(result.get, timeout=30)
            return value

        print("Celery (Redis broker and result backend; AsyncResult.get in a thread)")
        await measure(send_trivial, send_master, tasks, decisions)
    finally:
        worker.kill()
        worker.wait()


async def bench_dask(tasks: int, decisions: list[Any]) -> None:
    from distributed import Client

    port = free_port()
    address = f"tcp://127.0.0.1:{port}"
    scheduler = _spawn(
        [sys.executable, "-m", "distributed.cli.dask_scheduler", "--host", "127.0.0.1",
         "--port", str(port), "--no-dashboard"], {},
    )  # fmt: skip
    worker = _spawn(
        [sys.executable, "-m", "distributed.cli.dask_worker", address, "--nworkers", "1",
         "--nthreads", "1", "--no-dashboard"], {},
    )  # fmt: skip
    try:
        client = await Client(address, asynchronous=True, timeout=30)
        await client.wait_for_workers(1)
        try:

            async def send_trivial(value: int) -> Any:
                return await client.submit(trivial, value, pure=False)

            async def send_master(knowledge: Any, seed: int) -> tuple[Any, float]:
                value: tuple[Any, float] = await client.submit(
                    master, (knowledge, seed), pure=False
                )
                return value

            print("Dask distributed (its scheduler as the broker; futures awaited)")
            await measure(send_trivial, send_master, tasks, decisions)
        finally:
            await client.close()
    finally:
        for process in (worker, scheduler):
            process.kill()
            process.wait()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tasks", type=int, default=300)
    parser.add_argument("--decisions", type=int, default=100)
    parser.add_argument("--engines", nargs="+", default=["taskiq", "celery", "dask"])
    parser.add_argument("--poll", type=float, default=0.001, help="taskiq's result poll, s")
    parser.add_argument("--seed", type=int, default=1)
    options = parser.parse_args()
    from bench.computer_moves import positions
    from engine.games import GAMES

    found = positions(options.decisions, options.seed)
    decisions = [GAMES[deal.game].knowledge(deal, seat) for deal, seat in found]
    with RedisServer() as redis:
        for engine in options.engines:
            if engine == "taskiq":
                global broker, taskiq_trivial, taskiq_master  # built at import for BENCH_BROKER
                broker, taskiq_trivial, taskiq_master = _taskiq(redis.url)
                asyncio.run(bench_taskiq(redis.url, options.tasks, decisions, options.poll))
            elif engine == "celery":
                app.conf.broker_url = app.conf.result_backend = redis.url
                asyncio.run(bench_celery(redis.url, options.tasks, decisions))
            elif engine == "dask":
                asyncio.run(bench_dask(options.tasks, decisions))


if __name__ == "__main__":
    main()
