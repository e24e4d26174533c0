"""The renderer-neutral Drawing: what a card looks like, in millimetres, before any backend draws it.

This module owns the vocabulary shared by the layouts (``pnp.layout``) and the two backends
(``pnp.svg`` and ``pnp.pdf``): a :class:`Drawing` is a card's trim size, its bleed and an ordered
tuple of primitives (rectangles, lines, polylines and polygons, circles, text lines already broken
and placed, icons, and clipped/shifted groups). Later primitives paint over earlier ones.

Coordinates: millimetres, origin at the top-left corner of the card's TRIM box, x grows right and
y grows DOWN. The bleed area therefore has negative coordinates (left and top) or coordinates beyond
``width_mm`` / ``height_mm`` (right and bottom). Colours are ``"#rrggbb"`` strings, or ``None`` for
"no paint". Text sizes are in points (:data:`pnp.units.MM_PER_PT`); everything else is in millimetres.

Every class here is a frozen dataclass, so a Drawing can be shared, compared and hashed freely.
"""
from __future__ import annotations

import dataclasses
import math
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Literal

from pnp.units import MM_PER_PT, ROUNDING_SLACK

_COLOUR = re.compile(r"^#[0-9a-f]{6}$")

Anchor = Literal["start", "middle", "end"]


class DrawingError(ValueError):
    """A shape that cannot be drawn: a negative size, a text size that is not positive, a bad colour or
    anchor (a layout fed by a template's numbers: :func:`pnp.layout.template.drawing_error`)."""


def check_colour(value: str | None, what: str = "colour") -> str | None:
    """Return ``value`` if it is ``None`` or a lower-case ``"#rrggbb"`` string.

    Raises ``ValueError`` naming ``what`` otherwise (for example ``"#FFF"`` or ``"red"``).
    """
    if value is not None and not _COLOUR.match(value):
        raise DrawingError(f"{what}: {value!r} is not a colour written as '#rrggbb' (lower case)")
    return value


def _check_stroke_width(width: float, what: str) -> None:
    """Raise :class:`DrawingError` for a line width below 0 mm (an SVG ``stroke-width`` below 0 is invalid, and the
    line vanishes: twentieth breaker, ``hp_first_rule_width = -0.6``)."""
    if not width >= 0:
        raise DrawingError(f"{what} has a line width of {width:g} mm; a line width is 0 mm or more")


@dataclass(frozen=True)
class Rect:
    """An axis-aligned rectangle: top-left ``(x, y)``, ``width`` and ``height`` in mm.

    ``fill`` and ``stroke`` are colours or ``None``; ``stroke_width`` is in mm and centred on the
    outline; ``radius`` rounds the corners (mm, 0 for square corners).
    """

    x: float
    y: float
    width: float
    height: float
    fill: str | None = None
    stroke: str | None = None
    stroke_width: float = 0.25
    radius: float = 0.0
    space: bool = field(default=False, compare=False, repr=False)
    """A track space (a hit-point box, a points space) that holds its number: the checks keep other text
    off it and its number inside it; never drawn differently."""
    frame: str = field(default="", compare=False, repr=False)
    """What the rectangle frames (``"portrait"``): the checks keep text, icons and spaces off it as off an
    icon (fifteenth breaker: a grown portrait frame covered the card's text); never drawn differently."""
    placed_by: str = field(default="", compare=False, repr=False)
    """The template key that places the shape (``numbers.emblem_y``), when one does: the legibility check names it
    when the shape is drawn over a text (twenty-third breaker); never drawn differently."""
    stroke_key: str = field(default="", compare=False, repr=False)
    """The template key of the outline's width (``numbers.portrait_rule_width``), when one key gives it: a check that finds
    the thick outline over a text names it (twenty-seventh breaker); never drawn differently."""
    named: str = field(default="", compare=False, repr=False)
    """What the shape is, in a check's words (``the card frame's inner rule``), when it has a name a designer knows
    (twenty-fifth breaker: a frame rule through a text was "the outline of a shape"); never drawn differently."""

    def __post_init__(self) -> None:
        check_colour(self.fill, "Rect.fill")
        check_colour(self.stroke, "Rect.stroke")
        if self.width < 0 or self.height < 0:
            raise DrawingError(f"Rect has a negative size {self.width:g} x {self.height:g} mm")
        _check_stroke_width(self.stroke_width, "Rect")


@dataclass(frozen=True)
class Line:
    """A straight line from ``(x1, y1)`` to ``(x2, y2)`` in mm, ``stroke_width`` mm wide.

    ``dash`` is an optional on/off pattern in mm, e.g. ``(1.0, 0.5)``.
    """

    x1: float
    y1: float
    x2: float
    y2: float
    stroke: str = "#000000"
    stroke_width: float = 0.25
    dash: tuple[float, ...] = ()
    stroke_key: str = field(default="", compare=False, repr=False)
    """The template key of the line's width (``numbers.hex_rule_width``), when one key gives it: the legibility check names
    it when the thick line's ink (half its width each side) covers a text (twenty-eighth breaker); never drawn differently."""

    def __post_init__(self) -> None:
        check_colour(self.stroke, "Line.stroke")
        _check_stroke_width(self.stroke_width, "Line")


@dataclass(frozen=True)
class Polyline:
    """A chain of straight segments through ``points`` (``((x, y), ...)`` in mm).

    ``closed=True`` makes it a polygon (hexes, arrow heads), which may then be filled. Open
    polylines are never filled.
    """

    points: tuple[tuple[float, float], ...]
    fill: str | None = None
    stroke: str | None = "#000000"
    stroke_width: float = 0.25
    closed: bool = False
    placed_by: str = field(default="", compare=False, repr=False)
    """The template key that places the shape (``numbers.emblem_y``), when one does: the legibility check names it
    when the shape is drawn over a text (twenty-third breaker); never drawn differently."""
    stroke_key: str = field(default="", compare=False, repr=False)
    """The template key of the line's width (``numbers.hex_rule_width``), when one key gives it: the legibility check names
    it when the thick line's ink (half its width each side) covers a text (twenty-eighth breaker); never drawn differently."""
    named: str = field(default="", compare=False, repr=False)
    """What the shape is, in words (``an ornament rule's diamond``), when the checks treat it apart from other shapes: a
    point of ink that keeps off the card frame's inner rule, not a band butted to it (thirty-sixth pnp breaker, LOW 11);
    never drawn differently."""

    def __post_init__(self) -> None:
        check_colour(self.fill, "Polyline.fill")
        check_colour(self.stroke, "Polyline.stroke")
        if len(self.points) < 2:
            raise DrawingError("Polyline needs at least two points")
        _check_stroke_width(self.stroke_width, "Polyline")
        # (a float kept as it is: a traced number, pnp.layout.traced, keeps the keys that placed the point)
        object.__setattr__(self, "points", tuple((x if isinstance(x, float) else float(x), y if isinstance(y, float) else float(y))
                                                 for x, y in self.points))


def Polygon(points: Iterable[tuple[float, float]], fill: str | None = None, stroke: str | None = "#000000",
            stroke_width: float = 0.25, stroke_key: str = "", named: str = "") -> Polyline:
    """A closed :class:`Polyline` (hex, arrow head, banner) through ``points`` in mm; ``stroke_key`` names the template key
    of its line's width (:attr:`Polyline.stroke_key`), ``named`` what it is (:attr:`Polyline.named`)."""
    return Polyline(tuple(points), fill=fill, stroke=stroke, stroke_width=stroke_width, closed=True, stroke_key=stroke_key,
                    named=named)


@dataclass(frozen=True)
class Circle:
    """A circle centred on ``(cx, cy)`` with radius ``r``, all in mm."""

    cx: float
    cy: float
    r: float
    fill: str | None = None
    stroke: str | None = None
    stroke_width: float = 0.25
    placed_by: str = field(default="", compare=False, repr=False)
    """The template key that places the shape (``numbers.emblem_y``), when one does: the legibility check names it
    when the shape is drawn over a text (twenty-third breaker); never drawn differently."""
    grown_by: tuple[str, ...] = field(default=(), compare=False, repr=False)
    """The ``[numbers]`` keys (no ``numbers.`` prefix) that grow a ring's disc beyond what it holds: its room around
    the icon (``emblem_ring``) and its line's width (``emblem_rule_width``), when the layout names them; the checks
    name them when the ring is too big (:func:`pnp.layout.common.ring_fix`, twenty-sixth breaker); never drawn differently."""
    stroke_key: str = field(default="", compare=False, repr=False)
    """The template key of the line's width (``numbers.hex_rule_width``), when one key gives it: the legibility check names
    it when the thick line's ink (half its width each side) covers a text (twenty-eighth breaker); never drawn differently."""

    def __post_init__(self) -> None:
        check_colour(self.fill, "Circle.fill")
        check_colour(self.stroke, "Circle.stroke")
        if not self.r > 0:  # an SVG circle of a negative radius is invalid, and vanishes from the PDF (nineteenth breaker)
            raise DrawingError(f"Circle has a radius of {self.r:g} mm; a circle needs a positive radius")
        _check_stroke_width(self.stroke_width, "Circle")


@dataclass(frozen=True)
class TextLine:
    """One line of text, already broken and placed; backends never wrap or shrink it.

    ``x`` is the anchor point in mm (left end, centre or right end of the line, as ``anchor`` says),
    ``y`` the BASELINE in mm. ``family`` is a font family key of :mod:`pnp.fonts` (``"serif"``,
    ``"serif-bold"``, ``"serif-italic"``, ``"korean"``); ``size`` is in points. ``rotation`` turns the
    line counter-clockwise (as seen on the page) by that many degrees about ``(x, y)``.
    """

    x: float
    y: float
    text: str
    family: str = "serif"
    size: float = 9.0
    fill: str = "#000000"
    anchor: Anchor = "start"
    rotation: float = 0.0
    source: str = field(default="", compare=False, repr=False)
    """The template box the line was fitted into (``"title"``), for the checks' reports; never drawn."""
    placed_by: tuple[str, str] = field(default=("", ""), compare=False, repr=False)
    """For a line the layout places itself (no ``source``): the template keys whose values place it across (x) and
    down (y) apart from what is drawn beside it (``("numbers.value_dx", "numbers.value_baseline")``), ``""`` for none,
    so that the checks name the number that moved it; never drawn."""

    def __post_init__(self) -> None:
        check_colour(self.fill, "TextLine.fill")
        if self.anchor not in ("start", "middle", "end"):
            raise DrawingError(f"TextLine.anchor must be start, middle or end, not {self.anchor!r}")
        if self.size <= 0:
            raise DrawingError(f"TextLine.size must be positive, not {self.size:g}")


@dataclass(frozen=True)
class Icon:
    """A vector icon from ``templates/icons/<name>.svg`` (viewBox 0 0 100 100) in a square box.

    ``(x, y)`` is the top-left corner of the box and ``size`` its side, all in mm.
    """

    name: str
    x: float
    y: float
    size: float
    source: str = field(default="", compare=False, repr=False)
    """The template box an inline icon was fitted into with its text, for the checks' reports."""

    def __post_init__(self) -> None:
        if not re.match(r"^[a-z0-9][a-z0-9-]*$", self.name):
            raise DrawingError(f"Icon name {self.name!r} must be lower-case letters, digits and '-'")
        if not self.size > 0:  # a negative size draws the icon upside down (eighteenth breaker: portrait_pad = 15)
            raise DrawingError(f"the {self.name} icon has a size of {self.size:g} mm; an icon needs a positive size")


@dataclass(frozen=True)
class Box:
    """A plain rectangle in mm (no paint): top-left ``(x, y)``, ``width``, ``height``."""

    x: float
    y: float
    width: float
    height: float

    @property
    def right(self) -> float:
        """x of the right edge in mm."""
        return self.x + self.width

    @property
    def bottom(self) -> float:
        """y of the bottom edge in mm."""
        return self.y + self.height

    def inset(self, amount: float) -> Box:
        """This box shrunk by ``amount`` mm on every side (grown when negative)."""
        return Box(self.x + amount, self.y + amount, self.width - 2 * amount, self.height - 2 * amount)

    def overlaps(self, other: Box) -> bool:
        """True when the interiors of the two boxes intersect (touching edges do not count)."""
        return (self.x < other.right and other.x < self.right
                and self.y < other.bottom and other.y < self.bottom)


@dataclass(frozen=True)
class Group:
    """Primitives turned by ``rotation``, shifted by ``(dx, dy)`` mm and optionally clipped.

    A point ``(x, y)`` of the group's items lands at ``(dx, dy)`` plus ``(x, y)`` turned
    counter-clockwise (as seen on the page) by ``rotation`` degrees about the origin; ``rotation=180``
    turns a panel upside down for the player across the table. ``clip`` is a :class:`Box` in the
    coordinates the group itself sits in (the parent's, NOT moved by ``dx``/``dy``): nothing the group
    draws outside it is visible. Groups nest.
    """

    items: tuple[Primitive, ...]
    dx: float = 0.0
    dy: float = 0.0
    clip: Box | None = None
    rotation: float = 0.0


Primitive = Rect | Line | Polyline | Circle | TextLine | Icon | Group


@dataclass(frozen=True)
class Drawing:
    """One card face (or a whole board): trim size, bleed and the primitives that paint it.

    ``width_mm`` x ``height_mm`` is the TRIM size (a poker card is 63 x 88). ``bleed_mm`` is how far
    the artwork runs past the trim on every side. ``items`` paint in order. ``id`` names the face
    (e.g. ``"solo.servant.ghast.front"``); ``title`` is a human-readable name for SVG ``<title>``.
    """

    width_mm: float
    height_mm: float
    bleed_mm: float
    items: tuple[Primitive, ...] = field(default_factory=tuple)
    id: str | None = None
    title: str | None = None

    def __post_init__(self) -> None:
        if self.width_mm <= 0 or self.height_mm <= 0 or self.bleed_mm < 0:
            raise DrawingError(f"Drawing size {self.width_mm:g} x {self.height_mm:g} mm, bleed {self.bleed_mm:g} mm is not valid")
        object.__setattr__(self, "items", tuple(self.items))

    @property
    def trim(self) -> Box:
        """The trim box ``(0, 0, width, height)`` in mm."""
        return Box(0.0, 0.0, self.width_mm, self.height_mm)

    @property
    def bleed_box(self) -> Box:
        """The trim box grown by the bleed on every side, in mm."""
        return self.trim.inset(-self.bleed_mm)

    def crop(self, x: float, y: float, width: float, height: float, *, id: str | None = None,
             title: str | None = None, bleed_mm: float | None = None) -> Drawing:
        """Cut one card out of a board: the region with trim ``(x, y, width, height)`` in this Drawing's mm.

        The result is a Drawing of trim ``width`` x ``height`` whose origin is ``(x, y)`` of the board,
        with bleed ``bleed_mm`` (default: this Drawing's bleed). Its content is the board shifted and
        clipped to the new card's bleed box, so neighbouring cards' artwork fills the bleed exactly as
        it continues on the board. Raises ``ValueError`` if the region lies outside the board's bleed box.
        """
        return self._crop(x, y, width, height, [bounds(item) for item in self.items], id=id, title=title, bleed_mm=bleed_mm)

    def _crop(self, x: float, y: float, width: float, height: float, boxes: list[Box | None], *, id: str | None = None,
              title: str | None = None, bleed_mm: float | None = None) -> Drawing:
        """:meth:`crop`, given the :func:`bounds` of each of this Drawing's items (:meth:`split` measures
        them once for all its cards)."""
        bleed = self.bleed_mm if bleed_mm is None else bleed_mm
        outer = self.bleed_box
        slack = ROUNDING_SLACK
        if x < outer.x - slack or y < outer.y - slack or x + width > outer.right + slack or y + height > outer.bottom + slack:
            raise DrawingError(f"crop region ({x}, {y}, {width}, {height}) mm lies outside the board's bleed box")
        clip = Box(-bleed, -bleed, width + 2 * bleed, height + 2 * bleed)
        # Only what reaches into the new card's bleed box is kept: a card of a board does not carry
        # its neighbours' art, text and footers hidden under the clip.
        region = Box(x - bleed, y - bleed, width + 2 * bleed, height + 2 * bleed)
        kept = tuple(item for item, box in zip(self.items, boxes) if _overlaps(box, region))
        inner = Group(kept, dx=-x, dy=-y)
        return Drawing(width, height, bleed, (Group((inner,), clip=clip),), id=id or self.id, title=title or self.title)

    def split(self, columns: int, rows: int = 1, *, ids: Iterable[str] | None = None) -> list[Drawing]:
        """Split a board into ``columns`` x ``rows`` equal cards, in reading order (row by row).

        Each card is :meth:`crop` of its cell. ``ids`` optionally names the cards (same order).
        Raises ``ValueError`` when the board does not divide into whole cards of the given grid.
        """
        if columns < 1 or rows < 1:
            raise DrawingError("split needs at least one column and one row")
        width = self.width_mm / columns
        height = self.height_mm / rows
        names = list(ids) if ids is not None else [None] * (columns * rows)
        if len(names) != columns * rows:
            raise DrawingError(f"split into {columns * rows} cards got {len(names)} ids")
        boxes = [bounds(item) for item in self.items]
        cards = []
        for index in range(columns * rows):
            row, column = divmod(index, columns)
            cards.append(self._crop(column * width, row * height, width, height, boxes, id=names[index]))
        return cards


def bounds(item: Primitive) -> Box | None:
    """A box in mm (the coordinates ``item`` sits in) that holds everything ``item`` paints, strokes
    included; ``None`` when it paints nothing. Text is measured with its font (:mod:`pnp.fonts`) plus
    half an em, an em above and half an em below the baseline (one em per character for an unknown
    font family)."""
    if isinstance(item, Rect):
        half = item.stroke_width / 2 if item.stroke else 0.0
        return Box(item.x, item.y, item.width, item.height).inset(-half)
    if isinstance(item, Line):
        return _points_box([(item.x1, item.y1), (item.x2, item.y2)], item.stroke_width / 2)
    if isinstance(item, Polyline):
        return _points_box(item.points, item.stroke_width / 2 if item.stroke else 0.0)
    if isinstance(item, Circle):
        reach = item.r + (item.stroke_width / 2 if item.stroke else 0.0)
        return Box(item.cx - reach, item.cy - reach, 2 * reach, 2 * reach)
    if isinstance(item, Icon):
        return Box(item.x, item.y, item.size, item.size)
    if isinstance(item, TextLine):
        from pnp import fonts  # metrics only; imported here because pnp.fonts builds on this module

        em = item.size * MM_PER_PT
        try:
            length = fonts.string_width_mm(item.text, item.family, item.size) + em / 2
        except KeyError:  # a family pnp.fonts does not know: one em per character
            length = em * max(len(item.text), 1)
        start = {"start": 0.0, "middle": -length / 2, "end": -length}[item.anchor]
        corners = [(start, -em), (start + length, -em), (start, em / 2), (start + length, em / 2)]
        return _points_box(turn_points(corners, item.rotation, item.x, item.y), 0.0)
    inner = [box for box in (bounds(child) for child in item.items) if box is not None]
    if not inner:
        return None
    corners = [(b.x, b.y) for b in inner] + [(b.right, b.bottom) for b in inner] \
        + [(b.x, b.bottom) for b in inner] + [(b.right, b.y) for b in inner]
    box = _points_box(turn_points(corners, item.rotation, item.dx, item.dy), 0.0)
    if item.clip is not None:
        left, top = max(box.x, item.clip.x), max(box.y, item.clip.y)
        right, bottom = min(box.right, item.clip.right), min(box.bottom, item.clip.bottom)
        if right < left or bottom < top:
            return None
        box = Box(left, top, right - left, bottom - top)
    return box


def _points_box(points, reach: float) -> Box:
    xs = [x for x, _ in points]
    ys = [y for _, y in points]
    return Box(min(xs) - reach, min(ys) - reach, max(xs) - min(xs) + 2 * reach, max(ys) - min(ys) + 2 * reach)


def inside_polygon(point: tuple[float, float], corners: Sequence[tuple[float, float]]) -> bool:
    """Whether ``point`` (mm) lies inside the polygon ``corners`` (mm, in order), by the even-odd rule."""
    x, y = point
    inside = False
    for (x1, y1), (x2, y2) in zip(corners, list(corners[-1:]) + list(corners[:-1]), strict=True):
        if (y1 > y) != (y2 > y) and x < (x2 - x1) * (y - y1) / (y2 - y1) + x1:
            inside = not inside
    return inside


def turn_points(points: Iterable[tuple[float, float]], rotation: float, dx: float, dy: float,
                origin: tuple[float, float] = (0.0, 0.0)) -> list[tuple[float, float]]:
    """``points`` (mm) turned counter-clockwise as seen on the page (y down) by ``rotation`` degrees
    about ``origin``, then shifted by ``(dx, dy)``: how a :class:`Group` (origin 0, 0) or a rotated
    :class:`TextLine` (origin its anchor, no shift) places its content."""
    ox, oy = origin
    if not rotation:
        return [(x + dx, y + dy) for x, y in points]
    angle = math.radians(rotation)
    cos, sin = math.cos(angle), math.sin(angle)
    return [((x - ox) * cos + (y - oy) * sin + ox + dx, -(x - ox) * sin + (y - oy) * cos + oy + dy)
            for x, y in points]


def _overlaps(box: Box | None, region: Box) -> bool:
    """Whether the :func:`bounds` ``box`` of an item (``None``: it paints nothing) overlaps ``region``."""
    return box is not None and box.x < region.right and region.x < box.right \
        and box.y < region.bottom and region.y < box.bottom


def walk(items: Iterable[Primitive]) -> Iterable[Primitive]:
    """Every primitive in ``items``, depth first, including those inside groups (groups are yielded too)."""
    for item in items:
        yield item
        if isinstance(item, Group):
            yield from walk(item.items)


def icon_names(drawing: Drawing) -> list[str]:
    """The sorted, distinct names of the icons a Drawing uses (inside groups too)."""
    return sorted({item.name for item in walk(drawing.items) if isinstance(item, Icon)})


def scaled(item: Primitive, factor: float, cx: float, cy: float) -> Primitive:
    """``item`` shrunk (``factor`` < 1) or grown about the point ``(cx, cy)`` mm of the coordinates it sits
    in: every point ``p`` goes to ``c + factor * (p - c)``, and every length with it (sizes in mm, line
    widths, radii, text sizes in pt, dash patterns), so the result looks the same, smaller. A group's
    items stay in its own coordinates: its offset and clip move, its items are scaled about its origin.
    Raises :class:`DrawingError` for a ``factor`` that is not positive."""
    if factor <= 0:
        raise DrawingError(f"a scale factor must be positive, not {factor:g}")

    def x_of(x: float) -> float:
        return cx + factor * (x - cx)

    def y_of(y: float) -> float:
        return cy + factor * (y - cy)

    if isinstance(item, Rect):
        return dataclasses.replace(item, x=x_of(item.x), y=y_of(item.y), width=item.width * factor, height=item.height * factor,
                                   stroke_width=item.stroke_width * factor, radius=item.radius * factor)
    if isinstance(item, Line):
        return dataclasses.replace(item, x1=x_of(item.x1), y1=y_of(item.y1), x2=x_of(item.x2), y2=y_of(item.y2),
                                   stroke_width=item.stroke_width * factor, dash=tuple(d * factor for d in item.dash))
    if isinstance(item, Polyline):
        return dataclasses.replace(item, points=tuple((x_of(x), y_of(y)) for x, y in item.points),
                                   stroke_width=item.stroke_width * factor)
    if isinstance(item, Circle):
        return dataclasses.replace(item, cx=x_of(item.cx), cy=y_of(item.cy), r=item.r * factor, stroke_width=item.stroke_width * factor)
    if isinstance(item, TextLine):
        return dataclasses.replace(item, x=x_of(item.x), y=y_of(item.y), size=item.size * factor)
    if isinstance(item, Icon):
        return dataclasses.replace(item, x=x_of(item.x), y=y_of(item.y), size=item.size * factor)
    clip = item.clip
    if clip is not None:
        clip = Box(x_of(clip.x), y_of(clip.y), clip.width * factor, clip.height * factor)
    return Group(tuple(scaled(inner, factor, 0.0, 0.0) for inner in item.items), dx=x_of(item.dx), dy=y_of(item.dy),
                 clip=clip, rotation=item.rotation)
