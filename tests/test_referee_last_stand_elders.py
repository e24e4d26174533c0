"""Elders called in the Last Stand (referee/solo/laststand.py): each test cites the rulebook sentence ("If it
is an Elders card", the Note on Elder San), the Last Stand card or its counter cards, or the ruling
(docs/rulings.md, R<n>: R11 Elders, R20-R23 the Last Stand, R34, R50, R51 Elders in the Last Stand) it checks."""
from __future__ import annotations

import json
from dataclasses import replace

import hypothesis.strategies as st
import pytest
from hypothesis import HealthCheck, given, settings

from referee import save as savefile
from referee.solo import aid, laststand, rules, view
from referee.solo import events as ev
from referee.solo import game as solo_game
from referee.solo.advice import next_step
from referee.solo.game import SoloGame
from tests.test_referee_last_stand import DB, FIXTURES, dice, run
from tests.test_referee_map_elders import MAELIS, RHUN, SAN, card, refused

ALL = ("elder-san", "elder-maelis", "elder-rhun")


def standing(elders=ALL, spells=("bind", "frost-breath"), seed=4, learned: tuple[str, ...] | None = None) -> SoloGame:
    """A game that drew ``elders`` (3 uses each), won the three Warding Keys by hand, cast Barrier Lock and
    began the Last Stand; ``learned`` then sets the spells held, as a player with them would hold them."""
    g = SoloGame.new(DB, "normal", [f"solo.spell.{s}" for s in spells], seed)
    for elder in elders:
        g.play(ev.Draw(card(elder)))
    for city in ("dalnish", "marim", "borolia"):
        g.play(ev.Draw(card(city)))
        g.play(ev.Warding("won"))
    g.play(ev.Cast("solo.spell.barrier-lock"))
    g.play(ev.LastStand())
    if learned is not None:
        g.log.states[-1] = replace(g.state, spells=tuple(f"solo.spell.{s}" for s in learned), mana=15, spirit=15)
    return g


def notes(state) -> str:
    return " ".join(state.notes)


# ---- Elder San -------------------------------------------------------------------------------------------------
def test_san_die_joins_the_round_but_not_the_graykings_dice():
    """Note: "if you use Elder San in a battle, his extra attack die does not count towards the number
    rolled by the Grayking"; the card: "The Grayking will roll one more attack die than you" (R6);
    R51(b): San's die joins one round's roll, the Grayking's dice stay at the attack dice plus one."""
    g = standing()
    assert laststand.round_dice(g.state, DB) == (2, 3)
    s = g.play(ev.CallElder(SAN))
    assert s.last_stand.before_roll == (SAN,) and s.last_stand.elders == (SAN,)
    assert laststand.round_dice(s, DB) == (3, 3) and s.elder_uses(SAN) == 2
    refused(g, ev.Attack(dice(6, 6), dice(1, 1, 1)), "with Elder San's die needs 3 dice")
    refused(g, ev.Attack(dice(6, 6, 6), dice(1, 1, 1, 1)), "the Grayking's attack needs 3 dice")
    hp = s.last_stand.hit_points
    s = g.play(ev.Attack(dice(1, 2, 3), dice(1, 2, 2)))  # 6 >= 5: the round is won only with San's die
    assert s.last_stand.hit_points == hp - 1 and "Elder San's die among them" in notes(s)
    assert s.last_stand.before_roll == () and laststand.round_dice(s, DB) == (2, 3)  # one round only


def test_san_die_rolled_by_the_referee():
    """R51(b), R35: with the referee's dice, San's die is one more of the player's dice, not the Grayking's."""
    g = standing(("elder-san",))
    g.play(ev.CallElder(SAN))
    g.play(ev.Attack())
    attack = g.log.events[-1]
    assert len(attack.dice.values) == 3 and len(attack.enemy.values) == 3


def test_san_only_before_a_round_is_rolled():
    """R51(b): San adds his die to a roll, so he is called before the round is rolled, not once it is."""
    g = standing()
    g.play(ev.Attack(dice(1, 1), dice(2, 2, 3)))
    assert g.state.last_stand.rolled and aid.ids(g.state, DB) == [MAELIS]  # Maelis could turn 2 to 7: the roll waits (R34)
    refused(g, ev.CallElder(SAN), "this round is already rolled")
    assert g.state.elder_uses(SAN) == 3


def test_san_re_rolls_nothing_and_turns_over_no_card():
    """R51: San's aid is a die, not a re-roll; the Last Stand turns over no quest card."""
    g = standing()
    refused(g, ev.CallElder(SAN, (1,)), "re-rolls no dice")
    refused(g, ev.CallElder(SAN, next=card("tural")), "turns over no next card")


# ---- Elder Maelis ------------------------------------------------------------------------------------------------
def test_maelis_turns_a_losing_round():
    """Elder Maelis: "Re-roll any of your attack dice"; R51(b): called once a round is rolled; R34: the
    referee waits on a losing roll while she could turn it, even with no spell that could."""
    without = standing(("elder-san",))
    s = without.play(ev.Attack(dice(1, 1), dice(2, 2, 3)))
    assert not s.last_stand.rolled and s.spirit == without.log.states[-2].spirit - 2  # nothing could turn it
    g = standing()
    spirit = g.state.spirit
    s = g.play(ev.Attack(dice(1, 1), dice(2, 2, 3)))
    assert s.last_stand.rolled and aid.ids(s, DB) == [MAELIS]
    assert "`referee solo elder elder-maelis --reroll 1,1 --dice D,D`" in next_step(s, DB)  # dice typed: the re-roll typed too
    s = g.play(ev.CallElder(MAELIS, (1, 1), dice(4, 3)))
    assert s.last_stand.hit_points == 7 and s.spirit == spirit and not s.last_stand.rolled  # 7 >= 7 (R5)
    assert s.elder_uses(MAELIS) == 2 and s.last_stand.elders == (MAELIS,)


def test_maelis_re_roll_that_still_loses_waits_for_spells_then_resolves():
    """R34: after Maelis the roll waits only while something else could still turn it."""
    g = standing(("elder-maelis",), learned=("shield",))
    s = g.play(ev.Attack(dice(1, 1), dice(1, 2, 6)))  # 2 to 9: Shield alone leaves 2 to 3; Maelis, then Shield, can turn it
    assert aid.ids(s, DB) == [MAELIS]
    s = g.play(ev.CallElder(MAELIS, (1,), dice(2)))  # 3 to 9: Shield would make it 3 to 3
    assert s.last_stand.rolled and aid.ids(s, DB) == ["solo.spell.shield"]
    s = g.play(ev.Accept())
    assert s.spirit == 13 and s.last_stand.hit_points == 8


def test_maelis_needs_a_roll_waiting_and_dice_showing():
    """R51(b): Maelis re-rolls the dice of a round on the table; --reroll names dice that show."""
    g = standing()
    refused(g, ev.CallElder(MAELIS, (1,)), "call on them once a round is rolled")
    g.play(ev.Attack(dice(1, 2), dice(2, 2, 3)))  # 3 to 7: Maelis could turn it, the roll waits (R34)
    assert g.state.last_stand.rolled
    refused(g, ev.CallElder(MAELIS, (6,)), "there is no 6 to re-roll")
    refused(g, ev.CallElder(MAELIS), "name the dice to re-roll")
    refused(g, ev.CallElder(MAELIS, (1, 2), dice(3)), "needs 2 dice")


def test_maelis_has_nothing_to_re_roll_once_sullen_axe_took_every_die():
    """Flint counter 7 Sullen Axe: "remove any of your dice rolls showing 1 or 2" (R22); R51(e): with none
    of the player's dice on the table Maelis is refused and not waited for."""
    g = standing(("elder-maelis",), learned=("brittle-knives", "shield", "flint-spark"))
    s = g.play(ev.Attack(dice(1, 2), dice(2, 2, 2)))  # 3 to 6: Maelis or Flint Spark could turn it
    assert MAELIS in aid.ids(s, DB)
    s = g.play(ev.Cast("solo.spell.brittle-knives"))  # 1 to 6: Shield with Flint Spark (+4) still turns it (5 to 4)
    assert "Sullen Axe" in notes(s) and s.last_stand.dice == () and s.last_stand.rolled
    assert aid.ids(s, DB) == ["solo.spell.shield", "solo.spell.flint-spark"]  # not Maelis
    refused(g, ev.CallElder(MAELIS, (1,)), "none of yours is left on the table")


# ---- Once in the Last Stand, three uses ----------------------------------------------------------------------------
def test_each_elder_once_in_the_whole_last_stand_and_several_may_aid_one_round():
    """"Each Elder's power may only be used once in a battle. You may have more than one Elder aiding you
    at one time" (R11); R51(a): the card's "last battle", all its rounds, is one battle."""
    g = standing(learned=("shield",))
    g.play(ev.CallElder(SAN))
    g.play(ev.Attack(dice(1, 1, 1), dice(6, 6, 6)))
    s = g.play(ev.CallElder(MAELIS, (1, 1), dice(6, 6)))  # 13 to 18: both Elders aid the same round; Shield could still turn it
    assert s.last_stand.roll_elders == (SAN, MAELIS) and s.last_stand.elders == (SAN, MAELIS) and s.last_stand.rolled
    s = g.play(ev.Cast("solo.spell.shield"))  # 13 to 12: the round is won
    assert s.last_stand.rounds == 1 and s.last_stand.roll_elders == () and not s.last_stand.rolled and s.last_stand.hit_points == 7
    refused(g, ev.CallElder(SAN), "already aided you in this battle.*the whole Last Stand is one battle")
    assert laststand.before_roll_options(g.state, DB) == [] and "elder-san" not in next_step(g.state, DB)
    spirit = g.state.spirit
    s = g.play(ev.Attack(dice(1, 1), dice(6, 6, 6)))  # Maelis (to 6 6) and Shield would make it 12 to 12
    assert not s.last_stand.rolled and s.spirit == spirit - 2  # Maelis spent for the Last Stand, Shield used: no wait (R34)
    assert s.elder_uses(SAN) == 2 and s.elder_uses(MAELIS) == 2


def test_a_gray_space_recharges_spells_not_elders():
    """Card: "You may recharge all spells of one type when his damage marker is on a gray space" (R23);
    R51(a): an Elder is no spell, so it stays spent for the Last Stand."""
    g = standing()
    g.play(ev.CallElder(SAN))
    g.play(ev.Attack(dice(6, 6, 6), dice(1, 1, 1)))
    g.log.states[-1] = replace(g.state, last_stand=replace(g.state.last_stand, hit_points=6), used=("solo.spell.frost-breath",))
    g.play(ev.Recharge("ice"))
    refused(g, ev.CallElder(SAN), "already aided you")


def test_third_use_removes_the_card_even_in_the_last_stand():
    """"You may call on the power of each Elder three times ... Once they have given you their aid, remove
    the card from the game" (R11, R51(a)): the third call, in the Last Stand, removes the card; its die
    still joins the round it was called for."""
    g = standing(("elder-san",))
    g.log.states[-1] = replace(g.state, elders=((SAN, 1),))  # two uses spent in earlier battles
    s = g.play(ev.CallElder(SAN))
    assert s.elders == () and SAN in s.removed and "remove the card from the game" in notes(s)
    assert laststand.round_dice(s, DB) == (3, 3)
    s = g.play(ev.Attack(dice(1, 1, 1), dice(6, 6, 6)))
    assert len(g.log.events[-1].dice.values) == 3 and s.last_stand.elders == (SAN,)


def test_elder_with_no_uses_is_refused():
    """R11, R51(a): an Elder that is not beside the stats card, or that gave its three uses, aids nothing."""
    g = standing(("elder-san",))
    refused(g, ev.CallElder(MAELIS, (1,)), "Elder Maelis is not beside your Character Stats card")
    g.log.states[-1] = replace(g.state, elders=(), removed=g.state.removed + (SAN,))
    refused(g, ev.CallElder(SAN), "has given all 3 uses and left the game")


# ---- Elder Rhun --------------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("rolled", [False, True])
def test_rhun_is_refused_in_the_last_stand(rolled):
    """Elder Rhun: "Lower a Battle Loss result by one row"; the Last Stand has no Battle Loss table (card:
    "If the Grayking is successful reduce your spirit count by two"; R21, R51(c)). Refused, uses kept."""
    g = standing(learned=("shield",))
    if rolled:
        g.play(ev.Attack(dice(1, 1), dice(6, 6, 6)))
        assert g.state.last_stand.rolled
    refused(g, ev.CallElder(RHUN), "no Battle Loss table")
    assert g.state.elder_uses(RHUN) == 3 and RHUN not in aid.ids(g.state, DB)


# ---- The Grayking's counters ---------------------------------------------------------------------------------------------
def test_no_counter_fires_for_an_elder():
    """Card: "For any flint or ice spell you use during this battle, the Grayking will counter with one that
    positionally matches" (R20-22); R51(d): an Elder is no spell and has no position: no counter, and no
    Mana or Spirit moves. Mirror answers Glass Lake, not Maelis's re-roll."""
    g = standing(learned=("glass-lake",))
    before = g.state
    s = g.play(ev.CallElder(SAN))
    assert "does not counter" in notes(s) and (s.mana, s.spirit) == (before.mana, before.spirit)
    g.play(ev.Attack(dice(1, 1, 1), dice(6, 6, 6)))
    dice_used = g.state.dice_used
    s = g.play(ev.CallElder(MAELIS, (1, 1, 1), dice(4, 5, 6)))
    assert s.last_stand.dice == (4, 5, 6) and s.dice_used == dice_used  # no counter dice were rolled
    counters = [row.name for c in DB.solo.counter_card for row in DB.table(c.table).rows]
    assert not any(name in notes(s) for name in counters) and "does not counter" in notes(s)
    assert (s.mana, s.spirit) == (before.mana, before.spirit)


def test_mirror_re_rolls_san_and_maelis_dice_and_maelis_answers_mirror():
    """Ice counter 11 Mirror: "re-roll any of your dice" - the Grayking's 4s, 5s and 6s (R22). R51(e): San's
    die is one of "your dice", Mirror re-rolls it; Maelis, called after, re-rolls the dice as Mirror left
    them, and brings no Mirror of her own."""
    g = standing(learned=("glass-lake",))
    g.play(ev.CallElder(SAN))
    g.play(ev.Attack(dice(1, 5, 6), dice(6, 6, 6)))  # 12 to 18; San's die among the three
    assert aid.ids(g.state, DB) == [MAELIS, "solo.spell.glass-lake"]  # best chance first (Mirror answers Glass Lake only)
    s = g.play(ev.Cast("solo.spell.glass-lake", reroll=(1,), dice=dice(4), counter=dice(1, 2, 3)))
    assert "Mirror" in notes(s) and sorted(s.last_stand.dice) == [1, 2, 3]  # every die of 4 or more, San's too
    assert aid.ids(s, DB) == [MAELIS]
    s = g.play(ev.CallElder(MAELIS, (1, 2, 3), dice(6, 6, 6)))
    assert "Mirror" not in notes(s) and s.last_stand.hit_points == 7  # 18 to 18: the player's (R5)


def test_glass_lake_after_maelis_still_brings_mirror_on_her_dice():
    """R51(e): a re-roll protects no die from a later one: Mirror, answering Glass Lake, re-rolls the dice
    Maelis re-rolled when they show 4 or more."""
    g = standing(learned=("glass-lake",))
    g.play(ev.Attack(dice(1, 1), dice(2, 2, 3)))  # 2 to 7
    s = g.play(ev.CallElder(MAELIS, (1,), dice(5)))  # 6 to 7: Glass Lake could still turn it, the roll waits (R34)
    assert s.last_stand.rolled and aid.ids(s, DB) == ["solo.spell.glass-lake"]
    s = g.play(ev.Cast("solo.spell.glass-lake", reroll=(1,), dice=dice(2), counter=dice(3)))
    assert "Mirror" in notes(s) and "He re-rolls your dice showing 4 or more: 3; your dice show 3 2" in notes(s)  # her 5 re-rolled to a 3
    assert "The Grayking wins 7 to 5" in notes(s)


# ---- Undo, replay, old saves ---------------------------------------------------------------------------------------------
def test_undo_takes_back_an_elder_call():
    """Undo removes the last event (DESIGN: push/pop): the Elder's use comes back, and the same call gives
    the same state again."""
    g = standing()
    before = g.state
    after = g.play(ev.CallElder(SAN))
    assert g.undo() == ev.CallElder(SAN)
    assert g.state == before and g.state.elder_uses(SAN) == 3 and g.state.last_stand.elders == ()
    assert g.play(ev.CallElder(SAN)) == after
    g.play(ev.Attack(dice(1, 1, 1), dice(6, 6, 6)))
    g.play(ev.CallElder(MAELIS, (1,), dice(2)))
    g.undo()
    assert g.state.elder_uses(MAELIS) == 3 and g.state.last_stand.dice == (1, 1, 1) and g.state.last_stand.rolled


def test_elder_calls_replay_from_the_save_file(tmp_path):
    """DESIGN, Referee: replay from the save file reproduces the game exactly, Elder calls included; the
    referee's dice for San's roll and Maelis's re-roll are kept by value."""
    g = standing()
    g.play(ev.CallElder(SAN))
    g.play(ev.Attack(dice(1, 1, 1), dice(6, 6, 6)))
    g.play(ev.CallElder(MAELIS, (1, 1)))  # the referee rolls the re-roll
    assert g.log.events[-1].dice.k is not None and len(g.log.events[-1].dice.values) == 2
    path = tmp_path / "solo.toml"
    g.save(path)
    assert "stand_elders = true" in path.read_text()
    assert solo_game.load(path, DB).state == g.state


def _old_last_stand(stand: dict) -> list[dict]:
    """Events of a game with Elder Maelis in hand that reached the Last Stand and lost two rounds (2 to 7,
    which Maelis could turn: a new Last Stand would wait for her, R34)."""
    typed = lambda *v: {"values": list(v), "typed": True}  # noqa: E731
    events = [{"type": "draw", "card": {"id": MAELIS, "typed": True}}]
    for city in ("dalnish", "marim", "borolia"):
        events += [{"type": "draw", "card": {"id": f"solo.quest.{city}", "typed": True}}, {"type": "warding", "outcome": "won"}]
    events += [{"type": "cast", "spell": "solo.spell.barrier-lock"}, stand,
               {"type": "attack", "dice": typed(1, 1), "enemy": typed(2, 2, 3)},
               {"type": "attack", "dice": typed(1, 1), "enemy": typed(2, 2, 3)}]
    return events


def test_a_save_written_before_last_stand_elders_replays_as_fought(tmp_path):
    """Old save files still load (R51(f)): a Last Stand begun by the referee that called no Elders in it
    replays without waiting for Elder Maelis (each losing round resolved at once), and Elders are refused
    in it with one line. The same events with the new flag would not replay: the flag is what keeps them."""
    setup = {"difficulty": "normal", "spells": ["solo.spell.bind", "solo.spell.frost-breath"]}
    path = tmp_path / "old.toml"
    savefile.write(path, savefile.document("solo", DB.fingerprint, 5, setup, _old_last_stand({"type": "last-stand"})))
    g = solo_game.load(path, DB)
    ls = g.state.last_stand
    start = g.log.states[-3].spirit
    assert (ls.rounds, ls.rolled, ls.elders_aid, g.state.spirit) == (2, False, False, start - 4)
    refused(g, ev.CallElder(SAN), "older referee")
    assert "Elders do not aid this Last Stand" in dict(view.status_lines(g.state, DB))["Last Stand"]
    g.play(ev.Attack(dice(1, 1), dice(2, 2, 3)))
    assert not g.state.last_stand.rolled  # still fought as it began: no wait for Maelis
    refused(g, ev.CallElder(MAELIS, (1,)), "older referee")
    g.save(path)
    assert "stand_elders" not in path.read_text()
    assert solo_game.load(path, DB).state == g.state  # a re-saved old Last Stand still replays as fought
    new = tmp_path / "new.toml"
    savefile.write(new, savefile.document("solo", DB.fingerprint, 5, setup, _old_last_stand({"type": "last-stand", "stand_elders": True})))
    with pytest.raises(savefile.SaveError, match="event 11: attack event: attacking does not fit now"):
        solo_game.load(new, DB)


# ---- Through the command line ---------------------------------------------------------------------------------------------
def test_recorded_last_stand_with_elders_replays_from_typed_dice(tmp_path):
    """A Last Stand typed from physical dice, with Elder San, Elder Maelis (undone and called again),
    refused calls of Rhun, San and Maelis, gives exactly the stored log (tests/fixtures/solo/last-stand-elders.*)."""
    save = tmp_path / "solo.toml"
    outputs = []
    for line in (FIXTURES / "last-stand-elders.cmds").read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            command, _, comment = line.partition("#")
            outputs.append(run(save, command.strip(), 1 if comment.strip() == "refused" else 0))
    assert run(save, "log") == (FIXTURES / "last-stand-elders.log").read_text()
    text = "\n".join(outputs)
    assert "`referee solo elder elder-san` adds Elder San's die to this round" in text
    assert "Elder San's die joins your next roll: you roll 3 dice, the Grayking 3" in text
    assert "You roll 1 2 2 (typed, Elder San's die among them): 5. The Grayking rolls 5 4 3 (typed): 12." in text
    assert "call on Elder Maelis, re-rolling" in text and "(`referee solo elder elder-maelis --reroll" in text
    assert "You win 14 to 12: move the Grayking's damage marker to 7." in text
    assert "the Grayking is defeated in his Stronghold" in text


def elder_stand(tmp_path, *lines: str, elders=ALL):
    save = tmp_path / "s.toml"
    run(save, "new --difficulty normal --spells bind,frost-breath --seed 3")
    for elder in elders:
        run(save, f"draw --card {elder}")
    for city in ("dalnish", "marim", "borolia"):
        run(save, f"draw --card {city}")
        run(save, "warding won")
    for line in ("cast barrier-lock", "last-stand", *lines):
        run(save, line)
    return save


@pytest.mark.parametrize("setup, line, message", [
    ((), "elder rhun", "no Battle Loss table"),
    ((), "elder bob", "no Elder 'bob'"),
    ((), "elder tural", "Tural is not an Elders card"),
    ((), "elder maelis --reroll 1", "call on them once a round is rolled"),
    ((), "elder san --reroll 1", "re-rolls no dice"),
    ((), "elder san --next tural", "the Last Stand turns over no next card"),
    (("elder san",), "elder san", "already aided you in this battle (each Elder once per battle); the whole Last Stand is one battle"),
    (("elder san",), "attack --dice 1,2 --enemy 6,6,6", "needs 3 dice, you typed 2"),
    (("attack --dice 1,2 --enemy 2,2,3",), "elder san", "this round is already rolled"),
    (("attack --dice 1,2 --enemy 2,2,3",), "elder maelis --reroll 6", "there is no 6 to re-roll"),
    (("attack --dice 1,2 --enemy 2,2,3", "elder maelis --reroll 1 --dice 2"), "elder maelis --reroll 2", "already aided you"),
])
def test_refused_elder_calls_are_one_line_and_leave_the_save_unchanged(tmp_path, setup, line, message):
    """A refused command prints one line, exits 1 and leaves the save file byte for byte (README; R51)."""
    save = elder_stand(tmp_path, *setup)
    before = save.read_bytes()
    output = run(save, line, code=1)
    assert message in output and len(output.strip().splitlines()) == 1, output
    assert output.startswith("Error: ") and "Traceback" not in output
    assert save.read_bytes() == before


def test_an_elder_never_drawn_is_refused_on_one_line(tmp_path):
    """R11: only an Elder beside the stats card aids; the save is unchanged."""
    save = elder_stand(tmp_path, elders=("elder-san",))
    before = save.read_bytes()
    output = run(save, "elder maelis --reroll 1", code=1)
    assert output.strip() == "Error: cannot call on Elder Maelis: Elder Maelis is not beside your Character Stats card"
    assert save.read_bytes() == before


def test_status_shows_the_elders_of_the_last_stand(tmp_path):
    """`status --json` holds the Elders called in the Last Stand, those whose die joins the next roll and
    those that aided the roll on the table; `status` names them (R51)."""
    save = elder_stand(tmp_path, "elder san")
    ls = json.loads(run(save, "status --json"))["last_stand"]
    assert (ls["elders_called"], ls["elders_next_roll"], ls["elders_aid"]) == ([SAN], [SAN], True)
    assert "Elder San's die joins the next roll" in run(save, "status")
    run(save, "attack --dice 1,1,2 --enemy 6,6,6")
    status = json.loads(run(save, "status --json"))
    ls = status["last_stand"]
    assert (ls["roll_elders"], ls["elders_next_roll"], ls["options"]) == ([SAN], [], [MAELIS])
    assert {e["id"]: e["uses"] for e in status["elders"]} == {SAN: 2, MAELIS: 3, RHUN: 3}
    assert "elder-maelis --reroll 1,1,2" in status["next"]
    assert "Elders called in the Last Stand: Elder San" in run(save, "status")


def test_cli_undo_of_an_elder_call(tmp_path):
    """`referee solo undo` takes back an Elder call in the Last Stand: the status is as before the call."""
    save = elder_stand(tmp_path)
    before = json.loads(run(save, "status --json"))
    run(save, "elder san")
    assert "Undone: elder Elder San" in run(save, "undo")
    assert json.loads(run(save, "status --json")) == before


# ---- Hypothesis: random Last Stand play with Elders keeps every invariant ---------------------------------------------------
d6 = st.integers(1, 6)
command = st.one_of(
    st.builds(lambda a, b: ev.Attack(dice(*a), dice(*b)), st.lists(d6, min_size=2, max_size=3), st.lists(d6, min_size=3, max_size=3)),
    st.just(ev.Attack()),
    st.builds(ev.CallElder, st.sampled_from([SAN, MAELIS, RHUN]), st.lists(d6, max_size=2).map(tuple)),
    st.builds(lambda s, c: ev.Cast(s, counter=c), st.sampled_from(["solo.spell.shield", "solo.spell.glass-lake", "solo.spell.brittle-knives"]),
              st.one_of(st.none(), st.lists(d6, min_size=1, max_size=3).map(lambda v: dice(*v)))),
    st.just(ev.Accept()), st.just(ev.Recharge("flint")),
)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 1000), commands=st.lists(command, max_size=40))
def test_random_last_stand_play_with_elders_keeps_every_invariant(seed, commands):
    """R11, R51: an Elder aids the Last Stand at most once, its uses never go below 0 and it is either beside
    the stats card or out of the game; Rhun never aids; San's die never raises the Grayking's dice; a
    refused call changes nothing; replaying the events gives the same state."""
    g = standing(seed=seed, learned=("shield", "glass-lake", "brittle-knives"))
    start = len(g.log.events)
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
        called = s.last_stand.elders
        assert len(called) == len(set(called)) and RHUN not in called
        assert all(e in dict(s.elders) or e in s.removed for e in called)
        if s.phase == "stand" and not s.last_stand.rolled:
            assert laststand.round_dice(s, DB)[1] == laststand.dice_counts(s, DB)[1]
    replayed = standing(seed=seed, learned=("shield", "glass-lake", "brittle-knives"))
    for event in g.log.events[start:]:
        replayed.log.push(event)
    assert replayed.state == g.state
