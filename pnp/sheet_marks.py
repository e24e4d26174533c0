"""What a printed sheet carries besides its cards, as Drawings in page mm, ready for :mod:`pnp.pdf`.

This module owns the look of the sheet's marks: crop marks and the cut guides in the bleed, the
optional full cut lines, and the margin items (game title, page line, printing note, 10 cm ruler,
50 mm square or bar) with their white plates. Where each goes is :mod:`pnp.sheets` (geometry); here
it becomes primitives (:mod:`pnp.drawing`), in mm, with no ReportLab. Text is set like card text
(:func:`pnp.text.single_line`: bundled fonts, lining digits).
"""
from __future__ import annotations

from collections.abc import Sequence

from pnp import fonts
from pnp.drawing import Anchor, Box, Drawing, Group, Line, Primitive, Rect
from pnp.sheets import BAR_LENGTH, RULER_DEPTH, RULER_LENGTH, SQUARE_SIDE, Marginal, Paper, SheetCard, SheetLayout, Side, marginalia
from pnp.text import single_line

MARK_COLOUR = "#000000"
MARK_WIDTH_MM = 0.15
"""Crop marks: thin black hairlines (0.15 mm, about 0.4 pt)."""
GUIDE_HALO_COLOUR = "#ffffff"
GUIDE_HALO_WIDTH_MM = 0.55
"""Cut guides in the bleed (:meth:`pnp.sheets.SheetLayout.bleed_guides`) are crop-mark lines on a white halo."""
MARGIN_INK = "#333333"
PLATE_COLOUR = "#ffffff"
"""The plate under each margin item (:func:`marginal_items`)."""
CUT_LINE_WIDTH_MM = 0.1
CUT_LINE_COLOUR = "#808080"
"""Optional full cut lines: thin gray hairlines, light enough to vanish in the cut."""
MARGIN_TEXT_SIZE = 6.5
"""Size in pt of the margin texts (title, page line, printing note)."""
NO_BACKS = " (no backs on this sheet)"
"""Added to the page line of a backs page that has no back on it."""


def page_line(paper: Paper, side: Side, page: int, pages: int) -> str:
    """The page line of the margin: ``"A4 · page 2/4 · backs"``."""
    return f"{paper.name} · page {page}/{pages} · {side}"


def margin_text_length(text: str, family: str = "serif") -> float:
    """The room in mm a margin text takes: its width at :data:`MARGIN_TEXT_SIZE` pt plus 1 mm."""
    return fonts.string_width_mm(text, family, MARGIN_TEXT_SIZE) + 1.0


def sheet_marginalia(layout: SheetLayout, paper: Paper, title: str, pages: int, note: str,
                     spill: float = 0.0) -> tuple[Marginal, ...]:
    """The margin items every page of a document of ``pages`` pages carries (:func:`pnp.sheets.marginalia`),
    with room for the game ``title``, the longest page line and the printing ``note``, ``spill`` mm clear of the
    cards' bleed besides (the backs' offset, where a backs page has them shifted).
    Raises :class:`~pnp.sheets.ImpositionError` when the title or page line fits in no margin."""
    widest_page_line = max(margin_text_length(page_line(paper, side, pages, pages) + NO_BACKS)
                           for side in ("fronts", "backs"))
    return tuple(marginalia(layout, margin_text_length(title), widest_page_line, margin_text_length(note, "serif-italic"),
                            spill))


def margin_text(x: float, y: float, text: str, family: str, size: float, anchor: Anchor = "start",
                rotation: float = 0.0) -> list[Primitive]:
    """One line of margin text of ``size`` pt with its baseline at ``(x, y)`` page mm, set like card
    text (:func:`pnp.text.single_line`: lining digits, glyph fallback), turned by ``rotation`` degrees."""
    if not rotation:
        return single_line(text, x, y, family, size, anchor=anchor, fill=MARGIN_INK)
    return [Group(tuple(single_line(text, 0.0, 0.0, family, size, anchor=anchor, fill=MARGIN_INK)),
                  dx=x, dy=y, rotation=rotation)]


def marginal_items(marginal: Marginal, text: str) -> list[Primitive]:
    """The primitives (page mm) of one margin item; ``text`` is the line a text item prints.

    Each item stands on a white plate the size of its box: on a backs page, the backs' extra bleed may
    reach into a narrow margin (Letter's sides), and the plate keeps the item readable there; on a
    fronts page the margin is white paper anyway. The plate only ever covers bleed that is cut away."""
    box = marginal.box
    items: list[Primitive] = [Rect(box.x, box.y, box.width, box.height, fill=PLATE_COLOUR)]
    if marginal.kind in ("title", "page", "note"):
        family = "serif-italic" if marginal.kind == "note" else "serif"
        if marginal.vertical:  # reads bottom to top, its baseline near the pocket's right edge
            items.extend(margin_text(box.right - 0.7, box.bottom, text, family, MARGIN_TEXT_SIZE, rotation=90))
        else:
            items.extend(margin_text(box.x, box.bottom - 0.7, text, family, MARGIN_TEXT_SIZE))
    elif marginal.kind == "ruler":
        items.extend(ruler(box, marginal.vertical, RULER_LENGTH, "10 cm: check the scale", numbered=True,
                           label_below=marginal.label_below))
    elif marginal.kind == "bar":
        items.extend(ruler(box, marginal.vertical, BAR_LENGTH, "50 mm", numbered=False))
    elif marginal.kind == "square":
        side = SQUARE_SIDE
        items.append(Rect(box.x, box.y, side, side, stroke="#000000", stroke_width=0.2))
        items.extend(margin_text(box.x + side / 2, box.y + side / 2, "50 mm x 50 mm", "serif", 7, "middle"))
    return items


def ruler(box: Box, vertical: bool, length: float, label: str, numbered: bool,
          label_below: bool = False) -> list[Primitive]:
    """A ruler ``length`` mm long with ``label`` after its end (or, ``label_below``, under its
    numbers), along x from ``box``'s left (or along y from its top). Numbered: millimetre ticks,
    longer every 5 and 10 mm, centimetres numbered. Otherwise a bar: ticks every 10 mm only, 3 mm deep."""
    items: list[Primitive] = []
    ink = "#000000"

    def segment(along_start: float, across_start: float, along_end: float, across_end: float, width: float) -> Line:
        # along the ruler, and across it (depth from the ruler's edge line)
        if vertical:
            return Line(box.x + across_start, box.y + along_start, box.x + across_end, box.y + along_end, ink, width)
        return Line(box.x + along_start, box.y + across_start, box.x + along_end, box.y + across_end, ink, width)

    items.append(segment(0, 0, length, 0, 0.2))
    for mm in range(int(length) + 1):
        if numbered:
            tick = 2.6 if mm % 10 == 0 else (1.8 if mm % 5 == 0 else 1.0)
        elif mm % 10 == 0:
            tick = 2.6 if mm in (0, int(length)) else 1.4
        else:
            continue
        items.append(segment(mm, 0, mm, tick, 0.1))
    if numbered:  # the "0" starts at the ruler's start, not centred on it: centred, half of it lay outside the box, in the
        # printer's margin (off the paper with no margin: thirty-fifth pnp breaker, LOW 22)
        for cm in range(0, int(length) // 10 + 1):
            if vertical:
                items.extend(margin_text(box.x + 3.0, box.y + cm * 10 + (2.0 if cm == 0 else 0.9), str(cm), "serif", 5.5))
            else:  # the last number ends at its tick when the label is below: the box (and its plate) ends there too
                # (thirty-sixth pnp breaker, MED 9: centred, the "0" of "10" lay past the plate, on the cards' art)
                last = label_below and cm == int(length) // 10
                items.extend(margin_text(box.x + cm * 10, box.y + 4.8, str(cm), "serif", 5.5,
                                         "start" if cm == 0 else "end" if last else "middle"))
    if label_below and not vertical:
        items.extend(margin_text(box.x + length / 2, box.y + RULER_DEPTH + 2.2, label, "serif", 6, "middle"))
    elif vertical:
        items.extend(margin_text(box.x + 2.2, box.y + length + 2.0, label, "serif", 6, "end", rotation=90))
    else:
        items.extend(margin_text(box.x + length + 2.0, box.y + 2.2, label, "serif", 6))
    return items


def sheet_overlay(layout: SheetLayout, marginal: Sequence[Marginal], texts: dict[str, str], guides: bool = True) -> Drawing:
    """The crop marks, the cut guides in the bleed and the margin items of one page as a page-sized
    Drawing (page mm, no bleed).

    ``texts`` gives the line each text item (``"title"``, ``"page"``, ``"note"``) prints. ``guides``:
    draw the cut guides in the bleed (:meth:`pnp.sheets.SheetLayout.bleed_guides`); a backs page has
    none, since a guide ends at the trim and the printer's shift of the backs page would carry it onto
    the card's back (issue 15); the cards are cut from the fronts.
    """
    items: list[Primitive] = [Line(m.x1, m.y1, m.x2, m.y2, MARK_COLOUR, MARK_WIDTH_MM) for m in layout.crop_marks()]
    for guide in layout.bleed_guides() if guides else ():  # over the bleed art: a white halo keeps them visible on dark art
        items.append(Line(guide.x1, guide.y1, guide.x2, guide.y2, GUIDE_HALO_COLOUR, GUIDE_HALO_WIDTH_MM))
        items.append(Line(guide.x1, guide.y1, guide.x2, guide.y2, MARK_COLOUR, MARK_WIDTH_MM))
    for item in marginal:
        items.extend(marginal_items(item, texts.get(item.kind, "")))
    return Drawing(layout.paper.width, layout.paper.height, 0.0, tuple(items), title="sheet marks")


def cut_lines_overlay(layout: SheetLayout, chunk: Sequence[SheetCard | None]) -> Drawing:
    """Full-length cut lines over one fronts page as a page-sized Drawing (page mm, no bleed): every
    cut line of :meth:`pnp.sheets.SheetLayout.cut_line_segments`, none on the seams of boards printed
    joined (cards of ``chunk`` marked ``joined_right``)."""
    joined = {slot for slot, card in enumerate(chunk) if card is not None and card.joined_right}
    items: tuple[Primitive, ...] = tuple(Line(m.x1, m.y1, m.x2, m.y2, CUT_LINE_COLOUR, CUT_LINE_WIDTH_MM)
                                         for m in layout.cut_line_segments(joined))
    return Drawing(layout.paper.width, layout.paper.height, 0.0, items, title="cut lines")
