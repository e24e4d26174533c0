"""The ink of the bundled icons (``templates/icons/<name>.svg``, viewBox 0 0 100 100) as points on its outline, each
with the half width of the line drawn through it, for the checks that an icon stays inside a disc
(:meth:`pnp.layout.common.CardBuilder.keep_icons_in_disc`; thirtieth breaker, finding 2: the icon's box shrunk by a
fixed share measured the key alike with the Grayking's crown, so the scale advised for one let the other cross its ring).

Read from the SVG's ``circle``, ``ellipse``, ``rect``, ``line``, ``polygon``/``polyline`` and ``path`` elements (absolute
and relative M, L, H, V, C, S, Q, T, Z; curves sampled, arcs taken by their end points): an icon drawn with anything else
is measured by those it has, and one that cannot be read by its whole viewBox (never smaller than its ink)."""

from __future__ import annotations

import math
import re
import xml.etree.ElementTree as ElementTree
from functools import cache

from pnp.text import ICON_DIR

InkPoint = tuple[float, float, float]
"""A point of an icon's ink: x and y in its viewBox units (0-100, y down) and the half width of the line there (units)."""

_CURVE_STEPS = 12
_CIRCLE_STEPS = 72
_NUMBER = re.compile(r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?")
_TOKEN = re.compile(r"[MmLlHhVvCcSsQqTtAaZz]|[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?")
_WHOLE_BOX: tuple[InkPoint, ...] = ((0.0, 0.0, 0.0), (100.0, 0.0, 0.0), (0.0, 100.0, 0.0), (100.0, 100.0, 0.0))


def _number(element: ElementTree.Element, name: str) -> float:
    """The attribute ``name`` of ``element`` as a number (its first number; 0 when it has none)."""
    found = _NUMBER.search(element.get(name, "") or "")
    return float(found.group(0)) if found else 0.0


def _half_line(element: ElementTree.Element) -> float:
    """Half the width of ``element``'s line (viewBox units): 0 when it has no stroke, else half its stroke-width (1
    when none is written, as SVG draws it)."""
    stroke = element.get("stroke", "none")
    if stroke in ("none", ""):
        return 0.0
    return (_number(element, "stroke-width") if element.get("stroke-width") is not None else 1.0) / 2


def _path_points(d: str) -> list[tuple[float, float]]:
    """The points of an SVG path's outline: its end points, and each curve sampled :data:`_CURVE_STEPS` times."""
    tokens = _TOKEN.findall(d)
    points: list[tuple[float, float]] = []
    x = y = start_x = start_y = 0.0
    control: tuple[float, float] | None = None
    command = ""
    index = 0

    def take(count: int) -> list[float]:
        nonlocal index
        values = [float(value) for value in tokens[index:index + count]]
        index += count
        if len(values) < count:
            raise ValueError("path cut short")
        return values

    while index < len(tokens):
        if tokens[index].isalpha():
            command = tokens[index]
            index += 1
            if command in "Zz":
                x, y = start_x, start_y
                control = None
                continue
        if not command:
            raise ValueError("path starts with no command")
        relative = command.islower()
        dx, dy = (x, y) if relative else (0.0, 0.0)
        upper = command.upper()
        if upper in "ML":
            px, py = take(2)
            x, y = px + dx, py + dy
            if upper == "M":
                start_x, start_y = x, y
                command = "l" if relative else "L"
            points.append((x, y))
            control = None
        elif upper == "H":
            x = take(1)[0] + dx
            points.append((x, y))
            control = None
        elif upper == "V":
            y = take(1)[0] + dy
            points.append((x, y))
            control = None
        elif upper in "CSQT":
            if upper == "C":
                x1, y1, x2, y2, ex, ey = take(6)
                c1, c2 = (x1 + dx, y1 + dy), (x2 + dx, y2 + dy)
            elif upper == "S":
                x2, y2, ex, ey = take(4)
                c1 = (2 * x - control[0], 2 * y - control[1]) if control else (x, y)
                c2 = (x2 + dx, y2 + dy)
            elif upper == "Q":
                x1, y1, ex, ey = take(4)
                c1 = c2 = (x1 + dx, y1 + dy)
            else:
                ex, ey = take(2)
                c1 = c2 = (2 * x - control[0], 2 * y - control[1]) if control else (x, y)
            end = (ex + dx, ey + dy)
            for step in range(1, _CURVE_STEPS + 1):
                t = step / _CURVE_STEPS
                u = 1 - t
                if upper in "CS":
                    points.append((u ** 3 * x + 3 * u * u * t * c1[0] + 3 * u * t * t * c2[0] + t ** 3 * end[0],
                                   u ** 3 * y + 3 * u * u * t * c1[1] + 3 * u * t * t * c2[1] + t ** 3 * end[1]))
                else:
                    points.append((u * u * x + 2 * u * t * c1[0] + t * t * end[0], u * u * y + 2 * u * t * c1[1] + t * t * end[1]))
            control = c2
            x, y = end
        elif upper == "A":  # an arc: its end point (the bundled icons draw none)
            values = take(7)
            x, y = values[5] + dx, values[6] + dy
            points.append((x, y))
            control = None
        else:
            raise ValueError(f"unknown path command {command!r}")
    return points


@cache
def icon_ink(name: str) -> tuple[InkPoint, ...]:
    """The ink of the icon ``name`` (``templates/icons/<name>.svg``) as points of its outline in viewBox units (0-100),
    each with the half width of its line (:data:`InkPoint`); an icon that cannot be read is its viewBox's corners.
    Cached per name."""
    try:
        root = ElementTree.parse(ICON_DIR / f"{name}.svg").getroot()
    except (OSError, ElementTree.ParseError):
        return _WHOLE_BOX
    found: list[InkPoint] = []
    try:
        for element in root.iter():
            tag = element.tag.rsplit("}", 1)[-1]
            half = _half_line(element)
            if tag in ("circle", "ellipse"):
                cx, cy = _number(element, "cx"), _number(element, "cy")
                rx = _number(element, "r") if tag == "circle" else _number(element, "rx")
                ry = _number(element, "r") if tag == "circle" else _number(element, "ry")
                for step in range(_CIRCLE_STEPS):
                    angle = 2 * math.pi * step / _CIRCLE_STEPS
                    found.append((cx + rx * math.cos(angle), cy + ry * math.sin(angle), half))
            elif tag == "rect":
                x, y, w, h = (_number(element, key) for key in ("x", "y", "width", "height"))
                radius = min(max(_number(element, "rx"), _number(element, "ry")), w / 2, h / 2)
                if radius > 0:  # a rounded corner: its arc's middle, and the line's half width out from it
                    cut = radius * (1 - 1 / math.sqrt(2))
                    corners = ((x + cut, y + cut), (x + w - cut, y + cut), (x + cut, y + h - cut), (x + w - cut, y + h - cut))
                    found.extend((px, py, half) for px, py in corners)
                    found.extend((px, py, half) for px, py in ((x + w / 2, y), (x + w / 2, y + h), (x, y + h / 2), (x + w, y + h / 2)))
                else:  # a square corner's line reaches half its width out on both axes: its diagonal, sqrt(2) times
                    found.extend((px, py, half * math.sqrt(2)) for px, py in ((x, y), (x + w, y), (x, y + h), (x + w, y + h)))
            elif tag == "line":
                found.extend(((_number(element, "x1"), _number(element, "y1"), half),
                              (_number(element, "x2"), _number(element, "y2"), half)))
            elif tag in ("polygon", "polyline"):
                values = [float(value) for value in _NUMBER.findall(element.get("points", ""))]
                found.extend((px, py, half) for px, py in zip(values[0::2], values[1::2]))
            elif tag == "path":
                found.extend((px, py, half) for px, py in _path_points(element.get("d", "")))
    except ValueError:
        return _WHOLE_BOX
    return tuple(found) or _WHOLE_BOX
