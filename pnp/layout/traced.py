"""Numbers that remember which template keys they come from (forty-sixth pnp breaker, findings 12, 13, 15).

:meth:`pnp.layout.template.Template.number` hands a layout a :class:`Traced` float: the number's value, and by how much it
changes when each ``[numbers]`` key it was worked out from changes by 1 (its partial derivatives, ``by``). Sums,
differences, products, quotients and negations of traced numbers are traced, so a shape's position and size, and a
check's measure of how far a shape is out ("7.9 mm past the frame's inner rule"), carry the keys that place it and how
each moves it. A problem found on such a shape is said at one of those keys, with the value that moves the shape back
in (:func:`fixes`), where the templates as shipped are not known to tell which key was changed. What is worked out
through anything else (``math.floor``, ``int``, a font's metrics) is a plain float: its keys are not known.
"""
from __future__ import annotations

from typing import Any

_Gradient = dict[str, float]


class Traced(float):
    """A float (mm, pt or a plain number) with ``by``: for each ``[numbers]`` key (``"middle_top"``) it derives from, how
    much it changes when that key changes by 1."""

    by: _Gradient

    def __new__(cls, value: float, by: _Gradient) -> Traced:
        """A traced ``value`` with the derivatives ``by``."""
        made = float.__new__(cls, value)
        made.by = by
        return made

    def __reduce__(self) -> tuple[Any, ...]:
        return (Traced, (float(self), dict(self.by)))

    def __add__(self, other: Any) -> Any:
        kind = type(other)
        if kind is float or kind is int:
            return _Traced(float(self) + other, self.by)
        if kind is Traced:
            return _Traced(float(self) + float(other), _summed(self.by, 1.0, other.by, 1.0))
        return _other(self, other, "__add__")

    __radd__ = __add__

    def __sub__(self, other: Any) -> Any:
        kind = type(other)
        if kind is float or kind is int:
            return _Traced(float(self) - other, self.by)
        if kind is Traced:
            return _Traced(float(self) - float(other), _summed(self.by, 1.0, other.by, -1.0))
        return _other(self, other, "__sub__")

    def __rsub__(self, other: Any) -> Any:
        kind = type(other)
        if kind is float or kind is int:
            return _Traced(other - float(self), _scaled(self.by, -1.0))
        return _other(self, other, "__rsub__")

    def __mul__(self, other: Any) -> Any:
        kind = type(other)
        if kind is float or kind is int:
            return _Traced(float(self) * other, _scaled(self.by, other))
        if kind is Traced:
            return _Traced(float(self) * float(other), _summed(self.by, float(other), other.by, float(self)))
        return _other(self, other, "__mul__")

    __rmul__ = __mul__

    def __truediv__(self, other: Any) -> Any:
        kind = type(other)
        if kind is float or kind is int:
            return _Traced(float(self) / other, _scaled(self.by, 1.0 / other))
        if kind is Traced:
            divisor = float(other)
            return _Traced(float(self) / divisor, _summed(self.by, 1.0 / divisor, other.by, -float(self) / divisor ** 2))
        return _other(self, other, "__truediv__")

    def __rtruediv__(self, other: Any) -> Any:
        kind = type(other)
        if kind is float or kind is int:
            value = other / float(self)
            return _Traced(value, _scaled(self.by, -value / float(self)))
        return _other(self, other, "__rtruediv__")

    def __neg__(self) -> Any:
        return _Traced(-float(self), _scaled(self.by, -1.0))

    def __pos__(self) -> Traced:
        return self

    def __abs__(self) -> Any:
        return self if float(self) >= 0 else -self

    def __round__(self, ndigits: Any = None) -> Any:
        if ndigits is None:
            return round(float(self))
        return Traced(round(float(self), ndigits), self.by)


def _other(number: Traced, other: Any, method: str) -> Any:
    """``number`` combined by ``method`` with ``other``, neither a float nor traced: a bool or a float of another
    subclass counts as its plain value; anything else is not a number."""
    if isinstance(other, (int, float)):
        return getattr(number, method)(float(other))
    return NotImplemented


def _Traced(value: float, by: _Gradient) -> Any:
    """``value`` traced by ``by`` (shared, never changed), or plain when ``by`` is empty."""
    if not by:
        return value
    made = float.__new__(Traced, value)
    made.by = by
    return made


def _scaled(by: _Gradient, factor: float) -> _Gradient:
    if factor == 1.0:
        return by
    if factor == 0.0:
        return {}
    return {key: slope * factor for key, slope in by.items()}


def _summed(first: _Gradient, first_factor: float, second: _Gradient, second_factor: float) -> _Gradient:
    """``first`` times ``first_factor`` plus ``second`` times ``second_factor`` (a slope near 0 left out)."""
    if first is second and first_factor + second_factor == 0.0:
        return {}
    by = dict(_scaled(first, first_factor))
    for key, slope in second.items():
        by[key] = by.get(key, 0.0) + slope * second_factor
    return {key: slope for key, slope in by.items() if abs(slope) > 1e-12}


def traced(value: float, key: str) -> Traced:
    """``value``, the ``[numbers]`` key ``key``, traced as itself."""
    return Traced(value, {key: 1.0})


def slopes(value: Any) -> _Gradient:
    """The keys ``value`` is worked out from with how it moves with each (empty for a plain number)."""
    return dict(value.by) if isinstance(value, Traced) else {}


def fixes(excess: Any, values: dict[str, float], valid: Any = None) -> list[tuple[str, float]]:
    """For ``excess`` (mm a shape is out: more than 0 is wrong), traced, the keys that place it with the value each
    would need alone to bring ``excess`` to 0 (for a shape placed linearly, exact: the key moved back by
    ``excess / slope``), as ``(key, value)`` nearest its present value first (``values``: each key's value now). A key
    whose needed value ``valid(key, value)`` refuses (a size below 0, a pitch below its least) is left out."""
    found = []
    for key, slope in slopes(excess).items():
        if key not in values or abs(slope) < 1e-9:
            continue
        needed = values[key] - float(excess) / slope
        if valid is not None and not valid(key, needed):
            continue
        found.append((key, needed))
    return sorted(found, key=lambda pair: abs(pair[1] - values[pair[0]]) / max(abs(values[pair[0]]), 1.0))


TRACING: list[bool] = []
"""Non-empty while the layouts trace their numbers (:func:`tracing`): :meth:`pnp.layout.template.Template.number` then
hands out :class:`Traced` floats. Tracing is some three times slower, so a check traces only in its error path, when a
problem it found names no key (:func:`pnp.layout.check_fit`)."""


class tracing:  # noqa: N801 (a context, named as one)
    """While entered, the numbers a layout reads are traced (:data:`TRACING`)."""

    def __enter__(self) -> None:
        TRACING.append(True)

    def __exit__(self, *_: object) -> None:
        TRACING.pop()


class not_tracing:  # noqa: N801 (a context, named as one)
    """While entered, the numbers a layout reads are plain, however many :class:`tracing` contexts are open."""

    def __enter__(self) -> None:
        self.saved = list(TRACING)
        TRACING.clear()

    def __exit__(self, *_: object) -> None:
        TRACING[:] = self.saved
