"""The card database: ``cards.toml`` read, validated and turned into typed, frozen records.

This module owns the schema of ``cards.toml`` (one pydantic model per record kind), the checks that
go beyond one record (unique ids, references between records, table coverage, deck sizes, hex maps)
and the way problems are reported: every problem at once, each as ``cards.toml:LINE: key.path: what
is wrong``. It never raises anything but :class:`DatabaseError` for a bad file.

Game numbers live in ``cards.toml``, not here; this module only knows their shape. The rules they
follow come from the seeds: the rulebook (``docs/seeds/001_14b82cefec9e9fa1.txt``) for the solo
game and the publisher's description (``000_13dfdf9d0b0f4cfb.txt``) for the two-player game.
"""
from __future__ import annotations

import functools
import hashlib
import json
import re
import tomllib
import typing
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated, Any, ClassVar, Iterator, Literal

import tomli_w
from pydantic import BaseModel, ConfigDict, Field, StringConstraints, TypeAdapter, ValidationError

from pnp import hexes

FORMAT = 1
"""The ``format`` number of ``cards.toml`` this code reads."""

Origin = Literal["rulebook", "public", "authored"]
Text = Annotated[str, StringConstraints(pattern=r"\S")]
"""A printed text: any string with at least one character that is not a space."""
SpellType = Literal["oaken", "flint", "ice"]
ServantType = Literal["ghast", "zhumbi", "ymp"]
MapColor = Literal["red", "blue", "yellow"]
Track = Literal["mana", "spirit"]
Resonance = Literal["ember", "tide", "stone", "gale"]
Side = Literal["wardens", "shadowmajik"]
DiceKind = Literal["d6", "2d6", "position", "difference"]

ROLL_RANGES: dict[str, range] = {"d6": range(1, 7), "2d6": range(2, 13), "difference": range(0, 11)}
"""Rolls a table of each ``dice`` kind must cover exactly once ("position" tables need not cover)."""


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, strict=True, defer_build=True, allow_inf_nan=False)


# ---- Effects ------------------------------------------------------------------------------------------
class Effect(_Model):
    """What a table row, spell, Elder, Warding Key or quest card does, as the referee applies it.

    Every field is optional; an empty effect does nothing. Signs: positive ``mana``/``spirit`` raise a
    track; positive ``grayking`` moves the Grayking marker toward Lassadar (rulebook, Battle Loss
    table), negative away (Battle Win table). Wound counts (``active_servant``, ``all_servants``) are
    hit points taken from servants (rulebook, Expanded Battles, Eldritch Damage tables).
    """

    # tracks and the Grayking (Battle Win / Battle Loss / Eldritch tables, Warding Keys, Ice spells)
    mana: int = 0
    spirit: int = 0
    grayking: int = 0
    mana_per_next: int = 0
    spirit_per_next: int = 0
    grayking_per_two_spirit: int = 0
    learn_spell: int | None = None
    learn_spells: int = 0
    # battles (Flint spells, Elders, quest events)
    attack_total: int = 0
    free_dice: int = 0
    against: dict[ServantType, int] = Field(default_factory=dict)
    remove_servant_die: int = 0
    reroll_own: bool = False
    reroll_servants: bool = False
    reroll_table: bool = False
    recharge: bool = False
    # Battle Loss softening (Oaken spells)
    loss_rows: int = 0
    cancel_loss: bool = False
    grayking_less: int = 0
    cancel_event: bool = False
    barrier_lock: bool = False
    # Expanded Battles (Eldritch Damage)
    active_servant: int = 0
    all_servants: int = 0
    slay_active: bool = False
    # Last Stand counters
    reroll_grayking_at_most: int = 0
    remove_own_at_most: int = 0
    raise_grayking_at_most: int = 0
    forget_spell: bool = False
    # Ruin & Renewal I
    battle: int = 0
    opponent_battle: int = 0
    reroll_battle_die: int = 0
    opponent_reroll_highest: int = 0
    push_back: int = 0
    extra_spaces: int = 0
    spaces: int = 0


# ---- Shared pieces -------------------------------------------------------------------------------------
class PrintSettings(_Model):
    """Print geometry in mm: trim size of one card, bleed, safe area, papers, printer margin, crop marks,
    the extra bleed of backs (so a back shifted by a printer's misregistration shows no white edge) and
    the default duplex flip (``long``, ``short`` or ``none``). ``pnp build`` options override them."""

    card_width_mm: float = Field(gt=0)
    card_height_mm: float = Field(gt=0)
    bleed_mm: float = Field(ge=0)
    safe_mm: float = Field(ge=0)
    papers: tuple[Literal["a4", "letter"], ...] = Field(min_length=1)
    printer_margin_mm: float = Field(ge=0)
    crop_mark_mm: float = Field(gt=0)
    back_extra_bleed_mm: float = Field(default=2.0, ge=0)
    duplex: Literal["long", "short", "none"] = "long"


class Game(_Model):
    """A game's title and player count."""

    title: Text
    players: Text
    origin: Origin


class Record(_Model):
    """Fields every record has: a stable ``id``, its ``origin``, an optional ``note``, ``copies`` and ``back``.

    ``kind`` (class attribute) is the record's component kind, the name of its ``[[game.kind]]`` block.
    """

    kind: ClassVar[str] = ""
    printed: ClassVar[bool] = True
    id: str = Field(pattern=r"^[a-z0-9]+(\.[a-z0-9-]+)+$")
    origin: Origin
    note: str = ""
    copies: int = Field(default=1, ge=1)
    back: str | None = None

    @property
    def game(self) -> str:
        """The game key (``solo`` or ``duel``), the first part of the id."""
        return self.id.split(".", 1)[0]


class TableRow(_Model):
    """One row of a rules table: the rolls that read it, an optional name, its printed text and effect."""

    roll: tuple[int, ...] = Field(min_length=1)
    name: str = ""
    text: Text
    effect: Effect


class Table(Record):
    """A rules table (Battle Win, Battle Loss, Eldritch Damage, spell counters, nomograph).

    ``dice`` is what a row is looked up by: ``d6`` (rows cover 1-6 once), ``2d6`` (2-12 once),
    ``position`` (a spell position; partial), ``difference`` (0-10 once; larger reads the last row).
    """

    kind: ClassVar[str] = "table"
    printed: ClassVar[bool] = False
    title: Text
    dice: DiceKind
    rows: tuple[TableRow, ...] = Field(min_length=1)

    def row_for(self, roll: int) -> TableRow:
        """The row that a roll (or position, or difference) reads; a difference above the table reads its last row.

        Raises ``KeyError`` when no row holds ``roll``.
        """
        for row in self.rows:
            if roll in row.roll:
                return row
        if self.dice == "difference" and roll > max(max(r.roll) for r in self.rows):
            return max(self.rows, key=lambda r: max(r.roll))
        raise KeyError(f"{self.id} has no row for {roll}")


class Back(Record):
    """A card back for a deck that is shuffled or dealt."""

    kind: ClassVar[str] = "back"
    title: Text
    subtitle: Text
    color: str = Field(pattern=r"^#[0-9a-f]{6}$")


class TableCard(Record):
    """A card that prints one rules table (Battle Win, Battle Loss, nomograph)."""

    kind: ClassVar[str] = "table_card"
    title: Text
    table: str
    icon: str


# ---- Solo game -----------------------------------------------------------------------------------------
class SoloRules(_Model):
    """Numbers of the solo rules that are not on a card (rulebook, Setup, Play and Expanded Battles)."""

    origin: Origin
    attack_dice: int = Field(ge=1)
    servant_extra_dice: int = Field(ge=0)
    elder_uses: int = Field(ge=1)
    retreat_spirit: int
    warden_move_hexes: int = Field(ge=0)
    servant_move_hexes: int = Field(ge=0)
    warden_attack_range: int = Field(ge=1)
    eldritch_range: int = Field(ge=0)
    warden_hit_damage: int = Field(ge=1)
    quest_cards: int = Field(ge=1)
    servant_cards: int = Field(ge=1)


class WardingKey(_Model):
    """A Warding Key on the Character Stats card with its one-time bonus."""

    key: int = Field(ge=1, le=3)
    color: MapColor
    text: Text
    effect: Effect


class Stats(Record):
    """The Character Stats card: Mana and Spirit tracks and the Warding Keys (rulebook, Setup)."""

    kind: ClassVar[str] = "stats"
    title: Text
    track_low: int
    track_high: int
    track_start: int
    track_columns: int = Field(ge=1)
    keys: tuple[WardingKey, ...] = Field(min_length=3, max_length=3)


class SpellPath(Record):
    """A Spell Path card: every spell of one type with the arrows between them."""

    kind: ClassVar[str] = "spell_path"
    title: Text
    spell_type: SpellType
    summary: Text


class Cost(_Model):
    """A cost in Mana or Spirit (positive numbers are paid)."""

    mana: int = Field(default=0, ge=0)
    spirit: int = Field(default=0, ge=0)


class Spell(Record):
    """A spell on a Spell Path card (rulebook, Setup: types, costs, paths; Last Stand: positions).

    ``cost`` is paid on each use, ``learn_cost`` (printed in brackets) once when learned;
    ``extra_dice`` join every attack roll once learned; ``opens`` are the path arrows.
    """

    kind: ClassVar[str] = "spell"
    printed: ClassVar[bool] = False
    name: Text
    spell_type: SpellType
    position: int = Field(ge=2, le=12)
    slot: tuple[int, int]
    cost: Cost | None = None
    learn_cost: Cost | None = None
    learnable: bool = True
    text: Text
    effect: Effect = Field(default_factory=Effect)
    extra_dice: int = Field(default=0, ge=0)
    opens: tuple[str, ...] = ()


class PlaceName(_Model):
    """A named space on the Grayking's Progress Track."""

    space: int = Field(ge=1)
    name: Text


class ProgressTrack(Record):
    """The Grayking's Progress Track, printed across ``cards`` cards (rulebook, Setup).

    Space 1 is the Tower of Ash, space ``spaces`` is Lassadar; ``start`` maps difficulty to space.
    """

    kind: ClassVar[str] = "progress_track"
    title: Text
    cards: int = Field(ge=1)
    spaces: int = Field(ge=2)
    start: dict[Literal["beginner", "normal", "advanced"], int]
    names: tuple[PlaceName, ...]


class Servant(Record):
    """A servant card: hit points per map colour, range in hexes, damage to Spirit or Mana (rulebook, Setup)."""

    kind: ClassVar[str] = "servant"
    name: Text
    servant_type: ServantType
    hit_points: dict[MapColor, int]
    range: int = Field(ge=1)
    damage: int = Field(ge=1)
    damage_to: Track
    text: str = ""


class BattleMap(Record):
    """An Expanded Battle Map over ``cards`` cards: hex layout, key, colour, servant count, Eldritch table."""

    kind: ClassVar[str] = "battle_map"
    title: Text
    key: int = Field(ge=1, le=3)
    color: MapColor
    cards: int = Field(ge=1)
    servants: int = Field(ge=1)
    eldritch_table: str
    event: Text
    layout: str

    @property
    def hex_map(self) -> hexes.HexMap:
        """The parsed hex grid (validated on load, so this does not raise for a loaded database)."""
        return hexes.parse_layout(self.layout)


class QuestCard(Record):
    """Fields of every quest card: name, Battle Win (white cross), Battle Loss (black circle), next card value."""

    name: Text
    win: int = Field(ge=1, le=6)
    loss: int = Field(ge=1, le=6)
    next_value: int = Field(ge=0)
    text: Text


class CityBattle(_Model):
    """The event of a City Quest battle: foe type, modifiers, costs before and extras after."""

    foe: ServantType | None = None
    attack_total: int = 0
    servant_dice: int = 0
    before: Effect | None = None
    win_extra: Effect | None = None
    loss_extra: Effect | None = None


class CityQuest(QuestCard):
    """A City Quest card (black border): a simple battle (rulebook, Play)."""

    kind: ClassVar[str] = "city_quest"
    battle: CityBattle = Field(default_factory=CityBattle)


class CouncilQuest(QuestCard):
    """A Council of Wardens card (white border): learn spells, gain Mana, cleanse Spirit (rulebook, Play)."""

    kind: ClassVar[str] = "council_quest"
    council: Effect


class Elder(QuestCard):
    """An Elders card (brown border): an ally with three uses, at most one per battle (rulebook, Play)."""

    kind: ClassVar[str] = "elder"
    aid: Effect


class WardingCity(QuestCard):
    """A Warding City card: coloured band and Warding Key number; fought on its map (rulebook, Expanded Battles)."""

    kind: ClassVar[str] = "warding_city"
    key: int = Field(ge=1, le=3)
    battle_map: str


class LastStand(Record):
    """The Last Stand card: its text, the Grayking's hit point track and gray spaces (rulebook, Last Stand)."""

    kind: ClassVar[str] = "last_stand"
    title: Text
    text: tuple[str, ...]
    hit_points: tuple[int, ...]
    gray_spaces: tuple[int, ...]
    player_hit_spirit: int
    grayking_extra_dice: int = Field(ge=0)


class CounterCard(Record):
    """A Last Stand spell counter card: the rows of a counter table at ``positions``."""

    kind: ClassVar[str] = "counter_card"
    title: Text
    table: str
    positions: tuple[int, ...] = Field(min_length=1)


class Solo(_Model):
    """Every record of *The Grayking is Risen*, by kind, in file order."""

    rules: SoloRules
    back: tuple[Back, ...] = ()
    stats: tuple[Stats, ...] = ()
    spell_path: tuple[SpellPath, ...] = ()
    spell: tuple[Spell, ...] = ()
    progress_track: tuple[ProgressTrack, ...] = ()
    table: tuple[Table, ...] = ()
    table_card: tuple[TableCard, ...] = ()
    servant: tuple[Servant, ...] = ()
    battle_map: tuple[BattleMap, ...] = ()
    city_quest: tuple[CityQuest, ...] = ()
    council_quest: tuple[CouncilQuest, ...] = ()
    elder: tuple[Elder, ...] = ()
    warding_city: tuple[WardingCity, ...] = ()
    last_stand: tuple[LastStand, ...] = ()
    counter_card: tuple[CounterCard, ...] = ()

    @property
    def quests(self) -> tuple[QuestCard, ...]:
        """The 22 quest cards: City Quests, Council of Wardens, Elders and Warding Cities."""
        return self.city_quest + self.council_quest + self.elder + self.warding_city


# ---- Ruin & Renewal I -----------------------------------------------------------------------------------
class DuelRules(_Model):
    """Numbers of *Ruin & Renewal I* from the publisher's description (Setup, Play, Game End)."""

    origin: Origin
    note: str = ""
    locations: int = Field(ge=1)
    locations_dealt: int = Field(ge=1)
    dice_per_player: int = Field(ge=1)
    battle_dice: int = Field(ge=1)
    power_die_divisor: int = Field(ge=1)
    points_max: int = Field(ge=1)
    points_min: int = Field(ge=0)
    casting_reach_below: int = Field(ge=0)
    resonance_discount: int = Field(ge=0)
    cubes_per_player: int = Field(ge=1)
    track_marker_cubes: int = Field(ge=0)
    deployable_cubes: int = Field(ge=1)
    locations_to_win: int = Field(ge=1)
    nomograph_table: str


class Location(Record):
    """A Location card: name (read from the Wardens' side), Resonance icons, a cube track per side."""

    kind: ClassVar[str] = "location"
    name: Text
    resonance: tuple[Resonance, ...] = Field(min_length=1)
    track_spaces: int = Field(ge=1, le=8)
    text: str = ""


class DuelSpell(_Model):
    """A player-card spell for one die face: name, cost in points, optional Resonance icon, effect."""

    face: int = Field(ge=1, le=6)
    name: Text
    cost: int = Field(ge=0)
    resonance: Resonance | None = None
    text: Text
    effect: Effect


class PlayerCard(Record):
    """A player card (Wardens or Shadowmajik): six die-face spells and the 0-6 point track."""

    kind: ClassVar[str] = "player"
    side: Side
    title: Text
    points: Literal["MP", "SP"]
    points_name: Text
    spells: tuple[DuelSpell, ...] = Field(min_length=6, max_length=6)


class SummarySection(_Model):
    """One headed paragraph of a rules summary card."""

    heading: Text
    text: Text


class Summary(Record):
    """A rules summary card."""

    kind: ClassVar[str] = "summary"
    title: Text
    sections: tuple[SummarySection, ...] = Field(min_length=1)


class Duel(_Model):
    """Every record of *Ruin & Renewal I*, by kind, in file order."""

    rules: DuelRules
    back: tuple[Back, ...] = ()
    location: tuple[Location, ...] = ()
    player: tuple[PlayerCard, ...] = ()
    table: tuple[Table, ...] = ()
    table_card: tuple[TableCard, ...] = ()
    summary: tuple[Summary, ...] = ()


class _File(_Model):
    format: int
    print: PrintSettings
    games: dict[Literal["solo", "duel"], Game]
    solo: Solo
    duel: Duel


# ---- Errors ---------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Problem:
    """One problem in the database file: ``file:line: key: message``."""

    file: str
    line: int
    key: str
    message: str

    def __str__(self) -> str:
        return f"{self.file}:{self.line}: {self.key}: {self.message}"


class DatabaseError(ValueError):
    """The database file cannot be used. ``problems`` lists every problem found, in file order.

    ``str(error)`` is one line per problem, ready to print.
    """

    def __init__(self, problems: list[Problem]):
        self.problems = sorted(problems, key=lambda p: (p.line, p.key, p.message))
        super().__init__("\n".join(str(p) for p in self.problems))


# ---- The loaded database -----------------------------------------------------------------------------------
@dataclass(frozen=True)
class Database:
    """A loaded, validated ``cards.toml``.

    ``fingerprint`` is the SHA-256 of the game content (every section but ``[print]``, as canonical
    JSON, so comments, formatting and print settings do not change it); save files record it; ``solo`` and ``duel``
    hold the records by kind; :meth:`records` yields every record with an id, in file order.
    """

    path: Path
    fingerprint: str
    print: PrintSettings
    games: dict[str, Game]
    solo: Solo
    duel: Duel
    _by_id: dict[str, Record] = field(default_factory=dict, repr=False)
    _where: dict[str, tuple[Any, ...]] = field(default_factory=dict, repr=False)
    _lines: "_LineIndex | None" = field(default=None, repr=False)

    def records(self) -> Iterator[Record]:
        """Every record with an id, game by game and kind by kind, in file order."""
        for game in (self.solo, self.duel):
            for name in type(game).model_fields:
                value = getattr(game, name)
                if isinstance(value, tuple):
                    yield from value

    def get(self, record_id: str) -> Record:
        """The record with ``record_id``. Raises ``KeyError`` naming the id when there is none."""
        try:
            return self._by_id[record_id]
        except KeyError:
            raise KeyError(f"no record with id {record_id!r}") from None

    def table(self, table_id: str) -> Table:
        """The rules table ``table_id``. Raises ``KeyError`` when there is none or it is not a table."""
        record = self.get(table_id)
        if not isinstance(record, Table):
            raise KeyError(f"{table_id!r} is a {record.kind}, not a table")
        return record

    def line_of(self, record_id: str, key: str = "") -> int:
        """The 1-based line of ``cards.toml`` holding ``key`` of record ``record_id`` (its header if not found).

        ``key`` is a dotted path with list indexes, e.g. ``"sections[0].text"``. Returns 0 when the
        record is unknown or the database was not loaded from text.
        """
        if self._lines is None:
            return 0
        if record_id in ("print", "games"):  # the settings sections, not records
            return self._lines.line_of((record_id,) + tuple(key.split(".")) if key else (record_id,))
        if record_id not in self._where:
            return 0
        parts: list[Any] = []
        for piece in re.findall(r"[^.\[\]]+|\[\d+\]", key):
            parts.append(int(piece[1:-1]) if piece.startswith("[") else piece)
        return self._lines.line_of(self._where[record_id] + tuple(parts))

    def tables(self) -> list[Table]:
        """Every rules table of both games."""
        return list(self.solo.table + self.duel.table)


# ---- Line numbers ---------------------------------------------------------------------------------------
_HEADER = re.compile(r"^\s*\[\[?\s*([A-Za-z0-9_.\-\"]+)\s*\]\]?")
_KEY = re.compile(r"^\s*([A-Za-z0-9_\-]+)\s*=")


class _LineIndex:
    """Finds the line of a key path such as ``("solo", "servant", 2, "range")`` in the TOML text.

    TOML parsers do not keep positions, so this scans the text: the header of the array-of-tables
    entry, then the key inside it, then list items and inline-table keys on the following lines.
    It returns the closest line it can find (at worst the table header, or line 1).
    """

    def __init__(self, text: str):
        self.lines = text.splitlines()
        self.headers: list[tuple[int, str, bool]] = []  # (line index, dotted name, is array)
        for number, line in enumerate(self.lines):
            match = _HEADER.match(line)
            if match and not line.lstrip().startswith("#"):
                self.headers.append((number, match.group(1), line.lstrip().startswith("[[")))

    def line_of(self, path: tuple[Any, ...]) -> int:
        """The 1-based line of ``cards.toml`` that holds the key at ``path`` (table names, array
        indexes and keys, as pydantic reports them), or the nearest enclosing header's line."""
        parts = list(path)
        start, end = 0, len(self.lines)
        # find the deepest header that is a prefix of the path
        best: tuple[int, int] | None = None
        for length in range(len(parts), 0, -1):
            name = ".".join(str(p) for p in parts[:length] if not isinstance(p, int))
            if any(isinstance(p, int) for p in parts[:length]) and not isinstance(parts[length - 1], int):
                continue
            matches = [(i, h) for i, h in enumerate(self.headers) if h[1] == name]
            if not matches:
                continue
            pick = 0
            if length < len(parts) + 1 and length >= 1 and isinstance(parts[length - 1], int):
                pick = parts[length - 1]
            elif length < len(parts) and isinstance(parts[length], int) and matches[0][1][2]:
                pick = parts[length]
                length += 1
            if pick >= len(matches):
                continue
            index, header = matches[pick]
            start = header[0]
            end = self.headers[index + 1][0] if index + 1 < len(self.headers) else len(self.lines)
            best = (start, length)
            break
        if best is None:
            # top-level keys before any header
            end = self.headers[0][0] if self.headers else len(self.lines)
            rest = parts
        else:
            rest = parts[best[1]:]
        line = start
        for part in rest:
            if isinstance(part, int):
                found = self._nth_item(line, end, part)
            else:
                found = self._key(line, end, str(part))
            if found is None:
                break
            line = found
        return line + 1

    def _key(self, start: int, end: int, key: str) -> int | None:
        pattern = re.compile(r"(^|[{,\s])" + re.escape(key) + r"\s*=")
        for number in range(start, end):
            text = self.lines[number].split("#", 1)[0] if not self.lines[number].lstrip().startswith("#") else ""
            if pattern.search(text):
                return number
        return None

    def _nth_item(self, start: int, end: int, index: int) -> int | None:
        if "[" in self.lines[start] and "]" in self.lines[start].split("=", 1)[-1].strip()[1:] and self.lines[start].rstrip().endswith("]"):
            return start  # a one-line array: the item is on this line
        seen = -1
        for number in range(start + 1, end):
            stripped = self.lines[number].strip()
            if stripped.startswith(("{", '"', "[")) or (stripped and stripped[0].isdigit()):
                seen += 1
                if seen == index:
                    return number
            if stripped.startswith("]"):
                break
        return None


# ---- Loading --------------------------------------------------------------------------------------------
@functools.lru_cache(maxsize=None)
def _adapter(model: Any) -> TypeAdapter:
    """One validator per model for the life of the process (building one costs milliseconds)."""
    return TypeAdapter(model)


def load(path: str | Path) -> Database:
    """Read and validate a card database file.

    Returns a :class:`Database`. Raises :class:`DatabaseError` listing every problem found (syntax,
    unknown or missing keys, wrong types, duplicate ids, dangling references, tables that do not
    cover their rolls, bad hex maps, wrong deck sizes); an unreadable file is one problem too.
    """
    path = Path(path)
    name = path.name
    try:
        raw = path.read_bytes()
    except OSError as error:
        raise DatabaseError([Problem(name, 0, "file", f"cannot read: {error.strerror or error}")]) from None
    try:
        text = raw.decode("utf-8-sig")  # a byte-order mark (as some Windows editors write) is fine
    except UnicodeDecodeError as error:
        raise DatabaseError([Problem(name, 1, "file", f"not UTF-8 text ({error.reason} at byte {error.start})")]) from None
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        message = str(error)
        match = re.search(r"\(at line (\d+), column (\d+)\)", message)
        line = int(match.group(1)) if match else 1
        message = re.sub(r"\s*\(at line \d+, column \d+\)", "", message)
        raise DatabaseError([Problem(name, line, "syntax", f"{message}; fix the TOML syntax")]) from None

    index = _LineIndex(text)
    problems: list[Problem] = []

    def report(loc: tuple[Any, ...], message: str, line: int | None = None) -> None:
        problems.append(Problem(name, line or index.line_of(loc), _key_path(data, loc), message))

    if data.get("format") != FORMAT:
        report(("format",), f"format must be {FORMAT}, found {data.get('format')!r}")
        raise DatabaseError(problems)
    # Each section and each record is validated on its own, so one bad record does not hide the
    # problems of the others; cross checks then run over every record that is well formed.
    def validate(model: Any, value: Any, loc: tuple[Any, ...]) -> Any:
        try:
            # JSON mode keeps strict types (no "1" for 1) while accepting TOML arrays for tuples.
            return model.validate_json(json.dumps(value, default=str))
        except ValidationError as error:
            items = error.errors()
            locs = [loc + tuple(item["loc"]) for item in items]
            for item, where in zip(items, locs):
                if item["type"] == "too_short" and any(o[: len(where)] == where and o != where for o in locs):
                    continue  # the list is short only because one of its items failed: report the item
                report(where, _explain(item))
            return None

    sections: dict[str, Any] = {}
    for key in data:
        if key not in _File.model_fields:
            report((key,), f"unknown section; the file has {', '.join(sorted(_File.model_fields))}")
    for key, adapter in (("print", _adapter(PrintSettings)), ("games", _adapter(dict[Literal["solo", "duel"], Game]))):
        if key not in data:
            report((key,), "missing; this section is required")
        else:
            sections[key] = validate(adapter, data[key], (key,))
    broken_ids: set[str] = set()
    by_id: dict[str, Record] = {}
    locations: dict[str, tuple[Any, ...]] = {}
    for game_key, game_model in (("solo", Solo), ("duel", Duel)):
        raw_game = data.get(game_key)
        if not isinstance(raw_game, dict):
            report((game_key,), "missing; this section is required" if raw_game is None else f"must be a table of [{game_key}.*] blocks")
            continue
        fields: dict[str, Any] = {}
        for kind, value in raw_game.items():
            if kind not in game_model.model_fields:
                report((game_key, kind), f"unknown kind; {game_key} has {', '.join(sorted(game_model.model_fields))}")
                continue
            annotation = game_model.model_fields[kind].annotation
            if kind == "rules":
                fields[kind] = validate(_adapter(annotation), value, (game_key, kind))
                continue
            if not isinstance(value, list):
                report((game_key, kind), f"must be [[{game_key}.{kind}]] blocks")
                continue
            record_model = typing.get_args(annotation)[0]
            records = []
            for number, item in enumerate(value):
                record = validate(_adapter(record_model), item, (game_key, kind, number))
                if record is None:
                    if isinstance(item, dict) and isinstance(item.get("id"), str):
                        broken_ids.add(item["id"])
                    continue
                loc = (game_key, kind, number, "id")
                if record.id in by_id or record.id in broken_ids:
                    report(loc, f"duplicate id {record.id!r}; ids must be unique")
                    continue
                if record.game != game_key:
                    report(loc, f"id {record.id!r} must start with '{game_key}.'")
                by_id[record.id] = record
                locations[record.id] = (game_key, kind, number)
                records.append(record)
            fields[kind] = tuple(records)
        if "rules" not in raw_game:
            report((game_key, "rules"), f"missing; [{game_key}.rules] is required")
        sections[game_key] = None if any(v is None for v in fields.values()) or "rules" not in fields else game_model.model_construct(**fields)
    if any(sections.get(key) is None for key in ("print", "games", "solo", "duel")):
        raise DatabaseError(problems)
    parsed = _File.model_construct(format=FORMAT, **sections)

    content = json.dumps({key: value for key, value in data.items() if key != "print"}, sort_keys=True, default=str)
    database = Database(path, hashlib.sha256(content.encode("utf-8")).hexdigest(), parsed.print, dict(parsed.games), parsed.solo,
                        parsed.duel, by_id, locations, index)
    for loc, message in _cross_checks(database, locations, broken_ids, complete=not problems):
        line = None
        if len(loc) == 5 and loc[3] == "layout":  # a hex map row: the layout text starts on the next line
            line = index.line_of(loc[:4]) + int(str(loc[4]).split()[1])
            loc = loc[:4]
        report(loc, message, line)
    if problems:
        raise DatabaseError(problems)
    return database


def _key_path(data: dict[str, Any], loc: tuple[Any, ...]) -> str:
    """``loc`` as a dotted key path; inside a record the record's id replaces ``game.kind[n]``."""
    parts = list(loc)
    if len(parts) >= 3 and isinstance(parts[2], int):
        try:
            record_id = data[parts[0]][parts[1]][parts[2]]["id"]
        except (KeyError, IndexError, TypeError):
            record_id = None
        if isinstance(record_id, str):
            parts = [record_id] + parts[3:]
    text = ".".join(str(p) if not isinstance(p, int) else f"[{p}]" for p in parts).replace(".[", "[")
    return text or "file"


def _as_toml(value: Any) -> str:
    """``value`` as cards.toml spells it (``true``, ``"5"``, ``[1, 2]``), for "found ..." in a problem."""
    try:
        return tomli_w.dumps({"v": value}).strip()[len("v = "):]
    except (TypeError, ValueError):
        return repr(value)


def _explain(item: dict[str, Any]) -> str:
    kind = item["type"]
    if kind == "missing":
        return "missing; this field is required"
    if kind == "extra_forbidden":
        return "unknown key; check the spelling against the records of this kind"
    if kind == "string_pattern_mismatch" and item.get("ctx", {}).get("pattern") == r"\S":
        return "is blank; write the text the card prints"
    if kind == "literal_error":
        return f"is {item.get('input')!r}; {item['msg'].lower()}"
    found = _as_toml(item.get("input"))
    if len(found) > 60:
        found = found[:57] + "..."
    return f"{item['msg'].lower()} (found {found})"


NUMBER_WORDS = {1: "one", 2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven", 8: "eight",
                9: "nine", 10: "ten"}
"""How a table row's text may spell the amounts of its effect ("move the Grayking marker two spaces")."""


def _effect_amounts(effect: Effect) -> list[tuple[str, int]]:
    """The nonzero amounts of an effect as ``(key, size)``: numbers, not flags (``against.zhumbi`` for
    amounts by servant type). Signs are left out: the text says "lower" or "toward" in words."""
    amounts = []
    for key, value in effect.model_dump().items():
        if isinstance(value, bool) or not value:
            continue
        if isinstance(value, int):
            amounts.append((key, abs(value)))
        elif isinstance(value, dict):
            amounts.extend((f"{key}.{name}", abs(size)) for name, size in value.items() if size)
    return amounts


TRACK_WORDS = {
    "mana": ("mana", (r"\blower\b", r"\bloss\b", r"\blose\b", r"-\s*\d"), (r"\braise\b", r"\bgain\b", r"\+\s*\d")),
    "spirit": ("spirit", (r"\blower\b", r"\bloss\b", r"\blose\b", r"-\s*\d"), (r"\braise\b", r"\bgain\b", r"\+\s*\d")),
    "grayking": ("grayking", (r"\baway\b", r"\bback\b"), (r"\btoward\b", r"\bnearer\b")),
}
"""For the track keys of an effect: the word the printed text must name, and the words that say the
effect lowers (mana, spirit) or moves the Grayking away (negative amounts), or raises / moves him
toward Lassadar (positive). Rulebook, Battle Win and Battle Loss tables: "raise mana count by one",
"move the Grayking marker two spaces toward Lassadar"."""


def _text_and_effect_problems(row: "TableRow") -> list[str]:
    """Where a table row's printed text and its effect disagree: an amount the text does not state, a
    track (Mana, Spirit, the Grayking) the text does not name, or a direction the text does not say."""
    problems = []
    lowered = row.text.lower()
    for key, amount in _effect_amounts(row.effect):
        signed = getattr(row.effect, key, amount) if "." not in key else amount
        if not _text_names(row.text, amount):
            problems.append(f"the effect {key} = {signed} is not in the printed text {row.text!r} "
                            f"(as {amount} or {NUMBER_WORDS.get(amount, amount)!r})")
        if key in TRACK_WORDS:
            word, down, up = TRACK_WORDS[key]
            if word not in lowered:
                problems.append(f"the effect changes {key} ({key} = {signed}) but the printed text {row.text!r} "
                                f"does not name {word.capitalize() if word != 'grayking' else 'the Grayking'}")
            elif not any(re.search(pattern, lowered) for pattern in (down if signed < 0 else up)):
                says = ("lowers it" if signed < 0 else "raises it") if key != "grayking" else \
                    ("moves the Grayking away from Lassadar" if signed < 0 else "moves the Grayking toward Lassadar")
                problems.append(f"the effect {key} = {signed} {says}, but the printed text {row.text!r} does not say so")
    return problems


def _text_names(text: str, amount: int) -> bool:
    """True when ``text`` holds ``amount`` as digits (not inside a longer number) or as a word."""
    lowered = text.lower()
    return bool(re.search(rf"(?<!\d){amount}(?!\d)", lowered)) or NUMBER_WORDS.get(amount) in re.findall(r"[a-z]+", lowered)


def _cross_checks(db: Database, where: dict[str, tuple[Any, ...]], broken: set[str] = frozenset(),
                  complete: bool = True) -> Iterator[tuple[tuple[Any, ...], str]]:
    """Checks across records: references, coverage, deck sizes and maps. Yields ``(key path, message)``.

    ``broken`` are ids of records that failed their own validation (already reported): references to
    them are not reported again. Deck sizes are checked only when every record is ``complete``.
    """

    yield_list: list[tuple[tuple[Any, ...], str]] = []

    def refer(record: Record, key: str, target: str, kind: type, extra: tuple[Any, ...] = ()) -> bool:
        found = db._by_id.get(target)
        if found is None and target in broken:
            return False
        if found is None:
            yield_list.append((where[record.id] + (key,) + extra, f"refers to {target!r}, which is not in the database"))
            return False
        if not isinstance(found, kind):
            yield_list.append((where[record.id] + (key,) + extra, f"refers to {target!r}, a {found.kind}; expected a {kind.kind}"))
            return False
        return True

    for record in db.records():
        if record.back is not None:
            refer(record, "back", record.back, Back)
        elif isinstance(record, (Back,)) is False and record.kind in {"servant", "city_quest", "council_quest", "elder", "warding_city", "location"}:
            yield_list.append((where[record.id] + ("id",), f"a {record.kind} card is shuffled or dealt and needs a back"))

    # tables: coverage of rolls, and printed text that names the numbers its effect applies
    for table in db.tables():
        seen: dict[int, int] = {}
        for number, row in enumerate(table.rows):
            for problem in _text_and_effect_problems(row):
                yield_list.append((where[table.id] + ("rows", number, "text"), f"{problem}; make the text and the effect agree"))
        for number, row in enumerate(table.rows):
            for roll in row.roll:
                if roll in seen:
                    yield_list.append((where[table.id] + ("rows", number, "roll"), f"roll {roll} is already in rows[{seen[roll]}]; each roll reads one row"))
                seen[roll] = number
        wanted = ROLL_RANGES.get(table.dice)
        if wanted is not None:
            missing = [r for r in wanted if r not in seen]
            if missing:
                yield_list.append((where[table.id] + ("rows",), f"no row for {', '.join(map(str, missing))}; a {table.dice} table covers {wanted.start}-{wanted.stop - 1}"))
            for number, row in enumerate(table.rows):
                outside = [r for r in row.roll if r not in wanted]
                if outside:
                    yield_list.append((where[table.id] + ("rows", number, "roll"), f"roll {', '.join(map(str, outside))} is outside {wanted.start}-{wanted.stop - 1}"))
        elif table.dice == "position":
            for number, row in enumerate(table.rows):
                if any(not 2 <= r <= 12 for r in row.roll):
                    yield_list.append((where[table.id] + ("rows", number, "roll"), "spell positions run 2-12"))

    for card in db.solo.table_card + db.duel.table_card:
        refer(card, "table", card.table, Table)
    refer_rules = db.duel.rules.nomograph_table
    if refer_rules not in broken and refer_rules not in db._by_id or not isinstance(db._by_id[refer_rules], Table):
        yield_list.append((("duel", "rules", "nomograph_table"), f"refers to {refer_rules!r}, which is not a table in the database"))

    solo = db.solo
    # spells and paths
    for path_type in ("oaken", "flint", "ice"):
        cards = [p for p in solo.spell_path if p.spell_type == path_type]
        if len(cards) != 1:
            yield_list.append((("solo", "spell_path"), f"needs exactly one Spell Path card of type {path_type!r}, found {len(cards)}"))
        spells = [s for s in solo.spell if s.spell_type == path_type]
        positions: dict[int, str] = {}
        slots: dict[tuple[int, int], str] = {}
        for spell in spells:
            if spell.position in positions:
                yield_list.append((where[spell.id] + ("position",), f"position {spell.position} is already {positions[spell.position]!r}; positions are unique within a type"))
            positions[spell.position] = spell.id
            if spell.slot in slots:
                yield_list.append((where[spell.id] + ("slot",), f"slot {list(spell.slot)} is already {slots[spell.slot]!r}"))
            slots[spell.slot] = spell.id
    for spell in solo.spell:
        if spell.learnable and (spell.cost is None) == (spell.learn_cost is None):
            yield_list.append((where[spell.id] + ("cost",), "a learnable spell has either `cost` (per use) or `learn_cost` (once, in brackets), not both or neither"))
        if spell.slot[0] < 1 or spell.slot[1] < 1:
            yield_list.append((where[spell.id] + ("slot",), "slot is [row, column], both from 1"))
        for number, target in enumerate(spell.opens):
            if refer(spell, "opens", target, Spell, (number,)):
                other = db._by_id[target]
                assert isinstance(other, Spell)
                if other.spell_type != spell.spell_type:
                    yield_list.append((where[spell.id] + ("opens", number), f"{target!r} is a {other.spell_type} spell; paths stay within one type"))
                elif other.slot[0] <= spell.slot[0]:
                    yield_list.append((where[spell.id] + ("opens", number), f"{target!r} is not below this spell; path arrows point down the card"))

    # progress track
    for track in solo.progress_track:
        for level, space in track.start.items():
            if not 1 <= space < track.spaces:
                yield_list.append((where[track.id] + ("start", level), f"space {space} is not on the track 1-{track.spaces - 1}"))
        for number, place in enumerate(track.names):
            if place.space > track.spaces:
                yield_list.append((where[track.id] + ("names", number, "space"), f"space {place.space} is beyond the last space {track.spaces}"))
    if len(solo.progress_track) != 1:
        yield_list.append((("solo", "progress_track"), f"needs exactly one progress track, found {len(solo.progress_track)}"))

    # stats
    for stats in solo.stats:
        if not stats.track_low <= stats.track_start <= stats.track_high:
            yield_list.append((where[stats.id] + ("track_start",), f"{stats.track_start} is not on the track {stats.track_low}-{stats.track_high}"))
        numbers = sorted(k.key for k in stats.keys)
        if numbers != [1, 2, 3]:
            yield_list.append((where[stats.id] + ("keys",), f"keys must be 1, 2 and 3 once each, found {numbers}"))

    # servants and maps
    for servant in solo.servant:
        missing = {"red", "blue", "yellow"} - set(servant.hit_points)
        if missing:
            yield_list.append((where[servant.id] + ("hit_points",), f"no hit points for {', '.join(sorted(missing))}; give one per map colour"))
        for color, points in servant.hit_points.items():
            if points < 1:
                yield_list.append((where[servant.id] + ("hit_points", color), "hit points start at 1 or more"))
    servants = sum(s.copies for s in solo.servant)
    if complete and servants != solo.rules.servant_cards:
        yield_list.append((("solo", "rules", "servant_cards"), f"the rules say {solo.rules.servant_cards} servant cards, the database has {servants} (copies counted)"))
    types = {s.servant_type for s in solo.servant}
    keys_seen: dict[int, str] = {}
    for battle_map in solo.battle_map:
        if battle_map.key in keys_seen:
            yield_list.append((where[battle_map.id] + ("key",), f"key {battle_map.key} is already {keys_seen[battle_map.key]!r}"))
        keys_seen[battle_map.key] = battle_map.id
        if refer(battle_map, "eldritch_table", battle_map.eldritch_table, Table):
            table = db._by_id[battle_map.eldritch_table]
            assert isinstance(table, Table)
            if table.dice != "2d6":
                yield_list.append((where[battle_map.id] + ("eldritch_table",), f"{table.id!r} is a {table.dice} table; an Eldritch Damage table is rolled on 2d6"))
        if battle_map.servants > len(types):
            yield_list.append((where[battle_map.id] + ("servants",), f"{battle_map.servants} servants of different types, but the servant deck has {len(types)} types"))
        try:
            grid = hexes.parse_layout(battle_map.layout)
        except hexes.HexLayoutError as error:
            yield_list.append((where[battle_map.id] + ("layout", f"row {error.row + 1}"), f"{error}"))
        else:
            missing_numbers = [n for n in range(2, 13) if not grid.numbered(n)]
            if missing_numbers:
                yield_list.append((where[battle_map.id] + ("layout",), f"no hex numbered {', '.join(map(str, missing_numbers))}; every 2d6 roll 2-12 must name a hex"))
            for number in range(2, 13):
                doubled = grid.numbered(number)[1:]
                if doubled:
                    cell = doubled[0]
                    yield_list.append((where[battle_map.id] + ("layout", f"row {cell.row + 1}"),
                                       f"row {cell.row + 1}, column {cell.column + 1}: {number} is printed on {len(doubled) + 1} hexes; "
                                       f"a 2d6 roll of {number} must name one hex, so print it once"))
            widths = [len(line.split()) for line in battle_map.layout.strip("\n").splitlines()]
            usual = max(set(widths), key=lambda width: (widths.count(width), -width))
            for row, width in enumerate(widths):
                if width != usual:
                    yield_list.append((where[battle_map.id] + ("layout", f"row {row + 1}"),
                                       f"row {row + 1} has {width} hexes and gaps, the other rows {usual}; every row "
                                       f"lists the same number (use '-' for no hex)"))
                    break
    for city in solo.warding_city:
        if refer(city, "battle_map", city.battle_map, BattleMap):
            battle_map = db._by_id[city.battle_map]
            assert isinstance(battle_map, BattleMap)
            if battle_map.key != city.key:
                yield_list.append((where[city.id] + ("key",), f"key {city.key} but {city.battle_map!r} is the map of key {battle_map.key}"))
    quests = sum(q.copies for q in solo.quests)
    if complete and quests != solo.rules.quest_cards:
        yield_list.append((("solo", "rules", "quest_cards"), f"the rules say {solo.rules.quest_cards} quest cards, the database has {quests} (copies counted)"))

    # last stand
    for card in solo.last_stand:
        for number, space in enumerate(card.gray_spaces):
            if space not in card.hit_points:
                yield_list.append((where[card.id] + ("gray_spaces", number), f"{space} is not on the hit point track"))
    for card in solo.counter_card:
        if refer(card, "table", card.table, Table):
            table = db._by_id[card.table]
            assert isinstance(table, Table)
            for number, position in enumerate(card.positions):
                if not any(position in row.roll for row in table.rows):
                    yield_list.append((where[card.id] + ("positions", number), f"{table.id!r} has no counter at position {position}"))

    # duel
    duel = db.duel
    locations = sum(card.copies for card in duel.location)
    if complete and locations != duel.rules.locations:
        yield_list.append((("duel", "rules", "locations"), f"the rules say {duel.rules.locations} Location cards, the database has {locations} (copies counted)"))
    if duel.rules.track_marker_cubes + duel.rules.deployable_cubes != duel.rules.cubes_per_player:
        yield_list.append((("duel", "rules", "deployable_cubes"), "track_marker_cubes + deployable_cubes must equal cubes_per_player"))
    sides = sorted(p.side for p in duel.player)
    if complete and sides != ["shadowmajik", "wardens"]:
        yield_list.append((("duel", "player"), f"needs one Wardens and one Shadowmajik player card, found {sides}"))
    for card in duel.player:
        faces = sorted(s.face for s in card.spells)
        if faces != [1, 2, 3, 4, 5, 6]:
            yield_list.append((where[card.id] + ("spells",), f"needs one spell for each die face 1-6, found faces {faces}"))
    return iter(yield_list)
