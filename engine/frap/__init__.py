"""Frap (французская стуколка): RULES.md F1–F16."""

from .rules import PRESETS, FrapRules
from .state import FrapDeal, Phase
from .views import SeatInfo, SeatView, TableView, seat_view, table_view

__all__ = [
    "PRESETS",
    "FrapDeal",
    "FrapRules",
    "Phase",
    "SeatInfo",
    "SeatView",
    "TableView",
    "seat_view",
    "table_view",
]
