"""Every number and table the seeds give is in ``cards.toml`` exactly as the seed gives it.

The seed texts are parsed here, independently of the database, and compared row by row.
Source: rulebook seed (docs/seeds/001_14b82cefec9e9fa1.txt) and description seed (000_...).
"""
from __future__ import annotations

import re

import pytest

from tests.conftest import ROOT, SEEDS


def section(text: str, start: str, stop: str) -> str:
    """The seed text between the first line equal to ``start`` and the next line starting with ``stop``."""
    begin = text.index("\n" + start + "\n") + len(start) + 2
    end = text.index("\n" + stop, begin)
    return text[begin:end]


def numbered_rows(block: str) -> dict[int, str]:
    """``{1: "raise mana count by one", ...}`` from lines ``1. raise mana count by one``."""
    return {int(m.group(1)): m.group(2) for m in re.finditer(r"^(\d)\. (.+)$", block, re.M)}


def bullet_rows(block: str) -> list[tuple[list[int], str]]:
    """``[([6, 7, 8], "no additional damage"), ...]`` from lines ``• 6, 7, 8: no additional damage``."""
    rows = []
    for match in re.finditer(r"^• ([\d, ]+): (.+)$", block, re.M):
        rows.append(([int(n) for n in match.group(1).split(",")], match.group(2)))
    return rows


def test_vendored_seeds_match_shared_seeds():
    """docs/seeds is a copy of ../shared/seeds (the specification); it must not drift."""
    shared = ROOT.parent / "shared" / "seeds"
    if not shared.is_dir():
        pytest.skip("../shared/seeds is not beside this checkout")
    for name in ("000_13dfdf9d0b0f4cfb.txt", "001_14b82cefec9e9fa1.txt"):
        assert (SEEDS / name).read_bytes() == (shared / name).read_bytes()


@pytest.mark.parametrize("table_id,heading", [("solo.table.battle-win", "Battle Win table:"), ("solo.table.battle-loss", "Battle Loss table:")])
def test_battle_tables_equal_the_rulebook(db, rulebook, table_id, heading):
    """Rulebook, Play, "If it is a City Quest card": the six rows of the Battle Win and Battle Loss tables."""
    block = rulebook[rulebook.index(heading):][:900]
    seed_rows = numbered_rows(block.split("\n\n", 2)[1])
    table = db.table(table_id)
    assert table.dice == "d6"
    assert len(table.rows) == 6 == len(seed_rows)
    for row in table.rows:
        (roll,) = row.roll
        assert row.text == seed_rows[roll]


@pytest.mark.parametrize("key", [1, 2, 3])
def test_eldritch_tables_equal_the_rulebook(db, rulebook, key):
    """Rulebook, Expanded Battle Maps: each map's Eldritch Damage table, row by row, same groups of rolls."""
    heading = f"Eldritch Damage Table (Key {key}):"
    block = rulebook[rulebook.index(heading) + len(heading):].strip().split("\n\n")[0]
    seed_rows = bullet_rows(block)
    table = db.table(f"solo.table.eldritch-{key}")
    assert [(list(r.roll), r.text) for r in table.rows] == seed_rows


@pytest.mark.parametrize("key", [1, 2, 3])
def test_battle_map_event_text_and_servant_count(db, rulebook, key):
    """Rulebook, Expanded Battle Maps: each map's event text verbatim, and the number of servants it names."""
    match = re.search(rf"^Warding Key {key} map\. (.+)$", rulebook, re.M)
    assert match
    battle_map = db.get(f"solo.map.key-{key}")
    assert battle_map.event == match.group(1)
    count = int(re.search(r"Choose (\d) cards", match.group(1)).group(1))
    assert battle_map.servants == count
    assert battle_map.color == {1: "red", 2: "blue", 3: "yellow"}[key]


def test_spell_counters_equal_the_rulebook(db, rulebook):
    """Rulebook, Spell counter cards (Last Stand): Flint 4, 7, 8 and Ice 5, 6, 9, 10, 11, names and texts."""
    for kind in ("Flint", "Ice"):
        block = rulebook[rulebook.index(f"{kind} counters\n"):].split("\n\n")[1]
        seed = [(int(m.group(1)), m.group(2), m.group(3)) for m in re.finditer(r"^• (\d+) ([^:]+): (.+)$", block, re.M)]
        table = db.table(f"solo.table.{kind.lower()}-counters")
        assert [(r.roll[0], r.name, r.text) for r in table.rows] == seed
    counter_positions = sorted(p for card in db.solo.counter_card for p in card.positions)
    assert counter_positions == [4, 5, 6, 7, 8, 9, 10, 11]


def test_last_stand_card_equals_the_rulebook(db, rulebook):
    """Rulebook, The Last Stand (card text): six paragraphs, hit points 8 to 1, gray spaces 6, 3, 2, 1."""
    block = section(rulebook, "The Last Stand (card text)", "Note:")
    paragraphs = [p.strip() for p in block.strip().split("\n\n")]
    (card,) = db.solo.last_stand
    assert list(card.text) == paragraphs
    assert list(card.hit_points) == [8, 7, 6, 5, 4, 3, 2, 1]
    assert "8, 7, 6, 5 (top row) and 4, 3, 2, 1 (bottom row)" in rulebook
    assert sorted(card.gray_spaces, reverse=True) == [6, 3, 2, 1]
    assert "the grey-shaded hit point numbers on the card are 6, 3, 2 and 1" in rulebook
    assert card.player_hit_spirit == -2 and "reduce your spirit count by two" in rulebook
    assert card.grayking_extra_dice == 1


def test_ghast_example_is_normative(db, rulebook):
    """Rulebook, Setup, servant card example: Ghast hit points 2 (red) and 1 (yellow), range 2, 1 damage to Spirit."""
    assert "Hit Points 2 (red) and 1 (yellow). Range 2" in rulebook
    ghast = db.get("solo.servant.ghast-1")
    assert (ghast.hit_points["red"], ghast.hit_points["yellow"], ghast.range, ghast.damage, ghast.damage_to) == (2, 1, 2, 1, "spirit")


def test_solo_setup_numbers(db, rulebook):
    """Rulebook, Setup: tracks start on 14, two attack dice, servants roll one more, 9 servants, 22 quest cards."""
    (stats,) = db.solo.stats
    assert stats.track_start == 14 and "highlighted [14] spaces" in rulebook
    assert db.solo.rules.attack_dice == 2 and "two dice for your attack strength" in rulebook
    assert db.solo.rules.servant_extra_dice == 1 and "one more die than you" in rulebook
    assert len(db.solo.servant) == 9 and "the 9 Servant cards" in rulebook
    assert len(db.solo.quests) == 22 and "the remaining 22 Quest Cards" in rulebook
    assert db.solo.rules.elder_uses == 3 and "three times" in rulebook
    assert db.solo.rules.retreat_spirit == -1 and "a loss of -1 to your Spirit" in rulebook
    assert db.solo.rules.warden_move_hexes == 2 and "move two hexes in any direction" in rulebook
    (track,) = db.solo.progress_track
    names = {p.space: p.name for p in track.names}
    assert names[1] == "Tower of Ash" and names[track.spaces] == "Lassadar"
    # (3) beginner, (2) normal, (1) advanced: beginner furthest from Lassadar
    assert track.start["beginner"] < track.start["normal"] < track.start["advanced"] < track.spaces


def test_spell_names_and_types_from_the_rulebook(db, rulebook):
    """Rulebook, Setup and Play: every named spell exists with its type; extra-dice spells have a one-time cost."""
    named = {"Bind": "oaken", "Knot": "oaken", "Barrier Lock": "oaken", "Shield": "flint", "Shard Knives": "flint",
             "Brittle Knives": "flint", "Hammer Plate": "flint", "Forge Shock": "flint", "Calm": "ice"}
    spells = {s.name: s for s in db.solo.spell}
    for name, spell_type in named.items():
        assert name in rulebook
        assert spells[name].spell_type == spell_type
        assert spells[name].origin == "rulebook"
    assert spells["Shield"].cost.mana > 0 and spells["Shard Knives"].cost.mana > 0  # "cost Mana each time"
    for name in ("Hammer Plate", "Forge Shock"):
        assert spells[name].learn_cost.mana > 0 and spells[name].cost is None and spells[name].extra_dice >= 1
    # "because Hammer Plate was learned, the player may not go back and learn Brittle Knives"
    shard = spells["Shard Knives"]
    assert {"solo.spell.hammer-plate", "solo.spell.brittle-knives"} <= set(shard.opens)
    assert "solo.spell.forge-shock" in spells["Hammer Plate"].opens
    assert spells["Calm"].effect.recharge


def test_counter_positions_exist_on_the_paths(db):
    """Rulebook, Last Stand: counters match spells "positionally": each counter position is a spell of its type."""
    for kind in ("flint", "ice"):
        positions = {s.position for s in db.solo.spell if s.spell_type == kind}
        for row in db.table(f"solo.table.{kind}-counters").rows:
            assert row.roll[0] in positions


def test_duel_numbers_equal_the_description(db, description):
    """Description, Setup/Play/Game End: 9 Locations, 7 dealt, 4 dice, 2 Battle dice, max 6 points, 4 to win."""
    rules = db.duel.rules
    checks = [
        (rules.locations, 9, "The remaining 2 cards are removed"),
        (rules.locations_dealt, 7, "7 are dealt face up"),
        (rules.dice_per_player, 4, "Players each take 4 dice"),
        (rules.battle_dice, 2, "2 Dice are Battle dice"),
        (rules.points_max, 6, "the maximum (6) listed on the track"),
        (rules.power_die_divisor, 2, "divided by 2 and rounded up"),
        (rules.cubes_per_player, 4, "all 4 of either the white or black cubes"),
        (rules.deployable_cubes, 3, "Players only have 3 cubes"),
        (rules.locations_to_win, 4, "control over 4 Locations"),
        (rules.resonance_discount, 1, "cost 1 less MP or SP"),
    ]
    for value, expected, sentence in checks:
        assert sentence in description
        assert value == expected, sentence
    assert len(db.duel.location) == 9
    assert sorted(p.side for p in db.duel.player) == ["shadowmajik", "wardens"]


def test_fingerprint_ignores_print_settings_and_comments(db, tmp_path):
    """Save files record the fingerprint: a print-only or comment-only edit must not orphan a game."""
    from pnp import database

    source = (ROOT / "cards.toml").read_text(encoding="utf-8")
    edited = source.replace("bleed_mm = 3.0", "bleed_mm = 2.5", 1).replace("# Trim size", "# The trim size", 1)
    (tmp_path / "a.toml").write_text(edited, encoding="utf-8")
    assert database.load(tmp_path / "a.toml").fingerprint == db.fingerprint
    changed = source.replace("win = 5\nloss = 2", "win = 4\nloss = 2", 1)
    (tmp_path / "b.toml").write_text(changed, encoding="utf-8")
    assert database.load(tmp_path / "b.toml").fingerprint != db.fingerprint
