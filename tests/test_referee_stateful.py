"""Hypothesis stateful test of the solo referee: random legal and illegal commands.

Invariants: tracks stay within their printed bounds; a rejected command changes nothing; the cards
are all somewhere, once; replaying the saved events gives the same state.
"""
from __future__ import annotations

import tempfile
from pathlib import Path

import hypothesis.strategies as st
import pytest
import tomli_w
from hypothesis import HealthCheck, settings
from hypothesis.stateful import RuleBasedStateMachine, invariant, precondition, rule

from pnp import database
from referee.dice import Dice
from referee.errors import ParseError
from referee.solo import events as ev
from referee.solo import game as solo_game
from referee.solo import rules
from tests.conftest import ROOT

DB = database.load(ROOT / "cards.toml")
QUESTS = [q.id for q in DB.solo.quests]
SPELLS = [s.id for s in DB.solo.spell]
ELDERS = [e.id for e in DB.solo.elder]
STARTS = rules.legal_starts(DB)
die = st.integers(min_value=0, max_value=7)  # 0 and 7 are illegal on purpose


def typed(values):
    try:
        return Dice(tuple(values), None)
    except ValueError:
        return None


class SoloMachine(RuleBasedStateMachine):
    def __init__(self):
        super().__init__()
        self.game: solo_game.SoloGame | None = None
        self.rejected = 0

    @rule(start=st.sampled_from(STARTS), difficulty=st.sampled_from(["beginner", "normal", "advanced"]), seed=st.integers(0, 2**31))
    @precondition(lambda self: self.game is None)
    def new(self, start, difficulty, seed):
        self.game = solo_game.SoloGame.new(DB, difficulty, start, seed)

    def _try(self, event: ev.Event) -> None:
        before_state, before_events = self.game.state, list(self.game.log.events)
        before_save = tomli_w.dumps(self.game.document())
        try:
            self.game.play(event)
        except (rules.RuleError, ParseError):
            self.rejected += 1
            assert self.game.state is before_state and self.game.log.events == before_events
            assert tomli_w.dumps(self.game.document()) == before_save  # the save it would write: byte for byte

    @precondition(lambda self: self.game is not None)
    @rule(typed_card=st.none() | st.sampled_from(QUESTS))
    def draw(self, typed_card):
        self._try(ev.Draw(ev.CardRef(typed_card, True) if typed_card else None))

    @precondition(lambda self: self.game is not None)
    @rule(casts=st.lists(st.sampled_from(SPELLS), max_size=2), elders=st.lists(st.sampled_from(ELDERS), max_size=1),
          mine=st.none() | st.lists(die, min_size=1, max_size=4), theirs=st.none() | st.lists(die, min_size=1, max_size=5))
    def battle(self, casts, elders, mine, theirs):
        self._try(ev.Battle(tuple(casts), tuple(elders), typed(mine) if mine else None, typed(theirs) if theirs else None))

    @precondition(lambda self: self.game is not None)
    @rule(spell=st.sampled_from(SPELLS), rows=st.none() | st.integers(0, 3), reroll=st.lists(st.integers(1, 6), max_size=2))
    def cast(self, spell, rows, reroll):
        self._try(ev.Cast(spell, rows, tuple(reroll)))

    @precondition(lambda self: self.game is not None)
    @rule(elder=st.sampled_from(ELDERS), reroll=st.lists(st.integers(1, 6), max_size=2))
    def elder(self, elder, reroll):
        self._try(ev.CallElder(elder, tuple(reroll)))

    @precondition(lambda self: self.game is not None)
    @rule()
    def accept(self):
        self._try(ev.Accept())

    @precondition(lambda self: self.game is not None)
    @rule(spell=st.none() | st.sampled_from(SPELLS))
    def learn(self, spell):
        self._try(ev.Learn(spell))

    @precondition(lambda self: self.game is not None)
    @rule()
    def council(self):
        self._try(ev.Council())

    @precondition(lambda self: self.game is not None)
    @rule(outcome=st.sampled_from(["won", "retreat", "draw"]), mana=st.integers(-4, 2), spirit=st.integers(-4, 2))
    def warding(self, outcome, mana, spirit):
        self._try(ev.Warding(outcome, mana, spirit))

    @precondition(lambda self: self.game is not None and len(self.game.log) > 0)
    @rule()
    def undo(self):
        """Ruling 84: a step that showed the referee's dice, cards or shuffles is never taken back (refused,
        nothing changed); any other step is."""
        before, after = self.game.log.state_at(len(self.game.log) - 1), self.game.state
        shown = (after.dice_used > before.dice_used or after.deck_taken > before.deck_taken or after.shuffles > before.shuffles)
        events = list(self.game.log.events)
        try:
            self.game.undo()
        except rules.RuleError:
            assert shown and self.game.state is after and self.game.log.events == events
        else:
            assert not shown and self.game.state == before

    @invariant()
    def tracks_in_bounds(self):
        if self.game is None:
            return
        s, card = self.game.state, rules.stats(DB)
        assert 0 <= s.mana <= card.track_high and 0 <= s.spirit <= card.track_high
        assert 1 <= s.grayking <= rules.lassadar(DB)
        assert (s.result == "lost") == (s.spirit < card.track_low or s.grayking == rules.lassadar(DB)) or s.result == "won"
        places = list(s.deck) + list(s.discard) + list(s.removed) + [e for e, _ in s.elders] + ([s.card] if s.card and s.card not in s.discard else [])
        assert sorted(places) == sorted(rules.quest_deck(DB))

    def teardown(self):
        if self.game is None:
            return
        with tempfile.TemporaryDirectory() as folder:
            path = Path(folder) / "solo.toml"
            self.game.save(path)
            replayed = solo_game.load(path, DB)
        assert replayed.state == self.game.state and replayed.log.events == self.game.log.events


SoloMachine.TestCase.settings = settings(max_examples=60, stateful_step_count=40, deadline=None,
                                         suppress_health_check=[HealthCheck.too_slow])
test_solo_machine = SoloMachine.TestCase


class LongSoloMachine(SoloMachine):
    """The same machine, 500 sequences (issue 13: at least 500 each in CI; the slow run)."""


LongSoloMachine.TestCase.settings = settings(SoloMachine.TestCase.settings, max_examples=500)
test_solo_machine_500 = pytest.mark.slow(LongSoloMachine.TestCase)
