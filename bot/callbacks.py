"""callback_data for inline buttons: short, self-describing, at most 64 bytes.

Every button names its table (and, for deal buttons, the deal number and the step it was drawn
at), so a press on a button from an earlier deal, a stopped table or an outdated position is
recognised and refused.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from engine.ai import LEVELS
from engine.cards import Card

MAX_BYTES = 64
ANY_STEP = -1  # the step of a button that stays valid whatever the position (F7's look)

# A lobby's computer player buttons: a level's number, or "-" (stand the last one up)
_COMPUTER_CODES = ("-", *(str(i) for i in range(len(LEVELS))))


INT64_MAX = 2**63 - 1  # SQLite's largest integer: a larger id cannot name a row


def parse_id(text: str) -> int | None:
    """A row id written as text (a table's, in a page's start_param or address): ASCII digits
    only (`str.isdigit` takes "²" too), within SQLite's integers; None for anything else."""
    if not (0 < len(text) <= 19 and text.isascii() and text.isdigit()):
        return None
    value = int(text)
    return value if value <= INT64_MAX else None


class BadCallback(ValueError):
    """callback_data that is not one of ours, or malformed."""


class Kind(StrEnum):
    """What a button does: the letter its callback data starts with (`Press.kind`)."""

    JOIN = "j"
    LEAVE = "l"
    START = "s"
    GAME = "g"  # the lobby switches to the next game
    ACT = "a"  # a move in the deal
    TOGGLE = "t"  # a card picked or put back (a discard being chosen)
    NEXT = "n"  # the next deal
    CONFIG = "c"  # the settings menu
    CHOICE = "u"  # the user's choice: pings, language
    SEASON = "z"  # a new season confirmed
    KICK = "k"  # an admin stands a player up
    COMPUTER = "m"  # the lobby seats a computer player or stands one up
    REVIEW = "r"  # a finished deal's review (table_id holds the deal's id)
    REPLAY = "p"  # a finished deal played again as practice (its id; code: a level's number)


@dataclass(frozen=True, slots=True)
class Press:
    """A decoded button press. `kind`: j(oin) l(eave) s(tart) g(ame) a(ction) t(oggle) n(ext)
    c(onfig) u(ser's choice: pings, language) z (a new season: table_id holds the seasons
    closed so far) r (a deal's review: table_id holds the deal's id) p (that deal played again
    against computer players of level number `code`) k (an admin stands player
    `code` up) m (the lobby seats a computer player of level number `code`, or stands the last
    one up: `-`)."""

    kind: str
    table_id: int = 0
    deal_no: int = 0
    step: int = 0
    code: str = ""


def encode(kind: str, table_id: int = 0, deal_no: int = 0, step: int = 0, code: str = "") -> str:
    """callback_data for a press; raises if it would exceed Telegram's 64 bytes."""
    if kind in ("a", "t"):
        data = f"{kind}:{table_id}:{deal_no}:{step}:{code}"
    elif kind == "n":
        data = f"n:{table_id}:{deal_no}"
    elif kind in ("c", "u"):
        data = f"{kind}:{code}"
    elif kind in ("k", "m", "p"):  # k: an admin stands player `code` (a user id) up;
        data = f"{kind}:{table_id}:{code}"  # m: a computer player sits down or stands up (17)
    else:
        data = f"{kind}:{table_id}"
    if len(data.encode()) > MAX_BYTES:
        raise ValueError(f"callback_data too long: {data!r}")
    return data


def decode(data: str | None) -> Press:
    """The press a button's data stands for; raises BadCallback for anything else."""
    if not data or len(data.encode()) > MAX_BYTES:
        raise BadCallback("empty or too long")
    kind, _, rest = data.partition(":")
    parts = rest.split(":")
    try:
        if kind in ("a", "t") and len(parts) == 4:
            return Press(kind, int(parts[0]), int(parts[1]), int(parts[2]), parts[3])
        if kind == "n" and len(parts) == 2:
            return Press(kind, int(parts[0]), int(parts[1]))
        if kind in ("c", "u") and rest:
            return Press(kind, code=rest)
        if kind == "k" and len(parts) == 2 and parts[1].isascii() and parts[1].isdigit():
            return Press(kind, int(parts[0]), code=parts[1])
        if kind == "p" and len(parts) == 2 and parts[1] in _COMPUTER_CODES[1:]:
            return Press(kind, int(parts[0]), code=parts[1])
        if kind == "m" and len(parts) == 2 and parts[1] in _COMPUTER_CODES:
            return Press(kind, int(parts[0]), code=parts[1])
        # z: confirm a new season; r: a deal's review (its id)
        if kind in ("j", "l", "s", "g", "z", "r") and len(parts) == 1:
            return Press(kind, int(parts[0]))
    except ValueError as exc:
        raise BadCallback(data) from exc
    raise BadCallback(data)


def cards_code(cards: tuple[Card, ...] | list[Card]) -> str:
    """Cards as concatenated codes: '7SAH'."""
    return "".join(str(card) for card in cards)


def parse_cards_code(text: str) -> tuple[Card, ...]:
    """Cards from concatenated codes; raises BadCallback (a ValueError) if malformed or repeated."""
    try:
        if len(text) % 2 or len(text) > 16:
            raise ValueError(text)
        cards = tuple(Card.parse(text[i : i + 2]) for i in range(0, len(text), 2))
    except ValueError as exc:
        raise BadCallback(text) from exc
    if len(set(cards)) != len(cards):
        raise BadCallback(text)
    return cards
