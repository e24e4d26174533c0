"""The schema of ``cards.toml``: one frozen dataclass per record kind, and the file's sections.

This module owns the shape of every record (which keys, which types, which ranges) and nothing else:
reading the file is :mod:`pnp.database.loader`, checks across records are :mod:`pnp.database.checks`.
Game numbers live in ``cards.toml``, not here. The rules the shapes follow come from the seeds: the
rulebook (``docs/seeds/001_14b82cefec9e9fa1.txt``) for the solo game and the publisher's description
(``000_13dfdf9d0b0f4cfb.txt``) for the two-player game.

The records are plain frozen dataclasses, so a database read from the cache (every referee command)
needs neither pydantic nor the building of its validators. Their annotations carry the ranges as
pydantic reads them (``Annotated[int, Field(ge=1, le=3)]``, ``Text``, ``Amount``); pydantic
validates the file against them in :mod:`pnp.database.constraints`, which gives these annotations
their meaning, imported only when a file is checked.
"""
from __future__ import annotations

from dataclasses import field
from typing import TYPE_CHECKING, Annotated, Any, ClassVar, Literal

from pnp import hexes
from pnp.deferred import dataclass

if TYPE_CHECKING:  # the annotations' constraints; at run time pnp.database.constraints gives them
    from pydantic import AfterValidator, Field

    from pnp.database.constraints import Amount, Colour, Note, Number, PrintedNote, Reference, Small, Text

FORMAT = 1
"""The ``format`` number of ``cards.toml`` this code reads."""

# ---- Ranges ---------------------------------------------------------------------------------------------
# cards.toml is edited by hand and shared by fans, so nothing in it may make a build or the referee
# hang or exhaust memory: every number has a range, every text a length and every list a length, all
# far beyond what the games use (a test checks that the schema leaves none unbounded). Each range
# says why it is where it is; a value outside it is one line from `pnp check`. The text and number
# types (Text, PrintedNote, Note, Reference, Amount, Small, Number) are defined in pnp.database.constraints.

TEXT_LIMIT = 2000
"""Characters in any text of the file: the longest text a card prints (a battle map's event) is about
400; a text far longer cannot fit on a card, and fitting it costs time that grows with its length."""
ID_PATTERN = r"^[a-z0-9]+(\.[a-z0-9-]+)+$"
"""A record's id: lower-case letters, digits and ``-``, in two or more parts joined by dots (``duel.location.rift-of-sael``)."""
LIST_LIMIT = 100
"""Items in any list of a record (rows, names, spells, path arrows): the longest list of the games
(the Progress Track's place names, the Last Stand's hit points) holds about 20."""
COLOUR_PATTERN = r"^#[0-9a-fA-F]{6}$"
"""A colour as written in the file: ``#rrggbb`` in either case (a colour picker's ``#3B2A1A``); kept in lower case."""
MAX_COPIES = 100
"""Copies of one card: the largest deck of either game has 22 cards; every copy is drawn on the sheets."""

Origin = Literal["rulebook", "public", "authored"]
SpellType = Literal["oaken", "flint", "ice"]
ServantType = Literal["ghast", "zhumbi", "ymp"]
MapColor = Literal["red", "blue", "yellow"]
Track = Literal["mana", "spirit"]
Resonance = Literal["ember", "tide", "stone", "gale"]
Side = Literal["wardens", "shadowmajik"]
DiceKind = Literal["d6", "2d6", "position", "difference"]

ROLL_RANGES: dict[str, range] = {"d6": range(1, 7), "2d6": range(2, 13), "difference": range(0, 11)}
"""Rolls a table of each ``dice`` kind must cover exactly once ("position" tables need not cover)."""


@dataclass(frozen=True, kw_only=True)
class _Model:
    """Every record and section of the file: frozen, its fields given by name. Validated by pydantic
    (:mod:`pnp.database.constraints`) with unknown keys refused, strict types (no ``"1"`` for 1) and no
    inf or nan."""

    __pydantic_config__: ClassVar[dict[str, Any]] = {"extra": "forbid", "strict": True, "allow_inf_nan": False}


def _papers_once(papers: tuple[str, ...]) -> tuple[str, ...]:
    """``papers`` when each paper is named once; raises ``ValueError`` (a paper named twice would write its PDFs twice)."""
    if len(set(papers)) != len(papers):
        raise ValueError("name each paper once")
    return papers


# ---- Effects ------------------------------------------------------------------------------------------
@dataclass(frozen=True, kw_only=True)
class Effect(_Model):
    """What a table row, spell, Elder, Warding Key or quest card does, as the referee applies it.

    Every field is optional; an empty effect does nothing. Signs: positive ``mana``/``spirit`` raise a
    track; positive ``grayking`` moves the Grayking marker toward Lassadar (rulebook, Battle Loss
    table), negative away (Battle Win table). Wound counts (``active_servant``, ``all_servants``) are
    hit points taken from servants (rulebook, Expanded Battles, Eldritch Damage tables).
    """

    # tracks and the Grayking (Battle Win / Battle Loss / Eldritch tables, Warding Keys, Ice spells)
    mana: Amount = 0
    spirit: Amount = 0
    grayking: Amount = 0
    mana_per_next: Amount = 0
    spirit_per_next: Amount = 0
    grayking_per_two_spirit: Amount = 0
    learn_spell: Amount | None = None
    learn_spells: Amount = 0
    # battles (Flint spells, Elders, quest events)
    attack_total: Amount = 0
    free_dice: Amount = 0
    against: dict[ServantType, Amount] = field(default_factory=dict)
    remove_servant_die: Amount = 0
    reroll_own: bool = False
    reroll_servants: bool = False
    reroll_table: bool = False
    recharge: bool = False
    # Battle Loss softening (Oaken spells)
    loss_rows: Amount = 0
    cancel_loss: bool = False
    grayking_less: Amount = 0
    cancel_event: bool = False
    barrier_lock: bool = False
    # Expanded Battles (Eldritch Damage)
    active_servant: Amount = 0
    all_servants: Amount = 0
    slay_active: bool = False
    # Last Stand counters
    reroll_grayking_at_most: Amount = 0
    remove_own_at_most: Amount = 0
    raise_grayking_at_most: Amount = 0
    forget_spell: bool = False
    # Ruin & Renewal I
    battle: Amount = 0
    opponent_battle: Amount = 0
    reroll_battle_die: Amount = 0
    opponent_reroll_highest: Amount = 0
    push_back: Amount = 0
    extra_spaces: Amount = 0
    spaces: Amount = 0


# ---- Shared pieces -------------------------------------------------------------------------------------
CARD_SIZE_MM = (10.0, 200.0)
"""The least and the largest card width or height (mm) of ``[print]`` (and of ``templates/base.toml``'s card size,
which must be the same): a card must fit on A4 or Letter."""


@dataclass(frozen=True, kw_only=True)
class PrintSettings(_Model):
    """Print geometry in mm: trim size of one card, bleed, safe area, papers, printer margin, crop marks,
    the extra bleed of backs (so a back shifted by a printer's misregistration shows no white edge) and
    the default duplex flip (``long``, ``short`` or ``none``). ``pnp build`` options override them."""

    card_width_mm: Annotated[float, Field(ge=CARD_SIZE_MM[0], le=CARD_SIZE_MM[1])]
    """10 to 200 mm: a card must fit on A4 or Letter (the templates give the one size they are drawn for)."""
    card_height_mm: Annotated[float, Field(ge=CARD_SIZE_MM[0], le=CARD_SIZE_MM[1])]
    """As ``card_width_mm``."""
    bleed_mm: Annotated[float, Field(ge=0, le=10)]
    """0 to 10 mm, as ``pnp build --bleed``: print shops ask for 2 to 5 mm."""
    safe_mm: Annotated[float, Field(ge=0, le=10)]
    """0 to 10 mm, as ``pnp build --safe``."""
    papers: Annotated[tuple[Literal["a4", "letter"], ...], Field(min_length=1, max_length=2), AfterValidator(_papers_once)]
    """The papers to impose sheets for, each once (a paper named twice would write its PDFs twice)."""

    printer_margin_mm: Annotated[float, Field(ge=0, le=20)]
    """0 to 20 mm, as ``pnp build --printer-margin``: home printers leave 3 to 7 mm."""
    crop_mark_mm: Annotated[float, Field(gt=0, le=20)]
    """Up to 20 mm: longer marks leave no room for cards on the sheet."""
    back_extra_bleed_mm: Annotated[float, Field(ge=0, le=10)] = 2.0
    """0 to 10 mm, the shift a printer's misregistration may give a back."""
    duplex: Literal["long", "short", "none"] = "long"


@dataclass(frozen=True, kw_only=True)
class Game(_Model):
    """A game's title and player count."""

    title: Text
    players: Text
    origin: Origin


@dataclass(frozen=True, kw_only=True)
class Record(_Model):
    """Fields every record has: a stable ``id``, its ``origin``, an optional ``note``, ``copies`` and ``back``.

    ``kind`` (class attribute) is the record's component kind, the name of its ``[[game.kind]]`` block.
    """

    kind: ClassVar[str] = ""
    printed: ClassVar[bool] = True
    id: Annotated[str, Field(pattern=ID_PATTERN, max_length=100)]
    """Lower-case letters, digits, ``-`` and dots, at most 100 characters: an id names the card's SVG
    file, so it can hold no ``/``, ``..`` or NUL that would lead outside ``svg/``."""
    origin: Origin
    note: Note = ""
    copies: Annotated[int, Field(ge=1, le=MAX_COPIES)] = 1
    """1 to :data:`MAX_COPIES`."""
    back: Reference | None = None

    @property
    def game(self) -> str:
        """The game key (``solo`` or ``duel``), the first part of the id."""
        return self.id.split(".", 1)[0]


@dataclass(frozen=True, kw_only=True)
class TableRow(_Model):
    """One row of a rules table: the rolls that read it, an optional name, its printed text and effect."""

    roll: Annotated[tuple[Number, ...], Field(min_length=1, max_length=13)]
    """The rolls that read the row: 13 at most, as a 2d6 or difference table has 11 rolls."""
    name: PrintedNote = ""
    text: Text
    effect: Effect


@dataclass(frozen=True, kw_only=True)
class Table(Record):
    """A rules table (Battle Win, Battle Loss, Eldritch Damage, spell counters, nomograph).

    ``dice`` is what a row is looked up by: ``d6`` (rows cover 1-6 once), ``2d6`` (2-12 once),
    ``position`` (a spell position; partial), ``difference`` (0-10 once; larger reads the last row).
    """

    kind: ClassVar[str] = "table"
    printed: ClassVar[bool] = False
    title: Text
    dice: DiceKind
    rows: Annotated[tuple[TableRow, ...], Field(min_length=1, max_length=LIST_LIMIT)]

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


@dataclass(frozen=True, kw_only=True)
class Back(Record):
    """A card back for a deck that is shuffled or dealt."""

    kind: ClassVar[str] = "back"
    title: Text
    subtitle: Text
    color: Colour


@dataclass(frozen=True, kw_only=True)
class TableCard(Record):
    """A card that prints one rules table (Battle Win, Battle Loss, nomograph)."""

    kind: ClassVar[str] = "table_card"
    title: Text
    table: Reference
    icon: Reference
    """The name of an icon of ``templates/icons`` (``win``), not a path: checked by ``check_icons``."""


# ---- Solo game -----------------------------------------------------------------------------------------
@dataclass(frozen=True, kw_only=True)
class SoloRules(_Model):
    """Numbers of the solo rules that are not on a card (rulebook, Setup, Play and Expanded Battles)."""

    origin: Origin
    attack_dice: Annotated[Small, Field(ge=1)]
    servant_extra_dice: Small
    elder_uses: Annotated[Small, Field(ge=1)]
    retreat_spirit: Amount
    warden_move_hexes: Small
    servant_move_hexes: Small
    warden_attack_range: Annotated[Small, Field(ge=1)]
    eldritch_range: Small
    warden_hit_damage: Annotated[Small, Field(ge=1)]
    quest_cards: Annotated[Number, Field(ge=1)]
    servant_cards: Annotated[Number, Field(ge=1)]


@dataclass(frozen=True, kw_only=True)
class WardingKey(_Model):
    """A Warding Key on the Character Stats card with its one-time bonus."""

    key: Annotated[int, Field(ge=1, le=3)]
    color: MapColor
    text: Text
    effect: Effect


@dataclass(frozen=True, kw_only=True)
class Stats(Record):
    """The Character Stats card: Mana and Spirit tracks and the Warding Keys (rulebook, Setup)."""

    kind: ClassVar[str] = "stats"
    title: Text
    track_low: Amount
    track_high: Amount
    track_start: Amount
    track_columns: Annotated[Small, Field(ge=1)]
    keys: Annotated[tuple[WardingKey, ...], Field(min_length=3, max_length=3)]


@dataclass(frozen=True, kw_only=True)
class SpellPath(Record):
    """A Spell Path card: every spell of one type with the arrows between them."""

    kind: ClassVar[str] = "spell_path"
    title: Text
    spell_type: SpellType
    summary: Text


@dataclass(frozen=True, kw_only=True)
class Cost(_Model):
    """A cost in Mana or Spirit (positive numbers are paid)."""

    mana: Number = 0
    spirit: Number = 0


@dataclass(frozen=True, kw_only=True)
class Spell(Record):
    """A spell on a Spell Path card (rulebook, Setup: types, costs, paths; Last Stand: positions).

    ``cost`` is paid on each use, ``learn_cost`` (printed in brackets) once when learned;
    ``extra_dice`` join every attack roll once learned; ``opens`` are the path arrows.
    """

    kind: ClassVar[str] = "spell"
    printed: ClassVar[bool] = False
    name: Text
    spell_type: SpellType
    position: Annotated[int, Field(ge=2, le=12)]
    slot: tuple[Amount, Amount]
    cost: Cost | None = None
    learn_cost: Cost | None = None
    learnable: bool = True
    text: Text
    effect: Effect = field(default_factory=Effect)
    extra_dice: Small = 0
    opens: Annotated[tuple[Reference, ...], Field(max_length=LIST_LIMIT)] = ()


@dataclass(frozen=True, kw_only=True)
class PlaceName(_Model):
    """A named space on the Grayking's Progress Track."""

    space: Annotated[Number, Field(ge=1)]
    name: Text


@dataclass(frozen=True, kw_only=True)
class ProgressTrack(Record):
    """The Grayking's Progress Track, printed across ``cards`` cards (rulebook, Setup).

    Space 1 is the Tower of Ash, space ``spaces`` is Lassadar; ``start`` maps difficulty to space.
    """

    kind: ClassVar[str] = "progress_track"
    title: Text
    cards: Annotated[Small, Field(ge=1)]
    spaces: Annotated[Number, Field(ge=2)]
    """2 to 99 spaces: the track is drawn space by space across ``cards`` cards."""
    start: dict[Literal["beginner", "normal", "advanced"], Number]
    names: Annotated[tuple[PlaceName, ...], Field(max_length=LIST_LIMIT)]


@dataclass(frozen=True, kw_only=True)
class Servant(Record):
    """A servant card: hit points per map colour, range in hexes, damage to Spirit or Mana (rulebook, Setup)."""

    kind: ClassVar[str] = "servant"
    name: Text
    servant_type: ServantType
    hit_points: dict[MapColor, Amount]
    range: Annotated[Small, Field(ge=1)]
    damage: Annotated[Small, Field(ge=1)]
    damage_to: Track
    text: PrintedNote = ""


@dataclass(frozen=True, kw_only=True)
class BattleMap(Record):
    """An Expanded Battle Map over ``cards`` cards: hex layout, key, colour, servant count, Eldritch table."""

    kind: ClassVar[str] = "battle_map"
    title: Text
    key: Annotated[int, Field(ge=1, le=3)]
    color: MapColor
    cards: Annotated[Small, Field(ge=1)]
    servants: Annotated[Small, Field(ge=1)]
    eldritch_table: Reference
    event: Text
    layout: Note

    @property
    def hex_map(self) -> hexes.HexMap:
        """The parsed hex grid (validated on load, so this does not raise for a loaded database)."""
        return hexes.parse_layout(self.layout)


@dataclass(frozen=True, kw_only=True)
class QuestCard(Record):
    """Fields of every quest card: name, Battle Win (white cross), Battle Loss (black circle), next card value."""

    name: Text
    win: Annotated[int, Field(ge=1, le=6)]
    loss: Annotated[int, Field(ge=1, le=6)]
    next_value: Number
    text: Text


@dataclass(frozen=True, kw_only=True)
class CityBattle(_Model):
    """The event of a City Quest battle: foe type, modifiers, costs before and extras after."""

    foe: ServantType | None = None
    attack_total: Amount = 0
    servant_dice: Amount = 0
    before: Effect | None = None
    win_extra: Effect | None = None
    loss_extra: Effect | None = None


@dataclass(frozen=True, kw_only=True)
class CityQuest(QuestCard):
    """A City Quest card (black border): a simple battle (rulebook, Play)."""

    kind: ClassVar[str] = "city_quest"
    battle: CityBattle = field(default_factory=CityBattle)


@dataclass(frozen=True, kw_only=True)
class CouncilQuest(QuestCard):
    """A Council of Wardens card (white border): learn spells, gain Mana, cleanse Spirit (rulebook, Play)."""

    kind: ClassVar[str] = "council_quest"
    council: Effect


@dataclass(frozen=True, kw_only=True)
class Elder(QuestCard):
    """An Elders card (brown border): an ally with three uses, at most one per battle (rulebook, Play)."""

    kind: ClassVar[str] = "elder"
    aid: Effect


@dataclass(frozen=True, kw_only=True)
class WardingCity(QuestCard):
    """A Warding City card: coloured band and Warding Key number; fought on its map (rulebook, Expanded Battles)."""

    kind: ClassVar[str] = "warding_city"
    key: Annotated[int, Field(ge=1, le=3)]
    battle_map: Reference


@dataclass(frozen=True, kw_only=True)
class LastStand(Record):
    """The Last Stand card: its text, the Grayking's hit point track and gray spaces (rulebook, Last Stand)."""

    kind: ClassVar[str] = "last_stand"
    title: Text
    text: Annotated[tuple[PrintedNote, ...], Field(max_length=LIST_LIMIT)]
    hit_points: Annotated[tuple[Number, ...], Field(max_length=LIST_LIMIT)]
    gray_spaces: Annotated[tuple[Number, ...], Field(max_length=LIST_LIMIT)]
    player_hit_spirit: Amount
    grayking_extra_dice: Small


@dataclass(frozen=True, kw_only=True)
class CounterCard(Record):
    """A Last Stand spell counter card: the rows of a counter table at ``positions``, which answer the
    spells of ``spell_type`` at those positions (rulebook, Spell counter cards: Flint and Ice counters)."""

    kind: ClassVar[str] = "counter_card"
    title: Text
    spell_type: SpellType
    table: Reference
    positions: Annotated[tuple[Amount, ...], Field(min_length=1, max_length=LIST_LIMIT)]


@dataclass(frozen=True, kw_only=True)
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
@dataclass(frozen=True, kw_only=True)
class DuelRules(_Model):
    """Numbers of *Ruin & Renewal I* from the publisher's description (Setup, Play, Game End)."""

    origin: Origin
    note: Note = ""
    locations: Annotated[Small, Field(ge=1)]
    locations_dealt: Annotated[Small, Field(ge=1)]
    dice_per_player: Annotated[Small, Field(ge=1)]
    battle_dice: Annotated[Small, Field(ge=1)]
    power_die_divisor: Annotated[Small, Field(ge=1)]
    points_max: Annotated[Number, Field(ge=1)]
    points_min: Number
    casting_reach_below: Number
    resonance_discount: Number
    cubes_per_player: Annotated[Number, Field(ge=1)]
    track_marker_cubes: Number
    deployable_cubes: Annotated[Number, Field(ge=1)]
    locations_to_win: Annotated[Small, Field(ge=1)]
    nomograph_table: Reference


@dataclass(frozen=True, kw_only=True)
class Location(Record):
    """A Location card: name (read from the Wardens' side), Resonance icons, a cube track per side."""

    kind: ClassVar[str] = "location"
    name: Text
    resonance: Annotated[tuple[Resonance, ...], Field(min_length=1, max_length=4)]
    track_spaces: Annotated[int, Field(ge=1, le=8)]
    text: PrintedNote = ""


@dataclass(frozen=True, kw_only=True)
class DuelSpell(_Model):
    """A player-card spell for one die face: name, cost in points, optional Resonance icon, effect."""

    face: Annotated[int, Field(ge=1, le=6)]
    name: Text
    cost: Number
    resonance: Resonance | None = None
    text: Text
    effect: Effect


@dataclass(frozen=True, kw_only=True)
class PlayerCard(Record):
    """A player card (Wardens or Shadowmajik): six die-face spells and the 0-6 point track."""

    kind: ClassVar[str] = "player"
    side: Side
    title: Text
    points: Literal["MP", "SP"]
    points_name: Text
    spells: Annotated[tuple[DuelSpell, ...], Field(min_length=6, max_length=6)]


@dataclass(frozen=True, kw_only=True)
class SummarySection(_Model):
    """One headed paragraph of a rules summary card."""

    heading: Text
    text: Text


@dataclass(frozen=True, kw_only=True)
class Summary(Record):
    """A rules summary card."""

    kind: ClassVar[str] = "summary"
    title: Text
    sections: Annotated[tuple[SummarySection, ...], Field(min_length=1, max_length=LIST_LIMIT)]


@dataclass(frozen=True, kw_only=True)
class Duel(_Model):
    """Every record of *Ruin & Renewal I*, by kind, in file order."""

    rules: DuelRules
    back: tuple[Back, ...] = ()
    location: tuple[Location, ...] = ()
    player: tuple[PlayerCard, ...] = ()
    table: tuple[Table, ...] = ()
    table_card: tuple[TableCard, ...] = ()
    summary: tuple[Summary, ...] = ()


@dataclass(frozen=True, kw_only=True)
class CardsFile(_Model):
    """The whole of ``cards.toml``: its ``format`` number, ``[print]``, ``[games]`` and the two games."""

    format: int
    print: PrintSettings
    games: dict[Literal["solo", "duel"], Game]
    solo: Solo
    duel: Duel
