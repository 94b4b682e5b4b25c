"""House-rule objects of every game: a preset name plus overrides, as hand records store them."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import fields, replace
from typing import Any, TypeVar

R = TypeVar("R")


def overrides(base: Any, rules: Any) -> dict[str, Any]:
    """The options in which `rules` differ from `base`."""
    return {
        f.name: getattr(rules, f.name)
        for f in fields(base)
        if getattr(base, f.name) != getattr(rules, f.name)
    }


def to_dict(rules: Any, presets: Mapping[str, Any]) -> dict[str, Any]:
    """The rules as a record's `rules` object: the closest preset plus its overrides."""
    name = min(presets, key=lambda preset: len(overrides(presets[preset], rules)))
    return {"preset": name, **overrides(presets[name], rules)}


def from_dict(
    data: Mapping[str, Any], presets: Mapping[str, R], allowed: Mapping[str, tuple[Any, ...]]
) -> R:
    """Rules from a record's `rules` object; raises ValueError for unknown names or values."""
    options = dict(data)
    name = options.pop("preset", "classic")
    if name not in presets:
        raise ValueError(f"unknown preset {name!r}")
    unknown = set(options) - set(allowed)
    if unknown:
        raise ValueError(f"unknown rule options: {sorted(unknown)}")
    for option, value in options.items():
        if not any(value is v or (type(value) is type(v) and value == v) for v in allowed[option]):
            raise ValueError(f"rule option {option}={value!r} is not one of {allowed[option]}")
    # Rules are frozen, so the preset itself serves when nothing is overridden.
    return replace(presets[name], **options) if options else presets[name]  # type: ignore[type-var]
