"""Issue 11: the legal events of Ruin & Renewal I (referee.duel.legal) and the command line as their
codec (referee.duel.cli.parse / command_line), checked along seeded random games.

- Every event :func:`legal_events` yields is accepted by the rules (:func:`is_legal`, and the rules'
  own ``resolve``), and its command line parses back to it: ``parse(command_line(e)) == e``. So are the
  events the generator leaves to the players (physical dice from :func:`legal_commits`, sealed
  commitments and their openings, typed re-rolled dice: R71, R77, R81).
- The generator is complete: in small positions, every event of a brute-force candidate set that the
  rules accept is, once resolved, one of the generator's events resolved (R25, R29, R30, R71, R73, R78).
- A game's log (resolved events) replays from its command lines, as ``bench/balance.py`` prints them.
- The rules' refusals carry their kind, side and field; the advice words them with what to type.

Each game is a ``random.Random`` seeded here; the whole file runs in a few seconds.
"""
from __future__ import annotations

import random
import shlex
from collections.abc import Iterator
from dataclasses import dataclass, field, replace

import click
import pytest

from referee.dice import Dice
from referee.duel import events as ev
from referee.duel import rules
from referee.duel.cli import command_line, parse
from referee.duel.game import DuelGame
from referee.duel.legal import is_legal, iter_legal_events, legal_commits, legal_events
from referee.duel.state import OWN_DICE, SIDES, Assignment, Outcome, PerSide, Side, State, Termination
from tests.nextline import DB

GAMES = 3
"""Random games walked (about 700 positions and 4500 legal events in all with the seed of the first test)."""
STEPS = 400
"""Events after which a random game is cut off (a game takes about 100-200)."""


def accepted(state: State, event: ev.Event) -> tuple[ev.Event, State] | None:
    """``event`` resolved and the state after it, when the rules accept it in ``state``; else ``None``."""
    try:
        return rules.resolve(state, DB, event)
    except rules.RuleError:
        return None


def placing(event: ev.Event) -> object:
    """What an event does, for comparing spellings: a commitment's placing without the order the Battle
    dice were typed in, without the spare die (R71: "the fourth die is set aside and does nothing"; the
    two Battle dice are added together), and with the Battle die a re-roll spell re-rolls named (R74:
    "or the lower one"); any other event itself. ``battle 5,1 cast 2`` and ``battle 1,5 cast 2 reroll 1
    spare 4`` are one placing; the referee records each as typed."""
    if isinstance(event, ev.Commit) and event.assignment is not None:
        a = event.assignment
        reroll = a.reroll
        if reroll is None and rules.effect_of(DB, event.side, a).reroll_battle_die:
            reroll = min(a.battle)
        return (event.side, tuple(sorted(a.battle)), a.power, a.cast, a.spell_face, reroll)
    return event


def round_trip(event: ev.Event) -> ev.Event:
    """The event the command line of ``event`` builds when typed (split as a shell splits it)."""
    return parse(shlex.split(command_line(event)), DB)


@dataclass
class Walk:
    """A random game: its positions, and the events the players chose that the generator leaves to them
    (``extra``: physical dice, seals, openings, typed re-rolls), with the state each was played in."""

    rng: random.Random
    game: DuelGame
    openings: dict[Side, tuple[Assignment, str]] = field(default_factory=dict)
    extra: list[tuple[State, ev.Event]] = field(default_factory=list)

    def choose(self) -> ev.Event:
        """The next event: any legal event, or (now and then) one the players type themselves."""
        state, rng = self.game.state, self.rng
        events = legal_events(state, DB)
        if state.phase != "round":
            return rng.choice(events)
        if state.opened is not None:
            typed = rules.typed_rerolls(state, DB, state.opened)
            if rng.random() < 0.5:
                fields = {f"{s}_reroll": Dice(tuple(rng.randint(1, 6) for _ in range(typed[s])), None) for s in SIDES if typed[s]}
                return self.keep(ev.Reveal(**fields))
            return rng.choice(events)
        if all(state.hands[s].committed for s in SIDES):
            if self.openings:  # the players open their seals (R77)
                fields = {}
                for s, (a, salt) in self.openings.items():
                    fields[s], fields[f"{s}_salt"] = a, salt
                self.openings = {}
                return self.keep(ev.Reveal(**fields))
            return rng.choice(events)
        side = rng.choice([s for s in SIDES if not state.hands[s].committed])
        mine = [e for e in events if getattr(e, "side", None) == side]
        if mine and (state.hands[side].rolled is not None or rng.random() < 0.4):  # none for a side sealing its own dice (ruling 87)
            return rng.choice(mine)  # the referee's roll, or a placing of the rolled dice
        commits = legal_commits(state, DB, side, [rng.randint(1, 6) for _ in range(4)])  # physical dice (R71)
        choice = rng.choice(commits)
        if rng.random() < 0.3 and choice.assignment is not None:  # sealed on the player's own device (R77)
            salt = f"{rng.getrandbits(32):08x}"
            self.openings[side] = (choice.assignment, salt)
            return self.keep(ev.Commit(side, seal=rules.seal(side, choice.assignment, salt)))
        return self.keep(choice)

    def keep(self, event: ev.Event) -> ev.Event:
        self.extra.append((self.game.state, event))
        return event


def walks(seed: int, games: int = GAMES) -> Iterator[tuple[Walk, State]]:
    """Each position of ``games`` random games (seeded by ``seed``), with its walk; the game goes on after each."""
    rng = random.Random(seed)
    for _ in range(games):
        walk = Walk(rng, DuelGame.new(DB, rng.randrange(2**31)))
        for _ in range(STEPS):
            state = walk.game.state
            yield walk, state
            if state.phase == "over":
                break
            walk.game.play(walk.choose())


def test_every_legal_event_is_accepted_and_its_command_line_parses_back():
    """``is_legal`` holds for every event ``legal_events`` yields (the rules' own resolve accepts it) and
    ``parse(command_line(e)) == e``; the same for the events the players type themselves (R71 physical
    dice, R77 seals and openings, R81 typed re-rolls). No duplicates; nothing once the game is over."""
    positions = events_checked = 0
    kinds: set[str] = set()
    for _, state in walks(seed=11):
        positions += 1
        events = legal_events(state, DB)
        assert len(events) == len(set(events)), "an event listed twice"
        if state.phase == "over":
            assert events == [] and state.outcome is not None
            continue
        sealed_reveal = all(state.hands[s].committed for s in SIDES) and any(state.hands[s].seal for s in SIDES)
        own_dice = all(state.commit_way[s] == OWN_DICE for s in SIDES if not state.hands[s].committed)  # ruling 87: not listed
        assert events or sealed_reveal or own_dice, f"no legal event in phase {state.phase} (round {state.round})"  # R77: see the sealed test
        assert list(iter_legal_events(state, DB)) == events
        for event in events:
            assert is_legal(state, DB, event) and accepted(state, event) is not None, event
            assert round_trip(event) == event, command_line(event)
            kinds.add(command_line(event).split()[2])
            events_checked += 1
    assert positions >= 200 and events_checked >= 1000
    assert kinds == {"marker", "roll", "commit", "reveal", "recall"}


def test_the_events_players_type_themselves_are_legal_and_parse_back():
    """R71 (physical dice: ``legal_commits``), R77 (``commit --sealed``, ``reveal --open``), R81 (``reveal
    --reroll``): the events the generator leaves to the players, chosen along random games, are legal
    where they were played and their command lines parse back to them."""
    seen: set[str] = set()
    for walk, _ in walks(seed=12):
        for state, event in walk.extra:
            assert is_legal(state, DB, event), event
            line = command_line(event)
            assert round_trip(event) == event, line
            seen |= {word for word in ("--assign", "--sealed", "--open", "--reroll") if word in line}
        walk.extra.clear()
    assert seen == {"--assign", "--sealed", "--open", "--reroll"}


def placings(dice: tuple[int, ...]) -> list[Assignment]:
    """A brute-force set of placings of four ``dice``: every pair as the Battle dice, every other die as
    the Power die or as the Casting die of every spell face 1-6 with every re-roll value (none, 1-6), the
    last die named as spare or left out (R71: the referee completes it)."""
    out: list[Assignment] = []
    for i in range(4):
        for j in range(4):
            if i == j:
                continue
            rest = [dice[k] for k in range(4) if k not in (i, j)]
            for x, active in enumerate(rest):
                for spare in ((), (rest[1 - x],)):
                    out.append(Assignment((dice[i], dice[j]), power=active, spare=spare))
                    out += [Assignment((dice[i], dice[j]), cast=active, spell=face, reroll=r, spare=spare)
                            for face in range(1, 7) for r in (None, *range(1, 7))]
    return list(dict.fromkeys(out))


def candidates(state: State) -> list[ev.Event]:
    """A brute-force candidate set of events in ``state`` whose dice the referee knows: a marker and a
    recall of each side on every Location (and recall ``none``), each side's roll, the reveal, and every
    placing (:func:`placings`) of each hand the referee rolled."""
    out: list[ev.Event] = [ev.Reveal()]
    for side in SIDES:
        out.append(ev.Roll(side))
        out += [ev.Marker(side, card.id) for card in DB.duel.location]
        out += [ev.Recall(side, card.id) for card in DB.duel.location] + [ev.Recall(side, None)]
        rolled = state.hands[side].rolled
        if rolled is not None:
            out += [ev.Commit(side, a) for a in placings(rolled.values)]
    return out


def small_positions() -> Iterator[State]:
    """Positions of every phase, early in random games, and a few with the referee's dice rolled for both
    sides (so that the commitments of both hands are searched)."""
    for i, (_, state) in enumerate(walks(seed=13, games=2)):
        if i % 12 == 0 or state.phase in ("recall", "over") or state.opened is not None:
            yield state
            if state.phase == "round" and state.opened is None:
                for side in SIDES:
                    if not state.hands[side].committed and state.hands[side].rolled is None and state.commit_way[side] != OWN_DICE:
                        state = rules.resolve(state, DB, ev.Roll(side))[1]
                yield state


def test_legal_events_are_complete_in_small_positions():
    """Every candidate the rules accept (:func:`candidates`: markers on every Location, recalls from every
    Location and ``none``, rolls, the reveal, every placing of a rolled hand) is one of ``legal_events``
    once both are resolved, up to the spelling of a placing (:func:`placing`: the generator lists each
    placing once, Battle dice in rising order and the spare die named). Rules: R25/R30 (the chooser
    places the marker on any Location in the row), R29 (the winner takes a cube back or forgoes), R71/R31/
    R74 (a rolled hand placed die for die, spells paid, re-rolls of a Battle die), R73 (the reveal), R78
    (the referee rolls once a round)."""
    phases: set[str] = set()
    searched = 0
    for state in small_positions():
        phases.add(state.phase)
        events = legal_events(state, DB)
        listed = {placing(rules.resolve(state, DB, e)[0]) for e in events}
        assert len(listed) == len(events), "one placing listed twice"
        for candidate in candidates(state):
            done = accepted(state, candidate)
            if isinstance(candidate, (ev.Marker, ev.Recall)):  # where is_legal looks up instead of resolving
                assert (done is not None) == is_legal(state, DB, candidate), candidate
            if done is not None:
                assert placing(done[0]) in listed, f"accepted but not listed in phase {state.phase}: {candidate}"
            searched += 1
    assert phases == {"marker", "round", "recall", "over"} and searched > 5000


def test_legal_commits_are_every_placing_of_typed_dice():
    """R71: with physical dice a side places the four dice it typed, each once; ``legal_commits`` lists
    every placing the rules accept (brute force over :func:`placings`, up to spelling: :func:`placing`),
    each once, and nothing for a side that has committed or whose dice the referee rolled when other dice
    are typed."""
    rng = random.Random(14)
    g = DuelGame.new(DB, 3)
    g.play(ev.Marker("shadowmajik", g.state.row[0].id))
    g.log.states[-1] = replace(g.state, points=PerSide(3, 4))  # enough points for some spells, not all
    for _ in range(15):
        dice = tuple(rng.randint(1, 6) for _ in range(4))
        for side in SIDES:
            commits = legal_commits(g.state, DB, side, dice)
            listed = {placing(e) for e in commits}
            brute = {placing(done[0]) for a in placings(dice) if (done := accepted(g.state, ev.Commit(side, a))) is not None}
            assert listed == brute and len(listed) == len(commits) > 0
            assert all(is_legal(g.state, DB, e) and e.assignment is not None and e.assignment.dice == tuple(sorted(dice)) for e in commits)
    g.play(ev.Roll("wardens"))
    rolled = g.state.hands.wardens.rolled
    assert rolled is not None
    other_dice = (rolled.values[0] % 6 + 1, *rolled.values[1:])  # one die not as rolled
    assert legal_commits(g.state, DB, "wardens", other_dice) == []
    wardens_events = [e for e in legal_events(g.state, DB) if getattr(e, "side", None) == "wardens"]
    assert legal_commits(g.state, DB, "wardens", rolled.values) == wardens_events
    g.play(legal_commits(g.state, DB, "wardens", rolled.values)[0])
    assert legal_commits(g.state, DB, "wardens", rolled.values) == []


def test_a_sealed_round_lists_no_reveal_but_its_opening_is_legal():
    """R77: the opening of a seal is the player's secret, so ``legal_events`` lists no reveal while a
    commitment is sealed; the reveal with the opening is legal, one with a wrong salt is not."""
    g = DuelGame.new(DB, 4)
    g.play(ev.Marker("shadowmajik", g.state.row[0].id))
    a = ev.parse_assignment("battle 6,6 power 2")
    g.play(ev.Commit("wardens", seal=rules.seal("wardens", a, "salt1")))
    g.play(ev.Commit("shadowmajik", ev.parse_assignment("battle 1,1 power 2")))
    assert legal_events(g.state, DB) == []
    assert is_legal(g.state, DB, ev.Reveal(wardens=a, wardens_salt="salt1"))
    assert not is_legal(g.state, DB, ev.Reveal(wardens=a, wardens_salt="salt2")) and not is_legal(g.state, DB, ev.Reveal())
    assert command_line(ev.Reveal(wardens=a, wardens_salt="salt1")) == "referee duel reveal --open 'wardens=battle 6,6 power 2#salt1'"


def test_a_games_log_replays_from_its_command_lines():
    """The command line of each resolved event of a game's log (dice the referee rolled left out: they
    come from the seed, R78), typed in the state it was played in, resolves to that very event."""
    replayed = 0
    for walk, state in walks(seed=15, games=1):
        if state.phase != "over":
            continue
        log = walk.game.log
        for before, event, after in zip(log.states[:-1], log.events, log.states[1:], strict=True):
            again, state_again = rules.resolve(before, DB, parse(shlex.split(command_line(event)), DB, before))
            assert again == event and state_again == after, command_line(event)
            replayed += 1
    assert replayed > 50


def test_parse_reads_what_a_player_types_with_the_game_at_hand():
    """``parse`` builds the event as the command does: a Location by its number in the row or its name,
    the chooser or the round's winner when ``--player`` is left out (R25, R29); without the game those
    are refused in one line, as is a line that plays no event."""
    g = DuelGame.new(DB, 5)
    second = g.state.row[1].id
    assert parse(["marker", "2"], DB, g.state) == ev.Marker("shadowmajik", second)
    assert parse(["referee", "duel", "marker", *rules.name(DB, second).split()], DB, g.state) == ev.Marker("shadowmajik", second)
    assert parse(["reveal", "--reroll", "wardens=4,2"], DB) == ev.Reveal(wardens_reroll=Dice((4, 2), None))
    assert parse("referee duel reveal --open 'wardens=battle 6,6 power 2#s1'", DB) == ev.Reveal(
        wardens=ev.parse_assignment("battle 6,6 power 2"), wardens_salt="s1")
    for args in (["marker", "2"], ["marker", "rift-of-sael"], ["commit", "--player", "wardens"], ["status"], ["marker"]):
        with pytest.raises(click.ClickException):
            parse(args, DB)
    g.play(ev.Marker("shadowmajik", second))
    g.play(ev.Commit("wardens", ev.parse_assignment("battle 1,2 power 3")))
    with pytest.raises(rules.RuleError, match="already committed"):
        parse(["commit", "--player", "wardens", "--assign", "battle 1,2 power 3"], DB, g.state)
    with pytest.raises(ValueError):
        command_line(ev.Roll("wardens", Dice((1, 2, 3, 4), None)))


def refused(g: DuelGame, event: ev.Event) -> rules.RuleError:
    """The refusal the rules give ``event`` in ``g``'s present state (the test fails when it is accepted)."""
    with pytest.raises(rules.RuleError) as caught:
        g.play(event)
    return caught.value


def test_refusals_carry_their_kind_and_the_advice_words_them_with_what_to_type():
    """Issue 11: the rules write no command line and name no option: each refusal carries its kind, side
    and field, and :func:`referee.duel.advice.refusal_text` gives the line the CLI prints (the same words
    as before the rules stopped writing them). R71, R77, R78 and the end of the game."""
    from referee.duel.advice import refusal_text

    g = DuelGame.new(DB, 8)
    refusal = refused(g, ev.Reveal())
    assert (refusal.refusal, str(refusal)) == (rules.Refusal.WRONG_PHASE, "revealing does not fit now")
    assert refusal_text(refusal, g.state, DB) == ("revealing does not fit now: the Shadowmajik place the yellow marker "
                                              "(`referee duel marker LOCATION`)")
    g.play(ev.Marker("shadowmajik", g.state.row[0].id))
    g.play(ev.Roll("wardens"))
    rolled = g.state.hands.wardens.rolled
    assert rolled is not None
    refusal = refused(g, ev.Roll("wardens"))
    assert (refusal.refusal, refusal.side) == (rules.Refusal.ALREADY_ROLLED, "wardens")
    missing = next(v for v in range(1, 7) if v not in rolled.values)  # a die the referee did not roll
    wrong = Assignment((missing, rolled.values[1]), power=rolled.values[2])
    refusal = refused(g, ev.Commit("wardens", wrong))
    assert (refusal.refusal, refusal.side, refusal.field) == (rules.Refusal.NOT_THE_ROLLED_DICE, "wardens", "assignment")
    assert refusal_text(refusal, g.state, DB) == ("--assign: the Wardens place a die twice or a die they did not roll: place each rolled die once "
                                              "(`referee duel roll --player wardens` shows your dice again)")
    refusal = refused(g, ev.Commit("shadowmajik", seal="abc"))
    assert (refusal.refusal, refusal.field) == (rules.Refusal.BAD_SEAL, "seal")
    assert refusal_text(refusal, g.state, DB) == "a seal is the `64` hex digits `referee duel seal` printed (this one has `3`)"
    g.play(legal_commits(g.state, DB, "wardens", rolled.values)[0])
    refusal = refused(g, ev.Commit("wardens", wrong))
    assert (refusal.refusal, refusal.side) == (rules.Refusal.ALREADY_COMMITTED, "wardens")
    assert refusal_text(refusal, g.state, DB, last=g.log.events[-1]) == ("the Wardens have already committed this round; "
                                                                        "`referee duel undo` takes it back")
    renewal = ev.parse_assignment("battle 1,1 cast 6")  # Renewal: more SP than the Shadowmajik have (R31), seen only when opened
    g.play(ev.Commit("shadowmajik", seal=rules.seal("shadowmajik", renewal, "s")))
    refusal = refused(g, ev.Reveal())
    assert (refusal.refusal, refusal.side, refusal.field) == (rules.Refusal.SEAL_NOT_OPENED, "shadowmajik", "shadowmajik_salt")
    assert refusal_text(refusal, g.state, DB) == ("the Shadowmajik committed a seal: open it with --open shadowmajik='ASSIGNMENT#SALT' "
                                              "(what `referee duel seal` printed), or, if it cannot be opened, `referee duel reveal "
                                              "--open shadowmajik=forfeit`: that placing is then void and pays the most it could have cost (ruling 82)")
    refusal = refused(g, ev.Commit("shadowmajik", seal=rules.seal("shadowmajik", renewal, "t")))
    assert refusal.refusal is rules.Refusal.ALREADY_COMMITTED  # both committed: the round is revealed next (ruling 83)
    assert "undo" not in refusal_text(refusal, g.state, DB)
    over = replace(g.state, phase="over", outcome=Outcome(Termination.LOCATIONS_CONTROLLED, "wardens"))
    with pytest.raises(rules.RuleError) as caught:
        rules.apply(over, DB, ev.Roll("wardens"))
    assert refusal_text(caught.value, over, DB) == "the game is over: Wardens won; `referee duel new` starts another"
