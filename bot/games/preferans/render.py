"""Preferans's messages (RULES P1-P18): the table with the talon, open hands and the last trick,
each player's message and buttons, a deal's result lines and the settlement, the sheet's photo.
Pure presentation: engine views in, HTML and keyboards out."""

from __future__ import annotations

from collections.abc import Sequence
from html import escape

from engine.cards import Card
from engine.preferans.actions import PrefDo
from engine.preferans.bidding import LADDER, level, strain
from engine.preferans.match import Match
from engine.preferans.outcome import Entry, Outcome
from engine.preferans.play import winner
from engine.preferans.pulya import Line
from engine.preferans.views import PrefSeatView, PrefTableView
from locales import SEPARATOR

from ... import callbacks
from ...format import cards_text, short, signed, sorted_hand
from ...format import name as shown_name
from ...view.message import Choice, Rendered
from ...view.screen import (
    ContractScreen,
    Face,
    Held,
    OpenSeat,
    Rung,
    Said,
    Seat,
    Trick,
    act_button,
    card_button,
    in_rows,
    joined,
    said_html,
)
from .codes import action_code
from .words import WORDS

ROW = 5  # buttons per keyboard row: a level of the ladder is five bids


# ---- the table message --------------------------------------------------------------------------


def table_message(
    lang: str,
    seen: ContractScreen,
    deal_no: int,
    target: int,
    *,
    note: str | None = None,
    voided: bool = False,
) -> Rendered:
    """The group's message of a deal, drawn from the public screen `seen` alone: who deals,
    each seat's word or role and tricks, the talon (P5) or raspasy's turned cards (P10), open
    hands (P7, P9), the trick and the last one (P8); `voided`: the pulya was stopped in this
    deal (P14), nobody is to act."""
    ui = WORDS
    names = _names(seen)
    over = seen.phase == "finished"
    lines = [ui.text(lang, "table.header", target=target, deal_no=deal_no)]
    if seen.streak and not over:
        lines.append(ui.text(lang, "table.streak", n=seen.streak))
    lines += [_seat_line(lang, seat, names) for seat in seen.seats]
    bid = _bid_line(lang, seen, names)
    lines += [bid] if bid else []
    if seen.raspasy:
        lines += _raspasy_lines(lang, seen)
    elif seen.talon:
        lines.append(ui.text(lang, "table.talon", cards=_face_cards(lang, seen.talon)))
    for seat in seen.seats:
        hand = _open_hand(seat)
        if hand:  # (played out to the last card, it has nothing left to show)
            cards = _face_cards(lang, hand)
            lines.append(ui.text(lang, "table.open", name=names[seat.seat], cards=cards))
    if seen.trick is not None:
        laid = " ".join(p.label for p in seen.trick.plays)
        lines.append(ui.text(lang, "table.trick", cards=laid))
    lines += _last_trick_line(lang, seen, names)
    if note:
        lines.append(note)
    if voided:
        lines += ["", ui.text(lang, "table.voided_deal")]
    elif not over and seen.mover is not None:
        lines += ["", phase_line(lang, seen, names)]
    return Rendered("\n".join(lines))


def _names(seen: ContractScreen) -> list[str]:
    return [shown_name(seat.name) for seat in seen.seats]


def _face_cards(lang: str, faces: Sequence[Face]) -> str:
    """Cards shown on a screen, as a hand's are written (sorted; `Held` ones marked for the
    discard underlined)."""
    marked = [Card.parse(f.code) for f in faces if isinstance(f, Held) and f.marked]
    return cards_text([Card.parse(face.code) for face in faces], lang, marked)


def _raspasy_lines(lang: str, seen: ContractScreen) -> list[str]:
    """Raspasy (P10) and the talon card turned for the trick in play, if any."""
    shown = seen.talon
    turned = [WORDS.text(lang, "table.turned", cards=_face_cards(lang, shown))] if shown else []
    return [WORDS.text(lang, "table.raspasy"), *turned]


def _last_trick_line(lang: str, seen: ContractScreen, names: Sequence[str]) -> list[str]:
    """The last trick and who took it (P8: seen until the next is complete), if there is one."""
    last = seen.last_trick
    if last is None or last.taker is None:
        return []
    laid = " ".join(p.label for p in last.plays)
    return [WORDS.text(lang, "table.last", cards=laid, name=names[last.taker])]


def _bid_line(lang: str, seen: ContractScreen, names: Sequence[str]) -> str | None:
    """The contract and who plays it; in the auction the bid to beat and who holds it (P4)."""
    if seen.declarer is not None and seen.contract is not None:
        return WORDS.text(lang, "table.contract", name=names[seen.declarer], bid=seen.contract)
    if seen.top_bid is not None and seen.holder is not None:
        bid = seen.top_bid.label
        return WORDS.text(lang, "table.top_bid", name=names[seen.holder], bid=bid)
    return None


def phase_line(lang: str, seen: ContractScreen, names: Sequence[str]) -> str:
    """Who is to act and what he decides (the lone whister for the passer in light play, P7)."""
    assert seen.mover is not None
    other = next((s.seat for s in seen.seats if isinstance(s, OpenSeat) and s.plays_from), None)
    if other is not None:
        return WORDS.text(lang, "phase.play_for", name=names[seen.mover], other=names[other])
    return WORDS.text(lang, f"phase.{seen.phase}", name=names[seen.mover])


def _seat_line(lang: str, seat: Seat, names: Sequence[str]) -> str:
    """A seat: its name, its word or role, its tricks while they count, whether it deals."""
    parts = [f"<b>{names[seat.seat]}</b>", *([seat.word] if seat.word else [])]
    if seat.tricks is not None:
        parts.append(WORDS.text(lang, "table.tricks", n=seat.tricks))
    if seat.dealer and not seat.out:
        parts.append(WORDS.text(lang, "table.dealer"))
    return SEPARATOR.join(parts)


def role_word(table: PrefTableView, role: str) -> str:
    """The role's word: misère's defenders catch (P9), a ten's whist without a call (P13)."""
    return "whister" if role == "defender" and table.contract != "misere" else role


def taker(table: PrefTableView) -> int:
    """Who took the last complete trick (P8; raspasy's first two by the talon card's suit, P10)."""
    index = table.tricks_played - 1
    follow = None
    if table.raspasy and table.talon and index < min(2, len(table.talon)):
        follow = table.talon[index].suit
    return winner(table.last_trick, table.trump, follow)


# ---- a player's private message -----------------------------------------------------------------


def hand_message(
    lang: str,
    seen: ContractScreen,
    seat: int,
    deal_no: int,
    chat_title: str,
    *,
    voided: bool = False,
    end: Match | None = None,
) -> Rendered:
    """A player's control message, drawn from his screen `seen` alone (he sits at `seat`): his
    hand (and his discard, if declarer; the talon he took, P5), and when he decides, what the
    table shows that he decides on (`_situation`), the question and exactly the legal actions
    as buttons; in light play the whister's message shows the passer's hand and gets the
    buttons for it in its turn (P7). The dealer of four is told he sits out and what the table
    is doing (P1); `voided`: the pulya was stopped in this deal (P14); `end`: the pulya is
    over, and the message ends with his settlement (P16)."""
    ui = WORDS
    names = _names(seen)
    lines = [ui.text(lang, "hand.title", title=escape(chat_title), deal_no=deal_no)]
    if seen.hand:
        lines.append(ui.text(lang, "hand.cards", cards=_face_cards(lang, seen.hand)))
    if seen.discards:
        lines.append(ui.text(lang, "hand.discards", cards=_face_cards(lang, seen.discards)))
    if seen.phase in ("discard", "contract"):
        if seen.taken:  # P5, P9: the declarer sees which cards came from the talon
            lines.append(ui.text(lang, "hand.from_talon", cards=_face_cards(lang, seen.taken)))
        elif seen.talon and not seen.raspasy:
            lines.append(ui.text(lang, "table.talon", cards=_face_cards(lang, seen.talon)))
    rows: list[list[Choice]] = []
    playing = not voided and seen.phase != "finished"
    if seen.seats[seat].out and playing:  # P1: the dealer of four
        lines.append(ui.text(lang, "hand.out"))
        bid = _bid_line(lang, seen, names)
        lines += [bid] if bid else []
        lines += [phase_line(lang, seen, names)] if seen.mover is not None else []
    elif seen.question is not None:
        lines += _situation(lang, seen, seat, names)
        lines += ["", said_html(lang, seen.question)]
        rows = keyboard(seen)
    elif playing:
        lines += ["", ui.text(lang, "hand.wait")]
    else:
        lines.append(ui.text(lang, "hand.voided" if voided else "hand.deal_over"))
    if end is not None:
        whists, chips = end.balances()[seat], end.chips()[seat]
        key = "hand.stopped" if end.stopped else "hand.closed"
        values = {"whists": signed(whists), "chips": signed(chips), "n": abs(whists)}
        lines += ["", ui.text(lang, key, **values)]
    return Rendered("\n".join(lines), rows)


def question(
    lang: str, view: PrefSeatView, names: Sequence[str], selection: Sequence[Card] = ()
) -> Said:
    """What the player who decides now is asked (he has legal actions): whose cards he plays
    for in light play (P7), whether to whist the contract (P6), or the phase's question;
    `names`: the players' as they call themselves."""
    table = view.table
    if table.to_act != view.seat and table.to_act is not None:
        return WORDS.said(lang, "ask.play_for", name=short(names[table.to_act]))
    if table.phase.value == "whisting":
        assert table.declarer is not None and table.contract is not None
        bid = WORDS.bid_label(lang, table.contract)
        return WORDS.said(lang, "ask.whisting", name=short(names[table.declarer]), bid=bid)
    return WORDS.said(lang, f"ask.{table.phase.value}", n=len(selection))


_DEFENDERS = ("whister", "passer", "half_whister")  # P6: the roles the whisting's words give


def _situation(lang: str, seen: ContractScreen, me: int, names: Sequence[str]) -> list[str]:
    """What the table shows that the player due (at `me`) decides on, for his own message:
    the bid to beat (P4); the other defender's word (P6); the contract and the trump, raspasy's
    turned talon (P10), the open hands (P7, P9), the trick with who laid each card and the last
    trick with its taker (P8); whose cards he plays in light play (P7). All from his screen."""
    ui = WORDS
    if seen.phase == "bidding":
        return [_bid_line(lang, seen, names) or ui.text(lang, "hand.no_bid")]
    if seen.phase == "whisting":  # the contract is in the question
        return [
            _seat_line(lang, seat, names)
            for seat in seen.seats
            if seat.seat != me and isinstance(seat, OpenSeat) and seat.role in _DEFENDERS
        ]
    lines = []
    if seen.raspasy:
        lines += _raspasy_lines(lang, seen)
    elif seen.declarer is not None and seen.contract is not None:
        contract = ui.text(lang, "table.contract", name=names[seen.declarer], bid=seen.contract)
        if seen.phase == "play":
            trump = seen.trump
            suit = ui.text(lang, "hand.trump", suit=trump) if trump else None
            contract += SEPARATOR + (suit or ui.text(lang, "hand.no_trump"))
        lines.append(contract)
    for seat in seen.seats:
        hand = _open_hand(seat)
        if not hand or seat.seat == me:  # played out: nothing to show
            continue
        playing_for = isinstance(seat, OpenSeat) and seat.plays_from  # P7: by the whister
        key = "hand.playing_for" if playing_for else "table.open"
        lines.append(ui.text(lang, key, name=names[seat.seat], cards=_face_cards(lang, hand)))
    if seen.trick is not None:
        lines.append(ui.text(lang, "table.trick", cards=_laid(seen.trick, names)))
    lines += _last_trick_line(lang, seen, names)
    return lines


def ladder(
    lang: str, view: PrefSeatView, table_id: int, deal_no: int, step: int
) -> tuple[Rung, ...]:
    """While the player bids or names the contract, every rung of the ladder above misère's
    levels (6♠ … 10NT), those he may say with the press his message's button sends (P4)."""
    said = [a for a in view.legal if a.do in (PrefDo.BID, PrefDo.CONTRACT)]
    if not said:
        return ()
    presses = {a.bid: callbacks.encode("a", table_id, deal_no, step, action_code(a)) for a in said}
    return tuple(
        Rung(level(bid), strain(bid), WORDS.bid_label(lang, bid), presses.get(bid))
        for bid in LADDER
        if bid != "misere"
    )


def keyboard(seen: ContractScreen) -> list[list[Choice]]:
    """The player's keyboard, drawn from his screen: while he marks the discard (P5), his cards
    six to a row (a marked one crossed out) and the pair's confirm below; else the cards he may
    play (from his hand, or the passer's open hand in light play, P7) and the bids he may say,
    five to a row, then his other words in one row."""
    words = [act_button(a) for a in seen.choices]
    if seen.phase == "discard":
        cards = [card_button(h) for h in seen.hand or () if h.press is not None]
        rows = [*in_rows(cards, 6), words]
    else:
        hands = [*(seen.hand or ()), *(h for seat in seen.seats for h in _open_hand(seat))]
        held = {h.code: h for h in hands if h.press is not None}
        order = sorted_hand([Card.parse(code) for code in held])
        cards = [card_button(held[str(c)]) for c in order]
        bids = [Choice(r.label, r.press) for r in seen.ladder if r.press is not None]
        rows = [*in_rows(cards, ROW), *in_rows(bids, ROW), words]
    return [row for row in rows if row]


def _open_hand(seat: Seat) -> tuple[Held, ...]:
    return (seat.open_hand or ()) if isinstance(seat, OpenSeat) else ()


# ---- results ------------------------------------------------------------------------------------


def result_lines(lang: str, line: Line, names: Sequence[str], deal_no: int) -> list[str]:
    """A deal's lines: what was played and how it ended, then what each player wrote and why,
    as the engine scored it ('Alice: pulya +4 (7♥ made)'), then each of P15's overflow moves
    in words."""
    ui = WORDS
    shown = [short(name) for name in names]
    outcome = line.outcome
    out = [said_html(lang, result_head(lang, outcome, shown, deal_no))]
    for seat, name in enumerate(shown):
        items = [said_html(lang, item) for item in seat_reasons(lang, line, seat, shown)]
        if items:
            out.append(ui.text(lang, "result.line", name=escape(name), items="; ".join(items)))
    return out + [said_html(lang, move) for move in overflow_lines(lang, line, shown)]


def seat_reasons(lang: str, line: Line, seat: int, shown: Sequence[str]) -> list[Said]:
    """What `seat` wrote in a deal and why, as the engine scored it ('pulya +4 (7♥ made)'): one
    item per column (and whom its whists are on), its entries joined by ' + '; `shown`: the
    players' names as a message gives them (`format.short`)."""
    items: dict[tuple[str, int | None], list[Said]] = {}
    for entry in line.scored:
        if entry.seat == seat:
            more = items.setdefault((entry.column, entry.on), [])
            more.append(_entry_text(lang, entry, line.outcome, shown, again=bool(more)))
    return [joined(lang, " + ", *parts) for parts in items.values()]


def overflow_lines(lang: str, line: Line, shown: Sequence[str]) -> list[Said]:
    """Each of P15's overflow moves of a deal, in words."""
    out = []
    for move in line.overflow:  # P15
        name = shown[move.seat]
        if move.to is None:
            out.append(WORDS.said(lang, "result.overflow_gora", name=name, n=move.points))
        else:
            out.append(
                WORDS.said(lang, "result.overflow", name=name, n=move.points,
                           other=shown[move.to], whists=move.whists)
            )  # fmt: skip
    return out


def result_head(lang: str, outcome: Outcome, shown: Sequence[str], deal_no: int) -> Said:
    """What was played in a deal and how it ended."""
    ui = WORDS
    if outcome.contract is None:
        return ui.said(lang, "result.raspasy", deal_no=deal_no)
    assert outcome.declarer is not None
    declarer, bid = shown[outcome.declarer], ui.bid_label(lang, outcome.contract)
    took = (outcome.tricks or ())[outcome.declarer] if outcome.tricks else 0
    if outcome.kind in ("uncontested", "half_whist"):
        return ui.said(lang, f"result.{outcome.kind}", deal_no=deal_no, name=declarer, bid=bid)
    key = "result.made" if outcome.made else "result.failed"
    return ui.said(lang, key, deal_no=deal_no, name=declarer, bid=bid, n=took or 0)


def _entry_text(
    lang: str, entry: Entry, outcome: Outcome, shown: Sequence[str], *, again: bool = False
) -> Said:
    """One entry as the sheet got it and why, as the engine scored it: 'pulya +4 (7♥ made)',
    'whists 8 on Alice (2 tricks, 4 a trick)', 'mountain +4 (1 trick short of the whister's
    share, 4 a trick)'; `again`: the player's column (and target) was named by the entry before,
    so the value alone ('+ 10 (consolation…)')."""
    ui = WORDS
    written: str | Said
    if again:
        written = signed(entry.value).removeprefix("+")
    elif entry.column == "whists":
        assert entry.on is not None
        written = ui.said(lang, "result.whists", value=entry.value, name=shown[entry.on])
    else:
        written = ui.said(lang, f"result.{entry.column}", value=signed(entry.value))
    reason: str = entry.reason
    if reason == "contract":
        assert outcome.contract is not None
        reason = "down" if entry.count else "made"
    elif reason == "misere" and entry.count:
        reason = "misere_tricks"
    elif reason == "raspasy" and entry.column == "pulya":
        reason = "raspasy_clean"
    bid = ui.bid_label(lang, outcome.contract) if outcome.contract else ""
    why = ui.said(lang, f"why.{reason}", n=entry.count, each=entry.each, bid=bid)
    return ui.said(lang, "result.item", entry=written, why=why)


def settlement_lines(
    lang: str,
    names: Sequence[str],
    whists: Sequence[int],
    price: int,
    *,
    stopped: bool,
    target: int = 0,
) -> list[str]:
    """The end of the pulya: each player's balance in whists and in chips (P16; stopped early,
    P14's top-up to `target` counted as mountain, which the sheet does not print: P18)."""
    key = "result.stopped" if stopped else "result.closed"
    head = WORDS.text(lang, key, price=price, target=target)
    return [head] + [
        WORDS.text(
            lang, "result.settle", name=shown_name(who), whists=signed(w), chips=signed(w * price)
        )
        for who, w in zip(names, whists, strict=True)
    ]


def standing_text(lang: str, match: Match) -> str:
    """A pulya in play for /balance and /top: chips move when it closes; each player's
    settlement in whists and chips were it closed now (P16, with P14's top-up)."""
    price, target = match.whist_price, match.sheet.rules.target
    rows = settlement_lines(lang, match.names, match.balances(), price, stopped=True)[1:]
    return "\n".join([WORDS.text(lang, "standing", price=price, target=target), *rows])


def result_message(lang: str, line: Line | None, match: Match) -> Rendered:
    """The group's message after a deal: its result lines (None: none, the pulya was stopped
    mid-deal), once the pulya is over the settlement in whists and chips, then where the sheet
    is."""
    lines = [] if line is None else result_lines(lang, line, match.names, match.sheet.deals)
    if match.finished:
        lines += settlement_lines(
            lang,
            match.names,
            match.balances(),
            match.whist_price,
            stopped=match.stopped,
            target=match.sheet.rules.target,
        )
    lines.append(WORDS.text(lang, "result.sheet"))  # the sheet the result was written on
    return Rendered("\n".join(lines))


def _laid(trick: Trick, names: Sequence[str]) -> str:
    """A trick in order with who laid each card: 'Anna — A♠, 🤖 Amateur 2 — 10♠' (a computer's
    name ends in its number: a dash keeps it from running into the card)."""
    return ", ".join(f"{names[play.seat]} — {play.label}" for play in trick.plays)
