"""``dataclass`` as the standard library's, with the methods written when the class is first used.

The standard ``dataclasses.dataclass`` writes each class's ``__init__``, ``__repr__``, ``__eq__``,
``__hash__`` and, for a frozen class, ``__setattr__`` and ``__delattr__`` as Python source and compiles
them while the module is imported: about 0.5 ms a class on Python 3.11. The referee defines some
eighty record classes (the card database's records, the game's state and events), and a one-shot
command such as ``referee solo status`` uses fewer than half of them: a database read from its cache is
unpickled without calling ``__init__``, and a game's log names only some event kinds. Issue 14 asks a
one-shot command to cost at most twice ``python -c "import click"``; compiling the unused classes'
methods was a third of that budget.

:func:`dataclass` takes the standard decorator's arguments and returns the class with stand-ins for the
methods the standard decorator would add. The first stand-in called (building a record, comparing,
hashing, printing or assigning to one), or the first look-up of ``__dataclass_fields__`` (as
``dataclasses.fields``, ``replace``, ``asdict``, ``is_dataclass`` and pydantic do), removes the
stand-ins and applies ``dataclasses.dataclass`` to the class with the same arguments. From then on the
class is exactly the standard dataclass: no cost remains on later calls. Unpickling a record (the
database cache) and ``typing.get_type_hints`` (the event codec) need no methods and realise nothing.

Threads: realising a class removes its stand-ins before the standard decorator writes the real methods, and a second
thread that looks one up in between finds ``object``'s (fiftieth breaker, MED 4: ``Aid() takes no arguments`` under a
forced thread switch). A program realises every declared class (:func:`realise_all`) before it starts a thread that
uses them: the referee's table mode does, before its background aid search.

Type checkers see the standard decorator (the name is imported from :mod:`dataclasses` under
``TYPE_CHECKING``), so fields, keyword-only arguments and frozenness are checked as before.
"""
from __future__ import annotations

import dataclasses
import re
import threading
import types
import typing
import weakref
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any, ClassVar, NamedTuple

__all__ = ["Declared", "dataclass", "declared", "declared_fields", "field_names", "realise", "realise_all"]

_REALISING = threading.RLock()
"""Held while a class is being realised, so that two threads never apply the decorator to one class twice."""

_PENDING = "__deferred_dataclass__"
"""The class attribute holding ``(options, names of the stand-ins)`` until the class is realised."""


def realise(cls: type) -> type:
    """Apply ``dataclasses.dataclass`` to ``cls`` now, with the options it was declared with, if it has not
    been applied yet; returns ``cls``. A class not declared with :func:`dataclass` is returned unchanged."""
    with _REALISING:
        pending = cls.__dict__.get(_PENDING)
        if pending is None:
            return cls
        options, stand_ins = pending
        for name in (*stand_ins, _PENDING):
            delattr(cls, name)
        return dataclasses.dataclass(cls, **options)


def realise_all() -> int:
    """Realise every class declared with :func:`dataclass` so far (see the module's text on threads); returns how many
    were realised now."""
    with _REALISING:
        waiting = [cls for cls in list(_DECLARED) if _PENDING in cls.__dict__]
        for cls in waiting:
            realise(cls)
    return len(waiting)


def declared(cls: type) -> bool:
    """Whether ``cls`` is a dataclass or a subclass of one, realised or not (:func:`dataclasses.is_dataclass`
    without realising a class declared with :func:`dataclass`)."""
    return any(_PENDING in base.__dict__ or "__dataclass_fields__" in base.__dict__ for base in cls.__mro__)


class Declared(NamedTuple):
    """A field as declared in a class's body, read without realising the class (:func:`declared_fields`)."""

    name: str
    default: Any
    """The default value, or ``dataclasses.MISSING``."""
    default_factory: Any
    """The callable that makes the default, or ``dataclasses.MISSING``."""
    metadata: Mapping[str, Any]


_NOT_FIELDS = re.compile(r"^(typing\.|dataclasses\.)?(ClassVar|InitVar|KW_ONLY)\b")
"""An annotation (written as text: the modules use ``from __future__ import annotations``) that declares no field."""


def field_names(cls: type) -> tuple[str, ...]:
    """The names of :func:`declared_fields` of ``cls``, in order, found once a class (the rules copy records and
    write events by them millions of times). Raises ``TypeError`` for a class that is no dataclass."""
    names = _NAMES.get(cls)
    if names is None:
        names = _NAMES[cls] = tuple(f.name for f in declared_fields(cls))
    return names


_NAMES: weakref.WeakKeyDictionary[type, tuple[str, ...]] = weakref.WeakKeyDictionary()


def declared_fields(cls: type) -> tuple[Declared, ...]:
    """The fields of the dataclass ``cls`` (or subclass of one), in the order and with the defaults and metadata
    ``dataclasses.fields`` gives, without realising a class declared with :func:`dataclass`: a one-shot referee
    command reads a save's events and a checkpoint's states by their fields without writing their classes'
    methods (issue 14; ``tests/test_deferred.py`` checks every record class of the project against
    ``dataclasses.fields``). Raises ``TypeError`` for a class that is no dataclass."""
    if _PENDING not in cls.__dict__:
        if not dataclasses.is_dataclass(cls):
            raise TypeError(f"{cls.__qualname__} is no dataclass")
        if "__dataclass_fields__" in cls.__dict__ or not any(_PENDING in base.__dict__ for base in cls.__mro__):
            return tuple(Declared(f.name, f.default, f.default_factory, f.metadata) for f in dataclasses.fields(cls))
    found: dict[str, Declared] = {}
    for base in reversed(cls.__mro__[1:]):
        if _PENDING in base.__dict__ or "__dataclass_fields__" in base.__dict__:
            found.update((f.name, f) for f in declared_fields(base))
    for name, annotation in cls.__dict__.get("__annotations__", {}).items():
        written = annotation if isinstance(annotation, str) else getattr(annotation, "__name__", repr(annotation))
        if annotation is ClassVar or typing.get_origin(annotation) is ClassVar or _NOT_FIELDS.match(written):
            continue
        value = cls.__dict__.get(name, dataclasses.MISSING)
        if isinstance(value, dataclasses.Field):
            found[name] = Declared(name, value.default, value.default_factory, value.metadata)
        else:
            found[name] = Declared(name, value, dataclasses.MISSING, _NO_METADATA)
    return tuple(found.values())


_NO_METADATA: Mapping[str, Any] = types.MappingProxyType({})


class _Fields:
    """A stand-in for a class attribute the standard decorator sets (``__dataclass_fields__``,
    ``__dataclass_params__``): looking it up realises the class and gives the real value."""

    def __init__(self, name: str, owner: type) -> None:
        self.name = name
        self.owner = owner

    def __get__(self, instance: object, owner: type | None = None) -> Any:
        return getattr(realise(self.owner), self.name)


def _stand_in(cls: type, name: str) -> Callable[..., Any]:
    """A method of ``cls`` named ``name`` that realises ``cls`` and then calls the method the standard
    decorator wrote (``cls``, not the instance's type: a subclass calling ``super().__init__`` lands here)."""

    def method(self: object, *args: Any, **kwargs: Any) -> Any:
        real = getattr(realise(cls), name)
        if real is None:  # __hash__ of a mutable dataclass with eq: unhashable, as the standard class is
            raise TypeError(f"unhashable type: '{cls.__name__}'")
        return real(self, *args, **kwargs)

    method.__name__ = name
    method.__qualname__ = f"{cls.__qualname__}.{name}"
    return method


def _methods(options: dict[str, Any]) -> list[str]:
    """The names of the methods the standard decorator may add to a class declared with ``options``."""
    names = []
    if options.get("init", True):
        names.append("__init__")
    if options.get("repr", True):
        names.append("__repr__")
    if options.get("eq", True) or options.get("unsafe_hash", False):
        names.extend(("__eq__", "__hash__"))
    if options.get("order", False):
        names.extend(("__lt__", "__le__", "__gt__", "__ge__"))
    if options.get("frozen", False):
        names.extend(("__setattr__", "__delattr__"))
    return names


_DEFERRED = {"init", "repr", "eq", "order", "frozen", "kw_only", "unsafe_hash"}
"""The options whose classes are deferred; a class with any other (``slots``, ``match_args=False``...)
is decorated at once, as the methods they add are not stood in for."""


def _deferred(cls: type, options: dict[str, Any]) -> type:
    """``cls`` with stand-ins for the standard decorator's methods and attributes (see the module's text)."""
    if not set(options) <= _DEFERRED or _PENDING in cls.__dict__:
        return dataclasses.dataclass(cls, **options)
    stand_ins = [name for name in _methods(options) if name not in cls.__dict__]
    for name in stand_ins:
        setattr(cls, name, _stand_in(cls, name))
    for name in ("__dataclass_fields__", "__dataclass_params__", "__match_args__"):
        setattr(cls, name, _Fields(name, cls))
        stand_ins.append(name)
    setattr(cls, _PENDING, (options, tuple(stand_ins)))
    _DECLARED.add(cls)
    return cls


_DECLARED: weakref.WeakSet[type] = weakref.WeakSet()
"""Every class declared with :func:`dataclass` (for :func:`realise_all`; a class no longer used is forgotten)."""


if TYPE_CHECKING:
    from dataclasses import dataclass
else:

    def dataclass(cls: type | None = None, /, **options: Any) -> Any:
        """``dataclasses.dataclass(cls, **options)``, applied when ``cls`` is first used (see the module's
        text). Used bare (``@dataclass``) or with the standard options (``@dataclass(frozen=True)``)."""
        if cls is None:
            return lambda cls: _deferred(cls, options)
        return _deferred(cls, options)
