"""Frap (французская стуколка, docs/rules.md F1–F16) and Khrap (храп, K1–K6)."""

from ..views import SeatInfo, SeatView, TableView, seat_view, table_view
from .khrap import KhrapDeal, KhrapDo
from .rules import PRESETS, FrapRules
from .state import FrapDeal, Phase

__all__ = [
    "PRESETS",
    "FrapDeal",
    "FrapRules",
    "KhrapDeal",
    "KhrapDo",
    "Phase",
    "SeatInfo",
    "SeatView",
    "TableView",
    "seat_view",
    "table_view",
]
