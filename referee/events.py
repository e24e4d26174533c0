"""The events of both referees: one base class, the TOML form of their fields, and one decoder.

This module owns how an event is written in a save file and read back, nothing about what it does
(each game's ``rules``). A game's events module only declares its events, frozen dataclasses under
:class:`Event`, and registers a :class:`Codec` for a field type of its own (:func:`register`; the duel's
``Assignment``); :class:`EventDecoder` reads them from the dataclass field types.

TOML form: a table with ``type`` (the event's :attr:`Event.kind`) and every field that is set (``None``,
an empty tuple and ``False`` are left out). Field values by type:

- :class:`~referee.dice.Dice`: ``{values = [...], k = N}`` (rolled by the referee, die ``k`` of the
  game onwards) or ``{values = [...], typed = true}`` (the player's physical dice);
- :class:`CardRef`: ``{id = "...", typed = true|false}``;
- a type registered with :func:`register`: what its codec writes (a duel assignment: its text);
- ``tuple[X, ...]``: a list of X; ``str``, ``int``, ``bool`` and ``Literal[...]``: themselves;
  ``X | None``: X (a key left out reads as ``None``).

A key left out reads as the field's default, or as the value its :func:`absent` metadata names (a
field added after saves were written, so that an old save replays as it was played). Reading is
strict: an unknown type or key, a missing required field or a value of the wrong type is an
:class:`EventError` naming the event type, the field and what it expects.
"""
from __future__ import annotations

import dataclasses
import types
import typing
from collections.abc import Callable, Mapping
from typing import Any, ClassVar, Generic, Literal, NamedTuple, TypeVar

from pnp import deferred
from pnp.deferred import dataclass, field_names
from referee.dice import Dice
from referee.errors import ParseError, as_written


class EventError(ParseError):
    """An event table (a save file's, or a duel assignment's text) that does not describe an event:
    ``str(error)`` names the event type and field (``battle event, dice: a die shows 1-6, not 9``)."""


@dataclass(frozen=True)
class CardRef:
    """A card turned over: its id, and whether the player typed it (``typed``) or the referee took its top card."""

    id: str
    typed: bool = False

    def to_dict(self) -> dict[str, Any]:
        """``{id = "...", typed = bool}``."""
        return {"id": self.id, "typed": self.typed}

    @classmethod
    def from_dict(cls, data: Any) -> CardRef:
        """The inverse of :meth:`to_dict` (``typed`` may be left out: false); raises :class:`EventError` on anything else."""
        if not isinstance(data, dict) or not isinstance(data.get("id"), str) or not isinstance(data.get("typed", False), bool) or set(data) - {"id", "typed"}:
            raise EventError(f"a card must be {{ id = \"...\", typed = true|false }}, not {as_written(data)}")
        return cls(data["id"], data.get("typed", False))


# ---- Codecs: the TOML form of a field type -------------------------------------------------------------------------
@dataclass(frozen=True)
class Codec:
    """How the values of one field type are written in a save file and read back: ``write(value)`` gives
    a TOML value, ``read(data)`` the value again or raises a :class:`~referee.errors.ParseError` saying
    what is wrong; ``what`` names what is expected, for the message of a missing field."""

    write: Callable[[Any], Any]
    read: Callable[[Any], Any]
    what: str


CODECS: dict[type, Codec] = {}
"""The field types read and written by a codec (:func:`register`), beside the built-in ``str``,
``int``, ``bool``, ``Literal``, ``tuple[X, ...]`` and ``X | None``."""


def register(cls: type, write: Callable[[Any], Any], read: Callable[[Any], Any], what: str) -> None:
    """Read and write event fields of type ``cls`` with ``write``/``read`` (see :class:`Codec`). A game
    registers its own field types in its events module, before building its :class:`EventDecoder`."""
    CODECS[cls] = Codec(write, read, what)


register(Dice, Dice.to_dict, Dice.from_dict, "dice {values = [...], k = N} or {values = [...], typed = true}")
register(CardRef, CardRef.to_dict, CardRef.from_dict, "a card {id = \"...\", typed = true|false}")


def _write(value: Any) -> Any:
    """One field value in its TOML form."""
    for cls, codec in CODECS.items():
        if isinstance(value, cls):
            return codec.write(value)
    if isinstance(value, tuple):
        return [_write(item) for item in value]
    return value


# ---- Events ---------------------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Event:
    """Base of every event of every game. ``kind`` is the command's name and the ``type`` in the save file."""

    kind: ClassVar[str] = ""

    def to_dict(self) -> dict[str, Any]:
        """The TOML table of this event: ``type`` and every field that is set (not ``None``, ``()`` or ``False``)."""
        out: dict[str, Any] = {"type": self.kind}
        for name in field_names(type(self)):  # (read from the class body: writing a save realises no event class)
            value = getattr(self, name)
            if value is None or value == () or value is False:
                continue
            out[name] = _write(value)
        return out


ABSENT = "referee.absent"
"""The key of a field's metadata naming what a saved table without the field reads as (:func:`absent`)."""


def absent(value: Any) -> dict[str, Any]:
    """Field metadata for a field added after saves were written: a saved table without its key reads
    as ``value``, not as the default (``field(default=True, metadata=absent(False))``)."""
    return {ABSENT: value}


# ---- Reading: one decoder driven by the field types ------------------------------------------------------------
Reader = Callable[[Any], Any]
"""Reads one field's TOML value; raises :class:`~referee.errors.ParseError` with what it expected."""

_SIMPLE: dict[type, tuple[str, str]] = {int: ("an integer", "integers"), str: ("text", "texts"), bool: ("true or false", "true or false values")}
"""The built-in scalar types: what one value is called, and a list of them."""

_NOTHING: Any = object()


def _simple(cls: type) -> Reader:
    what = _SIMPLE[cls][0]

    def read(value: Any) -> Any:
        if isinstance(value, cls) and (cls is bool or not isinstance(value, bool)):
            return value
        raise EventError(f"expected {what}, not {value!r}")
    return read


def _literal(choices: tuple[Any, ...], what: str) -> Reader:
    def read(value: Any) -> Any:
        for choice in choices:
            if value == choice and type(value) is type(choice):
                return choice
        raise EventError(f"expected {what}, not {value!r}")
    return read


def _tuple(item: Reader, item_type: Any, what: str) -> Reader:
    def read(value: Any) -> tuple[Any, ...]:
        if not isinstance(value, list):
            raise EventError(f"expected {what}, not {value!r}")
        out = []
        for number, data in enumerate(value, 1):
            try:
                out.append(item(data))
            except ParseError as error:
                raise EventError(f"expected {what}, not {value!r}" if item_type in _SIMPLE else f"item {number}: {error}") from None
        return tuple(out)
    return read


def _optional(hint: Any) -> Any:
    """``X`` for ``X | None`` (``Optional[X]``), else ``None``."""
    if typing.get_origin(hint) in (typing.Union, types.UnionType):
        others = [arg for arg in typing.get_args(hint) if arg is not type(None)]
        if len(others) == 1 and len(others) < len(typing.get_args(hint)):
            return others[0]
    return None


def reader(hint: Any) -> tuple[Reader, str]:
    """The reader of a field of type ``hint`` and what it expects, in words (``"a list of integers"``).
    Raises ``TypeError`` for a type no reader reads (a union of two types, a codec not registered)."""
    inner = _optional(hint)
    if inner is not None:
        return reader(inner)
    if isinstance(hint, type) and hint in CODECS:
        codec = CODECS[hint]
        return codec.read, codec.what
    if hint in _SIMPLE:
        return _simple(hint), _SIMPLE[hint][0]
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if origin is Literal:
        what = " or ".join(map(str, args))
        return _literal(args, what), what
    if origin is tuple and len(args) == 2 and args[1] is Ellipsis:
        item, item_what = reader(args[0])
        what = f"a list of {_SIMPLE[args[0]][1]}" if args[0] in _SIMPLE else f"a list, each {item_what}"
        return _tuple(item, args[0], what), what
    raise TypeError(f"no reader for the field type {hint!r}: register a codec for it (referee.events.register)")


def _left_out(hint: Any) -> Any:
    """The value :meth:`Event.to_dict` leaves out of a field of type ``hint`` (``None``, ``()`` or
    ``False``), or ``_NOTHING`` when it writes every value."""
    inner = _optional(hint)
    if inner is not None:
        if inner is bool or typing.get_origin(inner) is tuple:
            raise TypeError(f"{hint!r}: None and {'False' if inner is bool else '()'} would both be left out of a save file")
        return None
    if hint is bool:
        return False
    if typing.get_origin(hint) is tuple:
        return ()
    return _NOTHING


class _Field(NamedTuple):  # a tuple, not a record class: made at every command's first event (issue 14)
    name: str
    read: Reader
    what: str
    required: bool
    absent: Any


E = TypeVar("E", bound=Event)


class EventDecoder(Generic[E]):
    """Reads the TOML tables of one game's events (the classes given, each with its own ``kind``) back
    into events: ``decoder.decode(event.to_dict()) == event`` for every event.

    Built once per game from the dataclasses' field types (:func:`typing.get_type_hints`); raises
    ``TypeError`` there for an event no table could describe: two events of one ``kind``, a field type
    no reader reads (:func:`reader`), or a field whose left-out value (``None``, ``()``, ``False``) would
    not read back as itself (its default, or :func:`absent` value, must be that value). With ``deferred=True``
    only the first is checked there, and each class's fields at their first :meth:`decode` (:meth:`check`).
    """

    def __init__(self, *classes: type[E], deferred: bool = False) -> None:
        self.types: dict[str, type[E]] = {}
        """Each event class by its ``kind``, in the order given."""
        self._fields: dict[str, tuple[_Field, ...]] = {}
        for cls in classes:
            if not cls.kind or cls.kind in self.types:
                raise TypeError(f"{cls.__name__}: kind {cls.kind!r} is empty or given twice")
            self.types[cls.kind] = cls
        if not deferred:
            self.check()

    def check(self) -> None:
        """Read every event class's fields now; raises ``TypeError`` as the constructor does. A decoder built
        with ``deferred=True`` (the games' own, at import: a one-shot command then reads the field types of
        the kinds its save holds only, issue 14) reads each kind's at its first :meth:`decode`; the tests call
        this on them."""
        for kind in self.types:
            self._fields_of(kind)

    def _fields_of(self, kind: str) -> tuple[_Field, ...]:
        """The fields of the event class of ``kind`` as :meth:`decode` reads them (read once, then kept)."""
        known = self._fields.get(kind)
        if known is not None:
            return known
        cls = self.types[kind]
        hints = typing.get_type_hints(cls)
        fields = []
        for f in deferred.declared_fields(cls):  # the class's methods are not written to read its fields (issue 14)
            read, what = reader(hints[f.name])
            default = f.default if f.default is not dataclasses.MISSING else _NOTHING
            if f.default_factory is not dataclasses.MISSING:
                default = f.default_factory()
            missing = f.metadata.get(ABSENT, default)
            left_out = _left_out(hints[f.name])
            if left_out is not _NOTHING and missing != left_out:
                raise TypeError(f"{cls.__name__}.{f.name}: a value of {left_out!r} is left out of a save file, "
                                f"and a table without the key must read as it (default or absent({left_out!r}))")
            fields.append(_Field(f.name, read, what, missing is _NOTHING, missing))
        known = self._fields[kind] = tuple(fields)
        return known

    def decode(self, data: Any) -> E:
        """The event a TOML table describes. Raises :class:`EventError` naming the first problem: no
        table (``an event must be a table``), an unknown ``type`` (listing the types), unknown keys, a
        required field left out (``marker event, location: missing; expected text``) or a value of the
        wrong type (``roll event, side: expected wardens or shadowmajik, not 5``; a codec's own message
        for dice, cards and assignments)."""
        if not isinstance(data, Mapping):
            raise EventError(f"an event must be a table, not {data!r}")
        kind = data.get("type")
        cls = self.types.get(kind) if isinstance(kind, str) else None
        if cls is None:
            said = "it has no type" if kind is None else f"{as_written(kind)} is no event type"  # (thirty-first breaker: None)
            raise EventError(f"{said}; types are {', '.join(self.types)}")
        kind = cls.kind
        fields = self._fields_of(kind)
        unknown = set(data) - {f.name for f in fields} - {"type"}
        if unknown:
            raise EventError(f"{kind} event has unknown keys {sorted(unknown)}")
        values: dict[str, Any] = {}
        for f in fields:
            if f.name in data:
                try:
                    values[f.name] = f.read(data[f.name])
                except ParseError as error:
                    raise EventError(f"{kind} event, {f.name}: {error}") from None
            elif f.required:
                raise EventError(f"{kind} event, {f.name}: missing; expected {f.what}")
            else:
                values[f.name] = f.absent
        if hasattr(cls, "__post_init__"):  # an event that checks its fields when made
            return cls(**values)
        event = object.__new__(cls)  # every field given, as __init__ would set them, without writing the class's
        event.__dict__.update(values)  # methods for it: pnp.deferred (issue 14)
        return event
