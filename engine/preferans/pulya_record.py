"""Whole-pulya records (`pref-pulya/1`, shared/HAND_FORMAT.md): read one into a sheet, write one
back, and what `python -m engine score` prints."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ..errors import IllegalAction
from .outcome import Outcome, PrefRules
from .pulya import Pulya
from .record import replay as replay_deal

FORMAT = "pref-pulya/1"
GAME = "preferans"


class PulyaError(ValueError):
    """A pulya record that cannot be scored; `deal` is the failing deal's number from 1 (None:
    the header)."""

    def __init__(self, deal: int | None, message: str) -> None:
        where = "header" if deal is None else f"deal {deal}"
        super().__init__(f"{where}: {message}")
        self.deal = deal


def load(data: Mapping[str, Any]) -> tuple[Pulya, list[str]]:
    """The sheet after every deal of a `pref-pulya/1` record, and the players' names; raises
    PulyaError naming the deal and the rule."""
    if not isinstance(data, Mapping):
        raise PulyaError(None, "a pulya record is a JSON object")
    if data.get("format") != FORMAT:
        raise PulyaError(None, f"format must be {FORMAT!r}")
    if data.get("game", GAME) != GAME:
        raise PulyaError(None, f"game must be {GAME!r}")
    names = data.get("players")
    if (
        not isinstance(names, list)
        or not all(isinstance(name, str) and name for name in names)
        or len(set(names)) != len(names)
    ):
        raise PulyaError(None, "players must be a list of distinct names")
    rules = data.get("rules", {"preset": "sochi"})
    first = data.get("first_dealer")
    deals = data.get("deals", [])
    if not isinstance(first, int) or isinstance(first, bool):
        raise PulyaError(None, "first_dealer must be a seat number")
    if not isinstance(deals, list):
        raise PulyaError(None, "deals must be a list")
    try:
        if not isinstance(rules, Mapping):
            raise ValueError("rules must be an object")
        sheet = Pulya.new(len(names), first, PrefRules.from_dict(rules))
    except ValueError as exc:  # IllegalAction included
        raise PulyaError(None, str(exc)) from exc
    for number, entry in enumerate(deals, start=1):
        try:
            outcome = _outcome(entry, sheet, names)
            sheet = sheet.add(outcome)
        except PulyaError:
            raise
        except (IllegalAction, ValueError, TypeError) as exc:
            raise PulyaError(number, str(exc)) from exc
    return sheet, names


def _outcome(entry: Any, sheet: Pulya, names: Sequence[str]) -> Outcome:
    """A deal of the pulya: an outcome as written, or the outcome of a whole deal record."""
    if not (isinstance(entry, Mapping) and "record" in entry):
        return Outcome.from_json(entry)
    if set(entry) != {"record"}:
        raise ValueError("a deal given as a record has only the field 'record'")
    record = entry["record"]
    if not isinstance(record, Mapping):
        raise ValueError("record must be an object")
    expected = {
        "players": list(names),
        "dealer": sheet.dealer,
        "raspasy_streak": sheet.streak,
        "rules": sheet.rules,
    }
    found = {
        "players": record.get("players"),
        "dealer": record.get("dealer"),
        "raspasy_streak": record.get("raspasy_streak", 0),
        "rules": PrefRules.from_dict(record.get("rules", {})),
    }
    for key, value in expected.items():
        if found[key] != value:
            message = f"the record's {key} does not agree with the pulya's"
            rule = {"players": "P1", "dealer": "P3", "raspasy_streak": "P10"}.get(key)
            raise ValueError(message) if rule is None else IllegalAction(rule, message)
    deal = replay_deal(dict(record))  # ReplayError names the action and the rule
    if deal.outcome is None:
        raise ValueError("the record stops before the deal is over")
    return deal.outcome


def to_record(sheet: Pulya, names: Sequence[str]) -> dict[str, Any]:
    """The sheet as a `pref-pulya/1` record of outcomes (reads back to an equal sheet)."""
    return {
        "format": FORMAT,
        "game": GAME,
        "rules": sheet.rules.to_dict(),
        "players": list(names),
        "first_dealer": sheet.first_dealer,
        "deals": [line.outcome.to_json() for line in sheet.lines],
    }


def report(sheet: Pulya, names: Sequence[str]) -> dict[str, Any]:
    """What `python -m engine score` prints: the totals and each balance (P14, P16)."""
    balances = sheet.balances()
    return {
        "finished": sheet.finished,
        "deals": sheet.deals,
        "raspasy_streak": sheet.streak,
        "players": {
            name: {
                "pulya": sheet.pulya[i],
                "gora": sheet.gora[i],
                "whists": {other: sheet.whists[i][j] for j, other in enumerate(names) if j != i},
                "balance": balances[i],
            }
            for i, name in enumerate(names)
        },
    }
