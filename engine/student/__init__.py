"""Student Khrap (студенческий храп): docs/rules.md SK1–SK13."""

from .rules import PRESETS, StudentRules
from .state import JOKER, Phase, StudentDeal, StudentDo

__all__ = ["JOKER", "PRESETS", "Phase", "StudentDeal", "StudentDo", "StudentRules"]
