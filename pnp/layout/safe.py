"""The safe-area check: every text line and icon of every card face lies inside the safe area.

This module owns the rule of issue 3 ("text and icons stay inside the safe area") as ``pnp check`` and
``pnp build`` apply it with the safe area of the print settings (``[print] safe_mm``, ``--safe``): a
print shop that asks for 5 mm learns which cards break it, rather than getting a build that ignores
the setting. Backgrounds, frames and art may run into the bleed; only text and icons count.

Coordinates are card mm from the trim's top-left corner (:mod:`pnp.drawing`). Text is measured with
its font (:mod:`pnp.fonts`): from the left end of its advance to the right end, from the ascent above
the baseline down to the font's descender line when the line has a letter that descends (p, y, g ...),
else to the baseline.
"""
from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from pnp import fonts
from pnp.drawing import Box, Drawing, Group, Icon, Primitive, Rect, TextLine, turn_points
from pnp.layout.problems import FitProblem
from pnp.layout.template import template_chain, template_line
from pnp.oneline import shortened
from pnp.units import FONT_METRIC_SLACK_MM, MM_PER_PT, SAME_BASELINE_MM

SEAM_MARGIN = 1.0
"""mm that text and icons keep from an edge a board's card shares with the next card of the board:
boards print butted and are used side by side, so a seam is never a loose cut (rulings: layout)."""
RUN_JOIN_GAP_MM = (-0.3, 0.6)
"""Runs of one text line (font fallback, lining digits) follow each other with a gap in this range
(mm, from the end of one run to the start of the next; negative: kerned into it), or up to
:data:`RUN_JOIN_SPACE_EM` when a space separates them in large text."""
RUN_JOIN_SPACE_EM = 0.4
"""The widest gap (em of the text) between two runs of one line: a word space of the bundled fonts is under it."""
SPACE_GAP_EM = 0.1
"""A gap between two runs wider than this (em) is a word space: the joined line's name has a space there."""


@dataclass(frozen=True)
class Painted:
    """One text line or icon of a face, with its ``box`` in card mm; ``what`` names it for a report
    (``text "Warding Key 1"`` or ``icon mana``)."""

    what: str
    box: Box
    source: str = ""
    size: float = 0.0
    """A text's size in pt (0 for an icon or a space): the overlap check measures digits by their cap height."""
    """The template box the text or icon was fitted into (``TextLine.source``), ``""`` for one placed
    by the layout's own numbers."""
    placed_by: tuple[str, str] = ("", "")
    """The keys that place a text the layout places across and down (:attr:`pnp.drawing.TextLine.placed_by`); ``""``
    for none, or for a turned text (its axes are not the card's)."""


def painted(items: Iterable[Primitive], transforms: tuple[tuple[float, float, float], ...] = (),
            clip: Box | None = None, spaces: bool = False) -> Iterator[Painted]:
    """Every text line and icon in ``items`` with its box in the outermost coordinates, through shifted
    and rotated groups; what a group's clip hides entirely (a board's neighbouring card) is skipped.
    ``transforms`` are the enclosing groups' ``(dx, dy, rotation)``, outermost first. The runs one line
    is set in (digits have their own font) are joined back into that line: ``text 'solo.map.key-1.card-2'``.
    With ``spaces``, the track spaces that hold a number (:attr:`pnp.drawing.Rect.space`) too, as ``space``."""
    line: Painted | None = None  # the text line being joined, run by run
    line_end: tuple[float, float, float] | None = None  # its baseline y, right end x and rotation, local mm
    for item in items:
        found: Painted | None = None
        if isinstance(item, Group):
            inner = transforms + ((item.dx, item.dy, item.rotation),)
            inner_clip = _outer_box(item.clip, transforms) if item.clip is not None else clip
            if clip is not None and inner_clip is not None:
                inner_clip = _intersection(inner_clip, clip)
            if inner_clip is None and item.clip is not None:
                continue
            if line is not None:
                yield line
                line, line_end = None, None
            yield from painted(item.items, inner, inner_clip, spaces)
            continue
        if spaces and isinstance(item, Rect) and (item.space or item.frame):
            found = Painted("space" if item.space else f"frame {item.frame}", _outer_box(Box(item.x, item.y, item.width, item.height), transforms))
            if clip is None or _intersection(found.box, clip) is not None:
                if line is not None:
                    yield line
                    line, line_end = None, None
                yield found
            continue
        if isinstance(item, TextLine) and item.text.strip():
            # a font's measures grow with the size: 1 traced by the size's keys (pnp.layout.traced), so that a text a
            # size key (`hp_size = 37`) grew over another is said at that key
            grown = item.size / float(item.size)
            width = fonts.string_width_mm(item.text, item.family, item.size) * grown
            left = item.x - {"start": 0.0, "middle": width / 2, "end": width}[item.anchor]
            if item.anchor == "start":  # a tight digit run is drawn left of its pen by its shift (pnp.text.place_line):
                left -= fonts.run_shift_mm(item.text, item.family, item.size) * grown  # its measured width starts at the pen
            ascent = fonts.ascent_mm(item.family, item.size) * 0.9 * grown
            # descenders (p, y, g) are ink too: a line reaches down to the font's descender line
            bottom = item.y + (fonts.descent_mm(item.family, item.size) * grown if _has_descender(item.text) else 0.0)
            top = item.y - ascent
            if item.rotation:
                corners = turn_points([(left, top), (left + width, bottom), (left, bottom), (left + width, top)],
                                      item.rotation, 0.0, 0.0, origin=(item.x, item.y))
                text_box = _points_box(corners)
            else:  # the corners' extremes, as turn_points and _points_box give them unturned
                lowest, highest = min(left + 0.0, left + width + 0.0), max(left + 0.0, left + width + 0.0)
                upper, lower = min(top + 0.0, bottom + 0.0), max(top + 0.0, bottom + 0.0)
                text_box = Box(lowest, upper, highest - lowest, lower - upper)
            upright = not item.rotation and not any(rotation for _, _, rotation in transforms)
            found = Painted(f"text {item.text!r}", _outer_box(text_box, transforms), item.source, item.size,
                            item.placed_by if upright else ("", ""))
            if clip is not None and _intersection(found.box, clip) is None:
                found = None
            em = item.size * MM_PER_PT
            gap = left - line_end[1] if line_end is not None else 0.0
            continues = (line_end is not None and not item.rotation and not line_end[2]
                         and abs(item.y - line_end[0]) < SAME_BASELINE_MM
                         and RUN_JOIN_GAP_MM[0] < gap < max(RUN_JOIN_GAP_MM[1], RUN_JOIN_SPACE_EM * em))
            if found is not None and line is not None and continues:
                box = line.box
                x, y = min(box.x, found.box.x), min(box.y, found.box.y)
                right, lowest = max(box.right, found.box.right), max(box.bottom, found.box.bottom)
                joined = line.what[6:-1] + (" " if gap > SPACE_GAP_EM * em else "") + item.text  # 'Choose 2 cards', not 'Choose2cards'
                line = Painted(f"text {joined!r}", Box(x, y, right - x, lowest - y), line.source, line.size, line.placed_by)
                line_end = (item.y, left + width, item.rotation)
                continue
            if found is not None:
                if line is not None:
                    yield line
                line, line_end = found, (item.y, left + width, item.rotation)
            continue
        if isinstance(item, Icon):
            found = Painted(f"icon {item.name}", _outer_box(Box(item.x, item.y, item.size, item.size), transforms), item.source)
            if clip is not None and _intersection(found.box, clip) is None:
                continue
            if line is not None:
                yield line
                line, line_end = None, None
            yield found
    if line is not None:
        yield line


DESCENDERS = frozenset("gjpqy,;()[]{}Q/|")
"""Characters whose ink reaches below the baseline in the bundled fonts (roughly to the descender line)."""


def _has_descender(text: str) -> bool:
    return any(char in DESCENDERS for char in text) or any(ord(char) > 0x2E80 for char in text)  # CJK fills the em


def safe_box(drawing: Drawing, safe_mm: float, board_cards: int = 1, board_index: int = 0) -> Box:
    """The safe area of a face in card mm: ``safe_mm`` inside the trim, except :data:`SEAM_MARGIN` on an
    edge shared with the next card of a board (``board_index`` of ``board_cards``, left to right)."""
    left = SEAM_MARGIN if board_cards > 1 and board_index > 0 else safe_mm
    right = SEAM_MARGIN if board_cards > 1 and board_index < board_cards - 1 else safe_mm
    return Box(left, safe_mm, drawing.width_mm - left - right, drawing.height_mm - 2 * safe_mm)


def outside(drawing: Drawing, safe: Box, board: bool = False) -> list[tuple[Painted, float]]:
    """The texts, icons and track spaces (and framed portraits) of ``drawing`` that reach outside ``safe``,
    each with how far (mm) inside the trim it comes at its nearest (negative: it crosses the trim). On a card
    of a ``board``, things wholly left or right of the card are on a neighbouring card (seen in this card's
    bleed), not this card's; on a single card they are off the card, and reported like any other. (Track
    spaces count since the seventeenth breaker: Progress Track spaces moved across the cut passed.)"""
    found = []
    for thing in painted(drawing.items, spaces=True):
        box = thing.box
        if board and (box.x >= drawing.width_mm or box.right <= 0):
            continue
        slack = FONT_METRIC_SLACK_MM
        if (box.x < safe.x - slack or box.right > safe.right + slack
                or box.y < safe.y - slack or box.bottom > safe.bottom + slack):
            nearest = min(box.x, drawing.width_mm - box.right, box.y, drawing.height_mm - box.bottom)
            found.append((thing, nearest))
    return found


SAME_PLACE_MM = 0.5
"""Two texts seen from two cards of a board that start this near each other (mm, across and in the middle of their
height) are one text (:func:`safe_area_problems`)."""


def safe_area_problems(faces: Iterable, safe_mm: float) -> list[FitProblem]:
    """One ``"safe area"`` :class:`FitProblem` per face (:class:`pnp.layout.Face`) with text or icons
    outside the safe area ``safe_mm`` mm inside the trim (issue 3, Geometry), field ``"safe area"``:
    the message says how many, the nearest to the trim, and what to change (the template of the
    record's kind or the setting)."""
    from pnp.layout.overlap import label_key

    problems = []
    said: set[tuple[str, str]] = set()
    # a board's cards, each face's found outside its own safe area, gathered by record: a text across a seam is seen from
    # the cards on either side of it, and is one text, said once, from the card it reaches least far out of (thirty-sixth
    # pnp breaker, LOW 14: under --safe 9 the map text card's line was said twice, once as 44.7 mm across the cut)
    gathered: dict[str, list[tuple[Any, list[tuple[Painted, float]]]]] = {}
    judged: list[tuple[Any, list[tuple[Painted, float]], list[int]]] = []
    for face in faces:
        safe = safe_box(face.drawing, safe_mm, face.board_cards, face.board_index)
        overflowed: frozenset[str] = getattr(face, "overflowed", frozenset())
        if "*" in overflowed:  # more than the card holds, said once at its key
            continue
        found = [(thing, nearest) for thing, nearest in outside(face.drawing, safe, board=face.board_cards > 1)
                 if not thing.source or thing.source not in overflowed]  # a text over its box is said once, as such
        if not found:
            continue
        if face.board_cards > 1:
            if face.record.id not in gathered:
                gathered[face.record.id] = []
                judged.append((face, [], []))  # in the faces' order; filled below
            gathered[face.record.id].append((face, found))
            continue
        judged.append((face, found, []))
    for index, (face, found, cards) in enumerate(judged):
        if face.board_cards > 1:
            # each text seen least far out, on that card, by where it starts on the board (its box and words as each card
            # joins its runs may differ a little: one text starts at one place)
            least: list[tuple[float, float, Painted, float, int]] = []
            for card_face, card_found in gathered[face.record.id]:
                for thing, nearest in card_found:
                    x = thing.box.x + card_face.board_index * card_face.drawing.width_mm
                    middle = thing.box.y + thing.box.height / 2
                    seen = next((at for at, (x0, y0, other, *_) in enumerate(least) if other.source == thing.source
                                 and abs(x0 - x) < SAME_PLACE_MM and abs(y0 - middle) < SAME_PLACE_MM), None)
                    if seen is None:
                        least.append((x, middle, thing, nearest, card_face.board_index))
                    elif nearest > least[seen][3]:
                        least[seen] = (x, middle, thing, nearest, card_face.board_index)
            found = [(thing, nearest) for _, _, thing, nearest, _ in least]
            cards = sorted({card for *_, card in least})
            judged[index] = (face, found, cards)
    for face, found, cards in judged:
        thing, nearest = min(found, key=lambda pair: pair[1])
        template = getattr(face, "template", None)
        labels = {label_key(template, t) for t, _ in found} if template is not None else {None}
        if len(labels) == 1 and None not in labels:  # a template's own label, the same on every card: said once there
            key = labels.pop()
            assert key is not None and template is not None
            path, line = template_line(template, key)
            if (str(path), key) not in said:
                said.add((str(path), key))
                problems.append(FitProblem("templates", key, "template",
                                           f"{shortened(thing.what, 70)} reaches outside the {safe_mm:g} mm safe area, {_from_trim(nearest)} "
                                           f"(on {face.id}); shorten it", path=str(path), line=line))
            continue
        spaces = any(t.what == "space" or t.what.startswith("frame ") for t, _ in found)
        count = (f"{len(found)} texts, icons or track spaces reach" if len(found) > 1 and spaces else
                 f"{len(found)} texts or icons reach" if len(found) > 1 else
                 "1 track space reaches" if spaces else "1 text or icon reaches")
        them = "them" if len(found) > 1 else "it"
        numbers = [str(card + 1) for card in cards]
        card = (f" on card{'s' if len(numbers) > 1 else ''} {', '.join(numbers[:-1])}{' and ' if len(numbers) > 1 else ''}"
                f"{numbers[-1]} of the board" if numbers else "")
        worst = "nearest" if nearest > -0.05 else "farthest out"  # across the cut: the one that must move the most
        problems.append(FitProblem(face.record.id, "safe area", "safe area",
                                   f"{count} outside the {safe_mm:g} mm safe area{card}, the "
                                   f"{worst} {'track space' if thing.what == 'space' else shortened(thing.what, 70)} {_from_trim(nearest)}; "
                                   f"move {them} in "
                                   f"{_where(face, thing)}{' or lower [print] safe_mm (--safe)' if nearest >= 0 else ''}"))
    return problems


def _from_trim(nearest: float) -> str:
    """How far (``nearest`` mm, negative: beyond the cut) a text or icon is from the trim, in words: ``1.2 mm from the
    trim``, or ``across the cut by 42.5 mm`` (a negative distance read oddly: twenty-fifth breaker)."""
    return f"{max(nearest, 0.0):.1f} mm from the trim" if nearest > -0.05 else f"across the cut by {-nearest:.1f} mm"


def _where(face, thing: Painted) -> str:
    """Where to move ``thing``: the template file and line of the box it was fitted into
    (``templates/quest.toml:64 [boxes.event]``, the file that writes the box, which may be a template
    the face's own extends), else the face's template."""
    template = getattr(face, "template", None)
    if template is None:
        return f"templates/{face.record.kind}.toml"
    if not thing.source:  # placed by the template's numbers, which may be written in a template it extends
        chain = template_chain(template)
        extends = f" (or {', '.join(p.name for p in chain[1:])}, which it extends)" if len(chain) > 1 else ""
        return f"{template.parent.name}/{template.name}{extends}"
    path, line = template_line(template, f"boxes.{thing.source}")
    return f"{path.parent.name}/{path.name}:{line} [boxes.{thing.source}]"


def _points_box(points) -> Box:
    xs = [x for x, _ in points]
    ys = [y for _, y in points]
    left, top = min(xs), min(ys)
    return Box(left, top, max(xs) - left, max(ys) - top)


def _outer_box(box: Box, transforms: tuple[tuple[float, float, float], ...]) -> Box:
    """``box`` of the innermost coordinates as a box of the outermost (each group turns, then shifts)."""
    right, bottom = box.right, box.bottom
    if not transforms:  # the corners' extremes, as the general case computes them (most text is in no group)
        left, top = min(box.x, right), min(box.y, bottom)
        return Box(left, top, max(box.x, right) - left, max(box.y, bottom) - top)
    points = [(box.x, box.y), (right, box.y), (box.x, bottom), (right, bottom)]
    for dx, dy, rotation in reversed(transforms):
        points = turn_points(points, rotation, dx, dy)
    return _points_box(points)


def _intersection(a: Box, b: Box) -> Box | None:
    left, top = max(a.x, b.x), max(a.y, b.y)
    right, bottom = min(a.right, b.right), min(a.bottom, b.bottom)
    if right <= left or bottom <= top:
        return None
    return Box(left, top, right - left, bottom - top)
