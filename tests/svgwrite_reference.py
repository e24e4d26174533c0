"""The SVG writer pnp used before issue 14, kept as the reference ``pnp.svg`` must match byte for byte.

It builds the document with svgwrite and writes it with svgwrite's pretty printer (the tree
serialised, parsed again by :mod:`xml.dom.minidom` and written by ``toprettyxml``): what the bundled
snapshots (``tests/__snapshots__``) were made with. ``pnp.svg`` now writes the same text directly,
in a tenth of the time (``tests/test_svg_pdf.py`` compares the two on every bundled face).
"""
from __future__ import annotations

import io
import xml.etree.ElementTree as ElementTree
from functools import cache

import svgwrite

from pnp import fonts
from pnp.drawing import Circle, Drawing, Group, Icon, Line, Polyline, Primitive, Rect, TextLine, icon_names, walk
from pnp.text import ICON_DIR
from pnp.units import MM_PER_PT

SVG_NAMESPACE = "{http://www.w3.org/2000/svg}"
ICON_VIEWBOX = 100.0
"""Icons are drawn in a 0..100 square (their files' viewBox); ``<use>`` scales them to the Icon's size."""


def number(value: float) -> str:
    """``value`` with at most 2 decimals and no trailing zeros (``63``, ``-1.5``, ``0.33``); never ``-0``."""
    text = f"{value:.2f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


class _Raw:
    """An already-built ElementTree element that svgwrite containers can hold (used for icon content)."""

    def __init__(self, element: ElementTree.Element):
        self.element = element

    def get_xml(self) -> ElementTree.Element:
        """The element itself (svgwrite calls this when it writes the document)."""
        return self.element


@cache
def icon_source(name: str) -> bytes:
    """The bytes of ``templates/icons/<name>.svg``; raises ``FileNotFoundError`` naming the icon if absent."""
    path = ICON_DIR / f"{name}.svg"
    if not path.is_file():
        raise FileNotFoundError(f"icon {name!r}: no file {path}")
    return path.read_bytes()


def _icon_children(name: str) -> list[ElementTree.Element]:
    """The drawing elements of an icon file, with the SVG namespace removed from their tags."""
    root = ElementTree.fromstring(icon_source(name))
    children = []
    for child in root:
        copy = ElementTree.fromstring(ElementTree.tostring(child))
        for element in copy.iter():
            if isinstance(element.tag, str) and element.tag.startswith(SVG_NAMESPACE):
                element.tag = element.tag[len(SVG_NAMESPACE):]
        children.append(copy)
    return children


def _paint(element, fill: str | None, stroke: str | None, stroke_width: float) -> None:
    element["fill"] = fill if fill is not None else "none"
    if stroke is not None:
        element["stroke"] = stroke
        element["stroke-width"] = number(stroke_width)


class _Writer:
    def __init__(self, document: svgwrite.Drawing):
        self.document = document
        self.clip_count = 0

    def add_all(self, parent, items: tuple[Primitive, ...]) -> None:
        """Add every primitive of ``items`` (card mm) to the svgwrite container ``parent``, in paint order."""
        for item in items:
            self.add(parent, item)

    def add(self, parent, item: Primitive) -> None:
        """Add one primitive (card mm; a group with its clip path and transform) to ``parent``."""
        d = self.document
        if isinstance(item, Rect):
            element = d.rect(insert=(number(item.x), number(item.y)), size=(number(item.width), number(item.height)))
            if item.radius:
                element["rx"] = element["ry"] = number(item.radius)
            _paint(element, item.fill, item.stroke, item.stroke_width)
        elif isinstance(item, Line):
            element = d.line(start=(number(item.x1), number(item.y1)), end=(number(item.x2), number(item.y2)))
            element["stroke"] = item.stroke
            element["stroke-width"] = number(item.stroke_width)
            if item.dash:
                element["stroke-dasharray"] = " ".join(number(v) for v in item.dash)
        elif isinstance(item, Polyline):
            # svgwrite writes a shape's own point list over any "points" attribute: pass the points.
            points = [(number(x), number(y)) for x, y in item.points]
            element = d.polygon(points) if item.closed else d.polyline(points)
            _paint(element, item.fill if item.closed else None, item.stroke, item.stroke_width)
            if item.stroke is not None:
                element["stroke-linejoin"] = "round"
        elif isinstance(item, Circle):
            element = d.circle(center=(number(item.cx), number(item.cy)), r=number(item.r))
            _paint(element, item.fill, item.stroke, item.stroke_width)
        elif isinstance(item, TextLine):
            family = fonts.family(item.family)
            element = d.text(item.text, insert=(number(item.x), number(item.y)))
            element["font-family"] = f"{family.svg_family}, serif"
            element["font-size"] = number(item.size * MM_PER_PT)
            if family.svg_weight != "normal":
                element["font-weight"] = family.svg_weight
            if family.svg_style != "normal":
                element["font-style"] = family.svg_style
            element["fill"] = item.fill
            if item.anchor != "start":
                element["text-anchor"] = item.anchor
            if item.rotation:
                element["transform"] = f"rotate({number(-item.rotation)} {number(item.x)} {number(item.y)})"
        elif isinstance(item, Icon):
            element = d.use(f"#icon-{item.name}")
            scale = f"{item.size / ICON_VIEWBOX:.5f}".rstrip("0").rstrip(".")
            element["transform"] = f"translate({number(item.x)} {number(item.y)}) scale({scale})"
        elif isinstance(item, Group):
            element = d.g()
            inner = element
            if item.clip is not None:
                self.clip_count += 1
                clip_id = f"clip-{self.clip_count}"
                clip = d.clipPath(id=clip_id)
                clip.add(d.rect(insert=(number(item.clip.x), number(item.clip.y)),
                                size=(number(item.clip.width), number(item.clip.height))))
                d.defs.add(clip)
                element["clip-path"] = f"url(#{clip_id})"
                if item.dx or item.dy or item.rotation:
                    inner = d.g()
                    element.add(inner)
            transform = []
            if item.dx or item.dy:
                transform.append(f"translate({number(item.dx)} {number(item.dy)})")
            if item.rotation:
                transform.append(f"rotate({number(-item.rotation)})")
            if transform:
                inner["transform"] = " ".join(transform)
            self.add_all(inner, item.items)
        else:
            raise TypeError(f"cannot draw {type(item).__name__} as SVG")
        parent.add(element)


def font_faces(drawing: Drawing, fonts_url: str) -> str:
    """CSS ``@font-face`` rules, one per bundled font file ``drawing``'s text uses, sorted, each with
    the SVG family name, weight and style that text is written with and ``src: url("<fonts_url><file>")``."""
    rules = set()
    for item in walk(drawing.items):
        if isinstance(item, TextLine):
            fam = fonts.family(item.family)
            rules.add(f'@font-face {{ font-family: "{fam.svg_family}"; font-weight: {fam.svg_weight}; '
                      f'font-style: {fam.svg_style}; src: url("{fonts_url}{fam.file}") format("truetype"); }}')
    return "\n".join(sorted(rules))


def to_svg(drawing: Drawing, fonts_url: str | None = None) -> str:
    """The SVG document (a ``str``, XML declaration included) of ``drawing``.

    Width and height are the bleed box in mm; the viewBox is ``-bleed -bleed width+2*bleed
    height+2*bleed``. ``fonts_url`` (for example ``"../fonts/"``) adds the :func:`font_faces` style
    block. Raises ``FileNotFoundError`` for an icon without a file, ``KeyError`` for an
    unknown font family.
    """
    bleed = drawing.bleed_mm
    width = drawing.width_mm + 2 * bleed
    height = drawing.height_mm + 2 * bleed
    document = svgwrite.Drawing(size=(f"{number(width)}mm", f"{number(height)}mm"), profile="full", debug=False)
    document["viewBox"] = f"{number(-bleed)} {number(-bleed)} {number(width)} {number(height)}"
    document["style"] = "font-kerning:none"  # the PDF and the text fitter use unkerned advances
    if drawing.id:
        document["id"] = drawing.id
    if drawing.title:
        document.set_desc(title=drawing.title)
    if fonts_url is not None:
        css = font_faces(drawing, fonts_url)
        if css:
            document.defs.add(document.style(css))
    for name in icon_names(drawing):
        group = document.g(id=f"icon-{name}")
        for child in _icon_children(name):
            group.add(_Raw(child))
        document.defs.add(group)
    _Writer(document).add_all(document, drawing.items)
    buffer = io.StringIO()
    document.write(buffer, pretty=True, indent=1)
    return buffer.getvalue() + "\n"
