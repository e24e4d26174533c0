"""SVG backend: one :class:`~pnp.drawing.Drawing` to one SVG document (svgwrite), byte-for-byte reproducible.

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
"""
from __future__ import annotations

import re
import xml.etree.ElementTree as ElementTree
from functools import cache
from pathlib import Path

import svgwrite
from svgwrite.etree import CDATA_TAG

from pnp import fonts
from pnp.drawing import Circle, Drawing, Group, Icon, Line, Polyline, Primitive, Rect, TextLine, icon_names, walk
from pnp.icon_files import read_icon
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


@cache
def _icon_children(name: str) -> tuple[ElementTree.Element, ...]:
    """The drawing elements of an icon file, with the SVG namespace removed from their tags.

    Read by :func:`pnp.icon_files.read_icon`, which refuses a file that is no SVG or holds anything but drawing
    (a script, an event attribute, a link or image out of the file: raises :class:`~pnp.icon_files.IconFileError`),
    so nothing but drawing is copied into a card (thirty-first breaker, findings 3 and 12). Parsed once a process and
    shared by every SVG that uses the icon: the elements are only ever read (appended to a document's tree and
    written), never changed."""
    path = ICON_DIR / f"{name}.svg"
    if not path.is_file():
        raise FileNotFoundError(f"icon {name!r}: no file {path}")
    root = read_icon(path)
    ids = {element.attrib["id"] for element in root.iter() if isinstance(element.tag, str) and "id" in element.attrib}
    children = []
    for child in root:
        if not _drawn(child):
            continue
        copy = ElementTree.fromstring(ElementTree.tostring(child))
        for parent in list(copy.iter()):
            for inner in [inner for inner in parent if not _drawn(inner)]:
                parent.remove(inner)
        for element in copy.iter():
            if isinstance(element.tag, str) and element.tag.startswith(SVG_NAMESPACE):
                element.tag = element.tag[len(SVG_NAMESPACE):]
            element.attrib = _icon_attributes(name, element.attrib, ids)
        children.append(copy)
    return tuple(children)


XLINK_HREF = "{http://www.w3.org/1999/xlink}href"
"""ElementTree's name of the ``xlink:href`` attribute (an editor such as Inkscape writes it on ``<use>`` and gradients)."""


def _drawn(element: ElementTree.Element) -> bool:
    """Whether ``element`` of an icon is copied into a card: an element of SVG (or of no namespace), never a comment or an
    editor's own (Inkscape's ``sodipodi:namedview``, the RDF of ``<metadata>``), which draw nothing and which a card's XML,
    declaring no such namespace, could not hold (forty-eighth pnp breaker, HIGH 1)."""
    return isinstance(element.tag, str) and (element.tag.startswith(SVG_NAMESPACE) or not element.tag.startswith("{"))


def icon_id(name: str, own: str) -> str:
    """The id an icon ``name``'s element of id ``own`` has in a card SVG: ``icon-NAME.OWN``. Each icon's ids are its own
    there (forty-eighth pnp breaker, HIGH 3: two icons on one card that both used `id="c"` drew the first one twice in the
    gallery); the dot, which no icon name holds, keeps them apart from the icons' own groups (``icon-NAME``)."""
    return f"icon-{name}.{own}"


def _icon_attributes(name: str, attributes: dict[str, str], ids: set[str]) -> dict[str, str]:
    """An icon element's ``attributes`` as a card SVG writes them: its ids and its references to them (``#id`` in
    ``href``, ``url(#id)`` in any value) made the icon's own (:func:`icon_id`); ``xlink:href`` written as ``href``, which
    every SVG reader takes, where ElementTree would write ``{namespace}href``, which is no XML (forty-eighth pnp breaker,
    HIGH 1); an editor's own attributes (``inkscape:label``) left out."""
    def own(match: re.Match[str]) -> str:
        target = match.group(2)
        return f"{match.group(1)}{icon_id(name, target)}" if target in ids else match.group(0)

    written: dict[str, str] = {}
    for key, value in attributes.items():
        if key == XLINK_HREF:
            key = "href"
        elif key.startswith("{"):
            continue
        if key == "id" and value in ids:
            value = icon_id(name, value)
        elif key == "href":
            value = re.sub(r"^(\s*#)(.+?)\s*$", own, value)
        elif "url(" in value:
            value = re.sub(r"(url\(\s*['\"]?\s*#)([^)'\"\s]+)", own, value)
        written[key] = value
    return written


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
    out = [_XML_DECLARATION]
    _write_pretty(document.get_xml(), "", out)
    out.append("\n")
    return "".join(out)


_XML_DECLARATION = '<?xml version="1.0" encoding="utf-8" ?>\n'
"""The first line svgwrite writes (``svgwrite.Drawing.write``)."""


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


def _write_pretty(element: ElementTree.Element, indent: str, out: list[str]) -> None:
    """Append ``element`` (an ElementTree element, as ``svgwrite`` builds it) to ``out`` exactly as
    ``svgwrite.Drawing.write(pretty=True, indent=1)`` writes it, without its round trip.

    svgwrite pretty-prints by serialising the tree, parsing the text again with
    :mod:`xml.dom.minidom` and writing it with ``toprettyxml`` (``svgwrite.utils.pretty_xml``): two
    thirds of the time of an SVG went to that round trip (issue 14). This function writes what the
    round trip gives, straight from the tree, following ``minidom.Element.writexml`` of Python 3.11:
    one space of indent a level; namespace declarations (``xmlns``, ``xmlns:*``) first, as minidom's
    namespace-aware parser puts them, then the other attributes in their order (svgwrite sorts
    them); an element whose only child is text or a CDATA section on one line; text among elements
    on lines of its own; ``&``, ``<``, ``"`` and ``>`` escaped in text and attributes.
    ``tests/test_svg_pdf.py`` compares it with svgwrite's own pretty output.
    """
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
    if not text and len(children) == 1 and children[0].tag == CDATA_TAG:  # a style sheet: on one line
        out.append(f">{_cdata(children[0])}</{element.tag}>\n")
        return
    out.append(">\n")
    inner = indent + " "
    if text:
        out.append(_escape(f"{inner}{_text_node(text)}\n"))
    for child in children:
        if child.tag == CDATA_TAG:  # minidom writes a CDATA section among other nodes unindented; svgwrite drops its tail
            out.append(_cdata(child))
            continue
        _write_pretty(child, inner, out)
        if child.tail:
            out.append(_escape(f"{inner}{_text_node(child.tail)}\n"))
    out.append(f"{indent}</{element.tag}>\n")


def _cdata(element: ElementTree.Element) -> str:
    """svgwrite's CDATA element (``svgwrite.etree.CDATA``: a ``<style>`` sheet) as a CDATA section."""
    return f"<![CDATA[{_text_node(element.text or '')}]]>"


def write_svg(drawing: Drawing, path: Path, fonts_url: str | None = None) -> Path:
    """Write :func:`to_svg` of ``drawing`` (with ``fonts_url``) to ``path`` (UTF-8, parent folders
    created) and return ``path``."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(to_svg(drawing, fonts_url), encoding="utf-8")
    return path
