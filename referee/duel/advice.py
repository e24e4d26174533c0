"""The two-player referee's words for the table: the Next line, with the commands to type, and the
one-line refusals with what to type instead.

This module owns every ``referee duel ...`` command line the referee suggests and every option name a
refusal mentions; the rules (:mod:`referee.duel.rules`) write neither. It reads the state, takes the
choices it lists (Locations for the yellow marker, cubes to take back, who still commits and whether
the referee has rolled for them) from :func:`referee.duel.legal.iter_legal_events`, and writes the
line. Every back-quoted command it offers works when typed, its placeholders
(:data:`referee.advice.PLACEHOLDERS`) filled in (issue 10, R80).
"""
from __future__ import annotations

from contextvars import ContextVar

from pnp.database import Database
from referee.advice import dice_placeholder
from referee.duel import events as ev
from referee.duel import rules
from referee.duel.legal import iter_legal_events
from referee.duel.rules import SIDE_NAMES, Refusal, RuleError
from referee.duel.state import OWN_DICE, SIDES, Side, State, other

CMD = "referee duel"

OPTIONS: dict[str, str] = {"side": "--player", "assignment": "--assign", "seal": "--sealed",
                           **{f"{s}{suffix}": "--open" for s in SIDES for suffix in ("", "_salt")},
                           **{f"{s}_reroll": "--reroll" for s in SIDES}}
"""The command-line option that gives each event field a refusal may concern (:attr:`RuleError.field`)."""


def next_step_short(state: State, db: Database) -> str:
    """What the game waits for, in a few words with the command (for refusals): while a reveal waits for
    re-rolled dice (R81), whose dice and the whole command that types them (twenty-eighth breaker: "type
    them with `--reroll`" was said to a side with nothing to type, and is no command)."""
    if state.phase == "marker":
        return f"the {SIDE_NAMES[state.chooser]} place the yellow marker (`{CMD} marker LOCATION`)"
    if state.phase == "round":
        if state.opened is not None:
            counts = rules.typed_rerolls(state, db, state.opened)
            whose = " and ".join(f"the {SIDE_NAMES[s]}'" for s in SIDES if counts[s])
            return (f"the reveal waits for {whose} re-rolled Battle dice: `{reroll_command(state, db)}` types them, "
                    f"`{CMD} reveal` rolls them")
        waiting = [s for s in SIDES if not state.hands[s].committed]
        if waiting:
            player = waiting[0] if len(waiting) == 1 else "SIDE"  # the one side waited for, named
            return "waiting for " + " and ".join(f"the {SIDE_NAMES[s]}" for s in waiting) + f" to commit (`{CMD} commit --player {player}`)"
        return f"both have committed: `{reveal_command(state)}`"
    if state.phase == "recall":
        return f"the {SIDE_NAMES[rules.round_winner(state)]} take a cube back (`{CMD} recall LOCATION` or `{CMD} recall none`)"
    winner = state.result
    return f"the game is over: the {SIDE_NAMES[winner]} won" if winner is not None else "the game is over"


def reveal_command(state: State) -> str:
    """The reveal to type once both have committed: ``referee duel reveal``, with ``--open SIDE='OPENING'``
    for each side that committed a seal (R77; OPENING is what that player's ``seal`` printed, quoted
    for a shell because it holds spaces)."""
    opens = "".join(f" --open {s}='OPENING'" for s in SIDES if state.hands[s].seal is not None)
    return f"{CMD} reveal" + opens


def reroll_order(state: State, db: Database) -> str:
    """Which Battle die each typed re-roll replaces, in the order the values are typed (R74, R81; ruling
    74): ``the Wardens re-roll their 1 (Warden's Call) and type it first, then their highest Battle die
    after it (Creeping Dark) and type it second``; sides the referee rolls for are left out; ``""``
    when the reveal waits for no typed die. The order matters: the second die is the highest only once
    the first is re-rolled (twenty-third breaker: the prompt said "2 re-rolled Battle dice" and no more)."""
    if state.opened is None:
        return ""
    counts = rules.typed_rerolls(state, db, state.opened)
    steps = rules.reroll_steps(db, state.opened)
    said = []
    for side in SIDES:
        if not counts[side]:
            continue
        battle = state.opened[side].battle
        words = []
        for n, step in enumerate(steps[side]):
            die = (f"their {step.die}" if step.die is not None else
                   "their highest Battle die" + (" after it" if n else f" ({max(battle)})"))
            words.append(f"{die} ({step.spell})" + ("" if len(steps[side]) == 1 else f" and type it {('first', 'second')[n]}"))
        said.append(f"the {SIDE_NAMES[side]} re-roll " + ", then ".join(words))
    return "; ".join(said)


def reroll_command(state: State, db: Database) -> str:
    """The reveal to type when it waits for re-rolled physical dice (R81): ``--reroll SIDE=D`` for each
    side that types its own, one ``D`` per die (``D,D`` for two); the referee rolls the others."""
    if state.opened is None:
        return f"{CMD} reveal"
    counts = rules.typed_rerolls(state, db, state.opened)
    return f"{CMD} reveal" + "".join(f" --reroll {s}={dice_placeholder(counts[s])}" for s in SIDES if counts[s])


ROLL_SHOWN_HERE: ContextVar[bool] = ContextVar("ROLL_SHOWN_HERE", default=True)
"""The mode of the terminal the advice is read at: whether `referee duel roll` can show a side the referee's dice there
and clear them off the screen after (false on a terminal that obeys no clearing, TERM=dumb, where `roll` is refused:
the Next line then offers the side's own dice; forty-third referee breaker, F4). Set by the command line
(:func:`referee.duel.cli.roll_refusal`); true wherever dice are not shown on a shared screen (a pipe, a file)."""


def commit_offer(state: State, side: Side, roll_first: bool) -> str:
    """The commands that commit ``side``'s dice, as the Next line offers them (R77, R78, R80): at this
    terminal with hidden input, or a seal made on the player's own device; the referee's roll first
    when ``roll_first`` (the referee has not rolled for ``side`` this round). A side that last committed
    one way in this game is offered that way; before its first commitment, both. Where this terminal cannot show the
    referee's roll (:data:`ROLL_SHOWN_HERE`), the side's own dice are offered in its place."""
    plain = f"`{CMD} commit --player {side}`"
    sealed = f"`{CMD} seal --player {side}` on your own device, then `{CMD} commit --player {side} --sealed SEAL`"
    if state.hands[side].rolled is not None:  # twenty-fourth breaker: a seal of other dice was void at the reveal
        sealed = f"a placing of the dice the referee rolled you: {sealed}"
    roll = "" if not roll_first else f"`{CMD} roll --player {side}` first, or physical dice" if ROLL_SHOWN_HERE.get() else (
        "roll physical dice: this terminal cannot clear the referee's roll off the screen")
    way = state.commit_way[side]
    if way in ("sealed", OWN_DICE):
        return sealed + (f" ({roll})" if roll else "")
    if way == "plain":
        return plain + (f" ({roll})" if roll else "")
    return plain + f" ({roll + '; ' if roll else ''}on two devices: {sealed})"


def next_step(state: State, db: Database) -> str:
    """What to do next, with the commands to type: every back-quoted ``referee ...`` command works as
    typed in the phase it is offered, its placeholders (:mod:`referee.advice`) filled in (issue 10, R80).

    The Locations listed for the yellow marker (R30) and for taking a cube back (R29), and the sides
    offered a commitment (and the referee's roll, R78), are the choices of
    :func:`referee.duel.legal.iter_legal_events`."""
    if state.phase == "marker":
        position = {p.id: i for i, p in enumerate(state.row, 1)}  # a Location may be typed by its number in the row
        places = ", ".join(f"{position[e.location]} {rules.name(db, e.location)}" for e in iter_legal_events(state, db)
                           if isinstance(e, ev.Marker))
        return f"{rules.who_does(state, state.chooser, 'chooses', 'choose')} the Location to fight for: `{CMD} marker LOCATION` ({places})."
    if state.phase == "round":
        at = f"Round {state.round} at {rules.name(db, rules.current_location(state))}"
        if state.opened is not None:
            typed, order = reroll_command(state, db), reroll_order(state, db)
            if not order:  # no side that placed physical dice re-rolls one: the referee rolls every re-rolled die
                return f"{at}: revealed; the referee rolls the re-rolled dice: `{CMD} reveal`."
            return f"{at}: revealed; {order}: `{typed}`, or let the referee roll them: `{CMD} reveal`."
        parts = []
        for s in SIDES:
            if state.hands[s].committed:
                continue
            first = next(iter_legal_events(state, db, s), None)  # no Roll for a side that rolls its own dice (ruling 87)
            parts.append(f"{SIDE_NAMES[s]}: {commit_offer(state, s, roll_first=isinstance(first, ev.Roll))}")
        if parts:
            return f"{at}. " + "; ".join(parts) + "."
        opening = " (each OPENING as that player's seal printed it)" if any(state.hands[s].seal for s in SIDES) else ""
        return f"{at}: both have committed: `{reveal_command(state)}`{opening}."
    if state.phase == "recall":
        winner = rules.round_winner(state)
        places = ", ".join(rules.name(db, e.location) for e in iter_legal_events(state, db)
                           if isinstance(e, ev.Recall) and e.location is not None)
        return (f"{rules.who_does(state, winner, 'takes', 'take')} a cube back: `{CMD} recall LOCATION --player {winner}` ({places}), "
                f"or `{CMD} recall none --player {winner}` to forgo {state.pending} space{'s' if state.pending != 1 else ''}.")
    champion = state.result
    if champion is None:
        return f"Another game: `{CMD} new`."
    return (f"The game is over: {rules.who(state, champion)} won, controlling {len(state.controlled_by(champion))} Locations. "
            f"Another game: `{CMD} new`.")


def option_of(field: str | None) -> str | None:
    """The command-line option that gives the event field ``field`` (:data:`OPTIONS`), or ``None``."""
    return OPTIONS.get(field) if field is not None else None


def refusal_text(error: RuleError, state: State, db: Database, hidden: bool = False, last: ev.Event | None = None) -> str:
    """The one line the command line prints for the refusal ``error`` met in ``state`` (the state the
    refused event was played on): the rules' message, completed by its kind (:class:`Refusal`) with
    what to type instead, the option named from the field the refusal concerns.

    ``GAME_OVER``: ``; `referee duel new` starts another``; ``WRONG_PHASE``: what the game waits for
    (:func:`next_step_short`); ``ALREADY_ROLLED``: the roll that shows the same dice again and the commit
    that places them (R78); ``ALREADY_COMMITTED``: the undo while the other side has not committed and the
    commitment is the ``last`` event (what undo takes back), else what the game waits for (R77, R78, ruling 83);
    ``NOT_THE_ROLLED_DICE``: the roll that shows the dice again (R71); ``ROLL_STANDS``: the commit that places the
    dice of an undone roll, and the roll that shows them again (R78);
    ``BAD_SEAL``, ``SEAL_NOT_OPENED``: the ``seal`` command (with what is wrong with the seal) and the ``--open``
    option (R77); ``SEAL_OF_OTHER_SIDE``: the ``seal --player`` that made it and the forfeit (ruling 88); ``OWN_DICE``: the
    seal made on the player's own device (ruling 87); ``REFEREE_DICE``: the ``--reroll`` option named (R81);
    ``OPENING_DOES_NOT_MATCH``: the option, the side's own Opening line or its forfeit (ruling 82). Other
    refusals read as their message. ``hidden``: the placing was typed unseen, so a refusal with ``hidden`` words
    (a wrong ``spell`` or ``reroll`` word) reads as those.
    """
    if hidden and error.hidden is not None:  # typed unseen: words that tell nothing of the placing (R77)
        return error.hidden
    kind, side, text = error.refusal, error.side, str(error)
    if error.field is not None and error.field.endswith("_reroll") and kind in (None, Refusal.REFEREE_DICE):  # as the option's others read
        return f"{option_of(error.field)}: {text}"  # (twenty-fifth breaker: "--reroll: a die shows 1-6" but not this one)
    if error.field is not None and error.field.endswith("_salt") and kind is None:  # an opening refused: --open named
        return f"{option_of(error.field)}: {text}"  # (fortieth referee breaker, MED 5)
    if kind is Refusal.OPENING_DOES_NOT_MATCH and side is not None:
        return (f"{option_of(error.field)}: {text}; give their own Opening line as the seal command printed it, or "
                f"{side}=forfeit if it is lost (ruling 82)")
    if error.field == "assignment" and kind is None:  # a placing refused: the option it was given in (a table prompt drops
        return f"{option_of(error.field)}: {text}"  # it; thirty-ninth referee breaker, LOW 2: `commit` named no option)
    if kind is Refusal.GAME_OVER:
        return f"{text}; `{CMD} new` starts another"
    if kind is Refusal.WRONG_PHASE:
        return f"{text}: {next_step_short(state, db)}"
    if kind is Refusal.BAD_SEAL:  # its numbers in back quotes: a hidden prompt's refusal keeps only those (R77)
        return f"a seal is the `{rules.SEAL_DIGITS}` hex digits `{CMD} seal` printed" + (f" ({error.detail})" if error.detail else "")
    if side is None:
        return text
    if kind is Refusal.ALREADY_ROLLED:
        return f"{text}: `{CMD} roll --player {side}` shows the same dice again; `{CMD} commit --player {side}` places them"
    if kind is Refusal.ROLL_STANDS:  # (the table says where its prompt takes them: referee.duel.table.DuelTable.refusal)
        return f"{text}; place them (`{CMD} commit --player {side}`; `{CMD} roll --player {side}` shows them again)"
    if kind is Refusal.ALREADY_COMMITTED:
        if state.opened is not None:  # the reveal waits for re-rolled dice (R81)
            return f"{text}: {next_step_short(state, db)}"
        if all(state.hands[s].committed for s in rules.SIDES):
            return f"{text}, and so have the {SIDE_NAMES[rules.other(side)]}: the round is revealed next (ruling 83)"
        if isinstance(last, ev.Commit) and last.side == side:
            return f"{text}; `{CMD} undo` takes it back"
        # a step since then stands (the other side's referee roll, R78): `undo` would be refused (forty-third referee
        # breaker, F2: it was offered)
        return f"{text}, and the steps since then stand, so the placing does too: {next_step_short(state, db)}"
    if kind is Refusal.OWN_DICE:
        return f"{text}; they roll theirs and `{CMD} seal --player {side}` on their own device, then `{CMD} commit --player {side} --sealed SEAL`"
    if kind is Refusal.NOT_THE_ROLLED_DICE:  # the option named, as the placing's other refusals (forty-first breaker, F5)
        named = f"{option_of(error.field)}: " if error.field == "assignment" else ""
        return f"{named}{text} (`{CMD} roll --player {side}` shows your dice again)"
    if kind in (Refusal.SEAL_NOT_OPENED, Refusal.SEAL_OF_OTHER_SIDE):
        others = "".join(f" --open {s}='OPENING'" for s in rules.SIDES if s != side and state.hands[s].seal is not None
                         and state.hands[s].assignment is None)  # every sealed side opens in the same reveal
        forfeit = f"`{CMD} reveal --open {side}=forfeit{others}`"
        if kind is Refusal.SEAL_OF_OTHER_SIDE:
            return f"{seal_of_other_side(side)}: {forfeit}: {FORFEIT_COST}"
        return (f"the {SIDE_NAMES[side]} committed a seal: open it with {option_of(error.field)} {side}='ASSIGNMENT#SALT' "
                f"(what `{CMD} seal` printed), or, if it cannot be opened, {forfeit}: {FORFEIT_COST}")
    return text


FORFEIT_COST = "that placing is then void and pays the most it could have cost (ruling 82)"
"""What a forfeited seal costs its side, in the words of a refusal that offers the forfeit."""


def seal_of_other_side(side: Side) -> str:
    """The refusal of ``side``'s opening that fits the other side's seal of it (``Refusal.SEAL_OF_OTHER_SIDE``),
    before its remedy: which ``seal --player`` made it, and that it cannot be opened (ruling 88; thirty-second
    breaker, LOW 11: it was "does not match their seal", with no reason)."""
    made_for = other(side)
    return (f"the {rules.possessive(SIDE_NAMES[side])} opening fits a seal made with `{CMD} seal --player {made_for}`, not "
            f"`--player {side}`: a seal opens only as the side it names (ruling 88), so the {SIDE_NAMES[side]} cannot open "
            f"theirs")
