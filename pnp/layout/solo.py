"""Layouts of *The Grayking is Risen* (solo): one function per card kind, each turning a record of
``cards.toml`` and its template (``templates/<kind>.toml``) into Drawings.

Every function takes ``(record, database, make)`` where ``make(kind, width, height)`` returns a fresh
:class:`~pnp.layout.common.CardBuilder` for the record, and returns ``[(face id, builder), ...]``:
one face per card, or several for a board (the board is drawn whole and split by the caller).
"""
from __future__ import annotations

import dataclasses
import math
import typing
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from pnp import fonts, hexes
from pnp.database import (
    BattleMap,
    CityQuest,
    CouncilQuest,
    CounterCard,
    Database,
    DiceKind,
    Elder,
    LastStand,
    MapColor,
    ProgressTrack,
    QuestCard,
    Servant,
    Spell,
    SpellPath,
    Stats,
    Table,
    TableCard,
    WardingCity,
)
from pnp.drawing import Box, Circle, Group, Icon, Line, Polygon, Polyline, Primitive, Rect, TextLine, inside_polygon
from pnp.layout.common import (
    BLACK,
    LINES_APART_MM,
    TEXT_INK_GAP_MM,
    WHITE,
    CardBuilder,
    arrow,
    circle_number,
    first_passing_tenth,
    footer,
    frame,
    frame_inside,
    full_bleed,
    hatch,
    icon_centred,
    label,
    numbered_box,
    ornament_rule,
    panel_rules,
    safe_area_factor,
    tint,
    title_band,
)
from pnp.layout.icon_ink import icon_ink
from pnp.layout.problems import FitProblem
from pnp.layout.template import (
    MIN_TEXT_PT,
    BoxSpec,
    Template,
    changed_keys,
    changed_number,
    changed_numbers,
    load_template,
    pristine_table,
    template_line,
)
from pnp.oneline import quoted
from pnp.text import INLINE_ICONS, ink_boxes, text_width_mm
from pnp.units import FONT_METRIC_SLACK_MM, MM_PER_PT, ROUNDING_SLACK, excess_mm

Make = Callable[[str, float, float], CardBuilder]


def card_size(db: Database) -> tuple[float, float]:
    """The trim size of one card (width, height in mm), from the print settings of ``cards.toml``."""
    return db.print.card_width_mm, db.print.card_height_mm


def framed_card(make: Make, kind: str, db: Database) -> tuple[CardBuilder, Template, str]:
    """A card of ``kind`` the database's card size, with the standard frame drawn (coloured band from
    the bleed, parchment panel, engraved rules); returns the builder, its template and the ink colour."""
    b = make(kind, *card_size(db))
    t = b.template
    ink = t.color("ink")
    frame(b, t.number("border"), t.color("border"), t.color("panel"), ink)
    return b, t, ink


_MAP_COLOUR_KEYS = ("colors.red", "colors.blue", "colors.yellow", "strings.colour_red", "strings.colour_blue",
                    "strings.colour_yellow")
"""The keys of every map colour and its printed name: a layout that reads one reads the others for another record."""


def colour_name(t: Template, colour: str) -> str:
    """The printed name of a map colour (``"red"`` gives the template's ``colour_red``, ``"Red"``)."""
    return t.string(f"colour_{colour}")


def _title_band_with_icon(b: CardBuilder, text: str, icon: str | None, band_colour: str) -> None:
    """The dark title band at the top of the panel with ``text`` (and an icon at its left)."""
    t = b.template
    band = t.box("title_band").box
    title_band(b, band, band_colour, tint(band_colour, t.number("title_hatch_tint"), WHITE), t.color("rule"))
    if icon:
        size = t.number("title_icon")
        cx, cy = t.number("title_icon_x") + size / 2, band.y + band.height / 2
        disc = Circle(cx, cy, size / 2 + t.number("title_icon_ring"), fill=t.color("panel"), stroke=t.color("rule"),
                      stroke_width=t.number("title_icon_rule_width"), placed_by="numbers.title_icon_x",
                      grown_by=("title_icon_ring", "title_icon_rule_width"))
        shown = icon_centred(icon, cx, cy, size * t.number("title_icon_scale"))
        b.add(disc, shown)
        # twenty-sixth breaker: `title_icon_ring = 3` put the disc across the frame's rules and its corner diamond
        near_frame = f"the card frame's inner rule or within {LINES_APART_MM:g} mm of it"
        b.keep_disc_inside(disc, frame_inside(t, b.width, b.height), "the title icon's disc", near_frame,
                           "", "title_icon")
        b.keep_icons_in_disc(disc, [shown], "the title icon's disc", "title_icon_scale", ring="title_icon_ring")
    b.text("title", text, "title")


def _title_rule(b: CardBuilder, y: float) -> None:
    """The full-width ornament rule under a card's title, at ``y`` mm."""
    t = b.template
    b.add(*ornament_rule(t, t.number("rule_left"), t.number("rule_right"), y, t.color("ink")))


# ---- quest cards ----------------------------------------------------------------------------------------
def _quest(card: QuestCard, db: Database, make: Make, kind: str) -> CardBuilder:
    b = make(kind, *card_size(db))
    t = b.template
    ink = t.color("ink")
    frame(b, t.number("border"), t.color("border"), t.color("panel"), ink)
    b.text("kind", t.string("kind_label"), "kind_label")
    b.text("name", card.name, "title")
    _title_rule(b, t.number("title_rule_y"))
    size = t.number("icon_size")
    y = t.number("icon_row_y")
    stacked: list[tuple[list[Primitive], list[Primitive]]] = []
    for slot, (icon, value, caption) in enumerate(
            (("win", card.win, "win_label"), ("loss", card.loss, "loss_label"), ("next", card.next_value, "next_label")), start=1):
        cx = t.number(f"slot_{slot}_x")
        b.add(Icon(icon, cx - size - t.number("icon_gap"), y, size))
        number = label(cx + t.number("value_dx"), y + size * t.number("value_baseline"), str(value), t.number("value_size"), ink,
                       family="numerals", anchor="start", placed_by=("numbers.value_dx", "numbers.value_baseline"))
        under = label(cx, t.number("icon_label_y"), t.string(caption), t.number("caption_size"), t.color("muted"),
                      family="serif-italic", placed_by=("", "numbers.icon_label_y"))
        b.add(*number, *under)
        stacked.append((number, under))
    _keep_values_off_captions(b, stacked)
    b.add(Line(t.number("rule_left"), t.number("icon_rule_y"), t.number("rule_right"), t.number("icon_rule_y"), ink,
               t.number("icon_rule_width")))
    return b


QUEST_DIGITS = "0123456789"
"""The characters a quest's win, loss and next numbers are written in (:func:`_keep_values_off_captions`)."""


def _keep_values_off_captions(b: CardBuilder, stacked: list[tuple[list[Primitive], list[Primitive]]]) -> None:
    """A ``"template"`` problem when a quest's number (the win, loss or next value beside its icon) comes down to its
    caption under it ("Battle Win"): a letter of one within :data:`~pnp.layout.common.TEXT_INK_GAP_MM` of a letter of the
    other, each measured by its glyph's own outline (:func:`pnp.text.ink_boxes`), and the two print as one. ``stacked``:
    each slot's number and caption as drawn. Thirty-ninth pnp breaker, MED 11: `value_baseline = 1.2` stood the "2" of
    Tural's win value on the "W" of "Battle Win" on all 22 quest cards, and check passed (the overlap check's boxes end at
    0.9 of the caption's ascent, under its capitals and ascenders; the letters-touch check paired texts by those boxes).

    Said at ``value_baseline`` (a share of ``icon_size``) when that is the number the designer changed, or none is
    (:func:`pnp.layout.template.changed_number`), with the largest value, in hundredths, that keeps every digit clear of
    every letter of every caption (whatever number a card prints: the same line for all of them; "at most 1.18" as
    shipped). Another number changed (``icon_label_y``, a size) is left to the overlap and letters-touch checks, which say
    it at that number: the captions moved up meet their icons too, which this bound does not measure."""
    def ink(items: list[Primitive]) -> list[Box]:
        return [box for *_, box in ink_boxes(items)]

    gap = TEXT_INK_GAP_MM
    if not any(a.inset(-gap).overlaps(c) for number, under in stacked for a in ink(number) for c in ink(under)):
        return
    t = b.template
    changed = changed_number(t.path)
    if changed is not None and changed[0] != "value_baseline":
        return
    value_em, caption_em = t.number("value_size") * MM_PER_PT, t.number("caption_size") * MM_PER_PT
    # the lowest ink of any digit (below the baseline: a round digit's overshoot) and the highest of any caption letter
    digits = [fonts.glyph_ink_box("numerals", char) for char in QUEST_DIGITS]
    drop = max(0.0, -min(box[1] for box in digits if box is not None)) * value_em / 1000
    rise = max((box[3] for _, under in stacked for item in under if isinstance(item, TextLine)
                for box in (fonts.glyph_ink_box(item.family, char) for char in item.text) if box is not None), default=0.0) * caption_em / 1000
    since = (f", since value_baseline is {t.number('value_baseline'):g} (the shipped templates have {changed[1]:g})"
             if changed is not None else "")
    most = (t.number("icon_label_y") - rise - gap - drop - t.number("icon_row_y")) / t.number("icon_size")
    b.problems.append(b.at_number("value_baseline", f"a quest's number ([numbers] value_baseline, a share of icon_size) comes "
                                                    f"down onto its caption ([numbers] icon_label_y): their letters touch or "
                                                    f"print over each other (two texts keep {gap:g} mm apart){since}: set "
                                                    f"value_baseline to at most {math.floor(most * 100 + 1e-6) / 100:g}"))


def _emblem(b: CardBuilder, icon: str, cx: float | None = None, half_width: float | None = None) -> None:
    """A framed emblem under the event text, on a short rule (centred on the card unless ``cx``; the
    rule reaches ``half_width`` mm either side, by default the template's ``emblem_rule_half_width``)."""
    t = b.template
    cx = b.width / 2 if cx is None else cx
    half_width = t.number("emblem_rule_half_width") if half_width is None else half_width
    size = t.number("emblem_size")
    y = t.number("emblem_y")
    b.add(*ornament_rule(t, cx - half_width, cx + half_width, y + size / 2, t.color("muted")))
    disc = Circle(cx, y + size / 2, size / 2 + t.number("emblem_ring"), fill=t.color("panel"), stroke=t.color("muted"),
                  stroke_width=t.number("emblem_rule_width"), placed_by="numbers.emblem_y",
                  grown_by=("emblem_ring", "emblem_rule_width"))
    shown = icon_centred(icon, cx, y + size / 2, size * t.number("emblem_scale"))
    b.add(disc, shown)
    b.keep_disc_inside(disc, frame_inside(t, b.width, b.height), "the emblem's disc", f"the card frame's inner rule or within {LINES_APART_MM:g} mm of it",
                       "emblem_y", "emblem_size")
    b.keep_icons_in_disc(disc, [shown], "the emblem's disc", "emblem_scale", ring="emblem_ring")


def city_quest(card: CityQuest, db: Database, make: Make):
    """City Quest: black border, name, icon row, event text, the foe's emblem."""
    b = _quest(card, db, make, "city_quest")
    b.text("text", card.text, "event")
    _emblem(b, card.battle.foe or "lassadar")
    footer(b, card.id)
    return [(card.id, b)]


def council_quest(card: CouncilQuest, db: Database, make: Make):
    """Council of Wardens: white border, name, icon row, event text."""
    b = _quest(card, db, make, "council_quest")
    b.text("text", card.text, "event")
    _emblem(b, "wardens")
    footer(b, card.id)
    return [(card.id, b)]


def elder(card: Elder, db: Database, make: Make):
    """Elders: brown border, the large use numbers (1, 2, 3 in the rulebook: ``elder_uses`` of the solo
    rules in ``cards.toml``) on the left, the aid text."""
    b = _quest(card, db, make, "elder")
    t = b.template
    x = t.number("uses_x")
    uses = db.solo.rules.elder_uses
    top = t.number("uses_top")

    def spacing(count: int) -> float:  # more uses than the rulebook's three: closer and smaller discs in the same column
        return t.number("uses_pitch") if count < 2 else min(t.number("uses_pitch"), (t.number("uses_last_max") - top) / (count - 1))

    most = max((n for n in range(1, 21) if t.number("uses_size") * min(1.0, spacing(n) / t.number("uses_pitch")) >= MIN_TEXT_PT),
               default=1)  # the use numbers stay at least the smallest printed text
    if uses > most and t.number("uses_size") >= MIN_TEXT_PT:  # (a size below 6 pt at one use is the template's, said as such)
        b.problems.append(FitProblem("solo.rules", "elder_uses", "too many",
                                     f"{uses} uses do not fit the Elder cards' column (at most {most}; their numbers would "
                                     f"print below {MIN_TEXT_PT:g} pt), as {t.keys_at('uses_top', 'uses_last_max', 'uses_pitch', 'uses_size')} lay them out"))
        uses = most
    pitch = spacing(uses)
    scale = min(1.0, pitch / t.number("uses_pitch"))
    _keep_use_discs_apart(b, uses)
    for use in range(uses):
        y = top + use * pitch
        b.add(Circle(x, y, t.number("uses_r") * scale, fill=t.color("parchment"), stroke=t.color("border"),
                     stroke_width=t.number("uses_rule_width"), stroke_key="numbers.uses_rule_width"))
        b.add(*label(x, y + t.number("uses_baseline") * scale, str(use + 1), t.number("uses_size") * scale,
                     t.color("border"), family="numerals", placed_by=("", "numbers.uses_baseline")))
    last_use_y = top + (uses - 1) * pitch
    b.add(*label(x, last_use_y + t.number("uses_label_dy"), t.string("uses_label"), t.number("caption_size"),
                 t.color("muted"), family="serif-italic", placed_by=("", "numbers.uses_label_dy")))
    divider_x = x + t.number("uses_divider_dx")
    b.add(Line(divider_x, t.number("uses_divider_top"), divider_x, t.number("uses_divider_bottom"), t.color("border"),
               t.number("uses_divider_width"), stroke_key="numbers.uses_divider_width"))
    b.text("text", card.text, "event")
    event = t.box("event")
    _emblem(b, "spirit", cx=event.x + event.w / 2, half_width=event.w / 2 - t.number("emblem_rule_inset"))
    _keep_emblem_rule_off_uses(b, event.x + event.w / 2, event.w / 2)
    footer(b, card.id)
    return [(card.id, b)]


USE_DISC_KEYS = {"uses_pitch": True, "uses_last_max": True, "uses_r": False, "uses_rule_width": False,
                 "uses_top": False}
"""The ``[numbers]`` keys that set how far apart the Elder's use discs are and how large (:func:`_use_discs_overlap`),
each with whether a larger value draws them further apart: a fault is said at the one the designer changed, else at
``uses_pitch``."""


def _use_discs_overlap(number: Callable[[str], float], uses: int) -> float:
    """How far (mm) the ink of two neighbouring use discs of the Elder (radius ``uses_r`` and half of ``uses_rule_width``
    each, ``uses_pitch`` apart, closer and smaller when ``uses`` do not fit above ``uses_last_max``) runs into each other
    and :data:`LINES_APART_MM` between them; 0 or less when they keep apart (one disc never overlaps)."""
    if uses < 2:
        return 0.0
    pitch = min(number("uses_pitch"), (number("uses_last_max") - number("uses_top")) / (uses - 1))
    scale = min(1.0, pitch / number("uses_pitch")) if number("uses_pitch") > 0 else 1.0
    return 2 * number("uses_r") * scale + number("uses_rule_width") + LINES_APART_MM - pitch


def _keep_use_discs_apart(b: CardBuilder, uses: int) -> None:
    """A ``"template"`` problem when the Elder's use discs print over each other (:func:`_use_discs_overlap`): said at the
    one of :data:`USE_DISC_KEYS` the designer changed (else at ``uses_pitch``), with the nearest value, in tenths toward
    the shipped one, that keeps them apart (the search of :func:`first_passing_tenth`, as the emblem rule's bound).
    Forty-ninth pnp breaker: `uses_pitch = 9` printed the discs over each other and passed."""
    t = b.template
    depth = _use_discs_overlap(t.number, uses)
    if depth <= ROUNDING_SLACK:
        return
    changed = changed_number(t.path)
    key, shipped = changed if changed is not None and changed[0] in USE_DISC_KEYS else ("uses_pitch", None)
    value = t.number(key)

    def passes(tried: float) -> bool:
        return _use_discs_overlap(lambda name: tried if name == key else t.number(name), uses) <= ROUNDING_SLACK

    up = USE_DISC_KEYS[key]
    fits = first_passing_tenth(value, shipped, up, passes)
    since = f", since {key} is {value:g} (the shipped templates have {shipped:g})" if shipped is not None else ""
    advice = f"set {key} to {'at least' if up else 'at most'} {fits:g}" if fits is not None else f"change [numbers] {key}"
    into = depth - LINES_APART_MM
    how = (f"their outlines run {excess_mm(into)} into each other" if into > ROUNDING_SLACK
           else f"their outlines are less than {LINES_APART_MM:g} mm apart")
    b.problems.append(b.at_number(key, f"the use discs print over each other ({how}), on {b.record_id}{since}: {advice}",
                                  over=depth))


ELDER_RULE_KEYS = ("ornament_diamond_w", "emblem_rule_inset")
"""The ``[numbers]`` keys that set how far left the Elder's emblem rule and its diamond reach: a fault of
:func:`_emblem_rule_into_uses` is said at the one of them the designer changed, else at the key it names; when another
number was changed (the divider moved onto the event), that number's own checks say it."""


def _emblem_rule_into_uses(number: Callable[[str], float], cx: float, half_event: float) -> tuple[float, str] | None:
    """How far (mm) the left end of the Elder's emblem rule or the left point of its diamond (centred at ``cx``, the event
    box ``half_event`` mm either side) comes nearer than :data:`LINES_APART_MM` to the ink of the uses column's divider,
    or past it onto the use discs, with the key that moves it back (``ornament_diamond_w`` for the diamond,
    ``emblem_rule_inset`` for the rule); ``None`` when both keep right of it. Thirty-sixth pnp breaker, LOW 10: the
    advised `ornament_diamond_w = 21.5` (the frame's bound) drew the diamond across the divider onto disc 3."""
    limit = number("uses_x") + number("uses_divider_dx") + number("uses_divider_width") / 2 + LINES_APART_MM
    faults = [(limit - (cx - number("ornament_diamond_w")), "ornament_diamond_w"),
              (limit - (cx - (half_event - number("emblem_rule_inset"))), "emblem_rule_inset")]
    worst = max(faults)
    return worst if worst[0] > ROUNDING_SLACK else None


def _keep_emblem_rule_off_uses(b: CardBuilder, cx: float, half_event: float) -> None:
    """A ``"template"`` problem when the Elder's emblem rule or its diamond runs into the uses column
    (:func:`_emblem_rule_into_uses`): said at the one of :data:`ELDER_RULE_KEYS` the designer changed (else, when no other
    number was changed, at the key the fault names) with the nearest value, in tenths of a mm toward the shipped one, that keeps it off the column."""
    t = b.template
    fault = _emblem_rule_into_uses(t.number, cx, half_event)
    if fault is None:
        return
    depth, blamed = fault
    changed = changed_number(t.path)
    if changed is not None and changed[0] not in ELDER_RULE_KEYS:
        return  # the column moved onto the rule: said by the checks of the key that moved it
    key, shipped = changed if changed is not None and changed[0] in ELDER_RULE_KEYS else (blamed, None)
    value = t.number(key)
    up = shipped > value if shipped is not None else blamed == "emblem_rule_inset"

    def passes(tried: float) -> bool:
        return _emblem_rule_into_uses(lambda name: tried if name == key else t.number(name), cx, half_event) is None

    fits = first_passing_tenth(value, shipped, up, passes)
    since = f", since {key} is {value:g} (the shipped templates have {shipped:g})" if shipped is not None else ""
    advice = f"set {key} to {'at least' if up else 'at most'} {fits:g}" if fits is not None else f"change [numbers] {key}"
    what = "the diamond of the emblem's rule" if blamed == "ornament_diamond_w" else "the emblem's rule"
    b.problems.append(b.at_number(key, f"{what} runs {depth:.1f} mm into the uses column's divider or past it onto the use "
                                       f"discs, on {b.record_id}{since}: {advice}", over=depth))


def warding_city(card: WardingCity, db: Database, make: Make):
    """Warding City: coloured bottom band with the key icon, number and colour in words."""
    b = _quest(card, db, make, "warding_city")
    t = b.template
    battle_map = db.get(card.battle_map)
    assert isinstance(battle_map, BattleMap)
    colour = battle_map.color
    band_colour = t.color(colour)
    top = t.number("band_top")
    band = Box(-b.bleed, top, b.width + 2 * b.bleed, b.height + b.bleed - top)
    b.add(Rect(band.x, band.y, band.width, band.height, fill=band_colour))
    b.add(hatch(band, tint(band_colour, t.number("band_hatch_tint"), BLACK), t.number("band_hatch_spacing"),
                t.number("band_hatch_width")))
    b.add(Line(-b.bleed, top, b.width + b.bleed, top, t.color("ink"), t.number("band_rule_width"), stroke_key="numbers.band_rule_width"))
    text_colour = t.color("band_text_dark" if colour == "yellow" else "band_text_light")
    t.could_read("colors.band_text_dark", "colors.band_text_light", *_MAP_COLOUR_KEYS)  # for a city of another colour
    icon, x, cy = t.number("key_icon_size"), t.number("key_icon_x"), t.number("key_icon_cy")
    inset = t.number("key_icon_inset")
    disc = Circle(x + icon / 2, cy, icon / 2 + t.number("key_icon_ring"), fill=t.color("panel"), stroke=t.color("ink"),
                  stroke_width=t.number("key_icon_rule_width"), placed_by="numbers.key_icon_cy",
                  grown_by=("key_icon_ring", "key_icon_rule_width"))
    b.add(disc)
    # twenty-sixth breaker: `key_icon_ring = 4` put the disc out of the band, over its top rule and the card above
    inside = frame_inside(t, b.width, b.height)
    below_rule = top + t.number("band_rule_width") / 2 + LINES_APART_MM  # the ring a line of its own beside the band's rule
    b.keep_disc_inside(disc, Box(inside.x, below_rule, inside.width, inside.bottom - below_rule), "the key's disc",
                       "the coloured band (inside the card frame)", "key_icon_cy", "key_icon_size",
                       ("band_rule_width", "the band's top rule"))
    b.add(Icon("key", x + inset, cy - icon / 2 + inset, t.inner_size("key_icon_size", "key_icon_inset", "the key icon")))
    name = colour_name(t, colour)
    b.text("band", t.formatted("band_title", key=card.key), "band_title", color=text_colour)
    b.text("band_colour", t.formatted("band_subtitle", Colour=name, colour=name.lower()), "band_subtitle",
           color=text_colour)
    b.text("text", card.text, "event")
    footer(b, card.id, color=text_colour)
    return [(card.id, b)]


# ---- servants ------------------------------------------------------------------------------------------------
def servant(card: Servant, db: Database, make: Make):
    """Servant: portrait, range, damage, one hit point track per map colour (largest number first)."""
    b, t, ink = framed_card(make, "servant", db)
    b.text("kind", t.string("kind_label"), "kind_label")
    b.text("name", card.name, "title")
    _title_rule(b, t.number("title_rule_y"))
    size = t.number("portrait_size")
    px, py = t.number("portrait_x"), t.number("portrait_y")
    b.add(Rect(px, py, size, size, fill=tint(t.color("border"), t.number("portrait_tint"), t.color("panel")), stroke=ink,
               stroke_width=t.number("portrait_rule_width"), radius=t.number("portrait_radius"), frame="portrait",
               stroke_key="numbers.portrait_rule_width"))
    pad = t.number("portrait_pad")
    b.add(Icon(card.servant_type, px + pad, py + pad, t.inner_size("portrait_size", "portrait_pad", "the portrait's icon")))
    b.text("range", t.formatted("range", range=card.range), "range")
    hexes_word = t.string("hex_one" if card.range == 1 else "hex_many")
    t.could_read("strings.hex_one", "strings.hex_many")  # for a servant of another range
    b.text("range", t.formatted("range_note", range=card.range, hexes=hexes_word), "range_note")
    b.text("damage", t.formatted("damage", damage=card.damage, target=card.damage_to), "damage")
    b.text("damage", t.formatted("damage_note", Target=card.damage_to.capitalize()), "damage_note")
    b.text("hit points", t.string("hp_label"), "hp_label")
    box, step = t.number("hp_box"), t.number("hp_step")
    swatch_w, name_dx = t.number("hp_swatch_w"), t.number("hp_colour_dx")
    if swatch_w > name_dx - SWATCH_TEXT_GAP_MM + ROUNDING_SLACK:  # the colour's name printed over its own swatch (thirty-fourth
        # pnp breaker, HIGH 6: `hp_swatch_w = 4` put "Blue" over the blue, and check passed)
        changed = changed_number(t.path)
        key = "hp_colour_dx" if changed is not None and changed[0] == "hp_colour_dx" else "hp_swatch_w"
        bound = (f"at most {math.floor((name_dx - SWATCH_TEXT_GAP_MM) * 10 + 1e-9) / 10:g}" if key == "hp_swatch_w" else
                 f"at least {math.ceil((swatch_w + SWATCH_TEXT_GAP_MM) * 10 - 1e-9) / 10:g}")
        b.problems.append(b.at_number(key, f"the colour swatch ({swatch_w:g} mm wide) reaches under its name, which starts "
                                           f"{name_dx:g} mm from the swatch's left edge: the name must start "
                                           f"{SWATCH_TEXT_GAP_MM:g} mm past the swatch; set {key} to {bound}"))
    colours: tuple[MapColor, ...] = ("red", "blue", "yellow")
    # thirty-fifth pnp breaker, MED 10: `hp_colour_dx = 4` narrowed the names' box, and 'Yellow' was blamed in base.toml
    # ("shorten it"): the offset just changed is said, with the most that leaves the widest name its room
    name_spec = t.box("hp_colour")
    widest = max(text_width_mm(colour_name(t, colour), name_spec.font, name_spec.size[1]) for colour in colours)
    moved_names = False
    changed = changed_number(t.path)
    if changed is not None and changed[0] == "hp_colour_dx" and widest > name_spec.w - name_dx:
        moved_names = True
        # the most that fits the names in their box, and keeps them at their full size off the first space's thick outline
        widest_full = max(text_width_mm(colour_name(t, colour), name_spec.font, name_spec.size[0]) for colour in colours)
        clear = (t.number("hp_first_x") - t.number("hp_first_rule_width") / 2 - TEXT_INK_GAP_MM - t.number("hp_label_x")
                 - widest_full - FONT_METRIC_SLACK_MM)
        most = max(0.0, math.floor(min(name_spec.w - widest, clear) * 10 + 1e-9) / 10)
        b.problems.append(b.at_number("hp_colour_dx", f"the colour names' box ([boxes.hp_colour], {name_spec.w:g} mm) "
                                                      f"starts {name_dx:g} mm in, leaving {name_spec.w - name_dx:.2f} mm "
                                                      f"for names {widest:.2f} mm wide: set hp_colour_dx to at most {most:g}"))
    keep_space_outlines_apart(b, "hp_pitch")
    room = fitting(t.number("hp_first_x"), step, box, b.width)  # boxes a row holds inside the trim
    for row, colour in enumerate(colours):
        y = t.number("hp_top") + row * t.number("hp_pitch")
        points = card.hit_points[colour]
        if points > room:
            b.problems.append(FitProblem(card.id, f"hit_points.{colour}", "too many",
                                         f"{points} hit points do not fit the card's row of boxes (at most {room})"))
            points = room
        swatch = t.color(colour)
        b.add(Rect(t.number("hp_label_x"), y, swatch_w, box, fill=swatch))
        spec = t.box("hp_colour")
        said = len(b.problems)
        b.text("hit points", colour_name(t, colour), spec, box=Box(t.number("hp_label_x") + name_dx, y, spec.w - name_dx, box))
        if moved_names:  # the names did not grow: their box moved (said above at hp_colour_dx)
            b.problems[said:] = [problem for problem in b.problems[said:] if not problem.field.startswith("strings.colour_")]
        for index, value in enumerate(range(points, 0, -1)):
            x = t.number("hp_first_x") + index * step
            b.add(*numbered_box(x, y, box, str(value), ink, tint(swatch, t.number("hp_tint"), WHITE),
                                text_size=t.number("hp_size"), family="numerals", radius=t.number("space_radius"),
                                stroke_width=t.number("hp_first_rule_width") if index == 0 else t.number("hp_rule_width"),
                                stroke_key="numbers.hp_first_rule_width" if index == 0 else "numbers.hp_rule_width"))
    if card.text:
        b.text("text", card.text, "flavour")
    footer(b, card.id)
    return [(card.id, b)]


SWATCH_TEXT_GAP_MM = 0.5
"""Room (mm) between a servant's hit-point colour swatch and the colour's name beside it."""


def too_many_rows(b: CardBuilder, table: Table, room: float, row_text_h: float, text_spec: BoxSpec, keys: str) -> bool:
    """True, with one ``"too many"`` problem at ``table``'s ``rows`` (its line in ``cards.toml``), when the card's
    ``room`` mm for the table (the template's numbers ``keys``), shared equally between its rows, leaves each row's
    text box ``row_text_h`` mm: less than one line of ``text_spec`` (the row text's template box) at its smallest size.
    Such a box had no height and the text fitter raised (twenty-ninth breaker, finding 1: a layout that divides the card
    among more parts than it holds refuses them in one line). Says how many rows the card holds."""
    line = text_spec.size[1] * text_spec.line_spacing * MM_PER_PT
    if row_text_h >= line:
        return False
    per_row = room / len(table.rows) - row_text_h + line  # a row's height when its text box holds one line
    most = max(0, math.floor(room / per_row + 1e-9))
    b.problems.append(FitProblem(table.id, "rows", "too many",
                                 f"{len(table.rows)} rows do not fit the card {b.record_id} ({room:.1f} mm, {keys} of "
                                 f"templates/{b.template.path.name}): at most {most} rows of one line each; remove or "
                                 f"join rows"))
    return True


def fitting(first: float, pitch: float, size: float, limit: float) -> int:
    """How many boxes ``size`` mm long, ``pitch`` mm apart and the first at ``first`` mm, end by
    ``limit`` mm (one at least): the most hit points, track spaces or rows a card's template holds."""
    return max(1, math.floor((limit - first - size) / pitch + 1e-6) + 1)


# ---- character stats -------------------------------------------------------------------------------------------
KEY_SPACE_KEYS = ("key_head_h", "key_icon_dx", "key_icon_dy", "key_icon", "key_name_dy", "key_text_dy", "key_text_gap",
                  "key_rule_width", "key_w", "key_h")
"""The ``[numbers]`` keys of ``stats.toml`` that place a Warding Key space's head strip, its key icon, its name and its text:
a fault of :func:`_key_space_fault` is said at the one of them the designer changed, else at the key it names."""


def _key_space_fault(number: Callable[[str], float], baseline: float, text_top: float,
                     text_left: float) -> tuple[float, str, bool, str] | None:
    """The worst fault of the Character Stats card's Warding Key spaces as ``(how far, mm; the key that mends it; whether
    that key must grow; what is wrong, in words)``, ``None`` when there is none: the edge of the darker head strip
    (``key_head_h``) must lie :data:`TEXT_INK_GAP_MM` below the names' baseline (``baseline``, mm under ``key_name_dy``) and
    above the ink of the texts (``text_top``, mm under ``key_text_dy``) and of the key icon, so that no line stands half
    on the strip; the key icon's ink (:func:`pnp.layout.icon_ink.icon_ink`) keeps :data:`LINES_APART_MM` inside the
    space's outline and :data:`TEXT_INK_GAP_MM` left of the texts' ink (``text_left``, mm right of ``key_icon`` and
    ``key_text_gap``). Thirty-sixth pnp breaker, HIGH 4c: `key_head_h = 5` ran the strip's edge through "Grayking 1" and
    the key icons, `key_icon_dx = 0` laid the key across the space's left outline, and check passed."""
    size, dx, dy = number("key_icon"), number("key_icon_dx"), number("key_icon_dy")
    points = [(dx + x * size / 100, dy + y * size / 100, half * size / 100) for x, y, half in icon_ink("key")]
    icon_top = min(y - half for _, y, half in points)
    head, edge = number("key_head_h"), number("key_rule_width") / 2 + LINES_APART_MM
    faults = [(head - (min(number("key_text_dy") + text_top, icon_top) - TEXT_INK_GAP_MM), "key_head_h", False,
               "the edge of its head strip runs through its text or its key icon"),
              (number("key_name_dy") + baseline + TEXT_INK_GAP_MM - head, "key_head_h", True,
               "the edge of its head strip runs through its name"),
              (edge - min(x - half for x, _, half in points), "key_icon_dx", True,
               "its key icon runs into the space's left outline"),
              (max(x + half for x, _, half in points) - (number("key_w") - edge), "key_icon_dx", False,
               "its key icon runs into the space's right outline"),
              (max(x + half for x, _, half in points) - (size + number("key_text_gap") + text_left - TEXT_INK_GAP_MM),
               "key_icon_dx", False, "its key icon runs into its text"),
              (max(y + half for _, y, half in points) - (number("key_h") - edge), "key_icon_dy", False,
               "its key icon runs into the space's bottom outline")]
    worst = max(faults)
    return worst if worst[0] > ROUNDING_SLACK else None


def _keep_key_spaces_clear(b: CardBuilder, baseline: float, text_top: float, text_left: float) -> None:
    """A ``"template"`` problem when a Warding Key space of the Character Stats card has a fault of
    :func:`_key_space_fault` (``baseline``, ``text_top``, ``text_left`` as it takes them): said at the one of :data:`KEY_SPACE_KEYS` the
    designer changed (else at the key the fault names) with the nearest value, in tenths of a mm toward the shipped one,
    at which the spaces are clear."""
    fault = _key_space_fault(b.template.number, baseline, text_top, text_left)
    if fault is None:
        return
    depth, blamed, up, what = fault
    _said_at_the_key_changed(b, KEY_SPACE_KEYS, blamed, up, depth, lambda number: _key_space_fault(
        number, baseline, text_top, text_left) is None, lambda since, advice: f"a Warding Key space: {what} ({excess_mm(depth)}), "
                                                                                f"on {b.record_id}{since}: {advice}")


def keep_space_outlines_apart(b: CardBuilder, pitch_key: str, rows: bool = True, prefix: str = "hp",
                               what: str = "hit-point spaces") -> None:
    """A ``"template"`` problem when the outlines of two neighbouring spaces of a track (``<prefix>_box`` mm,
    ``<prefix>_step`` mm apart across, ``pitch_key`` mm down when there are ``rows``) touch: each outline is
    ``<prefix>_rule_width`` mm wide on the space's edge, half of it outside, so the outer edges of two neighbours' strokes
    meet once the width reaches the room between the spaces. Said at the one of those keys the designer changed (else at
    the rule width) with the nearest value, in tenths of a mm, at which they stay apart
    (:func:`_said_at_the_key_changed`). The hit-point spaces' (``prefix`` ``hp``) first, thicker outline is not judged (the
    shipped templates' own outline reaches 0.05 mm past its neighbour's); a track of one column (the player card's point
    track, ``prefix`` ``track``: ``pitch_key`` ``track_pitch``, no step across) passes ``rows`` alone. Forty-first pnp
    breaker, finding 4: a servant's `hp_rule_width` up to 1.3 passed, where spaces 9.9 mm on a 10.3 mm step are 0.4 mm
    apart, and the outlines printed over each other; forty-fourth, LOW 14: the player card's spaces were let overlap."""
    across = [f"{prefix}_step"] if prefix == "hp" else []
    keys = (f"{prefix}_rule_width", *across, *([pitch_key] if rows else []), f"{prefix}_box")

    def steps(number: Callable[[str], float]) -> list[float]:
        return [number(key) for key in across] + ([number(pitch_key)] if rows else [])

    def overlap(number: Callable[[str], float]) -> float:  # how far (mm) past touching the neighbours' outlines reach
        return number(f"{prefix}_rule_width") - (min(steps(number)) - number(f"{prefix}_box"))

    depth = overlap(b.template.number)
    if depth < -ROUNDING_SLACK:
        return
    number = b.template.number
    _said_at_the_key_changed(
        b, keys, f"{prefix}_rule_width", False, depth, lambda tried: overlap(tried) < -ROUNDING_SLACK,
        lambda since, advice: f"the outlines of neighbouring {what} ({number(f'{prefix}_rule_width'):g} mm wide, on spaces "
                              f"{number(f'{prefix}_box'):g} mm wide every {min(steps(number)):g} mm) touch or print over "
                              f"each other, on {b.record_id}{since}: {advice}")


def _said_at_the_key_changed(b: CardBuilder, keys: tuple[str, ...], blamed: str, up: bool, depth: float,
                             clear: Callable[[Callable[[str], float]], bool], words: Callable[[str, str], str]) -> None:
    """Append a ``"template"`` problem of ``depth`` mm at the one of ``keys`` the designer changed (else at ``blamed``, the
    key the fault names, which moves ``up`` to clear it), with the nearest value, in tenths of a mm toward the shipped
    one, at which ``clear(number)`` holds (``number``: the template's numbers with that key tried);
    ``words(since, advice)`` is the line (``since``: the key's value and the shipped one, ``advice``: what to set)."""
    t = b.template
    changed = changed_number(t.path)
    key, shipped = changed if changed is not None and changed[0] in keys else (blamed, None)
    value = t.number(key)
    up = shipped > value if shipped is not None else up
    fits = first_passing_tenth(value, shipped, up, lambda tried: clear(lambda name: tried if name == key else t.number(name)))
    since = f", since {key} is {value:g} (the shipped templates have {shipped:g})" if shipped is not None else ""
    advice = f"set {key} to {'at least' if up else 'at most'} {fits:g}" if fits is not None else f"change [numbers] {key}"
    b.problems.append(b.at_number(key, words(since, advice), over=depth))


def stats(card: Stats, db: Database, make: Make):
    """Character Stats: Mana and Spirit tracks (columns of seven) and the three Warding Keys."""
    b, t, ink = framed_card(make, "stats", db)
    b.text("title", card.title, "title")
    _title_rule(b, t.number("title_rule_y"))
    b.text("mana", t.string("mana_head"), "mana_head")
    b.text("spirit", t.string("spirit_head"), "spirit_head")
    per_column = math.ceil((card.track_high - card.track_low + 1) / card.track_columns)
    box_w, box_h = t.number("box_w"), t.number("box_h")
    rows = fitting(t.number("track_top"), t.number("row_pitch"), box_h, t.box("keys_label").y)  # above the Warding Keys
    columns = min(fitting(t.number("mana_x"), t.number("col_pitch"), box_w, t.number("spirit_x")),
                  fitting(t.number("spirit_x"), t.number("col_pitch"), box_w, b.width))
    high = card.track_high
    if card.track_columns > columns:
        b.problems.append(FitProblem(card.id, "track_columns", "too many",
                                     f"{card.track_columns} columns of a track do not fit beside the other track (at most {columns} "
                                     f"with mana_x, spirit_x and col_pitch of {t.path.parent.name}/{t.path.name})"))
        high = card.track_low - 1
    elif per_column > rows:
        most = rows * card.track_columns
        b.problems.append(FitProblem(card.id, "track_high", "too many",
                                     f"the tracks from {card.track_low} to {card.track_high} need {per_column} rows in "
                                     f"{card.track_columns} columns; the card holds {rows} (at most {most} spaces a track"
                                     f"{f', or {rows * columns} in {columns} columns' if columns > card.track_columns else ''}), "
                                     f"as {t.keys_at('track_top', 'row_pitch', 'box_h')} lay out the rows"))
        high = card.track_low + most - 1
        per_column = rows
    t.could_read("colors.start", "numbers.start_rule_width", "numbers.start_size")  # the start space, wherever it is
    for _track, x0 in (("mana", t.number("mana_x")), ("spirit", t.number("spirit_x"))):
        for value in range(card.track_low, high + 1):
            column, row = divmod(value - card.track_low, per_column)
            x = x0 + column * t.number("col_pitch")
            y = t.number("track_top") + row * t.number("row_pitch")
            start = value == card.track_start
            b.add(Rect(x, y, box_w, box_h, fill=t.color("start") if start else t.color("space"), stroke=ink,
                       stroke_width=t.number("start_rule_width") if start else t.number("box_rule_width"),
                       stroke_key="numbers.start_rule_width" if start else "numbers.box_rule_width",
                       radius=t.number("box_radius"), space=True))
            b.add(*label(x + box_w / 2, y + box_h / 2 + t.number("number_dy"), str(value),
                         t.number("start_size") if start else t.number("number_size"), ink, family="numerals",
                         placed_by=("", "numbers.number_dy")))
    b.text("keys", t.string("keys_label"), "keys_label")
    # the names' lowest baseline under key_name_dy, the texts' highest ink under key_text_dy, their leftmost past the icon
    baseline, text_top, text_left = 0.0, math.inf, math.inf
    name_spec, text_spec = t.box("key_name"), t.box("key_text")
    key_w, radius = t.number("key_w"), t.number("key_radius")
    for index, key in enumerate(sorted(card.keys, key=lambda k: k.key)):
        field = f"keys[{card.keys.index(key)}]"  # the key's place in the record, for its cards.toml line
        x = t.number("key_x") + index * t.number("key_pitch")
        y = t.number("keys_top")
        size = t.number("key_icon")
        swatch = t.color(key.color)
        b.add(Rect(x, y, key_w, t.number("key_h"), fill=tint(swatch, t.number("key_tint"), WHITE), stroke=ink,
                   stroke_width=t.number("key_rule_width"), radius=radius, stroke_key="numbers.key_rule_width"))
        b.add(Rect(x, y, key_w, t.number("key_head_h"), fill=tint(swatch, t.number("key_head_tint"), WHITE), radius=radius))
        name_dx = t.number("key_name_dx")
        named = b.text(field, t.formatted("key_name", key=key.key, Colour=colour_name(t, key.color)), name_spec,
                       box=Box(x + name_dx, y + t.number("key_name_dy"), key_w - 2 * name_dx, name_spec.h))
        b.add(Icon("key", x + t.number("key_icon_dx"), y + t.number("key_icon_dy"), size))
        said = b.text(f"{field}.text", key.text, text_spec,
                      box=Box(x + size + t.number("key_text_gap"), y + t.number("key_text_dy"),
                              key_w - size - t.number("key_text_gap") - t.number("key_text_margin"), text_spec.h))
        # a name over its box is said as such (at the string that made it long, or at the key's record): the head strip
        # through its spilt lines follows from that (forty-first pnp breaker, finding 3: `colour_red = "Redddddddddd"`
        # was also said at stats.toml's key_head_h, a number no one changed)
        lines = [line.y for line in named.items if isinstance(line, TextLine)] if named.fits else []
        baseline = max([baseline] + [line - y - t.number("key_name_dy") for line in lines])
        text_top = min([text_top] + [box.y - y - t.number("key_text_dy") for *_, box in ink_boxes(said.items)])
        text_left = min([text_left] + [box.x - x - size - t.number("key_text_gap") for *_, box in ink_boxes(said.items)])
    if card.keys:
        _keep_key_spaces_clear(b, baseline, text_top, text_left)
    footer(b, card.id)
    return [(card.id, b)]


# ---- spell paths --------------------------------------------------------------------------------------------------
def _cost_text(spell: Spell, t: Template) -> str:
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
        return t.formatted("learn_cost", cost=amount(spell.learn_cost))
    return ""


def _spell_boxes(number: Callable[[str], float], rows: dict[int, list[Spell]]) -> dict[str, Box]:
    """The box (card mm) of each spell of a Spell Path card by id, its row's spells ``rows`` (row number: spells), the
    template's numbers read through ``number``: one wide box alone in its row, else two columns."""
    boxes: dict[str, Box] = {}
    for row, members in rows.items():
        y = number("grid_top") + (row - 1) * number("row_pitch")
        for spell in members:
            if len(members) == 1:
                box = Box(number("wide_x"), y, number("wide_w"), number("box_h"))
            else:
                x = number("col_1_x") if spell.slot[1] == 1 else number("col_2_x")
                box = Box(x, y, number("box_w"), number("box_h"))
            boxes[spell.id] = box
    return boxes


def _spell_arrow(number: Callable[[str], float], start: Box, end: Box, ink: str) -> list[Primitive]:
    """The arrow (shaft, head) from the spell box ``start`` down to the box ``end`` it opens, the template's numbers
    read through ``number``."""
    x1 = start.x + start.width / 2
    x2 = end.x + end.width / 2
    if end.width > start.width:  # into a wide box: aim at the part of it below the source
        aim = number("arrow_aim_inset")
        x2 = min(max(x1, end.x + aim), end.right - aim)
    return arrow(x1, start.bottom, x2, end.y - number("arrow_gap"), ink, number("arrow_width"), number("arrow_head"),
                 number("arrow_spread"), width_key="numbers.arrow_width", head_key="numbers.arrow_spread")


ARROW_KEYS = ("row_pitch", "box_h", "arrow_gap", "arrow_head", "arrow_width", "arrow_spread", "arrow_aim_inset",
              "box_rule_width", "grid_top", "col_1_x", "col_2_x", "box_w", "wide_x", "wide_w")
"""The ``[numbers]`` keys of ``spell_path.toml`` that place or shape the Spell Path's boxes and arrows: an arrow made
unreadable (:func:`_arrow_fault`) is said at the one of them the designer changed."""


def _convex_apart(first: list[tuple[float, float]], second: list[tuple[float, float]]) -> float:
    """How far apart (mm) the convex polygons ``first`` and ``second`` are; negative (or 0) when they meet. The largest
    gap between their shadows on any axis of an edge's normal or from a corner of one to a corner of the other (the
    distance of two convex polygons lies along one of these)."""
    axes = []
    for points in (first, second):
        for (x1, y1), (x2, y2) in zip(points, points[1:] + points[:1]):
            axes.append((y1 - y2, x2 - x1))
    axes += [(bx - ax, by - ay) for ax, ay in first for bx, by in second]
    best = -math.inf
    for ax, ay in axes:
        length = math.hypot(ax, ay)
        if length < ROUNDING_SLACK:
            continue
        ax, ay = ax / length, ay / length
        one = [x * ax + y * ay for x, y in first]
        two = [x * ax + y * ay for x, y in second]
        best = max(best, min(two) - max(one), min(one) - max(two))
    return best


def _shaft_outline(line: Line) -> list[tuple[float, float]]:
    """The four corners (mm) of the ink of the straight ``line`` (butt ends)."""
    length = math.hypot(line.x2 - line.x1, line.y2 - line.y1) or 1.0
    nx, ny = -(line.y2 - line.y1) / length * line.stroke_width / 2, (line.x2 - line.x1) / length * line.stroke_width / 2
    return [(line.x1 + nx, line.y1 + ny), (line.x2 + nx, line.y2 + ny), (line.x2 - nx, line.y2 - ny), (line.x1 - nx, line.y1 - ny)]


def _arrow_fault(number: Callable[[str], float], rows: dict[int, list[Spell]], spells: list[Spell]) -> tuple[str, str] | None:
    """What makes an arrow of a Spell Path card unreadable, in words, with the key to blame when the designer changed
    none of :data:`ARROW_KEYS`; ``None`` when every arrow shows whole (thirty-sixth pnp breaker, HIGH 3). Each arrow's
    head lies whole between the two rows of boxes (off the ink of the box it starts from and above the outline of the one
    it points to), stands :data:`LINES_APART_MM` out of its shaft on either side, and keeps that far from every other
    arrow and off every other spell box."""
    boxes = _spell_boxes(number, rows)
    half_rule = number("box_rule_width") / 2
    names = {spell.id: spell.name for spell in spells}
    arrows = []
    for spell in spells:
        for target in spell.opens:
            start, end = boxes[spell.id], boxes[target]
            shaft, tip = _spell_arrow(number, start, end, "#000000")
            assert isinstance(shaft, Line) and isinstance(tip, Polyline)
            arrows.append((spell.id, target, shaft, list(tip.points), start, end))
    for source, target, shaft, head, start, end in arrows:
        room = end.y - start.bottom - 2 * half_rule  # between the two boxes' inks
        # the head's base below the ink of the box it starts from, its tip above the outline it points to (a slanting
        # head's wing may tuck under the target's outline, as the shipped ones do)
        if shaft.y2 < start.bottom + half_rule - ROUNDING_SLACK or head[0][1] > end.y - half_rule + ROUNDING_SLACK:
            need = head[0][1] - shaft.y2 + number("arrow_gap")
            shows = "no arrow shows" if head[0][1] <= start.bottom + half_rule or room <= 0 else "the arrows show only in part"
            return (f"the arrow from {names[source]} to {names[target]} has no room between the rows of spell boxes "
                    f"({max(room, 0.0):.1f} mm between their outlines, its head and gap need {need:.1f} mm), so {shows} "
                    f"and the card does not say which spell opens which", "row_pitch")
    head_half, shaft_half = number("arrow_head") * number("arrow_spread"), number("arrow_width") / 2
    if head_half - shaft_half < LINES_APART_MM - ROUNDING_SLACK:
        return (f"an arrowhead is {2 * head_half:.1f} mm wide on a shaft {2 * shaft_half:g} mm wide, so it does not stand "
                f"{LINES_APART_MM:g} mm out of the shaft either side and the arrow reads as a bar", "arrow_width")
    for index, (source, target, _, head, _, _) in enumerate(arrows):
        for other, (other_source, other_target, other_shaft, other_head, _, _) in enumerate(arrows):
            if other == index or other_target == target:  # arrows into one box meet at it by design
                continue
            for shape, what in ((other_head, "the head of"), (_shaft_outline(other_shaft), "")):
                if _convex_apart(head, shape) < LINES_APART_MM - ROUNDING_SLACK:
                    return (f"the head of the arrow from {names[source]} to {names[target]} runs into {what or 'the shaft of'}"
                            f" the arrow from {names[other_source]} to {names[other_target]} (they must stay "
                            f"{LINES_APART_MM:g} mm apart)", "arrow_spread")
        for spell_id, box in boxes.items():
            if spell_id == target:
                continue
            ink = box.inset(-half_rule)
            outline = [(ink.x, ink.y), (ink.right, ink.y), (ink.right, ink.bottom), (ink.x, ink.bottom)]
            if _convex_apart(head, outline) < -ROUNDING_SLACK:
                return (f"the head of the arrow from {names[source]} to {names[target]} runs under the box of "
                        f"{names[spell_id]}", "arrow_spread")
    return None


_ARROW_CAUSES = {"row_pitch": ("row_pitch", "box_h", "arrow_head", "arrow_gap", "box_rule_width"),
                 "arrow_width": ("arrow_width", "arrow_spread", "arrow_head"),
                 "arrow_spread": ("arrow_spread", "arrow_head", "arrow_aim_inset")}
"""For each kind of arrow fault (by the key :func:`_arrow_fault` blames), the keys that make it, the likeliest first: of
several changed, the first changed is said."""


def _keep_arrows_visible(b: CardBuilder, face_id: str, rows: dict[int, list[Spell]], spells: list[Spell]) -> None:
    """A ``"template"`` problem when an arrow of the Spell Path card ``face_id`` is unreadable (:func:`_arrow_fault`):
    at the one of :data:`ARROW_KEYS` the designer changed, else at the key the fault names, with the nearest value (in
    tenths of a mm, toward the shipped one when known) at which every arrow shows. Thirty-sixth pnp breaker, HIGH 3:
    `row_pitch = 12.9` deleted every arrow, `arrow_width = 5` drew bars, `arrow_spread = 6` heads over each other, and
    check passed."""
    number = b.template.number
    fault = _arrow_fault(number, rows, spells)
    if fault is None:
        return
    what, blamed = fault
    changed = changed_number(b.template.path)
    shipped: float | None = None
    if changed is not None and changed[0] in ARROW_KEYS:
        key, shipped = changed
    else:  # several numbers changed: the one of them that makes this kind of fault, with the others as they are
        edited = {dotted.split(".", 1)[1]: was for dotted, _, was in changed_keys(b.template.path)
                  if dotted.startswith("numbers.") and isinstance(was, (int, float))}
        key = next((name for name in _ARROW_CAUSES[blamed] if name in edited), blamed)
        shipped = edited.get(key)
    value = number(key)
    up = shipped > value if shipped is not None else key in ("row_pitch", "arrow_gap")

    def passes(tried: float) -> bool:
        after = _arrow_fault(lambda name: tried if name == key else number(name), rows, spells)
        # the one number changed: every arrow whole at the value said; of several, this kind of fault gone (the next said then)
        return after is None or (changed is None and after[1] != blamed)

    fits = first_passing_tenth(value, shipped, up, passes)
    since = f", since {key} is {value:g} (the shipped templates have {shipped:g})" if shipped is not None else ""
    advice = f"set {key} to {'at least' if up else 'at most'} {fits:g}" if fits is not None else f"change [numbers] {key}"
    b.problems.append(b.at_number(key, f"{what}, on {face_id}{since}: {advice}", over=abs(value - fits) if fits is not None else 0.0))


SPELL_ROW_KEYS = ("row_pitch", "grid_top", "box_h")
"""The ``[numbers]`` keys of ``spell_path.toml`` that say how many rows of spell boxes end above the footer."""


def _rows_cut_by_template_edit(b: CardBuilder, face_id: str, spells: list[Spell], most: int) -> bool:
    """Whether the spells of the Spell Path card ``face_id`` ask for more rows than the ``most`` its template holds above
    the footer only because the designer changed one of :data:`SPELL_ROW_KEYS` (the shipped value holds them all): then
    a ``"template"`` problem is said at that key, with the nearest value (in tenths of a mm) at which every row ends
    above the footer. Thirty-seventh pnp breaker, MED 4: `row_pitch = 16.4` (the frame check's own advice) was blamed on
    three spells' `slot` in cards.toml, which no one had changed; the real bound is 15.9."""
    need = max((spell.slot[0] for spell in spells), default=0)
    changed = changed_number(b.template.path)
    if need <= most or changed is None or changed[0] not in SPELL_ROW_KEYS or not isinstance(changed[1], (int, float)):
        return False
    t = b.template
    key, shipped = changed[0], float(changed[1])

    def rows(name: str, tried: float) -> int:
        values = {"grid_top": t.number("grid_top"), "row_pitch": t.number("row_pitch"), "box_h": t.number("box_h"), name: tried}
        return fitting(values["grid_top"], values["row_pitch"], values["box_h"], t.box("footer").y)
    if rows(key, shipped) < need:
        return False  # the shipped value holds no more rows: the spells' slots are what asks too much
    value = t.number(key)
    up = shipped > value
    fits = first_passing_tenth(value, shipped, up, lambda tried: rows(key, tried) >= need)
    first = next(spell.id for spell in spells if spell.slot[0] > most)
    advice = f"set {key} to {'at least' if up else 'at most'} {fits:g}" if fits is not None else f"change it back toward {shipped:g}"
    b.problems.append(b.at_number(key, f"row {need} of spells (on {face_id}: {first}) runs into the footer, the card holds "
                                       f"rows 1-{most} above it, since {key} is {value:g} (the shipped templates have "
                                       f"{shipped:g}): {advice}", over=abs(value - fits) if fits is not None else 0.0))
    return True


def spell_path(card: SpellPath, db: Database, make: Make):
    """Spell Path: the type's spells as a tree of boxes (rows by ``slot``), arrows along ``opens``."""
    b = make("spell_path", *card_size(db))
    t = b.template
    ink = t.color("ink")
    band = t.color(card.spell_type)
    frame(b, t.number("border"), band, t.color("panel"), ink)
    _title_band_with_icon(b, card.title, card.spell_type, band)
    b.text("summary", card.summary, "summary")
    spells = [s for s in db.solo.spell if s.spell_type == card.spell_type]
    rows: dict[int, list[Spell]] = {}
    most = fitting(t.number("grid_top"), t.number("row_pitch"), t.number("box_h"), t.box("footer").y)  # rows above the footer
    if _rows_cut_by_template_edit(b, card.id, spells, most):
        most = max(spell.slot[0] for spell in spells)  # said once at the number changed, not at each spell's slot
    for spell in spells:
        if spell.slot[0] > most:  # twelfth breaker: reported as a safe-area problem of the card, the slot unnamed
            b.problems.append(FitProblem(spell.id, "slot", "too many", f"row {spell.slot[0]} does not fit a Spell Path card "
                                                                       f"(rows 1-{most})"))
        rows.setdefault(spell.slot[0], []).append(spell)
    boxes = _spell_boxes(t.number, rows)
    # spells of one box a row or two, learnable or not, with a cost or a cost to learn: each path reads the keys of all
    t.could_read("numbers.wide_x", "numbers.wide_w", "numbers.box_w", "numbers.col_1_x", "numbers.col_2_x", "colors.box",
                 "colors.gray", "numbers.locked_tint", "strings.spell_text", "strings.learn_cost")
    for spell in spells:  # arrows first, boxes paint over their ends
        for target in spell.opens:
            b.add(*_spell_arrow(t.number, boxes[spell.id], boxes[target], ink))
    _keep_arrows_visible(b, card.id, rows, spells)
    disc = t.number("disc_inset")
    name_dx, text_dx = t.number("name_dx"), t.number("text_dx")
    for spell in spells:
        box = boxes[spell.id]
        fill = t.color("box") if spell.learnable else tint(t.color("gray"), t.number("locked_tint"), WHITE)
        b.add(Rect(box.x, box.y, box.width, box.height, fill=fill, stroke=ink, stroke_width=t.number("box_rule_width"),
                   stroke_key="numbers.box_rule_width",
                   radius=t.number("box_radius"), named="the spell box"))
        position = circle_number(box.x + disc, box.y + disc, t.number("disc_r"), str(spell.position), ink, t.color("disc"),
                                 t.color("panel"), t.number("disc_size"), t.number("disc_rule_width"))
        b.add(*position)
        b.keep_number_in_disc(str(spell.position), t.number("disc_r"), t.number("disc_rule_width"), t.number("disc_size"))
        name = t.box("spell_name")
        named = b.text("name", spell.name, name, record=spell.id,
                       box=Box(box.x + name_dx, box.y + t.number("name_dy"), box.width - name_dx - t.number("name_margin"),
                               name.h))
        cost = _cost_text(spell, t)
        text = t.formatted("spell_text", cost=cost, text=spell.text) if cost else spell.text
        body = t.box("spell_text")
        text_top = box.y + t.number("text_dy")
        fitted = b.text("text", text, body, record=spell.id,
                        box=Box(box.x + text_dx, text_top, box.width - 2 * text_dx, box.bottom - t.number("text_bottom") - text_top))
        disc_shape = position[0]
        assert isinstance(disc_shape, Circle)
        b.keep_icons_off_disc(disc_shape, fitted.items, "the position disc", "text_dy", spell.id)
        b.keep_text_off_disc(disc_shape, named.items, "the spell's name", "the position disc", "name_dx", spell.id)
    footer(b, card.id)
    return [(card.id, b)]


# ---- progress track ------------------------------------------------------------------------------------------------
def progress_track(track: ProgressTrack, db: Database, make: Make):
    """The Grayking's Progress Track: a board over ``track.cards`` cards, spaces in a snake of two rows."""
    card_w, card_h = card_size(db)
    width = card_w * track.cards
    b = make("progress_track", width, card_h)
    t = b.template
    ink = t.color("ink")
    per_row = int(t.number("per_card_row")) * track.cards
    band_spec = t.box("title_band")
    for index in range(track.cards):  # one frame per card: each card is cut on its own
        cell = make("progress_track", card_w, card_h)
        frame(cell, t.number("border"), t.color("border"), t.color("panel"), ink)
        # its bleed on the board's outer edges only: at a seam it would cover the card beside it (with a 10 mm bleed,
        # the next card's border hid the end of this card's title and labels; twentieth round's contrast check)
        left = b.bleed if index == 0 else 0.0
        right = b.bleed if index == track.cards - 1 else 0.0
        clip = Box(card_w * index - left, -b.bleed, card_w + left + right, card_h + 2 * b.bleed)
        b.add(Group(tuple(cell.items), dx=card_w * index, clip=clip))
    for index in range(track.cards):  # the bands and titles over every frame
        band = Box(card_w * index + band_spec.x, band_spec.y, band_spec.w, band_spec.h)
        title_band(b, band, t.color("band"), t.color("band_hatch"), t.color("rule"))
        title = track.title if index == 0 else t.formatted("continued", title=track.title)
        spec = t.box("title")
        b.text("title", title, spec, box=Box(spec.x + card_w * index, spec.y, spec.w, spec.h))
    box, pitch = t.number("box"), t.number("pitch")
    per_card = int(t.number("per_card_row"))

    def position(space: int) -> tuple[float, float]:
        index = space - 1
        row, along = divmod(index, per_row)
        if row % 2:
            along = per_row - 1 - along
        card_index, column = divmod(along, per_card)
        x = card_w * card_index + t.number("first_x") + column * pitch
        y = t.number("row_1_y") if row == 0 else t.number("row_2_y")
        return x, y

    cards_word = "card" if track.cards == 1 else "cards"
    if track.spaces > 2 * per_row:
        over = track.spaces - 2 * per_row
        b.problems.append(FitProblem(track.id, "spaces", "spaces over",
                                     f"{track.spaces} spaces do not fit on {track.cards} {cards_word} (at most {2 * per_row}); "
                                     "lower spaces or raise cards", over=over))
    elif track.cards > 1 and track.spaces <= 2 * (per_row - per_card):  # a card of the snake would print empty
        fewest = math.ceil(track.spaces / (2 * per_card))
        b.problems.append(FitProblem(track.id, "cards", "too many",
                                     f"{track.spaces} spaces fill {fewest} {'card' if fewest == 1 else 'cards'} "
                                     f"({2 * per_card} a card); set cards = {fewest} or add spaces"))
    centres = [(x + box / 2, y + box / 2) for x, y in (position(s) for s in range(1, track.spaces + 1))]
    b.add(Polyline(tuple(centres), stroke=t.color("road"), stroke_width=t.number("road_width"), stroke_key="numbers.road_width"))
    names = {place.space: place.name for place in track.names}
    starts = {space: t.string(level) for level, space in track.start.items()}
    label_spec = t.box("space_label")
    for space in range(1, track.spaces + 1):
        x, y = position(space)
        last = space == track.spaces
        fill = t.color("lassadar") if last else (t.color("start") if space in starts else t.color("space"))
        b.add(Rect(x, y, box, box, fill=fill, stroke=ink,
                   stroke_width=t.number("marked_rule_width") if space in starts or last else t.number("space_rule_width"),
                   stroke_key="numbers.marked_rule_width" if space in starts or last else "numbers.space_rule_width",
                   radius=t.number("space_radius"), space=True))
        b.add(*label(x + t.number("number_dx"), y + t.number("number_dy"), str(space), t.number("number_size"),
                     t.color("panel") if last else t.color("muted"), family="numerals", anchor="start",
                     placed_by=("numbers.number_dx", "numbers.number_dy")))
        if space == 1:
            b.add(Icon("grayking", x + t.number("first_icon_dx"), y + t.number("first_icon_dy"), t.number("first_icon_size")))
        elif last:
            b.add(Icon("lassadar", x + t.number("last_icon_dx"), y + t.number("last_icon_dy"), t.number("last_icon_size")))
        elif space in starts:
            b.add(*label(x + box / 2, y + box / 2 + t.number("start_dy"), starts[space].split()[0], t.number("start_size"),
                         ink, family="numerals", placed_by=("", "numbers.start_dy")))
        under = []
        if space in starts:
            under.append(starts[space].split(" ", 1)[1])
        if space in names:
            under.append(names[space])
        if last:
            under.append(t.string("lose"))
        if under:  # named at the place name's own key (sixteenth breaker: said at the first name's line as "space N")
            named = next((f"names[{index}].name" for index, place in enumerate(track.names) if place.space == space), None)
            level = next((level for level, start in track.start.items() if start == space), None)
            field = named or (f"start.{level}" if level is not None else "spaces")
            b.text(field, t.string("label_separator").join(under), label_spec,
                   box=Box(x + box / 2 - label_spec.w / 2, y + box + t.number("label_gap"), label_spec.w, label_spec.h))
    note = t.box("note")
    b.text("legend", t.string("legend"), note)
    if track.cards > 1:
        b.text("reminder", t.string("reminder"), note, box=Box(note.x + card_w * (track.cards - 1), note.y, note.w, note.h))
    for index in range(track.cards):
        spec = t.box("footer")
        b.text("footer", f"{track.id}.card-{index + 1}", spec, box=Box(spec.x + card_w * index, spec.y, spec.w, spec.h))
    return [(track.id, b)]


# ---- table cards -------------------------------------------------------------------------------------------------------
def _roll_label(rolls: tuple[int, ...], dice: str, last: bool, t: Template) -> str:
    """A table row's roll as printed: a range or "and above" of a difference table, else its rolls joined."""
    t.could_read("strings.roll_separator", "strings.roll_range", "strings.roll_and_above")  # for a table of the other kind
    if dice == "difference":
        if last:
            return t.formatted("roll_and_above", low=min(rolls))
        return t.formatted("roll_range", low=min(rolls), high=max(rolls)) if len(rolls) > 1 else str(rolls[0])
    return t.string("roll_separator").join(str(r) for r in rolls)


def table_card(card: TableCard, db: Database, make: Make):
    """A table card: title band with its icon, the rows with die faces (d6) or numbers."""
    b = make("table_card", *card_size(db))
    t = b.template
    ink = t.color("ink")
    table = db.table(card.table)
    frame(b, t.number("border"), t.color("border"), t.color("panel"), ink)
    _title_band_with_icon(b, card.title, card.icon, t.color("band"))
    # read only for some tables' rows, printed or not (twenty-ninth breaker: with no difference table they were "read by no layout")
    t.reads_only_for("table card has a difference table", "strings.roll_range", "strings.roll_and_above")
    # thirtieth breaker: with no d6 table card left, die_max/die_margin were "read by no layout" (a typo's words)
    t.reads_only_for("table card has a d6 table", "numbers.die_max", "numbers.die_margin")
    subtitles = (f"subtitle_{card.icon}", f"subtitle_{table.dice}")
    t.read_by_value("strings.subtitle_", "table card's icon or dice", card.icon, table.dice,
                    possible=[*INLINE_ICONS, *typing.get_args(DiceKind)])
    subtitle = t.optional_string(subtitles[0]) or t.optional_string(subtitles[1])
    if not any(name in t.strings for name in subtitles):  # twenty-seventh breaker: the card printed an empty band
        t.shipped_missing("strings", subtitles)  # one deleted from the template: missing there, with what it said
        b.problems.append(FitProblem(card.id, "icon", "unknown icon",
                                     f"templates/{t.path.name} has no subtitle for a table card with icon {card.icon!r}: "
                                     f"add strings.{subtitles[0]} there (or choose an icon that has one)"))
        t.could_read(*(f"strings.{name}" for name in t.strings if name.startswith("subtitle_")))  # not unread for this
    t.formatted("named_row", name="", text="")  # read (and its placeholders checked) whether or not a row has a name: a key no layout reads is a typo
    if subtitle:
        b.text("subtitle", subtitle, "subtitle")
    top, bottom = t.number("rows_top"), t.number("rows_bottom")
    height = (bottom - top) / len(table.rows)
    roll_spec, text_spec = t.box("roll"), t.box("row_text")
    pad = t.number("text_pad")
    if too_many_rows(b, table, bottom - top, height - 2 * pad, text_spec, "rows_top to rows_bottom"):
        footer(b, card.id)
        return [(card.id, b)]
    for index, row in enumerate(table.rows):
        y = top + index * height
        if index % 2 == 0:
            b.add(Rect(t.number("rows_x"), y, t.number("shade_w"), height, fill=t.color("row_shade")))
        if table.dice == "d6" and len(row.roll) == 1:
            size = min(height - t.number("die_margin"), t.number("die_max"))
            b.add(Icon(f"d6-{row.roll[0]}", t.number("roll_x") + (t.number("roll_w") - size) / 2, y + (height - size) / 2, size))
        else:
            last = index == len(table.rows) - 1
            b.text(f"rows[{index}].roll", _roll_label(row.roll, table.dice, last, t), roll_spec,
                   box=Box(t.number("roll_x"), y, t.number("roll_w"), height), record=table.id)
        text = t.formatted("named_row", name=row.name, text=row.text) if row.name else row.text
        t.could_read("strings.named_row")  # for a table whose rows are named
        # The row's words are the table record's (cards.toml), not the card's: problems name the table.
        b.text(f"rows[{index}].text", text[:1].upper() + text[1:], text_spec,
               box=Box(t.number("text_x"), y + pad, text_spec.w, height - 2 * pad), record=table.id)
    b.add(Line(t.number("rows_x"), bottom, t.number("rows_right"), bottom, ink, t.number("rows_rule_width"), stroke_key="numbers.rows_rule_width"))
    footer(b, card.id)
    return [(card.id, b)]


def counter_card(card: CounterCard, db: Database, make: Make):
    """A Last Stand counter card: the counters at the card's positions, each with number, name and text."""
    b = make("counter_card", *card_size(db))
    t = b.template
    ink = t.color("ink")
    table = db.table(card.table)
    frame(b, t.number("border"), t.color("border"), t.color("panel"), ink)
    _title_band_with_icon(b, card.title, card.spell_type, t.color("band"))
    b.text("subtitle", t.string("subtitle"), "subtitle")
    rows = [next(r for r in table.rows if position in r.roll) for position in card.positions]
    top, bottom = t.number("rows_top"), t.number("rows_bottom")
    height = min((bottom - top) / max(len(rows), 1), t.number("row_max_h"))
    for index, (position, row) in enumerate(zip(card.positions, rows)):
        y = top + index * height
        if index:
            b.add(*ornament_rule(t, t.number("row_rule_left"), t.number("row_rule_right"), y - t.number("row_rule_dy"),
                                 t.color("muted")))
        b.add(*circle_number(t.number("disc_x"), y + t.number("disc_dy"), t.number("disc_r"), str(position), ink, t.color("disc"),
                             t.color("panel"), t.number("disc_size"), t.number("disc_rule_width")))
        b.keep_number_in_disc(str(position), t.number("disc_r"), t.number("disc_rule_width"), t.number("disc_size"))
        name = t.box("name")
        row_index = table.rows.index(row)  # the row's place in the table record that holds its words
        b.text(f"rows[{row_index}].name", row.name, name, box=Box(t.number("text_x"), y + t.number("name_dy"), name.w, name.h),
               record=table.id)
        text = t.box("text")
        b.text(f"rows[{row_index}].text", row.text[:1].upper() + row.text[1:], text,
               box=Box(t.number("text_x"), y + t.number("text_dy"), text.w, min(text.h, height - t.number("text_room"))),
               record=table.id)
    footer(b, card.id)
    return [(card.id, b)]


RECHARGE_KEYS = ("recharge_dx", "recharge_dy", "recharge_size", "hp_box", "hp_rule_width", "hp_first_rule_width")
"""The ``[numbers]`` keys of ``last_stand.toml`` that place the recharge icon in its hit-point space or draw the space: an
icon out of its space (:func:`_recharge_fault`) is said at the one of them the designer changed, else at the key it names."""


def _recharge_fault(number: Callable[[str], float], first_gray: bool) -> tuple[float, str, bool, str] | None:
    """How far (mm) the recharge icon's ink (:func:`pnp.layout.icon_ink.icon_ink`) comes nearer than :data:`LINES_APART_MM`
    to the outline of its hit-point space or past it, with the key that moves it back, whether that key must grow, and
    the side in words; ``None`` when it keeps inside. ``first_gray``: the first space (its outline
    ``hp_first_rule_width``) is a gray one. Thirty-sixth pnp breaker, MED 8c: `recharge_dx = -2` ran the icon out past its
    space's right edge and was said at ``per_row`` (the icon's reach taken for the row's), whose advice then failed."""
    size, box = number("recharge_size"), number("hp_box")
    left, top = box - number("recharge_dx"), number("recharge_dy")
    points = [(left + x * size / 100, top + y * size / 100, half * size / 100) for x, y, half in icon_ink("recharge")]
    rule = max(number("hp_rule_width"), number("hp_first_rule_width") if first_gray else 0.0)
    edge = rule / 2 + LINES_APART_MM
    faults = [(max(x + half for x, _, half in points) - (box - edge), "recharge_dx", True, "right"),
              (edge - min(x - half for x, _, half in points), "recharge_dx", False, "left"),
              (edge - min(y - half for _, y, half in points), "recharge_dy", True, "top"),
              (max(y + half for _, y, half in points) - (box - edge), "recharge_dy", False, "bottom")]
    worst = max(faults)
    return worst if worst[0] > ROUNDING_SLACK else None


def _keep_recharge_icons_in(b: CardBuilder, first_gray: bool) -> None:
    """A ``"template"`` problem when the recharge icon of a gray hit-point space runs into its space's outline or out of
    it (:func:`_recharge_fault`): said at the one of :data:`RECHARGE_KEYS` the designer changed (else at the key the
    fault names) with the nearest value, in tenths of a mm toward the shipped one, that keeps it inside."""
    fault = _recharge_fault(b.template.number, first_gray)
    if fault is None:
        return
    depth, blamed, up, side = fault
    _said_at_the_key_changed(b, RECHARGE_KEYS, blamed, up, depth, lambda number: _recharge_fault(number, first_gray) is None,
                             lambda since, advice: f"the recharge icon runs {depth:.1f} mm into the {side} outline of its "
                                                   f"hit-point space or past it, on {b.record_id}{since}: {advice}")


def last_stand(card: LastStand, db: Database, make: Make):
    """The Last Stand: its text and the Grayking's hit point track (gray spaces with the recharge cross)."""
    b, t, ink = framed_card(make, "last_stand", db)
    _title_band_with_icon(b, card.title, "grayking", t.color("band"))
    b.text("text", "\n".join(card.text), "text")
    b.text("hit points", t.string("hp_label"), "hp_label")
    per_row = int(t.number("per_row"))
    box = t.number("hp_box")
    rows = fitting(t.number("hp_top"), t.number("hp_pitch_y"), box, t.box("footer").y)  # above the footer
    hit_points = card.hit_points
    # thirty-fifth pnp breaker, MED 21: `per_row = 1000` was advised "at most 959.5" (millimetres off a count) by the frame
    # check; the spaces a row has room for inside the card frame's inner rule, a whole number, at per_row itself
    inside = frame_inside(t, b.width, b.height)
    # the recharge icon is kept inside its space (_keep_recharge_icons_in): the spaces' own outlines reach farthest
    reach = box + t.number("hp_rule_width") / 2
    if card.gray_spaces:
        _keep_recharge_icons_in(b, bool(card.hit_points) and card.hit_points[0] in card.gray_spaces)
    most = max(1, math.floor((inside.right - t.number("hp_first_x") - reach) / t.number("hp_step") + 1e-9) + 1)
    if min(per_row, len(hit_points)) > most:
        b.problems.append(dataclasses.replace(b.at_number("per_row", f"a row of {min(per_row, len(hit_points))} hit-point "
                                                                      f"spaces runs over the card frame's inner rule, which "
                                                                      f"holds {most} a row: set per_row to at most {most}"),
                                              box="*"))
        per_row = most
    if len(hit_points) > rows * per_row:
        b.problems.append(FitProblem(card.id, "hit_points", "too many",
                                     f"{len(hit_points)} hit-point spaces do not fit the card's {rows} row{'' if rows == 1 else 's'} of {per_row} "
                                     f"(at most {rows * per_row}), as {t.keys_at('per_row', 'hp_top', 'hp_pitch_y', 'hp_box')} lay them out"))
        hit_points = hit_points[: rows * per_row]
    keep_space_outlines_apart(b, "hp_pitch_y", rows=len(hit_points) > per_row)
    for index, value in enumerate(hit_points):
        row, column = divmod(index, per_row)
        x = t.number("hp_first_x") + column * t.number("hp_step")
        y = t.number("hp_top") + row * t.number("hp_pitch_y")
        gray = value in card.gray_spaces
        t.could_read("colors.gray_space", "numbers.recharge_dx", "numbers.recharge_dy", "numbers.recharge_size")
        b.add(*numbered_box(x, y, box, str(value), ink, t.color("gray_space") if gray else t.color("space"),
                            text_size=t.number("hp_size"), family="numerals", radius=t.number("space_radius"),
                            stroke_width=t.number("hp_first_rule_width") if index == 0 else t.number("hp_rule_width"),
                            stroke_key="numbers.hp_first_rule_width" if index == 0 else "numbers.hp_rule_width"))
        if gray:
            b.add(Icon("recharge", x + box - t.number("recharge_dx"), y + t.number("recharge_dy"), t.number("recharge_size")))
    footer(b, card.id)
    return [(card.id, b)]


# ---- expanded battle maps ----------------------------------------------------------------------------------------------
def battle_map(card: BattleMap, db: Database, make: Make):
    """An Expanded Battle Map: a board over ``card.cards`` cards; hexes on the left, text and the
    Eldritch Damage table on the last card."""
    card_w, card_h = card_size(db)
    cards = card.cards
    t = load_template("battle_map")
    reach = max([box.x + box.w for box in t.boxes.values()] + [t.number("hex_area_x") + t.number("hex_area_w")])
    needed = math.ceil(reach / card_w - 1e-6)  # the template's boxes and hexes are laid out on this many cards
    cards = needed  # the template is laid out for this many: fewer cut it, more print empty cards
    width = card_w * cards
    b = make("battle_map", width, card_h)
    if card.cards != needed:
        b.problems.append(FitProblem(card.id, "cards", "too many",
                                     f"the map is laid out on {needed} cards (templates/battle_map.toml reaches {reach:g} mm), "
                                     f"not {card.cards}; set cards = {needed}"))
    ink = t.color("ink")
    colour = t.color(card.color)
    b.add(full_bleed(width, card_h, b.bleed, colour))
    border = t.number("border")
    panel = Box(border, border, width - 2 * border, card_h - 2 * border)
    panel_rules(b, panel, t.color("panel"), ink, ink)
    # hexes
    grid = card.hex_map
    area = Box(t.number("hex_area_x"), t.number("hex_area_y"), t.number("hex_area_w"), t.number("hex_area_h"))
    columns, rows = grid.columns, grid.rows
    odd = any(h.row % 2 for h in grid)
    largest = min(t.number("hex_radius_max"),
                  area.width / ((columns + (0.5 if odd else 0)) * math.sqrt(3)),
                  area.height / ((rows - 1) * 1.5 + 2))
    number = _HexNumber(t.number("hex_number_size"), t.number("hex_number_pad"), t.number("hex_number_margin"),
                        t.number("hex_number_dy"))
    # The cuts where they fall in the board's own coordinates once a larger safe area shrinks it about its
    # centre (pnp.layout.within_safe_area), and the clearance as it will print: labels keep off the real cuts.
    shrink = safe_area_factor(width, card_h, db.print.safe_mm)
    cuts = [width / 2 + (card_w * k - width / 2) / shrink for k in range(1, cards)]
    clearance = t.number("cut_clearance") / shrink
    marker_labels = {marker: t.string(f"hex_{marker}") for marker in ("start", "recharge")}
    label_size = t.number("hex_label_size")
    label_half = max(text_width_mm(text, "serif-italic", label_size) for text in marker_labels.values()) / 2 \
        + t.number("hex_label_pad")
    icon_scale = t.number("hex_icon_scale")
    # The largest hexes whose labels can all slide clear of the cuts: where no shift of the grid clears
    # them (a larger safe area moves the cuts, issue 15), the hexes shrink in steps of 2%, to 90% at most.
    # A start or recharge hex keeps the wider of its label and its icon (the icon's whole box, as the safe
    # area measures it) off the cuts (twenty-third breaker: a short label, "heal", put the icon on a cut).
    hex_problems = len(b.problems)  # the problems of the hexes start here (_hexes_shrunk_by_the_area)
    tries = []  # (labels left on a cut, step, radius, x of hex (0, 0)): the fewest, then the largest hexes
    for step in range(6):
        radius = largest * (1 - 0.02 * step)
        hex_w = math.sqrt(3) * radius
        ox, clashes = _grid_shift(grid, radius, area.x + hex_w / 2, area.width - (columns + (0.5 if odd else 0)) * hex_w,
                                  cuts, max(label_half, radius * icon_scale / 2), clearance, number, t.number("grid_shift_step"),
                                  t.number("hex_name_size"), t.number("hex_name_rise"), t.number("hex_rule_width"))
        tries.append((clashes, step, radius, ox))
        if not clashes:
            break
    _, shrunk, radius, ox = min(tries)
    changed = changed_number(t.path) if min(tries)[0] else None  # (read only when needed: it may ask git for the shipped file)
    if min(tries)[0] and changed is not None and changed[0] == "cut_clearance":
        # thirty-fifth pnp breaker, MED 18: `cut_clearance = 4` was blamed on the shipped grid_shift_step (whose advice then
        # failed twice over) or on the shipped 'recharge': said at the clearance changed, with the widest that clears
        _clearance_too_wide(b, t, grid, largest, area, columns, odd, cuts, label_half, icon_scale, shrink, number)
    elif min(tries)[0]:
        _coarse_grid_step(b, t, grid, radius, area, columns, odd, cuts, label_half, icon_scale, clearance, number)
    elif shrunk and (changed_number(t.path) or ("",))[0] == "grid_shift_step":  # the hexes shrank where a finer step would
        # keep them whole, and the step is the designer's (thirty-fourth breaker, MED 1: steps of 9.5 to 24 mm shrank maps
        # 1 and 2 to 5.9 mm, too small for a 10 mm cube, and check passed); with the shipped step, hexes that shrink to
        # clear a wider cut_clearance are the layout's own answer
        _coarse_grid_step(b, t, grid, largest, area, columns, odd, cuts, label_half, icon_scale, clearance, number,
                          shrunk_to=radius)
    if not (min(tries)[0] and changed is not None and changed[0] == "cut_clearance"):
        _marker_on_a_cut(b, t, card.id, grid, radius, ox, cuts, clearance, label_half, marker_labels)
    hex_w = math.sqrt(3) * radius
    grid_h = (rows - 1) * 1.5 * radius + 2 * radius
    oy = area.y + (area.height - grid_h) / 2 + radius
    # The start and recharge labels sit low in their hex, the icon above them (_Markers.heights).
    said = len(b.problems)
    for which, text in marker_labels.items():  # a label wider than its hex is crossed by the hex's sides (twenty-first breaker)
        b.string_problem(f"hex_{which}", text, "serif-italic", label_size, hex_w - 2 * t.number("hex_label_pad"), "its hex")
    markers = _Markers(t, radius, marker_labels)
    label_dy, icon_dy = markers.heights(label_size)
    icon_size = radius * t.number("hex_icon_scale")
    if len(b.problems) == said:  # a label too wide for its hex raises its icon too: said once, at the label
        markers.out_of_hex_problem(b, card.id, label_size)
    _hexes_shrunk_by_the_area(b, t, hex_problems, largest, columns + (0.5 if odd else 0), rows)
    _grid_too_large(b, t, card.id, hex_problems, radius, radius / largest, area, columns, rows, odd)
    hex_fill = t.color("hex")
    name_size, muted = t.number("hex_name_size"), t.color("muted")
    name_height = _name_height(grid, radius, t.number("hex_name_rise"), name_size)
    for cell in grid:
        cx, cy = hexes.centre_mm(cell.column, cell.row, radius)
        cx, cy = cx + ox, cy + oy
        corners = hexes.corners_mm((cx, cy), radius)
        fill = tint(colour, t.number("numbered_hex_tint"), hex_fill) if cell.number else hex_fill
        b.add(Polygon(corners, fill=fill, stroke=colour, stroke_width=t.number("hex_rule_width"),
                      stroke_key="numbers.hex_rule_width"))
        centre_x = cx
        if cell.number is not None:
            # Where a number would sit on a cut line, slide it sideways inside its hex.
            half, room = number.half_and_room(cell.number, radius)
            cx = _clear_of_cuts(cx, half, cuts, clearance, room)
        marker = "start" if cell.start else "recharge" if cell.recharge else None
        if marker:
            b.add(icon_centred(marker, cx, cy - icon_dy, icon_size))
            b.add(*label(cx, cy + label_dy, marker_labels[marker], label_size, ink, family="serif-italic"))
        elif cell.number is not None:
            b.add(*label(cx, cy + t.number("hex_number_dy"), str(cell.number), number.size, ink, family="numerals"))
        if not marker:  # the hex's name, as the referee names it (start and recharge are "S" and "R")
            name = hexes.hex_name(cell.address)
            name_half, name_room = _name_room(name, radius, name_height, name_size, t.number("hex_rule_width"))
            name_x = _clear_of_cuts(cx, name_half, cuts, clearance, name_room, centre_x)
            b.add(*label(name_x, cy - name_height, name, name_size, muted, family="serif-italic"))
    # the text card
    x0 = card_w * (cards - 1)
    band_spec = t.box("title_band")
    band = Box(x0 + band_spec.x, band_spec.y, band_spec.w, band_spec.h)
    title_band(b, band, colour, tint(colour, t.number("title_hatch_tint"), BLACK), ink)
    key_cx, key_cy = x0 + t.number("key_icon_cx"), band.y + band.height / 2
    b.add(Circle(key_cx, key_cy, t.number("key_ring_r"), fill=t.color("panel"), stroke=ink,
                 stroke_width=t.number("title_icon_rule_width")))
    b.add(icon_centred("key", key_cx, key_cy, t.number("key_icon_size")))
    text_colour = t.color("band_text_dark") if card.color == "yellow" else t.color("band_text")
    t.could_read("colors.band_text_dark", "colors.band_text", *_MAP_COLOUR_KEYS)  # for a map of another colour
    b.text("title", t.formatted("title", key=card.key), "title", color=text_colour)
    b.text("subtitle", t.formatted("subtitle", Colour=colour_name(t, card.color), servants=card.servants), "subtitle")
    b.text("event", card.event, "event")
    b.text("legend", t.string("legend"), "legend")
    table = db.table(card.eldritch_table)
    b.text("title", t.formatted("table_title", title=table.title), "table_title", record=table.id)
    top, bottom = t.number("table_top"), t.number("table_bottom")
    height = (bottom - top) / len(table.rows)
    roll_spec, text_spec = t.box("roll"), t.box("row_text")
    left = t.box("event").x
    printed = () if too_many_rows(b, table, bottom - top, height, text_spec, "table_top to table_bottom") else table.rows
    shade_x, shade_w = left - t.number("shade_dx"), t.number("shade_w")
    rule_x = x0 + t.number("border") + t.number("frame_inner_inset")  # the middle line of the text card's inner rule
    if shade_x < rule_x - ROUNDING_SLACK:  # thirty-fifth pnp breaker, HIGH 2: across the card's frame and the cut
        what = (f"the Eldritch table's shading and its rule start {rule_x - shade_x:.1f} mm left of the text card's inner "
                f"rule, across its frame" + (f" and the cut onto card {cards - 1} of the board" if shade_x < x0 else ""))
        # thirty-sixth pnp breaker, MED 7: the bound was never below 0 ("at most 0" failed again where -0.4 was needed), and
        # a frame moved by `border` or `frame_inner_inset` was blamed on shade_dx with no word of the key that moved it
        changed = changed_number(t.path)
        if changed is not None and changed[0] in ("border", "frame_inner_inset"):
            name, value = changed[0], t.number(changed[0])
            fits = math.floor((value - (rule_x - shade_x)) * 10 + 1e-6) / 10
            b.problems.append(b.at_number(name, f"{what}, since {name} is {value:g} (the shipped templates have "
                                                f"{changed[1]:g}) and moves the frame in: set {name} to at most {fits:g}"))
        else:
            since = (f", since {changed[0]} is {t.number(changed[0]):g} (the shipped templates have {changed[1]:g})"
                     if changed is not None and changed[0] != "shade_dx" else "")
            b.problems.append(b.at_number("shade_dx", f"{what}{since}: set shade_dx to at most "
                                                      f"{math.floor((left - rule_x) * 10 + 1e-6) / 10:g}"))
    for index, row in enumerate(printed):
        y = top + index * height
        if index % 2 == 0:
            b.add(Rect(shade_x, y, shade_w, height, fill=tint(colour, t.number("shade_tint"), t.color("panel"))))
        b.text(f"rows[{index}].roll", t.string("roll_separator").join(str(r) for r in row.roll), roll_spec,
               box=Box(left, y, t.number("roll_w"), height), record=table.id)
        b.text(f"rows[{index}].text", row.text[:1].upper() + row.text[1:], text_spec,
               box=Box(left + t.number("roll_w") + t.number("roll_gap"), y, text_spec.w, height), record=table.id,
               placed_by=("numbers.roll_gap", ""))
    b.add(Line(shade_x, bottom, shade_x + shade_w, bottom, ink, t.number("table_rule_width"), stroke_key="numbers.table_rule_width"))
    for index in range(cards):
        spec = t.box("footer")
        b.text("footer", f"{card.id}.card-{index + 1}", spec,
               box=Box(spec.x + card_w * index, spec.y + t.number("footer_dy"), spec.w, spec.h), placed_by=("", "numbers.footer_dy"))
    return [(card.id, b)]


def _hexes_shrunk_by_the_area(b: CardBuilder, t: Template, first: int, largest: float, across: float, rows: int) -> None:
    """The problems ``b`` recorded from index ``first`` on at a start or recharge label (``strings.hex_start``: "shorten
    it") said instead at ``hex_area_w`` or ``hex_area_h`` when that key alone was changed from the shipped templates and
    made the hexes (``largest`` mm, the most the area holds for a grid ``across`` hex widths wide and ``rows`` rows
    high) smaller than ``hex_radius_max``: the labels did not grow, their hexes shrank (thirty-fourth pnp breaker, MED 5:
    `hex_area_w = 70` was said as "'recharge' ... its hex holds 6.2 mm; shorten it"). The advice is the least value of
    the key that gives hexes of ``hex_radius_max`` again, rounded up to 0.1 mm."""
    changed = changed_number(t.path)
    most = t.number("hex_radius_max")
    if changed is not None and changed[0] == "hex_radius_max" and most < changed[1]:
        # thirty-sixth pnp breaker, MED 6: `hex_radius_max = 2` was said at the labels ("shorten it"), which did not grow
        name, needed = "hex_radius_max", changed[1]
        labels = {marker: t.string(f"hex_{marker}") for marker in ("start", "recharge")}
        needed = _least_radius_for_markers(t, labels, most, needed) or needed
        largest = most
    elif changed is None or changed[0] not in ("hex_area_w", "hex_area_h") or largest >= most - 1e-6:
        return
    else:
        name = changed[0]
        needed = most * across * math.sqrt(3) if name == "hex_area_w" else most * ((rows - 1) * 1.5 + 2)
        if t.number(name) >= needed - 1e-6:
            return  # the other side of the area limits the hexes
    key = f"numbers.{name}"
    path, line = template_line(t.path, key)
    for index in range(first, len(b.problems)):
        problem = b.problems[index]
        # (hexes made smaller by hex_radius_max raise their icons out of them too: that is the radius's doing as well)
        out_of_hex = name == "hex_radius_max" and "icons reach out of their hexes" in problem.message
        if problem.record_id != "templates" or not (problem.field.startswith("strings.hex_") or out_of_hex):
            continue
        what = problem.message.rsplit("; ", 1)[0]
        than = "" if name == "hex_radius_max" else f", smaller than hex_radius_max ({most:g})"
        b.problems[index] = FitProblem(
            "templates", key, "template",
            f"{what}: {name} = {t.number(name):g} (the shipped templates have {changed[1]:g}) makes the hexes {largest:.1f} mm"
            f"{than}: set {name} to at least {math.ceil(needed * 10 - 1e-6) / 10:g}",
            box=problem.box, path=str(path),
            line=line)


def _least_radius_for_markers(t: Template, labels: dict[str, str], above: float, most: float) -> float | None:
    """The least hex radius (mm, in tenths of a mm) more than ``above`` and at most ``most`` whose hex holds the widest of
    the start and recharge ``labels`` (``{"start": words, "recharge": words}``) at ``hex_label_size``, as
    :meth:`CardBuilder.string_problem` measures it, and the icon above it (:meth:`_Markers.fits`); ``None`` when no
    such radius holds them."""
    tried = math.floor(above * 10 + 1e-6) / 10
    while tried < most - 1e-6:
        tried = round(tried + 0.1, 1)
        if _markers_fit(t, labels, tried):
            return tried
    return None


def _markers_fit(t: Template, labels: dict[str, str], radius: float) -> bool:
    """Whether a hex of ``radius`` mm holds the widest of the start and recharge ``labels`` at ``hex_label_size`` (as
    :meth:`CardBuilder.string_problem` measures it) and the icon above it (:meth:`_Markers.fits`)."""
    size = t.number("hex_label_size")
    widest = max(text_width_mm(text, "serif-italic", size) for text in labels.values())
    markers = _Markers(t, radius, labels)
    return (widest <= math.sqrt(3) * radius - 2 * t.number("hex_label_pad") + FONT_METRIC_SLACK_MM
            and markers.fits(markers.heights(size)[1]))


def _grid_too_large(b: CardBuilder, t: Template, map_id: str, first: int, radius: float, shrink: float, area: Box,
                    columns: int, rows: int, odd: bool) -> None:
    """The problems ``b`` recorded from index ``first`` on at the start and recharge labels or their icons (a template's
    ``strings.hex_start``, ``numbers.hex_icon_scale``...) said instead at the map's ``layout`` in the database when the
    labels and icons fit hexes of the template's ``hex_radius_max`` and only the grid, ``columns`` by ``rows`` hexes
    (``odd``: a row shifted half a hex) in the hex ``area`` (mm), made them smaller (``radius`` mm, the hexes shrunk by
    ``shrink`` to clear the cuts): the labels did not grow, the map the user wrote has more hexes than the card holds at
    a readable size (forty-sixth pnp breaker, F8: 26 columns were said as "'recharge' ... its hex holds 3.9 mm; shorten
    it", and no label, however short, fitted). The line gives the most columns (or rows) the area holds at the least
    radius whose hexes hold the labels and icons."""
    said = [index for index in range(first, len(b.problems)) if b.problems[index].record_id == "templates"
            and b.problems[index].field not in ("numbers.hex_area_w", "numbers.hex_area_h", "numbers.hex_radius_max")
            and any(words in b.problems[index].message for words in ("its hex holds", "reach out of their hexes",
                                                                       "no room in the hex"))]
    most = t.number("hex_radius_max")
    labels = {marker: t.string(f"hex_{marker}") for marker in ("start", "recharge")}
    if not said or radius >= most - 1e-6 or changed_numbers(t.path):
        return  # (a number of the template edited is said at that number: _hexes_shrunk_by_the_area, the bound search)
    shipped = pristine_table(t.path, "strings")
    if shipped is not None and any(shipped.get(f"hex_{marker}") != text for marker, text in labels.items()):
        return  # the labels were edited: theirs is the fault ("shorten it" works)
    needed = _least_radius_for_markers(t, labels, radius, most)
    if needed is None:
        return  # the labels or icons do not fit even the largest hexes: theirs is the fault
    largest = needed / shrink  # the grid's radius before the shrink that clears the cuts
    across = math.floor(area.width / (largest * math.sqrt(3)) - (0.5 if odd else 0) + 1e-9)
    high = math.floor((area.height / largest - 2) / 1.5 + 1 + 1e-9)
    limits = [f"{across} columns" if columns > across else "", f"{high} rows" if rows > high else ""]
    held = " and ".join(limit for limit in limits if limit) or f"{across} columns and {high} rows"
    if shipped is None and _markers_fit(t, {"start": "S", "recharge": "R"}, radius):
        # the shipped labels unknown, and shorter ones would fit: "shorten it" works, and so would a smaller map
        for index in said:
            problem = b.problems[index]
            b.problems[index] = dataclasses.replace(problem, message=f"{problem.message}, or lay out {map_id} in at most {held}")
        return
    for index in reversed(said):
        del b.problems[index]
    b.problems.append(FitProblem(map_id, "layout", "too many",
                                 f"{columns} columns by {rows} rows make hexes of {radius:.1f} mm (hex radius), too small for "
                                 f"their start and recharge labels and icons, which need {needed:g} mm: the map holds at "
                                 f"most {held}"))


class _Markers:
    """The start and recharge hexes of a map of hexes ``radius`` mm (circumradius) laid out with template ``t``: where
    their ``labels`` (``{"start": words, "recharge": words}``) and icons sit in their hex, and whether the icon stays
    inside it. The geometry is the same in every such hex (they do not slide off cuts), so it is judged at one."""

    def __init__(self, t: Template, radius: float, labels: dict[str, str]):
        self.t, self.radius, self.labels = t, radius, labels
        self.icon_visible = radius * t.number("hex_icon_scale") * t.number("hex_icon_visible")

    def heights(self, size: float, labels: dict[str, str] | None = None, pad: float | None = None) -> tuple[float, float]:
        """``(label baseline below the hex centre, icon centre above it)`` in mm for ``labels`` (all of the map's unless
        given) at ``size`` pt, with ``pad`` mm kept either side of them (``hex_label_pad`` unless given). The labels
        sit low in their hex but wholly inside it: where the hex's lower sides close in, the hex is still wider than
        the widest label (and its pad) down to the font's descent.
        The icon's visible bottom keeps ``hex_icon_gap`` mm above the labels' highest ink (accents, Hangul, ascenders:
        :func:`pnp.fonts.ink_extent_mm`; twenty-third breaker: "ÉÂÎÕ" and "충전하기" were printed under the icon, which
        kept clear of the Latin capitals only), and its centre at least ``hex_icon_dy`` mm above the hex centre."""
        t, texts = self.t, list((labels or self.labels).values())
        half = max(text_width_mm(text, "serif-italic", size) for text in texts) / 2 + (t.number("hex_label_pad") if pad is None else pad)
        label_dy = min(self.radius * t.number("hex_label_dy"),
                       self.radius - half / math.sqrt(3) - fonts.descent_mm("serif-italic", size))
        ink_top = max(fonts.ink_extent_mm(text, "serif-italic", size)[0] for text in texts)
        return label_dy, max(t.number("hex_icon_dy"), self.icon_visible / 2 + t.number("hex_icon_gap") + ink_top - label_dy)

    def fits(self, icon_dy: float) -> bool:
        """Whether the icon's drawn part, its centre ``icon_dy`` mm above the hex centre, lies inside the hex."""
        corners = hexes.corners_mm((0.0, 0.0), self.radius)
        half = self.icon_visible / 2
        return all(inside_polygon((dx, dy - icon_dy), corners) for dx in (-half, half) for dy in (-half, half))

    def out_of_hex_problem(self, b: CardBuilder, map_id: str, size: float) -> None:
        """A ``"template"`` problem on ``b`` when the icon at the labels' ``size`` (pt) reaches out of its hex onto the
        hex's sides (twenty-second breaker), at the key that lifts it (twenty-third breaker: it advised keys that could
        not help): ``numbers.hex_icon_dy`` when that minimum sets its height; ``numbers.hex_label_size`` when at
        :data:`MIN_TEXT_PT` the labels let it fit; ``numbers.hex_label_pad`` when with no pad they do;
        ``strings.hex_<marker>`` when that label alone lifts it out (and the
        referee's one-letter name would not); else ``numbers.hex_icon_scale``."""
        t = self.t
        label_dy, icon_dy = self.heights(size)
        if self.fits(icon_dy):
            return
        where = f"the start and recharge icons reach out of their hexes onto the hexes' sides (on {map_id})"
        above_labels = self.icon_visible / 2 + t.number("hex_icon_gap") + max(
            fonts.ink_extent_mm(text, "serif-italic", size)[0] for text in self.labels.values()) - label_dy
        culprits = [which for which, text in self.labels.items() if not self.fits(self.heights(size, {which: text})[1])]
        plain_fits = self.fits(self.heights(size, {"start": "S"})[1])
        if t.number("hex_icon_dy") >= above_labels:
            key, message = "numbers.hex_icon_dy", f"{where}, {t.number('hex_icon_dy'):g} mm above the hex centre; lower hex_icon_dy"
        elif size > MIN_TEXT_PT and self.fits(self.heights(MIN_TEXT_PT)[1]):
            key, message = ("numbers.hex_label_size", f"{where}, raised above {size:g} pt labels; at {MIN_TEXT_PT:g} pt they fit: "
                                                      f"lower hex_label_size")
        elif t.number("hex_label_pad") > 0 and self.fits(self.heights(size, pad=0.0)[1]):
            key, message = "numbers.hex_label_pad", f"{where}, raised above labels kept high by their pad; lower hex_label_pad"
        elif culprits and plain_fits:
            text = self.labels[culprits[0]]
            key, message = (f"strings.hex_{culprits[0]}", f"{quoted(text, 40)} leaves its icon no room in the hex: the "
                                                          f"icon rises above it onto the hex's sides (on {map_id}); shorten it")
        else:
            gap = " or hex_icon_gap" if t.number("hex_icon_gap") > 0 else ""
            key, message = "numbers.hex_icon_scale", f"{where}; lower hex_icon_scale{gap}"
        path, line = template_line(t.path, key)
        b.problems.append(FitProblem("templates", key, "template", message, path=str(path), line=line))


_NAME_MARGIN_MM = 1.0
"""The least room (mm) a hex's name keeps from its hex's sides when it slides off a cut."""


def _half_width_at(radius: float, above: float, below: float) -> float:
    """The half width (mm) of a pointy-top hex of ``radius`` mm at the narrowest height of a band from ``above`` mm above
    its centre to ``below`` mm below it: the full half width (the apothem) between its vertical sides, less where the
    sides slant in towards the top and bottom corners (beyond half the radius); 0 beyond the corners."""
    reach = max(above, below)
    return math.sqrt(3) * radius / 2 if reach <= radius / 2 else max(0.0, math.sqrt(3) * (radius - reach))


def _slant_margin(stroke_width: float) -> float:
    """How far across (mm) a text's ink keeps from the middle line of a hex's slanted side (30 degrees from the level) so
    that it stays :data:`~pnp.layout.common.TEXT_INK_GAP_MM` and a twentieth of a mm clear of its ink, ``stroke_width`` mm
    wide: twice the distance square to the side."""
    return 2 * (stroke_width / 2 + TEXT_INK_GAP_MM + 0.05)


def _name_height(grid: hexes.HexMap, radius: float, rise: float, size: float) -> float:
    """How far (mm) above the centre of each hex of ``grid`` (pointy-top, ``radius`` mm) the baselines of the hexes'
    names (``size`` pt) sit: ``rise`` hex radii, or lower where a name, centred, would come nearer than
    :data:`_NAME_MARGIN_MM` (across) to the sides that slant in towards the top corner (thirty-second round: on hexes
    made smaller to keep labels off the cuts, a name's digit ran into the slanted side). One height for every name of
    the map."""
    height = radius * rise
    for cell in grid:
        if not (cell.start or cell.recharge):
            name = hexes.hex_name(cell.address)
            half = text_width_mm(name, "serif-italic", size) / 2
            up = fonts.ink_extent_mm(name, "serif-italic", size)[0]
            height = min(height, radius - up - (half + _NAME_MARGIN_MM) / math.sqrt(3))
    return height


def _name_room(name: str, radius: float, height: float, size: float, stroke_width: float) -> tuple[float, float]:
    """A hex's ``name`` set at ``size`` pt with its baseline ``height`` mm above the centre of a pointy-top hex of
    ``radius`` mm with sides ``stroke_width`` mm wide (:func:`_name_height`): half its width (mm) and how far (mm) it may
    slide sideways off a cut, keeping :data:`_NAME_MARGIN_MM` from the vertical sides and :func:`_slant_margin` from
    the slanted ones at the top of its ink (thirty-second round: a name slid off a cut ran its digit into the slanted
    side). The room is never below 0."""
    half = text_width_mm(name, "serif-italic", size) / 2
    top = height + fonts.ink_extent_mm(name, "serif-italic", size)[0]
    across = min(math.sqrt(3) * radius / 2 - _NAME_MARGIN_MM, math.sqrt(3) * (radius - top) - _slant_margin(stroke_width))
    return half, max(0.0, across - half)


@dataclass(frozen=True)
class _HexNumber:
    """How a hex's number is printed: ``size`` (pt), the ``pad`` (mm) kept either side of its width, the ``margin``
    (mm) it keeps from its hex's sides when it slides away from a cut, and its baseline ``dy`` mm below the centre."""

    size: float
    pad: float
    margin: float
    dy: float

    def half_and_room(self, number: int, radius: float) -> tuple[float, float]:
        """Half the width (mm) of ``number``'s label and how far (mm) it may slide inside a pointy-top hex of ``radius``
        mm, keeping ``margin`` from the sides at the top and bottom of its ink (:func:`_half_width_at`)."""
        half = text_width_mm(str(number), "numerals", self.size) / 2 + self.pad
        up, down = fonts.ink_extent_mm(str(number), "numerals", self.size)
        return half, max(0.0, _half_width_at(radius, up - self.dy, self.dy + down) - half - self.margin)


def _marker_on_a_cut(b: CardBuilder, t: Template, map_id: str, grid: hexes.HexMap, radius: float, ox: float,
                     cuts: list[float], clearance: float, label_half: float, marker_labels: dict[str, str]) -> None:
    """A ``"template"`` problem on ``b`` when the start or recharge hex of ``grid`` (hexes of ``radius`` mm, hex (0, 0)
    at x ``ox`` mm) keeps its label (``label_half`` mm either side, its pad included) or its icon less than
    ``clearance`` mm from a cut line (``cuts``, board mm) between the board's cards, where no shift of the grid
    clears it: at ``strings.hex_<marker>`` when the label is the wider (shorten it), else at
    ``numbers.hex_icon_scale``. The face is then marked whole (``box="*"``): it is not said again, at
    ``cards.toml``, as outside the safe area."""
    icon_half = radius * t.number("hex_icon_scale") / 2
    half = max(label_half, icon_half)
    for cell in grid:
        marker = "start" if cell.start else "recharge" if cell.recharge else None
        if marker is None:
            continue
        x = hexes.centre_mm(cell.column, cell.row, radius)[0] + ox
        if not _on_a_cut(x, half, cuts, clearance):
            continue
        if label_half >= icon_half:
            text = marker_labels[marker]
            key = f"strings.hex_{marker}"
            message = (f"{quoted(text, 40)} is {2 * (label_half - t.number('hex_label_pad')):.1f} mm wide: no shift "
                       f"of the grid keeps it {clearance:.1f} mm from the cuts between the cards of {map_id}; shorten it "
                       f"(or lower cut_clearance)")
        else:
            key = "numbers.hex_icon_scale"
            message = (f"the {marker} icon, {2 * icon_half:.1f} mm wide, cannot keep {clearance:.1f} mm from the cuts between "
                       f"the cards of {map_id} however the grid slides; lower hex_icon_scale, hex_radius_max or cut_clearance")
        path, line = template_line(t.path, key)
        b.problems.append(FitProblem("templates", key, "template", message, box="*", path=str(path), line=line))
        return


def _on_a_cut(x: float, half: float, cuts: list[float], clearance: float) -> int:
    """How many of ``cuts`` (x, mm) the label ``[x - half, x + half]`` comes nearer than ``clearance`` mm to; one
    placed exactly ``clearance`` from a cut (by :func:`_clear_of_cuts`) is clear, whatever the rounding."""
    return sum(1 for cut in cuts if x - half < cut + clearance - _ROUNDING_MM and x + half > cut - clearance + _ROUNDING_MM)


_ROUNDING_MM = 1e-6
"""Distances (mm) closer than this are equal: the sums placing a label round in the last digit."""


def _clear_of_cuts(x: float, half: float, cuts: list[float], clearance: float, room: float,
                   centre: float | None = None) -> float:
    """``x`` moved so that ``[x - half, x + half]`` keeps ``clearance`` mm from every cut line, staying within ``room``
    mm of ``centre`` (``x`` itself by default; a hex's name starts where its number slid to but keeps within its own
    room of the hex's centre: thirty-second round, a name that followed its number ran into the hex's slanted side);
    the nearest such place, ``x`` (brought within the room) when it is clear already or cannot be cleared."""
    centre = x if centre is None else centre
    x = min(max(x, centre - room), centre + room)
    for cut in cuts:
        if _on_a_cut(x, half, [cut], clearance):
            left = cut - clearance - half
            right = cut + clearance + half
            options = [p for p in (left, right) if abs(p - centre) <= room + 1e-9]
            if options:
                return min(options, key=lambda p: abs(p - x))
    return x


GRID_POSITIONS_MAX = 400
"""The most positions of the grid :func:`_grid_shift` tries for one hex size. The shipped maps slide 9.4 mm in steps of
0.25 mm (38 positions); a slack so wide that ``grid_shift_step`` would give more (a hex area far wider than its grid) is
tried in the coarser step that gives this many, so that no template makes `pnp check` or `pnp build` take minutes
(found with the thirty-first breaker's finding 2: `hex_area_w = 1000` took some 47 s)."""


GRID_STEP_LEAST_MM = 0.1
"""The finest step (mm) ``grid_shift_step`` may give (:data:`pnp.layout.template.LEAST_VALUES` holds it at its key)."""


def _clearance_too_wide(b: CardBuilder, t: Template, grid: hexes.HexMap, largest: float, area: Box, columns: int, odd: bool,
                        cuts: list[float], label_half: float, icon_scale: float, shrink: float, number: _HexNumber) -> None:
    """The ``"template"`` problem at ``numbers.cut_clearance`` (the one number changed) when no shift of the battle map's
    grid, with hexes of ``largest`` mm or shrunk as :func:`battle_map` shrinks them, keeps every label that far from the
    cuts: with the widest clearance, in tenths of a mm, at which one does (``shrink``: the safe area's factor, which the
    clearance is divided by as it prints). The face is marked whole (``box="*"``)."""
    value = t.number("cut_clearance")

    def clears(clearance_mm: float) -> bool:
        for step in range(6):
            radius = largest * (1 - 0.02 * step)
            hex_w = math.sqrt(3) * radius
            if not _grid_shift(grid, radius, area.x + hex_w / 2, area.width - (columns + (0.5 if odd else 0)) * hex_w, cuts,
                               max(label_half, radius * icon_scale / 2), clearance_mm / shrink, number,
                               t.number("grid_shift_step"), t.number("hex_name_size"), t.number("hex_name_rise"),
                               t.number("hex_rule_width"))[1]:
                return True
        return False

    most = next((tenth / 10 for tenth in range(math.ceil(value * 10 - 1e-9) - 1, -1, -1) if clears(tenth / 10)), 0.0)
    shipped = changed_number(t.path)
    was = f" (the shipped templates have {shipped[1]:g})" if shipped is not None else ""
    b.problems.append(dataclasses.replace(b.at_number("cut_clearance", f"no shift of the grid keeps every hex's labels "
                                                                       f"{value:g} mm from the cuts between the board's "
                                                                       f"cards, since cut_clearance is {value:g}{was}: set "
                                                                       f"cut_clearance to at most {most:g}"), box="*"))


def _coarse_grid_step(b: CardBuilder, t: Template, grid: hexes.HexMap, radius: float, area: Box, columns: int, odd: bool,
                      cuts: list[float], label_half: float, icon_scale: float, clearance: float, number: _HexNumber,
                      shrunk_to: float | None = None) -> None:
    """When the battle map's grid, slid in steps of ``grid_shift_step``, leaves labels on a cut line and a finer step
    finds a place clear of every cut for hexes of ``radius`` mm: a ``"template"`` problem at ``numbers.grid_shift_step``
    with the largest step (in tenths of a mm) that does. Thirty-first pnp breaker (a fixer's finding): `grid_shift_step =
    100`, more than the 9.4 mm the grid may slide, tried one place only, and the labels left on the cuts were blamed on
    the map's record in cards.toml. With ``shrunk_to``: the labels cleared the cuts only once the hexes shrank to that
    radius (mm), where a finer step keeps hexes of ``radius``."""
    hex_w = math.sqrt(3) * radius
    first_x, slack = area.x + hex_w / 2, area.width - (columns + (0.5 if odd else 0)) * hex_w
    step = t.number("grid_shift_step")

    def clashes(step_mm: float) -> int:
        return _grid_shift(grid, radius, first_x, slack, cuts, max(label_half, radius * icon_scale / 2), clearance, number,
                           step_mm, t.number("hex_name_size"), t.number("hex_name_rise"), t.number("hex_rule_width"))[1]

    tenths = min(int(step * 10 + 1e-9), int(max(slack, 0.0) * 10 + 1e-9))
    fits = next((tenth / 10 for tenth in range(tenths, 0, -1) if tenth / 10 < step and not clashes(tenth / 10)), None)
    if fits is None or fits < GRID_STEP_LEAST_MM:
        return
    if shrunk_to is not None:
        b.problems.append(b.at_number("grid_shift_step", f"the grid slides in steps of {step:g} mm over the {max(slack, 0.0):.1f} "
                                                         f"mm it may move, too coarse to find the place where hexes of "
                                                         f"{radius:.1f} mm keep their labels off the cuts, so they shrink to "
                                                         f"{shrunk_to:.1f} mm: set grid_shift_step to at most {fits:g}"))
        return
    b.problems.append(b.at_number("grid_shift_step", f"the grid slides in steps of {step:g} mm over the {max(slack, 0.0):.1f} mm "
                                                     f"it may move, and no place it tries keeps every hex's labels off the "
                                                     f"cuts between the board's cards: set grid_shift_step to at most {fits:g}"))


def _grid_shift(grid: hexes.HexMap, radius: float, first_x: float, slack: float, cuts: list[float],
                half_width: float, clearance: float, number: _HexNumber, step_mm: float,
                name_size: float, name_rise: float, stroke_width: float) -> tuple[float, int]:
    """The x of hex (0, 0)'s centre, within ``[first_x, first_x + slack]`` in steps of ``step_mm`` (more than 0; coarser
    when that gives more than :data:`GRID_POSITIONS_MAX` positions), that
    keeps the labels of numbered hexes (their number's width), of the start and recharge hexes
    (``half_width`` mm either side of the centre: the wider of label and icon) and every other hex's name
    (``name_size`` pt, ``name_rise`` radii above the centre, as :func:`battle_map` slides it: :func:`_name_room`) at least ``clearance`` mm from every cut line
    (x in mm) between the board's cards; the most centred such shift, or the one with the fewest
    labels on a cut line if none is clear; with how many labels it leaves on a cut line."""
    name_height = _name_height(grid, radius, name_rise, name_size)
    # each hex's centre x and its labels, each (half width, how far it may slide inside its hex); a label slides
    # from where the one before it went, as battle_map places them (a name follows its hex's number)
    labelled: list[tuple[float, list[tuple[float, float]]]] = []
    for h in grid:
        centre = hexes.centre_mm(h.column, h.row, radius)[0]
        if h.start or h.recharge:
            labelled.append((centre, [(half_width, 0.0)]))
            continue
        labels = [number.half_and_room(h.number, radius)] if h.number is not None else []
        # the hex's name, near its top corner (twenty-third breaker: names were left on the cuts)
        labelled.append((centre, labels + [_name_room(hexes.hex_name(h.address), radius, name_height, name_size, stroke_width)]))
    best: tuple[int, float, float] | None = None
    step_mm = max(step_mm, slack / GRID_POSITIONS_MAX)  # a very wide slack: at most GRID_POSITIONS_MAX positions
    steps = max(int(slack / step_mm), 0)
    for step in range(steps + 1):
        x0 = first_x + step * step_mm
        clashes = 0
        for cx, labels in labelled:
            x = x0 + cx
            for half, room in labels:
                x = _clear_of_cuts(x, half, cuts, clearance, room, x0 + cx)
                clashes += _on_a_cut(x, half, cuts, clearance)
        score = (clashes, abs(step * step_mm - slack / 2), x0)
        if best is None or score < best:
            best = score
    return (best[2], best[0]) if best else (first_x, 0)


LAYOUTS: dict[str, Callable[..., Any]] = {
    "stats": stats, "spell_path": spell_path, "progress_track": progress_track, "table_card": table_card,
    "servant": servant, "battle_map": battle_map, "city_quest": city_quest, "council_quest": council_quest,
    "elder": elder, "warding_city": warding_city, "last_stand": last_stand, "counter_card": counter_card,
}
"""Layout function of each printed solo kind."""
