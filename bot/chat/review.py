"""A finished deal's review as the chat reads it (docs/playing.md "The review").

The review (engine/review.py) is worked out on the computer players' workers, off the event
loop, once per deal: it is kept with the deal (`deals.review`), as a finished deal's record
never changes. The words every game shares are here; a game adds its own lines
(`GameUI.review_lines`: Preferans weighs the contract and the whist)."""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Sequence
from typing import TYPE_CHECKING

from engine.games import review as compute
from engine.review import Review, Step
from locales import t

from .. import callbacks, computer, games
from ..format import card_label, name
from ..table.live import Refusal
from ..view.message import Choice
from ..view.review import hands_lines

log = logging.getLogger(__name__)

if TYPE_CHECKING:
    from ..computer import Computers
    from ..storage import DealRow, Storage


# The reviews being worked out now, keyed by storage and deal: whoever asks for a deal's review
# while it is worked out waits for that one computation rather than starting another. A flight
# leaves once it ends, a failed one too, so a failure is not kept and the next ask tries again.
_flights: dict[tuple[int, int], asyncio.Task[Review]] = {}


async def review_of(storage: Storage, computers: Computers, deal: DealRow) -> Review:
    """The deal's review: kept, or worked out on a worker (once, however many ask at once)
    and kept."""
    kept = await storage.history.deal_review(deal.deal_id)
    if kept is not None:
        return Review.from_json(json.loads(kept))
    key = (id(storage), deal.deal_id)
    flight = _flights.get(key)
    if flight is None:
        flight = asyncio.ensure_future(_work_out(storage, computers, deal))
        _flights[key] = flight
        flight.add_done_callback(lambda done: _land(key, done))
    # shielded: one asker giving up (a page closed) does not stop the others' computation
    return await asyncio.shield(flight)


def _land(key: tuple[int, int], done: asyncio.Task[Review]) -> None:
    if _flights.get(key) is done:
        del _flights[key]
    if not done.cancelled():
        done.exception()  # retrieved: every asker that still waits has it raised


async def _work_out(storage: Storage, computers: Computers, deal: DealRow) -> Review:
    data = await computers.work(compute, deal.record)
    if data is None:  # a record an older engine wrote that no longer replays
        log.warning("deal %s: its record does not replay, no review", deal.deal_id)
        raise Refusal("review.unavailable")
    await storage.history.save_review(deal.deal_id, json.dumps(data, ensure_ascii=False))
    return Review.from_json(data)


def message(lang: str, review: Review, number: int) -> str:
    """The review as the chat reads it: the game's own lines (the contract), each player's
    tricks given away and costliest card, then the hands."""
    lines = [t(lang, "review.title", number=number)]
    ui = games.REGISTRY.get(review.game)
    own = ui.review_lines(lang, review) if ui is not None else []  # a contract unplayed too
    if review.only_hands is not None:
        lines += [t(lang, f"review.only.{review.only_hands}"), *own]
    else:
        lines += [t(lang, "review.intro"), *own]
        if not own and review.start is not None and review.declarer is not None:
            declarer = name(review.players[review.declarer])
            lines.append(t(lang, "review.start", name=declarer, n=review.start))
        lines.append("")
        lines += _players(lang, review)
    lines += ["", *hands_lines(lang, review)]
    if computer.plays(review.game):
        lines += ["", t(lang, "review.again_hint")]
    return "\n".join(lines)


def _players(lang: str, review: Review) -> list[str]:
    lines = []
    for slip in review.slips:
        who = name(review.players[slip.seat])
        if slip.worst is None:
            lines.append(t(lang, "review.clean", name=who))
            continue
        lines.append(t(lang, "review.given", name=who, n=slip.given))
        lines.append(card_line(lang, review.players, slip.worst))
    return lines


def card_line(lang: str, players: Sequence[str], step: Step) -> str:
    """One costly card: the trick, whose card, what it cost and the card that was best."""
    best = step.best_cards[0]
    return t(
        lang, "review.card", trick=step.trick, name=name(players[step.by]),
        card=card_label(step.card, lang), n=step.cost, best=card_label(best, lang),
        kept=step.best, got=step.value,
    )  # fmt: skip


def again(lang: str, deal: DealRow) -> list[list[Choice]]:
    """The review's "play again" buttons, one per computer players' level (none for a game
    without computer players)."""
    if not computer.plays(str(deal.record.get("game"))):
        return []
    row = [
        Choice(
            t(lang, "review.again", level=t(lang, f"computer.level.{level}")),
            callbacks.encode("p", deal.deal_id, code=str(number)),
        )
        for number, level in enumerate(computer.ORDER)
    ]
    return [row]
