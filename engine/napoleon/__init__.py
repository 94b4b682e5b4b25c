"""Napoleon (Клад Наполеона): docs/rules.md N1–N8."""

from .rules import NapoleonRules
from .settle import NAPOLEON
from .state import NapoleonDeal, NapoleonDo, Phase

__all__ = ["NAPOLEON", "NapoleonDeal", "NapoleonDo", "NapoleonRules", "Phase"]
