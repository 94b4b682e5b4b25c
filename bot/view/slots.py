"""The names of the bot's messages, the presenter's slots: each name's shape in one place, so
that no two modules spell one differently (a name keys the message's stored row: a shape changed
leaves the stored rows of open tables behind)."""

from __future__ import annotations


def lobby(table_id: int) -> str:
    """A table's lobby in its chat."""
    return f"lobby:{table_id}"


def table(table_id: int, deal_no: int | None = None) -> str:
    """Deal `deal_no`'s table message in the group; without a deal, the prefix of them all."""
    return f"table:{table_id}:" + ("" if deal_no is None else str(deal_no))


def result(table_id: int, deal_no: int | None = None) -> str:
    """Deal `deal_no`'s result in the group; without a deal, the prefix of them all."""
    return f"result:{table_id}:" + ("" if deal_no is None else str(deal_no))


def hand(table_id: int, user_id: int | None = None) -> str:
    """A player's control message at a table, one for all his deals there; without a player,
    the prefix of them all."""
    return f"hand:{table_id}:" + ("" if user_id is None else str(user_id))


def sheet(table_id: int) -> str:
    """A pulya's score sheet in the group."""
    return f"sheet:{table_id}"


def of_table(table_id: int) -> tuple[str, ...]:
    """The prefixes of a table's messages that a closed table no longer keeps up to date."""
    return (lobby(table_id), table(table_id), hand(table_id), result(table_id))
