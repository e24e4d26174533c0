"""Hypothesis stateful test of the two-player referee: random legal and illegal commands.

Invariants: point tracks stay 0-6; every cube stands on a space 0..track_spaces of a Location still in
the row; cubes are conserved (on Locations plus in supply is always the 3 deployable cubes); a rejected
command changes nothing; the save file's events replay to the same state; no Location is both in the
row and controlled; a finished game has a side with 4 Locations.
"""
from __future__ import annotations

import hypothesis.strategies as st
import pytest
import tomli_w
from hypothesis import HealthCheck, settings
from hypothesis.stateful import RuleBasedStateMachine, invariant, precondition, rule

from pnp import database
from referee.duel import events as ev
from referee.duel import game as duel_game
from referee.duel import rules
from referee.duel.state import SIDES, Assignment
from referee.errors import ParseError
from tests.conftest import ROOT

DB = database.load(ROOT / "cards.toml")
R = DB.duel.rules
LOCATIONS = [card.id for card in DB.duel.location]
die = st.integers(min_value=0, max_value=7)  # 0 and 7 are illegal on purpose


class DuelMachine(RuleBasedStateMachine):
    def __init__(self):
        super().__init__()
        self.game: duel_game.DuelGame | None = None

    @precondition(lambda self: self.game is None)
    @rule(seed=st.integers(0, 2**31))
    def new(self, seed):
        self.game = duel_game.DuelGame.new(DB, seed)

    def _try(self, event: ev.Event) -> None:
        before_state, before_events = self.game.state, list(self.game.log.events)
        before_save = tomli_w.dumps(self.game.document())
        try:
            self.game.play(event)
        except (rules.RuleError, ParseError):
            assert self.game.state is before_state and self.game.log.events == before_events
            assert tomli_w.dumps(self.game.document()) == before_save  # the save it would write: byte for byte

    @precondition(lambda self: self.game is not None)
    @rule(side=st.sampled_from(SIDES), location=st.sampled_from(LOCATIONS))
    def marker(self, side, location):
        self._try(ev.Marker(side, location))

    @precondition(lambda self: self.game is not None and self.game.state.phase == "marker")
    @rule(pick=st.integers(0, 6))
    def legal_marker(self, pick):
        choices = rules.legal_markers(self.game.state)
        self.game.play(ev.Marker(self.game.state.chooser, choices[pick % len(choices)]))

    @precondition(lambda self: self.game is not None)
    @rule(side=st.sampled_from(SIDES))
    def roll(self, side):
        self._try(ev.Roll(side))

    @precondition(lambda self: self.game is not None)
    @rule(side=st.sampled_from(SIDES), battle=st.tuples(die, die), active=die, cast=st.booleans(), below=st.booleans())
    def commit_any(self, side, battle, active, cast, below):
        a = Assignment(battle, cast=active, spell=active - 1 if below else None) if cast else Assignment(battle, power=active)
        self._try(ev.Commit(side, a))

    @precondition(lambda self: self.game is not None and self.game.state.phase == "round")
    @rule(side=st.sampled_from(SIDES), dice=st.tuples(*[st.integers(1, 6)] * 4), pick=st.integers(0, 10_000))
    def commit_legal(self, side, dice, pick):
        state = self.game.state
        if state.hands[side].committed:
            return
        hand = state.hands[side].rolled
        options = rules.legal_assignments(state, DB, side, hand.values if hand else dice)
        self.game.play(ev.Commit(side, options[pick % len(options)]))

    @precondition(lambda self: self.game is not None and self.game.state.phase != "over")
    @rule(dice=st.tuples(*[st.integers(1, 6)] * 8), picks=st.tuples(st.integers(0, 10_000), st.integers(0, 10_000)), strong=st.booleans())
    def whole_round(self, dice, picks, strong):
        """Whatever the game waits for, done legally: a marker, both commitments and the reveal, or a recall."""
        state = self.game.state
        if state.phase == "marker":
            choices = rules.legal_markers(state)
            self.game.play(ev.Marker(state.chooser, choices[picks[0] % len(choices)]))
        elif state.phase == "recall":
            choices = rules.legal_recalls(state, state.last.winner)
            self.game.play(ev.Recall(state.last.winner, choices[picks[0] % len(choices)]))
        else:
            for i, side in enumerate(SIDES):
                state = self.game.state
                if state.hands[side].committed:
                    continue
                hand = state.hands[side].rolled
                options = rules.legal_assignments(state, DB, side, hand.values if hand else dice[4 * i: 4 * i + 4])
                if strong and i == picks[1] % 2:  # one side plays its strongest Battle dice, so Locations get won
                    options = [max(options, key=lambda o: sum(o.battle))]
                self.game.play(ev.Commit(side, options[picks[i] % len(options)]))
            self.game.play(ev.Reveal())

    @precondition(lambda self: self.game is not None)
    @rule()
    def reveal(self):
        self._try(ev.Reveal())

    @precondition(lambda self: self.game is not None)
    @rule(side=st.sampled_from(SIDES), location=st.none() | st.sampled_from(LOCATIONS))
    def recall(self, side, location):
        self._try(ev.Recall(side, location))

    @precondition(lambda self: self.game is not None and len(self.game.log) > 0)
    @rule()
    def undo(self):
        before, now = self.game.log.states[-2], self.game.state
        try:
            self.game.undo()
        except rules.RuleError:  # a referee's roll, a reveal and the second commitment of a round stand (R77, R78, ruling 83)
            last = self.game.log.events[-1]
            second_commit = isinstance(last, ev.Commit) and all(now.hands[side].committed for side in SIDES)
            assert (isinstance(last, (ev.Roll, ev.Reveal)) or second_commit) and self.game.state is now
            return
        assert self.game.state is before

    @invariant()
    def tracks_and_cubes(self):
        if self.game is None:
            return
        s = self.game.state
        for side in SIDES:
            assert R.points_min <= s.points[side] <= R.points_max
            assert s.supply[side] + s.on_locations(side) == R.deployable_cubes
            assert 0 <= s.supply[side] <= R.deployable_cubes
        for place in s.row:
            for side in SIDES:
                assert 0 <= place.cubes[side] <= rules.top(DB, place.id) - 1 or s.phase == "over"
        in_row = {p.id for p in s.row}
        assert not in_row & {loc for loc, _ in s.controlled}
        assert len(in_row) + len(s.controlled) == R.locations_dealt
        if s.phase == "over":
            assert len(s.controlled_by(s.result)) == R.locations_to_win

    @invariant()
    def replay_gives_the_same_state(self):
        if self.game is None or len(self.game.log) % 5:
            return
        doc = self.game.document()
        again = duel_game.DuelGame.new(DB, doc["seed"], row=doc["setup"]["row"])
        for data in doc["events"]:
            again.log.push(ev.from_dict(data))
        assert again.state == self.game.state


# five sequences in the quick suite (each long enough to end duels); the slow run has 500 (below)
DuelMachine.TestCase.settings = settings(max_examples=5, stateful_step_count=250, deadline=None,
                                        suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
test_duel_referee_invariants = DuelMachine.TestCase


class LongDuelMachine(DuelMachine):
    """The same machine, 500 sequences (issue 13: at least 500 each in CI; the slow run)."""


LongDuelMachine.TestCase.settings = settings(DuelMachine.TestCase.settings, max_examples=500)
test_duel_referee_invariants_500 = pytest.mark.slow(LongDuelMachine.TestCase)
