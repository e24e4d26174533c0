"""A *Ruin & Renewal I* game held in memory (:class:`DuelGame`), and the two-player game as the shared
layer sees it (:data:`RULES`).

This module owns the link between the duel rules and the shared layer (:mod:`referee.game`):
:class:`DuelGameRules` gives the duel rules, legal events, Next line, refusals and words as one
:class:`~referee.game.GameRules` object, and :func:`load` reads a save file through
:func:`referee.game.load_game`, replaying every event. A saved event the rules refuse is reported in
the words of :func:`referee.duel.advice.refusal_text`, as the command that played it would be refused.
"""
from __future__ import annotations

import unicodedata
from collections.abc import Sequence
from pathlib import Path
from typing import Any, ClassVar, Self

import pnp.database
from pnp.database import Database
from pnp.deferred import dataclass
from pnp.oneline import listed
from referee import checkpoint, dice
from referee import events as shared_events
from referee.duel import advice, legal, rules, view
from referee.duel import events as ev
from referee.duel import state as state_module
from referee.duel.state import DICE_SCHEMES, SIDES, DiceScheme, PerSide, State
from referee.errors import ParseError, RuleError, as_written, check_keys, id_list_problem, toml_kind
from referee.game import GameRules, RefereeGame, SaveCheck, check_save, load_game


def moved_on_the_table(played: State, restored: State) -> list[str]:
    """The pieces on the players' table that differ between ``played`` and ``restored``, in words, in the order the
    table is set: the Location cards (the row and those won), the yellow marker, the cubes on the Locations' tracks
    and in supply, the track cubes of the player cards (MP and SP). Dice and placings are not on the table."""
    moved = []
    if played.row != restored.row and [place.id for place in played.row] != [place.id for place in restored.row] \
            or played.controlled != restored.controlled:
        moved.append("the Location cards")
    if rules.marker_stands_on(played) != rules.marker_stands_on(restored):  # where the cube stands, not the round's own
        # Location (thirty-fourth breaker, LOW 19: after an undone `recall none` it said to put back a marker never moved)
        moved.append("the yellow marker")
    if [place.cubes for place in played.row] != [place.cubes for place in restored.row] \
            or played.supply != restored.supply:
        moved.append("the cubes on the Locations")
    if played.points != restored.points:
        moved.append("the MP and SP cubes of the player cards")
    return moved


def pieces_put_back(played: State, restored: State, db: Database) -> str:
    """The sentences that put each piece moved between ``played`` and ``restored`` back where it stood in ``restored``,
    the row of Locations the same in both: the yellow marker (on its Location, or off the row), each side's cubes on the
    Locations' tracks (taken off to the supply, put back on a space, moved back to a space) and the MP and SP cubes of
    the player cards (on their number)."""
    said = []
    marker = rules.marker_stands_on(restored)
    if rules.marker_stands_on(played) != marker:
        said.append(f"Put the yellow marker back on {rules.name(db, marker)}." if marker is not None
                    else "Take the yellow marker off the row.")
    before = {place.id: place.cubes for place in restored.row}
    for side in SIDES:
        cube = f"the {rules.possessive(rules.SIDE_NAMES[side])} cube"
        off, on, moves = [], [], []
        for place in played.row:
            now, then = getattr(place.cubes, side), getattr(before.get(place.id, PerSide(0, 0)), side)
            where = rules.name(db, place.id)
            if now and not then:
                off.append(where)
            elif then and not now:
                on.append(f"{where}, space {then}")
            elif now != then:
                moves.append(f"move {cube} on {where} back to space {then}")
        parts = [f"take {cube if len(off) == 1 else cube + 's'} off {listed(off)}"] if off else []
        if on:
            parts.append(f"put {'it' if len(off) == 1 and len(on) == 1 else cube if len(on) == 1 else cube + 's'} "
                         f"back on {listed(on) if len(on) < 3 else '; '.join(on)}")
        parts.extend(moves)
        if parts:
            sentence = " and ".join(parts)
            said.append(sentence[0].upper() + sentence[1:] + ".")
    for side in SIDES:
        if getattr(played.points, side) != getattr(restored.points, side):
            said.append(f"Put the {rules.possessive(rules.SIDE_NAMES[side])} {rules.points_word(db, side)} cube back on "
                        f"{getattr(restored.points, side)}.")
    return " ".join(said)


class DuelGameRules:
    """The two-player game for the shared layer (:class:`referee.game.GameRules`): the rules of
    :mod:`referee.duel.rules`, the legal events of :mod:`referee.duel.legal`, the Next line and the
    refusals of :mod:`referee.duel.advice` and the words of :mod:`referee.duel.view`."""

    name = "duel"
    rule_error = rules.RuleError
    secret_events = frozenset({"roll", "commit"})

    @staticmethod
    def put_back(undone: Sequence[ev.Event], played: State, restored: State, db: Database) -> str:
        """What the players put back on the table after an undo, naming only what moved between ``played`` and
        ``restored`` (:func:`moved_on_the_table`), ``""`` when nothing on the table moved (only rolls and commitments were
        taken back: the dice are in the players' hands; thirty-first breaker, finding 6). Where no Location card moved,
        each piece is put where it goes back to (:func:`pieces_put_back`: ``Put the yellow marker back on Glasswater
        Ford.``, ``Take the Wardens' cube off Rift of Sael and put it back on Galehollow, space 1.``; thirty-fourth
        breaker, LOW 19: "back as it was", saying not where); where a Location card moved too, the pieces moved are
        named, to be put back as they were."""
        moved = moved_on_the_table(played, restored)
        if not moved:
            return ""
        if moved == ["the yellow marker"] and rules.marker_stands_on(restored) is None:  # the first Location chosen, taken
            return "Take the yellow marker off the row."  # back (thirty-third breaker, LOW 7: "back as it was", on no Location)
        if "the Location cards" not in moved:
            return pieces_put_back(played, restored, db)
        return f"Put {listed(moved)} back as {'it was' if moved == ['the yellow marker'] else 'they were'}."

    decode = staticmethod(ev.from_dict)
    resolve = staticmethod(rules.resolve)
    apply = staticmethod(rules.apply)
    legal_events = staticmethod(legal.legal_events)
    next_step = staticmethod(advice.next_step)
    notes = staticmethod(view.event_notes)
    status = staticmethod(view.status)
    status_lines = staticmethod(view.status_lines)
    event_text = staticmethod(view.event_text)
    setup_line = staticmethod(view.setup_line)
    log_line = staticmethod(view.log_line)

    def refusal_text(self, error: RuleError, state: State, db: Database, last: Any = None) -> str:
        """:func:`referee.duel.advice.refusal_text` (the message alone for a refusal of no duel kind)."""
        return advice.refusal_text(error, state, db, last=last) if isinstance(error, rules.RuleError) else str(error)

    def undo_problem(self, event: ev.Event, before: State, after: State) -> RuleError | None:
        """:func:`referee.duel.rules.undo_refusal`: the refusal, with its kind for the advice to complete."""
        return rules.undo_refusal(event, after)

    def is_over(self, state: State) -> bool:
        """A side has won."""
        return state.result is not None

    def log_notes(self, event: ev.Event, after: State) -> tuple[str, ...]:
        """What ``event`` did (:func:`referee.duel.view.event_notes`); nothing for a roll or a commitment,
        whose notes would show a hidden hand."""
        return () if isinstance(event, (ev.Roll, ev.Commit)) else view.event_notes(after)

    def load(self, path: Path, db: Database) -> DuelGame:
        """:func:`load`."""
        return load(path, db)

    def check(self, path: Path, db: Database) -> tuple[SaveCheck, DuelGame]:
        """:func:`referee.game.check_save` of a duel game."""
        return check_save(DuelGame, path, db)

    def new(self, db: Database, seed: int, **options: Any) -> DuelGame:
        """:meth:`DuelGame.new`; ``options`` are ``names`` and ``row``."""
        return DuelGame.new(db, seed, **options)


CODE_FOLDERS = (Path(checkpoint.__file__).parent, Path(__file__).parent, Path(pnp.database.__file__).parent)
"""The code a checkpoint of this game must have been written by (:func:`referee.checkpoint.code_revision`):
the shared referee, this game's rules and the database schema."""

IDENTITIES = {"duel.rules.FORFEITED": rules.FORFEITED}
"""What the duel's rules recognise by identity, kept as itself in a checkpoint (:class:`referee.checkpoint.StateCodec`)."""

RULES: GameRules[State, ev.Event] = DuelGameRules()
"""The two-player game, as :class:`referee.game.GameRules`."""


@dataclass
class DuelGame(RefereeGame):
    """One two-player game: ``log.states[0]`` is the setup, ``log.events`` the resolved events, ``state`` the present."""

    rules: ClassVar[GameRules[Any, Any]] = RULES
    codec: ClassVar[checkpoint.StateCodec] = checkpoint.StateCodec((state_module, ev, shared_events, dice), IDENTITIES)
    code_folders: ClassVar[tuple[Path, ...]] = CODE_FOLDERS

    @classmethod
    def new(cls, db: Database, seed: int, names: PerSide[str] | None = None, row: Sequence[str] | None = None,
            dice: DiceScheme = "per-side") -> Self:
        """A new game after Setup (:func:`rules.new_game`); raises :class:`rules.RuleError` for a bad row."""
        return cls.start(db, rules.new_game(db, seed, names, row, dice))

    @classmethod
    def from_setup(cls, db: Database, setup: dict[str, Any], seed: int) -> Self:
        """The game of a save file's ``[setup]`` (``row``, the players' names); raises
        :class:`~referee.errors.ParseError` without a row, :class:`rules.RuleError` as :meth:`new`."""
        check_keys(setup, ("row", "removed", "wardens", "shadowmajik", "dice"), "[setup]")
        if setup.get("row") is None:
            raise ParseError("[setup] needs the row of Locations")
        for key in ("removed", "wardens", "shadowmajik", "dice"):  # every save writes them (format 1's dice is migrated): one
            # missing is a file cut short (thirty-fourth breaker, HIGH 2: cut after the row, it was read as a game of other
            # names and another dice scheme, and the referee rolled other dice)
            if key not in setup:
                raise ParseError(f"[setup] has no `{key}` line: the save is cut short or edited (every save writes it)")
        row = setup["row"]
        if not isinstance(row, list) or not all(isinstance(x, str) for x in row):  # (thirty-first breaker: "needs" it)
            raise ParseError("[setup] row: a list of Location ids ([\"duel.location.stonewatch\", ...])")
        names = []
        for key in ("wardens", "shadowmajik"):  # each at its key (thirtieth breaker)
            if not isinstance(setup[key], str):
                raise ParseError(f"[setup] {key}: a player's name is a string, not {toml_kind(setup[key])}")
            name = saved_name(setup[key])
            problem = name_problem(setup[key], typed=False) or name_problem(name, typed=False)  # as written, then as read
            if problem:
                raise ParseError(f"[setup] {key}: {problem}")
            names.append(name)
        dice = setup["dice"]  # a save from before the per-side dice names one: "sequential" (referee.save._from_format_1)
        if dice not in DICE_SCHEMES:
            raise ParseError(f"[setup] dice: {as_written(dice)} is no dice scheme: it is one of {', '.join(DICE_SCHEMES)}")
        problem = row_problem(db, row)
        if problem is not None:
            raise ParseError(problem)
        game = cls.start(db, rules.new_game(db, seed, PerSide(*names), row, dice))
        if "removed" in setup and setup["removed"] != list(game.state.setup.removed):  # worked out from the row: a value
            raise ParseError("[setup] row and removed disagree: removed lists the Locations not in the row, as the "  # that
                             "referee wrote them (one of the two was edited: write it back, or remove the removed line)")
        return game


def row_problem(db: Database, row: Sequence[str]) -> str | None:
    """What is wrong with a save file's ``[setup] row`` (hand-edited), said at its key with what a save holds there, or
    ``None`` (thirty-second breaker: said in the words of `new`, "deal 7 ...", with no ids). A save holds the ids of the
    Locations dealt, each once, as many as the rules deal (description, Setup)."""
    dealt = rules.rules_of(db).locations_dealt
    return id_list_problem("row", row, [card.id for card in db.duel.location], dealt, "Location",
                           f"the {dealt} Locations dealt")


NAME_LENGTH = 40
"""The longest player name (it is shown in every line that names a side)."""


REORDERING = frozenset(range(0x202A, 0x202F)) | frozenset(range(0x2066, 0x206A)) | frozenset(range(0x206A, 0x2070))
"""The format characters a player's name may not hold: the bidirectional embeddings, overrides and isolates (U+202A-202E,
U+2066-2069), which reorder the text after them on every line that names the side, and the deprecated format characters
(U+206A-206F). The other format characters shape or join letters (U+200C zero width non-joiner in Persian, U+200D zero
width joiner in Indic scripts and emoji sequences, emoji tag characters) and are allowed (thirty-second breaker: they
were refused as "escapes, line breaks, tabs"); the direction marks are not (:data:`DIRECTION_MARKS`)."""

BLANK_LETTERS = frozenset({0x115F, 0x1160, 0x2800, 0x3164, 0xFFA0})
"""Letters and signs that print as nothing (the Hangul fillers, the blank Braille pattern): a name of them alone shows as
an empty name (thirty-second breaker)."""

_JOINING = frozenset({0x200C, 0x200D}) | frozenset(range(0xFE00, 0xFE10)) | frozenset(range(0xE0020, 0xE0080)) \
    | frozenset(range(0xE0100, 0xE01F0))
"""Code points that join or vary the character before them (zero width joiner and non-joiner, variation selectors, emoji
tags): not counted in a name's length, as combining marks are not."""


_PRINTS_AS_NOTHING = frozenset({0x034F, 0x115F, 0x1160, 0x17B4, 0x17B5, 0x3164, 0xFFA0}) | frozenset(range(0x180B, 0x1810))
"""Default_Ignorable_Code_Point characters (Unicode's DerivedCoreProperties) that are no format character (category Cf,
refused as one) and join nothing a name may hold: the combining grapheme joiner, the Hangul fillers, the Khmer inherent
vowels, the Mongolian variation selectors. Anywhere in a name they print as nothing (thirty-fifth breaker, MED 8:
``An\u034fa`` and ``Ana\u3164`` looked like "Ana")."""

_JOINING_SCRIPTS = frozenset({"ARABIC", "SYRIAC", "NKO", "MANDAIC", "THAANA", "MONGOLIAN", "DEVANAGARI", "BENGALI", "GURMUKHI",
                              "GUJARATI", "ORIYA", "TAMIL", "TELUGU", "KANNADA", "MALAYALAM", "SINHALA", "TIBETAN", "MYANMAR",
                              "KHMER", "JAVANESE", "BALINESE"})
"""The scripts whose letters a zero width joiner or non-joiner shapes (Arabic and Persian joining forms, Indic conjuncts):
there they show; between Latin letters they print as nothing."""


def _script(char: str) -> str:
    """The first word of ``char``'s Unicode name (``ARABIC``, ``LATIN``), ``""`` for a character without one."""
    return unicodedata.name(char, "").split(" ", 1)[0]


def _emoji(char: str) -> bool:
    """Whether ``char`` may begin or continue an emoji sequence: a symbol (category So, or Sk: the skin tones)."""
    return unicodedata.category(char) in ("So", "Sk")


def _invisible_at(name: str, index: int) -> bool:
    """Whether the Default_Ignorable_Code_Point character at ``index`` of ``name`` prints as nothing there: always for
    :data:`_PRINTS_AS_NOTHING`; a zero width joiner or non-joiner unless it joins two letters of a script it shapes
    (:data:`_JOINING_SCRIPTS`) or, the joiner, two emoji (a variation selector or skin tone between); a variation selector
    (U+FE00-FE0F) unless it follows a symbol, digit or sign (an emoji, a keycap), never a letter; a tag (U+E0020-E007F)
    unless it is inside a tag sequence after U+1F3F4 (a subdivision flag); an ideographic variation selector unless it
    follows a CJK ideograph (thirty-fifth breaker, MED 8). Any other character: ``False``."""
    code = ord(name[index])
    before = name[index - 1] if index > 0 else ""
    after = name[index + 1] if index + 1 < len(name) else ""
    if code in _PRINTS_AS_NOTHING:
        return True
    if code in (0x200C, 0x200D):
        if not before or not after:
            return True
        shaped = _script(before) in _JOINING_SCRIPTS and _script(after) in _JOINING_SCRIPTS
        emoji = code == 0x200D and (_emoji(before) or 0xFE00 <= ord(before) <= 0xFE0F) and _emoji(after)
        return not (shaped or emoji)
    if 0xFE00 <= code <= 0xFE0F:
        return not before or unicodedata.category(before)[0] not in "SNP"
    if 0xE0020 <= code <= 0xE007F:
        start = index
        while start > 0 and 0xE0020 <= ord(name[start - 1]) <= 0xE007E:
            start -= 1
        return start == 0 or ord(name[start - 1]) != 0x1F3F4
    if 0xE0100 <= code <= 0xE01EF:
        return _script(before) != "CJK"
    return False


def _character_name(char: str) -> str:
    """``U+202E (RIGHT-TO-LEFT OVERRIDE)``: a character said so that any terminal shows it."""
    return f"U+{ord(char):04X}" + (f" ({unicodedata.name(char)})" if unicodedata.name(char, "") else "")


DIRECTION_MARKS = frozenset({0x200E, 0x200F, 0x061C})
"""The direction marks (left-to-right, right-to-left, Arabic letter mark): invisible, they change the direction of the
neutral characters around them, on every line that names the side; a name may not hold them, as it may not hold the
bidirectional controls of :data:`REORDERING` (thirty-third breaker, LOW 4)."""


def shown_length(name: str) -> int:
    """How many characters ``name`` shows: its grapheme clusters (Unicode's extended grapheme clusters, UAX #29, as
    ``wcwidth.iter_graphemes`` finds them), so that ``e`` + U+0301, a family joined by zero width joiners, a flag and a
    thumb with its skin tone each count as the one character they print as (thirty-third breaker, LOW 1)."""
    from wcwidth import iter_graphemes

    return sum(1 for _ in iter_graphemes(unicodedata.normalize("NFC", name)))


def name_problem(name: str, typed: bool = True) -> str | None:
    """Why ``name`` cannot be a player's name, or ``None``: holding a control character (an escape sequence in a name
    would reach every player's terminal), a line or paragraph separator, a character that reorders the text after it
    (:data:`REORDERING`), a surrogate, a private-use or an unassigned code point; empty or printing as nothing (accents,
    :data:`BLANK_LETTERS`); showing more than :data:`NAME_LENGTH` characters (:func:`shown_length`); or holding a back
    quote (it would make words of the name read as a command in the Next line). Each reason names the character.
    A name beginning with an accent or holding a direction mark is refused as typed (``typed``), not in a save written
    before they were (a game in progress is never lost to a stricter check)."""
    for char in name:  # before "empty": a line separator is a line break
        category = unicodedata.category(char)
        if category == "Cc":
            return "a player's name cannot hold control characters (escapes, line breaks, tabs)"
        if category in ("Zl", "Zp"):
            return f"a player's name cannot hold {_character_name(char)}: it breaks the line"
        if ord(char) in REORDERING:
            return f"a player's name cannot hold {_character_name(char)}: it reorders the text printed after the name"
        if typed and category == "Cf" and ord(char) not in _JOINING and ord(char) not in DIRECTION_MARKS:
            # an invisible format character (a zero width space, a byte-order mark, a word joiner, a soft hyphen): the name
            # would print as another (thirty-fourth breaker, LOW 20); the joiners of scripts and emoji sequences pass
            return f"a player's name cannot hold {_character_name(char)}: it prints as nothing, and the name would look like another"
        if typed and ord(char) in BLANK_LETTERS - _PRINTS_AS_NOTHING:  # the blank Braille pattern: a blank no split() folds
            return (f"a player's name cannot hold {_character_name(char)}: it prints as a blank, and the name would look "
                    f"like another: type a space")  # (thirty-sixth breaker, LOW 9: "A\u2800na" shown as "A na")
        if ord(char) in DIRECTION_MARKS and typed:
            return (f"a player's name cannot hold {_character_name(char)}: it changes the direction of the text printed "
                    f"around the name")
        if category == "Cs" and 0xDC80 <= ord(char) <= 0xDCFF:  # a byte that is no UTF-8, as Python reads a command line
            return (f"a player's name must be UTF-8 text, and this one holds the byte 0x{ord(char) - 0xDC00:02X}: set the "
                    f"terminal to UTF-8")  # (thirty-third breaker, LOW 2: it was "U+DCE9 ... a surrogate")
        if category in ("Cs", "Co", "Cn"):
            what = {"Cs": "a surrogate", "Co": "a private-use character", "Cn": "not a character Unicode assigns"}[category]
            return f"a player's name cannot hold {_character_name(char)}: it is {what}, which no font prints the same"
    for index, char in enumerate(name):
        if typed and _invisible_at(name, index):
            return f"a player's name cannot hold {_character_name(char)} there: it prints as nothing, and the name would look like another"
    if not name.strip():
        return "a player's name cannot be empty"
    if shown_length(name) > NAME_LENGTH:
        # its numbers the referee's own, marked so that a hidden prompt shows them (forty-sixth referee breaker, KIND 4)
        return f"a player's name is at most `{NAME_LENGTH}` characters, not `{shown_length(name)}`"
    if not any(unicodedata.category(char)[0] in "LNPS" and ord(char) not in BLANK_LETTERS for char in name):
        return "a player's name needs a letter, digit or sign that prints: this one prints as nothing"  # (thirty-first breaker)
    if typed and unicodedata.category(name[0])[0] == "M":  # it would land on what is printed before the name (thirty-third breaker)
        return (f"a player's name cannot begin with {_character_name(name[0])}: an accent or mark joins the character "
                f"before it, which would be the text printed before the name")
    if "`" in name:  # the Next line marks the commands to type in back quotes (fifteenth breaker: a name forged one)
        return "a player's name cannot hold a back quote (`): the Next line marks the commands to type with them"
    return None


def saved_name(name: str) -> str:
    """A player's name read from a save as `new` takes it typed (:func:`referee.duel.cli.player_name`): blanks at its
    ends dropped and each run of them inside made one, and accents or marks at its beginning dropped (`new` refuses
    them: they join the text printed before the name). A save written before those checks, or edited, still loads, its
    names printed as `new` would have kept them (thirty-fourth breaker, LOW 20: ``"  Ana  "`` and ``"\\u0301x"`` were
    printed as they were, the accent joined to the blank before the name); anything else :func:`name_problem` refuses in
    a save is refused as before."""
    name = " ".join(name.split())
    start = 0
    while start < len(name) and unicodedata.category(name[start])[0] == "M":
        start += 1
    return " ".join(name[start:].split()) if start < len(name) else name


def load(path: Path, db: Database) -> DuelGame:
    """Read a save file and replay every event (:func:`referee.game.load_game`). Raises
    :class:`referee.save.SaveError` naming the file and the reason: unreadable, corrupt or truncated, a
    newer format, another database, a die that is not the seed's, or an event that no longer applies."""
    return load_game(DuelGame, path, db)
