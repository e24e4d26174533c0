"""The solo game at the table: the questions of ``referee solo play``, made from the legal events.

This module owns what the table session (:mod:`referee.table`) asks in a solo game and how each
answer is named: :meth:`SoloTable.question` groups :func:`referee.solo.legal.legal_events` into the
default (Enter), the numbered choices and the typed values (cards, hexes) of the phase on the table;
the session plays the chosen event through the same rules and save file as the one-shot commands.
Nothing here decides what is legal: a choice is offered only when the generator yields it.
"""
from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from typing import Any

import click

from pnp.database import Database
from referee import clitools, errors
from referee.dice import Dice, DiceError
from referee.solo import advice, aid, city, core, expanded, laststand, legal, rules, view
from referee.solo import events as ev
from referee.solo.state import State
from referee.table import Choice, DiceAsk, Question

GAME_COMMANDS = {"map": "the battle map, you and the servants", "spells": "the spells on the three paths"}


def _fatal(db: Database, state: State, cast: ev.Cast) -> str:
    """A warning after a spell that would leave the player below 1 Spirit (rulebook, Winning or Losing: the
    game is lost; in the Last Stand the Last Stand is lost, R56): by its Spirit cost, or, on a roll on the
    table, by whatever it brings whatever the dice (the Grayking's counter in the Last Stand, R22:
    fourteenth breaker, Calm's Regret at Spirit 1 had no warning), as the aid search judges it."""
    kind = aid.situation(state)
    if kind is not None:
        falls = not aid.survivable(state, db, kind, cast)
    else:
        cost = rules.spell(db, cast.spell).cost
        falls = cost is not None and bool(cost.spirit) and state.spirit - cost.spirit < 1
    if not falls:
        return ""
    return " - your Spirit would fall below 1: " + ("the Last Stand is lost" if state.phase == "stand" else "the game is lost")


def _named(db: Database, ids: Sequence[str], wanted: str) -> str | None:
    """The one record of ``ids`` that the slug ``wanted`` names by its short id or printed name, whole or (when
    no record has it whole) as the beginning of exactly one (``hollin`` for Hollin Ford); else ``None``."""
    words = {record: (rules.short_id(record), clitools.slug(rules.name(db, record))) for record in ids}
    whole = [record for record, names in words.items() if wanted in names]
    if len(whole) == 1:
        return whole[0]
    begun = [record for record, names in words.items() if any(name.startswith(wanted) for name in names)]
    return begun[0] if not whole and len(begun) == 1 and len(wanted) > 1 else None


def _distinct_rows(db: Database, group: list[ev.Event]) -> list[ev.Event]:
    """A spell's casts without the one that lowers as many Battle Loss rows as it may when that is the
    same as a cast naming that many rows (Bind lowers one row: "lower as many rows as it may" and "lower
    1 row" are one choice, R8)."""
    unnamed = [e for e in group if isinstance(e, ev.Cast) and e.rows is None]
    if not unnamed:
        return group
    most = rules.spell(db, unnamed[0].spell).effect.loss_rows
    if any(isinstance(e, ev.Cast) and e.rows == most for e in group):
        return [e for e in group if not (isinstance(e, ev.Cast) and e.rows is None)]
    return group


def _words(db: Database, record_id: str) -> tuple[str, ...]:
    """The words that name a card, spell or Elder when typed: its short id and its printed name, and an
    Elder's name without the word Elder (``san`` for Elder San)."""
    printed = clitools.slug(rules.name(db, record_id))
    short = (printed.removeprefix("elder-"),) if printed.startswith("elder-") else ()
    return tuple(dict.fromkeys((rules.short_id(record_id), printed, *short)))


class SoloTable:
    """The solo game's questions and commands for :class:`referee.table.TableSession` (it satisfies
    :class:`referee.table.TableGame`). ``db`` is the database the game is played with, ``parse`` the
    one-shot commands' parser (:func:`referee.solo.cli.parse`: words after ``referee solo`` -> event). The ``map`` the
    questions offer shows the markers' hexes on a terminal too narrow to draw the map (:class:`MapScreen`)."""

    name = "solo"

    def __init__(self, db: Database, parse: Callable[[list[str], Database], ev.Event], patience: float | None = None) -> None:
        self.db = db
        self.parse = parse
        self.patience = patience
        self._helped: tuple[State, list[aid.Aid] | None] | None = None

    def _helps(self, state: State) -> list[aid.Aid] | None:
        """The aid that can still turn the losing roll on the table (:func:`referee.solo.aid.options`;
        empty when no roll waits). With ``patience`` (seconds), ``None`` when the search takes longer:
        it goes on in the background (:func:`referee.solo.aid.options_within`) and the question is asked
        at once without the odds. Found once per state."""
        if self._helped is not None and self._helped[0] is state:  # asked once: no second wait
            if self._helped[1] is None:
                self._helped = (state, aid.remembered(state, self.db))
            return self._helped[1]
        if aid.situation(state) is None:
            helps: list[aid.Aid] | None = []
        elif self.patience is None:
            helps = aid.options(state, self.db)
        else:
            helps = aid.options_within(state, self.db, self.patience)
        self._helped = (state, helps)
        return helps

    # ---- Questions ----------------------------------------------------------------------------------------
    def question(self, state: State) -> Question:
        """The question for ``state``, from the legal events (:func:`referee.solo.legal.legal_events`):
        the default the phase expects, each other legal step as a numbered choice, cards and hexes as
        typed values."""
        db = self.db
        events = legal.legal_events(state, db)
        context = (self.situation(state),)
        if not events:
            return Question("The game is over (Enter leaves)", over=True, context=(self._ending(state),))
        values: dict[str, Any] = {}
        names: dict[str, str] = {}
        rest: list[ev.Event] = []
        for event in events:
            if isinstance(event, (ev.Draw, ev.Turn)) and getattr(event, "card", None) is not None:
                card = event.card
                assert card is not None
                for word in _words(db, card.id):
                    values[word] = event
                    names[word] = rules.name(db, card.id)
            elif isinstance(event, ev.Move) and event.path:
                values[event.path[-1].lower()] = event
                names[event.path[-1].lower()] = event.path[-1]
            elif isinstance(event, ev.Servants) and event.typed:
                continue  # typed servants: `servants --servant ID ...` (too many orders to list)
            else:
                rest.append(event)
        default, text, label = self._default(state, rest)
        helps = self._helps(state)
        # accepting is listed (last) even as Enter's default: numbered with the aid, as when aid wins for certain (twenty-fourth breaker)
        choices = tuple(self._choices(state, [e for e in rest if default is None or e is not default.event or isinstance(e, ev.Accept)],
                                      helps or []))
        if default is None:  # accepting a roll that aid turns for certain, or may turn ("type accept"), is never taken from `ac`
            choices = tuple(replace(c, whole=True) if isinstance(c.event, ev.Accept) else c for c in choices)
        if state.phase == "turn":
            text, label = "The card you turned over", ""
        automatic = default is not None and not choices and not values and state.result is None  # the Council of Wardens
        moving = state.phase == "map" and state.map_battle is not None and state.map_battle.step == "move"
        prompt = ""
        servant_line = state.phase == "warding" and default is not None
        if servant_line:  # the servant cards, then their placement dice, or Enter
            count = expanded.battle_map(state, db).servants
            prompt = f"Servant cards you turned over and their placement dice ({2 * count}) [draw]: "  # (no line opens with a number)
        waiting = aid.searching(state, db) if helps is None else None
        return Question(text, default, label, choices, values, value_names=names, context=context, over=state.result is not None, automatic=automatic,
                        # on a map a number is a printed hex number, on the servant line a placement die: choices go by
                        # their words (forty-second referee breaker, F2: `1` was refused there, and no word was shown)
                        numbered=not (moving or servant_line), prompt=prompt, waiting=waiting)

    def situation(self, state: State) -> str:
        """The situation on the table in one or two sentences, without commands (the question and its
        choices say what to type): the battle, the dice each side rolls, the totals of a losing roll and
        the aid that can still turn it (:func:`referee.solo.aid.options`, with its chance). After an undo
        (:func:`referee.solo.core.replays_undone`) it says that the referee's dice and cards come up again,
        instead of offering the player's own."""
        said = self._situation(state)
        if not core.replays_undone(state):
            return said
        if core.dice_replayed(state):
            said = said.replace(" Type your dice, or Enter: the referee rolls.", "")
        counts = [f"{n} {what}" for n, what in ((core.dice_replayed(state), "dice"), (core.deck_replayed(state), "cards"),
                                                  (core.shuffles_replayed(state), "shuffles")) if n]
        return (f"{said} After the undo the referee's next {', '.join(counts)} come up again as before (undo is no re-roll); "
                f"yours are taken again once they are used.").strip()

    def _situation(self, state: State) -> str:
        db = self.db
        phase = state.phase
        if state.result is not None:
            return self._ending(state)
        if phase == "draw":
            empty = (f"The Quest draw pile is exhausted: shuffle the discard pile ({len(state.discard)} cards) to form a new draw "
                     "pile. ") if not state.deck else ""
            if state.own_deck:
                return empty + "Turn over the next card of your quest deck and type its name (or 1: the referee draws from its own deck instead)."
            if any(isinstance(event, ev.Cast) for event in legal.legal_events(state, db)):
                # Enter is no answer where Barrier Lock may be cast (R49): the words that draw said instead (forty-second
                # referee breaker, LOW 1: "Enter lets the referee draw", and Enter was refused)
                return empty + "Turn over the next quest card: draw lets the referee draw from its deck; or type the card you turned over."
            return empty + "Turn over the next quest card: Enter lets the referee draw from its deck; or type the card you turned over."
        if phase == "turn":
            what = state.suspended.what if state.suspended is not None else "the battle"
            empty = (f"The Quest draw pile is exhausted: shuffle the discard pile ({len(state.discard)} cards) to form a new draw "
                     "pile. ") if not state.deck else ""
            return empty + f"Turn over the next card of your deck onto the discard pile for {what}, and name it."  # the rules' own note
        if phase == "battle":
            card = city.city_card(state, db)
            mine, theirs = city.dice_counts(state, db)
            return f"Battle at {card.name}: you roll {mine} dice, the servants {theirs}. Type your dice, or Enter: the referee rolls."
        if phase == "loss" and state.battle is not None:  # the battle is lost; its Battle Loss row may still be lessened (R8)
            row = city.loss_row_number(state)  # the row now, after any lowering (sixteenth breaker: the row read first)
            helps = self._helps(state)
            if helps == []:
                return f"Battle Loss {row}: nothing you may do lowers or cancels it: Enter accepts it."
            if helps is None:  # still searched in the background: no choice is marked yet (fourteenth breaker)
                return (f"Battle Loss {row}: the row can still be lowered or cancelled (the referee is working out by which aid "
                        f"and its odds: the bottom line shows them), or accepted.")
            return f"Battle Loss {row}: the row can still be lowered or cancelled (the choices marked *), or accepted."
        if phase == "rolled" and state.battle is not None:
            mine, theirs = city.totals(state, db)
            return self._losing(state, mine, theirs)
        if phase == "learn":
            return f"You may learn a spell (you have {state.mana} Mana), or type skip to learn none now."
        if phase == "council":
            return "The Council: Enter goes to it."
        if phase == "warding":
            warding = core.quest(db, state.card or "")
            battle_map = expanded.battle_map(state, db)
            return (f"Warding City {warding.name}: the battle for its Warding Key on the {battle_map.color} map. Turn over servant "
                    f"cards until you have {battle_map.servants} of different types (set aside a second card of a type, R19) and type "
                    f"them with their placement dice, 2 a servant (ghast-2 ymp-3 63 35); or Enter: the referee draws and places them.")
        if phase == "map" and state.map_battle is not None:
            return self._map(state)
        if phase == "stand" and state.last_stand is not None:
            ls = state.last_stand
            if ls.rolled:
                mine, theirs = laststand.totals(state, db)
                return self._losing(state, mine, theirs)
            mine_n, theirs_n = laststand.round_dice(state, db)
            points = "hit point" if ls.hit_points == 1 else "hit points"
            return f"The Last Stand: the Grayking has {ls.hit_points} {points}; you roll {mine_n} dice, he rolls {theirs_n}."
        return ""

    def _map(self, state: State) -> str:
        db = self.db
        mb = state.map_battle
        assert mb is not None
        if mb.step == "move":
            shown = "`map` shows the map, `status` every marker's hex"
            return (f"Round {mb.round}, phase a: move up to {db.solo.rules.warden_move_hexes} hexes. You are on {expanded.name(mb.warden)}: "
                    f"type a hex or its printed number, or a path B4 C4 ({shown}).")
        if mb.step == "attack":
            servant_id = mb.queue[0]
            mine, theirs = expanded.exchange_dice(state, db)
            at = expanded.name(mb.servant(servant_id).hex)
            return f"Round {mb.round}, phase b: {expanded.label(db, servant_id)} at {at} attacks; you roll {mine} dice, it rolls {theirs}."
        if mb.step == "exchange":
            mine, theirs = expanded.exchange_totals(state, db)
            return self._losing(state, mine, theirs)
        if mb.step == "eldritch":
            return f"Round {mb.round}, phase c: roll 2d6 on the Eldritch Damage table."
        return f"Eldritch roll {mb.eldritch}: it can be re-rolled (the re-roll stands), or accepted." + self._aid_text(state)

    def _losing(self, state: State, mine: int, theirs: int) -> str:
        return f"You are losing {mine} to {theirs}." + self._aid_text(state)

    def _aid_text(self, state: State) -> str:
        helps = self._helps(state)
        if helps == []:
            return " Nothing you may do can turn it: Enter accepts it."
        if helps is None:  # held, so aid can turn it (R34); which aid, and its odds, follow on the bottom line
            return " It can still be turned: the referee is working out by which aid and its odds (the bottom line shows them)."
        return " It can still be turned (the choices marked *)."

    def _turns(self, event: ev.Event, helps: Sequence[aid.Aid], verb: str = "turns it") -> str:
        """`` * turns it: certain`` when ``event`` starts a line of aid that can turn the losing roll on the
        table (``helps``: :func:`referee.solo.aid.options`), with the rest of the line and its chance; else empty.
        ``verb``: ``lowers it`` for a Battle Loss row, which aid lowers or cancels (R8; twenty-eighth breaker: Bind
        "turns it: certain" read as cancelling a row it lowers by one)."""
        for option in helps:
            step = option.event
            same = type(step) is type(event) and (
                (isinstance(step, ev.Cast) and isinstance(event, ev.Cast) and step.spell == event.spell)
                or (isinstance(step, ev.CallElder) and isinstance(event, ev.CallElder) and step.elder == event.elder)
                or (isinstance(step, ev.Recharge) and isinstance(event, ev.Recharge) and step.spell_type == event.spell_type))
            if same:
                then = [advice.step_name(self.db, later) for later in option.line[1:]]
                reroll = f", re-rolling {' '.join(map(str, step.reroll))}" if not isinstance(step, ev.Recharge) and step.reroll else ""
                return (f"  * {verb}{reroll}{', then ' + ' and '.join(then) if then else ''}: {advice.odds(option.chance, option.certain, option.at_least)}"
                        f"{advice.backup_clause(self.db, option)}")
        return ""

    def _default(self, state: State, events: list[ev.Event]) -> tuple[Choice | None, str, str]:
        """The step Enter takes in this phase, the question's text and the word in brackets."""
        first = {type(e): e for e in reversed(events)}
        phase = state.phase
        step = state.map_battle.step if state.map_battle is not None else ""
        if phase == "draw" and ev.Draw in first and state.own_deck:  # R7: the next cards come from the player's deck
            return None, "The quest card you turned over", ""
        if phase == "draw" and ev.Draw in first and any(isinstance(e, ev.Cast) for e in events):
            # Barrier Lock may be cast (all three keys): a stray Enter drew, the battle was lost and so was the game
            # (thirty-seventh breaker, LOW 8); `draw` typed, or the choice's number, as where aid may turn a roll
            return None, "Cast Barrier Lock, or turn over the next quest card (type draw)", ""
        if phase == "draw" and ev.Draw in first:
            return Choice("The referee turns over its top card", first[ev.Draw], ("draw",)), "Quest card", "draw"
        if phase == "battle" and ev.Battle in first:
            return Choice("Fight the battle", first[ev.Battle], ("battle", "fight")), "Battle", "roll"
        if phase in ("rolled", "loss") and ev.Accept in first:
            return self._accept_default(state, first[ev.Accept])
        if phase == "council" and ev.Council in first:
            return Choice("Go to the Council", first[ev.Council], ("council",)), "The Council", "go"
        if phase == "warding" and ev.Servants in first:
            return (Choice("The referee draws and places the servants", first[ev.Servants], ("servants",)),
                    "Servants", "draw")
        if phase == "learn":
            return None, "Learn a spell", ""
        if phase == "map" and step == "move" and ev.Move in first:
            return Choice("Stay on this hex", first[ev.Move], ("stay",)), "Move the warden to", "stay"
        if ev.Attack in first and not (phase == "stand" and state.last_stand is not None and state.last_stand.rolled):
            return Choice("Roll the attack", first[ev.Attack], ("attack",)), "Attack", "roll"
        if phase == "map" and step == "eldritch" and ev.Eldritch in first:
            return Choice("Roll the Eldritch Damage", first[ev.Eldritch], ("eldritch",)), "Eldritch Damage", "roll"
        if ev.Accept in first:  # a map's exchange or Eldritch roll, the Last Stand's roll
            return self._accept_default(state, first[ev.Accept])
        return None, "Your choice", ""

    def _accept_default(self, state: State, accept: ev.Event) -> tuple[Choice | None, str, str]:
        """Accepting a losing roll as Enter's step, unless aid turns it for certain or the search for aid still runs:
        then no default, so that one Enter never gives up a roll aid turns (nineteenth breaker, City Quests; twenty-first,
        map battles and the Last Stand, and a default withdrawn under the player when the search ended)."""
        helps = self._helps(state)
        what = _accepted(state)
        if helps is None or any(option.certain for option in helps):
            return None, f"Aid, or accept the {what} (type accept)", ""
        return Choice(f"Accept the {what}", accept, ("accept",)), f"Accept the {what}, or aid", "accept"

    def _choices(self, state: State, events: Sequence[ev.Event], helps: Sequence[aid.Aid] = ()) -> list[Choice]:
        """The numbered choices: one per step, a spell's or Elder's variants (dice to re-roll, Battle Loss
        rows) gathered under it and asked for next."""
        db = self.db
        out: list[Choice] = []
        groups: dict[tuple[str, str], list[ev.Event]] = {}
        order: list[tuple[str, str]] = []
        for event in events:
            if isinstance(event, (ev.Cast, ev.CallElder)):
                key = (event.kind, event.spell if isinstance(event, ev.Cast) else event.elder)
                if key not in groups:
                    groups[key] = []
                    order.append(key)
                groups[key].append(event)
            else:
                order.append((event.kind, repr(event)))
                groups[(event.kind, repr(event))] = [event]
        order.sort(key=lambda key: key[0] == ev.Accept.kind)  # aid first, accepting last: `1` never gives up a roll aid
        for key in order:                                      # turns (twenty-third breaker)
            group = _distinct_rows(db, groups[key])
            first = group[0]
            if isinstance(first, ev.Cast):
                label = f"Cast {rules.name(db, first.spell)} ({advice.cost_text(db, first.spell)}){_fatal(db, state, first)}"
                words = _words(db, first.spell)
            elif isinstance(first, ev.CallElder):
                label = f"Call on {rules.name(db, first.elder)}"
                words = _words(db, first.elder)
            else:
                label, words = self._label(state, first)
            label += self._turns(first, helps, "lowers it" if aid.situation(state) == "loss" else "turns it")
            if len(group) == 1:
                out.append(Choice(label, first, words))
                continue
            variants = tuple((self._variant(state, e), e) for e in group if isinstance(e, (ev.Cast, ev.CallElder)))
            out.append(Choice(label, first, words, variants, "Which? (number)"))
        return out

    def _variant(self, state: State, event: ev.Cast | ev.CallElder) -> str:
        if event.reroll:
            return f"re-roll {' '.join(map(str, event.reroll))} (your dice show {' '.join(map(str, state.player_dice()))})"
        if isinstance(event, ev.Cast) and event.rows is not None:
            return f"lower {event.rows} Battle Loss {'row' if event.rows == 1 else 'rows'}"
        if isinstance(event, ev.Cast) and rules.spell(self.db, event.spell).effect.loss_rows:
            return "lower as many rows as it may"
        return "as it is (no dice re-rolled)"

    def _label(self, state: State, event: ev.Event) -> tuple[str, tuple[str, ...]]:
        db = self.db
        if isinstance(event, ev.Learn):
            if event.spell is None:
                return "Learn nothing now", ("skip",)
            return f"Learn {rules.name(db, event.spell)} ({self._learn_cost(state, event.spell)})", _words(db, event.spell)
        if isinstance(event, ev.Recharge):
            return f"Recharge your {event.spell_type.capitalize()} spells", (f"recharge-{event.spell_type}",)
        if isinstance(event, ev.Retreat):
            return f"Retreat ({self.db.solo.rules.retreat_spirit:+d} Spirit)", ("retreat",)
        if isinstance(event, ev.Warding):
            return (f"I fought this map by hand: I {'won the key' if event.outcome == 'won' else 'retreated'}",
                    ("won-by-hand",) if event.outcome == "won" else ("retreated-by-hand",))
        if isinstance(event, ev.LastStand):
            return "Travel to the Ash Tower: fight the Last Stand", ("last-stand",)
        if isinstance(event, ev.Accept):
            return f"Accept the {_accepted(state)}", ("accept",)
        if isinstance(event, ev.Attack):
            return "Roll the attack", ("attack",)
        if isinstance(event, ev.Eldritch):
            return "Roll the Eldritch Damage", ("eldritch",)
        if isinstance(event, ev.Draw):
            return "The referee turns over the top card of its own deck", ("draw",)
        if isinstance(event, ev.Servants):
            return "The referee draws and places the servants", ("servants",)
        if isinstance(event, ev.Move):
            return "Stay on this hex", ("stay",)
        return view.event_text(event, db), (event.kind,)

    def _learn_cost(self, state: State, spell_id: str) -> str:
        """What learning the spell costs now (:func:`referee.solo.core.learn_price`: one Mana at Battle Win
        row 4, R9; its bracketed cost at the Council, R37)."""
        price = state.pending.price if state.pending is not None else "cost"
        mana, spirit = core.learn_price(self.db, spell_id, price)
        parts = [f"{mana} Mana" if mana else "", f"{spirit} Spirit" if spirit else ""]
        return ", ".join(p for p in parts if p) or "free"

    def _ending(self, state: State) -> str:
        """The end of the game in words, by its :class:`~referee.solo.state.Ending` (empty while it goes on)."""
        if state.ending is None:
            return ""
        if state.ending.defeat and state.ending.won:  # the Last Stand lost, the game won (R56): the reason says both
            return f"{state.reason[:1].upper()}{state.reason[1:]}."
        return f"{'You have won' if not state.ending.defeat else 'You have lost'}: {state.reason}."

    def dice_label(self, state: State, event: Any, field_name: str) -> str:
        """Whose dice ``field_name`` of ``event`` holds, as the prompt begins (``Your``, ``The servants'``)."""
        if field_name == "place":
            return "Placement (2 dice a servant)"
        if field_name == "counter":
            return "The Grayking's counter"
        if isinstance(event, ev.Eldritch):
            return "Eldritch Damage"
        theirs = isinstance(event, ev.Cast) and rules.spell(self.db, event.spell).effect.reroll_servants
        if field_name == "dice" and not theirs:
            return "Your"
        if state.phase == "stand":
            return "The Grayking's"
        if state.phase == "map":
            return "The servant's"
        return "The servants'"

    def after(self, state: State, event: Any) -> tuple[Any, ...]:
        """The battle map, redrawn after each step of a map battle that moves or wounds (rulebook,
        Expanded Battles: the setup, a move, an attack, a spell)."""
        if state.map_battle is not None and isinstance(event, (ev.Servants, ev.Move, ev.Attack, ev.Accept, ev.Cast, ev.CallElder)):
            return self.run_command("map", state)
        return ()

    def help_lines(self) -> list[str]:
        """Two answers on one line (:meth:`referee.table.TableSession.answer`), as the solo game uses them."""
        return ["Two answers on one line: a card, a hex or a spell, then the dice (quenm 12 456; c3 56 234; glass 1 4);",
                "at a Warding City the servant cards turned over, then their placement dice (ghast-2 ymp-3 63 35)."]

    def undo_problem(self, state: State, event: ev.Event) -> str | None:
        """Nothing: the solo game's `undo` is the rules' alone (ruling 84)."""
        return None

    def answering(self) -> None:
        """Stop the background aid search of the question answered (:func:`referee.solo.aid.stop_searching`)."""
        aid.stop_searching()

    def rolls(self, state: State, event: Any) -> list[DiceAsk]:
        """The rolls ``event`` makes whose dice it does not give: the rules play it on the frozen state with
        the referee's dice (a losing roll held without searching its aid, :data:`rules.WITHOUT_AID_SEARCH`:
        the dice a step rolls come before that question) and say which fields they consumed. Empty for
        an event the rules refuse (the refusal is reported when it is played), and while the referee's dice
        shown before an undo come up again (:func:`referee.solo.core.dice_replayed`)."""
        if core.dice_replayed(state):
            return []
        token = rules.WITHOUT_AID_SEARCH.set(getattr(event, "next", None) is None)
        try:
            after = rules.apply(state, self.db, event)
        except (rules.RuleError, DiceError):
            return []
        finally:
            rules.WITHOUT_AID_SEARCH.reset(token)
        return [DiceAsk(name, len(value.values), self.dice_label(state, event, name))
                for name, value in after.consumed if isinstance(value, Dice) and getattr(event, name, None) is None]

    def typed_value(self, text: str, state: State) -> ev.Event | None:
        """A path of hexes on a map (``B4 C4``), or the servant cards turned over at a Warding City
        (``ghast-1 ymp-2``, their placement dice asked next); ``None`` for anything else. Raises
        ``click.ClickException`` for a servant card the database does not know."""
        words = text.split()
        if state.phase == "map" and words and all(self._is_map_hex(state, w) for w in words):
            return ev.Move(tuple(w.upper() for w in words))
        servants = {rules.short_id(s.id): s.id for s in self.db.solo.servant}
        if state.phase == "warding":  # a card in any case, its hyphen typed as `_` (`YMP_3`), read as the one-shot reads it
            words = [clitools.slug(w) if clitools.slug(w) in servants else w for w in words]  # (forty-sixth breaker, POLISH 11)
            spaced = [(f"{name} {number}", f"{clitools.slug(name)}-{number}") for name, number in zip(words, words[1:])
                      if re.fullmatch(r"[^\W\d_]+", name) and number.isdigit() and f"{clitools.slug(name)}-{number}" in servants]
            if spaced:  # `ymp 3`: a card's name and number typed apart, which the line reads as a beginning and a die
                raise click.ClickException(
                    f"{', '.join(repr(typed) for typed, _ in spaced)} {'is no servant card' if len(spaced) == 1 else 'are no servant cards'} "
                    f"(did you mean {' '.join(card for _, card in spaced)}?); the servant cards are {', '.join(sorted(servants))}")
        if state.phase == "warding" and words and all(w.lower() in servants for w in words):
            return ev.Servants(tuple(servants[w.lower()] for w in words), typed=True)
        known = [w for w in words if any(k.startswith(w.lower()) for k in servants)]
        unknown = [w for w in words if w not in known]
        cards = {card: card for card in servants}  # the card meant: a hyphen left out (`ymp3`) or a letter mistyped (`ghost-2`;
        meant = {w: errors.meant(w, cards)[0] for w in unknown if errors.meant(w, cards)}  # forty-seventh referee breaker,
        # KIND 4: "not an answer here")
        if state.phase == "warding" and (known or meant) and unknown and \
                all(re.fullmatch(r"[a-z]+-?\d+", w, re.I) for w in unknown):
            # cards named with one shaped as a card that is none (`foo-9 ymp-1`, or its hyphen left out, `ymp3`): said as
            # such, not "not an answer" or "is not dice" (forty-second referee breaker, F3; forty-fourth, LOW 2), the card
            # meant named whenever a hyphen left out makes one, alone or beside others mistyped (forty-fifth, POLISH 3)
            if len(meant) == len(unknown) and len(unknown) > 1:
                raise click.ClickException(f"{', '.join(map(repr, unknown))} are no servant cards (did you mean "
                                           f"{' '.join(meant[w] for w in unknown)}?); the servant cards are "
                                           f"{', '.join(sorted(servants))}")
            hint = errors.did_you_mean(unknown[0], cards)
            raise click.ClickException(f"{unknown[0]!r} is no servant card{hint}; the servant cards are "
                                       f"{', '.join(sorted(servants))}")
        if state.phase == "warding" and words and all(any(k.startswith(w.lower()) for k in servants) for w in words):
            chosen = []
            for word in words:  # `ghast-1 ymp` or `zhumbi ymp`: a card named by a beginning, when one card begins so
                fitting = sorted(k for k in servants if k.startswith(word.lower()))
                if len(fitting) > 1:
                    raise click.ClickException(f"{word} fits {', '.join(fitting)}: type the card's number ({fitting[0]})")
                chosen.append(servants[fitting[0]])
            return ev.Servants(tuple(chosen), typed=True)
        return None

    def secret_shown(self, text: str, state: State) -> str | None:
        """Nothing: the solo game has no secret from another player."""
        return None

    def why_not(self, text: str, state: State) -> str | None:
        """Where the quest card ``text`` names is, when it is not in the draw pile (a card of one's own deck
        typed twice, seventh breaker: :func:`referee.solo.core.card_place`); ``None`` for a text that names no
        quest card, or a card in the draw pile."""
        wanted = clitools.slug(text)
        if not wanted:
            return None
        path = text.strip().upper().split()
        if state.map_battle is not None and path and all(re.fullmatch(r"[A-Z]\d{1,2}", hex_name) for hex_name in path):
            try:  # a hex off the map or out of reach: the one-shot's reason, in this prompt's words (fifteenth breaker)
                rules.apply(state, self.db, ev.Move(tuple(path)))
            except rules.RuleError as error:
                return self.refusal(error, state).rstrip(".")
            return None
        if state.phase == "learn":  # a spell that may not be learned: the one-shot's reason (fourteenth breaker)
            spells = [spell.id for spell in self.db.solo.spell]
            named = _named(self.db, spells, wanted)
            if named is None:
                return None
            try:
                rules.apply(state, self.db, ev.Learn(named))
            except rules.RuleError as error:
                return advice.refusal_text(error, state)
            return None
        found = _named(self.db, rules.quest_deck(self.db), wanted)
        if found is None:
            return None
        where = rules.LOST_CARD_PLACE if found == rules.lost_battle_card(state, self.db) and state.phase == "turn" \
            else core.card_place(state, found)
        return f"{rules.name(self.db, found)} is {where}, not in the draw pile" if where is not None else None

    def _is_map_hex(self, state: State, word: str) -> bool:
        """Whether ``word`` names a hex of the map on the table as the rules read it: a hex name (``C4``),
        a printed number (``7``), ``S`` or ``R`` (:func:`referee.solo.expanded.parse_hex`)."""
        try:
            expanded.parse_hex(expanded.battle_map(state, self.db).hex_map, word)
        except (rules.RuleError, ValueError):
            return False
        return True

    def parse_command(self, words: Sequence[str], state: State) -> ev.Event:
        """The event a one-shot command's words play (``cast shield``, ``battle --dice 5,6``). Raises
        ``click.ClickException`` for words click cannot read, ``ValueError`` for words that play no event."""
        return self.parse(list(words), self.db)

    def commands(self) -> Mapping[str, str]:
        return GAME_COMMANDS

    def refusal(self, error: Any, state: State, last: Any = None, gate: bool = False) -> str:
        """The one-shot's refusal (:func:`referee.solo.advice.refusal_text`), except a move to the hex the
        warden stands on: staying is Enter or `stay` here, with the attack's dice after it (R13)."""
        if not isinstance(error, rules.RuleError):
            return str(error)
        if error.refusal is core.Refusal.ALREADY_THERE:
            return f"{error}: to stay, press Enter or type stay (stay 66 111 stays, then gives the attack's dice)"
        if error.refusal in (core.Refusal.TOO_FAR, core.Refusal.OFF_THE_MAP):  # the prompt's own word, not the one-shot's
            shown = "`map` shows the hexes"
            return f"{error}: {shown}" if error.refusal is core.Refusal.OFF_THE_MAP else (
                f"{error}; move toward it within reach, or stay: {shown}")
        return advice.refusal_text(error, state)  # (its option or placeholder is dropped by the session: no such word here)

    def run_command(self, name: str, state: State) -> tuple[Any, ...]:
        """``map`` (the battle map, drawn), ``spells``."""
        db = self.db
        if name == "spells":  # the one-shot's table, its columns kept at any width (thirty-second breaker, LOW 6)
            from referee.clitools import SpellTable

            return (SpellTable(view.spell_sections(state, db), view.spell_lines(state, db)),)
        if name == "map":
            if state.map_battle is None and state.phase != "warding":
                return ("No map battle is on.",)
            return (MapScreen(state, db),)
        return ()

    def new_options(self, state: State) -> list[tuple[str, str]]:
        """This game's difficulty and starting spells, as `new` takes them (forty-sixth referee breaker, POLISH 6)."""
        return [("--difficulty", state.setup.difficulty), ("--spells", ",".join(rules.short_id(s) for s in state.setup.spells))]

    def new_game_problem(self, params: Mapping[str, Any], db: Any) -> None:
        """Raise as `referee solo new` with ``params`` would (a spell that is none, a pair not allowed): its own setup,
        nothing saved."""
        if params.get("database_path") is not None:
            db = clitools.load_database(params["database_path"])
        new_game(db, params["difficulty"], params["spell_list"], params.get("seed") or 0)

    def toolbar(self, state: State) -> str:
        """Two lines: Mana, Spirit, the Grayking's space and distance to Lassadar, keys, deck count, in a
        battle its round or the Grayking's hit points; then the spells (used ones marked with *) and the
        Elders with the uses left (the terminal front end wraps each line to its width). With
        ``patience``, while a losing roll waits, a third: the aid that can turn it and its odds, once the
        background search has found them."""
        db = self.db
        end = core.lassadar(db)
        parts = [f"Mana {state.mana}", f"Spirit {state.spirit}",
                 f"Grayking {state.grayking} ({end - state.grayking} to Lassadar)",
                 f"Keys {len(state.keys)}/{len(rules.stats(self.db).keys)}", f"Deck {len(state.deck)}"]
        if state.map_battle is not None:
            parts.append(f"Map round {state.map_battle.round}")
        if state.last_stand is not None:
            parts.append(f"Grayking HP {state.last_stand.hit_points}")
        spells = ", ".join(rules.name(db, s) + ("*" if s in state.used else "") for s in state.spells) or "none"
        cards = [f"Spells: {spells}"]
        if state.elders:
            cards.append("Elders: " + ", ".join(f"{rules.name(db, e).removeprefix('Elder ')} ({uses})" for e, uses in state.elders))
        lines = [" | ".join(parts), " | ".join(cards)]
        if self.patience is not None and aid.situation(state) is not None:  # the odds searched in the background
            known = aid.remembered(state, db)
            if known is None:
                lines.append(f"Aid that can {'lower' if aid.situation(state) == 'loss' else 'turn'} it: working it out ...")
            elif known:
                lines.append(f"Aid that can {'lower' if aid.situation(state) == 'loss' else 'turn'} it: " + " | ".join(
                    f"{advice.step_name(db, a.event)} ({advice.odds(a.chance, a.certain, a.at_least)})" for a in known))
        return "\n".join(lines)



class MapScreen:
    """The battle map as ``referee solo map`` and table mode's ``map`` print it: a rich renderable drawn at the width
    of the console that prints it (narrower hexes below 77 columns; piped, ``fit=False``, the widest whatever the
    width), so a narrow terminal never shows hex rows wrapped in two. Below the compact form's width it is one line
    saying how wide the terminal must be, wrapped at words, and the markers' hexes in words as ``status`` gives them
    (:func:`referee.solo.view.marker_rows`), so the ``map`` a Next line or a prompt offers shows the markers on any
    terminal (thirty-eighth referee breaker, HIGH 1; at the table it had said only that the terminal is too narrow).
    ``map_id`` names a map to draw when no battle is on (``referee solo map --key N``). ``str()`` gives the
    80-column picture as plain text."""

    def __init__(self, state: State, db: Database, map_id: str | None = None, fit: bool = True) -> None:
        self.state, self.db, self.map_id, self.fit = state, db, map_id, fit

    def lines(self, width: int | None, encoding: str = "utf-8") -> list[Any]:
        """The map's lines as rich ``Text`` at ``width`` columns (None: the widest hexes) for output in ``encoding``
        (:func:`referee.solo.view.map_picture`); below the compact form's width, the lines saying the terminal is too
        narrow and then one line per marker (its label, then its hex and hit points)."""
        from rich.text import Text

        drawn, markers = self._drawn(width, encoding)
        return drawn + [Text(f"{label.strip()}: {text}") for label, text in markers]

    def _drawn(self, width: int | None, encoding: str) -> tuple[list[Any], list[tuple[str, str]]]:
        """The picture's lines at ``width`` and no markers in words; or, on a terminal too narrow for it, the lines
        saying so and the markers' ``(label, text)`` rows (none for a map only looked at with ``map_id``)."""
        from rich.text import Text

        try:
            picture = view.map_picture(self.state, self.db, self.map_id, width if self.fit else None, encoding)
        except view.MapTooNarrow as error:  # wrapped at words as the notes are (twenty-first breaker: cut mid-word at 40 columns)
            from referee.clitools import wrap_paragraph

            said = f"{error}: the markers' hexes instead (widen it to see the map)."
            said = said[:1].upper() + said[1:]  # a sentence of its own (forty-sixth referee breaker, POLISH 7)
            fought = self.state.map_battle
            shown = fought is not None and (self.map_id is None or fought.map == self.map_id)
            return ([Text(line, style="bold") for line in (wrap_paragraph(said, width) if width else [said])],
                    view.marker_rows(self.state, self.db) if shown else [])
        lines = []
        for line in picture:
            text = Text()
            for piece, style in line:
                text.append(piece, style=style or "")
            lines.append(text)
        return lines, []

    def __rich_console__(self, console: Any, options: Any) -> Any:
        from referee.clitools import status_table

        drawn, markers = self._drawn(options.max_width, options.encoding)
        yield from drawn
        if markers:  # in the status table's columns, each text wrapped at words under its own
            yield status_table(markers)

    def __str__(self) -> str:
        return "\n".join(text.plain for text in self.lines(80))


def _accepted(state: State) -> str:
    """What accepting takes as it stands: a Battle Loss ``row`` once one is rolled (R8), else the ``roll``."""
    return "row" if state.phase == "loss" else "roll"


def new_game(db: Database, difficulty: str, spell_list: str, seed: int) -> Any:
    """The new game `referee solo new` sets up (a :class:`referee.solo.game.SoloGame`, nothing saved): the one setup of
    `new`, `play` and the table's reading of a `new` typed at a prompt. Raises ``click.ClickException`` (one line) for
    spells it refuses."""
    from referee.solo.game import SoloGame

    spells = [clitools.find_record(((s.id, (s.name,)) for s in db.solo.spell), name, "--spells", "spell", "spells")
              for name in clitools.split_names((spell_list,), "--spells")]
    try:
        return SoloGame.new(db, difficulty, spells, seed)
    except rules.RuleError as error:
        raise click.ClickException(advice.refusal_text(error, None)) from None
