"""The one small interface through which the shared bot code shows a game (STYLE.md, "One place
per game"): its words, buttons, questions, stakes, result reasons, settings and /rules
(`GameUI`); and how a kind of game plays its tables for the host (`GameKind`: deal after deal,
or a Preferans pulya), with what the host offers it (`Host`)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import Enum
from typing import TYPE_CHECKING, Any, ClassVar, Generic, Protocol, TypeVar

from locales import has, t

from .. import computer
from ..format import signed
from ..table.live import Refusal
from ..view.screen import Said, Value, said

if TYPE_CHECKING:
    import random

    from engine.review import Review

    from ..callbacks import Press
    from ..storage import ChatRow, DealRow, TableRow
    from ..table.live import OpenTable
    from ..table.steps import Rows, Stored
    from ..view.message import Rendered
    from ..view.screen import Screen, SheetScreen

U = TypeVar("U", bound="GameUI")  # a game's words, as its kind is made with them


@dataclass(frozen=True, slots=True)
class Option:
    """One house rule a chat may set for a game: the engine's option name, a short code for
    callback data, and its values in the order the settings page lists them."""

    key: str
    short: str
    values: tuple[Any, ...]


class Moved(Enum):
    """Where a step left a table, for its host to act on (the game never closes a table or arms
    its timer itself: control goes down into the game and comes back up)."""

    IN_PLAY = "in_play"  # the next move is due: the host arms its timer
    DEAL_OVER = (
        "deal_over"  # the table waits for its next deal: leavers stand up, then `offer_next`
    )
    MATCH_OVER = "match_over"  # the match is over (P14): the host closes the table
    ABANDONED = "abandoned"  # everyone is away and the deal would only be redealt: closed


# ---- what a step shows, told to every front end -------------------------------------------------


@dataclass(frozen=True, slots=True)
class DealShown:
    """A deal as it stands now: its table message in the group and each player's control
    message (`seat`: only that player's, his discard marked or his hand looked at). `position`:
    the deal shown, as its kind's `shown_screen` builds screens of it (one just ended while the
    next is dealt, at a pulya); `closing`: the table closes with it, no choice is left;
    `current`: its table message is the table's current one (the ways in go below it);
    `retire`: shown for the last time; `anew`: the user whose control message is posted again
    at the bottom of his chat."""

    position: object
    deal_no: int
    closing: bool = False
    current: bool = True
    retire: bool = False
    seat: int | None = None
    anew: int | None = None


@dataclass(frozen=True, slots=True)
class ResultShown:
    """A deal's result in the group: `offer_next`, with its "next deal" button; `current`, the
    table's current message; `retire`, never shown again; `about`, what its kind's chat drawing
    needs of it beyond the table (a pulya's line of the sheet)."""

    deal_no: int
    current: bool = True
    retire: bool = False
    offer_next: bool = False
    about: object = None


@dataclass(frozen=True, slots=True)
class DealRetired:
    """Deal `deal_no`'s group messages (its table message and result) have shown their last."""

    deal_no: int


@dataclass(frozen=True, slots=True)
class SheetShown:
    """A match's score sheet in the group (`last`: for the last time; `anew`: posted again at
    the bottom of the group)."""

    last: bool = False
    anew: bool = False


Shown = DealShown | ResultShown | DealRetired | SheetShown


class Front(Protocol):
    """A front end of the tables (the chat, the Mini App), registered with the host
    (`GameService.fronts`): told what each step shows, in order, as the step shows it, then
    that the table changed once the step is done."""

    async def shown(self, live: OpenTable, chat: ChatRow, what: Shown) -> None:
        """What a step of the table at `live` (in `chat`) shows now."""

    def changed(self, live: OpenTable) -> None:
        """The table's step is done: stored and shown."""


class ChatDrawing(Protocol):
    """How the chat draws one kind of table's messages (each game's bot package has one,
    registered beside its kind): from the screens of the deal shown, and the table's seating."""

    def table_message(
        self, live: OpenTable, chat: ChatRow, shown: DealShown, seen: Any
    ) -> Rendered:
        """The group's message of the deal shown, drawn from the public screen `seen`."""

    def hand_message(
        self, live: OpenTable, chat: ChatRow, shown: DealShown, seen: Any, seat: int, lang: str
    ) -> Rendered:
        """Seat `seat`'s control message in his language, drawn from his screen `seen`."""

    async def result_message(
        self, live: OpenTable, chat: ChatRow, shown: ResultShown, balances: Mapping[int, int]
    ) -> Rendered:
        """A deal's result (`balances`: the chat's chips by user, the deal's booked)."""

    async def sheet_message(self, live: OpenTable, chat: ChatRow) -> Rendered | None:
        """The match's score sheet as the group's photo, None if its tables keep none."""

    async def final_sheet_message(self, chat: ChatRow, final: object) -> Rendered | None:
        """The sheet of a closed table's match as it ended (`GameKind.final_sheet`)."""

    def standing(self, live: OpenTable, lang: str) -> str | None:
        """Where each player of the match in play stands were it closed now, and that chips move
        only when it closes (/balance, /top); None if nothing is pending."""


class NoSheet:
    """A `ChatDrawing`'s members for a kind whose tables keep no score sheet and book each
    deal's chips as it ends (the Frap family): no sheet to post, nothing pending."""

    async def sheet_message(self, live: OpenTable, chat: ChatRow) -> Rendered | None:
        """No sheet: the chips are the score."""
        return None

    async def final_sheet_message(self, chat: ChatRow, final: object) -> Rendered | None:
        """No sheet to post when a table closes."""
        return None

    def standing(self, live: OpenTable, lang: str) -> str | None:
        """Nothing pending: every deal's chips are booked when it ends."""
        return None


class Host(Protocol):
    """What a game's tables may ask of the table host that runs them (pucxobot's
    pcx_game_callbacks): the rows a kind reads, the writing of what its steps stored, its
    chance and clock, who is dealt in, and the showing of what a step shows. The host is
    `bot.service.GameService`."""

    rng: random.Random

    @property
    def storage(self) -> Rows:
        """What a kind may read of the storage (a step's writes go through `store`)."""

    async def store(self, live: OpenTable, what: Stored) -> None:
        """Change the table's seating as the step says (its row, who was dealt in) and write
        the step's record and chips with the table's row, in one transaction (a deal dealt sets
        `live.deal_id`); the seating as it was if the write fails."""

    async def resumed(self, live: OpenTable, deal_id: int, seats: tuple[int, ...]) -> None:
        """After a restart: the table's deal in play is the stored `deal_id`, dealt to
        `seats`."""

    async def show(self, live: OpenTable, chat: ChatRow, what: Shown) -> None:
        """Tell every front end what the table shows now (its messages, its screens)."""

    def deadline(self, chat: ChatRow) -> float | None:
        """When the move due now times out (the chat's turn timer; None: no timer)."""

    def idle_deadline(self) -> float | None:
        """When a table nobody deals on after a result closes."""

    async def dealt_in(
        self, live: OpenTable, chat: ChatRow
    ) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """The seated players the next deal deals to, and those the bankroll leaves out (F15;
        the host decides who sits out); their rows (`OpenTable.users`) read again."""


class GameKind(Protocol):
    """How one kind of game plays its tables (OpenSpiel's State at the scale of a table: a
    family table deal after deal and a Preferans pulya are both "matches"). The host
    (`bot.service.GameService`) keeps the lobby, the seats, the locks, the timers, away players,
    computer players' scheduling and the evening, and calls nothing else; every call runs under
    the chat's lock, on a table whose `OpenTable.play` this kind set. A step that returns `Moved`
    has had the host store it (`Host.store`: one transaction, chips included) and told the
    host what it shows (`Host.show`: a deal, a result, a sheet), which the host passes to every
    front end; the host then acts on the value and announces the change
    (`GameService.changed`).

    Views: `seat_view` and `public_view` give the engine's view of the deal in play as one seat
    may see it and as the group sees it; `screen` gives the same as typed values every front end
    draws (bot/view/screen.py), and `shown_screen` the screen of a deal a step showed. No method
    names a front end, and none draws a message."""

    keeps_players: bool  # the players seated at the start play to the end (a pulya, P14)
    sheet: bool  # its tables keep a score sheet that /pulya shows again (P14)

    def check_start(self, live: OpenTable, chat: ChatRow) -> None:
        """Refusal if the lobby's players cannot be dealt under the chat's rules (K1's deck)."""

    async def start(self, live: OpenTable, chat: ChatRow) -> Moved:
        """The lobby's players begin: the first deal dealt (its dealer drawn, F2, P3), stored,
        shown."""

    async def resume(self, live: OpenTable) -> None:
        """After a restart: `OpenTable.play` rebuilt from the table's stored deals (ValueError if
        they do not make one)."""

    async def refresh(self, live: OpenTable, chat: ChatRow) -> Moved:
        """Every message of the table as it stands (after a restart or a chat's move); a deal
        whose end was never shown is ended now."""

    async def reshow(self, live: OpenTable, chat: ChatRow, user_id: int) -> None:
        """The user's control message posted again at the bottom of his chat."""

    async def act(self, live: OpenTable, user_id: int, press: Press) -> Moved:
        """A player's action button (Refusal if stale, not his, or illegal)."""

    async def toggle(self, live: OpenTable, user_id: int, press: Press) -> None:
        """A card marked or unmarked before a confirming button (nothing applied yet)."""

    def between_deals(self, live: OpenTable) -> bool:
        """Whether the table waits for a player to ask for the next deal."""

    async def offer_next(self, live: OpenTable, chat: ChatRow) -> None:
        """After `Moved.DEAL_OVER` (the leavers stood up): the result, offering the next deal."""

    async def next_deal(self, live: OpenTable, chat: ChatRow) -> Moved:
        """A player asked for the next deal (F2: the next dealer deals)."""

    def position(self, live: OpenTable) -> object | None:
        """The deal in play (a new object after each step: a computer player's move is thought
        for one position), None when none is."""

    def knowledge(self, live: OpenTable, seat: int) -> Any:
        """What `seat` may know of the deal in play (the engine's view): all a
        computer player, or the rules level standing in for an away player, is given."""

    def default(self, live: OpenTable) -> Any:
        """The safe default move for the seat due (a late player's), None if none is due."""

    async def move(
        self, live: OpenTable, action: Any, *, auto: bool, note: tuple[str, str] | None = None
    ) -> Moved:
        """A move the bot makes: a computer player's own, or (`auto`) one made for a person who
        timed out or is away (his control message then says what was played; `note`, the
        table's line about his time-out)."""

    async def stop(self, live: OpenTable, chat: ChatRow) -> bool:
        """The table closed (its row's status already "closed"): the deal in play voided with
        every chip of it returned, a match settled as it stands, the row stored, the messages
        shown for the last time; True if a deal in play was voided."""

    async def repost(self, live: OpenTable) -> bool:
        """/pulya: the table's score sheet posted again at the bottom of the group (False: its
        tables keep none)."""

    async def final_sheet(self, table: TableRow) -> object | None:
        """The match of a closed table as it ended, whose sheet /pulya posts again at the
        bottom of its group (`ChatDrawing.final_sheet_message`); None if it has none."""

    def seat_view(self, live: OpenTable, seat: int) -> Any:
        """The deal in play as `seat` sees it (the engine's seat view), None when none is."""

    def public_view(self, live: OpenTable) -> Any:
        """The deal in play as the group sees it (the engine's table view), None when none is."""

    def screen(
        self, live: OpenTable, seat: int | None, lang: str, balances: Mapping[int, int]
    ) -> Screen | SheetScreen | None:
        """The table as `seat` sees it (None: the public table), for any front end to draw
        (bot/view/screen.py), built only from `seat_view` for that seat or `public_view`; None
        when nothing is dealt. `balances`: the chat's chips by user."""

    def shown_screen(
        self, live: OpenTable, shown: DealShown, seat: int | None, lang: str
    ) -> Screen:
        """The screen of the deal a step showed (`DealShown`) as `seat` sees it (None: the
        public table), no chips on it, as the chat's messages are drawn from it."""

    async def sheet_picture(self, live: OpenTable, lang: str) -> bytes | None:
        """The picture of the table's score sheet as the chat's photo draws it (a PNG), for a
        front end that shows it apart; None if its tables keep none."""


class Kind(Generic[U]):
    """A kind of game's tables, made for its host and its game's words: the `GameKind` members
    a kind without them need not write (no check before the start, no marking of cards, no
    "next deal" button, no score sheet), so a kind writes only what it has."""

    keeps_players = False  # players sit down and stand up between deals
    sheet = False  # its scores are the chips: no sheet to show again

    def __init__(self, host: Host, ui: U) -> None:
        self.host = host
        self.ui = ui
        self.storage = host.storage

    def check_start(self, live: OpenTable, chat: ChatRow) -> None:
        """Any players the game takes may start."""

    async def toggle(self, live: OpenTable, user_id: int, press: Press) -> None:
        """No card is marked before a confirming button: a stale press."""
        raise Refusal("err.stale")

    def between_deals(self, live: OpenTable) -> bool:
        """Never: the next deal follows at once."""
        return False

    async def offer_next(self, live: OpenTable, chat: ChatRow) -> None:
        """Never asked: a deal ends in the next one or in the match's end."""

    async def next_deal(self, live: OpenTable, chat: ChatRow) -> Moved:
        """No "next deal" button: a stale press."""
        raise Refusal("err.stale")

    async def repost(self, live: OpenTable) -> bool:
        """No sheet: the chips are the score."""
        return False

    async def final_sheet(self, table: TableRow) -> object | None:
        """No sheet: the chips are the score."""
        return None

    async def sheet_picture(self, live: OpenTable, lang: str) -> bytes | None:
        """No sheet to draw."""
        return None


class GameUI:
    """How the bot shows one game. A game's module subclasses this and registers an instance;
    its words live in its own catalog section (`<section>.<key>`), and a key the section does
    not hold is read from the shared, game-neutral catalog entries."""

    game: ClassVar[str]  # the engine's name, as hand records use it
    section: ClassVar[str]  # the catalog section of this game's words
    aliases: ClassVar[tuple[str, ...]]  # what /newgame accepts, first = the one shown
    options: ClassVar[tuple[Option, ...]] = ()
    # A deal starts with the chat's ante, or with amounts reckoned from it (F3; N1, N5), so
    # /rules says it; a Preferans pulya moves chips only at its end, by the whist's price (P16).
    uses_ante: ClassVar[bool] = True
    # A practice table opens with its player and computer players up to this many
    # (fewer if the game's table takes fewer).
    practice_players: ClassVar[int] = 4
    # The ledger's reasons for chips a player takes from a pot (/stats: the biggest pot taken).
    from_pot: ClassVar[tuple[str, ...]] = ()
    # Words that belong to this game and must not appear in another game's messages (tests).
    own_words: ClassVar[tuple[str, ...]] = ()
    # The page's words its tables need beyond the shared ones (catalog keys web.<word>).
    page_words: ClassVar[tuple[str, ...]] = ()

    @property
    def players(self) -> tuple[int, int]:
        """The fewest and the most players a table of this game takes."""
        raise NotImplementedError

    def match_of(self, deal: DealRow) -> int | None:
        """The match a deal belongs to, when its table plays a match of many deals that are read
        together (a pulya, P14: /history reads a deal against the earlier ones, /stats counts
        the match as a whole); None for a game played deal by deal."""
        return None

    # ---- words ----------------------------------------------------------------------------------

    def key(self, key: str) -> str:
        """The catalog key of message `key` in this game's words: its own section's entry if
        it has one, else the shared one (for a refusal, which is worded where it is shown)."""
        own = f"{self.section}.{key}"
        return own if has(own) else key

    def text(self, lang: str, key: str, /, **values: Any) -> str:
        """The message `key` in this game's words: its own section first, then the shared one."""
        return t(lang, self.key(key), **values)

    def said(self, lang: str, key: str, /, **values: Value) -> Said:
        """The message `key` in this game's words (as `text` finds it) as facts: its key and
        values, and its words as runs with their stress (bot/view/screen.py)."""
        return said(lang, self.key(key), **values)

    def title(self, lang: str) -> str:
        """The game's name ('Frap')."""
        return self.text(lang, "name")

    def move_words(self, lang: str, action: Any) -> str:
        """A move in a few words, as a sentence quotes it (what the bot played for a player)."""
        raise NotImplementedError

    def history_line(
        self,
        lang: str,
        record: dict[str, Any],
        number: int,
        date: str,
        earlier: Sequence[dict[str, Any]] = (),
    ) -> str:
        """/history's line of a finished deal: the chat's `number` for it, its date, the
        contract and each player's change. `earlier`: for a game whose table is a match
        (`match_of`), the records of the match's finished deals before this one, in order (what
        the deal wrote may depend on them)."""
        raise NotImplementedError

    def deal_account(
        self,
        lang: str,
        record: dict[str, Any],
        number: int,
        earlier: Sequence[dict[str, Any]] = (),
    ) -> str | None:
        """/history N's account of a finished deal, titled with the chat's `number` for it:
        every word, card and chip; None if its record cannot be told. `earlier` as for
        `history_line`."""
        raise NotImplementedError

    def declared(self, record: dict[str, Any]) -> tuple[int | None, bool, str | None]:
        """For /stats, a finished deal's declaring seat (None: nobody declared), whether he
        made his contract, and the kind of a contract /stats counts apart (its catalog key
        `stats.kind.<kind>`, e.g. Preferans' misère)."""
        raise NotImplementedError

    def review_lines(self, lang: str, review: Review) -> list[str]:
        """The game's own lines at the head of a deal's review (bot/review.py): Preferans weighs
        the contract and the whist; none by default."""
        return []

    def bankroll_need(self, ante: int, pot: int, players: int) -> int:
        """F15's starting bankroll: the chips a player must hold to be dealt in (the ante)."""
        return ante

    # ---- rules and settings ---------------------------------------------------------------------

    def engine_rules(self, chat_rules: dict[str, Any]) -> dict[str, Any]:
        """The chat's house rules for this game, as the engine's `rules` object.

        A chat keeps each game's options under the game's name; options stored flat (before
        settings were per game) still apply to the games that have them."""
        names = {option.key for option in self.options}
        flat = {k: v for k, v in chat_rules.items() if k in names}
        own = chat_rules.get(self.game)
        mine = {k: v for k, v in own.items() if k in names} if isinstance(own, dict) else {}
        return {"preset": self.preset(chat_rules), **flat, **mine}

    def deal_money(self, chat_rules: dict[str, Any], ante: int) -> tuple[int, dict[str, Any]]:
        """What a deal starts with: the ante each player pays in (F3; N1's contribution) and any
        more keywords of the engine's `create` (N5's stake), from the chat's ante and rules."""
        return ante, {}

    def money_line(self, lang: str, chat_rules: dict[str, Any], ante: int) -> str:
        """The lobby's line saying what a deal costs: the ante (F3)."""
        return t(lang, "lobby.ante", ante=ante)

    def preset(self, chat_rules: dict[str, Any]) -> str:
        """The engine preset this game's rules start from."""
        return "classic"

    def option_value(self, chat_rules: dict[str, Any], option: Option) -> Any:
        """The value of one option in force for this game."""
        raise NotImplementedError

    def option_label(self, lang: str, option: Option, value: Any) -> str:
        """A settings button: the option's name and its value, distinct from every other."""
        shown = self.text(lang, f"set.{option.key}.{str(value).lower()}")
        return self.text(lang, f"set.{option.key}", value=shown)

    def rules_lines(self, lang: str, chat_rules: dict[str, Any]) -> list[str]:
        """The game's rules in force, briefly, for /rules and /settings (ante and timer aside)."""
        raise NotImplementedError


def who(
    live: OpenTable, seat: int, name: str, balances: Mapping[int, int]
) -> tuple[int, str, bool, bool, str | None]:
    """The first fields of every game's `Seat` (bot/view/screen.py) for a dealt-in seat, in
    order: the seat, its name, whether a computer plays it, whether its player is away (timed
    out twice running), his chips in the chat if he has a record."""
    uid = live.deal_seats[seat]
    chips = signed(balances[uid]) if uid in balances else None
    return seat, name, computer.is_computer(uid), uid in live.row.away, chips
