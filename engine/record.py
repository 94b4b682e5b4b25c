"""Hand records (`frap-hand/1`, shared/HAND_FORMAT.md) of the Frap family: read, replay, and
summarise a deal. A family game's records replay once its deal class exists (`TrickDeal.named`;
engine/games.py, the registry, imports every game). Any game's record: `engine.games.summary`."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from .actions import Action
from .deal import FORMAT, TrickDeal
from .errors import IllegalAction, ReplayError
from .events import ChipsMoved, Event, Reason


def start(record: dict[str, Any]) -> TrickDeal:
    """The deal described by a record's header, before its actions."""
    if record.get("format") != FORMAT:
        raise ReplayError(None, f"format must be {FORMAT!r}")
    game = record.get("game", "frap")
    deal = TrickDeal.named(game)
    if deal is None:
        raise ReplayError(None, f"unknown game {game!r}")
    try:
        return deal.start_from_record(record)
    except (KeyError, TypeError, ValueError) as exc:
        raise ReplayError(None, str(exc)) from exc


def replay(record: dict[str, Any]) -> TrickDeal:
    """The deal after every action of the record; raises ReplayError naming the bad action."""
    deal = start(record)
    actions = record.get("actions", [])
    if not isinstance(actions, list):
        raise ReplayError(None, "actions must be a list")
    for index, entry in enumerate(actions):
        try:
            action = Action.from_record(entry, deal.WORDS)
        except (ValueError, TypeError) as exc:
            raise ReplayError(index, str(exc)) from exc
        try:
            deal, _ = deal.apply(action)
        except IllegalAction as exc:
            raise ReplayError(index, str(exc)) from exc
    return deal


def story(record: dict[str, Any]) -> tuple[TrickDeal, list[tuple[Action | None, list[Event]]]]:
    """The deal after every action and, step by step, what happened: first (None, the antes),
    then each action with its events; raises ReplayError like `replay`."""
    deal = start(record)
    # F3: at the start only antes move, so the deal's changes so far are the antes paid
    antes: list[Event] = [
        ChipsMoved(seat, amount, Reason.ANTE) for seat, amount in enumerate(deal.delta) if amount
    ]
    steps: list[tuple[Action | None, list[Event]]] = [(None, antes)]
    actions = record.get("actions", [])
    if not isinstance(actions, list):
        raise ReplayError(None, "actions must be a list")
    for index, entry in enumerate(actions):
        try:
            action = Action.from_record(entry, deal.WORDS)
            deal, events = deal.apply(action)
        except (ValueError, TypeError) as exc:
            raise ReplayError(index, str(exc)) from exc
        steps.append((action, events))
    return deal, steps


def outcome(deal: TrickDeal) -> dict[str, Any]:
    """What `engine replay` prints: finished, the pot, each player's change and tricks."""
    return {
        "finished": deal.finished,
        "pot": deal.pot,
        "delta": dict(zip(deal.players, deal.delta, strict=True)),
        "tricks": dict(zip(deal.players, deal.tricks_won, strict=True)),
    }


def read(path: str | Path) -> dict[str, Any]:
    """A record from a JSON file."""
    data = json.loads(Path(path).read_text(encoding="utf-8"))
    if not isinstance(data, dict):
        raise ReplayError(None, "a record is a JSON object")
    return data


def dumps(record: dict[str, Any]) -> str:
    """A record as compact, stable JSON text."""
    return json.dumps(record, ensure_ascii=False, separators=(",", ":"))
