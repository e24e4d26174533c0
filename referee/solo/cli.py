"""``referee solo``: the command line of the solo referee.

This module only parses, calls :mod:`referee.solo.game` / :mod:`referee.solo.rules` and prints. Each
command loads the save file, plays one event, and writes the file back only when the event was
accepted: a rejected command prints one line, exits non-zero and leaves the file byte for byte
unchanged. Errors it turns into that one line: :class:`~referee.solo.rules.RuleError`,
:class:`~referee.save.SaveError`, :class:`~pnp.database.DatabaseError`.
"""
from __future__ import annotations

import secrets
from collections.abc import Callable
from pathlib import Path

import click

from pnp import database
from referee import clitools
from referee import save as savefile
from referee.dice import Dice, DiceError
from referee.solo import events as ev
from referee.solo import game as solo_game
from referee.solo import rules, view
from referee.solo.advice import next_step

_common = clitools.common_options(clitools.save_help("solo"))


# ---- Options shared by every command ------------------------------------------------------------------
def _load(save_path: Path | None, database_path: Path | None) -> tuple[solo_game.SoloGame, Path]:
    db = clitools.load_database(database_path)
    path = clitools.save_path(save_path, "solo")
    try:
        return solo_game.load(path, db), path
    except savefile.SaveError as error:
        raise clitools.fail(error) from None


def _play(save_path: Path | None, database_path: Path | None, make: Callable[[solo_game.SoloGame], ev.Event]) -> None:
    """Load, build the event from the command, play it, save, print what happened."""
    game, path = _load(save_path, database_path)
    try:
        state = game.play(make(game))
        game.save(path)
    except (rules.RuleError, savefile.SaveError, DiceError) as error:
        raise clitools.fail(error) from None
    _print_notes(state.notes, game)


# ---- Printing --------------------------------------------------------------------------------------------
def _print_notes(notes: tuple[str, ...], game: solo_game.SoloGame) -> None:
    console = clitools.console()
    for note in notes:
        style = "bold red" if note.startswith("You have lost") else "bold green" if note.startswith("You have saved") else None
        console.print(note, style=style, markup=False)
    console.print("Next: " + next_step(game.state, game.db), style="bold", markup=False)


# ---- Parsing -------------------------------------------------------------------------------------------------
def _name_argument(name: str, metavar: str) -> Callable:
    """A card, spell or Elder argument typed as its id or its printed name, whose words need no quotes
    (``referee solo learn Rime Mirror``): the words are joined with single spaces."""
    return click.argument(name, nargs=-1, required=True, metavar=metavar,
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


def _split(items: tuple[str, ...]) -> list[str]:
    return clitools.split_names(items)


# ---- Commands ------------------------------------------------------------------------------------------------
@click.group()
def solo() -> None:
    """Referee a solo game of The Grayking is Risen beside the printed cards.

    Start with `referee solo new`, then follow the "Next:" line each command prints. Dice and cards are
    the referee's unless you type the physical ones (--dice, --enemy, --card, --next).
    """


@solo.command()
@click.option("--difficulty", type=click.Choice(["beginner", "normal", "advanced"]), required=True, help="Where the Grayking starts.")
@click.option("--spells", "spell_list", required=True, help="The two starting spells, e.g. bind,shield.")
@click.option("--seed", type=int, default=None, help="Seed of the referee's dice and shuffles (default: random).")
@click.option("--force", is_flag=True, help="Replace a game still in progress (it is kept in <save>.prev).")
@_common
def new(difficulty: str, spell_list: str, seed: int | None, force: bool, save_path: Path | None, database_path: Path | None) -> None:
    """Set up a new game (rulebook, Setup). A game in progress is replaced only with --force; a finished
    or replaced game is kept in <save>.prev (`referee solo restore` brings it back); a save of the
    two-player game is never replaced."""
    db = clitools.load_database(database_path)
    spells = [_spell_id(db, s, "--spells") for s in _split((spell_list,))]
    seed = secrets.randbelow(2**31) if seed is None else seed
    try:
        game = solo_game.SoloGame.new(db, difficulty, spells, seed)
    except rules.RuleError as error:
        raise clitools.fail(error) from None
    path = clitools.save_path(save_path, "solo")
    clitools.save_new(game, path, lambda p: solo_game.load(p, db), force)
    state = game.state
    console = clitools.console()
    start = state.grayking  # the difficulty's start space (R2)
    console.print(f"New game ({difficulty}, seed {seed}), saved in {path}.", markup=False)
    console.print(f"Place the Mana and Spirit markers on {state.mana} and {state.spirit}, "
                  f"the Grayking marker on space {start} of the Progress Track, "
                  f"and a marker on {' and '.join(rules.name(db, s) for s in state.spells)}. Shuffle the Quest and Servant cards.",
                  markup=False)
    if state.mana != rules.stats(db).track_start:
        console.print(f"Your starting spells' bracketed cost leaves Mana at {state.mana}.", markup=False)
    console.print("Next: " + next_step(state, db), style="bold", markup=False)


@solo.command()
@click.option("--json", "as_json", is_flag=True, help="One JSON object, for tools.")
@_common
def status(as_json: bool, save_path: Path | None, database_path: Path | None) -> None:
    """Show the tracks, spells, Elders, deck and what to do next."""
    game, _ = _load(save_path, database_path)
    clitools.print_status(game, view, as_json)


@solo.command()
@click.option("--card", default=None, help="The card you turned over from the physical deck (id or name).")
@_common
def draw(card: str | None, save_path: Path | None, database_path: Path | None) -> None:
    """Turn over the next quest card (rulebook, Play)."""
    _play(save_path, database_path, lambda g: ev.Draw(_card_ref(g.db, card, "--card")))


@solo.command()
@click.option("--dice", default=None, help="Your attack dice as rolled, e.g. 3,5 (default: the referee rolls).")
@click.option("--enemy", default=None, help="The servants' dice as rolled, e.g. 2,4,6 (default: the referee rolls).")
@click.option("--cast", "casts", multiple=True, help="A spell to cast before the roll (repeat or comma-separate).")
@click.option("--elder", "elders", multiple=True, help="An Elder to call before the roll (Elder San's die).")
@click.option("--next", "next_card", default=None, help="The next card you turned over for the Win or Loss number.")
@_common
def battle(dice: str | None, enemy: str | None, casts: tuple[str, ...], elders: tuple[str, ...], next_card: str | None,
           save_path: Path | None, database_path: Path | None) -> None:
    """Fight the City Quest on the table: roll, compare, and resolve (rulebook, Play)."""
    _play(save_path, database_path, lambda g: ev.Battle(
        tuple(_spell_id(g.db, s, "--cast") for s in _split(casts)), tuple(_elder_id(g.db, e, "--elder") for e in _split(elders)),
        _typed(dice, "--dice"), _typed(enemy, "--enemy"), _card_ref(g.db, next_card, "--next")))


@solo.command()
@_name_argument("spell", "SPELL")
@click.option("--rows", type=int, default=None, help="Rows a Battle Loss spell lowers (Knot: 1 or 2; default the most).")
@click.option("--reroll", default=None, help="Your dice to re-roll, by value, e.g. 1,2.")
@click.option("--dice", default=None, help="The new dice as rolled (default: the referee rolls).")
@click.option("--next", "next_card", default=None, help="The next card you turned over, if this ends the battle.")
@click.option("--counter", default=None, help="Last Stand: the dice the Grayking's counter rolls (Unguard, Forget, Mirror).")
@_common
def cast(spell: str, rows: int | None, reroll: str | None, dice: str | None, next_card: str | None, counter: str | None,
         save_path: Path | None, database_path: Path | None) -> None:
    """Cast a learned spell in the battle, on the map, in the Last Stand, or Barrier Lock with all three Warding Keys."""
    _play(save_path, database_path, lambda g: ev.Cast(
        _spell_id(g.db, spell), rows, _values(reroll, "--reroll") or (), _typed(dice, "--dice"), _card_ref(g.db, next_card, "--next"),
        _typed(counter, "--counter")))


@solo.command()
@_name_argument("elder", "ELDER")
@click.option("--reroll", default=None, help="Your dice to re-roll, by value, e.g. 1,2 (Elder Maelis).")
@click.option("--dice", default=None, help="The new dice as rolled (default: the referee rolls).")
@click.option("--next", "next_card", default=None, help="The next card you turned over, if this ends a City Quest battle.")
@_common
def elder(elder: str, reroll: str | None, dice: str | None, next_card: str | None, save_path: Path | None,
          database_path: Path | None) -> None:
    """Call on an Elder beside your Character Stats card (once per battle): in a City Quest battle, on a map, or in the Last Stand.

    ELDER is its id or name (elder-san, san, "Elder San"). On a map, Elder San is called before a
    servant's attack is rolled (his die joins that roll), Elder Maelis after it (--reroll). In the Last
    Stand (one battle: each Elder once in it), Elder San is called before a round is rolled, Elder
    Maelis once it is rolled (--reroll); Elder Rhun has no Battle Loss to lower there.
    """
    _play(save_path, database_path, lambda g: ev.CallElder(
        _elder_id(g.db, elder, "ELDER"), _values(reroll, "--reroll") or (), _typed(dice, "--dice"), _card_ref(g.db, next_card, "--next")))


@solo.command()
@click.option("--next", "next_card", default=None, help="The next card you turned over for the Battle Loss number.")
@_common
def accept(next_card: str | None, save_path: Path | None, database_path: Path | None) -> None:
    """Accept the loss after the roll, or the Battle Loss row as it stands."""
    _play(save_path, database_path, lambda g: ev.Accept(_card_ref(g.db, next_card, "--next")))


@solo.command()
@_name_argument("card", "CARD")
@_common
def turn(card: str, save_path: Path | None, database_path: Path | None) -> None:
    """Name the next card you turned over from your own deck, when the referee asks for it (R7)."""
    _play(save_path, database_path, lambda g: ev.Turn(_card_ref(g.db, card, "CARD")))


@solo.command()
@_name_argument("spell", "SPELL")
@_common
def learn(spell: str, save_path: Path | None, database_path: Path | None) -> None:
    """Learn a spell when a card or the Battle Win row lets you."""
    _play(save_path, database_path, lambda g: ev.Learn(_spell_id(g.db, spell)))


@solo.command()
@_common
def skip(save_path: Path | None, database_path: Path | None) -> None:
    """Learn no spell when offered one."""
    _play(save_path, database_path, lambda g: ev.Learn(None))


@solo.command()
@click.option("--next", "next_card", default=None, help="The next card you turned over for the next card value.")
@_common
def council(next_card: str | None, save_path: Path | None, database_path: Path | None) -> None:
    """Resolve the Council of Wardens card on the table."""
    _play(save_path, database_path, lambda g: ev.Council(_card_ref(g.db, next_card, "--next")))


@solo.command()
@click.argument("outcome", type=click.Choice(["won", "retreat"]))
@click.option("--mana", type=int, default=0, help="Mana the map battle changed, e.g. -3.")
@click.option("--spirit", type=int, default=0, help="Spirit the map battle changed, e.g. -2.")
@click.option("--elder", "elders", multiple=True, help="An Elder that aided you in the map battle.")
@_common
def warding(outcome: str, mana: int, spirit: int, elders: tuple[str, ...], save_path: Path | None, database_path: Path | None) -> None:
    """Enter the outcome of the Warding City battle you fought on its map: won (the key) or retreat."""
    _play(save_path, database_path,
          lambda g: ev.Warding(outcome, mana, spirit, tuple(_elder_id(g.db, e, "--elder") for e in _split(elders))))


@solo.command()
@_common
def undo(save_path: Path | None, database_path: Path | None) -> None:
    """Take back the last command (the same dice come up again if you repeat it)."""
    game, path = _load(save_path, database_path)
    clitools.undo_and_report(game, path, view.event_text, next_step, "cards and markers")


@solo.command()
@_common
def restore(save_path: Path | None, database_path: Path | None) -> None:
    """Bring back the game the last `new` replaced (kept in <save>.prev); the game it replaces is kept there in turn."""
    db = clitools.load_database(database_path)
    clitools.restore_and_report(clitools.save_path(save_path, "solo"), "solo", lambda p: solo_game.load(p, db), next_step)


@solo.command()
@click.option("--verbose", "-v", is_flag=True, help="Also print what each event did.")
@_common
def log(verbose: bool, save_path: Path | None, database_path: Path | None) -> None:
    """Print the game so far, one line an event, dice shown."""
    game, _ = _load(save_path, database_path)
    setup = game.log.initial.setup
    lines = [f"  0. new {setup.difficulty} spells {', '.join(rules.name(game.db, s) for s in setup.spells)} seed {setup.seed}"]
    for number, (event, after) in enumerate(zip(game.log.events, game.log.states[1:], strict=True), 1):
        lines.append(view.log_line(number, event, after, game.db))
        if verbose:
            lines.extend(f"       {note}" for note in after.notes)
    click.echo("\n".join(lines))


@solo.command()
@_common
def spells(save_path: Path | None, database_path: Path | None) -> None:
    """List the spells on the three paths: learned, learnable now, or not (yet)."""
    game, _ = _load(save_path, database_path)
    state, db = game.state, game.db
    open_now = set(rules.learnable(state, db))
    closed = rules.closed_spells(db, state.spells)
    for path in db.solo.spell_path:
        click.echo(path.title)
        for s in (s for s in db.solo.spell if s.spell_type == path.spell_type):
            mark = ("learned" + (", used" if s.id in state.used else "") if s.id in state.spells
                    else "learnable" if s.id in open_now else "closed" if s.id in closed else "-")
            cost = f"{s.cost.mana} Mana" if s.cost and s.cost.mana else f"{s.cost.spirit} Spirit" if s.cost else ""
            if s.learn_cost:
                cost = f"[{s.learn_cost.mana or s.learn_cost.spirit} {'Mana' if s.learn_cost.mana else 'Spirit'}]"
            click.echo(f"  {rules.short_id(s.id):15} {s.name:15} {cost:10} {mark:10} {rules.plain_text(s.text)}")


# ---- Expanded Battles on the maps, and the Last Stand --------------------------------------------------------
def _servant_id(db: database.Database, text: str) -> str:
    return _record_id(db.solo.servant, text, "--servant", "servant card", "servants")


def _placements(texts: tuple[str, ...]) -> Dice | None:
    values: list[int] = []
    for text in texts:
        values.extend(_values(text, "--place") or ())
    return Dice(tuple(values), None) if texts else None


@solo.command()
@click.option("--servant", "servants", multiple=True, help="A servant card you turned over and fight, e.g. ghast-1 (repeat, in order).")
@click.option("--place", "places", multiple=True, help="The 2d6 that place a servant, e.g. 3,4 (repeat, in the order of the servants).")
@_common
def servants(servants: tuple[str, ...], places: tuple[str, ...], save_path: Path | None, database_path: Path | None) -> None:
    """Set up the Warding City's Expanded Battle Map: draw the servants and place them by 2d6."""
    _play(save_path, database_path,
          lambda g: ev.Servants(tuple(_servant_id(g.db, s) for s in _split(servants)), bool(servants), _placements(places)))


@solo.command()
@click.argument("hexes", nargs=-1)
@_common
def move(hexes: tuple[str, ...], save_path: Path | None, database_path: Path | None) -> None:
    """Phase a: move to a hex within two (HEX), or along a path (HEX HEX); no hex stays. Servants then move.

    A hex is named by column letter and row number as `referee solo map` shows (C4), or by its printed
    number (7), S (start) or R (recharge).
    """
    _play(save_path, database_path, lambda g: ev.Move(tuple(hexes)))


@solo.command()
@click.option("--dice", default=None, help="Your attack dice as rolled (default: the referee rolls).")
@click.option("--enemy", default=None, help="The servant's or the Grayking's dice as rolled.")
@_common
def attack(dice: str | None, enemy: str | None, save_path: Path | None, database_path: Path | None) -> None:
    """Phase b: the next servant's attack (or a round of the Last Stand): both sides roll.

    On a map or in the Last Stand, call Elder San first (`referee solo elder elder-san`) to add his die
    to this roll.
    """
    _play(save_path, database_path, lambda g: ev.Attack(_typed(dice, "--dice"), _typed(enemy, "--enemy")))


@solo.command()
@click.option("--dice", default=None, help="The 2d6 as rolled, e.g. 3,4 (default: the referee rolls).")
@_common
def eldritch(dice: str | None, save_path: Path | None, database_path: Path | None) -> None:
    """Phase c: roll 2d6 on the map's Eldritch Damage table."""
    _play(save_path, database_path, lambda g: ev.Eldritch(_typed(dice, "--dice")))


@solo.command()
@click.argument("spell_type", metavar="TYPE", type=click.Choice(["oaken", "flint", "ice"], case_sensitive=False))
@_common
def recharge(spell_type: str, save_path: Path | None, database_path: Path | None) -> None:
    """Recharge every spell of one TYPE: on a map's blue cross, or at a Last Stand gray space."""
    _play(save_path, database_path, lambda g: ev.Recharge(spell_type.lower()))


@solo.command()
@_common
def retreat(save_path: Path | None, database_path: Path | None) -> None:
    """Retreat from the Expanded Battle (-1 Spirit; the Warding City card goes on the discard pile)."""
    _play(save_path, database_path, lambda g: ev.Retreat())


@solo.command("last-stand")
@_common
def last_stand(save_path: Path | None, database_path: Path | None) -> None:
    """After Barrier Lock: travel to the Ash Tower and fight the Grayking (the Last Stand expansion)."""
    _play(save_path, database_path, lambda g: ev.LastStand())


@solo.command("map")
@click.option("--key", type=click.IntRange(1, 3), default=None, help="Show this key's map even when no battle is on.")
@_common
def map_(key: int | None, save_path: Path | None, database_path: Path | None) -> None:
    """Draw the battle map in the terminal: hex names, printed numbers, S and R, you (W) and the servants."""
    from rich.text import Text

    game, _ = _load(save_path, database_path)
    state, db = game.state, game.db
    map_id = None
    if key is not None:
        map_id = next(m.id for m in db.solo.battle_map if m.key == key)
    elif state.map_battle is None and state.phase != "warding":
        raise click.ClickException("no map battle is on; `referee solo map --key N` shows map N")
    console = clitools.console()
    try:
        picture = view.map_picture(state, db, map_id, console.width)
    except rules.RuleError as error:
        raise clitools.fail(error) from None
    for line in picture:
        text = Text()
        for piece, style in line:
            text.append(piece, style=style or "")
        console.print(text)
    console.print("Next: " + next_step(state, db), style="bold", markup=False)
