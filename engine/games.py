"""The games the engine plays, by the name hand records use."""

from __future__ import annotations

from .deal import TrickDeal
from .frap import FrapDeal, KhrapDeal
from .napoleon import NapoleonDeal
from .student import StudentDeal

GAMES: dict[str, type[TrickDeal]] = {
    "frap": FrapDeal,
    "khrap": KhrapDeal,
    "student_khrap": StudentDeal,
    "napoleon": NapoleonDeal,
}
