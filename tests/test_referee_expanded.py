"""Expanded Battles on the hex maps (referee/solo/expanded.py): each test cites the rulebook sentence
("Expanded Battles", phases a, b, c, steps 1-7) or the ruling (docs/rulings.md, R<n>) it checks.
Geometry is pnp/hexes.py, the module the printed maps are drawn with."""
from __future__ import annotations

import json
import re
import shlex
from dataclasses import replace

import hypothesis.strategies as st
import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings

from pnp import database, hexes
from referee.cli import main
from referee.dice import Dice
from referee.solo import events as ev
from referee.solo import expanded, rules, view
from referee.solo.advice import next_step
from referee.solo.game import SoloGame
from tests.conftest import ROOT

FIXTURES = ROOT / "tests" / "fixtures" / "solo"
DBFILE = str(ROOT / "cards.toml")
DB = database.load(ROOT / "cards.toml")
CITY = {1: "dalnish", 2: "marim", 3: "borolia"}


def dice(*values: int) -> Dice:
    return Dice(values, None)


def on_map(key: int, servants=("ghast-1", "ymp-1"), place=(1, 1, 6, 6), spells=("bind", "shield"), seed=1) -> SoloGame:
    g = SoloGame.new(DB, "normal", [f"solo.spell.{s}" for s in spells], seed)
    g.play(ev.Draw(ev.CardRef(f"solo.quest.{CITY[key]}", True)))
    if key == 3 and len(servants) == 2:
        servants = (*servants, "zhumbi-1")
        place = (*place, 3, 4)
    g.play(ev.Servants(tuple(f"solo.servant.{s}" for s in servants), True, dice(*place)))
    return g


def put(g: SoloGame, warden: str, **where: str) -> None:
    """Move the markers by hand (a test fixture, as a player would set up a position); every hex named
    must be a hex of the map being fought."""
    mb = g.state.map_battle
    grid = g.db.get(mb.map).hex_map
    for name in (warden, *where.values()):
        assert hexes.parse_hex_name(name) in grid, f"{name} is not a hex of {mb.map}"
    servants = tuple(replace(s, hex=hexes.parse_hex_name(where[s.id.rsplit(".", 1)[-1].replace("-", "_")]))
                     if s.id.rsplit(".", 1)[-1].replace("-", "_") in where else s for s in mb.servants)
    g.log.states[-1] = replace(g.state, map_battle=replace(mb, warden=hexes.parse_hex_name(warden), servants=servants))


# ---- Hex geometry shared with the printed maps (pnp/hexes.py) ---------------------------------------------
def test_hex_names_round_trip_and_match_the_printed_grid():
    """R44: A1 is the top-left address; letters are columns, numbers rows from 1."""
    assert hexes.hex_name((0, 0)) == "A1" and hexes.hex_name((2, 3)) == "C4"
    for address in [(c, r) for c in range(9) for r in range(6)]:
        assert hexes.parse_hex_name(hexes.hex_name(address)) == address
    with pytest.raises(ValueError):
        hexes.parse_hex_name("4C")


@pytest.mark.parametrize("battle_map", DB.solo.battle_map, ids=lambda m: m.id)
def test_terminal_map_shows_the_printed_hexes_at_their_addresses(battle_map):
    """`referee solo map` draws the same hexes, numbers, S and R at the same addresses as parse_layout (R44)."""
    state = SoloGame.new(DB, "normal", ["solo.spell.bind", "solo.spell.shield"], 1).state
    lines = ["".join(text for text, _ in line) for line in view.map_picture(state, DB, battle_map.id)]
    grid = battle_map.hex_map
    seen = {}
    for row in range(grid.rows):
        names, contents = lines[1 + 2 * row], lines[2 + 2 * row]
        for match in re.finditer(r"/\s*([A-Z]\d+)\s*\\", names):
            cell = contents[match.start():match.end()]
            seen[hexes.parse_hex_name(match.group(1))] = cell.strip("\\/ ").split()[0]
    assert set(seen) == {h.address for h in grid}
    for h in grid:
        printed = "S" if h.start else "R" if h.recharge else str(h.number) if h.number else "."
        assert seen[h.address] == printed, (hexes.hex_name(h.address), seen[h.address])


@pytest.mark.parametrize("battle_map", DB.solo.battle_map, ids=lambda m: m.id)
def test_neighbours_and_paths_on_the_bundled_maps(battle_map):
    """Phase a: movement counts steps over the printed hexes; adjacent hexes are at distance 1 and
    path distance is never shorter than hex distance."""
    grid = battle_map.hex_map
    start = grid.start.address
    steps = grid.path_distances(start)
    for h in grid:
        for n in grid.neighbours(h.address):
            assert hexes.distance(h.address, n.address) == 1
        assert steps[h.address] >= hexes.distance(start, h.address)


# ---- Setup (steps 1-4) -----------------------------------------------------------------------------------
def test_setup_places_warden_on_start_and_servants_by_2d6():
    """Steps 2-4: the warden on the white cross; each servant on the hex its 2d6 numbers, hit points
    for the map's colour (Ghast red 2: the rulebook's example)."""
    g = on_map(1, place=(1, 1, 6, 5))
    mb = g.state.map_battle
    grid = DB.get("solo.map.key-1").hex_map
    assert mb.warden == grid.start.address and g.state.phase == "map"
    ghast, ymp = mb.servants
    assert ghast.hex == grid.numbered(2)[0].address and ymp.hex == grid.numbered(11)[0].address
    assert (ghast.hit_points, ymp.hit_points) == (2, 1)


def test_referee_draw_sets_aside_repeated_types():
    """Step 3: "continue to draw cards until you encounter the correct number of non-matching servants" (R19)."""
    for seed in range(12):
        g = SoloGame.new(DB, "normal", ["solo.spell.bind", "solo.spell.shield"], seed)
        g.play(ev.Draw(ev.CardRef("solo.quest.borolia", True)))
        g.play(ev.Servants())
        types = [expanded.servant_card(DB, s.id).servant_type for s in g.state.map_battle.servants]
        assert len(types) == 3 and len(set(types)) == 3
        assert g.log.events[-1].servants and g.log.events[-1].place.k is not None


def test_typed_servants_must_differ_in_type_and_number():
    g = SoloGame.new(DB, "normal", ["solo.spell.bind", "solo.spell.shield"], 1)
    g.play(ev.Draw(ev.CardRef("solo.quest.dalnish", True)))
    with pytest.raises(rules.RuleError, match="different types") as refused:
        g.play(ev.Servants(("solo.servant.ghast-1", "solo.servant.ghast-2"), True, dice(1, 1, 2, 2)))
    assert refused.value.field == "servants"
    with pytest.raises(rules.RuleError, match="against 2 servants") as refused:
        g.play(ev.Servants(("solo.servant.ghast-1",), True, dice(1, 1)))
    assert refused.value.field == "servants"


# ---- Phase a: Movement -------------------------------------------------------------------------------------
def test_move_is_refused_when_too_long_occupied_off_map_or_not_a_path():
    """Phase a: "You may move two hexes"; R13: not onto or through a servant, not off the map."""
    g = on_map(1)
    put(g, "C4", ghast_1="D4", ymp_1="H6")
    too_far, off_map, there = rules.Refusal.TOO_FAR, rules.Refusal.OFF_THE_MAP, rules.Refusal.ALREADY_THERE
    for path, message, kind in [(("F4",), "at most 2", too_far), (("D4",), "occupied by Ghast", None), (("A1",), "off the map", off_map),
                                (("B4", "B3", "C3"), "at most 2 hexes", None), (("C3", "E3"), "not next to", None),
                                (("Z9",), "off the map", off_map), (("C4",), "already on C4", there)]:
        before = g.state
        with pytest.raises(rules.RuleError, match=message) as refused:
            g.play(ev.Move(path))
        assert g.state is before and (refused.value.field, refused.value.refusal) == ("path", kind)


def test_move_by_destination_or_path_then_servants_step_toward_you():
    """Phase a: "Each servant then moves one hex toward you ... no closer than a hex adjacent" (R14)."""
    g = on_map(1)
    put(g, "A4", ghast_1="F1", ymp_1="G2")
    s = g.play(ev.Move(("B4", "C4")))
    mb = s.map_battle
    assert mb.warden == (2, 3)
    grid = DB.get("solo.map.key-1").hex_map
    for before, after in zip(("F1", "G2"), mb.servants):
        b = hexes.parse_hex_name(before)
        assert hexes.distance(b, after.hex) == 1
        assert grid.path_distances(mb.warden)[after.hex] == grid.path_distances(mb.warden)[b] - 1


def test_servant_step_never_closer_than_adjacent_and_is_deterministic():
    """R14: an adjacent servant stays; ties are broken by the printed centres, then E, NE, NW, W, SW, SE."""
    grid = DB.get("solo.map.key-2").hex_map
    for h in grid:
        for w in grid:
            if h.address == w.address:
                continue
            to = expanded.servant_step(grid, h.address, w.address)
            assert to != w.address and to in grid
            if hexes.distance(h.address, w.address) == 1:
                assert to == h.address
            assert to == expanded.servant_step(grid, h.address, w.address)


def test_blue_cross_recharges_one_type_and_must_be_left_next_round():
    """Phase a: "recharge all spells of any one type. After doing this you must move away" (R47)."""
    g = on_map(1)
    grid = DB.get("solo.map.key-1").hex_map
    put(g, "D4", ghast_1="H6", ymp_1="I5")
    g.play(ev.Move(("E4",)))
    assert g.state.map_battle.warden == grid.recharge.address
    g.log.states[-1] = replace(g.state, used=("solo.spell.shield",))  # Shield used earlier this round (R53: a recharge brings one back)
    g.play(ev.Recharge("flint"))
    assert g.state.used == ()
    with pytest.raises(rules.RuleError, match="already recharged a spell type this round"):
        g.play(ev.Recharge("ice"))
    while g.state.map_battle.step != "move":
        g.play(ev.Attack(dice(6, 6), dice(1, 1, 1)) if g.state.map_battle.step == "attack" else ev.Accept())
    with pytest.raises(rules.RuleError, match="must move away"):
        g.play(ev.Move())
    # Rules audit: a second (even empty) recharge at the start of that round lifted the duty to leave.
    with pytest.raises(rules.RuleError, match="must move off it this round"):
        g.play(ev.Recharge("oaken"))
    advice = next_step(g.state, DB)  # final check: the Next line offered staying, then refused it
    assert "off the blue cross" in advice and "to stay" not in advice
    g.play(ev.Move(("F4",)))


def test_a_move_too_far_says_how_far_and_why():
    """Phase a: "You may move two hexes in any direction each round" (R13: not through a servant's hex).
    The refusal gives the straight distance, or the way around the servants when they make it longer
    (rules audit: "(around the servants)" was added even with no servant in the way)."""
    g = on_map(1)
    put(g, "C4", ghast_1="H6", ymp_1="I5")
    with pytest.raises(rules.RuleError) as plain:
        g.play(ev.Move(("A3",)))
    assert "A3 is 3 hexes from you at C4; you move at most 2" in str(plain.value)
    put(g, "C4", ghast_1="D4", ymp_1="I5")
    with pytest.raises(rules.RuleError) as around:
        g.play(ev.Move(("E4",)))
    assert "E4 is 3 hexes from you at C4 around the servants (2 in a straight line)" in str(around.value)


def test_recharging_a_type_with_no_learned_spell_is_refused():
    """R47: "recharge all spells of any one type": a type the player holds no spell of has nothing to
    recharge, and taking it would spend the round's and the type's recharge for nothing."""
    g = on_map(1)
    put(g, "D4", ghast_1="H6", ymp_1="I5")
    g.play(ev.Move(("E4",)))
    held = {rules.spell(DB, s).spell_type for s in g.state.spells}
    missing = next(t for t in ("oaken", "flint", "ice") if t not in held)
    with pytest.raises(rules.RuleError, match=f"you have learned no {missing.capitalize()} spell"):
        g.play(ev.Recharge(missing))


# ---- Phase b: Attack -------------------------------------------------------------------------------------
def test_adjacent_servant_takes_a_hit_on_equal_or_greater():
    """Phase b: "Your roll must be equal to or greater" to damage an adjacent (active) servant (R5, R16)."""
    g = on_map(1)
    put(g, "C4", ghast_1="E4", ymp_1="H6")
    g.play(ev.Move(()))
    mb = g.state.map_battle
    assert mb.queue[0] == "solo.servant.ghast-1" and hexes.distance(mb.servant("solo.servant.ghast-1").hex, mb.warden) == 1
    s = g.play(ev.Attack(dice(3, 4), dice(1, 2, 4)))
    assert s.map_battle is None or s.map_battle.servant("solo.servant.ghast-1").hit_points == 1


def test_ranged_servant_out_of_reach_hurts_but_cannot_be_hurt():
    """Phase b: "You may not do any damage to them until you are one adjacent hex in distance away" (R15, R17)."""
    g = on_map(1, servants=("ymp-1", "ghast-1"))
    put(g, "A4", ymp_1="D2", ghast_1="H6")
    g.play(ev.Move(()))  # the Ymp (range 3) steps to distance 2 or 3 and attacks from afar
    mb = g.state.map_battle
    ymp = mb.servant("solo.servant.ymp-1")
    assert mb.queue == ("solo.servant.ymp-1",) and hexes.distance(ymp.hex, mb.warden) > 1
    s = g.play(ev.Attack(dice(6, 6), dice(1, 1, 1)))
    assert s.map_battle.servant("solo.servant.ymp-1").hit_points == 1 and s.mana == 14
    g2 = on_map(1, servants=("ymp-1", "ghast-1"))
    put(g2, "A4", ymp_1="D2", ghast_1="H6")
    g2.play(ev.Move(()))
    s = g2.play(ev.Attack(dice(1, 1), dice(6, 6, 6)))
    s = g2.play(ev.Accept()) if s.map_battle.step == "exchange" else s
    assert s.mana == 13  # Ymp (ymp-1): 1 Mana a hit


def test_shard_knives_bonus_uses_the_attacking_servants_type():
    """R46, R40: a bonus cast on an exchange counts against that servant's type."""
    g = on_map(1, servants=("zhumbi-1", "ymp-1"), spells=("shield", "shard-knives"))
    put(g, "C4", zhumbi_1="D4", ymp_1="H6")
    g.play(ev.Move(()))
    g.play(ev.Attack(dice(1, 2), dice(2, 2, 1)))
    assert g.state.map_battle.step == "exchange"
    g.play(ev.Cast("solo.spell.shard-knives"))
    assert g.state.map_battle.servant("solo.servant.zhumbi-1").hit_points == 1  # 3 + 3 >= 5: one of its 2 on red (3 before the tuning of 2026-12-01)


# ---- Phase c: Eldritch Damage --------------------------------------------------------------------------------
def test_magic_near_a_servant_calls_the_eldritch_roll_and_its_row_applies():
    """Phase c: a spell cast within one hex of a servant: roll 2d6 on the map's table (R18); key 2, 5:
    "active servant slain" (R16)."""
    g = on_map(2, servants=("ghast-1", "ymp-1"))
    put(g, "C3", ghast_1="D3", ymp_1="I1")
    g.play(ev.Move(()))
    g.play(ev.Attack(dice(5, 5), dice(6, 6, 4)))  # 10 to 16: Shield (without the 6) turns it (R34)
    assert g.state.map_battle.step == "exchange"
    g.play(ev.Cast("solo.spell.shield"))
    assert g.state.map_battle.magic_near
    while g.state.map_battle.step == "attack":
        g.play(ev.Attack(dice(1, 1), dice(6, 6, 6)))
    assert g.state.map_battle.step == "eldritch"
    s = g.play(ev.Eldritch(dice(2, 3)))
    assert s.map_battle.servant("solo.servant.ghast-1").hit_points == 0 and s.map_battle.round == 2


def test_no_magic_no_eldritch_roll():
    """Phase c: "If you used any magic spells" - no spell, no roll (R18)."""
    g = on_map(1)
    put(g, "C4", ghast_1="D4", ymp_1="H6")
    g.play(ev.Move(()))
    s = g.play(ev.Attack(dice(1, 1), dice(6, 6, 6)))
    s = g.play(ev.Accept()) if s.map_battle.step == "exchange" else s
    assert s.map_battle.step == "move" and s.map_battle.round == 2


def test_eldritch_re_roll_stands():
    """Phase c: "You may cast any re-roll Flint or Ice spells ... You must abide by the re-roll outcome" (R48)."""
    g = on_map(1, spells=("frost-breath", "rime-mirror"))
    put(g, "C4", ghast_1="D4", ymp_1="H6")
    g.play(ev.Move(()))
    g.play(ev.Cast("solo.spell.frost-breath"))  # +2 Mana within one hex: Eldritch Damage follows
    g.play(ev.Attack(dice(6, 6), dice(1, 1, 1)))
    g.play(ev.Eldritch(dice(1, 1)))  # 2: spirit/mana loss -1 each
    assert g.state.map_battle.step == "eldritch-rolled"
    s = g.play(ev.Cast("solo.spell.rime-mirror", dice=dice(3, 4)))  # 7: no additional damage
    assert s.map_battle.round == 2 and s.spirit == 13  # Frost Breath cost 1 Spirit, no Eldritch loss


# ---- The end (6a, 6b, 7) ----------------------------------------------------------------------------------
def test_all_servants_slain_win_the_key_and_retreat_costs_spirit():
    """6a: the Warding Key, its bonus (key 1: +2 Spirit), the card out of the game; 6b: -1 Spirit, discard."""
    g = on_map(1)
    put(g, "C4", ghast_1="D4", ymp_1="D4")
    g.log.states[-1] = replace(g.state, map_battle=replace(g.state.map_battle, servants=tuple(replace(s, hit_points=1) for s in g.state.map_battle.servants)))
    g.play(ev.Move(()))
    g.play(ev.Attack(dice(6, 6), dice(1, 1, 1)))
    s = g.play(ev.Attack(dice(6, 6), dice(1, 1, 1)))
    assert s.keys == (1,) and s.spirit == 16 and "solo.quest.dalnish" in s.removed and s.phase == "draw" and s.map_battle is None
    g = on_map(2)
    s = g.play(ev.Retreat())
    assert s.spirit == 13 and s.discard[-1] == "solo.quest.marim" and s.map_battle is None


# ---- Through the command line ---------------------------------------------------------------------------
def run(save, line: str, code: int = 0) -> str:
    result = CliRunner().invoke(main, ["solo", *shlex.split(line)],  # save and database named as a player's variables name them
                                env={"NO_COLOR": "1", "LASSADAR_SOLO_SAVE": str(save), "LASSADAR_DB": str(DBFILE)})
    assert result.exit_code == code, f"{line}: {result.output}"
    return result.output


def test_recorded_expanded_battle_replays_from_typed_dice(tmp_path):
    """A map battle typed from physical dice and cards gives exactly the stored log (tests/fixtures/solo/expanded.*)."""
    save = tmp_path / "solo.toml"
    for line in (FIXTURES / "expanded.cmds").read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            run(save, line)
    assert run(save, "log") == (FIXTURES / "expanded.log").read_text()


def test_status_json_and_map_show_the_battle(tmp_path):
    save = tmp_path / "s.toml"
    run(save, "new --difficulty normal --spells bind,shield --seed 3")
    run(save, "draw --card borolia")
    run(save, "servants --servant ghast-1 --servant ymp-2 --servant zhumbi-1 --place 1,1 --place 6,6 --place 2,2")
    status = json.loads(run(save, "status --json"))
    mb = status["map_battle"]
    assert (mb["map"], mb["round"], mb["phase"], mb["warden"]) == ("solo.map.key-3", 1, "move", "A4")
    # zhumbi-1 has 3 hit points on yellow since the tuning of 2026-12-01 (4 before)
    assert [(s["id"], s["hex"], s["hit_points"], s["range"]) for s in mb["servants"]] == [
        ("solo.servant.ghast-1", "H2", 1, 2), ("solo.servant.ymp-2", "I3", 2, 3), ("solo.servant.zhumbi-1", "G4", 3, 1)]
    picture = run(save, "map")
    assert "S W" in picture and "4 Z" in picture and "2 G" in picture and "12 Y" in picture


@pytest.mark.parametrize("line, message", [
    ("move F4", "at most 2"), ("move A1", "off the map"), ("move B4 B3 C3", "at most 2 hexes"),
    ("attack", "does not fit now"), ("eldritch", "does not fit now"), ("recharge ice", "the blue cross is E4"),
    ("warding won", "does not fit now"), ("move 10", "E6 is"),
])
def test_bad_map_commands_are_one_line_and_change_nothing(tmp_path, line, message):
    save = tmp_path / "s.toml"
    run(save, "new --difficulty normal --spells bind,shield --seed 3")
    run(save, "draw --card dalnish")
    run(save, "servants --servant ghast-1 --servant ymp-1 --place 6,6 --place 5,6")
    before = save.read_bytes()
    output = run(save, line, code=1)
    assert message in output and len(output.strip().splitlines()) == 1, output
    assert save.read_bytes() == before


# ---- Hypothesis: random moves and attacks keep every invariant ---------------------------------------------------
hex_names = st.sampled_from([hexes.hex_name((c, r)) for c in range(10) for r in range(7)])
d6 = st.integers(1, 6)
command = st.one_of(
    st.builds(lambda p: ev.Move(tuple(p)), st.lists(hex_names, max_size=2)),
    st.builds(lambda a, b: ev.Attack(dice(*a), dice(*b)), st.lists(d6, min_size=2, max_size=2), st.lists(d6, min_size=3, max_size=3)),
    st.builds(lambda a: ev.Eldritch(dice(*a)), st.lists(d6, min_size=2, max_size=2)),
    st.builds(ev.Cast, st.sampled_from(["solo.spell.shield", "solo.spell.bind", "solo.spell.frost-breath"])),
    st.just(ev.Accept()), st.builds(ev.Recharge, st.sampled_from(["flint", "ice"])), st.just(ev.Retreat()),
)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(key=st.sampled_from([1, 2, 3]), seed=st.integers(0, 1000), commands=st.lists(command, max_size=40))
def test_random_map_play_keeps_every_invariant(key, seed, commands):
    """Hit points never below 0; the warden and every living servant on the map; the warden never on a
    servant's hex; a refused command changes nothing; replaying the events gives the same state."""
    g = SoloGame.new(DB, "normal", ["solo.spell.shield", "solo.spell.frost-breath"], seed)
    g.play(ev.Draw(ev.CardRef(f"solo.quest.{CITY[key]}", True)))
    g.play(ev.Servants())
    grid = DB.get(f"solo.map.key-{key}").hex_map
    for event in commands:
        before = g.state
        try:
            g.play(event)
        except rules.RuleError:
            assert g.state is before
        s = g.state
        assert 0 <= s.mana <= 21 and 0 <= s.spirit <= 21
        if s.map_battle is not None:
            mb = s.map_battle
            assert mb.warden in grid
            for servant in mb.servants:
                assert servant.hit_points >= 0 and servant.hex in grid
            assert mb.warden not in {x.hex for x in mb.living}
            assert mb.living and s.phase == "map"
        else:
            assert s.phase in ("draw", "over")
    replayed = SoloGame.new(DB, "normal", ["solo.spell.shield", "solo.spell.frost-breath"], seed)
    for event in g.log.events:
        replayed.log.push(event)
    assert replayed.state == g.state


def test_the_attack_line_offers_the_blue_cross_recharge_and_the_retreat_the_rules_accept():
    """Issue 10 (found in a new-user trial): on the blue cross in phase b, before the attack, the rules
    accept a recharge (R47, R53: one that brings a spell back), so the Next line offers it, and the
    retreat (6b), warning when its Spirit fells the warden."""
    from referee import advice

    g = on_map(1)
    put(g, "D4", ghast_1="H6", ymp_1="I5")
    g.play(ev.Move(("E4",)))
    assert g.state.map_battle.step == "attack"
    g.log.states[-1] = replace(g.state, used=("solo.spell.shield",))
    commands = advice.commands_in(next_step(g.state, DB))
    assert rules.spell(DB, "solo.spell.shield").spell_type == "flint"
    assert "referee solo recharge flint" in commands and "referee solo retreat" in commands
    assert "referee solo recharge oaken" not in commands  # Bind is not used: nothing to bring back (R53)
    g.log.states[-1] = replace(g.state, spirit=1)
    assert "you would fall and lose the game" in next_step(g.state, DB)
    g.play(ev.Recharge("flint"))
    assert g.state.used == ()
