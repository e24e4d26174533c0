"""The legibility check: no rule strikes through a text, no shape hides one, no text sits on its own colour.

This module owns three rules of the printed cards beside the overlap check (:mod:`pnp.layout.overlap`,
which keeps texts off texts, icons and track spaces; shared/DESIGN.md, "Print-and-play": text is fitted,
never hidden):

- a **rule** (a :class:`~pnp.drawing.Line` the layout draws, outside a clipped group, where lines are
  engraved hatching, a texture) may not cross a text line's ink box by more than
  :data:`~pnp.layout.overlap.OVERLAP_SLACK_MM` (breakers 18 and 19: ``title_rule_y = 13`` struck through
  the title and passed);
- a **filled shape** (rectangle, circle with its outline, closed polygon) drawn *after* a text may not reach into
  its ink box, descenders included (a band or panel moved over a text hides it, a ring moved onto a line cuts
  its descenders: twenty-third breaker; drawn before, it is the text's background);
- a text must stand out from the **background** it is printed on, the topmost filled shape drawn before
  it under its centre (the card's paper, white, where there is none): their contrast ratio, as WCAG 2
  defines it, is at least :data:`MIN_CONTRAST` (breaker 19: the deck's title moved into the Warding
  City band printed dark brown on dark brown).

A text too close in colour to a record's own ``color`` (a card back's, in ``cards.toml``) is a ``"contrast"``
problem of that record's ``color`` key. Every other problem is a ``"template"`` :class:`~pnp.layout.problems.FitProblem`
at the template file and line that write what to change: the rule's number when one number of ``[numbers]`` gives its position,
the shape's (``placed_by``, :class:`pnp.drawing.Circle`) when the layout names it, else the text's box; once per
template key, with how many faces it spoils and the first of them.
Coordinates are card mm (:mod:`pnp.drawing`).
"""
from __future__ import annotations

import functools
import math
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pnp.drawing import Box, Circle, Group, Line, Polyline, Rect, TextLine, inside_polygon, turn_points
from pnp.inks import relative_luminance
from pnp.layout.common import LINES_APART_MM, TEXT_INK_GAP_MM, ring_fix, tint
from pnp.layout.overlap import OVERLAP_SLACK_MM, label_key
from pnp.layout.overlap import _overlap as _boxes_clash
from pnp.layout.problems import FitProblem
from pnp.layout.safe import Painted, _intersection, _outer_box, painted
from pnp.layout.template import changed_keys, load_template, template_chain, template_line
from pnp.oneline import quoted, template_value
from pnp.text import ink_boxes
from pnp.units import LAID_OUT_SAFE_MM

MIN_CONTRAST = 3.0
"""The lowest contrast ratio (WCAG 2, (L1 + 0.05) / (L2 + 0.05) of the relative luminances) of a text and
its background: WCAG's floor for large text. The bundled cards' lowest is 4.0 (the Progress Track's
numbers on their gold spaces); brown on the dark band is 1.2."""

FAINT_HATCH_SHARE = 0.15
"""The largest share of a text's background that hatch lines of a colour the text does not stand out from
(:data:`MIN_CONTRAST`) may cover: thin lines read as texture, wider ones cut the letters into stripes (thirty-fifth
breaker, HIGH 24: white lines under the cream title, looked at: 0.1 of the band reads, 0.2 and more does not; the bundled
title bands hatch a tenth, in lines the title stands out from)."""

COVER_SAMPLES = (5, 3)
"""A shape covers a text when it holds at least a fifth of these points of the text's ink box (a grid, columns x rows)."""


@dataclass(frozen=True)
class _Text:
    painted: Painted
    line: TextLine
    order: int
    transforms: tuple[tuple[float, float, float], ...] = ()
    """The enclosing groups' ``(dx, dy, rotation)``, outermost first."""

    @functools.cached_property
    def ink(self) -> tuple[Box, ...]:
        """The boxes (card mm) of the letters' own ink, one a glyph (:func:`_letters_ink`); none for a turned line or one
        with no ink. Measured when first asked (only a text near a thick stroke is)."""
        return _letters_ink(self.line, self.transforms)


def _thick_near(face: Any, template: Path, text: _Text, bands: list[tuple[float, float, float, float, _Band]],
                inner: dict[int, Box], thick: dict[tuple[Path, str], list[Any]]) -> bool:
    """:func:`_thick_over` for ``text`` and the thick strokes ``bands`` near it: judged against the letters' own ink,
    which a stroke's ink keeps :data:`~pnp.layout.common.TEXT_INK_GAP_MM` from, or for a turned line (no glyph boxes)
    against its box shrunk by the slack (``inner``)."""
    if text.ink:
        left, top = min(box.x for box in text.ink), min(box.y for box in text.ink)
        letters = Box(left, top, max(box.right for box in text.ink) - left,
                      max(box.bottom for box in text.ink) - top).inset(-TEXT_INK_GAP_MM)
        near = [band for *_, band in bands if band.bounds.overlaps(letters)]
        return bool(near) and _thick_over(face, template, text, text.ink, near, thick, TEXT_INK_GAP_MM)
    box = inner[id(text)]
    near = [band for left, top, right, bottom, band in bands
            if left < box.right and right > box.x and top < box.bottom and bottom > box.y]
    return bool(near) and _thick_over(face, template, text, box, near, thick)


GLYPH_OVERHANG_MM = 1.0
"""How far (mm) a glyph's ink may reach past the box a text line is painted in (an italic's overhang, an accent): a
thick stroke farther than this and :data:`~pnp.layout.common.TEXT_INK_GAP_MM` from that box cannot come near the ink."""


def _letters_ink(line: TextLine, transforms: tuple[tuple[float, float, float], ...]) -> tuple[Box, ...]:
    """The box (card mm) around the ink of each of ``line``'s glyphs, measured by its outline's box in its font
    (:func:`pnp.text.ink_boxes`), through the enclosing groups' ``transforms``; none for a turned line or one with no
    ink (spaces)."""
    return tuple(_outer_box(box, transforms) for *_, box in ink_boxes([line]))


@dataclass(frozen=True)
class _Rule:
    """A straight stroke in card mm: a :class:`~pnp.drawing.Line` (``line``), or a piece of a shape's outline (a frame's
    engraved rule, a ring: ``line`` ``None``, ``placed_by`` the key that places the shape, if any)."""

    start: tuple[float, float]
    end: tuple[float, float]
    line: Line | None
    placed_by: str = ""
    order: int = 0
    filled: bool = False
    """The outline of a filled shape: drawn after a text, the shape itself is judged (:meth:`_Fill.touches`)."""
    named: str = ""
    """What the outline is, in words (``the card frame's inner rule``: :attr:`pnp.drawing.Rect.named`), or ``""``."""
    ring: Circle | None = None
    """The filled disc this is a piece of the ring of, in card mm (:attr:`pnp.drawing.Circle.grown_by` names its keys),
    or ``None``: drawn before a text, the ring's line through the text is a rule through it (twenty-sixth breaker)."""
    half: float = 0.0
    """Half the width of the rule's own line (mm) when it is the outline of a filled shape beside a thick stroke
    (:func:`_edges`): a thick stroke covers it when its ink reaches past that line's far edge (it hides it whole); 0 for a hairline."""
    kept_apart: bool = False
    """The ring of a disc beside a thick stroke (:func:`_edges`): the stroke's ink keeps
    :data:`~pnp.layout.common.LINES_APART_MM` from the ring's ink, so that the two print as two lines."""
    stroke_key: str = ""
    """The template key of the width of the shape's own line, if any: a ring is not judged against a stroke whose width
    the same key gives (the use discs' rings beside each other grow together)."""


OUTLINE_SEGMENTS = 32
"""A circle's outline (or a rounded corner's quarter of it) is judged as this many (a quarter: a quarter of them) straight pieces."""


def _outline(item: Rect | Circle | Polyline) -> list[tuple[tuple[float, float], tuple[float, float]]]:
    """The straight pieces (local mm) of the stroked outline of ``item``: a rectangle's four sides and its rounded corners,
    a circle's ring, a polyline's segments (closed: back to its first point)."""
    if isinstance(item, Polyline):
        chain = list(item.points) + ([item.points[0]] if item.closed else [])
        return list(zip(chain, chain[1:]))
    if isinstance(item, Circle):
        ring = [(item.cx + item.r * math.cos(2 * math.pi * i / OUTLINE_SEGMENTS),
                 item.cy + item.r * math.sin(2 * math.pi * i / OUTLINE_SEGMENTS)) for i in range(OUTLINE_SEGMENTS + 1)]
        return list(zip(ring, ring[1:]))
    radius = max(0.0, min(item.radius, item.width / 2, item.height / 2))
    left, top, right, bottom = item.x, item.y, item.x + item.width, item.y + item.height
    points: list[tuple[float, float]] = []
    quarter = OUTLINE_SEGMENTS // 4
    for cx, cy, start in ((right - radius, top + radius, -90.0), (right - radius, bottom - radius, 0.0),
                          (left + radius, bottom - radius, 90.0), (left + radius, top + radius, 180.0)):
        steps = quarter if radius else 0
        for i in range(steps + 1):
            angle = math.radians(start + 90.0 * i / max(steps, 1))
            points.append((cx + radius * math.cos(angle), cy + radius * math.sin(angle)))
    points.append(points[0])
    return list(zip(points, points[1:]))


@dataclass(frozen=True)
class _Fill:
    """A filled shape in card mm: a polygon's ``points`` (a rectangle's four corners), or a circle's
    ``centre`` and ``radius``."""

    points: tuple[tuple[float, float], ...]
    centre: tuple[float, float] | None
    radius: float
    colour: str
    order: int
    clip: Box | None = None
    """What of the shape shows: the clip of the group it is drawn in (card mm), ``None`` for all of it."""
    placed_by: str = ""
    """The template key that places the shape (:attr:`pnp.drawing.Circle.placed_by`), ``""`` when none is known."""
    rim: float = 0.0
    """The width (mm) of a circle's outline, inside ``radius``: a text on the disc keeps off it (:func:`_edge_under`)."""
    band: bool = False
    """A thick outline's band (:attr:`pnp.drawing.Rect.stroke_key`): ``placed_by`` is then the key of its width."""

    def contains(self, point: tuple[float, float]) -> bool:
        """Whether ``point`` (mm) lies inside the shape as it shows (even-odd rule for polygons)."""
        x, y = point
        bounds = self.bounds
        if not (bounds.x <= x <= bounds.right and bounds.y <= y <= bounds.bottom):
            return False
        if self.centre is not None:
            return math.hypot(x - self.centre[0], y - self.centre[1]) <= self.radius
        return inside_polygon(point, self.points)

    @functools.cached_property
    def bounds(self) -> Box:
        """The bounding box (mm) of what shows of the shape."""
        if self.centre is not None:
            box = Box(self.centre[0] - self.radius, self.centre[1] - self.radius, 2 * self.radius, 2 * self.radius)
        else:
            xs, ys = [x for x, _ in self.points], [y for _, y in self.points]
            box = Box(min(xs), min(ys), max(xs) - min(xs), max(ys) - min(ys))
        shown = _intersection(box, self.clip) if self.clip is not None else box
        return shown if shown is not None else Box(box.x, box.y, 0.0, 0.0)

    def touches(self, inner: Box) -> bool:
        """Whether any of ``inner`` (a text's ink box shrunk by the slack) lies under what shows of the shape: a ring
        that only cuts a descender counts (twenty-third breaker: the quest emblem's ring crossed the "g" of "gained."
        by half a millimetre and passed, for it held too few of :meth:`covers`'s sample points)."""
        box = _intersection(inner, self.clip) if self.clip is not None else inner
        if box is None or box.width <= 0 or box.height <= 0 or not box.overlaps(self.bounds):
            return False
        if self.centre is not None:
            nearest = (min(max(self.centre[0], box.x), box.right), min(max(self.centre[1], box.y), box.bottom))
            return math.hypot(nearest[0] - self.centre[0], nearest[1] - self.centre[1]) < self.radius
        corners = [(box.x, box.y), (box.right, box.y), (box.right, box.bottom), (box.x, box.bottom)]
        edges = zip(self.points, self.points[1:] + self.points[:1])
        return (any(self.contains(corner) for corner in corners)
                or any(box.x < x < box.right and box.y < y < box.bottom for x, y in self.points)
                or any(crossing_length(start, end, box) > 0 for start, end in edges))

    def covers(self, inner: Box) -> bool:
        """Whether the shape holds a fifth of the sample points of ``inner`` (a text's ink box shrunk by the slack)."""
        if inner.width <= 0 or inner.height <= 0 or not inner.overlaps(self.bounds):
            return False
        columns, rows = COVER_SAMPLES
        points = [(inner.x + inner.width * i / (columns - 1), inner.y + inner.height * j / (rows - 1))
                  for i in range(columns) for j in range(rows)]
        return sum(self.contains(point) for point in points) * 5 >= len(points)


@dataclass(frozen=True)
class _Hatch:
    """Engraved hatching (:func:`pnp.layout.common.hatch`: a clipped group of parallel lines) in card mm: the ``box`` it
    fills, its lines' ``colour``, the share of the box they cover (``coverage``: line width over their spacing), its
    place in the drawing order and the template key of its lines' width (``key``, ``""`` when none is known)."""

    box: Box
    colour: str
    coverage: float
    order: int
    key: str = ""
    spacing: float = 0.0
    """How far apart (mm) its lines are, across them."""

    def mixed(self, background: str) -> str:
        """The colour ``background`` hatched so reads as from arm's length: the mean of it and the lines' colour."""
        return tint(self.colour, self.coverage, background)


def _hatch_of(lines: list[Line], clip: Box | None, order: int) -> _Hatch | None:
    """The :class:`_Hatch` of a texture group's ``lines`` shown inside ``clip`` (card mm), ``None`` when it has fewer
    than two lines (no spacing to measure) or no clip."""
    if len(lines) < 2 or clip is None:
        return None
    first, second = lines[0], lines[1]
    length = math.hypot(first.x2 - first.x1, first.y2 - first.y1)
    if length == 0:
        return None
    across = abs((first.x2 - first.x1) * (second.y1 - first.y1) - (first.y2 - first.y1) * (second.x1 - first.x1)) / length
    if across <= 0:
        return None
    return _Hatch(clip, first.stroke, min(1.0, first.stroke_width / across), order, first.stroke_key, across)


@dataclass(frozen=True)
class _Band:
    """The ink of one straight piece of a thick stroke whose width one template key gives (:attr:`pnp.drawing.Rect.stroke_key`
    and the same of a line, circle or polygon), in card mm: the piece ``start``-``end`` widened by ``half`` its width each
    side (twenty-eighth breaker: ``hex_rule_width = 8`` buried every hex label and passed, for only a line's middle was
    judged)."""

    start: tuple[float, float]
    end: tuple[float, float]
    half: float
    key: str
    colour: str
    order: int
    clip: Box | None = None
    what: str = "outline of a shape"
    """What the stroke is, in words: ``line`` for a :class:`~pnp.drawing.Line`."""

    @functools.cached_property
    def bounds(self) -> Box:
        """The box (mm) of the widened piece, before its clip."""
        (x1, y1), (x2, y2) = self.start, self.end
        return Box(min(x1, x2) - self.half, min(y1, y2) - self.half, abs(x2 - x1) + 2 * self.half, abs(y2 - y1) + 2 * self.half)

    def clearance(self, inner: Box, gap: float | None = None) -> float | None:
        """How far (mm) the piece's middle line stays from ``inner`` (a text's ink box shrunk by the slack) when its ink
        reaches into it by more than the slack, ``None`` when the ink stays out of it (or the clip hides where it would).
        With ``gap`` (mm), ``inner`` is the letters' own ink (:func:`_letters_ink`): the piece's ink must stay ``gap``
        from it."""
        box = _intersection(inner, self.clip) if self.clip is not None else inner
        if box is None or box.width <= 0 or box.height <= 0:
            return None
        if gap is None:
            if not box.overlaps(self.bounds):
                return None
            distance = _segment_box_distance(self.start, self.end, box)  # the ink may reach the slack into it, as a ring's (_ring_ink_over)
            return distance if distance < self.half - OVERLAP_SLACK_MM - FLOAT_SLACK_MM else None
        if not box.inset(-gap).overlaps(self.bounds):
            return None
        distance = _segment_box_distance(self.start, self.end, box)
        return distance if distance < self.half + gap - FLOAT_SLACK_MM else None


def _point_segment_distance(point: tuple[float, float], start: tuple[float, float], end: tuple[float, float]) -> float:
    """The distance (mm) from ``point`` to the segment from ``start`` to ``end``."""
    (x1, y1), (x2, y2), (px, py) = start, end, point
    dx, dy = x2 - x1, y2 - y1
    length = dx * dx + dy * dy
    step = 0.0 if length == 0 else max(0.0, min(1.0, ((px - x1) * dx + (py - y1) * dy) / length))
    return math.hypot(px - (x1 + step * dx), py - (y1 + step * dy))


def _segment_box_distance(start: tuple[float, float], end: tuple[float, float], box: Box) -> float:
    """The shortest distance (mm) between the segment ``start``-``end`` and ``box``, 0 when they meet."""
    if crossing_length(start, end, box) > 0 or (box.x <= start[0] <= box.right and box.y <= start[1] <= box.bottom):
        return 0.0

    def to_segment(point: tuple[float, float]) -> float:
        return _point_segment_distance(point, start, end)

    def to_box(point: tuple[float, float]) -> float:
        return math.hypot(point[0] - min(max(point[0], box.x), box.right), point[1] - min(max(point[1], box.y), box.bottom))

    corners = [(box.x, box.y), (box.right, box.y), (box.right, box.bottom), (box.x, box.bottom)]
    return min([to_box(start), to_box(end)] + [to_segment(corner) for corner in corners])


def _bands(item: Any, transforms: tuple[tuple[float, float, float], ...], order: int, clip: Box | None) -> Iterator[_Band]:
    """The widened pieces (:class:`_Band`) of ``item``'s stroke when one template key gives its width and half of it is more
    than the slack; nothing else."""
    key = getattr(item, "stroke_key", "")
    half = item.stroke_width / 2 if item.stroke else 0.0
    if not key or half <= OVERLAP_SLACK_MM:
        return
    pieces = [((item.x1, item.y1), (item.x2, item.y2))] if isinstance(item, Line) else _outline(item)
    for start, end in pieces:
        start, end = _turned([start, end], transforms)
        yield _Band(start, end, half, key, item.stroke, order, clip, "line" if isinstance(item, Line) else "outline of a shape")


def _turned(points: list[tuple[float, float]], transforms: tuple[tuple[float, float, float], ...]) -> tuple[tuple[float, float], ...]:
    for dx, dy, rotation in reversed(transforms):
        points = turn_points(points, rotation, dx, dy)
    return tuple(points)


def _marks(items: Iterable, transforms: tuple[tuple[float, float, float], ...] = (), clip: Box | None = None,
           hatched: bool = False, counter: list[int] | None = None) -> Iterator[_Text | _Rule | _Fill | _Band | _Hatch]:
    """The texts (each run), rules (lines, and the outlines of stroked shapes) and filled shapes of ``items`` in drawing
    order, in card mm. Lines in a clipped group of lines only are hatching (a texture under what it fills), not rules;
    what a clip hides entirely is skipped."""
    counter = [0] if counter is None else counter
    for item in items:
        counter[0] += 1
        order = counter[0]
        if isinstance(item, Group):
            inner_clip = _outer_box(item.clip, transforms) if item.clip is not None else clip
            if clip is not None and inner_clip is not None:
                inner_clip = _intersection(inner_clip, clip)
            if inner_clip is None and item.clip is not None:
                continue
            # a clipped group of lines alone is a texture (:func:`pnp.layout.common.hatch`); a board's card, cut out of
            # the board by a clip, holds rules that count (twenty-fourth breaker: a battle map's frame and rules were
            # never judged)
            texture = item.clip is not None and all(isinstance(inner, Line) for inner in item.items)
            if texture and not hatched:  # thirty-fifth breaker, HIGH 24: hatching is part of the background a text is read on
                lines = [inner for inner in item.items if isinstance(inner, Line)]
                found_hatch = _hatch_of(lines, inner_clip, order)
                if found_hatch is not None:
                    yield found_hatch
            yield from _marks(item.items, transforms + ((item.dx, item.dy, item.rotation),), inner_clip,
                              hatched or texture, counter)
        elif isinstance(item, TextLine):
            for found in painted([item], transforms, clip):
                yield _Text(found, item, order, transforms)
        elif isinstance(item, Line) and not hatched:
            start, end = _turned([(item.x1, item.y1), (item.x2, item.y2)], transforms)
            yield _Rule(start, end, item, order=order)
            yield from _bands(item, transforms, order, clip)
            continue
        if isinstance(item, (Rect, Circle, Polyline)) and item.stroke and item.stroke_width > 0 and not item.fill \
                and not hatched:
            # an outline drawn alone is a rule too (twenty-fourth breaker: the card frame's engraved inner rule struck
            # through the first letter of each line of an event box moved onto it, and check passed); a filled shape's
            # outline is its edge (a track space, a hex, a ring), which the overlap and shape checks judge
            for start, end in _outline(item):
                start, end = _turned([start, end], transforms)
                yield _Rule(start, end, None, item.placed_by, order, bool(item.fill), getattr(item, "named", ""))
        if isinstance(item, Circle) and item.fill and item.stroke and item.stroke_width > 0 and item.grown_by and not hatched:
            # a ring's line, drawn before a text that runs off the disc onto it, strikes through the text (twenty-sixth
            # breaker: `key_icon_ring = 4` cut the "W" of "Warding Key", `emblem_ring = 4` the footer's id)
            (centre,) = _turned([(item.cx, item.cy)], transforms)
            disc = Circle(centre[0], centre[1], item.r, stroke_width=item.stroke_width, grown_by=item.grown_by,
                          placed_by=item.placed_by)
            for start, end in _outline(item):
                start, end = _turned([start, end], transforms)
                yield _Rule(start, end, None, item.placed_by, order, True, "the ring of a disc", disc)
        if isinstance(item, (Rect, Circle, Polyline)) and not hatched and not getattr(item, "grown_by", ()):
            # a thick stroke whose width a template key gives: its ink, half its width each side (a ring's is judged by its keys)
            yield from _bands(item, transforms, order, clip)
        if isinstance(item, Rect) and item.fill:
            edge = item.stroke_width / 2 if item.stroke else 0.0  # its outline's ink reaches half its width each side
            if edge > OVERLAP_SLACK_MM and not item.stroke_key:  # a thick outline is a band of its own colour around the fill (twenty-seventh breaker:
                # `portrait_rule_width = 8` covered the title, and check passed)
                yield _Fill(_turned(_corners(item, edge), transforms), None, 0.0, item.stroke or item.fill, order, clip,
                            item.stroke_key or item.placed_by, band=bool(item.stroke_key))
            yield _Fill(_turned(_corners(item, -edge if edge > OVERLAP_SLACK_MM else 0.0), transforms), None, 0.0, item.fill,
                        order, clip, item.placed_by)
        elif isinstance(item, Circle) and item.fill:
            (centre,) = _turned([(item.cx, item.cy)], transforms)
            outline = item.stroke_width / 2 if item.stroke else 0.0  # a ring's line is ink over the text too
            yield _Fill((), centre, item.r + outline, item.fill, order, clip, item.placed_by, rim=2 * outline)
        elif isinstance(item, Polyline) and item.fill and item.closed:
            yield _Fill(_turned(list(item.points), transforms), None, 0.0, item.fill, order, clip, item.placed_by)


def _corners(rect: Rect, grown: float) -> list[tuple[float, float]]:
    """The four corners (local mm) of ``rect`` grown by ``grown`` mm each side (shrunk when negative)."""
    left, top, right, bottom = rect.x - grown, rect.y - grown, rect.x + rect.width + grown, rect.y + rect.height + grown
    return [(left, top), (right, top), (right, bottom), (left, bottom)]


def _crossing_span(start: tuple[float, float], end: tuple[float, float], box: Box) -> tuple[float, float]:
    """The part of the segment ``start``-``end`` inside ``box`` as ``(low, high)`` fractions of its length (Liang-Barsky
    clipping); ``high <= low`` when it misses."""
    dx, dy = end[0] - start[0], end[1] - start[1]
    low, high = 0.0, 1.0
    for p, q in ((-dx, start[0] - box.x), (dx, box.right - start[0]), (-dy, start[1] - box.y), (dy, box.bottom - start[1])):
        if p == 0:
            if q < 0:
                return 0.0, 0.0
        elif p < 0:
            low = max(low, q / p)
        else:
            high = min(high, q / p)
    return low, high


def crossing_length(start: tuple[float, float], end: tuple[float, float], box: Box) -> float:
    """How long (mm) the segment ``start``-``end`` runs inside ``box`` (Liang-Barsky clipping), 0 when it misses."""
    low, high = _crossing_span(start, end, box)
    return max(0.0, high - low) * math.hypot(end[0] - start[0], end[1] - start[1])


@functools.cache
def contrast(foreground: str, background: str) -> float:
    """The WCAG 2 contrast ratio (1 to 21) of two ``"#rrggbb"`` colours: (L1 + 0.05) / (L2 + 0.05) of their
    relative luminances (:func:`pnp.inks.relative_luminance`), the lighter over the darker."""
    lighter, darker = sorted((relative_luminance(foreground), relative_luminance(background)), reverse=True)
    return (lighter + 0.05) / (darker + 0.05)


def _ratio(ratio: float) -> str:
    """A failing contrast ``ratio`` as printed: rounded down to two decimals (2.98, never a 3.0 that reads as passing
    the 3:1 floor: twenty-third breaker), trailing zeros dropped (1.1)."""
    return f"{math.floor(ratio * 100) / 100:g}"


def _direction(colour: str, other: str) -> str:
    """``"darker"`` or ``"lighter"``: which way ``colour`` must go to stand out from ``other`` (the way that can
    reach :data:`MIN_CONTRAST`; when both can, away from ``other``)."""
    can_darken, can_lighten = contrast("#000000", other) >= MIN_CONTRAST, contrast("#ffffff", other) >= MIN_CONTRAST
    if can_darken != can_lighten:
        return "darker" if can_darken else "lighter"
    return "darker" if relative_luminance(other) >= relative_luminance(colour) else "lighter"


def _name(text: _Text) -> str:
    return f"the text of [boxes.{text.painted.source}]" if text.painted.source else \
        f"the text {quoted(text.line.text, 30)} the layout places"


def _colour_key(template: Path, text: _Text, background: str,
                edited: dict[Path, frozenset[str]] | None = None) -> tuple[str | None, str]:
    """The ``colors.<name>`` key that gives ``text`` its colour (its box's ``color``, ``ink`` by default; for a text the
    layout places, the one name of ``[colors]`` with that value), or ``None``; and the colour in words
    (``ink (#efe3c6)``). Twentieth breaker: `ink` set to the parchment's colour was a line for each box of every template.
    ``edited`` keeps, a template, the keys its files changed from the shipped ones (read once a check, not once a text)."""
    loaded = load_template(template.stem, template.parent)
    fill = text.line.fill
    spec = loaded.boxes.get(text.painted.source) if text.painted.source else None
    if spec is not None and spec.color_name and spec.color == fill:
        edited = {} if edited is None else edited
        if template not in edited:
            edited[template] = frozenset(key for file in template_chain(template) for key, _, _ in changed_keys(file))
        if f"boxes.{spec.name}.color" in edited[template]:
            # the box's own choice of colour was edited, not the colour (thirty-first pnp breaker, MED 18: `color =
            # "parchment"` in quest.toml's [boxes.event] was said at base.toml's parchment, the background of every card)
            return f"boxes.{spec.name}.color", f"{spec.color_name} ({fill})"
        return f"colors.{spec.color_name}", f"{spec.color_name} ({fill})"
    if spec is not None and not spec.color_name and spec.color == fill:  # `color = "#ece0c4"` written in the box itself
        return f"boxes.{spec.name}.color", fill
    if spec is None:
        names = [name for name, value in loaded.colors.items() if value == fill]
        if len(names) == 1 and names[0] not in {name for name, value in loaded.colors.items() if value == background}:
            return f"colors.{names[0]}", f"{names[0]} ({fill})"
    return None, fill


def _named(template: Path, colour: str) -> str:
    """``colour`` with the ``[colors]`` names that have it (``#f4ead3 (panel, band_text)``)."""
    names = [name for name, value in load_template(template.stem, template.parent).colors.items() if value == colour]
    return f"{colour} ({', '.join(names)})" if names else colour


def _rule_number(template: Path, rule: Line) -> str | None:
    """The one ``[numbers]`` key whose value places ``rule`` across its length (y for a level rule, x for an
    upright one, any end otherwise; a rule's name preferred), else ``None``."""
    coordinates = ((rule.y1,) if rule.y1 == rule.y2 else (rule.x1,) if rule.x1 == rule.x2 else (rule.x1, rule.y1, rule.x2, rule.y2))
    found = load_template(template.stem, template.parent).numbers_valued(coordinates, ("rule",))
    return found[0] if len(found) == 1 else None


RULE_SAMPLE_MM = 0.1
"""How far apart (mm) along a rule :func:`_hidden_length` tests whether a shape lies over it."""


def _hidden_length(rule: _Rule, fill: _Fill) -> float:
    """How much (mm) of the length of ``rule`` (a :class:`~pnp.drawing.Line`) lies under ``fill``, across any part of its
    ink: points every :data:`RULE_SAMPLE_MM` along its middle line and its ink's two edges, each place counted once (a
    shape's edge run along the rule's ink merges the two lines). A line with an end on or in the shape (a spell path's
    connector, drawn from a box's edge: an end within its box) is judged on its middle line only. 0 when their boxes are apart."""
    (x1, y1), (x2, y2) = rule.start, rule.end
    length = math.hypot(x2 - x1, y2 - y1)
    half = rule.line.stroke_width / 2 if rule.line is not None else 0.0
    bounds = fill.bounds
    if (max(x1, x2) + half < bounds.x or min(x1, x2) - half > bounds.right
            or max(y1, y2) + half < bounds.y or min(y1, y2) - half > bounds.bottom or length <= 0):
        return 0.0
    near = bounds.inset(-half - FLOAT_SLACK_MM)
    sides = (0.0,) if any(near.x <= x <= near.right and near.y <= y <= near.bottom for x, y in (rule.start, rule.end)) \
        else (-1.0, 0.0, 1.0)
    across = (-(y2 - y1) / length * half, (x2 - x1) / length * half)  # from the middle line to an edge of its ink
    steps = max(1, math.ceil(length / RULE_SAMPLE_MM))
    hidden = sum(any(fill.contains((x1 + (x2 - x1) * step / steps + side * across[0],
                                    y1 + (y2 - y1) * step / steps + side * across[1])) for side in sides)
                 for step in range(steps + 1))
    return hidden * length / (steps + 1)


def _threaded(fill: _Fill, rule: _Rule) -> bool:
    """Whether ``fill`` is a disc on ``rule``: it reads as a medallion threaded on the rule, the rule running into its
    ring (a quest's emblem on its ornament rule, :func:`pnp.layout.solo._emblem`; a Warding City's key disc on its band's
    rule when a wider safe area shrinks the card's contents toward its middle). Rectangles (a track space, a shaded row)
    over a rule cut it."""
    return fill.centre is not None and rule.line is not None


def _over_letters(text: _Text, fills: list[_Fill]) -> _Fill | None:
    """The first shape of ``fills`` drawn after ``text`` that reaches within :data:`~pnp.layout.common.TEXT_INK_GAP_MM`
    of the ink of one of its letters (a round letter's overshoot below the baseline, a descender), else ``None``. The
    text's box runs from its baseline up: a spell row's shading 0.07 mm into the bottom of the title's letters passed the
    box's test (forty-fourth pnp breaker, polish 13: at `spells_top = 12.4` the row hid the foot of "Lassadar")."""
    near = text.painted.box.inset(-GLYPH_OVERHANG_MM - TEXT_INK_GAP_MM)
    later = [fill for fill in fills if fill.order > text.order and fill.bounds.overlaps(near)]
    if not later or not text.ink:
        return None
    return next((fill for fill in later if any(fill.touches(letter.inset(-TEXT_INK_GAP_MM)) for letter in text.ink)), None)


def _on_rule(fill: _Fill, rule: _Rule) -> bool:
    """Whether ``fill`` sits on ``rule``: the rule's line runs through the shape's bounds (an ornament rule's diamond,
    drawn in the gap between its two halves: :func:`pnp.layout.common.ornament_rule`)."""
    bounds = fill.bounds
    (x1, y1), (x2, y2) = rule.start, rule.end
    if y1 != y2:
        return False
    gap_reach = max(bounds.right - bounds.x, 1.0) + 1.0  # the rule stops short of its diamond by the ornament's gap
    return bounds.y <= y1 <= bounds.bottom and min(x1, x2) - gap_reach <= bounds.right and bounds.x <= max(x1, x2) + gap_reach


CROSSING_SAMPLES = 16
"""How many points along a rule's piece inside a text's ink box are tested for a filled shape drawn over them."""


def _shown_crossing(rule: _Rule, box: Box, fills: list[_Fill]) -> float:
    """How long (mm) ``rule`` shows inside ``box``: :func:`crossing_length`, less what filled shapes drawn after the rule
    hide (a progress track's road runs under its spaces, and the space's number is printed over the space, not the road)."""
    low, high = _crossing_span(rule.start, rule.end, box)
    (x1, y1), (x2, y2) = rule.start, rule.end
    length = max(0.0, high - low) * math.hypot(x2 - x1, y2 - y1)
    if length <= OVERLAP_SLACK_MM:
        return length
    over = [fill for fill in fills if fill.order > rule.order and fill.bounds.overlaps(box)]
    if not over:
        return length
    steps = [low + (high - low) * i / (CROSSING_SAMPLES - 1) for i in range(CROSSING_SAMPLES)]
    shown = sum(1 for step in steps if not any(fill.contains((x1 + (x2 - x1) * step, y1 + (y2 - y1) * step)) for fill in over))
    return length * shown / CROSSING_SAMPLES


def _letters_touch(first: tuple[Box, ...], second: tuple[Box, ...]) -> bool:
    """Whether a letter's ink box of ``first`` comes within :data:`~pnp.layout.common.TEXT_INK_GAP_MM` of one of
    ``second`` (card mm): the two texts print as one."""
    return any(a.inset(-TEXT_INK_GAP_MM).overlaps(b) for a in first for b in second)


def _edge_under(text: _Text, inner: Box, fills: list[_Fill]) -> str | None:
    """The key (``numbers.uses_label_dy``) that placed ``text``, a text the layout places itself, across the edge of a
    filled shape drawn before it, so that its letters stand half on the shape and half off (thirty-fourth breaker, HIGH 6:
    ``uses_label_dy = 4.3`` set the Elder's "uses" caption across the ring of its third use disc); ``None`` when it is
    not, or when no key places it. ``inner`` is its ink box shrunk by the slack. A box's text is judged by its box."""
    if text.painted.source or text.line.rotation or not any(text.line.placed_by):
        return None
    corners = ((inner.x, inner.y), (inner.right, inner.y), (inner.x, inner.bottom), (inner.right, inner.bottom))
    for fill in fills:
        if fill.order >= text.order or fill.band or not fill.touches(inner):
            continue
        if fill.centre is not None:  # on a disc, clear of its ring's line
            inside = sum(math.hypot(x - fill.centre[0], y - fill.centre[1]) <= fill.radius - fill.rim for x, y in corners)
        else:
            inside = sum(fill.contains(corner) for corner in corners)
        if inside == len(corners):
            continue  # on the shape: its background
        bounds = fill.bounds
        upright = bounds.x > inner.x or bounds.right < inner.right  # an upright edge: the text moves off it across
        key = text.line.placed_by[0 if upright else 1] or text.line.placed_by[1 if upright else 0]
        return key or None
    return None


def _footer_on_shape(template: Path, text: _Text, fills: list[_Fill], scale: float = 1.0) -> _Fill | None:
    """The filled shape drawn before ``text``, a line of the card's footer (``[boxes.footer]``, the card's id), that lies
    under its ink box (the font's ascent and descent) grown by :data:`LINES_APART_MM` (the shape's outline, not in its
    fill, on the letters' tops reads as the footer set in it) and is narrower than the footer box (its ``w``, times
    ``scale``, the face's shrink for a wider safe area): a shape of the card's own (a Warding Key
    space) run down onto the footer, which then reads as the shape's text; ``None`` when there is none. The card's
    panel, a band or a board's background spans the whole line. Forty-third pnp breaker, MED
    5: `key_h` up to 11.6 in stats.toml set "solo.stats.character" inside the Key 2 space, on its tinted fill, and check
    passed (a box's text is judged across a shape's edge or under a shape drawn after it, not on one drawn before it)."""
    if text.painted.source != "footer" or text.line.rotation:
        return None
    spec = load_template(template.stem, template.parent).boxes.get("footer")
    if spec is None:
        return None
    width = object.__getattribute__(spec, "w") * scale  # (not a read of the layout's)
    return next((fill for fill in fills if fill.order < text.order and not fill.band
                 and fill.bounds.width < width - OVERLAP_SLACK_MM and fill.touches(text.painted.box.inset(-LINES_APART_MM))), None)


def _text_key(text: _Text, rule: _Rule) -> str:
    """The template key that moves ``text`` across ``rule``: the key that places it across an upright rule (down a level
    one; :attr:`pnp.drawing.TextLine.placed_by`, ``numbers.roll_gap``) when the layout names one, else its box
    (``boxes.event``), else ``numbers``."""
    (x1, y1), (x2, y2) = rule.start, rule.end
    axis = 0 if abs(x2 - x1) <= abs(y2 - y1) else 1
    placed = text.line.placed_by[axis] if not text.line.rotation else ""
    if placed:
        return placed
    return f"boxes.{text.painted.source}" if text.painted.source else "numbers"


def _ring_ink_over(ring: Circle, box: Box) -> bool:
    """Whether the ink of ``ring``'s line (card mm: an annulus half its ``stroke_width`` either side of its radius) reaches
    into ``box`` (a text's ink box, mm) by more than the slack: a thick ring whose middle line misses a text still covers it
    (twenty-seventh breaker: ``key_icon_rule_width = 3`` covered the Warding City band's text and passed). Thin lines are
    judged by their middle line alone (:func:`_shown_crossing`)."""
    half = ring.stroke_width / 2
    if half <= OVERLAP_SLACK_MM:
        return False
    nearest = math.hypot(min(max(ring.cx, box.x), box.right) - ring.cx, min(max(ring.cy, box.y), box.bottom) - ring.cy)
    farthest = max(math.hypot(x - ring.cx, y - ring.cy) for x in (box.x, box.right) for y in (box.y, box.bottom))
    return nearest < ring.r + half - OVERLAP_SLACK_MM and farthest > ring.r - half + OVERLAP_SLACK_MM


def _ring_said(template: Path, ring: Circle, text: _Text, box: Box) -> tuple[str, str, str, float]:
    """The key, message, box and ``over`` (mm) of the problem "the ring of ``ring`` (card mm) strikes through ``text``" (``box``, its ink
    box shrunk by the slack): at the ring's own key when the ring grew onto the text (:func:`pnp.layout.common.ring_fix`,
    with the value that fits), else at the key that places the disc (``numbers.emblem_y``), else at the text's box."""
    nearest = (min(max(ring.cx, box.x), box.right), min(max(ring.cy, box.y), box.bottom))
    reach = ring.r + ring.stroke_width / 2
    intrusion = reach - math.hypot(nearest[0] - ring.cx, nearest[1] - ring.cy)
    # a thick ring's ink may reach the slack into the text (_ring_ink_over): only the rest must go, so the value said is
    # the widest that passes (twenty-ninth breaker, finding 9: `key_icon_rule_width` "at most 0.8" while 1.2 passed)
    # a thin ring is judged by its middle line alone (_shown_crossing): its ink may reach half its width into the text
    allowed = OVERLAP_SLACK_MM if ring.stroke_width / 2 > OVERLAP_SLACK_MM else ring.stroke_width / 2
    fix = ring_fix(load_template(template.stem, template.parent), ring, max(0.0, intrusion - allowed))
    said = f"the ring of a disc ([numbers] {', '.join(ring.grown_by)}) strikes through {_name(text)} ({{where}})"
    if fix is not None:
        return f"numbers.{fix[0]}", f"{said}: the ring is too big; set {fix[0]} to {fix[1]}", "", intrusion
    if ring.placed_by:
        return ring.placed_by, f"{said}; move the disc ([numbers] {ring.placed_by.split('.', 1)[1]}) or make it smaller", "", 0.0
    return _text_key(text, _Rule((0.0, 0.0), (1.0, 0.0), None)), f"{said}; move the text off it", text.painted.source, 0.0


def _thick_over(face: Any, template: Path, text: _Text, inner: Box | tuple[Box, ...], bands: list[_Band],
                thick: dict[tuple[Path, str], list[Any]], gap: float | None = None) -> bool:
    """Whether a thick stroke of ``bands`` (drawn before or after ``text``) covers ``inner`` (its ink box shrunk by the slack,
    card mm; with ``gap``, the boxes of the letters' own ink, which the stroke's ink must stay ``gap`` mm from) while its
    middle line misses it, so that a thinner line would not: then ``thick`` keeps, at the stroke's key, the first face
    and text and the widest line (mm, rounded down to 0.1) that clears every text found so far."""
    found = False
    boxes = (inner,) if isinstance(inner, Box) else inner
    for band in bands:
        clearances = [found for found in (band.clearance(box, gap) for box in boxes) if found is not None]
        if not clearances:
            continue
        clearance = min(clearances)
        widest = _widest_clearing(clearance, gap)
        if clearance <= 0:
            continue  # its middle line runs through the text: the rule and shape checks judge it
        said = thick.setdefault((template, band.key), [face, text, band.colour, widest, band.what])
        said[3] = min(said[3], widest)
        found = True
    return found


FLOAT_SLACK_MM = 1e-9
"""Rounding noise (mm) of sums of template numbers: a stroke whose ink reaches exactly the slack into a text passes."""


def _widest_clearing(distance: float, gap: float | None = None) -> float:
    """The widest stroke (mm, a tenth of a mm) whose ink, half its width either side of a middle line ``distance`` mm from a
    text's or rule's ink, reaches into it by no more than the slack (with ``gap``: stays ``gap`` mm from it), as
    :meth:`_Band.clearance` judges it (the same float comparison, so the value said passes: twenty-ninth breaker, finding
    9: the bound was rounded down a tenth too far, `uses_rule_width` "at most 2.3" while 2.4 passed)."""
    allowed = OVERLAP_SLACK_MM if gap is None else -gap  # how far the ink may reach into the box (negative: stay out)
    widest = math.floor(2 * (distance + allowed) * 10 + 1e-6) / 10
    while widest > 0 and distance < widest / 2 - allowed - FLOAT_SLACK_MM:
        widest = round(widest - 0.1, 1)
    return max(widest, 0.0)


def _segments_apart(first: tuple[tuple[float, float], tuple[float, float]],
                    second: tuple[tuple[float, float], tuple[float, float]]) -> float:
    """The shortest distance (mm) between two segments, 0 when they cross or meet."""
    (ax, ay), (bx, by) = first
    (cx, cy), (dx, dy) = second

    def side(px: float, py: float, qx: float, qy: float, rx: float, ry: float) -> float:
        return (qx - px) * (ry - py) - (qy - py) * (rx - px)

    if (side(ax, ay, bx, by, cx, cy) * side(ax, ay, bx, by, dx, dy) <= 0
            and side(cx, cy, dx, dy, ax, ay) * side(cx, cy, dx, dy, bx, by) <= 0):
        return 0.0

    return min(_point_segment_distance(first[0], *second), _point_segment_distance(first[1], *second),
               _point_segment_distance(second[0], *first), _point_segment_distance(second[1], *first))


def _edges(items: Iterable, near: list[Box], transforms: tuple[tuple[float, float, float], ...] = (),
           counter: list[int] | None = None) -> Iterator[_Rule]:
    """The outlines of the filled and stroked rectangles of ``items`` (track spaces, boxes) and the rings of its filled and
    stroked circles (discs) that reach into one of the boxes ``near`` (card mm: where thick strokes' ink lies), as straight
    pieces in card mm, each with half its line's width and its drawing order (counted as :func:`_marks` counts): a thick
    stroke drawn after one hides it where its ink reaches past that line (twenty-eighth breaker: `start_rule_width = 3`
    buried the start space's neighbours' outlines, and check passed), and a ring is kept apart from it
    (:attr:`_Rule.kept_apart`; thirty-first breaker, finding 4: the Elder's `uses_divider_width = 3` ran a brown bar over
    the three use discs' rings, and check passed)."""
    counter = [0] if counter is None else counter
    for item in items:
        counter[0] += 1
        if isinstance(item, Group):
            yield from _edges(item.items, near, transforms + ((item.dx, item.dy, item.rotation),), counter)
        elif isinstance(item, Rect) and item.fill and item.stroke and item.stroke_width > 0:
            half = item.stroke_width / 2
            box = _outer_box(Box(item.x - half, item.y - half, item.width + 2 * half, item.height + 2 * half), transforms)
            if not any(box.overlaps(area) for area in near):
                continue
            named = item.named or ("the outline of a track space" if item.space else "the outline of a box")
            for start, end in _outline(item):
                start, end = _turned([start, end], transforms)
                yield _Rule(start, end, None, item.placed_by, counter[0], True, named, half=half)
        elif isinstance(item, Circle) and item.fill and item.stroke and item.stroke_width > 0:
            half = item.stroke_width / 2
            reach = item.r + half
            box = _outer_box(Box(item.cx - reach, item.cy - reach, 2 * reach, 2 * reach), transforms)
            if not any(box.overlaps(area) for area in near):
                continue
            for start, end in _outline(item):
                start, end = _turned([start, end], transforms)
                yield _Rule(start, end, None, item.placed_by, counter[0], True, "the ring of a disc", half=half, kept_apart=True,
                                stroke_key=item.stroke_key)


def _band_areas(bands: list[tuple[float, float, float, float, _Band]]) -> dict[int, tuple[Box, list[tuple[float, float, float, float, _Band]]]]:
    """The thick strokes of ``bands`` one a shape (its pieces share a drawing order, the key): the box (card mm) of the
    shape's whole ink and its pieces."""
    areas: dict[int, tuple[list[float], list[tuple[float, float, float, float, _Band]]]] = {}
    for piece in bands:
        left, top, right, bottom, band = piece
        area, pieces = areas.setdefault(band.order, ([left, top, right, bottom], []))
        area[:] = [min(area[0], left), min(area[1], top), max(area[2], right), max(area[3], bottom)]
        pieces.append(piece)
    slack = OVERLAP_SLACK_MM  # the pieces' boxes are shrunk by it: the whole ink
    return {order: (Box(left - slack, top - slack, right - left + 2 * slack, bottom - top + 2 * slack), pieces)
            for order, ((left, top, right, bottom), pieces) in areas.items()}


def _thick_over_rules(face: Any, template: Path, rules: list[_Rule],
                      areas: dict[int, tuple[Box, list[tuple[float, float, float, float, _Band]]]],
                      thick: dict[tuple[Path, str], list[Any]]) -> None:
    """Keep in ``thick`` (as :func:`_thick_over` does for texts) each thick stroke of ``areas`` (:func:`_band_areas`) whose
    ink covers one of ``rules`` (the card frame's rules, the rules the layout draws, the outlines of shapes drawn before
    it: card mm) of another shape while its middle line misses it (twenty-eighth breaker: a 5 mm portrait outline hid the
    title's ornament rule and the frame's inner rule, a 3 mm track space outline the frame's inner rule, and check
    passed). A hairline rule is covered when the ink reaches it by more than the slack, a shape's outline when the ink
    reaches past its far edge."""
    slack = OVERLAP_SLACK_MM  # the pieces' boxes are shrunk by it
    for rule in rules:
        (x1, y1), (x2, y2) = rule.start, rule.end
        # a rule the layout draws is judged with its ink and the room kept from it (LINES_APART_MM) around it
        # (a thick line is judged as a stroke itself, as before: its own width's advice holds it off the other's ink)
        hairline = rule.line is not None and rule.line.stroke_width / 2 <= OVERLAP_SLACK_MM
        extra = LINES_APART_MM + rule.line.stroke_width / 2 if hairline and rule.line is not None else \
            LINES_APART_MM + rule.half if rule.kept_apart else 0.0
        left, top, right, bottom = min(x1, x2) - extra, min(y1, y2) - extra, max(x1, x2) + extra, max(y1, y2) + extra
        for order, (area, pieces) in areas.items():
            if order == rule.order or (rule.half and rule.order > order):  # a shape's outline drawn after it: on top
                continue
            if area.x > right or area.right < left or area.y > bottom or area.bottom < top:
                continue
            for band_left, band_top, band_right, band_bottom, band in pieces:
                if rule.kept_apart and rule.stroke_key == band.key:
                    continue
                if band_left - slack > right or band_right + slack < left or band_top - slack > bottom or band_bottom + slack < top:
                    continue
                if band.clip is not None and not band.clip.overlaps(Box(left, top, right - left, bottom - top)):
                    continue
                apart = _segments_apart((band.start, band.end), (rule.start, rule.end))
                # the stroke's ink stays LINES_APART_MM from the near edge of the rule's ink, so that the two print as two
                # lines (thirtieth breaker, finding 9: `uses_rule_width` advised 2.4 let the uses rings reach the divider
                # rule's far edge and swallow it)
                # (a shape's outline beside it, the neighbouring track spaces' 0.3 mm apart, is covered only when the ink
                # passes its far edge: it hides it whole)
                # (the card frame's rules, laid out close to the track spaces, as before: covered when the ink passes the
                # middle of the rule by more than the slack)
                if hairline and rule.line is not None:
                    room = apart - rule.line.stroke_width / 2 - LINES_APART_MM
                elif rule.kept_apart:  # a disc's ring: its ink, and the room kept from it (thirty-first breaker, finding 4)
                    room = apart - rule.half - LINES_APART_MM
                else:
                    room = apart + (rule.half if rule.half else OVERLAP_SLACK_MM) - FLOAT_SLACK_MM
                if not (0 < apart and room < band.half - FLOAT_SLACK_MM):
                    continue
                widest = max(0.0, math.floor(2 * room * 10 + 1e-6) / 10)
                while widest > 0 and room < widest / 2 - FLOAT_SLACK_MM:  # (the same comparison: the value said passes)
                    widest = round(widest - 0.1, 1)
                # a stroke at most twice the slack wide is no thick stroke (:func:`_bands`) and passes here: that is the
                # widest that passes (thirtieth breaker, finding 5: butted track spaces, `start_rule_width` "at most 0.2"
                # while 0.4 passed)
                widest = max(widest, math.floor(2 * OVERLAP_SLACK_MM * 10 + 1e-6) / 10)
                what = rule.named or "a rule the layout draws"
                said = thick.setdefault((template, band.key), [face, what, band.colour, widest, band.what])
                said[3] = min(said[3], widest)


def _hatched_faint(face: Any, template: Path, text: _Text, centre: tuple[float, float], background: str, above: int,
                   hatches: list[_Hatch], report: Any, widest_said: dict[tuple[str, str], tuple[float, tuple[Any, ...]]]) -> bool:
    """Whether ``text``, which stands out from the plain ``background`` under its ``centre`` (drawn at ``above`` in the
    drawing order), is too faint on it as hatched by the :class:`_Hatch` es drawn between the two (their mean colour,
    :meth:`_Hatch.mixed`); if so it is reported (``report(face, template, key, message)``) at the hatching's key the
    designer changed (a ``*hatch*`` key of the template's files), else at its lines' width, with the widest that reads
    (kept in ``widest_said`` by the file and key that write it, the narrowest of all faces, for the caller to report).
    Thirty-fifth pnp breaker, HIGH 24: `title_hatch_tint = 0` and `title_band_hatch_width = 0.45` striped every title
    band half white under the cream title, and the contrast check, measuring the title against the band's fill, passed."""
    over = [found for found in hatches if above < found.order < text.order
            and found.box.x <= centre[0] <= found.box.right and found.box.y <= centre[1] <= found.box.bottom]
    if not over:
        return False
    mixed = background
    for found in over:
        mixed = found.mixed(mixed)
    ratio = contrast(text.line.fill, mixed)
    last = over[-1]
    striped = contrast(text.line.fill, last.colour) < MIN_CONTRAST and last.coverage > FAINT_HATCH_SHARE + 1e-9
    if ratio >= MIN_CONTRAST and not striped:
        return False
    changed = [(key, value, shipped) for file in template_chain(template) for key, value, shipped in changed_keys(file)
               if "hatch" in key.rsplit(".", 1)[-1] and shipped is not None]
    said = (f"{_name(text)} is printed in {text.line.fill} on {background} hatched {last.coverage:.0%} in {last.colour}, "
            + (f"which reads as {mixed}: a contrast of {_ratio(ratio)}:1 ({{where}}); at least {MIN_CONTRAST:g}:1 reads in print"
               if ratio < MIN_CONTRAST else
               f"lines it hardly stands out from ({_ratio(contrast(text.line.fill, last.colour))}:1), which cut its letters into "
               f"stripes ({{where}}); such lines may cover at most {FAINT_HATCH_SHARE:.0%} of what it is printed on"))
    if changed and not changed[0][0].endswith("hatch_width"):
        key, value, shipped = changed[0]
        report(face, template, key, f"{said}, since {key.split('.', 1)[-1]} is {template_value(value)} (the shipped templates have "
                                    f"{template_value(shipped)}): change it back toward that")
        return True
    key = changed[0][0] if changed else last.key
    if not key:
        return False  # no key to say it at: the plain background's verdict stands
    coverage = last.coverage
    base = background
    for found in over[:-1]:
        base = found.mixed(base)
    while coverage > 0 and contrast(text.line.fill, tint(last.colour, coverage, base)) < MIN_CONTRAST:
        coverage = round(coverage - 0.01, 2)
    if contrast(text.line.fill, last.colour) < MIN_CONTRAST:
        coverage = min(coverage, FAINT_HATCH_SHARE)
    widest = max(0.0, math.floor(coverage * last.spacing * 100 + 1e-6) / 100)
    at = (str(template_line(template, key)[0]), key)  # the narrowest of every face's bound is said, so it reads on all
    if at not in widest_said or widest < widest_said[at][0]:
        widest_said[at] = (widest, (face, template, key, f"{said}: set {key.split('.', 1)[-1]} to at most {widest:g}"))
    return True


def legibility_problems(faces: Iterable, said: Iterable[FitProblem] = ()) -> list[FitProblem]:
    """One ``"template"`` :class:`FitProblem` per template key whose rule strikes through a text, whose
    shape hides a text drawn before it, or whose text is printed on a background of too little contrast
    (see the module's rules). ``faces`` are :class:`pnp.layout.Face` objects; a text already reported
    over its box, or a face whose text is more than it holds (``overflowed``), is not judged again; nor is a
    template key ``said`` already names (the overlap check's track space over a number is one line, not two)."""
    known = {(problem.path, problem.field) for problem in said}
    # what the layout places is already said wrong in these templates (a track space over another hides its number)
    placed_wrong = {problem.path for problem in said if problem.field.startswith("numbers")}
    found: dict[tuple[str, str], tuple[FitProblem, set[str]]] = {}  # (file, key) -> the first problem, the faces
    by_record: dict[str, FitProblem] = {}  # a record's colour, said once at its key
    judged: dict[str, int] = {}  # texts judged for contrast, by the key of their colour (else the colour itself)
    faint_count: dict[str, int] = {}  # of them, those of too little contrast
    outlined: list[tuple[Any, ...]] = []  # outlines through a text: said after all else at their key (a ring's with its over)
    faint: list[tuple[Any, Path, _Text, str, str, float]] = []  # texts of too little contrast: face, template, text, key, background, ratio
    thick: dict[tuple[Path, str], list[Any]] = {}  # a thick stroke's key -> [face, text, colour, the widest that passes]
    edited: dict[Path, frozenset[str]] = {}  # a template -> the keys its files changed from the shipped ones (_colour_key)
    widest_hatch: dict[tuple[str, str], tuple[float, tuple[Any, ...]]] = {}  # a hatching's width key -> its bound, its line

    def report(face, template: Path, key: str, message: str, box: str = "", over: float = 0.0) -> None:
        path, line = template_line(template, key)
        said = (str(path), key)
        if said in known or (key.startswith("numbers") and str(template_line(template, "numbers")[0]) in placed_wrong):
            return
        if said not in found:
            where = f"on {face.id}" + ("" if face.board_cards == 1 else f", card {face.board_index + 1}")
            scale = getattr(face, "scale", 1.0)
            if scale < 1.0:  # the shrink for a wider safe area moved the text, not the bleed's art (twenty-fifth breaker)
                # (said short: the whole sentence made lines of 350-380 characters, forty-sixth pnp breaker, F21)
                message += f", or ask for a smaller safe area (--safe, [print] safe_mm: past {LAID_OUT_SAFE_MM:g} mm this card is shrunk to {scale:.0%})"
            found[said] = (FitProblem("templates", key, "template", message.replace("{where}", where), box=box,
                                      path=str(path), line=line, over=over), set())
        found[said][1].add(face.id)

    for face in faces:
        template: Path | None = getattr(face, "template", None)
        reported: frozenset[str] = getattr(face, "overflowed", frozenset())
        if template is None or "*" in reported:
            continue
        width = face.drawing.width_mm
        marks = list(_marks(face.drawing.items))
        texts = [m for m in marks if isinstance(m, _Text) and not (m.painted.source and m.painted.source in reported)
                 and not (face.board_cards > 1 and (m.painted.box.x >= width or m.painted.box.right <= 0))]
        fills = [m for m in marks if isinstance(m, _Fill)]
        hatches = [m for m in marks if isinstance(m, _Hatch)]
        # each thick stroke's piece as (left, top, right, bottom, piece): the box its ink reaches a text's ink in, by more
        # than the slack; those beyond every text are passed over at once
        bands = [(min(b.start[0], b.end[0]) - b.half + OVERLAP_SLACK_MM, min(b.start[1], b.end[1]) - b.half + OVERLAP_SLACK_MM,
                  max(b.start[0], b.end[0]) + b.half - OVERLAP_SLACK_MM, max(b.start[1], b.end[1]) + b.half - OVERLAP_SLACK_MM, b)
                 for b in marks if isinstance(b, _Band)]
        inner = {id(text): text.painted.box.inset(OVERLAP_SLACK_MM) for text in texts}
        # each text's ink box as (left, top, right, bottom, text, box), and their reach: the many pieces of outlines far
        # from every text are passed over at once
        edges = [(box.x, box.y, box.right, box.bottom, text, box) for text in texts for box in (inner[id(text)],)]
        reach = (min(e[0] for e in edges), min(e[1] for e in edges), max(e[2] for e in edges), max(e[3] for e in edges)) \
            if edges else (0.0, 0.0, -1.0, -1.0)
        if bands:
            areas = _band_areas(bands)
            _thick_over_rules(face, template, [m for m in marks if isinstance(m, _Rule) and (m.line is not None or m.named)]
                              + list(_edges(face.drawing.items, [area for area, _ in areas.values()])), areas, thick)
        struck: dict[int, list[_Rule]] = {}  # the rules said to strike through each text (by id): a shape on one is part of it
        for rule in (m for m in marks if isinstance(m, _Rule)):
            ink = rule.ring.stroke_width / 2 if rule.ring is not None else 0.0  # a thick ring's line: ink each side of it
            low, high = min(rule.start[1], rule.end[1]) - ink, max(rule.start[1], rule.end[1]) + ink
            left, right = min(rule.start[0], rule.end[0]) - ink, max(rule.start[0], rule.end[0]) + ink
            if high < reach[1] or low > reach[3] or right < reach[0] or left > reach[2]:
                continue
            for box_left, box_top, box_right, box_bottom, text, box in edges:
                if high < box_top or low > box_bottom or right < box_left or left > box_right:
                    continue
                if rule.line is None and not text.painted.source:
                    continue  # a text the layout places by its own shapes: its labels' and numbers' checks judge it
                if rule.filled and rule.order > text.order:
                    continue  # a filled shape drawn over the text: judged as a shape, below
                if rule.ring is not None:
                    if _shown_crossing(rule, box, fills) > OVERLAP_SLACK_MM or _ring_ink_over(rule.ring, box):
                        outlined.append((face, template, *_ring_said(template, rule.ring, text, box)))
                        break
                    continue
                if _shown_crossing(rule, box, fills) > OVERLAP_SLACK_MM:
                    number = _rule_number(template, rule.line) if rule.line is not None else \
                        rule.placed_by.split(".", 1)[1] if rule.placed_by.startswith("numbers.") else None
                    drawn = f" ([numbers] {number})" if number else ""
                    what = ("a rule the layout draws" if rule.line is not None else rule.named
                            or "the outline of a shape the layout draws")
                    if number:
                        key, move = f"numbers.{number}", "move the rule or the text"
                    else:  # a rule no one number places (the card's frame): said at what moved the text onto it
                        key, move = _text_key(text, rule), "move the text off it" if rule.line is None else "move the rule or the text"
                    said_later = (face, template, key, f"{what}{drawn} strikes through {_name(text)} ({{where}}); {move}",
                                  text.painted.source)
                    if rule.line is None:  # an outline: what else is wrong with the text there is said first
                        outlined.append(said_later)
                    else:
                        report(*said_later)
                        struck.setdefault(id(text), []).append(rule)
                    break
        # a rule a [numbers] rule key places, run under or across a track space, hides under the space or cuts its
        # outline (thirty-fourth breaker, HIGH 3: `title_rule_y = 25.6` ran the stats card's ornament rule under its
        # Mana and Spirit spaces); a rule no rule number places (a Progress Track's road) runs between spaces by design
        spaces = [thing.box.inset(OVERLAP_SLACK_MM) for thing in painted(face.drawing.items, spaces=True) if thing.what == "space"]
        for rule in (m for m in marks if isinstance(m, _Rule) and m.line is not None):
            number = _rule_number(template, rule.line) if spaces and rule.line is not None else None
            if number is None:
                continue
            space = next((box for box in spaces if crossing_length(rule.start, rule.end, box) > OVERLAP_SLACK_MM), None)
            if space is not None:
                how = "under" if any(fill.order > rule.order and fill.bounds.overlaps(space) for fill in fills) else "across"
                report(face, template, f"numbers.{number}",
                       f"a rule the layout draws ([numbers] {number}) runs {how} a track space ({{where}}); move the rule")
        # an ornament rule's diamond (drawn right after the rule's second half, pnp.layout.common.ornament_rule) under the
        # letters of a text drawn after it: the rule runs into the text (thirty-fourth breaker, HIGH 6: the servant's
        # `title_rule_y = 38` set the diamond on the descender of "your", and the text's box, the font's descent, missed it)
        for rule in (m for m in marks if isinstance(m, _Rule) and m.line is not None
                     and m.line.stroke_key == "numbers.ornament_rule_width"):
            diamond = next((fill for fill in fills if fill.order == rule.order + 1 and _on_rule(fill, rule)), None)
            number = _rule_number(template, rule.line) if diamond is not None and rule.line is not None else None
            if diamond is None or number is None:
                continue
            touched = next((text for text in texts if text.order > diamond.order and diamond.bounds.overlaps(text.painted.box)
                            and any(diamond.touches(letter) for letter in text.ink)), None)
            if touched is not None:
                report(face, template, f"numbers.{number}", f"the diamond of a rule the layout draws ([numbers] {number}) "
                                                            f"touches {_name(touched)} ({{where}}); move the rule or the text")
        # two texts the layout places itself, their letters touching: a space's number and its word set too close by a
        # size or a place (thirty-fourth breaker, HIGH 6: `track_points_size = 12` set the player card's "MP" under each
        # number with the "6" in the "M"); their boxes, the fonts' ascent, do not always overlap by the overlap check's slack.
        # Nor do they hold the letters: a box reaches 0.9 of the ascent, and an ascender or a capital stands above it
        # (thirty-ninth pnp breaker, MED 11: at `value_baseline = 1.2` a quest's "2" stood on the "d" of "Next card" and the
        # "W" of "Battle Win", 0.1 mm above the caption's box); texts are paired by their boxes grown by a glyph's overhang
        overhang = GLYPH_OVERHANG_MM + TEXT_INK_GAP_MM
        by_layout = sorted((text for text in texts if not text.painted.source and not text.line.rotation and any(text.line.placed_by)),
                        key=lambda text: text.painted.box.x)
        for index, first in enumerate(by_layout):
            for second in by_layout[index + 1:]:
                if second.painted.box.x > first.painted.box.right + 2 * overhang:
                    break
                if not first.painted.box.inset(-2 * overhang).overlaps(second.painted.box):
                    continue
                if _boxes_clash(first.painted.box, second.painted.box):
                    continue  # printed over each other: the overlap check's, said at what moved or grew them
                if _letters_touch(first.ink, second.ink):
                    later = second if second.order > first.order else first
                    key = later.line.placed_by[1] or later.line.placed_by[0]
                    other = first if later is second else second
                    report(face, template, key, f"{_name(later)} ([numbers] {key.split('.', 1)[1]}) touches {_name(other)} "
                                                f"({{where}}); move or shrink one of them")
        # a shape drawn after a rule the layout draws, over part of its ink: the rule is cut where the shape lies (forty-fourth
        # pnp breaker, polish 4 and 13: `track_top = 12` set the player card's 6 space, and `spells_top = 12.4` the first
        # spell row's shading, over the title band's lower rule); the bundled cards draw no shape over a rule (said after
        # the diamond and the texts above, which name the same key more closely)
        for rule in (m for m in marks if isinstance(m, _Rule) and m.line is not None):
            cover = next((fill for fill in fills if fill.order > rule.order and not fill.band and not _threaded(fill, rule)
                          and _hidden_length(rule, fill) > OVERLAP_SLACK_MM), None)
            if cover is None:
                continue
            number = _rule_number(template, rule.line) if rule.line is not None else None
            (x1, y1), (x2, y2) = rule.start, rule.end
            placed = (f" ([numbers] {number})" if number else f" ({y1:.1f} mm down the card)" if abs(y1 - y2) < 1e-9
                      else f" ({x1:.1f} mm from its left edge)" if abs(x1 - x2) < 1e-9 else "")
            report(face, template, cover.placed_by or (f"numbers.{number}" if number else "numbers"),
                   f"a rule the layout draws{placed} is hidden under a shape filled {cover.colour} that is drawn after it "
                   f"({{where}}); move the shape off the rule")
        # each thick stroke's piece's box as plain numbers (left, top, right, bottom): every text is tested against them
        band_boxes = [(box.x, box.y, box.right, box.bottom) for *_, band in bands for box in (band.bounds,)]
        for text in texts:
            key = f"boxes.{text.painted.source}" if text.painted.source else "numbers"
            around = text.painted.box.inset(-GLYPH_OVERHANG_MM - TEXT_INK_GAP_MM)  # no band near it: its ink is not measured
            left, top, right, bottom = around.x, around.y, around.right, around.bottom
            if any(x < right and left < x_end and y < bottom and top < y_end for x, y, x_end, y_end in band_boxes) \
                    and _thick_near(face, template, text, bands, inner, thick):
                continue
            over = next((fill for fill in fills if fill.order > text.order and fill.touches(inner[id(text)])), None)
            if over is None:  # the letters' own ink, which the box (baseline to ascent) leaves out below and around
                over = _over_letters(text, fills)
            if over is not None and any(_on_rule(over, rule) for rule in struck.get(id(text), ())):
                continue  # an ornament rule's diamond: part of the rule already said to strike through the text
            if over is not None:  # said at the number that places the shape when one does, else at the text's box
                how = "hidden under" if over.covers(inner[id(text)]) else "cut into by"
                placed = (f" (the thick outline of a shape, [numbers] {over.placed_by.split('.', 1)[1]})" if over.band else
                          f" (placed by [numbers] {over.placed_by.split('.', 1)[1]})" if over.placed_by else "")
                remedy = "make the outline thinner" if over.band else "move the shape" if over.placed_by else "move the text or the shape"
                report(face, template, over.placed_by or key,
                       f"{_name(text)} is {how} a shape filled {over.colour}{placed} that is drawn after it ({{where}}); {remedy}",
                       "" if over.placed_by else text.painted.source)
                continue
            lifted = _footer_on_shape(template, text, fills, getattr(face, "scale", 1.0))
            if lifted is not None:
                report(face, template, key, f"{_name(text)}, the card's id, is printed on a shape filled {lifted.colour} drawn "
                                            f"under it, narrower than the footer's line ({{where}}): the footer stays on the "
                                            f"card's panel; move the shape off it", text.painted.source)
                continue
            edge = _edge_under(text, inner[id(text)], fills)
            label = label_key(template, text.painted) if edge is not None else None
            if label is not None and (str(template_line(template, label)[0]), label) in known:
                edge = None  # its words grew: said at its string by the overlap check
            if edge is not None:
                number = edge.split(".", 1)[1]
                report(face, template, edge, f"{_name(text)} ([numbers] {number}) is printed across the edge of a shape "
                                             f"drawn under it ({{where}}); move the text onto the shape or off it")
                continue
            box = text.painted.box
            centre = ((box.x + box.right) / 2, (box.y + box.bottom) / 2)
            under = [fill for fill in fills if fill.order < text.order and fill.contains(centre)]
            background = under[-1].colour if under else "#ffffff"
            if under and under[-1].band and contrast(text.line.fill, background) < MIN_CONTRAST:  # on a thick outline
                report(face, template, under[-1].placed_by, f"{_name(text)} is printed on the thick outline of a shape "
                       f"([numbers] {under[-1].placed_by.split('.', 1)[1]}, in {background}) ({{where}}); make the outline thinner")
                continue
            ratio = contrast(text.line.fill, background)
            if ratio >= MIN_CONTRAST and _hatched_faint(face, template, text, centre, background,
                                                        under[-1].order if under else 0, hatches, report, widest_hatch):
                continue
            colour_key = _colour_key(template, text, background, edited)[0] or text.line.fill
            judged[colour_key] = judged.get(colour_key, 0) + 1
            if ratio < MIN_CONTRAST:
                faint.append((face, template, text, key, background, ratio))
                faint_count[colour_key] = faint_count.get(colour_key, 0) + 1
    # too little contrast: said at the colour that gives the text its colour when that colour is faint on at least half
    # of the texts printed in it (else at the text's box: it was moved onto a dark band), a box's own first, so that a
    # text the layout places in the same colour is said at the same key (one line for `ink`, not one for each template)
    faint.sort(key=lambda found: not found[2].painted.source)
    keys_of_fill: dict[str, tuple[str, str]] = {}
    for face, template, text, key, background, ratio in faint:
        colour = getattr(face.record, "color", None)
        if colour in (background, text.line.fill):  # the record's own colour (a back's): said at its key in cards.toml
            if face.record.id not in by_record:
                by_record[face.record.id] = FitProblem(
                    face.record.id, "color", "contrast",
                    f"{colour} leaves {_name(text)} in {text.line.fill} on {background}, a contrast of {_ratio(ratio)}:1 "
                    f"(on {face.id}); at least {MIN_CONTRAST:g}:1 reads in print: choose a "
                    f"{_direction(colour, text.line.fill if colour == background else background)} colour")
            continue
        said_key, named = _colour_key(template, text, background, edited)
        if said_key and 2 * faint_count[said_key] < judged[said_key]:
            said_key = None  # the colour reads almost everywhere it is used: the text was moved onto a background
        if said_key:
            keys_of_fill.setdefault(text.line.fill, (said_key, named))
        elif not text.painted.source and text.line.fill in keys_of_fill:
            said_key, named = keys_of_fill[text.line.fill]
        report(face, template, said_key or key, f"{_name(text)} is printed in {named} on {_named(template, background)}, "
                                               f"a contrast of {_ratio(ratio)}:1 ({{where}}); at least {MIN_CONTRAST:g}:1 reads "
                                               f"in print: change {'this colour' if said_key else 'its colour'} or move it",
               text.painted.source)
    # one stroke key written in one file (base.toml's ornament_rule_width) is judged on the faces of many templates: the
    # narrowest bound of them all is said, so that it passes on every face at once (thirty-fifth pnp breaker, MED 8:
    # `ornament_rule_width = 5` was "at most 3", then "at most 2.8", then "at most 0.4", one template's bound a round)
    narrowest: dict[tuple[str, str], tuple[Path, str]] = {}
    for (template, stroke_key), said_thick in thick.items():
        home = (str(template_line(template, stroke_key)[0]), stroke_key)
        if home not in narrowest or said_thick[3] < thick[narrowest[home]][3]:
            narrowest[home] = (template, stroke_key)
    for (template, stroke_key) in narrowest.values():
        face, text, colour, widest, what = thick[template, stroke_key]
        number = stroke_key.split(".", 1)[1]
        covered = text if isinstance(text, str) else _name(text)  # a rule's name, or a text
        report(face, template, stroke_key, f"the thick {what} ([numbers] {number}, in {colour}) covers {covered} "
                                           f"({{where}}); set {number} to at most {widest:g}")
    for _, said_hatch in widest_hatch.values():
        report(*said_hatch)
    for said_later in outlined:
        report(*said_later)
    problems = []
    for problem, spoiled in found.values():
        if len(spoiled) > 1:
            problem = FitProblem(problem.record_id, problem.field, problem.kind,
                                 problem.message.replace(" (on ", f" (on {len(spoiled)} faces, the first ", 1),
                                 box=problem.box, path=problem.path, line=problem.line, over=problem.over)
        problems.append(problem)
    return list(by_record.values()) + problems
