"""Card templates: the layout numbers of each card kind, read from ``templates/<kind>.toml``.

This module owns the template format. A template names boxes on the card (x, y, w, h in mm from the
trim's top-left corner, y down) with the text style each box uses (font family, size range in pt as
``[max, min]``, alignment, line spacing and extra space between paragraphs in em, colour), plus named colours, named numbers (other
measurements in mm) and named strings (fixed labels). ``extends = "base"`` merges another template
under this one, key by key, so shared looks live in ``templates/base.toml``.

Example::

    extends = "base"
    [colors]
    border = "#141414"
    [boxes.title]
    x = 6.0
    y = 9.0
    w = 51.0
    h = 8.0
    font = "serif-bold"
    size = [16, 10]
    align = "center"
    valign = "middle"
    color = "ink"          # a name from [colors], or "#rrggbb"
"""
from __future__ import annotations

import codecs
import copy
import dataclasses
import datetime
import difflib
import functools
import json
import math
import os
import re
import stat
import string
import tomllib
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from pnp import fonts, resources
from pnp.database.lines import LineIndex
from pnp.database.schema import CARD_SIZE_MM
from pnp.drawing import Box
from pnp.files import FileRefused, link_out_of_folder, read_limited
from pnp.layout.traced import TRACING, traced
from pnp.oneline import as_toml, quoted, shortened, toml_key
from pnp.text import Align, TemplateText, VAlign, close_name, shifted_spans

TEMPLATE_DIR = resources.TEMPLATE_DIR
"""Folder of the ``<kind>.toml`` templates (:mod:`pnp.resources`)."""

MIN_TEXT_PT = 6.0
"""The smallest text size any template may ask for, in pt."""

_COLOUR = re.compile(r"^#[0-9a-fA-F]{6}$")
"""A colour as a designer may write it: ``#rrggbb`` in either case (a colour picker's ``#EFE3C6``); the template keeps it
in lower case, as the drawing takes it (thirty-fifth pnp breaker, LOW 17: upper case was refused)."""


LARGEST_NUMBER = 1000.0
"""The largest size of any number of a template (mm, pt or a plain number): a card is 63 x 88 mm."""


ROOM_SUFFIXES = ("_pad", "_margin", "_clearance", "_gap", "_ring", "_inset")
"""A ``[numbers]`` key ending so is the room (mm) a layout keeps around a text, an icon or a shape, or between two of
them: 0 or more (twenty-fourth breaker: `icon_gap = -3` put the quest icons under their numbers, `inner_gap = -3` the
back's inner frame outside its outer one; twenty-fifth: `emblem_ring = -1`, the margin of a disc around its icon, put
the back's icons out of their disc; twenty-seventh: `key_icon_inset = -1` set the key's icon bigger than its ring,
`emblem_rule_inset = -3` ran the elder's emblem rule across the "uses" column and the frame). A key that
is the word alone (``gap``, ``pad``) is one too (:func:`is_room`)."""


EXTENT_SUFFIXES = ("radius", "_width", "_size", "_height", "_scale", "_r", "_w", "_h")
"""A ``[numbers]`` key ending so is a size, a corner radius, a line width or a scale (mm, or a factor): 0 or more
(thirtieth breaker, finding 1: a negative `box_radius`, `frame_radius`, `space_radius`, `portrait_radius` passed check
and the PDF drew boxes with inverted corners and sides running across the card)."""

_EXTENT_WORDS = {"radius": "a corner radius is 0 mm or more", "_width": "a width is 0 mm or more",
                 "_size": "a size is 0 mm or more", "_height": "a height is 0 mm or more",
                 "_scale": "a scale is 0 or more (a factor)", "_r": "a radius is 0 mm or more",
                 "_w": "a width is 0 mm or more", "_h": "a height is 0 mm or more"}


EXTENT_NAMES = {"border": "the frame band's width is 0 mm or more",
                "frame_diamond": "a diamond's half-diagonal is 0 mm or more"}
"""``[numbers]`` keys of ``base.toml`` that are a width or a size by name alone (no suffix of :data:`EXTENT_SUFFIXES`), with
the words for their least value: 0 or more (thirty-first breaker, finding 5: `border = -1` ran the parchment panel and
its rules across the cut lines, `frame_diamond = -1` turned the corner diamonds inside out, and both passed)."""


CARD_SIZE_NAMES = {"card_width": "card_width_mm", "card_height": "card_height_mm"}
"""The ``[numbers]`` keys of ``base.toml`` that give the card's trim size (mm), each with the ``[print]`` field of
``cards.toml`` that must agree with it: they are refused at the template key outside the bounds that field has
(:data:`pnp.database.schema.CARD_SIZE_MM`; thirty-first breaker, finding 14: `card_width = 0` was blamed on cards.toml, advising
"set 0 x 88", which cards.toml then refused)."""


HATCH_SPACING_SUFFIX = "hatch_spacing"
"""A ``[numbers]`` key ending so (``hatch_spacing``, ``title_band_hatch_spacing``, ``band_hatch_spacing``) is the distance
(mm, across the lines) between hatch lines: at least :data:`LEAST_HATCH_SPACING_MM`, and no less than the width of its
lines (the key with ``_width`` for ``_spacing``, when written), more than it: closer lines print as a solid fill."""

LEAST_HATCH_SPACING_MM = 0.1
"""The least hatch spacing (mm): a printer's finest detail; the card back's hatching at it is some 1 200 lines (thirty-first
breaker, finding 1: a spacing of 0 or less hung `pnp check` and `pnp build` while memory grew without limit, and 0.001 mm
wrote a 10 MB SVG per back)."""

STEP_SUFFIXES = ("pitch", "_pitch_x", "_pitch_y", "_step", "_spacing")
"""A ``[numbers]`` key ending so (or the word ``pitch`` alone) is how far apart a thing repeats: the distance from one box,
disc or row to the next (``hp_step``, ``row_pitch``, ``hp_pitch_y`` down the card), the step a battle map's grid slides in (``grid_shift_step``, mm), the
distance between a back's two emblems (``emblem_pair_spacing``, a factor of the emblem's size). The layouts divide by it or
loop over it: it is at least :data:`LEAST_STEP` (thirty-first breaker, finding 2: 0 in nine such keys was a
ZeroDivisionError traceback, and `grid_shift_step = 1e-7` hung `pnp check`)."""

LEAST_STEP = 0.1
"""The least value of a key of :data:`STEP_SUFFIXES` (mm, or a factor for ``emblem_pair_spacing``): finer is below what
prints, and a grid slid in such steps is tried some 1 200 times per size at most."""

COUNT_SUFFIXES = ("per_row", "per_card_row", "_row_spaces")
"""A ``[numbers]`` key ending so (``per_row``, ``per_card_row``, ``one_row_spaces``) is how many boxes or spaces a row
holds: a whole number, 1 or more (the layouts divide a track's spaces among rows by it; thirty-first breaker, finding 2:
`per_card_row = 0` was a ZeroDivisionError traceback, and 2.5 was read as 2)."""


def least_value_problem(name: str, value: float) -> str | None:
    """What is wrong with ``value`` for the ``[numbers]`` key ``name`` when the key is a spacing, pitch, step, per-row
    count (:data:`HATCH_SPACING_SUFFIX`, :data:`STEP_SUFFIXES`, :data:`COUNT_SUFFIXES`) or a width named alone
    (:data:`EXTENT_NAMES`) or the card size (:data:`CARD_SIZE_NAMES`) and ``value`` is below its least value (or, for a
    count, not a whole number; for the card size, outside its bounds), with the value that would be right; ``None`` when
    it is fine or the key is none of these."""
    if name in CARD_SIZE_NAMES:
        field = CARD_SIZE_NAMES[name]
        least, most = CARD_SIZE_MM
        if not least <= value <= most:
            return (f"{value:g} mm is no card {name.removeprefix('card_')}; a card's {name.removeprefix('card_')} is "
                    f"{least:g} to {most:g} mm, as [print] {field} of cards.toml allows (the two must agree)")
    if name in EXTENT_NAMES and value < 0:
        return f"{value:g} is negative; {EXTENT_NAMES[name]}"
    if name.endswith(HATCH_SPACING_SUFFIX) and value < LEAST_HATCH_SPACING_MM:
        return (f"{value:g} mm is no hatch spacing; hatch lines are {LEAST_HATCH_SPACING_MM:g} mm apart or more "
                f"(closer, they print as a solid fill)")
    if f"_{name}".endswith(STEP_SUFFIXES) and value < LEAST_STEP:
        word = next(suffix for suffix in STEP_SUFFIXES if f"_{name}".endswith(suffix)).strip("_").removesuffix("_x").removesuffix("_y")
        unit = "" if name == "emblem_pair_spacing" else " mm"
        return (f"{value:g}{unit} is no {word}; a {word} (how far apart a repeated box, row or position is) is "
                f"{LEAST_STEP:g}{unit} or more")
    if name.endswith(COUNT_SUFFIXES) and (value < 1 or value != int(value)):
        return f"{value:g} is no count of what a row holds; write a whole number, 1 or more"
    return None


def _extent_suffix(name: str) -> str:
    """The suffix of :data:`EXTENT_SUFFIXES` that ``name`` (a ``[numbers]`` key) ends with (the first that matches)."""
    return next(suffix for suffix in EXTENT_SUFFIXES if f"_{name}".endswith(suffix))


def is_extent(name: str) -> bool:
    """Whether the ``[numbers]`` key ``name`` is a size, radius, width or scale (:data:`EXTENT_SUFFIXES`), so 0 or more."""
    return f"_{name}".endswith(EXTENT_SUFFIXES)


def is_room(name: str) -> bool:
    """Whether the ``[numbers]`` key ``name`` is a room (mm, 0 or more): it ends in one of :data:`ROOM_SUFFIXES`
    (``icon_gap``) or is one of them alone (``gap``: twenty-fifth breaker, summary.toml's `gap = -0.8` glued its headings
    to the text above and below and passed)."""
    return f"_{name}".endswith(ROOM_SUFFIXES)


class TemplateError(ValueError):
    """A template file that is missing or malformed: ``path`` the file where the key is written (the
    template itself or one it extends), ``key`` the dotted key as TOML writes it (``boxes.name.x``, ``numbers.box``,
    ``strings."solo.back.quest"``: :func:`shown_key`),
    ``reason`` what is wrong and what would be right, ``line`` the 1-based line of the key in ``path``
    (its table's header, or 1, when the key is not written there). ``str(error)`` is
    ``"<file name>: <key>: <reason>"``."""

    def __init__(self, path: Path, key: str, reason: str, line: int = 1):
        self.path, self.key, self.reason, self.line = Path(path), shown_key(key), reason, line
        super().__init__(f"{self.path.name}: {self.key}: {reason}")


@dataclass(frozen=True)
class BoxSpec:
    """A named box of a template: position and size in mm, and the text style used inside it.

    ``size`` is ``(max, min)`` in pt; ``color`` is already resolved to ``"#rrggbb"``.
    """

    name: str
    x: float
    y: float
    w: float
    h: float
    font: str = "serif"
    size: tuple[float, float] = (9.0, 6.0)
    align: Align = "left"
    valign: VAlign = "top"
    line_spacing: float = 1.15
    paragraph_spacing: float = 0.0
    color: str = "#000000"
    color_name: str = ""
    """The ``[colors]`` name ``color`` was given by (``ink``, the default), ``""`` for a ``"#rrggbb"`` written in the box."""

    unset: tuple[str, ...] = dataclasses.field(default=(), compare=False, repr=False)
    """The placement fields (``x``, ``y``, ``w``, ``h``) the template does not write (0 here): a box its layout places
    itself need not write them (:data:`PLACEMENT_FIELDS`); a layout that reads one gets a :class:`TemplateError`."""

    @property
    def box(self) -> Box:
        """The box as a :class:`~pnp.drawing.Box` (mm)."""
        return Box(self.x, self.y, self.w, self.h)

    def style_at(self, size: float) -> BoxSpec:
        """This box's text style fixed at ``size`` pt (``size`` ``(size, size)``), as a plain :class:`BoxSpec` made
        without reading its placement fields: a layout that places the box itself (the summary's sections, from
        ``sections_top``) passes it as the style and a box of its own, so that its unread ``y`` and ``h`` are said as
        unread and may be left out (thirty-first pnp breaker, MED 10: `dataclasses.replace` read them all)."""
        fields = {field.name: object.__getattribute__(self, field.name) for field in dataclasses.fields(BoxSpec)}
        return BoxSpec(**{**fields, "size": (size, size)})


PLACEMENT_FIELDS = ("x", "y", "w", "h")
"""A box's placement fields (mm). A layout that places a box itself (the stats card's key names, from ``key_w`` and
``key_name_dx``) reads only some of them: a field written and never read changes nothing (:func:`unread_box_fields`,
thirtieth breaker, finding 10: `[boxes.key_name] w = 5` passed and printed the same card)."""


class _WatchedBoxSpec(BoxSpec):
    """A :class:`BoxSpec` handed to a layout by :meth:`Template.box`: reading a placement field notes it in the
    template's :attr:`Template.box_fields` (``"key_name.w"``), and reading one the template does not write
    (:attr:`BoxSpec.unset`) raises the :class:`TemplateError` ``missing`` at that field."""

    def __getattribute__(self, name: str) -> Any:
        if name in PLACEMENT_FIELDS:
            watch = object.__getattribute__(self, "__dict__").get("_watch")
            if watch is not None:
                template, box = watch
                template.box_fields.add(f"{box}.{name}")
                if name in object.__getattribute__(self, "unset"):
                    raise template.unset_field(box, name)
        return object.__getattribute__(self, name)


@dataclass(frozen=True)
class Template:
    """A loaded template: ``boxes`` by name, ``colors`` (``"#rrggbb"``), ``numbers`` (mm or plain
    numbers) and ``strings`` (labels). Accessors raise :class:`TemplateError` naming the file."""

    kind: str
    path: Path
    boxes: dict[str, BoxSpec]
    colors: dict[str, str]
    numbers: dict[str, float]
    strings: dict[str, str]
    asked: set[str] = dataclasses.field(default_factory=set, compare=False, repr=False)
    """The keys the layouts have read (``numbers.hp_box``): a key no layout reads is a typo (:func:`unread_keys`)."""
    plain: set[str] = dataclasses.field(default_factory=set, compare=False, repr=False)
    """The ``[strings]`` keys a layout has read as plain text (:meth:`string`, :meth:`optional_string`), not through
    :meth:`formatted`: a ``{placeholder}`` in one is printed as written (:func:`string_problems`)."""
    cut_short: set[str] = dataclasses.field(default_factory=set, compare=False, repr=False)
    """The ids of the records whose layout with this template drew less than they ask (a record problem such as
    ``"too many"`` stopped it): the keys it did not reach are not unread (:func:`unread_keys`, twenty-fourth breaker)."""

    keyed: dict[str, tuple[str, set[str]]] = dataclasses.field(default_factory=dict, compare=False, repr=False)
    """Keys a layout reads by a record's value (``strings.subtitle_<icon>``): by the key's prefix, the words for what names
    the key (``"a table card's icon or dice"``) and the values the printed records have. Such a key no layout reads names
    a value no record has now: it is no typo of a key read (:func:`unread_keys`; twenty-eighth breaker)."""

    spare: dict[str, set[str]] = dataclasses.field(default_factory=dict, compare=False, repr=False)
    """By the prefix of :attr:`keyed`, every value a record may have (:meth:`read_by_value`'s ``possible``): such a key no
    record names now is kept for one that will, never said unread (:func:`unread_keys`)."""

    box_fields: set[str] = dataclasses.field(default_factory=set, compare=False, repr=False)
    """The placement fields of boxes the layouts have read (``"key_name.h"``): one a template writes and no layout
    reads is placed by the layout itself (:func:`unread_box_fields`)."""
    watched: dict[str, BoxSpec] = dataclasses.field(default_factory=dict, compare=False, repr=False)
    """The boxes handed to layouts, by name, each watching which placement fields are read (:meth:`box`)."""
    read_only_for: dict[str, str] = dataclasses.field(default_factory=dict, compare=False, repr=False)
    """Keys a layout reads only for some of its records, by key (``strings.roll_range``): the words for the records that
    need it (``"table card has a difference table"``). Such a key no layout reads serves no record printed now: it is no
    typo (:func:`unread_keys`; twenty-ninth breaker: with no difference table, `roll_range` was "no layout reads this")."""

    def reads_only_for(self, what: str, *keys: str) -> None:
        """Note that this layout reads ``keys`` (``strings.roll_range``) only for a record that ``what`` says in words
        (``"table card has a difference table"``, read after "no"), whether or not this record needs them
        (:attr:`read_only_for`): unread, they are said to print on no card, not to be read by no layout."""
        self.read_only_for.update(dict.fromkeys(keys, what))

    def read_by_value(self, prefix: str, what: str, *values: str, possible: Iterable[str] = ()) -> None:
        """Note that this layout reads the key ``prefix + value`` for each of ``values`` (:attr:`keyed`); ``what`` says in
        words what names the key (``"a table card's icon or dice"``). ``possible`` are the values a record may have (every
        icon, every dice kind): a key for one of them that no record has now is a spare, kept for a card that will have
        it, not a typo (thirty-first pnp breaker, MED 17: the Battle Win card's `icon` changed in cards.toml made the
        shipped `subtitle_win` "print on no card; remove it", and the build refused)."""
        self.keyed.setdefault(prefix, (what, set()))[1].update(values)
        self.spare.setdefault(prefix, set()).update(possible)

    def _missing(self, section: str, name: str, written: Any) -> TemplateError:
        """The error for ``section.name`` that the layout asks for and no template writes (:func:`_missing_error`); when
        the templates write ``name`` under another of ``[colors]``, ``[numbers]``, ``[strings]``, the error is at that
        key, saying to move it (twenty-eighth breaker: `row_shade` moved into [strings] was only "missing under [colors]",
        and once written there the next check named the stray key)."""
        missing = _missing_error(self.kind, self.path, section, name, written, self.asked)
        if "(did you mean " in missing.reason:  # a name written almost so in this section: a typo there, not a stray key
            return missing  # of another section (forty-sixth pnp breaker, finding 5: `[boxes.keys_lable]` was blamed on
            # the string keys_label, "move it there", which stats reads too)
        chain = template_chain(self.path)
        for other in ("colors", "numbers", "strings"):
            table = getattr(self, other)
            if other != section and name in table and f"{other}.{name}" not in self.asked \
                    and not _shipped_in(chain, other, name):  # one read there, or shipped there, is no stray key (forty-ninth
                # pnp breaker, fault 1: location.toml's colour `wardens` deleted was blamed on its string `wardens`)
                path, line = template_line(self.path, f"{other}.{name}")
                return TemplateError(path, f"{other}.{name}", f"{_given(table[name], f'{other}.{name}')} is read by the layout "
                                                              f"of {self.kind} as [{section}]: {name} is a [{section}] key: move it there", line)
        return missing

    def shipped_missing(self, section: str, names: Iterable[str]) -> None:
        """Raise the :class:`TemplateError` of :meth:`_missing` for the first of ``names`` (``[section]`` keys a layout
        reads only when written, :meth:`optional_string`) that no template writes and the shipped templates wrote: a key
        deleted (twenty-seventh breaker: `subtitle_win` deleted from table_card.toml printed no subtitle and passed).
        Nothing when each is written, or none was shipped."""
        written = getattr(self, section)
        for name in names:
            if name not in written and any(name in (pristine_table(path, section) or {}) for path in template_chain(self.path)):
                raise self._missing(section, name, written)

    def box(self, name: str) -> BoxSpec:
        """The box called ``name``; the placement fields the layout then reads of it are noted (:attr:`box_fields`)."""
        self.asked.add(f"boxes.{name}")
        watched = self.watched.get(name)
        if watched is not None:
            return watched
        try:
            spec = self.boxes[name]
        except KeyError:
            raise self._missing("boxes", name, self.boxes) from None
        watched = _WatchedBoxSpec(**{field.name: getattr(spec, field.name) for field in dataclasses.fields(spec)})
        object.__setattr__(watched, "_watch", (self, name))
        self.watched[name] = watched
        return watched

    def unset_field(self, box: str, field: str) -> TemplateError:
        """The :class:`TemplateError` for the placement ``field`` of ``[boxes.<box>]`` that a layout reads and no template
        of this kind writes, at the box's header in the file that writes it."""
        path = next((file for file in template_chain(self.path) if box in _read(file).get("boxes", {})), self.path)
        return TemplateError(path, f"boxes.{box}.{field}", f"missing: the layout of {self.kind} reads this field of the "
                                                           f"box; write it ({NUMBER}, mm)", _line(path, ("boxes", box)))

    def color(self, name: str) -> str:
        """The colour called ``name`` (or ``name`` itself if it is a ``"#rrggbb"`` literal)."""
        self.asked.add(f"colors.{name}")
        if _COLOUR.match(name):
            return name.lower()
        try:
            return self.colors[name]
        except KeyError:
            raise self._missing("colors", name, self.colors) from None

    def number(self, name: str) -> float:
        """The number called ``name``, traced as itself (:class:`pnp.layout.traced.Traced`): what a layout works out from
        it remembers it, so that a check names the key that placed a shape (forty-sixth pnp breaker, finding 13)."""
        self.asked.add(f"numbers.{name}")
        try:
            value = self.numbers[name]
            return traced(value, name) if TRACING else value
        except KeyError:
            raise self._missing("numbers", name, self.numbers) from None

    def keys_at(self, *names: str) -> str:
        """Where each ``[numbers]`` key of ``names`` is written, with its value (``templates/last_stand.toml:19 per_row =
        2``), joined by commas: for a line said at the game's data whose bound the template's numbers set, so that a
        designer who edited them is sent back to them (forty-sixth pnp breaker, finding 11: `per_row = 2` was "8
        hit-point spaces do not fit the card's 2 rows of 2 (at most 4)" at cards.toml alone)."""
        said, last = [], None
        for name in names:
            path, line = template_line(self.path, f"numbers.{name}")
            value = f"{name} = {self.numbers[name]:g}" if name in self.numbers else name
            said.append(f"line {line} {value}" if path == last else f"{path.parent.name}/{path.name}:{line} {value}")
            last = path
        return ", ".join(said)

    def inner_size(self, size: str, pad: str, what: str) -> float:
        """``numbers.<size>`` less ``numbers.<pad>`` on each side (mm): the room a shape padded inside another has (the
        portrait's icon inside its frame). Raises :class:`TemplateError` at ``numbers.<pad>`` when that leaves no room,
        with the largest pad that does (twenty-sixth breaker: ``portrait_pad = 12`` was said at ``[numbers]`` with a
        Python repr); ``what`` names the padded shape in words."""
        outer, room = self.number(size), self.number(pad)
        inner = outer - 2 * room
        if inner <= 0 < outer:
            most = math.floor((outer / 2) * 10 - 1e-9) / 10
            raise _error(self.path, f"numbers.{pad}", f"{room:g} mm on each side of {size} ({outer:g} mm) leaves {what} "
                                                      f"no room ({inner:g} mm); set {pad} to less than {outer / 2:g} "
                                                      f"(at most {most:g})")
        return inner

    def string(self, name: str) -> str:
        """The label called ``name``, printed as it is written but for ``{{`` and ``}}``, each one brace as in every
        string (:func:`plain_text`; a ``{placeholder}`` or a brace alone in it is a problem of :func:`string_problems`;
        a label with values in it is read with :meth:`formatted`). A :class:`pnp.text.TemplateText` all of whose
        characters the template wrote: a card's text check leaves its icons to :func:`string_problems`."""
        self.plain.add(f"strings.{name}")
        return TemplateText.whole(plain_text(self._string(name)))

    def could_read(self, *keys: str) -> None:
        """Count ``keys`` (``numbers.emblem_pair_scale``) as read although this layout did not need them: a layout reads
        some keys only for some records (a two-emblem back, a yellow map, a range of 1), and a database that prints no
        such record leaves them unread; they are no typo (twenty-fourth breaker: a design whose backs all bear one emblem
        was told to remove `emblem_pair_scale`). A key not written is not required by this."""
        self.asked.update(keys)

    def _string(self, name: str) -> str:
        """The label called ``name``, read (:attr:`asked`) but not as plain text."""
        self.asked.add(f"strings.{name}")
        try:
            return self.strings[name]
        except KeyError:
            raise self._missing("strings", name, self.strings) from None

    def string_key(self, text: str) -> str | None:
        """The name of the ``[strings]`` entry whose words ``text`` is: the string itself, or the string with values
        in its ``{placeholders}`` when its own words are most of the text (``Warding Key {key}`` and a long tail
        written there); ``None`` for a text the template did not write."""
        for name, value in self.strings.items():
            if value == text or plain_text(value) == text:
                return name
            if "{" in value:
                parts = re.split(r"\{[^{}]*\}", value)
                if 2 * sum(len(part) for part in parts) >= len(text) and re.fullmatch(".*?".join(map(re.escape, parts)), text, re.DOTALL):
                    return name
        return None

    def numbers_valued(self, values: Iterable[float], words: tuple[str, ...] = ()) -> list[str]:
        """The names of ``[numbers]`` whose value is one of ``values``; of several, those whose name holds one of
        ``words`` (``hp_size`` for a text's size), when any does: the number a check names as the one that went wrong."""
        wanted = list(values)
        found = [name for name, value in self.numbers.items() if any(abs(value - v) < 1e-6 for v in wanted)]
        if len(found) > 1:
            found = [name for name in found if any(word in name for word in words)] or found
        return found

    def optional_string(self, name: str, default: str = "") -> str:
        """The label called ``name`` when the template writes one, else ``default``: a string a layout reads only when
        it is there (a table card's subtitle, a back's emblems by the back's id). Read, it is no unread key."""
        self.asked.add(f"strings.{name}")
        self.plain.add(f"strings.{name}")
        return TemplateText.whole(plain_text(self.strings[name])) if name in self.strings else default

    def formatted(self, name: str, /, **values: object) -> str:
        """The label called ``name`` with its ``{placeholders}`` filled from ``values`` (``Range {range}``).
        A placeholder is a plain name of ``values``; anything else is a :class:`TemplateError` at the string's
        own line naming what it can use (twentieth breaker: ``{rang}``, ``{range``, ``{0}`` were tracebacks).

        A :class:`pnp.text.TemplateText` whose spans are the string's own words, and those of each value that is a
        :class:`~pnp.text.TemplateText` itself: a card's text check says an icon the string wrote at the string's line
        only, not at each card the string prints on (thirty-ninth pnp breaker, MED 7)."""
        text = self._string(name)
        allowed = ", ".join(f"{{{key}}}" for key in values) or "none"
        key = f"strings.{name}"
        try:
            fields = list(string.Formatter().parse(text))
        except ValueError as error:  # an unmatched brace
            raise _error(self.path, key, f"{error} (write {{{{ and }}}} for a brace itself); this string can use {allowed}") from None
        for _, field_name, spec, conversion in fields:
            if field_name is None:
                continue
            if field_name not in values or spec or conversion:
                shown = shortened("{" + field_name + (f"!{conversion}" if conversion else "") + (f":{spec}" if spec else "") + "}", 30)
                raise _error(self.path, key, f"unknown placeholder {shown}; this string can use {allowed}")
        from pnp.text import INLINE_ICONS  # (the text module reads fonts)

        for field_name in re.findall(r"(?<!:):\{(\w+)\}:", text):  # an icon filled in: `:{target}:` (thirty-first pnp
            filled = str(values[field_name])  # breaker, MED 13: `:{damage}:` printed ":1:", no icon, and passed)
            if filled not in INLINE_ICONS:
                named = [other for other, value in values.items() if str(value) in INLINE_ICONS]
                raise _error(self.path, key, f":{{{field_name}}}: fills to :{shortened(filled, 20)}:, which is no icon, so it "
                                             f"prints as written; {f'{{{named[0]}}} names an icon' if named else 'write the value without colons'}")
        return _filled(fields, values)


def _missing_error(kind: str, template_path: Path, section: str, name: str, written: Any, asked: set[str]) -> TemplateError:
    """The error for ``section.name`` that the layout of ``kind`` (template at ``template_path``) asks for and no template
    writes (``written``: what the merged ``[section]`` holds; ``asked``: the keys read so far): at the line of
    a name written almost so (``[boxes.titel]``, twelfth breaker) that no layout has read and the shipped templates
    do not write (:func:`pristine_table`), naming it; else, for a key the shipped templates write, at the
    ``[section]`` of the file that wrote it, with the value it had (twenty-sixth breaker); else at the section."""
    # a name the layout has read already is a real one, no typo of this (a "did you mean" that named another box);
    # so is one the pristine templates write (twenty-sixth breaker: a deleted `emblem_ring` was "did you mean
    # emblem_tint", a key back reads a little later)
    chain = template_chain(template_path)
    pristine = [pristine_table(path, section) for path in chain]
    # and so is one the layouts' code names (forty-sixth pnp breaker, finding 17: a deleted `row_pitch` was "did you mean
    # col_pitch", which stats reads too, and renaming it moved the hole)
    real = set().union(*(table or {} for table in pristine)) | _code_keys()[0]
    close = difflib.get_close_matches(
        name, [other for other in written if f"{section}.{other}" not in asked and other not in real], 1, cutoff=0.75)
    reason = f"missing; the layout of {kind} needs it"
    had = next(((path, table[name]) for path, table in zip(chain, pristine) if table and name in table), None)
    if had is not None and not close:  # deleted: at the [section] of the file that wrote it, with what it said
        path, value = had
        reason += f" ({path.name} had {toml_key((name,))} = {_shown_value(value)}; write it under [{section}])"
        return TemplateError(path, f"{section}.{name}", reason, _line(path, (section,)))
    if not close:
        if kind != "base" and not chain[1:]:  # thirteenth breaker: `extends` left out
            reason += '; this template extends no other (`extends = "base"` brings the shared ones)'
        # a key only a kind's own layout names (solo.py, duel.py, not the shared code of common.py) belongs in the kind's
        # own template (forty-sixth pnp breaker, finding 17: a deleted `mana_head` was said at base.toml's [strings])
        if chain[1:] and name in _code_keys()[0] and name not in _code_keys()[1]:
            reason += f" (written in none of {', '.join(p.name for p in chain)}; write it in {template_path.name})"
            return TemplateError(template_path, f"{section}.{name}", reason, _line(template_path, (section,)))
        if chain[1:]:  # twenty-second breaker: a box removed from base.toml was blamed on line 1 of each kind, run by run
            root = chain[-1]
            reason += f" (written in none of {', '.join(p.name for p in chain)}; {root.name} holds what every kind shares)"
            return TemplateError(root, f"{section}.{name}", reason, _line(root, (section,)))
        return _error(template_path, f"{section}.{name}", reason)
    path, line = template_line(template_path, f"{section}.{close[0]}")
    return TemplateError(path, f"{section}.{name}", f"{reason} (did you mean {close[0]}, written here?)", line)


@cache
def _code_keys() -> tuple[frozenset[str], frozenset[str]]:
    """The names the layouts' code writes as string literals (``"col_pitch"``), of every module of :mod:`pnp.layout`
    and of the shared ``common.py`` alone: a key a layout reads by its name is one of them, so no typo of another."""
    found: list[frozenset[str]] = []
    for pattern in ("*.py", "common.py"):
        names: set[str] = set()
        for module in Path(__file__).parent.glob(pattern):
            try:
                names.update(re.findall(r"""["']([a-z][a-z0-9_]*)["']""", module.read_text(encoding="utf-8")))
            except OSError:
                continue
        found.append(frozenset(names))
    return found[0], found[1]


def _filled(fields: list[tuple[str, str | None, str | None, str | None]], values: dict[str, object]) -> TemplateText:
    """The string parsed into ``fields`` (:meth:`string.Formatter.parse`: its words with ``{{`` and ``}}`` read as one
    brace, and the names of its placeholders, checked by :meth:`Template.formatted`) with each placeholder filled from
    ``values`` as :meth:`str.format_map` fills it, keeping which characters the string wrote (:class:`TemplateText`):
    one span for each run of its own words, and the spans of a value that is a :class:`TemplateText`."""
    text, spans, start = "", [], 0
    for literal, field_name, _, _ in fields:
        text += literal
        if field_name is None:  # a brace written twice splits the words: one run of them goes on
            continue
        spans.append((start, len(text)))
        value = values[field_name]
        filled = format(value, "")
        spans.extend(shifted_spans(value, len(text)) if isinstance(value, str) else ())
        text += filled
        start = len(text)
    spans.append((start, len(text)))
    return TemplateText(text, spans)


def plain_text(value: str) -> str:
    """A ``[strings]`` value read as plain text, as it prints: ``{{`` and ``}}`` are one brace each, as in a string with
    ``{placeholders}`` (:meth:`Template.formatted`), so that one rule prints a brace in every string (twenty-fourth
    breaker: `Battle {{Win}}` printed both braces); anything else as written."""
    return value.replace("{{", "{").replace("}}", "}")


def _shown_value(value: Any) -> str:
    """``value`` as TOML writes it (``3.0``, ``"#c9b68e"``, ``[16, 10]``), cut short for one line."""
    if isinstance(value, str):
        return shortened(json.dumps(value, ensure_ascii=False), 60)
    if isinstance(value, dict):
        return "{ ... }"
    return shortened(json.dumps(value), 60)


SHIPPED_AS: dict[Path, Path] = {}
"""Temporary copies of a templates folder (``copy -> the folder copied``) whose files are as shipped as those of the
folder copied are (:func:`shipped_bytes`): a copy with one number tried elsewhere (:func:`pnp.layout.check_fit`'s
bound check) is compared with what the designer's own folder is compared with, never with the designer's edit."""


@functools.lru_cache(maxsize=128)
def shipped_bytes(path: Path) -> bytes | None:
    """The template ``path`` as shipped, to tell a deleted key from a typo: the file of the same name in the bundled
    :data:`pnp.resources.TEMPLATE_DIR` when ``path`` is in another folder, else its last committed version
    (``git show HEAD:<path>``); ``None`` when neither is known (no git, a file of the designer's own). A file of a
    copy in :data:`SHIPPED_AS` is as shipped as the file it copies."""
    import subprocess

    if path.parent in SHIPPED_AS:
        path = SHIPPED_AS[path.parent] / path.name
    bundled = resources.TEMPLATE_DIR / path.name
    try:
        if path.parent.resolve() != bundled.parent.resolve():
            return bundled.read_bytes() if bundled.is_file() else None
        committed = _committed_templates(path.parent)
        if path.name in committed:
            return committed[path.name]
        shown = subprocess.run(["git", "-C", str(path.parent), "show", f"HEAD:./{path.name}"],
                               capture_output=True, timeout=5, check=False)
    except (OSError, subprocess.SubprocessError):
        return None
    return shown.stdout if shown.returncode == 0 else None


@functools.lru_cache(maxsize=8)
def _committed_templates(folder: Path) -> dict[str, bytes | None]:
    """The last committed version of every template (``*.toml``) in ``folder``, by file name, read by one ``git
    cat-file --batch`` (``None`` for a file git has not committed); empty when git cannot tell (no git, no repository:
    :func:`shipped_bytes` then asks for each file alone and finds none). A check asked ``git show`` for each of the 18
    templates in turn, some 90 ms (issue 14). Raises ``OSError`` or ``subprocess.SubprocessError`` as ``git`` does."""
    import subprocess

    names = sorted(entry.name for entry in folder.glob("*.toml") if entry.name.isprintable() and entry.name.strip() == entry.name)
    # (a name of a line end or a space at its ends is asked alone: the batch reads one name a line)
    shown = subprocess.run(["git", "-C", str(folder), "cat-file", "--batch"], capture_output=True, timeout=5, check=False,
                           input="".join(f"HEAD:./{name}\n" for name in names).encode())
    if shown.returncode != 0:
        return {}
    committed: dict[str, bytes | None] = {}
    output, at = shown.stdout, 0
    for name in names:  # each answer: "<object> blob <size>\n<content>\n", or "<name> missing\n" (or "ambiguous")
        end = output.find(b"\n", at)
        if end < 0:
            return {}
        header = output[at:end].split()
        if len(header) == 3 and header[1] == b"blob" and header[2].isdigit():
            size = int(header[2])
            committed[name] = output[end + 1:end + 1 + size]
            at = end + 1 + size + 1
        elif header[-1:] == [b"missing"]:
            committed[name] = None
            at = end + 1
        else:  # a tree or anything else: each file asked alone, as before
            return {}
    return committed


def pristine_table(path: Path, section: str) -> dict[str, Any] | None:
    """The ``[section]`` table (``numbers``) of the template ``path`` as shipped (:func:`shipped_bytes`): ``{}`` when
    it has none, ``None`` when the shipped file is unknown or unreadable."""
    content = shipped_bytes(path)
    if content is None:
        return None
    try:
        table = _parsed(content.removeprefix(codecs.BOM_UTF8)).get(section, {})
    except (UnicodeDecodeError, tomllib.TOMLDecodeError):
        return None
    return table if isinstance(table, dict) else {}


def _shipped_in(chain: list[Path], section: str, name: str) -> bool:
    """Whether the shipped templates of ``chain`` (:func:`pristine_table`) write ``name`` in ``[section]``: a key there
    the designer did not move (a string named as a colour is, ``wardens``), so no stray key of another table."""
    return any(name in (pristine_table(path, section) or {}) for path in chain)


def _header_line(path: Path, section: str) -> int:
    """The line of the first ``[section]`` or ``[section.x]`` header (or ``section =`` key) of ``path``, or 1."""
    try:
        lines = path.read_text(encoding="utf-8-sig").split("\n")
    except (OSError, UnicodeDecodeError):
        return 1
    name = rf"""(?:{re.escape(section)}|"{re.escape(section)}"|'{re.escape(section)}')"""  # as written: bare or quoted
    pattern = re.compile(rf"^\s*(\[\[?\s*{name}\s*[.\]]|{name}\s*=)")
    return next((number for number, line in enumerate(lines, 1) if pattern.match(line)), 1)


def _line(path: Path, parts: tuple[str, ...]) -> int:
    """The line of ``path`` (a template) where the key ``parts`` is written, its table's header, or 1."""
    try:
        return _line_index(path.read_bytes()).line_of(parts)
    except (OSError, UnicodeDecodeError):
        return 1


@functools.lru_cache(maxsize=256)
def _parsed(content: bytes) -> dict[str, Any]:
    """The TOML of a template file's ``content`` (read each time: an edited file is parsed again), parsed once a
    process: the checks look up a key's line many times a build. Raises ``UnicodeDecodeError`` or
    ``tomllib.TOMLDecodeError``; the caller must not change what it returns."""
    return _toml(content.decode("utf-8"))


@functools.lru_cache(maxsize=128)
def _parsed_text(text: str) -> dict[str, Any]:
    """:func:`_toml` of ``text``, parsed once a process (the checks read each template many times); the caller must not
    change what it returns."""
    return _toml(text)


def _toml(text: str) -> dict[str, Any]:
    """The TOML of a template's ``text``, its arrays and tables nested at most as deep as ``cards.toml``'s
    (:func:`pnp.database.loader.loads_within_nesting`; thirty-first breaker, finding 7: a RecursionError traceback).
    Raises ``tomllib.TOMLDecodeError`` (:class:`~pnp.database.loader.NestedTooDeep` for nesting too deep,
    :class:`~pnp.database.loader.NumberTooLong` for an integer of more than 4,300 digits)."""
    from pnp.database.loader import loads_within_nesting

    return loads_within_nesting(text)


@functools.lru_cache(maxsize=64)
def _line_index(content: bytes) -> LineIndex:
    """The :class:`~pnp.database.lines.LineIndex` of a template file's ``content``, built once a process."""
    return LineIndex(content.decode("utf-8"))


def _has(data: Any, parts: tuple[str, ...]) -> bool:
    for part in parts:
        if not isinstance(data, dict) or part not in data:
            return False
        data = data[part]
    return True


def _written_here(path: Path, box: str, unknown: str, field: str) -> bool:
    """Whether ``field`` is written in the very table ``box`` (``boxes.footer``) of the template file that writes the
    unknown field ``unknown`` there (the template at ``path`` or one it extends), not only in a box it extends: only
    then is the unknown one a second spelling of it to remove (thirty-fifth pnp breaker, MED 23: `colour` in player.toml's
    footer, whose `color` comes from base.toml, was told "color is written in this box already: remove colour")."""
    where = template_line(path, f"{box}.{unknown}")[0]
    try:
        return _has(_parsed(where.read_bytes()), (*_key_parts(box), field))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
        return False


def template_line(path: Path, key: str) -> tuple[Path, int]:
    """Where the dotted ``key`` (``boxes.event.y``; ``boxes.event`` for the table) of the template at
    ``path`` is written: ``path`` itself or the first template it extends (``extends``) that has the
    key, and the 1-based line there. A key written in none of them: ``path`` and its section's line."""
    # a value's name may hold dots (a back's emblem keyed by its id, "solo.back.quest"): one name, not a path
    parts = _key_parts(key)
    for size in range(len(parts), 0, -1):  # boxes.event.y, else boxes.event (a value merged from its parent), else boxes
        found, seen = path, set()
        while found.name not in seen:
            seen.add(found.name)
            try:
                data = _parsed(found.read_bytes())
            except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
                break
            if _has(data, parts[:size]):
                return found, _line(found, parts[:size])
            parent = data.get("extends")
            if not isinstance(parent, str) or not _NAME.match(parent):
                break
            found = found.parent / f"{parent}.toml"
    return path, _line(path, parts[:1])


def _error(path: Path, key: str, reason: str) -> TemplateError:
    """A :class:`TemplateError` for ``key`` of the template at ``path``, located in the file that writes
    it (:func:`template_line`)."""
    found, line = template_line(path, key)
    return TemplateError(found, key, reason, line)


BOX_KEYS = ("x", "y", "w", "h", "font", "size", "align", "valign", "line_spacing", "paragraph_spacing", "color")
"""The keys a ``[boxes.name]`` table may hold."""

_NAME = re.compile(r"^[a-z][a-z0-9_-]*$")
"""The name of a template: its file name without ``.toml``."""


MAX_TEMPLATE_BYTES = 200_000
"""The largest template read, in bytes (the bundled ones are under 10 KB): a bigger file is refused."""


def _read(path: Path) -> dict[str, Any]:
    """The TOML of the template file ``path``: a regular file (never a folder, a pipe or a device, which
    would crash, block or fill the memory, twelfth breaker) of at most :data:`MAX_TEMPLATE_BYTES`, in
    UTF-8 with or without a byte-order mark, its arrays and tables nested at most
    :data:`~pnp.database.loader.MAX_NESTING` deep, as ``cards.toml``'s. Raises :class:`TemplateError`."""
    from pnp.database.loader import MAX_NESTING, NestedTooDeep, NumberTooLong

    raw = b""
    outside = link_out_of_folder(path)
    if outside is not None:
        raise TemplateError(path, "file", f"a symbolic link to {shortened(str(outside), 80)}, outside {path.parent.name}/: "
                                          "the cards would print a file the project does not hold; copy the file here")
    try:
        raw = read_limited(path, MAX_TEMPLATE_BYTES, "a template")
        return copy.deepcopy(_parsed_text(raw.decode("utf-8-sig")))
    except FileRefused as error:
        raise TemplateError(path, "file", str(error)) from None
    except FileNotFoundError:
        raise TemplateError(path, "file", "no such template; restore it from the project (git checkout -- templates, or "
                                          "reinstall pnp)") from None  # forty-sixth pnp breaker, F22: no way on was given
    except OSError as error:
        raise TemplateError(path, "file", f"cannot read: {error.strerror or error}") from None
    except UnicodeDecodeError as error:  # at the line that holds the byte, with the fix, as cards.toml's (thirty-fifth breaker, LOW 19)
        raise TemplateError(path, "file", f"not UTF-8 text ({error.reason} at byte {error.start}); save the file as UTF-8",
                            raw.count(b"\n", 0, error.start) + 1) from None
    except NumberTooLong as error:  # at its key, the others' lines said too (thirty-seventh pnp breaker, LOW 8)
        key = ".".join(str(part) for part in error.found[0][1]) if error.found else "file"
        more = [str(line) for line, _ in error.found[1:]]
        others = f" (and at line{'s' if len(more) > 1 else ''} {', '.join(more)})" if more else ""
        raise TemplateError(path, key, f"a number of more than 4,300 digits, far beyond any a template holds{others}; "
                                       "write a number that fits its key", error.found[0][0] if error.found else error.line) from None
    except NestedTooDeep as error:
        # the key as far as a template's tables go (numbers.deep, boxes.title), not the arrays and tables nested in it
        key = ".".join([part for part in error.path if isinstance(part, str)][:2]) or "file"
        raise TemplateError(path, key, f"arrays or tables nested more than {MAX_NESTING} deep; a template nests 4 deep "
                                       f"at most (boxes.title.size[0])", error.line) from None
    except tomllib.TOMLDecodeError as error:
        from pnp.database.loader import table_written_twice, toml_error_line, toml_slip

        line = toml_error_line(error, path.read_text(encoding="utf-8", errors="replace"))
        slip = toml_slip(path.read_text(encoding="utf-8", errors="replace"), line, str(error))
        if slip is not None:  # a comma or a quote left out, as cards.toml's (forty-sixth pnp breaker, F9)
            raise TemplateError(path, "file", slip[1], slip[0]) from None

        table = table_written_twice(str(error))
        if table is not None:
            raise TemplateError(path, "file", table, line) from None
        if str(error).startswith("Cannot overwrite a value"):  # which key, and what is wrong (sixteenth breaker)
            from pnp.database.loader import written_twice

            raise TemplateError(path, "file", written_twice(path.read_text(encoding="utf-8", errors="replace"), line), line) from None
        raise TemplateError(path, "file", str(error), line) from None


def refuse_unreadable_files(folder: Path | None = None) -> None:
    """Raise :class:`TemplateError` at the first ``*.toml`` of ``folder`` (default :data:`TEMPLATE_DIR`) that is no
    regular file (a folder, a pipe, a device, a link to nothing), judged without opening it: a named pipe among the
    templates blocked `pnp check` and `pnp build` for ever, wherever a file was read whole (forty-first pnp breaker, MED
    8). Every other fault of a template is its reading's (:func:`_read`)."""
    for path in sorted(Path(folder or TEMPLATE_DIR).glob("*.toml")):
        try:
            mode = os.stat(path).st_mode  # (through a link, as every reading goes)
        except FileNotFoundError:
            raise TemplateError(path, "file", "a symbolic link to a file that is not there; restore the template or remove "
                                              "the link") from None
        except OSError as error:  # a loop of links
            raise TemplateError(path, "file", f"cannot be read ({error.strerror or error}); restore the template") from None
        if stat.S_ISDIR(mode):
            raise TemplateError(path, "file", "is a folder, not a template; a template is a TOML file: remove or rename it")
        if not stat.S_ISREG(mode):
            raise TemplateError(path, "file", "is not a regular file (a device or a pipe), so it is not a template; restore "
                                              "the template's file, or remove it")


def _templates(folder: Path) -> str:
    return ", ".join(sorted(p.stem for p in folder.glob("*.toml"))) or "none"


_SPELLINGS = {"centre": "center", "centered": "center", "centred": "center", "mid": "middle"}
"""Words a designer writes for an alignment that the templates spell otherwise (British spelling among them)."""


def _word_meant(written: object, words: tuple[str, ...]) -> str:
    """``"; did you mean center?"`` for a ``written`` alignment that is a slip of one of ``words`` (``centre``, ``Left``,
    ``rigth``), else ``""``. Forty-sixth pnp breaker, F22: `align = "centre"` got no hint, in a project that writes
    "colour"."""
    from pnp.text import close_name

    if not isinstance(written, str):
        return ""
    bare = written.strip().lower()
    meant = _SPELLINGS.get(bare) or (bare if bare in words else close_name(bare, words))
    return f"; did you mean {meant}?" if meant in words else ""


def _template_meant(written: str, folder: Path) -> str:
    """What to write for ``extends = written`` that names no template of ``folder``: the template it is a slip of (a file
    name, ``base.toml``; a path, ``./base``; a typo, ``bsae``), else the names of them all. Forty-sixth pnp breaker, F21
    and F22: every such line listed all 18 templates (about 240 characters), and ``base.toml`` was not told ``base``."""
    from pnp.text import close_name

    names = sorted(p.stem for p in folder.glob("*.toml"))
    bare = Path(written.strip().replace("\\", "/")).name.removesuffix(".toml").strip().lower() if written.strip() else ""
    meant = bare if bare in names else close_name(bare, names) if bare else None
    return f"did you mean extends = \"{meant}\"?" if meant else f"the templates are: {', '.join(names) or 'none'}"


SECTIONS = ("extends", "colors", "numbers", "strings", "boxes")
"""The tables (and the one key) a template file may have."""


_ONE = {"colors": "a colour", "numbers": "a number", "strings": "a string", "boxes": "a box"}
"""What one entry of each table of a template is, in words."""


def _check_tables_are_tables(data: dict[str, Any], path: Path) -> None:
    """Raise a :class:`TemplateError` at its line when a table of the template file ``path`` (its own TOML, ``data``:
    ``[colors]``, ``[numbers]``, ``[strings]``, ``[boxes]`` or a box ``[boxes.name]``) is written as an array of tables
    (``[[boxes.title]]``: a list) or as a plain value (``numbers = 5``, ``title = 5`` under ``[boxes]``). Forty-fifth pnp
    breaker, HIGH 1: each was a traceback from check and build ("'list' object is not a mapping")."""
    def fault(key: str, value: Any) -> TemplateError:
        parts = tuple(key.split("."))
        dotted = r"\s*\.\s*".join(rf"(?:{re.escape(part)}|\"{re.escape(part)}\"|'{re.escape(part)}')" for part in parts)
        header = rf"\[\[\s*{dotted}\s*\]\]"
        if isinstance(value, list) and value and all(isinstance(item, dict) for item in value):
            line = _first_line(path, header) or _line(path, parts)
            single = "write each box [boxes.<name>]" if key == "boxes" else f"write it [{key}]"
            return TemplateError(path, key, f"[[{key}]] is an array of tables (a list, as cards.toml writes its records); a "
                                            f"template's tables are written once, in single brackets: {single}", line)
        what = "a box" if len(parts) == 2 else "a table of keys"
        return TemplateError(path, key, f"{key} is {_given(value, key)}, a value, and {key} is {what}: write the header "
                                        f"[{key}] with its keys under it, one a line (key = value)", _line(path, parts))
    for section in SECTIONS:
        if section != "extends" and section in data and not isinstance(data[section], dict):
            raise fault(section, data[section])
    boxes = data.get("boxes", {})
    for name, spec in boxes.items():
        if not isinstance(spec, dict):
            raise fault(f"boxes.{name}", spec)


def _first_line(path: Path, pattern: str) -> int:
    """The 1-based number of the first line of the file ``path`` that matches the regular expression ``pattern`` from its
    start (after blanks), else 0."""
    try:
        lines = path.read_text(encoding="utf-8-sig").split("\n")
    except (OSError, UnicodeDecodeError):
        return 0
    found = re.compile(rf"^\s*{pattern}")
    return next((number for number, line in enumerate(lines, 1) if found.match(line)), 0)


def _check_tables_nested(data: dict[str, Any], path: Path) -> None:
    """Raise a :class:`TemplateError` at the header of a table of the template file ``path`` (its own TOML, ``data``)
    that is one of the template's tables written under another: ``[boxes.numbers]`` for ``[numbers]``, ``[colors.strings]``
    for ``[strings]`` (twenty-ninth breaker: `[boxes.numbers]` was told one key a run, `[boxes.colors]` moved a colour
    into [numbers]). Said once, at the header, whatever the table holds. A real box named like a table (a box of the
    templates ``path`` extends or of the shipped ones, or one holding only a box's fields) passes."""
    for section, one in _ONE.items():
        table = data.get(section)
        if not isinstance(table, dict):
            continue
        for name in _ONE:
            value = table.get(name)
            if name == section or not isinstance(value, dict):
                continue
            if section == "boxes" and (name in _parent_boxes(path) or (value and set(value) <= set(BOX_KEYS))
                                       or any(name in (pristine_table(file, "boxes") or {}) for file in template_chain(path))):
                continue
            line = _line(path, (section, name))
            said = _dotted_table_key(path, line, section, name, value)
            right = "[boxes.<name>] for each box" if name == "boxes" else f"[{name}]"
            raise TemplateError(path, f"{section}.{name}", said or f"[{section}.{name}] reads as {one} named {name}; write {right}",
                                line)


def _dotted_table_key(path: Path, line: int, section: str, name: str, value: dict[str, Any]) -> str:
    """What to say of another table's name written before a key inside ``[section]`` (``strings.hp_top = 44.0`` in
    [numbers], at ``line`` of ``path``; ``value`` the table TOML makes of it), not a ``[section.name]`` header: where the
    key belongs, by the shipped templates (under ``[name]``, or in ``[section]`` without the prefix); ``""`` for a
    header. Forty-fourth pnp breaker, MED 2: it was "[numbers.strings] reads as a number named strings; write
    [strings]", and hp_top written there was then told to move back to [numbers]."""
    try:
        text = path.read_text(encoding="utf-8").split("\n")[line - 1].strip()
    except (OSError, UnicodeDecodeError, IndexError):
        return ""
    if text.startswith("[") or not value:
        return ""
    key = next(iter(value))
    inner = value[key]
    if name == "boxes" and isinstance(inner, dict) and inner:  # `boxes.title.x = ...`: a box's field
        field = next(iter(inner))
        return (f"boxes.{toml_key([key])}.{toml_key([field])} = ... written inside [{section}] reads as "
                f"{section}.boxes.{toml_key([key])}.{toml_key([field])}: write {toml_key([field])} = ... under "
                f"[boxes.{toml_key([key])}]")
    chain = template_chain(path)
    written = f"{name}.{toml_key([key])} = ... written inside [{section}] reads as {section}.{name}.{toml_key([key])}"
    before, _, after = text.partition("=")
    inline = after.strip().startswith("{") and "." not in before  # an inline table (forty-fifth pnp breaker, MED 3)
    if inline:
        written = f"{toml_key([name])} = {{ ... }} inside [{section}] is a table named {toml_key([name])} inside [{section}]"
    if any(key in (pristine_table(file, section) or {}) for file in chain):
        return f"{written}: write {toml_key([key])} = ... there, " + ("on a line of its own" if inline else f"without '{name}.' before it")
    return f"{written}: write {toml_key([key])} = ... under [{name}]"


def _shipped_extends(path: Path) -> tuple[bool, Any]:
    """Whether the template ``path`` as shipped (:func:`shipped_bytes`) is known, and its ``extends`` then (``None``: none)."""
    content = shipped_bytes(path)
    if content is None:
        return False, None
    try:
        return True, _parsed(content.removeprefix(codecs.BOM_UTF8)).get("extends")
    except (UnicodeDecodeError, tomllib.TOMLDecodeError):
        return False, None


class ExtendsCycleError(TemplateError):
    """A :class:`TemplateError` for templates whose ``extends`` lead back to themselves (:func:`_cycle_error`): met from
    any template of the ring, it is one fault, said once."""


def _cycle_error(folder: Path, chain: tuple[str, ...], parent: str) -> TemplateError:
    """The :class:`TemplateError` of an ``extends`` cycle: ``chain`` the templates read so far, the last extending ``parent``,
    which is one of them. Said at the ``extends`` of the template in the cycle whose ``extends`` differs from the shipped one
    (the line the designer wrote), else at the last one read. Thirty-seventh pnp breaker, LOW 10: `extends = "quest"` added
    to base.toml was said at quest.toml's shipped `extends = "base"`, and the rule read as a description of the fault."""
    ring = chain[chain.index(parent):]
    blamed = ring[-1]
    for member in ring:
        known, shipped = _shipped_extends(folder / f"{member}.toml")
        if known and shipped != _read(folder / f"{member}.toml").get("extends"):
            blamed = member
            break
    start = ring.index(blamed)
    cycle = " -> ".join((*ring[start:], *ring[:start], blamed))
    known, shipped = _shipped_extends(folder / f"{blamed}.toml")
    path = folder / f"{blamed}.toml"
    if known and shipped is None:
        rule = f"{blamed} extends no template as shipped (every template extends it, {blamed} is their root); remove this line"
    else:
        rule = "a template may extend only one that does not lead back to it"
    return ExtendsCycleError(path, "extends", f"{cycle} is a cycle: {rule}", _line(path, ("extends",)))


def _merged(kind: str, folder: Path, seen: tuple[str, ...] = ()) -> tuple[dict[str, Any], Path]:
    path = folder / f"{kind}.toml"
    data = _read(path)
    for section in data:  # `[colours]` would be read as nothing at all (eleventh breaker)
        if section not in SECTIONS and "." in section and section.split(".", 1)[0] in SECTIONS:
            # a dotted name in quotes (`["boxes.title"]`) is one table of that whole name (forty-fifth pnp breaker, LOW 4:
            # said unquoted, at line 1, "did you mean boxes?")
            line = _header_line(path, section)
            try:
                header = path.read_text(encoding="utf-8-sig").split("\n")[line - 1].split("#", 1)[0].strip()
            except (OSError, UnicodeDecodeError, IndexError):
                header = ""
            header = header if header.startswith("[") else f"[{toml_key([section])}]"
            raise TemplateError(path, toml_key([section]), f"the header {header[:60]} "
                                                           f"names one table, the dot inside its quotes: write it [{section}] "
                                                           f"without the quotes", line)
        if section not in SECTIONS:
            close = difflib.get_close_matches(section, SECTIONS, 1)
            raise TemplateError(path, section, f"not a table of a template ({', '.join(SECTIONS)})"
                                               f"{f'; did you mean {close[0]}?' if close else ''}", _header_line(path, section))
    _check_tables_are_tables(data, path)
    _check_tables_nested(data, path)
    colours = data.get("colors", {})
    for name, value in (colours.items() if isinstance(colours, dict) else ()):  # each file's own, overridden or not (sixteenth breaker)
        if not (isinstance(value, str) and _COLOUR.match(value)):  # the advice only for a problem: it may read git
            raise _error(path, f"colors.{name}", _dotted_into_itself(value, "colors", name, path=path) or _box_misplaced(value, "colors", name, path) or
                         f"{_given(value, f'colors.{name}')} is not '#rrggbb' (six hexadecimal "
                         f"digits after '#')"f"{_moved(data, 'colors', name, path, value)}")  # twenty-seventh breaker
    parent = data.get("extends")
    if parent is None:
        return data, path
    if not isinstance(parent, str):  # forty-fifth pnp breaker, POLISH 6: `extends = ["base"]` was "no template "['base']""
        named = parent[0] if isinstance(parent, list) and len(parent) == 1 and isinstance(parent[0], str) else str(parent)
        meant = _template_meant(named, folder)
        way = f"; {meant}" if meant.startswith("did you") else ', such as extends = "base"'
        raise TemplateError(path, "extends", f"extends is {_given(parent, 'extends')}, not a string: write it as one name in "
                                             f"quotes{way}", _line(path, ("extends",)))
    if not _NAME.match(parent) or not (folder / f"{parent}.toml").is_file():
        raise TemplateError(path, "extends", f"no template {str(parent)[:40]!r}; {_template_meant(parent, folder)}",
                            _line(path, ("extends",)))
    if parent in seen + (kind,):
        raise _cycle_error(folder, (*seen, kind), parent)
    base, _ = _merged(parent, folder, seen + (kind,))
    merged: dict[str, Any] = {}
    for section in ("colors", "numbers", "strings"):
        merged[section] = {**base.get(section, {}), **data.get(section, {})}
    boxes = {name: dict(spec) for name, spec in base.get("boxes", {}).items()}
    for name, spec in data.get("boxes", {}).items():
        boxes[name] = {**boxes.get(name, {}), **spec}
    merged["boxes"] = boxes
    return merged, path


def _check(condition: bool, path: Path, key: str, message: str) -> None:
    if not condition:
        raise _error(path, key, message)


def _is_number(value: Any) -> bool:
    """A finite int or float (not a bool) of at most :data:`LARGEST_NUMBER` in size."""
    return (isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)
            and abs(value) <= LARGEST_NUMBER)


NUMBER = f"a finite number from -{LARGEST_NUMBER:g} to {LARGEST_NUMBER:g}"


class DrawnShapeError(TemplateError):
    """A :class:`TemplateError` for a shape the layout could not draw because a template number gives it a negative size
    (:func:`drawing_error`): the check searches a bound for that number when it is the one changed."""


def drawing_error(kind: str, error: ValueError, folder: Path | None = None) -> DrawnShapeError:
    """The :class:`TemplateError` for a shape the layout of ``kind`` could not draw (``error``, from
    :mod:`pnp.drawing`: a negative size, a text size of 0): a number of the template's ``[numbers]``
    gives it. The number whose value the error quotes (``Rect has a negative size 2.0 x -9.9 mm``:
    ``hp_box = -9.9``) is named at its line, else the template's one negative number (the bundled templates have
    none: ``emblem_scale = -0.8`` made the emblem's size negative, eighteenth breaker); else the ``[numbers]`` table."""
    path = (folder or TEMPLATE_DIR) / f"{kind}.toml"
    quoted_values = {float(token) for token in re.findall(r"-?\d+(?:\.\d+)?", str(error))}
    try:
        numbers = _merged(kind, folder or TEMPLATE_DIR)[0].get("numbers", {})
    except TemplateError:
        numbers = {}
    suspects = [name for name, value in numbers.items() if _is_number(value) and float(value) in quoted_values
                and (float(value) <= 0 or "negative" not in str(error))]
    if not suspects:  # a product or sum of numbers (emblem_size * emblem_scale): the one number below zero, if one is
        suspects = [name for name, value in numbers.items() if _is_number(value) and float(value) < 0]
    if len(suspects) != 1:  # twenty-seventh breaker: `frame_inset = 40` was the whole [numbers]: the one number changed
        changed = changed_number(path)
        suspects = [changed[0]] if changed is not None else suspects
    key = f"numbers.{suspects[0]}" if len(suspects) == 1 else "numbers"
    plain = _error(path, key, f"{'this number' if len(suspects) == 1 else 'a number'} gives a shape that cannot be drawn "
                              f"({error}): change it so that every size is positive")
    return DrawnShapeError(plain.path, plain.key, plain.reason, plain.line)


def changed_number(path: Path) -> tuple[str, Any] | None:
    """The one ``[numbers]`` key of the template ``path`` (with those it extends) whose value differs from the shipped
    templates (:func:`pristine_table`), with the shipped value, as ``(name, shipped value)``; ``None`` when none or
    several differ, or the shipped templates are unknown. A layout fault that no number's value singles out is then
    said at the number the designer changed (twenty-seventh breaker: `key_icon_x = 3` was blamed on `key_icon_size`,
    `frame_inset = 15` on `emblem_size`)."""
    changed = changed_numbers(path)
    return changed[0] if len(changed) == 1 else None


SIZE_SUFFIXES = ("_box", "box_w", "box_h", "key_w", "key_h", "area_w", "area_h", "wide_w")
"""A ``[numbers]`` key ending so (``box_w``, ``box_h``, ``track_box``, ``hp_box``, ``key_w``), or named ``box``, is the size
of a box or a track space the layouts draw (mm): more than 0, as a ``[boxes]`` width is (forty-sixth pnp breaker, finding
15: `box_w = 0` was never named; the first advice set base.toml's corner radius to 0, the next an arrow's width)."""


def is_size(name: str) -> bool:
    """Whether the ``[numbers]`` key ``name`` is the size of a box or space a layout draws (:data:`SIZE_SUFFIXES`): more
    than 0."""
    return name == "box" or f"_{name}".endswith(SIZE_SUFFIXES)


def size_problem(name: str, value: float) -> str | None:
    """What is wrong with ``value`` (0 or less) for a size key ``name`` (:func:`is_size`), in the words a ``[boxes]``
    width gets ("0 mm is no width"); ``None`` when it is more than 0 or ``name`` is no size."""
    if not is_size(name) or value > 0:
        return None
    word = "width" if name.endswith("_w") else "height" if name.endswith("_h") else "size"
    return f"{value:g} mm is no {word}; a box's {word} is more than 0 mm"


def _valid_value(name: str, value: float) -> bool:
    """Whether ``value`` is one the template check takes for the ``[numbers]`` key ``name``."""
    return (abs(value) <= LARGEST_NUMBER and least_value_problem(name, value) is None and size_problem(name, value) is None
            and not ((is_extent(name) or is_room(name) or name in EXTENT_NAMES) and value < 0))


def traced_words(fix: tuple[str, float, float, str]) -> str:
    """The words of a :func:`traced_fix`: ``since middle_w is 54.2 (middle_x = 14.2 places it too): set middle_w to at
    most 44.4``."""
    name, value, fits, also = fix
    return f"since {name} is {value:g}{also}: set {name} to at {'least' if fits > value else 'most'} {fits:g}"


def traced_fix(path: Path, excess: Any) -> tuple[str, float, float, str] | None:
    """For ``excess`` (how far a shape the layout of the template ``path`` draws is out, traced:
    :mod:`pnp.layout.traced`), the ``[numbers]`` key that placed it, its value now and the value (rounded to a tenth away
    from the fault) that alone brings it back: of the keys it derives from, the one that needs the least change for a
    value the template check takes; ``None`` when ``excess`` is not traced or no key alone can. Used where the shipped
    templates are unknown, so the key changed cannot be told (forty-sixth pnp breaker, finding 13)."""
    from pnp.layout.traced import fixes, slopes

    if not slopes(excess):
        return None
    try:
        numbers = _merged(path.stem, path.parent)[0].get("numbers", {})
    except TemplateError:
        return None
    values = {name: float(value) for name, value in numbers.items() if _is_number(value)}

    def rounded(name: str, needed: float) -> float:
        up = needed > values[name]
        return (math.ceil if up else math.floor)(needed * 10 + (-1e-6 if up else 1e-6)) / 10

    found = fixes(excess, values, lambda name, needed: _valid_value(name, rounded(name, needed)))
    if not found:
        return None
    name, needed = found[0]
    # the keys that move it as much for the same change: which of them was edited cannot be told, so they are named too
    change = abs(needed - values[name])
    tied = [other for other, value in found[1:] if abs(abs(value - values[other]) - change) < 0.05][:2]
    also = f" ({', '.join(f'{other} = {values[other]:g}' for other in tied)} place{'s' if len(tied) == 1 else ''} it too)" \
        if tied else ""
    return name, values[name], rounded(name, needed), also


def changed_numbers(path: Path) -> list[tuple[str, Any]]:
    """Every ``[numbers]`` key of the template ``path`` (with those it extends) whose value differs from the shipped
    templates (:func:`pristine_table`), with the shipped value, as ``(name, shipped value)`` in the merged table's order;
    empty when none differ, the template is broken or the shipped templates are unknown (:func:`changed_number` is the
    one of a single edit)."""
    try:
        numbers = _merged(path.stem, path.parent)[0].get("numbers", {})
    except TemplateError:
        return []
    shipped: dict[str, Any] = {}
    for file in reversed(template_chain(path)):
        shipped.update(pristine_table(file, "numbers") or {})
    return [(name, shipped[name]) for name, value in numbers.items() if name in shipped and value != shipped[name]]


def changed_keys(path: Path) -> list[tuple[str, Any, Any]]:
    """The keys of the one template file ``path`` whose values differ from the same file as shipped
    (:func:`pristine_table`), as ``(dotted key, value here, shipped value)`` in the file's order, the shipped ones no
    longer written last (value ``None``); a key written here and not shipped has shipped value ``None``. Empty when
    the file is as shipped or the shipped file is unknown or unreadable, and when ``path`` is unreadable. Worked out
    once for each content of the file (the checks ask it for every text judged)."""
    try:
        content = path.read_bytes()
    except OSError:
        return []
    return list(_changed_keys(path, content))


@functools.lru_cache(maxsize=64)
def _changed_keys(path: Path, content: bytes) -> tuple[tuple[str, Any, Any], ...]:
    """:func:`changed_keys` of ``path`` holding ``content``."""
    shipped_content = shipped_bytes(path)
    if shipped_content is None:
        return ()
    try:
        here = _parsed(content.removeprefix(codecs.BOM_UTF8))
        shipped = _parsed(shipped_content.removeprefix(codecs.BOM_UTF8))
    except (UnicodeDecodeError, tomllib.TOMLDecodeError):
        return ()

    def leaves(table: dict[str, Any], prefix: tuple[str, ...] = ()) -> dict[tuple[str, ...], Any]:
        found: dict[tuple[str, ...], Any] = {}
        for name, value in table.items():
            if isinstance(value, dict):
                found.update(leaves(value, (*prefix, name)))
            else:
                found[(*prefix, name)] = value
        return found
    now, before = leaves(here), leaves(shipped)
    changed = [(toml_key(key), value, before.get(key)) for key, value in now.items() if before.get(key) != value]
    return tuple(changed + [(toml_key(key), None, value) for key, value in before.items() if key not in now])


@cache
def _parent_boxes(path: Path) -> frozenset[str]:
    """The boxes the templates ``path`` extends define (none for a template that extends nothing)."""
    try:
        parent = _toml(path.read_text(encoding="utf-8")).get("extends")
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
        return frozenset()
    if not isinstance(parent, str) or not _NAME.match(parent) or not (path.parent / f"{parent}.toml").is_file():
        return frozenset()
    try:
        return frozenset(_merged(parent, path.parent)[0].get("boxes", {}))
    except TemplateError:
        return frozenset()


def parent_boxes(path: Path) -> frozenset[str]:
    """The boxes the templates the template file ``path`` extends define (none for one that extends nothing): a box of
    ``path`` named as one of them overrides it."""
    return _parent_boxes.__wrapped__(path)  # (read again: the templates may have been edited since)


def template_chain(path: Path) -> list[Path]:
    """The template at ``path`` and those it extends, in order (``elder.toml``, ``quest.toml``, ``base.toml``)."""
    chain = [path]
    while len(chain) < 10:
        try:
            parent = _parsed(chain[-1].read_bytes().removeprefix(codecs.BOM_UTF8)).get("extends")  # a byte-order mark is fine
        except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
            break
        if not isinstance(parent, str) or not _NAME.match(parent) or (chain[-1].parent / f"{parent}.toml") in chain:
            break
        chain.append(chain[-1].parent / f"{parent}.toml")
    return chain


def load_template(kind: str, folder: Path | None = None) -> Template:
    """Read ``<folder>/<kind>.toml`` (``folder``: :data:`TEMPLATE_DIR` unless given; with the template it
    extends) and check every box; read once a process (:func:`_load`).

    Raises :class:`TemplateError` for a missing file, bad TOML, a template it extends that is none, an
    unknown font family, a size range below :data:`MIN_TEXT_PT` or with max below min, an unknown
    alignment, a bad colour, a box with no area, a number that is not finite or larger than
    :data:`LARGEST_NUMBER`, a ``_tint`` outside 0-1 or a room (:func:`is_room`) below 0.
    """
    return _load(kind, folder or TEMPLATE_DIR)


def string_problems(folder: Path | None = None) -> list[tuple[Path, int, str, str]]:
    """The problems of the ``[strings]`` of the templates in ``folder`` loaded so far that a layout read, as
    card text has them: a ``{placeholder}`` in a string read as plain text (printed as written), an ``:icon:`` token
    that names no icon, an icon without its closing colon, a character
    no bundled font draws (in the text family, the one labels print in); placeholders (``{key}``) are not text.
    ``(file, line, key, message)``, each key once. Call it after the faces are laid out (twentieth breaker:
    a caption ``Win :wn: 日本`` printed ``:wn:`` and two missing-glyph boxes, and passed)."""
    from pnp.text import (
        INLINE_ICONS,
        icon_meant,
        icon_path_advice,
        icon_paths,
        lookalike_icon_advice,
        lookalike_icons,
        unclosed_icons,
        unknown_icons,
    )

    folder = folder or TEMPLATE_DIR
    found: dict[tuple[Path, str], tuple[Path, int, str, str]] = {}
    for (_, where), template in list(_LOADED.items()):
        if where != folder:
            continue
        for name, value in template.strings.items():
            key = f"strings.{name}"
            if key not in template.asked:
                continue
            text = re.sub(r"\{[^{}]*\}", " ", value)
            said = []
            if not value.strip():  # thirty-first pnp breaker (MED 13): `range = ""` printed an empty line on every servant
                said.append("prints nothing on the cards that show it; write the text they print (cards.toml refuses a blank "
                            "text the same way)")
            if key in template.plain:  # twenty-third breaker: `kind_label = "City Quest {key}"` printed its braces
                said += [f"{{{field}}} is printed as written: this string takes no placeholders (write {{{{ and }}}} "
                         f"for a brace itself)" for field in _placeholders(value)][:1]
                said += [f"{shortened(error, 60)}: a brace itself is written {{{{ or }}}} (printed as one brace)"
                         for error in _brace_error(value)]
            for token in unknown_icons(text):
                meant = icon_meant(token)
                said.append(f"unknown icon :{token}:; " + (f"did you mean :{meant}:?" if meant else f"icons are: {', '.join(sorted(INLINE_ICONS))}"))
            said += [icon_path_advice(token) for token in icon_paths(text)]
            said += [f"the icon :{token} has no closing colon, so it prints as text; write :{token}:" for token in unclosed_icons(text)]
            said += [lookalike_icon_advice(token, meant) for token, meant in lookalike_icons(text)]
            said += [f"character {quoted(char, 12)} (U+{ord(char):04X}) is in no bundled font"
                     for char in fonts.missing_chars(text, "serif")]
            if said:
                path, line = template_line(template.path, key)
                found.setdefault((path, key), (path, line, key, said[0]))
    return list(found.values())


def _placeholders(text: str) -> list[str]:
    """The names of the ``{placeholders}`` of ``text`` as :meth:`str.format` reads them (``{{`` is a brace), ``[]`` for a
    text it cannot read (a brace alone: a plain text prints it as written)."""
    try:
        return [field for _, field, _, _ in string.Formatter().parse(text) if field is not None]
    except ValueError:
        return []


def _brace_error(text: str) -> list[str]:
    """``[what is wrong]`` when ``text`` has a brace :meth:`str.format` cannot read (``Battle {``, a ``}`` alone), else
    ``[]``: a brace itself is written ``{{`` or ``}}`` in every string (:func:`plain_text`)."""
    try:
        list(string.Formatter().parse(text))
    except ValueError as error:
        return [str(error)]
    return []


def _users(folder: Path) -> tuple[list[Path], dict[Path, list[Template]]]:
    """Every template file of the kinds of ``folder`` loaded so far, each kind's own first and then those it extends
    (``elder.toml``, ``quest.toml``, ``base.toml``), each once; and for each file the loaded kinds laid out with it."""
    files: list[Path] = []
    users: dict[Path, list[Template]] = {}
    for template in loaded_templates(folder):
        for path in template_chain(template.path):
            if path not in users:
                files.append(path)
            users.setdefault(path, []).append(template)
    return files, users


def _read_by(users: list[Template]) -> set[str]:
    """The keys the layouts of ``users`` read; the colours their boxes name are read."""
    asked = set().union(*(template.asked for template in users)) if users else set()
    return asked | {f"colors.{box.color_name}" for template in users for box in template.boxes.values() if box.color_name}


def unread_keys(folder: Path | None = None) -> list[tuple[Path, int, str, str, str, str, int]]:
    """The keys of the templates in ``folder`` loaded so far that no layout reads: a key a template file writes in
    ``[colors]``, ``[numbers]`` or ``[strings]`` that no layout of a kind using that file (the kind itself, or one that
    extends it) reads (a typo: ``emblem_sise``, eleventh breaker; ``mutted``, ``foo``, twenty-first; ``hex_radius_max``
    written in back.toml, base.toml's ``foo_bar``, twenty-second), and every box of a file other than base.toml no layout
    fills (a box is read whenever its layout runs, so one never read prints nothing, twelfth breaker); a box of base.toml
    only when no template of ``folder`` writes a box of that name either (one for a kind this database does not print;
    twenty-fourth breaker: `[boxes.titel]` there passed). Every file of every
    loaded kind's chain is looked at, a file only ever extended (quest.toml) too (twenty-third breaker: its typos passed).
    A file a kind is laid out with whose layout stopped short for a record (:attr:`Template.cut_short`) is not looked at:
    what that layout did not reach is unread for that (twenty-fourth breaker: `track_columns = 4` called eight keys of
    stats.toml unread).
    ``(file, line, key, the key meant or "", the kinds whose layouts read it elsewhere or "", why a key read by a record's
    value is unread or "", the line of the key meant when the file writes it already, else 0)``, each once, the key meant
    being one those layouts read spelled almost the same (:func:`_read_by_value`); when the file writes that key already
    (a misspelt second copy of it), its line is given, so the copy is said as one to remove. Call it after the faces
    are laid out."""
    folder = folder or TEMPLATE_DIR
    loaded = loaded_templates(folder)
    files, users_of = _users(folder)
    everywhere: dict[str, list[str]] = {}  # every key a layout read, by section: a typo's meaning read by another kind
    for key in sorted(_read_by(loaded)):
        section, _, name = key.partition(".")
        everywhere.setdefault(section, []).append(name)
    found: dict[tuple[Path, str], tuple[Path, int, str, str, str, str, int]] = {}
    other_boxes = _boxes_written(folder)
    for path in files:
        own = _read(path)  # what this file itself writes
        users = users_of[path]  # kinds laid out with this file
        if any(user.cut_short for user in users):
            continue  # a layout stopped short by a record problem: its keys are unread because of that record, said already
        asked = _read_by(users)
        for section in ("boxes", "colors", "numbers", "strings"):
            written = own.get(section, {})
            if not isinstance(written, dict):
                continue
            read = sorted({key.split(".", 1)[1] for key in asked if key.startswith(f"{section}.")})
            for name in written:
                key = f"{section}.{name}"
                if key in asked:
                    continue
                if section == "boxes" and path.stem == "base" and name in other_boxes:
                    continue  # a base box another template writes too is for a kind this database may not print
                if any(key.startswith(prefix) and key[len(prefix):] in values
                       for user in users for prefix, values in user.spare.items()) \
                        or any(key in user.read_only_for for user in users):
                    continue  # a key for a value or a kind of record none has now: kept for one that will (MED 17)
                elsewhere = sorted(other.kind for other in loaded if key in other.asked and other not in users)
                by_value = _read_by_value(users, key)
                # the key meant: one these layouts read and this file does not write already (twenty-eighth breaker:
                # `subtitle_win` was "did you mean subtitle_next?", written two lines below, or "subtitle?", which only
                # other kinds read, so that the renamed key was refused by the next check)
                meant = [] if by_value else difflib.get_close_matches(  # a typo of a key also written is still that key
                    name, [other for other in read if other != name], 1, cutoff=0.75)
                twin = 0
                if meant and meant[0] in written:  # but renaming it there would write that key twice: no did-you-mean
                    # (thirty-first pnp breaker, LOW 20: a deleted back's emblem string was told to become
                    # strings."solo.back.servant", written two lines below); a misspelt second copy of that key is said
                    # as such (forty-sixth pnp breaker, F23: `roll_seperator` under `roll_separator` was told to become
                    # progress_track.toml's label_separator)
                    twin = _line(path, (section, meant[0])) if difflib.SequenceMatcher(None, name, meant[0]).ratio() >= 0.85 else 0
                    meant = [meant[0]] if twin else []
                if not meant and not elsewhere and not by_value and not twin:  # a key of this file that another kind reads
                    meant = difflib.get_close_matches(name, [k for k in everywhere.get(section, []) if k != name and k not in written
                                                             and any(f"{section}.{k}" in user.asked for user in users)], 1, cutoff=0.75)
                found.setdefault((path, key), (path, _line(path, (section, name)), key,
                                               f"{section}.{meant[0]}" if meant else "", ", ".join(elsewhere), by_value, twin))
    return list(found.values())


def unread_box_fields(folder: Path | None = None) -> list[tuple[Path, int, str, str]]:
    """The placement fields (:data:`PLACEMENT_FIELDS`) that a template file of ``folder`` writes for a box its layouts
    read and place themselves, so that no layout reads those fields (thirtieth breaker, finding 10: `x`, `y` and `w` of
    stats.toml's `[boxes.key_name]` changed nothing and check said nothing). One ``(file, line, key, reason)`` a box, at
    its first such field (``boxes.key_name.x``); the reason names them all. A file whose layout stopped short for a
    record is skipped (:func:`unread_keys`). Call it after the faces are laid out."""
    folder = folder or TEMPLATE_DIR
    files, users_of = _users(folder)
    found = []
    for path in files:
        users = [user for user in users_of[path] if user.watched]
        if not users or any(user.cut_short for user in users_of[path]):
            continue
        written = _read(path).get("boxes", {})
        if not isinstance(written, dict):
            continue
        for name, fields in written.items():
            readers = [user for user in users if name in user.watched]
            if not readers or not isinstance(fields, dict):
                continue
            unread = [field for field in PLACEMENT_FIELDS
                      if field in fields and not any(f"{name}.{field}" in user.box_fields for user in readers)]
            if unread:
                named = ", ".join(unread[:-1]) + f" and {unread[-1]}" if len(unread) > 1 else unread[0]
                verb = "is" if len(unread) == 1 else "are"
                found.append((path, _line(path, ("boxes", name, unread[0])), f"boxes.{name}.{unread[0]}",
                              f"the layout places this box itself: {named} {verb} not read; remove "
                              f"{'it' if len(unread) == 1 else 'them'}"))
    return found


def _read_by_value(users: list[Template], key: str) -> str:
    """For an unread ``key`` of the kind a layout of ``users`` reads by a record's value (:attr:`Template.keyed`) or only
    for some records (:attr:`Template.read_only_for`): why it is unread, ``"no table card has the icon or dice 'win' now
    (they have d6-3, loss, next)"``, ``"no table card has a difference table now"``; else ``""``."""
    for user in users:
        for prefix, (what, values) in user.keyed.items():
            if key.startswith(prefix) and key != prefix:
                have = ", ".join(sorted(values)) or "none"
                return f"no {what} is {key[len(prefix):]!r} now (the printed ones are {have})"
        if key in user.read_only_for:  # read for a kind of record none is now (Template.reads_only_for)
            return f"no {user.read_only_for[key]} now"
    return ""


def _boxes_written(folder: Path) -> set[str]:
    """The names of the boxes every template of ``folder`` but base.toml writes (each file's own ``[boxes]``; a file that
    cannot be read adds none)."""
    names: set[str] = set()
    for path in sorted(folder.glob("*.toml")):
        if path.stem == "base":
            continue
        try:
            boxes = _read(path).get("boxes", {})
        except TemplateError:
            continue
        names.update(boxes if isinstance(boxes, dict) else ())
    return names


def overridden_keys(folder: Path | None = None) -> list[tuple[Path, int, str, list[tuple[Path, int]]]]:
    """The values of the templates in ``folder`` loaded so far that no layout uses although layouts read their key: a
    ``[colors]``, ``[numbers]`` or ``[strings]`` key of a file whose every kind reading it takes it from a file earlier
    in its chain, which writes its own (twenty-third breaker: ``hex_radius_max`` added to base.toml changed nothing, for
    battle_map.toml, the one kind reading it, sets its own; ``emblem_size``, set by quest.toml and back.toml), and a
    box's field so (:func:`_overridden_box_fields`, boxes merge field by field). A key
    some kind takes from the file is used. ``(file, line, key, [(file that writes the value used, its line), ...])``.
    Call it after the faces are laid out."""
    folder = folder or TEMPLATE_DIR
    files, users_of = _users(folder)
    written = {path: _read(path) for path in files}
    read_by = {id(template): _read_by([template]) for template in loaded_templates(folder)}  # once a kind, not once a key
    chains = {id(template): template_chain(template.path) for template in loaded_templates(folder)}
    found = []
    for path in files:
        for section in ("colors", "numbers", "strings"):
            values = written[path].get(section, {})
            if not isinstance(values, dict):
                continue
            for name in values:
                key = f"{section}.{name}"
                readers = [template for template in users_of[path] if key in read_by[id(template)]]
                taken_from = set()
                for template in readers:
                    chain = chains[id(template)]
                    taken_from.add(next(other for other in chain if name in (written.get(other) or {}).get(section, {})))
                if readers and path not in taken_from:
                    found.append((path, _line(path, (section, name)), key,
                                  [(other, _line(other, (section, name))) for other in sorted(taken_from, key=lambda other: other.name)]))
        found.extend(_overridden_box_fields(path, written, users_of[path], read_by, chains))
    return found


def _overridden_box_fields(path: Path, written: dict[Path, dict[str, Any]], users: list[Template],
                           read_by: dict[int, set[str]], chains: dict[int, list[Path]]) -> list[tuple[Path, int, str, list[tuple[Path, int]]]]:
    """The box fields ``path`` writes (``[boxes.title]``'s ``y``) that every kind laid out with it and filling that box
    takes from a file earlier in its chain, which writes its own: boxes merge field by field (twenty-fifth breaker:
    a ``[boxes.title]`` added to base.toml, which every kind with a title sets again, changed nothing and passed). A box
    whose every field written is so is one ``boxes.title`` at its header; else each such field, ``boxes.title.y``, at its
    line. ``(file, line, key, [(file that writes the value used, its line), ...])`` as :func:`overridden_keys`."""
    boxes = written[path].get("boxes", {})
    found = []
    for name, spec in (boxes.items() if isinstance(boxes, dict) else ()):
        if not isinstance(spec, dict) or not spec:
            continue
        readers = [template for template in users if f"boxes.{name}" in read_by[id(template)]]
        if not readers:
            continue  # a box no layout fills is an unread one (unread_keys)
        unused: dict[str, set[Path]] = {}
        for field in spec:
            taken_from = set()
            for template in readers:
                taken_from.add(next(other for other in chains[id(template)]
                                    if field in ((written.get(other) or {}).get("boxes", {}).get(name) or {})))
            if path not in taken_from:
                unused[field] = taken_from
        if not unused:
            continue
        if len(unused) == len(spec):  # the whole box: one line at its header, naming where each kind's box is written
            used = set().union(*unused.values())
            found.append((path, _line(path, ("boxes", name)), f"boxes.{name}",
                          [(other, _line(other, ("boxes", name))) for other in sorted(used, key=lambda other: other.name)]))
            continue
        for field, used in unused.items():
            found.append((path, _line(path, ("boxes", name, field)), f"boxes.{name}.{field}",
                          [(other, _line(other, ("boxes", name, field))) for other in sorted(used, key=lambda other: other.name)]))
    return found


def _key_parts(key: str) -> tuple[str, ...]:
    """The parts of a dotted template ``key``: a value's name is one part, dots and all (``strings.solo.back.quest``, a
    back's emblem keyed by its id), as is a quoted part (``strings."solo.back.quest"``, as :func:`shown_key` writes it)."""
    if '"' in key:
        parts = re.findall(r'(?:"((?:[^"\\]|\\.)*)"|([^."]+))(?:\.|$)', key)
        return tuple(json.loads(f'"{quoted}"') if quoted else bare for quoted, bare in parts)
    section, _, name = key.partition(".")
    return (section, name) if section in ("colors", "numbers", "strings") and name else tuple(key.split("."))


def shown_key(key: str) -> str:
    """A dotted template ``key`` as TOML writes it: a part that is no bare key quoted (``strings."solo.back.quest"``,
    twenty-third breaker: shown as ``strings.solo.back.quest``, three tables deep)."""
    return toml_key(_key_parts(key))


def loaded_templates(folder: Path | None = None) -> list[Template]:
    """The templates of ``folder`` (the layouts' own, by default) loaded so far, in the order first loaded."""
    folder = folder or TEMPLATE_DIR
    return [template for (_, where), template in _LOADED.items() if where == folder]


def forget_reads() -> None:
    """Empty what every template loaded was asked (:attr:`Template.asked`), before a new layout of every card
    reads them again: what :func:`unread_keys` reports is then what that layout read, not what some earlier
    layout of another database did in the same process (a key an earlier database's back read counted as read)."""
    for template in _LOADED.values():
        template.asked.clear()
        template.cut_short.clear()


def drop_loaded(folder: Path) -> None:
    """Forget the templates of ``folder`` loaded so far (a temporary folder of shipped templates, removed after one
    layout: :func:`pnp.layout.edited.shipped_templates`)."""
    for kind, where in [key for key in _LOADED if key[1] == folder]:
        del _LOADED[kind, where]  # (the load cache keeps them: clearing it would load the others anew, unasked)


_LOADED: dict[tuple[str, Path], Template] = {}
"""Every template loaded this process, by kind and folder (:func:`unread_keys` reads what they were asked)."""


def _box_misplaced(value: Any, section: str, name: str, path: Path) -> str:
    """``"[colors.title] is a box, not a colour: write it as [boxes.title]"`` when ``value``, the table written as ``[section.name]``,
    is a box: ``name`` is a box of the templates ``path`` extends or of the shipped ones, or ``value`` holds only a box's
    fields (twenty-eighth breaker: `[colors.title]` for `[boxes.title]` was "not '#rrggbb'"); else ``""``."""
    if not isinstance(value, dict):
        return ""
    shipped = any(name in (pristine_table(file, "boxes") or {}) for file in template_chain(path))
    if shipped or name in _parent_boxes(path) or (value and set(value) <= set(BOX_KEYS)):
        what = {"colors": "a colour", "numbers": "a number", "strings": "a string"}[section]
        return f"[{section}.{name}] is a box, not {what}: write it as [boxes.{name}]"
    return ""


def _dotted_into_itself(value: Any, section: str, name: str, table: dict[str, Any] | None = None,
                        path: Path | None = None) -> str:
    """``"numbers.disc_r = ... written inside [numbers] reads as numbers.numbers.disc_r: write disc_r = ... there"`` when
    ``value``, written as ``[section.name]``, is a table named as its own section: keys written with the section's name
    before them inside that section (thirty-ninth pnp breaker, LOW 4: it was "a table [numbers.numbers] (written as a
    section, or as key = { ... })", which the designer wrote neither); else ``""``. A key the section ``table`` already
    sets is said as set twice (fortieth pnp breaker, LOW 2: the advice then met "given twice"); a table written as the
    header ``[numbers.numbers]`` in the template ``path`` is left to the plain words (fortieth, LOW 3)."""
    if name != section or not isinstance(value, dict) or not value:
        return ""
    own: Any = table
    if path is not None:  # the file that writes it, and that file's own table (not one a template it extends sets)
        home = template_line(path, f"{section}.{section}")[0]
        try:
            content = home.read_bytes()
            own = _parsed(content).get(section, {})
        except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
            content = b""
        name_written = rf"""(?:{section}|"{section}"|'{section}')"""
        text = content.decode("utf-8", "replace")
        header = re.search(rf"^\s*(\[\s*{name_written}\s*\.\s*{name_written}\s*(?:\.[^\]\n]*)?\])", text, re.M)
        if header:
            # the header with the section's name twice or more, quoted or not (forty-third pnp breaker, LOW 7: "a table
            # [numbers.numbers] ... is not a finite number"; forty-fourth, MED 1: `[numbers.numbers.numbers]` was said at
            # line 1 as dotted keys), said at its own line
            line = text[:header.start(1)].count("\n") + 1
            raise TemplateError(home, f"{section}.{section}", f"the header {header.group(1)} opens a table {section!r} "
                                                              f"inside [{section}]: write it [{section}]", line)
    repeats = 1  # the prefix written twice or more (forty-third pnp breaker, MED 1: `numbers.numbers.hp_top` was said as
    while list(value) == [section] and isinstance(value[section], dict) and value[section]:  # "write numbers = ...")
        value, repeats = value[section], repeats + 1
    prefix = f"{section}." * repeats
    keys = list(value)
    twice = [key for key in keys if isinstance(own, dict) and key in own and key != section]
    if twice:
        return (f"{prefix}{twice[0]} = ... written inside [{section}] would set {twice[0]} a second time (this table sets "
                f"it already): change {twice[0]} where it is set, and remove this line")
    written = " and ".join(f"{prefix}{key} = ..." for key in keys[:3]) + (" ..." if len(keys) > 3 else "")
    return (f"{written} written inside [{section}] reads as {section}.{prefix}{keys[0]}: write "
            f"{keys[0]} = ... there, without '{prefix}' before it")


def _raise_if_sub_table_written(path: Path, name: str, field: str, data: dict[str, Any]) -> None:
    """Raise a :class:`TemplateError` at its line when the table ``field`` inside the box ``[boxes.name]`` of the template
    ``path`` (its own TOML, ``data``) is written as a header (``[boxes.title.title]``, ``[boxes.title.footer]``) or as an
    inline table (``footer = { x = 5 }``), saying it as written, with the box to write it as: ``field`` itself when it
    is a box of the template, else ``name``. Nothing when it is written as dotted keys (``footer.x = 5``), which the
    callers say. Forty-fifth pnp breaker, MED 3: each was said as dotted keys that no one wrote."""
    home = template_line(path, f"boxes.{name}.{field}")[0]
    try:
        text = home.read_text(encoding="utf-8-sig")
    except (OSError, UnicodeDecodeError):
        return

    def written(part: str) -> str:
        return rf"""(?:{re.escape(part)}|"{re.escape(part)}"|'{re.escape(part)}')"""
    boxes = data.get("boxes", {})
    target = field if field in boxes and field != name or field in _parent_boxes(path) else name
    header = re.search(rf"^\s*(\[\s*{written('boxes')}\s*\.\s*{written(name)}\s*\.\s*{written(field)}\s*(?:\.[^\]\n]*)?\])",
                       text, re.M)
    if header:
        raise TemplateError(home, f"boxes.{name}.{field}", f"the header {header.group(1)} opens a table {field!r} inside "
                                                           f"[boxes.{name}]: write it [boxes.{target}]",
                            text[:header.start(1)].count("\n") + 1)
    inline = re.search(rf"^\s*({written(field)}\s*=\s*\{{)", text, re.M)
    if inline:
        raise TemplateError(home, f"boxes.{name}.{field}", f"{field} = {{ ... }} inside [boxes.{name}] is a table inside the "
                                                           f"box: write its keys one a line under [boxes.{target}]",
                            text[:inline.start(1)].count("\n") + 1)


def _under_box(path: Path, data: dict[str, Any], box: str, key: str, written_in: Path) -> str:
    """The advice for a box field ``key`` to go under ``[boxes.box]`` of the template ``path`` (its TOML, ``data``), the
    misplaced line being in the file ``written_in``: to write it there, or to change it there (at its line) when that
    file's box writes it already, or the field meant when
    ``key`` is no field of a box. Forty-fifth pnp breaker, LOW 12: `event.size` in [boxes.title] was told to write size
    under [boxes.event], which has one (then "given twice"), and `event.sise` was passed on as `write sise = ...`."""
    if key not in BOX_KEYS:
        close = difflib.get_close_matches(key, BOX_KEYS, 1, cutoff=0.6)
        return (f"{toml_key([key])} is no field of a box" + (f" (did you mean {close[0]}?)" if close else "")
                + f"; a box has {', '.join(BOX_KEYS)}")
    there = data.get("boxes", {}).get(box)
    if isinstance(there, dict) and key in there:
        home, line = template_line(path, f"boxes.{box}.{key}")
        if home.resolve() == written_in.resolve():  # (set by a template it extends: written here, it overrides that)
            return f"[boxes.{toml_key([box])}] sets {key} already (line {line}): change it there, and remove this line"
    return f"write {toml_key([key])} = ... under [boxes.{toml_key([box])}]"


def _box_key_dotted_into_itself(name: str, field: str, spec: dict[str, Any]) -> str:
    """What to say of the key ``field`` of the box ``[boxes.name]`` (its table ``spec``) when it is the box's own name
    written before its keys (``boxes.title_band.x = 5`` or ``title_band.x = 5`` inside ``[boxes.title_band]``, which TOML
    reads as a table inside the box): set twice when the box writes the key already, else to be written without the
    prefix; ``""`` otherwise. Forty-first pnp breaker, MED 2b: it was "unknown key(s) boxes, title_band"."""
    names = ["boxes", name]
    if field not in names:
        return ""
    other = spec[field]
    if field == "boxes" and isinstance(other, dict) and other and name not in other:
        # another box's key dotted inside this one (forty-second pnp breaker, LOW 5: `boxes.footer.x = 6.0` under
        # [boxes.title_band] was "unknown key(s) boxes")
        box, inner = next(iter(other.items()))
        if isinstance(inner, dict) and inner:
            key = str(next(iter(inner)))
            return (f"boxes.{toml_key([box])}.{toml_key([key])} = ... written inside [boxes.{name}] reads as a key of "
                    f"[boxes.{name}] itself: write {toml_key([key])} = ... under [boxes.{toml_key([box])}]")
    rest = names[names.index(field) + 1:]

    def walked(value: Any) -> Any:
        for part in rest:
            value = value.get(part) if isinstance(value, dict) else None
        return value

    inner, repeats = walked(spec[field]), 1
    while isinstance(inner, dict) and list(inner) == [field] and isinstance(walked(inner[field]), dict):
        inner, repeats = walked(inner[field]), repeats + 1  # the prefix written twice or more (forty-second pnp breaker, LOW 3)
    if not isinstance(inner, dict) or not inner:
        return ""
    prefix = (".".join(names[names.index(field):]) + ".") * repeats
    key = str(next(iter(inner)))
    if key in spec and key in BOX_KEYS:
        return (f"{prefix}{key} = ... written inside [boxes.{name}] would set {key} a second time (this box sets it "
                f"already): change {key} where it is set, and remove this line")
    return f"{prefix}{key} = ... written inside [boxes.{name}] reads as boxes.{name}.{prefix}{key}: write {key} = ... there, without '{prefix}' before it"


def _number_in_quotes(value: Any, name: str) -> str | None:
    """What to say of a ``[numbers]`` value ``value`` of key ``name`` that is a number written in quotes (``"7.1"``): TOML
    reads it as text; ``None`` for any other value. Forty-sixth pnp breaker, F22: it was "'7.1' is not a finite number",
    shown in single quotes, with no word of the quotes."""
    if not isinstance(value, str):
        return None
    try:
        number = float(value.strip())
    except ValueError:
        return None
    if not math.isfinite(number):
        return None
    return f"\"{value}\" is text (in quotes); a number is written without them: {name} = {value.strip()}"


def _given(value: Any, key: str) -> str:
    """A template value as a problem names it: a table as the table it is (``a table [numbers.rule_y]``,
    written as ``[numbers.rule_y]`` under a key meant for a value), else its TOML-like repr, shortened."""
    if isinstance(value, dict):
        return f"a table [{key}] (written as a section, as key = {{ ... }}, or as dotted keys {key.rpartition('.')[2]}.x = ...)"
    if isinstance(value, bool):  # twenty-seventh breaker: `true` was shown as Python's `True`
        return "true" if value else "false"
    if isinstance(value, (datetime.date, datetime.time)):  # thirty-sixth pnp breaker, LOW 14: a repr of Python's datetime
        kind = "date and time" if isinstance(value, datetime.datetime) else "date" if isinstance(value, datetime.date) else "time"
        return f"the {kind} {value.isoformat()}"
    if isinstance(value, list):  # as TOML writes it (`["base"]`, not Python's `['base']`)
        return shortened(re.sub(r"\[\s*", "[", re.sub(r",?\s*\]", "]", " ".join(as_toml(value).split()))), 40)
    return quoted(value, 40)


def _home_of(data: dict[str, Any], path: Path | None, section: str, name: str) -> str | None:
    """The table other than ``section`` (``colors``, ``numbers``, ``strings``) where ``name`` belongs: the one the merged
    template ``data`` writes it in, else the one the shipped templates of ``path``'s chain write it in (a key moved, so
    written in no other table now: twenty-sixth breaker, `emblem_y` under [boxes.title]); ``None`` when neither does."""
    others = [other for other in ("colors", "numbers", "strings") if other != section]
    for other in others:
        if isinstance(data.get(other), dict) and name in data[other]:
            return other
    for file in template_chain(path) if path is not None else []:
        for other in others:
            table = pristine_table(file, other)
            if table and name in table:
                return other
    return None


def _meant_as_colour(value: Any) -> bool:
    """Whether ``value`` (refused as a colour) was meant as one: ``#`` and hexadecimal digits too few or too many
    (``#2f5f4``), or a colour's name (``crimson``: ReportLab's named colours, the CSS ones). Such a value is a slip of the
    colour, never a key of another table written here (forty-eighth pnp breaker, MED 6: `wardens = "#2f5f4"` was told to
    move to [strings]); a word that names no colour (``hex``, a string of [strings]) may still be."""
    from reportlab.lib.colors import getAllNamedColors

    if not isinstance(value, str):
        return False
    return bool(re.fullmatch(r"\s*#[0-9A-Za-z]*\s*", value)) or value.strip().lower() in getAllNamedColors()


def _moved(data: dict[str, Any], section: str, name: str, path: Path | None = None, value: Any = None) -> str:
    """``"; hex_radius_max is a [numbers] key: move it there"`` when ``name``, written under ``section``, is a key of another
    table of the template (twenty-second breaker: "5 is not a string" invited quoting the number; :func:`_home_of`), or
    ``"; font is a field of a box ..."`` for a box's field (twenty-sixth breaker: `font` in [numbers] was "not a number"),
    else ``""``. A name the shipped templates write in ``section`` too is no misplaced key (``border`` is a colour of
    the quest templates and a number of base.toml: a bad colour was told to move to [numbers]), so no move is advised."""
    if path is not None and any(name in (pristine_table(file, section) or {}) for file in template_chain(path)):
        return ""
    if section == "colors" and _meant_as_colour(value):
        return ""
    home = _home_of(data, path, section, name)
    if home is not None:
        return f"; {name} is a [{home}] key: move it there"
    if name in BOX_KEYS:
        return f"; {name} is a field of a box ([boxes.<name>]): write it under the box it is for"
    return ""


@cache
def _load(kind: str, folder: Path) -> Template:
    data, path = _merged(kind, folder)
    colors: dict[str, str] = {}
    for name, value in data.get("colors", {}).items():
        if not (isinstance(value, str) and _COLOUR.match(value)):  # the advice only for a problem: it may read git
            raise _error(path, f"colors.{name}", _dotted_into_itself(value, "colors", name, path=path) or _box_misplaced(value, "colors", name, path) or
                         f"{_given(value, f'colors.{name}')} is not '#rrggbb' (six hexadecimal "
                         f"digits after '#')"f"{_moved(data, 'colors', name, path, value)}")
        colors[name] = value.lower()
    numbers = {}
    for name, value in data.get("numbers", {}).items():
        if not _is_number(value):
            raise _error(path, f"numbers.{name}", _dotted_into_itself(value, "numbers", name, path=path)
                         or _box_misplaced(value, "numbers", name, path) or _number_in_quotes(value, name)
                         or f"{_given(value, f'numbers.{name}')} is not {NUMBER}{_moved(data, 'numbers', name, path)}")
        if name.endswith("_tint"):  # a share of white or black mixed into a colour
            _check(0 <= value <= 1, path, f"numbers.{name}", f"{value!r} is not a share from 0 to 1 (how much of the colour is mixed)")
        if is_room(name):  # room kept around a thing (twenty-third breaker: `hex_label_pad = -2` put the map's labels on its cuts)
            _check(value >= 0, path, f"numbers.{name}",
                   f"{value!r} mm is no room: it is the room kept around or between texts, icons and shapes, 0 mm or more")
        sized = size_problem(name, value)  # forty-sixth pnp breaker, finding 15: `box_w = 0` was blamed on base.toml radii
        _check(sized is None, path, f"numbers.{name}", sized or "")
        if is_extent(name):  # thirtieth breaker (finding 1): `box_radius = -2` drew inverted, scalloped boxes in the PDF
            _check(value >= 0, path, f"numbers.{name}",
                   f"a line width of {value:g} mm; a line width is 0 mm or more" if name.endswith(("rule_width", "line_width"))
                   else f"{value!r} is negative; {_EXTENT_WORDS[_extent_suffix(name)]}")
        least = least_value_problem(name, value)
        _check(least is None, path, f"numbers.{name}", least or "")
        numbers[name] = float(value)
    for name, spacing in numbers.items():  # a hatch's lines closer than they are wide print as one solid fill
        width_name = name.removesuffix("_spacing") + "_width"
        if name.endswith(HATCH_SPACING_SUFFIX) and width_name in numbers and spacing <= numbers[width_name]:
            raise _error(path, f"numbers.{name}", f"{spacing:g} mm is no more than the hatch lines' width ({width_name} = "
                                                  f"{numbers[width_name]:g} mm): they print as a solid fill; set "
                                                  f"{name} to more than {numbers[width_name]:g}")
    strings = {}
    for name, value in data.get("strings", {}).items():
        if not isinstance(value, str):
            raise _error(path, f"strings.{name}", _dotted_into_itself(value, "strings", name, path=path)
                         or _box_misplaced(value, "strings", name, path) or f"{_given(value, f'strings.{name}')} is not a string"
                                                  f"{_moved(data, 'strings', name, path)}")
        strings[name] = value
    boxes: dict[str, BoxSpec] = {}
    for name, spec in data.get("boxes", {}).items():
        key = f"boxes.{name}"
        if name == "boxes" and isinstance(spec, dict) and spec and all(isinstance(inner, dict) for inner in spec.values()):
            # the table's name twice (`[boxes.boxes.title]`): a box named boxes, holding boxes (forty-third pnp breaker,
            # LOW 7: "unknown key(s) title")
            inner = toml_key([next(iter(spec))])
            raise _error(path, f"{key}.{inner}", f"[boxes.boxes.{inner}] opens a box {inner} inside a box named boxes: write "
                                                 f"its header [boxes.{inner}]")
        unknown = set(spec) - set(BOX_KEYS)
        for field in sorted(unknown):  # `boxes.title_band.x = ...` or `title_band.x = ...` inside [boxes.title_band]
            if isinstance(spec[field], dict):  # a header or an inline table said as written (forty-fifth pnp breaker, MED 3)
                _raise_if_sub_table_written(path, name, field, data)
            said = _box_key_dotted_into_itself(name, field, spec)
            if not said and isinstance(spec[field], dict) and spec[field] and field in data.get("boxes", {}):
                # another box of the template by its name (`footer.x = 5.0` in [boxes.title]; forty-fourth pnp breaker,
                # LOW 3: "font is written in this box already: remove footer")
                inner = toml_key([next(iter(spec[field]))])
                said = (f"{toml_key([field])}.{inner} = ... written inside [boxes.{name}] reads as a key of [boxes.{name}] "
                        f"itself: {_under_box(path, data, field, str(next(iter(spec[field]))), template_line(path, f'{key}.{field}')[0])}")
            if said:
                raise _error(path, f"{key}.{field}", said)
        if unknown:  # twentieth breaker: `font_size` got no hint
            first = min(unknown)
            home = next(((field, found) for field in sorted(unknown) if (found := _home_of(data, path, "boxes", field))), None)
            if home is not None:  # twenty-sixth breaker: `emblem_y` under [boxes.title] was "did you mean y?"
                raise _error(path, f"{key}.{home[0]}", f"{home[0]} is a [{home[1]}] key, not a field of a box: move it there")
            # a one-letter field is no part of a longer word (thirty-fifth pnp breaker, LOW 15: `wrap` was told "w is written")
            close = difflib.get_close_matches(first, BOX_KEYS, 1, cutoff=0.5) or [k for k in BOX_KEYS if len(k) > 1 and k in first]
            hint = (f"{close[0]} is written in this box already: remove {first}; " if close and _written_here(path, key, first, close[0])
                    # (thirty-fourth pnp breaker, MED 3: "did you mean x?" of an `xx` under `x`)
                    else f"did you mean {close[0]}? " if close else "")
            raise _error(path, f"{key}.{first}", f"unknown key(s) {', '.join(sorted(unknown))}; {hint}a box has {', '.join(BOX_KEYS)}")
        # a box that does not write all of x, y, w and h is one its layout places itself (key_name): a field the layout
        # reads and no template writes is said when it is read (Template.unset_field), a field written and not read
        # after the layout (unread_box_fields); a name no layout reads, after it too (unread_keys). Thirty-first pnp
        # breaker (MED 10): one placement field written was "no box ... a new box needs x, y, w and h", and writing them
        # was then "the layout places this box itself: remove them"
        unset = tuple(field for field in PLACEMENT_FIELDS if field not in spec)
        for field in PLACEMENT_FIELDS:
            _check(field in unset or _is_number(spec.get(field)), path, f"{key}.{field}", f"missing or not {NUMBER} (mm)")
        for field, what in (("w", "width"), ("h", "height")):  # twentieth breaker: `w = -49` was "the box has no area"
            if field in unset:
                continue
            _check(spec[field] > 0, path, f"{key}.{field}", f"{spec[field]:g} mm is no {what}; a box's {what} is more than 0 mm")
        font = spec.get("font", "serif")
        _check(font in fonts.FAMILIES, path, f"{key}.font", f"{_given(font, f'{key}.font')} is not one of {', '.join(sorted(fonts.FAMILIES))}")
        size = spec.get("size", [9.0, 6.0])
        _check(isinstance(size, list) and len(size) == 2 and all(_is_number(v) for v in size),
               path, f"{key}.size", "must be [max, min] in pt")
        for field, default, low, high in (("line_spacing", 1.15, 0.8, 3.0), ("paragraph_spacing", 0.0, 0.0, 3.0)):
            _check(_is_number(spec.get(field, default)) and low <= spec.get(field, default) <= high, path, f"{key}.{field}",
                   f"must be a number of em from {low:g} to {high:g} (below {low:g} every line prints over the next; from it, "
                   f"check measures the printed lines)"
                   if field == "line_spacing" else f"must be a number of em from {low:g} to {high:g}")
        _check(size[0] >= size[1] >= MIN_TEXT_PT, path, f"{key}.size",
               f"{size} must have max >= min >= {MIN_TEXT_PT:g} pt (the smallest printed text)")
        align = spec.get("align", "left")
        _check(align in ("left", "center", "right"), path, f"{key}.align",
               f"{_given(align, f'{key}.align')} is not left, center or right{_word_meant(align, ('left', 'center', 'right'))}")
        valign = spec.get("valign", "top")
        _check(valign in ("top", "middle", "bottom"), path, f"{key}.valign",
               f"{_given(valign, f'{key}.valign')} is not top, middle or bottom{_word_meant(valign, ('top', 'middle', 'bottom'))}")
        colour = spec.get("color", "ink")
        _check(isinstance(colour, str), path, f"{key}.color",  # twenty-second breaker: `color = 5` was a TypeError traceback
               f"{_given(colour, f'{key}.color')} is neither '#rrggbb' nor a name in [colors]")
        colour_name = "" if _COLOUR.match(colour) else colour
        if _COLOUR.match(colour):
            colour = colour.lower()
        else:
            if colour not in colors:
                misplaced = next((other for other in ("strings", "numbers") if colour in data.get(other, {})
                                  and not _shipped_in(template_chain(path), other, colour)), None)  # (a shipped one is its own)
                if misplaced is not None:  # twenty-sixth breaker: a colour moved into [strings] was blamed on the box
                    # the box that writes `color = "<colour>"` (twenty-ninth breaker: [boxes.title_band], which names no
                    # colour and so prints in ink, was said to name ink), else the default every box without one prints in
                    namer = next((other for other, written in data.get("boxes", {}).items()
                                  if isinstance(written, dict) and written.get("color") == colour), None)
                    names = (f"a colour that [boxes.{namer}] names" if namer is not None
                             else "the colour a box without a color prints in")
                    raise _error(path, f"{misplaced}.{colour}", f"{_given(data[misplaced][colour], f'{misplaced}.{colour}')} "
                                                               f"is {names}: {colour} is a [colors] key: move it there")
                if any(colour in (pristine_table(file, "colors") or {}) for file in template_chain(path)):
                    # twenty-seventh breaker: a deleted `band_text` was blamed on one of the ten boxes that name it (once
                    # at a `color` key not written) and offered `band_text_dark`: missing, at [colors], with its value
                    raise _missing_error(kind, path, "colors", colour, colors, set())
                extends = "" if kind == "base" or "extends" in _read(path) else \
                    ' (this template extends no other: `extends = "base"` brings the shared colours)'
                meant = close_name(colour, colors)  # twenty-third breaker: `inks` got no "did you mean ink"
                raise _error(path, f"{key}.color", f"{colour!r} is neither '#rrggbb' nor a name in [colors]{extends}"
                                                   f"{f'; did you mean {meant}?' if meant else ''}")
            colour = colors[colour]
        boxes[name] = BoxSpec(name, float(spec.get("x", 0)), float(spec.get("y", 0)), float(spec.get("w", 0)),
                              float(spec.get("h", 0)), font, (float(size[0]), float(size[1])), align, valign,
                              float(spec.get("line_spacing", 1.15)), float(spec.get("paragraph_spacing", 0.0)), colour,
                              colour_name, unset)
    template = Template(kind, path, boxes, colors, numbers, strings)
    _LOADED[kind, folder] = template
    return template
