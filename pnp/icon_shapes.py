"""The icons' shapes for the PDF backend, read straight from ``templates/icons/<name>.svg``.

The bundled icons are written in a small part of SVG: ``<rect>`` (square or rounded corners),
``<circle>``, ``<ellipse>`` and ``<path>`` (the commands M, L, H, V, C and Z, absolute or relative)
directly under the root, painted with ``fill``, ``stroke``, ``stroke-width``, ``stroke-linecap`` and
``stroke-linejoin`` in ``#rrggbb`` colours, on a ``viewBox="0 0 W H"`` as wide and high as the file's
``width`` and ``height``. :func:`icon_shapes` reads a file written in that part into
:class:`IconShapes`, and :func:`draw_icon` paints it with ReportLab canvas calls: the very calls
svglib's drawing makes through ``reportlab.graphics.renderPDF`` (``rect``, ``roundRect``,
``circle``, ``ellipse``, a path of lines and Bézier curves), so an icon prints the same
(``tests/test_svg_pdf.py`` renders every bundled icon both ways and compares the pixels).

Why not svglib: importing it and ``reportlab.graphics`` (which imports ``reportlab.platypus``), and
converting the icons, was a tenth of a whole ``pnp build`` (issue 14). A file that uses anything else
of SVG (a group, a transform, an opacity, a named colour, an arc) gives ``None``, and
:mod:`pnp.pdf` draws that icon with svglib as before.
"""
from __future__ import annotations

import re
import xml.etree.ElementTree as ElementTree
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any, Literal

SVG_NAMESPACE = "{http://www.w3.org/2000/svg}"
_COLOUR = re.compile(r"#[0-9a-fA-F]{6}")
_NUMBER = r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?"
_PATH_TOKEN = re.compile(rf"\s*(?:([MmLlHhVvCcZz])|({_NUMBER}))\s*,?")
_CAPS = {"butt": 0, "round": 1, "square": 2}
_JOINS = {"miter": 0, "round": 1, "bevel": 2}
_PAINT = {"fill", "stroke", "stroke-width", "stroke-linecap", "stroke-linejoin"}
_GEOMETRY = {"rect": {"x", "y", "width", "height", "rx", "ry"}, "circle": {"cx", "cy", "r"},
             "ellipse": {"cx", "cy", "rx", "ry"}, "path": {"d"}}

PathOp = tuple[Literal["M", "L", "C", "Z"], tuple[float, ...]]
"""One step of a path in absolute icon units: ``("M", (x, y))``, ``("L", (x, y))``, ``("C", (x1, y1,
x2, y2, x, y))`` or ``("Z", ())``."""


@dataclass(frozen=True)
class Shape:
    """One painted element of an icon, in the icon's units (its viewBox, y down).

    ``kind`` ``"rect"`` has ``geometry`` ``(x, y, width, height, corner radius)``; ``"circle"``
    ``(cx, cy, r)``; ``"ellipse"`` ``(cx, cy, rx, ry)``; ``"path"`` has its steps in ``path``.
    ``fill`` and ``stroke`` are ``"#rrggbb"`` or ``None`` (not painted); ``stroke_width`` is in icon
    units, ``cap`` and ``join`` are PDF's line cap and join numbers (0 butt/miter, 1 round, 2
    square/bevel)."""

    kind: Literal["rect", "circle", "ellipse", "path"]
    geometry: tuple[float, ...]
    path: tuple[PathOp, ...]
    fill: str | None
    stroke: str | None
    stroke_width: float
    cap: int
    join: int


@dataclass(frozen=True)
class IconShapes:
    """An icon file's shapes in paint order, on a ``width`` x ``height`` box (its viewBox, icon units)."""

    width: float
    height: float
    shapes: tuple[Shape, ...]


class _Unsupported(ValueError):
    """Something outside the SVG this module reads: the icon is left to svglib."""


def _number(text: str | None, default: float | None = None) -> float:
    if text is None:
        if default is None:
            raise _Unsupported("a number is missing")
        return default
    text = text.strip()
    if text.endswith("px"):  # svglib reads px as user units too
        text = text[:-2]
    if not re.fullmatch(_NUMBER, text):
        raise _Unsupported(f"not a plain number: {text!r}")
    return float(text)


def _paint(value: str | None, default: str | None) -> str | None:
    if value is None:
        return default
    value = value.strip()
    if value == "none":
        return None
    if not _COLOUR.fullmatch(value):
        raise _Unsupported(f"colour {value!r}")
    return value.lower()


def parse_path(d: str) -> tuple[PathOp, ...]:
    """The steps of the SVG path data ``d`` (commands M, L, H, V, C, Z and their relative forms, with
    implicit repeats as SVG defines them) in absolute coordinates; raises ``ValueError`` for any
    other command or a malformed list of numbers."""
    tokens: list[str | float] = []
    position = 0
    while position < len(d):
        match = _PATH_TOKEN.match(d, position)
        if match is None or match.end() == position:
            if d[position:].strip() == "":
                break
            raise _Unsupported(f"path data {d[position:position + 10]!r}")
        tokens.append(match.group(1) if match.group(1) else float(match.group(2)))
        position = match.end()
    ops: list[PathOp] = []
    x = y = start_x = start_y = 0.0
    index = 0
    command: str | None = None
    while index < len(tokens):
        token = tokens[index]
        if isinstance(token, str):
            command = token
            index += 1
            if command in "Zz":
                ops.append(("Z", ()))
                x, y = start_x, start_y
                command = None
                continue
        elif command is None:
            raise _Unsupported("path data does not start with a command")
        assert command is not None
        count = {"M": 2, "L": 2, "H": 1, "V": 1, "C": 6}[command.upper()]
        numbers = tokens[index:index + count]
        if len(numbers) < count or not all(isinstance(n, float) for n in numbers):
            raise _Unsupported("path data: too few numbers")
        values = [float(n) for n in numbers]
        index += count
        relative = command.islower()
        upper = command.upper()
        if upper in ("M", "L"):
            px, py = values
            if relative:
                px, py = x + px, y + py
            if upper == "M":
                ops.append(("M", (px, py)))
                start_x, start_y = px, py
                command = "l" if relative else "L"  # further pairs after a moveto are linetos
            else:
                ops.append(("L", (px, py)))
            x, y = px, py
        elif upper == "H":
            x = x + values[0] if relative else values[0]
            ops.append(("L", (x, y)))
        elif upper == "V":
            y = y + values[0] if relative else values[0]
            ops.append(("L", (x, y)))
        else:  # C
            if relative:
                values = [values[i] + (x if i % 2 == 0 else y) for i in range(6)]
            ops.append(("C", tuple(values)))
            x, y = values[4], values[5]
    if not ops or ops[0][0] != "M":
        raise _Unsupported("path data does not start with a moveto")
    return tuple(ops)


def _shape(element: ElementTree.Element) -> Shape:
    tag = element.tag.removeprefix(SVG_NAMESPACE) if isinstance(element.tag, str) else ""
    if tag not in _GEOMETRY:
        raise _Unsupported(f"element <{tag}>")
    unknown = set(element.attrib) - _GEOMETRY[tag] - _PAINT
    if unknown or len(element):
        raise _Unsupported(f"<{tag}> with {sorted(unknown) or 'children'}")
    a = element.attrib
    fill = _paint(a.get("fill"), "#000000")  # SVG's defaults: filled black, not stroked
    stroke = _paint(a.get("stroke"), None)
    width = _number(a.get("stroke-width"), 1.0)
    cap = _CAPS.get(a.get("stroke-linecap", "butt"))
    join = _JOINS.get(a.get("stroke-linejoin", "miter"))
    if cap is None or join is None:
        raise _Unsupported("line cap or join")
    geometry: tuple[float, ...] = ()
    path: tuple[PathOp, ...] = ()
    if tag == "rect":
        rx, ry = a.get("rx"), a.get("ry")
        radius = _number(rx if rx is not None else ry, 0.0)
        if rx is not None and ry is not None and _number(rx) != _number(ry):
            raise _Unsupported("a rect with rx other than ry")
        x, y, w, h = (_number(a.get(key), 0.0 if key in "xy" else None) for key in ("x", "y", "width", "height"))
        if w <= 0 or h <= 0 or radius < 0 or 2 * radius > min(w, h):
            raise _Unsupported("a rect SVG clamps or hides")
        geometry = (x, y, w, h, radius)
    elif tag == "circle":
        geometry = (_number(a.get("cx"), 0.0), _number(a.get("cy"), 0.0), _number(a.get("r")))
    elif tag == "ellipse":
        geometry = (_number(a.get("cx"), 0.0), _number(a.get("cy"), 0.0), _number(a.get("rx")), _number(a.get("ry")))
    else:
        path = parse_path(a.get("d", ""))
    return Shape(tag, geometry, path, fill, stroke, width, cap, join)  # type: ignore[arg-type]


def read_icon(source: bytes) -> IconShapes | None:
    """The shapes of an icon file's bytes, or ``None`` when the file uses SVG beyond this module's
    part (see the module) or is not SVG at all."""
    try:
        root = ElementTree.fromstring(source)
        if root.tag != f"{SVG_NAMESPACE}svg" or set(root.attrib) - {"viewBox", "width", "height", "version"}:
            raise _Unsupported("root")
        box = [float(v) for v in root.attrib.get("viewBox", "").replace(",", " ").split()]
        if len(box) != 4 or box[0] != 0 or box[1] != 0 or box[2] <= 0 or box[3] <= 0:
            raise _Unsupported("viewBox")
        if _number(root.attrib.get("width"), box[2]) != box[2] or _number(root.attrib.get("height"), box[3]) != box[3]:
            raise _Unsupported("a size other than the viewBox's")
        return IconShapes(box[2], box[3], tuple(_shape(child) for child in root))
    except (_Unsupported, ElementTree.ParseError, ValueError):
        return None


@cache
def icon_shapes(path: Path) -> IconShapes | None:
    """:func:`read_icon` of the file at ``path`` (read once a process); ``None`` also when unreadable."""
    try:
        return read_icon(Path(path).read_bytes())
    except OSError:
        return None


PX_TO_PT = 0.75
"""Points per icon unit as :func:`draw_icon` paints them: svglib's (an SVG user unit is a CSS pixel,
3/4 pt), so that the icon's form is placed by the very same transformation as svglib's drawing was
(the same numbers, hence the same pixels at its edges)."""


def draw_icon(canvas: Any, icon: IconShapes, colour: Callable[[str], Any]) -> None:
    """Paint ``icon`` on the ReportLab ``canvas`` with its box's bottom-left corner at the current
    origin, an icon unit :data:`PX_TO_PT` points (y up, as the canvas): the box is ``icon.width *
    PX_TO_PT`` by ``icon.height * PX_TO_PT`` points. Each ``"#rrggbb"`` is passed through ``colour``.

    Every shape sets its own colours, line width, cap and join, and the dash is cleared first, so the
    icon looks the same wherever it is placed (a Form XObject inherits the graphics state it is
    placed in); as svglib's drawing does, the miter limit is the placing page's (PDF's 10)."""
    canvas.saveState()
    canvas.transform(PX_TO_PT, 0, 0, -PX_TO_PT, 0, icon.height * PX_TO_PT)  # the icon's y runs down
    canvas.setDash([])
    for shape in icon.shapes:
        fill, stroke = shape.fill is not None, shape.stroke is not None
        if not (fill or stroke):
            continue
        canvas.saveState()
        if shape.fill is not None:
            canvas.setFillColor(colour(shape.fill))
        if shape.stroke is not None:
            canvas.setStrokeColor(colour(shape.stroke))
            canvas.setLineWidth(shape.stroke_width)
            canvas.setLineCap(shape.cap)
            canvas.setLineJoin(shape.join)
        g = shape.geometry
        if shape.kind == "rect":
            if g[4]:
                canvas.roundRect(g[0], g[1], g[2], g[3], g[4], stroke=int(stroke), fill=int(fill))
            else:
                canvas.rect(g[0], g[1], g[2], g[3], stroke=int(stroke), fill=int(fill))
        elif shape.kind == "circle":
            canvas.circle(g[0], g[1], g[2], stroke=int(stroke), fill=int(fill))
        elif shape.kind == "ellipse":
            canvas.ellipse(g[0] - g[2], g[1] - g[3], g[0] + g[2], g[1] + g[3], stroke=int(stroke), fill=int(fill))
        else:
            path = canvas.beginPath()
            for op, values in shape.path:
                if op == "M":
                    path.moveTo(*values)
                elif op == "L":
                    path.lineTo(*values)
                elif op == "C":
                    path.curveTo(*values)
                else:
                    path.close()
            canvas.drawPath(path, stroke=int(stroke), fill=int(fill))
        canvas.restoreState()
    canvas.restoreState()
