"""The events of a solo game: one frozen dataclass per command, and their TOML form.

This module owns what a command records, nothing about what it does (that is :mod:`referee.solo.rules`).
An event may leave dice and cards to the referee (``None``); :func:`referee.solo.rules.resolve` fills
them in by value, and the save file only ever holds resolved events, so replaying a game never calls a
generator.

TOML form: a table with ``type`` (the event's :attr:`kind`) and its non-empty fields; dice are
``{values = [...], k = N}`` (rolled, die ``k`` of the game onwards) or ``{values = [...], typed = true}``;
cards are ``{id = "...", typed = bool}``.
"""
from __future__ import annotations

import dataclasses
import typing
from dataclasses import dataclass
from typing import Any, ClassVar, Literal

from referee.dice import Dice, DiceError


class EventError(ValueError):
    """An event table in a save file that does not describe an event."""


@dataclass(frozen=True)
class CardRef:
    """A quest card turned over: its id, and whether the player typed it (``typed``) or the referee took its top card."""

    id: str
    typed: bool = False

    def to_dict(self) -> dict[str, Any]:
        return {"id": self.id, "typed": self.typed}

    @classmethod
    def from_dict(cls, data: Any) -> CardRef:
        if not isinstance(data, dict) or not isinstance(data.get("id"), str) or not isinstance(data.get("typed", False), bool) or set(data) - {"id", "typed"}:
            raise EventError(f"a card must be {{id = \"...\", typed = true|false}}, not {data!r}")
        return cls(data["id"], data.get("typed", False))


@dataclass(frozen=True)
class Event:
    """Base of every solo event. ``kind`` is the command's name and the ``type`` in the save file."""

    kind: ClassVar[str] = ""

    def to_dict(self) -> dict[str, Any]:
        """The TOML table of this event: ``type`` and every field that is set."""
        out: dict[str, Any] = {"type": self.kind}
        for f in dataclasses.fields(self):
            value = getattr(self, f.name)
            if value is None or value == () or value is False:
                continue
            if isinstance(value, (Dice, CardRef)):
                out[f.name] = value.to_dict()
            elif isinstance(value, tuple):
                out[f.name] = list(value)
            else:
                out[f.name] = value
        return out


@dataclass(frozen=True)
class Draw(Event):
    """Turn over the top Quest card (rulebook, Play). ``card`` is the card, or ``None`` for the referee's top card."""

    kind: ClassVar[str] = "draw"
    card: CardRef | None = None


@dataclass(frozen=True)
class Battle(Event):
    """Fight the City Quest on the table (rulebook, Play, If it is a City Quest card).

    ``casts`` and ``elders`` are used before the roll, in order; ``dice`` and ``enemy`` are the
    player's and the servants' dice; ``next`` is the card turned over for the Win or Loss number.
    """

    kind: ClassVar[str] = "battle"
    casts: tuple[str, ...] = ()
    elders: tuple[str, ...] = ()
    dice: Dice | None = None
    enemy: Dice | None = None
    next: CardRef | None = None


@dataclass(frozen=True)
class Cast(Event):
    """Cast a learned spell in a battle, or Barrier Lock with all three keys (rulebook, Setup and Play).

    ``reroll`` names the dice (by value) a re-roll spell re-rolls and ``dice`` their new values (for
    a spell that makes the servants re-roll, ``dice`` are the servants' new dice); ``rows`` is how
    many rows a Battle Loss spell lowers; ``next`` the card turned over if the battle ends.
    """

    kind: ClassVar[str] = "cast"
    spell: str = ""
    rows: int | None = None
    reroll: tuple[int, ...] = ()
    dice: Dice | None = None
    next: CardRef | None = None
    counter: Dice | None = None


@dataclass(frozen=True)
class CallElder(Event):
    """Call on an Elder beside the Character Stats card once (rulebook, If it is an Elders card)."""

    kind: ClassVar[str] = "elder"
    elder: str = ""
    reroll: tuple[int, ...] = ()
    dice: Dice | None = None
    next: CardRef | None = None


@dataclass(frozen=True)
class Accept(Event):
    """Accept the battle as it stands: a loss after the roll, or the Battle Loss row as lowered."""

    kind: ClassVar[str] = "accept"
    next: CardRef | None = None


@dataclass(frozen=True)
class Learn(Event):
    """Answer a pending spell choice: learn ``spell``, or ``None`` to take none (``referee solo skip``)."""

    kind: ClassVar[str] = "learn"
    spell: str | None = None


@dataclass(frozen=True)
class Council(Event):
    """Resolve the Council of Wardens card on the table; ``next`` is the card read for a next card value."""

    kind: ClassVar[str] = "council"
    next: CardRef | None = None


WardingOutcome = Literal["won", "retreat"]
"""How the Warding City battle fought on its map ended (rulebook, Expanded Battles 6a and 6b)."""


@dataclass(frozen=True)
class Warding(Event):
    """Enter the outcome of the Warding City battle fought on its map: ``won`` or ``retreat``
    (:data:`WardingOutcome`; None only for a save table without one, which the rules refuse).

    ``mana`` and ``spirit`` are what the map battle changed (signed), ``elders`` the Elders it used.
    """

    kind: ClassVar[str] = "warding"
    outcome: WardingOutcome | None = None
    mana: int = 0
    spirit: int = 0
    elders: tuple[str, ...] = ()


@dataclass(frozen=True)
class Servants(Event):
    """Start the Expanded Battle of the Warding City on the table (rulebook, Expanded Battles 1-4): the
    servant cards fought, in the order drawn (``typed``: the player turned them over), and the 2d6 of
    each servant's placement (``place``: two dice per servant, in the same order).

    ``map_elders`` says that Elders may be called in this battle (R50). It is always true for a battle
    set up now; a servants event in a save file written before the referee called Elders on the map
    has no such key and reads as false (:func:`from_dict`), so that battle replays exactly as fought.
    ``no_free_escape`` likewise says that the battle follows rulings 53-55 (a recharge must bring a spell
    back, no retreat while a roll is owed, Eldritch Damage after any spell of the round); false only for
    a battle in a save written before them."""

    kind: ClassVar[str] = "servants"
    servants: tuple[str, ...] = ()
    typed: bool = False
    place: Dice | None = None
    map_elders: bool = True
    no_free_escape: bool = True


@dataclass(frozen=True)
class Move(Event):
    """Phase a: the warden's move, as the hexes entered (``path``, hex names such as ``C4``; one hex is a
    destination within reach, none is staying), then every servant's step."""

    kind: ClassVar[str] = "move"
    path: tuple[str, ...] = ()


@dataclass(frozen=True)
class Attack(Event):
    """Phase b (Expanded Battles) or a round of the Last Stand: both sides roll (``dice``, ``enemy``)."""

    kind: ClassVar[str] = "attack"
    dice: Dice | None = None
    enemy: Dice | None = None


@dataclass(frozen=True)
class Eldritch(Event):
    """Phase c: the 2d6 on the map's Eldritch Damage table."""

    kind: ClassVar[str] = "eldritch"
    dice: Dice | None = None


@dataclass(frozen=True)
class Recharge(Event):
    """Recharge every spell of one type: on the blue cross of a map, or at a gray space of the Last Stand."""

    kind: ClassVar[str] = "recharge"
    spell_type: str = ""


@dataclass(frozen=True)
class Retreat(Event):
    """Retreat from the Expanded Battle (rulebook, Expanded Battles 6b)."""

    kind: ClassVar[str] = "retreat"


@dataclass(frozen=True)
class LastStand(Event):
    """Travel to the Ash Tower and begin the Last Stand (rulebook, Last Stand Expansion).

    ``stand_elders`` says that Elders may be called in this Last Stand (R51). It is always true for a
    Last Stand begun now; a last-stand event in a save file written before the referee called Elders in
    the Last Stand has no such key and reads as false (:func:`from_dict`), so that Last Stand replays
    exactly as fought. ``no_free_escape`` likewise says that a gray-space recharge must bring a spell
    back (R53); false only for a Last Stand in a save written before that ruling."""

    kind: ClassVar[str] = "last-stand"
    stand_elders: bool = True
    no_free_escape: bool = True


@dataclass(frozen=True)
class Turn(Event):
    """Name the next quest card, turned over from the player's own deck, that a command waits for (R7):
    the Battle Win or Battle Loss number or a next card value (rulebook, Play)."""

    kind: ClassVar[str] = "turn"
    card: CardRef | None = None


EVENTS: dict[str, type[Event]] = {cls.kind: cls for cls in (Draw, Battle, Cast, CallElder, Accept, Learn, Council, Warding,
                                                            Servants, Move, Attack, Eldritch, Recharge, Retreat, LastStand, Turn)}


def from_dict(data: Any) -> Event:
    """The event a TOML table describes. Raises :class:`EventError` naming the first problem."""
    if not isinstance(data, dict):
        raise EventError(f"an event must be a table, not {data!r}")
    kind = data.get("type")
    cls = EVENTS.get(kind) if isinstance(kind, str) else None
    if cls is None:
        raise EventError(f"unknown event type {kind!r}; types are {', '.join(EVENTS)}")
    hints = typing.get_type_hints(cls)
    fields = {f.name for f in dataclasses.fields(cls)}
    unknown = set(data) - fields - {"type"}
    if unknown:
        raise EventError(f"{kind} event has unknown keys {sorted(unknown)}")
    values: dict[str, Any] = {}
    for name in fields & set(data):
        value, hint = data[name], hints[name]
        try:
            values[name] = _convert(value, hint)
        except (DiceError, EventError) as error:
            raise EventError(f"{kind} event, {name}: {error}") from None
    if cls is Servants and "map_elders" not in data:
        values["map_elders"] = False  # written before Elders were called on the map (R50): replay as fought
    if cls is LastStand and "stand_elders" not in data:
        values["stand_elders"] = False  # written before Elders were called in the Last Stand (R51): replay as fought
    if cls in (Servants, LastStand) and "no_free_escape" not in data:
        values["no_free_escape"] = False  # written before rulings 53-55: replay as fought
    return cls(**values)


def _convert(value: Any, hint: Any) -> Any:
    args = typing.get_args(hint)
    if hint is Dice or Dice in args:
        return Dice.from_dict(value)
    if hint is CardRef or CardRef in args:
        return CardRef.from_dict(value)
    choices = next((typing.get_args(a) for a in (hint, *args) if typing.get_origin(a) is Literal), None)
    if choices is not None:
        if isinstance(value, str) and value in choices:
            return value
        raise EventError(f"expected one of {', '.join(map(repr, choices))}, not {value!r}")
    origin = typing.get_origin(hint)
    if origin is tuple:
        item = args[0]
        if not isinstance(value, list) or not all(isinstance(v, item) and not isinstance(v, bool) for v in value):
            raise EventError(f"expected a list of {item.__name__}, not {value!r}")
        return tuple(value)
    for simple in (int, str, bool):
        if hint is simple or simple in args:
            if isinstance(value, simple) and (simple is bool or not isinstance(value, bool)):
                return value
            raise EventError(f"expected {simple.__name__}, not {value!r}")
    raise EventError(f"cannot read {value!r}")  # pragma: no cover - every field type is handled above
