"""The Preferans pulya sheet as players draw it (P11–P16): a PNG and the same figures as a caption.

Three players get the triangle: the sheet cut into three sectors by lines from a centre circle
(the target written in it) to the two top corners and the middle of the bottom edge; four players
get the square, cut by the diagonals. Each player's sector holds, from the centre outwards, his
gora, his pulya and his whists on each opponent; a column is written as players write it, the
running totals one after another («2.6.10»). Pure: figures in, bytes and text out.

Choices the rules leave open (P18 says the printed sheet has no P14 top-up; the rest is ours):
seats go clockwise from the top; each name is written outside the sheet beside its sector, with
the settlement in whists after it once there is one; a cell a deal leaves alone gets no new total
(an empty cell stays blank); a column too long for its cell is wrapped onto more lines, in
smaller text, never cut; text is upright wherever the layout allows, turned only along the
square's sides and the triangle's side strips; characters the font lacks (emoji) are left out
of the picture, never out of the caption, which cuts names to 24 characters (fewer if 1024
would be passed).
"""

from __future__ import annotations

import io
import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from html import escape, unescape
from itertools import combinations, pairwise
from pathlib import Path

from PIL import Image, ImageChops, ImageDraw, ImageFont

from engine.preferans.match import Match
from engine.preferans.pulya import Pulya
from locales import t

WIDTH = 1024  # Telegram shows a photo up to 1280 px; 1024 stays sharp on a phone when zoomed
NAME_BAND = 64  # the strip outside the sheet where each player's name is written
EDGE = 16  # the margin of a side with no name on it
MAX_CAPTION = 1024  # Telegram's caption limit, in UTF-16 units after entity parsing
CAPTION_NAME = 24  # a longer name is cut in the caption so four players' lines fit the limit

# Bands as fractions of the sheet's half-side, outer edge first: whists | pulya | gora | circle.
BANDS = (1.0, 0.75, 0.5, 0.25)
CIRCLE = 0.17
PAD = 8

# Drawn as ink levels on a one-channel image (0 paper, 255 full ink), then given a palette from
# paper to ballpoint blue: antialiased text stays smooth and the PNG encodes twice as fast.
INK = 255
LINE = 200
LABEL = 140
PAPER_RGB = (253, 252, 246)
INK_RGB = (20, 40, 110)
MINUS = "\u2212"

_MISSING = "\ue000"  # a private-use character: the font draws its missing-glyph box for it
_TAG = re.compile(r"<[^>]*>")
_FONTS = Path(__file__).parent.parent / "fonts"  # bot/fonts: DejaVu Sans Condensed (Cyrillic)


@dataclass(frozen=True, slots=True)
class SheetFigures:
    """What the sheet shows: names, the target and each column as its running totals (the last
    is the current figure; empty while nothing was written); the settlement once it is known."""

    names: tuple[str, ...]
    target: int
    pulya: tuple[tuple[int, ...], ...]  # pulya[i]: player i's pulya after each deal that wrote it
    gora: tuple[tuple[int, ...], ...]
    whists: tuple[tuple[tuple[int, ...], ...], ...]  # whists[i][j]: i's whists on j, running
    settlement: tuple[int, ...] | None = None  # whole whists per player (P16)
    topped: tuple[int, ...] = ()  # P14's top-up the settlement counted as mountain, unprinted

    @property
    def players(self) -> int:
        """How many players the sheet is drawn for."""
        return len(self.names)

    @staticmethod
    def of(sheet: Pulya, names: Sequence[str], *, settled: bool = False) -> SheetFigures:
        """The figures of an engine sheet; `settled` adds its settlement (P16, with P14's top-up
        for an open pulya); the printed pulya and gora never include the top-up (P18)."""
        n = sheet.players
        if len(names) != n:
            raise ValueError(f"{len(names)} names for {n} players")
        pulya: list[list[int]] = [[] for _ in range(n)]
        gora: list[list[int]] = [[] for _ in range(n)]
        whists: list[list[list[int]]] = [[[] for _ in range(n)] for _ in range(n)]
        for line in sheet.lines:
            entries = line.entries
            for i in range(n):
                _write(pulya[i], entries.pulya[i])
                _write(gora[i], entries.gora[i])
                for j in range(n):
                    _write(whists[i][j], entries.whists[i][j])
        return SheetFigures(
            tuple(names),
            sheet.rules.target,
            tuple(map(tuple, pulya)),
            tuple(map(tuple, gora)),
            tuple(tuple(map(tuple, row)) for row in whists),
            sheet.balances() if settled else None,
            sheet.top_up() if settled else (),
        )

    def current(self, column: tuple[int, ...]) -> int:
        """A column's figure now: its last running total, 0 when empty."""
        return column[-1] if column else 0


def _write(column: list[int], entry: int) -> None:
    # A deal that writes nothing in a cell leaves it as it is, as on paper.
    if entry:
        column.append((column[-1] if column else 0) + entry)


def render_sheet(figures: SheetFigures, lang: str) -> tuple[bytes, str]:
    """The sheet as a PNG and its caption (valid Telegram HTML, at most 1024 characters)."""
    return draw_sheet(figures, lang), sheet_caption(figures, lang)


# -- caption ---------------------------------------------------------------------------------


def sheet_caption(figures: SheetFigures, lang: str) -> str:
    """The sheet's figures as Telegram HTML for those who cannot see the picture."""
    for limit in (CAPTION_NAME, 12, 6):
        caption = _caption(figures, lang, limit)
        if len(_visible(caption).encode("utf-16-le")) // 2 <= MAX_CAPTION:  # UTF-16 units
            return caption
    raise ValueError("the caption does not fit Telegram's limit")  # never: 6-letter names fit


def _caption(figures: SheetFigures, lang: str, limit: int) -> str:
    names = [escape(_cut(name, limit), quote=False) for name in figures.names]
    n = figures.players
    lines = [t(lang, "pref.sheet.title", target=figures.target)]
    for i in range(n):
        on = ", ".join(
            t(lang, "pref.sheet.whists_on", name=names[j], value=_num(figures.current(cell)))
            for j, cell in _opponents(figures.whists[i], i)
        )
        lines.append(
            t(
                lang,
                "pref.sheet.row",
                name=names[i],
                pulya=_num(figures.current(figures.pulya[i])),
                gora=_num(figures.current(figures.gora[i])),
                whists=on,
            )
        )
    if figures.settlement is not None:
        items = ", ".join(
            f"{names[i]} {_signed(value)}" for i, value in enumerate(figures.settlement)
        )
        lines.append(t(lang, "pref.sheet.settlement", items=items))
    if any(figures.topped):  # P14, P18: counted, not printed in the gora above
        items = ", ".join(f"{names[i]} +{value}" for i, value in enumerate(figures.topped) if value)
        lines.append(t(lang, "pref.sheet.topped", target=figures.target, items=items))
    return "\n".join(lines)


def _opponents(row: tuple[tuple[int, ...], ...], seat: int) -> list[tuple[int, tuple[int, ...]]]:
    """The cells of a whist row on each opponent, clockwise from the player's left."""
    n = len(row)
    return [((seat + k) % n, row[(seat + k) % n]) for k in range(1, n)]


def _visible(html: str) -> str:
    """The text Telegram counts: the tags of our strings dropped, entities decoded."""
    return unescape(_TAG.sub("", html))


def _cut(name: str, limit: int) -> str:
    return name if len(name) <= limit else name[: limit - 1] + "…"


def _num(value: int) -> str:
    return f"{MINUS}{-value}" if value < 0 else str(value)


def _signed(value: int) -> str:
    return f"+{value}" if value > 0 else _num(value)


# -- picture ---------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Slot:
    """A place to write: a box on the canvas and the angle its text is turned by (0, 90, 270)."""

    box: tuple[int, int, int, int]
    angle: int = 0


@dataclass(frozen=True, slots=True)
class SheetLayout:
    """Where everything goes for 3 or 4 players."""

    size: tuple[int, int]
    centre: tuple[int, int]
    half: int
    rays: tuple[tuple[int, int], ...]  # where the sector lines from the centre meet the edge
    names: tuple[Slot, ...]
    cells: tuple[tuple[Slot, Slot, tuple[Slot, ...]], ...]  # per seat: gora, pulya, whists


def sheet_size(players: int) -> tuple[int, int]:
    """The picture's width and height for 3 or 4 players."""
    return sheet_layout(players).size


@cache
def sheet_layout(players: int) -> SheetLayout:
    """Where the names and each player's cells are drawn for 3 or 4 players."""
    if players == 3:
        return _triangle()
    if players == 4:
        return _square()
    raise ValueError(f"a pulya sheet is for 3 or 4 players, not {players}")


def _triangle() -> SheetLayout:
    # Seats clockwise: 0 top, 1 right, 2 left. The top player writes along the top; the side
    # players' sectors are L-shaped (their side and half the bottom): they write pulya and gora
    # upright in the bottom half (what a phone reads best), their whists on the top player up
    # their side next to his sector and those on each other along the bottom. Names outside the
    # sheet: the top one above it, the others below their halves.
    side = WIDTH - 2 * EDGE
    half = side // 2
    cx, cy = EDGE + half, NAME_BAND + half
    left, top, right, bottom = cx - half, cy - half, cx + half, cy + half
    names = (
        Slot((left, 0, right, top)),
        Slot((cx, bottom, right, bottom + NAME_BAND)),
        Slot((left, bottom, cx, bottom + NAME_BAND)),
    )
    o, i = round(BANDS[0] * half), round(BANDS[1] * half)  # the whist band
    on_left, on_right = _split((cx - i, cy - o, cx + i, cy - i), 2)
    whists = (
        (Slot(on_right), Slot(on_left)),  # the top player's, on seats 1 and 2
        (Slot((cx, cy + i, cx + o, cy + o)), Slot((cx + i, cy - i, cx + o, cy + i), 270)),
        (Slot((cx - o, cy - i, cx - i, cy + i), 90), Slot((cx - o, cy + i, cx, cy + o))),
    )
    cells = []
    for seat in range(3):
        bands = []
        for outer, inner in pairwise(BANDS[1:]):  # pulya, gora
            o, i = round(outer * half), round(inner * half)
            bands.append(
                [
                    (cx - i, cy - o, cx + i, cy - i),
                    (cx, cy + i, cx + o, cy + o),
                    (cx - o, cy + i, cx, cy + o),
                ][seat]
            )
        pulya, gora = bands
        cells.append((Slot(gora), Slot(pulya), whists[seat]))
    return SheetLayout(
        (WIDTH, side + 2 * NAME_BAND),
        (cx, cy),
        half,
        ((left, top), (right, top), (cx, bottom)),
        names,
        tuple(cells),
    )


def _square() -> SheetLayout:
    # Seats clockwise: 0 top, 1 right, 2 bottom, 3 left; the diagonals part them. The side
    # players' text is turned to run along their edge, as they would write it at the table.
    side = WIDTH - 2 * NAME_BAND
    half = side // 2
    cx = cy = NAME_BAND + half
    left, top, right, bottom = cx - half, cy - half, cx + half, cy + half
    names = (
        Slot((left, 0, right, top)),
        Slot((right, top, WIDTH, bottom), 270),
        Slot((left, bottom, right, WIDTH)),
        Slot((0, top, left, bottom), 90),
    )
    cells = []
    for seat in range(4):
        bands = []
        for outer, inner in pairwise(BANDS):
            o, i = round(outer * half), round(inner * half)
            bands.append(
                [
                    (cx - i, cy - o, cx + i, cy - i),
                    (cx + i, cy - i, cx + o, cy + i),
                    (cx - i, cy + i, cx + i, cy + o),
                    (cx - o, cy - i, cx - i, cy + i),
                ][seat]
            )
        angle = (0, 270, 0, 90)[seat]
        whist, pulya, gora = bands
        parts = _split(whist, 3) if angle == 0 else _split_down(whist, 3)
        # Along the band from the writer's left: for the top and the side players that is the
        # next seat counter-clockwise first; for the bottom player, clockwise.
        if angle == 90:
            parts = parts[::-1]  # the left player's text runs bottom to top
        order = [(seat - k) % 4 for k in (1, 2, 3)]
        if seat == 2:
            order = [(seat + k) % 4 for k in (1, 2, 3)]
        by_seat = dict(zip(order, parts, strict=True))
        whists = tuple(Slot(by_seat[(seat + k) % 4], angle) for k in (1, 2, 3))
        cells.append((Slot(gora, angle), Slot(pulya, angle), whists))
    return SheetLayout(
        (WIDTH, WIDTH),
        (cx, cy),
        half,
        ((left, top), (right, top), (right, bottom), (left, bottom)),
        names,
        tuple(cells),
    )


def _split(box: tuple[int, int, int, int], parts: int) -> list[tuple[int, int, int, int]]:
    x0, y0, x1, y1 = box
    cuts = [x0 + (x1 - x0) * k // parts for k in range(parts + 1)]
    return [(cuts[k], y0, cuts[k + 1], y1) for k in range(parts)]


def _split_down(box: tuple[int, int, int, int], parts: int) -> list[tuple[int, int, int, int]]:
    x0, y0, x1, y1 = box
    cuts = [y0 + (y1 - y0) * k // parts for k in range(parts + 1)]
    return [(x0, cuts[k], x1, cuts[k + 1]) for k in range(parts)]


@cache
def _font(size: int, bold: bool = False) -> ImageFont.FreeTypeFont:
    name = "DejaVuSansCondensed-Bold.ttf" if bold else "DejaVuSansCondensed.ttf"
    return ImageFont.truetype(str(_FONTS / name), size)


def draw_sheet(figures: SheetFigures, lang: str) -> bytes:
    """The sheet as a PNG image, WIDTH pixels wide."""
    layout = sheet_layout(figures.players)
    image = Image.new("L", layout.size, 0)
    draw = ImageDraw.Draw(image)
    _draw_lines(draw, layout)
    names = [_drawable(name) or f"#{seat + 1}" for seat, name in enumerate(figures.names)]
    for seat, (gora, pulya, whists) in enumerate(layout.cells):
        _write_cell(image, gora, t(lang, "pref.sheet.gora"), figures.gora[seat])
        _write_cell(image, pulya, t(lang, "pref.sheet.pulya"), figures.pulya[seat])
        for slot, (other, cell) in zip(whists, _opponents(figures.whists[seat], seat), strict=True):
            label = t(lang, "pref.sheet.on", name=names[other])
            _write_cell(image, slot, label, cell)
        name = names[seat]
        extra = None if figures.settlement is None else _signed(figures.settlement[seat])
        _write_name(image, layout.names[seat], name, extra)
    cx, cy = layout.centre
    text = str(figures.target)
    draw.text((cx, cy), text, fill=INK, font=_font(52, bold=True), anchor="mm")
    sheet = Image.frombytes("P", image.size, image.tobytes())
    sheet.putpalette(_palette())
    out = io.BytesIO()
    sheet.save(out, format="PNG")
    return out.getvalue()


@cache
def _palette() -> list[int]:
    """Ink level k as the colour k/255 of the way from paper to ink."""
    return [
        round(paper + (ink - paper) * level / 255)
        for level in range(256)
        for paper, ink in zip(PAPER_RGB, INK_RGB, strict=True)
    ]


def _drawable(text: str) -> str:
    """`text` without what the font cannot draw (emoji above all, common in Telegram names):
    a missing glyph would show as a box; the caption keeps the name whole."""
    kept = "".join(char for char in text if _has_glyph(char))
    return " ".join(kept.split())


@cache
def _has_glyph(char: str) -> bool:
    if unicodedata.category(char) == "Cf" or "\ufe00" <= char <= "\ufe0f":
        return False  # joiners and emoji variation selectors: parts of an emoji
    if char.isspace():
        return True
    for bold in (False, True):
        font = _font(34, bold)
        if _mask(font, char) == _mask(font, _MISSING):
            return False
    return True


def _mask(font: ImageFont.FreeTypeFont, char: str) -> tuple[tuple[int, int], bytes]:
    mask = font.getmask(char)
    return mask.size, bytes(mask)


def _draw_lines(draw: ImageDraw.ImageDraw, layout: SheetLayout) -> None:
    cx, cy = layout.centre
    half = layout.half
    for scale in BANDS:
        r = round(scale * half)
        draw.rectangle((cx - r, cy - r, cx + r, cy + r), outline=LINE, width=3 if scale == 1 else 2)
    radius = round(CIRCLE * half)
    for x, y in layout.rays:  # the circle, drawn last, hides where they meet
        draw.line((cx, cy, x, y), fill=LINE, width=2)
    _whist_cuts(draw, layout)
    circle = (cx - radius, cy - radius, cx + radius, cy + radius)
    draw.ellipse(circle, fill=0, outline=LINE, width=3)


def _whist_cuts(draw: ImageDraw.ImageDraw, layout: SheetLayout) -> None:
    """The cut between two whist cells of a player: along the edge the two boxes share."""
    for _gora, _pulya, whists in layout.cells:
        for one, other in combinations((slot.box for slot in whists), 2):
            for a, b in ((one, other), (other, one)):
                if a[2] == b[0] and max(a[1], b[1]) < min(a[3], b[3]):
                    draw.line((a[2], max(a[1], b[1]), a[2], min(a[3], b[3])), fill=LINE, width=2)
                if a[3] == b[1] and max(a[0], b[0]) < min(a[2], b[2]):
                    draw.line((max(a[0], b[0]), a[3], min(a[2], b[2]), a[3]), fill=LINE, width=2)


def _column(values: tuple[int, ...]) -> str:
    return ".".join(_num(value) for value in values)


def _write_cell(image: Image.Image, slot: Slot, label: str, column: tuple[int, ...]) -> None:
    """A label in small grey letters and the running totals under it, as large as fits."""
    x0, y0, x1, y1 = slot.box
    w, h = (x1 - x0, y1 - y0) if slot.angle == 0 else (y1 - y0, x1 - x0)
    w, h = w - 2 * PAD, h - 2 * PAD
    tile = Image.new("L", (w, h), 0)
    draw = ImageDraw.Draw(tile)
    small = _fit_font(draw, label, w, 22, 16, bold=False)
    draw.text((w // 2, 0), _ellipsize(draw, label, small, w), fill=LABEL, font=small, anchor="mt")
    if column:
        room = h - round(small.size) - 4
        lines, font = column_lines(draw, column, w, room)
        step = _line_height(font)
        top = h - room + max(0, (room - step * len(lines)) // 2)
        for k, line in enumerate(lines):
            y = top + step * k + step // 2
            draw.text((w // 2, y), line, fill=INK, font=font, anchor="mm")
    _paste(image, tile, slot)


def _write_name(image: Image.Image, slot: Slot, name: str, extra: str | None) -> None:
    x0, y0, x1, y1 = slot.box
    w, h = (x1 - x0, y1 - y0) if slot.angle == 0 else (y1 - y0, x1 - x0)
    w, h = w - 2 * PAD, h - 2 * PAD
    tile = Image.new("L", (w, h), 0)
    draw = ImageDraw.Draw(tile)
    font = _font(34, bold=True)
    tail = f"  {extra}" if extra else ""
    room = w - (round(draw.textlength(tail, font=font)) if tail else 0)
    text = _ellipsize(draw, name, font, room) + tail
    draw.text((w // 2, h // 2), text, fill=INK, font=font, anchor="mm")
    _paste(image, tile, slot)


def _paste(image: Image.Image, tile: Image.Image, slot: Slot) -> None:
    turned = tile.rotate(slot.angle, expand=True) if slot.angle else tile
    x0, y0, _x1, _y1 = slot.box
    corner = (x0 + PAD, y0 + PAD)
    under = image.crop((*corner, corner[0] + turned.width, corner[1] + turned.height))
    image.paste(ImageChops.lighter(under, turned), corner)  # ink over ink: the darker stays


def _fit_font(
    draw: ImageDraw.ImageDraw, text: str, width: int, largest: int, smallest: int, *, bold: bool
) -> ImageFont.FreeTypeFont:
    for size in range(largest, smallest - 1, -2):
        font = _font(size, bold)
        if draw.textlength(text, font=font) <= width:
            return font
    return _font(smallest, bold)


def column_lines(
    draw: ImageDraw.ImageDraw, column: tuple[int, ...], width: int, height: int
) -> tuple[list[str], ImageFont.FreeTypeFont]:
    """The running totals as they are drawn in a cell `width` × `height`: on one line at the
    largest size that fits, else wrapped after a «.» onto as many lines as the cell holds, the
    text smaller as needed; never a total left out (at the smallest size the lines may run
    past the cell's height rather than lose one)."""
    lines: list[str] = []
    font = _font(SMALLEST_TOTALS)
    for size in (*range(40, 12, -2), *range(12, SMALLEST_TOTALS - 1, -1)):
        font = _font(size)
        lines = _wrap(draw, column, font, width)
        if len(lines) * _line_height(font) <= height or size == SMALLEST_TOTALS:
            break
    return lines, font


SMALLEST_TOTALS = 6  # px: the smallest text of a column's totals (a phone zooms in; the caption)


def _wrap(
    draw: ImageDraw.ImageDraw, column: tuple[int, ...], font: ImageFont.FreeTypeFont, width: int
) -> list[str]:
    """The totals joined by «.», a new line begun where the next would pass `width` (the «.»
    stays at the end of the line it closes; a lone total wider than the cell keeps its line)."""
    lines: list[str] = []
    line = ""
    for value in column:
        word = _num(value)
        joined = f"{line}.{word}" if line else word
        if line and draw.textlength(joined + ".", font=font) > width:  # (room for its «.»)
            lines.append(line + ".")
            joined = word
        line = joined
    return [*lines, line] if line else lines


def _line_height(font: ImageFont.FreeTypeFont) -> int:
    return round(font.size * 1.15)


def _ellipsize(
    draw: ImageDraw.ImageDraw, text: str, font: ImageFont.FreeTypeFont, width: int
) -> str:
    if draw.textlength(text, font=font) <= width:
        return text
    while text and draw.textlength(text + "…", font=font) > width:
        text = text[:-1]
    return text + "…"


def sheet_photo(lang: str, match: Match) -> tuple[bytes, str]:
    """The pulya sheet as a PNG and its caption; settled once the pulya is over (P16)."""
    figures = SheetFigures.of(match.sheet, match.names, settled=match.finished)
    return render_sheet(figures, lang)
