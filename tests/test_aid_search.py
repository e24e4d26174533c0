"""R34 (a losing roll waits while aid can still turn it): the rules' quick question
(:func:`referee.solo.aid.can_turn`, a search that stops at the first line that turns the roll) gives the
same answer as the exact options the advice and table mode show (:func:`referee.solo.aid.options`), at
every losing roll the rules settle or hold: along seeded random games (random legal events, the
referee's dice and deck) and, in the slow run, along a new user's whole recorded game to the Last Stand
(tests/fixtures/solo/trial-save.toml, 239 events, typed dice and cards)."""
from __future__ import annotations

import random
from pathlib import Path

import pytest

from pnp import database
from referee import snapshots
from referee.solo import aid, legal, rules
from referee.solo import events as ev
from referee.solo import game as solo_game
from referee.solo.game import SoloGame
from tests.nextline import DB

TRIAL = Path(__file__).parent / "fixtures" / "solo" / "trial-save.toml"
TRIAL_DB = database.load(snapshots.BUNDLED / "8d0eef666a17c1d3c746c118e0371fc4fec21fd9be60c1da47b2312e4b9a6d50.toml")
"""The cards the recorded game was played with: the bundled copy of cards.toml before the balance tuning of
2026-12-01 (referee/bundled_databases, the fingerprint the save names)."""


def _compare(monkeypatch) -> list[tuple[bool, bool, str | None]]:
    """Every later settle-or-hold question, as (can_turn, options offered aid, situation)."""
    answers: list[tuple[bool, bool, str | None]] = []
    quick = aid.can_turn

    def both(state, db):
        answer = quick(state, db)
        answers.append((answer, bool(aid.options(state, db)), aid.situation(state)))
        return answer

    monkeypatch.setattr(aid, "can_turn", both)
    return answers


def _random_games(count: int, seed: int) -> None:
    rng = random.Random(seed)
    starts = rules.legal_starts(DB)
    for _ in range(count):
        first, second = rng.choice(starts)
        game = SoloGame.new(DB, rng.choice(["beginner", "normal", "advanced"]), [first, second], rng.randrange(2**31))
        for _ in range(400):
            events = legal.legal_events(game.state, DB)
            if not events:
                break
            game.play(rng.choice(events))


def test_can_turn_agrees_with_the_exact_options(monkeypatch):
    """R34: the roll is held exactly when options() would offer aid; both answers occur, in City Quest
    rolls, Battle Loss rows and map exchanges."""
    answers = _compare(monkeypatch)
    _random_games(2, seed=7)
    disagree = [a for a in answers if a[0] != a[1]]
    assert not disagree, disagree[:5]
    assert {True, False} <= {a[0] for a in answers}
    assert {"roll", "loss", "exchange"} <= {a[2] for a in answers}, {a[2] for a in answers}


@pytest.mark.slow
def test_can_turn_agrees_with_the_exact_options_in_long_games(monkeypatch):
    """R34, as above, over eight more random games and a recorded game through the Last Stand (R51)."""
    answers = _compare(monkeypatch)
    _random_games(8, seed=11)
    played = solo_game.load(TRIAL, TRIAL_DB)
    assert played.state.ending is not None
    disagree = [a for a in answers if a[0] != a[1]]
    assert not disagree, disagree[:5]
    assert {"roll", "loss", "exchange", "eldritch", "stand"} <= {a[2] for a in answers}


def test_a_step_that_makes_you_fall_is_never_aid_even_unweighed(monkeypatch):
    """Fourteenth breaker (README: "a line on which you would fall never counts"; R56: Spirit below 1 loses
    the Last Stand): at Spirit 1 in a Last Stand too large to search to the end, every step the rules accept
    was offered as "perhaps" aid, Frost Breath (1 Spirit) and Calm (the Grayking's Regret, -1 Spirit, R22)
    among them. Neither is offered now, and the table mode warns of both. (A small search budget takes the
    same unweighed path as the real one, sooner.)"""
    from referee.solo.table import _fatal

    monkeypatch.setattr(aid, "PLAY_BUDGET", 300)

    save = Path(__file__).parent / "fixtures" / "solo" / "last-stand-spirit-1.toml"
    game = solo_game.load(save, TRIAL_DB)
    state = game.state
    assert state.phase == "stand" and state.spirit == 1
    offered = {option.actor for option in aid.options(state, TRIAL_DB)}
    assert offered and not offered & {"solo.spell.frost-breath", "solo.spell.calm"}, offered
    kind = aid.situation(state)
    casts = {e.spell for e in legal.legal_events(state, TRIAL_DB) if isinstance(e, ev.Cast)}
    assert not state.used and "solo.spell.calm" not in casts  # with no spell used Calm is not cast at all (R86)
    for spell in ("solo.spell.frost-breath",):
        cast = next(e for e in legal.legal_events(state, TRIAL_DB) if isinstance(e, ev.Cast) and e.spell == spell)
        assert not aid.survivable(state, TRIAL_DB, kind, cast)
        assert "your Spirit would fall below 1: the Last Stand is lost" in _fatal(TRIAL_DB, state, cast)
    shield = next(e for e in legal.legal_events(state, TRIAL_DB) if isinstance(e, ev.Cast) and e.spell == "solo.spell.shield")
    assert aid.survivable(state, TRIAL_DB, kind, shield) and _fatal(TRIAL_DB, state, shield) == ""


def test_a_step_that_turns_the_roll_alone_without_dice_is_certain_however_large_the_search(monkeypatch):
    """Forty-seventh referee breaker, finding 2 (R34, the Last Stand): at Spirit 1 in a Last Stand too large to search to
    the end, every aid was offered as "perhaps", Shield too, which wins the round whatever happens (no die of its own:
    9 to 9 after it), beside Flint Spark, which alone cannot (13 to 14). A step that turns the roll alone with no die is
    "certain" (chance 1, offered first); the others stay "perhaps"."""
    monkeypatch.setattr(aid, "PLAY_BUDGET", 300)
    save = Path(__file__).parent / "fixtures" / "solo" / "last-stand-spirit-1.toml"
    state = solo_game.load(save, TRIAL_DB).state
    offered = aid.options(state, TRIAL_DB)
    assert offered[0].actor == "solo.spell.shield" and offered[0].certain, offered
    assert [option.actor for option in offered[1:] if option.certain] == [], offered
    assert "solo.spell.flint-spark" in {option.actor for option in offered if option.chance == 0.0}, offered


def test_a_certain_line_through_a_re_roll_names_the_step_it_counts_on_where_the_dice_fall_short():
    """Forty-eighth referee breaker, 6b (R34; rulebook, Play, Elders): losing 6 to 8 at Orrin's Crossing with Shield and
    Elder Maelis, "call on Elder Maelis, re-rolling 2 (certain)" counted on casting Shield where the re-rolled die falls
    short, and did not say so. The option keeps its chance and names that step; Shield alone (no dice) names none."""
    from dataclasses import replace

    from referee.dice import Dice
    from referee.solo.advice import next_step

    game = SoloGame.new(DB, "normal", ["solo.spell.shield", "solo.spell.bind"], 1)
    game.log.states[-1] = replace(game.state, elders=(("solo.quest.elder-maelis", 3),))
    game.play(ev.Draw(ev.CardRef("solo.quest.orrins-crossing", True)))
    state = game.play(ev.Battle(dice=Dice((2, 3), None), enemy=Dice((1, 4, 3), None)))
    offered = {option.actor: option for option in aid.options(state, DB)}
    maelis, shield = offered["solo.quest.elder-maelis"], offered["solo.spell.shield"]
    assert maelis.certain and maelis.rerolls and [step.spell for step in maelis.backup] == ["solo.spell.shield"]  # type: ignore[union-attr]
    assert shield.certain and not shield.rerolls and shield.backup == ()
    assert "certain; should its dice fall short, cast Shield" in next_step(state, DB)


def test_a_re_roll_offered_unweighed_re_rolls_the_dice_that_could_turn_it(monkeypatch):
    """Forty-eighth referee breaker, 6a (R34): in a Last Stand too large to search, a re-roll spell was offered with
    `--reroll 1` (its first choice, one die) though two or more dice showed 1, and with five 1s against five 6s, where
    only re-rolling them all could turn the roll. Unweighed, a re-roll names every die showing 3 or less, or more
    where that could not reach the other side's total."""
    from referee.dice import Dice
    from tests.test_referee_last_stand import standing

    monkeypatch.setattr(aid, "PLAY_BUDGET", 1)  # the unweighed path, on a small position
    for mine, theirs, named in (((1, 1), (1, 1, 6), (1, 1)), ((1, 5), (2, 3, 4), (1,)), ((1, 3), (2, 4, 5), (1, 3))):
        game = standing(("ember-hook",))
        state = game.play(ev.Attack(Dice(mine, None), Dice(theirs, None)))
        (option,) = [o for o in aid.options(state, DB) if o.actor == "solo.spell.ember-hook"] or [None]
        assert option is not None and option.event.reroll == named, (mine, theirs, option)


def _played(tmp_path, spells: str, seed: int, commands: list[str]):
    """The state of a solo game set up with ``spells`` and ``seed`` after the one-shot ``commands`` (typed cards and dice)."""
    import shlex

    from click.testing import CliRunner

    from referee.cli import main
    from tests.conftest import ROOT

    save = tmp_path / f"s{seed}-{spells.replace(',', '-')}.toml"
    env = {"NO_COLOR": "1", "LASSADAR_SOLO_SAVE": str(save), "LASSADAR_DB": str(ROOT / "cards.toml")}
    for line in [f"new --difficulty normal --spells {spells} --seed {seed}", *commands]:
        result = CliRunner().invoke(main, ["solo", *shlex.split(line)], env=env)
        assert result.exit_code == 0, (line, result.output)
    return solo_game.load(save, DB).state


def _said(option: aid.Aid) -> tuple[list[str], list[str], bool, bool]:
    short = lambda step: aid._actor(step).rsplit(".", 1)[-1]  # noqa: E731
    return [short(s) for s in option.line], [short(s) for s in option.backup], option.at_least, option.certain


def test_a_line_names_the_steps_its_chance_needs_after_the_roll_and_says_a_chance_that_is_a_bound(tmp_path):
    """Forty-ninth referee breaker, 1 and 2 (R34; rulebook, Play): losing 6 to 13 with Shield, Ember Hook and Elder
    Maelis, each re-roll was "a chance: 50%" though Maelis may re-roll a missed Ember Hook (75%), and Shield, needed
    however the die fell, was named nowhere; losing 7 to 18 with Flint Spark, Ember Hook and Shield, the line named
    only Flint Spark, needed where the die falls short, not Shield, needed always. Each line now goes on with the steps
    it always needs, names the others as where the dice fall short, and says a chance another roll may better as a
    lower bound."""
    from referee.solo.advice import next_step

    state = _played(tmp_path, "shield,ember-hook", 1, ["draw --card elder-maelis", "draw --card randven",
                                                         "battle --dice 2,4 --enemy 3,5,5"])
    offered = {o.actor.rsplit(".", 1)[-1]: _said(o) for o in aid.options(state, DB)}
    assert offered["ember-hook"] == (["ember-hook", "shield"], [], True, False)
    assert offered["elder-maelis"][:1] == (["elder-maelis", "shield"],) and offered["elder-maelis"][2]
    assert "a chance: at least 50%" in next_step(state, DB)
    state = _played(tmp_path, "flint-spark,ember-hook", 2, ["draw --card wardenkeep", "council", "learn shield",
                                                              "draw --card randven", "battle --dice 1,6 --enemy 6,6,6"])
    offered = {o.actor.rsplit(".", 1)[-1]: _said(o) for o in aid.options(state, DB)}
    assert offered["ember-hook"] == (["ember-hook", "shield"], ["flint-spark"], False, False)
    assert "re-rolling 1, then Shield (`referee solo cast ember-hook --reroll 1 --dice D`, a chance: 83%; should its dice " \
           "fall short, cast Flint Spark)" in next_step(state, DB)


def test_a_certain_line_rolls_no_die_where_sure_steps_turn_the_roll(tmp_path):
    """Forty-ninth referee breaker, 3 (R34): losing 6 to 13 with Shield, Calm, Ember Hook and Frost Breath, the certain line
    was said as "cast Shield, then Ember Hook (certain; should its dice fall short, cast Frost Breath)", where Shield,
    Calm and Shield again turn the roll with no die. A certain line ends with a roll only where no sure steps turn it."""
    state = _played(tmp_path, "frost-breath,calm", 2, ["draw --card wardenkeep", "council", "learn shield",
                                                         "draw --card archive-of-sael", "council", "turn tural",
                                                         "learn ember-hook", "draw --card randven",
                                                         "battle --dice 2,4 --enemy 3,5,5"])
    offered = {o.actor.rsplit(".", 1)[-1]: _said(o) for o in aid.options(state, DB)}
    assert offered["shield"] == (["shield", "calm", "shield"], [], False, True)
