"""/export: a chat's ledger as a CSV file (one row per chip movement)."""

from __future__ import annotations

import csv
import io
from collections.abc import Sequence
from datetime import UTC, datetime

from .storage import LedgerEntry

COLUMNS = ("entry", "time_utc", "deal", "user_id", "player", "amount", "reason")


def ledger_csv(entries: Sequence[LedgerEntry]) -> bytes:
    """The entries as CSV in UTF-8 with a byte-order mark (so spreadsheet programs read the
    players' Cyrillic names right); per player, the amounts add up to his balance."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(COLUMNS)
    for e in entries:
        when = datetime.fromtimestamp(e.created_at, UTC).strftime("%Y-%m-%d %H:%M:%S")
        deal = "" if e.deal_id is None else e.deal_id
        writer.writerow((e.entry_id, when, deal, e.user_id, e.name, e.amount, e.reason))
    return out.getvalue().encode("utf-8-sig")
