"""The duplex calibration sheet: a two-page PDF that measures how far a printer shifts the backs.

Page 1 (front) carries vernier scales: at each of three places, nine reference lines 2.5 mm apart for
the x direction and nine for the y direction, each labelled with a value from -2 to +2 mm in 0.5 mm
steps. Page 2 (back) carries the same lines, drawn where the front lines fall after the duplex flip,
each moved by its label's value. Printed duplex and held to the light, the pair of lines that
coincide names the value to pass to ``pnp build --back-offset X,Y``: if the printer shifts the backs
by ``s`` mm, the back line moved by ``-s`` lands on its front line, and ``--back-offset -s`` moves
every back by ``-s``, cancelling the shift. The front also carries a 50 mm calibration square and a
10 cm ruler on the front, to check that the printer prints at 100 %.

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

PITCH_MM = 2.5
"""Distance between neighbouring reference lines of a vernier scale."""
STEP_MM = 0.5
"""Difference between the offsets of neighbouring lines: the resolution of the reading."""
LINES = 9
"""Lines per scale: offsets -2.0 to +2.0 mm."""
FRONT_LENGTH_MM = 7.0
BACK_LENGTH_MM = 7.0
OVERLAP_MM = 3.0
"""Front and back lines overlap this much along their length, where the eye compares them."""
INK = "#000000"
LINE_WIDTH_MM = 0.15
SQUARE_MM = 50.0
RULER_MM = 100.0


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
    the centre and near the bottom right of the page, where the cards of a sheet lie."""
    return [(paper.width * 0.25, paper.height * 0.22), (paper.width * 0.5, paper.height * 0.42),
            (paper.width * 0.75, paper.height * 0.62)]


def vernier_lines(paper: Paper, duplex: Duplex) -> list[VernierLine]:
    """Every vernier line of the calibration sheet, front and back positions (module docstring)."""
    lines: list[VernierLine] = []
    half = (LINES - 1) // 2
    for cx, cy in scale_origins(paper):
        x_scale = (cx - 16.0, cy)   # vertical lines side by side, left of the centre
        y_scale = (cx + 16.0, cy)   # horizontal lines stacked, right of the centre
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
    """A 50 mm calibration square and a 10 cm ruler, labelled, in the lower left of a page."""
    items: list[Primitive] = []
    left, top = 20.0, paper.height - 20.0 - SQUARE_MM
    items.append(Rect(left, top, SQUARE_MM, SQUARE_MM, None, INK, 0.2))
    items.extend(single_line("50 mm square: measure it", left + 2.0, top + 5.0, "serif", 8, fill=INK))
    ruler_y = top - 12.0
    items.append(Line(left, ruler_y, left + RULER_MM, ruler_y, INK, 0.2))
    for mm in range(0, int(RULER_MM) + 1):
        tick = 4.0 if mm % 10 == 0 else (2.5 if mm % 5 == 0 else 1.5)
        items.append(Line(left + mm, ruler_y, left + mm, ruler_y - tick, INK, 0.12))
        if mm % 10 == 0:
            items.extend(single_line(str(mm // 10), left + mm, ruler_y - 5.0, "serif", 6, anchor="middle", fill=INK))
    items.extend(single_line("10 cm ruler (numbers in cm)", left + RULER_MM + 3.0, ruler_y, "serif", 7, fill=INK))
    return items


def build_command(duplex: Duplex) -> str:
    """The build a sheet calibrated for ``duplex`` advises: ``pnp build --duplex long --back-offset X,Y``,
    always naming the edge measured (the offset holds for the backs imposed for that edge only, whatever
    the database's ``[print] duplex`` says)."""
    return f"pnp build --duplex {duplex} --back-offset X,Y"


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
            if line.offset in (-2.0, -1.0, 0.0, 1.0, 2.0):
                front.extend(single_line(label, x1, y1 - 1.2, "serif", 5.5, anchor="middle", fill=INK))
        else:
            front.extend(single_line(label, x1 - 1.0, y1 + 0.7, "serif", 5.5, anchor="end", fill=INK))
    for cx, cy in scale_origins(paper):
        front.extend(single_line("X", cx - 16.0, cy - FRONT_LENGTH_MM - 5.5, "serif-bold", 8, anchor="middle", fill=INK))
        front.extend(single_line("Y", cx + 16.0, cy - 13.0, "serif-bold", 8, anchor="middle", fill=INK))
    title = f"Duplex calibration, {paper.name}, flip on the {duplex} edge"
    front.extend(single_line(title, 20.0, 16.0, "serif-bold", 12, fill=INK))
    instructions = [
        "1. Print both pages double-sided at 100 % (no fit to page), flipping on the same edge as your cards.",
        "2. Hold the sheet to a light. In each X scale, find the line that meets its back line as one straight line;",
        "   read its number: that is X. Do the same in a Y scale for Y (the centre scale counts most).",
        f"3. Build with: {build_command(duplex)}   (for example --back-offset -0.5,1.0).",
    ]
    for number, text in enumerate(instructions):
        front.extend(single_line(text, 20.0, 23.0 + number * 4.2, "serif", 8, fill=INK))
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
