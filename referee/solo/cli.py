"""``referee solo``: the command line of the solo referee.

This module only parses, calls :mod:`referee.solo.game` / :mod:`referee.solo.rules` and prints. Each
command loads the save file, plays one event, and writes the file back only when the event was
accepted: a rejected command prints one line, exits non-zero and leaves the file byte for byte
unchanged. Loading, playing, the notes and the Next line, undo, log, status and restore are the shared
:class:`referee.clitools.GameCommands` over :data:`referee.solo.game.RULES`; errors it turns into one
line: :class:`~referee.errors.RefereeError` (a refusal of the rules in the words of
:func:`referee.solo.advice.refusal_text`, which names the option and what to type instead; a save file; dice),
:class:`~pnp.database.DatabaseError`.
"""
from __future__ import annotations

import functools
import os
import shlex
import typing
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from pnp import database
from pnp.oneline import OneValueGroup, shown_file
from referee import clitools
from referee.dice import Dice
from referee.errors import RefereeError
from referee.solo import events as ev
from referee.solo import game as solo_game
from referee.solo import rules, start, view
from referee.solo.state import Announcement, State
from referee.solo.view import ENDING_STYLES

if TYPE_CHECKING:
    from click.shell_completion import CompletionItem

_common = clitools.common_options(clitools.save_help("solo"))


# ---- Printing --------------------------------------------------------------------------------------------

def _note_style(note: str, state: State) -> str | None:
    """The colour of a note printed after a command: the note announcing the end of the game, by its
    :class:`~referee.solo.state.Ending` (:data:`ENDING_STYLES`); other notes plain."""
    return ENDING_STYLES[note.ending] if isinstance(note, Announcement) else None


_game = clitools.GameCommands(solo_game.RULES, _note_style)
"""Loading, playing and the commands both games share, for the solo game."""


# ---- Options shared by every command ------------------------------------------------------------------
def _plays(build: Callable[..., ev.Event]) -> Callable[..., None]:
    """A ``referee solo`` command that plays the event ``build(db, **options)`` makes of its options: load
    the save, play, save, print (:meth:`referee.clitools.GameCommands.play`). The builder stays reachable
    as the command callback's ``event_builder``, so :func:`parse` reads a command line into its event
    without playing it."""
    @functools.wraps(build)
    def command(save_path: Path | None, database_path: Path | None, **options: Any) -> None:
        _game.play(save_path, database_path, lambda game: build(game.db, **options))

    command.event_builder = build  # type: ignore[attr-defined]  # kept by every wrapper after (functools.wraps copies it)
    return command


# ---- Parsing -------------------------------------------------------------------------------------------------
def _complete(kind: str) -> Callable[[click.Context, click.Parameter, str], list[CompletionItem]]:
    """Shell completion (click's own, see the README) of a name argument or option: ``card`` (quest
    cards), ``spell``, ``elder``, ``servant`` by short id, or ``hex``: the hexes the warden may move to
    on the map of the game saved at ``--save`` (or the default save). Completes nothing when the
    database or the save cannot be read."""
    def complete(context: click.Context, parameter: click.Parameter, incomplete: str) -> list[CompletionItem]:
        try:
            db = clitools.load_database(context.params.get("database_path"))
            if kind == "hex":
                from referee.solo import expanded

                state = solo_game.load(clitools.save_path(context.params.get("save_path"), "solo"), db).state
                names = [expanded.name(h) for h in expanded.legal_moves(state, db)] if state.map_battle is not None else []
            else:
                records = {"card": db.solo.quests, "spell": db.solo.spell, "elder": db.solo.elder, "servant": db.solo.servant}[kind]
                names = [rules.short_id(r.id) for r in records]
        except (click.ClickException, RefereeError, KeyError):
            return []
        from click.shell_completion import CompletionItem  # (a shell asking, never a command: issue 14)

        return [CompletionItem(n) for n in sorted(names) if n.lower().startswith(incomplete.lower())]

    return complete


def _name_argument(name: str, metavar: str) -> Callable:
    """A card, spell or Elder argument typed as its id or its printed name, whose words need no quotes
    (``referee solo learn Rime Mirror``): the words are joined with single spaces."""
    return click.argument(name, nargs=-1, required=True, metavar=metavar, shell_complete=_complete(metavar.lower()),
                          callback=lambda context, parameter, words: " ".join(words))


def _values(text: str | None, option: str) -> tuple[int, ...] | None:
    """``"3,5"`` or ``"3 5"`` -> (3, 5), or ``None`` when the option was not given (see :func:`clitools.parse_dice`).
    ``--reroll`` names single dice, never a roll's total."""
    return None if text is None else clitools.parse_dice(text, option, totals=option != "--reroll")


def _typed(text: str | None, option: str) -> Dice | None:
    values = _values(text, option)
    return None if values is None else Dice(values, None)


def _record_id(records, text: str, option: str, what: str, plural: str, aliases=lambda r: ()) -> str:
    """The id of the record ``text`` names (its id, short id, name or a unique beginning of one:
    :func:`clitools.find_record`, the one resolver of every name typed); one line naming ``option`` otherwise."""
    return clitools.find_record(((r.id, (getattr(r, "name", ""), *aliases(r))) for r in records), text, option, what, plural)


def _spell_id(db: database.Database, text: str, option: str = "SPELL") -> str:
    return _record_id(db.solo.spell, text, option, "spell", "spells")


def _card_id(db: database.Database, text: str, option: str) -> str:
    return _record_id(db.solo.quests, text, option, "quest card", "cards")


def _elder_id(db: database.Database, text: str, option: str) -> str:
    """An Elders card by its id, short id, name, the name without "Elder" (``san``) or a unique beginning."""
    try:
        return _record_id(db.solo.elder, text, option, "Elder", "Elders", lambda e: (clitools.slug(e.name).removeprefix("elder-"),))
    except click.ClickException as error:
        if "could be any of" in error.message:
            raise
        try:
            card = _card_id(db, text, option)
        except click.ClickException:
            raise error from None
        elders = ", ".join(rules.short_id(e.id) for e in db.solo.elder)
        raise click.ClickException(f"{option}: {rules.name(db, card)} is not an Elders card; Elders are: {elders}") from None


def _card_ref(db: database.Database, text: str | None, option: str) -> ev.CardRef | None:
    return None if text is None else ev.CardRef(_card_id(db, text, option), True)


def _split(items: tuple[str, ...], option: str) -> list[str]:
    return clitools.split_names(items, option)


# ---- Commands ------------------------------------------------------------------------------------------------
@click.group(cls=OneValueGroup)
def solo() -> None:
    """Referee a solo game of The Grayking is Risen beside the printed cards.

    Start with `referee solo new`, then follow the "Next:" line each command prints. Dice and cards are
    the referee's unless you type the physical ones (--dice, --enemy, --card, --next).
    """


TABLE_PATIENCE = 0.005
"""Seconds table mode waits for the aid search before it asks a losing roll's question without the
odds (they follow on the bottom line): a step stays under the 20 ms a player should wait."""


@solo.command()
@click.option("--difficulty", type=clitools.Choice(["beginner", "normal", "advanced"]), required=True, help="Where the Grayking starts.")
@click.option("--spells", "spell_list", required=True, help="The two starting spells, e.g. bind,shield.")
@click.option("--seed", type=click.IntRange(0, 2**63 - 1), default=None, help="Seed of the referee's dice and shuffles (default: random).")
@click.option("--force", is_flag=True, help="Replace a game still in progress (it is kept in <save>.prev).")
@_common
def new(difficulty: str, spell_list: str, seed: int | None, force: bool, save_path: Path | None, database_path: Path | None) -> None:
    """Set up a new game (rulebook, Setup). A game in progress is replaced only with --force; a finished
    or replaced game is kept in <save>.prev (`referee solo restore` brings it back); a save of the
    two-player game is never replaced."""
    db = clitools.load_database(database_path)
    _new_game(db, difficulty, spell_list, seed, force, clitools.save_path(save_path, "solo"))


def _new_game(db: database.Database, difficulty: str, spell_list: str, seed: int | None, force: bool, path: Path,
              next_line: bool = True) -> None:
    """Set up, save and announce a new game (``new``; ``play`` without a save); ``next_line`` False
    leaves out the one-shot Next line (table mode asks instead). Raises ``click.ClickException``."""
    import secrets  # (only a new game draws a seed: issue 14)

    seed = secrets.randbelow(2**63) if seed is None else seed
    from referee.solo.table import new_game  # the table mode's module: only new and play need it (issue 14)

    game = new_game(db, difficulty, spell_list, seed)
    _game.save_new(game, path, force)
    state = game.state
    console = clitools.console()
    start = state.grayking  # the difficulty's start space (R2)
    console.print(f"New game ({difficulty}, seed {seed}), saved in {shown_file(path)}.", markup=False)
    console.print(f"Place the Mana and Spirit markers on {state.mana} and {state.spirit}, "
                  f"the Grayking marker on space {start} of the Progress Track, "
                  f"and a marker on {' and '.join(rules.name(db, s) for s in state.spells)}. Shuffle the Quest and Servant cards.",
                  markup=False)
    if state.mana != rules.stats(db).track_start:
        console.print(f"Your starting spells' bracketed cost leaves Mana at {state.mana}.", markup=False)
    if next_line:
        _game.print_next(game, console)


@solo.command()
@click.option("--json", "as_json", is_flag=True, help="One JSON object, for tools.")
@_common
def status(as_json: bool, save_path: Path | None, database_path: Path | None) -> None:
    """Show the tracks, spells, Elders, deck and what to do next."""
    _game.status(save_path, database_path, as_json)


@solo.command()
@click.option("--card", default=None, shell_complete=_complete("card"), help="The card you turned over from the physical deck (id or name).")
@_common
@_plays
def draw(db: database.Database, card: str | None) -> ev.Event:
    """Turn over the next quest card (rulebook, Play)."""
    return ev.Draw(_card_ref(db, card, "--card"))


@solo.command()
@click.option("--dice", default=None, help="Your attack dice as rolled, e.g. 3,5 (default: the referee rolls).")
@click.option("--enemy", default=None, help="The servants' dice as rolled, e.g. 2,4,6 (default: the referee rolls).")
@click.option("--cast", "casts", multiple=True, shell_complete=_complete("spell"), help="A spell to cast before the roll (repeat or comma-separate).")
@click.option("--elder", "elders", multiple=True, shell_complete=_complete("elder"), help="An Elder to call before the roll (Elder San's die).")
@click.option("--next", "next_card", default=None, shell_complete=_complete("card"), help="The next card you turned over for the Win or Loss number.")
@_common
@_plays
def battle(db: database.Database, dice: str | None, enemy: str | None, casts: tuple[str, ...], elders: tuple[str, ...], next_card: str | None) -> ev.Event:
    """Fight the City Quest on the table: roll, compare, and resolve (rulebook, Play)."""
    return ev.Battle(
        tuple(_spell_id(db, s, "--cast") for s in _split(casts, "--cast")), tuple(_elder_id(db, e, "--elder") for e in _split(elders, "--elder")),
        _typed(dice, "--dice"), _typed(enemy, "--enemy"), _card_ref(db, next_card, "--next"))


@solo.command()
@_name_argument("spell", "SPELL")
@click.option("--rows", type=int, default=None, help="Rows a Battle Loss spell lowers (Knot: 1 or 2; default the most).")
@click.option("--reroll", default=None, help="Your dice to re-roll, by value, e.g. 1,2.")
@click.option("--dice", default=None, help="The new dice as rolled (default: the referee rolls).")
@click.option("--next", "next_card", default=None, shell_complete=_complete("card"), help="The next card you turned over, if this ends the battle.")
@click.option("--counter", default=None, help="Last Stand: the dice the Grayking's counter rolls (Unguard, Forget, Mirror).")
@_common
@_plays
def cast(db: database.Database, spell: str, rows: int | None, reroll: str | None, dice: str | None, next_card: str | None, counter: str | None) -> ev.Event:
    """Cast a learned spell in the battle, on the map, in the Last Stand, or Barrier Lock with all three Warding Keys."""
    return ev.Cast(
        _spell_id(db, spell), rows, _values(reroll, "--reroll") or (), _typed(dice, "--dice"), _card_ref(db, next_card, "--next"),
        _typed(counter, "--counter"))


@solo.command()
@_name_argument("elder", "ELDER")
@click.option("--reroll", default=None, help="Your dice to re-roll, by value, e.g. 1,2 (Elder Maelis).")
@click.option("--dice", default=None, help="The new dice as rolled (default: the referee rolls).")
@click.option("--next", "next_card", default=None, shell_complete=_complete("card"), help="The next card you turned over, if this ends a City Quest battle.")
@_common
@_plays
def elder(db: database.Database, elder: str, reroll: str | None, dice: str | None, next_card: str | None) -> ev.Event:
    """Call on an Elder beside your Character Stats card (once per battle): in a City Quest battle, on a map, or in the Last Stand.

    ELDER is its id or name (elder-san, san, "Elder San"). On a map, Elder San is called before a
    servant's attack is rolled (his die joins that roll), Elder Maelis after it (--reroll). In the Last
    Stand (one battle: each Elder once in it), Elder San is called before a round is rolled, Elder
    Maelis once it is rolled (--reroll); Elder Rhun has no Battle Loss to lower there.
    """
    return ev.CallElder(
        _elder_id(db, elder, "ELDER"), _values(reroll, "--reroll") or (), _typed(dice, "--dice"), _card_ref(db, next_card, "--next"))


@solo.command()
@click.option("--next", "next_card", default=None, shell_complete=_complete("card"), help="The next card you turned over for the Battle Loss number.")
@_common
@_plays
def accept(db: database.Database, next_card: str | None) -> ev.Event:
    """Accept the loss after the roll, or the Battle Loss row as it stands."""
    return ev.Accept(_card_ref(db, next_card, "--next"))


@solo.command()
@_name_argument("card", "CARD")
@_common
@_plays
def turn(db: database.Database, card: str) -> ev.Event:
    """Name the next card you turned over from your own deck, when the referee asks for it (R7)."""
    return ev.Turn(_card_ref(db, card, "CARD"))


@solo.command()
@_name_argument("spell", "SPELL")
@_common
@_plays
def learn(db: database.Database, spell: str) -> ev.Event:
    """Learn a spell when a card or the Battle Win row lets you."""
    return ev.Learn(_spell_id(db, spell))


@solo.command()
@_common
@_plays
def skip(db: database.Database) -> ev.Event:
    """Learn no spell when offered one."""
    return ev.Learn(None)


@solo.command()
@click.option("--next", "next_card", default=None, shell_complete=_complete("card"), help="The next card you turned over for the next card value.")
@_common
@_plays
def council(db: database.Database, next_card: str | None) -> ev.Event:
    """Resolve the Council of Wardens card on the table."""
    return ev.Council(_card_ref(db, next_card, "--next"))


@solo.command()
@click.argument("outcome", type=clitools.Choice(typing.get_args(ev.WardingOutcome)))
@click.option("--mana", type=click.IntRange(-99, 99), default=0, help="Mana the map battle changed, e.g. -3.")
@click.option("--spirit", type=click.IntRange(-99, 99), default=0, help="Spirit the map battle changed, e.g. -2.")
@click.option("--elder", "elders", multiple=True, shell_complete=_complete("elder"), help="An Elder that aided you in the map battle.")
@_common
@_plays
def warding(db: database.Database, outcome: ev.WardingOutcome, mana: int, spirit: int, elders: tuple[str, ...]) -> ev.Event:
    """Enter the outcome of the Warding City battle you fought on its map: won (the key) or retreat."""
    return ev.Warding(outcome, mana, spirit, tuple(_elder_id(db, e, "--elder") for e in _split(elders, "--elder")))


@solo.command()
@_common
def undo(save_path: Path | None, database_path: Path | None) -> None:
    """Take back the last command, unless it showed the referee's dice or cards (those stand)."""
    _game.undo(save_path, database_path)


@solo.command()
@_common
def restore(save_path: Path | None, database_path: Path | None) -> None:
    """Bring back the game the last `new` replaced (kept in <save>.prev); the game it replaces is kept there in turn."""
    _game.restore(save_path, database_path)


@solo.command()
@click.option("--repair", is_flag=True, help="If a kept state differs from the replay, write the save again from the replay.")
@_common
def check(repair: bool, save_path: Path | None, database_path: Path | None) -> None:
    """Replay the whole game from its setup and check the states the save keeps against it."""
    _game.check(save_path, database_path, repair)


@solo.command()
@click.option("--verbose", "-v", is_flag=True, help="Also print what each event did.")
@_common
def log(verbose: bool, save_path: Path | None, database_path: Path | None) -> None:
    """Print the game so far, one line an event, dice shown."""
    _game.log(save_path, database_path, verbose)


@solo.command()
@_common
def spells(save_path: Path | None, database_path: Path | None) -> None:
    """List the spells on the three paths: learned, learnable now, or not (yet)."""
    game, _ = _game.load(save_path, database_path)
    state, db = game.state, game.db
    clitools.console().print(clitools.SpellTable(view.spell_sections(state, db), view.spell_lines(state, db)))


@solo.command()
@_common
def play(save_path: Path | None, database_path: Path | None) -> None:
    """Play at the table: the referee asks for each step (Enter lets it roll or draw; or type your dice and
    cards), and saves after every step. The same game as the one-shot commands, which can take over any time."""
    from referee import tableui
    from referee.solo.advice import cost_text
    from referee.solo.table import SoloTable
    from referee.table import TableSession

    path = clitools.save_path(save_path, "solo")
    # a pipe or a file: the one-shot commands instead (thirty-second breaker, LOW 18)
    clitools.require_terminal("solo", path, lambda: _game.load(save_path, database_path))

    def set_up(db: database.Database, force: bool = False) -> bool:
        """A new game asked for and saved (rulebook, Setup); False when the player left the questions. ``force``: over a
        save that cannot be read (kept in ``.prev``)."""
        try:
            difficulty = tableui.ask("Difficulty", [("beginner", ""), ("normal", ""), ("advanced", "")], "normal")
            pairs = [(f"{rules.short_id(a)} {rules.short_id(b)}", f"{rules.name(db, a)} and {rules.name(db, b)}")
                     for a, b in start.legal_starts(db)]
            texts = [f"{s.name} ({s.spell_type.capitalize()}, {cost_text(db, s.id)} to cast): {rules.plain_text(s.text)}"
                     for s in db.solo.spell if not s.effect.barrier_lock]
            spells = tableui.ask("Starting spells (help: the spells' texts)", pairs, pairs[0][0], details=texts)
        except EOFError:
            return False
        _new_game(db, difficulty, spells.replace(" ", ","), None, force, path, next_line=False)
        return True

    if not os.path.lexists(path):
        clitools.console().print(f"No game saved in {shown_file(path)}: a new game (rulebook, Setup).", markup=False)
        if not set_up(clitools.load_database(database_path)):
            return
    elif (damaged := _game.damaged(save_path, database_path)) is not None:
        if not tableui.start_over("solo", path, damaged) or not set_up(clitools.load_database(database_path), force=True):
            raise SystemExit(1)
    game, path = _game.load(save_path, database_path)
    try:
        session = TableSession(game, path, SoloTable(game.db, parse, patience=TABLE_PATIENCE))
        if session.finished():  # a new game offered, the finished one kept (forty-first round: only `quit` was offered)
            wanted = tableui.another_game("solo", path, kept_in_progress=_game.kept_in_progress(path, game.db))
            if wanted is None:
                return
            if wanted:
                if not set_up(clitools.load_database(database_path)):
                    return
                game, path = _game.load(save_path, database_path)
                session = TableSession(game, path, SoloTable(game.db, parse, patience=TABLE_PATIENCE))
        tableui.main_loop(session, path, _note_style)
    except RefereeError as error:  # the save's lock held by another session, or no lock file can be made
        raise clitools.fail(error) from None


# ---- Expanded Battles on the maps, and the Last Stand --------------------------------------------------------
def servant_id(db: database.Database, text: str) -> str:
    """The servant card ``text`` names (its id such as ``ghast-1``); raises ``click.ClickException``."""
    return _record_id(db.solo.servant, text, "--servant", "servant card", "servants")


def _placements(texts: tuple[str, ...]) -> Dice | None:
    values: list[int] = []
    for text in texts:
        values.extend(_values(text, "--place") or ())
    return Dice(tuple(values), None) if texts else None


@solo.command()
@click.option("--servant", "servants", multiple=True, shell_complete=_complete("servant"),
              help="A servant card you turned over and fight, e.g. ghast-1 (repeat, in order).")
@click.option("--place", "places", multiple=True, help="The 2d6 that place a servant, e.g. 3,4 (repeat, in the order of the servants).")
@_common
@_plays
def servants(db: database.Database, servants: tuple[str, ...], places: tuple[str, ...]) -> ev.Event:
    """Set up the Warding City's Expanded Battle Map: draw the servants and place them by 2d6."""
    # every card that is none said at once (forty-sixth referee breaker, POLISH 11)
    found = clitools.find_records(((r.id, (getattr(r, "name", ""),)) for r in db.solo.servant), _split(servants, "--servant"),
                                  "--servant", "servant card", "servants")
    return ev.Servants(tuple(found), bool(servants), _placements(places))


@solo.command()
@click.argument("hexes", nargs=-1, shell_complete=_complete("hex"))
@_common
@_plays
def move(db: database.Database, hexes: tuple[str, ...]) -> ev.Event:
    """Phase a: move to a hex within two (HEX), or along a path (HEX HEX); no hex stays. Servants then move.

    A hex is named by column letter and row number as `referee solo map` shows (C4), or by its printed
    number (7), S (start) or R (recharge).
    """
    return ev.Move(tuple(hexes))


@solo.command()
@click.option("--dice", default=None, help="Your attack dice as rolled (default: the referee rolls).")
@click.option("--enemy", default=None, help="The servant's or the Grayking's dice as rolled.")
@_common
@_plays
def attack(db: database.Database, dice: str | None, enemy: str | None) -> ev.Event:
    """Phase b: the next servant's attack (or a round of the Last Stand): both sides roll.

    On a map or in the Last Stand, call Elder San first (`referee solo elder elder-san`) to add his die
    to this roll.
    """
    return ev.Attack(_typed(dice, "--dice"), _typed(enemy, "--enemy"))


@solo.command()
@click.option("--dice", default=None, help="The 2d6 as rolled, e.g. 3,4 (default: the referee rolls).")
@_common
@_plays
def eldritch(db: database.Database, dice: str | None) -> ev.Event:
    """Phase c: roll 2d6 on the map's Eldritch Damage table."""
    return ev.Eldritch(_typed(dice, "--dice"))


@solo.command()
@click.argument("spell_type", metavar="TYPE", type=clitools.Choice(["oaken", "flint", "ice"], case_sensitive=False))
@_common
@_plays
def recharge(db: database.Database, spell_type: str) -> ev.Event:
    """Recharge every spell of one TYPE: on a map's blue cross, or at a Last Stand gray space."""
    return ev.Recharge(spell_type.lower())


@solo.command()
@_common
@_plays
def retreat(db: database.Database) -> ev.Event:
    """Retreat from the Expanded Battle (-1 Spirit; the Warding City card goes on the discard pile)."""
    return ev.Retreat()


@solo.command("last-stand")
@_common
@_plays
def last_stand(db: database.Database) -> ev.Event:
    """After Barrier Lock: travel to the Ash Tower and fight the Grayking (the Last Stand expansion)."""
    return ev.LastStand()


@solo.command("map")
@click.option("--key", type=click.IntRange(1, 3), default=None, help="Show this key's map even when no battle is on.")
@_common
def map_(key: int | None, save_path: Path | None, database_path: Path | None) -> None:
    """Draw the battle map in the terminal: hex names, printed numbers, S and R, you (W) and the servants."""
    game, _ = _game.load(save_path, database_path)
    state, db = game.state, game.db
    map_id = None
    if key is not None:
        map_id = next(m.id for m in db.solo.battle_map if m.key == key)
    elif state.map_battle is None and state.phase != "warding":
        raise click.ClickException("no map battle is on; `referee solo map --key N` shows map N")
    from referee.solo.table import MapScreen

    console = clitools.console()
    # piped, the whole map whatever the width (a terminal's width means nothing to a file or a pager); on a terminal too
    # narrow to draw it, the markers' hexes in words, as `status` gives them, and success: the Next line offers `map` on
    # every terminal, the README's narrowest (38 columns) too (thirty-eighth referee breaker, HIGH 1: refused, exit 1)
    console.print(MapScreen(state, db, map_id, fit=console.is_terminal))
    _game.print_next(game, console)


# ---- Command lines and events ------------------------------------------------------------------------------------
def parse(line: str | list[str], db: database.Database) -> ev.Event:
    """The event a ``referee solo ...`` command line plays, read by the commands' own options and
    builders, without loading a save or playing it: ``parse("referee solo cast knot --rows 1", db)`` ->
    ``Cast("solo.spell.knot", rows=1)``. ``line`` is the whole line (a string, split as a shell splits
    it) or its words after ``referee solo``. Raises ``click.ClickException`` (a ``UsageError`` for a
    line click cannot read, or a name that names no card) and ``ValueError`` for a command that plays
    no event (``status``, ``new``, ``map``, ...)."""
    words = shlex.split(line) if isinstance(line, str) else list(line)
    if words[:2] == ["referee", "solo"]:
        words = words[2:]
    if not words:
        raise ValueError("an empty command line")
    command = solo.commands.get(words[0])
    build = getattr(getattr(command, "callback", None), "event_builder", None)  # only a command that plays an event has one
    if command is None or build is None:
        raise ValueError(f"`referee solo {words[0]}` plays no event")
    context = clitools.command_context(command, words[0], words[1:])
    options = {k: v for k, v in context.params.items() if k not in ("save_path", "database_path")}
    return build(db, **options)


def _dice_text(dice: Dice) -> str:
    return ",".join(map(str, dice.values))


def _words(text: str) -> str:
    return shlex.quote(text)


def command_line(event: ev.Event) -> str:
    """The ``referee solo ...`` line that, typed, plays ``event``: the inverse of :func:`parse`, so
    ``parse(command_line(e), db) == e`` for every event a player can type (every event
    :func:`referee.solo.legal.legal_events` yields, and every event with typed dice and cards). Dice the
    referee rolled and cards it turned over (a :class:`~referee.dice.Dice` with its ``k``, a
    :class:`~referee.solo.events.CardRef` not ``typed``) are left out: the referee supplies them again
    from the seed, so the line replays a resolved event too. Records are written by their short ids
    (``cast knot``). Raises ``ValueError`` for an event no command line makes (a ``servants`` or
    ``last-stand`` event read from an old save, with the flags of rulings 50, 51 and 53-55 off)."""
    short = rules.short_id
    parts: list[str] = ["referee", "solo", event.kind]

    def dice(option: str, value: Dice | None) -> None:
        if value is not None and value.typed:
            parts.extend([option, _dice_text(value)])

    def card(option: str | None, value: ev.CardRef | None) -> None:
        if value is not None and value.typed:
            parts.extend([option, _words(short(value.id))] if option else [_words(short(value.id))])

    if isinstance(event, ev.Draw):
        card("--card", event.card)
    elif isinstance(event, ev.Battle):
        for spell_id in event.casts:
            parts.extend(["--cast", short(spell_id)])
        for elder_id in event.elders:
            parts.extend(["--elder", short(elder_id)])
        dice("--dice", event.dice)
        dice("--enemy", event.enemy)
        card("--next", event.next)
    elif isinstance(event, (ev.Cast, ev.CallElder)):
        parts.append(short(event.spell if isinstance(event, ev.Cast) else event.elder))
        if isinstance(event, ev.Cast) and event.rows is not None:
            parts.extend(["--rows", str(event.rows)])
        if event.reroll:
            parts.extend(["--reroll", ",".join(map(str, event.reroll))])
        dice("--dice", event.dice)
        card("--next", event.next)
        if isinstance(event, ev.Cast):
            dice("--counter", event.counter)
    elif isinstance(event, (ev.Accept, ev.Council)):
        card("--next", event.next)
    elif isinstance(event, ev.Turn):
        if event.card is None or not event.card.typed:
            raise ValueError("a turn event names the card the player turned over")
        card(None, event.card)
    elif isinstance(event, ev.Learn):
        parts[2:] = ["learn", short(event.spell)] if event.spell else ["skip"]
    elif isinstance(event, ev.Warding):
        if event.outcome is None:
            raise ValueError("a warding event names its outcome, won or retreat")
        parts.append(event.outcome)
        if event.mana:
            parts.extend(["--mana", str(event.mana)])
        if event.spirit:
            parts.extend(["--spirit", str(event.spirit)])
        for elder_id in event.elders:
            parts.extend(["--elder", short(elder_id)])
    elif isinstance(event, ev.Servants):
        if not (event.map_elders and event.no_free_escape):
            raise ValueError("a servants event of an old save (before rulings 50 and 53-55) has no command line")
        if event.typed:
            for servant in event.servants:
                parts.extend(["--servant", short(servant)])
        if event.place is not None and event.place.typed:
            values = event.place.values
            for i in range(0, len(values), 2):
                parts.extend(["--place", ",".join(map(str, values[i:i + 2]))])
    elif isinstance(event, ev.Move):
        parts.extend(event.path)
    elif isinstance(event, ev.Attack):
        dice("--dice", event.dice)
        dice("--enemy", event.enemy)
    elif isinstance(event, ev.Eldritch):
        dice("--dice", event.dice)
    elif isinstance(event, ev.Recharge):
        parts.append(event.spell_type)
    elif isinstance(event, ev.LastStand):
        if not (event.stand_elders and event.no_free_escape):
            raise ValueError("a last-stand event of an old save (before rulings 51 and 53) has no command line")
    elif not isinstance(event, ev.Retreat):
        raise ValueError(f"no command line plays a {event.kind} event")
    return " ".join(parts)
