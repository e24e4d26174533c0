"""Issue 11, one referee core: the shared event decoder (:mod:`referee.events`), the error tree
(:mod:`referee.errors`) and the game protocol (:class:`referee.game.GameRules`).

- The decoder reads back every event type of both games: each with every field set (values drawn
  from the field types, so a new event or field is covered without a new test), each with its
  defaults, and every event of seeded random games (the legal events of ``legal_events``, resolved as
  the save file holds them), through the dict and through TOML text.
- Their saved form is what it was (a few tables written out by hand): the golden games guard the rest.
- A bad table is refused with an :class:`~referee.events.EventError` naming the event type, the field
  and what it expects; a class no table could describe is refused when its decoder is built.
- Each game's ``RULES`` satisfies :class:`~referee.game.GameRules` (mypy checks the types statically);
  a few events are played through the protocol alone: new, legal events, play, notes and the Next
  line, status, log, undo, save and load, a refusal in the game's words.
"""
from __future__ import annotations

import dataclasses
import json
import random
import tomllib
import types
import typing
from dataclasses import dataclass, field
from typing import Any, ClassVar, Literal

import pytest
import tomli_w

from referee import errors, events
from referee.dice import Dice, DiceError
from referee.duel import events as dev
from referee.duel import legal as dlegal
from referee.duel import rules as drules
from referee.duel.game import DuelGame
from referee.events import CardRef, EventDecoder, EventError
from referee.game import GameRules, RefereeGame, rules_for
from referee.save import SaveError
from referee.solo import events as sev
from referee.solo import legal as slegal
from referee.solo import rules as srules
from referee.solo.game import SoloGame
from tests.nextline import DB

DECODERS = {"solo": sev.DECODER, "duel": dev.DECODER}
ASSIGNMENT = dev.parse_assignment("battle 3,5 cast 4 spell 3 reroll 3 spare 2")


def _samples(hint: Any) -> list[Any]:
    """Values of the field type ``hint`` that a save file writes (never ``None``, ``()`` or ``False``)."""
    inner = [a for a in typing.get_args(hint) if a is not type(None)]
    if typing.get_origin(hint) in (typing.Union, types.UnionType):
        return _samples(inner[0])
    if hint is Dice:
        return [Dice((1, 6), 4), Dice((2,), None), Dice((3, 3, 5), 0)]
    if hint is CardRef:
        return [CardRef("solo.quest.tural", True), CardRef("solo.quest.iarith", False)]
    if hint is dev.Assignment:
        return [ASSIGNMENT, dev.parse_assignment("battle 1,2 power 6")]
    if typing.get_origin(hint) is Literal:
        return list(typing.get_args(hint))
    if typing.get_origin(hint) is tuple:
        return [tuple(_samples(inner[0])[:2]), tuple(_samples(inner[0])[:1])]
    return {int: [3, -2, 0], str: ["solo.spell.knot", "C4"], bool: [True]}[hint]


def _full_events(decoder: EventDecoder) -> list[events.Event]:
    """Every event type of ``decoder``, each with every field set, in a few variants."""
    out = []
    for cls in decoder.types.values():
        hints = typing.get_type_hints(cls)
        fields = dataclasses.fields(cls)
        for variant in range(3):
            out.append(cls(**{f.name: (s := _samples(hints[f.name]))[variant % len(s)] for f in fields}))
    return out


def _default_events(decoder: EventDecoder) -> list[events.Event]:
    """Every event type of ``decoder`` with its defaults (required fields: their first sample)."""
    out = []
    for cls in decoder.types.values():
        hints = typing.get_type_hints(cls)
        required = {f.name: _samples(hints[f.name])[0] for f in dataclasses.fields(cls)
                    if f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING}
        out.append(cls(**required))
    return out


def _through_toml(event: events.Event) -> dict:
    """The event's table as a save file holds it: written and read back as TOML text."""
    return tomllib.loads(tomli_w.dumps({"events": [event.to_dict()]}))["events"][0]


# ---- The decoder reads back every event ---------------------------------------------------------------------------
@pytest.mark.parametrize("game", sorted(DECODERS))
def test_every_event_type_reads_back_with_every_field_set_and_with_its_defaults(game):
    decoder = DECODERS[game]
    checked = _full_events(decoder) + _default_events(decoder)
    assert {e.kind for e in checked} == set(decoder.types)
    for event in checked:
        assert decoder.decode(event.to_dict()) == event, event
        assert decoder.decode(_through_toml(event)) == event, event


def test_the_events_of_random_solo_games_read_back():
    """Every event ``legal_events`` offers, and every resolved event of the log (the referee's dice and
    cards by value), along seeded random solo games."""
    rng, kinds = random.Random(7), set()
    for _ in range(3):
        first, second = rng.choice(srules.legal_starts(DB))
        game = SoloGame.new(DB, rng.choice(["beginner", "normal", "advanced"]), [first, second], rng.randrange(2**31))
        for _ in range(200):
            offered = slegal.legal_events(game.state, DB)
            if not offered:
                break
            for event in offered:
                assert sev.from_dict(event.to_dict()) == event
            game.play(rng.choice(offered))
        for event in game.log.events:
            kinds.add(event.kind)
            assert sev.from_dict(_through_toml(event)) == event
    assert {"draw", "battle", "servants", "move", "attack"} <= kinds, kinds


def test_the_events_of_random_duel_games_read_back():
    rng, kinds = random.Random(8), set()
    for _ in range(3):
        game = DuelGame.new(DB, rng.randrange(2**31))
        for _ in range(300):
            offered = dlegal.legal_events(game.state, DB)
            if not offered:
                break
            for event in offered:
                assert dev.from_dict(event.to_dict()) == event
            game.play(rng.choice(offered))
        for event in game.log.events:
            kinds.add(event.kind)
            assert dev.from_dict(_through_toml(event)) == event
    assert {"marker", "roll", "commit", "reveal"} <= kinds, kinds


def test_the_saved_form_of_events_is_unchanged():
    """A few tables written out by hand, as saves before the shared decoder wrote them: set fields only
    (``None``, ``()`` and ``False`` left out, ``0`` written), cards with ``typed``, assignments as text."""
    assert sev.Draw().to_dict() == {"type": "draw"}
    assert sev.Draw(CardRef("solo.quest.tural")).to_dict() == {"type": "draw", "card": {"id": "solo.quest.tural", "typed": False}}
    assert sev.Cast("solo.spell.knot", rows=1, dice=Dice((2, 5), 7)).to_dict() == {
        "type": "cast", "spell": "solo.spell.knot", "rows": 1, "dice": {"values": [2, 5], "k": 7}}
    assert sev.Warding("won").to_dict() == {"type": "warding", "outcome": "won", "mana": 0, "spirit": 0}
    assert sev.Servants(("solo.servant.ghast-1",), True, Dice((3, 4), None)).to_dict() == {
        "type": "servants", "servants": ["solo.servant.ghast-1"], "typed": True, "place": {"values": [3, 4], "typed": True},
        "map_elders": True, "no_free_escape": True}
    assert sev.Move(("C4", "D4")).to_dict() == {"type": "move", "path": ["C4", "D4"]}
    assert dev.Commit("wardens", ASSIGNMENT).to_dict() == {"type": "commit", "side": "wardens", "assignment": ASSIGNMENT.text()}
    assert dev.Recall("shadowmajik").to_dict() == {"type": "recall", "side": "shadowmajik"}


def test_a_field_added_after_saves_were_written_reads_as_its_absent_value():
    """R50, R51, R53: an old save's servants and last-stand events lack the flags and replay as fought."""
    assert sev.from_dict({"type": "servants"}) == sev.Servants(map_elders=False, no_free_escape=False)
    assert sev.from_dict({"type": "last-stand", "stand_elders": True}) == sev.LastStand(True, False)


# ---- Bad tables -------------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("game, table, words", [
    ("solo", "draw", ["an event must be a table", "'draw'"]),
    ("solo", {"type": "jump"}, ['"jump" is no event type', "types are draw, battle"]),
    ("solo", {"type": ["draw"]}, ['["draw"] is no event type']),
    ("solo", {"type": "draw", "deck": 1}, ["draw event has unknown keys ['deck']"]),
    ("solo", {"type": "cast", "spell": 5}, ["cast event, spell: expected text, not 5"]),
    ("solo", {"type": "cast", "spell": "x", "rows": True}, ["cast event, rows: expected an integer, not True"]),
    ("solo", {"type": "cast", "spell": "x", "reroll": [1, "2"]}, ["cast event, reroll: expected a list of integers, not [1, '2']"]),
    ("solo", {"type": "move", "path": "C4"}, ["move event, path: expected a list of texts, not 'C4'"]),
    ("solo", {"type": "servants", "typed": 1}, ["servants event, typed: expected true or false, not 1"]),
    ("solo", {"type": "battle", "dice": {"values": [7], "typed": True}}, ["battle event, dice: a die shows 1-6, not 7"]),
    ("solo", {"type": "battle", "enemy": [1, 2]}, ["battle event, enemy: dice must be a table with a values list"]),
    ("solo", {"type": "attack", "dice": {"values": [1], "k": -1}}, ["attack event, dice: rolled dice need a die index k = 0 or more, not -1"]),
    ("solo", {"type": "draw", "card": "tural"}, ["draw event, card: a card must be { id = \"...\", typed = true|false }, not \"tural\""]),
    ("solo", {"type": "draw", "card": {"id": 5, "typed": False}}, ["a card must be", "not { id = 5, ... }"]),  # cut between its items (LOW 14)
    ("solo", {"kind": "draw"}, ["it has no type; types are draw"]),
    ("solo", {"type": "attack", "dice": {"values": [1]}}, ["attack event, dice: rolled dice need a die index k = 0 or more, and these have no k"]),
    ("duel", {"type": "marker", "side": "wardens"}, ["marker event, location: missing; expected text"]),
    ("duel", {"type": "roll"}, ["roll event, side: missing; expected wardens or shadowmajik"]),
    ("duel", {"type": "roll", "side": "gray"}, ["roll event, side: expected wardens or shadowmajik, not 'gray'"]),
    ("duel", {"type": "roll", "side": "wardens", "dice": {"values": [0, 1], "k": 0}}, ["roll event, dice: a die shows 1-6, not 0"]),
    ("duel", {"type": "commit", "side": "wardens", "assignment": 35}, ["commit event, assignment: an assignment is its text, not 35"]),
    ("duel", {"type": "commit", "side": "wardens", "assignment": "battle 3"}, ["commit event, assignment: two Battle dice are needed"]),
    ("duel", {"type": "reveal", "wardens_salt": 1}, ["reveal event, wardens_salt: expected text, not 1"]),
    ("duel", {"type": "recall", "side": "wardens", "where": "x"}, ["recall event has unknown keys ['where']"]),
])
def test_a_bad_table_is_refused_naming_the_field_and_what_it_expects(game, table, words):
    with pytest.raises(EventError) as caught:
        DECODERS[game].decode(table)
    assert all(w in str(caught.value) for w in words), str(caught.value)


def test_an_event_class_no_table_could_describe_is_refused_when_its_decoder_is_built():
    @dataclass(frozen=True)
    class Flag(events.Event):
        kind: ClassVar[str] = "flag"
        on: bool = True  # False would be left out of the save and read back as True

    @dataclass(frozen=True)
    class Odd(events.Event):
        kind: ClassVar[str] = "odd"
        value: float = 0.5

    @dataclass(frozen=True)
    class Fine(events.Event):
        kind: ClassVar[str] = "fine"
        on: bool = field(default=True, metadata=events.absent(False))

    with pytest.raises(TypeError, match="on"):
        EventDecoder(Flag)
    with pytest.raises(TypeError, match="no reader"):
        EventDecoder(Odd)
    with pytest.raises(TypeError, match="given twice"):
        EventDecoder(Fine, Fine)
    assert EventDecoder(Fine).decode(Fine(False).to_dict()) == Fine(False)


def test_the_games_decoders_read_every_event_kind_they_name():
    """The games' decoders are built with ``deferred=True`` (issue 14: a command reads the field types of the kinds
    its save holds only); every kind still reads, or the decoder says which does not."""
    from referee.duel import events as duel_events
    from referee.solo import events as solo_events

    for decoder in (solo_events.DECODER, duel_events.DECODER):
        decoder.check()
        assert set(decoder._fields) == set(decoder.types)

    @dataclass(frozen=True)
    class Flag(events.Event):
        kind: ClassVar[str] = "flag"
        on: bool = True

    deferred = EventDecoder(Flag, deferred=True)  # built without reading Flag's fields ...
    with pytest.raises(TypeError, match="on"):
        deferred.check()  # ... which the check reads and refuses
    with pytest.raises(TypeError, match="on"):
        deferred.decode({"type": "flag"})


# ---- Errors -----------------------------------------------------------------------------------------------------------
def test_one_error_tree_parse_errors_apart_from_rule_errors():
    assert issubclass(errors.RefereeError, ValueError)
    for parse_error in (EventError, DiceError):
        assert issubclass(parse_error, errors.ParseError) and not issubclass(parse_error, errors.RuleError)
    for rule_error in (srules.RuleError, drules.RuleError):
        assert issubclass(rule_error, errors.RuleError) and not issubclass(rule_error, errors.ParseError)
    assert issubclass(SaveError, errors.RefereeError)


# ---- The game protocol ------------------------------------------------------------------------------------------------
OPTIONS = {"solo": {"difficulty": "normal", "spells": ["solo.spell.bind", "solo.spell.shield"]}, "duel": {}}


@pytest.mark.parametrize("name", sorted(OPTIONS))
def test_a_game_is_played_through_the_protocol_alone(name, tmp_path):
    rules = rules_for(name)
    assert isinstance(rules, GameRules) and rules.name == name
    game = rules.new(DB, 5, **OPTIONS[name])
    assert isinstance(game, RefereeGame) and game.rules is rules
    rng = random.Random(3)
    for _ in range(12):
        offered = rules.legal_events(game.state, DB)
        if not offered:
            break
        game.play(rng.choice(offered))
        assert all(isinstance(note, str) for note in game.notes()) and game.next_line()
    assert not rules.is_over(game.state)
    json.dumps(rules.status(game.state, DB))
    assert all(isinstance(label, str) and isinstance(text, str) for label, text in rules.status_lines(game.state, DB))
    lines = game.log_lines(verbose=True)
    assert len(game.log_lines()) == len(game.log.events) + 1 and lines[0].startswith("  0. new")
    path = tmp_path / f"{name}.toml"
    game.save(path)
    again = rules.load(path, DB)
    assert again.state == game.state and again.log.events == game.log.events
    before = game.state
    while rules.undo_problem(game.log.events[-1], game.log.state_at(len(game.log.events) - 1), game.state) is not None:
        with pytest.raises(rules.rule_error):  # a step that showed dice or cards stands (R78, ruling 84)
            game.undo()
        assert game.state is before
        game.log.pop()  # back past it, as a test only may, to a step that undo takes back
        before = game.state
    count = len(game.log.events)
    undone = game.undo()
    assert rules.event_text(undone, DB) and game.state != before and len(game.log.events) == count - 1
    refused = []
    for event in _default_events(DECODERS[name]):  # some event of the game the rules refuse now
        state = game.state
        try:
            game.play(event)
        except errors.RuleError as error:
            assert isinstance(error, rules.rule_error) and rules.refusal_text(error, state, DB) and game.state is state
            refused.append(event)
        else:
            game.log.pop()
    assert refused


def test_rules_for_an_unknown_game_is_a_key_error():
    with pytest.raises(KeyError):
        rules_for("chess")
