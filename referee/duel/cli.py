"""``referee duel``: the command line of the two-player referee (*Ruin & Renewal I*).

This module only parses, calls :mod:`referee.duel.game` / :mod:`referee.duel.rules` and prints. Each
command loads the save file, plays one event, and writes the file back only when the event was
accepted: a rejected command prints one line (:func:`referee.duel.advice.refusal_text`), exits
non-zero and leaves the file byte for byte unchanged. Loading, playing, the notes and the Next line,
undo, log, status and restore are the shared :class:`referee.clitools.GameCommands` over
:data:`referee.duel.game.RULES`. Hidden dice: ``commit`` asks for the assignment
with hidden input (or takes ``--assign`` or a ``--sealed`` SHA-256 from ``seal`` on another device);
``roll`` shows a player's dice to that player only; nothing else prints a hand before ``reveal``.

The commands that play an event build it with one function each (:func:`marker_event`,
:func:`roll_event`, :func:`commit_event`, :func:`reveal_event`, :func:`recall_event`), which
:func:`parse` also uses, through click's own parsing of the command's options, without playing it;
:func:`command_line` is its inverse: the command line that, typed, builds a given event.
"""
from __future__ import annotations

import os
import re
import shlex
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import click

from pnp.database import Database
from pnp.oneline import FilePath as OneLineFilePath
from pnp.oneline import OneValueGroup, quoted, shown_file
from referee import clitools, glyphs
from referee.clitools import echo  # with the --save and --db typed in every command it offers
from referee.dice import Dice, DiceError
from referee.duel import advice, legal, rules, view
from referee.duel import events as ev
from referee.duel import game as duel_game
from referee.duel.state import DICE_SCHEMES, SIDES, DiceScheme, PerSide, Side, State
from referee.errors import ParseError, RefereeError, undisclosed

_common = clitools.common_options(clitools.save_help("duel"))
SIDE = clitools.Choice(list(SIDES))
CMD = advice.CMD


# ---- Options and helpers ----------------------------------------------------------------------------------
def _note_style(note: str, state: State) -> str | None:
    """The end of the game (``state.outcome``, read by :func:`view.outcome_text`) in bold green; other notes plain."""
    return "bold green" if note == view.outcome_text(state) else None


_game = clitools.GameCommands(duel_game.RULES, _note_style)
"""Loading, playing and the commands both games share, for the two-player game."""


def _assignment(text: str) -> ev.Assignment:
    """The placing ``text`` reads as (:func:`ev.parse_assignment`); a text that reads as none is one line naming the
    option it is given in, ``--assign`` (a table prompt drops the option's name: fortieth referee breaker, LOW 15, only
    the refusal of a placing the side cannot pay for named it)."""
    try:
        return ev.parse_assignment(text)
    except ev.EventError as error:
        raise clitools.fail(error, f"--assign: {error}") from None


def _location(db: Database, state: State | None, text: str, also: str = "") -> str:
    """The Location ``text`` names (:func:`rules.location_id`; its number in the row needs ``state``, and a
    beginning several share is read among the Locations the legal events offer now, as the table reads it).
    Raises ``click.BadParameter`` of one line naming the argument LOCATION (round 19: ``marker 99``
    did not say which argument was wrong); ``also`` is added to its end (`recall`'s "or `none`")."""
    try:
        return rules.location_id(db, text, [p.id for p in state.row] if state is not None else None,
                                 legal.choosable_locations(state, db) if state is not None else None)
    except ParseError as error:
        raise click.BadParameter(clitools.fail(error).message + also, param_hint="LOCATION") from None


def _pairs(items: Sequence[str], option: str) -> dict[Side, str]:
    """``("wardens=4,2", ...)`` -> ``{"wardens": "4,2"}``; one line for anything else."""
    out: dict[Side, str] = {}
    for item in items:
        name, sep, value = item.partition("=")
        name = name.strip().lower()
        side = next((s for s in SIDES if s == name), None)
        if not sep or side is None:
            raise click.ClickException(f"{option}: write SIDE=VALUE with SIDE wardens or shadowmajik, not {item!r}")
        if side in out:
            raise click.ClickException(f"{option}: {side} is given twice")
        other = re.search(r"(?:^|,)\s*(wardens|shadowmajik)\s*=", value, flags=re.IGNORECASE)
        if other:  # twenty-second breaker: `--reroll 'wardens=4,shadowmajik=2'` was "'shadowmajik=2' is not a die"
            raise click.ClickException(f"{option}: give each side its own {option} ({option} {side}=... {option} "
                                       f"{other.group(1).lower()}=...), not both in {item!r}")
        out[side] = value.strip()
    return out


def _dice(text: str, option: str, prefix: str = "") -> Dice:
    values = clitools.parse_dice(text, option, totals=False, prefix=prefix)  # a re-roll spell re-rolls single dice
    try:
        return Dice(values, None)
    except DiceError as error:
        raise click.ClickException(f"{option}: {error}") from None


# ---- Building events from the command's options -------------------------------------------------------------
def marker_event(words: Sequence[str], side: Side | None, db: Database, state: State | None) -> ev.Marker:
    """The event of ``referee duel marker WORDS [--player SIDE]``: ``side`` (default: whoever chooses
    now, from ``state``) places the yellow marker on the Location the words name (id, name, or number
    in the row). Raises ``click.ClickException`` (one line) for a Location no Location is, or for a
    number or a missing ``--player`` without ``state``."""
    if side is None:
        if state is None:
            raise click.UsageError("marker: give --player SIDE (who places the marker is read from the game)")
        side = state.chooser
    return ev.Marker(side, _location(db, state, " ".join(words)))


def player_name(text: str, option: str) -> str:
    """A player's name as typed, checked (:func:`referee.duel.game.name_problem`), its blanks trimmed at both ends and
    each run of them inside made one space, as the table prompts read answers (thirty-third breaker, LOW 21: a name kept
    "  Ana   Lee  ", which pushed the status table's column); raises a ``click.BadParameter`` of one line naming
    ``option``."""
    problem = duel_game.name_problem(text) or duel_game.name_problem(" ".join(text.split()))
    if problem:
        raise click.BadParameter(problem, param_hint=option)
    return " ".join(text.split())


def roll_event(side: Side) -> ev.Roll:
    """The event of ``referee duel roll --player SIDE``: the referee rolls ``side``'s dice (left to
    :func:`rules.resolve`, R78)."""
    return ev.Roll(side)


def commit_event(side: Side, text: str | None, sealed: str | None, state: State | None,
                 ask: Callable[[], str] | None = None) -> ev.Commit:
    """The event of ``referee duel commit --player SIDE [--assign TEXT | --sealed SEAL]``: ``side``'s
    placing read from ``text``, or the ``sealed`` seal (its ASCII letters in lower case, :func:`rules.seal_case`), or, with neither, asked with
    ``ask`` (the hidden prompt, R77) after checking in ``state`` that ``side`` may commit at all; an answer there that
    is plainly a seal or a near one (:func:`rules.looks_like_seal`) is committed as a seal, which the rules check.
    Raises ``click.ClickException`` for both options, for neither without ``ask``, or an assignment
    text that reads as none; :class:`rules.RuleError` when ``side`` may not commit now."""
    if text is not None and sealed is not None:
        raise click.ClickException("give --assign or --sealed, not both")
    if sealed is not None:
        _same_side(side, sealed)
        return ev.Commit(side, seal=rules.typed_seal(sealed) or rules.seal_case(sealed.strip()))
    if state is not None:
        problem = rules.commit_problem(state, side)  # asked before the hidden prompt, not after it
        if problem:
            raise problem
    if text is None:
        if ask is None:
            raise click.UsageError("commit: give --assign or --sealed (without them the placing is asked with hidden input)")
        text = ask()
        _same_side(side, text)
        seal = rules.typed_seal(text)  # a seal pasted at the hidden prompt, or nearly one: taken (and refused as a seal when
        if seal is not None:  # it is none), as the table's prompt does (thirty-second breaker, MED 3; thirty-third, LOW 6)
            return ev.Commit(side, seal=seal)
    return ev.Commit(side, _assignment(text))


def _same_side(side: Side, text: str) -> None:
    """Refuse the line `referee duel seal` printed for the other side, pasted as ``side``'s seal
    (:func:`rules.seal_line_problem`). Raises :class:`~referee.duel.events.EventError`."""
    problem = rules.seal_line_problem(side, text)
    if problem is not None:
        raise ev.EventError(problem)


def _opening_with_side(item: str) -> str:
    """An ``--open`` value as ``SIDE=OPENING``: the whole Opening line `referee duel seal` printed, given alone, is its
    side's (it names it); a side written before the Opening line of the other side is refused in one line (thirty-fifth
    breaker, LOW 13: the line alone was "write SIDE=VALUE", and under the other side's name it was taken)."""
    named = rules.opening_line_side(item)
    if named is not None:
        return f"{named}={item}"
    side, sep, value = item.partition("=")
    named = rules.opening_line_side(value)
    if sep and named is not None and side.strip().lower() in SIDES and side.strip().lower() != named:
        raise click.ClickException(f"--open: this is the {rules.possessive(rules.SIDE_NAMES[named])} Opening line, given as "
                                   f"{side.strip().lower()}=: give it alone, or as {named}=...")
    return item


def reveal_event(openings: Sequence[str], rerolls: Sequence[str], state: State | None = None) -> ev.Reveal:
    """The event of ``referee duel reveal [--open SIDE='ASSIGNMENT#SALT' ...] [--reroll SIDE=D,D ...]``:
    each sealed placing opened with its assignment and salt (R77; read by :func:`ev.parse_opening`, as the table reads
    it: in one pair of quotes or not, spaces around ``#`` or not, the salt in any case), each side's typed re-rolled dice
    (R81), or ``SIDE=forfeit`` for a seal its side cannot open (void, ruling 82); everything else is
    filled in by :func:`rules.resolve`. Raises ``click.ClickException``
    (one line) for an option not written ``SIDE=VALUE``, an opening without its salt, or a die off the die; with the
    game's ``state``, an opening of a side that committed no seal is refused first as the rules refuse it (twenty-seventh
    breaker: it was told how to write an opening, and then that there was nothing to open)."""
    opened = _pairs([_opening_with_side(item) for item in openings], "--open")
    typed = _pairs(rerolls, "--reroll")
    fields: dict[str, Any] = {}
    for side in opened:
        hand = state.hands[side] if state is not None and state.phase == "round" else None
        if hand is not None and hand.assignment is not None and hand.seal is None:
            raise click.ClickException(f"--open: the {rules.SIDE_NAMES[side]} committed no seal, so there is nothing of theirs "
                                       f"to open or forfeit: reveal without --open {side}")
    for side, value in opened.items():  # read as the table reads it (thirty-second breaker, LOW 10): quotes, spaces at `#`
        if ev.unquoted(value).lower() != rules.FORFEIT and ev.opening_parts(value) is None:
            raise click.ClickException(f"--open: write {side}='ASSIGNMENT#SALT' as `{CMD} seal` printed it, or {side}=forfeit")
        try:  # `forfeit`: the seal cannot be opened (its opening lost): void, ruling 82
            fields[side], fields[f"{side}_salt"] = ev.parse_opening(value, rules.FORFEIT)
        except ev.EventError as error:
            raise clitools.fail(error) from None
    for side, value in typed.items():
        fields[f"{side}_reroll"] = _dice(value, "--reroll", f"{side}=")
    return ev.Reveal(**fields)


def recall_event(words: Sequence[str], side: Side | None, db: Database, state: State | None) -> ev.Recall:
    """The event of ``referee duel recall LOCATION|none [--player SIDE]``: ``side`` (default: the last
    round's winner in ``state``) takes its cube back from the Location the words name, or keeps its
    cubes (``none``, R29). Raises ``click.ClickException`` as :func:`marker_event`."""
    location = " ".join(words)
    if side is None:
        if state is None:
            raise click.UsageError("recall: give --player SIDE (the round's winner is read from the game)")
        side = state.last.winner if state.last is not None and state.last.winner is not None else "wardens"
    # `recall no` was "no Location 'no'; this game's row: ..." without the word that forgoes (thirty-fifth breaker, LOW 14)
    return ev.Recall(side, None if location.strip().lower() == "none" else _location(db, state, location,
                                                                                     "; or `none` to take no cube back"))


# ---- Parsing a command line into its event, and back --------------------------------------------------------------
def parse(args: str | Sequence[str], db: Database, state: State | None = None) -> ev.Event:
    """The event the command line ``args`` builds, not played: parsed by the command's own click options,
    built by the same function as the command. ``args`` is the whole line (a string, split as a shell
    splits it) or its words, with or without ``referee duel`` in front.

    ``["marker", "rift-of-sael", "--player", "shadowmajik"]`` -> ``Marker("shadowmajik",
    "duel.location.rift-of-sael")``. ``state`` is needed only for what the command reads from the game:
    a Location given by its number in the row, a ``--player`` left out of ``marker`` or ``recall``, and
    the check that a side may commit. A ``commit`` needs ``--assign`` or ``--sealed`` (no hidden prompt
    here). Raises ``click.ClickException`` (``click.UsageError`` for a line that is no event command or
    breaks its options) and :class:`rules.RuleError` (a commitment the side may not make now).
    """
    words = shlex.split(args) if isinstance(args, str) else list(args)
    if words[:2] == CMD.split():
        words = words[2:]
    if not words or words[0] not in EVENT_COMMANDS:  # the line quoted once, as given (thirty-second breaker: "'x;y'")
        given = args if isinstance(args, str) else shlex.join(words)
        raise click.UsageError(f"not a command that plays an event ({', '.join(EVENT_COMMANDS)}): {quoted(given, 80)}")
    name, rest = words[0], words[1:]
    command = duel.commands[name]
    context = clitools.command_context(command, f"{CMD} {name}", rest)
    params = context.params
    if name == "marker":
        return marker_event(params["words"], params["side"], db, state)
    if name == "roll":
        return roll_event(params["side"])
    if name == "commit":
        return commit_event(params["side"], params["text"], params["sealed"], state)
    if name == "reveal":
        return reveal_event(params["openings"], params["rerolls"], state)
    return recall_event(params["words"], params["side"], db, state)


def _short(location_id: str) -> str:
    """A Location id as typed: its last part (``rift-of-sael``), which :func:`rules.location_id` reads back."""
    return location_id.rsplit(".", 1)[-1]


def command_line(event: ev.Event) -> str:
    """The ``referee duel ...`` line that, typed, builds ``event`` (:func:`parse` gives it back), with
    every option written out (``--player`` always) and quoted for a shell.

    ``Marker("shadowmajik", "duel.location.rift-of-sael")`` -> ``referee duel marker rift-of-sael
    --player shadowmajik``; ``Commit("wardens", a)`` -> ``referee duel commit --player wardens --assign
    'battle 3,5 power 6 spare 2'`` (the hidden prompt's answer as ``--assign``); a seal as ``--sealed``;
    ``Reveal(wardens=a, wardens_salt=s)`` -> ``--open 'wardens=A#S'``; typed re-rolled dice as
    ``--reroll wardens=4``; ``Recall(side, None)`` -> ``recall none``.

    A resolved event (from a game's log) gives the line that plays it again in the same state: what
    :func:`rules.resolve` fills in is left out (dice the referee rolled, a reveal's assignments that
    come from plain commitments). Raises ``ValueError`` for an event no command line builds: a roll of
    typed dice, or a salt the ``--open`` option cannot carry (empty, with ``#`` or outer spaces).
    """
    if isinstance(event, ev.Marker):
        return f"{CMD} marker {_short(event.location)} --player {event.side}"
    if isinstance(event, ev.Roll):
        if event.dice is not None and event.dice.typed:
            raise ValueError("the referee's roll takes no typed dice: no command line builds this roll")
        return f"{CMD} roll --player {event.side}"
    if isinstance(event, ev.Commit):
        if event.seal is not None:
            return f"{CMD} commit --player {event.side} --sealed {shlex.quote(event.seal)}"
        text = event.assignment.text() if event.assignment is not None else ""
        return f"{CMD} commit --player {event.side} --assign {shlex.quote(text)}"
    if isinstance(event, ev.Reveal):
        parts = [f"{CMD} reveal"]
        for side in SIDES:
            a, salt = getattr(event, side), getattr(event, f"{side}_salt")
            if a is not None and salt is not None:
                if not salt or "#" in salt or salt != salt.strip():
                    raise ValueError(f"the salt {salt!r} cannot be typed after --open {side}=ASSIGNMENT#")
                parts.append(f"--open {shlex.quote(f'{side}={a.text()}#{salt}')}")
        for side in SIDES:
            dice: Dice | None = getattr(event, f"{side}_reroll")
            if dice is not None and dice.typed:
                parts.append(f"--reroll {side}={','.join(map(str, dice.values))}")
        return " ".join(parts)
    if isinstance(event, ev.Recall):
        return f"{CMD} recall {_short(event.location) if event.location is not None else 'none'} --player {event.side}"
    raise ValueError(f"no command line builds {event!r}")


# ---- Commands ------------------------------------------------------------------------------------------------------
@click.group(cls=OneValueGroup)
def duel() -> None:
    """Referee a two-player game of Ruin & Renewal I beside the printed cards.

    Start with `referee duel new`, then follow the "Next:" line each command prints. Each round both
    players commit their four dice in secret (`commit --player SIDE`, hidden input), then `reveal`.
    """
    advice.ROLL_SHOWN_HERE.set(not roll_refusal(None))  # the Next lines offer no `roll` that this terminal refuses


def _setup_options(lead: str) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """The setup options of ``new`` and ``play`` (``--seed``, ``--wardens``, ``--shadowmajik``, ``--row``),
    each help text starting with ``lead``."""
    def said(text: str) -> str:
        return f"{lead}{text[:1].lower()}{text[1:]}" if lead else text

    def decorate(command: Callable[..., Any]) -> Callable[..., Any]:
        for option in reversed([
            click.option("--seed", type=click.IntRange(0, 2**63 - 1), default=None, help=said("Seed of the referee's deal and dice (default: random).")),
            click.option("--wardens", "wardens_name", default="Wardens", callback=lambda c, p, v: player_name(v, "--wardens"),
                         help=said("Name of the Wardens player.")),
            click.option("--shadowmajik", "shadow_name", default="Shadowmajik",
                         callback=lambda c, p, v: player_name(v, "--shadowmajik"), help=said("Name of the Shadowmajik player.")),
            click.option("--row", default=None, help=said("The 7 Locations you dealt, left to right from the Wardens' "
                                                             "side (ids or names, comma-separated).")),
        ]):
            command = option(command)
        return command
    return decorate


EVENT_COMMANDS = ev.COMMANDS
"""The commands that play an event (:func:`parse`)."""


@duel.command()
@_setup_options("")
@click.option("--dice", "dice_scheme", type=clitools.Choice(list(DICE_SCHEMES)), default="per-side", show_default=True,
              help="Where the referee's dice come from: per-side (each side's dice of a round fixed by the seed, the round and the "
                   "side: an undo never re-rolls) or sequential (one count over the game, as games set up before per-side dice: "
                   "to replay such a game from its seed).")
@click.option("--force", is_flag=True, help="Replace a game still in progress (it is kept in <save>.prev).")
@_common
def new(seed: int | None, wardens_name: str, shadow_name: str, row: str | None, dice_scheme: DiceScheme, force: bool,
        save_path: Path | None, database_path: Path | None) -> None:
    """Set up a new game (description, Setup). A game in progress is replaced only with --force; a finished
    or replaced game is kept in <save>.prev (`referee duel restore` brings it back); a save of the solo
    game is never replaced."""
    db = clitools.load_database(database_path)
    chosen = seed is not None
    import secrets  # (only a new game draws a seed: issue 14)

    seed = secrets.randbelow(2**63) if seed is None else seed
    from referee.duel.table import new_game  # the table mode's module: only new and play need it (issue 14)

    game = new_game(db, seed, PerSide(wardens_name, shadow_name), row, dice_scheme)
    path = clitools.save_path(save_path, "duel")
    _game.save_new(game, path, force)
    state = game.state
    console = clitools.console()
    # The seed gives every die the referee rolls, the hidden ones too: it is shown only when the players
    # chose it (and so know it already); a random seed stays in the save file (rulings 77, 78).
    shown = f" (seed {seed}: whoever knows it can work out the referee's hidden rolls)" if chosen else ""
    console.print(f"New game of Ruin & Renewal I{shown}, saved in {shown_file(path)}.", markup=False)
    if row is None:  # as many as the database deals, and the removed line only when some are (thirty-fourth breaker, LOW 30)
        console.print(f"Deal these {len(state.setup.row)} Locations in a row, left to right from the Wardens' side, names "
                      f"toward the Wardens: " + ", ".join(f"{i} {rules.name(db, x)}" for i, x in enumerate(state.setup.row, 1))
                      + ".", markup=False)
        if state.setup.removed:
            console.print("Remove from the game: " + ", ".join(rules.name(db, x) for x in state.setup.removed) + ".",
                          markup=False)
    r = rules.rules_of(db)
    console.print(f"Each player: the player card, {r.dice_per_player} dice, {r.cubes_per_player} cubes: {r.track_marker_cubes} on the "
                  f"point track at {state.points.wardens}, {r.deployable_cubes} in supply (R24, R70).", markup=False)
    context = click.get_current_context()
    if context.parent is None or context.parent.command is not play:  # at the table the session asks next (no Next line
        _game.print_next(game, console)                                  # to type while it holds the save: thirteenth breaker)


@duel.command()
@click.argument("words", nargs=-1, required=True, metavar="LOCATION")
@click.option("--player", "side", type=SIDE, default=None, help="Who places it (default: whoever must).")
@_common
def marker(words: tuple[str, ...], side: Side | None, save_path: Path | None, database_path: Path | None) -> None:
    """Place the yellow marker on LOCATION (name, id or its number in the row; a name of two words
    needs no quotes: `marker Glasswater Ford`)."""
    _game.play(save_path, database_path, lambda g: marker_event(words, side, g.db, g.state))


def roll_refusal(side: Side | None) -> str:
    """Why `referee duel roll --player side` would leave the dice on a shared screen here, in one line; ``""`` when it may
    show them (a terminal that clears its screen after a key, or output to a pipe or a file). ``side`` ``None``: whether
    any side's roll may be shown, for the Next line (:data:`referee.duel.advice.ROLL_SHOWN_HERE`)."""
    if not sys.stdout.isatty():
        return ""
    if not clitools.stdin_is_terminal():  # thirty-second breaker (LOW 15): shown on the shared screen with no key to read
        return ("the dice would stay on the shared screen: standard input is not a terminal, so no key can be read to hide "
                "them; run the command from the terminal, or send its output to a file or a device only that player sees; "
                "nothing was rolled")  # (before clearing them, the dice stayed there)
    term = os.environ.get("TERM", "")
    if term.lower() in ("dumb", "unknown") or (not term and sys.platform != "win32"):
        # thirty-third breaker, HIGH 3: the screen was "cleared" with escape codes such a terminal does not obey, and the
        # dice stayed on the shared screen for the other side to read
        return (f"this terminal (TERM={term or 'not set'}) cannot clear the screen, so the dice would stay on it for the "
                f"other side to read: roll your own dice and place them with `{CMD} commit --player {side or 'SIDE'}` "
                f"(hidden input), or roll in a full terminal; nothing was rolled")
    return ""


@duel.command()
@click.option("--player", "side", type=SIDE, required=True, help="Whose dice the referee rolls.")
@_common
def roll(side: Side, save_path: Path | None, database_path: Path | None) -> None:
    """Roll a player's 4 dice; only that player should look (the screen is cleared after a key on a terminal).

    Rolled already this round and not committed? The same dice are shown again; nothing changes.
    """
    refused = roll_refusal(side)
    if refused:
        raise click.ClickException(refused)
    game, path = _game.load(save_path, database_path)
    dice = rules.rolled_to_show(game.state, side)
    again = " again (rolled earlier this round; nothing changed)" if dice is not None else ""
    if dice is None:
        _game.play_loaded(game, path, lambda g: roll_event(side))
        dice = game.state.hands[side].rolled
    echo(clitools.with_given(f"{rules.SIDE_NAMES[side]} only: your dice are {dice}{again}. Place them with "
                                   f"`{CMD} commit --player {side}`."))
    if sys.stdin.isatty() and sys.stdout.isatty():
        interrupted: KeyboardInterrupt | None = None
        echo("Press any key to hide your dice ...", nl=False)
        try:
            with clitools.not_stopped():  # `kill -TSTP` stopped it with the dice on screen (thirty-fifth breaker, LOW 14)
                click.getchar()
        except KeyboardInterrupt as error:  # Ctrl-C, or SIGTERM/SIGHUP (pnp.entry.Terminated): the dice hidden all the same
            interrupted = error
        except EOFError:
            pass
        click.clear()
        echo("\x1b[3J", nl=False)  # and the terminal's scrollback, where the dice would still be
        if interrupted is not None:  # (thirty-fourth breaker, LOW 16: it went on to the Next line and exit status 0)
            from pnp.entry import Terminated

            number = interrupted.signal if isinstance(interrupted, Terminated) else 2  # SIGINT
            echo(clitools.with_given(f"Interrupted: the dice are hidden, and the roll is saved (`{CMD} roll --player "
                                           f"{side}` shows them again to that player)."), err=True)
            sys.exit(128 + number)
    echo("Next: " + clitools.with_given(game.next_line()))


def _ask_assignment(side: Side, game: duel_game.DuelGame, what: str) -> str:
    state, db = game.state, game.db
    here = state.current
    where = f" at {rules.name(db, here)} ({'/'.join(rules.location(db, here).resonance)})" if here is not None else ""
    rolled = " the 4 dice the referee rolled you," if state.hands[side].rolled else ""
    return clitools.hidden_prompt(f"{rules.SIDE_NAMES[side]}, {state.points[side]} {rules.points_word(db, side)}{where}: {what}{rolled} "
                                  f"e.g. 'battle 3,5 cast 4' or 'battle 3,5 power 6' (hidden)",
                                  # a placeholder, no dice: an example's dice read as the placing read from a file
                                  # (forty-second referee breaker, LOW 17)
                                  f"give the placing with --assign 'PLACING' (it shows as typed: keep the screen "
                                  f"from the other player), or commit a seal from `{CMD} seal --player {side}` "
                                  f"on your own device with --sealed SEAL")


@duel.command()
@click.option("--player", "side", type=SIDE, required=True, help="Who commits.")
@click.option("--assign", "text", default=None, help="The assignment, for tools and tests (default: asked with hidden input).")
@click.option("--sealed", "sealed", default=None, help="The seal `referee duel seal` printed on the player's own device.")
@_common
def commit(side: Side, text: str | None, sealed: str | None, save_path: Path | None, database_path: Path | None) -> None:
    """Commit a player's dice in secret: Battle dice and the Power or the Casting die."""
    if text is not None and sealed is not None:
        raise click.ClickException("give --assign or --sealed, not both")
    typed: list[str] = []

    def ask(game: duel_game.DuelGame) -> str:
        typed.append(_ask_assignment(side, game, "place your dice:"))
        try:  # typed unseen: a wrong word is refused in words that tell nothing of the placing (R77)
            rules.check_placing(game.db, side, ev.parse_assignment(typed[-1]))
        except rules.RuleError as error:
            if error.hidden is None:
                raise
            raise rules.RuleError(error.hidden, error.refusal, error.side, error.field) from None
        except ev.EventError:
            pass  # said as the placing is read (commit_event)
        return typed[-1]

    try:
        _game.play(save_path, database_path, lambda g: commit_event(side, text, sealed, g.state, ask=lambda: ask(g)))
    except click.ClickException as error:
        if not typed or type(error) is not click.ClickException:
            raise
        # typed at the hidden prompt: the line stays on the shared screen, so it never quotes the placing (R77)
        said = undisclosed(_as_typed_at_the_prompt(error.format_message()), typed[-1],
                           glyphs.glyph(glyphs.ELLIPSIS, "...", glyphs.encoding_of(sys.stderr)))
        raise click.ClickException(f"{said}; nothing was committed: run the command again") from None


def _as_typed_at_the_prompt(message: str) -> str:
    """A refusal of a placing typed at the hidden prompt, which names no option: ``--assign: ...`` as ``your placing:
    ...`` (forty-first referee breaker, F5: it named an option the player never typed)."""
    return "your placing: " + message[len("--assign: "):] if message.startswith("--assign: ") else message


@duel.command()
@click.option("--player", "side", type=SIDE, required=True, help="Whose assignment is sealed.")
@click.option("--assign", "text", default=None, help="The assignment (default: asked with hidden input).")
@click.option("--db", "database_path", type=OneLineFilePath(path_type=Path, dir_okay=False), default=None,
              help=f"Card database, the game's (default: ${clitools.DB_ENV}, else ./cards.toml, else the bundled one).")
def seal(side: Side, text: str | None, database_path: Path | None) -> None:
    """For play on two devices: print a seal of your assignment to commit now, and its opening for the reveal.

    Run it on your own device (no save file needed); give the referee `commit --player SIDE --sealed SEAL`
    now and `reveal --open SIDE='OPENING'` after both have committed. The seal names SIDE and opens only as
    SIDE's (ruling 88): both lines printed say whose it is. A placing the rules refuse whatever the game
    (a spell the Casting die cannot cast, a `reroll` no spell makes) is refused here, not sealed.
    """
    asked = text is None
    if text is None:
        text = clitools.hidden_prompt(f"{rules.SIDE_NAMES[side]}: your assignment, e.g. 'battle 3,5 cast 4' (hidden)",
                                      "give it with --assign 'PLACING' on your own device")
    try:
        a = _assignment(text)
        try:  # twenty-fifth breaker: a placing every game refuses was sealed, and void at the reveal
            rules.check_placing(clitools.load_database(database_path), side, a)
        except rules.RuleError as error:
            said = error.hidden if asked and error.hidden is not None else str(error)  # typed unseen: nothing of it told (R77)
            raise click.ClickException(f"{said}; nothing was sealed") from None
    except click.ClickException as error:
        if not asked or type(error) is not click.ClickException:
            raise
        # typed at the hidden prompt: the refusal stays on the screen, so it never shows the placing (R77, twenty-sixth breaker)
        raise click.ClickException(undisclosed(_as_typed_at_the_prompt(error.format_message()), text,
                                               glyphs.glyph(glyphs.ELLIPSIS, "...", glyphs.encoding_of(sys.stderr)))) from None
    import secrets

    salt = secrets.token_hex(8)
    # the side it names, before it is committed: a seal opens only as that side's (ruling 88; thirty-second breaker, LOW 11)
    echo(f"Seal of the {rules.possessive(rules.SIDE_NAMES[side])} placing (give it now with --player {side}): "
               f"{rules.seal(side, a, salt)}")
    echo(f"Opening of the {rules.possessive(rules.SIDE_NAMES[side])} placing (keep it secret until the reveal): "
               f"{a.text()}#{salt}")


@duel.command(context_settings={"allow_extra_args": True})  # words of an opening the shell split off: said below
@click.option("--open", "openings", multiple=True, help="SIDE='ASSIGNMENT#SALT': open a sealed commitment.")
@click.option("--reroll", "rerolls", multiple=True,
              help="SIDE=DICE: the physical dice a re-roll spell gave, e.g. wardens=4 (default: the referee rolls).")
@_common
def reveal(openings: tuple[str, ...], rerolls: tuple[str, ...], save_path: Path | None, database_path: Path | None) -> None:
    """Reveal both players' dice once both have committed, and settle the battle."""
    extra = click.get_current_context().args
    if extra:  # an opening typed without quotes: the shell split it at its spaces, and a `#` began a comment (thirty-third
        # breaker, LOW 14: click's bare "Got unexpected extra arguments")
        raise click.UsageError(f"{quoted(' '.join(extra), 40)} is no option: quote each opening whole, "
                               f"`{CMD} reveal --open wardens='battle 3,5 power 6#SALT'` (unquoted, the shell splits it at its "
                               f"spaces, and a # begins a comment)")
    _game.play(save_path, database_path, lambda g: reveal_event(openings, rerolls, g.state))


@duel.command()
@click.argument("words", nargs=-1, required=True, metavar="LOCATION")
@click.option("--player", "side", type=SIDE, default=None, help="Who takes the cube back (default: the round's winner).")
@_common
def recall(words: tuple[str, ...], side: Side | None, save_path: Path | None, database_path: Path | None) -> None:
    """With every cube out, take one back from LOCATION to place it here, or `none` to forgo the spaces (R29).
    A name of two words needs no quotes."""
    _game.play(save_path, database_path, lambda g: recall_event(words, side, g.db, g.state))


@duel.command()
@click.option("--json", "as_json", is_flag=True, help="One JSON object, for tools.")
@_common
def status(as_json: bool, save_path: Path | None, database_path: Path | None) -> None:
    """Show the round, the tracks, the cubes, the Locations and what to do next (never a hidden hand)."""
    _game.status(save_path, database_path, as_json)


@duel.command()
@_common
def board(save_path: Path | None, database_path: Path | None) -> None:
    """Draw the row of Locations as the players see it (plain text when piped or with NO_COLOR)."""
    game, _ = _game.load(save_path, database_path)
    console = clitools.console()
    plain = not console.is_terminal or bool(os.environ.get("NO_COLOR"))
    console.print(view.board(game.state, game.db, plain=plain, next_line=False))
    _game.print_next(game, console)  # with the --save and --db typed (:func:`referee.clitools.with_given`)


@duel.command()
@_common
def restore(save_path: Path | None, database_path: Path | None) -> None:
    """Bring back the game the last `new` replaced (kept in <save>.prev); the game it replaces is kept there in turn."""
    _game.restore(save_path, database_path)


@duel.command()
@_common
def undo(save_path: Path | None, database_path: Path | None) -> None:
    """Take back the last command (not a roll, a reveal, or a commitment once both committed)."""
    _game.undo(save_path, database_path)


@duel.command()
@click.option("--repair", is_flag=True, help="If a kept state differs from the replay, write the save again from the replay.")
@_common
def check(repair: bool, save_path: Path | None, database_path: Path | None) -> None:
    """Replay the whole game from its setup and check the states the save keeps against it."""
    _game.check(save_path, database_path, repair)


@duel.command()
@click.option("--verbose", "-v", is_flag=True, help="Also print what each event did.")
@_common
def log(verbose: bool, save_path: Path | None, database_path: Path | None) -> None:
    """Print the game so far, one line an event; a round's dice appear in its reveal line."""
    _game.log(save_path, database_path, verbose)


@duel.command()
@_setup_options("A new game: ")
@_common
def play(wardens_name: str, shadow_name: str, row: str | None, seed: int | None, save_path: Path | None, database_path: Path | None) -> None:
    """Play at the table, at one terminal: the referee asks for each step (the Location, each player's
    placing unseen, the reveal, a recall) and saves after every step. The one-shot commands can take over any time.
    With no game saved, a new one is set up first (the options name the players and the row you dealt)."""
    from referee import tableui
    from referee.duel.table import DuelTable
    from referee.table import TableSession

    path = clitools.save_path(save_path, "duel")
    if os.environ.get("TERM", "").lower() in ("dumb", "unknown"):  # its prompts would echo the placings and keep the dice on screen
        # the one-shot way on from where the game is: with no game saved, `commit` was offered and refused, and its refusal
        # offered `play` again (thirty-seventh breaker, LOW 12)
        typed = clitools.typed_options()  # (before the options' own refusal, which offered `play` again: 38th, MED 5)
        if os.path.lexists(path):  # a save that is not this game's is refused in its own words, as `status` would
            _game.load(save_path, database_path)  # (forty-third referee breaker, F3)
        way = (f"`{CMD} status` gives the next one" if os.path.lexists(path) else
               f"`{CMD} new{' ' + typed if typed else ''}` starts the game, and each step's Next line gives the next one")
        raise click.ClickException(
            f"this terminal (TERM={os.environ['TERM']}) cannot clear its screen or redraw the table's prompts, so a side's "
            f"dice would stay on it for the other side to read (R77): play in a full terminal, or with the one-shot commands, "
            f"whose hidden input works here: {way}")  # (forty-third referee breaker, F4: "cannot hide what is typed")
    if os.path.lexists(path):  # the options set up a new game only (thirty-third breaker, LOW 12: ignored without a word)
        context = click.get_current_context()
        given = [option for name, option in (("wardens_name", "--wardens"), ("shadow_name", "--shadowmajik"), ("row", "--row"),
                                             ("seed", "--seed"))
                 if context.get_parameter_source(name) in (click.core.ParameterSource.COMMANDLINE,
                                                           click.core.ParameterSource.ENVIRONMENT)]
        if given and not _finished(save_path, database_path):  # a finished game's `play` asks whether to start another (below)
            from pnp.oneline import listed

            if "--row" in given:  # the new game offered must be one `new` sets up (thirty-fourth breaker, LOW 15)
                from referee.duel.table import new_game

                new_game(clitools.load_database(database_path), 0, PerSide(wardens_name, shadow_name), row, "per-side")

            raise click.UsageError(clitools.with_given(
                f"{listed(given)} set{'' if len(given) > 1 else 's'} up a new game, and a game is saved here: play it without "
                f"{'them' if len(given) > 1 else 'it'} (`{CMD} play`), or start a new one with "
                f"{'them' if len(given) > 1 else 'it'} (`{CMD} new --force {clitools.typed_options()}`, then `{CMD} play`)"))
    # a pipe or a file: the one-shot commands instead (thirty-second breaker, LOW 18)
    clitools.require_terminal("duel", path, lambda: _game.load(save_path, database_path))
    if not os.path.lexists(path):
        clitools.console().print(f"No game saved in {shown_file(path)}: a new game.", markup=False)
        click.get_current_context().invoke(new, seed=seed, wardens_name=wardens_name, shadow_name=shadow_name, row=row,
                                           dice_scheme="per-side", force=False, save_path=path, database_path=database_path)
    elif (damaged := _game.damaged(save_path, database_path)) is not None:
        if not tableui.start_over("duel", path, damaged):
            raise SystemExit(1)
        click.get_current_context().invoke(new, seed=seed, wardens_name=wardens_name, shadow_name=shadow_name, row=row,
                                           dice_scheme="per-side", force=True, save_path=path, database_path=database_path)
    game, path = _game.load(save_path, database_path)
    try:
        session = TableSession(game, path, DuelTable(game.db, parse))
        if session.finished():  # a new game offered, the finished one kept (forty-first round: only `quit` was offered)
            wanted = tableui.another_game("duel", path, kept_in_progress=_game.kept_in_progress(path, game.db))
            if wanted is None:
                return
            if wanted:
                click.get_current_context().invoke(new, seed=seed, wardens_name=wardens_name, shadow_name=shadow_name, row=row,
                                                   dice_scheme="per-side", force=False, save_path=path, database_path=database_path)
                game, path = _game.load(save_path, database_path)
                session = TableSession(game, path, DuelTable(game.db, parse))
        tableui.main_loop(session, path, _note_style)
    except RefereeError as error:  # the save's lock held by another session, or no lock file can be made
        raise clitools.fail(error) from None


def _finished(save_path: Path | None, database_path: Path | None) -> bool:
    """Whether the duel saved at ``save_path`` is over (False when it cannot be read: the reading refuses it later)."""
    import contextlib
    import io

    from referee.duel.table import DuelTable
    from referee.table import TableSession

    try:  # read quietly: its notes (a database kept for it) are said once, where the game is loaded to be played
        with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
            game, path = _game.load(save_path, database_path)
    except click.ClickException:
        return False
    return TableSession(game, path, DuelTable(game.db, parse)).finished()


@duel.command()
@click.option("--player", "side", type=SIDE, default=None, help="One player's card (default: both).")
@_common
def spells(side: Side | None, save_path: Path | None, database_path: Path | None) -> None:
    """List the spells on the player cards with what they cost at the current Location."""
    game, _ = _game.load(save_path, database_path)
    state, db = game.state, game.db
    clitools.console().print(clitools.SpellTable(view.spell_sections(state, db, side), view.spell_lines(state, db, side)))
