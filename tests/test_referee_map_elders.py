"""Elders called in the referee's Expanded Battle (referee/solo/expanded.py): each test cites the rulebook
sentence ("If it is an Elders card", the Note on Elder San, "Expanded Battles" phases b and c) or the
ruling (docs/rulings.md, R<n>: R11 Elders, R18, R34, R46, R48, R50 Elders on the map) it checks."""
from __future__ import annotations

import json
from dataclasses import replace

import hypothesis.strategies as st
import pytest
from hypothesis import HealthCheck, given, settings

from referee import save as savefile
from referee.solo import aid, expanded, rules
from referee.solo import events as ev
from referee.solo import game as solo_game
from referee.solo.advice import next_step
from referee.solo.game import SoloGame
from tests.test_referee_expanded import CITY, DB, FIXTURES, dice, put, run

SAN, MAELIS, RHUN = "solo.quest.elder-san", "solo.quest.elder-maelis", "solo.quest.elder-rhun"
GHAST, YMP = "solo.servant.ghast-1", "solo.servant.ymp-1"


def card(name: str) -> ev.CardRef:
    return ev.CardRef(f"solo.quest.{name}", True)


def with_elders(elders=("elder-san", "elder-maelis", "elder-rhun"), spells=("bind", "frost-breath"), seed=1) -> SoloGame:
    """A new game that has drawn ``elders`` (laid beside the stats card, 3 uses each)."""
    g = SoloGame.new(DB, "normal", [f"solo.spell.{s}" for s in spells], seed)
    for elder in elders:
        g.play(ev.Draw(card(elder)))
    return g


def to_map(g: SoloGame, key: int = 1, servants=("ghast-1", "ymp-1"), place=(1, 1, 6, 6)) -> SoloGame:
    """Draw the Warding City of ``key`` and set up its map with the named servants."""
    g.play(ev.Draw(card(CITY[key])))
    if key == 3 and len(servants) == 2:
        servants, place = (*servants, "zhumbi-1"), (*place, 3, 4)
    g.play(ev.Servants(tuple(f"solo.servant.{s}" for s in servants), True, dice(*place)))
    return g


def ghast_attacks(g: SoloGame) -> SoloGame:
    """The Ghast adjacent to the warden, the Ymp far away: after staying, the Ghast's attack is next."""
    put(g, "C4", ghast_1="D4", ymp_1="H6")
    g.play(ev.Move(()))
    assert g.state.map_battle.step == "attack" and g.state.map_battle.queue == (GHAST,)
    return g


def refused(g: SoloGame, event: ev.Event, message: str) -> None:
    """The event is refused with ``message`` and changes nothing."""
    before, events = g.state, list(g.log.events)
    with pytest.raises(rules.RuleError, match=message):
        g.play(event)
    assert g.state is before and g.log.events == events


# ---- Elder San ---------------------------------------------------------------------------------------------
def test_san_die_joins_the_attack_roll_but_not_the_servants_dice():
    """Note: "if you use Elder San in a battle, his extra attack die does not count towards the number
    rolled by the Grayking" (R6); R50(b): called before a servant's attack is rolled, his die joins it."""
    g = ghast_attacks(to_map(with_elders()))
    assert expanded.exchange_dice(g.state, DB) == (2, 3)
    s = g.play(ev.CallElder(SAN))
    assert s.map_battle.before_roll == (SAN,) and expanded.exchange_dice(s, DB) == (3, 3)
    refused(g, ev.Attack(dice(6, 6), dice(1, 1, 1)), "with Elder San's die needs 3 dice")
    refused(g, ev.Attack(dice(6, 6, 6), dice(1, 1, 1, 1)), "needs 3 dice")
    s = g.play(ev.Attack(dice(1, 2, 3), dice(1, 1, 2)))
    assert s.map_battle.servant(GHAST).hit_points == 1  # 6 >= 4: one hit point (R16)
    assert s.map_battle.before_roll == () and expanded.exchange_dice(s, DB) == (2, 3)  # one exchange only


def test_san_die_rolled_by_the_referee():
    """R50(b), R35: with the referee's dice, San's die is one more of the player's dice, not the servant's."""
    g = ghast_attacks(to_map(with_elders(("elder-san",))))
    g.play(ev.CallElder(SAN))
    g.play(ev.Attack())
    attack = g.log.events[-1]
    assert len(attack.dice.values) == 3 and len(attack.enemy.values) == 3


def test_san_only_before_an_attack_is_rolled():
    """R50(b): San adds a die to a roll, so he is called in phase b before the roll, not while moving,
    not once the attack is rolled."""
    g = to_map(with_elders())
    refused(g, ev.CallElder(SAN), "call him in phase b")
    ghast_attacks(g)
    g.play(ev.Attack(dice(1, 1), dice(2, 2, 3)))
    assert g.state.map_battle.step == "exchange" and aid.ids(g.state, DB) == [MAELIS]  # Maelis could turn 2 to 7 (R34)
    refused(g, ev.CallElder(SAN), "this attack is already rolled")
    refused(g, ev.CallElder(SAN, (1,)), "this attack is already rolled")


def test_san_re_rolls_nothing_and_turns_over_no_card():
    g = ghast_attacks(to_map(with_elders()))
    refused(g, ev.CallElder(SAN, (1,)), "re-rolls no dice")
    refused(g, ev.CallElder(SAN, next=card("tural")), "turns over no next card")


# ---- Elder Maelis ---------------------------------------------------------------------------------------------
def test_maelis_turns_a_losing_roll():
    """Elder Maelis: "Re-roll any of your attack dice"; R50(b): called after the roll; R34: the referee
    waits on a losing roll while she could turn it, even with no spell that could."""
    without = ghast_attacks(to_map(with_elders(("elder-san",))))
    s = without.play(ev.Attack(dice(1, 1), dice(2, 2, 3)))
    assert s.map_battle.step != "exchange" and s.spirit == 13  # nothing could turn it: the Ghast hit at once
    g = ghast_attacks(to_map(with_elders()))
    s = g.play(ev.Attack(dice(1, 1), dice(2, 2, 3)))
    assert s.map_battle.step == "exchange" and aid.ids(s, DB) == [MAELIS]
    assert "elder-maelis --reroll 1,1" in next_step(s, DB)
    s = g.play(ev.CallElder(MAELIS, (1, 1), dice(4, 3)))
    assert s.map_battle.servant(GHAST).hit_points == 1 and s.spirit == 14  # 7 >= 7: the Ghast is hit
    assert s.elder_uses(MAELIS) == 2 and s.map_battle.elders == (MAELIS,)


def test_maelis_re_roll_that_still_loses_waits_for_spells_then_resolves():
    """R34: after Maelis the roll waits only while something else could still turn it."""
    g = ghast_attacks(to_map(with_elders(("elder-maelis",), spells=("bind", "shield"))))
    s = g.play(ev.Attack(dice(1, 1), dice(1, 2, 6)))  # 2 to 9: Shield alone leaves 2 to 3; Maelis, then Shield, can turn it
    assert aid.ids(s, DB) == [MAELIS]
    s = g.play(ev.CallElder(MAELIS, (1,), dice(2)))  # 3 to 9: Shield would make it 3 to 3
    assert s.map_battle.step == "exchange" and aid.ids(s, DB) == ["solo.spell.shield"]
    s = g.play(ev.Accept())
    assert s.spirit == 13 and (s.map_battle.round, s.map_battle.step) == (2, "move")


def test_maelis_needs_a_rolled_attack_and_dice_showing():
    """R50(b): Maelis re-rolls the dice of an attack on the table; --reroll names dice that show."""
    g = ghast_attacks(to_map(with_elders()))
    refused(g, ev.CallElder(MAELIS, (1,)), "once a servant's attack is rolled")
    g.play(ev.Attack(dice(1, 2), dice(2, 2, 3)))  # 3 to 7: Maelis could turn it, the attack waits (R34)
    assert g.state.map_battle.step == "exchange"
    refused(g, ev.CallElder(MAELIS, (6,)), "there is no 6 to re-roll")
    refused(g, ev.CallElder(MAELIS), "name the dice to re-roll")
    refused(g, ev.CallElder(MAELIS, (1, 2), dice(3)), "needs 2 dice")


def test_maelis_does_not_re_roll_the_eldritch_roll_but_ember_hook_does():
    """Phase c: "You may cast any re-roll Flint or Ice spells if you choose to alter this outcome";
    R50(e): Elder Maelis is not one; R48: Ember Hook is."""
    g = ghast_attacks(to_map(with_elders(("elder-maelis",), spells=("shield", "ember-hook"))))
    g.play(ev.Attack(dice(1, 1), dice(3, 3, 3)))
    g.play(ev.Cast("solo.spell.shield"))  # 2 to 6: still losing, and magic within one hex of the Ghast
    g.play(ev.Accept())
    assert g.state.map_battle.step == "eldritch"
    g.play(ev.Eldritch(dice(1, 1)))  # Key 1, 2: spirit/mana loss -1 each
    assert g.state.map_battle.step == "eldritch-rolled"
    refused(g, ev.CallElder(MAELIS, (1,)), "only re-roll Flint or Ice spells alter the Eldritch roll")
    s = g.play(ev.Cast("solo.spell.ember-hook", dice=dice(3, 4)))
    assert s.map_battle.round == 2 and s.elder_uses(MAELIS) == 3


# ---- Once a battle, three uses ------------------------------------------------------------------------------------
def test_each_elder_once_in_the_whole_map_battle_and_several_may_aid():
    """"Each Elder's power may only be used once in a battle. You may have more than one Elder aiding
    you at one time" (R11); R50(a): a map battle, all its rounds, is one battle."""
    g = ghast_attacks(to_map(with_elders(spells=("bind", "shield"))))
    g.play(ev.CallElder(SAN))
    g.play(ev.Attack(dice(1, 1, 1), dice(6, 6, 6)))
    s = g.play(ev.CallElder(MAELIS, (1, 1), dice(6, 6)))  # 13 to 18: both Elders aid the same attack; Shield could still turn it
    assert s.map_battle.exchange.elders == (SAN, MAELIS) and s.map_battle.elders == (SAN, MAELIS)
    while g.state.map_battle.step != "move":
        g.play(ev.Accept() if g.state.map_battle.step == "exchange" else ev.Attack(dice(1, 1), dice(6, 6, 6)))
    assert g.state.map_battle.round == 2
    g.play(ev.Move(()))
    assert g.state.map_battle.step == "attack"
    refused(g, ev.CallElder(SAN), "already aided you in this battle")
    assert expanded.before_roll_options(g.state, DB) == [] and "elder-san" not in next_step(g.state, DB)
    g.play(ev.Attack(dice(3, 3), dice(1, 2, 6)))  # 6 to 9: Shield turns it, and Maelis could if she were not spent
    assert aid.ids(g.state, DB) == ["solo.spell.shield"]  # Maelis is spent for this battle (R34)
    assert g.state.elder_uses(SAN) == 2 and g.state.elder_uses(MAELIS) == 2


def test_third_use_removes_the_card_across_map_battles():
    """"You may call on the power of each Elder three times ... remove the card from the game" (R11);
    R50(a): a map battle spends a use like any battle, and a spent Elder aids no later battle."""
    g = with_elders(("elder-san",))
    for key, left in ((1, 2), (2, 1), (3, 0)):
        to_map(g, key)
        put(g, "C4", ghast_1="D4", ymp_1="H6", zhumbi_1="I4")
        g.play(ev.Move(()))
        s = g.play(ev.CallElder(SAN))
        assert s.elder_uses(SAN) == left
        g.play(ev.Retreat())
    s = g.state
    assert s.elders == () and SAN in s.removed
    assert "remove the card from the game" in " ".join(g.log.states[-2].notes)
    g.play(ev.Draw(card("tural")))
    refused(g, ev.Battle(elders=(SAN,), dice=dice(6, 6, 6), enemy=dice(1, 1, 1)), "has given all 3 uses and left the game")


def test_third_use_in_the_middle_of_a_map_battle():
    """R11: the card leaves the game after its third use, even in the middle of a battle; its die still
    joins the roll it was called for."""
    g = ghast_attacks(to_map(with_elders(("elder-san",))))
    g.log.states[-1] = replace(g.state, elders=((SAN, 1),))  # two uses spent in earlier battles
    s = g.play(ev.CallElder(SAN))
    assert s.elders == () and SAN in s.removed and expanded.exchange_dice(s, DB) == (3, 3)
    s = g.play(ev.Attack(dice(1, 1, 1), dice(6, 6, 6)))
    assert s.map_battle is not None


# ---- Elder Rhun ---------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("moment", ["move", "attack", "exchange"])
def test_rhun_is_refused_on_a_map(moment):
    """Elder Rhun: "Lower a Battle Loss result by one row"; R46: a map battle has no Battle Loss table.
    The call is refused, his uses are kept, nothing changes."""
    g = to_map(with_elders())
    if moment != "move":
        ghast_attacks(g)
    if moment == "exchange":
        g.play(ev.Attack(dice(1, 1), dice(2, 2, 3)))  # 2 to 7: Maelis could turn it, the attack waits (R34)
        assert g.state.map_battle.step == "exchange"
    refused(g, ev.CallElder(RHUN), "no Battle Loss table")
    assert g.state.elder_uses(RHUN) == 3 and RHUN not in aid.ids(g.state, DB)


# ---- Magic, undo, replay --------------------------------------------------------------------------------------------
def test_calling_elders_is_not_magic_for_the_eldritch_roll():
    """Phase c: "If you used any magic spells during any single round ... (extra attack dice do not
    count)"; R18, R50(d): an Elder is not a spell and San's is an extra attack die."""
    g = ghast_attacks(to_map(with_elders()))
    g.play(ev.CallElder(SAN))
    g.play(ev.Attack(dice(1, 1, 1), dice(6, 6, 6)))
    s = g.play(ev.CallElder(MAELIS, (1, 1, 1), dice(6, 6, 6)))
    assert not s.map_battle.magic_near
    assert s.map_battle.step == "move" and s.map_battle.round == 2  # no phase c


def test_undo_takes_back_an_elder_call():
    """Undo removes the last event (DESIGN: push/pop); the Elder's use comes back, and the same call
    gives the same state again."""
    g = ghast_attacks(to_map(with_elders()))
    before = g.state
    after = g.play(ev.CallElder(SAN))
    assert g.undo() == ev.CallElder(SAN)
    assert g.state == before and g.state.elder_uses(SAN) == 3 and g.state.map_battle.elders == ()
    assert g.play(ev.CallElder(SAN)) == after
    g.play(ev.Attack(dice(1, 1, 1), dice(6, 6, 6)))
    g.play(ev.CallElder(MAELIS, (1,), dice(2)))
    g.undo()
    assert g.state.elder_uses(MAELIS) == 3 and g.state.map_battle.exchange.dice == (1, 1, 1)


def test_elder_calls_replay_from_the_save_file(tmp_path):
    """DESIGN, Referee: replay from the save file reproduces the game exactly, Elder calls included."""
    g = to_map(with_elders(), place=(1, 2, 4, 5))  # placed by the dice, no hand-moved markers: the events say it all
    g.play(ev.Move(("B4",)))  # the Ghast steps to B3, next to you, and attacks first
    g.play(ev.CallElder(SAN))
    g.play(ev.Attack(dice(1, 1, 1), dice(6, 6, 6)))
    g.play(ev.CallElder(MAELIS, (1, 1)))  # the referee rolls the re-roll: kept by value, with its k
    assert g.log.events[-1].dice.k is not None and len(g.log.events[-1].dice.values) == 2
    path = tmp_path / "solo.toml"
    g.save(path)
    assert "map_elders = true" in path.read_text()
    assert solo_game.load(path, DB).state == g.state


def test_a_save_written_before_map_elders_replays_its_battle_as_fought(tmp_path):
    """Old save files still load (R50(f)): a map battle set up by the referee that called no Elders on
    the map replays without waiting for Elder Maelis, and Elders aid from the next map battle."""
    events = [
        {"type": "draw", "card": {"id": MAELIS, "typed": True}},
        {"type": "draw", "card": {"id": "solo.quest.dalnish", "typed": True}},
        {"type": "servants", "servants": [GHAST, YMP], "typed": True, "place": {"values": [1, 2, 4, 5], "typed": True}},
        {"type": "move", "path": ["B4"]},
        {"type": "attack", "dice": {"values": [1, 1], "typed": True}, "enemy": {"values": [2, 2, 3], "typed": True}},
        {"type": "attack", "dice": {"values": [1, 1], "typed": True}, "enemy": {"values": [2, 2, 3], "typed": True}},
    ]
    path = tmp_path / "old.toml"
    setup = {"difficulty": "normal", "spells": ["solo.spell.bind", "solo.spell.frost-breath"]}
    savefile.write(path, savefile.document("solo", DB.fingerprint, 5, setup, events))
    g = solo_game.load(path, DB)
    mb = g.state.map_battle
    assert (mb.round, mb.step, g.state.spirit, g.state.mana) == (2, "move", 13, 13)  # both attacks hit at once (2 to 7: Maelis could turn them, R34)
    assert not mb.elders_aid
    refused(g, ev.CallElder(MAELIS, (1,)), "older referee")
    g.play(ev.Retreat())
    g.save(path)
    assert solo_game.load(path, DB).state == g.state  # a re-saved old battle still replays as fought
    to_map(g, 2)
    assert g.state.map_battle.elders_aid


# ---- Through the command line ----------------------------------------------------------------------------------------
def test_recorded_map_battle_with_elders_replays_from_typed_dice(tmp_path):
    """A map battle typed from physical dice and cards, with Elder San, Elder Maelis, a refused Rhun and an
    undo, gives exactly the stored log (tests/fixtures/solo/map-elders.*)."""
    save = tmp_path / "solo.toml"
    outputs = []
    for line in (FIXTURES / "map-elders.cmds").read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            code = 1 if line.startswith("elder rhun") else 0
            outputs.append(run(save, line, code))
    assert run(save, "log") == (FIXTURES / "map-elders.log").read_text()
    text = "\n".join(outputs)
    assert "Elder San's die joins your roll against Ghast (ghast-1): you roll 3 dice, it rolls 3" in text
    assert "To add Elder San's die, first `referee solo elder elder-san`." in text
    assert "call on Elder Maelis, re-rolling 1 2 2 (`referee solo elder elder-maelis --reroll 1,2,2 --dice D,D,D`" in text
    assert "That was the Elder's last use: remove the card from the game." in text


def elder_game(tmp_path, *lines: str):
    save = tmp_path / "s.toml"
    for line in ("new --difficulty normal --spells bind,shield --seed 3", "draw --card elder-san", "draw --card elder-maelis",
                 "draw --card elder-rhun", "draw --card dalnish", "servants --servant ghast-1 --servant ymp-1 --place 1,2 --place 4,5",
                 "move B4", *lines):
        run(save, line)
    return save


@pytest.mark.parametrize("setup, line, message", [
    ((), "elder rhun", "no Battle Loss table"),
    ((), "elder bob", "no Elder 'bob'"),
    ((), "elder tural", "Tural is not an Elders card"),
    ((), "elder maelis --reroll 1", "once a servant's attack is rolled"),
    ((), "elder san --reroll 1", "re-rolls no dice"),
    ((), "elder san --next tural", "turns over no next card"),
    (("elder san",), "elder san", "already aided you in this battle"),
    (("elder san",), "attack --dice 1,2 --enemy 6,6,6", "needs 3 dice, you typed 2"),
    (("attack --dice 1,2 --enemy 6,6,6",), "elder san", "this attack is already rolled"),
    (("attack --dice 1,2 --enemy 6,6,6",), "elder maelis --reroll 6", "there is no 6 to re-roll"),
])
def test_refused_elder_calls_are_one_line_and_leave_the_save_unchanged(tmp_path, setup, line, message):
    """A refused command prints one line on stderr, exits 1 and leaves the save file byte for byte (README)."""
    save = elder_game(tmp_path, *setup)
    before = save.read_bytes()
    output = run(save, line, code=1)
    assert message in output and len(output.strip().splitlines()) == 1, output
    assert output.startswith("Error: ") and "Traceback" not in output
    assert save.read_bytes() == before


def test_status_json_shows_the_elders_of_the_map_battle(tmp_path):
    """`status --json` holds the Elders called this battle, those waiting for the next roll, and those
    that aided the attack on the table."""
    save = elder_game(tmp_path, "elder san")
    mb = json.loads(run(save, "status --json"))["map_battle"]
    assert (mb["elders_called"], mb["elders_next_roll"]) == ([SAN], [SAN])
    run(save, "attack --dice 1,1,2 --enemy 6,6,6")
    status = json.loads(run(save, "status --json"))
    assert status["map_battle"]["exchange"]["elders"] == [SAN] and status["map_battle"]["elders_next_roll"] == []
    assert {e["id"]: e["uses"] for e in status["elders"]} == {SAN: 2, MAELIS: 3, RHUN: 3}
    assert "Elders called this battle: Elder San" in run(save, "status")


def test_cli_undo_of_an_elder_call(tmp_path):
    """`referee solo undo` takes back an Elder call: the save is as before the call."""
    save = elder_game(tmp_path)
    before = json.loads(run(save, "status --json"))
    run(save, "elder san")
    out = run(save, "undo")
    assert "Undone: elder Elder San" in out
    assert json.loads(run(save, "status --json")) == before


# ---- Hypothesis: random map play with Elders keeps every invariant ------------------------------------------------------
d6 = st.integers(1, 6)
command = st.one_of(
    st.builds(lambda p: ev.Move(tuple(p)), st.lists(st.sampled_from(["B4", "C4", "C3", "D4", "B3", "D3", "E4"]), max_size=2)),
    st.builds(lambda a, b: ev.Attack(dice(*a), dice(*b)), st.lists(d6, min_size=2, max_size=3), st.lists(d6, min_size=3, max_size=3)),
    st.just(ev.Attack()),
    st.builds(lambda a: ev.Eldritch(dice(*a)), st.lists(d6, min_size=2, max_size=2)),
    st.builds(ev.CallElder, st.sampled_from([SAN, MAELIS, RHUN]), st.lists(d6, max_size=2).map(tuple)),
    st.builds(ev.Cast, st.sampled_from(["solo.spell.shield", "solo.spell.bind"])),
    st.just(ev.Accept()), st.just(ev.Retreat()),
)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(key=st.sampled_from([1, 2, 3]), seed=st.integers(0, 1000), commands=st.lists(command, max_size=40))
def test_random_map_play_with_elders_keeps_every_invariant(key, seed, commands):
    """R11, R50: an Elder aids a map battle at most once, its uses never go below 0 and it is either
    beside the stats card or out of the game; Rhun never aids on a map; a refused call changes nothing;
    replaying the events gives the same state."""
    g = with_elders(spells=("bind", "shield"), seed=seed)
    g.play(ev.Draw(card(CITY[key])))
    g.play(ev.Servants())
    for event in commands:
        before = g.state
        try:
            g.play(event)
        except rules.RuleError:
            assert g.state is before
        s = g.state
        for elder, uses in s.elders:
            assert 1 <= uses <= 3 and elder not in s.removed
        assert s.elder_uses(RHUN) == 3
        if s.map_battle is not None:
            called = s.map_battle.elders
            assert len(called) == len(set(called)) and RHUN not in called
            assert all(e in dict(s.elders) or e in s.removed for e in called)
    replayed = with_elders(spells=("bind", "shield"), seed=seed)
    for event in g.log.events[3:]:
        replayed.log.push(event)
    assert replayed.state == g.state
