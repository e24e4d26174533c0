"""`referee solo status --json` "options": what could turn the losing roll on the table, in every kind
of battle (R34 for City Quests, R50 for map battles, R51 for the Last Stand). A tool reading the status
found it empty during map battles and the Last Stand."""
from __future__ import annotations

from referee.solo import events as ev
from referee.solo import view
from referee.solo.game import SoloGame
from tests.test_referee_last_stand import DB, dice

MAELIS = "solo.quest.elder-maelis"


def card(name: str) -> ev.CardRef:
    return ev.CardRef(f"solo.quest.{name}", True)


def test_options_of_a_losing_map_exchange_and_of_the_last_stand():
    g = SoloGame.new(DB, "normal", ["solo.spell.bind", "solo.spell.shield"], 7)
    g.play(ev.Draw(card("elder-maelis")))
    g.play(ev.Draw(card("dalnish")))
    g.play(ev.Servants(("solo.servant.ghast-1", "solo.servant.ymp-1"), True, dice(1, 2, 4, 5)))
    assert view.status(g.state, DB)["options"] == []  # moving: no roll on the table
    g.play(ev.Move(("B4",)))
    g.play(ev.Attack(dice(1, 2), dice(6, 5, 6)))
    assert view.status(g.state, DB)["options"] == ["solo.spell.shield", MAELIS]


def test_options_of_a_losing_last_stand_round():
    from tests.test_referee_last_stand_elders import standing

    g = standing(("elder-maelis",), learned=("shield",))
    g.play(ev.Attack(dice(1, 2), dice(6, 6, 6)))
    assert view.status(g.state, DB)["options"] == ["solo.spell.shield", MAELIS]
