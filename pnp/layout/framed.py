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

from pnp.drawing import Box, Circle, Group, Icon, Line, Polyline, Rect, TextLine, bounds, turn_points
from pnp.layout.common import LINES_APART_MM, TEXT_INK_GAP_MM
from pnp.layout.icon_ink import icon_ink
from pnp.layout.problems import FitProblem
from pnp.layout.safe import _intersection, _outer_box
from pnp.layout.template import changed_number, changed_numbers, load_template, template_line, traced_fix, traced_words
from pnp.text import ink_boxes
from pnp.units import excess_mm

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
    if isinstance(item, Polyline) and item.named:
        return False  # an ornament rule's diamond: a point of ink, kept off the rule (thirty-sixth pnp breaker, LOW 11)
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
        # a text over its box is said once, as such: the inline icons it runs out with are no fault of the template
        # (thirty-sixth pnp breaker, MED 8b: a card's run of 30 icons was also blamed on spell_path.toml's [numbers])
        reported: frozenset[str] = getattr(face, "overflowed", frozenset())
        tree = _walk(face.drawing.items, (), None, [0])
        for (order, rule, rule_transforms, _), leaves in _frames(tree):
            inside = _outer_box(Box(rule.x, rule.y, rule.width, rule.height), rule_transforms).inset(rule.stroke_width / 2)
            for item_order, item, transforms, clip in leaves:
                if item_order <= order:
                    continue
                allowed = _allowed(item, rule, inside)
                if allowed is None or (isinstance(item, Icon) and item.source and item.source in reported):
                    continue
                boxes = [_outer_box(box, transforms) for *_, box in ink_boxes([item])] if isinstance(item, TextLine) else \
                    [box for box in (_ink_box(item, transforms),) if box is not None]
                for box in boxes:
                    # art to the bleed's edge: the card's own, under or over its frame by design; never a track space
                    # (thirty-sixth pnp breaker, MED 8: `track_top = 20` ran the Location's spaces past the bleed, where
                    # they were taken for art, and the 'take' label's bound, 9, was said where the spaces need 8.1)
                    if not isinstance(item, (Icon, TextLine)) and not (isinstance(item, Rect) and item.space) and \
                            _edge_art(box, allowed, width, height, bleed, isinstance(item, Line)):
                        continue
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
    return _at_changed_numbers(found, "move it inside the frame")


FRAME_INK_FROM_TRIM_MM = 1.0
"""How far (mm) the card frame's own ink (its outer rule and corner diamonds) keeps inside the trim: a cut this far off
still cuts through the coloured band alone, leaving no sliver of the frame's rule or diamond of the card beside it on
the sheet, nor a half diamond at the card's corner (thirty-sixth pnp breaker, HIGH 4). The shipped frame keeps 3.3 mm."""

FRAME_INK = "the card frame's rule"
"""The name (:attr:`pnp.drawing.Rect.named`) of the card frame's outer rule, the frame's ink nearest the trim with its
corner diamonds (``placed_by`` ``numbers.frame_diamond``)."""


def frame_ink_problems(faces: Iterable[Any]) -> list[FitProblem]:
    """One ``"template"`` :class:`FitProblem` per template whose card frame (:func:`pnp.layout.common.frame`) lays its
    outer rule or a corner diamond within :data:`FRAME_INK_FROM_TRIM_MM` of the trim or across it (thirty-sixth pnp
    breaker, HIGH 4: `border = 0` put the rules and the diamonds of two neighbouring cards on their shared cut line,
    `frame_diamond = 5` ran the diamonds out past the trim, and check passed). Said at the one number changed (``border``,
    ``frame_diamond``, ``frame_rule_width``, ``frame_inner_inset``) with the value that keeps the ink that far in, else
    at the template's ``[numbers]``."""
    found: dict[str, tuple[Any, str, float]] = {}
    diamonds: dict[str, bool] = {}  # whether the ink farthest out on a template's faces is a corner diamond
    for face in faces:
        template: Path | None = getattr(face, "template", None)
        if template is None:
            continue
        width, height = face.drawing.width_mm, face.drawing.height_mm
        for _, item, transforms, _ in _leaves(_walk(face.drawing.items, (), None, [0])):
            diamond = isinstance(item, Polyline) and item.placed_by == "numbers.frame_diamond"
            if not diamond and not (isinstance(item, Rect) and item.named == FRAME_INK):
                continue
            box = bounds(item)
            if box is None:
                continue
            box = _outer_box(box, transforms)
            if box.right < 0 or box.x > width:
                continue  # on another card of the board, judged on that card's face
            # a board's frame spans its cards: the sides of a card at a seam are not cut there (boards print joined)
            edges = [box.y, height - box.bottom]
            edges += [box.x] if getattr(face, "board_index", 0) == 0 else []
            edges += [width - box.right] if getattr(face, "board_index", 0) >= getattr(face, "board_cards", 1) - 1 else []
            past = FRAME_INK_FROM_TRIM_MM - min(edges)
            if past <= FLOAT_SLACK_MM:
                continue
            what = "a corner diamond of the card frame" if diamond else "the card frame's outer rule"
            said = found.get(str(template))
            if said is None or past > said[2]:
                found[str(template)] = (face, f"{what} comes within {FRAME_INK_FROM_TRIM_MM:g} mm of the trim or across "
                                              f"it, where a cut shows it on the card beside", past)
                diamonds[str(template)] = diamond
    otherwise = f"keep the frame's ink {FRAME_INK_FROM_TRIM_MM:g} mm inside the trim"
    problems: dict[tuple[str, str], FitProblem] = {}  # one line a key of the file that writes it, the farthest out
    for home, (face, what, past) in found.items():
        several = _several_frame_numbers(Path(home), face, what, past, diamonds[home])
        for problem in [several] if several is not None else _at_changed_numbers({home: (face, what, past)}, otherwise):
            kept = problems.get((problem.path, problem.field))
            if kept is None or problem.over > kept.over:
                problems[problem.path, problem.field] = problem
    return list(problems.values())


FRAME_INK_KEYS = {True: ("frame_diamond", "border", "frame_inner_inset", "frame_rule_width"),
                  False: ("border", "frame_rule_width")}
"""The ``[numbers]`` keys that bring the card frame's corner diamonds (``True``) or its outer rule (``False``) toward the
trim, the one to say first when several are changed first."""


def _several_frame_numbers(template: Path, face: Any, what: str, past: float, diamond: bool) -> FitProblem | None:
    """The frame's ink ``past`` mm too near the trim on ``face`` when several ``[numbers]`` keys of the template (with those
    it extends) are changed, some of them :data:`FRAME_INK_KEYS`: one problem at the first of those whose value, moved back
    toward the shipped one by as far as the ink is out, stays within the shipped value, with the other changed keys' values
    said; ``None`` when one number or none of these is changed (:func:`_at_changed_numbers` says it). Thirty-seventh pnp
    breaker, MED 5: `border = 1.2` and `frame_diamond = 2` in base.toml were blamed on 13 other templates at their
    `[numbers]` header, with no key and no number."""
    changed = changed_numbers(template)
    if len(changed) < 2:
        return None
    edited = dict(changed)
    names = [name for name in FRAME_INK_KEYS[diamond] if name in edited]
    if not names:
        return None
    loaded = load_template(template.stem, template.parent)

    def within(name: str) -> bool:
        value, shipped = loaded.number(name), edited[name]
        change = 2 * past if name.endswith("width") else past
        return (value + change <= shipped + 1e-9) if shipped > value else (value - change >= shipped - 1e-9)
    name = next((name for name in names if within(name)), names[0])
    others = ", ".join(f"{other} {loaded.number(other):g}" for other, _ in changed if other != name)
    change = 2 * past if name.endswith("width") else past
    key, message = _moved_back(template, (name, edited[name]), f"{what} ({excess_mm(past)} too far out, on {face.id}), with "
                                                               f"{others}", change)
    path, line = template_line(template, key)
    return FitProblem("templates", key, "template", message, path=str(path), line=line, over=past)


def _at_changed_numbers(found: dict[str, tuple[Any, str, float]], otherwise: str) -> list[FitProblem]:
    """The problems of ``found`` (a template file -> its face, what is out, how far in mm), each at the one number
    changed with the value that moves the shapes back by as far as they are out, else at the template's ``[numbers]``
    with ``otherwise`` as the way on."""
    problems = []
    for home, (face, what, past) in found.items():
        template = Path(home)
        key: str
        changed = changed_number(template)
        where = f"on {face.id}"
        text = f"{what} ({excess_mm(past)} too far out, {where})"
        if changed is not None:
            # a line width grows the ink by half its change on each side: it must change by twice as much as the ink
            # is out (Location `space_rule_width = 1` was advised 0.8, which left the track spaces 0.1 mm out)
            # (a half width is a reach, not a line's width: `emblem_rule_half_width = 30` was advised twice the way back,
            # thirty-fourth pnp breaker, LOW 1)
            name = changed[0]
            change = 2 * past if name.endswith("width") and not name.endswith("half_width") else past
            key, message = _moved_back(template, changed, text, change)
        else:
            key, message = _traced_back(template, text, past, otherwise)
        path, line = template_line(template, key)
        problems.append(FitProblem("templates", key, "template", message, path=str(path), line=line, over=past))
    return problems


def _traced_back(template: Path, text: str, past: Any, otherwise: str) -> tuple[str, str]:
    """The key and line of a fault ``text``, a shape ``past`` mm out, when no one number is known changed: at the key that
    placed the shape (``past`` traced, :func:`pnp.layout.template.traced_fix`) with the value that brings it back, else
    at the template's ``[numbers]`` with ``otherwise`` (forty-sixth pnp breaker, finding 13)."""
    fix = traced_fix(template, past)
    if fix is None:
        return "numbers", f"{text}: {otherwise}"
    return f"numbers.{fix[0]}", f"{text}, {traced_words(fix)}"


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
        return item.named or ("a hex" if len(item.points) == 6 and item.closed else "a shape")
    if isinstance(item, Rect):
        return item.named or ("a track space" if item.space else "a box")
    return "a line the layout draws"


OUTLINE_SAMPLES = 24
"""Points measured along each side of an outline (a track space's, a hex's) for :func:`covered_outline_problems`."""


def _outline_points(item: Any, transforms: tuple[tuple[float, float, float], ...]) -> list[tuple[float, float]]:
    """Points (card mm) along the outline of a track space (:attr:`pnp.drawing.Rect.space`) or of a hex (a closed
    polygon of six points with an outline), :data:`OUTLINE_SAMPLES` a side; empty for anything else."""
    if isinstance(item, Rect) and item.space and item.stroke:
        corners = [(item.x, item.y), (item.x + item.width, item.y), (item.x + item.width, item.y + item.height),
                   (item.x, item.y + item.height)]
    elif isinstance(item, Polyline) and item.closed and item.stroke and len(item.points) == 6:
        corners = list(item.points)
    else:
        return []
    points = []
    for (x1, y1), (x2, y2) in zip(corners, corners[1:] + corners[:1]):
        for step in range(OUTLINE_SAMPLES):
            share = step / OUTLINE_SAMPLES
            points.append((x1 + (x2 - x1) * share, y1 + (y2 - y1) * share))
    for dx, dy, rotation in reversed(transforms):  # (each group turns, then shifts: as _outer_box places a point)
        points = turn_points(points, rotation, dx, dy)
    return points


def covered_outline_problems(faces: Iterable[Any]) -> list[FitProblem]:
    """One ``"template"`` :class:`FitProblem` per template whose layout paints a filled box (a table's or a row's
    shading) over the outline of a track space or a hex drawn before it: the outline is hidden where the fill runs over
    it (thirty-fifth pnp breaker, HIGH 2 and 3: a battle map's `shade_dx = 20` shaded over the right-hand outlines of
    hexes I4 and I5, the player card's `shade_dx = 3` over the right side of point-track spaces 6, 4 and 2, and check
    passed). An outline is covered where a point of it lies more than :data:`~pnp.layout.overlap.OVERLAP_SLACK_MM` inside
    the fill. Said at the one number changed (:func:`pnp.layout.template.changed_number`) with the value that takes the
    fill back off the outline (by as far as it runs over it, rounded the safe way), else at the template's ``[numbers]``."""
    from pnp.layout.overlap import OVERLAP_SLACK_MM

    found: dict[str, tuple[Any, str, list[float]]] = {}  # a template -> its first face, what, how far past each fill edge
    for face in faces:
        template: Path | None = getattr(face, "template", None)
        if template is None:
            continue
        outlines: list[tuple[str, list[tuple[float, float]]]] = []
        for _, item, transforms, clip in _leaves(_walk(face.drawing.items, (), None, [0])):
            points = _outline_points(item, transforms)
            if points:
                outlines.append(("a track space" if isinstance(item, Rect) else "a hex", points))
                continue
            if not (isinstance(item, Rect) and item.fill and not item.space and not item.frame and not item.named):
                continue
            fill = _outer_box(Box(item.x, item.y, item.width, item.height), transforms)
            if clip is not None:
                shown = _intersection(fill, clip)
                if shown is None:
                    continue
                fill = shown
            inside = fill.inset(OVERLAP_SLACK_MM)
            if inside.width <= 0 or inside.height <= 0:
                continue
            for what, points in outlines:
                covered = [(x, y) for x, y in points if inside.x < x < inside.right and inside.y < y < inside.bottom]
                if not covered:
                    continue
                # how far each edge of the fill must move back to leave every covered point (the fills move together)
                reach = [max(x - inside.x for x, _ in covered), max(inside.right - x for x, _ in covered),
                         max(y - inside.y for _, y in covered), max(inside.bottom - y for _, y in covered)]
                said = found.setdefault(str(template), (face, what, [0.0] * 4))
                for side in range(4):
                    said[2][side] = max(said[2][side], reach[side])
    problems = []
    for home, (face, what, edges) in found.items():
        template = Path(home)
        changed = changed_number(template)
        # the fills move along the axis of the number changed (shade_dx, shade_right: across; shade_dy: down)
        depth = min(edges[side] for side in _sides_moved(changed[0] if changed else "")) + OVERLAP_SLACK_MM
        text = f"a filled box is drawn over the outline of {what}, which it hides ({excess_mm(depth)} in, on {face.id})"
        if changed is not None:
            key, message = _moved_back(template, changed, text, depth)
        else:
            key, message = "numbers", f"{text}: keep the fill off the outline"
        path, line = template_line(template, key)
        problems.append(FitProblem("templates", key, "template", message, path=str(path), line=line, over=depth))
    return problems


def _moved_back(template: Path, changed: tuple[str, float], text: str, change: float) -> tuple[str, str]:
    """The key and the line of a fault ``text`` made by the one ``[numbers]`` key changed (``changed``: its name and the
    shipped value) in ``template``: moved ``change`` mm (or pt) back toward the shipped value, rounded to a tenth away
    from the fault and never past the shipped value (``set NAME to at least/at most V``)."""
    name, shipped = changed
    value = load_template(template.stem, template.parent).number(name)
    toward = shipped > value
    moved = value + change if toward else value - change
    fits = math.ceil(moved * 10 - 1e-6) / 10 if toward else math.floor(moved * 10 + 1e-6) / 10
    fits = min(fits, shipped) if toward else max(fits, shipped)
    return f"numbers.{name}", (f"{text}, since {name} is {value:g} (the shipped templates have {shipped:g}): set {name} "
                               f"to {'at least' if toward else 'at most'} {fits:g}")


def _sides_moved(name: str) -> tuple[int, ...]:
    """The edges of a box (0 left, 1 right, 2 top, 3 bottom) the ``[numbers]`` key ``name`` moves, by the last word of its
    name (``shade_dx``, ``rows_right``, ``shade_w``: left and right; ``shade_dy``, ``box_h``: top and bottom); all four
    when the name does not tell."""
    word = name.rsplit("_", 1)[-1]
    if word in ("x", "dx", "left", "right", "w", "width"):
        return (0, 1)
    if word in ("y", "dy", "top", "bottom", "h", "height"):
        return (2, 3)
    return (0, 1, 2, 3)
