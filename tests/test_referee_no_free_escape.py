"""Issue 10, part 3: nothing is accepted that wastes a once-only action or breaks a rule for free.

A recharge that brings nothing back (R53), a retreat while a roll is owed (R54), a spell cast before
stepping next to a servant (R55), and a lost Last Stand after Barrier Lock (R56)."""
from __future__ import annotations

from dataclasses import replace

import pytest

from referee.solo import aid, expanded, laststand, rules, view
from referee.solo import events as ev
from referee.solo.advice import next_step
from tests.test_referee_expanded import DB, dice, on_map, put
from tests.test_referee_last_stand_elders import standing


def refused(g, event, match: str, refusal: rules.Refusal | None = None):
    """``event`` is refused with a one-line error matching ``match`` (of kind ``refusal`` when given), and
    the game does not change."""
    before, count = g.state, len(g.log.events)
    with pytest.raises(rules.RuleError, match=match) as error:
        g.play(event)
    assert "\n" not in str(error.value)
    assert refusal is None or error.value.refusal is refusal
    assert g.state == before and len(g.log.events) == count
    return str(error.value)


def on_blue_cross(spells=("bind", "shield")):
    g = on_map(1, spells=spells)
    put(g, "D4", ghast_1="H6", ymp_1="I5")
    g.play(ev.Move(("E4",)))
    assert g.state.map_battle.warden == DB.get("solo.map.key-1").hex_map.recharge.address
    return g


# ---- R53: a recharge must bring a used spell back -------------------------------------------------------------
def test_blue_cross_refuses_a_recharge_of_a_type_with_nothing_used_and_does_not_spend_it():
    """Phase a: "recharge all spells of any one type" (R47, R53): Shield (Flint) unused, Bind (Oaken) unused,
    no Ice spell held: each is refused with its reason, and the round's and the type's recharge stay."""
    g = on_blue_cross()
    assert "none of your Flint spells (Shield) is used" in refused(g, ev.Recharge("flint"), "bring nothing back")
    refused(g, ev.Recharge("oaken"), "none of your Oaken spells")
    refused(g, ev.Recharge("ice"), "learned no Ice spell")
    assert g.state.map_battle.recharged == () and g.state.map_battle.recharged_round is None
    g.log.states[-1] = replace(g.state, used=("solo.spell.shield",))  # Shield cast earlier this round
    s = g.play(ev.Recharge("flint"))
    assert s.used == () and s.map_battle.recharged == ("flint",)


def test_gray_space_refuses_a_recharge_with_nothing_used_and_keeps_the_gray_space():
    """Last Stand card: "You may recharge all spells of one type when his damage marker is on a gray space"
    (R23, R53): the same check as the blue cross; the gray space's recharge is not spent."""
    g = standing(spells=("bind", "frost-breath"))
    g.log.states[-1] = replace(g.state, last_stand=replace(g.state.last_stand, hit_points=6))
    refused(g, ev.Recharge("ice"), r"none of your Ice spells \(Frost Breath\) is used")
    refused(g, ev.Recharge("flint"), "learned no Flint spell")
    assert g.state.last_stand.recharged_at == ()
    g.log.states[-1] = replace(g.state, used=("solo.spell.frost-breath",))
    s = g.play(ev.Recharge("ice"))
    assert s.used == () and s.last_stand.recharged_at == (6,)


def test_both_recharges_use_the_one_check():
    """R53: one function says why a recharge brings nothing back, for the blue cross and the gray spaces."""
    g = on_blue_cross()
    assert rules.recharge_problem(g.state, DB, "fire").startswith("'fire' is not a spell type")
    assert rules.recharge_problem(g.state, DB, "flint") is not None
    assert rules.recharge_problem(replace(g.state, used=("solo.spell.shield",)), DB, "flint") is None


def test_a_battle_from_an_older_save_replays_its_empty_recharge_as_fought():
    """R53: a servants or last-stand event written before the ruling has no ``no_free_escape`` key: that
    battle replays as fought (an empty recharge of a type held is accepted, as it was)."""
    written = ev.Servants(("solo.servant.ghast-1", "solo.servant.ymp-1"), True, dice(1, 1, 6, 6)).to_dict()
    assert written["no_free_escape"] is True
    del written["no_free_escape"]
    old = ev.from_dict(written)
    assert old.no_free_escape is False and ev.from_dict(ev.LastStand().to_dict()).no_free_escape is True
    assert ev.from_dict({"type": "last-stand", "stand_elders": True}).no_free_escape is False
    g = on_map(1)
    g.log.states[-1] = replace(g.state, map_battle=replace(g.state.map_battle, no_free_escape=False))
    put(g, "D4", ghast_1="H6", ymp_1="I5")
    g.play(ev.Move(("E4",)))
    assert g.play(ev.Recharge("flint")).map_battle.recharged == ("flint",)


# ---- R54: no retreat while a roll is owed --------------------------------------------------------------------------
def test_retreat_is_refused_while_a_losing_attack_waits_then_allowed_after_the_hit():
    """6b "at any time" and phase b "Resolve each servant attack in turn" (R54): with a losing attack on the
    table (Shield could still turn it) the retreat is refused; after `accept` the hit lands and the
    retreat costs its -1 Spirit on top."""
    g = on_map(1)
    put(g, "C4", ghast_1="D4", ymp_1="I5")
    g.play(ev.Move(()))
    s = g.play(ev.Attack(dice(1, 1), dice(1, 1, 6)))  # 2 to 8: Shield would make it 2 to 2 (R34)
    assert s.map_battle.step == "exchange" and aid.ids(s, DB) == ["solo.spell.shield"]
    spirit, mana = s.spirit, s.mana
    assert "take its hit first" in refused(g, ev.Retreat(), r"\(R54\): a servant's attack is rolled", rules.Refusal.WRONG_PHASE)
    s = g.play(ev.Accept())
    hit = expanded.servant_card(DB, "solo.servant.ghast-1")
    assert (s.spirit, s.mana) == ((spirit - hit.damage, mana) if hit.damage_to == "spirit" else (spirit, mana - hit.damage))
    while g.state.map_battle is not None and g.state.map_battle.step in ("exchange", "eldritch-rolled"):
        g.play(ev.Accept())
    after = g.state.spirit
    s = g.play(ev.Retreat())
    assert s.map_battle is None and s.spirit == after + DB.solo.rules.retreat_spirit


def test_retreat_is_refused_while_eldritch_damage_is_due():
    """Phase c follows a spell cast within one hex of a servant (R18); a retreat does not skip it (R54)."""
    g = on_map(1, spells=("bind", "frost-breath"))
    put(g, "C4", ghast_1="D4", ymp_1="I5")
    g.play(ev.Cast("solo.spell.frost-breath"))  # beside the Ghast
    g.play(ev.Move(()))
    while g.state.map_battle.step in ("attack", "exchange"):
        g.play(ev.Attack(dice(6, 6), dice(1, 1, 1)) if g.state.map_battle.step == "attack" else ev.Accept())
    assert g.state.map_battle.step == "eldritch"
    refused(g, ev.Retreat(), "Eldritch Damage is due", rules.Refusal.WRONG_PHASE)
    assert expanded.retreat_problem(g.state) is not None


# ---- R55: Eldritch Damage follows any spell of the round ---------------------------------------------------------
def _cast_then_move(no_free_escape=True):
    g = on_map(1, spells=("bind", "frost-breath"))
    put(g, "C4", ghast_1="F4", ymp_1="I5")
    if not no_free_escape:
        g.log.states[-1] = replace(g.state, map_battle=replace(g.state.map_battle, no_free_escape=False))
    s = g.play(ev.Cast("solo.spell.frost-breath"))  # three hexes from the Ghast: not near at the cast
    assert not s.map_battle.magic_near and s.map_battle.magic_cast
    return g, g.play(ev.Move(("D4",)))  # the Ghast then steps next to the warden


def test_a_spell_cast_before_stepping_next_to_a_servant_brings_eldritch_damage():
    """Phase c: "If you used any magic spells during any single round, when you are within one hex range of
    a servant" (R55): the cast and the nearness may fall at different moments of the round."""
    g, s = _cast_then_move()
    assert s.map_battle.magic_near and "Eldritch Damage follows in phase c" in " ".join(s.notes)
    while g.state.map_battle.step in ("attack", "exchange"):
        g.play(ev.Attack(dice(6, 6), dice(1, 1, 1)) if g.state.map_battle.step == "attack" else ev.Accept())
    assert g.state.map_battle.step == "eldritch"


def test_no_spell_no_eldritch_and_an_older_battle_replays_as_fought():
    """R55 needs a spell cast in the round; a battle from a save written before R55 is replayed as fought."""
    g = on_map(1, spells=("bind", "frost-breath"))
    put(g, "C4", ghast_1="F4", ymp_1="I5")
    assert not g.play(ev.Move(("D4",))).map_battle.magic_near
    _, s = _cast_then_move(no_free_escape=False)
    assert not s.map_battle.magic_near
    g, _ = _cast_then_move()
    while g.state.map_battle.step != "eldritch":
        g.play(ev.Attack(dice(6, 6), dice(1, 1, 1)) if g.state.map_battle.step == "attack" else ev.Accept())
    s = g.play(ev.Eldritch(dice(3, 4)))
    while s.map_battle is not None and s.map_battle.step == "eldritch-rolled":
        s = g.play(ev.Accept())
    assert s.map_battle is None or (not s.map_battle.magic_cast and not s.map_battle.magic_near)  # a new round starts clean


# ---- R56: a lost Last Stand leaves the game won ----------------------------------------------------------------
def test_a_lost_last_stand_keeps_lassadar_saved():
    """Winning or Losing: Barrier Lock "saved Lassadar and won the game"; the Last Stand is an after-game
    expansion (R56): falling in it leaves result won, reason and outcome saying the Last Stand is lost."""
    g = standing(elders=(), spells=("bind", "frost-breath"))
    g.log.states[-1] = replace(g.state, spirit=2)
    s = g.play(ev.Attack(dice(1, 1), dice(6, 6, 6)))
    assert (s.result, s.phase, s.reason, s.last_stand.outcome) == ("won", "over", laststand.LOST_REASON, "lost")
    assert "Lassadar is saved" in s.reason and "Last Stand is lost" in s.reason and "fell at the Ash Tower" in s.reason
    assert not any(n.startswith("You have lost") for n in s.notes)
    status = view.status(s, DB)
    assert status["result"] == "won" and status["last_stand"]["outcome"] == "lost"
    nxt = next_step(s, DB)
    assert "Last Stand is lost" in nxt and "You lost" not in nxt
    assert view.log_line(1, g.log.events[-1], s, DB).endswith("over WON, LAST STAND LOST")
    refused(g, ev.Attack(dice(6, 6), dice(1, 1, 1)), "the game is over")


def test_a_counter_that_takes_the_last_spirit_also_loses_only_the_last_stand():
    """R56 holds however the Spirit falls in the Last Stand: here a spell's own cost (Frost Breath, 1 Spirit)."""
    g = standing(elders=(), spells=("bind", "frost-breath"))
    g.log.states[-1] = replace(g.state, spirit=1)
    s = g.play(ev.Cast("solo.spell.frost-breath"))
    assert (s.result, s.last_stand.outcome) == ("won", "lost")
