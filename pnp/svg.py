"""SVG backend: one :class:`~pnp.drawing.Drawing` to one SVG document, byte-for-byte reproducible.

This module owns how each primitive is written as SVG. The document's size is the card's bleed box in
millimetres and its ``viewBox`` is in millimetres too, with the trim box's top-left corner at ``0 0``
(so the bleed has negative coordinates, as in the Drawing). Icons are embedded as vectors: each icon
used is copied once from ``templates/icons/<name>.svg`` into a ``<g id="icon-<name>">`` under ``<defs>``
and placed with ``<use>`` and a translate-and-scale transform (read correctly by browsers, Inkscape and
svglib alike).

Fonts: the text names the bundled families (``font-family="EB Garamond, serif"``) without embedding
them. With ``fonts_url`` (what ``pnp build`` writes into ``output/svg/``), a ``<style>`` block adds an
``@font-face`` rule for each family, weight and style the card uses, pointing at ``<fonts_url><file>.ttf``,
so a browser shows the cards in the right fonts (:func:`font_faces`).

Reproducibility: numbers are written with at most 2 decimals (trailing zeros removed), ids are
``clip-1``, ``clip-2`` ... in drawing order and ``icon-<name>``, attributes are sorted, and nothing
depends on the time or the machine.

The text is the one svgwrite's pretty printer wrote (``svgwrite.Drawing.write(pretty=True,
indent=1)``), which made the snapshots in ``tests/__snapshots__``: one space of indent a level, the
namespace declarations first and then the attributes sorted by name, an element with only text (or
a style sheet's CDATA section) on one line, ``& < " >`` escaped as :mod:`xml.dom.minidom` escapes them.
It is written directly: building svgwrite's objects, serialising them and parsing the text again to
indent it took ten times as long, and importing svgwrite a twentieth of a build (issue 14).
``tests/svgwrite_reference.py`` keeps the svgwrite writer, and ``tests/test_svg_pdf.py`` checks that
both give the same bytes for every bundled face.
"""
from __future__ import annotations

import xml.etree.ElementTree as ElementTree
from functools import cache
from pathlib import Path

from pnp import fonts
from pnp.drawing import Circle, Drawing, Group, Icon, Line, Polyline, Primitive, Rect, TextLine, icon_names, walk
from pnp.text import ICON_DIR
from pnp.units import MM_PER_PT

SVG_NAMESPACE = "{http://www.w3.org/2000/svg}"
ICON_VIEWBOX = 100.0
"""Icons are drawn in a 0..100 square (their files' viewBox); ``<use>`` scales them to the Icon's size."""

_XML_DECLARATION = '<?xml version="1.0" encoding="utf-8" ?>\n'
"""The first line svgwrite writes (``svgwrite.Drawing.write``)."""


_ROOT_NAMESPACES = (' xmlns="http://www.w3.org/2000/svg" xmlns:ev="http://www.w3.org/2001/xml-events"'
                    ' xmlns:xlink="http://www.w3.org/1999/xlink"')
"""The namespace declarations of the root element, as svgwrite's full profile writes them."""


def number(value: float) -> str:
    """``value`` with at most 2 decimals and no trailing zeros (``63``, ``-1.5``, ``0.33``); never ``-0``."""
    text = f"{value:.2f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


@cache
def icon_source(name: str) -> bytes:
    """The bytes of ``templates/icons/<name>.svg``; raises ``FileNotFoundError`` naming the icon if absent."""
    path = ICON_DIR / f"{name}.svg"
    if not path.is_file():
        raise FileNotFoundError(f"icon {name!r}: no file {path}")
    return path.read_bytes()


def _icon_children(name: str) -> tuple[ElementTree.Element, ...]:
    """The drawing elements of an icon file, with the SVG namespace removed from their tags."""
    root = ElementTree.fromstring(icon_source(name))
    children = []
    for child in root:
        copy = ElementTree.fromstring(ElementTree.tostring(child))
        for element in copy.iter():
            if isinstance(element.tag, str) and element.tag.startswith(SVG_NAMESPACE):
                element.tag = element.tag[len(SVG_NAMESPACE):]
        children.append(copy)
    return tuple(children)


@cache
def _icon_group(name: str) -> str:
    """The ``<g id="icon-<name>">`` of ``<defs>`` holding icon ``name``'s elements as its file has them
    (attributes in the file's order), indented as the child of ``<defs>``; made once a process."""
    children = _icon_children(name)
    if not children:
        return f'  <g id="icon-{_escape(name)}"/>\n'
    out = [f'  <g id="icon-{_escape(name)}">\n']
    for child in children:
        _write_pretty(child, "   ", out)
    out.append("  </g>\n")
    return "".join(out)


def _escape(text: str) -> str:
    """``text`` escaped as :mod:`xml.dom.minidom` writes text and attribute values (``& < " >``)."""
    if "&" in text:
        text = text.replace("&", "&amp;")
    if "<" in text:
        text = text.replace("<", "&lt;")
    if '"' in text:
        text = text.replace('"', "&quot;")
    if ">" in text:
        text = text.replace(">", "&gt;")
    return text


def _text_node(text: str) -> str:
    """Character data as an XML parser hands it on: line ends normalised to ``\\n`` (XML 1.0, 2.11)."""
    return text.replace("\r\n", "\n").replace("\r", "\n") if "\r" in text else text


def _pairs(attributes: dict[str, str]) -> str:
    """`` name="value"`` for each attribute, sorted by name (as svgwrite writes them), values escaped."""
    return "".join(f' {key}="{_escape(attributes[key])}"' for key in sorted(attributes))


def _tag(indent: str, name: str, attributes: dict[str, str], text: str | None = None) -> str:
    """One element on one line with its text, or closed by ``/>`` when it has none; ``\\n`` at the end."""
    if text:
        return f"{indent}<{name}{_pairs(attributes)}>{_escape(_text_node(text))}</{name}>\n"
    return f"{indent}<{name}{_pairs(attributes)}/>\n"


def _open(indent: str, name: str, attributes: dict[str, str], declarations: str = "") -> str:
    """The start tag of an element with children (namespace ``declarations`` before its attributes)."""
    return f"{indent}<{name}{declarations}{_pairs(attributes)}>\n"


def _paint(attributes: dict[str, str], fill: str | None, stroke: str | None, stroke_width: float) -> dict[str, str]:
    attributes["fill"] = fill if fill is not None else "none"
    if stroke is not None:
        attributes["stroke"] = stroke
        attributes["stroke-width"] = number(stroke_width)
    return attributes


class _Writer:
    """Writes a Drawing's primitives as indented lines (:meth:`add_all`) and collects the clip paths
    they need, in drawing order, for ``<defs>`` (:attr:`clips`)."""

    def __init__(self) -> None:
        self.lines: list[str] = []
        self.clips: list[str] = []

    def add_all(self, items: tuple[Primitive, ...], indent: str) -> None:
        """Write every primitive of ``items`` (card mm) at ``indent``, in paint order."""
        for item in items:
            self.add(item, indent)

    def add(self, item: Primitive, indent: str) -> None:
        """Write one primitive (card mm; a group with its clip path and transform) at ``indent``."""
        out = self.lines
        if isinstance(item, Rect):
            attributes = {"x": number(item.x), "y": number(item.y), "width": number(item.width), "height": number(item.height)}
            if item.radius:
                attributes["rx"] = attributes["ry"] = number(item.radius)
            out.append(_tag(indent, "rect", _paint(attributes, item.fill, item.stroke, item.stroke_width)))
        elif isinstance(item, Line):
            attributes = {"x1": number(item.x1), "y1": number(item.y1), "x2": number(item.x2), "y2": number(item.y2),
                          "stroke": item.stroke, "stroke-width": number(item.stroke_width)}
            if item.dash:
                attributes["stroke-dasharray"] = " ".join(number(v) for v in item.dash)
            out.append(_tag(indent, "line", attributes))
        elif isinstance(item, Polyline):
            attributes = {"points": " ".join(f"{number(x)},{number(y)}" for x, y in item.points)}
            _paint(attributes, item.fill if item.closed else None, item.stroke, item.stroke_width)
            if item.stroke is not None:
                attributes["stroke-linejoin"] = "round"
            out.append(_tag(indent, "polygon" if item.closed else "polyline", attributes))
        elif isinstance(item, Circle):
            attributes = {"cx": number(item.cx), "cy": number(item.cy), "r": number(item.r)}
            out.append(_tag(indent, "circle", _paint(attributes, item.fill, item.stroke, item.stroke_width)))
        elif isinstance(item, TextLine):
            family = fonts.family(item.family)
            attributes = {"x": number(item.x), "y": number(item.y), "font-family": f"{family.svg_family}, serif",
                          "font-size": number(item.size * MM_PER_PT), "fill": item.fill}
            if family.svg_weight != "normal":
                attributes["font-weight"] = family.svg_weight
            if family.svg_style != "normal":
                attributes["font-style"] = family.svg_style
            if item.anchor != "start":
                attributes["text-anchor"] = item.anchor
            if item.rotation:
                attributes["transform"] = f"rotate({number(-item.rotation)} {number(item.x)} {number(item.y)})"
            out.append(_tag(indent, "text", attributes, str(item.text)))
        elif isinstance(item, Icon):
            scale = f"{item.size / ICON_VIEWBOX:.5f}".rstrip("0").rstrip(".")
            out.append(_tag(indent, "use", {"xlink:href": f"#icon-{item.name}",
                                            "transform": f"translate({number(item.x)} {number(item.y)}) scale({scale})"}))
        elif isinstance(item, Group):
            transform = []
            if item.dx or item.dy:
                transform.append(f"translate({number(item.dx)} {number(item.dy)})")
            if item.rotation:
                transform.append(f"rotate({number(-item.rotation)})")
            inner = {"transform": " ".join(transform)} if transform else {}
            if item.clip is None:
                self._group(indent, inner, item.items)
                return
            clip_id = f"clip-{len(self.clips) + 1}"
            box = item.clip
            self.clips.append(f'  <clipPath id="{clip_id}">\n'
                              + _tag("   ", "rect", {"x": number(box.x), "y": number(box.y), "width": number(box.width),
                                                     "height": number(box.height)})
                              + "  </clipPath>\n")
            outer = {"clip-path": f"url(#{clip_id})"}
            if not inner:
                self._group(indent, outer, item.items)
                return
            out.append(_open(indent, "g", outer))
            self._group(indent + " ", inner, item.items)
            out.append(f"{indent}</g>\n")
        else:
            raise TypeError(f"cannot draw {type(item).__name__} as SVG")

    def _group(self, indent: str, attributes: dict[str, str], items: tuple[Primitive, ...]) -> None:
        """A ``<g>`` with ``attributes`` holding ``items`` (``<g/>`` when there are none)."""
        if not items:
            self.lines.append(_tag(indent, "g", attributes))
            return
        self.lines.append(_open(indent, "g", attributes))
        self.add_all(items, indent + " ")
        self.lines.append(f"{indent}</g>\n")


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
    root = {"baseProfile": "full", "height": f"{number(height)}mm", "width": f"{number(width)}mm", "version": "1.1",
            "viewBox": f"{number(-bleed)} {number(-bleed)} {number(width)} {number(height)}",
            "style": "font-kerning:none"}  # the PDF and the text fitter use unkerned advances
    if drawing.id:
        root["id"] = drawing.id
    out = [_XML_DECLARATION, _open("", "svg", root, _ROOT_NAMESPACES)]
    if drawing.title:
        out.append(_tag(" ", "title", {}, drawing.title))
    defs = []
    if fonts_url is not None:
        css = font_faces(drawing, fonts_url)
        if css:
            defs.append(f'  <style type="text/css"><![CDATA[{_text_node(css)}]]></style>\n')
    defs.extend(_icon_group(name) for name in icon_names(drawing))
    writer = _Writer()
    writer.add_all(drawing.items, " ")
    defs.extend(writer.clips)
    out.extend([" <defs>\n", *defs, " </defs>\n"] if defs else [" <defs/>\n"])
    out.extend(writer.lines)
    out.append("</svg>\n\n")
    return "".join(out)


def _write_pretty(element: ElementTree.Element, indent: str, out: list[str]) -> None:
    """Append ``element`` (an icon file's element) and its children to ``out`` at ``indent``, as
    svgwrite's pretty printer wrote an element it was handed whole (``xml.dom.minidom``'s
    ``writexml`` of Python 3.11): attributes in their order (namespace declarations first), an
    element whose only child is text on one line, text among elements on lines of its own."""
    attributes = element.attrib
    out.append(f"{indent}<{element.tag}")
    declarations = [name for name in attributes if name == "xmlns" or name.startswith("xmlns:")]
    for name in declarations:
        out.append(f' {name}="{_escape(attributes[name])}"')
    for name, value in attributes.items():
        if name not in declarations:
            out.append(f' {name}="{_escape(value)}"')
    children = list(element)
    text = element.text
    if not children:
        if text:
            out.append(f">{_escape(_text_node(text))}</{element.tag}>\n")
        else:
            out.append("/>\n")
        return
    out.append(">\n")
    inner = indent + " "
    if text:
        out.append(_escape(f"{inner}{_text_node(text)}\n"))
    for child in children:
        _write_pretty(child, inner, out)
        if child.tail:
            out.append(_escape(f"{inner}{_text_node(child.tail)}\n"))
    out.append(f"{indent}</{element.tag}>\n")


def write_svg(drawing: Drawing, path: Path, fonts_url: str | None = None) -> Path:
    """Write :func:`to_svg` of ``drawing`` (with ``fonts_url``) to ``path`` (UTF-8, parent folders
    created) and return ``path``."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(to_svg(drawing, fonts_url), encoding="utf-8")
    return path
