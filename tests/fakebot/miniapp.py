"""How a Telegram client opens a Mini App from a button the bot sent (Telegram's Mini App docs).

- A `web_app` button (private chats only) opens its own URL; initData carries no start_param.
- A direct link `https://t.me/<bot>[/<short name>]?startapp=<param>` opens the URL the bot's
  owner gave BotFather for that app (the main Mini App, or /newapp's short name), with
  `tgWebAppStartParam=<param>` added to its query and `start_param` in the signed initData.

Either way the launch parameters go in the URL's fragment: `tgWebAppData` (initData, signed
with the bot's token as Telegram signs it: HMAC-SHA256 under HMAC("WebAppData", token)),
`tgWebAppVersion`, `tgWebAppPlatform` and `tgWebAppThemeParams`. The signing is written here
again, not taken from the bot, so a mistake in the bot's check is not mirrored by the fake."""

from __future__ import annotations

import hashlib
import hmac
import json
import time
from typing import TYPE_CHECKING, Any
from urllib.parse import parse_qs, quote, urlencode, urlsplit

if TYPE_CHECKING:
    from tests.fakebot.models import FakeUser, StoredMessage

Json = dict[str, Any]
VERSION = "8.0"
LIGHT = {
    "bg_color": "#ffffff", "text_color": "#222222", "hint_color": "#8a8a8a",
    "link_color": "#2481cc", "button_color": "#2481cc", "button_text_color": "#ffffff",
    "secondary_bg_color": "#eef1f5",
}  # fmt: skip
DARK = {
    "bg_color": "#17212b", "text_color": "#f5f5f5", "hint_color": "#708499",
    "link_color": "#6ab3f3", "button_color": "#5288c1", "button_text_color": "#ffffff",
    "secondary_bg_color": "#232e3c",
}  # fmt: skip


class NotAMiniApp(AssertionError):
    """The button opens no Mini App (or one the bot's owner never registered with BotFather)."""


def signed_init_data(token: str, user: FakeUser, start_param: str | None, auth_date: int) -> str:
    """initData as Telegram makes it for `user`."""
    person: Json = {"id": user.id, "first_name": user.first_name}
    if user.last_name:
        person["last_name"] = user.last_name
    if user.username:
        person["username"] = user.username
    if user.language_code:
        person["language_code"] = user.language_code
    fields = {
        "query_id": f"AAF{user.id}",
        "user": json.dumps(person, separators=(",", ":"), ensure_ascii=False),
        "auth_date": str(auth_date),
    }
    if start_param is not None:
        fields["start_param"] = start_param
    check = "\n".join(f"{k}={v}" for k, v in sorted(fields.items())).encode()
    key = hmac.new(b"WebAppData", token.encode(), hashlib.sha256).digest()
    fields["hash"] = hmac.new(key, check, hashlib.sha256).hexdigest()
    return urlencode(fields)


class MiniApps:
    """The Mini Apps the bot's owner registered with BotFather (`main`, and `/newapp` short
    names), and the URLs a client opens for a button."""

    def __init__(self, token: str, bot_username: str) -> None:
        self.token = token
        self.bot_username = bot_username
        self.main: str | None = None  # BotFather's "Main Mini App" URL
        self.short: dict[str, str] = {}  # /newapp: short name -> URL

    def register(self, url: str, short_name: str | None = None) -> None:
        """What the operator tells BotFather (docs/operating.md: WEBAPP_URL, as written there)."""
        if short_name:
            self.short[short_name] = url
        else:
            self.main = url

    def launch_url(
        self,
        button: Json,
        user: FakeUser,
        *,
        theme: Json | None = None,
        platform: str = "android",
        auth_date: float | None = None,
        version: str = VERSION,
    ) -> str:
        """The address `user`'s client opens when he taps `button` (a recorded inline button);
        `version`: the Bot API version his client has."""
        when = int(auth_date if auth_date is not None else time.time())
        if "web_app" in button:
            url, start = button["web_app"]["url"], None
        elif "url" in button:
            url, start = self._direct_link(button["url"])
        else:
            raise NotAMiniApp(f"button {button.get('text')!r} opens no Mini App")
        fragment = urlencode(
            {
                "tgWebAppData": signed_init_data(self.token, user, start, when),
                "tgWebAppVersion": version,
                "tgWebAppPlatform": platform,
                "tgWebAppThemeParams": json.dumps(theme or LIGHT, separators=(",", ":")),
            },
            quote_via=quote,
        )
        return f"{url}#{fragment}"

    def _direct_link(self, link: str) -> tuple[str, str | None]:
        parts = urlsplit(link)
        path = [p for p in parts.path.split("/") if p]
        query = parse_qs(parts.query)
        if parts.netloc != "t.me" or not path or path[0].lower() != self.bot_username.lower():
            raise NotAMiniApp(f"{link} is not a direct link to this bot's Mini App")
        if "startapp" not in query:
            raise NotAMiniApp(f"{link} has no startapp")
        start = query["startapp"][0]
        url = self.short.get(path[1]) if len(path) == 2 else self.main
        if url is None:
            raise NotAMiniApp(f"{link}: no such Mini App registered with BotFather")
        joiner = "&" if urlsplit(url).query else "?"
        return f"{url}{joiner}tgWebAppStartParam={quote(start)}", start

    @staticmethod
    def opener(message: StoredMessage) -> Json:
        """The button of `message` that opens the Mini App (its last row's, as the bot puts it)."""
        markup = message.reply_markup or {}
        for row in markup.get("inline_keyboard", []):
            for button in row:
                if "web_app" in button or "startapp=" in str(button.get("url", "")):
                    return dict(button)
        raise NotAMiniApp(f"message {message.message_id} has no Mini App button")
