"""The state of a *Ruin & Renewal I* game: one frozen record of everything on the table, plus the
referee's counters and the hidden part of the round in progress.

This module owns the shape of the state and of a player's dice assignment, nothing else:
:mod:`referee.duel.rules` makes and changes states, :mod:`referee.duel.view` prints them.
"""
from __future__ import annotations

import enum
from dataclasses import field, replace
from typing import Any, Generic, Literal, TypeVar

from pnp.deferred import dataclass
from referee.dice import Dice

Side = Literal["wardens", "shadowmajik"]
SIDES: tuple[Side, Side] = ("wardens", "shadowmajik")
"""The two sides, Wardens first (the Location names read from the Wardens' side)."""

Phase = Literal["marker", "round", "recall", "over"]
"""``marker``: a player places the yellow marker; ``round``: dice are rolled and committed, then
revealed; ``recall``: the round's winner must take a cube back (or forgo the spaces); ``over``."""

T = TypeVar("T")


def other(side: Side) -> Side:
    """The opponent of ``side``."""
    return "shadowmajik" if side == "wardens" else "wardens"


@dataclass(frozen=True)
class PerSide(Generic[T]):
    """One value for each side, read with ``[side]`` and changed with :meth:`set` (a new record)."""

    wardens: T
    shadowmajik: T

    def __getitem__(self, side: Side) -> T:
        if side not in SIDES:
            raise KeyError(side)
        return getattr(self, side)

    def set(self, side: Side, value: T) -> PerSide[T]:
        """A copy with ``side``'s value replaced."""
        if side not in SIDES:
            raise KeyError(side)
        return replace(self, **{side: value})


@dataclass(frozen=True)
class Assignment:
    """A player's four dice as placed on the corners of their player card.

    ``battle`` the two Battle dice; exactly one of ``power`` (the Power die) and ``cast`` (the Casting
    die) is set; ``spell`` the face of the spell cast (the die's value or one below, default the
    die's value); ``reroll`` which of the Battle dice a re-roll spell re-rolls, by value (default the
    lower); ``spare`` the die set aside, when known (a referee-rolled hand always knows it).

    Text form (what players type): ``battle 3,5 cast 4 spell 3 reroll 3 spare 2`` or
    ``battle 3,5 power 6``; :meth:`text` gives it back in this canonical order.
    """

    battle: tuple[int, int]
    power: int | None = None
    cast: int | None = None
    spell: int | None = None
    reroll: int | None = None
    spare: tuple[int, ...] = ()

    def __post_init__(self) -> None:
        if self.spell is not None and self.spell == self.cast:  # one canonical form: the die's own spell is the default
            object.__setattr__(self, "spell", None)

    @property
    def dice(self) -> tuple[int, ...]:
        """Every die this assignment names (Battle, active, spare), sorted: compared with a rolled hand as a multiset."""
        active = (self.power,) if self.power is not None else (self.cast,) if self.cast is not None else ()
        return tuple(sorted(self.battle + active + self.spare))

    @property
    def spell_face(self) -> int | None:
        """The face of the spell cast, or ``None`` when the Power die is used."""
        if self.cast is None:
            return None
        return self.spell if self.spell is not None else self.cast

    def text(self) -> str:
        """The canonical text form, e.g. ``battle 3,5 cast 4 spell 3 spare 2``."""
        out = [f"battle {self.battle[0]},{self.battle[1]}"]
        if self.power is not None:
            out.append(f"power {self.power}")
        if self.cast is not None:
            out.append(f"cast {self.cast}")
            if self.spell is not None and self.spell != self.cast:
                out.append(f"spell {self.spell}")
            if self.reroll is not None:
                out.append(f"reroll {self.reroll}")
        if self.spare:
            out.append("spare " + ",".join(map(str, self.spare)))
        return " ".join(out)

    def __str__(self) -> str:
        return self.text()


class RoundResult(enum.Enum):
    """What a revealed round did at its Location (after python-chess's ``Termination``: a kind, not words).

    ``TIE``: equal Battle Numbers, nothing moves and the next round is fought there (R26);
    ``ADVANCED``: the winner's cube was placed or moved up by the round's spaces (R27, R28);
    ``LOCATION_WON``: ... and reached the top of its track, winning the Location (R76);
    ``CUBES_OUT``: the winner has every cube on other Locations and chooses what to do (R29; the game
    is in the ``recall`` phase); ``FORGONE``: the winner then kept its cubes and forwent the spaces (R29).
    A recall turns ``CUBES_OUT`` into ``ADVANCED``, ``LOCATION_WON`` or ``FORGONE``.
    """

    TIE = "tie"
    ADVANCED = "advanced"
    LOCATION_WON = "location won"
    CUBES_OUT = "cubes out"
    FORGONE = "forgone"


class Termination(enum.Enum):
    """How a game ended (after python-chess's ``Termination``). Description: "Play continues until one
    player has gained control over 4 Locations" (``locations_to_win`` in ``cards.toml``); the game has
    no other end (7 Locations are dealt, so the row never runs out first)."""

    LOCATIONS_CONTROLLED = "locations controlled"


@dataclass(frozen=True)
class Outcome:
    """The end of a game (after python-chess's ``Outcome``): how it ended and who won."""

    termination: Termination
    winner: Side


DiceScheme = Literal["per-side", "sequential"]
"""Where the referee's dice of a duel come from. ``per-side``: each side's dice of a round (its 4 dice
and the Battle dice its spells re-roll) are fixed by the seed, the round and the side, whatever the order
of rolls and undos, so an undo is never a re-roll nor a look at the other side's dice. ``sequential``:
one counter over the game, as saves written before the per-side scheme (their setup names no scheme)
rolled them; kept so that those games load and play on unchanged."""

DICE_SCHEMES: tuple[DiceScheme, ...] = ("per-side", "sequential")


@dataclass(frozen=True)
class Setup:
    """How the game was set up: the seed, the players' names, the seven Locations dealt in a row
    (left to right as the Wardens see them), the two removed from the game, and where the referee's
    dice come from (``dice``, :data:`DiceScheme`)."""

    seed: int
    row: tuple[str, ...]
    removed: tuple[str, ...]
    names: PerSide[str] = PerSide("Wardens", "Shadowmajik")
    dice: DiceScheme = "per-side"

    def to_dict(self) -> dict[str, Any]:
        """The ``[setup]`` table of the save file: ``row``, ``removed``, the two names and the ``dice``
        scheme (the seed is kept beside it)."""
        return {"row": list(self.row), "removed": list(self.removed), "wardens": self.names.wardens, "shadowmajik": self.names.shadowmajik,
                "dice": self.dice}


@dataclass(frozen=True)
class Place:
    """A Location still in the row: its id and the space of each side's cube on its track (0 = no cube)."""

    id: str
    cubes: PerSide[int] = PerSide(0, 0)


@dataclass(frozen=True)
class Hand:
    """One side's part of the round in progress: the dice the referee rolled for it (``rolled``),
    its committed assignment (``assignment``, kept from the other player until the reveal), or only
    the seal of it (``seal``, a SHA-256 hex digest) when it was committed from another device."""

    rolled: Dice | None = None
    assignment: Assignment | None = None
    seal: str | None = None

    @property
    def committed(self) -> bool:
        """True once the side has committed this round, plainly or by a seal (R77)."""
        return self.assignment is not None or self.seal is not None


@dataclass(frozen=True)
class Battle:
    """What the last revealed round did, for the status and the board.

    ``dice`` each side's Battle dice after re-rolls, ``numbers`` the Battle Numbers, ``casts`` the
    spell face each side cast (0 for none), ``gains`` the points each side gained, ``costs`` paid,
    ``winner`` (``None`` on a tie), ``spaces`` the winner's spaces (nomograph plus extra spaces),
    ``result`` what the round did at its Location (:class:`RoundResult`).
    """

    round: int
    location: str
    assignments: PerSide[Assignment]
    dice: PerSide[tuple[int, int]]
    numbers: PerSide[int]
    casts: PerSide[int]
    gains: PerSide[int]
    costs: PerSide[int]
    winner: Side | None
    spaces: int
    result: RoundResult
    void: tuple[Side, ...] = ()
    """The sides whose sealed placing was void (ruling 82): their ``assignments`` entry is what they
    opened, or a stand-in when they forfeited without opening (:data:`referee.duel.rules.FORFEIT`)."""

    @property
    def won(self) -> str | None:
        """The Location won this round (its ``location``), or ``None`` when none was won."""
        return self.location if self.result is RoundResult.LOCATION_WON else None


OWN_DICE = "sealed own dice"
"""The :attr:`State.commit_way` of a side whose last commitment was a seal of its own physical dice (ruling 87)."""


@dataclass(frozen=True)
class State:
    """Everything about a *Ruin & Renewal I* game at one moment.

    ``row`` the Locations not yet controlled, in row order (the row closes up when one is won);
    ``controlled`` the Locations won, in order, as ``(id, side)``; ``current`` the Location under the
    yellow marker (``None`` before the first is chosen); ``chooser`` who places the marker next;
    ``points`` each side's MP / SP (0-6); ``supply`` each side's deployable cubes not on a Location
    (the track marker cube never leaves the player card); ``round`` the number of the round being
    played (0 before the first); ``hands`` the hidden part of that round; ``opened`` both placings of
    the round once revealed, while the reveal waits for re-rolled physical dice (R81), else ``None``;
    ``pending`` the spaces the winner must place after a recall; ``last`` the last revealed round;
    ``dice_used`` the index of the referee's next die; ``commit_way`` how each side last committed in
    this game (``"plain"`` at the referee's terminal, ``"sealed"`` from its own device, of dice the referee rolled
    it, ``OWN_DICE`` (``"sealed own dice"``) from its own device, of its own physical dice, ``None`` not yet;
    R80, ruling 87); ``outcome`` how the game ended, once it has (:class:`Outcome`), else ``None``; ``notes`` what
    the last event did, in words (the end of the game is read from ``outcome``, never from them).
    """

    setup: Setup
    row: tuple[Place, ...]
    points: PerSide[int]
    supply: PerSide[int]
    controlled: tuple[tuple[str, Side], ...] = ()
    current: str | None = None
    chooser: Side = "shadowmajik"
    phase: Phase = "marker"
    round: int = 0
    hands: PerSide[Hand] = PerSide(Hand(), Hand())
    opened: PerSide[Assignment] | None = None
    pending: int = 0
    last: Battle | None = None
    outcome: Outcome | None = None
    dice_used: int = 0
    commit_way: PerSide[str | None] = PerSide(None, None)
    notes: tuple[str, ...] = field(default=(), compare=False)

    @property
    def result(self) -> Side | None:
        """The side that won the game (``outcome.winner``), or ``None`` while it goes on."""
        return self.outcome.winner if self.outcome is not None else None

    def place(self, location_id: str) -> Place:
        """The Location ``location_id`` in the row; raises ``KeyError`` when it is not there."""
        for place in self.row:
            if place.id == location_id:
                return place
        raise KeyError(location_id)

    def controlled_by(self, side: Side) -> tuple[str, ...]:
        """The Locations ``side`` controls, in the order won."""
        return tuple(loc for loc, owner in self.controlled if owner == side)

    def on_locations(self, side: Side) -> int:
        """How many of ``side``'s cubes stand on Location tracks."""
        return sum(1 for place in self.row if place.cubes[side] > 0)
