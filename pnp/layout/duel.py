"""Layouts of *Ruin & Renewal I* (two players) and the card backs of both games.

Same conventions as :mod:`pnp.layout.solo`: each function takes ``(record, database, make)`` and
returns ``[(face id, builder), ...]``.
"""
from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

from pnp import fonts
from pnp.database import Back, Database, Location, PlayerCard, Summary
from pnp.drawing import Box, Circle, Group, Icon, Line, Rect
from pnp.layout.common import (
    BLACK,
    LINES_APART_MM,
    WHITE,
    CardBuilder,
    first_passing_tenth,
    footer,
    frame,
    full_bleed,
    hatch,
    icon_centred,
    label,
    numbered_box,
    ornament_rule,
    tint,
    title_band,
)
from pnp.layout.icon_ink import icon_ink
from pnp.layout.problems import FitProblem
from pnp.layout.solo import Make, card_size, fitting, framed_card, keep_space_outlines_apart
from pnp.layout.template import changed_number
from pnp.oneline import quoted
from pnp.text import INLINE_ICONS, icon_meant, measure, text_width_mm
from pnp.units import FONT_METRIC_SLACK_MM, MM_PER_PT, ROUNDING_SLACK, excess_mm


def back(card: Back, db: Database, make: Make):
    """A card back: the deck colour into the bleed, fine hatching, an engraved frame, emblem and title."""
    card_w, card_h = card_size(db)
    b = make("back", card_w, card_h)
    t = b.template
    colour = card.color
    b.add(full_bleed(card_w, card_h, b.bleed, colour))
    b.add(hatch(Box(-b.bleed, -b.bleed, card_w + 2 * b.bleed, card_h + 2 * b.bleed), tint(colour, t.number("hatch_tint"), BLACK),
                t.number("hatch_spacing"), t.number("hatch_width")))
    line = t.color("line")
    inset, gap = t.number("frame_inset"), t.number("inner_gap")
    outer_line = Rect(inset, inset, card_w - 2 * inset, card_h - 2 * inset, stroke=line, stroke_width=t.number("line_width"),
                      radius=t.number("line_radius"), named="the frame's outer line")
    inner_line = Rect(inset + gap, inset + gap, card_w - 2 * inset - 2 * gap, card_h - 2 * inset - 2 * gap, stroke=line,
                      stroke_width=t.number("inner_line_width"), radius=t.number("inner_line_radius"),
                      named="the frame's inner line")
    b.add(outer_line, inner_line)
    b.keep_frame_lines_apart(outer_line, inner_line, "line_width", "inner_line_width", "inner_gap")
    b.keep_rounded_rules_apart(outer_line, inner_line, "line_radius", "inner_line_radius", "inner_gap")
    written = t.optional_string(card.id).split()
    # one emblem or two: each back reads the numbers of both, whichever this database prints (twenty-fourth breaker)
    t.could_read("numbers.emblem_scale", "numbers.emblem_pair_scale", "numbers.emblem_pair_spacing")
    if not written and card.id in t.strings:  # twenty-fourth breaker: `= ""` was told to add the key written there
        b.problems.append(b._at_string(card.id, "empty: a back's emblem is one or two icons of templates/icons, "
                                                "separated by a space"))
    elif not written:  # a back with no emblem prints an empty disc (twenty-first breaker: a renamed back id passed check)
        b.problems.append(FitProblem(card.id, "id", "unknown icon", f"templates/back.toml has no emblem for this back: add "
                                                                    f"\"{card.id}\" = \"ICON\" to its [strings] (icons of templates/icons)"))
    # twenty-second breaker: `kye` failed the build as "cannot write", `:key:` was blamed on [numbers], a third icon was dropped
    icons = [name for name in written if name in INLINE_ICONS]
    strange = [name for name in written if name not in INLINE_ICONS]
    if strange:
        meant = icon_meant(strange[0].strip(":").replace(",", " ").split()[0]) if strange[0].strip(":,") else None
        hint = f"did you mean {meant}?" if meant else f"icons are: {', '.join(sorted(INLINE_ICONS))}"  # twenty-third breaker: `eldr`
        b.problems.append(b._at_string(card.id, f"{quoted(strange[0], 30)} is no icon of templates/icons; {hint}"
                                                f" (names separated by spaces)"))
    elif len(icons) > 2:
        b.problems.append(b._at_string(card.id, f"{len(icons)} icons; a back's emblem holds one or two"))
    size = t.number("emblem_size")
    y = t.number("emblem_y")
    cx = card_w / 2
    disc = Circle(cx, y + size / 2, size / 2 + t.number("emblem_ring"), fill=tint(colour, t.number("emblem_tint"), BLACK),
                  stroke=line, stroke_width=t.number("emblem_rule_width"), placed_by="numbers.emblem_y",
                  grown_by=("emblem_ring", "emblem_rule_width"))
    b.add(disc)
    # twenty-fifth breaker: a disc across the frame's rules and off the card, an icon out of its disc, passed check
    # the disc keeps LINES_APART_MM from the inner line's ink, or the two print as one line (thirty-first breaker, finding
    # 9: `emblem_size` advised "36.4 (with emblem_y = 9.5)" put the ring on the inner line)
    inner = inset + gap + t.number("inner_line_width") / 2
    kept = inner + LINES_APART_MM  # how far in from each edge the disc's ink stays
    # (a frame moved in past the rule's ends is said first, with the value that fits: the disc's line has none)
    _keep_rule_inside_frame(b, inner, card_w)
    b.keep_disc_inside(disc, Box(kept, kept, card_w - 2 * kept, card_h - 2 * kept), "the emblem's disc",
                       f"the card frame's inner rule or within {LINES_APART_MM:g} mm of it", "emblem_y", "emblem_size")
    if len(icons) == 1:
        emblem = icon_centred(icons[0], cx, y + size / 2, size * t.number("emblem_scale"))
        b.add(emblem)
        b.keep_icons_in_disc(disc, [emblem], "the emblem's disc", "emblem_scale", ring="emblem_ring")
    elif icons:  # two emblems side by side
        small = size * t.number("emblem_pair_scale")
        pair = [icon_centred(name, cx + (index - 0.5) * small * t.number("emblem_pair_spacing"), y + size / 2, small)
                for index, name in enumerate(icons[:2])]
        b.add(*pair)
        b.keep_icons_in_disc(disc, pair, "the emblem's disc", "emblem_pair_scale", "emblem_pair_spacing",
                             ring="emblem_ring")
    # twenty-sixth breaker: the ornament rule through the icon and its disc, and check passed
    b.keep_rule_off_disc(disc, t.number("rule_y"), t.box("title").box, "the emblem's disc",
                         Box(kept, kept, card_w - 2 * kept, card_h - 2 * kept))
    b.add(*ornament_rule(t, t.number("rule_left"), t.number("rule_right"), t.number("rule_y"), line))
    b.text("title", card.title, "title")
    b.text("subtitle", card.subtitle, "subtitle")
    return [(card.id, b)]


def _track(b: CardBuilder, spaces: int, side: str, emblem: str, colour: str) -> None:
    """One side's cube track in local coordinates (0..``b.width`` wide, 0..half height tall, the table
    edge at the bottom): a label row near the middle of the card, then the spaces, the last nearest
    the player."""
    t = b.template
    ink = t.color("ink")
    box = t.number("box")
    b.add(Rect(0, 0, b.width, t.number("label_band_h"), fill=tint(colour, t.number("label_band_tint"), WHITE)))
    icon_dx, icon_dy, icon_size = t.number("label_icon_dx"), t.number("label_icon_dy"), t.number("label_icon_size")
    b.add(Icon(emblem, icon_dx, icon_dy, icon_size))
    b.add(Icon(emblem, b.width - (icon_dx + icon_size), icon_dy, icon_size))
    b.text(f"{side} label", t.string(side), "side_label", color=colour)
    _keep_label_icons_off_spaces(b, spaces, emblem, side)
    _keep_label_icons_in_band(b, emblem, side)
    _keep_label_band_off_track(b)
    for space, (x, y) in enumerate(_space_places(t.number, spaces, b.width), start=1):
        last = space == spaces
        b.add(*numbered_box(x, y, box, str(space), ink, t.color("control") if last else t.color("space"),
                            text_size=t.number("space_size"), family="numerals", radius=t.number("space_radius"),
                            stroke_width=t.number("control_rule_width") if last else t.number("space_rule_width"),
                            stroke_key="numbers.control_rule_width" if last else "numbers.space_rule_width"))
        if last:
            if 2 * t.number("space_radius") >= box:  # twenty-seventh breaker: was "shorten 'take'" into -5.7 mm
                b.problems.append(b.at_number("space_radius", f"{t.number('space_radius'):g} mm rounds off more than the "
                                                              f"track space ({box:g} mm across) has; set space_radius to "
                                                              f"less than half of it ({box / 2:g})"))
            else:
                _control_fits(b, box)
            b.add(*label(x + box / 2, y + box - t.number("control_dy"), t.string("control"), t.number("control_size"), ink,
                         family="serif-italic", placed_by=("", "numbers.control_dy")))


def _space_places(number: Callable[[str], float], spaces: int, width: float) -> list[tuple[float, float]]:
    """The top-left corners (mm, a side's panel ``width`` mm wide) of the ``spaces`` track spaces of a Location's side,
    space 1 first: one row of ``box`` mm spaces ``pitch`` apart, centred, from ``track_top``; more than
    ``one_row_spaces``, two rows as a snake."""
    box, pitch = number("box"), number("pitch")
    columns = spaces if spaces <= int(number("one_row_spaces")) else math.ceil(spaces / 2)  # more spaces: two rows, a snake
    x0 = (width - (columns * pitch - (pitch - box))) / 2
    places = []
    for space in range(1, spaces + 1):
        row, along = divmod(space - 1, columns)
        if row % 2:
            along = columns - 1 - along
        places.append((x0 + along * pitch, number("track_top") + row * (box + number("row_gap"))))
    return places


LABEL_ICON_KEYS = ("label_icon_size", "label_icon_dy", "label_icon_dx", "track_top", "box", "pitch", "control_rule_width",
                   "space_rule_width", "row_gap")
"""The ``[numbers]`` keys of ``location.toml`` that place a side's label icons or its track spaces: an icon run into a
space's outline (:func:`_label_icon_depth`) is said at the one of them the designer changed, else at ``label_icon_size``."""


def _label_icon_depth(number: Callable[[str], float], spaces: int, width: float, emblem: str) -> tuple[float, int]:
    """How far (mm) the ink of a side's label icons (:func:`pnp.layout.icon_ink.icon_ink`) comes nearer than
    :data:`LINES_APART_MM` to the ink of a track space's outline, or under the space (drawn after the icons, the space
    hides them), with that space's number; ``(0.0, 0)`` when every icon keeps clear."""
    size, dy = number("label_icon_size"), number("label_icon_dy")
    lefts = (number("label_icon_dx"), width - (number("label_icon_dx") + size))
    points = [(left + x * size / 100, dy + y * size / 100, half * size / 100) for left in lefts for x, y, half in icon_ink(emblem)]
    box, worst, which = number("box"), 0.0, 0
    for space, (x, y) in enumerate(_space_places(number, spaces, width), start=1):
        edge = (number("control_rule_width") if space == spaces else number("space_rule_width")) / 2
        for px, py, half in points:
            away = math.hypot(max(x - edge - px, 0.0, px - (x + box + edge)), max(y - edge - py, 0.0, py - (y + box + edge)))
            depth = LINES_APART_MM + half - away
            if depth > worst + ROUNDING_SLACK:
                worst, which = depth, space
    return worst, which


def _keep_label_icons_off_spaces(b: CardBuilder, spaces: int, emblem: str, side: str) -> None:
    """A ``"template"`` problem when a side's label icon runs into the outline of one of its track spaces or within
    :data:`LINES_APART_MM` of it (:func:`_label_icon_depth`): the space is drawn over the icon and the two inks merge.
    Said at the one of :data:`LABEL_ICON_KEYS` the designer changed (else ``label_icon_size``) with the nearest value, in
    tenths of a mm toward the shipped one, that keeps every icon clear. Thirty-sixth pnp breaker, HIGH 2:
    `label_icon_size = 6` and 6.5 ran the wardens' shield into the Control space's 0.6 mm outline, and check passed
    (the overlap check's rough measure of an icon let 1 mm of it across)."""
    t = b.template
    depth, space = _label_icon_depth(t.number, spaces, b.width, emblem)
    if depth <= 0:
        return
    changed = changed_number(t.path)
    key, shipped = changed if changed is not None and changed[0] in LABEL_ICON_KEYS else ("label_icon_size", None)
    value = t.number(key)
    up = shipped > value if shipped is not None else False

    def passes(tried: float) -> bool:
        return _label_icon_depth(lambda name: tried if name == key else t.number(name), spaces, b.width, emblem)[0] <= 0

    fits = first_passing_tenth(value, shipped, up, passes)
    since = f", since {key} is {value:g} (the shipped templates have {shipped:g})" if shipped is not None else ""
    advice = f"set {key} to {'at least' if up else 'at most'} {fits:g}" if fits is not None else f"change [numbers] {key}"
    b.problems.append(b.at_number(key, f"a label icon ({emblem}) of the {side} track runs {excess_mm(depth)} into the outline of track "
                                       f"space {space} (or within {LINES_APART_MM:g} mm of it), which is drawn over it{since}: "
                                       f"{advice}", over=depth))


LABEL_BAND_KEYS = ("label_icon_dy", "label_icon_size", "label_band_h")
"""The ``[numbers]`` keys of ``location.toml`` that place a side's label icons in its label band, or size the band: an icon
out of its band (:func:`_label_icon_out_of_band`) is said at the one of them the designer changed, else at ``label_icon_dy``
(at ``label_icon_size`` for an icon taller than the band)."""


def _label_icon_out_of_band(number: Callable[[str], float], emblem: str) -> tuple[float, float]:
    """How far (mm) the ink of a side's label icons (:func:`pnp.layout.icon_ink.icon_ink`) reaches above the top of its
    label band (toward the middle band and its rule) and below its bottom (toward the track), each 0.0 when inside."""
    size, dy = number("label_icon_size"), number("label_icon_dy")
    ink = icon_ink(emblem)
    top = min(dy + (y - half) * size / 100 for _, y, half in ink)
    bottom = max(dy + (y + half) * size / 100 for _, y, half in ink)
    return max(0.0, -top), max(0.0, bottom - number("label_band_h"))


def _keep_label_icons_in_band(b: CardBuilder, emblem: str, side: str) -> None:
    """A ``"template"`` problem when a side's label icons reach out of the label band they label (:func:`_label_icon_out_of_band`):
    above it they print on the rule that closes the middle panel and hang into the name panel, below it into the track.
    Said at the one of :data:`LABEL_BAND_KEYS` the designer changed (else ``label_icon_dy``, or ``label_icon_size`` for an
    icon taller than the band) with the nearest value, in tenths of a mm toward the shipped one, that keeps the icons in
    the band. Thirty-seventh pnp breaker, MED 7: `label_icon_dy = -3` printed the Wardens' shields on the band's thick rule,
    out of their band, and check passed; `label_icon_size = 5.2` (the track check's advice) stood them out of the 4.4 mm band."""
    t = b.template
    above, below = _label_icon_out_of_band(t.number, emblem)
    if above <= ROUNDING_SLACK and below <= ROUNDING_SLACK:
        return
    changed = changed_number(t.path)
    if changed is not None and changed[0] in LABEL_BAND_KEYS:
        key, shipped = changed[0], float(changed[1])
    else:
        ink_h = t.number("label_icon_size") * (max(y + h for _, y, h in icon_ink(emblem)) - min(y - h for _, y, h in icon_ink(emblem))) / 100
        key, shipped = ("label_icon_size" if ink_h > t.number("label_band_h") else "label_icon_dy"), None
    value = t.number(key)
    up = shipped > value if shipped is not None else (key == "label_band_h" or (key == "label_icon_dy" and above > below))

    def passes(tried: float) -> bool:
        return max(_label_icon_out_of_band(lambda name: tried if name == key else t.number(name), emblem)) <= ROUNDING_SLACK

    fits = first_passing_tenth(value, shipped, up, passes)
    since = f", since {key} is {value:g} (the shipped templates have {shipped:g})" if shipped is not None else ""
    where = ("above it, onto the rule that closes the middle panel" if above >= below else "below it, toward its track")
    advice = f"set {key} to {'at least' if up else 'at most'} {fits:g}" if fits is not None else f"change [numbers] {key}"
    b.problems.append(b.at_number(key, f"a label icon ({emblem}) of the {side} track reaches {excess_mm(max(above, below))} out of "
                                       f"its {t.number('label_band_h'):g} mm label band, {where}: an icon stays inside the band it labels"
                                       f"{since}: {advice}", over=max(above, below)))


BAND_TRACK_KEYS = ("label_band_h", "track_top", "space_rule_width", "control_rule_width")
"""The ``[numbers]`` keys of ``location.toml`` that place the bottom of a side's label band or the top of its track spaces'
outlines (:func:`_label_band_under_track`)."""


def _label_band_under_track(number: Callable[[str], float]) -> float:
    """How far (mm) the bottom of a side's label band (``label_band_h`` below the panel's top) comes nearer than
    :data:`LINES_APART_MM` to the top of its track spaces' outline ink: ``track_top`` less half the wider of
    ``space_rule_width`` and ``control_rule_width`` (the Control space may be in the first row); 0.0 when it keeps clear."""
    outline = number("track_top") - max(number("space_rule_width"), number("control_rule_width")) / 2
    return max(0.0, number("label_band_h") + LINES_APART_MM - outline)


def _keep_label_band_off_track(b: CardBuilder) -> None:
    """A ``"template"`` problem when a side's label band runs down to its track spaces or under them
    (:func:`_label_band_under_track`): the spaces then sit half on the tinted band, half off it. Thirty-ninth pnp breaker,
    LOW 9: `label_band_h = 8` (with `track_top = 6.0`) ran the "Wardens"/"Shadowmajik" band behind the top half of every
    Location's spaces, and check passed (`label_band_h = 3` was refused, "at least 4", and nothing bounded it above).
    Said at the one of :data:`BAND_TRACK_KEYS` the designer changed (else ``label_band_h``), with the nearest value in
    tenths of a mm (toward the shipped one, when known) that keeps the band :data:`LINES_APART_MM` above the outlines:
    for the shipped track, `label_band_h` at most 5.5."""
    t = b.template
    over = _label_band_under_track(t.number)
    if over <= ROUNDING_SLACK:
        return
    changed = changed_number(t.path)
    key, shipped = (changed[0], float(changed[1])) if changed is not None and changed[0] in BAND_TRACK_KEYS else ("label_band_h", None)
    value = t.number(key)
    up = shipped > value if shipped is not None else key == "track_top"

    def passes(tried: float) -> bool:
        return _label_band_under_track(lambda name: tried if name == key else t.number(name)) <= ROUNDING_SLACK

    fits = first_passing_tenth(value, shipped, up, passes)
    since = f", since {key} is {value:g} (the shipped templates have {shipped:g})" if shipped is not None else ""
    advice = f"set {key} to {'at least' if up else 'at most'} {fits:g}" if fits is not None else f"change [numbers] {key}"
    outline = t.number("label_band_h") + LINES_APART_MM - over
    b.problems.append(b.at_number(key, f"the label band of each side ({t.number('label_band_h'):g} mm tall) runs into its track "
                                       f"spaces, whose outlines start {outline:.2f} mm down (track_top less half the outline's "
                                       f"width): it must end {LINES_APART_MM:g} mm or more above them{since}: {advice}", over=over))


def _control_fits(b: CardBuilder, box: float) -> None:
    """A ``"template"`` problem when the Control label (``strings.control`` at ``control_size`` pt) is wider than the
    straight part of its track space: ``box`` (mm) less a corner radius (``space_radius``, mm) on each side. Said at
    ``numbers.space_radius`` with the largest radius that keeps the label inside (rounded down to 0.1 mm) when
    ``space_radius`` is the one number the designer changed (:func:`pnp.layout.template.changed_number`) and a smaller
    radius fits the label (twenty-eighth breaker, leftovers: `space_radius = 5` asked to shorten 'take'); else at
    ``strings.control`` (:meth:`CardBuilder.string_problem`)."""
    t = b.template
    text, size, radius = t.string("control"), t.number("control_size"), t.number("space_radius")
    width = text_width_mm(text, "serif-italic", size)
    changed = changed_number(t.path)
    if (width > box - 2 * radius + FONT_METRIC_SLACK_MM and changed is not None and changed[0] == "space_radius"
            and width <= box - 2 * changed[1] + FONT_METRIC_SLACK_MM):
        most = max(0.0, math.floor((box - width + FONT_METRIC_SLACK_MM) / 2 * 10 + 1e-6) / 10)
        b.problems.append(b.at_number("space_radius", f"{radius:g} mm rounds the Control space ({box:g} mm across) so "
                                                      f"much that {quoted(text)} ({width:.1f} mm at {size:g} pt) crosses "
                                                      f"its rounded corners; set space_radius to at most {most:g}"))
        return
    b.string_problem("control", text, "serif-italic", size, box - 2 * radius)


def location(card: Location, db: Database, make: Make):
    """A Location: the name in the middle (read from the Wardens' side), Resonance icons, and a cube
    track per side, the Shadowmajik half turned to face the other player."""
    card_w, card_h = card_size(db)
    b = make("location", card_w, card_h)
    t = b.template
    ink = t.color("ink")
    frame(b, t.number("border"), t.color("border"), t.color("panel"), ink)
    middle = Box(t.number("middle_x"), t.number("middle_top"), t.number("middle_w"), t.number("middle_height"))
    b.add(Line(middle.x, middle.y, middle.right, middle.y, ink, t.number("middle_rule_width"),
               stroke_key="numbers.middle_rule_width"))
    b.add(Line(middle.x, middle.bottom, middle.right, middle.bottom, ink, t.number("middle_rule_width"),
               stroke_key="numbers.middle_rule_width"))
    b.text("name", card.name, "name")
    size, gap = t.number("resonance_size"), t.number("resonance_gap")
    row = len(card.resonance) * (size + gap) - gap
    for index, resonance in enumerate(card.resonance):
        b.add(Icon(resonance, card_w / 2 - row / 2 + index * (size + gap), t.number("resonance_y"), size))
    if card.text:
        b.text("text", card.text, "flavour")
    footer(b, card.id)
    half = t.number("half_height")
    track_x, track_gap = t.number("track_x"), t.number("track_gap")
    for side, emblem, dx, dy, rotation in (("wardens", "wardens", track_x, middle.bottom + track_gap, 0.0),
                                            ("shadowmajik", "shadowmajik", card_w - track_x, middle.y - track_gap, 180.0)):
        panel = make("location", card_w - 2 * track_x, half)
        _track(panel, card.track_spaces, side, emblem, t.color(side))
        b.problems.extend(panel.problems)
        b.add(Group(tuple(panel.items), dx=dx, dy=dy, rotation=rotation))
    return [(card.id, b)]


POINT_TRACK_KEYS = ("track_top", "track_pitch", "track_box")
"""The ``[numbers]`` keys of ``player.toml`` that say how many spaces of the point track end above the footer."""


def _point_track_cut_by_template_edit(b: CardBuilder, points_min: int, points_max: int, room: int) -> bool:
    """Whether the point track from ``points_min`` to ``points_max`` (``cards.toml`` ``[duel.rules]``) asks for more spaces
    than the ``room`` the player card holds above the footer only because the designer changed one of
    :data:`POINT_TRACK_KEYS` (the shipped value holds them all): then a ``"template"`` problem is said at that key, with
    the nearest value (in tenths of a mm) at which every space ends above the footer. Forty-third pnp breaker, MED 2:
    `track_top = 15.5`, `track_pitch = 10` and `track_box = 11.7` were blamed on `points_max` in cards.toml, the game's
    fixed 0-6 track, which no one had changed, with no bound for the key changed."""
    changed = changed_number(b.template.path)
    spaces = points_max - points_min + 1
    if changed is None or changed[0] not in POINT_TRACK_KEYS or isinstance(changed[1], bool) \
            or not isinstance(changed[1], (int, float)):
        return False
    t = b.template
    key, shipped = changed[0], float(changed[1])

    def holds(tried: float) -> int:
        values = {name: t.number(name) for name in POINT_TRACK_KEYS} | {key: tried}
        return fitting(values["track_top"], values["track_pitch"], values["track_box"], t.box("footer").y)
    if holds(shipped) < spaces:
        return False  # the shipped value holds no more spaces: the rules' track is what asks too much
    value = t.number(key)
    up = shipped > value
    fits = first_passing_tenth(value, shipped, up, lambda tried: holds(tried) >= spaces)
    advice = f"set {key} to {'at least' if up else 'at most'} {fits:g}" if fits is not None else f"change it back toward {shipped:g}"
    b.problems.append(b.at_number(key, f"the points track from {points_min} to {points_max} ({spaces} spaces) runs into the "
                                       f"footer: the player cards hold {room} spaces above it, since {key} is {value:g} (the "
                                       f"shipped templates have {shipped:g}): {advice}",
                                  over=abs(value - fits) if fits is not None else 0.0))
    return True


def player(card: PlayerCard, db: Database, make: Make):
    """A player card: title, the 0-6 point track down the left, the six die-face spells, corner labels."""
    b = make("player", *card_size(db))
    t = b.template
    ink = t.color("ink")
    colour = t.color(card.side)
    frame(b, t.number("border"), colour, t.color("panel"), ink)
    title_band(b, t.box("title_band").box, colour, tint(colour, t.number("title_hatch_tint"), BLACK), ink)
    b.text("title", card.title, "title")
    b.text("corner", t.string("corner_top"), "corner_top_left")
    b.text("corner", t.string("corner_top"), "corner_top_right")
    icon_y, icon_size = t.number("side_icon_y"), t.number("side_icon_size")
    b.add(Icon(card.side, t.number("side_icon_left_x"), icon_y, icon_size))
    b.add(Icon(card.side, t.number("side_icon_right_x"), icon_y, icon_size))
    # point track, 6 at the top
    x = t.number("track_x")
    box, pitch = t.number("track_box"), t.number("track_pitch")
    b.check("points", card.points, "serif-italic")
    points_max = db.duel.rules.points_max
    points_min = db.duel.rules.points_min
    room = fitting(t.number("track_top"), pitch, box, t.box("footer").y)  # spaces above the footer
    if points_max - points_min + 1 > room:
        if not _point_track_cut_by_template_edit(b, points_min, points_max, room):
            b.problems.append(FitProblem("duel.rules", "points_max", "too many",
                                         f"the points track from {points_min} to {points_max} needs "
                                         f"{points_max - points_min + 1} spaces; the player cards hold {room} above the "
                                         f"footer: set points_max to at most {points_min + room - 1}"))
        points_max = points_min + room - 1
    keep_space_outlines_apart(b, "track_pitch", prefix="track", what="point track spaces")
    for index, value in enumerate(range(points_max, points_min - 1, -1)):
        y = t.number("track_top") + index * pitch
        b.add(Rect(x, y, box, box, fill=t.color("space"), stroke=ink, stroke_width=t.number("track_rule_width"),
                   stroke_key="numbers.track_rule_width",
                   radius=t.number("space_radius"), space=True))
        b.add(*label(x + box / 2, y + box / 2 + t.number("track_number_dy"), str(value), t.number("track_number_size"), ink,
                     family="numerals", placed_by=("", "numbers.track_number_dy")))
        b.add(*label(x + box / 2, y + box - t.number("track_points_dy"), card.points, t.number("track_points_size"),
                     t.color("muted"), family="serif-italic", placed_by=("", "numbers.track_points_dy")))
    # spells
    sx = t.number("spells_x")
    name_spec, cost_spec, text_spec = t.box("spell_name"), t.box("spell_cost"), t.box("spell_text")
    die, gap = t.number("die_size"), t.number("die_gap")
    spell_pitch = t.number("spell_pitch")
    for index, spell in enumerate(sorted(card.spells, key=lambda s: s.face)):
        field = f"spells[{card.spells.index(spell)}]"  # the spell's place in the record, for its cards.toml line
        y = t.number("spells_top") + index * spell_pitch
        if index % 2 == 0:
            shade_x = sx - t.number("shade_dx")
            b.add(Rect(shade_x, y - t.number("shade_dy"), t.number("shade_right") - shade_x, spell_pitch - t.number("shade_gap"),
                       fill=t.color("row_shade")))
        b.add(Icon(f"d6-{spell.face}", sx, y + t.number("die_dy"), die))
        cost = t.formatted("spell_cost", cost=spell.cost, points=card.points)
        if spell.resonance:
            cost += t.formatted("spell_resonance", resonance=spell.resonance)
        fitted = b.text(f"{field}.cost", cost, cost_spec,
                        box=Box(t.number("cost_right") - cost_spec.w, y, cost_spec.w, cost_spec.h))
        # The name ends a word space before the cost's first letter (fourteenth breaker: a long name shrunk
        # to its box ran into the cost, "Lantern Ward of the Wardens2 MP"): the name's box stops there.
        name_x = sx + die + gap
        cost_left = t.number("cost_right") - text_width_mm(cost, cost_spec.font, fitted.size)
        name_room = cost_left - name_x - fonts.string_width_mm(" ", name_spec.font, name_spec.size[0])
        b.text(f"{field}.name", spell.name, name_spec, box=Box(name_x, y, min(name_spec.w, name_room), name_spec.h))
        b.text(f"{field}.text", spell.text, text_spec,
               box=Box(sx + die + gap, y + t.number("text_dy"), t.number("text_right") - sx - die - gap, text_spec.h))
    b.text("corner", t.string("corner_bottom_left"), "corner_bottom_left")
    b.text("corner", t.string("corner_bottom_right"), "corner_bottom_right")
    footer(b, card.id)
    return [(card.id, b)]


def _size_steps(spec) -> list[float]:
    """The sizes of a template box's range, largest first, on the 0.1 pt grid the text fitter uses."""
    high, low = round(spec.size[0] * 10), round(spec.size[1] * 10)
    return [step / 10 for step in range(high, low - 1, -1)]


def summary(card: Summary, db: Database, make: Make):
    """A rules summary: title band and headed sections, set together: every heading at one size and
    every section text at one size, the largest at which all the sections fit one below the other;
    the room left over is shared out between the sections."""
    b, t, ink = framed_card(make, "summary", db)
    title_band(b, t.box("title_band").box, t.color("band"), t.color("band_hatch"), t.color("rule"))
    b.text("title", card.title, "title")
    top, bottom = t.number("sections_top"), t.number("sections_bottom")
    heading_h, gap = t.number("heading_h"), t.number("gap")
    heading, body = t.box("heading"), t.box("section")
    room = bottom - top - len(card.sections) * (heading_h + gap) + gap
    heading_size = next((size for size in _size_steps(heading)
                         if all(fits_box(s.heading, heading.w, heading_h, heading.font, size) for s in card.sections)),
                        heading.size[1])

    def heights(size: float) -> list[float] | None:
        """Each section text's height at ``size``, or None when a line is wider than the box."""
        found = []
        for section in card.sections:
            height, widest = measure(section.text, body.w, body.font, size, line_spacing=body.line_spacing,
                                     paragraph_spacing=body.paragraph_spacing)
            if widest > body.w + ROUNDING_SLACK:
                return None
            found.append(height)
        return found

    size, needed = body.size[1], None
    for candidate in _size_steps(body):
        found = heights(candidate)
        if found is not None and sum(found) <= room + ROUNDING_SLACK:
            size, needed = candidate, found
            break
    smallest = heights(body.size[1]) if needed is None else None
    if needed is None and _too_many_sections(b, card, body, room, top, bottom, heading_h, gap):
        footer(b, card.id)
        return [(card.id, b)]
    if needed is None and smallest is not None:
        # even the smallest size does not fit: every section but the tallest gets its own height, the tallest
        # what is left, so the one overflow reported is there and by exactly what the card lacks (thirteenth
        # breaker: room in proportion to the characters blamed the sections that had not grown)
        tallest = max(range(len(smallest)), key=lambda index: smallest[index])
        boxes = list(smallest)
        boxes[tallest] = max(0.0, room - (sum(smallest) - smallest[tallest]))
    elif needed is None:  # a word wider than the box: room in proportion to the text, the word's overflow reported
        total = sum(max(len(s.text), 1) for s in card.sections)
        boxes = [room * max(len(s.text), 1) / total for s in card.sections]
    else:
        spare = (room - sum(needed)) / len(needed)
        boxes = [height + spare for height in needed]
    heading_spec, body_spec = heading.style_at(heading_size), body.style_at(size)
    y = top
    for index, (section, height) in enumerate(zip(card.sections, boxes)):
        b.text(f"sections[{index}].heading", section.heading, heading_spec, box=Box(heading.x, y, heading.w, heading_h))
        y += heading_h
        b.text(f"sections[{index}].text", section.text, body_spec, box=Box(body.x, y, body.w, height))
        y += height + gap
    footer(b, card.id)
    return [(card.id, b)]


def _too_many_sections(b: CardBuilder, card: Summary, body: Any, room: float, top: float, bottom: float,
                       heading_h: float, gap: float) -> bool:
    """True, with one ``"too many"`` problem at the summary's ``sections`` (its line in ``cards.toml``), when the
    sections of ``card`` cannot all be printed between ``top`` and ``bottom`` (mm, the template's ``sections_top`` and
    ``sections_bottom``) even at the section box ``body``'s smallest size: once every other section has its own height
    (and every section its heading, ``heading_h`` mm, and ``gap`` mm below it), the tallest would have less than one
    line (``room``: the mm left for the section texts). Such a box had no height and the text fitter raised
    (twenty-ninth breaker, finding 1: three sections more crashed ``pnp check`` and ``pnp build``); a tallest section
    with a line or more is left to the fitter, which says it at that section's text (``over by N mm``)."""
    size = body.size[1]
    found = [measure(section.text, body.w, body.font, size, line_spacing=body.line_spacing,
                     paragraph_spacing=body.paragraph_spacing)[0] for section in card.sections]
    line = size * body.line_spacing * MM_PER_PT
    tallest = max(found)
    if room - (sum(found) - tallest) >= line:
        return False
    available = bottom - top
    needed = sum(found) + len(found) * (heading_h + gap) - gap
    fitting_count, used = 0, -gap
    for height in found:
        used += heading_h + gap + height
        if used > available + ROUNDING_SLACK:
            break
        fitting_count += 1
    b.problems.append(FitProblem(card.id, "sections", "too many",
                                 f"{len(found)} sections need {needed:.1f} mm at the smallest sizes "
                                 f"({size:g} pt), the card holds {available:.1f} mm (sections_top to sections_bottom of "
                                 f"templates/{b.template.path.name}): {needed - available:.1f} mm too tall; shorten or "
                                 f"remove sections (the first {fitting_count} fit)", over=needed - available))
    return True


def fits_box(text: str, width: float, height: float, family: str, size: float) -> bool:
    """True when ``text`` at ``size`` pt fits a box ``width`` x ``height`` mm."""
    needed, widest = measure(text, width, family, size)
    return needed <= height + ROUNDING_SLACK and widest <= width + ROUNDING_SLACK


LAYOUTS: dict[str, Callable[..., Any]] = {"location": location, "player": player, "summary": summary, "back": back}
"""Layout function of each printed two-player kind (and of backs, for both games)."""


def _keep_rule_inside_frame(b: CardBuilder, inner: float, card_w: float) -> None:
    """A ``"template"`` problem when the back's ornament rule (``rule_left`` to ``rule_right``, mm across the card) reaches
    past the inside of the engraved frame's inner line (``inner`` mm in from each side edge of a card ``card_w`` mm
    wide): the rule would cross the frame's lines (twenty-eighth breaker, finding 7: `frame_inset = 13` and `14` moved
    the frame inside the rule's ends, and check passed). Said at the frame's number the designer changed
    (``frame_inset``, ``inner_gap``, ``inner_line_width``: :func:`pnp.layout.template.changed_number`) with the largest
    value that fits, else at the end of the rule that reaches out (with its value that fits)."""
    t = b.template
    left, right = t.number("rule_left"), t.number("rule_right")
    past = max(inner - left, right - (card_w - inner))
    if past <= ROUNDING_SLACK:
        return
    said = (f"the ornament rule ({left:g} to {right:g} mm across the card) runs past the frame's inner line "
            f"({inner:.1f} to {card_w - inner:.1f} mm across) and crosses the frame")
    changed = changed_number(t.path)
    if changed is not None and changed[0] in ("frame_inset", "inner_gap", "inner_line_width"):
        value = t.number(changed[0])
        factor = 2.0 if changed[0] == "inner_line_width" else 1.0  # half of the line's width is inside
        most = math.floor((value - factor * past) * 10 + 1e-9) / 10
        b.problems.append(b.at_number(changed[0], f"{said}; set {changed[0]} to at most {most:g}", past))
    elif inner - left >= right - (card_w - inner):
        b.problems.append(b.at_number("rule_left", f"{said}; set rule_left to at least {math.ceil(inner * 10 - 1e-9) / 10:g}", past))
    else:
        b.problems.append(b.at_number("rule_right", f"{said}; set rule_right to at most "
                                                    f"{math.floor((card_w - inner) * 10 + 1e-9) / 10:g}", past))
