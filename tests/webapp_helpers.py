"""The Mini App's test kit: initData signed as Telegram signs it, a bot serving the Mini App."""

from __future__ import annotations

import json
import socket
import time
from typing import Any

import aiohttp

from bot.web.initdata import WebUser, sign
from tests.fakebot import FakeTelegram
from tests.fakebot.models import FakeUser

PATH = "/app"


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def webapp_overrides(slash: str = "") -> dict[str, Any]:
    """`running_bot` settings serving the Mini App on a free port of 127.0.0.1, at WEBAPP_URL
    `…/app` (README's form) or, with `slash="/"`, `…/app/`."""
    port = free_port()
    return {
        "webapp_url": f"http://127.0.0.1:{port}{PATH}{slash}",
        "webhook_listen": "127.0.0.1",
        "port": port,
    }


def init_data(
    token: str,
    user: FakeUser,
    start_param: str | None = None,
    *,
    auth_date: float | None = None,
    **extra: str,
) -> str:
    """initData for `user` as Telegram makes it, signed with `token`."""
    fields = {
        "query_id": "AAH-test",
        "user": json.dumps(
            {
                "id": user.id,
                "first_name": user.first_name,
                "last_name": user.last_name or "",
                "username": user.username or "",
                "language_code": user.language_code or "",
            },
            separators=(",", ":"),
            ensure_ascii=False,
        ),
        "auth_date": str(int(auth_date if auth_date is not None else time.time())),
        **extra,
    }
    if start_param is not None:
        fields["start_param"] = start_param
    return sign(fields, token)


def auth(tg: FakeTelegram, user: FakeUser, table_id: int, **kw: Any) -> dict[str, str]:
    """The Authorization header of a page opened by `user` from the group's table button."""
    return {"Authorization": "tma " + init_data(tg.token, user, str(table_id), **kw)}


def web_user(user: FakeUser, table_id: int | None = None) -> WebUser:
    """The verified user a page of `user` stands for (to ask the server's views directly)."""
    start = str(table_id) if table_id is not None else None
    return WebUser(user.id, user.first_name, user.language_code, start, int(time.time()))


async def open_socket(
    http: aiohttp.ClientSession, base: str, tg: FakeTelegram, user: FakeUser, table_id: int
) -> aiohttp.ClientWebSocketResponse:
    """The live view as `user`'s page opened from the group's table button has it: the socket at
    `base`'s `api/ws` (no launch data in its address), initData sent as its first message."""
    socket = await http.ws_connect(base + "/api/ws")
    await socket.send_json({"init": init_data(tg.token, user, str(table_id))})
    return socket


def page_buttons(deal: dict[str, Any]) -> list[tuple[str, str]]:
    """What a page's player may press, as his chat control message's buttons: (label, data).
    A card carries the press of the chat button that names it ('✖️ 7♠' when marked for the
    discard), on his hand or on the open hand he plays (P7); a bid on the ladder (Preferans's)
    carries its own; the words are the other choices."""
    cards = [*(deal.get("hand") or [])]
    for seat in deal.get("seats") or []:
        cards += seat.get("open_hand") or []
    shown = [
        (("✖️ " if c.get("marked") else "") + c["label"], c["press"]) for c in cards if "press" in c
    ]
    shown += [(r["label"], r["press"]) for r in deal.get("ladder") or [] if "press" in r]
    return shown + [(b["label"], b["press"]) for b in deal.get("choices") or []]
