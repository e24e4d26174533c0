"""Hex geometry of the Expanded Battle Maps, shared by the card renderer and the referee.

This module owns how a map's hex grid is written in ``cards.toml``, how hexes are addressed, and
the distances, neighbours and paths between them. The printed map (``pnp.layout``) and the referee's
movement and range rules (rulebook, "Expanded Battles", phases a and b) both use it, so a hex the
referee names is the hex printed on the card.

Grid: pointy-top hexes in "odd-r" offset rows (every odd row shifted half a hex to the right),
addressed as ``(column, row)`` from the top-left hex, both 0-based. Distances use cube coordinates.

Map text (``layout`` in a ``[[solo.battle_map]]`` record): one line per row, tokens separated by
spaces; ``.`` is a plain hex, ``2`` to ``12`` a hex numbered for 2d6 servant placement, ``S`` the
warden start hex (the white cross), ``R`` the recharge hex (the blue cross), ``-`` no hex (a gap in
the map). Odd rows are drawn shifted right; the text does not need to show that shift.
"""
from __future__ import annotations

import math
from collections import deque
from collections.abc import Iterable, Iterator, Mapping
from functools import lru_cache
from types import MappingProxyType

from pnp.deferred import dataclass

START = "S"
RECHARGE = "R"
PLAIN = "."
GAP = "-"


class HexLayoutError(ValueError):
    """A map's layout text is malformed.

    ``row`` and ``column`` (0-based) locate the bad token, ``None`` for a problem of the whole map (no
    recharge hex at all); ``reason`` says what is wrong and what would be right.
    """

    def __init__(self, row: int | None, column: int | None, reason: str):
        super().__init__(f"row {row + 1}, column {(column or 0) + 1}: {reason}" if row is not None else reason)
        self.row = row
        self.column = column
        self.reason = reason


@dataclass(frozen=True, order=True)
class Hex:
    """One hex of a map: its ``column`` and ``row`` (odd-r offset, 0-based) and what is printed on it.

    ``number`` is the 2d6 placement number (2-12) or ``None``; ``start`` marks the warden start hex
    (white cross) and ``recharge`` the spell recharge hex (blue cross).
    """

    column: int
    row: int
    number: int | None = None
    start: bool = False
    recharge: bool = False

    @property
    def address(self) -> tuple[int, int]:
        """``(column, row)`` of this hex."""
        return (self.column, self.row)


def cube(column: int, row: int) -> tuple[int, int, int]:
    """Cube coordinates ``(x, y, z)`` with ``x + y + z == 0`` of the odd-r offset hex ``(column, row)``."""
    x = column - (row - (row & 1)) // 2
    z = row
    return (x, -x - z, z)


def distance(a: tuple[int, int], b: tuple[int, int]) -> int:
    """Hex distance (number of steps) between two ``(column, row)`` addresses on an odd-r grid.

    Adjacent hexes are at distance 1; a hex is at distance 0 from itself.
    """
    ax, ay, az = cube(*a)
    bx, by, bz = cube(*b)
    return max(abs(ax - bx), abs(ay - by), abs(az - bz))


_ODD_R_STEPS = (
    # even rows, odd rows: (d_column, d_row) for E, NE, NW, W, SW, SE
    ((1, 0), (0, -1), (-1, -1), (-1, 0), (-1, 1), (0, 1)),
    ((1, 0), (1, -1), (0, -1), (-1, 0), (0, 1), (1, 1)),
)


def neighbour_addresses(column: int, row: int) -> list[tuple[int, int]]:
    """The six addresses around ``(column, row)`` (some may be off the map), in the order E, NE, NW, W, SW, SE."""
    return [(column + dc, row + dr) for dc, dr in _ODD_R_STEPS[row & 1]]


@dataclass(frozen=True)
class HexMap:
    """A parsed battle map: every hex by address, in reading order.

    Raises nothing itself; build one with :func:`parse_layout`.
    """

    hexes: tuple[Hex, ...]

    def __post_init__(self) -> None:
        by_address = {h.address: h for h in self.hexes}
        object.__setattr__(self, "_by_address", by_address)
        object.__setattr__(self, "_adjacent", {a: tuple(n for n in neighbour_addresses(*a) if n in by_address) for a in by_address})
        object.__setattr__(self, "_distances", {})

    def __contains__(self, address: object) -> bool:
        return address in self._by_address  # type: ignore[attr-defined]

    def __iter__(self) -> Iterator[Hex]:
        return iter(self.hexes)

    def __getitem__(self, address: tuple[int, int]) -> Hex:
        return self._by_address[address]  # type: ignore[attr-defined]

    @property
    def columns(self) -> int:
        """Width of the grid in hex columns (the widest row)."""
        return 1 + max(h.column for h in self.hexes)

    @property
    def rows(self) -> int:
        """Height of the grid in hex rows."""
        return 1 + max(h.row for h in self.hexes)

    @property
    def start(self) -> Hex:
        """The warden start hex (white cross)."""
        return next(h for h in self.hexes if h.start)

    @property
    def recharge(self) -> Hex:
        """The spell recharge hex (blue cross)."""
        return next(h for h in self.hexes if h.recharge)

    def numbered(self, number: int) -> list[Hex]:
        """Every hex printed with the 2d6 placement ``number`` (usually one)."""
        return [h for h in self.hexes if h.number == number]

    def neighbours(self, address: tuple[int, int]) -> list[Hex]:
        """The on-map hexes adjacent to ``address``."""
        return [self[a] for a in neighbour_addresses(*address) if a in self]

    def path_distances(self, origin: tuple[int, int], blocked: Iterable[tuple[int, int]] = ()) -> Mapping[tuple[int, int], int]:
        """Steps from ``origin`` to every hex reachable over the map without entering ``blocked`` hexes.

        Breadth-first search over on-map neighbours; gaps and off-map addresses are never entered. The
        result is read-only and kept for the next call with the same ``origin`` and ``blocked`` (the
        referee asks it again and again for a few positions in a battle; at most
        :data:`DISTANCES_KEPT` are kept a map).
        """
        blocked_set = frozenset(blocked) - {origin}
        key = (origin, blocked_set)
        cache: dict = self._distances  # type: ignore[attr-defined]
        found = cache.get(key)
        if found is not None:
            return found
        adjacent = self._adjacent  # type: ignore[attr-defined]
        steps = {origin: 0}
        queue = deque([origin])
        while queue:
            here = queue.popleft()
            for address in adjacent.get(here, ()):
                if address not in steps and address not in blocked_set:
                    steps[address] = steps[here] + 1
                    queue.append(address)
        if len(cache) >= DISTANCES_KEPT:
            cache.clear()
        found = cache[key] = MappingProxyType(steps)
        return found


DISTANCES_KEPT = 512
"""How many results of :meth:`HexMap.path_distances` a map keeps (positions and blocked hexes): some 2 KB each, so at
most about 1 MB a map. 4096 made ``referee simulate``'s memory grow for thousands of games (issue 14: flat in the
number of games; ``bench/simulate_memory.py``: 1.17x for 10x the games, 1.08x with 512) for no speed: a simulated
game asks a few dozen, and 300 games left fewer than 600 on the largest map."""


MAX_COLUMNS = 26
"""The most hexes and gaps a row of a map holds: its columns are named by the letters A to Z (:func:`hex_name`)."""


@lru_cache(maxsize=64)
def parse_layout(text: str) -> HexMap:
    """Parse a map's layout text (see the module docstring) into a :class:`HexMap`; the same text gives
    the same (immutable) map, parsed once (the referee asks for a map's grid at every move).

    Raises :class:`HexLayoutError` for an unknown token, a number outside 2-12, a row of more than
    :data:`MAX_COLUMNS` hexes and gaps, no or several start hexes, no or several recharge hexes, or an empty map.
    """
    hexes: list[Hex] = []
    lines = [line for line in text.strip("\n").splitlines()]
    for row, line in enumerate(lines):
        tokens = line.split()
        if len(tokens) > MAX_COLUMNS:  # forty-sixth pnp breaker, F7: column 27 had no name and broke check and build
            raise HexLayoutError(row, MAX_COLUMNS, f"{len(tokens)} hexes and gaps in the row; a map has at most "
                                                   f"{MAX_COLUMNS} a row (its columns are named A to Z)")
        for column, token in enumerate(tokens):
            if token == GAP:
                continue
            if token == PLAIN:
                hexes.append(Hex(column, row))
            elif token == START:
                hexes.append(Hex(column, row, start=True))
            elif token == RECHARGE:
                hexes.append(Hex(column, row, recharge=True))
            elif token.isdigit() and 2 <= int(token) <= 12:
                hexes.append(Hex(column, row, number=int(token)))
            else:
                raise HexLayoutError(row, column, f"unknown hex {token!r}; use '.', '-', 'S', 'R' or a number 2-12")
    if not hexes:
        raise HexLayoutError(0, 0, "the map has no hexes")
    for flag, name in ((lambda h: h.start, "start hex 'S'"), (lambda h: h.recharge, "recharge hex 'R'")):
        found = [h for h in hexes if flag(h)]
        if len(found) != 1:
            places = " and ".join(f"row {h.row + 1} column {h.column + 1}" for h in found)
            raise HexLayoutError(found[0].row if found else None, found[0].column if found else None,  # the first, or the whole map
                                 f"the map needs exactly one {name}, found {len(found)}" + (f" ({places})" if found else ""))
    return HexMap(tuple(hexes))


def centre_mm(column: int, row: int, size_mm: float) -> tuple[float, float]:
    """Centre ``(x, y)`` in mm of hex ``(column, row)``, measured from the centre of hex ``(0, 0)``.

    ``size_mm`` is the hex's circumradius (centre to corner); x grows right, y grows down.
    """
    width = math.sqrt(3) * size_mm
    x = column * width + (width / 2 if row & 1 else 0.0)
    y = row * 1.5 * size_mm
    return (x, y)


def corners_mm(centre: tuple[float, float], size_mm: float) -> list[tuple[float, float]]:
    """The six corners ``(x, y)`` in mm of a pointy-top hex with circumradius ``size_mm``, clockwise from the top."""
    cx, cy = centre
    return [
        (cx + size_mm * math.cos(math.radians(angle)), cy + size_mm * math.sin(math.radians(angle)))
        for angle in (-90, -30, 30, 90, 150, 210)
    ]


def hex_name(address: tuple[int, int]) -> str:
    """The name a player reads a hex by: column letter and row number, ``A1`` the top-left address.

    Columns are the odd-r offset columns (A = column 0) and rows count from 1 at the top, so on a
    printed map row 1 is the top row and, within a row, letters run left to right (a row that starts
    with a gap starts at B). The referee prints these names; ``referee solo map`` shows them on every hex.
    """
    column, row = address
    if not 0 <= column < MAX_COLUMNS or row < 0:
        raise ValueError(f"no hex name for address {address!r}")
    return f"{chr(ord('A') + column)}{row + 1}"


def parse_hex_name(text: str) -> tuple[int, int]:
    """The address of a hex name such as ``C4`` or ``c4`` (see :func:`hex_name`); raises ``ValueError``."""
    cleaned = text.strip().upper()
    if len(cleaned) < 2 or not "A" <= cleaned[0] <= "Z" or not cleaned[1:].isdigit() or int(cleaned[1:]) < 1:
        raise ValueError(f"{text!r} is not a hex name; a hex is a column letter and a row number, e.g. C4")
    return (ord(cleaned[0]) - ord("A"), int(cleaned[1:]) - 1)
