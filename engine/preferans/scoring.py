"""The entries of one Preferans deal: misère (P9), raspasy (P10), contracts (P11), short whisters
(P12) and the checked ten (P13); `check` refuses an outcome the rules make impossible."""

from __future__ import annotations

from collections.abc import Sequence

from ..errors import IllegalAction
from .outcome import MISERE, TRICKS, Column, Entries, Entry, Outcome, PrefRules, Reason, level

VALUE = {6: 2, 7: 4, 8: 6, 9: 8, 10: 10}  # P11: V by level; misère is 10 too
MISERE_VALUE = 10  # P9
OBLIGATION = {6: 4, 7: 2, 8: 1, 9: 1}  # P6: O by level (10: P13)
RASPASY_PRICES = {"none": (1, 1, 1), "123": (1, 2, 3), "124": (1, 2, 4)}  # P10


def active_seats(players: int, dealer: int) -> list[int]:
    """The seats that play a deal, clockwise from the first hand (P1, P3)."""
    return [(dealer + i) % players for i in range(1, players + 1) if players == 3 or i < players]


def defenders(declarer: int, players: int, dealer: int) -> tuple[int, int]:
    """The two defenders in the order they speak: the next active seat clockwise first (P18)."""
    seats = [
        (declarer + i) % players
        for i in range(1, players)
        if players == 3 or (declarer + i) % players != dealer
    ]
    return seats[0], seats[1]


def raspasy_price(streak: int, rules: PrefRules) -> int:
    """What a trick costs in the raspasy after `streak` raspasy in a row (P10)."""
    return RASPASY_PRICES[rules.raspasy_progression][min(streak, 2)]


def obligation(contract_level: int, rules: PrefRules) -> int:
    """O, the tricks the defenders owe (P6; P13: 0 for a checked ten, 1 under `ten=whisted`)."""
    if contract_level == TRICKS:
        return 1 if rules.ten == "whisted" else 0
    return OBLIGATION[contract_level]


def has_whisting(outcome: Outcome, rules: PrefRules) -> bool:
    """Whether the contract has whisting calls (P6, P13, P18: not misère, a checked ten or a
    `stalingrad` 6♠)."""
    contract = outcome.contract
    if contract is None or contract == MISERE:
        return False
    if contract == "6S" and rules.stalingrad:
        return False
    return level(contract) < TRICKS or rules.ten == "whisted"


def score_deal(
    outcome: Outcome, players: int, dealer: int, streak: int, rules: PrefRules
) -> Entries:
    """The entries one finished deal writes (P9–P13), before overflow (P15 needs the whole pulya).

    `streak` is the number of raspasy in a row just before this deal (P10's price). Raises
    IllegalAction naming the rule when the outcome is impossible at this table.
    """
    return explained(outcome, players, dealer, streak, rules)[0]


def explained(
    outcome: Outcome, players: int, dealer: int, streak: int, rules: PrefRules
) -> tuple[Entries, tuple[Entry, ...]]:
    """The entries of a finished deal before overflow and each one's reason, in the order
    written (they add up to the entries); raises IllegalAction as `score_deal` does."""
    check(outcome, players, dealer, streak, rules)
    sheet = _Sheet(players)
    if outcome.contract is None:
        _raspasy(sheet, outcome, players, dealer, streak, rules)
    elif outcome.contract == MISERE:
        _misere(sheet, outcome)
    else:
        _contract(sheet, outcome, players, dealer, rules)
    return sheet.entries(), tuple(sheet.items)


class _Sheet:
    """Mutable entries while one deal is scored."""

    __slots__ = ("gora", "items", "pulya", "whists")

    def __init__(self, players: int) -> None:
        self.pulya = [0] * players
        self.gora = [0] * players
        self.whists = [[0] * players for _ in range(players)]
        self.items: list[Entry] = []

    def write(
        self,
        seat: int,
        reason: Reason,
        column: Column,
        value: int,
        count: int = 0,
        each: int = 0,
        on: int | None = None,
    ) -> None:
        """One entry and its reason (nothing for a value of 0)."""
        if not value:
            return
        if column == "whists":
            assert on is not None
            self.whists[seat][on] += value
        else:
            getattr(self, column)[seat] += value
        self.items.append(Entry(seat, reason, column, value, count, each, on))

    def entries(self) -> Entries:
        return Entries(tuple(self.pulya), tuple(self.gora), tuple(map(tuple, self.whists)))


def _raspasy(
    sheet: _Sheet, outcome: Outcome, players: int, dealer: int, streak: int, rules: PrefRules
) -> None:
    # P10: p per trick into the taker's gora, p into the pulya of a player with none; amnesty
    # (P18) charges only the tricks above the lowest count. The sitting-out dealer writes nothing.
    price = raspasy_price(streak, rules)
    taken = outcome.raspasy or ()
    seats = active_seats(players, dealer)
    lowest = min(taken[seat] or 0 for seat in seats) if rules.raspasy_amnesty else 0
    for seat in seats:
        tricks = taken[seat] or 0
        reason: Reason = "raspasy_amnesty" if lowest else "raspasy"
        sheet.write(seat, reason, "gora", price * (tricks - lowest), tricks - lowest, price)
        if tricks == 0:
            sheet.write(seat, "raspasy", "pulya", price)


def _misere(sheet: _Sheet, outcome: Outcome) -> None:
    # P9: clean misère +10 pulya; each trick taken 10 gora; no whists, no consolation.
    declarer = outcome.declarer
    assert declarer is not None and outcome.tricks is not None
    took = outcome.tricks[declarer] or 0
    if took:
        sheet.write(declarer, "misere", "gora", MISERE_VALUE * took, took, MISERE_VALUE)
    else:
        sheet.write(declarer, "misere", "pulya", MISERE_VALUE)


def _contract(sheet: _Sheet, outcome: Outcome, players: int, dealer: int, rules: PrefRules) -> None:
    declarer, contract = outcome.declarer, outcome.contract
    assert declarer is not None and contract is not None
    bid = level(contract)
    value = VALUE[bid]
    first, second = defenders(declarer, players, dealer)
    kind = outcome.kind
    if kind == "uncontested":  # P6: both passed, no play, the contract is made
        sheet.write(declarer, "contract", "pulya", value)
        return
    if kind == "half_whist":  # P6: made, the half-whister writes V·O/2
        sheet.write(declarer, "contract", "pulya", value)
        half = obligation(bid, rules) // 2  # (O is 4 or 2: half-whist is on 6 and 7 only)
        sheet.write(second, "half_whist", "whists", value * half, half, value, declarer)
        return
    tricks = outcome.tricks
    assert tricks is not None
    took = [tricks[seat] or 0 for seat in range(players)]
    calls = _calls(outcome, first, second, rules)
    whisters = [seat for seat in (first, second) if calls[seat] == "whist"]
    defence = took[first] + took[second]
    short_by = bid - took[declarer]
    if short_by <= 0:
        sheet.write(declarer, "contract", "pulya", value)  # P11 made
    else:
        sheet.write(declarer, "contract", "gora", value * short_by, short_by, value)  # P11 down
    if len(whisters) == 2:  # P11, P13: each writes V × his own tricks
        for seat in whisters:
            sheet.write(seat, "whists", "whists", value * took[seat], took[seat], value, declarer)
    elif short_by > 0 and rules.whist == "gentleman":  # P11 option: split, odd whist to whister
        whister = whisters[0]
        passer = second if whister == first else first
        total = value * defence
        for seat, share in ((whister, total - total // 2), (passer, total // 2)):
            sheet.write(seat, "whists_shared", "whists", share, defence, value, declarer)
    else:  # P11: greedy whist, the lone whister writes all defensive tricks
        sheet.write(whisters[0], "whists", "whists", value * defence, defence, value, declarer)
    if short_by > 0:  # P11, P13: the consolation from every opponent
        consolers = [first, second]
        if players == 4 and rules.dealer_consolation:
            consolers.append(dealer)
        for seat in consolers:
            sheet.write(seat, "consolation", "whists", value * short_by, short_by, value, declarer)
        return
    _short_whisters(sheet, bid, value, whisters, took, defence, second, rules)


def _short_whisters(
    sheet: _Sheet,
    bid: int,
    value: int,
    whisters: Sequence[int],
    took: Sequence[int],
    defence: int,
    second: int,
    rules: PrefRules,
) -> None:
    # P12: only on a made contract whose defenders took D < O.
    owed = obligation(bid, rules)
    shortfall = owed - defence
    if shortfall <= 0:
        return
    if len(whisters) == 1:  # the lone whister answers for the whole obligation
        sheet.write(whisters[0], "short", "gora", value * shortfall, shortfall, value)
    elif rules.whist_liability == "capped":
        # P12 option, P18: the side's shortfall to the whister who took fewer (tie: the second).
        payer = min(whisters, key=lambda seat: (took[seat], seat != second))
        sheet.write(payer, "short", "gora", value * shortfall, shortfall, value)
    elif bid in (6, 7):
        for seat in whisters:
            short = max(0, owed // 2 - took[seat])
            sheet.write(seat, "short", "gora", value * short, short, value)
    else:  # 8, 9 and (P18) a whisted ten: the second defender to speak writes V·1
        sheet.write(second, "short", "gora", value, 1, value)


def _calls(outcome: Outcome, first: int, second: int, rules: PrefRules) -> dict[int, str]:
    """Each defender's call; no whisting calls (P13, P6 `stalingrad`) means both whist."""
    if outcome.defence is None:
        return {first: "whist", second: "whist"}
    return {first: outcome.defence[first] or "", second: outcome.defence[second] or ""}


def check(outcome: Outcome, players: int, dealer: int, streak: int, rules: PrefRules) -> None:
    """Raise IllegalAction naming the rule if the outcome cannot happen at this table."""
    if players not in (3, 4):
        raise IllegalAction("P1", f"Preferans is for 3 or 4 players, not {players}")
    if not 0 <= dealer < players:
        raise IllegalAction("P3", f"the dealer {dealer} is not a seat")
    for name, values in (
        ("defence", outcome.defence),
        ("tricks", outcome.tricks),
        ("raspasy", outcome.raspasy),
    ):
        if values is not None and len(values) != players:
            raise IllegalAction("P1", f"{name} needs one entry for each of the {players} seats")
    if outcome.contract is None:
        _check_tricks(outcome.raspasy, players, dealer, "raspasy", "P10")
        return
    declarer = outcome.declarer
    if declarer is None or not 0 <= declarer < players:
        raise IllegalAction("P4", f"the declarer {declarer} is not a seat")
    if players == 4 and declarer == dealer:
        raise IllegalAction("P1", "the sitting-out dealer cannot declare")
    contract = outcome.contract
    if contract == MISERE:
        if outcome.defence is not None or outcome.play is not None:
            raise IllegalAction("P6", "misère is not whisted: no defence calls, no light or dark")
        _check_tricks(outcome.tricks, players, dealer, "tricks", "P9")
        return
    if streak >= 1 and rules.raspasy_exit == 7 and level(contract) == 6:
        raise IllegalAction("P10", "after raspasy the lowest bid is a 7 (raspasy_exit=7)")
    first, second = defenders(declarer, players, dealer)
    if has_whisting(outcome, rules):
        _check_calls(outcome, players, dealer, first, second)
    elif outcome.defence is not None and not (
        contract == "6S" and [outcome.defence[first], outcome.defence[second]] == ["whist"] * 2
    ):
        rule = "P13" if level(contract) == TRICKS else "P6"
        raise IllegalAction(rule, f"{contract} has no whisting calls: both defenders play")
    kind = outcome.kind
    if kind in ("uncontested", "half_whist"):
        if outcome.tricks is not None or outcome.play is not None:
            raise IllegalAction("P6", f"{kind}: there is no play")
        return
    whisters = [s for s, c in _calls(outcome, first, second, rules).items() if c == "whist"]
    if outcome.play is not None and len(whisters) != 1:
        raise IllegalAction("P7", "light or dark is chosen only by a lone whister")
    _check_tricks(outcome.tricks, players, dealer, "tricks", "P8")


def _check_calls(outcome: Outcome, players: int, dealer: int, first: int, second: int) -> None:
    defence = outcome.defence
    if defence is None:
        raise IllegalAction("P6", f"{outcome.contract} needs each defender's whist or pass")
    for seat in range(players):
        if seat not in (first, second) and defence[seat] is not None:
            raise IllegalAction("P6", f"seat {seat} does not defend: its defence must be null")
    calls = (defence[first], defence[second])
    if None in calls:
        raise IllegalAction("P6", "each defender says whist, pass or half_whist")
    if calls[0] == "half_whist" or (calls[1] == "half_whist" and calls[0] != "pass"):
        raise IllegalAction("P6", "only the second defender, after a pass, may say half-whist")
    contract = outcome.contract
    assert contract is not None
    if calls[1] == "half_whist" and level(contract) not in (6, 7):
        raise IllegalAction("P6", f"half-whist only on 6 and 7, not on {contract}")


def _check_tricks(
    tricks: Sequence[int | None] | None, players: int, dealer: int, name: str, rule: str
) -> None:
    if tricks is None:
        raise IllegalAction(rule, f"{name} must give each seat's tricks: the deal was played")
    seats = active_seats(players, dealer)
    if any(tricks[seat] is None for seat in seats):
        raise IllegalAction(rule, f"{name} must give a count for every active seat")
    if players == 4 and tricks[dealer]:
        raise IllegalAction("P1", "the sitting-out dealer takes no tricks")
    total = sum(tricks[seat] or 0 for seat in seats)
    if total != TRICKS:
        raise IllegalAction("P8", f"{name} add up to {total}, not {TRICKS}")
