"""Dice and shuffles for the referees: seeded, reproducible, and recorded by value.

This module owns the referee's only source of chance. Die ``k`` of a game is a pure function of the
game's seed and ``k`` (:func:`die`), and shuffle ``n`` of a game a pure function of the seed, ``n`` and
the cards (:func:`shuffled`). A game state counts the dice it has used, so undoing a roll and rolling
again gives the same dice: undo is never a free re-roll.

Every die that enters an event is a :class:`Dice` group holding the values and where they came from:
rolled by the referee (``k``, the index of its first die) or typed by the player from the physical
dice. Replaying a game never calls a generator; :func:`check_rolled` only verifies a save file.
"""
from __future__ import annotations

import hashlib
from collections.abc import Sequence
from typing import Any

from pnp.deferred import dataclass
from referee.errors import ParseError, as_written

SIDES = 6


class DiceError(ParseError):
    """A die or a group of dice that cannot be used (a value off the die, a save file's dice that are no
    dice table or not the seed's): a :class:`~referee.errors.ParseError`."""


def _number(seed: int, label: str) -> int:
    digest = hashlib.sha256(f"lassadar:{seed}:{label}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


def die(seed: int, k: int) -> int:
    """The value (1-6) of die ``k`` (0-based) of the game with ``seed``. Pure: the same arguments always give the same die."""
    if k < 0:
        raise DiceError(f"die index {k} is negative")
    return _number(seed, f"die:{k}") % SIDES + 1


def shuffled(seed: int, n: int, cards: Sequence[str]) -> tuple[str, ...]:
    """``cards`` in the order of shuffle ``n`` of the game with ``seed`` (Fisher-Yates over a hash stream).

    The result depends on the cards as a multiset, not on their order in ``cards``.
    """
    order = sorted(cards)
    for i in range(len(order) - 1, 0, -1):
        j = _number(seed, f"shuffle:{n}:{i}") % (i + 1)
        order[i], order[j] = order[j], order[i]
    return tuple(order)


@dataclass(frozen=True)
class Dice:
    """A group of dice in an event: ``values`` in the order rolled, and where they came from.

    ``k`` is the game index of the first die when the referee rolled them (die ``k + i`` is
    ``values[i]``); ``None`` when the player typed them from the physical dice.
    """

    values: tuple[int, ...] = ()
    k: int | None = None

    def __post_init__(self) -> None:
        for value in self.values:
            if not isinstance(value, int) or isinstance(value, bool) or not 1 <= value <= SIDES:
                raise DiceError(f"a die shows 1-{SIDES}, not {value!r}")

    @property
    def typed(self) -> bool:
        """True when the player typed these dice."""
        return self.k is None

    @property
    def total(self) -> int:
        """The sum of the dice."""
        return sum(self.values)

    def __str__(self) -> str:
        return " ".join(map(str, self.values)) if self.values else "no dice"

    @classmethod
    def roll(cls, seed: int, k: int, count: int) -> Dice:
        """``count`` dice rolled by the referee, dice ``k`` to ``k + count - 1`` of the game."""
        return cls(tuple(die(seed, k + i) for i in range(count)), k if count else None)

    def seed_place(self) -> str:
        """Which of the seed's dice these are, in words, counted from 1 as people count: ``die 6 of the
        seed``, ``dice 6-9 of the seed`` (the save file's ``k`` counts from 0); ``""`` for typed dice."""
        if self.k is None or not self.values:
            return ""
        first, last = self.k + 1, self.k + len(self.values)
        return f"die {first} of the seed" if first == last else f"dice {first}-{last} of the seed"

    def origin(self) -> str:
        """Where these dice came from, for a log line: ``typed`` (the player's physical dice) or
        ``rolled by the referee, dice 6-7 of the seed``."""
        return "typed" if self.k is None else f"rolled by the referee, {self.seed_place()}"

    def to_dict(self) -> dict[str, Any]:
        """A TOML-able dict: ``{values = [...], k = N}`` or ``{values = [...], typed = true}``."""
        if self.k is None:
            return {"values": list(self.values), "typed": True}
        return {"values": list(self.values), "k": self.k}

    @classmethod
    def from_dict(cls, data: Any) -> Dice:
        """The inverse of :meth:`to_dict`; raises :class:`DiceError` on anything else."""
        if not isinstance(data, dict) or not isinstance(data.get("values"), list):
            raise DiceError(f"dice must be a table with a values list, not {data!r}")
        extra = set(data) - {"values", "k", "typed"}
        if extra:
            raise DiceError(f"dice have unknown keys {sorted(extra)}")
        k = data.get("k")
        if "typed" in data and data["typed"] is not True:  # only `typed = true` is written (forty-eighth breaker, POLISH 3)
            raise DiceError(f"typed is true for dice the player typed, not {as_written(data['typed'])}; dice the referee "
                            f"rolled have no typed key, and their die index k instead")
        if data.get("typed") is True:
            if k is not None:
                raise DiceError("dice are either typed or rolled (k), not both")
            return cls(tuple(data["values"]), None)
        if not isinstance(k, int) or isinstance(k, bool) or k < 0:
            raise DiceError("rolled dice need a die index k = 0 or more" + (", and these have no k" if k is None else
                            f", not {as_written(k)}"))  # (thirty-first breaker: Python's None and reprs)
        return cls(tuple(data["values"]), k)


def check_rolled(seed: int, dice: Dice) -> None:
    """Raise :class:`DiceError` unless dice the referee rolled are the dice of ``seed`` at their index."""
    if dice.k is None:
        return
    expected = Dice.roll(seed, dice.k, len(dice.values))
    if expected.values != dice.values:
        raise DiceError(f"dice {dice} at k={dice.k} are not the dice of seed {seed} ({expected})")
