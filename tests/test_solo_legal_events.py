"""Issue 11: the solo game's legal-event generator (referee.solo.legal, like python-chess's
``Board.legal_moves``) and the inverse of the CLI parser (``referee.solo.cli.command_line``).

Along seeded random games (the referee's dice and deck; a move is a random legal event):
- every event :func:`legal_events` yields is accepted by the rules (``is_legal``) and reads back from its
  command line: ``parse(command_line(e)) == e``;
- the generator is complete: every candidate of a brute-force set that the rules accept is in it (the
  brute-force set adds the choices a player could type that the generator might miss: every spell and
  Elder with every re-roll and row count, every quest card, every hex of the map, every recharge);
- a resolved event (the referee's dice and cards written in, as the save file holds it) reads back from
  its command line to the event as played (the referee supplies its dice again from the seed).
"""
from __future__ import annotations

import itertools
import random

import pytest

from referee.solo import cli, expanded, legal, rules
from referee.solo import events as ev
from referee.solo.game import SoloGame
from tests.nextline import DB

GAMES = 6
MAX_EVENTS = 800  # whole random games: the longest of these six lasts over 400 events with the cards tuned on 2026-12-01


def _games(count: int, seed: int):
    """(game, rng) for ``count`` seeded games, each with a random difficulty and starting pair."""
    rng = random.Random(seed)
    starts = rules.legal_starts(DB)
    for _ in range(count):
        first, second = rng.choice(starts)
        yield SoloGame.new(DB, rng.choice(["beginner", "normal", "advanced"]), [first, second], rng.randrange(2**31)), rng


def _brute_force(state) -> list[ev.Event]:
    """Choices a player could type, beyond the generator's own: every spell and Elder of the database
    with every re-roll of up to four dice and every row count, every quest card, every hex."""
    out: list[ev.Event] = []
    dice = state.player_dice()
    rerolls = [()] + legal.reroll_choices(dice)
    for s in DB.solo.spell:
        out.extend(ev.Cast(s.id, reroll=r) for r in rerolls)
        out.extend(ev.Cast(s.id, rows=n) for n in (1, 2, 3))
    for e in DB.solo.elder:
        out.extend(ev.CallElder(e.id, reroll=r) for r in rerolls)
    cards = [c for c in rules.quest_deck(DB)]
    out.extend(ev.Draw(ev.CardRef(c, True)) for c in cards)
    out.extend(ev.Turn(ev.CardRef(c, True)) for c in cards)
    out.extend(ev.Learn(s.id) for s in DB.solo.spell)
    if state.map_battle is not None:
        grid = expanded.battle_map(state, DB).hex_map
        out.extend(ev.Move((expanded.name(h.address),)) for h in grid.hexes)
    out.extend([ev.Draw(), ev.Battle(), ev.Accept(), ev.Learn(None), ev.Council(), ev.Servants(), ev.Warding("won"),
                ev.Warding("retreat"), ev.Move(()), ev.Attack(), ev.Eldritch(), ev.Retreat(), ev.LastStand()])
    out.extend(ev.Recharge(p.spell_type) for p in DB.solo.spell_path)
    return out


def test_every_legal_event_is_accepted_and_reads_back_from_its_command_line():
    """Issue 11: legal_events is exact (each accepted) and command_line inverts the CLI parser."""
    kinds = set()
    for game, rng in _games(GAMES, seed=1):
        for _ in range(MAX_EVENTS):
            events = legal.legal_events(game.state, DB)
            if not events:
                break
            for event in events:
                kinds.add(event.kind)
                assert cli.parse(cli.command_line(event), DB) == event, cli.command_line(event)
            played = rng.choice(events)
            game.play(played)
            resolved = game.log.events[-1]
            assert cli.parse(cli.command_line(resolved), DB) == played or resolved == played
        assert game.state.result is not None or not legal.legal_events(game.state, DB)
    assert {"draw", "battle", "cast", "accept", "servants", "move", "attack"} <= kinds, kinds


@pytest.mark.parametrize("seed", [2, 3])
def test_the_generator_misses_no_event_the_rules_accept(seed):
    """Issue 11: every brute-force candidate the rules accept is one legal_events yields (rulebook, Play;
    Expanded Battles; R7 own deck; R8 rows; R34 aid)."""
    for game, rng in _games(2, seed=seed):
        for step in range(MAX_EVENTS):
            state = game.state
            events = legal.legal_events(state, DB)
            if not events:
                break
            if step % 5 == 0:  # the brute force is slow: every fifth position
                accepted = [e for e in dict.fromkeys(_brute_force(state)) if legal.is_legal(state, DB, e)]
                missing = [e for e in accepted if e not in events]
                assert not missing, (state.phase, missing[:5])
            game.play(rng.choice(events))


def test_reroll_choices_are_by_value_without_repeats():
    assert legal.reroll_choices((1, 1, 4)) == [(1,), (4,), (1, 1), (1, 4), (1, 1, 4)]
    assert legal.reroll_choices(()) == []
    assert len(legal.reroll_choices((1, 2, 3, 4))) == 2 ** 4 - 1
    assert all(len(set(itertools.permutations(c))) >= 1 for c in legal.reroll_choices((6, 6)))


def test_the_card_of_a_battle_lost_as_the_draw_pile_ran_out_may_be_turned_over():
    """Thirty-third breaker, HIGH 7 (rulebook, Play, Battle Loss; Expanded Battles, 7): a battle lost at the last card of
    the draw pile places that card on the discard pile, which is shuffled into a new draw pile, so the next card turned
    over may be that very card. `referee solo turn thornwick` took it, but the legal events (and the table's answers)
    left it out: a held losing roll checked the named card against the discard pile without it (city ``_check_next``)."""
    cities = ["iarith", "randven", "tural", "quenmoor", "hollin-ford", "serrat-vale", "cairn-ulda", "mistmarch",
              "orrins-crossing", "greywater"]
    nexts = ["wardenkeep", "councils-seat", "hall-of-lanterns", "archive-of-sael", "elder-maelis", "elder-rhun", "dalnish",
             "marim", "borolia", "emberlow"]
    game = SoloGame.new(DB, "beginner", ["solo.spell.bind", "solo.spell.shield"], 5)
    for city, following in zip(cities, nexts):
        game.play(cli.parse(f"draw --card {city}", DB))
        game.play(cli.parse(f"battle --dice 6,6 --enemy 1,1,1 --next {following}", DB))
        skip = cli.parse("skip", DB)  # (a Council of Wardens' learning, as the breaker's `referee solo skip`)
        if skip in legal.legal_events(game.state, DB):
            game.play(skip)
    game.play(cli.parse("draw --card elder-san", DB))
    game.play(cli.parse("draw --card thornwick", DB))
    assert not game.state.deck  # Thornwick was the draw pile's last card
    game.play(cli.parse("battle --dice 1,1 --enemy 6,6,6", DB))
    assert game.state.phase == "turn" and "solo.quest.thornwick" in game.state.deck  # lost, placed, reshuffled in
    turned = [event.card.id for event in legal.legal_events(game.state, DB) if isinstance(event, ev.Turn) and event.card]
    assert sorted(turned) == sorted(game.state.deck) and "solo.quest.thornwick" in turned
    game.play(ev.Turn(ev.CardRef("solo.quest.thornwick", True)))
    assert game.state.phase != "turn"
