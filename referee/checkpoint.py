"""Checkpoints: a game's states kept in its save file beside the events, so that a command costs the same
at the 400th event as at the 10th (issue 14) instead of replaying the whole game each time.

The events stay the record of the game; a checkpoint is only a shortcut to the states they lead to. It
is trusted only when everything it was made from is unchanged: the referee's code (:func:`code_revision`,
since a rules fix changes what the same events lead to), the card database, the seed, the setup and every
event, and only on the machine that wrote it: the digest over all of them and the states is an HMAC with a
key of this user on this machine (:func:`pnp.files.machine_key`), so a player who edits a shared save (the duel on
two devices) cannot make the other's referee take an edited state, whatever they recompute. Anything else
(no checkpoint, another machine or version of the referee, a hand-edited event or state, a value that does
not decode, no key that can be kept) and the game is replayed from its events as before, silently: a
checkpoint never makes a save unreadable. ``referee solo check`` and ``referee duel check`` replay the
events and compare every kept state (:func:`differences`, :func:`referee.game.check_save`); so do the tests.

A state is written as JSON (TOML has no null) by :class:`StateCodec`: frozen dataclasses, enums and
``str`` subclasses of the game's own modules by name (nothing else is ever built from a save, so a
shared save file cannot make the referee construct any other object), tuples as lists; then compressed
(zlib) and written in base64, one string a state: machine data, not for editing, a few KB a game.
"""
from __future__ import annotations

import base64
import binascii
import enum
import hashlib
import hmac
import json
import types
import zlib
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from pnp import deferred
from pnp.files import key_problem, machine_key, machine_key_file

EVERY = 32
"""A state is kept after every ``EVERY``-th event, and after the last (and the one before it, :func:`kept_at`): an
``undo`` replays at most ``EVERY - 1`` events from the nearest kept state, and none after a command played."""

KEY = "checkpoint"
"""The save file's table of the checkpoint: ``code``, ``at`` (event counts), ``states`` (JSON), ``digest``."""


class CheckpointError(ValueError):
    """A checkpoint's state that does not decode (a hand edit, or another version's classes)."""


class StateCodec:
    """The JSON form of a game's states: every frozen dataclass, enum and ``str`` subclass defined in
    ``modules`` (a game's state and events modules, and the shared ones) by the name ``module.Class``
    (``solo.state.State``, ``dice.Dice``).

    ``constants`` names objects the rules recognise by identity (``x is FORFEITED``): each is written by its
    name and read back as the very object. ``encode(value)`` gives JSON data; ``decode(data)`` the value again, or raises
    :class:`CheckpointError` for anything it did not write (an unknown class, a field too many or
    missing, a value of no known form). Raises ``ValueError`` on construction when two classes of
    ``modules`` share a name."""

    def __init__(self, modules: Iterable[types.ModuleType], constants: Mapping[str, object] | None = None):
        self._constants = dict(constants or {})
        self._constant_names = {id(value): name for name, value in self._constants.items()}
        self._classes: dict[str, type] = {}
        self._names: dict[type, str] = {}
        for module in modules:
            for value in vars(module).values():
                if not isinstance(value, type) or value.__module__ != module.__name__:
                    continue
                if not (deferred.declared(value) or issubclass(value, enum.Enum) or issubclass(value, str)):
                    continue
                name = f"{module.__name__.removeprefix('referee.')}.{value.__qualname__}"
                if name in self._classes and self._classes[name] is not value:
                    raise ValueError(f"two classes named {name}")
                self._classes[name] = value
                self._names[value] = name
        self._fields: dict[type, frozenset[str]] = {}
        """Each dataclass's field names, read at its first :meth:`decode` (issue 14: a command realises only the
        record classes it meets, :mod:`pnp.deferred`)."""

    def encode(self, value: Any) -> Any:
        """JSON data for ``value``; raises ``TypeError`` for a value of a class the codec does not know."""
        kind = type(value)
        if value is None or kind in (bool, int, float, str):
            return value
        if kind is tuple:
            return [self.encode(item) for item in value]
        if kind is list:
            return {"@list": [self.encode(item) for item in value]}
        if kind is dict:
            return {"@dict": [[self.encode(k), self.encode(v)] for k, v in value.items()]}
        constant = self._constant_names.get(id(value))
        if constant is not None and self._constants[constant] is value:
            return {"@constant": constant}
        name = self._names.get(kind)
        if name is None:
            raise TypeError(f"a checkpoint cannot hold a {kind.__qualname__}")
        if isinstance(value, enum.Enum):
            return {"@": name, "member": value.name}
        if isinstance(value, str):
            return {"@": name, "text": str(value), "attributes": {k: self.encode(v) for k, v in vars(value).items()}}
        return {"@": name, **{k: self.encode(v) for k, v in vars(value).items()}}

    def decode(self, data: Any) -> Any:
        """The value :meth:`encode` gave ``data`` for; raises :class:`CheckpointError`."""
        kind = type(data)
        if data is None or kind in (bool, int, float, str):
            return data
        if kind is list:
            return tuple(self.decode(item) for item in data)
        if kind is not dict:
            raise CheckpointError(f"no value is written as {kind.__name__}")
        if "@list" in data and len(data) == 1 and type(data["@list"]) is list:
            return [self.decode(item) for item in data["@list"]]
        if "@dict" in data and len(data) == 1 and type(data["@dict"]) is list:
            pairs = data["@dict"]
            if not all(type(pair) is list and len(pair) == 2 for pair in pairs):
                raise CheckpointError("a dict is written as pairs")
            return {self._key(self.decode(k)): self.decode(v) for k, v in pairs}
        if "@constant" in data and len(data) == 1:
            if data["@constant"] not in self._constants:
                raise CheckpointError(f"no constant named {data['@constant']!r}")
            return self._constants[data["@constant"]]
        cls = self._classes.get(data.get("@"))  # type: ignore[arg-type]
        if cls is None:
            raise CheckpointError(f"no class named {data.get('@')!r}")
        if issubclass(cls, enum.Enum):
            try:
                return cls[data["member"]]
            except (KeyError, TypeError):
                raise CheckpointError(f"{cls.__qualname__} has no member {data.get('member')!r}") from None
        if issubclass(cls, str):
            text, attributes = data.get("text"), data.get("attributes")
            if type(text) is not str or type(attributes) is not dict:
                raise CheckpointError(f"{cls.__qualname__} is written as text and attributes")
            made = str.__new__(cls, text)
            made.__dict__.update({k: self.decode(v) for k, v in attributes.items()})
            return made
        values = {k: v for k, v in data.items() if k != "@"}
        fields = self._fields.get(cls)
        if fields is None:
            fields = self._fields[cls] = frozenset(f.name for f in deferred.declared_fields(cls))
        if values.keys() != fields:
            raise CheckpointError(f"{cls.__qualname__} has the fields {sorted(fields)}, not {sorted(values)}")
        record = object.__new__(cls)  # frozen dataclasses: no __init__ (the states validate nothing on creation)
        record.__dict__.update({k: self.decode(v) for k, v in values.items()})
        return record

    @staticmethod
    def _key(key: Any) -> Any:
        try:
            hash(key)
        except TypeError:
            raise CheckpointError("a dict key that cannot be a key") from None
        return key


_REVISIONS: dict[tuple[str, ...], str] = {}


def code_revision(folders: Iterable[Path]) -> str:
    """The SHA-256 (hex) of the Python sources directly in ``folders`` (names and bytes, in name order):
    a checkpoint written by other code is not trusted. Read once a process."""
    key = tuple(str(folder) for folder in folders)
    found = _REVISIONS.get(key)
    if found is None:
        digest = hashlib.sha256()
        for folder in key:
            for source in sorted(Path(folder).glob("*.py")):
                digest.update(source.name.encode() + b"\0" + source.read_bytes() + b"\0")
        found = _REVISIONS[key] = digest.hexdigest()
    return found


def kept_at(count: int, before_last: bool = False) -> list[int]:
    """The event counts after which a game of ``count`` events keeps its state: every :data:`EVERY`-th
    and the last (none for a game with no event: its state is the setup's); with ``before_last``, the one
    before the last too, so that an ``undo`` replays nothing (the game keeps it when it knows it without a
    replay: after a command played, not after an undo)."""
    return sorted({*range(EVERY, count + 1, EVERY), *([count] if count else []), *([count - 1] if before_last and count > 1 else [])})


def _pack(data: Any) -> str:
    """JSON ``data`` compressed and in base64 (one line of ASCII)."""
    text = json.dumps(data, separators=(",", ":"), ensure_ascii=False).encode("utf-8")
    return base64.b64encode(zlib.compress(text, 6)).decode("ascii")


def _unpack(written: str) -> Any:
    """The inverse of :func:`_pack`: raises ``ValueError``, ``zlib.error`` or ``binascii.Error``."""
    return json.loads(zlib.decompress(base64.b64decode(written.encode("ascii"), validate=True)).decode("utf-8"))


def _digest(key: bytes, code: str, doc: Mapping[str, Any], at: list[int], states: list[str]) -> str:
    basis = [code, doc.get("database"), doc.get("seed"), doc.get("setup"), doc.get("events"), at, states]
    message = json.dumps(basis, sort_keys=True, separators=(",", ":"), ensure_ascii=False, default=repr).encode()  # a hand-edited date too
    return hmac.new(key, message, hashlib.sha256).hexdigest()


def table(codec: StateCodec, code: str, doc: Mapping[str, Any], states: Mapping[int, Any]) -> dict[str, Any] | None:
    """The ``[checkpoint]`` table of the save document ``doc`` (its envelope, setup and events already
    in it) keeping ``states`` (event count -> the state after that many events); ``None`` without a
    :func:`machine_key` (the save then holds no checkpoint)."""
    key = machine_key()
    if key is None:
        return None
    at = sorted(states)
    written = [_pack(codec.encode(states[n])) for n in at]
    return {"code": code, "at": at, "states": written, "digest": _digest(key, code, doc, at, written)}


def read(codec: StateCodec, code: str, doc: Mapping[str, Any]) -> dict[int, Any]:
    """The states the save document ``doc`` keeps (event count -> state), or ``{}`` when its checkpoint
    is missing or cannot be trusted (:func:`examine`): the game is then replayed from its events."""
    return examine(codec, code, doc)[0]


def examine(codec: StateCodec, code: str, doc: Mapping[str, Any]) -> tuple[dict[int, Any], str]:
    """:func:`read`, and why nothing is trusted (``""`` when the states are): no checkpoint, written by
    another revision of the referee, no key of this user on this machine (:func:`pnp.files.key_problem`: none yet, or its
    file damaged), a malformed table, a digest
    that does not match (another machine's, or an edit), or a state that does not decode."""
    kept = doc.get(KEY)
    if kept is None:
        return {}, "the save holds no checkpoint"
    if not isinstance(kept, dict):
        return {}, "the checkpoint is not a table"
    if not isinstance(kept.get("code"), str):  # (an empty table was said as another version's: helper-162)
        return {}, "the checkpoint's table is malformed"
    if kept.get("code") != code:
        return {}, "the checkpoint was written by another version of the referee"
    key = machine_key(create=False)  # reading makes no key: a refused command leaves no data folder
    if key is None:
        return {}, key_problem(machine_key_file())
    at, written = kept.get("at"), kept.get("states")
    count = len(doc.get("events", ()))
    if (not isinstance(at, list) or not isinstance(written, list) or len(at) != len(written)
            or not all(type(n) is int and 0 < n <= count for n in at) or not all(isinstance(s, str) for s in written)):
        return {}, "the checkpoint's table is malformed"
    if "digest" not in kept:  # written last: a file cut short after its events (forty-first referee breaker, F4)
        return {}, "the checkpoint has no digest: the file was cut short after its events, which are whole"
    if not hmac.compare_digest(str(kept.get("digest")), _digest(key, code, doc, at, written)):
        return {}, "the checkpoint's digest does not match (written on another machine or by another user, or edited)"
    try:
        return {n: codec.decode(_unpack(s)) for n, s in zip(at, written, strict=True)}, ""
    except (CheckpointError, ValueError, RecursionError, zlib.error, binascii.Error) as error:
        return {}, f"a state of the checkpoint does not decode ({str(error)[:80]})"


def differences(codec: StateCodec, kept: Mapping[int, Any], replayed: Mapping[int, Any]) -> list[tuple[int, str]]:
    """Where the states ``kept`` (a checkpoint's) differ from ``replayed`` (the same event counts, states
    of a replay of the events): ``(event count, the first field that differs)`` for each, in order. States
    are compared in their written form, every field (the notes too)."""
    found = []
    for count in sorted(kept):
        if count not in replayed:
            found.append((count, "no such state in the replay"))
            continue
        ours, theirs = codec.encode(kept[count]), codec.encode(replayed[count])
        if ours != theirs:
            found.append((count, _first_difference(ours, theirs, "state")))
    return found


def _first_difference(a: Any, b: Any, where: str) -> str:
    if isinstance(a, dict) and isinstance(b, dict):
        for name in sorted(set(a) | set(b)):
            if a.get(name) != b.get(name):
                return _first_difference(a.get(name), b.get(name), f"{where}.{name}" if not name.startswith("@") else where)
    if isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        for index, (x, y) in enumerate(zip(a, b, strict=True)):
            if x != y:
                return _first_difference(x, y, f"{where}[{index}]")
    return f"{where}: {str(a)[:40]} kept, {str(b)[:40]} replayed"
