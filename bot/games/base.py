"""The one small interface through which the shared bot code shows a game (STYLE.md, "One place
per game"): its words, buttons, questions, stakes, result reasons, settings and /rules."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar, Protocol

from engine.actions import Action, Do
from engine.cards import Card
from engine.deal import TrickDeal
from engine.views import TableView
from locales import has, t

from ..format import card_label

if TYPE_CHECKING:
    import random

    from ..callbacks import Press
    from ..presenter import Presenter
    from ..storage import ChatRow, Storage, TableRow
    from ..table.live import Live
    from ..view.message import Rendered


@dataclass(frozen=True, slots=True)
class Option:
    """One house rule a chat may set for a game: the engine's option name, a short code for
    callback data, and its values in the order the settings page lists them."""

    key: str
    short: str
    values: tuple[Any, ...]


class Host(Protocol):
    """What a game's tables may ask of the table host that runs them (pucxobot's
    pcx_game_callbacks): its storage and presenter, its chance, and a player's control message
    sent the host's way (what the bot played for him, his time left, his ping)."""

    storage: Storage
    presenter: Presenter
    rng: random.Random

    def deliver_hand(
        self, live: Live, seat: int, content: Rendered, *, moving: bool, ping: bool,
        anew: bool = False,
    ) -> None:  # fmt: skip
        """Send seat `seat` its control message (`moving`: it is his move; `ping`: the move
        just passed to him; `anew`: posted again at the bottom of his chat)."""


class MatchTables(Protocol):
    """A game whose table is a match of many deals played on as one (a Preferans pulya, P14)
    plays it through its own service (the registry's `TABLES`); the shared service keeps the lobby,
    the seats, the timers, away players and the evening, and hands it these moments. Each
    call runs under the chat's lock; `deadline` is the next move's, set before it is stored."""

    async def start(self, live: Live, deadline: float | None) -> None:
        """The lobby's players begin the match: its first deal dealt, stored and shown."""

    async def resume(self, live: Live) -> None:
        """After a restart: the match rebuilt from the table's stored deals (ValueError if
        they do not make one)."""

    def show(self, live: Live, chat: ChatRow, *, anew: int | None = None) -> None:
        """Every message of the table as it stands (`anew`: that user's control message
        posted again at the bottom of his chat)."""

    async def act(self, live: Live, user_id: int, press: Press, deadline: float | None) -> None:
        """A player's action button (Refusal if stale, not his, or illegal)."""

    async def toggle(self, live: Live, user_id: int, press: Press) -> None:
        """A card marked or unmarked before a confirming button."""

    def position(self, live: Live) -> object | None:
        """The deal in play (a new object after each step: a computer player's move is thought
        for one position), None when the match is over."""

    def knowledge(self, live: Live, seat: int) -> Any:
        """What `seat` may know of the deal in play (the engine's view, issue 17): all a
        computer player, or the rules level standing in for an away player, is given."""

    def default(self, live: Live) -> Any:
        """The safe default move for the seat due (a late player's), None if none is due."""

    async def move(self, live: Live, action: Any, deadline: float | None, *, auto: bool) -> None:
        """A move the bot makes: a computer player's own, or (`auto`) one made for a person who
        timed out or is away (his control message then says what was played)."""

    async def stop(self, live: Live) -> None:
        """The match closed as it stands (the deal in play voided, the settlement booked; the
        reason's words say so); nothing if it was over already."""

    async def repost(self, live: Live) -> None:
        """The match's score posted again at the bottom of the group (Refusal if it has none)."""

    def standing(self, live: Live, lang: str) -> str | None:
        """Where each player of the match in play stands were it closed now, and that chips move
        only when it closes (/balance, /top); None once it is over."""

    async def repost_closed(self, table: TableRow) -> bool:
        """The final score of a closed table's match posted at the bottom of its group; False
        if it has none (no deal of it was finished)."""


class GameUI:
    """How the bot shows one game. A game's module subclasses this and registers an instance;
    its words live in its own catalog section (`<section>.<key>`), and a key the section does
    not hold is read from the shared, game-neutral catalog entries."""

    game: ClassVar[str]  # the engine's name, as hand records use it
    section: ClassVar[str]  # the catalog section of this game's words
    deal: ClassVar[type[TrickDeal]]
    aliases: ClassVar[tuple[str, ...]]  # what /newgame accepts, first = the one shown
    options: ClassVar[tuple[Option, ...]] = ()
    # A table plays a match of many deals (a Preferans pulya) through the game's own service
    # (the registry's `TABLES`), not deal by deal through the shared one.
    match: ClassVar[bool] = False
    # A deal starts with the chat's ante, or with amounts reckoned from it (F3; N1, N5), so
    # /rules says it; a Preferans pulya moves chips only at its end, by the whist's price (P16).
    uses_ante: ClassVar[bool] = True
    # A practice table (issue 17) opens with its player and computer players up to this many
    # (fewer if the game's table takes fewer).
    practice_players: ClassVar[int] = 4
    # Words that belong to this game and must not appear in another game's messages (tests).
    own_words: ClassVar[tuple[str, ...]] = ()

    @property
    def players(self) -> tuple[int, int]:
        """The fewest and the most players a table of this game takes."""
        return self.deal.MIN_PLAYERS, self.deal.MAX_PLAYERS

    # ---- words ----------------------------------------------------------------------------------

    def key(self, key: str) -> str:
        """The catalog key of message `key` in this game's words: its own section's entry if
        it has one, else the shared one (for a refusal, which is worded where it is shown)."""
        own = f"{self.section}.{key}"
        return own if has(own) else key

    def text(self, lang: str, key: str, /, **values: Any) -> str:
        """The message `key` in this game's words: its own section first, then the shared one."""
        return t(lang, self.key(key), **values)

    def title(self, lang: str) -> str:
        """The game's name ('Frap')."""
        return self.text(lang, "name")

    def word(self, lang: str, bid: Do) -> str:
        """A seat's word on the table ('frap', 'pass')."""
        return self.text(lang, f"word.{bid.value}")

    def bid_word(self, lang: str, bid: Do, level: int | None) -> str:
        """A seat's word with the height it stands at, where the game has heights (N2: '3
        tricks'); by default the word alone."""
        return self.word(lang, bid)

    def play_label(self, lang: str, card: Card, joker: bool) -> str:
        """A card on a trick ('10♥'); a game with a joker marks it."""
        return card_label(card, lang)

    def move_words(self, lang: str, action: Any) -> str | None:
        """A move in a few words for a game whose actions are its own (what the bot played for
        a player); None: the shared words of the Frap family's actions."""
        return None

    def action_label(self, lang: str, action: Action, turnup: Card | None) -> str:
        """The button for a legal action that names no card of the hand."""
        if action.do is Do.CUT:
            hand = self.deal.HAND_SIZE
            if action.turnup:
                assert turnup is not None
                return self.text(lang, "btn.cut_turnup", card=card_label(turnup, lang), n=hand)
            return self.text(lang, "btn.cut_stock", n=hand + 1)
        return self.text(lang, f"btn.{action.do.value}")

    def phase_line(self, lang: str, table: TableView, who: str) -> str:
        """The group's line saying who is to act and what he decides."""
        return self.text(lang, f"phase.{table.phase}", name=who)

    def ask(self, lang: str, table: TableView) -> str:
        """The question the player to act is asked in his private message."""
        return self.text(lang, f"ask.{table.phase}")

    def all_passed(self, lang: str, table: TableView) -> list[str]:
        """The table's lines for the bidding rounds everyone passed (F8), one per dead turn-up."""
        return [
            self.text(
                lang, "table.all_passed", round=k, card=card_label(card, lang), ante=table.ante
            )
            for k, card in enumerate(table.dead_turnups, start=1)
        ]

    def stakes(self, lang: str, table: TableView) -> str | None:
        """What a trick is worth and what is at risk, for the header; None if nothing to say."""
        return None

    def penalty_why(self, lang: str, table: TableView, seat: int, times: int) -> str:
        """Why `seat` paid `times` the pot: the declarer short of his contract, or an opponent
        who promised a trick and took none (F14 and the game's own rules)."""
        if seat != table.declarer:
            return self.text(lang, "why.opponent")
        short = table.declarer_needs - table.seats[seat].tricks
        return self.text(lang, "why.one_short" if short == 1 else "why.short", n=short)

    def no_contract_line(self, lang: str, table: TableView) -> str | None:
        """The result's headline for a deal that ended without a declarer and without a redeal
        (N2: everyone passed); None where that cannot happen."""
        return None

    def redeal_line(self, lang: str, table: TableView) -> str:
        """The result's line when every round was passed and the same dealer redeals."""
        return self.text(lang, "result.redeal", n=table.max_rounds)

    def history_line(
        self,
        lang: str,
        record: dict[str, Any],
        number: int,
        date: str,
        earlier: Sequence[dict[str, Any]] = (),
    ) -> str | None:
        """/history's line of a finished deal, for a game whose records the shared replay does
        not read (a Preferans deal: what it wrote on the sheet); None: the shared line.
        `earlier`: for a game whose table is a match (`match`), the records of the match's
        finished deals before this one, in order (what the deal wrote may depend on them)."""
        return None

    def deal_account(
        self,
        lang: str,
        record: dict[str, Any],
        number: int,
        earlier: Sequence[dict[str, Any]] = (),
    ) -> str | None:
        """/history N's account of a finished deal, titled with the chat's `number` for it, for
        a game whose records the shared replay does not read (a Preferans deal: its auction,
        talon, whisting, every trick and what it wrote); None: the shared account. `earlier`
        as for `history_line`."""
        return None

    def declared(self, record: dict[str, Any]) -> tuple[int | None, bool, str | None] | None:
        """For /stats, a finished deal's declaring seat (None: nobody declared), whether he
        made his contract, and the kind of a contract /stats counts apart (its catalog key
        `stats.kind.<kind>`, e.g. Preferans' misère), for a game whose records the shared
        replay does not read; None: the shared replay's."""
        return None

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
