"""The duplex calibration sheet: a two-page PDF that measures how far a printer shifts the backs.

Page 1 (front) carries vernier scales: at each of three places, nine reference lines :data:`PITCH_MM`
(5.5 mm) apart for the x direction and nine for the y direction, numbered from -2 to +2 mm in 0.5 mm
steps. Page 2 (back) carries the same lines, drawn where the front lines fall after the duplex flip,
each moved by its number. Printed duplex and held to the light, the line that meets its back line
names the value to pass to ``pnp build --back-offset X,Y``: if the printer shifts the backs by ``s``
mm, the back line moved by ``-s`` lands on its front line, and ``--back-offset -s`` moves every back
by ``-s``, cancelling the shift. The front also carries a 50 mm calibration square and a 10 cm ruler,
to check that the printer prints at 100 %.

Why 5.5 mm (issue 15, Calibration): seen through the sheet, the back lines of a scale stand
:data:`PITCH_MM` ± :data:`STEP_MM` apart (minus for one axis, plus for the other, by the flip), so the
pattern of lines that meet repeats every time the printer's shift grows by that spacing, at least
5.0 mm here. The old 2.5 mm pitch repeated every 2.0 mm, so within ±2 mm two lines met at once (a
1.0 mm shift lined up both -1.0 and +1.0) and the wrong one doubled the error. With a repeat longer
than the 4 mm its numbers span, exactly one line meets for any shift up to ±2 mm (on a whole step
every other line misses its nearest back line by a step, 0.5 mm, or more; between steps only the
line of the nearest step is within half a step of one), and a shift a little beyond the scale (up to
2.4 mm either way) still leaves the end line nearest. ``tests/test_calibration.py`` checks this for
every shift in 0.1 mm steps from the :class:`VernierLine` positions.

Coordinates are page millimetres from the top-left corner, y down, like every Drawing; the back
page is in its own coordinates as the printer prints it (see :meth:`pnp.sheets.SheetLayout.back_box`
for the flip).
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from pnp.drawing import Box, Drawing, Line, Primitive, Rect
from pnp.pdf import Painter, new_canvas
from pnp.sheets import Duplex, Paper
from pnp.text import single_line

PITCH_MM = 5.5
"""Distance between neighbouring front lines of a vernier scale (see the module docstring for why 5.5)."""
STEP_MM = 0.5
"""Difference between the offsets of neighbouring lines: the resolution of the reading."""
LINES = 9
"""Lines per scale: offsets -2.0 to +2.0 mm."""
FRONT_LENGTH_MM = 7.0
BACK_LENGTH_MM = 7.0
OVERLAP_MM = 3.0
"""Front and back lines overlap this much along their length, where the eye compares them."""
X_SCALE_MM = -14.0
Y_SCALE_MM = 31.0
"""Where a place's X scale is centred (its middle line) and where its Y scale's front and back lines
meet, in mm right of the place's centre; a place then spans about 38 mm either side of its centre."""
PLACES_TOP_MM = 80.0
PLACES_BOTTOM_MM = 62.0
"""The centre of the first place lies this far below the paper's top edge (under the instructions),
the centre of the last this far above its bottom edge (over the 10 cm ruler)."""
LABEL_PT = 6.0
"""Size of the numbers of the scales' lines."""
INDENT_MM = 3.2
"""How far a continued instruction line (one that starts with spaces) is set in under its number."""
INK = "#000000"
LINE_WIDTH_MM = 0.15
SQUARE_MM = 50.0
RULER_MM = 100.0
EDGE_MM = 20.0
"""Left and bottom margin of the square and ruler; the title and instructions start this far from the left."""


@dataclass(frozen=True)
class VernierLine:
    """One line of a vernier scale: its ``offset`` label in mm and where it is drawn on each page.

    ``front`` and ``back`` are ``(x1, y1, x2, y2)`` in page mm of the front page and of the back page
    (back-page coordinates, before any printer shift). ``axis`` is ``"x"`` (vertical lines, measuring a
    left-right shift) or ``"y"`` (horizontal lines, measuring an up-down shift).
    """

    axis: str
    offset: float
    front: tuple[float, float, float, float]
    back: tuple[float, float, float, float]


def flip(paper: Paper, duplex: Duplex, x: float, y: float) -> tuple[float, float]:
    """Where front-page point ``(x, y)`` lies on the back page after the duplex flip (mm).

    Long edge: ``(width - x, y)``; short edge: ``(x, height - y)``. Raises ``ValueError`` for ``none``.
    """
    if duplex == "long":
        return (paper.width - x, y)
    if duplex == "short":
        return (x, paper.height - y)
    raise ValueError("calibration needs a duplex flip: 'long' or 'short'")


def scale_origins(paper: Paper) -> list[tuple[float, float]]:
    """Centres ``(x, y)`` in page mm of the three places that carry a pair of scales: near the top left,
    the centre and near the bottom right of the page, where the cards of a sheet lie. The first sits
    under the instructions, the last over the 10 cm ruler (right of the 50 mm square), the middle one
    half way between; each place reaches about 38 mm left and right of its centre, 30 mm above it and 23 mm below."""
    top, bottom = PLACES_TOP_MM, paper.height - PLACES_BOTTOM_MM
    return [(paper.width * 0.28, top), (paper.width * 0.5, (top + bottom) / 2), (paper.width * 0.74, bottom)]


def vernier_lines(paper: Paper, duplex: Duplex) -> list[VernierLine]:
    """Every vernier line of the calibration sheet, front and back positions (module docstring)."""
    lines: list[VernierLine] = []
    half = (LINES - 1) // 2
    for cx, cy in scale_origins(paper):
        x_scale = (cx + X_SCALE_MM, cy)   # vertical lines side by side, left of the centre
        y_scale = (cx + Y_SCALE_MM, cy)   # horizontal lines stacked, right of the centre
        for k in range(-half, half + 1):
            offset = k * STEP_MM
            # x: a vertical line at x = x0 + k * pitch, front from y0 - front to y0 + overlap; back below
            x = x_scale[0] + k * PITCH_MM
            front = (x, x_scale[1] - FRONT_LENGTH_MM, x, x_scale[1] + OVERLAP_MM)
            bx1, by1 = flip(paper, duplex, x, x_scale[1])
            bx2, by2 = flip(paper, duplex, x, x_scale[1] + BACK_LENGTH_MM)
            back = (bx1 + offset, by1, bx2 + offset, by2)
            lines.append(VernierLine("x", offset, front, back))
            # y: a horizontal line at y = y0 + k * pitch, front to the left of x0 + overlap; back right
            y = y_scale[1] + k * PITCH_MM
            front = (y_scale[0] - FRONT_LENGTH_MM, y, y_scale[0] + OVERLAP_MM, y)
            bx1, by1 = flip(paper, duplex, y_scale[0], y)
            bx2, by2 = flip(paper, duplex, y_scale[0] + BACK_LENGTH_MM, y)
            back = (bx1, by1 + offset, bx2, by2 + offset)
            lines.append(VernierLine("y", offset, front, back))
    return lines


def _label(value: float) -> str:
    return "0" if value == 0 else f"{value:+.1f}"


def _scale_checks(paper: Paper) -> list[Primitive]:
    """A 50 mm calibration square in the lower left of a page and, right of it along the bottom, a 10 cm
    ruler (ticks up, centimetres numbered above, its label below), both labelled."""
    items: list[Primitive] = []
    left, top = EDGE_MM, paper.height - EDGE_MM - SQUARE_MM
    items.append(Rect(left, top, SQUARE_MM, SQUARE_MM, None, INK, 0.2))
    items.extend(single_line("50 mm square: measure it", left + 2.0, top + 5.0, "serif", 8, fill=INK))
    ruler_x, ruler_y = left + SQUARE_MM + 10.0, paper.height - EDGE_MM - 4.0
    items.append(Line(ruler_x, ruler_y, ruler_x + RULER_MM, ruler_y, INK, 0.2))
    for mm in range(0, int(RULER_MM) + 1):
        tick = 4.0 if mm % 10 == 0 else (2.5 if mm % 5 == 0 else 1.5)
        items.append(Line(ruler_x + mm, ruler_y, ruler_x + mm, ruler_y - tick, INK, 0.12))
        if mm % 10 == 0:
            items.extend(single_line(str(mm // 10), ruler_x + mm, ruler_y - 5.0, "serif", 6, anchor="middle", fill=INK))
    items.extend(single_line("10 cm ruler (numbers in cm)", ruler_x, ruler_y + 4.0, "serif", 7, fill=INK))
    return items


def build_command(duplex: Duplex) -> str:
    """The build a sheet calibrated for ``duplex`` advises: ``pnp build --duplex long --back-offset X,Y``,
    always naming the edge measured (the offset holds for the backs imposed for that edge only, whatever
    the database's ``[print] duplex`` says)."""
    return f"pnp build --duplex {duplex} --back-offset X,Y"


def instructions(duplex: Duplex) -> list[str]:
    """The lines printed under the sheet's title: how to print it, read it and build with the reading."""
    return [
        "1. Print both pages double-sided at 100 % (no fit to page), flipping on the same edge as your cards.",
        "2. Hold the sheet to a light. In each X scale exactly one line meets its back line as one straight line",
        "   (between two steps: take the line that misses least). Its number is X. Read Y the same way in a Y scale;",
        "   the centre scales count most.",
        "3. Beyond the numbers? If the line -2.0 or +2.0 misses least, the printer is off by more than 2 mm: take that end.",
        f"4. Build with: {build_command(duplex)}   (for example --back-offset -0.5,1.0).",
    ]


def calibration_pages(paper: Paper, duplex: Duplex) -> tuple[Drawing, Drawing]:
    """The front and back pages of the calibration sheet as page-sized Drawings (mm, no bleed)."""
    front: list[Primitive] = []
    back: list[Primitive] = []
    lines = vernier_lines(paper, duplex)
    for line in lines:
        front.append(Line(*line.front, INK, LINE_WIDTH_MM))
        back.append(Line(*line.back, INK, LINE_WIDTH_MM))
        x1, y1, x2, y2 = line.front
        label = _label(line.offset)
        if line.axis == "x":
            front.extend(single_line(label, x1, y1 - 1.2, "serif", LABEL_PT, anchor="middle", fill=INK))
        else:
            front.extend(single_line(label, x1 - 1.0, y1 + 0.7, "serif", LABEL_PT, anchor="end", fill=INK))
    half = (LINES - 1) // 2 * PITCH_MM
    for cx, cy in scale_origins(paper):
        front.extend(single_line("X", cx + X_SCALE_MM, cy - FRONT_LENGTH_MM - 6.0, "serif-bold", 9, anchor="middle", fill=INK))
        front.extend(single_line("Y", cx + Y_SCALE_MM - FRONT_LENGTH_MM / 2, cy - half - 4.0, "serif-bold", 9, anchor="middle", fill=INK))
    title = f"Duplex calibration, {paper.name}, flip on the {duplex} edge"
    front.extend(single_line(title, EDGE_MM, 16.0, "serif-bold", 12, fill=INK))
    for number, text in enumerate(instructions(duplex)):
        indent = INDENT_MM if text.startswith(" ") else 0.0
        front.extend(single_line(text.strip(), EDGE_MM + indent, 23.0 + number * 4.2, "serif", 8, fill=INK))
    front.extend(_scale_checks(paper))
    back.extend(single_line(f"Back of the duplex calibration sheet ({duplex} edge)", 20.0, 16.0, "serif", 9, fill=INK))
    return (Drawing(paper.width, paper.height, 0.0, tuple(front), title="calibration front"),
            Drawing(paper.width, paper.height, 0.0, tuple(back), title="calibration back"))


def write_calibration(path: Path, paper: Paper, duplex: Duplex) -> Path:
    """Write the two-page calibration PDF for ``paper`` and ``duplex`` to ``path``; return ``path``.

    Raises ``ValueError`` for ``duplex="none"`` and ``OSError`` when ``path`` cannot be written.
    """
    front, back = calibration_pages(paper, duplex)
    canvas = new_canvas(path, paper.width, paper.height, f"Duplex calibration, {paper.name}, {duplex} edge")
    painter = Painter(canvas, paper.height)
    for page in (front, back):
        painter.draw(page, 0, 0, clip=Box(0, 0, paper.width, paper.height))
        canvas.showPage()
    canvas.save()
    return Path(path)
