"""PDF backend (ReportLab): draws Drawings on a canvas and writes imposed, duplex-ready card sheets.

This module owns the only millimetre-to-point conversion of the project (1 mm = 72/25.4 pt) and the
PDF sheets: cards butted on a grid (:mod:`pnp.sheets`), bleed kept only on the block's outer edges,
crop marks outside the bleed, a backs page after each fronts page with the backs mirrored for
long-edge duplex, and in the margins a footer (game, paper, page n/m) plus the scale checks that fit.

Fonts are the bundled TTFs (:mod:`pnp.fonts`), embedded by ReportLab as subsets. Icons are vector
drawings: each ``templates/icons/<name>.svg`` is converted once by svglib and stored in the PDF once
as a Form XObject, then placed wherever it is used. Files are written in ReportLab's invariant mode
(no dates, fixed ids), so the same input gives byte-identical PDFs.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Callable, Sequence

from reportlab.graphics import renderPDF
from reportlab.lib.colors import Color, HexColor
from reportlab.pdfgen.canvas import Canvas
from svglib.svglib import svg2rlg

from pnp import fonts
from pnp.drawing import (Box, Circle, Drawing, Group, Icon, Line, Polyline, Primitive, Rect,
                         TextLine)
from pnp.sheets import (BAR_LENGTH, RULER_DEPTH, RULER_LENGTH, SQUARE_SIDE, Duplex, Marginal, Paper, SheetLayout,
                        impose, marginalia, slot_marginalia)
from pnp.inks import recolour_rlg
from pnp.text import ICON_DIR, single_line
from pnp.units import PT_PER_MM, ROUNDING_SLACK, SAME_SIZE_MM

MARK_COLOUR = "#000000"
MARK_WIDTH_MM = 0.15
"""Crop marks: thin black hairlines (0.15 mm, about 0.4 pt)."""
GUIDE_HALO_COLOUR = "#ffffff"
GUIDE_HALO_WIDTH_MM = 0.55
"""Cut guides in the bleed (:meth:`pnp.sheets.SheetLayout.bleed_guides`) are crop-mark lines on a white halo."""
MARGIN_INK = "#333333"
PLATE_COLOUR = "#ffffff"
"""The plate under each margin item (:func:`_marginal_items`)."""


@lru_cache(maxsize=None)
def _icon_drawing(name: str):
    """The svglib drawing of ``templates/icons/<name>.svg`` (parsed once per process)."""
    path = ICON_DIR / f"{name}.svg"
    if not path.is_file():
        raise FileNotFoundError(f"icon {name!r}: no file {path}")
    drawing = svg2rlg(str(path))
    if drawing is None:
        raise ValueError(f"icon {name!r}: svglib could not read {path}")
    # renderPDF starts each drawing in its default font (Helvetica, never embedded); icons have no
    # text, so start them in the bundled serif and keep the PDF free of unembedded fonts.
    drawing.initialFontName = fonts.register("serif")
    return drawing


class Painter:
    """Draws :class:`~pnp.drawing.Drawing` objects on one ReportLab ``canvas`` of a page ``page_height_mm`` tall.

    Keeps track of which icons are already stored in the document as Form XObjects. ``colour`` maps
    every ``"#rrggbb"`` (icons' colours too) to the ReportLab colour written: RGB by default,
    CMYK with :func:`pnp.inks.cmyk`.
    """

    def __init__(self, canvas: Canvas, page_height_mm: float, colour: Callable[[str], Color] = HexColor):
        self.canvas = canvas
        self.colour = colour
        self.page_height_mm = page_height_mm
        self._forms: set[str] = set()

    # -- icons ---------------------------------------------------------------------------------
    def _form(self, name: str) -> str:
        form = f"icon-{name}"
        if name not in self._forms:
            drawing = _icon_drawing(name)
            if self.colour is not HexColor:
                drawing = recolour_rlg(drawing, self.colour)
            self.canvas.beginForm(form, 0, 0, drawing.width, drawing.height)
            renderPDF.draw(drawing, self.canvas, 0, 0)
            self.canvas.endForm()
            self._forms.add(name)
        return form

    # -- drawings ------------------------------------------------------------------------------
    def draw(self, drawing: Drawing, x_mm: float, y_mm: float, clip: Box | None = None) -> None:
        """Draw ``drawing`` with its trim top-left at page ``(x_mm, y_mm)`` (mm from the page's top-left).

        ``clip`` (page mm) limits what is visible; by default the drawing's own bleed box.
        """
        c = self.canvas
        c.saveState()
        if clip is None:
            bleed = drawing.bleed_box
            clip = Box(x_mm + bleed.x, y_mm + bleed.y, bleed.width, bleed.height)
        # The current origin is the page's bottom-left corner: convert the clip from page mm (y down).
        path = c.beginPath()
        path.rect(clip.x * PT_PER_MM, (self.page_height_mm - clip.bottom) * PT_PER_MM,
                  clip.width * PT_PER_MM, clip.height * PT_PER_MM)
        c.clipPath(path, stroke=0, fill=0)
        c.translate(x_mm * PT_PER_MM, (self.page_height_mm - y_mm) * PT_PER_MM)
        self._items(drawing.items)
        c.restoreState()

    def _clip(self, box: Box) -> None:
        """Clip to ``box`` given in mm relative to the current origin (a Drawing's trim corner), y down."""
        c = self.canvas
        path = c.beginPath()
        path.rect(box.x * PT_PER_MM, -(box.y + box.height) * PT_PER_MM, box.width * PT_PER_MM, box.height * PT_PER_MM)
        c.clipPath(path, stroke=0, fill=0)

    def _items(self, items: tuple[Primitive, ...]) -> None:
        index = 0
        while index < len(items):
            run = _text_run(items, index)
            if len(run) > 1:
                self._text_runs(run)
                index += len(run)
            else:
                self._item(items[index])
                index += 1

    def _text_runs(self, run: list[TextLine]) -> None:
        """Start-anchored runs of one line (font fallback, lining digits) as one PDF text object, so
        a PDF reader extracts and searches the line as one string ("page 1/4", not "page", "1", "/4")."""
        k = PT_PER_MM
        text = self.canvas.beginText()
        for item in run:
            text.setFont(fonts.register(item.family), item.size)
            text.setFillColor(self.colour(item.fill))
            text.setTextOrigin(item.x * k, -item.y * k)
            text.textOut(item.text)
        self.canvas.drawText(text)

    def _stroke_fill(self, fill: str | None, stroke: str | None, stroke_width: float) -> tuple[int, int]:
        c = self.canvas
        if fill is not None:
            c.setFillColor(self.colour(fill))
        if stroke is not None:
            c.setStrokeColor(self.colour(stroke))
            c.setLineWidth(stroke_width * PT_PER_MM)
        return (1 if stroke is not None else 0, 1 if fill is not None else 0)

    def _item(self, item: Primitive) -> None:
        c = self.canvas
        k = PT_PER_MM
        if isinstance(item, Rect):
            stroke, fill = self._stroke_fill(item.fill, item.stroke, item.stroke_width)
            if stroke or fill:
                x, y, w, h = item.x * k, -(item.y + item.height) * k, item.width * k, item.height * k
                if item.radius:
                    c.roundRect(x, y, w, h, item.radius * k, stroke=stroke, fill=fill)
                else:
                    c.rect(x, y, w, h, stroke=stroke, fill=fill)
        elif isinstance(item, Line):
            self._stroke_fill(None, item.stroke, item.stroke_width)
            if item.dash:
                c.setDash([v * k for v in item.dash])
            c.line(item.x1 * k, -item.y1 * k, item.x2 * k, -item.y2 * k)
            if item.dash:
                c.setDash([])
        elif isinstance(item, Polyline):
            stroke, fill = self._stroke_fill(item.fill if item.closed else None, item.stroke, item.stroke_width)
            if stroke or fill:
                c.setLineJoin(1)
                path = c.beginPath()
                (x0, y0), *rest = item.points
                path.moveTo(x0 * k, -y0 * k)
                for x, y in rest:
                    path.lineTo(x * k, -y * k)
                if item.closed:
                    path.close()
                c.drawPath(path, stroke=stroke, fill=fill)
                c.setLineJoin(0)
        elif isinstance(item, Circle):
            stroke, fill = self._stroke_fill(item.fill, item.stroke, item.stroke_width)
            if stroke or fill:
                c.circle(item.cx * k, -item.cy * k, item.r * k, stroke=stroke, fill=fill)
        elif isinstance(item, TextLine):
            c.setFont(fonts.register(item.family), item.size)
            c.setFillColor(self.colour(item.fill))
            x, y = item.x * k, -item.y * k
            draw = {"start": c.drawString, "middle": c.drawCentredString, "end": c.drawRightString}[item.anchor]
            if item.rotation:
                c.saveState()
                c.translate(x, y)
                c.rotate(item.rotation)
                draw(0, 0, item.text)
                c.restoreState()
            else:
                draw(x, y, item.text)
        elif isinstance(item, Icon):
            form = self._form(item.name)
            drawing = _icon_drawing(item.name)
            c.saveState()
            c.translate(item.x * k, -(item.y + item.size) * k)
            c.scale(item.size * k / drawing.width, item.size * k / drawing.height)
            c.doForm(form)
            c.restoreState()
        elif isinstance(item, Group):
            c.saveState()
            if item.clip is not None:
                self._clip(item.clip)
            c.translate(item.dx * k, -item.dy * k)
            if item.rotation:
                c.rotate(item.rotation)
            self._items(item.items)
            c.restoreState()
        else:
            raise TypeError(f"cannot draw {type(item).__name__} in a PDF")


def _text_run(items: tuple[Primitive, ...], start: int) -> list[TextLine]:
    """The consecutive unrotated, start-anchored text lines from ``items[start]`` on one baseline."""
    run: list[TextLine] = []
    for item in items[start:]:
        if not (isinstance(item, TextLine) and item.anchor == "start" and not item.rotation):
            break
        if run and abs(item.y - run[0].y) > ROUNDING_SLACK:
            break
        run.append(item)
    return run


def new_canvas(path: Path, paper_width_mm: float, paper_height_mm: float, title: str) -> Canvas:
    """A ReportLab canvas for ``path`` in invariant mode (byte-identical rebuilds), with the viewer told
    not to scale when printing (``PrintScaling None``) and ``title`` in the document information."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    canvas = Canvas(str(path), pagesize=(paper_width_mm * PT_PER_MM, paper_height_mm * PT_PER_MM),
                    invariant=1, pageCompression=1,
                    # Start every page in the bundled serif, so no unembedded Helvetica is referenced.
                    initialFontName=fonts.register("serif"), initialFontSize=9)
    canvas.setTitle(title)
    canvas.setAuthor("lassadar pnp")
    canvas.setCreator("lassadar pnp (ReportLab)")
    canvas.setViewerPreference("PrintScaling", "None")
    return canvas


def write_card_pdf(drawing: Drawing, path: Path) -> Path:
    """Write one Drawing as a one-page PDF the size of its bleed box (TrimBox set to the trim). Returns ``path``."""
    bleed = drawing.bleed_box
    canvas = new_canvas(path, bleed.width, bleed.height, drawing.title or drawing.id or "card")
    painter = Painter(canvas, bleed.height)
    b = drawing.bleed_mm * PT_PER_MM
    canvas.setTrimBox((b, b, b + drawing.width_mm * PT_PER_MM, b + drawing.height_mm * PT_PER_MM))
    painter.draw(drawing, drawing.bleed_mm, drawing.bleed_mm)
    canvas.showPage()
    canvas.save()
    return Path(path)


@dataclass(frozen=True)
class SheetCard:
    """One card to impose: its ``front`` Drawing and its ``back`` Drawing, or ``None`` for no back.

    ``joined_right`` marks a card whose right edge is joined to the next card of the same board
    (Progress Track, battle maps) printed as one piece: ``cut_lines`` draws no line on that seam.
    """

    front: Drawing
    back: Drawing | None = None
    joined_right: bool = False


@dataclass(frozen=True)
class SheetOptions:
    """How sheets are printed.

    ``duplex``: ``"long"`` (backs mirrored left-right, flip on the long edge), ``"short"`` (backs
    mirrored top-bottom, flip on the short edge) or ``"none"`` (fronts only, no backs pages).
    ``back_offset``: ``(x, y)`` mm added to every back's position on the backs pages, to correct a
    printer's misregistration measured with ``pnp calibrate``. ``back_extra_bleed``: mm of back art
    shown beyond the usual bleed on every side, so a shifted back leaves no white edge.
    ``cut_lines``: draw thin full-length cut lines over the cards on the fronts pages.
    """

    duplex: Duplex = "long"
    back_offset: tuple[float, float] = (0.0, 0.0)
    back_extra_bleed: float = 0.0
    cut_lines: bool = False

    @property
    def note(self) -> str:
        """The printing note of the sheet margin."""
        return {"long": "Print at 100%; backs: duplex, flip on long edge",
                "short": "Print at 100%; backs: duplex, flip on short edge",
                "none": "Print at 100%; fronts only"}[self.duplex]


@dataclass(frozen=True)
class SheetReport:
    """What :func:`write_sheets` wrote: the ``path``, the number of ``pages`` (fronts and backs), the
    ``layout`` used, the ``marginalia`` every page carries in its margin, and ``page_marginalia``: for
    each page in order, everything it carries (the margin items, then any 50 mm square or 10 cm ruler
    placed in its empty card slots, :func:`pnp.sheets.slot_marginalia`)."""

    path: Path
    pages: int
    layout: SheetLayout
    marginalia: tuple[Marginal, ...]
    page_marginalia: tuple[tuple[Marginal, ...], ...] = ()


def _page_plan(cards: Sequence[SheetCard | None], per_page: int,
               duplex: Duplex = "long") -> list[tuple[str, list[SheetCard | None]]]:
    """Pages in print order: ``("fronts", cards)`` and ``("backs", the same cards)``.

    When any card has a back, EVERY fronts page is followed by its backs page, even one with no back
    on it (it prints blank), so a duplex printer pairs page 1 with 2, 3 with 4 and so on, and each
    back lands behind its own front. A document without any back, or printed with ``duplex="none"``,
    has fronts pages only.
    """
    backs = duplex != "none" and any(card is not None and card.back is not None for card in cards)
    plan = []
    for start in range(0, len(cards), per_page):
        chunk = list(cards[start:start + per_page])
        plan.append(("fronts", chunk))
        if backs:
            plan.append(("backs", chunk))
    return plan


MARGIN_TEXT_SIZE = 6.5
"""Size in pt of the margin texts (title, page line, printing note)."""


def _page_line(paper: Paper, side: str, page: int, pages: int) -> str:
    return f"{paper.name} · page {page}/{pages} · {side}"


def _margin_text(x: float, y: float, text: str, family: str, size: float, anchor: str = "start",
                 rotation: float = 0.0) -> list[Primitive]:
    """One line of margin text with its baseline at ``(x, y)`` page mm, set like card text
    (:func:`pnp.text.single_line`: lining digits, glyph fallback), turned by ``rotation`` degrees."""
    if not rotation:
        return single_line(text, x, y, family, size, anchor=anchor, fill=MARGIN_INK)
    return [Group(tuple(single_line(text, 0.0, 0.0, family, size, anchor=anchor, fill=MARGIN_INK)),
                  dx=x, dy=y, rotation=rotation)]


def _marginal_items(marginal: Marginal, text: str) -> list[Primitive]:
    """The primitives (page mm) of one margin item; ``text`` is the line a text item prints.

    Each item stands on a white plate the size of its box: on a backs page, the backs' extra bleed may
    reach into a narrow margin (Letter's sides), and the plate keeps the item readable there; on a
    fronts page the margin is white paper anyway. The plate only ever covers bleed that is cut away."""
    box = marginal.box
    items: list[Primitive] = [Rect(box.x, box.y, box.width, box.height, fill=PLATE_COLOUR)]
    if marginal.kind in ("title", "page", "note"):
        family = "serif-italic" if marginal.kind == "note" else "serif"
        if marginal.vertical:  # reads bottom to top, its baseline near the pocket's right edge
            items.extend(_margin_text(box.right - 0.7, box.bottom, text, family, MARGIN_TEXT_SIZE, rotation=90))
        else:
            items.extend(_margin_text(box.x, box.bottom - 0.7, text, family, MARGIN_TEXT_SIZE))
    elif marginal.kind == "ruler":
        items.extend(_ruler(box, marginal.vertical, RULER_LENGTH, "10 cm: check the scale", numbered=True,
                            label_below=marginal.label_below))
    elif marginal.kind == "bar":
        items.extend(_ruler(box, marginal.vertical, BAR_LENGTH, "50 mm", numbered=False))
    elif marginal.kind == "square":
        side = SQUARE_SIDE
        items.append(Rect(box.x, box.y, side, side, stroke="#000000", stroke_width=0.2))
        items.extend(_margin_text(box.x + side / 2, box.y + side / 2, "50 mm x 50 mm", "serif", 7, "middle"))
    return items


def _ruler(box: Box, vertical: bool, length: float, label: str, numbered: bool,
           label_below: bool = False) -> list[Primitive]:
    """A ruler ``length`` mm long with ``label`` after its end (or, ``label_below``, under its
    numbers), along x from ``box``'s left (or along y from its top). Numbered: millimetre ticks,
    longer every 5 and 10 mm, centimetres numbered. Otherwise a bar: ticks every 10 mm only, 3 mm deep."""
    items: list[Primitive] = []
    ink = "#000000"

    def seg(a0: float, d0: float, a1: float, d1: float, width: float) -> Line:
        # a: along the ruler, d: across it (depth from the ruler's edge line)
        if vertical:
            return Line(box.x + d0, box.y + a0, box.x + d1, box.y + a1, ink, width)
        return Line(box.x + a0, box.y + d0, box.x + a1, box.y + d1, ink, width)

    items.append(seg(0, 0, length, 0, 0.2))
    for mm in range(int(length) + 1):
        if numbered:
            tick = 2.6 if mm % 10 == 0 else (1.8 if mm % 5 == 0 else 1.0)
        elif mm % 10 == 0:
            tick = 2.6 if mm in (0, int(length)) else 1.4
        else:
            continue
        items.append(seg(mm, 0, mm, tick, 0.1))
    if numbered:
        for cm in range(0, int(length) // 10 + 1):
            if vertical:
                items.extend(_margin_text(box.x + 3.0, box.y + cm * 10 + 0.9, str(cm), "serif", 5.5))
            else:
                items.extend(_margin_text(box.x + cm * 10, box.y + 4.8, str(cm), "serif", 5.5, "middle"))
    if label_below and not vertical:
        items.extend(_margin_text(box.x + length / 2, box.y + RULER_DEPTH + 2.2, label, "serif", 6, "middle"))
    elif vertical:
        items.extend(_margin_text(box.x + 2.2, box.y + length + 2.0, label, "serif", 6, "end", rotation=90))
    else:
        items.extend(_margin_text(box.x + length + 2.0, box.y + 2.2, label, "serif", 6))
    return items


def sheet_overlay(layout: SheetLayout, marginal: Sequence[Marginal], texts: dict[str, str]) -> Drawing:
    """The crop marks, the cut guides in the bleed and the margin items of one page as a page-sized
    Drawing (page mm, no bleed).

    ``texts`` gives the line each text item (``"title"``, ``"page"``, ``"note"``) prints.
    """
    items: list[Primitive] = [Line(m.x1, m.y1, m.x2, m.y2, MARK_COLOUR, MARK_WIDTH_MM) for m in layout.crop_marks()]
    for guide in layout.bleed_guides():  # over the bleed art: a white halo keeps them visible on dark art
        items.append(Line(guide.x1, guide.y1, guide.x2, guide.y2, GUIDE_HALO_COLOUR, GUIDE_HALO_WIDTH_MM))
        items.append(Line(guide.x1, guide.y1, guide.x2, guide.y2, MARK_COLOUR, MARK_WIDTH_MM))
    for item in marginal:
        items.extend(_marginal_items(item, texts.get(item.kind, "")))
    return Drawing(layout.paper.width, layout.paper.height, 0.0, tuple(items), title="sheet marks")


CUT_LINE_WIDTH_MM = 0.1
CUT_LINE_COLOUR = "#808080"
"""Optional full cut lines: thin gray hairlines, light enough to vanish in the cut."""


def _cut_lines(layout: SheetLayout, chunk: Sequence[SheetCard | None]) -> Drawing:
    """Full-length cut lines over one fronts page (page mm): every horizontal cut line across the block
    with its bleed, and every vertical one row by row, except on the seams of boards printed joined."""
    xs, ys = layout.cut_lines()
    outer = layout.block_with_bleed
    items: list[Primitive] = [Line(outer.x, y, outer.right, y, CUT_LINE_COLOUR, CUT_LINE_WIDTH_MM) for y in ys]
    for row in range(layout.rows):
        top = outer.y if row == 0 else ys[row]
        bottom = outer.bottom if row == layout.rows - 1 else ys[row + 1]
        for index, x in enumerate(xs):
            left_slot = row * layout.columns + index - 1
            if 0 < index < layout.columns and left_slot < len(chunk):
                card = chunk[left_slot]
                if card is not None and card.joined_right:
                    continue
            items.append(Line(x, top, x, bottom, CUT_LINE_COLOUR, CUT_LINE_WIDTH_MM))
    return Drawing(layout.paper.width, layout.paper.height, 0.0, tuple(items), title="cut lines")


def write_sheets(path: Path, cards: Sequence[SheetCard | None], paper: Paper, *, game: str,
                 layout: SheetLayout | None = None, options: SheetOptions = SheetOptions(),
                 colour: Callable[[str], Color] = HexColor) -> SheetReport:
    """Impose ``cards`` on ``paper`` and write the PDF to ``path``.

    ``colour`` maps every ``"#rrggbb"`` to the colour the PDF writes (RGB by default; :mod:`pnp.inks`).

    Pages: for each group of up to ``layout.per_page`` cards (9 poker cards on A4 and Letter), a fronts
    page, then (when any card of the document has a back) its backs page, where each back sits behind
    its front for the ``options.duplex`` flip (columns mirrored for the long edge, rows for the short
    edge; see :func:`_page_plan` and :class:`SheetOptions`) and slots without a back stay empty.
    Cards must all have the layout's trim size. Every page has crop marks, a footer and the scale
    checks its margin holds (:func:`marginalia`); a page with empty slots also gets there the 50 mm
    square and 10 cm ruler its margin lacks (:func:`pnp.sheets.slot_marginalia`).
    A ``None`` in ``cards`` leaves its slot empty (used to start a board on a new sheet row).

    Raises ``ValueError`` if a card's trim size differs from the layout's, or when there are no cards.
    """
    if not any(card is not None for card in cards):
        raise ValueError("write_sheets needs at least one card")
    first = next(card for card in cards if card is not None).front
    layout = layout or impose(paper, first.width_mm, first.height_mm, first.bleed_mm)
    for card in cards:
        if card is None:
            continue
        for face in (card.front, card.back):
            if face is not None and (abs(face.width_mm - layout.card_width) > SAME_SIZE_MM
                                     or abs(face.height_mm - layout.card_height) > SAME_SIZE_MM):
                raise ValueError(f"card {face.id or face.title}: trim {face.width_mm} x {face.height_mm} mm differs "
                                 f"from the sheet's {layout.card_width} x {layout.card_height} mm")
    plan = _page_plan(cards, layout.per_page, options.duplex)
    note = options.note

    def width(text: str, family: str = "serif") -> float:
        return fonts.string_width_mm(text, family, MARGIN_TEXT_SIZE) + 1.0

    widest_page_line = max(width(_page_line(paper, side, len(plan), len(plan)) + " (no backs on this sheet)")
                           for side in ("fronts", "backs"))
    marginal = tuple(marginalia(layout, width(game), widest_page_line, width(note, "serif-italic")))
    canvas = new_canvas(path, paper.width, paper.height, f"{game} — print-and-play, {paper.name}")
    painter = Painter(canvas, paper.height, colour)
    block = layout.block
    bleed = layout.block_with_bleed
    height_pt = paper.height * PT_PER_MM
    carried: list[tuple[Marginal, ...]] = []
    for number, (side, chunk) in enumerate(plan, start=1):
        canvas.setTrimBox((block.x * PT_PER_MM, height_pt - block.bottom * PT_PER_MM,
                           block.right * PT_PER_MM, height_pt - block.y * PT_PER_MM))
        canvas.setBleedBox((bleed.x * PT_PER_MM, height_pt - bleed.bottom * PT_PER_MM,
                            bleed.right * PT_PER_MM, height_pt - bleed.y * PT_PER_MM))
        empty_behind = _empty_slots(layout, "backs", chunk, options.duplex) if side == "backs" else set()
        backs_at = {layout.back_slot(slot, options.duplex): card.back for slot, card in enumerate(chunk)
                    if card is not None and card.back is not None} if side == "backs" else {}
        for slot, card in enumerate(chunk):
            if card is None:
                continue
            if side == "fronts":
                trim, clip, face = layout.trim_box(slot), layout.clip_box(slot), card.front
            else:
                face = card.back
                trim = layout.back_box(slot, options.duplex, options.back_offset)
                same_back = {place for place, back in backs_at.items() if back is face or back == face}
                clip = layout.back_clip_box(slot, options.duplex, options.back_offset, options.back_extra_bleed,
                                            empty_behind | same_back)
            if face is None:
                continue
            painter.draw(face, trim.x, trim.y, clip=clip)
        if side == "fronts" and options.cut_lines:
            painter.draw(_cut_lines(layout, chunk), 0, 0, clip=Box(0, 0, paper.width, paper.height))
        page_line = _page_line(paper, side, number, len(plan))
        if side == "backs" and not any(card is not None and card.back is not None for card in chunk):
            page_line += " (no backs on this sheet)"
        texts = {"title": game, "page": page_line, "note": note}
        page_items = marginal + tuple(slot_marginalia(layout, _empty_slots(layout, side, chunk, options.duplex), marginal))
        carried.append(page_items)
        painter.draw(sheet_overlay(layout, page_items, texts), 0, 0, clip=Box(0, 0, paper.width, paper.height))
        canvas.showPage()
    canvas.save()
    return SheetReport(Path(path), len(plan), layout, marginal, tuple(carried))


def _empty_slots(layout: SheetLayout, side: str, chunk: Sequence[SheetCard | None], duplex: Duplex) -> set[int]:
    """The slots (reading order, as seen on this page) with no card on either side of the sheet: on a
    fronts page the slots without a card; on a backs page the positions behind them. A position behind
    a card printed without a back is NOT empty: whatever is drawn there lands on that card."""
    filled = {slot for slot, card in enumerate(chunk) if card is not None}
    if side == "backs":
        filled = {layout.back_slot(slot, duplex) for slot in filled}
    return set(range(layout.per_page)) - filled
