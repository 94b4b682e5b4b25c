"""What one seat, or the public, sees of a table's deal: typed values, no front end's in them
(boardgame.io's playerView, OpenSpiel's observer). Each kind of table builds its screen
(`GameKind.screen`) only from the engine's view for that seat or the group's view, the one
place that hides cards; a front end draws it: the chat's keyboards are laid out from it by each
kind's `render.keyboard`, the Mini App's page is sent it as JSON by `bot/web/encode.py`, field
by field. Words are the reader's, from locales/: a message as its key, its values and its runs
of words with their stress (`Said`), never the chat's HTML; cards are cards as he names them,
numbers numbers.

The screen holds: the seats in table order (name, computer, away, chips, cards held, tricks,
word, dealer, sitting out, figures), whose move it is, the trick as plays by seat with its
leader, the last trick and its taker, the game's facts (a kind's own screen adds them), the
player's hand with his choices laid on its cards, his other choices as facts (`Act`: what each
does, and the level, count or card it names), his question, the last result with its reasons,
and a pulya's sheet."""

from __future__ import annotations

import html
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import TypeVar

from engine.cards import Card
from engine.tricks import Play
from locales import spans, t

from ..format import card_label, sorted_hand
from .message import Choice

# a field a front end leaves out when it holds None (a card with no press is not to play now)
OMIT_NONE = {"omit_none": True}


@dataclass(frozen=True, slots=True)
class Span:
    """A run of a message's words, `strong` where the message stresses it (True, or left
    out)."""

    text: str
    strong: bool | None = field(default=None, metadata=OMIT_NONE)


@dataclass(frozen=True, slots=True)
class Said:
    """A message of the catalogs as facts: its key and its values (plain text and numbers: a
    name as its reader sees it, a bid as he writes it; or messages of their own), and its words
    as runs with their stress. A front end draws it as it likes (the chat in HTML:
    `said_html`)."""

    key: str
    values: dict[str, Value]
    text: tuple[Span, ...]


Value = str | int | Said
# messages side by side: on one line apart, a line each, run on, added up
JOINS = {" · ": "join.sep", "\n": "join.line", "": "join.run", " + ": "join.plus"}


def said(lang: str, key: str, /, **values: Value) -> Said:
    """Message `key` (a full catalog key) in `lang` with `values`."""
    runs = spans(
        lang, key, **{k: _runs(v) if isinstance(v, Said) else v for k, v in values.items()}
    )
    return Said(key, values, tuple(Span(text, True if strong else None) for text, strong in runs))


def joined(lang: str, glue: str, first: Said, *more: Said) -> Said:
    """Messages one after another: on one line apart (" · "), a line each ("\n"), run on
    (""), or added up (" + ")."""
    for second in more:
        first = said(lang, JOINS[glue], first=first, second=second)
    return first


def _runs(message: Said) -> tuple[tuple[str, bool], ...]:
    return tuple((span.text, bool(span.strong)) for span in message.text)


def said_html(lang: str, message: Said) -> str:
    """A message as the chat writes it: HTML, its values escaped."""
    return t(lang, message.key, **{k: _html(lang, v) for k, v in message.values.items()})


def _html(lang: str, value: Value) -> str | int:
    if isinstance(value, Said):
        return said_html(lang, value)
    return html.escape(value) if isinstance(value, str) else value


@dataclass(frozen=True, slots=True)
class Face:
    """A card as its reader names it: its rank as players of his language write it ('Д' for the
    queen in Russian), its suit ('S', 'H', 'D', 'C'), its symbol, its code ('QS') and its label
    as the chat writes it."""

    rank: str
    suit: str
    symbol: str
    code: str
    label: str


def face(card: Card, lang: str) -> Face:
    return Face(*_named(card, lang))


def _named(card: Card, lang: str) -> tuple[str, str, str, str, str]:
    """A `Face`'s fields, which the faces of a hand and of a trick begin with."""
    label = card_label(card, lang)
    symbol = card.suit.symbol
    return label[: -len(symbol)], card.suit.value, symbol, str(card), label


def faces(cards: Iterable[Card], lang: str) -> tuple[Face, ...]:
    """Cards in the order given."""
    return tuple(face(c, lang) for c in cards)


@dataclass(frozen=True, slots=True)
class Held(Face):
    """A card of a hand the viewer may play from: the press that plays it, or marks it for the
    discard (None: not to play now), and whether it is marked."""

    press: str | None = field(default=None, metadata=OMIT_NONE)
    marked: bool = False


@dataclass(frozen=True, slots=True)
class Played(Face):
    """A card of a trick and the seat that laid it; `joker`: a 7♠ played as the joker (SK2),
    left out otherwise."""

    seat: int
    joker: bool | None = field(default=None, metadata=OMIT_NONE)


@dataclass(frozen=True, slots=True)
class Trick:
    """A trick: who led it and each card with the seat that laid it."""

    leader: int
    plays: tuple[Played, ...]


@dataclass(frozen=True, slots=True)
class Taken(Trick):
    """The last complete trick and who took it."""

    taker: int | None = None


def trick(plays: Sequence[Play], lang: str) -> Trick | None:
    """The trick on the table; None when it is empty."""
    if not plays:
        return None
    return Trick(plays[0].seat, _played(plays, lang))


def taken(plays: Sequence[Play], taker: int | None, lang: str) -> Taken | None:
    """The last complete trick; None before the first is taken."""
    if not plays:
        return None
    return Taken(plays[0].seat, _played(plays, lang), taker)


def _played(plays: Sequence[Play], lang: str) -> tuple[Played, ...]:
    return tuple(
        Played(*_named(p.card, lang), seat=p.seat, joker=True if p.joker else None) for p in plays
    )


@dataclass(frozen=True, slots=True)
class Word:
    """A choice of the table itself (the lobby's, the next deal): its label and the press it
    sends; `primary`: the step that moves the table on."""

    label: str
    press: str
    primary: bool | None = field(default=None, metadata=OMIT_NONE)  # True, or left out


@dataclass(frozen=True, slots=True)
class Act:
    """A choice of the deal that is not a card of the hand, as facts: `verb`, the engine's word
    for what it does ('pass', 'bid', 'discard', 'look', 'cut'…); where it names them, the
    `level` of a bid, how many cards it moves (`n`), the card it names (`card`: the turn-up a
    cutter takes, F10, or the 7♠ played as the joker or not, `joker`, SK2); then its label in
    the reader's words, the press that says it, and whether it moves the table on (`primary`:
    a discard confirmed). A front end lays the choices out as it likes."""

    verb: str
    label: str
    press: str
    level: int | None = field(default=None, metadata=OMIT_NONE)
    n: int | None = field(default=None, metadata=OMIT_NONE)
    card: str | None = field(default=None, metadata=OMIT_NONE)
    joker: bool | None = field(default=None, metadata=OMIT_NONE)
    primary: bool | None = field(default=None, metadata=OMIT_NONE)  # True, or left out


@dataclass(frozen=True, slots=True)
class Figure:
    """One of a seat's figures on a score sheet ('pulya', 'gora', 'whists') and its value."""

    key: str
    value: int


@dataclass(frozen=True, slots=True)
class Seat:
    """A dealt-in seat as every game shows it: its name, whether a computer plays it, whether
    its player is away (timed out twice running), his chips in the chat if he has a record; the
    cards it holds, its tricks while they count, its latest word, whether it deals, whether it
    sits this deal out, its figures."""

    seat: int
    name: str
    computer: bool
    away: bool
    chips: str | None
    cards: int
    tricks: int | None
    word: str | None
    dealer: bool
    out: bool
    figures: tuple[Figure, ...]


@dataclass(frozen=True, slots=True)
class ResultSeat:
    """A seat's line of a result: its change (None where the deal moves no chips) with its
    reasons, and the chips it has now."""

    seat: int
    name: str
    delta: str | None
    reasons: tuple[Said, ...]
    total: str | None


@dataclass(frozen=True, slots=True)
class Result:
    """How the last deal went, each seat's line, and a foot (what the pot carries)."""

    head: Said | None
    seats: tuple[ResultSeat, ...]
    foot: Said | None


@dataclass(frozen=True, slots=True)
class Screen:
    """A deal as one seat (or the public) sees it: what every kind's screen holds. `mover`: the
    seat whose move it is (who chooses, when he plays another's cards); `hand`: the viewer's
    cards with his choices laid on them; `choices`: his other choices; `question`: what he is
    asked."""

    phase: str
    mover: int | None
    seats: tuple[Seat, ...]
    trump: str | None
    trick: Trick | None
    last_trick: Taken | None
    hand: tuple[Held, ...] | None
    choices: tuple[Act, ...]
    question: Said | None
    result: Result | None
    finished: bool


@dataclass(frozen=True, slots=True)
class PotScreen(Screen):
    """A deal played for a pot (the Frap family): the card turned up for trump, the pot and the
    stock, the stakes in words, how many cards the viewer holds unseen (F7: a dark bid), how
    many tricks have been taken, and while a bidding of several rounds goes on, its round and
    how many there are (F8). `pot_text`: the pot as the game names it ('Treasure: 50', N1)."""

    turnup: Face | None
    pot: int
    pot_text: Said | None
    stock: int
    stakes: Said | None
    hidden: int
    tricks_played: int
    rounds: tuple[int, int] | None = field(default=None, metadata=OMIT_NONE)
    passed: tuple[Said, ...] = ()  # F8: the bidding rounds everyone passed, while bidding
    dead: tuple[Face, ...] = ()  # and their turn-ups, dead, in the same order


@dataclass(frozen=True, slots=True)
class Call:
    """A word a seat said in the auction or the whisting: `verb` ('bid', 'misere', 'here',
    'pass', 'whist', 'half_whist'), a bid's `level` and `strain` (S C D H, or NT: no trumps),
    and its label ('7♥', 'pass')."""

    verb: str
    label: str
    level: int | None = field(default=None, metadata=OMIT_NONE)
    strain: str | None = field(default=None, metadata=OMIT_NONE)


@dataclass(frozen=True, slots=True)
class OpenSeat(Seat):
    """A seat whose hand may lie open on the table (P7, P9), whether the mover plays its cards,
    every word it said this deal, in order, and its role once a contract is set ('declarer',
    'whister', 'passer', 'half_whister', 'defender', 'out')."""

    open_hand: tuple[Held, ...] | None
    plays_from: bool
    calls: tuple[Call, ...] = ()
    role: str | None = field(default=None, metadata=OMIT_NONE)


@dataclass(frozen=True, slots=True)
class Sheet:
    """A pulya's sheet: the deals played, each seat's pulya and gora, its whists on each other
    seat, and the pulya that ends the match."""

    deals: int
    pulya: tuple[int, ...]
    gora: tuple[int, ...]
    whists: tuple[tuple[int, ...], ...]
    target: int


@dataclass(frozen=True, slots=True)
class SheetScreen:
    """A match kept on a sheet with no deal in play: the sheet and the last deal's result."""

    sheet: Sheet
    result: Result | None
    finished: bool


@dataclass(frozen=True, slots=True)
class Rung:
    """A bid or contract on the ladder: its level, its strain (S C D H, or NT: no trumps), its
    label ('7♥') and the press that says it, left out while it cannot be said."""

    level: int
    strain: str
    label: str
    press: str | None = field(default=None, metadata=OMIT_NONE)


@dataclass(frozen=True, slots=True)
class ContractScreen(Screen):
    """A deal of contracts kept on a sheet (Preferans): the sheet, the contract and its
    declarer, the talon where the table saw it (P5), whether it is raspasy, the viewer's own
    discard and, as declarer, the cards he took from the talon, and while he bids or names the
    contract the whole ladder of them, those he may say with their presses (the other words,
    pass, misère, here, stay among `choices`)."""

    sheet: Sheet
    contract: str | None
    declarer: int | None
    talon: tuple[Face, ...] | None
    raspasy: bool
    discards: tuple[Face, ...]
    ladder: tuple[Rung, ...]
    streak: int = 0  # raspasy deals in a row before this one (P10)
    top_bid: Call | None = field(default=None, metadata=OMIT_NONE)  # in the auction, to beat
    holder: int | None = field(default=None, metadata=OMIT_NONE)  # (P4) and who holds it
    taken: tuple[Face, ...] = ()  # P5, P9: the declarer's own screen


def hand(
    held: Sequence[Card], presses: Mapping[Card, str], lang: str, marked: Sequence[Card] = ()
) -> tuple[Held, ...]:
    """Cards sorted by suit, each with the press that plays or marks it, if any, and whether it
    is marked for the discard."""
    return tuple(
        Held(*_named(c, lang), press=presses.get(c), marked=c in marked) for c in sorted_hand(held)
    )


# ---- a screen's choices as the chat's buttons (each kind's `render.keyboard` lays out the rows)


def card_button(held: Held) -> Choice:
    """A card the player may play or mark, as its button: crossed out while marked."""
    assert held.press is not None
    label = ("✖️ " if held.marked else "") + held.label
    return Choice(label, held.press, Card.parse(held.code), held.marked)


def act_button(act: Act) -> Choice:
    return Choice(act.label, act.press, primary=bool(act.primary))


def in_rows(buttons: list[Choice], width: int) -> list[list[Choice]]:
    """Buttons `width` to a row."""
    return [buttons[i : i + width] for i in range(0, len(buttons), width)]


S = TypeVar("S", bound=Screen)


def with_chips(seen: S, chips: Sequence[str | None]) -> S:
    """`seen` with each seat's chips in the chat (by seat; None: he has no record), on its seats
    and its result's lines: a screen is built once per change of the deal, the chips laid on."""
    if not any(chips):
        return seen
    result = seen.result
    if result is not None:
        lines = tuple(replace(line, total=chips[line.seat]) for line in result.seats)
        result = replace(result, seats=lines)
    seats = tuple(replace(seat, chips=chips[seat.seat]) for seat in seen.seats)
    return replace(seen, seats=seats, result=result)
