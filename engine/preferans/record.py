"""Preferans deal records (HAND_FORMAT "Preferans records"): write, read, replay, summarise."""

from __future__ import annotations

from typing import Any

from ..cards import parse_cards
from ..deal import FORMAT
from ..errors import IllegalAction, ReplayError
from .actions import PrefAction
from .deal import PrefDeal
from .events import PrefEvent
from .outcome import Entries, PrefRules


def to_record(deal: PrefDeal) -> dict[str, Any]:
    """The deal as a record: the envelope, the streak and every action so far."""
    return {
        "format": FORMAT,
        "game": PrefDeal.game,
        "rules": deal.rules.to_dict(),
        "players": list(deal.players),
        "dealer": deal.dealer,
        "ante": 0,
        "pot": 0,
        "pot_has_penalty": False,
        "raspasy_streak": deal.streak,
        "deck": [str(card) for card in deal.deck],
        "actions": [action.to_record() for action in deal.actions],
    }


def start(record: dict[str, Any]) -> PrefDeal:
    """The deal a record's header describes, before its actions; ReplayError if malformed."""
    try:
        if record.get("format") != FORMAT or record.get("game") != PrefDeal.game:
            raise ValueError(f"a Preferans record has format {FORMAT!r} and game 'preferans'")
        for name in ("ante", "pot"):
            if record.get(name, 0) != 0 or isinstance(record.get(name), bool):
                raise ValueError(f"{name} is 0 in a Preferans record")
        if record.get("pot_has_penalty", False) is not False or record.get("redeal", False):
            raise ValueError("pot_has_penalty and redeal are not used in Preferans")
        rules, players, deck = record.get("rules", {}), record["players"], record["deck"]
        if not isinstance(rules, dict):
            raise ValueError("rules must be an object")
        if not isinstance(players, list):
            raise ValueError("players must be a list of names")
        if not isinstance(deck, list) or not all(isinstance(code, str) for code in deck):
            raise ValueError("deck must be a list of card codes")
        deal, _ = PrefDeal.new(
            PrefRules.from_dict(rules), players, record["dealer"], parse_cards(deck),
            streak=record.get("raspasy_streak", 0),
        )  # fmt: skip
    except (KeyError, TypeError, ValueError) as exc:
        raise ReplayError(None, str(exc) if not isinstance(exc, KeyError) else f"no {exc}") from exc
    return deal


def replay(record: dict[str, Any]) -> PrefDeal:
    """The deal after every action of the record; ReplayError names the action and the rule."""
    return story(record)[0]


def story(record: dict[str, Any]) -> tuple[PrefDeal, list[tuple[PrefAction, list[PrefEvent]]]]:
    """The deal after every action and, step by step, each action with what happened (for a
    deal told in full); raises ReplayError like `replay`."""
    deal = start(record)
    actions = record.get("actions", [])
    if not isinstance(actions, list):
        raise ReplayError(None, "actions must be a list")
    steps: list[tuple[PrefAction, list[PrefEvent]]] = []
    for index, entry in enumerate(actions):
        try:
            action = PrefAction.from_record(entry)
        except ValueError as exc:
            raise ReplayError(index, str(exc)) from exc
        try:
            deal, events = deal.apply(action)
        except IllegalAction as exc:
            raise ReplayError(index, f"{action.do.value} by seat {action.seat}: {exc}") from exc
        steps.append((action, events))
    return deal, steps


def summary(record: dict[str, Any]) -> dict[str, Any]:
    """What `python -m engine replay` prints for a Preferans record (HAND_FORMAT)."""
    return outcome(replay(record))


def outcome(deal: PrefDeal) -> dict[str, Any]:
    """The replay summary of a deal: its kind, contract, declarer, tricks and entries."""
    names = deal.players
    result = deal.outcome
    entries = deal.entries or Entries.zero(deal.n)
    made = None if result is None else result.made
    return {
        "finished": deal.finished,
        "kind": None if result is None else result.kind,
        "contract": None if result is None else result.contract,
        "declarer": None if result is None or result.declarer is None else names[result.declarer],
        "made": made,
        "tricks": dict(zip(names, deal.won, strict=True)),
        "entries": entries.to_json(names),
    }


def to_json(deal: PrefDeal) -> dict[str, Any]:
    """The state as JSON: its record (a deal is its header plus its actions)."""
    return to_record(deal)


def from_json(data: dict[str, Any]) -> PrefDeal:
    """The state back from `to_json`, by replaying it."""
    return replay(data)
