"""Layouts of *The Grayking is Risen* (solo): one function per card kind, each turning a record of
``cards.toml`` and its template (``templates/<kind>.toml``) into Drawings.

Every function takes ``(record, database, make)`` where ``make(kind, width, height)`` returns a fresh
:class:`~pnp.layout.common.CardBuilder` for the record, and returns ``[(face id, builder), ...]``:
one face per card, or several for a board (the board is drawn whole and split by the caller).
"""
from __future__ import annotations

import math
from typing import Callable

from pnp import hexes
from pnp.database import (BattleMap, CityQuest, CouncilQuest, CounterCard, Database, Elder, LastStand,
                          ProgressTrack, QuestCard, Servant, Spell, SpellPath, Stats, TableCard, WardingCity)
from pnp.drawing import Box, Circle, Group, Icon, Line, Polygon, Polyline, Rect
from pnp.text import text_width_mm
from pnp.layout.common import (CardBuilder, arrow, circle_number, footer, frame, hatch, icon_centred, label,
                               numbered_box, ornament_rule, tint, title_band)

Make = Callable[[str, float, float], CardBuilder]

COLOUR_NAMES = {"red": "Red", "blue": "Blue", "yellow": "Yellow"}


def _title_band_with_icon(b: CardBuilder, text: str, icon: str | None, band_colour: str) -> None:
    """The dark title band at the top of the panel with ``text`` (and an icon at its left)."""
    t = b.template
    band = Box(4.4, 4.4, b.width - 8.8, 9.4)
    title_band(b, band, band_colour, tint(band_colour, 0.8, "#ffffff"), t.color("rule"))
    if icon:
        size = t.numbers.get("title_icon", 7.0)
        cy = band.y + band.height / 2
        b.add(Circle(6.2 + size / 2, cy, size / 2 + 0.5, fill=t.color("panel"), stroke=t.color("rule"), stroke_width=0.3))
        b.add(icon_centred(icon, 6.2 + size / 2, cy, size * 0.82))
    b.text("title", text, "title")


# ---- quest cards ----------------------------------------------------------------------------------------
def _quest(card: QuestCard, make: Make, kind: str) -> CardBuilder:
    b = make(kind, 63, 88)
    t = b.template
    ink = t.color("ink")
    frame(b, t.number("border"), t.color("border"), t.color("panel"), ink)
    b.text("kind", t.string("kind_label"), "kind_label")
    b.text("name", card.name, "title")
    b.add(*ornament_rule(8, 55, t.number("title_rule_y"), ink))
    size = t.number("icon_size")
    y = t.number("icon_row_y")
    for slot, (icon, value, caption) in enumerate(
            (("win", card.win, "win_label"), ("loss", card.loss, "loss_label"), ("next", card.next_value, "next_label")), start=1):
        cx = t.number(f"slot_{slot}_x")
        b.add(Icon(icon, cx - size - 0.3, y, size))
        b.add(*label(cx + 0.9, y + size * 0.78, str(value), 15, ink, family="numerals", anchor="start"))
        b.add(*label(cx, t.number("icon_label_y"), t.string(caption), 6.2, t.color("muted"), family="serif-italic"))
    b.add(Line(8, t.number("icon_rule_y"), 55, t.number("icon_rule_y"), ink, 0.2))
    return b


def _emblem(b: CardBuilder, icon: str, cx: float = 31.5, half_width: float = 20.0) -> None:
    """A framed emblem under the event text, on a short rule."""
    t = b.template
    size = t.number("emblem_size")
    y = t.number("emblem_y")
    b.add(*ornament_rule(cx - half_width, cx + half_width, y + size / 2, t.color("muted")))
    b.add(Circle(cx, y + size / 2, size / 2 + 0.6, fill=t.color("panel"), stroke=t.color("muted"), stroke_width=0.25))
    b.add(icon_centred(icon, cx, y + size / 2, size * 0.8))


def city_quest(card: CityQuest, db: Database, make: Make):
    """City Quest: black border, name, icon row, event text, the foe's emblem."""
    b = _quest(card, make, "city_quest")
    b.text("text", card.text, "event")
    _emblem(b, card.battle.foe or "lassadar")
    footer(b, card.id)
    return [(card.id, b)]


def council_quest(card: CouncilQuest, db: Database, make: Make):
    """Council of Wardens: white border, name, icon row, event text."""
    b = _quest(card, make, "council_quest")
    b.text("text", card.text, "event")
    _emblem(b, "wardens")
    footer(b, card.id)
    return [(card.id, b)]


def elder(card: Elder, db: Database, make: Make):
    """Elders: brown border, the large 1, 2, 3 use numbers on the left, the aid text."""
    b = _quest(card, make, "elder")
    t = b.template
    x = t.number("uses_x")
    for use in range(3):
        y = t.number("uses_top") + use * t.number("uses_pitch")
        b.add(Circle(x, y, 5.0, fill=t.color("parchment"), stroke=t.color("border"), stroke_width=0.5))
        b.add(*label(x, y + 2.6, str(use + 1), t.number("uses_size"), t.color("border"), family="numerals"))
    b.add(*label(x, t.number("uses_top") + 2 * t.number("uses_pitch") + 8.6, t.string("uses_label"), 6.2,
                 t.color("muted"), family="serif-italic"))
    b.add(Line(x + 5.2 + 0.8, 37.5, x + 5.2 + 0.8, 77.5, t.color("border"), 0.2))
    b.text("text", card.text, "event")
    event = t.box("event")
    _emblem(b, "spirit", cx=event.x + event.w / 2, half_width=event.w / 2 - 1.5)
    footer(b, card.id)
    return [(card.id, b)]


def warding_city(card: WardingCity, db: Database, make: Make):
    """Warding City: coloured bottom band with the key icon, number and colour in words."""
    b = _quest(card, make, "warding_city")
    t = b.template
    battle_map = db.get(card.battle_map)
    assert isinstance(battle_map, BattleMap)
    colour = battle_map.color
    band_colour = t.color(colour)
    top = t.number("band_top")
    b.add(Rect(-b.bleed, top, b.width + 2 * b.bleed, b.height + b.bleed - top, fill=band_colour))
    b.add(hatch(Box(-b.bleed, top, b.width + 2 * b.bleed, b.height + b.bleed - top), tint(band_colour, 0.82, "#000000"), 1.2, 0.12))
    b.add(Line(-b.bleed, top, b.width + b.bleed, top, t.color("ink"), 0.5))
    text_colour = t.color("band_text_dark" if colour == "yellow" else "band_text_light")
    icon = t.number("key_icon_size")
    b.add(Circle(t.number("key_icon_x") + icon / 2, 73.8, icon / 2 + 0.8, fill=t.color("panel"), stroke=t.color("ink"), stroke_width=0.3))
    b.add(Icon("key", t.number("key_icon_x") + 0.6, 73.8 - icon / 2 + 0.6, icon - 1.2))
    b.text("band", f"Warding Key {card.key}", "band_title", color=text_colour)
    b.text("band_colour", f"{COLOUR_NAMES[colour]} band · {COLOUR_NAMES[colour].lower()} map", "band_subtitle", color=text_colour)
    b.text("text", card.text, "event")
    footer(b, card.id, color=text_colour)
    return [(card.id, b)]


# ---- servants ------------------------------------------------------------------------------------------------
def servant(card: Servant, db: Database, make: Make):
    """Servant: portrait, range, damage, one hit point track per map colour (largest number first)."""
    b = make("servant", 63, 88)
    t = b.template
    ink = t.color("ink")
    frame(b, t.number("border"), t.color("border"), t.color("panel"), ink)
    b.text("kind", t.string("kind_label"), "kind_label")
    b.text("name", card.name, "title")
    b.add(*ornament_rule(8, 55, 19.0, ink))
    size = t.number("portrait_size")
    px, py = t.number("portrait_x"), t.number("portrait_y")
    b.add(Rect(px, py, size, size, fill=tint(t.color("border"), 0.12, t.color("panel")), stroke=ink, stroke_width=0.3, radius=1.0))
    b.add(Icon(card.servant_type, px + 1.5, py + 1.5, size - 3))
    b.text("range", f"Range {card.range}", "range")
    hexes_word = "hex" if card.range == 1 else "hexes"
    b.text("range", f"strikes up to {card.range} {hexes_word} away", "range_note")
    b.text("damage", f"Damage {card.damage} :{card.damage_to}:", "damage")
    b.text("damage", f"to your {card.damage_to.capitalize()} per hit", "damage_note")
    b.text("hit points", t.string("hp_label"), "hp_label")
    box, step = t.number("hp_box"), t.number("hp_step")
    for row, colour in enumerate(("red", "blue", "yellow")):
        y = t.number("hp_top") + row * t.number("hp_pitch")
        points = card.hit_points[colour]
        swatch = t.color(colour)
        b.add(Rect(t.number("hp_label_x"), y, 2.0, box, fill=swatch))
        spec = t.box("hp_colour")
        b.text("hit points", COLOUR_NAMES[colour], spec, box=Box(t.number("hp_label_x") + 2.6, y, spec.w - 2.6, box))
        for index, value in enumerate(range(points, 0, -1)):
            x = t.number("hp_first_x") + index * step
            b.add(*numbered_box(x, y, box, str(value), ink, tint(swatch, 0.16, "#ffffff"), text_size=11,
                                family="numerals", stroke_width=0.6 if index == 0 else 0.3))
    if card.text:
        b.text("text", card.text, "flavour")
    footer(b, card.id)
    return [(card.id, b)]


# ---- character stats -------------------------------------------------------------------------------------------
def stats(card: Stats, db: Database, make: Make):
    """Character Stats: Mana and Spirit tracks (columns of seven) and the three Warding Keys."""
    b = make("stats", 63, 88)
    t = b.template
    ink = t.color("ink")
    frame(b, t.number("border"), t.color("border"), t.color("panel"), ink)
    b.text("title", card.title, "title")
    b.add(*ornament_rule(8, 55, 12.8, ink))
    b.text("mana", "Mana :mana:", "mana_head")
    b.text("spirit", "Spirit :spirit:", "spirit_head")
    per_column = math.ceil((card.track_high - card.track_low + 1) / card.track_columns)
    for key, x0 in (("mana", t.number("mana_x")), ("spirit", t.number("spirit_x"))):
        for value in range(card.track_low, card.track_high + 1):
            column, row = divmod(value - card.track_low, per_column)
            x = x0 + column * t.number("col_pitch")
            y = t.number("track_top") + row * t.number("row_pitch")
            start = value == card.track_start
            b.add(Rect(x, y, t.number("box_w"), t.number("box_h"), fill=t.color("start") if start else "#fbf5e6",
                       stroke=ink, stroke_width=0.6 if start else 0.25, radius=0.5))
            b.add(*label(x + t.number("box_w") / 2, y + t.number("box_h") / 2 + 1.2, str(value), 9 if start else 8,
                         ink, family="numerals"))
    b.text("keys", t.string("keys_label"), "keys_label")
    name_spec, text_spec = t.box("key_name"), t.box("key_text")
    for index, key in enumerate(sorted(card.keys, key=lambda k: k.key)):
        x = t.number("key_x") + index * t.number("key_pitch")
        y = t.number("keys_top")
        size = t.number("key_icon")
        swatch = t.color(key.color)
        b.add(Rect(x, y, t.number("key_w"), 8.8, fill=tint(swatch, 0.14, "#ffffff"), stroke=ink, stroke_width=0.25, radius=0.6))
        b.add(Rect(x, y, t.number("key_w"), 3.0, fill=tint(swatch, 0.35, "#ffffff"), radius=0.6))
        b.text(f"keys[{key.key}]", f"Key {key.key} · {COLOUR_NAMES[key.color]}", name_spec,
               box=Box(x + 0.2, y + 0.1, t.number("key_w") - 0.4, name_spec.h))
        b.add(Icon("key", x + 0.6, y + 3.6, size))
        b.text(f"keys[{key.key}]", key.text, text_spec,
               box=Box(x + size + 1.0, y + 3.3, t.number("key_w") - size - 1.3, text_spec.h))
    footer(b, card.id)
    return [(card.id, b)]


# ---- spell paths --------------------------------------------------------------------------------------------------
def _cost_text(spell: Spell) -> str:
    def amount(cost) -> str:
        parts = []
        if cost.mana:
            parts.append(f"{cost.mana} :mana:")
        if cost.spirit:
            parts.append(f"{cost.spirit} :spirit:")
        return " ".join(parts) or "0"
    if spell.cost is not None:
        return amount(spell.cost)
    if spell.learn_cost is not None:
        return f"[{amount(spell.learn_cost)}]"
    return ""


def spell_path(card: SpellPath, db: Database, make: Make):
    """Spell Path: the type's spells as a tree of boxes (rows by ``slot``), arrows along ``opens``."""
    b = make("spell_path", 63, 88)
    t = b.template
    ink = t.color("ink")
    band = t.color(card.spell_type)
    frame(b, t.number("border"), band, t.color("panel"), ink)
    _title_band_with_icon(b, card.title, card.spell_type, band)
    b.text("summary", card.summary, "summary")
    spells = [s for s in db.solo.spell if s.spell_type == card.spell_type]
    rows: dict[int, list[Spell]] = {}
    for spell in spells:
        rows.setdefault(spell.slot[0], []).append(spell)
    boxes: dict[str, Box] = {}
    for row, members in rows.items():
        y = t.number("grid_top") + (row - 1) * t.number("row_pitch")
        for spell in members:
            if len(members) == 1:
                box = Box(t.number("wide_x"), y, t.number("wide_w"), t.number("box_h"))
            else:
                x = t.number("col_1_x") if spell.slot[1] == 1 else t.number("col_2_x")
                box = Box(x, y, t.number("box_w"), t.number("box_h"))
            boxes[spell.id] = box
    for spell in spells:  # arrows first, boxes paint over their ends
        start = boxes[spell.id]
        for target in spell.opens:
            end = boxes[target]
            x1 = start.x + start.width / 2
            x2 = end.x + end.width / 2
            if end.width > start.width:  # into a wide box: aim at the part of it below the source
                x2 = min(max(x1, end.x + 4), end.right - 4)
            b.add(*arrow(x1, start.bottom, x2, end.y - 0.2, ink, 0.35, 1.7))
    for spell in spells:
        box = boxes[spell.id]
        fill = t.color("box") if spell.learnable else tint(t.color("gray"), 0.35, "#ffffff")
        b.add(Rect(box.x, box.y, box.width, box.height, fill=fill, stroke=ink, stroke_width=0.35, radius=0.8))
        b.add(*circle_number(box.x + 2.6, box.y + 2.6, 2.0, str(spell.position), ink, t.color("disc"), t.color("panel"), 7))
        name = t.box("spell_name")
        b.text(f"{spell.id}.name", spell.name, name, box=Box(box.x + 5.2, box.y + 0.4, box.width - 5.8, name.h))
        cost = _cost_text(spell)
        text = f"{cost} · {spell.text}" if cost else (f"{spell.text}")
        body = t.box("spell_text")
        b.text(f"{spell.id}.text", text, body, box=Box(box.x + 0.9, box.y + 4.9, box.width - 1.8, body.h))
    footer(b, card.id)
    return [(card.id, b)]


# ---- progress track ------------------------------------------------------------------------------------------------
def progress_track(track: ProgressTrack, db: Database, make: Make):
    """The Grayking's Progress Track: a board over ``track.cards`` cards, spaces in a snake of two rows."""
    width = 63.0 * track.cards
    b = make("progress_track", width, 88)
    t = b.template
    ink = t.color("ink")
    per_row = int(t.number("per_card_row")) * track.cards
    for index in range(track.cards):  # one frame per card: each card is cut on its own
        cell = make("progress_track", 63, 88)
        frame(cell, t.number("border"), t.color("border"), t.color("panel"), ink)
        b.add(Group(tuple(cell.items), dx=63.0 * index))
        band = Box(63.0 * index + 4.4, 4.4, 63 - 8.8, 9.4)
        title_band(b, band, t.color("band"), t.color("band_hatch"), t.color("rule"))
        title = track.title if index == 0 else f"{track.title}: {t.string('continued')}"
        spec = t.box("title")
        b.text("title", title, spec, box=Box(spec.x + 63.0 * index, spec.y, spec.w, spec.h))
    box, pitch = t.number("box"), t.number("pitch")
    per_card = int(t.number("per_card_row"))

    def position(space: int) -> tuple[float, float]:
        index = space - 1
        row, along = divmod(index, per_row)
        if row % 2:
            along = per_row - 1 - along
        card_index, column = divmod(along, per_card)
        x = 63.0 * card_index + t.number("first_x") + column * pitch
        y = t.number("row_1_y") if row == 0 else t.number("row_2_y")
        return x, y

    if track.spaces > 2 * per_row:
        b.problems.append(f"{track.id}: spaces: over by {track.spaces - 2 * per_row} spaces (the board holds {2 * per_row})")
    centres = [(x + box / 2, y + box / 2) for x, y in (position(s) for s in range(1, track.spaces + 1))]
    b.add(Polyline(tuple(centres), stroke=t.color("road"), stroke_width=1.6))
    names = {place.space: place.name for place in track.names}
    starts = {space: t.string(level) for level, space in track.start.items()}
    label_spec = t.box("space_label")
    for space in range(1, track.spaces + 1):
        x, y = position(space)
        last = space == track.spaces
        fill = t.color("lassadar") if last else (t.color("start") if space in starts else t.color("space"))
        b.add(Rect(x, y, box, box, fill=fill, stroke=ink, stroke_width=0.5 if space in starts or last else 0.3, radius=0.6))
        b.add(*label(x + 0.7, y + 2.6, str(space), 6.5, t.color("panel") if last else t.color("muted"), family="numerals", anchor="start"))
        if space == 1:
            b.add(Icon("grayking", x + 2.6, y + 2.8, 6.4))
        elif last:
            b.add(Icon("lassadar", x + 2.4, y + 2.6, 6.6))
        elif space in starts:
            b.add(*label(x + box / 2, y + box / 2 + 2.4, starts[space].split()[0], 11, ink, family="numerals"))
        under = []
        if space in starts:
            under.append(starts[space].split(" ", 1)[1])
        if space in names:
            under.append(names[space])
        if last:
            under.append(t.string("lose"))
        if under:
            b.text(f"space {space}", " · ".join(under), label_spec,
                   box=Box(x + box / 2 - label_spec.w / 2, y + box + 0.6, label_spec.w, label_spec.h))
    note = t.box("note")
    b.text("legend", t.string("legend"), note)
    if track.cards > 1:
        b.text("reminder", t.string("reminder"), note, box=Box(note.x + 63.0 * (track.cards - 1), note.y, note.w, note.h))
    for index in range(track.cards):
        spec = t.box("footer")
        b.text("footer", f"{track.id}.card-{index + 1}", spec, box=Box(spec.x + 63.0 * index, spec.y, spec.w, spec.h))
    return [(track.id, b)]


# ---- table cards -------------------------------------------------------------------------------------------------------
def _roll_label(rolls: tuple[int, ...], dice: str, last: bool) -> str:
    if dice == "difference":
        if last:
            return f"{min(rolls)}+"
        return f"{min(rolls)}–{max(rolls)}" if len(rolls) > 1 else str(rolls[0])
    return ", ".join(str(r) for r in rolls)


def table_card(card: TableCard, db: Database, make: Make):
    """A table card: title band with its icon, the rows with die faces (d6) or numbers."""
    b = make("table_card", 63, 88)
    t = b.template
    ink = t.color("ink")
    table = db.table(card.table)
    frame(b, t.number("border"), t.color("border"), t.color("panel"), ink)
    _title_band_with_icon(b, card.title, card.icon, t.color("band"))
    subtitle = t.strings.get(f"subtitle_{card.icon}") or t.strings.get(f"subtitle_{table.dice}", "")
    if subtitle:
        b.text("subtitle", subtitle, "subtitle")
    top, bottom = t.number("rows_top"), t.number("rows_bottom")
    height = (bottom - top) / len(table.rows)
    roll_spec, text_spec = t.box("roll"), t.box("row_text")
    for index, row in enumerate(table.rows):
        y = top + index * height
        if index % 2 == 0:
            b.add(Rect(5.2, y, 52.6, height, fill=t.color("row_shade")))
        if table.dice == "d6" and len(row.roll) == 1:
            size = min(height - 1.6, 7.5)
            b.add(Icon(f"d6-{row.roll[0]}", t.number("roll_x") + (t.number("roll_w") - size) / 2, y + (height - size) / 2, size))
        else:
            last = index == len(table.rows) - 1
            b.text(f"rows[{index}].roll", _roll_label(row.roll, table.dice, last), roll_spec,
                   box=Box(t.number("roll_x"), y, t.number("roll_w"), height))
        text = f"{row.name}: {row.text}" if row.name else row.text
        b.text(f"rows[{index}].text", text[:1].upper() + text[1:], text_spec, box=Box(t.number("text_x"), y + 0.3, text_spec.w, height - 0.6))
    b.add(Line(5.2, bottom, 57.8, bottom, ink, 0.25))
    footer(b, card.id)
    return [(card.id, b)]


def counter_card(card: CounterCard, db: Database, make: Make):
    """A Last Stand counter card: the counters at the card's positions, each with number, name and text."""
    b = make("counter_card", 63, 88)
    t = b.template
    ink = t.color("ink")
    table = db.table(card.table)
    icon = "flint" if "flint" in card.table else "ice"
    frame(b, t.number("border"), t.color("border"), t.color("panel"), ink)
    _title_band_with_icon(b, card.title, icon, t.color("band"))
    b.text("subtitle", t.string("subtitle"), "subtitle")
    rows = [next(r for r in table.rows if position in r.roll) for position in card.positions]
    top, bottom = t.number("rows_top"), t.number("rows_bottom")
    height = min((bottom - top) / max(len(rows), 1), 19.0)
    for index, (position, row) in enumerate(zip(card.positions, rows)):
        y = top + index * height
        if index:
            b.add(*ornament_rule(10, 53, y - 0.6, t.color("muted")))
        b.add(*circle_number(t.number("disc_x"), y + 5.2, t.number("disc_r"), str(position), ink, t.color("disc"),
                             t.color("panel"), 13))
        name = t.box("name")
        b.text(f"rows[{index}].name", row.name, name, box=Box(t.number("text_x"), y + 0.8, name.w, name.h))
        text = t.box("text")
        b.text(f"rows[{index}].text", row.text[:1].upper() + row.text[1:], text,
               box=Box(t.number("text_x"), y + 6.0, text.w, min(text.h, height - 6.8)))
    footer(b, card.id)
    return [(card.id, b)]


def last_stand(card: LastStand, db: Database, make: Make):
    """The Last Stand: its text and the Grayking's hit point track (gray spaces with the recharge cross)."""
    b = make("last_stand", 63, 88)
    t = b.template
    ink = t.color("ink")
    frame(b, t.number("border"), t.color("border"), t.color("panel"), ink)
    _title_band_with_icon(b, card.title, "grayking", t.color("band"))
    b.text("text", "\n".join(card.text), "text")
    b.text("hit points", t.string("hp_label"), "hp_label")
    per_row = int(t.number("per_row"))
    box = t.number("hp_box")
    for index, value in enumerate(card.hit_points):
        row, column = divmod(index, per_row)
        x = t.number("hp_first_x") + column * t.number("hp_step")
        y = t.number("hp_top") + row * t.number("hp_pitch_y")
        gray = value in card.gray_spaces
        b.add(*numbered_box(x, y, box, str(value), ink, t.color("gray_space") if gray else t.color("space"),
                            text_size=12, family="numerals", stroke_width=0.6 if index == 0 else 0.3))
        if gray:
            b.add(Icon("recharge", x + box - 3.6, y + 0.5, 3.1))
    footer(b, card.id)
    return [(card.id, b)]


# ---- expanded battle maps ----------------------------------------------------------------------------------------------
def battle_map(card: BattleMap, db: Database, make: Make):
    """An Expanded Battle Map: a board over ``card.cards`` cards; hexes on the left, text and the
    Eldritch Damage table on the last card."""
    width = 63.0 * card.cards
    b = make("battle_map", width, 88)
    t = b.template
    ink = t.color("ink")
    colour = t.color(card.color)
    b.add(Rect(-b.bleed, -b.bleed, width + 2 * b.bleed, 88 + 2 * b.bleed, fill=colour))
    panel = Box(t.number("border"), t.number("border"), width - 2 * t.number("border"), 88 - 2 * t.number("border"))
    b.add(Rect(panel.x, panel.y, panel.width, panel.height, fill=t.color("panel"), stroke=ink, stroke_width=0.35, radius=1.2))
    inner = panel.inset(0.9)
    b.add(Rect(inner.x, inner.y, inner.width, inner.height, stroke=ink, stroke_width=0.15, radius=0.8))
    # hexes
    grid = card.hex_map
    area = Box(t.number("hex_area_x"), t.number("hex_area_y"), t.number("hex_area_w"), t.number("hex_area_h"))
    columns, rows = grid.columns, grid.rows
    odd = any(h.row % 2 for h in grid)
    radius = min(t.number("hex_radius_max"),
                 area.width / ((columns + (0.5 if odd else 0)) * math.sqrt(3)),
                 area.height / ((rows - 1) * 1.5 + 2))
    hex_w = math.sqrt(3) * radius
    grid_w = (columns + (0.5 if odd else 0)) * hex_w
    grid_h = (rows - 1) * 1.5 * radius + 2 * radius
    oy = area.y + (area.height - grid_h) / 2 + radius
    ox = _grid_shift(grid, radius, area.x + hex_w / 2, area.width - grid_w, card.cards,
                     t.number("label_half_width"), t.number("cut_clearance"))
    hex_fill = t.color("hex")
    cuts = [63.0 * k for k in range(1, card.cards)]
    clearance = t.number("cut_clearance")
    for cell in grid:
        cx, cy = hexes.centre_mm(cell.column, cell.row, radius)
        cx, cy = cx + ox, cy + oy
        corners = hexes.corners_mm((cx, cy), radius)
        fill = tint(colour, 0.10, hex_fill) if cell.number else hex_fill
        b.add(Polygon(corners, fill=fill, stroke=colour, stroke_width=0.45))
        if cell.number is not None:
            # Where a number would sit on a cut line, slide it sideways inside its hex.
            half = text_width_mm(str(cell.number), "numerals", 12) / 2 + 0.2
            room = hex_w / 2 - half - 0.6
            cx = _clear_of_cuts(cx, half, cuts, clearance, room)
        if cell.start:
            b.add(icon_centred("start", cx, cy - 0.8, radius * 1.05))
            b.add(*label(cx, cy + radius * 0.78, "start", 6, ink, family="serif-italic"))
        elif cell.recharge:
            b.add(icon_centred("recharge", cx, cy - 0.8, radius * 1.05))
            b.add(*label(cx, cy + radius * 0.78, "recharge", 6, ink, family="serif-italic"))
        elif cell.number is not None:
            b.add(*label(cx, cy + 1.9, str(cell.number), 12, ink, family="numerals"))
    # the text card
    x0 = 63.0 * (card.cards - 1)
    band = Box(x0 + 4.4, 4.4, 63 - 8.8, 9.4)
    title_band(b, band, colour, tint(colour, 0.8, "#000000"), ink)
    b.add(Circle(x0 + 9.6, band.y + band.height / 2, 3.9, fill=t.color("panel"), stroke=ink, stroke_width=0.3))
    b.add(icon_centred("key", x0 + 9.6, band.y + band.height / 2, 5.6))
    text_colour = "#1e1a14" if card.color == "yellow" else t.color("band_text")
    b.text("title", f"Warding Key {card.key}", "title", color=text_colour)
    b.text("subtitle", f"{COLOUR_NAMES[card.color]} map · {card.servants} servants of different types", "subtitle")
    b.text("event", card.event, "event")
    b.text("legend", t.string("legend"), "legend")
    table = db.table(card.eldritch_table)
    b.text("table", f"{table.title} · roll 2d6", "table_title")
    top, bottom = t.number("table_top"), t.number("table_bottom")
    height = (bottom - top) / len(table.rows)
    roll_spec, text_spec = t.box("roll"), t.box("row_text")
    left = t.box("event").x
    for index, row in enumerate(table.rows):
        y = top + index * height
        if index % 2 == 0:
            b.add(Rect(left - 0.5, y, 55.0, height, fill=tint(colour, 0.12, t.color("panel"))))
        b.text(f"{table.id}.rows[{index}].roll", ", ".join(str(r) for r in row.roll), roll_spec,
               box=Box(left, y, t.number("roll_w"), height))
        b.text(f"{table.id}.rows[{index}].text", row.text[:1].upper() + row.text[1:], text_spec,
               box=Box(left + t.number("roll_w") + 1.0, y, text_spec.w, height))
    b.add(Line(left - 0.5, bottom, left + 54.5, bottom, ink, 0.25))
    for index in range(card.cards):
        spec = t.box("footer")
        b.text("footer", f"{card.id}.card-{index + 1}", spec, box=Box(spec.x + 63.0 * index, spec.y + 0.6, spec.w, spec.h))
    return [(card.id, b)]


def _clear_of_cuts(x: float, half: float, cuts: list[float], clearance: float, room: float) -> float:
    """``x`` moved by at most ``room`` mm so that ``[x - half, x + half]`` keeps ``clearance`` mm from
    every cut line; unchanged if it is clear already or cannot be cleared."""
    for cut in cuts:
        if x - half < cut + clearance and x + half > cut - clearance:
            left = cut - clearance - half
            right = cut + clearance + half
            options = [p for p in (left, right) if abs(p - x) <= room]
            if options:
                return min(options, key=lambda p: abs(p - x))
    return x


def _grid_shift(grid: hexes.HexMap, radius: float, first_x: float, slack: float, cards: int,
                half_width: float, clearance: float) -> float:
    """The x of hex (0, 0)'s centre, within ``[first_x, first_x + slack]``, that keeps the labels of
    numbered hexes (their number's width) and of the start and recharge hexes (``half_width`` mm
    either side of the centre) at least
    ``clearance`` mm from every cut line between the board's cards; the most centred such shift, or
    the one with the fewest labels on a cut line if none is clear."""
    cuts = [63.0 * k for k in range(1, cards)]
    hex_w = math.sqrt(3) * radius
    labelled = []  # (centre x, half width of the label, how far the label may slide inside its hex)
    for h in grid:
        if h.number:
            half = text_width_mm(str(h.number), "numerals", 12) / 2 + 0.2
            labelled.append((hexes.centre_mm(h.column, h.row, radius)[0], half, hex_w / 2 - half - 0.6))
        elif h.start or h.recharge:
            labelled.append((hexes.centre_mm(h.column, h.row, radius)[0], half_width, 0.0))
    best: tuple[int, float, float] | None = None
    steps = max(int(slack / 0.25), 0)
    for step in range(steps + 1):
        x0 = first_x + step * 0.25
        clashes = 0
        for cx, half, room in labelled:
            x = _clear_of_cuts(x0 + cx, half, cuts, clearance, room)
            clashes += sum(1 for cut in cuts if x - half < cut + clearance and x + half > cut - clearance)
        score = (clashes, abs(step * 0.25 - slack / 2), x0)
        if best is None or score < best:
            best = score
    return best[2] if best else first_x


LAYOUTS = {
    "stats": stats, "spell_path": spell_path, "progress_track": progress_track, "table_card": table_card,
    "servant": servant, "battle_map": battle_map, "city_quest": city_quest, "council_quest": council_quest,
    "elder": elder, "warding_city": warding_city, "last_stand": last_stand, "counter_card": counter_card,
}
"""Layout function of each printed solo kind."""
