"""The icon files of ``templates/icons`` read safely: every ``<name>.svg`` is a small, well-formed SVG that only draws.

Every icon may be named by a card (a ``:name:`` token, a table card's ``icon``, a back's emblem), so ``pnp check``
and ``pnp build`` read them all before anything is laid out (:func:`icon_file_problems`), as they read the fonts, and
a file that cannot be used is one line naming it (thirty-first breaker, finding 3: an empty or truncated ``key.svg``,
or one with a DTD, passed ``check`` and ``build`` died in an XML traceback). The card SVGs copy an icon's elements
(:mod:`pnp.svg`) and the PDF draws it with svglib (:mod:`pnp.pdf`); both read it through :func:`read_icon`.

What an icon may not hold, and why it is refused at the file rather than stripped where it is copied (finding 12:
``<script>``, ``onload``, ``javascript:`` links, an external ``<image>`` and ``<foreignObject>`` were copied into every
card SVG the gallery shows with ``<object>``, where scripts run): a designer who put an image or a link into an icon
sees it in their editor; stripped, the card would print something other than what they drew, with no word why, and the
PDF (svglib) and the SVG could differ. Refused, ``check`` names the file and the element, and the icon as it is in
the project is the icon as it prints. Refused:

- a document type declaration (``<!DOCTYPE``, so no entity: an external entity reads a file, nested ones blow up);
- a root that is not ``<svg>``;
- an element other than the drawing ones of :data:`DRAWING_ELEMENTS` in the SVG namespace (``script``,
  ``foreignObject``, ``image``, ``a``, ``iframe``, animation, anything of the XHTML namespace); elements of an
  editor's own namespace (Inkscape's ``sodipodi:namedview``, the RDF of ``<metadata>``) draw nothing and pass;
- an event attribute (``onload``, ``onclick``, any ``on...``);
- a reference that is not to the icon itself: an ``href`` other than ``#id``, a ``url(...)`` other than ``url(#id)``,
  and a stylesheet ``@import``;
- a ``<style>`` sheet (thirty-fifth breaker, HIGH 5): the card SVGs copy an icon's elements into their ``<defs>``,
  where a sheet's rules apply to the whole card (``text { fill: red }`` recoloured every text of the card in the
  gallery, ``polygon { display: none }`` hid its ornaments, and neither shows in the PDF); an icon writes its colours
  as attributes of its shapes (``fill="#..."`` or ``style="fill: #..."``), which style only the shape they are on;
- in any attribute (a ``style="..."`` among them) a CSS function that fetches by a string rather than ``url()``
  (``image-set("http://...")``, ``image()``, ``cross-fade()``, ``src()``, ``element()``), an at-rule (``@``) or a
  CSS escape (a backslash, through which ``u\72 l(`` is ``url(``);
- what the PDF does not draw, though a browser does (thirty-sixth pnp breaker, MED 5: the gallery showed a blurred,
  faint or red disc the PDF printed sharp, solid black or not at all): a ``<mask>``, ``<filter>``, ``<marker>``,
  ``<pattern>``, ``<linearGradient>``, ``<radialGradient>`` or ``<text>`` (and the attributes that apply the first three), an ``opacity`` below 1 (svglib draws
  ``fill-opacity`` and ``stroke-opacity``, not ``opacity``) and a CSS ``var()``, and what it draws otherwise (thirty-seventh
  pnp breaker, MED 3): a ``paint-order`` with the stroke first, a ``transform-origin``, a nested ``<svg>`` with its own
  ``viewBox``, a ``mix-blend-mode`` or ``isolation``, a ``clip-path`` other than ``url(#id)`` (:data:`UNPRINTED`); and anything
  else svglib says it cannot read while it reads the icon (a colour it cannot handle, a transform it cannot parse), said
  at the file in that one line rather than as svglib's log line on the terminal (:func:`icon_drawing`). The list is
  of the features met so far, not every feature of SVG.
"""
from __future__ import annotations

import functools
import logging
import math
import re
import xml.etree.ElementTree as ElementTree
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from xml.parsers import expat

from pnp import resources
from pnp.files import FileRefused, link_out_of_folder, read_limited
from pnp.oneline import shortened

ICON_DIR = resources.ICON_DIR
"""Folder of the icon files, ``templates/icons`` (:mod:`pnp.resources`)."""

MAX_ICON_BYTES = 100_000
"""The largest icon file read, in bytes (the bundled ones are under 1 KB)."""
MAX_ICON_DEPTH = 32
"""The deepest an icon's elements nest (the bundled ones: 3): the readers of an icon (svglib, the card SVGs' copy) recurse
once a level, and 500 levels ended a build in a RecursionError after a clean check (forty-first pnp breaker, HIGH 7)."""
MAX_ICON_UNITS = 100_000.0
"""The largest width or height an icon's drawing may have in its own units (its viewBox, else width and height; the
bundled ones: 24): a drawing of 1e30 units overflowed the PDF writer's numbers (forty-first pnp breaker, HIGH 7)."""

SHIPPED_ICONS = frozenset({
    "d6-1", "d6-2", "d6-3", "d6-4", "d6-5", "d6-6", "ember", "flint", "gale", "ghast", "grayking", "ice", "key",
    "lassadar", "loss", "mana", "next", "oaken", "recharge", "shadowmajik", "spirit", "start", "stone", "tide", "wardens",
    "win", "ymp", "zhumbi",
})
"""The icons the project ships in ``templates/icons`` (``tests/test_inline_icons.py`` holds this list to the folder): the
layouts, the templates' strings and the bundled cards name them, so one deleted is said missing at its file before
anything is laid out (forty-sixth pnp breaker, F16: a deleted ``ymp.svg`` was measured as an emblem too large, ``win.svg``
blamed the card naming it, and ``build`` then failed where ``check`` had passed)."""

SVG_NAMESPACE = "http://www.w3.org/2000/svg"

DRAWING_ELEMENTS = frozenset({
    "svg", "g", "defs", "symbol", "use", "title", "desc", "metadata", "style",
    "path", "rect", "circle", "ellipse", "line", "polyline", "polygon", "text", "tspan", "textPath",
    "linearGradient", "radialGradient", "stop", "pattern", "clipPath", "mask", "marker", "filter",
    "feBlend", "feColorMatrix", "feComponentTransfer", "feComposite", "feFlood", "feGaussianBlur", "feMerge",
    "feMergeNode", "feMorphology", "feOffset", "feFuncR", "feFuncG", "feFuncB", "feFuncA",
})
"""The SVG elements that draw, and so are no danger in an icon: shapes, groups, paint servers, clips and masks, and their
parts; never one that runs, links, embeds another document or image, or animates. Those of them the PDF does not draw
(:data:`UNPRINTED`: masks, filters, markers, patterns, gradients, text) are refused after, as such."""

EDITOR_NAMESPACES = frozenset({
    "http://www.inkscape.org/namespaces/inkscape",
    "http://sodipodi.sourceforge.net/DTD/sodipodi-0.dtd",
    "http://www.w3.org/1999/02/22-rdf-syntax-ns#",
    "http://purl.org/dc/elements/1.1/",
    "http://creativecommons.org/ns#",
    "http://web.resource.org/cc/",
})
"""Namespaces of an editor's own elements (Inkscape's settings, the RDF of ``<metadata>``): a browser draws nothing of
them and runs nothing; an element of any other namespace (XHTML's ``<script>`` among them) is refused."""

_FRAGMENT = re.compile(r"^\s*#")
_URL = re.compile(r"url\(\s*['\"]?\s*([^)'\"\s]*)", re.IGNORECASE)
_CSS_FETCH = re.compile(r"(?:image(?:-set)?|cross-fade|src|element)\s*\(|@|\\", re.IGNORECASE)
"""What in an attribute's value may make a browser fetch or read something other than the icon by a means other than
``url()`` (which :data:`_URL` judges): a CSS image function taking a string, an at-rule, an escape that hides a name."""

STYLE_REMEDY = ("write its colours as attributes of the shapes they colour (fill=\"#...\", stroke=\"#...\" or "
                "style=\"fill: #...\" on each), and remove the <style>")
"""The way on for an icon with a ``<style>`` sheet."""

INK_PAST_VIEWBOX = 1.0
"""How far (hundredths of the icon's size) an icon's ink may reach past its viewBox before ``pnp check`` says so: the
bundled icons keep at least 2.5 inside it."""

_SHAPES_REMEDY = "draw its effect with plain paths and shapes, or remove it"

UNPRINTED: dict[str, tuple[str, str]] = {
    "mask": ("a mask", _SHAPES_REMEDY),
    "filter": ("a filter effect (a blur, a shadow ...)", _SHAPES_REMEDY),
    "marker": ("a marker (an arrowhead or dot at a line's ends)", "draw the marker as a shape of its own, or remove it"),
    "pattern": ("a pattern fill", "fill with a colour, or draw the pattern's shapes themselves"),
    # forty-eighth pnp breaker, HIGH 2: svglib reads a gradient, but an icon is painted once into a shared form of the PDF,
    # where ReportLab keeps no shading: the gradient printed solid black
    "gradient": ("a gradient", "fill with a flat colour (fill=\"#...\"), or draw the shading as shapes of flat colours"),
    "text": ("text", "turn the text into paths in the drawing program (Inkscape: Path > Object to Path)"),
    "opacity": ("an opacity below 1", "use fill-opacity and stroke-opacity, which the PDF draws, or a lighter colour"),
    "var": ("a CSS var()", "write the value itself (fill=\"#...\")"),
    # thirty-seventh pnp breaker, MED 3: each printed otherwise than the gallery showed it
    "paint-order": ("a paint-order that paints the stroke before the fill",
                    "remove paint-order (the fill is painted first, then the stroke), and make the stroke narrower instead"),
    "transform-origin": ("a transform-origin (the PDF turns and scales about 0,0)",
                         "write the origin into the transform itself (rotate(12 50 50), or translate(...) around it)"),
    "nested-svg": ("an <svg> inside the icon with a viewBox of its own (the PDF neither scales nor places by it)",
                   "draw its shapes in the icon's own coordinates, or wrap them in a <g transform=\"...\">"),
    "blend": ("a blend mode", "draw the blended colour itself, or remove it"),
    "clip-shape": ("a CSS clip-path shape (the PDF clips only by a <clipPath>, as url(#id))",
                   "clip by a <clipPath> element with clip-path=\"url(#id)\", or draw the clipped shape itself"),
}
"""The features of an icon a browser draws and the PDF does not (svglib ignores them): what each is, in words, and the
way on. ``pnp check`` refuses them at the icon file, so the gallery's SVG and the PDF print the same icon."""

_UNPRINTED_TAGS = {"mask": "mask", "filter": "filter", "marker": "marker", "pattern": "pattern", "text": "text",
                   "tspan": "text", "textPath": "text", "linearGradient": "gradient", "radialGradient": "gradient"}
"""Each element that draws nothing in the PDF, to its kind in :data:`UNPRINTED` (a filter's ``fe...`` parts live
inside a ``<filter>``, which is said first)."""

_UNPRINTED_PROPERTIES = {"mask": "mask", "filter": "filter", "marker": "marker", "marker-start": "marker",
                         "marker-mid": "marker", "marker-end": "marker"}
"""Each attribute or style property that applies what the PDF does not draw, to its kind in :data:`UNPRINTED`."""

_VAR = re.compile(r"\bvar\s*\(", re.IGNORECASE)
_CSS_COMMENT = re.compile(r"/\*.*?(?:\*/|$)", re.DOTALL)
_OPACITY = re.compile(r"\s*([-+]?(?:\d+\.?\d*|\.\d+)(?:e[-+]?\d+)?)\s*(%?)\s*$", re.IGNORECASE)

RESTORE = "restore it from the project (git checkout -- templates/icons, or reinstall pnp)"
"""The way on for an icon file that cannot be read."""

REMOVE = "remove it, or move it out of templates/icons (every *.svg there is read as an icon)"
"""The way on for a device, a pipe or a folder named like an icon that the project does not ship (thirty-seventh pnp
breaker, LOW 9: `git checkout` left a pipe of the user's own where it was)."""


def _shipped_icon(path: Path) -> bool:
    """Whether the project ships an icon of the name of ``path``: the bundled icon folder holds it (``path`` in another
    folder), else its last commit does (``git cat-file -e HEAD:./<name>``); ``False`` when neither is known."""
    import subprocess

    bundled = resources.ICON_DIR / path.name
    try:
        if path.parent.resolve() != bundled.parent.resolve():
            return bundled.is_file()
        found = subprocess.run(["git", "-C", str(path.parent), "cat-file", "-e", f"HEAD:./{path.name}"],
                               capture_output=True, timeout=5, check=False)
    except (OSError, subprocess.SubprocessError):
        return False
    return found.returncode == 0


@dataclass(frozen=True)
class IconFileProblem:
    """An icon file (``path``, under :data:`ICON_DIR`) that a build cannot use: ``reason`` what is wrong, ``remedy``
    what would be right."""

    path: str
    reason: str
    remedy: str = RESTORE

    def line(self, shown: str) -> str:
        """The problem as one line, the file shown as ``shown``: ``templates/icons/key.svg: <reason>; <remedy>``."""
        return f"{shown}: {self.reason}; {self.remedy}"


class IconFileError(ValueError):
    """An icon file that cannot be used; ``problem`` is its :class:`IconFileProblem`."""

    def __init__(self, problem: IconFileProblem):
        super().__init__(problem.line(problem.path))
        self.problem = problem


def _local(name: str) -> tuple[str, str]:
    """``(namespace, local name)`` of an ElementTree tag or attribute name (``{ns}local``; no namespace: ``""``)."""
    if name.startswith("{"):
        namespace, _, local = name[1:].partition("}")
        return namespace, local
    return "", name


def _depth(root: ElementTree.Element) -> int:
    """How deep the elements of ``root`` nest (``root`` alone: 1), counted without recursion."""
    deepest, stack = 0, [(root, 1)]
    while stack:
        element, depth = stack.pop()
        deepest = max(deepest, depth)
        stack.extend((child, depth + 1) for child in element)
    return deepest


def _refuse_doctype(*_: object) -> None:
    raise IconFileError(IconFileProblem("", "holds a document type declaration (<!DOCTYPE>), which an icon needs "
                                            "none of and through which entities read other files",
                                        "remove the <!DOCTYPE ...> and every &entity; from it"))


def _parsed(path: Path, data: bytes) -> ElementTree.Element:
    """The root element of the SVG ``data`` of ``path``; raises :class:`IconFileError` for a document type
    declaration or XML that is not well-formed."""
    guard = expat.ParserCreate()  # a first pass that stops at a DOCTYPE before any entity is declared or expanded
    guard.StartDoctypeDeclHandler = _refuse_doctype
    guard.EntityDeclHandler = _refuse_doctype
    try:
        guard.Parse(data, True)
        return ElementTree.fromstring(data)
    except IconFileError as error:
        raise IconFileError(IconFileProblem(str(path), error.problem.reason, error.problem.remedy)) from None
    except (expat.ExpatError, ElementTree.ParseError) as error:
        said = expat.ErrorString(error.code) if getattr(error, "code", None) else str(error)
        line = getattr(error, "lineno", None) or (error.position[0] if isinstance(error, ElementTree.ParseError) else 1)
        empty = not data.strip()
        reason = "an empty file, not an SVG" if empty else f"not an SVG ({said} at line {line})"
        raise IconFileError(IconFileProblem(str(path), reason)) from None


def _active(root: ElementTree.Element) -> str | None:
    """What of ``root``'s tree an icon may not hold (:data:`DRAWING_ELEMENTS`, event attributes, references out of the
    file, a ``<style>`` sheet), in words, or ``None``."""
    for element in root.iter():
        if not isinstance(element.tag, str):  # a comment or processing instruction kept by the parser
            continue
        namespace, tag = _local(element.tag)
        if namespace in EDITOR_NAMESPACES:
            continue
        if namespace not in ("", SVG_NAMESPACE) or tag not in DRAWING_ELEMENTS:
            shown = tag if namespace in ("", SVG_NAMESPACE) else f"{tag} of the namespace {namespace}"
            article = "an" if shown[0].lower() in "aeiou" else "a"
            return f"holds {article} <{shown}> element, which does not draw (it runs, links or embeds something)"
        for attribute, value in element.attrib.items():
            _, name = _local(attribute)
            if name.lower().startswith("on"):
                return f"has an event attribute {name}=\"...\" on <{tag}>, a script run by a browser"
            if name == "href" and not _FRAGMENT.match(value):
                return f"has href=\"{value[:60]}\" on <{tag}>, a reference out of the icon (only '#id' is allowed)"
            for target in _URL.findall(value):
                if not target.startswith("#"):
                    return f"has url({target[:60]}) in {name} on <{tag}>, a reference out of the icon (only url(#id))"
            fetch = _CSS_FETCH.search(value)
            if fetch:
                return (f"has '{fetch.group(0)}' in {name} on <{tag}>, CSS that may fetch or read something out of "
                        f"the icon (only colours, lengths and url(#id))")
        if tag == "style":
            sheet = element.text or ""
            if "@import" in sheet.lower():
                return "has an @import in its <style>, a reference out of the icon"
            for target in _URL.findall(sheet):
                if not target.startswith("#"):
                    return f"has url({target[:60]}) in its <style>, a reference out of the icon (only url(#id))"
            # thirty-fifth breaker, HIGH 5: copied into a card's <defs>, a sheet's rules style the whole card
            return ("holds a <style> sheet, whose rules the card SVGs copy and apply to the whole card (every text "
                    "and shape of it, not only the icon)")
    return None


def _properties(element: ElementTree.Element) -> list[tuple[str, str]]:
    """``(name, value)`` of ``element``'s attributes (local names) and of the properties of its ``style``."""
    result = []
    for attribute, value in element.attrib.items():
        _, name = _local(attribute)
        result.append((name, value))
        if name == "style":  # a CSS comment hid a property from this reading (thirty-seventh pnp breaker, HIGH 2)
            for declaration in _CSS_COMMENT.sub("", value).split(";"):
                prop, colon, prop_value = declaration.partition(":")
                if colon:
                    result.append((prop.strip().lower(), prop_value.strip()))
    return result


def _below_one(value: str) -> bool:
    """True when the opacity ``value`` (``0.4``, ``40%``) is a number below full (what is not a number is left to the
    reader, which ignores it as the browser does)."""
    match = _OPACITY.match(value)
    if not match:
        return False
    number = float(match.group(1)) / (100 if match.group(2) else 1)
    return number < 1


def _unprinted(root: ElementTree.Element) -> tuple[str, str] | None:
    """What of ``root``'s tree a browser draws and the PDF does not (:data:`UNPRINTED`): ``(reason, remedy)`` of the
    first found, or ``None``."""
    def said(kind: str, where: str) -> tuple[str, str]:
        what, remedy = UNPRINTED[kind]
        how = ("which the PDF prints solid black (an icon is painted once into a shared form, which keeps no gradient)"
               if kind == "gradient" else "which the PDF does not draw (its SVG reader, svglib, ignores it)")
        return f"has {what} ({where}), {how}, so the printed icon would differ from the gallery's", remedy

    for element in root.iter():
        if not isinstance(element.tag, str):
            continue
        namespace, tag = _local(element.tag)
        if namespace in EDITOR_NAMESPACES:
            continue
        if tag in _UNPRINTED_TAGS:
            return said(_UNPRINTED_TAGS[tag], f"a <{tag}> element")
        for name, value in _properties(element):
            if name in _UNPRINTED_PROPERTIES and value.strip().lower() not in ("", "none"):
                return said(_UNPRINTED_PROPERTIES[name], f"{name}: {shortened(value, 40)} on <{tag}>")
            if name == "opacity" and _below_one(value):
                return said("opacity", f"opacity {shortened(value, 20)} on <{tag}>")
            if _VAR.search(value):
                return said("var", f"{shortened(value, 40)} in {name} on <{tag}>")
            kind = _drawn_otherwise(name, value)
            if kind is not None:
                return said(kind, f"{name}: {shortened(value, 40)} on <{tag}>")
        if tag == "svg" and element is not root and any(_local(key)[1] == "viewBox" for key in element.attrib):
            return said("nested-svg", f"<svg viewBox=\"{shortened(element.attrib.get('viewBox', ''), 30)}\"> inside the icon")
    return None


def _drawn_otherwise(name: str, value: str) -> str | None:
    """The kind in :data:`UNPRINTED` of the attribute or style property ``name`` with ``value`` when the PDF draws it
    otherwise than a browser: a paint-order that puts the stroke before the fill, a transform-origin other than 0,0, a
    blend mode other than normal (or an isolated group), a clip-path other than ``url(#id)``; else ``None``."""
    value = _CSS_COMMENT.sub("", value).strip().lower()
    if not value or value in ("inherit", "initial", "unset", "revert"):
        return None
    if name == "paint-order" and value != "normal":
        words = value.split()
        order = words + [word for word in ("fill", "stroke", "markers") if word not in words]
        return "paint-order" if "stroke" in order and "fill" in order and order.index("stroke") < order.index("fill") else None
    if name == "transform-origin":
        return None if all(word in ("0", "0px", "0%", "left", "top") for word in value.split()) else "transform-origin"
    if (name == "mix-blend-mode" and value != "normal") or (name == "isolation" and value != "auto"):
        return "blend"
    if name == "clip-path" and value != "none" and not re.fullmatch(r"url\(\s*['\"]?#[^)'\"]+['\"]?\s*\)", value):
        return "clip-shape"
    return None


def read_icon(path: Path) -> ElementTree.Element:
    """The root ``<svg>`` element of the icon file ``path``: a regular file of at most :data:`MAX_ICON_BYTES` bytes,
    well-formed XML without a document type declaration, whose root is ``<svg>`` and which only draws (see the module's
    list). Raises :class:`IconFileError` naming the file and what is wrong, ``FileNotFoundError`` for a file that is
    not there."""
    outside = link_out_of_folder(path)
    if outside is not None:  # thirty-fifth pnp breaker, LOW 20: read without a word
        raise IconFileError(IconFileProblem(str(path), f"a symbolic link to {shortened(str(outside), 80)}, outside "
                                                       f"{path.parent.name}/, so the cards would print a file the project "
                                                       "does not hold", "copy the file here"))
    try:
        data = read_limited(path, MAX_ICON_BYTES, "an icon")
    except FileRefused as error:
        raise IconFileError(IconFileProblem(str(path), str(error), RESTORE if error.too_large or _shipped_icon(path)
                                            else REMOVE)) from None
    except FileNotFoundError:
        raise
    except OSError as error:
        raise IconFileError(IconFileProblem(str(path), f"cannot be read ({error.strerror or error})")) from None
    root = _parsed(path, data)
    namespace, tag = _local(root.tag)
    if tag != "svg" or namespace not in ("", SVG_NAMESPACE):
        raise IconFileError(IconFileProblem(str(path), f"not an SVG (its root element is <{tag}>, not <svg>)"))
    depth = _depth(root)
    if depth > MAX_ICON_DEPTH:
        raise IconFileError(IconFileProblem(str(path), f"nests its elements {depth} deep, and an icon's readers follow at most "
                                                       f"{MAX_ICON_DEPTH} levels", "take the drawing out of the groups "
                                                       "that wrap it (<g> inside <g> ...)"))
    active = _active(root)
    if active is not None:
        remedy = STYLE_REMEDY if "<style> sheet" in active else ("an icon holds only drawing (paths, shapes, groups, "
                                                                  "clips): remove it")
        raise IconFileError(IconFileProblem(str(path), active, remedy))
    unprinted = _unprinted(root)
    if unprinted is not None:
        raise IconFileError(IconFileProblem(str(path), *unprinted))
    return root


def icon_file_problems(folder: Path | None = None) -> list[IconFileProblem]:
    """Every icon file of ``folder`` (default :data:`ICON_DIR`: each ``*.svg``, all of which a card may name) that
    :func:`read_icon` refuses, one :class:`IconFileProblem` each, in the order of their names, after each icon of
    :data:`SHIPPED_ICONS` missing from the bundled folder; empty when all are usable. ``pnp check`` and ``pnp build`` ask this before anything is laid out."""
    from pnp.layout.icon_ink import ink_past_viewbox

    folder = folder or ICON_DIR
    problems = [IconFileProblem(str(folder / f"{name}.svg"), "missing") for name in sorted(SHIPPED_ICONS)
                if folder == ICON_DIR and not (folder / f"{name}.svg").exists() and not (folder / f"{name}.svg").is_symlink()]
    for path in sorted(folder.glob("*.svg")):
        try:
            read_icon(path)
            _svglib_reading(path)
        except IconFileError as error:
            problems.append(error.problem)
            continue
        except FileNotFoundError:  # a dangling symbolic link
            problems.append(IconFileProblem(str(path), "a link to a file that is not there"))
            continue
        past = ink_past_viewbox(path)
        if past > INK_PAST_VIEWBOX:  # thirty-fourth pnp breaker, MED 7: cut off in print, and measured where it is not
            problems.append(IconFileProblem(
                str(path), f"its drawing reaches {f'{past:.0f}% of' if past < 10_000 else 'more than 100 times'} its size "
                           f"past its viewBox, and print cuts off what is past it", "draw it inside its viewBox (or widen the "
                                                                                   "viewBox)"))  # (41st pnp breaker, LOW 11)
    return problems


def _svglib_reading(path: Path) -> None:
    """Read the icon file ``path`` as the PDF does (:func:`icon_drawing`), raising :class:`IconFileError` for what svglib
    warns it cannot draw or cannot read at all; a file that cannot be opened is left to the reading that needs it."""
    try:
        icon_drawing(path)
    except IconFileError:
        raise
    except OSError:
        pass


@functools.cache
def icon_drawing(path: Path) -> Any:
    """The svglib (ReportLab graphics) drawing of the icon file ``path``, read safely first (:func:`read_icon`) and
    parsed once a process: the one reading of an icon as the PDF draws it, for the PDF (:mod:`pnp.pdf`) and for the
    measure of its ink (:mod:`pnp.layout.icon_ink`). The caller must not change it. Raises as :func:`read_icon`,
    :class:`IconFileError` when svglib warns that it cannot draw part of it (its log line, which would reach the
    terminal, is that error's reason instead: the PDF would print something other than the gallery), and
    ``ValueError`` when svglib cannot read the file."""
    from svglib.svglib import svg2rlg  # (ReportLab's graphics, only for a drawing)

    if not path.is_file():
        raise FileNotFoundError(f"icon {path.stem!r}: no file {path}")
    root = read_icon(path)  # read once: its viewBox is judged below
    with _LibraryLog("svglib") as said:
        try:
            drawing = svg2rlg(str(path))
        except (ValueError, TypeError, AttributeError, LookupError, SyntaxError, RecursionError, ArithmeticError) as error:
            # a style svglib cannot parse (`style="fill"`, a CSS comment), which a browser skips: one line at the file
            # at check and build alike, never a traceback after a clean check (thirty-seventh pnp breaker, HIGH 2)
            raise IconFileError(IconFileProblem(
                str(path), f"the PDF's SVG reader (svglib) cannot read it ({type(error).__name__}: "
                           f"{shortened(str(error), 80)}), so it cannot be printed",
                "write each style property as name: value, without CSS comments, or draw it with plain paths, shapes "
                "and colours (fill=\"#...\")")) from None
    if said:
        raise IconFileError(IconFileProblem(str(path), f"the PDF's SVG reader (svglib) cannot draw all of it "
                                                       f"(\"{shortened(said[0], 80)}\"), so the printed icon would "
                                                       "differ from the gallery's", "draw it with plain paths, shapes and "
                                                       "colours (fill=\"#...\")"))
    if drawing is None:
        raise ValueError(f"icon {path.stem!r}: svglib could not read {path}")
    width, height = float(drawing.width), float(drawing.height)
    if not (0 < width <= MAX_ICON_UNITS and 0 < height <= MAX_ICON_UNITS):
        # forty-first pnp breaker, HIGH 7: a viewBox of 0 x 0 passed the check and divided by zero in the build
        written = re.split(r"[\s,]+", root.attrib.get("viewBox", "").strip())  # as the file writes it, not
        boxed = len(written) == 4  # in points (forty-second pnp breaker, LOW 8: `viewBox="0 0 100 0"` was said as 75 x 0)
        # without a viewBox, its width and height as written, with the points they make, which the limit is of (forty-third
        # pnp breaker, LOW 6: `width="200000"` was said as 150000 units, and the limit applied to that figure)
        size = (f"{written[2]} x {written[3]} units" if boxed else
                f"{shortened(root.attrib.get('width', '100%'), 20)} x {shortened(root.attrib.get('height', '100%'), 20)} "
                f"(width and height: {width:g} x {height:g} pt)")
        reason = (f"its drawing is {size} (from its viewBox, else its width and height), which has no area to scale to a "
                  f"card's icon size" if not (width > 0 and height > 0) else
                  f"its drawing is {size}, more than {MAX_ICON_UNITS:,.0f} {'units' if boxed else 'pt'} on a side, which the "
                  f"PDF cannot write")
        advice = ('give the <svg> a viewBox with a width and height, such as viewBox="0 0 24 24"' if not boxed else
                  f'give the <svg> a viewBox of at most {MAX_ICON_UNITS:,.0f} on a side, such as viewBox="0 0 24 24"')
        raise IconFileError(IconFileProblem(str(path), reason, advice))
    far = _far_numbers(root, drawing)
    if far:  # forty-second pnp breaker, HIGH 1 and MED 2: a viewBox at -1e300 passed the check and the PDF could not write
        # it; a drawing scaled 1e300 times was blamed on four templates' numbers
        raise IconFileError(IconFileProblem(str(path), f"{far}, which the PDF cannot write", 'draw it within a viewBox such '
                                                                                             'as viewBox="0 0 24 24", without '
                                                                                             'huge transforms'))
    return drawing


def _far_numbers(root: ElementTree.Element, drawing: Any) -> str:
    """What of the icon (its ``root`` element, its svglib ``drawing``) lies further than :data:`MAX_ICON_UNITS` from its
    origin, in words (``its viewBox starts at -1e+300``, ``its drawing reaches 1e+300``); ``""`` when nothing does."""
    numbers = re.split(r"[\s,]+", root.attrib.get("viewBox", "").strip())
    try:
        box = [float(number) for number in numbers if number]
    except ValueError:
        box = []
    if any(not math.isfinite(number) or abs(number) > MAX_ICON_UNITS for number in box[:2]):
        return f"its viewBox starts at {box[0]:g}, {box[1]:g}, more than {MAX_ICON_UNITS:,.0f} units from the origin"
    try:
        bounds = drawing.getBounds()
    except (ValueError, ArithmeticError, TypeError, AttributeError):
        return "its drawing's extent cannot be computed"
    reach = max((abs(float(number)) for number in bounds if number is not None), default=0.0)
    if not math.isfinite(reach) or reach > MAX_ICON_UNITS * 100:
        return f"its drawing reaches {reach:g} units from its origin, more than {MAX_ICON_UNITS * 100:,.0f}"
    return ""


class _LibraryLog(list[str]):
    """The messages (warnings and worse) a library logs to the logger ``name`` while in this context, kept here
    rather than printed: the library's own lines never reach the user's terminal, whatever logging is set up."""

    def __init__(self, name: str) -> None:
        super().__init__()
        self.logger = logging.getLogger(name)
        self.handler = _Collect(self)
        self.propagate = True

    def __enter__(self) -> _LibraryLog:
        self.propagate = self.logger.propagate
        self.logger.addHandler(self.handler)
        self.logger.propagate = False
        return self

    def __exit__(self, *_: object) -> None:
        self.logger.removeHandler(self.handler)
        self.logger.propagate = self.propagate


class _Collect(logging.Handler):
    """A logging handler that appends each message of level WARNING or worse to a list."""

    def __init__(self, into: list[str]) -> None:
        super().__init__(logging.WARNING)
        self.into = into

    def emit(self, record: logging.LogRecord) -> None:
        """Keep the record's message."""
        self.into.append(record.getMessage())
