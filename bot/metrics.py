"""What an operator can see of a running bot: Prometheus metrics, how Telegram has
been answering, and whether the bot is healthy.

The metrics live in `prometheus_client`'s default registry (docs/operating.md lists them); they
are served at `/metrics` on METRICS_PORT, with `/healthz` beside it. `Telegram` follows every Bot
API call (bot/client/http.py reports each one): an outage is one warning line when it begins and one
line when Telegram answers again, whatever the number of calls that failed meanwhile.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Iterable

from aiohttp import web
from prometheus_client import CollectorRegistry, Counter, Histogram
from prometheus_client.core import GaugeMetricFamily
from prometheus_client.registry import REGISTRY, Collector

from .web import protocol

log = logging.getLogger(__name__)

_FAST = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0)
_SLOW = (0.01, 0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 5.0, 10.0, 30.0)

UPDATES = Counter("frap_updates", "Telegram updates handled")
UPDATE_SECONDS = Histogram(
    "frap_update_handling_seconds", "Time to handle one update", buckets=(*_FAST, 10.0, 30.0)
)
TELEGRAM_CALLS = Counter(
    "frap_telegram_calls",
    "Bot API calls by method and outcome (ok, 429, 4xx, 5xx, timeout, network)",
    ["method", "outcome"],
)
TELEGRAM_SECONDS = Histogram(
    "frap_telegram_call_seconds", "Bot API call latency (getUpdates excluded)", buckets=_SLOW
)
DEALS_FINISHED = Counter("frap_deals_finished", "Deals played to the end", ["game"])
SQLITE_WRITE_SECONDS = Histogram(
    "frap_sqlite_write_seconds", "One SQLite write transaction, queueing included", buckets=_FAST
)
SQLITE_WRITE_FAILURES = Counter(
    "frap_sqlite_write_failures", "SQLite writes that failed (disk full, locked)", ["reason"]
)
COMPUTER_MOVE_SECONDS = Histogram(
    "frap_computer_move_seconds",
    "A computer player's thinking (its pause excluded)",
    ["level"],
    buckets=_SLOW,
)
# The remote path (COMPUTER_BROKER set, bot/remote.py): calls sent to the workers, and how each
# ended; the queue time is a call's wait less the worker's run (the broker's round trips included)
REMOTE_TASKS = Counter(
    "frap_remote_tasks",
    "Calls for the computer players' workers: sent, run, late (past the deadline), failed, "
    "full (not sent: too many calls waiting)",
    ["state"],
)
REMOTE_REFUSED = Counter(
    "frap_remote_refused",
    "Computer moves refused: a worker's answer that is no legal action (illegal), or a move "
    "the engine would not apply (refused); messages refused on the broker: unsigned, a bad "
    "signature, another version's, a result for another call (task) or seat, a task naming "
    "no function of the workers' (function); the rules level moved instead",
    ["reason"],
)
REMOTE_QUEUE_SECONDS = Histogram(
    "frap_remote_queue_seconds",
    "A call's wait for a worker, its run left out",
    buckets=_FAST,
)


class _OpenTables(Collector):
    """`frap_open_tables{game}`: read off the running services when scraped."""

    def __init__(self) -> None:
        self.sources: list[Callable[[], Iterable[str]]] = []

    def collect(self) -> Iterable[GaugeMetricFamily]:
        family = GaugeMetricFamily(
            "frap_open_tables", "Tables open (lobbies included)", labels=["game"]
        )
        counts: dict[str, int] = {}
        for source in self.sources:
            for game in source():
                counts[game] = counts.get(game, 0) + 1
        for game, count in sorted(counts.items()):
            family.add_metric([game], count)
        yield family


OPEN_TABLES = _OpenTables()
REGISTRY.register(OPEN_TABLES)


def outcome(status: int | None) -> str:
    """A call's outcome label for an HTTP status (None: no answer, see `Telegram.failed`)."""
    if status == 200:
        return "ok"
    if status == 429:
        return "429"
    if status is not None and 400 <= status < 500:
        return "4xx"
    return "5xx"


class Telegram:
    """How Telegram has been answering: when it last answered, and whether it is down now.

    A 5xx, a time-out or a network error is "down": the first one logs a warning (the calls are
    retried: polling by python-telegram-bot, messages by the presenter), the next ones nothing,
    and the first answer after them one line saying how long it lasted. A 4xx or 429 is an
    answer: Telegram is up."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock
        self.last_answer: float | None = None  # clock time of Telegram's last answer
        self.last_answer_wall: float | None = None  # the same as time.time(), for the heartbeat
        self.down_since: float | None = None
        self.failed_calls = 0
        # told when a call other than getUpdates succeeds after one of them failed
        self.on_back: list[Callable[[], None]] = []
        self._calls_failed = False

    def answered(self, method: str, status: int, seconds: float) -> None:
        """A call got an HTTP answer from Telegram."""
        label = outcome(status)
        TELEGRAM_CALLS.labels(method, label).inc()
        if method != "getUpdates":
            TELEGRAM_SECONDS.observe(seconds)
        if label == "5xx":
            self._trouble(method, f"HTTP {status}")
            return
        self.last_answer, self.last_answer_wall = self.clock(), time.time()
        if self._calls_failed and method != "getUpdates" and label == "ok":
            self._calls_failed = False
            for back in self.on_back:
                back()
        if self.down_since is not None:
            log.warning(
                "Telegram answers again after %.0f s (%d calls failed meanwhile)",
                self.last_answer - self.down_since,
                self.failed_calls,
            )
            self.down_since, self.failed_calls = None, 0

    def failed(self, method: str, timed_out: bool, what: str) -> None:
        """A call got no answer: it timed out, or the connection failed (`what`, no token)."""
        TELEGRAM_CALLS.labels(method, "timeout" if timed_out else "network").inc()
        self._trouble(method, "timed out" if timed_out else what)

    def _trouble(self, method: str, what: str) -> None:
        self.failed_calls += 1
        self._calls_failed = self._calls_failed or method != "getUpdates"
        if self.down_since is None:
            self.down_since = self.clock()
            log.warning("Telegram is unreachable (%s: %s); retrying until it answers", method, what)

    def silent_for(self) -> float | None:
        """Seconds since Telegram last answered (None: not yet since the start)."""
        return None if self.last_answer is None else self.clock() - self.last_answer


def exposition(registry: CollectorRegistry = REGISTRY) -> tuple[bytes, str]:
    """The metrics in Prometheus' text format, and its content type."""
    from prometheus_client import CONTENT_TYPE_LATEST, generate_latest

    return generate_latest(registry), CONTENT_TYPE_LATEST


def observe_update(seconds: float) -> None:
    """One update handled in `seconds`."""
    UPDATES.inc()
    UPDATE_SECONDS.observe(seconds)


class MetricsServer:
    """`/metrics` on METRICS_PORT (aiohttp, already the bot's HTTP client), with `/healthz`
    beside it answered by `health` (bot.health.healthz on the bot's heartbeat)."""

    def __init__(self, health: Callable[[], web.Response], listen: str, port: int) -> None:
        self.health = health
        self.listen, self.port = listen, port
        self._runner: web.AppRunner | None = None

    async def start(self) -> None:
        app = web.Application()
        app.router.add_get("/metrics", self._metrics)
        app.router.add_get("/healthz", self._healthz)
        self._runner = protocol.runner(app)
        await self._runner.setup()
        await web.TCPSite(self._runner, self.listen, self.port).start()
        log.info("metrics and health at http://%s:%d/metrics, /healthz", self.listen, self.port)

    async def stop(self) -> None:
        if self._runner is not None:
            await self._runner.cleanup()

    async def _metrics(self, _: web.Request) -> web.Response:
        body, content_type = exposition()
        response = web.Response(body=body)
        response.headers["Content-Type"] = content_type
        return response

    async def _healthz(self, _: web.Request) -> web.Response:
        return self.health()
