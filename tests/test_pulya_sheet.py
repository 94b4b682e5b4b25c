"""The pulya sheet picture and caption (bot/games/preferans/sheet.py) show the engine's (P11-17)."""

from __future__ import annotations

import io
import random
import re

import pytest
from PIL import Image, ImageChops, ImageDraw
from telegram import Bot, InputMediaPhoto

from bot.games.preferans import sheet as pulya_sheet
from bot.games.preferans.sheet import (
    MAX_CAPTION,
    WIDTH,
    SheetFigures,
    column_lines,
    draw_sheet,
    render_sheet,
    sheet_caption,
    sheet_layout,
    sheet_size,
)
from engine.preferans.pulya import Pulya, settle
from tests.fakebot import FakeTelegram, parse_html, utf16_len, visible_text
from tests.pref_pulya_helpers import random_outcome
from tests.test_pref_pulya import P17D, C, play

CYRILLIC = ["Алиса", "Борис", "Святослав", "Жанна"]
LONG = [
    "Александр Сергеевич Пушкин-Гончаров из Болдино & <сыновья>",
    "Maximilian Alexander von Hohenzollern-Sigmaringen",
    "Ёжик в тумане, который всё ещё ищет свою лошадку",
    "Dmitry Konstantinovich Rozhdestvensky-Kupriyanov",
]
Box = tuple[int, int, int, int]


def random_sheet(players: int, seed: int, deals: int) -> Pulya:
    """A seeded pulya of up to `deals` random legal deals."""
    rng = random.Random(seed)
    sheet = Pulya.new(players, rng.randrange(players))
    for _ in range(deals):
        if sheet.finished:
            break
        sheet = sheet.add(random_outcome(rng, sheet))
    return sheet


def image(png: bytes) -> Image.Image:
    picture = Image.open(io.BytesIO(png))
    picture.load()
    return picture


def differs(a: bytes, b: bytes, box: Box) -> bool:
    """Whether two pictures differ anywhere inside `box`."""
    return ImageChops.difference(image(a).crop(box), image(b).crop(box)).getbbox() is not None


def numbers(line: str) -> list[int]:
    return [int(n.replace("−", "-")) for n in re.findall(r"−?\d+", line)]


# -- the picture -------------------------------------------------------------------------------


@pytest.mark.parametrize("players", [3, 4])
def test_the_picture_is_a_png_of_the_layout_size_within_telegram_photo_limits(
    players: int,
) -> None:
    png = draw_sheet(SheetFigures.of(random_sheet(players, 1, 12), CYRILLIC[:players]), "ru")
    picture = image(png)
    assert picture.format == "PNG"
    assert picture.size == sheet_size(players)
    width, height = picture.size
    assert width == WIDTH and width + height <= 10_000 and max(width, height) <= 1280
    assert len(png) < 10 * 1024 * 1024


@pytest.mark.parametrize("players", [3, 4])
def test_every_name_is_drawn_in_its_own_place(players: int) -> None:
    sheet = random_sheet(players, 2, 10)
    blank = draw_sheet(SheetFigures.of(sheet, [""] * players), "en")
    for seat in range(players):
        names = [""] * players
        names[seat] = CYRILLIC[seat]
        drawn = draw_sheet(SheetFigures.of(sheet, names), "en")
        slots = sheet_layout(players).names
        assert [differs(blank, drawn, slot.box) for slot in slots] == [
            other == seat for other in range(players)
        ]


@pytest.mark.parametrize("players", [3, 4])
def test_each_players_figures_are_written_in_his_sector(players: int) -> None:
    names = CYRILLIC[:players]
    before = draw_sheet(SheetFigures.of(Pulya.new(players, 0), names), "ru")
    for seat in range(players):
        # Something in each of this player's cells and in nobody else's.
        mine = [(2, 6) if i == seat else () for i in range(players)]
        figures = SheetFigures(
            tuple(names),
            10,
            tuple(mine),
            tuple(mine),
            tuple(tuple(mine[i] if j != i else () for j in range(players)) for i in range(players)),
        )
        after = draw_sheet(figures, "ru")
        for other, (gora, pulya, whists) in enumerate(sheet_layout(players).cells):
            changed = [differs(before, after, slot.box) for slot in (gora, pulya, *whists)]
            assert changed == [other == seat] * (players + 1), f"seat {seat}, cells of {other}"


def test_cyrillic_letters_are_real_glyphs_not_boxes() -> None:
    sheet = random_sheet(3, 3, 5)
    one = draw_sheet(SheetFigures.of(sheet, ["Жжж", "Б", "В"]), "ru")
    other = draw_sheet(SheetFigures.of(sheet, ["Щщщ", "Б", "В"]), "ru")
    assert differs(one, other, sheet_layout(3).names[0].box)


def test_emoji_the_font_lacks_are_left_out_of_the_picture_but_kept_in_the_caption() -> None:
    sheet = random_sheet(3, 3, 5)
    plain = draw_sheet(SheetFigures.of(sheet, ["Вася", "Ann Lee", "#3"]), "ru")
    emoji = ["Вася 🐺", "Ann\u200d👩\u200d💻 Lee", "🐺🐺"]  # no drawable letter left: "#3"
    figures = SheetFigures.of(sheet, emoji)
    assert draw_sheet(figures, "ru") == plain
    assert all(name in visible_text(sheet_caption(figures, "ru")) for name in emoji)


def test_long_names_keep_the_picture_whole() -> None:
    sheet = random_sheet(4, 4, 30)
    png, caption = render_sheet(SheetFigures.of(sheet, LONG, settled=True), "ru")
    assert image(png).size == sheet_size(4)
    assert utf16_len(visible_text(caption)) <= MAX_CAPTION


# -- the caption -------------------------------------------------------------------------------


@pytest.mark.parametrize("lang", ["ru", "en"])
@pytest.mark.parametrize(("players", "seed"), [(3, 5), (3, 6), (4, 7), (4, 8)])
def test_the_captions_figures_are_the_sheets(players: int, seed: int, lang: str) -> None:
    sheet = random_sheet(players, seed, 25)
    names = CYRILLIC[:players]
    text = visible_text(sheet_caption(SheetFigures.of(sheet, names, settled=True), lang))
    lines = text.split("\n")
    if any(sheet.top_up()):  # P14, P18: an open pulya's top-up, counted but not in the gora
        assert numbers(lines.pop()) == [sheet.rules.target] + [v for v in sheet.top_up() if v]
    title, *rows, settlement = lines
    assert numbers(title) == [sheet.rules.target]
    assert len(rows) == players
    for seat, row in enumerate(rows):
        assert row.startswith(names[seat])
        on = [(seat + k) % players for k in range(1, players)]
        assert numbers(row) == [
            sheet.pulya[seat],
            sheet.gora[seat],
            *(sheet.whists[seat][j] for j in on),
        ]
        written = sorted((row.index(f" {name} "), name) for name in names if f" {name} " in row)
        assert [name for _, name in written] == [names[j] for j in on]
    assert numbers(settlement) == list(sheet.balances())


@pytest.mark.parametrize("players", [3, 4])
def test_each_columns_running_totals_end_at_the_sheets_figure(players: int) -> None:
    for seed in range(20):
        sheet = random_sheet(players, seed, 40)
        figures = SheetFigures.of(sheet, CYRILLIC[:players])
        for i in range(players):
            assert figures.current(figures.pulya[i]) == sheet.pulya[i]
            assert figures.current(figures.gora[i]) == sheet.gora[i]
            for j in range(players):
                assert figures.current(figures.whists[i][j]) == sheet.whists[i][j]
        assert figures.settlement is None


LONG_GORA = tuple(range(2, 2 + 3 * 60, 3))  # 60 running totals up to 179: no cell holds one line


@pytest.mark.parametrize("players", [3, 4])
def test_a_long_column_is_wrapped_onto_more_lines_and_every_total_is_drawn(
    players: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every cell lays out all of a long column's totals within it (smaller text, more lines);
    the picture draws exactly those lines, no total cut at the start («…36.40.60»)."""
    whole = ".".join(map(str, LONG_GORA))
    measure = ImageDraw.Draw(Image.new("L", (8, 8)))
    for gora, pulya, whists in sheet_layout(players).cells:
        for slot in (gora, pulya, *whists):
            x0, y0, x1, y1 = slot.box
            w, h = (x1 - x0, y1 - y0) if slot.angle == 0 else (y1 - y0, x1 - x0)
            w, h = w - 2 * pulya_sheet.PAD, h - 2 * pulya_sheet.PAD - 30  # the label above
            lines, font = column_lines(measure, LONG_GORA, w, h)
            assert "".join(lines) == whole and len(lines) > 1
            assert all(measure.textlength(line, font=font) <= w for line in lines)
            assert len(lines) * round(font.size * 1.15) <= h  # within the cell
    drawn: list[str] = []
    text = ImageDraw.ImageDraw.text
    monkeypatch.setattr(
        ImageDraw.ImageDraw,
        "text",
        lambda self, xy, line, *args, **kw: drawn.append(line) or text(self, xy, line, *args, **kw),
    )
    empty = SheetFigures.of(Pulya.new(players, 0), CYRILLIC[:players])
    gora = (LONG_GORA, *empty.gora[1:])
    draw_sheet(SheetFigures(empty.names, 10, empty.pulya, gora, empty.whists), "ru")
    totals = [x for x in drawn if x and x[0].isdigit() and x != "10"]  # (10: the target)
    assert "".join(totals) == whole and len(totals) > 1


def test_P17d_final_sheet_columns_and_settlement() -> None:
    sheet = play(Pulya.new(3, C), P17D)
    figures = SheetFigures.of(sheet, CYRILLIC[:3], settled=True)
    # RULES P17 (d), deal by deal: A's pulya 4, +1 (raspasy), +5; C's 3 (help), +7; B's misère.
    assert figures.pulya == ((4, 5, 10), (10,), (3, 10))
    assert figures.gora == ((), (4,), (6, 12, 11))  # C: raspasy 6, failed 8♥ +6, overflow −1
    assert figures.whists[0][2] == (24, 54)  # A on C: the light whist 24, then help 30
    assert (figures.whists[1][0], figures.whists[1][2], figures.whists[2][0]) == ((8,), (6,), (4,))
    assert figures.settlement == (92, 24, -116)
    text = visible_text(sheet_caption(figures, "ru"))
    assert text.split("\n")[-1].endswith("Алиса +92, Борис +24, Святослав −116")


def test_an_open_pulya_is_settled_with_the_top_up_but_printed_without() -> None:
    sheet = play(Pulya.new(3, C), P17D[:3])
    figures = SheetFigures.of(sheet, CYRILLIC[:3], settled=True)
    assert [figures.current(column) for column in figures.gora] == list(sheet.gora)
    assert figures.settlement == sheet.balances() != settle(sheet.gora, sheet.whists)
    assert figures.topped == sheet.top_up() and any(figures.topped)  # told in the caption


@pytest.mark.parametrize("lang", ["ru", "en"])
def test_long_and_markup_names_make_valid_html_within_the_limit(lang: str) -> None:
    sheet = random_sheet(4, 9, 30)
    names = [*LONG[:3], "Tom & <Jerry>"]
    caption = sheet_caption(SheetFigures.of(sheet, names, settled=True), lang)
    parsed = parse_html(caption)  # raises on invalid Telegram HTML
    assert utf16_len(parsed.text) <= MAX_CAPTION
    open_pulya = bool(sheet.top_up()[3])  # his top-up, counted in the settlement (P14)
    assert parsed.text.count("Tom & <Jerry>") == 5 + open_pulya  # his row, 3 whists on him…


def test_names_must_match_the_players() -> None:
    with pytest.raises(ValueError, match="names"):
        SheetFigures.of(Pulya.new(3, 0), ["A", "B"])


# -- through the Bot API -----------------------------------------------------------------------


async def test_telegram_takes_the_sheet_and_its_edit_after_a_deal() -> None:
    async with FakeTelegram() as tg:
        tg.group(-100123)
        async with Bot(tg.token, base_url=tg.base_url, base_file_url=tg.base_file_url) as bot:
            sheet = random_sheet(4, 10, 20)
            png, caption = render_sheet(SheetFigures.of(sheet, LONG), "ru")
            sent = await bot.send_photo(-100123, png, caption=caption, parse_mode="HTML")
            sheet = sheet.add(random_outcome(random.Random(1), sheet))
            png, caption = render_sheet(SheetFigures.of(sheet, LONG, settled=True), "en")
            media = InputMediaPhoto(png, caption=caption, parse_mode="HTML")
            await bot.edit_message_media(media, -100123, sent.message_id)
        [message] = tg.messages(-100123)
        assert message.photo is not None and message.photo.content == png
        assert message.edits == 1 and not tg.errors
