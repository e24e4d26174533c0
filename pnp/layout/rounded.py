"""Rounded outlines against what they hold: a box, space or frame drawn with rounded corners (a template key ending
in ``radius``) must keep the texts and discs drawn inside it inside its rounded corners, not only inside the square
box the other checks measure (twenty-eighth breaker, finding 2: spell_path `box_radius = 6.5`, the most that "half the
smaller side" allowed, made the spell boxes stadiums whose outline crossed the first and last lines of the spell texts
and the number discs, and check passed).

A text is judged by its ink box (:func:`pnp.layout.safe.painted`), kept :data:`CORNER_CLEARANCE_MM` from the arc, a disc by its circle
and half its line. It is inside a rounded rectangle drawn before it when it lies in the rectangle's square box; it
is then out of the rounded corner when the point of it nearest the corner is farther from the corner arc's centre
than the arc's radius. The ink of the outline reaches half its line inward, so the arc judged is the inner edge of the
line: its radius is the corner radius less half the line width (mm throughout)."""

from __future__ import annotations

import math
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pnp.drawing import Box, Circle, Group, Rect, TextLine, turn_points
from pnp.layout.overlap import OVERLAP_SLACK_MM
from pnp.layout.problems import FitProblem
from pnp.layout.safe import _outer_box, painted
from pnp.layout.template import changed_number, load_template, template_line
from pnp.units import MM_PER_PT, ROUNDING_SLACK

CORNER_CLEARANCE_MM = OVERLAP_SLACK_MM
"""The room (mm) kept between a text's ink box (not shrunk) and the inner edge of a rounded corner's line, the small gap
the overlap checks allow (thirtieth breaker, finding 3: with the ink box shrunk by the slack and no room, the advised
spell `box_radius` 3.2 ran the corner through the tail of the y of "you fight.")."""


@dataclass(frozen=True)
class _Rounded:
    """A rounded rectangle in card mm: its square ``box`` (the middle of its line), its corner ``radius`` as the
    template writes it (mm), half its line's width ``half`` (mm, 0 unstroked), its drawing ``order`` and ``named``."""

    box: Box
    radius: float
    half: float
    order: int
    named: str


@dataclass(frozen=True)
class _Held:
    """A text line's ink box (``disc`` ``None``) or a disc (centre and reach, as a :class:`~pnp.drawing.Circle` whose ``r``
    includes half its line) in card mm, with its drawing ``order`` and its words for a report (``what``)."""

    box: Box
    order: int
    what: str
    disc: Circle | None = None


def _walk(items: Iterable[Any], transforms: tuple[tuple[float, float, float], ...], counter: list[int],
          scale: float) -> Iterator[_Rounded | _Held | tuple[TextLine, tuple[tuple[float, float, float], ...], int]]:
    """The rounded rectangles and filled discs of ``items`` in drawing order, in card mm (through groups), and each text
    line with its groups' turns and shifts and its order (measured only where it may reach a corner: :func:`_near_corner`)."""
    for item in items:
        counter[0] += 1
        if isinstance(item, Group):
            yield from _walk(item.items, transforms + ((item.dx, item.dy, item.rotation),), counter, scale)
        elif isinstance(item, Rect) and item.radius > ROUNDING_SLACK and (item.fill or item.stroke):
            half = item.stroke_width / 2 if item.stroke else 0.0
            yield _Rounded(_outer_box(Box(item.x, item.y, item.width, item.height), transforms), item.radius / scale,
                           half, counter[0], item.named)
        elif isinstance(item, TextLine) and item.text.strip():
            yield item, transforms, counter[0]
        elif isinstance(item, Circle) and item.fill:
            (centre,) = _turned((item.cx, item.cy), transforms)
            reach = item.r + (item.stroke_width / 2 if item.stroke else 0.0)
            yield _Held(Box(centre[0] - reach, centre[1] - reach, 2 * reach, 2 * reach), counter[0], "a disc",
                        Circle(centre[0], centre[1], reach))


def _near_corner(line: TextLine, transforms: tuple[tuple[float, float, float], ...], shapes: list[_Rounded]) -> bool:
    """Whether the text ``line`` may reach a corner of one of ``shapes`` (card mm): its baseline's anchor lies within
    one and a half of its size of a shape's top or bottom row of corners (a turned line: always), so that only those
    lines are measured (the measure is what costs)."""
    if line.rotation or any(rotation % 180 for _, _, rotation in transforms):
        return True
    (x, y), = _turned((line.x, line.y), transforms)
    reach = 1.5 * line.size * MM_PER_PT
    for shape in shapes:
        box, arc = shape.box, shape.radius
        if box.y - reach <= y <= box.bottom + reach and box.x - reach <= x <= box.right + reach \
                and (y <= box.y + arc + reach or y >= box.bottom - arc - reach):
            return True
    return False


def _turned(point: tuple[float, float], transforms: tuple[tuple[float, float, float], ...]) -> list[tuple[float, float]]:
    """``point`` of the innermost coordinates in the outermost (each group turns, then shifts)."""
    points = [point]
    for dx, dy, rotation in reversed(transforms):
        points = turn_points(points, rotation, dx, dy)
    return points


def _largest_radius(across: float, down: float, reach: float) -> float:
    """The largest corner arc radius (mm) that keeps a point ``across`` and ``down`` mm from a corner's two edges (or a
    disc of radius ``reach`` centred there) inside the arc: the root of (r - across)² + (r - down)² = (r - reach)²."""
    half_sum = across + down - reach
    return half_sum + math.sqrt(max(0.0, half_sum * half_sum - (across * across + down * down - reach * reach)))


def _corner_limit(shape: _Rounded, held: _Held) -> float | None:
    """The largest arc radius (mm, the inner edge of ``shape``'s line) that keeps ``held`` inside ``shape``'s rounded
    corners, when ``held`` lies in its square box and reaches into a corner square as big as the arc drawn; else ``None``."""
    inner = shape.box.inset(shape.half)
    box = held.box
    if box.x < inner.x - ROUNDING_SLACK or box.y < inner.y - ROUNDING_SLACK or box.right > inner.right + ROUNDING_SLACK \
            or box.bottom > inner.bottom + ROUNDING_SLACK:
        return None  # not inside it (what crosses the square box is judged by the overlap and legibility checks)
    arc = max(0.0, min(shape.radius - shape.half, inner.width / 2, inner.height / 2))
    if held.disc is not None:
        across = min(held.disc.cx - inner.x, inner.right - held.disc.cx)
        down = min(held.disc.cy - inner.y, inner.bottom - held.disc.cy)
        reach = held.disc.r
    else:  # a text's ink box keeps the clearance from the arc (its corner is about where a y's tail or a capital's end is)
        across, down = min(box.x - inner.x, inner.right - box.right), min(box.y - inner.y, inner.bottom - box.bottom)
        if across >= arc or down >= arc:
            return None
        reach = CORNER_CLEARANCE_MM
    if across - reach >= arc or down - reach >= arc:
        return None
    limit = _largest_radius(max(across, 0.0), max(down, 0.0), reach)
    return limit if limit < arc - ROUNDING_SLACK else None


def rounded_outline_problems(faces: Iterable[Any]) -> list[FitProblem]:
    """One ``"template"`` :class:`FitProblem` per ``[numbers]`` radius key (at its file and line) whose rounded corners
    cut into a text line or a disc drawn inside the rounded shape, saying the largest radius (rounded down to 0.1 mm)
    that keeps everything inside every shape drawn with it. ``faces`` are :class:`pnp.layout.Face` objects. The key is
    the radius key of the face's template whose value is the shape's radius, the one number the designer changed
    (:func:`pnp.layout.template.changed_number`) first; a shape whose radius no key gives is not judged."""
    found: dict[tuple[Path, str], list[Any]] = {}  # (template, key) -> [face, what, named, largest, radius]
    for face in faces:
        path: Path | None = getattr(face, "template", None)
        if path is None:
            continue
        marks = list(_walk(face.drawing.items, (), [0], getattr(face, "scale", 1.0) or 1.0))
        shapes = [mark for mark in marks if isinstance(mark, _Rounded)]
        if not shapes:
            continue
        held = [mark for mark in marks if isinstance(mark, _Held)]
        held += [_Held(found.box, order, found.what) for mark in marks if isinstance(mark, tuple)
                 for line, transforms, order in (mark,) if _near_corner(line, transforms, shapes)
                 for found in painted([line], transforms)]
        numbers: dict[str, Any] | None = None
        first: str | None = None
        for shape in shapes:
            for thing in held:
                if thing.order < shape.order:
                    continue
                limit = _corner_limit(shape, thing)
                if limit is None:
                    continue
                if numbers is None:
                    numbers = load_template(path.stem, path.parent).numbers
                    changed = changed_number(path)
                    first = changed[0] if changed is not None and changed[0].endswith("radius") else None
                keys = sorted((name for name, value in numbers.items() if name.endswith("radius")
                               and isinstance(value, (int, float)) and abs(value - shape.radius) <= ROUNDING_SLACK),
                              key=lambda name: name != first)
                if not keys:
                    continue
                most = math.floor((limit + shape.half) * 10 + 1e-6) / 10
                said = found.setdefault((path, keys[0]), [face, thing.what, shape.named, most, shape.radius])
                if most < said[3]:  # the message names what sets the advice (thirtieth breaker, finding 3)
                    said[:4] = [face, thing.what, shape.named, most]
    problems = []
    for (path, key), (face, what, named, most, radius) in found.items():
        file, line = template_line(path, f"numbers.{key}")
        problems.append(FitProblem("templates", f"numbers.{key}", "template",
                                   f"{radius:g} mm rounds the corners of {named or 'a shape drawn with it'} so much that "
                                   f"its outline cuts into {what} inside it (on {face.id}); set {key} to at most "
                                   f"{max(0.0, most):g}", path=str(file), line=line))
    return problems
