"""Layouts of *Ruin & Renewal I* (two players) and the card backs of both games.

Same conventions as :mod:`pnp.layout.solo`: each function takes ``(record, database, make)`` and
returns ``[(face id, builder), ...]``.
"""
from __future__ import annotations

import math

from pnp.database import Back, Database, Location, PlayerCard, Summary
from pnp.drawing import Box, Circle, Group, Icon, Line, Rect
from pnp.layout.common import (CardBuilder, footer, frame, hatch, icon_centred, label, numbered_box, ornament_rule,
                               tint, title_band)
from pnp.layout.solo import Make


def back(card: Back, db: Database, make: Make):
    """A card back: the deck colour into the bleed, fine hatching, an engraved frame, emblem and title."""
    b = make("back", 63, 88)
    t = b.template
    colour = card.color
    b.add(Rect(-b.bleed, -b.bleed, 63 + 2 * b.bleed, 88 + 2 * b.bleed, fill=colour))
    b.add(hatch(Box(-b.bleed, -b.bleed, 63 + 2 * b.bleed, 88 + 2 * b.bleed), tint(colour, 0.85, "#000000"), 1.4, 0.15))
    line = t.color("line")
    inset = t.number("frame_inset")
    b.add(Rect(inset, inset, 63 - 2 * inset, 88 - 2 * inset, stroke=line, stroke_width=0.5, radius=2.0))
    b.add(Rect(inset + 1.2, inset + 1.2, 63 - 2 * inset - 2.4, 88 - 2 * inset - 2.4, stroke=line, stroke_width=0.2, radius=1.4))
    icons = t.strings.get(card.id, "").split()
    size = t.number("emblem_size")
    y = t.number("emblem_y")
    b.add(Circle(31.5, y + size / 2, size / 2 + 3.0, fill=tint(colour, 0.7, "#000000"), stroke=line, stroke_width=0.4))
    if len(icons) == 1:
        b.add(icon_centred(icons[0], 31.5, y + size / 2, size * 0.8))
    elif icons:
        small = size * 0.55
        for index, name in enumerate(icons[:2]):
            b.add(icon_centred(name, 31.5 + (index - 0.5) * small * 0.95, y + size / 2, small))
    b.add(*ornament_rule(14, 49, 49.0, line))
    b.text("title", card.title, "title")
    b.text("subtitle", card.subtitle, "subtitle")
    return [(card.id, b)]


def _track(b: CardBuilder, spaces: int, side: str, emblem: str, colour: str) -> None:
    """One side's cube track in local coordinates (0..57 wide, 0..half height tall, the table edge at
    the bottom): a label row near the middle of the card, then the spaces, the last nearest the player."""
    t = b.template
    ink = t.color("ink")
    box, pitch = t.number("box"), t.number("pitch")
    columns = spaces if spaces <= 5 else math.ceil(spaces / 2)  # more than 5 spaces: two rows, a snake
    b.add(Rect(0, 0, 57, 4.4, fill=tint(colour, 0.18, "#ffffff")))
    b.add(Icon(emblem, 1.0, 0.4, 3.6))
    b.add(Icon(emblem, 57 - 4.6, 0.4, 3.6))
    b.text(f"{side} label", t.string(side), "side_label", color=colour)
    width = columns * pitch - (pitch - box)
    x0 = (57 - width) / 2
    top = 6.0
    for space in range(1, spaces + 1):
        row, along = divmod(space - 1, columns)
        if row % 2:
            along = columns - 1 - along
        x = x0 + along * pitch
        y = top + row * (box + t.number("row_gap"))
        last = space == spaces
        b.add(*numbered_box(x, y, box, str(space), ink, t.color("control") if last else t.color("space"),
                            text_size=11, family="numerals", stroke_width=0.6 if last else 0.3))
        if last:
            b.add(*label(x + box / 2, y + box - 0.9, t.string("control"), 6, ink, family="serif-italic"))


def location(card: Location, db: Database, make: Make):
    """A Location: the name in the middle (read from the Wardens' side), Resonance icons, and a cube
    track per side, the Shadowmajik half turned to face the other player."""
    b = make("location", 63, 88)
    t = b.template
    ink = t.color("ink")
    frame(b, t.number("border"), t.color("border"), t.color("panel"), ink)
    middle = Box(4.4, t.number("middle_top"), 54.2, t.number("middle_height"))
    b.add(Line(middle.x, middle.y, middle.right, middle.y, ink, 0.3))
    b.add(Line(middle.x, middle.bottom, middle.right, middle.bottom, ink, 0.3))
    b.text("name", card.name, "name")
    size = 4.4
    row = len(card.resonance) * (size + 1.0) - 1.0
    for index, resonance in enumerate(card.resonance):
        b.add(Icon(resonance, 31.5 - row / 2 + index * (size + 1.0), 42.5, size))
    if card.text:
        b.text("text", card.text, "flavour")
    footer(b, card.id)
    half = t.number("half_height")
    for side, emblem, dx, dy, rotation in (("wardens", "wardens", 3.0, middle.bottom + 0.6, 0.0),
                                            ("shadowmajik", "shadowmajik", 60.0, middle.y - 0.6, 180.0)):
        panel = make("location", 57, half)
        _track(panel, card.track_spaces, side, emblem, t.color(side))
        b.problems.extend(panel.problems)
        b.add(Group(tuple(panel.items), dx=dx, dy=dy, rotation=rotation))
    return [(card.id, b)]


def player(card: PlayerCard, db: Database, make: Make):
    """A player card: title, the 0-6 point track down the left, the six die-face spells, corner labels."""
    b = make("player", 63, 88)
    t = b.template
    ink = t.color("ink")
    colour = t.color(card.side)
    frame(b, t.number("border"), colour, t.color("panel"), ink)
    band = Box(4.4, 4.4, 54.2, 9.2)
    title_band(b, band, colour, tint(colour, 0.8, "#000000"), ink)
    b.text("title", card.title, "title")
    corner = t.box("corner")
    b.text("corner", t.string("corner_top"), corner, box=Box(5.0, 4.9, 8.0, corner.h), color=t.color("band_text"))
    b.text("corner", t.string("corner_top"), corner, box=Box(50.0, 4.9, 8.0, corner.h), color=t.color("band_text"), align="right")
    b.add(Icon(card.side, 6.4, 8.0, 4.8))
    b.add(Icon(card.side, 51.8, 8.0, 4.8))
    # point track, 6 at the top
    x = t.number("track_x")
    box, pitch = t.number("track_box"), t.number("track_pitch")
    points_max = db.duel.rules.points_max
    points_min = db.duel.rules.points_min
    for index, value in enumerate(range(points_max, points_min - 1, -1)):
        y = t.number("track_top") + index * pitch
        b.add(Rect(x, y, box, box, fill=t.color("space"), stroke=ink, stroke_width=0.3, radius=0.6))
        b.add(*label(x + box / 2, y + box / 2 + 0.9, str(value), 10, ink, family="numerals"))
        b.add(*label(x + box / 2, y + box - 0.8, card.points, 6, t.color("muted"), family="serif-italic"))
    # spells
    sx = t.number("spells_x")
    name_spec, cost_spec, text_spec = t.box("spell_name"), t.box("spell_cost"), t.box("spell_text")
    die = t.number("die_size")
    for index, spell in enumerate(sorted(card.spells, key=lambda s: s.face)):
        y = t.number("spells_top") + index * t.number("spell_pitch")
        if index % 2 == 0:
            b.add(Rect(sx - 0.6, y - 0.3, 58.6 - sx + 0.6 - 0.8, t.number("spell_pitch") - 0.2, fill=t.color("row_shade")))
        b.add(Icon(f"d6-{spell.face}", sx, y + 0.3, die))
        b.text(f"spells[{spell.face}].name", spell.name, name_spec, box=Box(sx + die + 1.0, y, name_spec.w, name_spec.h))
        cost = f"{spell.cost} {card.points}" + (f" :{spell.resonance}:" if spell.resonance else "")
        b.text(f"spells[{spell.face}].cost", cost, cost_spec, box=Box(57.6 - cost_spec.w, y, cost_spec.w, cost_spec.h))
        b.text(f"spells[{spell.face}].text", spell.text, text_spec, box=Box(sx + die + 1.0, y + 4.1, 57.4 - sx - die - 1.0, text_spec.h))
    b.text("corner", t.string("corner_bottom_left"), corner, box=Box(5.0, 80.9, 11.0, corner.h))
    b.text("corner", t.string("corner_bottom_right"), corner, box=Box(47.0, 80.9, 11.0, corner.h), align="right")
    footer(b, card.id)
    return [(card.id, b)]


def summary(card: Summary, db: Database, make: Make):
    """A rules summary: title band and headed sections, each with room in proportion to its text."""
    b = make("summary", 63, 88)
    t = b.template
    ink = t.color("ink")
    frame(b, t.number("border"), t.color("border"), t.color("panel"), ink)
    band = Box(4.4, 4.4, 54.2, 9.6)
    title_band(b, band, t.color("band"), t.color("band_hatch"), t.color("rule"))
    b.text("title", card.title, "title")
    top, bottom = t.number("sections_top"), t.number("sections_bottom")
    heading_h, gap = t.number("heading_h"), t.number("gap")
    free = bottom - top - len(card.sections) * (heading_h + gap)
    total = sum(len(s.text) for s in card.sections)
    y = top
    heading, body = t.box("heading"), t.box("section")
    for index, section in enumerate(card.sections):
        b.text(f"sections[{index}].heading", section.heading, heading, box=Box(heading.x, y, heading.w, heading_h))
        y += heading_h
        height = free * len(section.text) / total
        b.text(f"sections[{index}].text", section.text, body, box=Box(body.x, y, body.w, height))
        y += height + gap
    footer(b, card.id)
    return [(card.id, b)]


LAYOUTS = {"location": location, "player": player, "summary": summary, "back": back}
"""Layout function of each printed two-player kind (and of backs, for both games)."""
