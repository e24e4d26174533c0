"""Card layouts: every printed record of ``cards.toml`` turned into Drawings, one per card face.

This package owns which layout draws which record kind (:data:`LAYOUTS`), the order cards print in,
how a board made of several cards is split into per-card Drawings, and the text-fit report
(:func:`check_fit`, one :class:`~pnp.layout.problems.FitProblem` each) that ``pnp check`` and
``pnp build`` print. The look of each kind is data in
``templates/<kind>.toml`` (see :mod:`pnp.layout.template`); the code here only places it.

Face ids (the SVG file names): a card's record id (``solo.quest.iarith``); for boards, the record id
plus ``.card-N`` from the left (``solo.map.key-1.card-2``); for backs, the back record's id.
"""
from __future__ import annotations

import colorsys
import dataclasses
import math
import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pnp.database import Back, Database, Record
from pnp.database.checks import BOARD_KINDS  # drawn as one board over several cards; they print first, each starting a sheet row
from pnp.drawing import Drawing, DrawingError, Group, Line, Rect, scaled
from pnp.layout import duel, solo
from pnp.layout import template as templates
from pnp.layout.common import LINES_APART_MM, CardBuilder, safe_area_factor
from pnp.layout.edited import shipped_templates, texts_over_by_template_edits
from pnp.layout.framed import covered_outline_problems, frame_ink_problems, frame_problems
from pnp.layout.legible import legibility_problems
from pnp.layout.overlap import off_card_line_problems, overlap_problems, small_text_problems
from pnp.layout.problems import FitKind, FitProblem
from pnp.layout.rounded import rounded_outline_problems
from pnp.layout.safe import safe_area_problems
from pnp.layout.template import (
    TemplateError,
    changed_keys,
    changed_number,
    drawing_error,
    forget_reads,
    load_template,
    loaded_templates,
    overridden_keys,
    shown_key,
    string_problems,
    template_chain,
    template_line,
    unread_box_fields,
    unread_keys,
)
from pnp.layout.traced import TRACING, not_tracing, tracing
from pnp.oneline import listed, template_value
from pnp.units import SAME_SIZE_MM

LAYOUTS: dict[str, Callable] = {**solo.LAYOUTS, **duel.LAYOUTS}
"""Layout function of each printed record kind."""



@dataclass(frozen=True)
class Face:
    """One printed card face: ``id`` (file name stem), the ``record`` it shows, its ``drawing``, the
    id of its ``back`` record (``None``: printed with an empty back) and how many ``copies`` print.
    ``template`` is the file of the template the face was laid out with (the safe-area check names
    where a box is written); ``overflowed`` the template boxes already reported (text over its box, a
    box off the card): their lines are not reported again as outside the safe area."""

    id: str
    record: Record
    drawing: Drawing
    back: str | None
    copies: int
    board_cards: int = 1
    board_index: int = 0
    template: Path | None = None
    overflowed: frozenset[str] = frozenset()
    scale: float = 1.0
    """The factor the face was shrunk by for a safe area larger than the templates' own (:func:`within_safe_area`)."""
    cut_short: bool = False
    """Whether the layout drew less than its record asks (a record problem of :data:`CUT_SHORT_KINDS`: a slot past the
    card's rows, a map of more hexes than the card holds): what it drew is not judged against the template until the
    record is mended (:func:`check_fit`)."""


@dataclass(frozen=True)
class Rendered:
    """Every face of the database: ``fronts`` in print order (per game), ``backs`` by back record id,
    and every text-fit problem the layouts recorded (``problems``, in print order)."""

    fronts: tuple[Face, ...]
    backs: dict[str, Face]
    problems: tuple[FitProblem, ...]

    def game(self, game: str) -> list[Face]:
        """The fronts of one game (``"solo"`` or ``"duel"``), in print order."""
        return [face for face in self.fronts if face.record.game == game]


def _make(database: Database, record_id: str, extra_bleed: float = 0.0,
          used: list[str] | None = None) -> Callable[[str, float, float], CardBuilder]:
    """The card-builder factory a layout gets; each template kind it asks for is appended to ``used``."""
    settings = database.print

    def make(kind: str, width: float, height: float) -> CardBuilder:
        if used is not None:
            used.append(kind)
        return CardBuilder(record_id, load_template(kind), width, height, settings.bleed_mm + extra_bleed)
    return make


def _print_order(database: Database) -> list[Record]:
    printed = [r for r in database.records() if r.printed and r.kind != "back"]
    boards = [r for r in printed if r.kind in BOARD_KINDS]
    boards.sort(key=lambda r: (r.game, BOARD_KINDS.index(r.kind)))
    others = [r for r in printed if r.kind not in BOARD_KINDS]
    return boards + others


class CardSizeError(ValueError):
    """The database's ``[print]`` card size is not the one the templates are laid out for."""


def card_size_problem(database: Database) -> FitProblem | None:
    """A ``"card size"`` problem of record ``"print"`` when the ``[print]`` card size of ``database``
    differs by more than :data:`~pnp.units.SAME_SIZE_MM` from the size every template is laid out for
    (``card_width`` x ``card_height`` mm of ``templates/base.toml``), else ``None``. Other sizes need
    their own layouts: nothing would fit or split into cards. Raises
    :class:`~pnp.layout.template.TemplateError` when ``templates/base.toml`` is broken."""
    base = load_template("base")
    width, height = base.number("card_width"), base.number("card_height")
    settings = database.print
    if abs(settings.card_width_mm - width) <= SAME_SIZE_MM and abs(settings.card_height_mm - height) <= SAME_SIZE_MM:
        return None
    field = "card_width_mm" if abs(settings.card_width_mm - width) > SAME_SIZE_MM else "card_height_mm"
    return FitProblem("print", field, "card size",
                      f"the templates are laid out for {width:g} x {height:g} mm poker cards, "
                      # (to 12 digits: `63.00001` was said "not 63 x 88", forty-sixth pnp breaker, F6)
                      f"not {settings.card_width_mm:.12g} x {settings.card_height_mm:.12g} mm; set {width:g} x {height:g}")


PROMISED_BACK_SHIFT_MM = 2.0
"""The printer's shift of the backs (mm) the README promises shows no white edge: the default ``[print]
back_extra_bleed_mm``. A back frame that cannot keep clear of that much extra art is the frame's fault
(``templates/back.toml`` ``frame_inset``), never a reason to lower the bleed."""


def back_bleed_problem(database: Database) -> FitProblem | None:
    """A ``"card size"`` problem of record ``"print"`` (field ``back_extra_bleed_mm``) when a back's extra bleed
    reaches the engraved frame of the back beside it on the sheet: a back's art runs that far into its neighbour
    with the same back, drawn over it, so the frame ``frame_inset`` mm inside the neighbour's trim (``templates/back.toml``)
    must stay clear of it by the frame line's width (twentieth breaker: 8 mm cut every middle back's frame and
    ran under the sheet's ruler, and passed). Up to :data:`PROMISED_BACK_SHIFT_MM` of extra bleed the problem is a
    ``"template"`` one at ``numbers.frame_inset`` of ``templates/back.toml`` (twenty-sixth breaker: a frame moved to
    1 mm was blamed on the bleed, whose advice would undo the promise). Else ``None``. Raises :class:`~pnp.layout.template.TemplateError`
    for a broken back template."""
    back = load_template("back")
    inset, width = back.number("frame_inset"), back.number("line_width")
    most = inset - width
    extra = database.print.back_extra_bleed_mm
    if extra <= most + 1e-9:
        return None
    if extra <= PROMISED_BACK_SHIFT_MM + 1e-9:  # the frame moved toward the trim: its number is the one to change
        # twenty-ninth breaker, finding 3: `line_width = 6` alone was blamed on frame_inset: said at the one number changed
        changed = changed_number(back.path)
        if changed is not None and changed[0] == "line_width":
            # the widest that passes: off the extra art, and off the frame's inner line (CardBuilder.keep_frame_lines_apart)
            apart = 2 * (back.number("inner_gap") - LINES_APART_MM - back.number("inner_line_width") / 2)  # inks kept apart
            key, advice = "numbers.line_width", f"set line_width to at most {math.floor(min(inset - extra, apart) * 10 + 1e-6) / 10:g}"
            said = f"the back's frame line, {width:g} mm wide {inset:g} mm inside the trim,"
        else:
            key, advice = "numbers.frame_inset", f"set frame_inset to at least {extra + width:g}"
            said = f"{inset:g} mm"
        path, line = template_line(back.path, key)
        return FitProblem("templates", key, "template",
                          f"{said} puts the back's frame under the {extra:g} mm of extra back art of the back beside "
                          f"it on the sheet (what keeps a back shifted by up to {extra:g} mm by the printer free of white "
                          f"edges); {advice}", path=str(path), line=line)
    return FitProblem("print", "back_extra_bleed_mm", "card size",
                      f"{extra:g} mm of extra back art reaches the frame of the next back on the sheet "
                      f"({back.number('frame_inset'):g} mm inside its trim): at most {most:g} mm")


MATCHING_HUE = 30.0
"""Degrees of hue within which two colours of one name read as the same colour (a map's red a shade darker than its
Warding City's red band: 2 degrees apart in the bundled templates)."""
MATCHING_LIGHTNESS = 0.25
"""The most that two colours of one name may differ in HLS lightness (0-1) and still read as the same colour."""


NAMED_HUES = {"red": 0.0, "yellow": 45.0, "blue": 215.0}
"""The hue (degrees, HLS) each map colour's name says: of two templates whose shades of a colour disagree, the one
farther from it is the one changed (twenty-third breaker: `red = "#2b9c23"`, a green, in battle_map.toml was named at
base.toml too)."""


def _hue_distance(colour: str, hue: float) -> float:
    """How far (degrees, 0-180) the hue of ``"#rrggbb"`` ``colour`` is from ``hue``."""
    found = colorsys.rgb_to_hls(*(int(colour[i:i + 2], 16) / 255 for i in (1, 3, 5)))[0] * 360
    return min(abs(found - hue), 360 - abs(found - hue))


def _alike(one: str, other: str) -> bool:
    """Whether two ``"#rrggbb"`` colours read as one colour: hue within :data:`MATCHING_HUE`, lightness within
    :data:`MATCHING_LIGHTNESS`."""
    (h1, l1, _), (h2, l2, _) = (colorsys.rgb_to_hls(*(int(c[i:i + 2], 16) / 255 for i in (1, 3, 5))) for c in (one, other))
    hue = abs(h1 - h2) * 360
    return min(hue, 360 - hue) <= MATCHING_HUE and abs(l1 - l2) <= MATCHING_LIGHTNESS


def key_colour_problems(database: Database) -> list[FitProblem]:
    """One ``"template"`` problem per template file whose shade of a map colour (``red``, ``blue``, ``yellow``) is not
    the same colour as the other templates' shades of it: the Character Stats card's key (stats.toml, base.toml), the
    Warding City's band (warding_city.toml) and the map (battle_map.toml) must show one colour, for a player matches a
    key's city to its map by colour (rulebook, Expanded Battles: "find the matching Expanded Battle Map"; twenty-first
    breaker: `blue` made green in base.toml printed Marim's band green beside a blue map; twenty-second: the same in
    stats.toml). Each file whose shade is unlike most of the others' is named at its own key; when there is no such
    majority (two files disagree), the one whose shade is farther from the hue the colour's name says
    (:data:`NAMED_HUES`), both when neither is clearly farther.
    Call it after the faces are laid out (it reads the templates they loaded). Raises
    :class:`~pnp.layout.template.TemplateError` for a broken template."""
    loaded = [load_template("base"), load_template("battle_map")] + [template for template in loaded_templates()]
    problems = []
    for colour in sorted({battle_map.color for battle_map in database.solo.battle_map}):
        writers: dict[Path, str] = {}
        for template in loaded:
            if colour in template.colors:
                path, _ = template_line(template.path, f"colors.{colour}")
                writers.setdefault(path, template.colors[colour])
        blamed = []
        for path, shade in writers.items():
            others = [(other, value) for other, value in writers.items() if other != path]
            unlike = [(other, value) for other, value in others if not _alike(shade, value)]
            if others and 2 * len(unlike) > len(others):
                blamed.append((path, shade, unlike))
        if len(blamed) > 1 and colour in NAMED_HUES:  # no majority: the shades farther from the colour named were changed
            nearest = min(_hue_distance(shade, NAMED_HUES[colour]) for _, shade, _ in blamed)
            blamed = [found for found in blamed if _hue_distance(found[1], NAMED_HUES[colour]) > nearest + MATCHING_HUE / 2] or blamed
        for path, shade, unlike in blamed:
            shown = ", ".join(f"templates/{other.name} colors.{colour} is {value}" for other, value in unlike)
            problems.append(FitProblem("templates", f"colors.{colour}", "template",
                                       f"{shade} here, but {shown}: a Warding Key's card, its city's band and its map "
                                       f"must show one colour; make them alike", path=str(path),
                                       line=template_line(path, f"colors.{colour}")[1]))
    return problems


_CACHE: dict[tuple[int, str, object], Rendered] = {}


def _front_faces(record: Record, layout: Callable, database: Database, used: list[str], problems: list[FitProblem]) -> list[Face]:
    """The front faces of ``record`` (a board split into its cards); the layout's problems appended to
    ``problems``, the template kinds it used to ``used``. Raises :class:`~pnp.drawing.DrawingError`."""
    settings = database.print
    width, height = settings.card_width_mm, settings.card_height_mm
    faces = []
    for face_id, builder in layout(record, database, _make(database, record.id, used=used)):
        problems.extend(builder.problems)
        _note_cut_short(builder)
        title = getattr(record, "title", None) or getattr(record, "name", None) or record.id
        drawing = builder.drawing(face_id, title)
        shrink = safe_area_factor(drawing.width_mm, drawing.height_mm, settings.safe_mm)
        drawing = within_safe_area(drawing, settings.safe_mm)
        told = {"template": builder.template.path, "overflowed": _overflowed(builder), "scale": shrink,
                "cut_short": any(problem.kind in CUT_SHORT_KINDS and problem.record_id != "templates" for problem in builder.problems)}
        columns = round(drawing.width_mm / width)
        if columns > 1 or abs(drawing.height_mm - height) > SAME_SIZE_MM:
            rows = round(drawing.height_mm / height)
            ids = [f"{face_id}.card-{n}" for n in range(1, columns * rows + 1)]
            for index, part in enumerate(drawing.split(columns, rows, ids=ids)):
                part = Drawing(part.width_mm, part.height_mm, part.bleed_mm, part.items, id=part.id,
                               title=f"{title} ({index + 1} of {columns * rows})")
                faces.append(Face(ids[index], record, part, record.back, record.copies, columns * rows, index, **told))
        else:
            faces.append(Face(face_id, record, drawing, record.back, record.copies, **told))
    return faces


CUT_SHORT_KINDS = ("too many", "spaces over")
"""The kinds of a record's problem after which its layout draws less than the record asks (only the spaces, rows or uses
the card holds, or none): the template keys it did not reach are not unread (:func:`~pnp.layout.template.unread_keys`)."""


def _note_cut_short(builder: CardBuilder) -> None:
    """Mark the template of ``builder`` (:attr:`~pnp.layout.template.Template.cut_short`) when a record problem of
    :data:`CUT_SHORT_KINDS` stopped its layout short."""
    for problem in builder.problems:
        if problem.kind in CUT_SHORT_KINDS and problem.record_id != "templates":
            builder.template.cut_short.add(problem.record_id)


def within_safe_area(drawing: Drawing, safe_mm: float) -> Drawing:
    """``drawing`` (a front, or a whole board before it is split) laid out for a safe area of ``safe_mm``
    instead of the templates' :data:`~pnp.units.LAID_OUT_SAFE_MM`: unchanged for a safe area up to that;
    for a larger one (a print shop's 5 mm) everything but the art that reaches the bleed's edge (:func:`_shrunk`) is shrunk about the
    trim's centre by :func:`~pnp.layout.common.safe_area_factor` (a poker card at 5 mm: 53/57 = 0.93), so the
    layout keeps its proportions and every text and icon its place relative to the safe area (issue 15, Safe
    area). A board shrinks whole (its art runs on across its cuts); the battle map keeps its labels off the
    cuts where they land once shrunk (:func:`pnp.layout.solo.battle_map`). What still cannot keep the safe
    area is named by the check."""
    width, height = drawing.width_mm, drawing.height_mm
    factor = safe_area_factor(width, height, safe_mm)
    if factor == 1.0:
        return drawing
    return dataclasses.replace(drawing, items=tuple(_shrunk(item, factor, drawing) for item in drawing.items))


def _shrunk(item: Any, factor: float, drawing: Drawing) -> Any:
    """``item`` shrunk about the trim's centre by ``factor``; art that reaches the bleed's edge (a Warding City's
    key band, its hatching, its rule) is kept as it is, as the background is: shrunk, it stopped short of the
    card's edges (seventeenth and nineteenth breakers). Only what it carries (its text, its icon) moves in."""
    width, height, bleed, slack = drawing.width_mm, drawing.height_mm, drawing.bleed_mm, 1e-6
    box = None
    if isinstance(item, Rect):
        box = (item.x, item.y, item.x + item.width, item.y + item.height)
    elif isinstance(item, Line):
        box = (min(item.x1, item.x2), min(item.y1, item.y2), max(item.x1, item.x2), max(item.y1, item.y2))
    elif isinstance(item, Group) and item.clip is not None and not item.dx and not item.dy and not item.rotation:
        box = (item.clip.x, item.clip.y, item.clip.right, item.clip.bottom)
    if box is not None and (box[0] <= -bleed + slack or box[1] <= -bleed + slack
                            or box[2] >= width + bleed - slack or box[3] >= height + bleed - slack):
        return item
    return scaled(item, factor, width / 2, height / 2)


def _overflowed(builder: CardBuilder) -> frozenset[str]:
    """The template boxes of ``builder`` already reported: text over its box (``"text over"``), or the box
    off the card (``"template"``); ``"*"`` for the whole face when it holds more than it has room for
    (``"too many"``, ``"spaces over"``)."""
    boxes = {problem.box for problem in builder.problems if problem.kind in ("text over", "template") and problem.box}
    if any(problem.kind in ("too many", "spaces over") for problem in builder.problems):
        boxes.add("*")  # more than the card holds was drawn: whatever it covers follows from that one problem
    return frozenset(boxes)


def render(database: Database) -> Rendered:
    """Lay out every printed record and every back of ``database``.

    Boards (Progress Track, Expanded Battle Maps) are drawn whole and split into one Drawing per card
    with :meth:`~pnp.drawing.Drawing.split`. Results are cached per database object and file
    fingerprint. Raises :class:`~pnp.layout.template.TemplateError` for a broken template,
    :class:`CardSizeError` when the ``[print]`` card size is not the templates' (see
    :func:`card_size_problem`) and ``KeyError`` for a record kind without a layout.
    """
    key = (id(database), database.fingerprint, database.print)
    if key in _CACHE:
        return _CACHE[key]
    forget_reads()  # what the templates are asked is this layout's (the cache holds one: a hit is the last layout)
    problem = card_size_problem(database)
    if problem:
        raise CardSizeError(str(problem))
    fronts: list[Face] = []
    problems: list[FitProblem] = []
    for record in _print_order(database):
        layout = LAYOUTS.get(record.kind)
        if layout is None:
            raise KeyError(f"no layout for record kind {record.kind!r} ({record.id})")
        used: list[str] = []
        try:
            fronts.extend(_front_faces(record, layout, database, used, problems))
        except DrawingError as error:  # a template's number (a negative size, a text size of 0) made a shape that is none
            raise drawing_error(used[-1] if used else record.kind, error) from None
    backs: dict[str, Face] = {}
    for record in database.records():
        if isinstance(record, Back):
            # backs carry extra bleed, so a back shifted by the printer still covers its card
            extra = database.print.back_extra_bleed_mm
            used = []
            try:
                for face_id, builder in LAYOUTS["back"](record, database, _make(database, record.id, extra, used)):
                    problems.extend(builder.problems)
                    _note_cut_short(builder)
                    backs[record.id] = Face(face_id, record, builder.drawing(face_id, f"{record.title} (back)"), None, 1,
                                            template=builder.template.path, overflowed=_overflowed(builder))
            except DrawingError as error:
                raise drawing_error(used[-1] if used else "back", error) from None
    rendered = Rendered(tuple(fronts), backs, tuple(problems))
    _CACHE.clear()
    _CACHE[key] = rendered
    return rendered


def keep_rendered(database: Database, rendered: Rendered) -> None:
    """Take ``rendered`` as the layout of ``database`` (:func:`render` returns it, lays nothing out): a layout of the
    same inputs kept from an earlier build (:func:`pnp.check_cache.kept_layout`)."""
    _CACHE.clear()
    _CACHE[(id(database), database.fingerprint, database.print)] = rendered


def check_fit(database: Database) -> list[FitProblem]:
    """:func:`_check_fit`; when a problem it finds is a template's shape said at no key (the bare ``[numbers]`` of the
    template: what placed it is not known), the check again with the layouts' numbers traced
    (:mod:`pnp.layout.traced`), so that the problem is said at the key that placed the shape, with a bound (forty-sixth
    pnp breaker, finding 13: `middle_top = -36` was "a rule runs past the bleed" at location.toml's `[numbers]` header,
    listing eleven rule widths to shorten). Only in the error path: tracing is slower."""
    found = _check_fit(database)
    if TRACING or _VERIFYING or not any(_untraced(problem) for problem in found):
        return found
    _CACHE.clear()
    try:
        with tracing():
            return _check_fit(database)
    finally:
        _CACHE.clear()


def _untraced(problem: FitProblem) -> bool:
    """Whether ``problem`` is a template's, said at its whole ``[numbers]`` table for want of the key that placed what
    it judges, or a text given no room, whose room the template's numbers set (:meth:`CardBuilder.text` names them)."""
    return (problem.record_id == "templates" and problem.field == "numbers") or \
        (problem.kind == "too many" and problem.message.startswith("no room is left for this text"))


def _check_fit(database: Database) -> list[FitProblem]:
    """Every problem of the printed cards, in print order; an empty list when everything fits.

    Reported: a text box that does not fit at its template's minimum size (``over by N.N mm``), an
    icon token that names no icon of ``templates/icons`` (``unknown icon :name:; icons are: ...``)
    and a character no bundled font has (``character 'X' (U+XXXX) is in no bundled font``), then
    the faces with text or icons outside the ``[print] safe_mm`` safe area
    (:func:`pnp.layout.safe.safe_area_problems`, field ``safe area``). The
    record is the one holding the text: a table row's text on a table card or battle map names the
    table, a spell's name on a path card names the spell. A ``[print]`` card size the templates are
    not laid out for is the only problem reported (:func:`card_size_problem`; nothing is laid out),
    and a broken template is one ``"template"`` problem of record ``"templates"`` naming the template
    file (``field``) and key. Raises nothing for a loaded database.
    """
    try:
        templates.refuse_unreadable_files()  # before any file of them is opened: a pipe there blocked every reading
        problem = card_size_problem(database) or back_bleed_problem(database)
        if problem:
            return [problem]
        rendered = render(database)
        # a face its layout cut short for its record's sake (a slot past the rows, a map too large) is judged once the record
        # is mended: what it drew wrong is that record's fault, not its template's (forty-sixth pnp breaker, F18 and F8:
        # `slot = [5, 1]` also blamed spell_path.toml's [numbers] for the spell box past the frame)
        # (when its template's numbers are edited, what the face drew is the edit's to answer for, and is judged as ever)
        edited: dict[Path | None, bool] = {}
        faces = [face for face in list(rendered.fronts) + list(rendered.backs.values())
                 if not face.cut_short or edited.setdefault(face.template, face.template is not None
                                                            and bool(templates.changed_numbers(face.template)))]
        said: set[tuple[str, str, str, str]] = set()  # a template's box past the trim, a rule's number: once, not once a card
        problems = []
        for problem in rendered.problems:  # (a template's key is said once, whatever card it spoils: the last pass below)
            if (problem.record_id, problem.path, problem.field, problem.message) in said:
                continue
            said.add((problem.record_id, problem.path, problem.field, problem.message))
            problems.append(problem)
        written = {(problem.path, problem.field) for problem in problems}
        problems.extend(key_colour_problems(database))
        for path, line, key, message in string_problems():  # the labels a layout draws itself, read as card text is
            if (str(path), key) not in written:
                problems.append(FitProblem("templates", key, "template", message, path=str(path), line=line))
                continue
            # said with what else is wrong with the string (forty-first pnp breaker, finding 3: `hp_label = ":nosuch: The
            # Grayking..."` was said as over its box only; the unknown icon showed once that was mended)
            at = next(index for index, problem in enumerate(problems) if (problem.path, problem.field) == (str(path), key))
            if message.startswith("unknown icon") and message not in problems[at].message:  # (another reading of the one
                # fault, an empty emblem's "prints nothing", is not said twice)
                problems[at] = dataclasses.replace(problems[at], message=f"{message}; {problems[at].message}")
        misspelt: set[tuple[str, str]] = set()  # a box header misspelt where it overrides one of a template it extends
        for path, line, key, meant, elsewhere, by_value, twin in unread_keys():
            section, name = key.split(".", 1)
            if section == "boxes" and meant and not twin and meant.split(".", 1)[1] in templates.parent_boxes(path):
                misspelt.add((str(path), shown_key(key)))
            reason = (f"{by_value}: this prints on no card; remove it" if by_value else
                      f"no layout reads this; did you mean {shown_key(meant)}? It is written at line {twin} already: remove "
                      f"this one" if twin else
                      f"the layout of {path.stem} does not read this (that of {elsewhere} does: written in the wrong file?)"
                      if elsewhere else f"no layout reads this; did you mean {shown_key(meant)}?" if meant else
                    "no layout reads this box, so nothing is printed in it; remove it or name a box the layout fills"
                    if section == "boxes" else
                    f"no back record has the id {name!r}: this emblem prints on no back (a back renamed in cards.toml?)"
                    if path.name == "back.toml" and section == "strings" and "." in name else
                    "no layout reads this, so it changes nothing; remove it (or name a key the layout reads)")
            problems.append(FitProblem("templates", key, "template", reason, path=str(path), line=line))
        for path, line, key, reason in unread_box_fields():  # thirtieth breaker: a placed box's x, y, w changed nothing
            problems.append(FitProblem("templates", key, "template", reason, path=str(path), line=line))
        for path, line, key, used in overridden_keys():  # twenty-third breaker: a base.toml edit that changed nothing passed
            where = listed([f"templates/{other.name}:{number}" for other, number in used], most=4)
            parts = key.split(".")
            reads = (f"every layout that fills [boxes.{parts[1]}] takes {'every field of it written here' if len(parts) == 2 else parts[2]}"
                     if parts[0] == "boxes" else "every layout that reads this takes it")  # a box merges field by field
            problems.append(FitProblem("templates", key, "template", f"{reads} from its own template "
                                                                     f"({where}): this value is never used; change it there or remove it",
                                       path=str(path), line=line))
        overlaps = overlap_problems(faces)
        off_card, outside = off_card_line_problems(faces), safe_area_problems(faces, database.print.safe_mm)
        outside = _not_placed_wrong(outside, faces, problems)
        outside = _safe_area_at_changed_number(outside, faces, database.print.safe_mm,
                                               lambda: _shipped_outside_records(database))
        # a text off the card or its safe area is not also struck by the frame's rule it crossed on the way
        drawn = _at_changed_number(problems, overlaps + legibility_problems(faces, overlaps + off_card + outside),
                                   lambda: _shipped_drawn_problems(database))
        # a template already said wrong (a string that reflows its texts) has its rounded corners judged once it is right:
        # the corners are measured against where its texts will be (thirtieth breaker: "Bleu {key}" moved a key's word
        # near the corner of its rounded box, and the shipped space_radius was blamed)
        faulty = {problem.path for problem in problems if problem.record_id == "templates" and not problem.field.endswith("radius")}
        rounded = [problem for problem in rounded_outline_problems(faces) if problem.path not in faulty]
        # thirty-first breaker (finding 6): hexes and icons moved onto the card frame passed; said after what else moved them
        said_wrong = {problem.path for problem in problems + drawn + off_card + outside + rounded if problem.record_id == "templates"}
        said_keys = {(problem.path, problem.field) for problem in problems + drawn + off_card + outside + rounded}
        framed = [problem for problem in frame_problems(faces) + frame_ink_problems(faces)  # (a template extends another one said wrong: that one's edit)
                  if not any(str(file) in said_wrong for file in templates.template_chain(Path(problem.path)))
                  # but at a key said already it is kept, so that the smaller bound of the two is the one said below
                  # (space_rule_width = 3 was "at most 1" by the thick-stroke check, then 1 failed the frame check)
                  or (problem.path, problem.field) in said_keys]
        if TRACING:  # the key that moved a shape off the frame, traced, moved it off the safe area: said once, at the key
            outside = _not_placed_wrong(outside, faces, off_card + framed)
        # thirty-fifth pnp breaker (HIGH 2, 3): shading painted over a track space's or a hex's outline hid it
        covered = [problem for problem in covered_outline_problems(faces)
                   if problem.path not in said_wrong or (problem.path, problem.field) in said_keys]
        found = problems + small_text_problems(faces) + drawn + off_card + outside + rounded + framed + covered
        keys: dict[tuple[str, str], int] = {}  # one line a template key: the first problem there (fixed, the next shows)
        kept: list[FitProblem] = []
        for problem in found:
            if problem.record_id == "templates":
                # a key as TOML writes it (strings."solo.back.quest", twenty-third breaker), said once
                problem = dataclasses.replace(problem, field=shown_key(problem.field))
                if (problem.path, problem.field) in keys:
                    # lines over each other: the text that needs the most spacing is said, so the spacing it asks for is enough
                    at = keys[problem.path, problem.field]
                    # a ring too big: the one that must shrink the most is said, so the value it asks for is enough
                    # a corner radius too big: the smallest shape's limit is said, so the value it asks for draws every shape
                    # an icon out of its disc: the one that reaches farthest is said, so its scale fits every card's icon
                    if (problem.field.endswith(".line_spacing") or "ring is too big" in problem.message
                            or "corner radius draws" in problem.message or "stick out of the disc" in problem.message
                            or "sticks out of the disc" in problem.message) and problem.over > kept[at].over:
                        kept[at] = problem
                    elif _advised(problem, "most") < _advised(kept[at], "most") or _advised(problem, "least") > _advised(kept[at], "least"):
                        # two checks advise the key: the smaller bound passes both at once (thirtieth breaker, finding 4:
                        # `space_radius = 4` was "at most 3.5" from one card, and 3.5 then failed on another); the
                        # larger least value likewise (`rule_left = 0` was "at least 6.3" by the frame, and 6.3 then ran
                        # the ornament rule into the back's disc, which needs 13.6); a bound said beats none
                        kept[at] = problem
                    continue
                keys[problem.path, problem.field] = len(kept)
            kept.append(problem)
        # thirtieth breaker (finding 7): a smaller text box in a template was blamed on the card texts in cards.toml
        kept = texts_over_by_template_edits(kept, faces, lambda: _shipped_layout_problems(database))
        return _misspelt_overrides_first(_bound_that_passes(database, kept), misspelt)
    except TemplateError as error:
        broken = [FitProblem("templates", error.key, "template", error.reason, path=str(error.path), line=error.line,
                             stopped_reading=not isinstance(error, templates.DrawnShapeError))]
        if not isinstance(error, templates.DrawnShapeError):
            return broken + _other_broken_templates(Path(error.path))
    # a number that gives a shape a negative size, the one number changed: said with a bound searched toward the shipped
    # value (forty-fourth pnp breaker, LOW 15: `band_top = 107.9` was "sizes must be positive", with no value to set)
    try:
        return _bound_that_passes(database, broken)
    except TemplateError:
        return broken


def _misspelt_overrides_first(problems: list[FitProblem], misspelt: set[tuple[str, str]]) -> list[FitProblem]:
    """``problems`` with those at a misspelt box header (``misspelt``: file and key, a ``[boxes.evnet]`` that was to
    override the ``[boxes.event]`` of a template the file extends) first: the layouts then laid the cards out with the
    extended template's box, and what that spoils (a rule over the text, a text over the uses) follows from the typo,
    said after it (forty-ninth pnp breaker, fault 4: the misspelt header was said second, after a misleading bound)."""
    first = [problem for problem in problems if (problem.path, problem.field) in misspelt]
    return first + [problem for problem in problems if (problem.path, problem.field) not in misspelt]


def _other_broken_templates(said: Path) -> list[FitProblem]:
    """The first problem of each template file other than ``said`` (whose problem is said already) that cannot be read,
    in the order of their names: a broken file is read up to its first problem, but the others are read on their own, so
    that one check names a problem in each (forty-sixth pnp breaker, F4: one problem in each of two templates took two
    runs). Raises nothing."""
    found: list[FitProblem] = []
    seen = {said.resolve()}
    for path in sorted(templates.TEMPLATE_DIR.glob("*.toml")):
        try:
            load_template(path.stem)
        except TemplateError as error:
            if Path(error.path).resolve() in seen or isinstance(error, templates.ExtendsCycleError):
                continue  # (a cycle of extends is said once, at the file it was met in first)
            seen.add(Path(error.path).resolve())
            found.append(FitProblem("templates", error.key, "template", error.reason, path=str(error.path), line=error.line,
                                    stopped_reading=True))
        except (OSError, ValueError, RecursionError):
            continue
    return found


def _shipped_layout_problems(database: Database) -> tuple[FitProblem, ...] | None:
    """The problems the layouts record for ``database`` laid out with the shipped templates
    (:func:`pnp.layout.edited.shipped_templates`) in place of the edited ones; ``None`` when no template is edited, the
    shipped ones are unknown, or they cannot lay it out. What the edited templates were asked (:func:`unread_keys`)
    and the cached layout (:func:`render`) are as before. Raises nothing but ``OSError`` for an unwritable temporary
    folder."""
    return _with_shipped_templates(database, lambda rendered: rendered.problems, "layout")


def _shipped_drawn_problems(database: Database) -> frozenset[tuple[str, str, str]] | None:
    """The problems judged on the printed faces (overlaps, rules and shapes over texts: :func:`overlap_problems`,
    :func:`legibility_problems`) of ``database`` laid out with the shipped templates, each as ``(template file name,
    key, message)``; ``None`` as :func:`_shipped_layout_problems`. Thirty-fourth pnp breaker, MED 9: under ``--safe 7``
    a problem the shipped templates have too was blamed on an unrelated number just edited ("change it back")."""
    def drawn(rendered: Rendered) -> frozenset[tuple[str, str, str]]:
        faces = list(rendered.fronts) + list(rendered.backs.values())
        overlaps = overlap_problems(faces)
        return frozenset((Path(problem.path).name, problem.field, problem.message)
                         for problem in overlaps + legibility_problems(faces, overlaps) if problem.path)
    return _with_shipped_templates(database, drawn, "drawn")


def _with_shipped_templates(database: Database, compute: Callable[[Rendered], Any], name: str) -> Any:
    """``compute`` of ``database`` laid out with the shipped templates in place of the edited ones (see
    :func:`_shipped_layout_problems`), ``None`` when that cannot be done. ``name`` names what is computed: while
    :func:`_bound_that_passes` tries values, each is computed once (the shipped layout is the same for every value)."""
    memo = (id(database), name)
    if _VERIFYING and memo in _SHIPPED_RESULTS:
        return _SHIPPED_RESULTS[memo]
    with shipped_templates(templates.TEMPLATE_DIR) as shipped:
        result = None if shipped is None else _laid_out_with(database, shipped, compute)
    if _VERIFYING:
        _SHIPPED_RESULTS[memo] = result
    return result


_SHIPPED_RESULTS: dict[tuple[int, str], Any] = {}
"""What :func:`_with_shipped_templates` computed while :func:`_bound_that_passes` tries values (emptied after)."""


def _laid_out_with(database: Database, folder: Path, compute: Callable[[Rendered], Any]) -> Any:
    """``compute`` of ``database`` laid out with the templates of ``folder`` in place of :data:`templates.TEMPLATE_DIR`'s,
    ``None`` when they cannot lay it out; the templates read, the layouts cached and what the templates were asked are as
    before on return."""
    edited = templates.TEMPLATE_DIR
    cached = dict(_CACHE)
    reads = {id(loaded): (set(loaded.asked), set(loaded.cut_short)) for loaded in loaded_templates(edited)}
    kept_loaded = loaded_templates(edited)
    templates.TEMPLATE_DIR = folder
    _CACHE.clear()  # (keyed by the database alone)
    try:
        return compute(render(database))
    except (TemplateError, CardSizeError, DrawingError, KeyError):
        return None
    finally:
        templates.TEMPLATE_DIR = edited
        templates.drop_loaded(folder)
        _CACHE.clear()
        _CACHE.update(cached)
        for loaded in kept_loaded:
            loaded.asked.clear()
            loaded.asked.update(reads[id(loaded)][0])
            loaded.cut_short.clear()
            loaded.cut_short.update(reads[id(loaded)][1])


BOUND_SEARCH_STEPS = 6
"""The most layouts :func:`_bound_that_passes` tries when the bound a problem advises does not pass (a bisection between
it and the shipped value, in steps of the advice's own precision: 2**6 steps are searched to the step, a wider range
more coarsely)."""

_VERIFYING: list[bool] = []
"""Non-empty while :func:`_bound_that_passes` checks a bound: the check it runs does not verify its own bounds again."""


def _bound_that_passes(database: Database, kept: list[FitProblem]) -> list[FitProblem]:
    """``kept`` with the problems at the one ``[numbers]`` key changed from the shipped templates said as one line with one
    bound that passes: with that value written in place, the check says nothing more of any template. The bound checked
    first is the tightest the problems at the key advise ("set emblem_size to at most 15.6"; of several, the smallest
    "at most", the largest "at least"); where it fails (another check's fault comes first: a disc shrunk off the frame's
    rule still strikes the footer), or where several problems name the key and none advises a number ("change it back
    toward that"), the bound said is the value nearest the one advised (or written) that does pass, found by bisection
    toward the shipped value (at most :data:`BOUND_SEARCH_STEPS` layouts, in steps of the advice's precision, tenths
    without one; the shipped value if none nearer is found). Several problems at the key are folded into one line:
    what each says, the value written and the shipped one, and that bound. One problem whose bound passes as advised,
    or that advises no number, is kept as it is.

    Thirty-ninth pnp breaker, MED 13 and LOW 3: `emblem_size = 16` was told "at most 15.6", which the ring-over-footer
    check then refused (14.0 passes), and `row_pitch = 18` "at most 15.4", the shipped value, where 15.9 passes.
    Forty-first pnp breaker, findings 1 and 2: `hp_top = 102.8` (last_stand.toml) was said in two lines, a text-fit one
    without a number and "at most 73.4", which failed the first (60.5 passes); `key_icon = 8.62` (stats.toml) "at most
    8.3", while the key space's own test needs 5.1: only the first problem at the key was verified, and it advised none.
    Only in the error path: a check that passes lays nothing out again."""
    if _VERIFYING or not kept:
        return kept
    folder = templates.TEMPLATE_DIR
    sole = _sole_changed_number(folder)
    if sole is not None:
        return _bound_for(database, kept, folder, *sole)
    resized = _both_card_sizes(database, kept, folder)
    if resized is not kept:
        return resized
    # several numbers changed: the bound each problem at one of them advises is verified with the others as written
    # (forty-fifth pnp breaker, MED 8: `emblem_size = 13.6` with `emblem_y = 72` was told "emblem_y at most 69", which then
    # ran the disc's ring through the footer; 67 passes)
    changed = _changed_numbers_in(folder)
    for home, name, shipped in changed:
        kept = _bound_for(database, kept, folder, home, name, shipped, alone=False)
    if not changed and TRACING:
        kept = _traced_bounds(database, kept, folder)
    return kept


def _traced_bounds(database: Database, kept: list[FitProblem], folder: Path) -> list[FitProblem]:
    """``kept`` with each bound said at a key that placed a shape, traced (:func:`pnp.layout.template.traced_fix`: "since
    middle_top is -36: set middle_top to at least 32.9"), checked: where the value advised fails (it brings the shape
    back to the frame, and another check's fault comes next), the nearest value beyond it that passes, searched
    (:func:`_searched_beyond`, the other problems found now allowed). For the shipped templates unknown (forty-sixth pnp
    breaker, finding 13)."""
    allowed = {_identity(problem) for problem in kept if problem.record_id != "templates"}
    verified: list[FitProblem] = []
    for index, problem in enumerate(kept):
        if problem.record_id != "templates" or not problem.field.startswith("numbers.") or not problem.path:
            continue
        name = problem.field.split(".", 1)[1]
        said = re.search(rf", since {re.escape(name)} is -?[0-9.e+]+(?: \([^()]*\))?: set {re.escape(name)} to at (least|most) "
                         rf"(-?[0-9.]+)$",
                         problem.message)
        if said is None:
            continue
        home, bound = Path(problem.path), float(said.group(2))

        def passes(value: float, home: Path = home, name: str = name) -> bool:
            with not_tracing():
                found = _checked_with(database, folder, home, name, value)
            return found is not None and not any(other.record_id == "templates" or _identity(other) not in allowed
                                                 for other in found)
        try:
            value = _searched_beyond(passes, bound, 1.0 if said.group(1) == "least" else -1.0, 1)
        finally:
            _SHIPPED_RESULTS.clear()
        if value is not None and math.isfinite(value):
            kept[index] = dataclasses.replace(problem, message=problem.message[:said.start(2)] + f"{value:g}")
        if value is None or math.isfinite(value):
            verified.append(kept[index])
    if len(verified) == 1:  # the one bound, applied alone, clears every template problem: those are its consequences
        # (forty-sixth pnp breaker, finding 13: `frame_diamond = 6` in base.toml also blamed player.toml's corner text)
        return verified + [problem for problem in kept if problem.record_id != "templates"]
    return kept


def _bound_for(database: Database, kept: list[FitProblem], folder: Path, home: Path, name: str, shipped: Any,
               alone: bool = True) -> list[FitProblem]:
    """:func:`_bound_that_passes` for the ``[numbers] name`` that the template file ``home`` of ``folder`` writes, changed
    from its ``shipped`` value: ``alone`` when it is the one number changed (problems elsewhere that the shipped templates
    do not have are then its consequences, said with it); else only the problems at the key itself, with the bound they
    advise verified (and searched toward the shipped value) with the other numbers changed as written."""
    if isinstance(shipped, bool) or not isinstance(shipped, (int, float)):
        return kept
    key = f"numbers.{name}"
    own = [index for index, problem in enumerate(kept) if problem.record_id == "templates" and problem.field == key
           and Path(problem.path).name == home.name]
    if not alone and not any(math.isfinite(_advised(kept[index], word)) for index in own for word in ("most", "least")):
        return kept
    # a problem said at another [numbers] key, which is as shipped: a consequence of the one number changed, whose advice
    # on that other key the check then refused (forty-second pnp breaker, MED 6: `hp_step = 15` advised "per_row at most
    # 3", and per_row = 3 was then told to change back): said with the changed number's, at it
    # (only beside a problem at the changed number itself, and in its own file: a problem at another key alone is that
    # key's to mend; one in another file may be the shipped templates' own at a larger safe area)
    others = [index for index, problem in enumerate(kept) if problem.record_id == "templates"
              and problem.field.startswith("numbers.") and problem.field.count(".") == 1 and problem.field != key
              and Path(problem.path).name == home.name] if own and alone else []
    # the card's size (base.toml card_width, card_height, with cards.toml's [print] to match) is the one number changed:
    # what it moves in any template is said at it, whether or not a problem names it (forty-third pnp breaker, MED 3:
    # `card_width = 63.5` was blamed on back.toml's rule_y, which named no card_width, and battle_map.toml's shade_dx,
    # keys no one had changed, each with its own advice); the shipped templates are laid out for the shipped size only,
    # so nothing of theirs is compared
    sized = alone and name in templates.CARD_SIZE_NAMES and home.name == "base.toml"
    if sized:
        others = [index for index, problem in enumerate(kept) if problem.record_id == "templates" and index not in own]
    # a problem the shipped templates do not have, said elsewhere (at the game data, at another file's or a string's
    # key): a consequence of the one number changed, said at it with a bound searched (forty-fourth pnp breaker, MED 6:
    # `table_top = 70` told the designer to remove rows of the rulebook's Eldritch tables, `uses_top = 73.5` Elder uses,
    # `track_x = 8.7` to move [boxes.side_label], `hex_icon_gap = 2` to shorten a string, none naming the key changed)
    shipped_found = _shipped_check(_resized(database, name, shipped) if sized else database) if alone else None
    consequences = [] if shipped_found is None else [
        index for index, problem in enumerate(kept) if index not in own and index not in others
        and _identity(problem) not in shipped_found]
    if not own and not others and not consequences:
        return kept
    others = sorted(others + consequences)
    at_key = sorted(own + others)
    said = [kept[index] for index in at_key]
    written_value = load_template(home.stem, home.parent).number(name)
    # the bounds the problems at the key advise (advice of two numbers, "(with hp_box = ...)", is not one bound)
    bounds = [(word, _advised(problem, word), problem) for problem in (kept[index] for index in own)
              for word in ("most", "least")
              if math.isfinite(_advised(problem, word)) and not re.search(r"\(with [a-z_0-9]+ = ", problem.message)]
    if not bounds and abs(written_value - shipped) < 1e-9:
        return kept  # a number as shipped: no bound toward it to search
    if bounds:
        bound = bounds[0][0]
        of_bound = [(value, problem) for word, value, problem in bounds if word == bound]
        advised, base = (min if bound == "most" else max)(of_bound, key=lambda found: found[0])
        written = re.search(rf"set {re.escape(name)} to at {bound} -?[0-9]+(?:\.([0-9]+))?", base.message)
        places = min(2, len(written.group(1) or "") if written else 1) or 1  # the advice's own precision: tenths, hundredths
        start, fails = advised, False
        if abs(shipped - advised) < 1e-9:  # the advice is the shipped value (a linear guess clamped there): the value
            start, fails = written_value, True  # nearest the one written that passes (it fails)
    else:  # no problem with a number ("change it back toward that"): from the value written (which fails) toward the
        # shipped one (forty-second pnp breaker, LOW 7: `hp_top = 5`, `icon_row_y = 40` left the user to bisect)
        bound, base, places = ("most" if written_value > shipped else "least"), said[0], 1
        start, fails = written_value, True
        advised = start
    step = (-1 if bound == "most" else 1) * 10.0 ** -places  # toward the shipped value
    if fails:  # a value written finer than the step: the first step lands on the step's grid
        start = (math.floor if bound == "most" else math.ceil)(start * 10 ** places + (1e-6 if bound == "most" else -1e-6)) / 10 ** places
        fails = abs(start - written_value) < 1e-9
    steps = round((shipped - start) / step)

    def passes(value: float) -> bool:  # nothing said of any template (the one number changed is the only edit), nor
        found = _checked_with(database, folder, home, name, value)  # of the data that the shipped templates fit
        return found is not None and not any(other.record_id == "templates" or (
            shipped_found is not None and _identity(other) not in shipped_found) for other in found)
    if steps < 0 or (steps == 0 and fails):
        if alone or fails:
            return kept
        try:  # the shipped value lies behind the bound: with another number changed, a value farther on may pass
            found = _searched_beyond(passes, start, -1.0 if bound == "most" else 1.0, places)
        finally:
            _SHIPPED_RESULTS.clear()
        if found is None:
            return kept
        if math.isfinite(found):
            message = re.sub(rf"set {re.escape(name)} to at {bound} -?[0-9]+(?:\.[0-9]+)?", f"set {name} to at {bound} {found:g}",
                             kept[own[0]].message)
        else:
            changed_others = [other for _, other, _ in _changed_numbers_in(folder) if other != name]
            message = (f"{kept[own[0]].message}; with {listed(changed_others, most=3)} as written no value of {name} within "
                       f"{BEYOND_MM:g} mm clears it: change {'that' if len(changed_others) == 1 else 'those'} back toward the "
                       f"shipped value{'s' if len(changed_others) > 1 else ''} too")
        return [dataclasses.replace(problem, message=message) if index == own[0] else problem
                for index, problem in enumerate(kept)]
    try:
        value = _searched(passes, start, step, steps, shipped, fails, places)
    finally:
        _SHIPPED_RESULTS.clear()
    if value is None:
        value = start
        if len(said) == 1:
            return kept
    if len(said) == 1 and bounds:
        message = re.sub(rf"set {re.escape(name)} to at {bound} -?[0-9]+(?:\.[0-9]+)?",
                         f"set {name} to at {bound} {value:g}", base.message)
    elif consequences and not sized:
        message = _card_size_line(said, name, written_value, shipped, f"set {name} to at {bound} {value:g}")
    elif sized:
        message = _card_size_line(said, name, written_value, shipped, f"set {name} to at {bound} {value:g} with [print] "
                                  f"{templates.CARD_SIZE_NAMES[name]}, or {_for_the_size(database, folder, home, name, written_value, said)}")
    else:
        message = _folded(said, base, name, written_value, shipped, f"set {name} to at {bound} {value:g}")
    first = own[0] if own else at_key[0]
    path, line = template_line(home, key)
    folded = dataclasses.replace(kept[first], message=message, over=max(problem.over for problem in said), field=key,
                                 path=str(path), line=line, box="", record_id="templates",
                                 kind=kept[first].kind if kept[first].record_id == "templates" else "template")
    return [folded if index == first else problem for index, problem in enumerate(kept) if index == first or index not in at_key]


def _resized(database: Database, name: str, value: float) -> Database:
    """``database`` with its ``[print]`` card size of the template number ``name`` (``card_width``: ``card_width_mm``,
    :data:`templates.CARD_SIZE_NAMES`) set to ``value`` mm, as base.toml's card size goes with it."""
    resized = (dataclasses.replace(database.print, card_width_mm=value) if name == "card_width" else
               dataclasses.replace(database.print, card_height_mm=value))
    return dataclasses.replace(database, print=resized)


def _both_card_sizes(database: Database, kept: list[FitProblem], folder: Path) -> list[FitProblem]:
    """``kept`` with its problems said as one line at base.toml's ``card_width`` when the card's width and height (with
    ``[print]`` to match) are the two numbers changed from the shipped templates and nothing else is: each problem the
    shipped size does not have (a shape of negative size, the sheet's margin, a text off the safe area), the size written
    and the shipped one, and the nearest size on the way to the shipped one with which the check passes, both numbers
    moved together (a bisection, :data:`BOUND_SEARCH_STEPS` layouts), rounded to tenths away from the size written.
    ``kept`` as it is otherwise. Forty-fourth pnp breaker, MED 8: a 10 x 10 mm card was "a number gives a shape that
    cannot be drawn" at base.toml's [numbers], naming no key, and "lower the crop marks" at [print]."""
    changed = _changed_numbers_in(folder)
    if sorted(name for _, name, _ in changed) != sorted(templates.CARD_SIZE_NAMES) or any(
            path.name != "base.toml" or not isinstance(shipped, (int, float)) or isinstance(shipped, bool)
            for path, _, shipped in changed):
        return kept
    home = changed[0][0]
    shipped = {name: float(value) for _, name, value in changed}
    base = load_template(home.stem, home.parent)
    written = {name: base.number(name) for name in shipped}
    shipped_found = _shipped_check(_resized(_resized(database, "card_width", shipped["card_width"]), "card_height",
                                            shipped["card_height"]))
    if shipped_found is None:
        return kept
    said = [problem for problem in kept if _identity(problem) not in shipped_found]
    if not said:
        return kept

    def size(step: int) -> dict[str, float]:  # ``step`` of 64 on the way from the size written to the shipped one, in
        sizes: dict[str, float] = {}  # tenths toward the shipped one, never past it
        for name in shipped:
            value = written[name] + (shipped[name] - written[name]) * step / 64
            sizes[name] = (min(shipped[name], math.ceil(value * 10 - 1e-6) / 10) if shipped[name] > written[name]
                           else max(shipped[name], math.floor(value * 10 + 1e-6) / 10))
        return sizes

    def passes(step: float) -> bool:
        tried = size(round(step))
        found = _checked_with(database, folder, home, "card_width", tried["card_width"],
                              ((home, "card_height", tried["card_height"]),))
        return found is not None and all(_identity(problem) in shipped_found for problem in found)
    try:
        step = _searched(passes, 0.0, 1.0, 64, 64.0, fails=True, places=0)
    finally:
        _SHIPPED_RESULTS.clear()
    bound = size(round(step if step is not None else 64))
    words = " and ".join(f"{name} to at {'least' if shipped[name] > written[name] else 'most'} {bound[name]:g}"
                         for name in ("card_width", "card_height"))
    message = _card_size_line(said, "card_width", written["card_width"], shipped["card_width"],
                              f"set {words} with [print] card_width_mm and card_height_mm to match",
                              f"the card is {written['card_width']:g} x {written['card_height']:g} mm (the shipped templates "
                              f"have {shipped['card_width']:g} x {shipped['card_height']:g})")
    path, line = template_line(home, "numbers.card_width")
    folded = FitProblem("templates", "numbers.card_width", "template", message, over=max(problem.over for problem in said),
                        path=str(path), line=line)
    first = kept.index(said[0])
    return [folded if index == first else problem for index, problem in enumerate(kept) if index == first or problem not in said]


def _identity(problem: FitProblem) -> tuple[str, str, str, str]:
    """What names ``problem`` whatever its words (which say the values written): its record, the template file it is at
    (by name, so that a copy of the templates matches), its key and its kind."""
    return (problem.record_id, Path(problem.path).name if problem.path else "", problem.field, problem.kind)


def _shipped_check(database: Database) -> frozenset[tuple[str, str, str, str]] | None:
    """The :func:`_identity` of each problem :func:`check_fit` finds in ``database`` laid out with the shipped templates;
    ``None`` as :func:`_shipped_layout_problems` (no template edited, or the shipped ones unknown)."""
    return _with_shipped_templates(database, lambda rendered: frozenset(_identity(problem) for problem in check_fit(database)),
                                   "check")


def _folded(said: list[FitProblem], base: FitProblem, name: str, written: float, shipped: float, advice: str) -> str:
    """The one line of several problems ``said`` at ``[numbers] name``: what each says (up to its value and advice), the
    value written and the shipped one (as ``base`` says them when it does), then ``advice``."""
    since = re.search(rf", since {re.escape(name)} is [^;]*?\(the shipped templates have [^)]*\)", base.message)
    shown = since.group(0) if since else f", since {name} is {written:g} (the shipped templates have {shipped:g})"
    parts, together = [], []
    for problem in said:
        part = problem.message.split(f", since {name} is ", 1)[0]
        # an advice of two numbers (`set emblem_size to at most 36.2 (with emblem_y = 9.7)`) is kept as the other way,
        # after the one bound (forty-fourth pnp breaker, LOW 7: both were said as if each alone passed)
        paired = re.search(rf"[:;] set {re.escape(name)} (to at (?:most|least) -?[0-9.]+) \(with ([a-z_0-9]+ = -?[0-9.]+)\)$", part)
        if paired:
            together.append(f"{paired.group(1)} with {paired.group(2)}")
            part = part[:paired.start()]
        part = re.sub(r"[:;] (?:set [a-z_0-9]+ to at (?:most|least) -?[0-9.]+|change .*)$", "", part)
        if part not in parts:
            parts.append(part)
    other = f", or {together[0]}" if together else ""
    return "; ".join(parts) + f"{shown}: {advice}{other}"


def _for_the_size(database: Database, folder: Path, home: Path, name: str, written: float, said: list[FitProblem]) -> str:
    """The advice that keeps the card size ``name`` (base.toml ``home``) at ``written`` mm: the bounds the problems
    ``said`` at other ``[numbers]`` keys advise, when each advises one and, applied together, they pass the check
    ("keep 63.5 with shade_dx at most -0.4 and rule_y at least 49.1"); else to move what they name."""
    edits: list[tuple[Path, str, float]] = []
    words: list[str] = []
    for problem in said:
        if not (problem.field.startswith("numbers.") and problem.field.count(".") == 1 and problem.path):
            break
        key = problem.field.split(".", 1)[1]
        if key == name:
            break
        found = [(word, _advised(problem, word)) for word in ("most", "least") if math.isfinite(_advised(problem, word))]
        if len(found) != 1:
            break
        word, value = found[0]
        edits.append((Path(problem.path), key, value))
        words.append(f"{key} at {word} {value:g}")
    else:
        if edits:
            try:
                checked = _checked_with(database, folder, home, name, written, tuple(edits))
            finally:
                _SHIPPED_RESULTS.clear()
            if checked is not None and not any(problem.record_id == "templates" for problem in checked):
                return f"keep {written:g} with {listed(words, most=len(words))}"
    return f"move what is named to suit {written:g} mm cards"


CARD_SIZE_LINE_MOST = 400
"""The most characters of the one line :func:`_bound_that_passes` says at a changed card size (``pnp check`` cuts a
longer one, and its advice comes last): what each problem says is shortened to its first clause (no parentheses), then
to its key."""


def _card_size_line(said: list[FitProblem], name: str, written: float, shipped: float, advice: str,
                    changed: str = "") -> str:
    """The one line of the problems ``said`` when ``[numbers] name`` is the one number changed and they are said
    elsewhere (the card size's, or a number's consequences at other keys or the game data): what each says, ending in the
    file and key it was found at ("... across its frame (battle_map.toml shade_dx)", "(solo.table.eldritch-1.rows)"),
    the value written and the shipped one (or ``changed``, what was changed with its shipped value, when given), then
    ``advice``; within :data:`CARD_SIZE_LINE_MOST` characters."""
    since = f", since {changed or f'{name} is {written:g} (the shipped templates have {shipped:g})'}: {advice}"
    advice_at = re.compile(r"(?:, since [a-z_0-9]+ is |[:;] (?:set [a-z_0-9]+ to at (?:most|least) -?[0-9.]+|"
                           r"(?:change|move|remove|shorten|lower|raise|make|write|give|choose) ))")
    texts, keys = [], []
    for problem in said:
        found = advice_at.search(problem.message)
        text = problem.message[:found.start()] if found else problem.message
        short = problem.field.split(".", 1)[-1] if problem.field.count(".") == 1 else problem.field
        where = ("" if problem.field == f"numbers.{name}" and problem.record_id == "templates" else
                 f"{Path(problem.path).name} {short}" if problem.record_id == "templates" else
                 f"the safe area of {problem.record_id}" if problem.kind == "safe area" else f"{problem.record_id}.{problem.field}")
        if (text, where) not in texts:
            texts.append((text, where))
            keys.append(where or f"{name} itself")
    for shorten in (lambda text: text, lambda text: re.split(r", |: ", re.sub(r" \([^()]*\)", "", text), maxsplit=1)[0]):
        line = "; ".join(shorten(text) + (f" ({where})" if where else "") for text, where in texts) + since
        if len(line) <= CARD_SIZE_LINE_MOST:
            return line
    return f"{len(texts)} problems, at {listed(keys, most=len(keys))}{since}"


BEYOND_MM = 32.0
"""How far (mm) past a bound that fails :func:`_searched_beyond` looks for one that passes."""


def _searched_beyond(passes: Callable[[float], bool], start: float, direction: float, places: int) -> float | None:
    """The value nearest ``start`` in ``direction`` (+1 up, -1 down) that ``passes``, rounded to ``places`` decimals: None
    when ``start`` itself passes, infinity when none within :data:`BEYOND_MM` does. Steps of 1, 2, 4 ... mm out, then a
    bisection back (:data:`BOUND_SEARCH_STEPS` tries). For a bound that fails while the shipped value lies behind it
    (several numbers changed: the shipped value of this one need not pass with the others)."""
    if passes(start):
        return None
    failing, distance = 0.0, 1.0
    while distance <= BEYOND_MM and not passes(start + direction * distance):
        failing, distance = distance, distance * 2
    if distance > BEYOND_MM:
        return math.inf
    passing = distance
    for _ in range(BOUND_SEARCH_STEPS):
        if passing - failing <= 10.0 ** -places:
            break
        middle = round((failing + passing) / 2, places)
        if middle in (failing, passing):
            break
        if passes(start + direction * middle):
            passing = middle
        else:
            failing = middle
    return round(start + direction * passing, places)


def _searched(passes: Callable[[float], bool], advised: float, step: float, steps: int, shipped: float,
              fails: bool = False, places: int = 1) -> float | None:
    """The value nearest ``advised`` on the way to ``shipped`` (``steps`` steps of ``step`` away) that ``passes``, rounded
    to ``places`` decimals, or None when ``advised`` itself passes (tried unless ``fails`` says it does not); bisection, at
    most :data:`BOUND_SEARCH_STEPS` tries after the first, ``shipped`` taken to pass."""
    if not fails and passes(advised):
        return None
    failing, passing = 0, steps  # in steps from the advised value; the shipped value is taken to pass
    for _ in range(BOUND_SEARCH_STEPS):
        if passing - failing <= 1:
            break
        middle = (failing + passing) // 2
        if passes(advised + middle * step):
            passing = middle
        else:
            failing = middle
    return shipped if passing == steps else round(advised + passing * step, places)


def _checked_with(database: Database, folder: Path, home: Path, name: str, value: float,
                  more: tuple[tuple[Path, str, float], ...] = ()) -> list[FitProblem] | None:
    """:func:`check_fit` of ``database`` with the templates of ``folder``, ``[numbers] name`` written ``value`` in the
    template file ``home`` (the one that writes it), and each ``(file, name, value)`` of ``more`` likewise; ``None``
    when a line cannot be found or the copy cannot be written. The card's size (:data:`templates.CARD_SIZE_NAMES`)
    written in base.toml is checked with the ``[print]`` size of ``database`` to match."""
    import shutil
    import tempfile

    edits: dict[str, str] = {}
    for file, key, number in ((home, name, value), *more):
        text = edits.get(file.name, file.read_text(encoding="utf-8"))
        line = re.compile(rf"^(\s*{re.escape(key)}\s*=\s*)[^#\n]*?(\s*(?:#.*)?)$", re.M)
        if not line.search(text):
            return None
        edits[file.name] = line.sub(rf"\g<1>{number:g}\g<2>", text, count=1)
    try:
        made = Path(tempfile.mkdtemp(prefix="pnp-bound-templates-"))
    except OSError:
        return None
    _VERIFYING.append(True)
    templates.SHIPPED_AS[made] = folder
    try:
        for path in folder.glob("*.toml"):
            shutil.copyfile(path, made / path.name)
        for file_name, text in edits.items():
            (made / file_name).write_text(text, encoding="utf-8")
        for file, key, number in ((home, name, value), *more):  # the [print] size goes with the templates' card size
            if key in templates.CARD_SIZE_NAMES and file.name == "base.toml":
                database = _resized(database, key, number)
        checked = database
        return _laid_out_with(checked, made, lambda rendered: check_fit(checked))
    except OSError:
        return None
    finally:
        _VERIFYING.pop()
        templates.SHIPPED_AS.pop(made, None)
        shutil.rmtree(made, ignore_errors=True)


def _advised(problem: FitProblem, bound: str) -> float:
    """The value that ``problem`` advises for its own ``[numbers]`` key with ``bound`` (``"most"``: "set box_radius to at
    most 2.1"; ``"least"``: "set rule_left to at least 13.6"), else infinity, minus infinity for ``"least"``."""
    name = problem.field.rsplit(".", 1)[-1]
    found = re.search(rf"set {re.escape(name)} to at {bound} (-?[0-9]+(?:\.[0-9]+)?)", problem.message)
    return float(found.group(1)) if found else math.inf if bound == "most" else -math.inf


def _at_changed_number(problems: list[FitProblem], drawn: list[FitProblem],
                       shipped: Callable[[], frozenset[tuple[str, str, str]] | None] = lambda: None) -> list[FitProblem]:
    """``drawn`` (the problems judged on the printed faces: texts struck through, covered or run into) said at the one
    ``[numbers]`` key the designer changed in their template (:func:`pnp.layout.template.changed_number`), when there
    is one: dropped when ``problems`` (the layouts' own) already name that key in that file, else said once at it, with
    the shipped value. Twenty-eighth breaker, findings 6 and 7: `key_icon_x = 9` was blamed on `key_icon_cy` (never
    changed) and `frame_inset = 20` on the back also on [boxes.title] and [boxes.subtitle], texts no one moved. A problem
    the shipped templates have as well (``shipped``, asked once when needed: the drawn problems of the shipped templates)
    is kept where it is, with its own remedy: the changed number did not make it (thirty-fourth pnp breaker, MED 9)."""
    named = {(problem.path, problem.field) for problem in problems if problem.record_id == "templates"}
    changed_in: dict[str, tuple[str, Any] | None] = {}  # a template file -> its one changed number, if any
    kept: list[FitProblem] = []
    moved: set[tuple[str, str]] = set()
    shipped_said: list[frozenset[tuple[str, str, str]] | None] = []  # asked once, when a problem would move
    for problem in drawn:
        home = problem.path  # the template file that writes the key said
        if problem.record_id != "templates" or not home:
            kept.append(problem)
            continue
        if home not in changed_in:
            changed_in[home] = changed_number(Path(home))
        changed = changed_in[home]
        number_file = Path(home)
        if changed is None:  # thirty-first pnp breaker (MED 16): quest.toml's `emblem_size = 20` put the emblem over the
            sole = _sole_changed_number(Path(home).parent)  # footer, and the footer of base.toml (which quest extends)
            if sole is not None and Path(home) in template_chain(sole[0]):  # was told to move
                number_file, changed = sole[0], (sole[1], sole[2])
        if changed is None or (problem.field == f"numbers.{changed[0]}" and number_file == Path(home)):
            kept.append(problem)
            continue
        if not shipped_said:
            shipped_said.append(shipped())
        if shipped_said[0] is not None and (Path(home).name, problem.field, problem.message) in shipped_said[0]:
            kept.append(problem)  # the shipped templates print it so too: not the changed number's doing
            continue
        path, line = template_line(number_file, f"numbers.{changed[0]}")
        key = (str(path), f"numbers.{changed[0]}")
        if key in named or key in moved:
            continue
        moved.add(key)
        value = problem.message.rsplit("; ", 1)[0] if "; " in problem.message else problem.message
        kept.append(dataclasses.replace(
            problem, field=key[1], path=key[0], line=line, box="",
            message=f"{value}, since {changed[0]} is {_number_said(number_file, changed[0])} (the shipped templates have "
                    f"{template_value(changed[1])}): change it back toward that"))
    return kept


def _shipped_outside_records(database: Database) -> frozenset[str] | None:
    """The ids of the records whose faces reach outside the safe area (:func:`safe_area_problems`) when ``database`` is
    laid out with the shipped templates; ``None`` as :func:`_shipped_layout_problems`."""
    return _with_shipped_templates(database, lambda rendered: frozenset(
        problem.record_id for problem in safe_area_problems(list(rendered.fronts) + list(rendered.backs.values()),
                                                            database.print.safe_mm)), "outside")


def _safe_area_at_changed_number(outside: list[FitProblem], faces: list, safe_mm: float,
                                 shipped: Callable[[], frozenset[str] | None]) -> list[FitProblem]:
    """The safe-area problems of ``outside`` (one a card, field ``safe area``), those of cards whose template has one
    ``[numbers]`` key changed from the shipped templates (:func:`pnp.layout.template.changed_number`) said once at that
    key, with its value and the shipped one, when the card is inside the safe area with the shipped templates
    (``shipped``: the ids of the records outside it then, asked once when needed). Thirty-fourth pnp breaker, MED 6:
    `label_icon_dx = 60` pushed the sides' icons past the cut and was said as nine cards.toml lines, without the key."""
    templates_of = {face.record.id: Path(face.template) for face in faces if getattr(face, "template", None) is not None}
    kept: list[FitProblem] = []
    grouped: dict[tuple[str, str], list[tuple[FitProblem, Path, Any]]] = {}
    shipped_ids: list[frozenset[str] | None] = []
    for problem in outside:
        template = templates_of.get(problem.record_id)
        changed = changed_number(template) if problem.kind == "safe area" and template is not None else None
        if changed is None or template is None:
            kept.append(problem)
            continue
        if not shipped_ids:
            shipped_ids.append(shipped())
        if shipped_ids[0] is None or problem.record_id in shipped_ids[0]:
            kept.append(problem)  # outside with the shipped templates too: the safe area asked for, not the edit
            continue
        home, _ = template_line(template, f"numbers.{changed[0]}")
        grouped.setdefault((str(home), changed[0]), []).append((problem, template, changed[1]))
    for (path, name), found in grouped.items():
        first, template, shipped_value = found[0]
        cards = f"{len(found)} cards, the first {first.record_id}" if len(found) > 1 else first.record_id
        _, line = template_line(template, f"numbers.{name}")
        kept.append(FitProblem("templates", f"numbers.{name}", "template",
                               f"texts or icons reach outside the {safe_mm:g} mm safe area (on {cards}), since {name} is "
                               f"{_number_said(template, name)} (the shipped templates have {template_value(shipped_value)}): change it "
                               f"back toward that", path=path, line=line))
    return kept


def _sole_changed_number(folder: Path) -> tuple[Path, str, Any] | None:
    """The one ``[numbers]`` key changed from the shipped templates in all the template files of ``folder``, as ``(the file
    that writes it, its name, the shipped value)``; ``None`` when none or several are changed, or the shipped ones are
    unknown."""
    found = _changed_numbers_in(folder)
    return found[0] if len(found) == 1 else None


def _changed_numbers_in(folder: Path) -> list[tuple[Path, str, Any]]:
    """Each ``[numbers]`` key changed from the shipped templates in the template files of ``folder``, as ``(the file that
    writes it, its name, the shipped value)``, file by file; empty when none is or the shipped ones are unknown."""
    return [(path, key.split(".", 1)[1], shipped) for path in sorted(folder.glob("*.toml"))
            for key, _, shipped in changed_keys(path) if key.startswith("numbers.") and key.count(".") == 1]


def _number_said(template: Path, name: str) -> str:
    """The value of ``[numbers] name`` in the template file ``template`` (with those it extends), as written (``9``)."""
    return f"{load_template(template.stem, template.parent).number(name):g}"


def _not_placed_wrong(outside: list[FitProblem], faces: list, said: list[FitProblem]) -> list[FitProblem]:
    """The safe-area problems of ``outside`` less those on a face whose template reads a ``[numbers]`` key a problem of
    ``said`` already names (in the file that writes it: :func:`template_line`): a number that moved a shape past the
    frame moved it off the safe area too, and that is said once, at the number (twenty-seventh breaker, finding 12:
    `emblem_y = 0` on the backs also blamed the two back records of cards.toml, which were not edited)."""
    numbers = {(problem.path, problem.field) for problem in said
               if problem.record_id == "templates" and problem.field.startswith("numbers.")}
    if not numbers or not outside:
        return outside
    templates = {face.record.id: face.template for face in faces if getattr(face, "template", None) is not None}

    def placed_wrong(problem: FitProblem) -> bool:
        template = templates.get(problem.record_id)
        return problem.kind == "safe area" and template is not None and \
            any(str(template_line(Path(template), key)[0]) == path for path, key in numbers)
    return [problem for problem in outside if not placed_wrong(problem)]


def fit_problems(database: Database) -> list[str]:
    """:func:`check_fit` as text, one ``"<record id>: <field>: <message>"`` string per problem."""
    return [str(problem) for problem in check_fit(database)]


__all__ = ["Face", "Rendered", "render", "check_fit", "fit_problems", "card_size_problem", "FitProblem",
           "FitKind", "LAYOUTS", "TemplateError", "CardSizeError"]
