"""The state of a solo game: one frozen record, everything the table shows plus the referee's counters.

This module owns the shape of the state and nothing else; :mod:`referee.solo.rules` makes and changes
states, :mod:`referee.solo.view` prints them.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

from referee.dice import Dice

Phase = Literal["draw", "battle", "rolled", "loss", "learn", "council", "warding", "over"]
PHASES: tuple[str, ...] = ("draw", "battle", "rolled", "loss", "learn", "council", "warding", "over")


@dataclass(frozen=True)
class Setup:
    """How the game was set up: difficulty, the two starting spells and the seed of its dice and shuffles."""

    difficulty: str
    spells: tuple[str, ...]
    seed: int

    def to_dict(self) -> dict[str, Any]:
        return {"difficulty": self.difficulty, "spells": list(self.spells)}


@dataclass(frozen=True)
class BattleState:
    """The City Quest battle in progress.

    ``casts`` are the spells cast this battle in order (a recharged spell may appear twice),
    ``elders`` the Elders called; ``dice`` and ``enemy`` the dice on the table once rolled;
    ``loss_roll`` the Battle Loss number read from the next card, ``lowered`` the rows Bind, Knot or an
    Elder took off it, ``cancelled`` whether a spell cancelled it.
    """

    card: str
    casts: tuple[str, ...] = ()
    elders: tuple[str, ...] = ()
    dice: tuple[int, ...] = ()
    enemy: tuple[int, ...] = ()
    rolled: bool = False
    loss_roll: int | None = None
    lowered: int = 0
    cancelled: bool = False
    next_card: str | None = None


@dataclass(frozen=True)
class Pending:
    """A spell choice the player must answer with ``learn`` or ``skip``.

    ``price`` is ``"one-mana"`` (Battle Win row 4) or ``"cost"`` (Council of Wardens: the printed
    bracketed cost); ``count`` how many spells are still to choose; ``source`` names what gave it.
    """

    price: Literal["one-mana", "cost"]
    count: int
    source: str


@dataclass(frozen=True)
class State:
    """Everything about a solo game at one moment.

    Tracks: ``mana``, ``spirit`` (1-21 printed; Mana may be 0, Spirit 0 means lost), ``grayking``
    (space on the Progress Track, 1 = Tower of Ash). ``keys`` are the Warding Keys held; ``spells``
    the learned spells in the order learned; ``used`` the spells used in the current battle;
    ``elders`` the Elders beside the stats card as ``(id, uses left)``. Cards: ``deck`` top first,
    ``discard`` bottom first (last is the top), ``removed`` out of the game, ``card`` the quest card
    on the table. ``dice_used`` is the index of the next die the referee rolls, ``shuffles`` the
    number of shuffles so far. ``consumed`` lists what the last event took from the referee's dice
    and deck (field name, value), which :func:`referee.solo.rules.resolve` writes into the event;
    ``notes`` say in words what the last event did and what to do with the physical cards.
    """

    setup: Setup
    mana: int
    spirit: int
    grayking: int
    keys: tuple[int, ...] = ()
    spells: tuple[str, ...] = ()
    used: tuple[str, ...] = ()
    elders: tuple[tuple[str, int], ...] = ()
    deck: tuple[str, ...] = ()
    discard: tuple[str, ...] = ()
    removed: tuple[str, ...] = ()
    card: str | None = None
    phase: Phase = "draw"
    battle: BattleState | None = None
    pending: Pending | None = None
    result: Literal["won", "lost"] | None = None
    reason: str = ""
    dice_used: int = 0
    shuffles: int = 0
    consumed: tuple[tuple[str, Any], ...] = field(default=(), compare=False)
    notes: tuple[str, ...] = field(default=(), compare=False)

    def elder_uses(self, elder_id: str) -> int:
        """Uses left of an Elder beside the stats card (0 when it is not there)."""
        return dict(self.elders).get(elder_id, 0)
