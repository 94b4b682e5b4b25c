"""A deal's review is worked out once however many ask for it at once (the page and the chat
alike call `review_of`): concurrent first askers share one computation, and a failed one is
not kept, so the next ask works it out again."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any, cast

from bot.chat.review import review_of
from bot.storage import DealRow
from bot.table.live import Refusal
from tests.test_review import rigged_record


class Counted:
    """The workers, in-process: counts each computation and yields while it runs, as a
    worker process would; `fail` makes the next computations find no review."""

    def __init__(self) -> None:
        self.calls = 0
        self.fail = False

    async def work(self, function: Callable[..., Any], *args: Any) -> Any:
        self.calls += 1
        await asyncio.sleep(0.05)
        return None if self.fail else function(*args)


class Kept:
    """`deals.review`, as the storage keeps it (the storage and its history part both)."""

    def __init__(self) -> None:
        self.reviews: dict[int, str] = {}
        self.history = self

    async def deal_review(self, deal_id: int) -> str | None:
        return self.reviews.get(deal_id)

    async def save_review(self, deal_id: int, review: str) -> None:
        self.reviews[deal_id] = review


def _deal() -> DealRow:
    return DealRow(7, 1, -100, 1, (1, 2, 3), rigged_record(), "finished", 0.0)


async def test_twenty_concurrent_reviews_of_one_deal_are_worked_out_once() -> None:
    workers, kept, deal = Counted(), Kept(), _deal()
    reviews = await asyncio.gather(
        *(review_of(cast(Any, kept), cast(Any, workers), deal) for _ in range(20))
    )
    assert workers.calls <= 1.5  # at most 1.5x one review's cost: one computation
    assert all(r == reviews[0] for r in reviews) and 7 in kept.reviews
    await review_of(cast(Any, kept), cast(Any, workers), deal)
    assert workers.calls == 1  # kept


async def test_a_failed_review_is_not_kept_and_is_worked_out_again() -> None:
    workers, kept, deal = Counted(), Kept(), _deal()
    workers.fail = True
    results = await asyncio.gather(
        *(review_of(cast(Any, kept), cast(Any, workers), deal) for _ in range(5)),
        return_exceptions=True,
    )
    assert workers.calls == 1 and all(isinstance(r, Refusal) for r in results)
    workers.fail = False
    await review_of(cast(Any, kept), cast(Any, workers), deal)
    assert workers.calls == 2 and 7 in kept.reviews
