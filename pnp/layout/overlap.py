"""The overlap check: no text of a face is printed over another text or over an icon.

This module owns one rule of the printed cards (shared/DESIGN.md, "Print-and-play": text is fitted,
never hidden): a text line of one template box may not cover a text line of another box, nor an icon,
and a text placed by the layout's own numbers (a hit-point digit, a track number) may not cover a text
of a box. Lines of one box never overlap each other (the box's line spacing sets them apart), and icons
may overlap icons (a back's two emblems do, by design). Boxes are the ink boxes of
:func:`pnp.layout.safe.painted` (card mm), shrunk by :data:`OVERLAP_SLACK_MM` so that letters that only
touch are not counted.

A text already reported over its box, or a box off the card, is not reported again here. A template
edit that moves a box onto an icon passes every other check (the eleventh breaker moved the
servant's portrait over its Range and Damage lines): the problem names the template file and line that
writes the box, once for all the cards it spoils.
"""
from __future__ import annotations

import re
from collections.abc import Iterable
from pathlib import Path

from pnp.drawing import Box, Group, Line, TextLine
from pnp.layout.common import ICON_INK, cap_height_mm  # two icons clash only where their inner boxes overlap
from pnp.layout.problems import FitProblem
from pnp.layout.safe import Painted, _outer_box, painted
from pnp.layout.template import MIN_TEXT_PT, changed_number, load_template, template_line, traced_fix, traced_words
from pnp.oneline import quoted, shortened
from pnp.units import LAID_OUT_SAFE_MM, excess_mm

OVERLAP_SLACK_MM = 0.2
"""How far (mm, each way) two ink boxes may run into each other before they count as printed over
each other: the boxes are the fonts' ascent and descent, a little larger than the letters' ink."""


SPACE_MARGIN_MM = 0.3
"""How far inside its track space a space's own number (and the word printed with it) must stay, each way (mm):
it must not touch the space's outline."""


def _kind(thing: Painted) -> str:
    """``text``, ``icon`` (a framed portrait's frame too: kept clear as its icon is), or ``space``."""
    return ("text" if thing.what.startswith("text ") else "icon" if thing.what.startswith(("icon ", "frame ")) else "space")


def _clashes(a: Painted, b: Painted, order: dict[int, int] | None = None) -> bool:
    """Whether ``a`` and ``b`` are printed over each other (see the module's rule): texts of different
    boxes, or placed by the layout's numbers; a text and an icon (its whole box); two icons (their inner boxes); two
    track spaces; a text over a track space, except the space's own number (and word), which must stay
    :data:`SPACE_MARGIN_MM` inside it. An icon drawn on a track space and inside it is by design (the recharge cross,
    the Progress Track's crown); one the space is drawn over, or one that crosses the space's outline, is hidden or
    cuts the outline (thirty-fourth breaker, HIGH 3: ``resonance_y = 70`` hid the resonance icons under the Wardens'
    track). ``order`` maps ``id()`` of each thing to its place in the face's drawing order (later is on top); without
    it an icon on a space is taken to be drawn on top."""
    kinds = {_kind(a), _kind(b)}
    if kinds == {"text"}:
        return not (a.source and a.source == b.source) and _overlap(a.box, b.box)  # lines of one box never clash
    if kinds == {"icon"}:
        frames = [thing for thing in (a, b) if thing.what.startswith("frame ")]
        if len(frames) == 1:  # the icon inside its frame is by design; one the frame reaches into is not
            frame, icon = (a, b) if frames[0] is a else (b, a)
            inside = (frame.box.x <= icon.box.x and icon.box.right <= frame.box.right
                      and frame.box.y <= icon.box.y and icon.box.bottom <= frame.box.bottom)
            return not inside and _overlap(frame.box, _inner(icon.box))
        return _overlap(_inner(a.box), _inner(b.box))
    if kinds == {"space"}:
        return _overlap(a.box, b.box)
    if kinds == {"text", "icon"}:  # the icon's whole box: a text keeps off a portrait's frame too
        # an inline icon and the lines of its own box are set together by the fitter, as lines of one box are
        # (sixteenth breaker: the next line's ascent over an icon's drop was a false alarm)
        return not (a.source and a.source == b.source) and _overlap(a.box, b.box)
    if kinds == {"icon", "space"}:  # an icon drawn on a track space, inside it, is by design (the recharge cross); a frame on one is not
        framed = [thing for thing in (a, b) if thing.what.startswith("frame ")]
        if framed:
            return _overlap(a.box, b.box)
        icon, space = (a, b) if _kind(a) == "icon" else (b, a)
        ink = _inner(icon.box)
        if not _overlap(ink, space.box):
            return False
        on_top = order is None or order.get(id(icon), 0) > order.get(id(space), 0)
        slack = OVERLAP_SLACK_MM
        within = (space.box.x - slack <= ink.x and ink.right <= space.box.right + slack
                  and space.box.y - slack <= ink.y and ink.bottom <= space.box.bottom + slack)
        return not (on_top and within)
    text, space = (a, b) if _kind(a) == "text" else (b, a)
    if not _overlap(text.box, space.box):
        return False
    centre_x, centre_y = (text.box.x + text.box.right) / 2, (text.box.y + text.box.bottom) / 2
    own = not text.source and space.box.x <= centre_x <= space.box.right and space.box.y <= centre_y <= space.box.bottom
    if not own:
        return True  # a box's text, or another number, over a track space
    room = Box(space.box.x + SPACE_MARGIN_MM, space.box.y + SPACE_MARGIN_MM,
               space.box.width - 2 * SPACE_MARGIN_MM, space.box.height - 2 * SPACE_MARGIN_MM)
    ink = text.box
    if text.size and text.what[6:-1].isdigit():  # a number's ink reaches its cap height, not the font's ascent (thirteenth breaker)
        top = ink.bottom - cap_height_mm(text.size)
        ink = Box(ink.x, top, ink.width, ink.bottom - top)
    return not (room.x <= ink.x and ink.right <= room.right and room.y <= ink.y and ink.bottom <= room.bottom)


def _number_key(template: Path, text: Painted, other: Painted) -> str:
    """``numbers.<name>`` for what the layout places (no box) when one number of ``template`` is the value that went
    wrong: a text's size in pt for a number that does not fit its space (``hp_size = 45``), the distance between two
    track spaces printed over each other (``hp_step = 8``); else ``numbers`` (twentieth breaker: both were named at the
    ``[numbers]`` header). A face shrunk for a larger safe area is measured at its scale, so its values match none."""
    having = load_template(template.stem, template.parent).numbers_valued

    if _kind(text) == "text" and text.size and _kind(other) == "space":  # a grown number, or a shrunk space: both named
        suspects = having({text.size}, ("size",)) + having({round(other.box.width, 6), round(other.box.height, 6)}, ("box", "space"))
    elif _kind(text) == "space" and _kind(other) == "space":
        suspects = having({abs(round(other.box.x - text.box.x, 6)), abs(round(other.box.y - text.box.y, 6))} - {0.0},
                          ("step", "pitch", "gap", "spacing"))
    else:
        return "numbers"
    return f"numbers.{suspects[0]}" if len(suspects) == 1 else "numbers"


def label_key(template: Path, thing: Painted) -> str | None:
    """``strings.<name>`` for a text the layout places itself (no box) whose words are a string of ``template``
    (a caption, a label: twentieth breaker, a long ``win_label`` was blamed on ``[numbers]`` of three templates
    and on every quest card), else ``None``."""
    if thing.source or not thing.what.startswith("text "):
        return None
    name = load_template(template.stem, template.parent).string_key(thing.what[6:-1])
    return f"strings.{name}" if name else None


def placing_number(text: Painted, other: Painted, label: str | None) -> str | None:
    """The ``numbers.<name>`` that put ``text``, a text the layout places itself, over ``other``, an icon (or a frame):
    of the keys that place the text (:attr:`~pnp.layout.safe.Painted.placed_by`), the one across which the two overlap
    least (the way it would move off). For a ``label`` (the ``strings.<name>`` its words are), only when its place, not
    the length of its words, puts it there: they overlap least downwards (a line's height is its size's, whatever its
    words), or its middle is over the other (twenty-third breaker: ``icon_label_y = 28`` was blamed on the three captions
    it moved over their icons; ``value_dx = -3`` on the [numbers] of three templates). ``None`` when no key is known."""
    if text.source or _kind(text) != "text" or _kind(other) != "icon":
        return None
    across = min(text.box.right, other.box.right) - max(text.box.x, other.box.x)
    down = min(text.box.bottom, other.box.bottom) - max(text.box.y, other.box.y)
    axis = 1 if down <= across else 0
    key = text.placed_by[axis]
    if not key:
        return None
    if label and axis == 0 and not other.box.x <= (text.box.x + text.box.right) / 2 <= other.box.right:
        return None  # its words reach over the other: the string made it so
    return key


def _overlap(a: Box, b: Box) -> bool:
    width = min(a.right, b.right) - max(a.x, b.x)
    height = min(a.bottom, b.bottom) - max(a.y, b.y)
    return width > OVERLAP_SLACK_MM and height > OVERLAP_SLACK_MM


def _inner(box: Box) -> Box:
    return box.inset(min(box.width, box.height) * ICON_INK)


def _name(thing: Painted) -> str:
    if thing.what == "space":
        return "a track space"
    if thing.what.startswith("icon "):
        return f"the {thing.what[5:]} icon"
    if thing.what.startswith("frame "):
        return f"the {thing.what[6:]} frame"
    if thing.source:
        return f"the text of [boxes.{thing.source}]"
    return f"the {shortened(thing.what, 40)} the layout places"


def small_text_problems(faces: Iterable) -> list[FitProblem]:
    """One ``"template"`` :class:`FitProblem` per template whose numbers make the layout print a text
    below :data:`~pnp.layout.template.MIN_TEXT_PT` (a box's text sizes are checked when the template is
    read; a number such as ``hp_size = 2`` sets a text the layout places itself, eleventh breaker). The
    number whose value is the size is named at its line when there is one. A face shrunk for a safe area
    larger than the templates' (``face.scale``, issue 15) is judged at its template's own sizes: the print
    shop's safe area, not the template, makes it smaller."""
    found: dict[tuple[str, str], FitProblem] = {}
    for face in faces:
        template: Path | None = getattr(face, "template", None)
        if template is None:
            continue
        scale = getattr(face, "scale", 1.0)  # a face shrunk for a larger safe area is judged at its template's sizes
        for line in _text_lines(face.drawing.items):
            size = line.size / scale
            if line.source or size >= MIN_TEXT_PT - 1e-6:
                continue
            # several numbers of that value: a text size is one named for a size (hp_size)
            suspects = load_template(template.stem, template.parent).numbers_valued((size,), ("size",))
            key = f"numbers.{suspects[0]}" if len(suspects) == 1 else "numbers"
            path, number = template_line(template, key)
            if (str(path), key) not in found:
                found[str(path), key] = FitProblem(
                    "templates", key, "template", f"the text {quoted(line.text, 30)} prints at {size:g} pt (on {face.id}); "
                    f"printed text is at least {MIN_TEXT_PT:g} pt", path=str(path), line=number)
    return list(found.values())


def _traced_clash(template: Path, text: Painted, other: Painted, inside: bool) -> tuple[str, float, float, str] | None:
    """The key that placed ``text`` over ``other`` (or, ``inside``, out of its track space ``other``), its value and the
    value that alone clears the clash, when the layout's numbers are traced
    (:func:`pnp.layout.template.traced_fix`); ``None`` otherwise."""
    a, b = text.box, other.box
    if inside:
        excess = max(b.x - a.x, a.right - b.right, b.y - a.y, a.bottom - b.bottom)
    else:
        excess = min(min(a.right, b.right) - max(a.x, b.x), min(a.bottom, b.bottom) - max(a.y, b.y))
    return traced_fix(template, excess + OVERLAP_SLACK_MM)


def _text_lines(items) -> Iterable[TextLine]:
    for item in items:
        if isinstance(item, Group):
            yield from _text_lines(item.items)
        elif isinstance(item, TextLine) and item.text.strip():
            yield item


def overlap_problems(faces: Iterable) -> list[FitProblem]:
    """One ``"template"`` :class:`FitProblem` per template box (or template, for what its numbers place)
    whose text is printed over another text or an icon, naming the file and line that write it, how many
    faces it spoils and the first of them. ``faces`` are :class:`pnp.layout.Face` objects."""
    found: dict[tuple[str, str], tuple[FitProblem, int]] = {}
    for face in faces:
        template: Path | None = getattr(face, "template", None)
        if template is None:
            continue
        reported: frozenset[str] = getattr(face, "overflowed", frozenset())  # a text over its box, a box off the card: said already
        if "*" in reported:
            continue
        items = [thing for thing in painted(face.drawing.items, spaces=True) if not (thing.source and thing.source in reported)]
        order = {id(thing): index for index, thing in enumerate(items)}  # drawing order: later is printed on top
        items.sort(key=lambda thing: thing.box.x)  # a sweep: only boxes that overlap left to right can clash
        board = face.board_cards > 1
        seen: set[tuple[str, str]] = set()
        clashes: list[tuple[Painted, Painted]] = []
        for index, a in enumerate(items):
            for b in items[index + 1:]:
                if b.box.x >= a.box.right - OVERLAP_SLACK_MM:
                    break  # this one and every later one start right of a's end
                if not _clashes(a, b, order):
                    continue
                if board and (a.box.x >= face.drawing.width_mm or a.box.right <= 0):
                    continue  # a neighbouring card of the board, seen in this card's bleed
                rank = {"text": 0, "icon": 1, "space": 2}  # say it of the text (a box's first), else the icon
                clashes.append(tuple(sorted((a, b), key=lambda thing: (rank[_kind(thing)], not thing.source))))  # type: ignore[arg-type]
        labels = {id(text): label_key(template, text) for text, _ in clashes}
        # the number that put a text over an icon put it over whatever else it is over too (a caption moved down onto its icon
        # reaches the icon's number as well: one line, at that number)
        placing: dict[int, str] = {}
        for text, other in clashes:
            number = placing_number(text, other, labels[id(text)])
            if number is not None:
                placing.setdefault(id(text), number)
        # a label clashes because its words grew (strings.win_label) unless what the numbers place clashes too (a slot moved)
        moved = any(not text.source and labels[id(text)] is None and id(text) not in placing for text, _ in clashes)
        # track spaces printed over each other: the number that spaces them is also why their numbers do not fit
        spaced = next((_number_key(template, a, b) for a, b in clashes if _kind(a) == _kind(b) == "space"), None)
        for text, other in clashes:
            by_numbers = spaced if spaced is not None else "numbers" if moved else _number_key(template, text, other)
            key = (f"boxes.{text.source}" if text.source else placing.get(id(text))
                   or (None if moved else labels[id(text)]) or by_numbers)
            path, line = template_line(template, key)
            said = (str(path), key)
            if said in seen:
                continue
            seen.add(said)
            if said in found:
                problem, count = found[said]
                found[said] = (problem, count + 1)
                continue
            own = _kind(text) == "text" and _kind(other) == "space" and not text.source
            clash = "does not fit inside its track space" if own else f"is printed over {_name(other)}"
            message = (f"{_name(text)} {clash} (on {face.id}"
                       f"{'' if face.board_cards == 1 else f', card {face.board_index + 1}'}); move or shrink one of them")
            fix = _traced_clash(template, text, other, own) if key == "numbers" else None
            if fix is not None:  # the key that placed the two, traced (forty-sixth pnp breaker, findings 12, 13)
                key, message = f"numbers.{fix[0]}", f"{message.rsplit('; ', 1)[0]}, {traced_words(fix)}"
                path, line = template_line(template, key)
                said = (str(path), key)
                if said in found:
                    continue
            found[said] = (FitProblem("templates", key, "template", message, box=text.source, path=str(path), line=line), 1)
    problems = []
    for problem, count in found.values():
        if count > 1:
            problem = FitProblem(problem.record_id, problem.field, problem.kind,
                                 problem.message.replace(" (on ", f" (on {count} faces, the first ", 1),
                                 box=problem.box, path=problem.path, line=problem.line)
        problems.append(problem)
    return problems


def off_card_line_problems(faces: Iterable) -> list[FitProblem]:
    """One ``"template"`` :class:`FitProblem` per template whose numbers draw a rule (a :class:`~pnp.drawing.Line`
    not inside a clipped group) past the card's bleed: it would print across the next card of the sheet
    (seventeenth breaker: an emblem rule of 70 mm on a 63 mm card ran through its row of cards). Named at the
    template's ``[numbers]``, with its numbers that place rules, or at the one rule number changed from the shipped
    templates (:func:`pnp.layout.template.changed_number`) with its value and the shipped one; boards (drawn clipped,
    card by card) are not checked here."""
    found: dict[str, FitProblem] = {}
    for face in faces:
        template: Path | None = getattr(face, "template", None)
        if template is None or face.board_cards > 1 or str(template) in found:
            continue
        width, height, bleed = face.drawing.width_mm, face.drawing.height_mm, face.drawing.bleed_mm
        worst = 0.0  # how far past the bleed (a rule may run into the bleed, as a band's edge does)
        stray = 0.0  # how far an end stops between the safe area and the bleed's edge (across the frame, cut off)
        safe = LAID_OUT_SAFE_MM * getattr(face, "scale", 1.0)
        for line, transforms in _unclipped_lines(face.drawing.items, ()):
            box = _outer_box(Box(min(line.x1, line.x2), min(line.y1, line.y2), abs(line.x2 - line.x1), abs(line.y2 - line.y1)), transforms)
            worst = max(worst, -box.x - bleed, box.right - width - bleed, -box.y - bleed, box.bottom - height - bleed)
            for edge, limit in ((box.x, 0.0), (box.y, 0.0)):
                if -bleed + OVERLAP_SLACK_MM < edge < min(safe, limit + safe) - OVERLAP_SLACK_MM:
                    stray = max(stray, safe - edge)
            for edge, far in ((box.right, width), (box.bottom, height)):
                if far - safe + OVERLAP_SLACK_MM < edge < far + bleed - OVERLAP_SLACK_MM:
                    stray = max(stray, edge - (far - safe))
        if worst <= OVERLAP_SLACK_MM and stray <= OVERLAP_SLACK_MM:
            continue
        numbers = sorted(name for name in load_template(template.stem, template.parent).numbers if "rule" in name)
        changed = changed_number(template)  # the one rule number the designer changed: said at it, alone (thirty-first
        # pnp breaker, LOW 21: `emblem_rule_half_width = 30` was said at [numbers] with a dozen rule keys)
        # the one number changed, whatever its name (thirty-fifth pnp breaker, MED 11: `rows_right = 66.5`, `middle_w = 70`
        # were said at [numbers] with a list of line widths that left out the key just edited; the frame check's bound at
        # that key, said with this line, is the one kept)
        edited = changed[0] if changed is not None else None
        keys = (f" ({edited} is {load_template(template.stem, template.parent).number(edited):g}, shipped {changed[1]:g})"
                if edited is not None and changed is not None else f" ({', '.join(numbers)})" if numbers else "")
        # the shipped templates unknown: the key that placed the rule, traced (forty-sixth pnp breaker, finding 13:
        # `middle_top = -36` listed eleven rule widths, none of which moves the rule back)
        fix = traced_fix(template, worst if worst > OVERLAP_SLACK_MM else stray) if edited is None else None
        if fix is not None:
            edited = fix[0]
            keys = ""
        what = (f"runs {excess_mm(worst)} past the bleed (on {face.id}), onto the next card of the sheet; shorten it{keys}"
                if worst > OVERLAP_SLACK_MM else  # else an end stops in the margin or the bleed: across the frame, cut at the trim
                f"ends {excess_mm(stray)} outside the {LAID_OUT_SAFE_MM:g} mm safe area, short of the bleed's edge (on {face.id}): it "
                f"crosses the frame and is cut at the trim; keep it inside, or run it to the bleed{keys}")
        if fix is not None:
            what = re.split(r"; shorten it$|: it crosses", what)[0] + f", {traced_words(fix)}"
        key = f"numbers.{edited}" if edited is not None else "numbers"
        path, line_number = template_line(template, key)
        found[str(template)] = FitProblem("templates", key, "template", f"a rule the layout draws {what}",
                                          path=str(path), line=line_number)
    return list(found.values())


def _unclipped_lines(items: Iterable, transforms: tuple[tuple[float, float, float], ...]) -> Iterable[tuple[Line, tuple]]:
    for item in items:
        if isinstance(item, Group):
            if item.clip is None:
                yield from _unclipped_lines(item.items, transforms + ((item.dx, item.dy, item.rotation),))
        elif isinstance(item, Line):
            yield item, transforms
