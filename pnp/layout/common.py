"""Shared pieces of every card layout: the card builder that collects primitives and text-fit
problems, and the look shared by both games (parchment, engraved frames, title bands, footers).

Every measurement here is in mm on the card's trim box (y down); sizes of text in pt. Numbers a
designer may want to change live in ``templates/base.toml`` and the per-kind templates; what stays
here is geometry (halves, the hatch's 45 degree angle) and unit conversion.
"""
from __future__ import annotations

import dataclasses
import math
import re
from collections.abc import Callable
from dataclasses import dataclass, field

from pnp import fonts
from pnp.drawing import Anchor, Box, Circle, Drawing, Group, Icon, Line, Polygon, Primitive, Rect, TextLine
from pnp.layout.icon_ink import icon_ink
from pnp.layout.problems import FitProblem
from pnp.layout.template import MIN_TEXT_PT, BoxSpec, Template, changed_number, changed_numbers, template_line
from pnp.layout.traced import slopes
from pnp.oneline import quoted, shortened, template_value
from pnp.text import (
    INLINE_ICONS,
    Align,
    FitResult,
    VAlign,
    block_height,
    fit_text,
    icon_meant,
    icon_path_advice,
    icon_paths,
    ink_boxes,
    line_clash,
    lookalike_icon_advice,
    lookalike_icons,
    mark_breaks,
    single_line,
    text_width_mm,
    unclosed_icons,
    unknown_icons,
    written_spans,
)
from pnp.units import FONT_METRIC_SLACK_MM, LAID_OUT_SAFE_MM, MM_PER_PT, ROUNDING_SLACK, SAME_SIZE_MM, excess_mm

ICON_INK = 0.15
"""The share of an icon's square box, each side, that its ink leaves empty (the bundled icons are drawn
inside their viewBox with a margin): the checks take an icon's ink as its box shrunk so much each side."""

LINE_SPACING_STEP = 0.01
"""The step (em) of the ``line_spacing`` a line-clash problem advises (the least that clears, in this step)."""
LINE_SPACING_TRIES = 20
"""How many spacings, at most, a line-clash problem fits the text at to find the least that clears (only when a
problem is reported: a build that passes never pays it)."""

WHITE = "#ffffff"
"""Mixing a colour with white (:func:`tint`) lightens it; the amount is the template's."""
BLACK = "#000000"
"""Mixing a colour with black (:func:`tint`) darkens it; the amount is the template's."""

CAP_HEIGHT_EM = 0.66
"""Cap height of the bundled fonts as a fraction of the text size: centres numbers on their disc or box."""


def cap_height_mm(size: float) -> float:
    """The cap height in mm of text ``size`` pt (see :data:`CAP_HEIGHT_EM`)."""
    return size * MM_PER_PT * CAP_HEIGHT_EM


def safe_area_factor(width: float, height: float, safe_mm: float) -> float:
    """The factor a face (or a whole board) of ``width`` x ``height`` mm is shrunk by about its centre for a
    safe area of ``safe_mm`` (:func:`pnp.layout.within_safe_area`): 1 up to the templates' own
    :data:`~pnp.units.LAID_OUT_SAFE_MM`; beyond it the factor that brings a line that far from the trim to
    ``safe_mm`` from it on the tighter axis (a poker card at 5 mm: 53/57). Never 0 or below: a safe area
    that leaves no room gives 1, and the safe-area check names every face."""
    if safe_mm <= LAID_OUT_SAFE_MM + ROUNDING_SLACK:
        return 1.0
    factor = min((width - 2 * safe_mm) / (width - 2 * LAID_OUT_SAFE_MM), (height - 2 * safe_mm) / (height - 2 * LAID_OUT_SAFE_MM))
    return factor if factor > 0 else 1.0


def ring_fix(template: Template, disc: Circle, excess: float) -> tuple[str, str] | None:
    """The ``[numbers]`` key of ``disc``'s ring (:attr:`pnp.drawing.Circle.grown_by`: its room around the icon, its
    line's width) that grew the disc by ``excess`` mm too much, and the value that takes it back (``at most 2.8``,
    rounded down to 0.1 mm); ``None`` when the ring did not grow it (the disc was moved, or its icon is too big: said at
    those keys). A room counts as grown when it is more than :data:`RING_GROWN` of the icon's size, a line when it is as
    wide as the room and more than :data:`RING_LINE_GROWN` of the icon's size (twenty-sixth breaker:
    ``title_icon_ring = 3``, ``emblem_ring = 12``, ``emblem_rule_width = 3`` passed check); and only when making it
    smaller (a room never below 0) takes back all of ``excess``. When the one number the designer changed
    (:func:`pnp.layout.template.changed_number`) is the room or the line, that key is the one grown, however little
    (twenty-ninth breaker, finding 4: `emblem_ring = 3.5`, shipped 3, was blamed on `rule_y`)."""
    keys = [key for key in disc.grown_by if key]
    width = next((key for key in keys if key.endswith("width")), None)
    room = next((key for key in keys if not key.endswith("width")), None)
    room_mm = template.number(room) if room else 0.0
    icon = 2 * (disc.r - room_mm)  # the icon's size, mm: the disc's radius less its room, twice
    changed = changed_number(template.path) if keys else None
    changed_key = changed[0] if changed is not None and changed[0] in keys else None
    if width and (changed_key == width or changed_key is None and template.number(width) >= room_mm
                  and template.number(width) > RING_LINE_GROWN * icon) and template.number(width) >= 2 * excess:
        return width, f"at most {math.floor((template.number(width) - 2 * excess) * 10 + 1e-6) / 10:g}"
    if room and (changed_key == room or changed_key is None and room_mm > RING_GROWN * icon) and room_mm >= excess:
        return room, f"at most {max(0.0, math.floor((room_mm - excess) * 10 + 1e-6) / 10):g}"
    return None


def ring_line_grown(template: Template, disc: Circle) -> str | None:
    """The ``[numbers]`` key of ``disc``'s line width (:attr:`pnp.drawing.Circle.grown_by`) when that line has grown: it
    is as wide as the ring's room around the icon and wider than :data:`RING_LINE_GROWN` of the icon's size (as
    :func:`ring_fix` judges it); else ``None``. A line so grown covers the icon too: the icon's check names this key,
    not the icon's scale (twenty-seventh breaker, finding 11: `title_icon_rule_width = 3` also blamed
    `title_icon_scale`)."""
    keys = [key for key in disc.grown_by if key]
    width = next((key for key in keys if key.endswith("width")), None)
    room = next((key for key in keys if not key.endswith("width")), None)
    if width is None:
        return None
    room_mm = template.number(room) if room else 0.0
    icon = 2 * (disc.r - room_mm)
    line = template.number(width)
    return width if line >= room_mm and line > RING_LINE_GROWN * icon else None


LINES_APART_MM = 0.2
"""The room (mm) kept between the inks of two lines that must print as two (a double frame's outer and inner lines),
the overlap checks' slack: lines closer than this print as one band (thirtieth breaker, finding 9: back `line_width`
advised "at most 2.2" left the inks edge to edge, and the double frame printed as one band)."""


NUMBER_IN_DISC_GAP_MM = 0.2
"""Room (mm) a disc's number keeps from the disc's edge (:meth:`CardBuilder.keep_number_in_disc`), so it reads as a number
in a disc, not digits touching a ring."""

TEXT_INK_GAP_MM = 0.1
"""The room (mm) a thick stroke's ink keeps from the letters' own ink (each glyph's outline box): closer, the two print as
touching (twenty-ninth breaker: at the advised `hp_first_rule_width = 1.8` the "w" of "Yellow" met the start space's
outline, for the ink was judged against the font's advance box, shrunk by the slack). The layouts that slide a text near
a line keep it (the hexes' names, :func:`pnp.layout.solo.battle_map`); :mod:`pnp.layout.legible` checks it."""

RING_GROWN = 0.15
"""A ring's room around its icon larger than this share of the icon's size has grown the disc (the bundled rooms are
5 to 12 % of their icons)."""

RING_LINE_GROWN = 0.05
"""A ring's line wider than this share of its icon's size (and than the ring's room) has grown the disc (the bundled
lines are 2 to 4 %)."""


ORNAMENT_KEYS = frozenset({"ornament_rule_width", "ornament_gap", "ornament_diamond_h", "rule_left", "rule_right"})
"""The ``[numbers]`` keys of the ornament rule's own shape and ends (:func:`ornament_rule`): a fault they make by
running the rule into a disc is said at them, not at where the rule runs (:meth:`CardBuilder._ornament_fix`)."""


def frame_inside(template: Template, width: float, height: float) -> Box:
    """The inside (card mm) of the card frame's inner rule that :func:`frame` draws for ``template`` on a card of
    ``width`` x ``height`` mm, less :data:`LINES_APART_MM` from the rule's ink: what a disc on a card front must stay
    inside (twenty-sixth breaker), its ring printing as a line of its own beside the rule (thirty-first breaker, finding
    9: the back's emblem advised onto the inner line's ink read as one line with it)."""
    inset = (template.number("border") + template.number("frame_inner_inset") + template.number("frame_inner_rule_width") / 2
             + LINES_APART_MM)
    return Box(inset, inset, width - 2 * inset, height - 2 * inset)


@dataclass
class CardBuilder:
    """Collects the primitives of one Drawing (a card or a board) and the text boxes that overflow.

    ``record_id`` names the record in problem reports; ``width`` x ``height`` is the trim size in mm
    (a board's whole size for boards); ``bleed`` is the print setting in mm. The safe area is checked
    on the finished faces (:mod:`pnp.layout.safe`), not here.
    """

    record_id: str
    template: Template
    width: float
    height: float
    bleed: float
    items: list[Primitive] = field(default_factory=list)
    problems: list[FitProblem] = field(default_factory=list)

    def add(self, *items: Primitive) -> None:
        """Paint ``items`` on top of what is there; a rectangle whose corner radius is more than half its smaller side
        is said at its radius key (:meth:`_check_radius`)."""
        for item in items:
            if isinstance(item, Rect) and item.radius > 0:
                self._check_radius(item)
        self.items.extend(items)

    def _check_radius(self, rect: Rect) -> None:
        """A ``"template"`` problem at the ``[numbers]`` key ending in ``radius`` whose value is ``rect``'s corner radius
        when that radius is more than half the rectangle's smaller side (mm): the corners' arcs cross and the shape
        drawn is not the rectangle the checks measure (twenty-seventh breaker, finding 7: `frame_radius = 40` made every
        front's panel an oval, `inner_line_radius = 30` a bow-tie, `portrait_radius = 12` a circle with stubs, and check
        passed). Says the largest radius that draws right (rounded down to 0.1 mm); ``over`` is the excess, so that the
        smallest shape's limit is the one said (:func:`pnp.layout.check_fit`)."""
        half = min(rect.width, rect.height) / 2
        if rect.radius <= half + ROUNDING_SLACK:
            return
        key = next((name for name, value in self.template.numbers.items()
                    if name.endswith("radius") and abs(value - rect.radius) <= ROUNDING_SLACK), None)
        if key is None:
            return
        changed = changed_number(self.template.path)
        if changed is not None and not changed[0].endswith("radius"):
            # the one number the designer changed made the rectangle too small for a radius as shipped: said at that
            # number, never at a radius in a file not edited (thirty-eighth pnp breaker, LOW 4: `key_head_h = 0.5` was
            # also blamed on base.toml's `space_radius`); the number's own checks, if any, say the bound that holds
            shipped = f" ({changed[1]:g} as shipped)" if isinstance(changed[1], (int, float)) else ""
            self.problems.append(self.at_number(changed[0], f"it leaves {rect.named or 'a rounded rectangle'} "
                                                            f"{2 * half:.1f} mm across, less than twice its corner radius "
                                                            f"({key} = {rect.radius:g} mm), a broken shape: set "
                                                            f"{changed[0]} nearer its shipped value{shipped}", rect.radius - half))
            return
        most = max(0.0, math.floor(half * 10 + 1e-6) / 10)
        self.problems.append(self.at_number(key, f"{rect.radius:g} mm is more than half the smaller side of {rect.named or 'the rectangle it rounds'} "
                                                 f"({2 * half:.1f} mm): its corner radius draws a broken shape; set {key} "
                                                 f"to at most {most:g}", rect.radius - half))

    def keep_frame_lines_apart(self, outer: Rect, inner: Rect, outer_key: str, inner_key: str, gap_key: str) -> None:
        """A ``"template"`` problem when the ink of the frame line ``outer`` and that of ``inner``, drawn ``gap_key`` mm
        inside it (card mm; their widths the ``[numbers]`` ``outer_key`` and ``inner_key``), meet: one line covers the
        other and the double frame prints as one band (twenty-ninth breaker, finding 6: the back's `inner_line_width =
        10` covered the outer line and ran 1.2 mm from the trim, the front's `frame_rule_width = 2` swallowed the inner
        rule and its corner diamonds, and check passed). Said at the one of the three numbers the designer changed
        (:func:`pnp.layout.template.changed_number`), else at the wider line's key, with the value that just keeps the
        inks apart (a tenth of a mm further, they meet)."""
        gap = inner.x - outer.x - LINES_APART_MM  # the room left between the inks must show (thirtieth breaker, finding 9)
        half_outer, half_inner = outer.stroke_width / 2, inner.stroke_width / 2
        if gap - half_outer - half_inner >= -1e-9:
            return
        changed = changed_number(self.template.path)
        name = changed[0] if changed is not None and changed[0] in (outer_key, inner_key, gap_key) else \
            outer_key if outer.stroke_width >= inner.stroke_width else inner_key
        if name == gap_key:
            fits = f"at least {math.ceil((half_outer + half_inner + LINES_APART_MM) * 10 - 1e-6) / 10:g}"
        else:
            other = half_inner if name == outer_key else half_outer
            fits = f"at most {max(0.0, math.floor(2 * (gap - other) * 10 + 1e-6) / 10):g}"
        self.problems.append(self.at_number(name, f"{outer.named or 'the outer line'} ({outer_key} {outer.stroke_width:g} mm) "
                                                  f"and {inner.named or 'the inner line'} ({inner_key} {inner.stroke_width:g} "
                                                  f"mm, {inner.x - outer.x:g} mm further in) run into each other, so the "
                                                  f"double frame prints as one band (they must stay {LINES_APART_MM:g} mm "
                                                  f"apart): set {name} to {fits}",
                                            half_outer + half_inner - gap))

    def keep_rounded_rules_apart(self, outer: Rect, inner: Rect, outer_key: str, inner_key: str, gap_key: str) -> None:
        """A ``"template"`` problem when the rounded corners of the rule ``outer`` cross the rule ``inner`` drawn ``gap_key``
        mm inside it (card mm; the radii are the ``[numbers]`` ``outer_key`` and ``inner_key``): an outer corner rounder
        than the inner one by more than the gap cuts through the inner rule's corner, and the rounded outline runs through
        what lies inside (twenty-eighth breaker, finding 2: `frame_radius = 28` and back `line_radius = 26.5`, the maximum
        advised for half a side, passed and drew the outer rule through texts and across the square inner rule). The
        inner corner arc's farthest ink from the outer arc's centre must stay :data:`LINES_APART_MM` inside the outer
        rule's ink, as the straight sides do (thirty-first breaker, finding 8: at the advised back `line_radius = 4.6` the
        two inks were 0.02 mm apart along the corner's diagonal and printed as one band): said at the
        one of the three numbers the designer changed (:func:`pnp.layout.template.changed_number`), else at
        ``outer_key``, with the value that just fits."""
        big, small, gap = outer.radius, inner.radius, inner.x - outer.x
        # the inks keep LINES_APART_MM between them at the corners too, as on the sides (keep_frame_lines_apart;
        # thirty-first breaker, finding 8: `line_radius` advised "at most 4.6" left them 0.02 mm apart at the corners)
        half = (outer.stroke_width + inner.stroke_width) / 2 + LINES_APART_MM
        root = math.sqrt(2)
        if math.sqrt(2) * (big - gap - small) + small <= big - half + ROUNDING_SLACK or big - gap - small <= 0:
            return
        changed = changed_number(self.template.path)
        name = changed[0] if changed is not None and changed[0] in (inner_key, gap_key) else outer_key
        if name == inner_key:
            fits = f"at least {math.ceil((root * (big - gap) - big + half) / (root - 1) * 10 - 1e-6) / 10:g}"
        elif name == gap_key:
            fits = f"at least {math.ceil((big - small - (big - half - small) / root) * 10 - 1e-6) / 10:g}"
        else:
            fits = f"at most {max(0.0, math.floor((root * (gap + small) - small - half) / (root - 1) * 10 + 1e-6) / 10):g}"
        if name == outer_key:  # this limit is the smaller: "at most half the side" would be refused next
            self.problems = [problem for problem in self.problems if problem.field != f"numbers.{outer_key}"]
        self.problems.append(self.at_number(name, f"the rounded corners of {outer.named or 'the outer rule'} ({outer_key} "
                                                  f"{big:g} mm) cross {inner.named or 'the inner rule'} ({inner_key} {small:g} "
                                                  f"mm, {gap:g} mm further in) or come within {LINES_APART_MM:g} mm of it, so the "
                                                  f"double frame prints as one band at the corners: set {name} to {fits}"))

    def check(self, field_name: str, text: str, family: str, record: str | None = None) -> None:
        """Record the problems of ``text`` set in ``family`` before it is drawn: ``:name:`` tokens that
        are no icon (they would print as text) and characters no bundled font has (they would print
        as a missing-glyph box), each as a :class:`FitProblem` of ``field_name``; ``record`` is the id
        of the record holding the text (by default this card's).

        An icon token that a template's ``[strings]`` wrote into ``text`` (:func:`pnp.text.written_spans`: a card's text
        filled into `spell_text`, a roll joined by `roll_separator`) is no problem of the card: it is said once, at the
        string's own line, by :func:`pnp.layout.template.string_problems` (thirty-ninth pnp breaker, MED 7: one typo in
        `spell_text` was also said at the `text` of each of 20 spells); a token of the card's own words still is."""
        where = record or self.record_id
        written = self._written(text, record)
        spans = written_spans(text)
        for name in unknown_icons(text, spans):
            meant = icon_meant(name)
            hint = f"did you mean :{meant}:?" if meant else f"icons are: {', '.join(sorted(INLINE_ICONS))}"
            if written is not None:  # the template's own words: said at their line there (seventeenth breaker)
                self.problems.append(self._at_string(written, f"unknown icon :{name}:; {hint}"))
                continue
            self.problems.append(FitProblem(where, field_name, "unknown icon", f"unknown icon :{name}:; {hint}"))
        for said in [icon_path_advice(token) for token in icon_paths(text, spans)] + [
                f"the icon :{name} has no closing colon, so it prints as text; write :{name}:" for name in unclosed_icons(text, spans)] + [
                lookalike_icon_advice(token, meant) for token, meant in lookalike_icons(text, spans)]:
            if written is not None:
                self.problems.append(self._at_string(written, said))
                continue
            self.problems.append(FitProblem(where, field_name, "unknown icon", said))
        template_words = "".join(self.template.strings.values())
        # a template string's character is said once at that string (twenty-first breaker: blamed on each card); a
        # text's characters in one line (twenty-second breaker: one line a character, 8 for one Japanese sentence)
        missing = [char for char in fonts.missing_chars(text, family) if char not in template_words]
        if missing:
            listed = ", ".join(f"{quoted(char)} (U+{ord(char):04X})" for char in missing[:4])
            more = f" and {len(missing) - 4} more" if len(missing) > 4 else ""
            self.problems.append(FitProblem(where, field_name, "missing glyph",
                                            f"character {listed}{more} is in no bundled font" if len(missing) == 1 else
                                            f"characters {listed}{more} are in no bundled font"))

    def text(self, field_name: str, text: str, spec: str | BoxSpec, *, box: Box | None = None,
             color: str | None = None, align: Align | None = None, valign: VAlign | None = None,
             record: str | None = None, placed_by: tuple[str, str] = ("", "")) -> FitResult:
        """Fit ``text`` into the template box ``spec`` (or ``box`` with the style of ``spec``) and paint it.

        ``placed_by``: the template keys that move ``box`` across and down apart from what is drawn beside it
        (``("numbers.roll_gap", "")``), given to each line (:attr:`pnp.drawing.TextLine.placed_by`) so that the checks
        name the number that moved the text, not the box whose place the layout does not read.

        ``record`` is the id of the record that holds ``text`` (a table row's text on a table card,
        a spell on a path card); by default this card's record. When the text does not fit at the
        box's minimum size, it is still painted and a ``"text over"`` :class:`FitProblem` (message
        ``over by N.N mm``) is recorded; unknown icon tokens and characters without a font are recorded too
        (:meth:`check`). A box with no area (a layout that divides the card among more parts than it holds) is one
        ``"too many"`` problem at ``field_name``, with nothing painted, never a :class:`pnp.text.TextFitError`.
        Returns the :class:`FitResult`.
        """
        style = self.template.box(spec) if isinstance(spec, str) else spec
        self.check(field_name, text, style.font, record)
        given = box or style.box
        if given.width <= 0 or given.height <= 0:  # twenty-ninth breaker (finding 1): the text fitter raised on it
            # the template's numbers that gave the room, when traced (forty-sixth pnp breaker, finding 11: `rows_bottom = 0`,
            # `heading_h = 0` were "remove or shorten the texts" of the rulebook's tables, the template never named)
            by = slopes(given.height if given.height <= 0 else given.width)
            keys = sorted(by, key=lambda name: -abs(by[name]))[:3]
            numbers = f", by {self.template.keys_at(*keys)}" if keys else ""
            self.problems.append(FitProblem(record or self.record_id, field_name, "too many",
                                            f"no room is left for this text (the card gives it {given.width:.1f} x "
                                            f"{given.height:.1f} mm{numbers}): what is printed before it fills the card; "
                                            f"remove or shorten the texts of this record"
                                            f"{'' if not keys else ', or change that number' if len(keys) == 1 else ', or change those numbers'}",
                                            over=max(0.0, -given.height), box=style.name))
            return FitResult((), style.size[1], (), False, max(0.0, -given.height), 0)
        if box is None and isinstance(spec, str) and text.strip() and self._holds_no_line(style):
            return FitResult((), style.size[1], (), False, 0.0, 0)
        shown = icons_as_meant(text)  # a template's unknown icon is said at its string; the text is measured as mended

        def fitted(line_spacing: float) -> FitResult:
            return fit_text(shown, box or style.box, style.font, style.size[0], style.size[1],
                            align=align or style.align, valign=valign or style.valign,
                            line_spacing=line_spacing, paragraph_spacing=style.paragraph_spacing,
                            fill=color or style.color, source=style.name)

        result = fitted(style.line_spacing)
        written = self._written(text, record)
        if not result.fits and written is not None:  # a template's own words: said at their line there (fifteenth breaker)
            self.problems.append(self._at_string(written, f"{quoted(text, 40)} is over [boxes.{style.name}] by "
                                                          f"{excess_mm(result.over_mm)}; shorten it", over=result.over_mm, box=style.name))
        elif not result.fits:
            inner = (box or style.box).width
            # a soft hyphen and a zero width space are breaks too, and so is the place between two kana (mark_breaks)
            pieces = [piece for word in text.split() for piece in re.split("[\u00ad\u200b]+", mark_breaks(word)) if piece]
            unbroken = max(pieces, key=lambda word: text_width_mm(word, style.font, style.size[1]), default="")
            # twenty-first breaker: a Japanese sentence, with no space to break at, was only "over by 122.8 mm"; twenty-fourth:
            # it now breaks between its kana, and the advice for a script written without spaces is a break that prints nothing
            why = (f" (it has no place to break a line at: '{shortened(unbroken, 20)}' is wider than the box even at "
                   f"{style.size[1]:g} pt; put spaces where lines may break, soft hyphens (U+00AD) inside a word, or zero "
                   f"width spaces (U+200B) in a script written without spaces)"
                   if unbroken and text_width_mm(unbroken, style.font, style.size[1]) > inner else "")
            self.problems.append(FitProblem(record or self.record_id, field_name, "text over",
                                            f"over by {excess_mm(result.over_mm)}{why}", over=result.over_mm, box=style.name,
                                            template=str(self.template.path)))
        if len(result.lines) > 1:
            self._check_lines_apart(style, result, record, fitted)
        if box is None:
            self._check_inside(style)
        else:
            self._check_placed_inside(style, box)
        items = result.items if placed_by == ("", "") else \
            tuple(dataclasses.replace(item, placed_by=placed_by) if isinstance(item, TextLine) else item for item in result.items)
        self.items.extend(items)  # each TextLine and Icon carries the box's name (source)
        return result

    def _holds_no_line(self, style: BoxSpec) -> bool:
        """Whether the template box ``style`` (placed by its own ``h``) is too low for one line of text at its minimum
        size; if so, one ``"template"`` problem at its ``size`` (when a smaller minimum, :data:`MIN_TEXT_PT` or more,
        would fit a line) or its ``h``, with the value that fits one line. Forty-sixth pnp breaker, finding 3: `size =
        [40, 40]`, `h = 1.5` in servant.toml's [boxes.flavour] were "over by N mm; shorten the text" on every servant,
        which no text, however short, could follow."""
        least = style.size[1]
        one = block_height(1, style.font, least, 1.0)
        if one <= style.h + FONT_METRIC_SLACK_MM:
            return False
        per_pt = one / least
        fits = math.floor((style.h + FONT_METRIC_SLACK_MM) / per_pt * 2 + 1e-9) / 2  # a half pt, down
        at_least = math.ceil(one * 10 - 1e-9) / 10
        words = (f"[boxes.{style.name}] (h = {style.h:g} mm) holds no line of text at its {least:g} pt minimum size "
                 f"({one:.1f} mm a line)")
        if least > MIN_TEXT_PT and fits >= MIN_TEXT_PT:
            key = f"boxes.{style.name}.size"
            message = f"{words}: set its minimum size (the second of size) to at most {fits:g}, or h to at least {at_least:g}"
        else:
            key = f"boxes.{style.name}.h"
            message = f"{words}: set h to at least {at_least:g}"
        path, line = template_line(self.template.path, key)
        self.problems.append(FitProblem("templates", key, "template", message, box=style.name, path=str(path), line=line))
        return True

    def _check_lines_apart(self, style: BoxSpec, result: FitResult, record: str | None,
                           refit: Callable[[float], FitResult]) -> None:
        """A ``"template"`` problem at ``boxes.<name>.line_spacing`` (its file and line) when two printed lines of
        ``result``, a text fitted into the box ``style``, print over each other: a glyph of one line reaches the ink of
        the glyph printed under it in the next (:func:`pnp.text.line_clash`; twenty-fourth breaker: at the smallest
        spacing allowed, 0.8, "gray gypsum" ran into "Randven" below it, and check passed)."""
        clash = line_clash(result.items, style.line_spacing)
        if clash is None:
            return
        key = f"boxes.{style.name}.line_spacing"
        path, line = template_line(self.template.path, key)
        needed = self._least_spacing(style, clash.spacing, refit)
        self.problems.append(FitProblem(
            "templates", key, "template",
            f"lines print over each other at {style.line_spacing:g} em: the {_glyph(clash.upper, clash.upper_word)} reaches "
            f"{clash.overlap_mm:.2f} mm into the {_glyph(clash.lower, clash.lower_word)} under it (on {record or self.record_id}); "
            f"set line_spacing to at least {needed:g}", over=needed, box=style.name, path=str(path), line=line))

    @staticmethod
    def _least_spacing(style: BoxSpec, estimate: float, refit: Callable[[float], FitResult]) -> float:
        """The least ``line_spacing`` (em, in steps of :data:`LINE_SPACING_STEP`) from ``estimate`` up at which the text
        ``refit`` fits (``refit(spacing)``: the same text in the same box ``style``) has no two lines printed over each
        other, as :meth:`_check_lines_apart` checks it: a smaller spacing can shrink or wrap the text otherwise, so each
        step is fitted again (twenty-sixth breaker: "at least 1.15" was advised where 1.1 passes). At most
        :data:`LINE_SPACING_TRIES` fits; the last step tried when none of them clears."""
        needed = max(math.ceil(estimate / LINE_SPACING_STEP - 1e-6) * LINE_SPACING_STEP, style.line_spacing + LINE_SPACING_STEP)
        for _ in range(LINE_SPACING_TRIES):
            needed = round(needed, 2)
            clash = line_clash(refit(needed).items, needed)
            if clash is None:
                break
            needed = max(needed + LINE_SPACING_STEP, math.ceil(clash.spacing / LINE_SPACING_STEP - 1e-6) * LINE_SPACING_STEP)
        return round(needed, 2)

    def _check_inside(self, style: BoxSpec) -> None:
        """A ``"template"`` problem when the template box ``style`` reaches past this drawing's trim: its
        text could print off the card or under the next card's edge (tenth breaker: a quest card's event
        box moved down ran past the trim and its text under the emblem, and ``check`` passed)."""
        slack = FONT_METRIC_SLACK_MM
        card_width = self.template.numbers.get("card_width", self.width)
        # thirty-first pnp breaker (LOW 24): a Location's side panel, 54 mm wide, was said as "the trim (54 mm)"
        right = (f"the trim ({self.width:g} mm)" if abs(self.width - card_width) <= SAME_SIZE_MM else
                 f"its panel ({self.width:g} mm wide)" if self.width < card_width else f"the board's trim ({self.width:g} mm)")
        edges = (("left", -style.x, f"x {style.x:g} is left of the trim (0)"),
                 ("top", -style.y, f"y {style.y:g} is above the trim (0)"),
                 ("right", style.x + style.w - self.width, f"x {style.x:g} + w {style.w:g} = {style.x + style.w:g} mm "
                                                           f"is right of {right}"),
                 ("bottom", style.y + style.h - self.height, f"y {style.y:g} + h {style.h:g} = {style.y + style.h:g} mm "
                                                             f"is below the trim ({self.height:g} mm)"))
        past = [(amount, said) for _, amount, said in edges if amount > slack]
        if not past:
            return
        _, said = max(past)
        key = f"boxes.{style.name}"
        path, line = template_line(self.template.path, key)
        self.problems.append(FitProblem("templates", key, "template",
                                        f"the text box runs off {'its panel' if 'its panel' in said else 'the card'}: {said}; move it or make it smaller",
                                        box=style.name, path=str(path), line=line))

    def _check_placed_inside(self, style: BoxSpec, box: Box) -> None:
        """A ``"template"`` problem at ``boxes.<name>.w`` when ``box``, the place the layout gave the template box
        ``style`` (its ``w`` as the template writes it), reaches past the right edge of the safe area the templates are
        laid out for (:data:`~pnp.units.LAID_OUT_SAFE_MM` inside the trim) whatever text it holds, with the most ``w``
        that keeps it inside, in tenths of a mm. Said once the box is placed, not only once a long text reaches there
        (forty-first pnp breaker, finding 5: counter_card's [boxes.name] `w = 63.7` ran off the card and passed)."""
        edge = self.width - LAID_OUT_SAFE_MM
        if f"{style.name}.w" not in self.template.box_fields or "w" in object.__getattribute__(style, "unset"):
            return  # (read without noting it: a field the layout does not read stays unread)
        if abs(box.width - object.__getattribute__(style, "w")) > ROUNDING_SLACK or box.right <= edge + ROUNDING_SLACK or box.x >= edge:
            return
        if changed_numbers(self.template.path):  # a [numbers] value moved the box (`roll_gap = 6`): said at that number
            return
        key = f"boxes.{style.name}.w"
        path, line = template_line(self.template.path, key)
        if not line:
            return
        most = math.floor((edge - box.x) * 10 + 1e-6) / 10
        self.problems.append(FitProblem("templates", key, "template",
                                        f"the text box, placed {box.x:g} mm from the card's left edge, reaches "
                                        f"{box.right:g} mm, past the {LAID_OUT_SAFE_MM:g} mm safe area ({edge:g} mm) and "
                                        f"{'off the card' if box.right > self.width else 'toward the cut'} whatever its "
                                        f"text: set w to at most {most:g}", box=style.name, path=str(path), line=line))

    def string_problem(self, key: str, text: str, family: str, size: float, room: float, where: str = "its space") -> None:
        """A ``"template"`` problem at ``strings.<key>`` (its file and line) when ``text``, the template's string
        ``key`` that the layout places itself at ``size`` pt in ``family``, is wider than its ``room`` (mm): a label
        too long for the track space (``where``: ``its hex`` for a map's label) it is printed in (thirteenth breaker: reported per card as a safe-area
        problem, with advice that did not fix it). The face is then marked whole (``"too many"`` kinds' rule):
        what it spills is not reported again."""
        width = text_width_mm(text, family, size)
        if width <= room + FONT_METRIC_SLACK_MM:
            return
        self.problems.append(self._at_string(key, f"{quoted(text, 40)} is {width:.1f} mm wide at {size:g} pt, and "
                                                  f"{where} holds {room:.1f} mm; shorten it", box="*"))

    def _written(self, text: str, record: str | None) -> str | None:
        """The key of this template's ``[strings]`` whose words ``text`` is (:meth:`Template.string_key`), when the
        text is the card's own (``record`` None); else ``None`` (eighteenth breaker: a string with a card's key in
        it was blamed on each card)."""
        return None if record is not None else self.template.string_key(text)

    def at_number(self, name: str, message: str, over: float = 0.0) -> FitProblem:
        """A ``"template"`` problem at ``numbers.<name>``, at the file and line that write it; ``over`` as
        :class:`FitProblem` has it."""
        path, line = template_line(self.template.path, f"numbers.{name}")
        return FitProblem("templates", f"numbers.{name}", "template", message, over=over, path=str(path), line=line)

    def keep_number_in_disc(self, number: str, radius: float, stroke_width: float, size: float,
                            size_key: str = "disc_size") -> None:
        """A ``"template"`` problem at ``numbers.<size_key>`` when ``number``, drawn ``size`` pt (bold serif) in the middle
        of a disc of ``radius`` mm edged ``stroke_width`` mm (:func:`circle_number`), reaches past the disc's inside: the
        corners of its box (its advance width, its cap height) must lie within the radius less half the edge and
        :data:`NUMBER_IN_DISC_GAP_MM`. The advice
        is the largest size, in half points, that fits this number (of several, the smallest is said). Thirty-fourth pnp
        breaker, HIGH 5:
        `disc_size = 26` printed the Ice Counters' "10" wider than its disc, and check passed."""
        inside = radius - stroke_width / 2 - NUMBER_IN_DISC_GAP_MM
        half_width, half_height = text_width_mm(number, "serif-bold", size) / 2, cap_height_mm(size) / 2
        reach = math.hypot(half_width, half_height)
        if reach <= inside + ROUNDING_SLACK:
            return
        fits = math.floor(2 * size * inside / reach) / 2
        changed = changed_number(self.template.path)
        if fits < MIN_TEXT_PT or (changed is not None and changed[0] in ("disc_r", "disc_rule_width")):
            # thirty-fifth pnp breaker, MED 9: `disc_r = 1.5` was advised onto disc_size 5, below the 6 pt floor, and a
            # `disc_rule_width` of base.toml was said at spell_path.toml's disc_size: the disc's own key that was changed
            # (else its radius), with the value that fits the number at its size (at 6 pt when that is too small)
            at = max(size, MIN_TEXT_PT)
            half_at = math.hypot(text_width_mm(number, "serif-bold", at) / 2, cap_height_mm(at) / 2)
            if changed is not None and changed[0] == "disc_rule_width":
                widest = math.floor(2 * (radius - NUMBER_IN_DISC_GAP_MM - half_at) * 100 + 1e-6) / 100
                if widest >= 0:
                    self.problems.append(self.at_number("disc_rule_width", f"the number {number!r} at {at:g} pt reaches "
                                                                           f"past its disc (radius {radius:g} mm, edge "
                                                                           f"{stroke_width:g} mm): set disc_rule_width to at "
                                                                           f"most {widest:g}", over=reach - inside))
                    return
            least = math.ceil((half_at + NUMBER_IN_DISC_GAP_MM + stroke_width / 2) * 10 - 1e-6) / 10
            self.problems.append(self.at_number("disc_r", f"the number {number!r} at {at:g} pt reaches past its disc (radius "
                                                          f"{radius:g} mm, edge {stroke_width:g} mm)"
                                                          + (f", and a smaller number would print under {MIN_TEXT_PT:g} pt"
                                                             if fits < MIN_TEXT_PT else "")
                                                          + f": set disc_r to at least {least:g}", over=reach - inside))
            return
        self.problems.append(self.at_number(size_key, f"the number {number!r} is {2 * half_width:.1f} mm wide and "
                                                      f"{2 * half_height:.1f} mm tall at {size:g} pt, so its corners reach "
                                                      f"past its disc (radius {radius:g} mm, edge {stroke_width:g} "
                                                      f"mm): set {size_key} to at most {fits:g}", over=reach - inside))

    def keep_icons_off_disc(self, disc: Circle, items: tuple[Primitive, ...], what: str, down: str, record: str) -> None:
        """A ``"template"`` problem at ``numbers.<down>`` when the ink of an icon among ``items`` (the inline icons of a
        text fitted under ``disc``; :func:`pnp.layout.icon_ink.icon_ink`) reaches more than
        :data:`pnp.units.FONT_METRIC_SLACK_MM` into the ink of ``disc`` (its radius and half its line): the icon prints
        over the disc, as two icons would over each other. ``down`` moves the text down (``text_dy``); the advice is
        the least value, a tenth of a mm, at which the icons as drawn clear the disc. Thirty-fifth pnp breaker, HIGH 7:
        on every shipped Spell Path card the cost icon's tip ran about 0.3 mm into the position disc (``text_dy = 4.7``,
        the disc ending at 4.6 mm, an icon taller than its line's capitals), and check passed. ``what`` names the disc,
        ``record`` the record whose text it is."""
        reach = disc.r + disc.stroke_width / 2
        points = [(icon, icon.x + x * icon.size / 100, icon.y + y * icon.size / 100, half * icon.size / 100)
                  for icon in items if isinstance(icon, Icon) for x, y, half in icon_ink(icon.name)]

        def depth(lower: float) -> tuple[float, str]:  # how far (mm) the icons moved ``lower`` mm down reach into the disc
            deepest, name = 0.0, ""
            for icon, x, y, half in points:
                into = reach - (math.hypot(x - disc.cx, y + lower - disc.cy) - half)
                if into > deepest:
                    deepest, name = into, icon.name
            return deepest, name

        into, name = depth(0.0)
        if into <= FONT_METRIC_SLACK_MM:
            return
        lower = 0.0
        while depth(lower)[0] > 0.0 and lower < 2 * reach + 1.0:
            lower += 0.05
        changed = changed_number(self.template.path)
        if changed is not None and changed[0] in ("disc_r", "disc_rule_width", "disc_inset"):  # the disc grew or moved
            self.problems.append(self.at_number(changed[0], f"the {name} icon of the text reaches {excess_mm(into)} into {what} "
                                                            f"(on {record}): it prints over the disc, since {changed[0]} is "
                                                            f"{self.template.number(changed[0]):g} (the shipped templates "
                                                            f"have {changed[1]:g}): change it back toward that", over=into))
            return
        value = self.template.number(down)
        least = math.ceil((value + lower) * 10 - 1e-6) / 10
        self.problems.append(self.at_number(down, f"the {name} icon of the text reaches {excess_mm(into)} into {what} "
                                                  f"(on {record}): it prints over the disc; set {down} to at least "
                                                  f"{least:g}", over=into))

    def keep_text_off_disc(self, disc: Circle, items: tuple[Primitive, ...], text: str, what: str, across: str,
                           record: str) -> None:
        """A ``"template"`` problem at ``numbers.<across>`` when the letters' own ink of a text among ``items`` (a text
        fitted beside ``disc``, left-aligned; :func:`pnp.text.ink_boxes`) comes within :data:`TEXT_INK_GAP_MM` of the ink
        of ``disc`` (its radius and half its line): the disc, filled dark, hides or touches the letter. ``across`` moves
        the text right (``name_dx``); the advice is the least value, a tenth of a mm, at which every letter clears the
        disc. When one of the disc's own keys (``disc_r``, ``disc_rule_width``, ``disc_inset``) is the number changed,
        it is said there. Thirty-sixth pnp breaker, HIGH 4b: Spell Path `name_dx = 4` set the first letter of every
        spell name on its position disc ("ind", "horn Hedge") and check passed: only the disc's number was compared with
        the name. ``text`` names the text, ``what`` the disc, ``record`` the record whose text it is."""
        reach = disc.r + disc.stroke_width / 2 + TEXT_INK_GAP_MM
        shift, letter = 0.0, ""  # how far (mm) the text must move right for every letter to clear the disc
        for _, _, char, _, box in ink_boxes(items):
            down = max(box.y - disc.cy, disc.cy - box.bottom, 0.0)
            if down >= reach:
                continue
            needed = disc.cx + math.sqrt(reach * reach - down * down) - box.x
            if box.right < disc.cx - math.sqrt(reach * reach - down * down):
                continue  # wholly left of the disc: clear of it
            if needed > shift:
                shift, letter = needed, char
        if shift <= FONT_METRIC_SLACK_MM:
            return
        changed = changed_number(self.template.path)
        if changed is not None and changed[0] in ("disc_r", "disc_rule_width", "disc_inset"):  # the disc grew or moved
            self.problems.append(self.at_number(changed[0], f"the letter {letter!r} of {text} is under or against {what} "
                                                            f"(on {record}), since {changed[0]} is "
                                                            f"{self.template.number(changed[0]):g} (the shipped templates "
                                                            f"have {changed[1]:g}): change it back toward that",
                                                over=shift))
            return
        least = math.ceil((self.template.number(across) + shift) * 10 - 1e-6) / 10
        self.problems.append(self.at_number(across, f"the letter {letter!r} of {text} is under or against {what} "
                                                    f"(on {record}): the disc hides it; set {across} to at least {least:g}",
                                            over=shift))

    def keep_disc_inside(self, disc: Circle, area: Box, what: str, inside_of: str, down: str, size: str,
                         top_rule: tuple[str, str] | None = None) -> None:
        """A ``"template"`` problem when the ink of ``disc`` (its radius and half its line, mm) reaches past ``area`` (card
        mm), the inside of the card frame's inner rule (or of a band): the disc would print over the frame's rules or off
        the card (twenty-fifth breaker: ``emblem_y = 1`` put the back's emblem across both rules and past the top edge,
        and check passed). Said at the key of the disc's ring (``disc.grown_by``: its room or its line) when making that
        smaller fits the disc (twenty-sixth breaker: ``title_icon_ring = 3`` crossed the frame and passed); else at
        ``numbers.<down>``, the number that moves the disc down (with the values that fit), when moving it fits it and
        there is one (``down`` not ``""``); else at ``numbers.<size>``, the disc's size. ``what`` names the disc,
        ``inside_of`` what it must stay inside. ``top_rule`` (a ``[numbers]`` width key and the rule's name) is the rule
        whose lower half of ink is the top of ``area``: when that width is the one number changed and the disc reaches
        past the top, the rule covers the disc, said at the width with the widest that passes (twenty-ninth breaker,
        finding 9: `band_rule_width = 4` was worded as the disc running over the band, with no value)."""
        reach = disc.r + disc.stroke_width / 2
        top, bottom, left, right = disc.cy - reach, disc.cy + reach, disc.cx - reach, disc.cx + reach
        slack = ROUNDING_SLACK
        if top >= area.y - slack and bottom <= area.bottom + slack and left >= area.x - slack and right <= area.right + slack:
            return
        excess = max(area.y - top, bottom - area.bottom, area.x - left, right - area.right)
        ring = ring_fix(self.template, disc, excess)
        if ring is not None:
            self.problems.append(self.at_number(ring[0], f"{what} ({top:.1f} to {bottom:.1f} mm down, {left:.1f} to "
                                                         f"{right:.1f} mm across the card) runs over {inside_of}: "
                                                         f"its ring is too big; set {ring[0]} to {ring[1]}", excess))
            return
        changed = changed_number(self.template.path)  # the one number the designer changed, when it is neither of these
        if top_rule is not None and changed is not None and changed[0] == top_rule[0] and top < area.y - slack:
            width = self.template.number(top_rule[0])
            most = max(0.0, math.floor((width - 2 * (area.y - top)) * 10 + 1e-6) / 10)
            self.problems.append(self.at_number(top_rule[0], f"{top_rule[1]} ([numbers] {top_rule[0]}, {width:g} mm) "
                                                             f"covers the top of {what} ({top:.1f} mm down the card); set "
                                                             f"{top_rule[0]} to at most {most:g}", excess))
            return
        if changed is not None and changed[0] != down:  # the size too: one line with the legibility check's, at that key
            value = self.template.number(changed[0])
            self.problems.append(self.at_number(changed[0], f"{what} ({top:.1f} to {bottom:.1f} mm down, {left:.1f} to "
                                                            f"{right:.1f} mm across the card) runs over {inside_of} since "
                                                            f"{changed[0]} is {value:g} (the shipped templates have "
                                                            f"{template_value(changed[1])}): change it back toward that", excess))
            return
        if 2 * reach > area.height + slack or 2 * reach > area.width + slack:
            self.problems.append(self.at_number(size, f"{what} is {2 * reach:.1f} mm across and {inside_of} holds "
                                                      f"{min(area.width, area.height):.1f} mm: make it smaller"))
            return
        if left < area.x - slack or right > area.right + slack or not down:
            self.problems.append(self.at_number(size, f"{what} ({top:.1f} to {bottom:.1f} mm down, {left:.1f} to "
                                                      f"{right:.1f} mm across the card) runs over {inside_of} ({area.x:.1f} "
                                                      f"to {area.right:.1f} mm across, {area.y:.1f} to {area.bottom:.1f} "
                                                      f"mm down): make it smaller"))
            return
        value = self.template.number(down)
        fits = (f"at least {math.ceil((value + area.y - top) * 10 - 1e-9) / 10:g}" if top < area.y - slack else
                f"at most {math.floor((value + area.bottom - bottom) * 10 + 1e-9) / 10:g}")
        self.problems.append(self.at_number(down, f"{what} ({top:.1f} to {bottom:.1f} mm down the card) runs over {inside_of} "
                                                  f"({area.y:.1f} to {area.bottom:.1f} mm); make {size} smaller or set {down} to {fits}"))

    def keep_rule_off_disc(self, disc: Circle, rule_y: float, below: Box, what: str, area: Box | None = None) -> None:
        """A ``"template"`` problem when the ornament rule at ``rule_y`` mm (:func:`ornament_rule`, from ``rule_left`` to
        ``rule_right`` with its diamond in the middle) runs into ``disc`` (card mm, its ink: radius plus half its line):
        the rule's line may touch the disc's ink but not pass across it (where its ink is nearest the disc, at the gap
        around the diamond), and the diamond's far point must clear the disc's ink (the diamond may sit on the ring, as
        the bundled backs draw it). Twenty-sixth breaker: ``rule_y = 38``, ``emblem_y = 28``, ``emblem_ring = 12`` and
        ``emblem_rule_width = 3`` drew the rule through the back's icon or its disc, and check passed; twenty-seventh:
        ``emblem_rule_width = 2`` hung the disc 1 mm below the rule, over the whole diamond, and passed, and the advice
        did not match what passes. Said at the ring's key when making the ring smaller fits (:func:`ring_fix`); else at
        ``numbers.emblem_y`` when the disc also reaches ``below`` (the title's box, mm: the disc was moved onto the rule
        and the title), else at ``numbers.rule_y``; each with the value that just fits (a tenth of a mm further fails).
        ``area`` (card mm) is what the disc must stay inside (the card frame's inner rule): when no ``emblem_y`` keeps
        the disc both inside it and off the rule, the line is said at ``numbers.emblem_size`` with the largest size that
        fits (twenty-eighth breaker, finding 5: `emblem_size = 38` was told "emblem_y at most 7.9", then "at least 9.5")."""
        reach = disc.r + disc.stroke_width / 2
        distance = abs(rule_y - disc.cy)
        largest = self._largest_reach_under_rule(disc, distance)  # the disc's reach the rule allows (mm)
        intrusion = reach - largest
        if intrusion <= ROUNDING_SLACK:
            return
        ring = ring_fix(self.template, disc, intrusion)
        said = f"the ornament rule ({rule_y:g} mm down the card) runs through {what} ({disc.cy - reach:.1f} to {disc.cy + reach:.1f} mm)"
        if ring is not None:
            self.problems.append(self.at_number(ring[0], f"{said}: its ring is too big; set {ring[0]} to {ring[1]}", intrusion))
            return
        ornament = self._ornament_fix(disc, rule_y)
        if ornament is not None:  # the designer changed the rule's own shape or ends, not where it runs
            self.problems.append(self.at_number(ornament[0], f"{said}: {ornament[1]}", intrusion))
            return
        needed = self._least_rule_distance(disc)  # how far from the disc's centre the rule must run (mm)
        if disc.cy + reach > below.y + ROUNDING_SLACK and rule_y >= disc.cy:
            value = self.template.number("emblem_y")
            most = math.floor((value - (needed - distance)) * 10 + 1e-9) / 10
            if area is not None and disc.cy - reach + (most - value) < area.y - ROUNDING_SLACK:
                self._emblem_too_big(disc, rule_y, area, said)
                return
            if self._at_changed_size(disc, rule_y, f"{said} and reaches the title ({below.y:g} mm down)",
                                     f"emblem_y = {most:g} or less", intrusion):
                return
            self.problems.append(self.at_number("emblem_y", f"{said} and reaches the title ({below.y:g} mm down): move the "
                                                            f"disc up; set emblem_y to at most {most:g}"))
        elif area is not None and disc.cy + reach > below.y + ROUNDING_SLACK and \
                (changed_number(self.template.path) or ("",))[0] == "emblem_size":
            # twenty-ninth breaker, finding 5: `emblem_size = 60` also got "set rule_y to at most 16.9", which put the
            # rule through the title: a disc too big is one line at its size, with the size that fits
            self.problems = [problem for problem in self.problems if problem.field != "numbers.emblem_size"]
            self._emblem_too_big(disc, rule_y, area, said)
        else:
            fits = (f"at least {math.ceil((disc.cy + needed) * 10 - 1e-9) / 10:g}" if rule_y >= disc.cy else
                    f"at most {math.floor((disc.cy - needed) * 10 + 1e-9) / 10:g}")
            if self._at_changed_size(disc, rule_y, said, f"rule_y = {fits.split()[-1]} or more" if rule_y >= disc.cy
                                     else f"rule_y = {fits.split()[-1]} or less", intrusion):
                return
            self.problems.append(self.at_number("rule_y", f"{said}: move the rule off the disc; set rule_y to {fits}"))

    def _at_changed_size(self, disc: Circle, rule_y: float, said: str, instead: str, intrusion: float) -> bool:
        """When ``emblem_size`` is the one number the designer changed (:func:`pnp.layout.template.changed_number`) and
        a smaller one keeps the emblem's disc off the ornament rule at ``rule_y`` (:meth:`_largest_emblem_size`): the
        one problem of :meth:`keep_rule_off_disc` (``said``, ``intrusion`` mm) at ``numbers.emblem_size`` with that size,
        and ``instead`` (``"emblem_y = 16 or less"``) as the other way; any other line at the size dropped; ``True``.
        Else ``False``. Thirtieth breaker, finding 8: `emblem_size = 28` was said at `emblem_y` only, `30` also at
        `emblem_size`, `27` at `rule_y`."""
        changed = changed_number(self.template.path)
        if changed is None or changed[0] != "emblem_size":
            return False
        fits = self._largest_emblem_size(disc, rule_y)
        if fits is None:
            return False
        self.problems = [problem for problem in self.problems if problem.field != "numbers.emblem_size"]
        self.problems.append(self.at_number("emblem_size", f"{said} since emblem_size is "
                                                           f"{self.template.number('emblem_size'):g} (the shipped templates "
                                                           f"have {template_value(changed[1])}; {instead} would also clear it): set "
                                                           f"emblem_size to at most {fits:g}", intrusion))
        return True

    def _largest_emblem_size(self, disc: Circle, rule_y: float) -> float | None:
        """The largest ``emblem_size`` (mm, a tenth of a mm; at most the present one) at which the emblem's disc
        (``disc``: its top at ``emblem_y`` less its ring, which stays; centred ``emblem_size / 2`` below ``emblem_y``)
        keeps off the ornament rule at ``rule_y`` (:meth:`keep_rule_off_disc`); ``None`` when none does."""
        size = self.template.number("emblem_size")
        ring = disc.r - size / 2  # the disc's room around the emblem (mm)
        top = disc.cy - size / 2  # emblem_y (mm)
        for tenths in range(math.floor(size * 10 + 1e-6), 0, -1):
            trial = tenths / 10
            moved = dataclasses.replace(disc, cy=top + trial / 2, r=trial / 2 + ring)
            reach = moved.r + moved.stroke_width / 2
            if reach - self._largest_reach_under_rule(moved, abs(rule_y - moved.cy)) <= ROUNDING_SLACK:
                return trial
        return None

    def _emblem_too_big(self, disc: Circle, rule_y: float, area: Box, said: str) -> None:
        """The ``numbers.emblem_size`` problem of :meth:`keep_rule_off_disc` when the emblem's disc (``disc``, centred
        ``emblem_size / 2`` below ``emblem_y``, its radius ``emblem_size / 2`` plus its ring) fits between the top of
        ``area`` (card mm) and the ornament rule at ``rule_y`` at no ``emblem_y``: said with the largest size (a tenth
        of a mm) that fits with the disc as high as ``area`` lets it, and that ``emblem_y``."""
        size = self.template.number("emblem_size")
        ring = disc.r - size / 2  # the disc's room around the emblem (mm)
        lowest = math.ceil((area.y + ring + disc.stroke_width / 2) * 10 - 1e-9) / 10  # the highest emblem_y inside
        fits = None
        for tenths in range(int(size * 10), 0, -1):
            trial = tenths / 10
            moved = dataclasses.replace(disc, cy=lowest + trial / 2, r=trial / 2 + ring)
            reach = moved.r + moved.stroke_width / 2
            if reach - self._largest_reach_under_rule(moved, abs(rule_y - moved.cy)) <= ROUNDING_SLACK:
                fits = trial
                break
        advice = (f"set emblem_size to at most {fits:g} (with emblem_y = {lowest:g})" if fits is not None else
                  "move the rule down (rule_y) or make the ring smaller")
        self.problems.append(self.at_number("emblem_size", f"{said}, and no emblem_y keeps the disc inside the card frame's "
                                                           f"inner rule ({area.y:.1f} mm down, {LINES_APART_MM:g} mm off its ink) and off the "
                                                           f"rule: {advice}"))

    def _ornament_fix(self, disc: Circle, rule_y: float) -> tuple[str, str] | None:
        """When the one number the designer changed (:func:`pnp.layout.template.changed_number`) is one of
        :data:`ORNAMENT_KEYS`, the ornament rule's own line width, diamond, gap or ends, and a value of it keeps the rule
        at ``rule_y`` off ``disc`` as :meth:`keep_rule_off_disc` checks it: that key and the advice with the value that
        just fits, rounded the safe way; else ``None``. Thirty-first pnp breaker, MED 15: a thinner `ornament_rule_width`
        or a narrower `ornament_gap` in base.toml, or `rule_left = 0` in back.toml, was blamed on back.toml's `rule_y`,
        which no one had moved. The bundled backs hang the disc's ink down to the far edge of the rule's line beside the
        diamond, so a thinner line there leaves the disc's ink across it: the bound is a least width."""
        changed = changed_number(self.template.path)
        if changed is None or changed[0] not in ORNAMENT_KEYS:
            return None
        name, shipped = changed
        reach = disc.r + disc.stroke_width / 2
        distance = abs(rule_y - disc.cy)
        across, half_line, diamond = self._rule_reach(disc)
        slack = ROUNDING_SLACK
        if name == "ornament_diamond_h":
            if math.isfinite(across) and math.hypot(distance + half_line, across) < reach - slack:
                return None  # the line crosses the disc too: no diamond mends that
            fits = f"at least {math.ceil((reach - distance) * 10 - 1e-9) / 10:g}"
            why = "the diamond must reach past the disc's ink"
        else:
            if distance + diamond < reach - slack:
                return None  # the disc reaches past the diamond's far point: the rule's line cannot mend that
            if name == "ornament_rule_width":
                half = math.sqrt(max(0.0, reach * reach - across * across)) - distance if math.isfinite(across) else 0.0
                fits = f"at least {math.ceil(2 * half * 100 - 1e-9) / 100:g}"
                why = "the disc's ink may reach the rule's line but not cross it"
            else:
                t = self.template
                left, right, gap = t.number("rule_left"), t.number("rule_right"), t.number("ornament_gap")
                clear = math.sqrt(max(0.0, reach * reach - (distance + half_line) ** 2))  # the least gap beside the disc
                why = "the rule's line beside the diamond's gap runs into the disc"
                if name == "ornament_gap":
                    offset = abs(disc.cx - (left + right) / 2)
                    fits = f"at least {math.ceil((clear + offset) * 10 - 1e-9) / 10:g}"
                else:
                    room = gap - clear  # how far the rule's middle may be from the disc's centre (mm)
                    if room < 0:
                        return None
                    other = right if name == "rule_left" else left
                    low, high = 2 * (disc.cx - room) - other, 2 * (disc.cx + room) - other
                    value = t.number(name)
                    fits = (f"at least {math.ceil(low * 10 - 1e-9) / 10:g}" if value < low else
                            f"at most {math.floor(high * 10 + 1e-9) / 10:g}")
                    why = "the rule's middle, where its diamond sits, moves off the disc's centre and its line runs into the disc"
        return name, f"{why}; set {name} to {fits} (shipped: {shipped:g})"

    def _rule_reach(self, disc: Circle) -> tuple[float, float, float]:
        """The ornament rule seen from ``disc``: how far across (mm) from the disc's centre its line's ink begins (the
        nearest end of a line beside the diamond's gap; 0 when a line runs across the centre), the half width of its
        line and the half height of its diamond (mm)."""
        t = self.template
        left, right, gap = t.number("rule_left"), t.number("rule_right"), t.number("ornament_gap")
        middle = (left + right) / 2
        across = math.inf
        for start, end in ((left, middle - gap), (middle + gap, right)):
            if end < start:
                continue
            across = min(across, 0.0 if start <= disc.cx <= end else min(abs(start - disc.cx), abs(end - disc.cx)))
        return across, t.number("ornament_rule_width") / 2, t.number("ornament_diamond_h")

    def _largest_reach_under_rule(self, disc: Circle, distance: float) -> float:
        """The largest reach (mm, radius plus half its line) ``disc`` may have with the ornament rule ``distance`` mm
        from its centre: its ink may touch the rule's line up to the line's far edge, and stays inside the diamond's
        far point (:meth:`keep_rule_off_disc`)."""
        across, half_line, diamond = self._rule_reach(disc)
        by_line = math.hypot(distance + half_line, across) if math.isfinite(across) else math.inf
        return min(by_line, distance + diamond)

    def _least_rule_distance(self, disc: Circle) -> float:
        """The least distance (mm) from ``disc``'s centre at which the ornament rule keeps off its ink, as
        :meth:`keep_rule_off_disc` checks it."""
        reach = disc.r + disc.stroke_width / 2
        across, half_line, diamond = self._rule_reach(disc)
        by_line = math.sqrt(max(0.0, reach * reach - across * across)) - half_line if across < reach else 0.0
        return max(by_line, reach - diamond, 0.0)

    def keep_icons_in_disc(self, disc: Circle, icons: list[Icon], what: str, scale: str, spacing: str = "",
                           ring: str = "") -> None:
        """A ``"template"`` problem at ``numbers.<scale>`` when the ink of an icon of ``icons`` (its outline and line as
        its SVG draws them: :func:`pnp.layout.icon_ink.icon_ink`) reaches past the inside of ``disc``'s line: the icon
        sticks out of the disc it is set in (twenty-fifth breaker: ``emblem_scale = 1.3`` put the back's key over its
        ring and onto the ornament rule, and check passed; thirtieth breaker, finding 2: the icon's box shrunk by a fixed
        share let the Grayking's crown, the Zhumbi and the Shadowmajik star cross the ring at the scale advised for
        another icon). The icons are sized (and set apart) by ``scale`` about the disc's centre, so the value that fits
        is the present one times the room over the reach; it is said, and ``over`` is the reach past the line (mm), so
        of the cards that share the key the one that needs the least is said (:func:`pnp.layout.check_fit`).
        ``spacing`` is the key that sets the icons apart (their centres' distance from the disc's centre grows with it):
        when it is the one number the designer changed (:func:`pnp.layout.template.changed_number`), the line is at it,
        with the largest value that fits (thirtieth breaker, finding 8: `emblem_pair_spacing = 2` was blamed on
        `emblem_pair_scale`). ``ring`` is the key of the disc's margin around its icons: when it is the one number
        changed, the line is at it, with the least margin that fits (thirty-first pnp breaker, LOW 22: `emblem_ring = 0`
        was blamed on the scales). ``what`` names the disc."""
        inner = disc.r - disc.stroke_width / 2
        reach, far = self._icons_reach(disc, icons, 1.0)
        if reach <= inner + ROUNDING_SLACK:
            return
        line = ring_line_grown(self.template, disc)
        if line is not None and reach < disc.r:  # the line grew inward over the icon (twenty-seventh breaker, finding 11)
            most = math.floor(2 * (disc.r - reach) * 10 + 1e-6) / 10
            self.problems.append(self.at_number(line, f"the line of {what} ({self.template.number(line):g} mm) reaches over the "
                                                      f"{far} icon: its ring is too big; set {line} to at most {most:g}",
                                                reach - inner))
            return
        changed = changed_number(self.template.path) if spacing or ring else None
        if changed is not None and ring and changed[0] == ring:  # the disc grows with its margin, the icons do not
            least = math.ceil((self.template.number(ring) + reach - inner) * 10 - 1e-6) / 10
            self.problems.append(self.at_number(ring, f"the {far} icon reaches {reach:.1f} mm from the centre of {what}, "
                                                      f"past its line ({inner:.1f} mm): the icon sticks out of the disc, "
                                                      f"since {ring} is {self.template.number(ring):g} (the shipped templates "
                                                      f"have {template_value(changed[1])}); set {ring} to at least {least:g}", reach - inner))
            return
        if changed is not None and changed[0] == spacing:
            value = self.template.number(spacing)
            # the largest spacing, in hundredths, that keeps the icons in the disc: their reach grows with the spacing, so
            # halving the range finds it in a few tries (a linear search hung check at `emblem_pair_spacing = 1000`)
            low, high = 0, math.floor(value * 100 + 1e-6)
            while low < high:
                middle = (low + high + 1) // 2
                if self._icons_reach(disc, icons, middle / 100 / value)[0] <= inner + ROUNDING_SLACK:
                    low = middle
                else:
                    high = middle - 1
            most = low / 100
            self.problems.append(self.at_number(spacing, f"the {far} icon reaches {reach:.1f} mm from the centre of {what}, "
                                                         f"past its line ({inner:.1f} mm): the icons are set so far apart "
                                                         f"that they stick out of the disc; set {spacing} to at most {most:g} "
                                                         f"(the shipped templates have {template_value(changed[1])})", reach - inner))
            return
        value = self.template.number(scale)
        most = math.floor(value * inner / reach * 100) / 100 if inner > 0 else 0.0
        self.problems.append(self.at_number(scale, f"the {far} icon reaches {reach:.1f} mm from the centre of {what}, past "
                                                   f"its line ({inner:.1f} mm): the icon sticks out of the disc; set "
                                                   f"{scale} to at most {most:g}", reach - inner))

    @staticmethod
    def _icons_reach(disc: Circle, icons: list[Icon], apart: float) -> tuple[float, str]:
        """How far (mm) the ink of ``icons`` (:func:`pnp.layout.icon_ink.icon_ink`) reaches from ``disc``'s centre, with
        each icon's centre moved ``apart`` times as far from it (1: as drawn), and the name of the icon that reaches
        farthest."""
        reach, far = 0.0, ""
        for icon in icons:
            unit = icon.size / 100  # mm per viewBox unit
            left = disc.cx + (icon.x + icon.size / 2 - disc.cx) * apart - icon.size / 2
            top = disc.cy + (icon.y + icon.size / 2 - disc.cy) * apart - icon.size / 2
            farthest = max(math.hypot(left + x * unit - disc.cx, top + y * unit - disc.cy) + half * unit
                           for x, y, half in icon_ink(icon.name))
            if farthest > reach:
                reach, far = farthest, icon.name
        return reach, far

    def _at_string(self, key: str, message: str, over: float = 0.0, box: str = "") -> FitProblem:
        """A ``"template"`` problem at ``strings.<key>``, at the file and line that write it."""
        path, line = template_line(self.template.path, f"strings.{key}")
        return FitProblem("templates", f"strings.{key}", "template", message, over=over, box=box, path=str(path), line=line)

    def drawing(self, face_id: str, title: str) -> Drawing:
        """The Drawing painted so far."""
        return Drawing(self.width, self.height, self.bleed, tuple(self.items), id=face_id, title=title)


STAND_IN_ICON = "mana"
"""The icon an unknown icon token of a template's string is measured as when no icon's name is near it
(:func:`icons_as_meant`): the inline icons are all one em wide."""


def icons_as_meant(text: str) -> str:
    """``text`` with each ``:name:`` token that a template's ``[strings]`` wrote into it (:func:`pnp.text.written_spans`)
    and that names no icon replaced by the icon it means (:func:`pnp.text.icon_meant`; :data:`STAND_IN_ICON` when none
    is near): the text as it prints once the string is mended, which is what the layout measures and draws. The unknown
    token itself is said once, at the string (:func:`pnp.layout.template.string_problems`); measured as written, its
    letters pushed the text over its box, and that was said at the string, at card texts no one edited, and at another
    template's number (forty-first pnp breaker, finding 3: `colour_red = "Red :manna:"` was also "a card text that no
    longer fits" and a Warding Key's head strip through its name, at stats.toml's key_head_h). ``text`` itself (the
    same object) when it holds no such token; else a plain ``str``. Raises nothing."""
    spans = written_spans(text)
    if not spans:
        return text
    own = set(unknown_icons(text, spans))
    tokens = [name for name in unknown_icons(text) if name not in own]
    if not tokens:
        return text
    mended = str(text)
    for name in tokens:
        meant = icon_meant(name)
        mended = mended.replace(f":{name}:", f":{meant if meant in INLINE_ICONS else STAND_IN_ICON}:")
    return mended


def _glyph(char: str, word: str) -> str:
    """A glyph named for a report: ``'g' of 'gypsum'``, or an icon's ``:mana: icon``."""
    if not word:
        return f"{char} icon"
    return quoted(char) if word == char else f"{quoted(char)} of {quoted(word, 24)}"


def full_bleed(width: float, height: float, bleed: float, colour: str) -> Rect:
    """A rectangle of ``colour`` covering the trim box and the bleed."""
    return Rect(-bleed, -bleed, width + 2 * bleed, height + 2 * bleed, fill=colour)


def hatch(box: Box, colour: str, spacing: float, width: float, angle: float = 45.0, width_key: str = "") -> Group:
    """Engraving-style parallel hatch lines filling ``box`` (clipped to it), ``spacing`` mm apart
    across the lines and ``width`` mm wide; ``width_key`` is the template key of that width (each line's
    :attr:`pnp.drawing.Line.stroke_key`), which the contrast check names when the hatching leaves a text too faint."""
    lines: list[Primitive] = []
    slope = math.tan(math.radians(angle))
    span = box.height / slope if slope else 0.0
    x = box.x - span
    while x < box.right:
        lines.append(Line(x, box.bottom, x + span, box.y, colour, width, stroke_key=width_key))
        x += spacing / math.sin(math.radians(angle))
    return Group(tuple(lines), clip=box)


def frame(b: CardBuilder, band: float, band_colour: str, panel_colour: str, ink: str,
          rule_colour: str | None = None) -> Box:
    """The card frame: ``band_colour`` from the bleed to ``band`` mm inside the trim, a parchment
    panel inside it with an engraved double rule and corner diamonds. Returns the panel's box.

    The rules' widths, radii and the diamonds' size are the template's ``frame_*`` numbers."""
    t = b.template
    w, h = b.width, b.height
    b.add(full_bleed(w, h, b.bleed, band_colour))
    panel = Box(band, band, w - 2 * band, h - 2 * band)
    inner = panel_rules(b, panel, panel_colour, rule_colour or ink, ink)
    d = t.number("frame_diamond")
    for cx, cy in ((inner.x, inner.y), (inner.right, inner.y), (inner.x, inner.bottom), (inner.right, inner.bottom)):
        diamond = Polygon([(cx, cy - d), (cx + d, cy), (cx, cy + d), (cx - d, cy)], fill=ink, stroke=None)
        b.add(dataclasses.replace(diamond, placed_by="numbers.frame_diamond"))  # the frame's own (pnp.layout.framed)
    return panel


def panel_rules(b: CardBuilder, panel: Box, fill: str, rule_colour: str, ink: str) -> Box:
    """The parchment ``panel`` filled and edged with the frame's engraved double rule; returns the
    inner rule's box."""
    t = b.template
    b.add(Rect(panel.x, panel.y, panel.width, panel.height, fill=fill, stroke=rule_colour,
               stroke_width=t.number("frame_rule_width"), radius=t.number("frame_radius"), named="the card frame's rule"))
    inner = panel.inset(t.number("frame_inner_inset"))
    outer_rule, inner_rule = b.items[-1], Rect(inner.x, inner.y, inner.width, inner.height, stroke=ink,
                                               stroke_width=t.number("frame_inner_rule_width"),
                                               radius=t.number("frame_inner_radius"), named="the card frame's inner rule")
    b.add(inner_rule)
    if isinstance(outer_rule, Rect):
        b.keep_frame_lines_apart(outer_rule, inner_rule, "frame_rule_width", "frame_inner_rule_width", "frame_inner_inset")
        b.keep_rounded_rules_apart(outer_rule, inner_rule, "frame_radius", "frame_inner_radius", "frame_inner_inset")
    return inner


def title_band(b: CardBuilder, box: Box, fill: str, hatch_colour: str, rule: str) -> None:
    """A title band: a filled bar with fine engraved hatching and a thin rule above and below."""
    t = b.template
    rule_width = t.number("title_band_rule_width")
    b.add(Rect(box.x, box.y, box.width, box.height, fill=fill))
    b.add(hatch(box, hatch_colour, spacing=t.number("title_band_hatch_spacing"), width=t.number("title_band_hatch_width"),
                width_key="numbers.title_band_hatch_width"))
    # their width judged against the texts above and below as every rule's (thirty-sixth pnp breaker, HIGH 1: a 2 mm rule
    # covered the tops of the summary line under the band, and check passed)
    b.add(Line(box.x, box.y, box.right, box.y, rule, rule_width, stroke_key="numbers.title_band_rule_width"))
    b.add(Line(box.x, box.bottom, box.right, box.bottom, rule, rule_width, stroke_key="numbers.title_band_rule_width"))


ORNAMENT_DIAMOND = "an ornament rule's diamond"
"""The name (:attr:`pnp.drawing.Polyline.named`) of the diamond in the middle of an ornament rule (:func:`ornament_rule`)."""


def ornament_rule(t: Template, x1: float, x2: float, y: float, ink: str) -> list[Primitive]:
    """A horizontal rule with a small diamond in its middle (a printer's ornament); its gap, width
    and diamond are the template's ``ornament_*`` numbers."""
    middle = (x1 + x2) / 2
    gap, width = t.number("ornament_gap"), t.number("ornament_rule_width")
    dw, dh = t.number("ornament_diamond_w"), t.number("ornament_diamond_h")
    return [Line(x1, y, middle - gap, y, ink, width, stroke_key="numbers.ornament_rule_width"),  # its width judged against
            Line(middle + gap, y, x2, y, ink, width, stroke_key="numbers.ornament_rule_width"),  # texts (thirty-fourth breaker)
            Polygon([(middle, y - dh), (middle + dw, y), (middle, y + dh), (middle - dw, y)], fill=ink, stroke=None,
                    named=ORNAMENT_DIAMOND)]


def footer(b: CardBuilder, text: str, spec: str = "footer", color: str | None = None) -> None:
    """The small footer (card id) in the template's ``footer`` box."""
    b.text("footer", text, spec, color=color)


def numbered_box(x: float, y: float, size: float, number: str, ink: str, fill: str | None, *,
                 text_size: float, family: str, stroke_width: float, radius: float,
                 number_fill: str | None = None, stroke_key: str = "") -> list[Primitive]:
    """A square track space ``size`` mm at ``(x, y)`` with corners rounded by ``radius`` mm and
    ``number`` (``text_size`` pt) centred, stroked in ``ink``; ``stroke_key`` is the template key of its outline's width
    (:attr:`pnp.drawing.Rect.stroke_key`)."""
    items: list[Primitive] = [Rect(x, y, size, size, fill=fill, stroke=ink, stroke_width=stroke_width, radius=radius, space=True,
                                   stroke_key=stroke_key)]
    if number:
        cap = cap_height_mm(text_size)
        items.extend(single_line(number, x + size / 2, y + size / 2 + cap / 2, family, text_size,
                                 anchor="middle", fill=number_fill or ink))
    return items


def arrow(x1: float, y1: float, x2: float, y2: float, ink: str, width: float, head: float,
          spread: float, width_key: str = "", head_key: str = "") -> list[Primitive]:
    """A straight arrow from ``(x1, y1)`` to ``(x2, y2)`` (mm), ``width`` mm wide, with a filled head
    ``head`` mm long and ``spread`` times as wide either side of the shaft. ``width_key`` and ``head_key`` name the
    template keys of the shaft's width and of the head's size, for the checks that say a fault at them."""
    angle = math.atan2(y2 - y1, x2 - x1)
    bx, by = x2 - head * math.cos(angle), y2 - head * math.sin(angle)
    left = (bx + head * spread * math.sin(angle), by - head * spread * math.cos(angle))
    right = (bx - head * spread * math.sin(angle), by + head * spread * math.cos(angle))
    return [Line(x1, y1, bx, by, ink, width, stroke_key=width_key),
            dataclasses.replace(Polygon([(x2, y2), left, right], fill=ink, stroke=None), placed_by=head_key)]


def icon_centred(name: str, cx: float, cy: float, size: float) -> Icon:
    """An icon of side ``size`` mm centred on ``(cx, cy)``."""
    return Icon(name, cx - size / 2, cy - size / 2, size)


def label(x: float, y: float, text: str, size: float, fill: str, *, family: str = "serif",
          anchor: Anchor = "middle", placed_by: tuple[str, str] = ("", "")) -> list[Primitive]:
    """One unbroken line of text (icons allowed) with its baseline at ``y``. ``placed_by``: the template keys whose values
    place it across and down apart from what is drawn beside it (:attr:`pnp.drawing.TextLine.placed_by`), for the checks."""
    items = single_line(text, x, y, family, size, anchor=anchor, fill=fill)
    if placed_by == ("", ""):
        return items
    return [dataclasses.replace(item, placed_by=placed_by) if isinstance(item, TextLine) else item for item in items]


def tint(colour: str, amount: float, base: str = WHITE) -> str:
    """``colour`` mixed with ``base``: ``amount`` 0 gives ``base``, 1 gives ``colour``."""
    a = [int(colour[i:i + 2], 16) for i in (1, 3, 5)]
    c = [int(base[i:i + 2], 16) for i in (1, 3, 5)]
    return "#" + "".join(f"{round(cc + (aa - cc) * amount):02x}" for aa, cc in zip(a, c))


def circle_number(cx: float, cy: float, r: float, number: str, ink: str, fill: str, text_fill: str,
                  size: float, stroke_width: float) -> list[Primitive]:
    """A disc of radius ``r`` mm, edged ``stroke_width`` mm, with ``number`` (``size`` pt) centred in it."""
    cap = cap_height_mm(size)
    return [Circle(cx, cy, r, fill=fill, stroke=ink, stroke_width=stroke_width),
            *single_line(number, cx, cy + cap / 2, "serif-bold", size, anchor="middle", fill=text_fill)]


__all__ = ["CardBuilder", "TextLine", "WHITE", "BLACK", "cap_height_mm", "frame", "panel_rules", "title_band", "footer", "numbered_box", "arrow", "hatch",
           "icon_centred", "label", "tint", "circle_number", "ornament_rule", "full_bleed"]


def first_passing_tenth(value: float, shipped: float | None, up: bool, passes: Callable[[float], bool]) -> float | None:
    """The first value, in tenths of a mm (or pt), from ``value`` upward (``up``) or downward, at which ``passes(value)``
    is true; never past ``shipped`` (the shipped templates' value, when known) nor below 0 (from a negative ``value``
    upward, the first value of 0 or more), and at most 2,000 steps;
    ``None`` when no such value is found. The advice of a check that has no closed form for its bound (the Location's
    label icons, the Spell Path's arrows): the value it says passes when applied."""
    for count in range(1, 2001):
        tried = (math.floor(value * 10 + 1e-6) + count) / 10 if up else (math.ceil(value * 10 - 1e-6) - count) / 10
        if tried < 0 and up:
            continue  # from a negative value upward: the first value of 0 or more that passes
        if tried < 0 or (shipped is not None and (tried > shipped + ROUNDING_SLACK if up else tried < shipped - ROUNDING_SLACK)):
            return None
        if passes(tried):
            return tried
    return None

