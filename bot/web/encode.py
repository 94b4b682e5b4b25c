"""A screen (bot/view/screen.py) as the page reads it: every dataclass a dict of its fields by
name, tuples lists, None null; a field marked `OMIT_NONE` is left out while None. One encoder
for every kind of screen: the page reads by name what a game's screen holds."""

from __future__ import annotations

from dataclasses import fields
from typing import Any

Json = dict[str, Any]

_FIELDS: dict[type, tuple[tuple[str, bool], ...]] = {}  # by class: (name, omitted if None)


def encode(value: Any) -> Any:
    """`value` as JSON data (dicts, lists, strings, numbers, booleans, None)."""
    kind = type(value)
    if kind in (str, int, bool, float) or value is None:
        return value
    if kind in (tuple, list):
        return [encode(item) for item in value]
    if kind is dict:
        return {key: encode(item) for key, item in value.items()}
    shown = _FIELDS.get(kind)
    if shown is None:
        shown = _FIELDS[kind] = tuple(
            (f.name, bool(f.metadata.get("omit_none"))) for f in fields(value)
        )
    out: Json = {}
    for name, omit in shown:
        item = getattr(value, name)
        if item is None and omit:
            continue
        out[name] = encode(item)
    return out
