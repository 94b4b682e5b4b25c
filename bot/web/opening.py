"""The buttons that open the Mini App: the group's table message gets a URL button, a
t.me direct link with the table in `startapp` (Telegram refuses `web_app` buttons in groups:
400 BUTTON_TYPE_INVALID); each player's private control message gets a `web_app` button."""

from __future__ import annotations

from dataclasses import dataclass

from locales import t

from ..view.message import Button, Link


@dataclass(frozen=True, slots=True)
class Opener:
    """Adds the Mini App's button to a table's messages."""

    webapp_url: str
    bot_username: str
    short_name: str | None = None

    def link(self, table_id: int) -> str:
        """The direct link that opens the Mini App at a table: the app's short name set with
        BotFather's /newapp, or the bot's main Mini App."""
        app = f"/{self.short_name}" if self.short_name else ""
        return f"https://t.me/{self.bot_username}{app}?startapp={table_id}"

    def __call__(self, table_id: int, lang: str, private: bool) -> list[Button]:
        """The "🃏 Table" button (the host's `WayIn`): in a private chat a `web_app` button that
        opens the page in place; in a group, where those do not work, the page's direct link."""
        if private:
            return [Link(t(lang, "btn.web_table"), f"{self.webapp_url}?table={table_id}", app=True)]
        return [Link(t(lang, "btn.web_table"), self.link(table_id))]
