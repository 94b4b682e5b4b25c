"""The computer players' calls and answers as JSON (bot/remote.py): a seat's knowledge, a level, a
seed, an action; never a format that runs code when read.

A value is plain JSON where JSON has it (None, bools, numbers, strings, lists) and a tagged object
otherwise: `{"T": [...]}` a tuple, `{"S": [...]}` a frozenset, `{"D": [[key, value], ...]}` a
dict, `{"C": n}` a card (its index), `{"E": class, "m": member}` an enum member, `{"O": class,
"f": {field: value}}` a dataclass or named tuple. Decoding knows only the classes of `ALLOWED`,
found once from the engine's knowledge, actions and deals through their fields' types: a class
by its name in that dict (nothing is imported by name), made from exactly its fields by its own
constructor, an enum member looked up by name. Anything else is refused (`WireError`), and so
is a value nested deeper than `DEPTH`.

Why not a library: the engine's types do not decode by their annotations (a deal's `phase` is
any game's Phase, a card is one object per card made by `__new__`), so a schema-driven decoder
(pydantic, msgspec) would need a hook per type; a tag per value and one allowlist is smaller.
"""

from __future__ import annotations

import dataclasses
import functools
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
    """Every dataclass, named tuple and enum reachable from `roots` through field types, and the
    enums of the fields' defaults (a deal's `phase` is typed only as some StrEnum)."""
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
_FIELDS = {name: _fields(cls) for name, cls in ALLOWED.items() if _is_record(cls)}


def encode(value: Any) -> Any:
    """`value` as JSON-ready data; WireError for a class outside `ALLOWED`."""
    kind = type(value)
    coder = _CODERS.get(kind) or _coder(kind)
    return coder(value)


# How a value of each class met so far is encoded (every choice of `_coder` is by the class
# alone): a decision a value's many cards, tuples and actions need not make again.
_CODERS: dict[type, Callable[[Any], Any]] = {}


def _coder(kind: type) -> Callable[[Any], Any]:
    """How `encode` writes a value of `kind` (kept for the next); WireError for a class outside
    `ALLOWED`."""
    coder: Callable[[Any], Any]
    name = _name(kind)
    if issubclass(kind, Enum):  # before int and str: IntEnum and StrEnum members are both
        if name not in ALLOWED:
            raise WireError(f"{name} is not sent")
        coder = functools.partial(_member, name)
    elif kind is type(None) or issubclass(kind, (bool, int, float, str)):
        coder = _same
    elif issubclass(kind, Card):
        coder = _card
    elif issubclass(kind, list):
        coder = _list
    elif name in _FIELDS:
        fields = _FIELDS[name]
        get = operator.attrgetter(*fields)
        if len(fields) == 1:
            coder = functools.partial(_one_field, name, fields[0], get)
        else:
            coder = functools.partial(_record, name, fields, get)
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


def _member(name: str, value: Enum) -> Any:
    return {"E": name, "m": value._name_}


def _card(value: Card) -> Any:
    return {"C": value.index}


def _list(value: list[Any]) -> Any:
    return list(map(encode, value))


def _record(name: str, fields: tuple[str, ...], get: Callable[[Any], Any], value: Any) -> Any:
    return {"O": name, "f": dict(zip(fields, map(encode, get(value)), strict=True))}


def _one_field(name: str, field: str, get: Callable[[Any], Any], value: Any) -> Any:
    return {"O": name, "f": {field: encode(get(value))}}


def _tuple(value: tuple[Any, ...]) -> Any:
    return {"T": list(map(encode, value))}


def _frozenset(value: frozenset[Any]) -> Any:
    return {"S": list(map(encode, value))}


def _dict(value: dict[Any, Any]) -> Any:
    return {"D": [[encode(k), encode(v)] for k, v in value.items()]}


_PLAIN = frozenset({type(None), bool, int, float, str})  # as JSON gives them: as they are


def decode(data: Any, depth: int = 0) -> Any:
    """The value `encode` gave `data` for; WireError for anything else."""
    kind = type(data)
    if kind in _PLAIN:
        return data
    if kind is dict and len(data) == 1 and "C" in data:  # a card: the commonest by far
        index = data["C"]
        if type(index) is int and 0 <= index < len(BY_INDEX):
            return BY_INDEX[index]
        raise WireError("not a value of the wire")
    if not isinstance(data, (list, dict)):  # a subclass of a plain value: never from JSON
        if isinstance(data, (bool, int, float, str)):
            return data
        raise WireError("not a value of the wire")
    if depth > DEPTH:
        raise WireError("nested too deep")
    depth += 1
    if isinstance(data, list):
        return _items(data, depth)
    try:
        if len(data) == 1:
            ((tag, body),) = data.items()
            if tag in ("T", "S") and isinstance(body, list):
                items = _items(body, depth)
                return tuple(items) if tag == "T" else frozenset(items)
            if tag == "D" and isinstance(body, list):
                return {decode(k, depth): decode(v, depth) for k, v in body}
        elif len(data) != 2:
            pass
        elif "E" in data and "m" in data:
            cls = ALLOWED[data["E"]]
            if issubclass(cls, Enum):
                return cls[data["m"]]
        elif "O" in data and "f" in data:
            fields = _FIELDS[data["O"]]
            given = data["f"]
            if isinstance(given, dict) and tuple(given) == fields:
                made = {k: v if type(v) in _PLAIN else decode(v, depth) for k, v in given.items()}
                return ALLOWED[data["O"]](**made)
    except (KeyError, TypeError, ValueError) as exc:  # an unknown name, member, an unhashable key
        if isinstance(exc, WireError):
            raise
        raise WireError(f"not a value of the wire ({type(exc).__name__}: {exc})") from None
    raise WireError("not a value of the wire")


def _items(data: list[Any], depth: int) -> list[Any]:
    """A list's items decoded (the plain ones, most, without a call)."""
    return [item if type(item) in _PLAIN else decode(item, depth) for item in data]


def dumps(value: Any) -> bytes:
    """`value` encoded, as compact JSON."""
    return json.dumps(encode(value), separators=(",", ":"), ensure_ascii=False).encode()


def loads(body: bytes) -> Any:
    """The value of `dumps`'s bytes; WireError for any other bytes."""
    try:
        data = json.loads(body)
    except (ValueError, RecursionError) as exc:
        raise WireError(f"not JSON ({type(exc).__name__})") from None
    return decode(data)
