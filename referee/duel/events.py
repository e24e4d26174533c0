"""The events of a *Ruin & Renewal I* game: one frozen dataclass per command, and the text form of a
dice assignment.

This module owns what a command records, nothing about what it does (that is
:mod:`referee.duel.rules`). An event may leave dice to the referee (``None``);
:func:`referee.duel.rules.resolve` fills them in by value, and the save file only ever holds resolved
events, so replaying a game never calls a generator.

The TOML form of the events, and reading it back (:func:`from_dict`), are :mod:`referee.events`'s: a
table with ``type`` (the event's :attr:`kind`) and its set fields; dice are ``{values = [...], k = N}``
(rolled by the referee, die ``k`` of the game onwards) or ``{values = [...], typed = true}``; a side is
its name; assignments are their text (``"battle 3,5 cast 4 spare 2"``: the codec this module
registers, :func:`parse_assignment`). Assignment texts that read as none raise :class:`EventError`
(:class:`referee.events.EventError`, a :class:`~referee.errors.ParseError`).
"""
from __future__ import annotations

import re
from typing import Any, ClassVar

from pnp.deferred import dataclass
from referee import events
from referee.dice import Dice
from referee.duel.state import Assignment, Side
from referee.events import EventError

# ---- Assignments as text --------------------------------------------------------------------------------
_WORDS = ("battle", "power", "cast", "spell", "reroll", "spare")
EXAMPLE = "`battle 3,5 cast 4` (or: `battle 3,5 power 6`; add `spell 3` to cast one below the die)"


def unquoted(text: str) -> str:
    """``text`` without its outer spaces and one pair of surrounding quotes, as a shell would drop them
    (``"'battle 1,1 power 1#948536c42e40e89a'"`` -> ``battle 1,1 power 1#948536c42e40e89a``: the Next line shows an
    opening in quotes, and a player types it as shown; thirty-second breaker, LOW 10); the whole line `referee duel seal`
    printed, pasted (``Opening of the Wardens' placing (keep it secret until the reveal): battle ...#SALT``), as the
    opening it ends with."""
    text = text.strip()
    if len(text) >= 2 and text[0] == text[-1] and text[0] in "'\"":
        text = text[1:-1].strip()
    line = re.match(r"opening of the .*?\(keep it secret until the reveal\):\s*(.*)$", text, re.IGNORECASE)
    return line.group(1).strip() if line else text  # the whole line `seal` printed, pasted (thirty-fourth breaker, LOW 26)


def opening_parts(text: str) -> tuple[str, str] | None:
    """An opening's placing and salt as typed, ``None`` when it is not written ``PLACING#SALT``: one pair of
    surrounding quotes dropped (:func:`unquoted`) and spaces around the last ``#`` allowed
    (``'battle 3,5 power 6 # a1af'`` -> ``("battle 3,5 power 6", "a1af")``). The one reader of an opening's shape,
    for the one-shot ``reveal --open`` and the table's opening prompt alike (thirty-second breaker, LOW 10: the
    two read it differently). The salt's case is kept: the rules read it in any case
    (:func:`referee.duel.rules.seal_fits`)."""
    placing, sep, salt = unquoted(text).rpartition("#")
    placing, salt = placing.strip(), salt.strip()
    if not sep or not salt or not placing:
        return None
    return placing, salt


def parse_opening(text: str, forfeit: str) -> tuple[Assignment | None, str]:
    """An opening as `referee duel seal` printed it, ``ASSIGNMENT#SALT`` -> ``(assignment, salt)``
    (read by :func:`opening_parts`: in quotes or not, spaces around ``#`` or not); the word ``forfeit`` ->
    ``(None, forfeit)`` (a seal its side cannot open, ruling 82). Raises :class:`EventError` for text without
    its salt, and as :func:`parse_assignment`."""
    if unquoted(text).lower() == forfeit:
        return None, forfeit
    parts = opening_parts(text)
    if parts is None:
        raise EventError("an opening is the placing and its salt, `battle 3,5 power 6#SALT`, as `referee duel seal` printed it")
    return parse_assignment(parts[0]), parts[1]


def split_openings(text: str, forfeit: str) -> list[str] | None:
    """The openings typed on one line, in order (the table asks for every sealed side's on one line), each as
    :func:`parse_opening` reads it: ``PLACING#SALT`` (spaces around ``#`` allowed, the salt one word), the same in
    quotes, or ``forfeit``; ``None`` when the line is not made of them alone.
    ``"battle 3,5 power 6 # a1 'battle 1,2 power 5#b2'"`` -> ``["battle 3,5 power 6 # a1", "'battle 1,2 power 5#b2'"]``."""
    one = re.compile(rf"""\s*('[^']*'|"[^"]*"|{re.escape(forfeit)}(?=\s|$)|[^#'"]+?\s*#\s*[^\s#'"]+)""", flags=re.IGNORECASE)
    found: list[str] = []
    at, end = 0, len(text.rstrip())
    while at < end:
        match = one.match(text, at)
        if match is None:
            return None
        found.append(match.group(1))
        at = match.end()
    return found


def parse_assignment(text: str) -> Assignment:
    """Read an assignment such as ``battle 3,5 cast 4 spell 3 reroll 3 spare 2`` or ``battle 3,5 power 6``.

    Words may come in any order, numbers separated by commas or spaces. Raises :class:`EventError`
    with one line for: an unknown word, a die outside 1-6, a corner given twice, not two Battle dice,
    both or neither of ``power`` and ``cast``, ``spell``/``reroll`` without ``cast``. What the player
    typed is quoted in single quotes, and only that (the words and examples in back quotes), so that a
    refusal of a hidden placing can leave it out (:func:`referee.errors.undisclosed`).
    """
    tokens = [t for t in re.split(r"[,\s]+", text.strip().lower()) if t]
    if not tokens:
        raise EventError(f"no assignment given; type for example: {EXAMPLE}")
    found: dict[str, list[int]] = {}
    word: str | None = None
    for token in tokens:
        if token in _WORDS:
            if token in found:
                raise EventError(f"`{token}` is given twice: each corner of the player card takes one placing")
            word = token
            found[word] = []
        elif re.fullmatch(r"[+-]?\d+", token):
            if word is None:
                raise EventError(f"{token!r} comes before any word; type for example: {EXAMPLE}")
            value = int(token)
            if not 1 <= value <= 6:  # twenty-fifth breaker: `spell 0` was "a die shows 1-6"; a spell is no die
                raise EventError(f"no spell '{token}': a player card's spells are `1-6`" if word == "spell" else f"a die shows `1-6`, not '{token}'")
            found[word].append(value)
        else:
            raise EventError(f"{token!r} is not a die or one of the words {', '.join(_WORDS)}; type for example: {EXAMPLE}")
    battle = found.get("battle")
    if battle is None or len(battle) != 2:
        raise EventError(f"two Battle dice are needed (`battle A,B`), not {len(battle or [])}")
    if "power" in found and "cast" in found:
        raise EventError("the Power die and the Casting die cannot both be used: only one of them is placed as the active die")
    if "power" not in found and "cast" not in found:
        raise EventError("place one active die: `power N` (gain points) or `cast N` (cast a spell)")
    for key in ("power", "cast", "spell", "reroll"):
        if key in found and len(found[key]) != 1:
            raise EventError(f"`{key}` takes one die, not {len(found[key])}")
    # `spell` or `reroll` without `cast` is the rules' refusal, worded as with a wrong cast (twenty-ninth breaker: its own
    # words told a hidden Power placing from a cast): referee.duel.rules.check_placing
    if "spare" in found and len(found["spare"]) != 1:
        raise EventError("`spare` takes the one die set aside (`4` dice: `2` Battle, `1` active, `1` spare)")
    one = lambda key: found[key][0] if key in found else None  # noqa: E731
    return Assignment((battle[0], battle[1]), one("power"), one("cast"), one("spell"), one("reroll"), tuple(found.get("spare", ())))


def _read_assignment(data: Any) -> Assignment:
    """An assignment of a save file, written as its text (:meth:`Assignment.text`)."""
    if not isinstance(data, str):
        raise EventError(f"an assignment is its text, not {data!r}")
    return parse_assignment(data)


events.register(Assignment, Assignment.text, _read_assignment, "an assignment's text (battle 3,5 cast 4)")


# ---- Events ---------------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Event(events.Event):
    """Base of every duel event (:class:`referee.events.Event`: ``kind``, ``to_dict``)."""


@dataclass(frozen=True)
class Marker(Event):
    """``side`` moves the yellow marker to ``location`` (description: "the losing player decides the next location")."""

    kind: ClassVar[str] = "marker"
    side: Side
    location: str


@dataclass(frozen=True)
class Roll(Event):
    """The referee rolls ``side``'s four dice, shown only to that player. ``dice`` ``None`` until resolved."""

    kind: ClassVar[str] = "roll"
    side: Side
    dice: Dice | None = None


@dataclass(frozen=True)
class Commit(Event):
    """``side`` places its dice in secret: the ``assignment`` itself, or only its ``seal`` (SHA-256)."""

    kind: ClassVar[str] = "commit"
    side: Side
    assignment: Assignment | None = None
    seal: str | None = None


@dataclass(frozen=True)
class Reveal(Event):
    """Both players reveal their placed dice and the round is settled.

    ``wardens`` and ``shadowmajik`` are the assignments revealed (filled in from the commitments when
    resolved; a sealed one comes with its ``*_salt``); ``*_reroll`` the dice of the re-rolls the
    spells cause, in the order they are made (typed, or rolled by the referee when resolved).
    """

    kind: ClassVar[str] = "reveal"
    wardens: Assignment | None = None
    shadowmajik: Assignment | None = None
    wardens_salt: str | None = None
    shadowmajik_salt: str | None = None
    wardens_reroll: Dice | None = None
    shadowmajik_reroll: Dice | None = None


@dataclass(frozen=True)
class Recall(Event):
    """The round's winner, with no cube in supply, takes its cube back from ``location`` to place it
    at the current Location, or (``location`` ``None``) keeps its cubes and forgoes the spaces."""

    kind: ClassVar[str] = "recall"
    side: Side
    location: str | None = None


DECODER: events.EventDecoder[Event] = events.EventDecoder(Marker, Roll, Commit, Reveal, Recall, deferred=True)
"""Reads the duel events of a save file (:class:`referee.events.EventDecoder`; each kind's fields read at its first event,
``tests/test_referee_core.py`` checks them all)."""

EVENTS: dict[str, type[Event]] = DECODER.types
"""Each duel event class by its ``kind``."""


def from_dict(data: Any) -> Event:
    """The event of a save file's table; raises :class:`EventError` naming the event type, the field and
    what it expects (:meth:`referee.events.EventDecoder.decode`)."""
    return DECODER.decode(data)


COMMANDS = ("marker", "roll", "commit", "reveal", "recall")
"""The ``referee duel`` commands that play an event, one for each kind of event above; their words
typed at a table-mode prompt are read as the command, never as an answer."""
