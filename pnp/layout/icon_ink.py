"""The ink of the bundled icons (``templates/icons/<name>.svg``, viewBox 0 0 100 100) as points on its outline, each
with the half width of the line drawn through it, for the checks that an icon stays inside a disc
(:meth:`pnp.layout.common.CardBuilder.keep_icons_in_disc`; thirtieth breaker, finding 2: the icon's box shrunk by a
fixed share measured the key alike with the Grayking's crown, so the scale advised for one let the other cross its ring).

The SVG is read by svglib, as the PDF draws it (:func:`pnp.icon_files.icon_drawing`): its styles, groups, transforms,
``use`` and arcs are resolved there. Measured here: circles and ellipses (sampled every 5 degrees), rectangles (square
or rounded corners), lines, polylines and polygons, paths (curves sampled), and any other shape by its bounding box;
each with half its line width where it has a line, and the tips of its sharp miter joins. An icon that cannot be read is measured as its whole viewBox
(never smaller than its ink)."""

from __future__ import annotations

import math
from functools import cache
from typing import TYPE_CHECKING

from pnp.icon_files import icon_drawing
from pnp.text import ICON_DIR

if TYPE_CHECKING:  # ReportLab's graphics, imported where an icon is measured: a build of kept layouts measures none
    from reportlab.graphics import shapes

InkPoint = tuple[float, float, float]
"""A point of an icon's ink: x and y in its viewBox units (0-100, y down) and the half width of the line there (units)."""

Transform = tuple[float, float, float, float, float, float]
"""An affine transform as ReportLab writes one: ``(a, b, c, d, e, f)``, ``x' = a x + c y + e``, ``y' = b x + d y + f``."""

_CURVE_STEPS = 12
_CIRCLE_STEPS = 72
_WHOLE_BOX: tuple[InkPoint, ...] = ((0.0, 0.0, 0.0), (100.0, 0.0, 0.0), (0.0, 100.0, 0.0), (100.0, 100.0, 0.0))
_MOVE_TO, _LINE_TO, _CURVE_TO, _CLOSE_PATH = 0, 1, 2, 3  # ReportLab's path operators (shapes._PATH_OP_NAMES)


def _curve(start: tuple[float, float], first: tuple[float, float], second: tuple[float, float],
           end: tuple[float, float]) -> list[tuple[float, float]]:
    """A cubic Bézier curve sampled :data:`_CURVE_STEPS` times after its start (its end included)."""
    points = []
    for step in range(1, _CURVE_STEPS + 1):
        t = step / _CURVE_STEPS
        u = 1 - t
        points.append((u ** 3 * start[0] + 3 * u * u * t * first[0] + 3 * u * t * t * second[0] + t ** 3 * end[0],
                       u ** 3 * start[1] + 3 * u * u * t * first[1] + 3 * u * t * t * second[1] + t ** 3 * end[1]))
    return points


def _path_points(path: shapes.Path) -> list[tuple[float, float]]:
    """The points of a ReportLab path's outline: its end points, and each curve sampled :data:`_CURVE_STEPS` times.
    Raises ``ValueError`` for a path whose points run out before its operators."""
    values = list(path.points)
    points: list[tuple[float, float]] = []
    index = 0

    def take(count: int) -> list[tuple[float, float]]:
        nonlocal index
        if index + 2 * count > len(values):
            raise ValueError("path cut short")
        taken = [(float(values[index + 2 * k]), float(values[index + 2 * k + 1])) for k in range(count)]
        index += 2 * count
        return taken

    for operator in path.operators:
        if operator in (_MOVE_TO, _LINE_TO):
            points.extend(take(1))
        elif operator == _CURVE_TO:
            first, second, end = take(3)
            points.extend(_curve(points[-1] if points else (0.0, 0.0), first, second, end))
    return points


def _outline(shape: shapes.Shape) -> list[tuple[float, float, float]]:
    """The points of ``shape``'s outline in its own coordinates, each with a factor of its half line width (``√2`` at
    a square corner, whose line reaches out on both axes)."""
    from reportlab.graphics import shapes

    if isinstance(shape, (shapes.Circle, shapes.Ellipse)):
        rx = shape.r if isinstance(shape, shapes.Circle) else shape.rx
        ry = shape.r if isinstance(shape, shapes.Circle) else shape.ry
        return [(shape.cx + rx * math.cos(2 * math.pi * step / _CIRCLE_STEPS),
                 shape.cy + ry * math.sin(2 * math.pi * step / _CIRCLE_STEPS), 1.0) for step in range(_CIRCLE_STEPS)]
    if isinstance(shape, shapes.Rect):
        x, y, w, h = shape.x, shape.y, shape.width, shape.height
        radius = min(max(shape.rx or 0, shape.ry or 0), w / 2, h / 2)
        if radius > 0:  # a rounded corner: its arc's middle, and the sides' middles
            cut = radius * (1 - 1 / math.sqrt(2))
            return [(x + cut, y + cut, 1.0), (x + w - cut, y + cut, 1.0), (x + cut, y + h - cut, 1.0),
                    (x + w - cut, y + h - cut, 1.0), (x + w / 2, y, 1.0), (x + w / 2, y + h, 1.0),
                    (x, y + h / 2, 1.0), (x + w, y + h / 2, 1.0)]
        return [(px, py, math.sqrt(2)) for px, py in ((x, y), (x + w, y), (x, y + h), (x + w, y + h))]
    if isinstance(shape, shapes.Line):
        return [(shape.x1, shape.y1, 1.0), (shape.x2, shape.y2, 1.0)]
    if isinstance(shape, (shapes.PolyLine, shapes.Polygon)):
        values = list(shape.points)
        return [(float(px), float(py), 1.0) for px, py in zip(values[0::2], values[1::2], strict=False)]
    if isinstance(shape, shapes.Path):
        return [(px, py, 1.0) for px, py in _path_points(shape)]
    left, bottom, right, top = shape.getBounds()  # a text or a shape of another kind: its box
    return [(left, bottom, 1.0), (right, bottom, 1.0), (left, top, 1.0), (right, top, 1.0)]


PDF_MITER_LIMIT = 10.0
"""The miter limit the PDF draws an icon's joins with: svglib does not read ``stroke-miterlimit`` and ReportLab sets
none, so the PDF's default (ISO 32000, 8.4.3.5) holds. A sharp join whose miter is longer than this many half line
widths is cut flat (beveled)."""


def _runs(shape: shapes.Shape) -> list[tuple[list[tuple[float, float]], bool]]:
    """The runs of straight pieces ``shape``'s line is drawn along, each as its points and whether it is closed: a
    polyline's, a polygon's, or each subpath of a path (curves sampled as :func:`_path_points` samples them); none for
    other shapes (a rectangle's square corners are measured by :func:`_outline`)."""
    from reportlab.graphics import shapes

    if isinstance(shape, (shapes.PolyLine, shapes.Polygon)):
        values = list(shape.points)
        return [([(float(px), float(py)) for px, py in zip(values[0::2], values[1::2], strict=False)],
                 isinstance(shape, shapes.Polygon))]
    if not isinstance(shape, shapes.Path):
        return []
    values, index = list(shape.points), 0
    runs: list[tuple[list[tuple[float, float]], bool]] = []
    current: list[tuple[float, float]] = []

    def take(count: int) -> list[tuple[float, float]]:
        nonlocal index
        taken = [(float(values[index + 2 * k]), float(values[index + 2 * k + 1])) for k in range(count)
                 if index + 2 * k + 1 < len(values)]
        index += 2 * count
        return taken

    for operator in shape.operators:
        if operator == _MOVE_TO:
            if len(current) > 1:
                runs.append((current, False))
            current = take(1)
        elif operator == _LINE_TO:
            current.extend(take(1))
        elif operator == _CURVE_TO:
            taken = take(3)
            if len(taken) == 3:
                current.extend(_curve(current[-1] if current else (0.0, 0.0), *taken))
        elif operator == _CLOSE_PATH:
            if len(current) > 1:
                runs.append((current, True))
            current = current[:1]
    if len(current) > 1:
        runs.append((current, False))
    return runs


def _miter_tips(shape: shapes.Shape, half: float) -> list[tuple[float, float]]:
    """The tips of the miter joins of ``shape``'s line (``half`` its half width, in its own units): at each sharp corner
    of a run the line's outer edges meet this far out, up to :data:`PDF_MITER_LIMIT` half widths (past it the PDF bevels
    the join, which reaches no farther than ``half``). None for round or beveled joins. Thirty-sixth pnp breaker, LOW 12:
    a path turning back sharply with a miter join reached 14 % past the viewBox, measured as its points alone."""
    if half <= 0 or getattr(shape, "strokeLineJoin", 0) not in (0, None):
        return []
    tips = []
    for points, closed in _runs(shape):
        points = [point for index, point in enumerate(points) if index == 0 or point != points[index - 1]]
        if closed and len(points) > 1 and points[0] == points[-1]:
            points = points[:-1]
        count = len(points)
        corners = range(count) if closed else range(1, count - 1)
        for index in corners:
            before, at, after = points[index - 1], points[index], points[(index + 1) % count]
            ux, uy = at[0] - before[0], at[1] - before[1]
            vx, vy = after[0] - at[0], after[1] - at[1]
            length_u, length_v = math.hypot(ux, uy), math.hypot(vx, vy)
            if length_u == 0 or length_v == 0:
                continue
            ux, uy, vx, vy = ux / length_u, uy / length_u, vx / length_v, vy / length_v
            sine = math.sqrt(max(0.0, (1 + (ux * vx + uy * vy)) / 2))  # sin of half the angle between the two pieces
            if sine == 0 or 1 / sine > PDF_MITER_LIMIT:
                continue  # turned straight back (no join) or beveled past the limit
            out_x, out_y = ux - vx, uy - vy
            out = math.hypot(out_x, out_y)
            if out < 1e-9:
                continue  # straight on: no corner
            tips.append((at[0] + out_x / out * half / sine, at[1] + out_y / out * half / sine))
    return tips


def _half_line(shape: shapes.Shape) -> float:
    """Half the width of ``shape``'s line in its own units: 0 when it draws none (no stroke colour, a width of 0, or
    svglib's fill-only twin of a stroked path)."""
    from svglib.svglib import NoStrokePath

    if isinstance(shape, NoStrokePath) or getattr(shape, "strokeColor", None) is None:
        return 0.0
    return float(getattr(shape, "strokeWidth", 0) or 0) / 2


def _ink(node: shapes.Group | shapes.Drawing, transform: Transform) -> list[tuple[float, float, float]]:
    """The ink points of every shape under ``node``, through ``transform`` and the groups' own, in drawing units."""
    from reportlab.graphics import shapes

    found: list[tuple[float, float, float]] = []
    for child in node.contents:
        if isinstance(child, shapes.Group):
            found.extend(_ink(child, shapes.mmult(transform, tuple(child.transform))))
            continue
        half = _half_line(child)
        a, b, c, d = transform[:4]
        scale = math.sqrt(abs(a * d - b * c))  # a line's width through the transform (its mean scale)
        for px, py, factor in _outline(child):
            x, y = shapes.transformPoint(transform, (px, py))
            found.append((x, y, half * factor * scale))
        for px, py in _miter_tips(child, half):  # the points of sharp miter joins, ink to their tip
            x, y = shapes.transformPoint(transform, (px, py))
            found.append((x, y, 0.0))
    return found


def _viewbox_ink(path) -> tuple[InkPoint, ...]:
    """The ink points of the icon file ``path`` in its viewBox units (as :func:`icon_ink`); raises as
    :func:`pnp.icon_files.icon_drawing`, and ``ValueError`` for an icon of no size."""
    from reportlab.graphics import shapes

    drawing = icon_drawing(path)  # the PDF's reading of it
    if not drawing.width or not drawing.height:
        raise ValueError("an icon of no size")
    points = _ink(drawing, shapes.nullTransform())
    across, down = 100 / drawing.width, 100 / drawing.height
    return tuple((x * across, (drawing.height - y) * down, half * math.sqrt(across * down)) for x, y, half in points)


def ink_past_viewbox(path) -> float:
    """How far (viewBox units of 100) the ink of the icon file ``path`` reaches past its viewBox at the farthest, 0 when
    it keeps inside or cannot be read (its reading is judged elsewhere). What is past the viewBox is cut off in print
    (thirty-fourth pnp breaker, MED 7: a drop whose tip was drawn above the viewBox printed with its tip cut flat)."""
    try:
        points = _viewbox_ink(path)
    except (OSError, ValueError, SyntaxError, TypeError, AttributeError):
        return 0.0
    return max((max(half - x, x + half - 100, half - y, y + half - 100) for x, y, half in points), default=0.0)


@cache
def icon_ink(name: str) -> tuple[InkPoint, ...]:
    """The ink of the icon ``name`` (``templates/icons/<name>.svg``) as points of its outline in viewBox units (0-100,
    y down, the box the icon is printed in), each with the half width of its line (:data:`InkPoint`); an icon that
    cannot be read is its viewBox's corners. Cached per name."""
    try:
        points = _viewbox_ink(ICON_DIR / f"{name}.svg")
    except (OSError, ValueError, SyntaxError, TypeError, AttributeError):  # lxml's syntax errors are SyntaxErrors
        return _WHOLE_BOX
    # what reaches past the viewBox is cut off in print (pnp.pdf clips the icon to it): measured to the viewBox's edge
    # (thirty-fourth pnp breaker, MED 7: a square drawn far past it was said as an icon run over the card frame)
    return tuple((min(max(x, 0.0), 100.0), min(max(y, 0.0), 100.0),
                  min(half, max(0.0, min(x, 100.0 - x, y, 100.0 - y)))) for x, y, half in points) or _WHOLE_BOX
