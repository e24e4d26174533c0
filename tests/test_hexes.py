"""Hex geometry shared by the printed battle maps and the referee (pnp/hexes.py).

Rulebook, Expanded Battles, phase a: "You may move two hexes in any direction"; phase b: "Your own
attack range is always one adjacent hex in distance". Both need a distance that matches the printed
grid: adjacent hexes on the card are at distance 1.
"""
from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pnp import hexes

addresses = st.tuples(st.integers(-20, 20), st.integers(-20, 20))


def test_neighbours_are_at_distance_one_and_touch_on_the_printed_grid():
    """Every neighbour's printed centre is one hex width away, the distance that makes hexes share an edge."""
    size = 7.0
    width = math.sqrt(3) * size
    for row in (0, 1, 2, 3):
        here = hexes.centre_mm(4, row, size)
        for column, other_row in hexes.neighbour_addresses(4, row):
            assert hexes.distance((4, row), (column, other_row)) == 1
            there = hexes.centre_mm(column, other_row, size)
            assert math.dist(here, there) == pytest.approx(width)


@given(addresses, addresses)
def test_distance_is_a_metric(a, b):
    assert hexes.distance(a, b) == hexes.distance(b, a)
    assert (hexes.distance(a, b) == 0) == (a == b)


@given(addresses, addresses, addresses)
def test_triangle_inequality(a, b, c):
    assert hexes.distance(a, c) <= hexes.distance(a, b) + hexes.distance(b, c)


@given(addresses, addresses)
def test_distance_matches_printed_centres(a, b):
    """Distance in steps is never less than straight-line distance in hex widths (the grid is honest)."""
    size = 1.0
    steps = hexes.distance(a, b)
    straight = math.dist(hexes.centre_mm(*a, size), hexes.centre_mm(*b, size)) / (math.sqrt(3) * size)
    assert steps >= straight - 1e-9
    assert steps <= straight * 2 / math.sqrt(3) + 1e-9


def test_known_distances_on_odd_rows():
    assert hexes.distance((0, 0), (0, 1)) == 1  # odd row shifted right: (0, 1) touches (0, 0)
    assert hexes.distance((1, 0), (0, 1)) == 1
    assert hexes.distance((0, 1), (1, 0)) == 1
    assert hexes.distance((0, 1), (0, 0)) == 1
    assert hexes.distance((0, 0), (2, 0)) == 2
    assert hexes.distance((0, 0), (0, 2)) == 2
    assert hexes.distance((0, 0), (3, 3)) == 5


def test_parse_layout_reads_numbers_start_recharge_and_gaps():
    grid = hexes.parse_layout("- 2 .\nS R 12\n")
    assert (0, 0) not in grid
    assert grid[(1, 0)].number == 2
    assert grid.start.address == (0, 1)
    assert grid.recharge.address == (1, 1)
    assert [h.address for h in grid.numbered(12)] == [(2, 1)]
    assert grid.columns == 3 and grid.rows == 2


@pytest.mark.parametrize(
    "text,message",
    [
        ("S R 13", "unknown hex '13'"),
        ("S R x", "unknown hex 'x'"),
        ("S . .", "exactly one recharge hex 'R', found 0"),
        ("R S S", "exactly one start hex 'S', found 2"),
        ("- -", "the map has no hexes"),
    ],
)
def test_parse_layout_rejects_bad_maps(text, message):
    with pytest.raises(hexes.HexLayoutError, match=message):
        hexes.parse_layout(text)


def test_path_distances_go_around_blocked_hexes():
    grid = hexes.parse_layout(". . .\n. . .\nS R .")
    free = grid.path_distances((0, 0))
    assert free[(2, 0)] == 2
    walled = grid.path_distances((0, 0), blocked=[(1, 0), (0, 1)])
    assert (2, 0) not in walled or walled[(2, 0)] > 2


def test_bundled_maps_number_every_roll_once_and_reach_every_hex(db):
    """Rulebook, Expanded Battles, step 4: a 2d6 roll places a servant on "the matching numbered hex"."""
    for battle_map in db.solo.battle_map:
        grid = battle_map.hex_map
        for number in range(2, 13):
            assert len(grid.numbered(number)) == 1, (battle_map.id, number)
        reachable = grid.path_distances(grid.start.address)
        assert set(reachable) == {h.address for h in grid}, battle_map.id
        assert grid.start.address != grid.recharge.address
