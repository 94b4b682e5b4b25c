"""setWebhook / deleteWebhook / getWebhookInfo, and delivering updates by POSTing them to the
webhook, as Telegram does.

Telegram's rules kept here: the URL must be HTTPS on port 443, 80, 88 or 8443 (unless the test
sets ``allow_http``, for a bot listening on 127.0.0.1 without TLS); the secret token is 1-256 of
``A-Z a-z 0-9 _ -`` and comes back in the ``X-Telegram-Bot-Api-Secret-Token`` header; updates
go one at a time, oldest first, and one is confirmed only by a 2xx answer, else it stays pending
and is tried again later (``last_error_message`` in getWebhookInfo says why); getUpdates is
refused with 409 while a webhook is set; setWebhook with an empty URL removes it.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import re
import time
from urllib.parse import urlsplit

import aiohttp

from tests.fakebot.models import ApiError, Json, bad_request
from tests.fakebot.params import Params
from tests.fakebot.updates import UpdateQueue

SECRET_HEADER = "X-Telegram-Bot-Api-Secret-Token"
WEBHOOK_PORTS = frozenset({443, 80, 88, 8443})
_SECRET = re.compile(r"^[A-Za-z0-9_-]{1,256}$")
GET_UPDATES_CONFLICT = ApiError(
    409,
    "Conflict: can't use getUpdates method while webhook is active; "
    "use deleteWebhook to delete the webhook first",
)


class Webhook:
    """The bot's webhook settings and the task that delivers pending updates to it."""

    def __init__(self, updates: UpdateQueue) -> None:
        self.updates = updates
        self.url = ""
        self.secret_token: str | None = None
        self.max_connections = 40
        self.ip_address: str | None = None
        self.allowed_updates: list[str] | None = None
        self.allow_http = False  # True: also plain http:// on any port (a test's 127.0.0.1)
        self.retry_delay = 0.05  # seconds before a failed delivery is tried again (Telegram: more)
        self.last_error_date: int | None = None
        self.last_error_message: str | None = None
        self.deliveries: list[tuple[int, int]] = []  # (update_id, HTTP status; 0: no answer)
        self._session: aiohttp.ClientSession | None = None
        self._task: asyncio.Task[None] | None = None
        self._changed = asyncio.Event()

    # -- the Bot API methods --------------------------------------------------------------

    def set(self, p: Params) -> bool:
        """setWebhook."""
        url = p.text("url") or ""
        if not url:
            return self.delete(drop_pending=p.flag("drop_pending_updates"))
        self._check_url(url)
        secret = p.text("secret_token") or None
        if secret is not None and not _SECRET.match(secret):
            raise bad_request("secret token contains unallowed characters")
        max_connections = p.optional_integer("max_connections") or 40
        if not 1 <= max_connections <= 100:
            raise bad_request("bad webhook: max_connections must be between 1 and 100")
        if p.flag("drop_pending_updates"):
            self.updates.drop_pending()
        allowed = p.obj("allowed_updates")
        self.updates.set_allowed(allowed)
        if allowed is not None:
            self.allowed_updates = list(allowed) or None
        self.url, self.secret_token = url, secret
        self.max_connections, self.ip_address = max_connections, p.text("ip_address")
        self.last_error_date = self.last_error_message = None
        self._changed.set()  # deliver now what waited for a working webhook
        return True

    def delete(self, *, drop_pending: bool) -> bool:
        """deleteWebhook (and setWebhook with an empty URL)."""
        if drop_pending:
            self.updates.drop_pending()
        self.url, self.secret_token = "", None
        self.last_error_date = self.last_error_message = None
        self._changed.set()
        return True

    def info(self) -> Json:
        """getWebhookInfo."""
        info: Json = {
            "url": self.url,
            "has_custom_certificate": False,
            "pending_update_count": self.updates.unconfirmed,
        }
        if self.url:
            info["max_connections"] = self.max_connections
            if self.ip_address:
                info["ip_address"] = self.ip_address
            if self.allowed_updates:
                info["allowed_updates"] = self.allowed_updates
            if self.last_error_message:
                info["last_error_date"] = self.last_error_date
                info["last_error_message"] = self.last_error_message
        return info

    def _check_url(self, url: str) -> None:
        parts = urlsplit(url)
        try:
            port = parts.port
        except ValueError:
            port = -1
        if parts.scheme == "http" and self.allow_http and parts.hostname:
            return
        if parts.scheme != "https" or not parts.hostname:
            raise bad_request("bad webhook: An HTTPS URL must be provided for webhook")
        if (port or 443) not in WEBHOOK_PORTS:
            raise bad_request(
                "bad webhook: Webhook can be set up only on ports 80, 88, 443 or 8443"
            )

    # -- delivery -------------------------------------------------------------------------

    def start(self) -> None:
        """Start delivering (in the running event loop)."""
        self._session = aiohttp.ClientSession()
        self._task = asyncio.get_running_loop().create_task(self._deliver_forever())

    async def stop(self) -> None:
        """Stop delivering and close the HTTP client."""
        if self._task is not None:
            self._task.cancel()
            await asyncio.gather(self._task, return_exceptions=True)
            self._task = None
        if self._session is not None:
            await self._session.close()
            self._session = None

    async def _deliver_forever(self) -> None:
        while not self.updates.closed:
            if not self.url:
                self._changed.clear()
                await self._changed.wait()
                continue
            update = await self.updates.next_for_webhook(timeout=0.5)
            if update is None or not self.url:
                continue
            if await self._post(update):
                self.updates.confirm(update["update_id"])
            else:  # kept, and tried again a little later (or at once after a new setWebhook)
                self._changed.clear()
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self._changed.wait(), self.retry_delay)

    async def _post(self, update: Json) -> bool:
        """POST one update; True if the webhook confirmed it with a 2xx answer."""
        assert self._session is not None
        headers = {"Content-Type": "application/json"}
        if self.secret_token is not None:
            headers[SECRET_HEADER] = self.secret_token
        status, error = 0, ""
        try:
            async with self._session.post(
                self.url,
                data=json.dumps(update),
                headers=headers,
                timeout=aiohttp.ClientTimeout(total=10),
            ) as response:
                await response.read()
                status = response.status
                error = f"Wrong response from the webhook: {status} {response.reason}"
        except TimeoutError:
            error = "Read timeout expired"
        except aiohttp.ClientError:
            error = "Connection refused"
        self.deliveries.append((update["update_id"], status))
        if 200 <= status < 300:
            return True
        self.last_error_date, self.last_error_message = int(time.time()), error
        return False
