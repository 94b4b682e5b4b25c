"""The one error the engine raises for a move the rules do not allow."""

from __future__ import annotations


class IllegalAction(ValueError):
    """An action the rules forbid; `rule` names the point broken (e.g. 'F12')."""

    def __init__(self, rule: str, reason: str) -> None:
        super().__init__(f"{rule}: {reason}")
        self.rule = rule
        self.reason = reason
