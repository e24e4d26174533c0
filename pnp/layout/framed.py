"""The frame check: what a layout places on a card keeps inside the card frame's inner rule.

A card's frame (:func:`pnp.layout.common.frame`, :func:`~pnp.layout.common.panel_rules`; a back's engraved double line)
ends in an inner rule, and everything the layout places after it belongs inside it (thirty-first breaker, finding 6:
battle map `hex_area_x = 0` put hexes A3 and A5 across both frame rules onto the red border band, Location
`label_icon_dx = -1` ran the frame's inner rule through the side's shield, and check passed; only discs were measured
against the frame). Judged for every shape drawn after the inner rule in the same group (a board's card is its own
group, a battle map's frame spans the whole board), in card mm:

- a disc, a polygon with an outline (a hex), an icon (its ink, :func:`pnp.layout.icon_ink.icon_ink`) keeps
  :data:`~pnp.layout.common.LINES_APART_MM` off the rule's ink, so that its outline and the rule print as two lines;
- a text the layout places (a hex's name, a number; a template box's text is the legibility check's) keeps its
  letters' own ink (:func:`pnp.text.ink_boxes`) :data:`~pnp.layout.common.TEXT_INK_GAP_MM` off the rule's ink;
- a line's middle line, a filled shape with no outline (a band) and a stroked rectangle (a track space, a box) may
  reach the rule's middle line, no further: they are laid out butted to the rule (the title band and its rules, the
  Location's track spaces);
- art that reaches the bleed's edge (a Warding City's band), a texture (hatching in a clipped group) and the frame's own
  corner diamonds (``placed_by`` ``numbers.frame_diamond``) are the frame's or the card's, not placed inside it.

One ``"template"`` problem a template: at the one ``[numbers]`` key the designer changed
(:func:`pnp.layout.template.changed_number`), with the value that moves the shapes back inside by as much as they
are out (a position number moves what it places with it; a line width by twice that, its ink growing by half of it on
each side), else at the template's ``[numbers]``.
"""
from __future__ import annotations

import math
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from pnp.drawing import Box, Circle, Group, Icon, Line, Polyline, Rect, TextLine, bounds
from pnp.layout.common import LINES_APART_MM, TEXT_INK_GAP_MM
from pnp.layout.icon_ink import icon_ink
from pnp.layout.problems import FitProblem
from pnp.layout.safe import _intersection, _outer_box
from pnp.layout.template import changed_number, load_template, template_line
from pnp.text import ink_boxes

INNER_RULES = ("the card frame's inner rule", "the frame's inner line")
"""The names (:attr:`pnp.drawing.Rect.named`) of the rules that close a card's frame on the inside."""

FLOAT_SLACK_MM = 1e-6
"""Rounding noise (mm) of sums of template numbers."""

_Placed = tuple[int, Any, tuple[tuple[float, float, float], ...], Box | None]


def _walk(items: Iterable[Any], transforms: tuple[tuple[float, float, float], ...], clip: Box | None,
          counter: list[int]) -> list[Any]:
    """``items`` as a tree in drawing order: each leaf ``(order, item, transforms, clip)`` (card mm clip), each group a
    list of its own; textures (a clipped group of lines alone) and what a clip hides whole are left out."""
    level: list[Any] = []
    for item in items:
        counter[0] += 1
        if isinstance(item, Group):
            inner = _outer_box(item.clip, transforms) if item.clip is not None else clip
            if clip is not None and inner is not None and item.clip is not None:
                inner = _intersection(inner, clip)
            if item.clip is not None and (inner is None or all(isinstance(one, Line) for one in item.items)):
                continue
            level.append(_walk(item.items, transforms + ((item.dx, item.dy, item.rotation),), inner, counter))
        else:
            level.append((counter[0], item, transforms, clip))
    return level


def _leaves(level: list[Any]) -> Iterator[_Placed]:
    for entry in level:
        if isinstance(entry, list):
            yield from _leaves(entry)
        else:
            yield entry


def _frames(level: list[Any]) -> Iterator[tuple[_Placed, list[_Placed]]]:
    """Each inner rule of ``level`` (at any depth) with every leaf of the group it is drawn in."""
    for entry in level:
        if isinstance(entry, list):
            yield from _frames(entry)
        elif isinstance(entry[1], Rect) and entry[1].named in INNER_RULES:
            yield entry, list(_leaves(level))


def _ink_box(item: Any, transforms: tuple[tuple[float, float, float], ...]) -> Box | None:
    """The box (card mm) of ``item``'s ink: an icon's own ink, a line's middle line, else :func:`pnp.drawing.bounds`."""
    if isinstance(item, Icon):
        points = icon_ink(item.name)
        scale = item.size / 100
        left = min(x - half for x, _, half in points) * scale
        right = max(x + half for x, _, half in points) * scale
        top = min(y - half for _, y, half in points) * scale
        bottom = max(y + half for _, y, half in points) * scale
        return _outer_box(Box(item.x + left, item.y + top, right - left, bottom - top), transforms)
    if isinstance(item, Line):  # its middle line: a rule laid along the frame's or butted to it is drawn on it by design
        return _outer_box(Box(min(item.x1, item.x2), min(item.y1, item.y2), abs(item.x2 - item.x1), abs(item.y2 - item.y1)),
                          transforms)
    box = bounds(item)
    return _outer_box(box, transforms) if box is not None else None


def _allowed(item: Any, rule: Rect, inside: Box) -> Box | None:
    """The box (card mm) ``item``'s ink box must keep inside (``inside``: within the rule's ink), ``None`` when the item
    is not judged (see the module's rules)."""
    half = rule.stroke_width / 2
    if isinstance(item, Polyline) and item.placed_by == "numbers.frame_diamond":
        return None
    if isinstance(item, TextLine):
        return inside.inset(TEXT_INK_GAP_MM) if not item.source else None
    if _butted(item):
        return inside.inset(-half)  # to the rule's middle line
    return inside.inset(LINES_APART_MM)


def _butted(item: Any) -> bool:
    """Whether ``item`` may be laid butted to the frame's inner rule, reaching its middle line (a line, a band, a stroked
    rectangle: the module's rules)."""
    return isinstance(item, Line) or (isinstance(item, (Rect, Polyline, Circle)) and not item.stroke) or \
        (isinstance(item, Rect) and bool(item.stroke))


def _limit(item: Any) -> str:
    """How near the frame's inner rule ``item`` may come, in words for a problem's message (thirty-fourth breaker, MED 2:
    every message said "or within 0.2 mm of it", where a line or a band may reach the rule's middle line by design)."""
    if isinstance(item, TextLine):
        return f"runs over the card frame's inner rule or within {TEXT_INK_GAP_MM:g} mm of it"
    if _butted(item):
        return "runs past the middle line of the card frame's inner rule"
    return f"runs over the card frame's inner rule or within {LINES_APART_MM:g} mm of it"


def frame_problems(faces: Iterable[Any]) -> list[FitProblem]:
    """One ``"template"`` :class:`FitProblem` per template whose layout places a shape, icon or text across or too near
    the card frame's inner rule (the module's rules), on any face of ``faces`` (:class:`pnp.layout.Face`); the message
    names what and where (mm past), the advice is at the one number changed when there is one."""
    found: dict[str, tuple[Any, str, float]] = {}  # a template file -> its face, what is out, how far (mm)
    for face in faces:
        template: Path | None = getattr(face, "template", None)
        if template is None:
            continue
        width, height, bleed = face.drawing.width_mm, face.drawing.height_mm, face.drawing.bleed_mm
        tree = _walk(face.drawing.items, (), None, [0])
        for (order, rule, rule_transforms, _), leaves in _frames(tree):
            inside = _outer_box(Box(rule.x, rule.y, rule.width, rule.height), rule_transforms).inset(rule.stroke_width / 2)
            for item_order, item, transforms, clip in leaves:
                if item_order <= order:
                    continue
                allowed = _allowed(item, rule, inside)
                if allowed is None:
                    continue
                boxes = [_outer_box(box, transforms) for *_, box in ink_boxes([item])] if isinstance(item, TextLine) else \
                    [box for box in (_ink_box(item, transforms),) if box is not None]
                for box in boxes:
                    if not isinstance(item, (Icon, TextLine)) and _edge_art(box, allowed, width, height, bleed,
                                                                             isinstance(item, Line)):
                        continue  # art to the bleed's edge: the card's own, under or over its frame by design
                    shown: Box | None = _intersection(box, clip) if clip is not None else box
                    if shown is None or (face.board_cards > 1 and (shown.right <= 0 or shown.x >= width)):
                        continue
                    if clip is not None and shown != box and clip.x <= box.x < clip.right and clip.y <= box.y < clip.bottom:
                        # begun on this card and cut by its clip: measured whole, so that the advice moves its far end
                        # back inside (thirty-fourth breaker, HIGH 2: a map's shading run into the next card of the board
                        # was measured to the clip, 7.4 mm whatever its width, and the advice never converged)
                        past = box.right - allowed.right if box.right > clip.right else box.bottom - allowed.bottom
                        past = max(past, allowed.x - shown.x, allowed.y - shown.y)
                    elif clip is not None and shown != box:
                        continue  # begun on another card of the board, which judges it
                    else:
                        past = max(allowed.x - shown.x, shown.right - allowed.right, allowed.y - shown.y,
                                   shown.bottom - allowed.bottom)
                    if past <= FLOAT_SLACK_MM:
                        continue
                    said = found.get(str(template))
                    if said is None or past > said[2]:
                        found[str(template)] = (face, f"{_what(item)} {_limit(item)}", past)
    problems = []
    for home, (face, what, past) in found.items():
        template = Path(home)
        key: str
        changed = changed_number(template)
        where = f"on {face.id}"
        text = f"{what} ({past:.1f} mm too far out, {where})"
        if changed is not None:
            name, shipped = changed
            value = load_template(template.stem, template.parent).number(name)
            toward = shipped > value
            # a line width grows the ink by half its change on each side: it must change by twice as much as the ink
            # is out (Location `space_rule_width = 1` was advised 0.8, which left the track spaces 0.1 mm out)
            # (a half width is a reach, not a line's width: `emblem_rule_half_width = 30` was advised twice the way back,
            # thirty-fourth pnp breaker, LOW 1)
            change = 2 * past if name.endswith("width") and not name.endswith("half_width") else past
            moved = value + change if toward else value - change
            fits = math.ceil(moved * 10 - 1e-6) / 10 if toward else math.floor(moved * 10 + 1e-6) / 10
            fits = min(fits, shipped) if toward else max(fits, shipped)
            key = f"numbers.{name}"
            message = (f"{text}, since {name} is {value:g} (the shipped templates have {shipped:g}): set {name} to "
                       f"{'at least' if toward else 'at most'} {fits:g}")
        else:
            key, message = "numbers", f"{text}: move it inside the frame"
        path, line = template_line(template, key)
        problems.append(FitProblem("templates", key, "template", message, path=str(path), line=line, over=past))
    return problems


def _edge_art(box: Box, allowed: Box, width: float, height: float, bleed: float, line: bool = False) -> bool:
    """Whether ``box`` (card mm) is art to the bleed's edge by design: it reaches the bleed's edge and either spans the
    card from one bleed edge to the other or lies wholly outside the frame's interior ``allowed`` (a band along an
    edge). A shape that starts inside the frame and runs out to the bleed is none (thirty-fourth breaker, HIGH 2: a
    table's shading pushed past the cut passed, where one pushed half as far was refused), nor is an icon or a text
    (the caller's: `label_icon_dx = 60` put the side's shield past the cut, said only as cards' safe-area lines)."""
    reaches = (box.x <= -bleed + FLOAT_SLACK_MM, box.y <= -bleed + FLOAT_SLACK_MM,
               box.right >= width + bleed - FLOAT_SLACK_MM, box.bottom >= height + bleed - FLOAT_SLACK_MM)
    if not any(reaches):
        return False
    spans = (reaches[0] and reaches[2]) or (reaches[1] and reaches[3])
    outside = box.right <= allowed.x or box.x >= allowed.right or box.bottom <= allowed.y or box.y >= allowed.bottom
    return spans or outside


def _what(item: Any) -> str:
    """``item`` in words for a problem's message."""
    if isinstance(item, Icon):
        return f"the {item.name} icon"
    if isinstance(item, TextLine):
        return f"the text {item.text!r} the layout places"
    if isinstance(item, Circle):
        return "a disc"
    if isinstance(item, Polyline):
        return "a hex" if len(item.points) == 6 and item.closed else "a shape"
    if isinstance(item, Rect):
        return item.named or ("a track space" if item.space else "a box")
    return "a line the layout draws"
