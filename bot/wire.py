"""The computer players' calls and answers as JSON (bot/remote.py): a seat's knowledge, a level, a
seed, an action; never a format that runs code when read.

A value is plain JSON where JSON has it (None, bools, numbers, strings, lists) and otherwise an
object of one tag: `{"T": [...]}` a tuple, `{"H": [i, ...]}` a tuple of cards (their indexes),
`{"S": [...]}` a frozenset, `{"D": [[key, value], ...]}` a dict, `{"C": i}` a card, `{"E": i}` an
enum member, `{"O": [i, field, ...]}` a dataclass or named tuple, its fields in order. Decoding
knows only the classes of `ALLOWED`, found once from the engine's knowledge, actions and deals
through their fields' types (and each family deal's own words and phases, which its fields type
only as some Verb or StrEnum): a record or member is a number into lists made from that dict in a
fixed order (nothing is imported by name; `SCHEMA` digests them, for bot/remote.py's version), a
record made from exactly its fields by its own constructor. Anything else is refused
(`WireError`), and so is a value nested deeper than `DEPTH`.

Why not a library: the engine's types do not decode by their annotations (a deal's `phase` is
any game's Phase, a card is one object per card made by `__new__`), so a schema-driven decoder
(pydantic, msgspec) would need a hook per type; a tag per value and one allowlist is smaller.
"""

from __future__ import annotations

import dataclasses
import functools
import hashlib
import json
import operator
import typing
from collections.abc import Callable
from enum import Enum
from types import UnionType
from typing import Any

from engine.actions import Action
from engine.cards import BY_INDEX, Card
from engine.deal import TrickDeal
from engine.games import GAMES
from engine.knowledge import Knowledge
from engine.preferans.actions import PrefAction
from engine.preferans.knowledge import PrefKnowledge

DEPTH = 64  # nesting levels a value may have (a deal is about 8 deep)


class WireError(ValueError):
    """A value that is not of the wire's shapes or names a class outside `ALLOWED`."""


def _is_record(cls: type) -> bool:
    return dataclasses.is_dataclass(cls) or (issubclass(cls, tuple) and hasattr(cls, "_fields"))


def _allowed(roots: tuple[type, ...]) -> dict[str, type]:
    """Every dataclass, named tuple and enum reachable from `roots` through field types, the
    enums of the fields' defaults (a deal's `phase` is typed only as some StrEnum), and a family
    deal's own Phase and words (`FINISHED`, `VERBS`: an action's `do` is only some Verb)."""
    found: dict[str, type] = {}
    todo: list[Any] = list(roots)
    while todo:
        hint = todo.pop()
        origin = typing.get_origin(hint)
        if origin is not None or isinstance(hint, UnionType):  # tuple[...], X | None, ClassVar
            todo += typing.get_args(hint)
            continue
        if not isinstance(hint, type) or hint is Card or _name(hint) in found:
            continue
        if issubclass(hint, Enum) and list(hint):
            found[_name(hint)] = hint
        elif _is_record(hint):
            found[_name(hint)] = hint
            hints = typing.get_type_hints(hint)
            todo += [hints[name] for name in _fields(hint)]
            if dataclasses.is_dataclass(hint):
                for f in dataclasses.fields(hint):
                    if f.default_factory is not dataclasses.MISSING:
                        todo.append(type(f.default_factory()))
                    elif f.default is not dataclasses.MISSING:
                        todo.append(type(f.default))
            finished = getattr(hint, "FINISHED", None)  # a family deal's own Phase
            if isinstance(finished, Enum):
                todo.append(type(finished))
            todo += getattr(hint, "VERBS", ())  # a family deal's words: Frap's and its own
    return found


def _name(cls: type) -> str:
    return f"{cls.__module__}.{cls.__qualname__}"


def _fields(cls: type) -> tuple[str, ...]:
    """The fields a value of `cls` is sent and made with (its constructor's)."""
    if dataclasses.is_dataclass(cls):
        return tuple(f.name for f in dataclasses.fields(cls) if f.init)
    fields: tuple[str, ...] = cls._fields  # type: ignore[attr-defined]
    return fields


# The knowledge of a seat of every game of the registry (`GAMES`: its family deals' classes are
# registered by their games), the actions a worker answers with.
assert GAMES
ALLOWED: dict[str, type] = _allowed(
    (Knowledge, PrefKnowledge, Action, PrefAction, *TrickDeal._BY_NAME.values())
)
# A record is tagged by its place among the records of `ALLOWED` by name, an enum member by its
# place among all their enums' members (each enum's in its own order).
_RECORDS = [(cls, _fields(cls)) for name, cls in sorted(ALLOWED.items()) if _is_record(cls)]
_MEMBERS: list[Enum] = [
    member for name, cls in sorted(ALLOWED.items()) if issubclass(cls, Enum) for member in cls
]
# What the numbers stand for, cards included, digested: a remote message carries it with its
# version (bot/remote.py), so that a bot and workers whose classes differ refuse each other.
SCHEMA = hashlib.sha256(
    repr(
        (
            [(_name(cls), fields) for cls, fields in _RECORDS],
            [(_name(type(member)), member._name_) for member in _MEMBERS],
            [str(card) for card in BY_INDEX],
        )
    ).encode()
).hexdigest()[:12]


def encode(value: Any) -> Any:
    """`value` as JSON-ready data; WireError for a class outside `ALLOWED`."""
    kind = type(value)
    coder = _CODERS.get(kind) or _coder(kind)
    return coder(value)


# How a value of each class met so far is encoded (every choice of `_coder` is by the class
# alone): a decision a value's many cards, tuples and actions need not make again.
_CODERS: dict[type, Callable[[Any], Any]] = {}
_CARD = [{"C": card.index} for card in BY_INDEX]  # one object each: JSON does not mind
_MEMBER: dict[type, dict[Enum, Any]] = {}  # by enum: Do.PASS == PrefDo.PASS (both StrEnums)
for _tag, _member in enumerate(_MEMBERS):
    _MEMBER.setdefault(type(_member), {})[_member] = {"E": _tag}
_INDEX = {card: card.index for card in BY_INDEX}  # a card's, by identity: no other key matches


def _coder(kind: type) -> Callable[[Any], Any]:
    """How `encode` writes a value of `kind` (kept for the next); WireError for a class outside
    `ALLOWED`."""
    coder: Callable[[Any], Any]
    name = _name(kind)
    if issubclass(kind, Enum):  # before int and str: IntEnum and StrEnum members are both
        if ALLOWED.get(name) is not kind:
            raise WireError(f"{name} is not sent")
        coder = _MEMBER[kind].__getitem__
    elif kind is type(None) or issubclass(kind, (bool, int, float, str)):
        coder = _same
    elif issubclass(kind, Card):
        coder = _card
    elif issubclass(kind, list):
        coder = _list
    elif ALLOWED.get(name) is kind and _is_record(kind):
        tag, fields = next((i, f) for i, (cls, f) in enumerate(_RECORDS) if cls is kind)
        if issubclass(kind, tuple):  # a named tuple: its items are its fields
            coder = functools.partial(_record, tag, _same)
        elif len(fields) == 1:  # attrgetter of one name gives the value, not a tuple
            coder = functools.partial(_record_of_one, tag, operator.attrgetter(fields[0]))
        else:
            coder = functools.partial(_record, tag, operator.attrgetter(*fields))
    elif issubclass(kind, tuple):
        coder = _tuple
    elif issubclass(kind, frozenset):
        coder = _frozenset
    elif issubclass(kind, dict):
        coder = _dict
    else:
        raise WireError(f"{name} is not sent")
    _CODERS[kind] = coder
    return coder


def _same(value: Any) -> Any:
    return value


def _card(value: Card) -> Any:
    return _CARD[value.index]


def _list(value: list[Any]) -> Any:
    return [item if type(item) in _PLAIN else encode(item) for item in value]


def _record(tag: int, get: Callable[[Any], tuple[Any, ...]], value: Any) -> Any:
    return {"O": [tag, *[item if type(item) in _PLAIN else encode(item) for item in get(value)]]}


def _record_of_one(tag: int, get: Callable[[Any], Any], value: Any) -> Any:
    return {"O": [tag, encode(get(value))]}


def _tuple(value: tuple[Any, ...]) -> Any:
    if value and type(value[0]) is Card:
        try:
            return {"H": list(map(_INDEX.__getitem__, value))}
        except (KeyError, TypeError):  # not cards only
            pass
    return {"T": [item if type(item) in _PLAIN else encode(item) for item in value]}


def _frozenset(value: frozenset[Any]) -> Any:
    return {"S": [item if type(item) in _PLAIN else encode(item) for item in value]}


def _dict(value: dict[Any, Any]) -> Any:
    return {"D": [[encode(k), encode(v)] for k, v in value.items()]}


_PLAIN = frozenset({type(None), bool, int, float, str})  # as JSON gives them: as they are
_CARD_AT = dict(enumerate(BY_INDEX))  # int keys only: an index that is no card's is a KeyError


def decode(data: Any, depth: int = 0) -> Any:
    """The value `encode` gave `data` for; WireError for anything else."""
    kind = type(data)
    if kind in _PLAIN:
        return data
    if depth > DEPTH:
        raise WireError("nested too deep")
    depth += 1
    if kind is list:
        return [item if type(item) in _PLAIN else decode(item, depth) for item in data]
    if kind is not dict or len(data) != 1:
        if isinstance(data, (bool, int, float, str)):  # a subclass of a plain value: not JSON's
            return data
        raise WireError("not a value of the wire")
    ((tag, body),) = data.items()
    if type(body) is int:  # bools and floats are no index
        if tag == "E" and 0 <= body < len(_MEMBERS):
            return _MEMBERS[body]
        if tag == "C" and 0 <= body < len(BY_INDEX):
            return BY_INDEX[body]
    elif type(body) is list:
        if tag == "T":
            return tuple([item if type(item) in _PLAIN else decode(item, depth) for item in body])
        if tag == "O" and body and type(body[0]) is int and 0 <= body[0] < len(_RECORDS):
            cls, fields = _RECORDS[body[0]]
            if len(body) == len(fields) + 1:
                items = iter(body)
                next(items)  # the tag
                values = [item if type(item) in _PLAIN else decode(item, depth) for item in items]
                try:
                    return cls(*values)
                except Exception as exc:  # the record's own check, whatever it raises
                    raise WireError(f"not a value of the wire ({type(exc).__name__})") from None
        elif tag == "H" and set(map(type, body)) <= {int}:
            try:
                return tuple(map(_CARD_AT.__getitem__, body))
            except KeyError:
                pass
        elif tag == "S":
            return _hashed(frozenset, [decode(item, depth) for item in body])
        elif tag == "D" and all(type(pair) is list and len(pair) == 2 for pair in body):
            return _hashed(dict, [(decode(k, depth), decode(v, depth)) for k, v in body])
    raise WireError("not a value of the wire")


def _hashed(cls: Callable[[list[Any]], Any], items: list[Any]) -> Any:
    """A set or dict of `items`; WireError for an unhashable one (a list)."""
    try:
        return cls(items)
    except TypeError:
        raise WireError("not a value of the wire (unhashable)") from None


# Compact; no check for cycles, which an encoded value (a tree `encode` made) never has.
JSON = json.JSONEncoder(separators=(",", ":"), ensure_ascii=False, check_circular=False)


def dumps(value: Any) -> bytes:
    """`value` encoded, as compact JSON."""
    return JSON.encode(encode(value)).encode()


def loads(body: bytes) -> Any:
    """The value of `dumps`'s bytes; WireError for any other bytes."""
    try:
        data = json.loads(body)
    except (ValueError, RecursionError) as exc:
        raise WireError(f"not JSON ({type(exc).__name__})") from None
    return decode(data)
