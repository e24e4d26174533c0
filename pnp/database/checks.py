"""The checks across records of ``cards.toml``: references, table coverage, deck sizes and hex maps.

Each check is one small function of a :class:`CheckContext` that reports ``(key path, message)``
pairs; :data:`CROSS_CHECKS` lists them in the order :func:`run` runs them. Each check's docstring says
what it checks and where the rule comes from: the rulebook of *The Grayking is Risen*
(``docs/seeds/001_14b82cefec9e9fa1.txt``), the publisher's description of *Ruin & Renewal I*
(``docs/seeds/000_13dfdf9d0b0f4cfb.txt``), or the database's own conventions (shared/DESIGN.md, "The
card database"). The checks of one record on its own are the schema's (:mod:`pnp.database.schema`).

A key path is a tuple of TOML keys and array indexes, as pydantic reports them, for example
``("solo", "spell", 4, "opens", 0)``; the loader turns it into a line and a dotted key.
"""
from __future__ import annotations

import dataclasses
import difflib
import re
import unicodedata
from collections.abc import Callable, Set
from dataclasses import field
from typing import TYPE_CHECKING, Any, TypeVar

from pnp import hexes, resources
from pnp.database.schema import ROLL_RANGES, Back, BattleMap, Effect, Record, Spell, Table, TableCard, TableRow
from pnp.deferred import dataclass
from pnp.oneline import listed, quoted, slug

if TYPE_CHECKING:
    from pnp.database.loaded import Database

KeyPath = tuple[Any, ...]
"""Where a problem is: TOML keys and array indexes from the top of the file."""

Found = TypeVar("Found", bound=Record)

SHUFFLED_KINDS = frozenset({"servant", "city_quest", "council_quest", "elder", "warding_city", "location"})
DECKS = {"city_quest": "quest", "council_quest": "quest", "elder": "quest", "warding_city": "quest", "servant": "servant",
         "location": "location"}
"""The deck each shuffled or dealt kind belongs to (rulebook, Setup: the Quest draw pile of City Quests,
Councils, Elders and Warding Cities; the Servant draw pile; description: the Locations dealt). The cards of
one deck share one back, so that no card of it can be told from the others face down."""
"""Kinds of card that are shuffled or dealt face down, so they need a back (rulebook, Setup: the
servant and quest draw piles; publisher's description, Setup: the Locations are dealt)."""

NUMBER_WORDS = {1: "one", 2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven", 8: "eight",
                9: "nine", 10: "ten"}
"""How a table row's text may spell the amounts of its effect ("move the Grayking marker two spaces")."""

TRACK_WORDS = {
    "mana": ("mana", (r"\blower\b", r"\bloss\b", r"\blose\b", r"-\s*\d"), (r"\braise\b", r"\bgain\b", r"\+\s*\d")),
    "spirit": ("spirit", (r"\blower\b", r"\bloss\b", r"\blose\b", r"-\s*\d"), (r"\braise\b", r"\bgain\b", r"\+\s*\d")),
    "grayking": ("grayking", (r"\baway\b", r"\bback\b"), (r"\btoward\b", r"\bnearer\b")),
}
"""For the track keys of an effect: the word the printed text must name, and the words that say the
effect lowers (mana, spirit) or moves the Grayking away (negative amounts), or raises / moves him
toward Lassadar (positive). Rulebook, Battle Win and Battle Loss tables: "raise mana count by one",
"move the Grayking marker two spaces toward Lassadar"."""


@dataclass
class CheckContext:
    """What the checks read and where they report.

    ``database`` is the loaded database (every record that passed its own validation); ``where``
    maps each record id to its key path ``(game, kind, index)``; ``broken`` holds the ids of records
    that failed their own validation (already reported: references to them are not reported again);
    deck sizes are checked only when every record is ``complete``. ``found`` collects the
    ``(key path, message)`` pairs in the order they are reported; ``missing`` maps each id named but
    not in the database to the place in ``found`` of its one report, the kind expected and the ids of
    every record naming it (:meth:`refer`, :meth:`say_missing`).
    """

    database: Database
    where: dict[str, KeyPath]
    broken: Set[str] = frozenset()
    complete: bool = True
    found: list[tuple[KeyPath, str]] = field(default_factory=list)
    missing: dict[str, tuple[int, type[Record], list[str]]] = field(default_factory=dict)
    fitting: dict[str, str] = field(default_factory=dict)
    """For a missing id named where a rules table of one use is needed (:meth:`refer_table`): the words naming the tables
    that would fit, said in place of the "did you mean" of the id of any table nearest in spelling."""

    def report(self, path: KeyPath, message: str) -> None:
        """Record one problem at key ``path``."""
        self.found.append((path, message))

    def at(self, record: Record, *keys: Any) -> KeyPath:
        """The key path of ``keys`` inside ``record``."""
        return self.where[record.id] + keys

    def refer(self, record: Record, key: str, target: str, kind: type[Found], extra: KeyPath = ()) -> Found | None:
        """The record ``target`` that ``record.<key>`` (item ``extra``) names, when it is a ``kind``.

        Otherwise ``None``, after reporting that it is missing or of another kind; a reference to a
        ``broken`` record is ``None`` and not reported (its own problem already is). A missing id is
        reported once, at its first reference; :meth:`say_missing` then counts the others.
        """
        found = self.database._by_id.get(target)
        if found is None and target in self.broken:
            return None
        if found is None:
            if target in self.missing:
                self.missing[target][2].append(record.id)
            else:
                self.missing[target] = (len(self.found), kind, [record.id])
                self.report(self.at(record, key, *extra), f"refers to {quoted(target)}, which is not in the database")
            return None
        if not isinstance(found, kind):
            self.report(self.at(record, key, *extra), f"refers to {quoted(target)}, a {found.kind}; expected a {kind.kind}")
            return None
        return found

    def refer_table(self, path: KeyPath, naming: str, target: str, use: TableUse) -> Table | None:
        """The rules table ``target`` that the key at ``path`` (of the record or section ``naming``) names, when ``use`` can
        read it: a table of its game, looked up by one of its kinds of dice (so each roll ``use`` reads has its row).

        Otherwise ``None``, after one line at ``path``: what ``target`` is (missing, no table, the other game's, another
        kind of dice), what ``use`` needs and the tables of the database that would fit, nearest in spelling first (a
        duel's nomograph given a solo table, a counter card a 2d6 table, passed check and ended the referee's rules in a
        KeyError). A reference to a ``broken`` record is ``None`` and not reported (its own problem is); a missing id is
        reported once, at its first reference, as :meth:`refer` reports it.
        """
        found = self.database._by_id.get(target)
        if found is None and target in self.broken:
            return None
        if isinstance(found, Table) and found.game == use.game and found.dice in use.dice:
            return found
        fits = sorted((table for table in self.database.tables() if table.game == use.game and table.dice in use.dice),
                      key=lambda table: -_unshared_ratio(target, table.id))
        dice = "" if use.dice == ANY_DICE else " with " + listed([f'dice = "{kind}"' for kind in use.dice], most=4, conjunction="or")
        tables = (f"{listed([quoted(table.id) for table in fits], most=3, conjunction='or')} would fit" if fits
                  else f"no table of the database does: add a [[{use.game}.table]]{dice}")
        needs = f"; {use.needs}" + (f", so it names a {use.game} table{dice}" if dice else "") + f": {tables}"
        if found is None:
            if target in self.missing:
                self.missing[target][2].append(naming)
            else:
                self.missing[target] = (len(self.found), Table, [naming])
                self.fitting[target] = needs
                self.report(path, f"refers to {quoted(target)}, which is not in the database")
            return None
        if not isinstance(found, Table):
            said = f"refers to {quoted(target)}, a {found.kind.replace('_', ' ')}, not a rules table"
        elif found.game != use.game:
            said = f"{quoted(target)} is a table of the other game ({found.game})"
        else:
            said = f'{quoted(target)} is a table with dice = "{found.dice}"'
        self.report(path, said + needs)
        return None

    def say_missing(self) -> None:
        """Complete each missing id's one report: how many more records name it, and the id of that kind
        nearest in spelling (a renamed record: twenty-eighth breaker, a back renamed gave 22 lines, one
        per card, none naming the new id)."""
        for target, (index, kind, naming) in self.missing.items():
            path, message = self.found[index]
            if len(naming) > 1:
                others = "1 more record does" if len(naming) == 2 else f"{len(naming) - 1} more records do"
                message += f" ({others}: {listed(naming[1:], most=2)})"
            if target in self.fitting:  # the tables that would fit are named, nearest in spelling first
                self.found[index] = (path, message + self.fitting[target])
                continue
            scores = sorted(((_unshared_ratio(target, record.id), record.id)
                             for record in self.database.records() if isinstance(record, kind)), reverse=True)
            if scores and scores[0][0] >= 0.75 and (len(scores) == 1 or scores[0][0] > scores[1][0]):
                message += f"; did you mean {quoted(scores[0][1])}?"  # one nearest id, not one of key-1..key-5 for key-9
            self.found[index] = (path, message)


@dataclass(frozen=True)
class TableUse:
    """What a key that names a rules table needs of it (:meth:`CheckContext.refer_table`): the ``game`` whose table it is,
    the kinds of ``dice`` it may be looked up by (each covers the rolls its use reads: :func:`check_table_rolls`), and
    ``needs``, the use in words."""

    game: str
    dice: tuple[str, ...]
    needs: str


ANY_DICE = ("d6", "2d6", "position", "difference")
"""Every kind of ``dice`` a table is looked up by: a table card that the referee does not read prints any table."""
NOMOGRAPH_USE = TableUse("duel", ("difference",), "the referee reads the nomograph by the difference of the two Battle "
                                                  "Numbers (R27)")
"""``[duel.rules] nomograph_table``: read by the difference of the Battle Numbers, 0 and up."""
COUNTER_USE = TableUse("solo", ("position",), "a counter card shows the counters at spell positions")
"""A Last Stand counter card's ``table``: read by the position of the spell cast (R21, R22)."""
ELDRITCH_USE = TableUse("solo", ("2d6",), "an Eldritch Damage table is rolled on 2d6")
"""An Expanded Battle Map's ``eldritch_table`` (rulebook, Expanded Battles: "roll 2d6")."""
BATTLE_TABLE_USES = {
    "win": TableUse("solo", ("d6",), "the referee reads the table of the card with icon 'win' as the Battle Win table, by a "
                                     "quest card's win number 1-6"),
    "loss": TableUse("solo", ("d6",), "the referee reads the table of the card with icon 'loss' as the Battle Loss table, "
                                      "by a quest card's loss number 1-6"),
}
"""The solo table cards the referee reads by their ``icon`` (rulebook, Play: a d6 reads the Battle Win and Loss tables
at the quest card's numbers)."""


def _unshared_ratio(written: str, other: str) -> float:
    """How alike (0-1, :class:`difflib.SequenceMatcher`) two dotted ids are past the leading parts they share: the
    game and kind every id of a kind begins with are no likeness (thirty-first pnp breaker, LOW 20: a deleted
    'solo.back.quest' was "did you mean 'solo.back.servant'?", alike only in 'solo.back.'); 1.0 for the same id."""
    first, second = written.split("."), other.split(".")
    shared = 0
    while shared < min(len(first), len(second)) - 1 and first[shared] == second[shared]:
        shared += 1
    return difflib.SequenceMatcher(None, ".".join(first[shared:]), ".".join(second[shared:])).ratio()


BOARD_KINDS = ("battle_map", "progress_track")
"""Kinds printed as one board over several cards, each printed once; the layouts draw them whole and print them first."""


# ---- Every record ---------------------------------------------------------------------------------------------
def check_backs(context: CheckContext) -> None:
    """A record's ``back`` names a back record of its own game, every card that is shuffled or dealt has
    one (:data:`SHUFFLED_KINDS`; README, Printing: backs print behind their fronts), and the cards of one
    deck (:data:`DECKS`) all have the same back: a card with another would be known face down (a marked
    deck; eighth breaker)."""
    decks: dict[tuple[str, str], list[Record]] = {}
    for record in context.database.records():
        if record.back is not None:
            if context.refer(record, "back", record.back, Back) is None:
                continue
            if record.back.split(".", 1)[0] != record.game:
                if context.at(record, "back")[0] == record.back.split(".", 1)[0]:
                    continue  # the id names the other game, not the back: the id's problem is said (check_id_kinds)
                context.report(context.at(record, "back"), f"{quoted(record.back)} is a back of the other game; a card of "
                                                           f"{record.game} needs a {record.game} back")
                continue
            if record.kind in DECKS:
                decks.setdefault((record.game, DECKS[record.kind]), []).append(record)
        elif record.kind in SHUFFLED_KINDS:
            context.report(context.at(record, "id"), f"a {record.kind} card is shuffled or dealt and needs a back")
    for (_, deck), cards in decks.items():
        backs = [card.back for card in cards]
        usual = max(dict.fromkeys(backs), key=backs.count)  # the back most of the deck has (the first of a tie)
        for card in cards:
            if card.back != usual:
                context.report(context.at(card, "back"), f"{quoted(card.back)}, but the other cards of the {deck} deck have "
                                                         f"{quoted(usual)}: the cards of a deck share one back, or one is "
                                                         f"known face down")


def check_one_line_names(context: CheckContext) -> None:
    """A record's ``name`` and ``title`` print on one line and are typed by players: no line break, tab or
    other control character, and no invisible format character (a zero-width space) in them (tenth breaker:
    a newline in a name split the referee's one-line output and its Next line); no back quote, which marks the
    commands of the referee's Next line."""
    for record in context.database.records():
        named: list[tuple[tuple[Any, ...], str, Any]] = [((key,), key, getattr(record, key, None)) for key in ("name", "title")]
        # the names of a player card's spells, which the Next line prints too (thirty-fourth referee breaker, MED 7)
        named += [(("spells", index, "name"), "name", spell.name) for index, spell in enumerate(getattr(record, "spells", ()) or ())
                  if isinstance(getattr(spell, "name", None), str) and not isinstance(spell, Record)]
        for keys, key, value in named:
            if not isinstance(value, str):
                continue
            bad = next((c for c in value if unicodedata.category(c) in ("Cc", "Cf", "Zl", "Zp")), None)
            if bad is not None:
                context.report(context.at(record, *keys), f"holds {quoted(bad)} (U+{ord(bad):04X}), which a {key} printed on one "
                                                       f"line and typed by players cannot hold; remove it")
            elif "`" in value:  # thirty-third referee breaker, LOW 15: the Next line offered "hollow. Wardens: " as a command
                context.report(context.at(record, *keys), f"holds a back quote (`), which a {key} cannot: the referee's Next line "
                                                       f"marks the commands to type with back quotes; use an apostrophe (')")


def check_printed_names(context: CheckContext) -> None:
    """No two cards of one quest or Location deck print the same name: the referee takes a card by its
    printed name (README: "names are read the same way in every command"), so two of one name could never
    be told apart (eighth breaker). Servants are named by their ids (``ghast-1``), as their cards print."""
    seen: dict[tuple[str, str, str], Record] = {}
    short_ids = {(r.game, DECKS[r.kind], slug(r.id.rsplit(".", 1)[-1])): r for r in context.database.records() if r.kind in DECKS}
    for record in context.database.records():
        deck = DECKS.get(record.kind)
        name = getattr(record, "name", None)
        if deck is None or deck == "servant" or not isinstance(name, str):
            continue
        named = short_ids.get((record.game, deck, slug(name)))
        if named is not None and named is not record and slug(getattr(named, "name", "")) != slug(name):
            # a tenth breaker: Quenmoor renamed "Randven", Randven's id kept (a name shared outright is reported below)
            context.report(context.at(record, "name"), f"{quoted(name)} is the id of {named.id}, another card of the deck; the "
                                                       f"referee reads a card's id and its printed name alike, so rename one of them")
        key = (record.game, deck, unicodedata.normalize("NFC", name).casefold().strip())
        if key in seen:
            other = seen[key]
            context.report(context.at(record, "name"), f"{quoted(name)} is also the name of {other.id} (line "
                                                       f"{context.database.line_of(other.id, 'name')}); the referee names "
                                                       f"cards by their printed names, so each card of a deck needs its own")
        else:
            seen[key] = record


ICON_DIR = resources.ICON_DIR
"""The icons a card may name: ``templates/icons/<name>.svg`` (:mod:`pnp.resources`)."""

MAX_PRINTED_CARDS = 1000
"""Card faces a build draws, copies counted: the bundled games print about 120. Each is drawn and
imposed in memory, so the database cannot ask for millions."""


def check_icons(context: CheckContext) -> None:
    """A table card's ``icon`` is the name of an icon of ``templates/icons`` (``win``), never a path
    (``../win``) or a name without a file: the build draws it from that folder (README, Editing a card)."""
    from pnp.icon_files import RESTORE, SHIPPED_ICONS

    names = sorted(path.stem for path in ICON_DIR.glob("*.svg"))
    database = context.database
    for card in database.solo.table_card + database.duel.table_card:
        if card.icon not in names and card.icon in SHIPPED_ICONS:  # forty-sixth pnp breaker, F16: "such as 'win'" for 'win'
            context.report(context.at(card, "icon"), f"{quoted(card.icon)} names templates/icons/{card.icon}.svg, which is "
                                                     f"missing; {RESTORE}")
        elif card.icon not in names:
            from pnp.text import close_name  # only for a problem: the text module reads fonts

            # twenty-sixth breaker: `los` and `:loss:` were told "such as 'win'", not the icon they are near
            bare = card.icon.strip().strip(":").strip().lower().replace("_", "-")
            meant = bare if bare in names else close_name(bare, names)
            hint = "this field takes an icon's bare name, without colons: " if meant and ":" in card.icon else ""
            context.report(context.at(card, "icon"), f"{quoted(card.icon)} is not an icon; {hint}did you mean {quoted(meant)}?"
                           if meant else f"{quoted(card.icon)} is not an icon; give the name of an icon "
                                         f"file of templates/icons without .svg, such as 'win'")


ID_PREFIXES: dict[str, str] = {
    "back": "back", "stats": "stats", "spell_path": "path", "spell": "spell", "progress_track": "progress",
    "table": "table", "table_card": "card", "servant": "servant", "battle_map": "map", "city_quest": "quest",
    "council_quest": "quest", "elder": "quest", "warding_city": "quest", "last_stand": "last-stand",
    "counter_card": "last-stand", "location": "location", "player": "player", "summary": "summary",
}
"""The middle part of the ids of each kind of record (``solo.spell.bind``: ``spell``): an id says its game
and kind (README, Editing a card), so a reference to another kind is caught by its name too."""


def wrong_id_prefix(record: Record, game: str) -> str:
    """What is wrong with the id of ``record``, written in ``[[<game>.<kind>]]``, whose id does not start with the
    game and kind (:data:`ID_PREFIXES`) of that place, and the id that would be right: one wording for another
    game's prefix (said by the loader) and another kind's (:func:`check_id_kinds`), twenty-fourth breaker."""
    prefix = f"{game}.{ID_PREFIXES.get(record.kind, record.kind)}."
    right = prefix + record.id.split(".", 2)[-1]
    return f"id {quoted(record.id)} is in [[{game}.{record.kind}]], so it must start with {quoted(prefix)}: did you mean {quoted(right)}?"


def check_id_kinds(context: CheckContext) -> None:
    """Each record's id is ``<game>.<kind>.<name>``, its game the section it is in and its kind the
    record's (:data:`ID_PREFIXES`): ``solo.servant.bind`` on a spell is refused. An id of the other game is not
    said here: the loader says it, with the whole prefix (one line, not two)."""
    database = context.database
    for game, records in (("solo", database.solo), ("duel", database.duel)):
        for name in (f.name for f in dataclasses.fields(records)):
            value = getattr(records, name)
            if not isinstance(value, tuple):
                continue
            for record in value:
                prefix = f"{game}.{ID_PREFIXES.get(record.kind, record.kind)}."
                if record.game == game and not record.id.startswith(prefix):  # another game's prefix: said by the loader
                    context.report(context.at(record, "id"), wrong_id_prefix(record, game))


def check_printed_cards(context: CheckContext) -> None:
    """No more than :data:`MAX_PRINTED_CARDS` card faces print, copies counted (the database's own
    convention: a build draws every copy, so a huge ``copies`` must not exhaust memory)."""
    total = sum(record.copies for record in context.database.records() if record.printed)
    if total > MAX_PRINTED_CARDS:
        biggest = max((r for r in context.database.records() if r.printed), key=lambda r: r.copies)
        context.report(context.at(biggest, "copies"), f"{total} cards would print, copies counted; a database prints "
                                                      f"at most {MAX_PRINTED_CARDS}")


_SHOWN_ON = {"spell": "in its box on its Spell Path card", "table": "on the card that shows the table"}
"""Where a record that is no card of its own (``printed`` false) is printed, in words, by kind."""


def check_unprinted_copies(context: CheckContext) -> None:
    """A record that prints no card of its own (a spell, a rules table: ``printed`` false) has no ``copies``: no layout
    reads it, and it printed once whatever it said (thirty-sixth pnp breaker, LOW 14: `copies = 100` on a
    `[[solo.spell]]` passed check and `pnp list` showed 100 copies)."""
    for record in context.database.records():
        if not record.printed and not isinstance(record, Back) and record.copies != 1:
            shown = _SHOWN_ON.get(record.kind, "on the card that shows it")
            context.report(context.at(record, "copies"), f"copies = {record.copies} on a {record.kind.replace('_', ' ')} "
                                                         f"changes nothing: no layout reads it (it is printed {shown}, once); "
                                                         f"remove copies")


def check_board_copies(context: CheckContext) -> None:
    """A board (the Progress Track, an Expanded Battle Map) prints once: the game has one of each, and a
    count would be dropped by the imposition (fifteenth breaker: ``copies = 2`` was listed, then printed once)."""
    for record in context.database.records():
        if record.kind in BOARD_KINDS and record.copies != 1:
            context.report(context.at(record, "copies"), f"copies = {record.copies} on a board: a board prints once (the "
                                                         f"game has one); remove copies")


def check_back_copies(context: CheckContext) -> None:
    """A back record has no ``copies`` (nor a ``back``): a back prints behind each card that names it, on
    the backs page of that card's sheet, so a count of its own would have no effect (issue 13, seventh
    breaker: ``copies = 3`` on a back was listed and silently ignored)."""
    for record in context.database.records():
        if isinstance(record, Back) and record.copies != 1:
            context.report(context.at(record, "copies"), f"copies = {record.copies} on a back has no effect: a back prints "
                                                         f"behind each card that names it; remove copies (or give the cards more copies)")
        if isinstance(record, Back) and record.back is not None:
            context.report(context.at(record, "back"), "a back has no back of its own: remove back")


# ---- Rules tables ---------------------------------------------------------------------------------------------
def check_table_texts(context: CheckContext) -> None:
    """Each table row's printed text states the amounts, the tracks and the direction of its effect
    (rulebook, Battle Win and Battle Loss tables: the card prints what the referee applies)."""
    for table in context.database.tables():
        for number, row in enumerate(table.rows):
            for problem in text_and_effect_problems(row):
                context.report(context.at(table, "rows", number, "text"), f"{problem}; make the text and the effect agree")


def check_table_rolls(context: CheckContext) -> None:
    """Each roll reads one row of a table; a ``d6``, ``2d6`` or ``difference`` table covers its rolls
    exactly (:data:`~pnp.database.schema.ROLL_RANGES`), a ``position`` table names spell positions 2-12
    (rulebook, Play: a d6 reads the Battle Win and Loss tables; Expanded Battles: 2d6 the Eldritch
    Damage tables; Last Stand: spell positions the counter tables)."""
    for table in context.database.tables():
        seen: dict[int, int] = {}
        for number, row in enumerate(table.rows):
            for roll in row.roll:
                if roll in seen:
                    context.report(context.at(table, "rows", number, "roll"),
                                   f"roll {roll} is already in rows[{seen[roll]}]; each roll reads one row")
                seen[roll] = number
        wanted = ROLL_RANGES.get(table.dice)
        if wanted is not None:
            missing = [r for r in wanted if r not in seen]
            if missing:
                context.report(context.at(table, "rows"), f"no row for {', '.join(map(str, missing))}; a {table.dice} table "
                                                          f"covers {wanted.start}-{wanted.stop - 1}")
            for number, row in enumerate(table.rows):
                outside = [r for r in row.roll if r not in wanted]
                if outside:
                    context.report(context.at(table, "rows", number, "roll"),
                                   f"roll {', '.join(map(str, outside))} is outside {wanted.start}-{wanted.stop - 1}")
        elif table.dice == "position":
            for number, row in enumerate(table.rows):
                if any(not 2 <= r <= 12 for r in row.roll):
                    context.report(context.at(table, "rows", number, "roll"), "spell positions run 2-12")


def check_table_cards(context: CheckContext) -> None:
    """A table card's ``table`` names a rules table of its own game (rulebook, Setup: the Battle Win and Loss Table
    cards; publisher's description: the nomograph). The solo game has one table card with icon ``win`` and one with
    ``loss``, each showing a d6 table: the referee reads the Battle Win and Loss tables from them at a quest card's
    numbers (:data:`BATTLE_TABLE_USES`; a card missing, or one given a 2d6 table, ended its rules in a traceback)."""
    database = context.database
    read_by: dict[str, TableCard] = {}
    for card in database.solo.table_card + database.duel.table_card:
        use = BATTLE_TABLE_USES.get(card.icon) if card.game == "solo" else None
        if use is not None and card.icon in read_by:
            context.report(context.at(card, "icon"), f"{quoted(card.icon)} is the icon of {quoted(read_by[card.icon].id)} "
                                                     f"already, and the referee reads the table of one card of each icon: "
                                                     f"give this card another")
            continue
        if use is not None:
            read_by[card.icon] = card
        context.refer_table(context.at(card, "table"), card.id, card.table,
                            use or TableUse(card.game, ANY_DICE, f"a card of {card.game} shows a {card.game} table"))
    icons = {path.stem for path in ICON_DIR.glob("*.svg")}
    misnamed = any(card.icon not in icons for card in database.solo.table_card)  # said by check_icons, with the icon meant
    others = [card for card in database.solo.table_card if card.icon not in BATTLE_TABLE_USES]
    for icon, use in BATTLE_TABLE_USES.items():
        if icon not in read_by and context.complete and not misnamed:
            name = "Battle Win" if icon == "win" else "Battle Loss"
            # one other solo table card: its icon was changed (said there); else said at the kind's blocks
            where = context.at(others[0], "icon") if len(others) == 1 else ("solo", "table_card")
            said = f"{quoted(others[0].icon)}, and " if len(others) == 1 else ""
            context.report(where, f"{said}no table card has icon {quoted(icon)}: {use.needs} (rulebook, Setup: the Battle "
                                  f"Win and Loss Table cards); give the card of the {name} table icon = {quoted(icon)}")


def check_nomograph_table(context: CheckContext) -> None:
    """``[duel.rules] nomograph_table`` names a duel rules table read by a difference (publisher's description, Play: the
    cube moves "a number of spaces ... calculated based on a nomograph table"; the referee reads it by the difference
    of the Battle Numbers, R27). A table that failed its own validation is already reported and is not reported again."""
    context.refer_table(("duel", "rules", "nomograph_table"), "[duel.rules]", context.database.duel.rules.nomograph_table,
                        NOMOGRAPH_USE)


# ---- Solo: spells -----------------------------------------------------------------------------------------
def check_spell_paths(context: CheckContext) -> None:
    """One Spell Path card per spell type, and within a type each position and each slot holds one
    spell (rulebook, Setup: three Spell Path cards, Oaken, Flint and Ice; Last Stand: positions)."""
    solo = context.database.solo
    for path_type in ("oaken", "flint", "ice"):
        cards = [p for p in solo.spell_path if p.spell_type == path_type]
        if len(cards) != 1:
            context.report(("solo", "spell_path"), f"needs exactly one Spell Path card of type {quoted(path_type)}, found {len(cards)}")
        positions: dict[int, str] = {}
        slots: dict[tuple[int, int], str] = {}
        for spell in (s for s in solo.spell if s.spell_type == path_type):
            if spell.position in positions:
                context.report(context.at(spell, "position"), f"position {spell.position} is already "
                                                              f"{quoted(positions[spell.position])}; positions are unique within a type")
            positions[spell.position] = spell.id
            if spell.slot in slots:
                context.report(context.at(spell, "slot"), f"slot {list(spell.slot)} is already {quoted(slots[spell.slot])}")
            slots[spell.slot] = spell.id


def check_spells(context: CheckContext) -> None:
    """A learnable spell has a cost per use or a learning cost, not both; its slot is [row, column]
    from 1, the column 1 or 2; its path arrows (``opens``) point down the card to spells of its own type (rulebook, Setup:
    bracketed costs are paid once; "each spell type has paths, designated by a set of arrows")."""
    tracks = context.database.solo.stats
    # (a track that is itself wrong is said at the stats card alone: its spells are judged once it is mended)
    highest = tracks[0].track_high if len(tracks) == 1 and tracks[0].track_high > max(tracks[0].track_low, 0) else None
    for spell in context.database.solo.spell:
        for field_name in ("cost", "learn_cost"):  # forty-sixth pnp breaker, F19: `cost = { mana = 50 }` passed
            cost = getattr(spell, field_name)
            for track in ("mana", "spirit"):
                amount = getattr(cost, track) if cost is not None else 0
                if highest is not None and amount > highest:
                    context.report(context.at(spell, field_name, track),
                                   f"{amount} {track.capitalize()}, and the {track.capitalize()} track holds at most {highest} "
                                   f"(solo.stats track_high): the spell could never be {'cast' if field_name == 'cost' else 'learned'}; "
                                   f"at most {highest}")
        if spell.learnable and (spell.cost is None) == (spell.learn_cost is None):
            context.report(context.at(spell, "cost"), "a learnable spell has either `cost` (per use) or `learn_cost` "
                                                      "(once, in brackets), not both or neither")
        placed = spell.slot[0] >= 1 and spell.slot[1] >= 1
        if not placed:  # its arrows are judged once it has a place (forty-first pnp breaker, LOW 11: "open a spell of row 0")
            context.report(context.at(spell, "slot"), "slot is [row, column], both from 1")
        elif spell.slot[1] > 2:  # a third column would be drawn over the second (eleventh breaker)
            context.report(context.at(spell, "slot"), f"slot {list(spell.slot)}: column {spell.slot[1]} is not 1 or 2 "
                                                      "(a Spell Path card has two columns)")
        for number, target in enumerate(spell.opens):
            other = context.refer(spell, "opens", target, Spell, (number,))
            if other is None:
                continue
            if other.spell_type != spell.spell_type:
                context.report(context.at(spell, "opens", number),
                               f"{quoted(target)} is a {other.spell_type} spell; paths stay within one type")
            elif not placed or other.slot[0] < 1:  # rows judged once both have a place
                continue
            elif other.slot[0] <= spell.slot[0]:
                context.report(context.at(spell, "opens", number),
                               f"{quoted(target)} is not below this spell; path arrows point down the card")
            elif other.slot[0] > spell.slot[0] + 1:  # fifteenth breaker: drawn under the boxes between, unseen
                context.report(context.at(spell, "opens", number),
                               f"{quoted(target)} is {other.slot[0] - spell.slot[0]} rows down (row {other.slot[0]}); a path arrow "
                               f"leads to the next row only (it would be drawn under the spells between): open a spell of "
                               f"row {spell.slot[0] + 1}")


# ---- Solo: tracks ---------------------------------------------------------------------------------------------
def check_progress_track(context: CheckContext) -> None:
    """One Progress Track; its starting spaces lie before Lassadar (the last space, which is named, and
    no other space is); its place names on the track, one a space (rulebook, Setup: "the two cards that
    make up the Grayking's Progress Track"; "You lose the game if the marker ever reaches the last space
    (Lassadar)")."""
    solo = context.database.solo
    for track in solo.progress_track:
        starts: dict[int, str] = {}
        for level, space in track.start.items():
            if not 1 <= space < track.spaces:
                context.report(context.at(track, "start", level), f"space {space} is not on the track 1-{track.spaces - 1}")
            elif space in starts:  # one marker would be printed, and the card's words name both (twelfth breaker)
                context.report(context.at(track, "start", level), f"space {space} is already the {starts[space]} start; "
                                                                  "each difficulty starts on its own space")
            starts.setdefault(space, level)
        order = [track.start[level] for level in ("beginner", "normal", "advanced") if level in track.start]
        if order != sorted(order) and len(set(order)) == len(order):  # ruling R2: the harder, the nearer Lassadar
            context.report(context.at(track, "start"), f"the starts must lie beginner, normal, advanced toward Lassadar "
                                                       f"(ruling R2: a harder game starts nearer), not {order}")
        named: dict[int, str] = {}
        for number, place in enumerate(track.names):
            if place.space > track.spaces:
                context.report(context.at(track, "names", number, "space"),
                               f"space {place.space} is beyond the last space {track.spaces}")
            elif place.space in named:  # one would be printed over the other (eleventh breaker)
                context.report(context.at(track, "names", number, "space"),
                               f"space {place.space} is already named {quoted(named[place.space])}; a space has one name")
            elif place.name.strip().lower() == "lassadar" and place.space != track.spaces:
                context.report(context.at(track, "names", number, "space"),
                               f"Lassadar is the last space ({track.spaces}), where the Grayking wins, not space {place.space}")
            named.setdefault(place.space, place.name)
        if track.names and track.spaces not in named and not any(place.space > track.spaces for place in track.names):
            context.report(context.at(track, "spaces"), f"the last space ({track.spaces}) is Lassadar, where the Grayking wins "
                                                        "(rulebook, Setup), and needs its name in `names`")
    if len(solo.progress_track) > 1 or (not solo.progress_track and context.complete):  # a broken one is reported already
        context.report(("solo", "progress_track"), f"needs exactly one progress track, found {len(solo.progress_track)}")


def check_stats(context: CheckContext) -> None:
    """The Character Stats card's tracks start at 1, it starts its markers on its tracks and holds Warding
    Keys 1, 2 and 3 once each, each of its map's colour (rulebook, Setup: markers on the highlighted spaces; three Warding Keys;
    Winning or Losing: Spirit below 1 loses)."""
    for stats in context.database.solo.stats:
        if stats.track_low != 1:  # thirteenth breaker: a track from 0 let Spirit stay at 0 and never lose
            context.report(context.at(stats, "track_low"), f"the tracks start at 1 (rulebook, Winning or Losing: \"If at any "
                                                           f"time your Spirit falls below [1] ... you have lost\"), not {stats.track_low}")
        if stats.track_high <= stats.track_low:  # (thirty-ninth pnp breaker, LOW 5: -21 blamed on track_start, "1--21")
            context.report(context.at(stats, "track_high"), f"the track's last space must come after its first "
                                                            f"(track_low = {stats.track_low}), not {stats.track_high}")
        elif not stats.track_low <= stats.track_start <= stats.track_high:
            context.report(context.at(stats, "track_start"),
                           f"{stats.track_start} is not on the track, spaces {stats.track_low} to {stats.track_high}")
        numbers = sorted(k.key for k in stats.keys)
        if numbers != [1, 2, 3]:
            context.report(context.at(stats, "keys"), f"keys must be 1, 2 and 3 once each, found {numbers}")
        maps = {battle_map.key: battle_map for battle_map in context.database.solo.battle_map}
        for index, key in enumerate(stats.keys):  # twentieth breaker: Key 3 called blue here, yellow on its map and city
            battle_map = maps.get(key.key)
            if battle_map is not None and battle_map.color != key.color:
                context.report(context.at(stats, "keys", index, "color"),
                               f"Key {key.key} is {key.color!r} here but its map {quoted(battle_map.id)} is {battle_map.color!r} "
                               f"(and so is its Warding City's band); give them one colour")


# ---- Solo: servants and maps ----------------------------------------------------------------------------------
def check_servants(context: CheckContext) -> None:
    """Each servant has hit points of 1 or more for every map colour, and (when every record is
    complete) the servant deck has the size the rules give (rulebook, Setup: "the 9 Servant cards";
    "color icons list the number of hit points")."""
    solo = context.database.solo
    for servant in solo.servant:
        missing = {"red", "blue", "yellow"} - set(servant.hit_points)
        if missing:
            context.report(context.at(servant, "hit_points"), f"no hit points for {', '.join(sorted(missing))}; give one per map colour")
        for color, points in servant.hit_points.items():
            if points < 1:
                context.report(context.at(servant, "hit_points", color), "hit points start at 1 or more")
    servants = sum(s.copies for s in solo.servant)
    if context.complete and servants != solo.rules.servant_cards:
        context.report(("solo", "rules", "servant_cards"), f"the rules say {solo.rules.servant_cards} servant cards, "
                                                            f"the database has {servants} (copies counted)")


def check_battle_maps(context: CheckContext) -> None:
    """Each Expanded Battle Map has its own Warding Key and its own colour, an Eldritch Damage table rolled on 2d6, no
    more servants than the deck has types, and a hex layout that parses (rulebook, Expanded Battles:
    "each must be a different type"; "roll 2d6 ... on the matching numbered hex")."""
    solo = context.database.solo
    types = {s.servant_type for s in solo.servant}
    keys_seen: dict[int, str] = {}
    colours_seen: dict[str, str] = {}
    for battle_map in solo.battle_map:
        if battle_map.key in keys_seen:
            context.report(context.at(battle_map, "key"), f"key {battle_map.key} is already {quoted(keys_seen[battle_map.key])}")
        keys_seen[battle_map.key] = battle_map.id
        if battle_map.color in colours_seen:  # the servants' hit points are read by map colour (twentieth breaker)
            context.report(context.at(battle_map, "color"), f"{battle_map.color!r} is already the colour of "
                                                             f"{quoted(colours_seen[battle_map.color])}; each map has its own "
                                                             f"colour (the servants' hit points are given per map colour)")
        colours_seen.setdefault(battle_map.color, battle_map.id)
        context.refer_table(context.at(battle_map, "eldritch_table"), battle_map.id, battle_map.eldritch_table, ELDRITCH_USE)
        if battle_map.servants > len(types):
            context.report(context.at(battle_map, "servants"), f"{battle_map.servants} servants of different types, "
                                                                f"but the servant deck has {len(types)} types")
        _check_hex_layout(context, battle_map)


def _check_hex_layout(context: CheckContext, battle_map: BattleMap) -> None:
    """The layout of one map parses, prints each number 2-12 on exactly one hex, and lists the same
    number of hexes and gaps on every row. A problem on a row is reported at ``("layout", "row N")``
    (the loader turns it into the row's own line)."""
    try:
        grid = hexes.parse_layout(battle_map.layout)
    except hexes.HexLayoutError as error:
        where = context.at(battle_map, "layout", f"row {error.row + 1}") if error.row is not None else context.at(battle_map, "layout")
        context.report(where, f"{error}")
        return
    missing_numbers = [n for n in range(2, 13) if not grid.numbered(n)]
    if missing_numbers:
        context.report(context.at(battle_map, "layout"), f"no hex numbered {', '.join(map(str, missing_numbers))}; "
                                                         f"every 2d6 roll 2-12 must name a hex")
    for number in range(2, 13):
        doubled = grid.numbered(number)[1:]
        if doubled:
            cell = doubled[0]
            context.report(context.at(battle_map, "layout", f"row {cell.row + 1}"),
                           f"row {cell.row + 1}, column {cell.column + 1}: {number} is printed on {len(doubled) + 1} hexes; "
                           f"a 2d6 roll of {number} must name one hex, so print it once")
    reached = grid.path_distances(grid.start.address)
    cut_off = [cell for cell in grid if cell.address not in reached]
    if cut_off:  # fourteenth breaker: a servant placed on an island can never be reached, nor the warden's hexes
        cell = cut_off[0]
        numbers = [str(h.number) for h in cut_off if h.number]
        named = (f"hexes numbered {', '.join(numbers)}" if len(numbers) > 1 else f"the hex numbered {numbers[0]}" if numbers
                 else "the recharge hex R" if any(h.recharge for h in cut_off) else f"{len(cut_off)} hex{'es' if len(cut_off) > 1 else ''}")
        context.report(context.at(battle_map, "layout", f"row {cell.row + 1}"),
                       f"row {cell.row + 1}, column {cell.column + 1}: {named} cannot be reached from the start hex S by moving "
                       f"from hex to hex (rulebook, Expanded Battles: the warden and the servants move over the hexes); "
                       f"join {'them' if len(cut_off) > 1 else 'it'} to the map with hexes in place of '-'")
    widths = [len(line.split()) for line in battle_map.layout.strip("\n").splitlines()]
    usual = max(set(widths), key=lambda width: (widths.count(width), -width))
    for row, width in enumerate(widths):
        if width != usual:
            context.report(context.at(battle_map, "layout", f"row {row + 1}"),
                           f"row {row + 1} has {width} hexes and gaps, the other rows {usual}; every row "
                           f"lists the same number (use '-' for no hex)")
            break


def check_warding_cities(context: CheckContext) -> None:
    """A Warding City names a battle map with its own Warding Key number (rulebook, Expanded Battles:
    "find the matching Expanded Battle Map")."""
    for city in context.database.solo.warding_city:
        battle_map = context.refer(city, "battle_map", city.battle_map, BattleMap)
        if battle_map is not None and battle_map.key != city.key:
            context.report(context.at(city, "key"), f"key {city.key} but {quoted(city.battle_map)} is the map of key {battle_map.key}")


def check_quest_deck(context: CheckContext) -> None:
    """When every record is complete, the quest deck has the size the rules give (rulebook, Setup:
    "the remaining 22 Quest Cards"), copies counted."""
    solo = context.database.solo
    quests = sum(q.copies for q in solo.quests)
    if context.complete and quests != solo.rules.quest_cards:
        context.report(("solo", "rules", "quest_cards"), f"the rules say {solo.rules.quest_cards} quest cards, "
                                                          f"the database has {quests} (copies counted)")


# ---- Solo: Last Stand -----------------------------------------------------------------------------------------
def check_last_stand(context: CheckContext) -> None:
    """The Last Stand's gray spaces lie on its hit point track, and each counter card shows positions
    its counter table has (rulebook, Last Stand Expansion: gray spaces, Flint and Ice counters)."""
    solo = context.database.solo
    for card in solo.last_stand:
        for number, space in enumerate(card.gray_spaces):
            if space not in card.hit_points:
                context.report(context.at(card, "gray_spaces", number), f"{space} is not on the hit point track")
    for counter in solo.counter_card:
        table = context.refer_table(context.at(counter, "table"), counter.id, counter.table, COUNTER_USE)
        if table is None:
            continue
        for number, position in enumerate(counter.positions):
            if not any(position in row.roll for row in table.rows):
                context.report(context.at(counter, "positions", number), f"{quoted(table.id)} has no counter at position {position}")


COUNTERED_TYPES = ("flint", "ice")
"""The spell types the Grayking counters in the Last Stand (the Last Stand card: "For any flint or ice
spell you use during this battle, the Grayking will counter")."""


def check_counter_cards(context: CheckContext) -> None:
    """A counter card's ``spell_type`` is a Flint or Ice type of a Spell Path card, each of its positions
    holds a spell of that type that is cast (not an extra-dice spell, which is never cast and so never
    countered, R21), and no position of a type is on two counter cards (the Last Stand card: "For any
    flint or ice spell you use during this battle, the Grayking will counter with one that positionally
    matches on the spell counter cards"). The types and positions are checked against the Spell Path
    cards and spells only when every record is ``complete`` (a spell that failed its own validation is
    not in the database)."""
    solo = context.database.solo
    path_types = [p.spell_type for p in solo.spell_path]
    cast = {(s.spell_type, s.position) for s in solo.spell if not (s.extra_dice and s.effect == Effect())}
    seen: dict[tuple[str, int], str] = {}
    for counter in solo.counter_card:
        kind = counter.spell_type
        if kind not in COUNTERED_TYPES or (context.complete and kind not in path_types):
            why = "never countered" if kind not in COUNTERED_TYPES else "the type of no Spell Path card"
            context.report(context.at(counter, "spell_type"), f"{quoted(kind)} is {why}; the Grayking counters "
                                                              f"{' and '.join(COUNTERED_TYPES)} spells")
            continue
        if not context.complete:
            continue
        missing = [number for number, position in enumerate(counter.positions) if (kind, position) not in cast]
        fits = [t for t in COUNTERED_TYPES if t in path_types and all((t, p) in cast for p in counter.positions)]
        if missing and (fits or len(missing) == len(counter.positions)):  # the type is wrong, not a position
            where = ", ".join(str(counter.positions[number]) for number in missing)
            hint = f"the positions {', '.join(map(str, counter.positions))} hold {fits[0]} spells" if fits else "is the card's type right?"
            context.report(context.at(counter, "spell_type"), f"no {kind} spell that is cast sits at position{'s' if len(missing) > 1 else ''} "
                                                              f"{where}; {hint}")
            continue
        for number in missing:
            context.report(context.at(counter, "positions", number), f"no {kind} spell that is cast sits at position "
                                                                     f"{counter.positions[number]}; the counter would never answer a spell")
        for number, position in enumerate(counter.positions):
            if (kind, position) in seen:
                context.report(context.at(counter, "positions", number),
                               f"{kind} position {position} is already on {quoted(seen[kind, position])}; one counter answers a spell")
            seen[kind, position] = counter.id


# ---- Ruin & Renewal I -----------------------------------------------------------------------------------------
def check_duel(context: CheckContext) -> None:
    """The two-player game: as many Location cards as the rules give (when complete), no more dealt than
    there are, a number to win that a side always reaches once every Location dealt is won (a majority:
    a tenth breaker's database left a duel with nothing to choose), each Location's Resonance icons
    once each, cubes that add up, one Wardens and one
    Shadowmajik player card (when complete), each with one spell per die face 1-6 (publisher's
    description, Setup and Play)."""
    duel = context.database.duel
    locations = sum(card.copies for card in duel.location)
    if context.complete and locations != duel.rules.locations:
        context.report(("duel", "rules", "locations"), f"the rules say {duel.rules.locations} Location cards, "
                                                        f"the database has {locations} (copies counted)")
    rules = duel.rules
    if rules.locations_dealt > rules.locations:
        context.report(("duel", "rules", "locations_dealt"), f"{rules.locations_dealt} Locations dealt from {rules.locations} cards; "
                                                              f"deal at most {rules.locations}")
    if 2 * rules.locations_to_win - 1 > rules.locations_dealt:  # else every Location can be won with no side at the count
        context.report(("duel", "rules", "locations_to_win"), f"{rules.locations_to_win} Locations to win of {rules.locations_dealt} "
                                                               f"dealt: once every Location is won, neither side may have "
                                                               f"{rules.locations_to_win} and the game cannot end; at most "
                                                               f"{(rules.locations_dealt + 1) // 2} (a majority of those dealt)")
    # a placing is two Battle dice (`battle A,B`) and one active die, Power or Casting (publisher's description, Play;
    # ruling 71): other counts leave no placing the referee reads, and a new duel is stuck (thirty-fourth breaker, MED 14)
    if rules.battle_dice != 2:
        context.report(("duel", "rules", "battle_dice"), f"{rules.battle_dice} Battle dice; a placing is two Battle dice and an "
                                                          f"active die (the referee reads `battle A,B`): battle_dice = 2")
    elif rules.dice_per_player != rules.battle_dice + 2:
        # "Players each take 4 dice", "placed adjacent to the four corners", "reveal their 3 placed dice": two Battle
        # dice, one active die, the fourth set aside (ruling 71); a placing names one spare die (`spare N`), and a
        # fifth die rolled by the referee left a placing no save could read (thirty-fifth referee breaker, HIGH 1)
        context.report(("duel", "rules", "dice_per_player"), f"{rules.dice_per_player} dice a player; the rules play "
                                                              f"{rules.battle_dice + 2}: {rules.battle_dice} Battle dice, an "
                                                              f"active die and one set aside (ruling 71)")
    if duel.rules.track_marker_cubes + duel.rules.deployable_cubes != duel.rules.cubes_per_player:
        context.report(("duel", "rules", "deployable_cubes"), "track_marker_cubes + deployable_cubes must equal cubes_per_player")
    sides = sorted(p.side for p in duel.player)
    if context.complete and sides != ["shadowmajik", "wardens"]:
        context.report(("duel", "player"), f"needs one Wardens and one Shadowmajik player card, found {sides}")
    for location in duel.location:  # an icon printed twice reads as a double discount the rules never give (R72)
        twice = sorted({r for r in location.resonance if location.resonance.count(r) > 1})
        if twice:
            context.report(context.at(location, "resonance"), f"{quoted(twice[0])} is given twice; give each Resonance once")
    for card in duel.player:
        faces = sorted(s.face for s in card.spells)
        if faces != [1, 2, 3, 4, 5, 6]:
            context.report(context.at(card, "spells"), f"needs one spell for each die face 1-6, found faces {faces}")
        # the referee names a spell by its name in every reveal and Next line: two of one name, or a name that is a
        # number (read as a die face), could not be told apart (thirty-fifth referee breaker, LOW 14)
        named: dict[str, int] = {}
        for index, spell in enumerate(card.spells):
            if spell.cost > rules.points_max:  # forty-sixth pnp breaker, F19: `cost = 99` printed on a 0-6 track
                context.report(context.at(card, "spells", index, "cost"),
                               f"{spell.cost} {card.points}, and the points run to {rules.points_max} at most ([duel.rules] "
                               f"points_max): the spell could never be cast; at most {rules.points_max}")
            key = unicodedata.normalize("NFC", spell.name).casefold().strip()
            if key.isdigit():
                context.report(context.at(card, "spells", index, "name"), f"{quoted(spell.name)} is a number, which the referee "
                                                                          f"reads as a die face; give the spell a name")
            elif key in named:
                context.report(context.at(card, "spells", index, "name"), f"{quoted(spell.name)} is also the name of the spell "
                                                                          f"of face {card.spells[named[key]].face}; each "
                                                                          f"spell of a player card needs its own name")
            else:
                named[key] = index


CROSS_CHECKS: tuple[Callable[[CheckContext], None], ...] = (
    check_backs,
    check_id_kinds,
    check_icons,
    check_printed_cards,
    check_back_copies,
    check_unprinted_copies,
    check_board_copies,
    check_printed_names,
    check_one_line_names,
    check_table_texts,
    check_table_rolls,
    check_table_cards,
    check_nomograph_table,
    check_spell_paths,
    check_spells,
    check_progress_track,
    check_stats,
    check_servants,
    check_battle_maps,
    check_warding_cities,
    check_quest_deck,
    check_last_stand,
    check_counter_cards,
    check_duel,
)
"""Every check across records, in the order :func:`run` runs them."""


def run(database: Database, where: dict[str, KeyPath], broken: Set[str] = frozenset(),
        complete: bool = True) -> list[tuple[KeyPath, str]]:
    """Run :data:`CROSS_CHECKS` over ``database``; return every ``(key path, message)`` found, in order.

    ``where``, ``broken`` and ``complete`` are as in :class:`CheckContext`. Raises nothing for a
    loaded database: a reference to a missing or broken record is a problem, not an exception.
    """
    context = CheckContext(database, where, broken, complete)
    for check in CROSS_CHECKS:
        check(context)
    context.say_missing()
    return context.found


# ---- Printed text against effects -----------------------------------------------------------------------------
def effect_amounts(effect: Effect) -> list[tuple[str, int]]:
    """The nonzero amounts of an effect as ``(key, size)``: numbers, not flags (``against.zhumbi`` for
    amounts by servant type). Signs are left out: the text says "lower" or "toward" in words."""
    amounts = []
    for key, value in ((f.name, getattr(effect, f.name)) for f in dataclasses.fields(effect)):
        if isinstance(value, bool) or not value:
            continue
        if isinstance(value, int):
            amounts.append((key, abs(value)))
        elif isinstance(value, dict):
            amounts.extend((f"{key}.{name}", abs(size)) for name, size in value.items() if size)
    return amounts


def text_and_effect_problems(row: TableRow) -> list[str]:
    """Where a table row's printed text and its effect disagree: an amount the text does not state, a
    track (Mana, Spirit, the Grayking) the text does not name, or a direction the text does not say.
    Returns the messages, empty when they agree (rulebook, Battle Win and Battle Loss tables)."""
    problems = []
    lowered = row.text.lower()
    for key, amount in effect_amounts(row.effect):
        signed = getattr(row.effect, key, amount) if "." not in key else amount
        if not text_names(row.text, amount):
            problems.append(f"the effect {key} = {signed} is not in the printed text {quoted(row.text)} "
                            f"(as {amount} or {NUMBER_WORDS.get(amount, amount)!r})")
        if key in TRACK_WORDS:
            word, down, up = TRACK_WORDS[key]
            if word not in lowered:
                problems.append(f"the effect changes {key} ({key} = {signed}) but the printed text {quoted(row.text)} "
                                f"does not name {word.capitalize() if word != 'grayking' else 'the Grayking'}")
            elif not any(re.search(pattern, lowered) for pattern in (down if signed < 0 else up)):
                says = ("lowers it" if signed < 0 else "raises it") if key != "grayking" else \
                    ("moves the Grayking away from Lassadar" if signed < 0 else "moves the Grayking toward Lassadar")
                problems.append(f"the effect {key} = {signed} {says}, but the printed text {quoted(row.text)} does not say so")
    return problems


def text_names(text: str, amount: int) -> bool:
    """True when ``text`` holds ``amount`` as digits (not inside a longer number) or as a word."""
    lowered = text.lower()
    return bool(re.search(rf"(?<!\d){amount}(?!\d)", lowered)) or NUMBER_WORDS.get(amount) in re.findall(r"[a-z]+", lowered)
