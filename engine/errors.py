"""The engine's errors: a move the rules do not allow, and a record that cannot be replayed."""

from __future__ import annotations


class IllegalAction(ValueError):
    """An action the rules forbid; `rule` names the point broken (e.g. 'F12')."""

    def __init__(self, rule: str, reason: str) -> None:
        super().__init__(f"{rule}: {reason}")
        self.rule = rule
        self.reason = reason


class ReplayError(ValueError):
    """A record that cannot be replayed; `index` names the failing action (None: the header)."""

    def __init__(self, index: int | None, message: str) -> None:
        where = "header" if index is None else f"action {index}"
        super().__init__(f"{where}: {message}")
        self.index = index
