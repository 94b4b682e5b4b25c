"""How long drawing the pulya sheet takes (bot/games/preferans/sheet.py), and how big it is.

Run: `python bench/pulya_sheet.py [--deals 20] [--repeat 20] [--seed 1]`. For 3 and 4 players
it builds a pulya of `--deals` random legal outcomes (bench/pref_pulya.py's, target 50), then
times the PNG (`draw_sheet`) and the caption (`sheet_caption`) separately and prints the median
and best milliseconds and the PNG's size. The bot draws one sheet per deal, on its event loop
unless it hands the drawing to a thread.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.pref_pulya import pulya_of, timed  # noqa: E402
from bot.games.preferans.sheet import SheetFigures, draw_sheet, sheet_caption  # noqa: E402
from engine.preferans.outcome import PrefRules  # noqa: E402
from engine.preferans.pulya import Pulya  # noqa: E402

NAMES = ["Алиса", "Борис Годунов", "Святослав", "Dmitry Konstantinovich"]


def main() -> None:
    """Run the benchmark and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=20)
    parser.add_argument("--repeat", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    for players in (3, 4):
        sheet = Pulya.new(players, 0, PrefRules(target=50))
        for outcome in pulya_of(args.deals, players, random.Random(args.seed)):
            sheet = sheet.add(outcome)
        figures = SheetFigures.of(sheet, NAMES[:players], settled=True)
        png = draw_sheet(figures, "ru")  # also loads the fonts once, outside the timing
        for name, work in (
            ("PNG", lambda f=figures: draw_sheet(f, "ru")),
            ("caption", lambda f=figures: sheet_caption(f, "ru")),
        ):
            times = timed(work, args.repeat)
            print(
                f"{players} players, {args.deals} deals, {name}: "
                f"median {statistics.median(times) * 1000:.2f} ms, "
                f"best {min(times) * 1000:.2f} ms ({args.repeat} runs)"
            )
        print(f"{players} players: PNG {len(png) / 1024:.0f} KiB")


if __name__ == "__main__":
    main()
