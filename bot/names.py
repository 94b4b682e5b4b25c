"""Names the group can tell apart: two players called the same are shown with their
@username, or a short number when they have none."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence

from .storage import UserRow


def distinct(users: Iterable[UserRow]) -> dict[int, str]:
    """Each user's label by id: his name, made distinct where another has the same one."""
    people = sorted({u.user_id: u for u in users}.values(), key=lambda u: u.user_id)
    same = Counter(u.name.casefold() for u in people)
    labels: dict[int, str] = {}
    numbered: Counter[str] = Counter()
    for user in people:
        if same[user.name.casefold()] == 1:
            labels[user.user_id] = user.name
        elif user.username:
            labels[user.user_id] = f"{user.name} (@{user.username})"
        else:
            numbered[user.name.casefold()] += 1
            labels[user.user_id] = f"{user.name} ({numbered[user.name.casefold()]})"
    return labels


def labels(names: Sequence[str]) -> list[str]:
    """Distinct seat labels for the engine (F2): a repeated name gets " 2", " 3"…"""
    used: set[str] = set()
    out = []
    for name in names:
        label, k = name, 1
        while label in used:
            k += 1
            label = f"{name} {k}"
        used.add(label)
        out.append(label)
    return out
