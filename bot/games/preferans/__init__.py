"""Preferans in the bot (RULES P1-P18): its UI (`ui`), words (`words`), messages (`render`),
button codes (`codes`), deals told (`account`), tables played as pulyas (`table`), how the chat
draws them (`chat`) and the pulya sheet's picture (`sheet`)."""

from .chat import PulyaChat
from .codes import action_code, parse_action, toggle_selection
from .render import (
    hand_message,
    phase_line,
    result_lines,
    result_message,
    settlement_lines,
    standing_text,
    table_message,
)
from .sheet import sheet_photo
from .table import PulyaTables
from .ui import DEFAULT_WHIST_PRICE, TARGETS, UI, WHIST_PRICES, PreferansUI

__all__ = [
    "DEFAULT_WHIST_PRICE",
    "TARGETS",
    "UI",
    "WHIST_PRICES",
    "PreferansUI",
    "PulyaChat",
    "PulyaTables",
    "action_code",
    "hand_message",
    "parse_action",
    "phase_line",
    "result_lines",
    "result_message",
    "settlement_lines",
    "sheet_photo",
    "standing_text",
    "table_message",
    "toggle_selection",
]
