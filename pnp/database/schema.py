"""The schema of ``cards.toml``: one frozen pydantic model per record kind, and the file's sections.

This module owns the shape of every record (which keys, which types, which ranges) and nothing else:
reading the file is :mod:`pnp.database.loader`, checks across records are :mod:`pnp.database.checks`.
Game numbers live in ``cards.toml``, not here. The rules the shapes follow come from the seeds: the
rulebook (``docs/seeds/001_14b82cefec9e9fa1.txt``) for the solo game and the publisher's description
(``000_13dfdf9d0b0f4cfb.txt``) for the two-player game.
"""
from __future__ import annotations

from typing import Annotated, ClassVar, Literal

from pydantic import BaseModel, ConfigDict, Field, StringConstraints, field_validator

from pnp import hexes

FORMAT = 1
"""The ``format`` number of ``cards.toml`` this code reads."""

# ---- Ranges ---------------------------------------------------------------------------------------------
# cards.toml is edited by hand and shared by fans, so nothing in it may make a build or the referee
# hang or exhaust memory: every number has a range, every text a length and every list a length, all
# far beyond what the games use (a test checks that the schema leaves none unbounded). Each range
# says why it is where it is; a value outside it is one line from `pnp check`.

TEXT_LIMIT = 2000
"""Characters in any text of the file: the longest text a card prints (a battle map's event) is about
400; a text far longer cannot fit on a card, and fitting it costs time that grows with its length."""
Text = Annotated[str, StringConstraints(pattern=r"\S", max_length=TEXT_LIMIT)]
"""A printed text: any string with at least one character that is not a space, at most :data:`TEXT_LIMIT`."""
Note = Annotated[str, StringConstraints(max_length=TEXT_LIMIT)]
"""A text that may be empty (a note, a servant's flavour text), at most :data:`TEXT_LIMIT` characters."""
Reference = Annotated[str, StringConstraints(max_length=100)]
"""The id of another record (at most 100 characters, as an id)."""
LIST_LIMIT = 100
"""Items in any list of a record (rows, names, spells, path arrows): the longest list of the games
(the Progress Track's place names, the Last Stand's hit points) holds about 20."""
Amount = Annotated[int, Field(ge=-99, le=99)]
"""A change of a track, a bonus or a number of dice or hit points (-99 to 99): the tracks of both
games run 0 to about 20, so 99 either way already empties or fills any of them."""
Small = Annotated[int, Field(ge=0, le=20)]
"""A count of dice, hexes or cards (0 to 20): the games roll at most 9 dice and move a few hexes;
the referee rolls and searches as many as this says, so it stays small."""
Number = Annotated[int, Field(ge=0, le=99)]
"""A space, a position, a cost or a count of cards (0 to 99): the longest track has 20 spaces."""
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


class _Model(BaseModel):
    """Every model of the file: unknown keys refused, frozen, strict types (no ``"1"`` for 1), no inf or nan."""

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
    against: dict[ServantType, Amount] = Field(default_factory=dict)
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
class PrintSettings(_Model):
    """Print geometry in mm: trim size of one card, bleed, safe area, papers, printer margin, crop marks,
    the extra bleed of backs (so a back shifted by a printer's misregistration shows no white edge) and
    the default duplex flip (``long``, ``short`` or ``none``). ``pnp build`` options override them."""

    card_width_mm: float = Field(ge=10, le=200)
    """10 to 200 mm: a card must fit on A4 or Letter (the templates give the one size they are drawn for)."""
    card_height_mm: float = Field(ge=10, le=200)
    """As ``card_width_mm``."""
    bleed_mm: float = Field(ge=0, le=10)
    """0 to 10 mm, as ``pnp build --bleed``: print shops ask for 2 to 5 mm."""
    safe_mm: float = Field(ge=0, le=10)
    """0 to 10 mm, as ``pnp build --safe``."""
    papers: tuple[Literal["a4", "letter"], ...] = Field(min_length=1, max_length=2)
    """The papers to impose sheets for, each once (a paper named twice would write its PDFs twice)."""

    @field_validator("papers")
    @classmethod
    def _papers_once(cls, papers: tuple[str, ...]) -> tuple[str, ...]:
        if len(set(papers)) != len(papers):
            raise ValueError("name each paper once")
        return papers

    printer_margin_mm: float = Field(ge=0, le=20)
    """0 to 20 mm, as ``pnp build --printer-margin``: home printers leave 3 to 7 mm."""
    crop_mark_mm: float = Field(gt=0, le=20)
    """Up to 20 mm: longer marks leave no room for cards on the sheet."""
    back_extra_bleed_mm: float = Field(default=2.0, ge=0, le=10)
    """0 to 10 mm, the shift a printer's misregistration may give a back."""
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
    id: str = Field(pattern=r"^[a-z0-9]+(\.[a-z0-9-]+)+$", max_length=100)
    """Lower-case letters, digits, ``-`` and dots, at most 100 characters: an id names the card's SVG
    file, so it can hold no ``/``, ``..`` or NUL that would lead outside ``svg/``."""
    origin: Origin
    note: Note = ""
    copies: int = Field(default=1, ge=1, le=MAX_COPIES)
    """1 to :data:`MAX_COPIES`."""
    back: Reference | None = None

    @property
    def game(self) -> str:
        """The game key (``solo`` or ``duel``), the first part of the id."""
        return self.id.split(".", 1)[0]


class TableRow(_Model):
    """One row of a rules table: the rolls that read it, an optional name, its printed text and effect."""

    roll: tuple[Number, ...] = Field(min_length=1, max_length=13)
    """The rolls that read the row: 13 at most, as a 2d6 or difference table has 11 rolls."""
    name: Note = ""
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
    rows: tuple[TableRow, ...] = Field(min_length=1, max_length=LIST_LIMIT)

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
    color: str = Field(pattern=r"^#[0-9a-f]{6}$", max_length=7)


class TableCard(Record):
    """A card that prints one rules table (Battle Win, Battle Loss, nomograph)."""

    kind: ClassVar[str] = "table_card"
    title: Text
    table: Reference
    icon: Reference
    """The name of an icon of ``templates/icons`` (``win``), not a path: checked by ``check_icons``."""


# ---- Solo game -----------------------------------------------------------------------------------------
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
    track_low: Amount
    track_high: Amount
    track_start: Amount
    track_columns: Annotated[Small, Field(ge=1)]
    keys: tuple[WardingKey, ...] = Field(min_length=3, max_length=3)


class SpellPath(Record):
    """A Spell Path card: every spell of one type with the arrows between them."""

    kind: ClassVar[str] = "spell_path"
    title: Text
    spell_type: SpellType
    summary: Text


class Cost(_Model):
    """A cost in Mana or Spirit (positive numbers are paid)."""

    mana: Number = 0
    spirit: Number = 0


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
    slot: tuple[Amount, Amount]
    cost: Cost | None = None
    learn_cost: Cost | None = None
    learnable: bool = True
    text: Text
    effect: Effect = Field(default_factory=Effect)
    extra_dice: Small = 0
    opens: tuple[Reference, ...] = Field(default=(), max_length=LIST_LIMIT)


class PlaceName(_Model):
    """A named space on the Grayking's Progress Track."""

    space: Annotated[Number, Field(ge=1)]
    name: Text


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
    names: tuple[PlaceName, ...] = Field(max_length=LIST_LIMIT)


class Servant(Record):
    """A servant card: hit points per map colour, range in hexes, damage to Spirit or Mana (rulebook, Setup)."""

    kind: ClassVar[str] = "servant"
    name: Text
    servant_type: ServantType
    hit_points: dict[MapColor, Amount]
    range: Annotated[Small, Field(ge=1)]
    damage: Annotated[Small, Field(ge=1)]
    damage_to: Track
    text: Note = ""


class BattleMap(Record):
    """An Expanded Battle Map over ``cards`` cards: hex layout, key, colour, servant count, Eldritch table."""

    kind: ClassVar[str] = "battle_map"
    title: Text
    key: int = Field(ge=1, le=3)
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


class QuestCard(Record):
    """Fields of every quest card: name, Battle Win (white cross), Battle Loss (black circle), next card value."""

    name: Text
    win: int = Field(ge=1, le=6)
    loss: int = Field(ge=1, le=6)
    next_value: Number
    text: Text


class CityBattle(_Model):
    """The event of a City Quest battle: foe type, modifiers, costs before and extras after."""

    foe: ServantType | None = None
    attack_total: Amount = 0
    servant_dice: Amount = 0
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
    battle_map: Reference


class LastStand(Record):
    """The Last Stand card: its text, the Grayking's hit point track and gray spaces (rulebook, Last Stand)."""

    kind: ClassVar[str] = "last_stand"
    title: Text
    text: tuple[Note, ...] = Field(max_length=LIST_LIMIT)
    hit_points: tuple[Number, ...] = Field(max_length=LIST_LIMIT)
    gray_spaces: tuple[Number, ...] = Field(max_length=LIST_LIMIT)
    player_hit_spirit: Amount
    grayking_extra_dice: Small


class CounterCard(Record):
    """A Last Stand spell counter card: the rows of a counter table at ``positions``, which answer the
    spells of ``spell_type`` at those positions (rulebook, Spell counter cards: Flint and Ice counters)."""

    kind: ClassVar[str] = "counter_card"
    title: Text
    spell_type: SpellType
    table: Reference
    positions: tuple[Amount, ...] = Field(min_length=1, max_length=LIST_LIMIT)


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


class Location(Record):
    """A Location card: name (read from the Wardens' side), Resonance icons, a cube track per side."""

    kind: ClassVar[str] = "location"
    name: Text
    resonance: tuple[Resonance, ...] = Field(min_length=1, max_length=4)
    track_spaces: int = Field(ge=1, le=8)
    text: Note = ""


class DuelSpell(_Model):
    """A player-card spell for one die face: name, cost in points, optional Resonance icon, effect."""

    face: int = Field(ge=1, le=6)
    name: Text
    cost: Number
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
    sections: tuple[SummarySection, ...] = Field(min_length=1, max_length=LIST_LIMIT)


class Duel(_Model):
    """Every record of *Ruin & Renewal I*, by kind, in file order."""

    rules: DuelRules
    back: tuple[Back, ...] = ()
    location: tuple[Location, ...] = ()
    player: tuple[PlayerCard, ...] = ()
    table: tuple[Table, ...] = ()
    table_card: tuple[TableCard, ...] = ()
    summary: tuple[Summary, ...] = ()


class CardsFile(_Model):
    """The whole of ``cards.toml``: its ``format`` number, ``[print]``, ``[games]`` and the two games."""

    format: int
    print: PrintSettings
    games: dict[Literal["solo", "duel"], Game]
    solo: Solo
    duel: Duel
