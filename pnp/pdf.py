"""PDF backend (ReportLab): draws Drawings on a canvas and writes imposed, duplex-ready card sheets.

This module only paints: it is the one place that writes points (:data:`pnp.units.PT_PER_MM`), and it
writes the PDF sheets whose every position is computed elsewhere: where each face goes on the fronts
and backs pages (:mod:`pnp.sheets`: cards butted on a grid, bleed kept only on the block's outer edges,
backs mirrored for the duplex flip) and the sheet's marks (:mod:`pnp.sheet_marks`: crop marks, cut
guides and cut lines, the footer and the scale checks in the margins).

Fonts are the bundled TTFs (:mod:`pnp.fonts`), embedded by ReportLab as subsets. Icons are vector
drawings: each ``templates/icons/<name>.svg`` is converted once by svglib and stored in the PDF once
as a Form XObject, then placed wherever it is used. Files are written in ReportLab's invariant mode
(no dates, fixed ids), so the same input gives byte-identical PDFs.
"""
from __future__ import annotations

import copy
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from reportlab.lib.colors import Color, HexColor
from reportlab.pdfgen.canvas import Canvas

from pnp import fonts
from pnp.drawing import Box, Circle, Drawing, Group, Icon, Line, Polyline, Primitive, Rect, TextLine, walk
from pnp.icon_files import icon_drawing
from pnp.inks import COLOUR_MODELS, recolour_rlg
from pnp.sheet_marks import NO_BACKS, cut_lines_overlay, page_line, sheet_marginalia, sheet_overlay
from pnp.sheets import ImpositionError, Marginal, Paper, SheetCard, SheetLayout, SheetOptions, empty_slots, page_plan, placements, slot_marginalia
from pnp.text import ICON_DIR
from pnp.units import PT_PER_MM, ROUNDING_SLACK, SAME_SIZE_MM


@cache
def _icon_drawing(name: str):
    """The svglib drawing of ``templates/icons/<name>.svg`` (parsed once per process)."""
    # an icon that is no SVG or holds more than drawing: IconFileError naming it (thirty-first breaker)
    drawing = copy.copy(icon_drawing(ICON_DIR / f"{name}.svg"))  # (its font set here, not on the shared drawing)
    # renderPDF starts each drawing in its default font (Helvetica, never embedded); icons have no
    # text, so start them in the bundled serif and keep the PDF free of unembedded fonts.
    drawing.initialFontName = fonts.register("serif")
    return drawing


@dataclass(frozen=True)
class IconForm:
    """An icon as the PDF stores it, once per document: the Form XObject of ``width`` x ``height`` (the units of its
    svglib drawing, the SVG's viewBox) holding ``content``, its PDF content stream (path, colour and graphics-state
    operators only: no name of a font, image or graphics-state resource, which another document would number
    differently)."""

    width: float
    height: float
    content: str


KEPT_FORMS: dict[tuple[str, str], IconForm] = {}
"""The icons' forms (by icon file path and colour model, :data:`pnp.inks.COLOUR_MODELS`) an earlier build of the same
files painted, kept with its layout (:mod:`pnp.check_cache`) and given here by :func:`keep_forms`: a document stores
them as they are, without ReportLab's graphics or svglib (whose imports were a tenth of a warm build, issue 14)."""


def keep_forms(forms: dict[tuple[str, str], IconForm]) -> None:
    """Take ``forms`` (:func:`icon_form` of icon files, by path and colour model, from the same bytes in an earlier
    process) as the forms :class:`Painter` stores for those icons."""
    KEPT_FORMS.clear()
    KEPT_FORMS.update(forms)


def icon_form(name: str, model: str) -> IconForm | None:
    """The form :class:`Painter` stores for the icon ``templates/icons/<name>.svg`` in the colour model ``model`` (a key
    of :data:`pnp.inks.COLOUR_MODELS`), painted by ReportLab's renderer into a scratch document, as a document paints
    it; ``None`` when its content names a resource (a font, an image, a transparency), which only the document it is
    painted in can number. Raises as :func:`pnp.icon_files.icon_drawing`; ``KeyError`` for an unknown model."""
    content = _paint_form(Canvas(None), "icon", name, COLOUR_MODELS[model])  # (a canvas never written)
    return None if "/" in content else IconForm(*_icon_size(name), content)


def _icon_size(name: str) -> tuple[float, float]:
    """The width and height of the icon ``name``'s svglib drawing (its form's size)."""
    drawing = _icon_drawing(name)
    return drawing.width, drawing.height


def _paint_form(canvas: Canvas, form: str, name: str, colour: Callable[[str], Color]) -> str:
    """Store the icon ``name`` on ``canvas``'s document as the Form XObject ``form``, painted from its svglib drawing
    (ReportLab's graphics) with its colours passed through ``colour``; return the operators painted (the form's content
    after the preamble every form of the canvas begins with)."""
    from reportlab.graphics import renderPDF  # (a warm build stores kept forms: KEPT_FORMS)

    drawing = _icon_drawing(name)
    if colour is not HexColor:
        drawing = recolour_rlg(drawing, colour)
    canvas.beginForm(form, 0, 0, drawing.width, drawing.height)
    renderPDF.draw(drawing, canvas, 0, 0)
    content = "\n".join(canvas._code)  # (what the form holds after the preamble: ReportLab's endForm)
    canvas.endForm()
    return content


_MODEL_NAMES: dict[Callable[[str], Color], str] = {function: name for name, function in COLOUR_MODELS.items()}


class Painter:
    """Draws :class:`~pnp.drawing.Drawing` objects on one ReportLab ``canvas`` of a page ``page_height_mm`` tall.

    Keeps track of which icons are already stored in the document as Form XObjects, and of the faces
    drawn as Form XObjects (``draw(..., shared=True)``). ``colour`` maps every ``"#rrggbb"`` (icons'
    colours too) to the ReportLab colour written: RGB by default, CMYK with :func:`pnp.inks.cmyk`;
    each colour is converted once a document.
    """

    def __init__(self, canvas: Canvas, page_height_mm: float, colour: Callable[[str], Color] = HexColor):
        self.canvas = canvas
        self.colour = colour
        self.page_height_mm = page_height_mm
        self._forms: set[str] = set()
        self._colours: dict[str, Color] = {}
        self._faces: dict[int, tuple[str, Drawing]] = {}  # id of a shared Drawing: its form's name, and the Drawing (kept alive)
        # The fill and stroke colour ("#rrggbb") and line width (pt) in force while a drawing is painted,
        # None when not known, and those of the enclosing saved graphics states (see _save).
        self._pen: tuple[str | None, str | None, float | None] = (None, None, None)
        self._pens: list[tuple[str | None, str | None, float | None]] = []

    def _save(self) -> None:
        """``saveState`` (PDF ``q``), remembering the colours and line width in force with it."""
        self.canvas.saveState()
        self._pens.append(self._pen)

    def _restore(self) -> None:
        """``restoreState`` (PDF ``Q``): the colours and line width of the matching :meth:`_save` are in force again."""
        self.canvas.restoreState()
        self._pen = self._pens.pop()

    def _fill(self, fill: str) -> None:
        """Make ``fill`` the fill colour, unless it already is (within this drawing)."""
        if fill != self._pen[0]:
            self.canvas.setFillColor(self._colour(fill))
            self._pen = (fill, self._pen[1], self._pen[2])

    def _colour(self, value: str) -> Color:
        """``self.colour(value)``, converted once (a sheet sets some colours thousands of times)."""
        found = self._colours.get(value)
        if found is None:
            found = self._colours[value] = self.colour(value)
        return found

    # -- icons ---------------------------------------------------------------------------------
    def _form(self, name: str) -> str:
        form = f"icon-{name}"
        if name not in self._forms:
            kept = self._kept(name)
            if kept is not None:
                self.canvas.beginForm(form, 0, 0, kept.width, kept.height)
                self.canvas.addLiteral(kept.content)
                self.canvas.endForm()
            else:
                _paint_form(self.canvas, form, name, self.colour)
            self._forms.add(name)
        return form

    def _kept(self, name: str) -> IconForm | None:
        """The form kept for the icon ``name`` in this painter's colour model (:data:`KEPT_FORMS`), or ``None``."""
        return KEPT_FORMS.get((str(ICON_DIR / f"{name}.svg"), _MODEL_NAMES.get(self.colour, "")))

    def _icon_size(self, name: str) -> tuple[float, float]:
        """The width and height of the icon's form (:meth:`_form`)."""
        kept = self._kept(name)
        return (kept.width, kept.height) if kept is not None else _icon_size(name)

    # -- drawings ------------------------------------------------------------------------------
    def draw(self, drawing: Drawing, x_mm: float, y_mm: float, clip: Box | None = None, shared: bool = False) -> None:
        """Draw ``drawing`` with its trim top-left at page ``(x_mm, y_mm)`` (mm from the page's top-left).

        ``clip`` (page mm) limits what is visible; by default the drawing's own bleed box. ``shared``:
        the drawing is painted once into a Form XObject of the document (:meth:`_face_form`) and each
        ``draw`` of the same Drawing object places that form, for a face printed many times (a card
        back); what prints is the same as painting it each time.
        """
        c = self.canvas
        self._save()
        self._pen = (None, None, None)  # whatever came before this drawing: set every colour it uses
        if clip is None:
            bleed = drawing.bleed_box
            clip = Box(x_mm + bleed.x, y_mm + bleed.y, bleed.width, bleed.height)
        # The current origin is the page's bottom-left corner: convert the clip from page mm (y down).
        path = c.beginPath()
        path.rect(clip.x * PT_PER_MM, (self.page_height_mm - clip.bottom) * PT_PER_MM,
                  clip.width * PT_PER_MM, clip.height * PT_PER_MM)
        c.clipPath(path, stroke=0, fill=0)
        c.translate(x_mm * PT_PER_MM, (self.page_height_mm - y_mm) * PT_PER_MM)
        if shared:
            c.doForm(self._face_form(drawing))
        else:
            self._items(drawing.items)
        self._restore()

    def _face_form(self, drawing: Drawing) -> str:
        """The name of the Form XObject holding ``drawing``'s items, painted on first use.

        The form's coordinates are those :meth:`draw` paints the items in (origin at the trim's top
        left, y up, points), and a form inherits the graphics state where it is placed, as painted
        items do, so a placed form prints as the items would. Its bounding box is the drawing's bleed
        box grown by :data:`FORM_MARGIN_MM` on every side: never smaller than a clip :meth:`draw` is given.
        """
        known = self._faces.get(id(drawing))
        if known is not None:
            return known[0]
        name = f"face-{len(self._faces) + 1}"
        for item in walk(drawing.items):  # icons' forms first: a form is not begun inside another
            if isinstance(item, Icon):
                self._form(item.name)
        box, k = drawing.bleed_box, PT_PER_MM
        self.canvas.beginForm(name, (box.x - FORM_MARGIN_MM) * k, -(box.bottom + FORM_MARGIN_MM) * k,
                              (box.right + FORM_MARGIN_MM) * k, -(box.y - FORM_MARGIN_MM) * k)
        outside, self._pen = self._pen, (None, None, None)  # a form starts in the state of wherever it is placed
        self._items(drawing.items)
        self._pen = outside
        self.canvas.endForm()
        self._faces[id(drawing)] = (name, drawing)
        return name

    def _clip(self, box: Box) -> None:
        """Clip to ``box`` given in mm relative to the current origin (a Drawing's trim corner), y down."""
        c = self.canvas
        path = c.beginPath()
        path.rect(box.x * PT_PER_MM, -(box.y + box.height) * PT_PER_MM, box.width * PT_PER_MM, box.height * PT_PER_MM)
        c.clipPath(path, stroke=0, fill=0)

    def _items(self, items: tuple[Primitive, ...]) -> None:
        index = 0
        count = len(items)
        while index < count:
            if isinstance(items[index], TextLine) and index + 1 < count and isinstance(items[index + 1], TextLine):
                run = _text_run(items, index)
                if len(run) > 1:
                    self._text_runs(run)
                    index += len(run)
                    continue
            self._item(items[index])
            index += 1

    def _text_runs(self, run: list[TextLine]) -> None:
        """Start-anchored runs of one line (font fallback, lining digits) as one PDF text object, so
        a PDF reader extracts and searches the line as one string ("page 1/4", not "page", "1", "/4")."""
        k = PT_PER_MM
        text = self.canvas.beginText()
        for item in run:
            text.setFont(fonts.register(item.family), item.size)
            if item.fill != self._pen[0]:  # a colour set inside a text object stays after it
                text.setFillColor(self._colour(item.fill))
                self._pen = (item.fill, self._pen[1], self._pen[2])
            text.setTextOrigin(item.x * k, -item.y * k)
            text.textOut(item.text)
        self.canvas.drawText(text)

    def _stroke_fill(self, fill: str | None, stroke: str | None, stroke_width: float) -> tuple[int, int]:
        """Set the fill colour, stroke colour and line width (mm) a shape is painted with, each only
        when it is not in force already (a hatch's 90 lines set theirs once); returns ReportLab's
        ``(stroke, fill)`` flags."""
        if fill is not None:
            self._fill(fill)
        if stroke is not None:
            c = self.canvas
            current_fill, current_stroke, current_width = self._pen
            if stroke != current_stroke:
                c.setStrokeColor(self._colour(stroke))
                current_stroke = stroke
            width = stroke_width * PT_PER_MM
            if width != current_width:
                c.setLineWidth(width)
                current_width = width
            self._pen = (current_fill, current_stroke, current_width)
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
            self._fill(item.fill)
            x, y = item.x * k, -item.y * k
            draw = {"start": c.drawString, "middle": c.drawCentredString, "end": c.drawRightString}[item.anchor]
            if item.rotation:
                self._save()
                c.translate(x, y)
                c.rotate(item.rotation)
                draw(0, 0, item.text)
                self._restore()
            else:
                draw(x, y, item.text)
        elif isinstance(item, Icon):
            form = self._form(item.name)
            width, height = self._icon_size(item.name)
            self._save()
            c.translate(item.x * k, -(item.y + item.size) * k)
            c.scale(item.size * k / width, item.size * k / height)
            c.doForm(form)
            self._restore()
        elif isinstance(item, Group):
            self._save()
            if item.clip is not None:
                self._clip(item.clip)
            c.translate(item.dx * k, -item.dy * k)
            if item.rotation:
                c.rotate(item.rotation)
            self._items(item.items)
            self._restore()
        else:
            raise TypeError(f"cannot draw {type(item).__name__} in a PDF")


FORM_MARGIN_MM = 1000.0
"""How far (mm) a shared face's Form XObject reaches past the face's bleed box on every side
(:meth:`Painter._face_form`): a form shows nothing outside its box, and a sheet clips each face to
its slot, which reaches at most the back's extra bleed past the bleed box; a metre is room to spare."""


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


SCALE_PAGE = "scale checks (no cards)"
"""The page line's end on the page a deck gets for its 50 mm square and 10 cm ruler when no page has room."""


def _offset_refused(layout: SheetLayout, paper: Paper, game: str, pages: int, note: str, offset: tuple[float, float]) -> str:
    """Why the backs' ``offset`` (mm) cannot be imposed: the margin left clear of the backs so shifted holds no title or
    page line on ``paper``; with the largest shift that leaves room (searched in tenths of a mm)."""
    room = 0.0
    while room < 20.0:
        try:
            sheet_marginalia(layout, paper, game, pages, note, room + 0.1)
        except ImpositionError:
            break
        room = round(room + 0.1, 1)
    most = room + layout.bleed + layout.mark_gap
    return (f"--back-offset {offset[0]:g},{offset[1]:g} shifts the backs into the margin that holds the page's title and page "
            f"line on {paper.name} (they are kept clear of every back's trim): at most {most:.1f} mm either way fits with this "
            f"paper, card size and bleed; measure the printer's shift again with `pnp calibrate` (it reads up to 2 mm)")


def margin_spill(layout: SheetLayout, offset: tuple[float, float]) -> float:
    """How much further (mm) than the bleed and the marks' gap, where the margin items start, the backs shifted by
    ``offset`` reach: what the margin items keep clear besides (forty-eighth pnp breaker, HIGH 4); 0 for a small offset."""
    return max(0.0, max(abs(part) for part in offset) - layout.bleed - layout.mark_gap)


def back_offset_problem(layout: SheetLayout, paper: Paper, game: str, offset: tuple[float, float]) -> str | None:
    """Why the backs' ``offset`` (mm, ``pnp build --back-offset``) cannot be imposed on ``paper`` with ``layout`` (the
    margin kept clear of the shifted backs holds no title ``game`` or page line: :func:`write_sheets` would refuse it), or
    ``None``. ``pnp build`` asks it before anything is written."""
    shifted = margin_spill(layout, offset)
    if not shifted:
        return None
    try:
        sheet_marginalia(layout, paper, game, 999, "", shifted)
    except ImpositionError:
        return _offset_refused(layout, paper, game, 999, "", offset)
    return None


def write_sheets(path: Path, cards: Sequence[SheetCard | None], *, layout: SheetLayout, options: SheetOptions,
                 game: str, colour: Callable[[str], Color] = HexColor) -> SheetReport:
    """Impose ``cards`` on the grid ``layout`` (its paper, card size, bleed, marks and printer margin:
    :func:`pnp.build.sheet_layout` from the ``[print]`` settings) and write the PDF to ``path``.

    ``colour`` maps every ``"#rrggbb"`` to the colour the PDF writes (RGB by default; :mod:`pnp.inks`).

    Pages: for each group of up to ``layout.per_page`` cards (9 poker cards on A4 and Letter), a fronts
    page, then (when any card of the document has a back) its backs page, where each back sits behind
    its front for the ``options.duplex`` flip (columns mirrored for the long edge, rows for the short
    edge; see :func:`pnp.sheets.page_plan` and :class:`~pnp.sheets.SheetOptions`) and slots without a back stay empty.
    Cards must all have the layout's trim size. Every page has crop marks, a footer and the scale
    checks its margin holds (:func:`pnp.sheets.marginalia`); a page with empty slots also gets there the 50 mm
    square and 10 cm ruler its margin lacks (:func:`pnp.sheets.slot_marginalia`).
    A ``None`` in ``cards`` leaves its slot empty (used to start a board on a new sheet row).

    Raises ``ValueError`` if a card's trim size differs from the layout's, or when there are no cards.
    """
    if not any(card is not None for card in cards):
        raise ValueError("write_sheets needs at least one card")
    paper = layout.paper
    for card in cards:
        if card is None:
            continue
        for face in (card.front, card.back):
            if face is not None and (abs(face.width_mm - layout.card_width) > SAME_SIZE_MM
                                     or abs(face.height_mm - layout.card_height) > SAME_SIZE_MM):
                raise ValueError(f"card {face.id or face.title}: trim {face.width_mm} x {face.height_mm} mm differs "
                                 f"from the sheet's {layout.card_width} x {layout.card_height} mm")
    plan = page_plan(cards, layout.per_page, options.duplex)
    # A face placed more than once (a back behind every card of its deck) is painted once, as a form.
    uses = Counter(id(placement.face) for side, chunk in plan for placement in placements(layout, side, chunk, options))
    note = options.note

    def aids_of(marginal: tuple[Marginal, ...]) -> list[tuple[Marginal, ...]]:
        # a back spreads its extra bleed, and the printer's shift the offset corrects, into an empty slot beside it
        spill = options.back_extra_bleed + max(abs(offset) for offset in options.back_offset)
        return [marginal + tuple(slot_marginalia(layout, empty_slots(layout, side, chunk, options.duplex), marginal,
                                                 spill if side == "backs" else 0.0))
                for side, chunk in plan]

    # every page's margin items keep clear of the trim of the backs as shifted (forty-eighth pnp breaker, HIGH 4)
    shifted = margin_spill(layout, options.back_offset) if any(side == "backs" for side, _ in plan) else 0.0
    try:
        marginal = sheet_marginalia(layout, paper, game, len(plan), note, shifted)
    except ImpositionError:
        if not shifted:
            raise
        raise ImpositionError(_offset_refused(layout, paper, game, len(plan), note, options.back_offset)) from None
    aids = aids_of(marginal)
    # A deck whose last page is full has no empty slot for the 50 mm square and the 10 cm ruler its margins
    # lack (README, Printing: the last page of each deck carries them): they get a page of their own
    # (fourteenth breaker: three copies of one card left a deck without them).
    scale_page = not {"square", "ruler"} <= {item.kind for items in aids for item in items}
    pages = len(plan) + scale_page
    if scale_page:
        marginal = sheet_marginalia(layout, paper, game, pages, note, shifted)  # room for the longer page count
        aids = aids_of(marginal)
    canvas = new_canvas(path, paper.width, paper.height, f"{game} — print-and-play, {paper.name}")
    painter = Painter(canvas, paper.height, colour)
    block = layout.block
    bleed = layout.block_with_bleed
    page = Box(0, 0, paper.width, paper.height)
    height_pt = paper.height * PT_PER_MM
    carried: list[tuple[Marginal, ...]] = []
    for number, (side, chunk) in enumerate(plan, start=1):
        canvas.setTrimBox((block.x * PT_PER_MM, height_pt - block.bottom * PT_PER_MM,
                           block.right * PT_PER_MM, height_pt - block.y * PT_PER_MM))
        canvas.setBleedBox((bleed.x * PT_PER_MM, height_pt - bleed.bottom * PT_PER_MM,
                            bleed.right * PT_PER_MM, height_pt - bleed.y * PT_PER_MM))
        for placement in placements(layout, side, chunk, options):
            painter.draw(placement.face, placement.trim.x, placement.trim.y, clip=placement.clip,
                         shared=uses[id(placement.face)] > 1)
        if side == "fronts" and options.cut_lines:
            painter.draw(cut_lines_overlay(layout, chunk), 0, 0, clip=page)
        line = page_line(paper, side, number, pages)
        if side == "backs" and not any(card is not None and card.back is not None for card in chunk):
            line += NO_BACKS
        texts = {"title": game, "page": line, "note": note}
        page_items = aids[number - 1]
        carried.append(page_items)
        painter.draw(sheet_overlay(layout, page_items, texts, guides=side == "fronts"), 0, 0, clip=page)
        canvas.showPage()
    if scale_page:
        page_items = marginal + tuple(slot_marginalia(layout, set(range(layout.per_page)), marginal))
        carried.append(page_items)
        texts = {"title": game, "page": f"{paper.name} · page {pages}/{pages} · {SCALE_PAGE}", "note": note}
        painter.draw(sheet_overlay(layout, page_items, texts), 0, 0, clip=page)
        canvas.showPage()
    canvas.save()
    return SheetReport(Path(path), pages, layout, marginal, tuple(carried))

