"""Imposition math for print-and-play sheets: pure geometry in millimetres, no drawing.

This module owns where cards sit on a printed page: paper sizes, the grid of butted cards (neighbours
share their cut lines, so the bleed between two cards is clipped at the trim line; the outer edges of
the block keep their bleed), the crop marks outside the bleed at every cut line, the optional full cut
lines, the mirrored slots of the backs page for long-edge duplex, the order of fronts and backs pages
and where each face is drawn on them, and where the footer and the scale checks (10 cm ruler, 50 mm
calibration square or bar) fit in the margins. What those marks look like is :mod:`pnp.sheet_marks`;
:mod:`pnp.pdf` paints it all.

Coordinates are page millimetres from the page's top-left corner, y growing DOWN (the PDF backend
converts). "Slot" numbers run in reading order on the fronts page: row by row, left to right.

Long-edge flip: a portrait sheet printed duplex and flipped on its long (vertical) edge shows the back
of the slot at page x on the other side at ``paper width - x - card width``; rows stay where they are.
Each back is therefore drawn in the mirrored column.
"""
from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Literal

from pnp.drawing import Box, Drawing
from pnp.units import ROUNDING_SLACK

Duplex = Literal["long", "short", "none"]
"""How the sheets are printed: duplex flipping on the long edge or the short edge, or fronts only."""


class ImpositionError(ValueError):
    """The cards do not fit on the paper with their bleed and crop marks, or a slot does not exist."""


@dataclass(frozen=True)
class Paper:
    """A paper size: ``name`` as printed in the footer, ``width`` x ``height`` in mm (portrait)."""

    name: str
    width: float
    height: float


A4 = Paper("A4", 210.0, 297.0)
LETTER = Paper("Letter", 215.9, 279.4)
PAPERS: dict[str, Paper] = {"a4": A4, "letter": LETTER}
"""Paper sizes by the key used in file names (``solo-a4.pdf``)."""


@dataclass(frozen=True)
class Mark:
    """One crop mark: a straight line from ``(x1, y1)`` to ``(x2, y2)`` in page mm, on the extension of a cut line."""

    x1: float
    y1: float
    x2: float
    y2: float

    @property
    def box(self) -> Box:
        """The mark's extent as a (zero-width or zero-height) :class:`Box`."""
        return Box(min(self.x1, self.x2), min(self.y1, self.y2), abs(self.x2 - self.x1), abs(self.y2 - self.y1))


@dataclass(frozen=True)
class Marginal:
    """Something placed in the margin: ``kind`` is ``"title"``, ``"page"`` or ``"note"`` (a line of
    text), ``"ruler"`` (10 cm), ``"square"`` (50 mm calibration square) or ``"bar"`` (50 mm
    calibration bar); ``box`` is its space in page mm; ``vertical`` means it runs down the page (text
    reads bottom to top); ``label_below`` puts a ruler's label under it instead of after its end."""

    kind: Literal["title", "page", "note", "ruler", "square", "bar"]
    box: Box
    vertical: bool = False
    label_below: bool = False


@dataclass(frozen=True)
class SheetLayout:
    """The grid of card slots on one paper size, with everything derived from it.

    ``left`` and ``top`` locate the top-left TRIM corner of the block of ``columns`` x ``rows`` cards of
    ``card_width`` x ``card_height`` mm; ``bleed`` is kept on the block's outer edges. Crop marks start
    ``mark_gap`` mm outside the bleed and are ``mark_length`` mm long where the paper allows.
    ``printer_margin`` is the strip along the paper edge most home printers cannot print on; margin
    items (footer, ruler, calibration) stay out of it.
    """

    paper: Paper
    card_width: float
    card_height: float
    bleed: float
    columns: int
    rows: int
    left: float
    top: float
    mark_gap: float
    mark_length: float
    printer_margin: float

    @property
    def per_page(self) -> int:
        """Card slots on one page."""
        return self.columns * self.rows

    @property
    def block(self) -> Box:
        """The trim outline of the whole block of cards, in page mm."""
        return Box(self.left, self.top, self.columns * self.card_width, self.rows * self.card_height)

    @property
    def block_with_bleed(self) -> Box:
        """The block grown by the bleed on its four outer edges, in page mm."""
        return self.block.inset(-self.bleed)

    def _check(self, slot: int) -> tuple[int, int]:
        if not 0 <= slot < self.per_page:
            raise ImpositionError(f"slot {slot} does not exist; a {self.paper.name} page has slots 0 to {self.per_page - 1}")
        return divmod(slot, self.columns)

    def trim_box(self, slot: int) -> Box:
        """The trim box in page mm of the card in ``slot`` (reading order) on a fronts page."""
        row, column = self._check(slot)
        return Box(self.left + column * self.card_width, self.top + row * self.card_height,
                   self.card_width, self.card_height)

    def back_slot(self, slot: int, duplex: Duplex) -> int:
        """The slot on the backs page that lies behind front ``slot``.

        Long-edge flip: the column is mirrored; short-edge flip: the row is mirrored (the block must
        then be centred vertically, see :func:`impose`). Raises :class:`ImpositionError` for
        ``duplex="none"`` (no backs page) or a slot that does not exist.
        """
        row, column = self._check(slot)
        if duplex == "long":
            return row * self.columns + (self.columns - 1 - column)
        if duplex == "short":
            return (self.rows - 1 - row) * self.columns + column
        raise ImpositionError(f"duplex {duplex!r} has no backs page; use 'long' or 'short'")

    def back_box(self, slot: int, duplex: Duplex, offset: tuple[float, float] = (0.0, 0.0)) -> Box:
        """The trim box in page mm, on the backs page, of the back of front ``slot``, shifted by ``offset``.

        It is the front's trim box mirrored about the page's vertical centre line (long-edge flip) or
        horizontal centre line (short-edge flip), so it prints exactly behind the front; ``offset``
        ``(x, y)`` in mm (backs page coordinates, x right, y down) corrects a printer's misregistration
        as measured with ``pnp calibrate``.
        """
        front = self.trim_box(slot)
        dx, dy = offset
        if duplex == "long":
            return Box(self.paper.width - front.x - front.width + dx, front.y + dy, front.width, front.height)
        if duplex == "short":
            return Box(front.x + dx, self.paper.height - front.y - front.height + dy, front.width, front.height)
        raise ImpositionError(f"duplex {duplex!r} has no backs page; use 'long' or 'short'")

    def _grown(self, place: int, trim: Box, reach: Callable[[int, int], float]) -> Box:
        """``trim`` (of the card at ``place`` on its page, reading order) grown on each side by
        ``reach(row, column)`` of the place beside it, places outside the grid included, except that
        where two sides grow and the place diagonally between them may take nothing (``reach`` 0), the
        top or bottom side stays where it is: the grown corner would paint on that place."""
        row, column = divmod(place, self.columns)
        left, right = reach(row, column - 1), reach(row, column + 1)
        top, bottom = reach(row - 1, column), reach(row + 1, column)
        for down in (-1, 1):
            for across in (-1, 1):
                if (left if across < 0 else right) and (top if down < 0 else bottom) and not reach(row + down, column + across):
                    top, bottom = (0.0, bottom) if down < 0 else (top, 0.0)
        return Box(trim.x - left, trim.y - top, trim.width + left + right, trim.height + top + bottom)

    def _outside(self, row: int, column: int) -> bool:
        return not (0 <= row < self.rows and 0 <= column < self.columns)

    def back_clip_box(self, slot: int, duplex: Duplex, offset: tuple[float, float] = (0.0, 0.0), *, extra: float,
                      spill: frozenset[int] | set[int] = frozenset(), empty: frozenset[int] | set[int] = frozenset()) -> Box:
        """The visible region in page mm of the back of front ``slot``: its :meth:`back_box`, plus the
        bleed and ``extra`` mm on the sides that are outer edges of the block or whose neighbouring
        position on the backs page is in ``empty`` (no card on either side of the sheet there), and
        ``extra`` mm on an inner side whose neighbouring position is in ``spill`` (a card with this very
        back, whose own art continues it).

        The extra margin lets a back shifted by the printer by up to ``extra`` mm still cover its whole
        card: the backs carry ``bleed + extra`` mm of art beyond their trim for this reason. It never
        reaches into the place of a card with another back (or none), which it would mark; there the
        two backs meet on the shared cut line, and a shift leaves a strip on one of them, which is why
        a build keeps the kinds of back apart (:func:`pnp.build.arrange_apart`). Nor does it reach
        such a place at a corner: where two sides grow and the place diagonally between them may take
        nothing, the top or bottom side stays at the cut line.
        """
        trim = self.back_box(slot, duplex, offset)

        def reach(row: int, column: int) -> float:
            if self._outside(row, column) or row * self.columns + column in empty:
                return self.bleed + extra
            return extra if row * self.columns + column in spill else 0.0

        return self._grown(self.back_slot(slot, duplex), trim, reach)

    def clip_box(self, slot: int, empty: frozenset[int] | set[int] = frozenset()) -> Box:
        """The visible region in page mm of the card in ``slot``: its trim box, grown by the bleed on the
        sides that are outer edges of the block or border a slot of ``empty`` (no card on either side
        of the sheet there), so a cut a little off shows no white edge; other inner edges are shared cut
        lines. A corner is grown only where the slot diagonally beside it is outside the block or empty."""
        self._check(slot)

        def reach(row: int, column: int) -> float:
            return self.bleed if self._outside(row, column) or row * self.columns + column in empty else 0.0

        return self._grown(slot, self.trim_box(slot), reach)

    def cut_lines(self) -> tuple[list[float], list[float]]:
        """The x positions of the vertical cut lines and the y positions of the horizontal ones, page mm."""
        xs = [self.left + i * self.card_width for i in range(self.columns + 1)]
        ys = [self.top + j * self.card_height for j in range(self.rows + 1)]
        return xs, ys

    def cut_line_segments(self, joined: set[int] | frozenset[int] = frozenset()) -> list[Mark]:
        """Full-length cut lines over one fronts page, in page mm: every horizontal cut line across the
        block with its bleed, then every vertical one row by row, except between the card in a slot of
        ``joined`` and its right neighbour (the seam of a board printed as one piece)."""
        xs, ys = self.cut_lines()
        outer = self.block_with_bleed
        segments = [Mark(outer.x, y, outer.right, y) for y in ys]
        for row in range(self.rows):
            top = outer.y if row == 0 else ys[row]
            bottom = outer.bottom if row == self.rows - 1 else ys[row + 1]
            for index, x in enumerate(xs):
                if 0 < index < self.columns and row * self.columns + index - 1 in joined:
                    continue
                segments.append(Mark(x, top, x, bottom))
        return segments

    def crop_marks(self) -> list[Mark]:
        """Crop marks at every cut line on all four sides of the block, outside the bleed.

        Each starts ``bleed + mark_gap`` mm outside the trim and runs ``mark_length`` mm outwards, or to
        the paper edge if that is nearer (Letter's top and bottom margins are short).
        """
        xs, ys = self.cut_lines()
        block = self.block
        offset = self.bleed + self.mark_gap
        marks: list[Mark] = []
        top_end = max(block.y - offset - self.mark_length, 0.0)
        bottom_end = min(block.bottom + offset + self.mark_length, self.paper.height)
        left_end = max(block.x - offset - self.mark_length, 0.0)
        right_end = min(block.right + offset + self.mark_length, self.paper.width)
        for x in xs:
            marks.append(Mark(x, block.y - offset, x, top_end))
            marks.append(Mark(x, block.bottom + offset, x, bottom_end))
        for y in ys:
            marks.append(Mark(block.x - offset, y, left_end, y))
            marks.append(Mark(block.right + offset, y, right_end, y))
        return marks

    def printable_length(self, mark: Mark) -> float:
        """How many mm of ``mark`` lie inside the printable area (``printer_margin`` from each edge)."""
        lo_x, hi_x = self.printer_margin, self.paper.width - self.printer_margin
        lo_y, hi_y = self.printer_margin, self.paper.height - self.printer_margin
        box = mark.box
        if box.width == 0:
            inside_across = lo_x <= box.x <= hi_x
            return max(0.0, min(box.bottom, hi_y) - max(box.y, lo_y)) if inside_across else 0.0
        inside_across = lo_y <= box.y <= hi_y
        return max(0.0, min(box.right, hi_x) - max(box.x, lo_x)) if inside_across else 0.0

    def bleed_guides(self) -> list[Mark]:
        """Cut guides inside the outer bleed, for the sides whose crop marks a printer would drop.

        Where the crop marks of a side have less than :data:`MIN_PRINTED_MARK` (3 mm) inside the printable
        area (Letter's top and bottom: the 3 x 3 block leaves 4.7 mm of paper, all of it inside a 6.35
        mm printer margin; A4's left and right), each cut line of that side also gets a guide running
        across the outer bleed, from the bleed edge to the trim. The bleed is cut away with the guide,
        and the guide's printable end sits right at the trim, where the cut starts.
        Returns the guides as :class:`Mark` lines in page mm, possibly none.
        """
        xs, ys = self.cut_lines()
        block = self.block
        by_side: dict[str, list[Mark]] = {
            "top": [Mark(x, block.y - self.bleed, x, block.y) for x in xs],
            "bottom": [Mark(x, block.bottom, x, block.bottom + self.bleed) for x in xs],
            "left": [Mark(block.x - self.bleed, y, block.x, y) for y in ys],
            "right": [Mark(block.right, y, block.right + self.bleed, y) for y in ys],
        }
        marks, vertical = self.crop_marks(), 2 * len(xs)  # in order: top and bottom per x, then left and right per y
        crop_by_side = {"top": marks[0:vertical:2], "bottom": marks[1:vertical:2],
                        "left": marks[vertical::2], "right": marks[vertical + 1::2]}
        guides: list[Mark] = []
        for side, side_guides in by_side.items():
            if min(self.printable_length(mark) for mark in crop_by_side[side]) < MIN_PRINTED_MARK:
                guides.extend(side_guides)
        return guides

    def free_regions(self, spill: float = 0.0) -> list[tuple[Box, bool]]:
        """Margin regions free of cards, bleed and crop marks, inside the printable area, in page mm.

        Returns ``(box, vertical)`` pairs, largest first: the bands beyond the ends of the top and bottom
        marks, the pockets between neighbouring marks above and below the block, and the pockets
        between marks on the left and right (``vertical=True``). A 1 mm clearance is kept from marks.
        ``spill``: mm more kept clear around the block, where the backs of a backs page reach when shifted by
        ``pnp build --back-offset`` (forty-eighth pnp breaker, HIGH 4: `--back-offset 0,5` laid the 50 mm scale's
        plate over a card back, which printed a white stripe on it).
        """
        block = self.block
        offset = self.bleed + self.mark_gap + spill
        xs, ys = self.cut_lines()
        lo_x, hi_x = self.printer_margin, self.paper.width - self.printer_margin
        lo_y, hi_y = self.printer_margin, self.paper.height - self.printer_margin
        regions: list[tuple[Box, bool]] = []

        def add(x0: float, y0: float, x1: float, y1: float, vertical: bool) -> None:
            x0, y0, x1, y1 = max(x0, lo_x), max(y0, lo_y), min(x1, hi_x), min(y1, hi_y)
            if x1 - x0 > 0.5 and y1 - y0 > 0.5:
                regions.append((Box(x0, y0, x1 - x0, y1 - y0), vertical))

        top_mark_end = block.y - offset - self.mark_length
        bottom_mark_end = block.bottom + offset + self.mark_length
        add(lo_x, lo_y, hi_x, top_mark_end - 1, False)
        add(lo_x, bottom_mark_end + 1, hi_x, hi_y, False)
        for a, b in zip(xs, xs[1:]):
            add(a + 1, top_mark_end - 1, b - 1, block.y - offset, False)
            add(a + 1, block.bottom + offset, b - 1, bottom_mark_end + 1, False)
        for a, b in zip(ys, ys[1:]):
            add(lo_x, a + 1, block.x - offset, b - 1, True)
            add(block.right + offset, a + 1, hi_x, b - 1, True)
        regions.sort(key=lambda r: (-(r[0].width * r[0].height), r[0].y, r[0].x))
        return regions


MIN_PRINTED_MARK = 3.0
"""The least length in mm of a crop mark that must lie inside the printable area for the mark to count;
sides whose marks print shorter also get :meth:`SheetLayout.bleed_guides`."""
TEXT_DEPTH = 3.0
"""Room in mm a one-line margin text (6.5 pt) needs across its baseline."""
RULER_LENGTH = 100.0
RULER_DEPTH = 6.5
"""A 10 cm ruler: 100 mm long, 6.5 mm deep (millimetre ticks and centimetre numbers)."""
SQUARE_SIDE = 50.0
BAR_LENGTH = 50.0
BAR_DEPTH = 3.0
"""The 50 mm calibration bar (used where the 50 mm square does not fit): 50 mm long, 3 mm deep."""
LABEL_LENGTH = 24.0
"""Room in mm after the end of the ruler for its label ("10 cm: check the scale")."""
BAR_LABEL_LENGTH = 9.0
"""Room in mm after the end of the 50 mm bar for its label ("50 mm")."""
GAP = 3.0
"""Space in mm kept between two margin items."""


class _Packer:
    """Guillotine packing of margin items into free regions (page mm).

    Each item takes the top-left corner of the first region it fits in; the rest of that region splits
    into the strip after the item (along a horizontal band, or down a vertical pocket; full depth) and
    the strip beside it (as long as the item). Regions are ``(box, vertical)`` pairs.
    """

    def __init__(self, regions: list[tuple[Box, bool]]):
        self.regions = regions
        self.placed: list[Marginal] = []

    def take(self, kind, length: float, depth: float, label_below: bool = False) -> bool:
        """Place an item ``length`` mm along and ``depth`` mm across its region; False if none holds it."""
        for index, (box, vertical) in enumerate(self.regions):
            width, height = (depth, length) if vertical else (length, depth)
            if box.width + ROUNDING_SLACK < width or box.height + ROUNDING_SLACK < height:
                continue
            spot = Box(box.x, box.y, width, height)
            self.placed.append(Marginal(kind, spot, vertical, label_below))
            rest: list[tuple[Box, bool]] = []
            if vertical:  # items stack down the pocket
                rest.append((Box(box.x, box.y + height + GAP, box.width, box.height - height - GAP), True))
                rest.append((Box(box.x + width + GAP, box.y, box.width - width - GAP, height), True))
            else:  # items line up along the band
                rest.append((Box(box.x + width + GAP, box.y, box.width - width - GAP, box.height), False))
                rest.append((Box(box.x, box.y + height + GAP, width, box.height - height - GAP), False))
            self.regions[index:index + 1] = [(b, v) for b, v in rest if b.width > 0.5 and b.height > 0.5]
            return True
        return False


def marginalia(layout: SheetLayout, title_length: float, page_length: float, note_length: float = 0.0,
               spill: float = 0.0) -> list[Marginal]:
    """Place the margin items of a sheet in the free margin regions (:meth:`SheetLayout.free_regions`).

    In order: the game ``"title"`` and the ``"page"`` line (paper, page n/m, fronts or backs), texts of
    the given lengths in mm, both required; the 10 cm ``"ruler"``; the 50 mm calibration ``"square"``
    or, where no 50 x 50 mm space exists, the 50 mm ``"bar"``; the printing ``"note"`` (skipped when
    ``note_length`` is 0). A ruler's or bar's box includes :data:`LABEL_LENGTH`
    (:data:`BAR_LABEL_LENGTH`) mm after its end for its label; the ruler starts at the box's left
    (or top, when vertical). Texts in vertical pockets read from bottom to top.

    Items are placed only where they fit whole, never over cards, bleed or crop marks or inside the
    printer margin. Optional items are left out when nothing holds them, so the result says honestly
    what the sheet carries (:func:`slot_marginalia` then looks for room in empty card slots). ``spill``: mm kept clear
    around the cards besides their bleed (:meth:`SheetLayout.free_regions`: the backs' offset).
    Raises :class:`ImpositionError` if the title or page line fits nowhere.
    """
    packer = _Packer(list(layout.free_regions(spill)))
    # Texts go first into regions above the block, keeping the space below it for the scale checks.
    packer.regions.sort(key=lambda r: (r[1], r[0].y > layout.block.y, r[0].y, r[0].x))
    for kind, length in (("title", title_length), ("page", page_length)):
        if not packer.take(kind, length, TEXT_DEPTH):
            raise ImpositionError(f"no margin on {layout.paper.name} holds the {length:.0f} mm {kind} line")
    packer.regions.sort(key=lambda r: (r[1], r[0].y < layout.block.y, -(r[0].width * r[0].height), r[0].y, r[0].x))
    packer.take("ruler", RULER_LENGTH + LABEL_LENGTH, RULER_DEPTH)
    if not packer.take("square", SQUARE_SIDE, SQUARE_SIDE):
        packer.take("bar", BAR_LENGTH + BAR_LABEL_LENGTH, BAR_DEPTH)
    if note_length:
        packer.regions.sort(key=lambda r: (r[1], r[0].y > layout.block.y, r[0].y, r[0].x))
        packer.take("note", note_length, TEXT_DEPTH)
    return packer.placed


SLOT_INSET = 4.0
"""Clearance in mm kept between a scale check placed in an empty card slot and the slot's cut lines."""


def empty_slot_regions(layout: SheetLayout, empty_slots: set[int], spill: float = 0.0) -> list[tuple[Box, bool]]:
    """The free space of a page's empty card slots, as packing regions (page mm, all horizontal).

    Neighbouring empty slots of one row join into one region (two slots hold a 10 cm ruler); each
    region is the slots' trim boxes inset by :data:`SLOT_INSET`, and on a side beside a card of the page
    also by the art that card spreads into the empty slot: its bleed (:meth:`SheetLayout.clip_box`) and
    ``spill`` mm more (a back's extra bleed and the backs' offset, on a backs page). Thirty-sixth pnp
    breaker, MED 9: with `--bleed 10` the ruler and its plate were drawn over the bleed of the cards beside
    the empty slots. Largest first. Raises :class:`ImpositionError` for a slot number the page does not have.
    """
    for slot in empty_slots:
        layout._check(slot)

    def beside(row: int, column: int) -> float:
        """The inset kept from the side of an empty slot toward ``(row, column)``: more where a card is."""
        inside = 0 <= row < layout.rows and 0 <= column < layout.columns
        return SLOT_INSET + (layout.bleed + spill if inside and row * layout.columns + column not in empty_slots else 0.0)

    regions: list[tuple[Box, bool]] = []
    for row in range(layout.rows):
        run: list[int] = []
        for column in range(layout.columns + 1):
            slot = row * layout.columns + column
            if column < layout.columns and slot in empty_slots:
                run.append(slot)
                continue
            if run:
                first, last = layout.trim_box(run[0]), layout.trim_box(run[-1])
                columns = range(run[0] % layout.columns, run[-1] % layout.columns + 1)
                left, right = beside(row, columns[0] - 1), beside(row, columns[-1] + 1)
                top = max(beside(row - 1, one) for one in columns)
                bottom = max(beside(row + 1, one) for one in columns)
                span = Box(first.x + left, first.y + top, last.right - first.x - left - right, first.height - top - bottom)
                if span.width > 0 and span.height > 0:
                    regions.append((span, False))
                run = []
    regions.sort(key=lambda r: (-(r[0].width * r[0].height), r[0].y, r[0].x))
    return regions


def slot_marginalia(layout: SheetLayout, empty_slots: set[int], margin: list[Marginal] | tuple[Marginal, ...],
                    spill: float = 0.0) -> list[Marginal]:
    """The scale checks the margin could not hold (:func:`marginalia`), placed in empty card slots, clear of the art
    the cards beside them spread into them (their bleed, and ``spill`` mm more: :func:`empty_slot_regions`).

    A page whose margin has no 50 mm square or no 10 cm ruler (3 x 3 poker cards leave too little
    margin on A4 and Letter) still gets them whole wherever its empty slots have room, typically on
    the last page of a deck: the ``"ruler"`` needs two neighbouring empty slots (its label sits below
    it, ``label_below``), the ``"square"`` one. Returns the items placed, possibly none.
    """
    kinds = {item.kind for item in margin}
    packer = _Packer(empty_slot_regions(layout, empty_slots, spill))
    if "ruler" not in kinds:
        packer.take("ruler", RULER_LENGTH, RULER_DEPTH + TEXT_DEPTH, label_below=True)
    if "square" not in kinds:
        packer.take("square", SQUARE_SIDE, SQUARE_SIDE)
    return packer.placed


MARK_GAP = 0.5
"""Space in mm between the bleed edge and the start of every crop mark."""
MIN_MARK_LENGTH = 3.0
"""The least length in mm of crop mark that must fit on the paper beyond bleed and :data:`MARK_GAP` for
a column or row of cards to count (:func:`impose`)."""


def impose(paper: Paper, *, card_width: float, card_height: float, bleed: float, mark_length: float,
           printer_margin: float, centred: bool) -> SheetLayout:
    """The largest grid of butted cards that fits on ``paper`` (portrait) with outer bleed and crop marks.

    Every length is in mm and required: they are the database's ``[print]`` settings (``card_width_mm``,
    ``card_height_mm``, ``bleed_mm``, ``crop_mark_mm``, ``printer_margin_mm``), which
    :func:`pnp.build.sheet_layout` passes; ``centred`` is for short-edge duplex. No code default can
    disagree with ``cards.toml``.

    The block is centred horizontally, so fronts and mirrored backs use the same grid. Vertically it
    sits high enough to leave room for full-length top marks and the widest possible band below for the
    footer, ruler and calibration, or centred when the paper is too short for that or when ``centred``
    is asked for (short-edge duplex mirrors rows about the page's centre line). A column or row
    counts only if crop marks of at least :data:`MIN_MARK_LENGTH` mm still fit beyond bleed and gap, and
    the trim of every card lies inside the printable area (``printer_margin`` mm from each paper edge;
    bleed and crop marks may run into that margin, where a printer may leave them out).
    Raises :class:`ImpositionError` if not even one card fits.
    """
    reserve = 2 * (bleed + MARK_GAP + MIN_MARK_LENGTH)
    # The trims must lie inside the printable area; bleed and marks may run into the printer margin.
    printable_width, printable_height = paper.width - 2 * printer_margin, paper.height - 2 * printer_margin
    columns = math.floor(min(paper.width - reserve, printable_width) / card_width + ROUNDING_SLACK)
    rows = math.floor(min(paper.height - reserve, printable_height) / card_height + ROUNDING_SLACK)
    if columns < 1 or rows < 1:
        raise ImpositionError(f"a {card_width} x {card_height} mm card with {bleed} mm bleed does not fit on {paper.name}")
    block_width = columns * card_width
    block_height = rows * card_height
    left = (paper.width - block_width) / 2
    centred_top = (paper.height - block_height) / 2
    high_top = printer_margin + bleed + MARK_GAP + mark_length
    top = centred_top if centred else min(centred_top, high_top)
    return SheetLayout(paper, card_width, card_height, bleed, columns, rows, left, top, MARK_GAP, mark_length,
                       printer_margin)


# ---- Pages: which face goes where ------------------------------------------------------------------------------
@dataclass(frozen=True)
class SheetCard:
    """One card to impose: its ``front`` Drawing and its ``back`` Drawing, or ``None`` for no back.

    ``joined_right`` marks a card whose right edge is joined to the next card of the same board
    (Progress Track, battle maps) printed as one piece: the cut lines skip that seam.
    """

    front: Drawing
    back: Drawing | None = None
    joined_right: bool = False


@dataclass(frozen=True, kw_only=True)
class SheetOptions:
    """How sheets are printed; every field by keyword.

    ``duplex``: ``"long"`` (backs mirrored left-right, flip on the long edge), ``"short"`` (backs
    mirrored top-bottom, flip on the short edge) or ``"none"`` (fronts only, no backs pages).
    ``back_offset``: ``(x, y)`` mm added to every back's position on the backs pages, to correct a
    printer's misregistration measured with ``pnp calibrate``. ``back_extra_bleed``: mm of back art
    shown beyond the usual bleed on every side, so a shifted back leaves no white edge.
    ``cut_lines``: draw thin full-length cut lines over the cards on the fronts pages.
    ``duplex`` and ``back_extra_bleed`` are the database's ``[print]`` settings and have no default
    (:func:`pnp.build.sheet_options`); ``back_offset`` and ``cut_lines`` are ``pnp build`` options.
    """

    duplex: Duplex
    back_extra_bleed: float
    back_offset: tuple[float, float] = (0.0, 0.0)
    cut_lines: bool = False

    @property
    def note(self) -> str:
        """The printing note of the sheet margin."""
        return {"long": "Print at 100%; backs: duplex, flip on long edge",
                "short": "Print at 100%; backs: duplex, flip on short edge",
                "none": "Print at 100%; fronts only"}[self.duplex]


Side = Literal["fronts", "backs"]
"""Which side of the sheet a page prints."""


def page_plan(cards: Sequence[SheetCard | None], per_page: int,
              duplex: Duplex) -> list[tuple[Side, list[SheetCard | None]]]:
    """Pages in print order: ``("fronts", cards)`` and ``("backs", the same cards)``, ``per_page`` a page.

    When any card has a back, EVERY fronts page is followed by its backs page, even one with no back
    on it (it prints blank), so a duplex printer pairs page 1 with 2, 3 with 4 and so on, and each
    back lands behind its own front. A document without any back, or printed with ``duplex="none"``,
    has fronts pages only.
    """
    backs = duplex != "none" and any(card is not None and card.back is not None for card in cards)
    plan: list[tuple[Side, list[SheetCard | None]]] = []
    for start in range(0, len(cards), per_page):
        chunk = list(cards[start:start + per_page])
        plan.append(("fronts", chunk))
        if backs:
            plan.append(("backs", chunk))
    return plan


def empty_slots(layout: SheetLayout, side: Side, chunk: Sequence[SheetCard | None], duplex: Duplex) -> set[int]:
    """The slots (reading order, as seen on this page) with no card on either side of the sheet: on a
    fronts page the slots without a card; on a backs page the positions behind them. A position behind
    a card printed without a back is NOT empty: whatever is drawn there lands on that card."""
    filled = {slot for slot, card in enumerate(chunk) if card is not None}
    if side == "backs":
        filled = {layout.back_slot(slot, duplex) for slot in filled}
    return set(range(layout.per_page)) - filled


@dataclass(frozen=True)
class Placement:
    """One face on a page: the ``face`` Drawing with its trim top-left at ``trim``'s corner and only
    ``clip`` visible (both page mm)."""

    face: Drawing
    trim: Box
    clip: Box


def placements(layout: SheetLayout, side: Side, chunk: Sequence[SheetCard | None],
               options: SheetOptions) -> list[Placement]:
    """Where each face of ``chunk`` is drawn on its fronts or backs page, in slot order.

    Fronts: in their slots, clipped to :meth:`SheetLayout.clip_box`, whose bleed shows on the block's
    outer edges and beside empty slots (:func:`empty_slots`). Backs: behind their fronts for
    ``options.duplex``, shifted by ``options.back_offset``, clipped to :meth:`SheetLayout.back_clip_box`,
    whose bleed and extra bleed spill only into empty places (no card on either side), and extra bleed
    into places with the very same back. Cards without a back give nothing on a backs page.
    """
    result: list[Placement] = []
    empty = empty_slots(layout, side, chunk, options.duplex)
    backs_at = {layout.back_slot(slot, options.duplex): card.back for slot, card in enumerate(chunk)
                if card is not None and card.back is not None} if side == "backs" else {}
    for slot, card in enumerate(chunk):
        if card is None:
            continue
        if side == "fronts":
            result.append(Placement(card.front, layout.trim_box(slot), layout.clip_box(slot, empty)))
            continue
        face = card.back
        if face is None:
            continue
        trim = layout.back_box(slot, options.duplex, options.back_offset)
        same_back = {place for place, back in backs_at.items() if back is face or back == face}
        clip = layout.back_clip_box(slot, options.duplex, options.back_offset, extra=options.back_extra_bleed,
                                    spill=same_back, empty=empty)
        result.append(Placement(face, trim, clip))
    return result
