"""The duel at the table: the questions of ``referee duel play``, made from the legal events.

This module owns what the table session (:mod:`referee.table`) asks in a *Ruin & Renewal I* game at
one terminal: the Location for the yellow marker (a numbered choice of the legal markers, R30), each
player's placing in turn as a hidden answer (the referee's roll by Enter, shown only in that player's
prompt, which is erased once answered; or the player's physical dice placed as typed, R71, R78), the
reveal (R73) with any re-rolled Battle dice (R81), and the cube taken back after a recall (R29).
Nothing here decides what is legal: the choices are :func:`referee.duel.legal.iter_legal_events`'s.
"""
from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import click

from pnp.database import Database
from referee import errors
from referee.duel import advice, legal, rules, view
from referee.duel import events as ev
from referee.duel.state import SIDES, DiceScheme, PerSide, Side, State, other
from referee.table import Choice, DiceAsk, Question

GAME_COMMANDS = {"board": "the Locations, cubes and point tracks", "spells": "both players' spells"}


class DuelTable:
    """The duel's questions and commands for :class:`referee.table.TableSession` (it satisfies
    :class:`referee.table.TableGame`). ``db`` is the database the game is played with, ``parse`` the
    one-shot commands' parser (:func:`referee.duel.cli.parse`)."""

    name = "duel"

    def __init__(self, db: Database, parse: Callable[[list[str], Database, State], ev.Event]) -> None:
        self.db = db
        self.parse = parse

    def waiting_side(self, state: State) -> Side | None:
        """The side whose placing is asked next: the first that has not committed this round."""
        if state.phase != "round" or state.opened is not None:
            return None
        return next((s for s in SIDES if not state.hands[s].committed), None)

    def question(self, state: State) -> Question:
        """The question for ``state`` (see the module's docstring)."""
        db = self.db
        events = legal.legal_events(state, db)
        sealed = _unopened(state)
        if state.outcome is None and sealed:  # the reveal waits for the openings only their players hold
            owners = [rules.possessive(rules.SIDE_NAMES[s]) for s in sealed]
            both = f", both on one line, the {owners[0]} first" if len(sealed) > 1 else ""
            typed = ("the opening your seal printed, or `forfeit`" if len(sealed) == 1 else
                     "both openings on one line, the word forfeit in place of one that cannot be opened (`forfeit forfeit` for both)")
            return Question(f"{' then '.join(owners)} opening{'s' if len(sealed) > 1 else ''} (or forfeit)", None, "", typed=typed,
                            context=(f"Both have committed. Type the opening that `referee duel seal` printed (such as "
                                     f"`battle 3,5 power 6#SALT`){both}, or `forfeit` for a seal that cannot be opened "
                                     f"(that placing is void and pays the most it could have cost: ruling 82).",))
        if state.outcome is not None or state.phase == "over":  # only the end of the game ends it (twenty-seventh breaker: a
            # side that rolls its own dice, ruling 87, has no Roll among the legal events, and its placing was "game over")
            return Question("The game is over (Enter leaves)", over=True,
                            context=(advice.next_step(state, db).split(" Another game")[0],))
        if state.phase == "marker":
            position = {p.id: i for i, p in enumerate(state.row, 1)}
            choices = tuple(Choice(f"{rules.name(db, e.location)}", e, _words(rules.name(db, e.location)))
                            for e in events if isinstance(e, ev.Marker))
            order = sorted(choices, key=lambda c: position.get(c.event.location, 0))
            who = rules.who_does(state, state.chooser, "chooses", "choose")
            return Question(f"{rules.SIDE_NAMES[state.chooser]}: the Location (1-{len(order)})", None, "", tuple(order),
                            context=(f"{who} the Location to fight for.",))
        if state.phase == "recall":
            winner = rules.round_winner(state)
            choices = tuple(Choice(f"Take a cube back from {rules.name(db, e.location)}" if e.location else
                                   f"Forgo the {state.pending} space{'s' if state.pending != 1 else ''}",
                                   e, _words(rules.name(db, e.location)) if e.location else ("none", "forgo"))
                            for e in events if isinstance(e, ev.Recall))
            return Question(f"{rules.SIDE_NAMES[winner]}: take a cube back", None, "", choices,
                            context=(f"{rules.who_does(state, winner, 'takes', 'take')} a cube back from another Location, or forgo.",))
        side = self.waiting_side(state)
        if side is not None:
            hand = state.hands[side]
            here = rules.current_location(state)
            where = f"Round {state.round} at {rules.name(db, here)} ({'/'.join(rules.location(db, here).resonance)})"
            if hand.rolled is None:
                roll = next((e for e in events if isinstance(e, ev.Roll) and e.side == side), None)  # none: it rolls its own (ruling 87)
                context = (f"{where}. {rules.SIDE_NAMES[side]}, {state.points[side]} {rules.points_word(db, side)}: "
                           f"roll your 4 dice unseen and type your placing, e.g. battle 3,5 cast 4 or battle 3,5 power 6.",)
                if roll is None:  # a side that seals its own dice (ruling 87): its seal, or a placing typed here
                    context = (f"{where}. {rules.SIDE_NAMES[side]}, {state.points[side]} {rules.points_word(db, side)}: roll "
                               f"your own 4 dice and seal your placing on your own device (`referee duel seal --player {side}`), "
                               f"then type the seal it printed here; or type your placing here, "
                               f"e.g. battle 3,5 cast 4.",)
                    return Question(f"{rules.SIDE_NAMES[side]}: your seal or your placing of the 4 dice you rolled (hidden)", None, "",
                                    hidden=True, context=context, typed=f"the seal your device printed, or {PLACING_TYPED}")
                return Question(f"{rules.SIDE_NAMES[side]}: your placing of the 4 dice you rolled (hidden), or Enter: the referee rolls",
                                Choice("The referee rolls your dice", roll, ("roll",)), "roll", hidden=True, context=context,
                                holder=f"{side} {state.round}", typed=PLACING_TYPED)
            return Question(f"{rules.SIDE_NAMES[side]} only, your dice are {hand.rolled}: your placing (hidden)", None, "", hidden=True,
                            context=(f"{where}. {rules.SIDE_NAMES[side]}: place the dice the referee rolled you "
                                     "(they show in your prompt only), e.g. battle 3,5 cast 4.",),
                            holder=f"{side} {state.round}", typed="your placing of the dice shown in this prompt",
                            gate=f"{rules.SIDE_NAMES[side]} only: the referee rolled your dice; press Enter to see them "
                                 f"({rules.SIDE_NAMES[other(side)]}, look away)")
        reveal = next((e for e in events if isinstance(e, ev.Reveal)), None)
        if reveal is not None:
            return Question("Reveal both placings", Choice("Reveal", reveal, ("reveal",)), "reveal",
                            context=("Both have committed.",) if state.opened is None else
                            (_sentence(advice.reroll_order(state, db)),))
        return Question("Your choice", None, "", tuple(Choice(view.event_text(e, db), e) for e in events))

    # ---- Answers and commands -----------------------------------------------------------------------------
    def after(self, state: State, event: Any) -> tuple[Any, ...]:
        """The board after each revealed round (the Locations, cubes and point tracks)."""
        return self.run_command("board", state) if isinstance(event, ev.Reveal) and state.opened is None else ()

    def rolls(self, state: State, event: Any) -> list[DiceAsk]:
        """The re-rolled Battle dice a reveal waits for (R81), asked once both placings are shown (the
        first reveal opens them, so no prompt tells of a re-roll spell before): for each side that placed
        physical dice and whose spell re-rolls a Battle die, that many dice
        (:func:`referee.duel.rules.typed_rerolls`); the referee rolls those of a side it rolled for.
        Empty for every other event (the players type no other dice at the table)."""
        if not isinstance(event, ev.Reveal) or state.opened is None:
            return []  # the first reveal shows both placings; the rules then wait for physical re-rolls (R81)
        counts = rules.typed_rerolls(state, self.db, state.opened)
        return [DiceAsk(f"{side}_reroll", counts[side], f"The {rules.possessive(rules.SIDE_NAMES[side])}", kind="re-rolled Battle")
                for side in SIDES if counts[side]]

    def undo_problem(self, state: State, event: ev.Event) -> str | None:
        """A side's placing is not taken back at the other side's hidden prompt: its prompt would come back at once with
        its dice, on the screen of the player who typed `undo` (twenty-third breaker, R77). That side may take it back
        with `referee duel undo` (which shows no dice) before playing on at its own terminal."""
        asking = self.waiting_side(state)
        if isinstance(event, ev.Commit) and asking is not None and asking != event.side:
            return (f"the {rules.possessive(rules.SIDE_NAMES[event.side])} placing is theirs to take back: undone here, their prompt "
                    f"would come back on your screen, with any dice the referee rolled them; {_take_back_elsewhere()}")
            # (thirtieth breaker: "would show their dice to you" read wrong after a seal of their own dice)
        return None

    def why_not(self, text: str, state: State) -> str | None:
        """Nothing: every duel answer the table cannot read is refused by its reader in words of its own."""
        return None

    def secret_shown(self, text: str, state: State) -> str | None:
        """A placing (``battle 3,5 power 6``) typed at the Location or recall prompt, which everyone sees: said without
        quoting it, as asked for unseen once the Location is chosen (R77)."""
        words = text.split()
        numbers = re.findall(r"\d+", text)
        placing = (words and words[0].lower() in PLACING_WORDS) or (numbers and any(
            word.lower().strip(",") in PLACING_WORDS for word in words)) or len(numbers) >= 2  # (thirty-fourth breaker, MED 5:
        # `3,5 power 6` and dice alone were echoed and quoted back)
        # a one-shot command's words are read as that command, and said back, unless they hold a placing: `commit --player
        # wardens --assign 'battle 3,5 power 6'` stayed on the shared screen (thirty-fifth breaker, MED 5)
        # (thirty-sixth breaker, MED 6: an opening, `reveal --open "wardens=battle 3,4 power 5#SALT"`, the same)
        assigned = any(word.lower().startswith(("--assign", "--open")) for word in words)
        if state.phase in ("marker", "recall") and placing and (words[0].lower() not in ev.COMMANDS or assigned):
            return ("That was a placing, on the shared screen: it is wiped, and asked for unseen, each player in turn, once "
                    "the Location is chosen (R77). Now the Location.")
        return None

    def typed_value(self, text: str, state: State) -> ev.Event | None:
        """A placing typed at a hidden prompt (``battle 3,5 cast 4``: the side's commitment of physical
        dice, or of the dice the referee rolled it, R71), or the openings of the sealed placings when the
        reveal waits for them (``battle 3,5 power 6#SALT``, each in turn, or ``forfeit``, ruling 82), else
        ``None``. Raises :class:`~referee.duel.events.EventError` or ``click.ClickException`` for a
        placing or an opening that cannot be read."""
        sealed = _unopened(state)
        if state.phase in ("marker", "recall") and state.outcome is None and text.split()[:1] and text.split()[0].lower() not in ev.COMMANDS:
            # a Location not in play (removed by the deal, or controlled): the rules say why (eighteenth breaker); a beginning
            # several share is read among the choices listed, as the one-shot command reads it (thirty-third breaker, MED 6)
            choosable = legal.choosable_locations(state, self.db)
            letter = text.strip()
            if len(letter) == 1 and letter.isalpha() and state.phase == "recall":
                return None  # the choices it begins, named by the session: "Take a cube back ..." too (thirty-sixth breaker, LOW 7)
            if len(letter) == 1 and letter.isalpha():  # one letter is a slip as often as a name (thirty-fourth breaker, MED 6:
                # `t` placed the marker on Tideglass Marsh): the names it begins, never one of them taken
                begun = [rules.name(self.db, x) for x in choosable if any(
                    word.startswith(letter.lower()) for word in rules.name(self.db, x).lower().replace("the ", "", 1).split()[:1])]
                if begun:
                    raise ev.EventError(f"{letter!r} could be {', '.join(begun)}: type more of it, or its number")
                return None
            try:
                location = rules.location_id(self.db, text, None, choosable)  # a number is the prompt's, read before
            except errors.ParseError as error:
                if " could be " in str(error):
                    raise ev.EventError(str(error)) from None
                return None
            if state.phase == "recall":
                return next((e for e in legal.legal_events(state, self.db) if isinstance(e, ev.Recall) and e.location == location),
                            ev.Recall(rules.round_winner(state), location))  # not among them: the rules say why
            return ev.Marker(state.chooser, location)
        if sealed and text.split()[:1] and text.split()[0].lower() in ev.COMMANDS:
            return None  # a one-shot command's words (`reveal --open wardens='...'`): read as the command
        if sealed:  # each opening read as the one-shot `--open` reads it (thirty-second breaker, LOW 10)
            text = rules.opening_lines_as_sides(text) or text  # the whole Opening lines `seal` printed (35th breaker, MED 6)
            named = _openings_by_side(text, sealed)
            openings = named if named is not None else ev.split_openings(text, rules.FORFEIT)
            if openings is None or len(openings) != len(sealed):
                example = " ".join(["battle 3,5 power 6#SALT", "forfeit"][: len(sealed)])  # a forfeit stands in for one opening
                # the sides by name (thirty-seventh breaker, LOW 7: "type 1 opening as ... printed it")
                raise ev.EventError(f"type {_whose(sealed)} opening{'s' if len(sealed) > 1 else ''} as their seal printed "
                                    f"{'them, in that order' if len(sealed) > 1 else 'it'}, `forfeit` in place of one that cannot be "
                                    f"opened ({example})")
            fields: dict[str, Any] = {}
            for opener, opening in zip(sealed, openings, strict=True):
                placing, salt = ev.parse_opening(opening, rules.FORFEIT)
                fields[opener], fields[f"{opener}_salt"] = placing, salt
            return ev.Reveal(**fields)
        side = self.waiting_side(state)
        words = text.split()
        if side is not None and words and words[0].lower() in PLACING_WORDS:
            return ev.Commit(side, ev.parse_assignment(text))
        problem = rules.seal_line_problem(side, text) if side is not None else None
        if problem is not None:  # the other side's seal line, pasted (thirty-fourth breaker, MED 4)
            raise ev.EventError(problem)
        seal = rules.typed_seal(text) if side is not None else None
        if side is not None and seal is not None:  # the seal `referee duel seal` printed, pasted (twenty-eighth breaker: the
            # prompt asked for it, then refused it), with its line or broken by blanks (thirty-third breaker, LOW 6), or nearly
            # (thirty-second breaker, MED 3: a digit short, it was "not a command"): the rules refuse a near-seal as a seal and
            # say what is wrong with it (a seal is no secret)
            return ev.Commit(side, seal=seal)
        return None

    def parse_command(self, words: Sequence[str], state: State) -> ev.Event:
        """A one-shot command's words (``marker 2``, ``recall none --player wardens``). Raises
        ``click.ClickException`` for a command's words click cannot read, and ``ValueError`` for words that name no
        command that plays an event (:data:`referee.duel.events.COMMANDS`): the session then refuses the answer as
        typed, quoted once, as the solo table does (thirty-second breaker, LOW 9: ``{x}`` was shown as ``"'x'"``)."""
        command = list(words)[2:] if [word.lower() for word in words[:2]] == advice.CMD.split() else list(words)
        if not command or command[0] not in ev.COMMANDS:
            raise ValueError(f"no command that plays an event: {', '.join(ev.COMMANDS)}")
        event = self.parse(list(words), self.db, state)
        waiting = self.waiting_side(state)
        if waiting is not None and isinstance(event, (ev.Roll, ev.Commit)) and event.side != waiting:  # thirteenth breaker
            raise click.UsageError(f"the {rules.SIDE_NAMES[waiting]} place their dice at this prompt; the "
                                   f"{rules.SIDE_NAMES[event.side]} roll and place at theirs, which comes next")
        return event

    def commands(self) -> Mapping[str, str]:
        return GAME_COMMANDS

    def refusal(self, error: Any, state: State, last: Any = None, gate: bool = False) -> str:
        """The one-shot's refusal (:func:`referee.duel.advice.refusal_text`), naming what to type instead; a
        placing of other dice than the side rolled is answered with what this prompt takes, the placing of the
        dice shown (sixteenth breaker: the one-shot's `roll` and `commit` were offered, and refused here). An undone roll
        that stands (R78) says where its dice are placed: at the "press Enter" prompt before them (``gate``), Enter and then
        the placing; at their side's hidden prompt, the placing there; elsewhere, at that side's prompt (forty-sixth
        referee breaker, KIND 3: the one-shot `commit` was offered at the "press Enter" prompt, which refuses it)."""
        if not isinstance(error, rules.RuleError):
            return str(error)
        if error.refusal is rules.Refusal.ROLL_STANDS and error.side is not None:
            side, asking = error.side, self.waiting_side(state)
            if asking == side and gate:
                return (f"{error}: press Enter to see them (the {rules.SIDE_NAMES[other(side)]} looking away), then type "
                        f"your placing of them at the hidden prompt")
            if asking == side:
                return f"{error}: type your placing of the dice shown at this prompt (battle 3,5 power 6, with those dice)"
            return f"{error}: the {rules.SIDE_NAMES[side]} place them at their own hidden prompt, which shows them"
        if error.refusal in (rules.Refusal.ALREADY_ROLLED, rules.Refusal.NOT_THE_ROLLED_DICE) and error.side is not None:
            return f"{error}: type your placing of the dice shown at this prompt (battle 3,5 power 6, with those dice)"
        if error.refusal is rules.Refusal.SEAL_OF_OTHER_SIDE and error.side is not None:  # ruling 88: at this prompt, the
            sealed = _unopened(state)  # forfeit is typed in place of that opening, not as the one-shot's option
            where = f" (the {_ordinal(sealed.index(error.side))} on the line)" if len(sealed) > 1 and error.side in sealed else ""
            # the rules' words, not the one-shot's `seal --player` that made it: no one-shot is typed at a prompt (47th, KIND 1)
            return f"{error}: type `forfeit` in its place{where}: {advice.FORFEIT_COST}"
        if error.refusal is rules.Refusal.BAD_SEAL:  # (the seal was made on the player's own device: nothing to type here)
            return (f"a seal is the `{rules.SEAL_DIGITS}` hex digits the seal of your own device printed"
                    + (f" ({error.detail})" if error.detail else ""))
        asking = self.waiting_side(state)
        if (error.refusal is rules.Refusal.ALREADY_COMMITTED and error.side is not None and asking is not None and asking != error.side
                and not all(state.hands[s].committed for s in SIDES)):  # its `undo` is refused at this prompt (twenty-fourth breaker)
            return f"{error}; {_take_back_elsewhere()}"
        hidden = self.waiting_side(state) is not None  # the placing is typed unseen at this prompt (R77)
        return advice.refusal_text(error, state, self.db, hidden=hidden, last=last)  # (its option is dropped by the session: none is typed at a prompt)

    def run_command(self, name: str, state: State) -> tuple[Any, ...]:
        """``board`` (the Locations and tracks, drawn), ``spells``."""
        db = self.db
        if name == "board":
            return (view.board(state, db, next_line=False),)
        if name == "spells":  # the one-shot's table, its columns kept at any width (thirty-second breaker, LOW 6)
            from referee.clitools import SpellTable

            return (SpellTable(view.spell_sections(state, db), view.spell_lines(state, db)),)
        return ()

    def help_lines(self) -> list[str]:
        """None beyond the question's: the duel's answers are one per line."""
        return []

    def answering(self) -> None:
        """Nothing: the duel's questions do no work in the background."""

    def new_options(self, state: State) -> list[tuple[str, str]]:
        """None: `referee duel new` requires no option."""
        return []

    def new_game_problem(self, params: Mapping[str, Any], db: Any) -> None:
        """Raise as `referee duel new` with ``params`` would (a `--row` that deals no row): its own setup, nothing saved."""
        from referee import clitools

        if params.get("database_path") is not None:
            db = clitools.load_database(params["database_path"])
        new_game(db, params.get("seed") or 0, PerSide(params["wardens_name"], params["shadow_name"]), params.get("row"),
                  params.get("dice_scheme", "per-side"))

    def toolbar(self, state: State) -> str:
        """Round, both point tracks, the marker's Location and whose move it is."""
        db = self.db
        stands = rules.marker_stands_on(state)
        here = (rules.name(db, state.current) if state.current else
                f"on {rules.name(db, stands)}, to be moved" if stands else
                "not placed yet" if state.last is None else "off the row (its Location was won), to be placed")
        # (thirty-fifth breaker, LOW 12: "not placed yet" in round 2 read as if the game had not begun)
        points = " | ".join(f"{rules.SIDE_NAMES[s]} {state.points[s]} {rules.points_word(db, s)}, {len(state.controlled_by(s))} won"
                            for s in SIDES)
        if state.outcome is not None:  # over: no move to wait for (fourteenth breaker: it said "now: reveal")
            return f"Game over: {rules.SIDE_NAMES[state.outcome.winner]} won | {points}"
        waiting = self.waiting_side(state)
        move = (rules.SIDE_NAMES[state.chooser] + " choose" if state.phase == "marker" else
                rules.SIDE_NAMES[waiting] + " place" if waiting else
                rules.SIDE_NAMES[rules.round_winner(state)] + " recall" if state.phase == "recall" else "reveal")
        round_text = f"Round {state.round + 1} (its Location chosen now)" if state.phase == "marker" else f"Round {state.round}"
        return f"{round_text} | {points} | marker: {here} | now: {move}"



def _words(name: str) -> tuple[str, ...]:
    from referee import clitools

    return (clitools.slug(name),)


PLACING_TYPED = "your placing of the dice you rolled, `battle D,D power D` (or cast D, the spell's die, in place of power D)"
"""A placing of physical dice, as a refusal at a hidden prompt names it (:attr:`referee.table.Question.typed`): each die a
placeholder ``D`` (:data:`referee.advice.PLACEHOLDERS`), as no number in it may be read as one typed there (R77)."""

PLACING_WORDS = ("battle", "power", "cast", "spell", "reroll", "spare")
"""The words a placing begins with (:func:`referee.duel.events.parse_assignment`)."""


def _whose(sides: Sequence[str]) -> str:
    """The sides as an owner in words: ``the Wardens'``, ``the Wardens' and the Shadowmajik's``."""
    return " and ".join(f"the {rules.possessive(rules.SIDE_NAMES[side])}" for side in sides)


def _openings_by_side(text: str, sealed: Sequence[Side]) -> list[str] | None:
    """The openings of ``text`` written as the one-shot `reveal` takes them, each after its side (``wardens='battle 3,5
    power 6#SALT' shadowmajik=forfeit``: the form a Next line shows), in the order of ``sealed``; ``None`` when ``text``
    names no side so. Thirty-third breaker, LOW 9: the table refused that form and took only the bare openings. Raises
    :class:`~referee.duel.events.EventError` when the sides named are not those that sealed, or one is named twice."""
    marker = re.compile(r"(?:^|\s)(?:--open\s+)?(wardens|shadowmajik)\s*=\s*", re.IGNORECASE)
    if not marker.search(text):
        return None
    pieces = marker.split(text)
    form = " ".join(f"{side}=OPENING" for side in sealed)
    if pieces[0].strip():
        raise ev.EventError(f"type each opening after its side ({form}), or the openings alone")
    given: dict[str, str] = {}
    for side, opening in zip(pieces[1::2], pieces[2::2], strict=True):
        if side.lower() in given:
            raise ev.EventError(f"an opening is given twice for one side: type {form}")
        given[side.lower()] = opening.strip()
    if set(given) != set(sealed):
        others = [side for side in given if side not in sealed]
        asked = _whose(sealed)
        if others:  # another side's Opening line pasted (thirty-seventh breaker, LOW 7: "the openings waited for: wardens=OPENING")
            raise ev.EventError(f"that is {_whose(others)} opening; {asked} opening{'s are' if len(sealed) > 1 else ' is'} asked for here")
        raise ev.EventError(f"{asked} opening{'s are' if len(sealed) > 1 else ' is'} asked for here: type {form}")
    return [given[side] for side in sealed]


def _unopened(state: State) -> list[Side]:
    """The sides whose sealed placing waits to be opened at the reveal (both have committed, the reveal
    not yet begun), in the order the openings are typed; empty otherwise."""
    if state.phase != "round" or state.opened is not None or not all(state.hands[s].committed for s in SIDES):
        return []
    return [s for s in SIDES if state.hands[s].seal is not None and state.hands[s].assignment is None]


def _ordinal(index: int) -> str:
    """``0`` -> ``first``, ``1`` -> ``second``: an opening's place on the line that types them all."""
    return ("first", "second")[index]


def _sentence(text: str) -> str:
    """``text`` as a sentence: its first letter upper case and a full stop (``the Wardens re-roll ...`` -> ``The ...``)."""
    return f"{text[:1].upper()}{text[1:]}." if text else ""


def _take_back_elsewhere() -> str:
    """How a side takes its placing back while the other side's hidden prompt is up (twenty-fourth breaker: the advice
    was `referee duel undo`, refused at that prompt, and refused in a shell while this session holds the game)."""
    return ("to take it back, `quit` this session (or Ctrl-D), then in a shell, `referee duel undo` (it shows no dice) and "
            "`referee duel play` again")


def new_game(db: Database, seed: int, names: PerSide[str], row: str | None, dice_scheme: DiceScheme) -> Any:
    """The new game `referee duel new` sets up (a :class:`referee.duel.game.DuelGame`, nothing saved): ``row`` the
    Locations the players dealt, by name (a number would name a deal they never saw), else the seed deals; the one setup
    of `new`, `play` and the table's reading of a `new` typed at a prompt. Raises ``click.ClickException`` (one line) for
    a row that deals none."""
    from referee import clitools
    from referee.duel.game import DuelGame

    try:
        dealt = None
        if row is not None:
            places = re.split(r"\s*,\s*", row.strip())
            if "" in places:  # (thirty-third breaker, LOW 13: `gale,,rift` was read as 6 places, `--dice 1,,2` is refused)
                where = "nothing" if places == [""] else "an empty place between two commas or at an end"
                raise click.BadParameter(f"{where}: name each Location of the row once, left to right, separated by commas",
                                         param_hint="--row")
            try:
                dealt = [rules.location_id(db, x) for x in places]
            except errors.RefereeError as error:
                raise clitools.fail(error, f"--row: {error}") from None
        return DuelGame.new(db, seed, names, dealt, dice_scheme)
    except errors.RefereeError as error:
        raise clitools.fail(error) from None
