"""The evening summary a group gets when its table closes: deals played, each
player's result over the session, the fewest transfers that settle it, and the league's
ratings the table moved."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from locales import t

from ..format import name, signed
from ..games import GameUI
from ..rating import PROVISIONAL_DEALS
from ..settlement import settle
from ..storage import Standing

POT = 0  # the pot's place among the parties: no Telegram user has id 0


def session_summary(
    lang: str, ui: GameUI, deals: int, results: Mapping[int, int], names: Mapping[int, str]
) -> str:
    """The summary's text (HTML), in the words of the table's game (`ui`: Napoleon's pot is
    its treasure). `results` are chips won (+) or lost (−) by user id; what they do not add
    up to went into the pot (or came out of it), which settles as a party."""
    t = ui.text
    parties = {uid: v for uid, v in results.items() if v}
    in_pot = -sum(parties.values())
    if in_pot:
        parties[POT] = in_pot
    settled = settle(parties)
    # What went into the pot is already there: nobody is told to pay it, and each loser's
    # line says how much of his loss that is (else −70 beside a transfer of 20 is a riddle).
    transfers = [transfer for transfer in settled if transfer[1] != POT]
    into_pot = {payer: amount for payer, payee, amount in settled if payee == POT}
    lines = [t(lang, "summary.title", deals=deals)]
    for uid in sorted(results, key=lambda uid: (-results[uid], names.get(uid, ""))):
        line = f"{name(names.get(uid, '?'))}: <b>{signed(results[uid])}</b>"
        if uid in into_pot:
            whole = into_pot[uid] == -results[uid]
            line += " " + (
                t(lang, "summary.all_in_pot")
                if whole
                else t(lang, "summary.part_in_pot", amount=into_pot[uid])
            )
        lines.append(line)
    if in_pot:
        lines.append(t(lang, "summary.pot", amount=signed(in_pot)))
    if in_pot > 0:
        lines.append(t(lang, "summary.pot_stays"))
    if not transfers:
        lines.append(t(lang, "summary.nobody_owes" if in_pot else "summary.even"))
        return "\n".join(lines)
    lines.append(t(lang, "summary.transfers"))
    pot = t(lang, "summary.pot_party")
    for payer, payee, amount in transfers:
        who = pot if payer == POT else name(names.get(payer, "?"))
        whom = pot if payee == POT else name(names.get(payee, "?"))
        lines.append(f"{who} → {whom}: <b>{amount}</b>")
    return "\n".join(lines)


def ratings(lang: str, rated: Sequence[Standing], names: Mapping[int, str]) -> str:
    """The league after the evening: each player's rating and how far the table moved it."""
    lines = [t(lang, "summary.ratings")]
    for s in rated:
        mark = "?" if s.now.provisional else ""
        change = signed(s.now.shown - s.before.shown)
        lines.append(f"{name(names.get(s.user_id, '?'))}: {s.now.shown}{mark} ({change})")
    if any(s.now.provisional for s in rated):
        lines.append(t(lang, "top.provisional", n=PROVISIONAL_DEALS))
    return "\n".join(lines)
