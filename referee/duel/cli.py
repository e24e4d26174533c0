"""``referee duel``: the command line of the two-player referee (*Ruin & Renewal I*).

This module only parses, calls :mod:`referee.duel.game` / :mod:`referee.duel.rules` and prints. Each
command loads the save file, plays one event, and writes the file back only when the event was
accepted: a rejected command prints one line, exits non-zero and leaves the file byte for byte
unchanged. Hidden dice: ``commit`` asks for the assignment with hidden input (or takes ``--assign``
or a ``--sealed`` SHA-256 from ``seal`` on another device); ``roll`` shows a player's dice to that
player only; nothing else prints a hand before ``reveal``.
"""
from __future__ import annotations

import os
import re
import secrets
import sys
from pathlib import Path
from typing import Any, Callable

import click

from referee import clitools
from referee import save as savefile
from referee.dice import Dice, DiceError
from referee.duel import events as ev
from referee.duel import game as duel_game
from referee.duel import rules, view
from referee.duel.state import SIDES, PerSide

_common = clitools.common_options(clitools.save_help("duel"))
SIDE = click.Choice(list(SIDES))


# ---- Options and helpers ----------------------------------------------------------------------------------
def _load(save_path: Path | None, database_path: Path | None) -> tuple[duel_game.DuelGame, Path]:
    db = clitools.load_database(database_path)
    path = clitools.save_path(save_path, "duel")
    try:
        return duel_game.load(path, db), path
    except savefile.SaveError as error:
        raise clitools.fail(error) from None


def _print_notes(game: duel_game.DuelGame) -> None:
    console = clitools.console()
    for note in game.state.notes:
        console.print(note, style="bold green" if note.endswith("the game!") else None, markup=False)
    console.print("Next: " + rules.next_step(game.state, game.db), style="bold", markup=False)


def _play(save_path: Path | None, database_path: Path | None, make: Callable[[duel_game.DuelGame], ev.Event],
          quiet: bool = False) -> duel_game.DuelGame:
    """Load, build the event from the command, play it, save, print what happened (unless ``quiet``)."""
    game, path = _load(save_path, database_path)
    _play_loaded(game, path, make)
    if not quiet:
        _print_notes(game)
    return game


def _play_loaded(game: duel_game.DuelGame, path: Path, make: Callable[[duel_game.DuelGame], ev.Event]) -> None:
    """Build the event from the command, play it on the loaded ``game`` and save it at ``path``; one line otherwise."""
    try:
        game.play(make(game))
        game.save(path)
    except (rules.RuleError, savefile.SaveError, DiceError, ev.EventError) as error:
        raise clitools.fail(error) from None


def _assignment(text: str) -> ev.Assignment:
    try:
        return ev.parse_assignment(text)
    except ev.EventError as error:
        raise clitools.fail(error) from None


def _location(game: duel_game.DuelGame, text: str) -> str:
    try:
        return rules.location_id(game.state, game.db, text)
    except rules.RuleError as error:
        raise clitools.fail(error) from None


def _pairs(items: tuple[str, ...], option: str) -> dict[str, str]:
    """``("wardens=4,2", ...)`` -> ``{"wardens": "4,2"}``; one line for anything else."""
    out: dict[str, str] = {}
    for item in items:
        side, sep, value = item.partition("=")
        side = side.strip().lower()
        if not sep or side not in SIDES:
            raise click.ClickException(f"{option}: write SIDE=VALUE with SIDE wardens or shadowmajik, not {item!r}")
        if side in out:
            raise click.ClickException(f"{option}: {side} is given twice")
        out[side] = value.strip()
    return out


def _dice(text: str, option: str) -> Dice:
    values = clitools.parse_dice(text, option, totals=False)  # a re-roll spell re-rolls single dice
    try:
        return Dice(values, None)
    except DiceError as error:
        raise click.ClickException(f"{option}: {error}") from None


# ---- Commands ------------------------------------------------------------------------------------------------------
@click.group()
def duel() -> None:
    """Referee a two-player game of Ruin & Renewal I beside the printed cards.

    Start with `referee duel new`, then follow the "Next:" line each command prints. Each round both
    players commit their four dice in secret (`commit --player SIDE`, hidden input), then `reveal`.
    """


@duel.command()
@click.option("--seed", type=int, default=None, help="Seed of the referee's deal and dice (default: random).")
@click.option("--wardens", "wardens_name", default="Wardens", help="Name of the Wardens player.")
@click.option("--shadowmajik", "shadow_name", default="Shadowmajik", help="Name of the Shadowmajik player.")
@click.option("--row", default=None, help="The 7 Locations you dealt, left to right from the Wardens' side (ids or names, comma-separated).")
@click.option("--force", is_flag=True, help="Replace a game still in progress (it is kept in <save>.prev).")
@_common
def new(seed: int | None, wardens_name: str, shadow_name: str, row: str | None, force: bool, save_path: Path | None,
        database_path: Path | None) -> None:
    """Set up a new game (description, Setup). A game in progress is replaced only with --force; a finished
    or replaced game is kept in <save>.prev (`referee duel restore` brings it back); a save of the solo
    game is never replaced."""
    db = clitools.load_database(database_path)
    chosen = seed is not None
    seed = secrets.randbelow(2**31) if seed is None else seed
    try:
        dealt = None
        if row is not None:
            probe = rules.new_game(db, seed)
            dealt = [rules.location_id(probe, db, x) for x in re.split(r"\s*,\s*", row.strip()) if x]
        game = duel_game.DuelGame.new(db, seed, PerSide(wardens_name, shadow_name), dealt)
    except rules.RuleError as error:
        raise clitools.fail(error) from None
    path = clitools.save_path(save_path, "duel")
    clitools.save_new(game, path, lambda p: duel_game.load(p, db), force)
    state = game.state
    console = clitools.console()
    # The seed gives every die the referee rolls, the hidden ones too: it is shown only when the players
    # chose it (and so know it already); a random seed stays in the save file (rulings 77, 78).
    shown = f" (seed {seed}: whoever knows it can work out the referee's hidden rolls)" if chosen else ""
    console.print(f"New game of Ruin & Renewal I{shown}, saved in {path}.", markup=False)
    if row is None:
        console.print("Deal these 7 Locations in a row, left to right from the Wardens' side, names toward the Wardens: "
                      + ", ".join(f"{i} {rules.name(db, x)}" for i, x in enumerate(state.setup.row, 1)) + ".", markup=False)
        console.print("Remove from the game: " + ", ".join(rules.name(db, x) for x in state.setup.removed) + ".", markup=False)
    r = rules.rules_of(db)
    console.print(f"Each player: the player card, {r.dice_per_player} dice, {r.cubes_per_player} cubes: {r.track_marker_cubes} on the "
                  f"point track at {state.points.wardens}, {r.deployable_cubes} in supply (R24, R70).", markup=False)
    console.print("Next: " + rules.next_step(state, db), style="bold", markup=False)


@duel.command()
@click.argument("words", nargs=-1, required=True, metavar="LOCATION")
@click.option("--player", "side", type=SIDE, default=None, help="Who places it (default: whoever must).")
@_common
def marker(words: tuple[str, ...], side: str | None, save_path: Path | None, database_path: Path | None) -> None:
    """Place the yellow marker on LOCATION (name, id or its number in the row; a name of two words
    needs no quotes: `marker Glasswater Ford`)."""
    location = " ".join(words)
    _play(save_path, database_path, lambda g: ev.Marker(side or g.state.chooser, _location(g, location)))


@duel.command()
@click.option("--player", "side", type=SIDE, required=True, help="Whose dice the referee rolls.")
@_common
def roll(side: str, save_path: Path | None, database_path: Path | None) -> None:
    """Roll a player's 4 dice; only that player should look (the screen is cleared after a key on a terminal).

    Rolled already this round and not committed? The same dice are shown again; nothing changes.
    """
    game, path = _load(save_path, database_path)
    dice = rules.rolled_to_show(game.state, side)
    again = " again (rolled earlier this round; nothing changed)" if dice is not None else ""
    if dice is None:
        _play_loaded(game, path, lambda g: ev.Roll(side))
        dice = game.state.hands[side].rolled
    click.echo(f"{rules.SIDE_NAMES[side]} only: your dice are {dice}{again}. Place them with `referee duel commit --player {side}`.")
    if sys.stdin.isatty() and sys.stdout.isatty():
        click.pause("Press any key to hide your dice ...")
        click.clear()
        click.echo("\x1b[3J", nl=False)  # and the terminal's scrollback, where the dice would still be
    click.echo("Next: " + rules.next_step(game.state, game.db))


def _ask_assignment(side: str, game: duel_game.DuelGame, what: str) -> str:
    state, db = game.state, game.db
    where = f" at {rules.name(db, state.current)} ({'/'.join(rules.location(db, state.current).resonance)})" if state.current else ""
    rolled = " the 4 dice the referee rolled you," if state.hands[side].rolled else ""
    return clitools.hidden_prompt(f"{rules.SIDE_NAMES[side]}, {state.points[side]} {rules.points_word(db, side)}{where}: {what}{rolled} "
                                  f"e.g. 'battle 3,5 cast 4' or 'battle 3,5 power 6' (hidden)",
                                  f"give the placing with --assign 'battle 3,5 power 6' (it shows as typed: keep the screen "
                                  f"from the other player), or commit a seal from `referee duel seal --player {side}` "
                                  f"on your own device with --sealed SEAL")


@duel.command()
@click.option("--player", "side", type=SIDE, required=True, help="Who commits.")
@click.option("--assign", "text", default=None, help="The assignment, for tools and tests (default: asked with hidden input).")
@click.option("--sealed", "sealed", default=None, help="The seal `referee duel seal` printed on the player's own device.")
@_common
def commit(side: str, text: str | None, sealed: str | None, save_path: Path | None, database_path: Path | None) -> None:
    """Commit a player's dice in secret: Battle dice and the Power or the Casting die."""
    if text is not None and sealed is not None:
        raise click.ClickException("give --assign or --sealed, not both")

    def make(g: duel_game.DuelGame) -> ev.Event:
        if sealed is not None:
            return ev.Commit(side, seal=sealed.strip().lower())
        problem = rules.commit_problem(g.state, side)  # asked before the hidden prompt, not after it
        if problem:
            raise rules.RuleError(problem)
        typed = text if text is not None else _ask_assignment(side, g, "place your dice:")
        return ev.Commit(side, _assignment(typed))

    _play(save_path, database_path, make)


@duel.command()
@click.option("--player", "side", type=SIDE, required=True, help="Whose assignment is sealed.")
@click.option("--assign", "text", default=None, help="The assignment (default: asked with hidden input).")
def seal(side: str, text: str | None) -> None:
    """For play on two devices: print a seal of your assignment to commit now, and its opening for the reveal.

    Run it on your own device (no save file needed); give the referee `commit --player SIDE --sealed SEAL`
    now and `reveal --open SIDE='OPENING'` after both have committed.
    """
    if text is None:
        text = clitools.hidden_prompt(f"{rules.SIDE_NAMES[side]}: your assignment, e.g. 'battle 3,5 cast 4' (hidden)",
                                      "give it with --assign 'battle 3,5 power 6' on your own device")
    a = _assignment(text)
    salt = secrets.token_hex(8)
    click.echo(f"Seal (give it now):        {rules.seal(side, a, salt)}")
    click.echo(f"Opening (keep it secret until the reveal): {a.text()}#{salt}")


@duel.command()
@click.option("--open", "openings", multiple=True, help="SIDE='ASSIGNMENT#SALT': open a sealed commitment.")
@click.option("--reroll", "rerolls", multiple=True, help="SIDE=DICE: the physical dice a re-roll spell gave, e.g. wardens=4 (default: the referee rolls).")
@_common
def reveal(openings: tuple[str, ...], rerolls: tuple[str, ...], save_path: Path | None, database_path: Path | None) -> None:
    """Reveal both players' dice once both have committed, and settle the battle."""
    opened = _pairs(openings, "--open")
    typed = _pairs(rerolls, "--reroll")
    fields: dict[str, Any] = {}
    for side, value in opened.items():
        text, sep, salt = value.rpartition("#")
        if not sep or not salt:
            raise click.ClickException(f"--open: write {side}='ASSIGNMENT#SALT' as `referee duel seal` printed it")
        fields[side] = _assignment(text)
        fields[f"{side}_salt"] = salt
    for side, value in typed.items():
        fields[f"{side}_reroll"] = _dice(value, "--reroll")
    _play(save_path, database_path, lambda g: ev.Reveal(**fields))


@duel.command()
@click.argument("words", nargs=-1, required=True, metavar="LOCATION")
@click.option("--player", "side", type=SIDE, default=None, help="Who takes the cube back (default: the round's winner).")
@_common
def recall(words: tuple[str, ...], side: str | None, save_path: Path | None, database_path: Path | None) -> None:
    """With every cube out, take one back from LOCATION to place it here, or `none` to forgo the spaces (R29).
    A name of two words needs no quotes."""
    location = " ".join(words)

    def make(g: duel_game.DuelGame) -> ev.Event:
        who = side or (g.state.last.winner if g.state.last and g.state.last.winner else "wardens")
        return ev.Recall(who, None if location.strip().lower() == "none" else _location(g, location))

    _play(save_path, database_path, make)


@duel.command()
@click.option("--json", "as_json", is_flag=True, help="One JSON object, for tools.")
@_common
def status(as_json: bool, save_path: Path | None, database_path: Path | None) -> None:
    """Show the round, the tracks, the cubes, the Locations and what to do next (never a hidden hand)."""
    game, _ = _load(save_path, database_path)
    clitools.print_status(game, view, as_json)


@duel.command()
@_common
def board(save_path: Path | None, database_path: Path | None) -> None:
    """Draw the row of Locations as the players see it (plain text when piped or with NO_COLOR)."""
    game, _ = _load(save_path, database_path)
    console = clitools.console()
    plain = not console.is_terminal or bool(os.environ.get("NO_COLOR"))
    console.print(view.board(game.state, game.db, plain=plain))


@duel.command()
@_common
def restore(save_path: Path | None, database_path: Path | None) -> None:
    """Bring back the game the last `new` replaced (kept in <save>.prev); the game it replaces is kept there in turn."""
    db = clitools.load_database(database_path)
    clitools.restore_and_report(clitools.save_path(save_path, "duel"), "duel", lambda p: duel_game.load(p, db), rules.next_step)


@duel.command()
@_common
def undo(save_path: Path | None, database_path: Path | None) -> None:
    """Take back the last command (the same dice come up again if it is repeated)."""
    game, path = _load(save_path, database_path)
    clitools.undo_and_report(game, path, view.event_text, rules.next_step, "cubes and markers")


@duel.command()
@click.option("--verbose", "-v", is_flag=True, help="Also print what each event did.")
@_common
def log(verbose: bool, save_path: Path | None, database_path: Path | None) -> None:
    """Print the game so far, one line an event; a round's dice appear in its reveal line."""
    game, _ = _load(save_path, database_path)
    setup, db = game.log.initial.setup, game.db
    lines = [f"  0. new: row {', '.join(rules.name(db, x) for x in setup.row)}; "
             f"removed {', '.join(rules.name(db, x) for x in setup.removed)}"]
    for number, (event, after) in enumerate(zip(game.log.events, game.log.states[1:]), 1):
        lines.append(view.log_line(number, event, after, db))
        if verbose and not isinstance(event, (ev.Roll, ev.Commit)):
            lines.extend(f"       {note}" for note in after.notes)
    click.echo("\n".join(lines))


@duel.command()
@click.option("--player", "side", type=SIDE, default=None, help="One player's card (default: both).")
@_common
def spells(side: str | None, save_path: Path | None, database_path: Path | None) -> None:
    """List the spells on the player cards with what they cost at the current Location."""
    game, _ = _load(save_path, database_path)
    state, db = game.state, game.db
    for s in ([side] if side else list(SIDES)):
        card = rules.player(db, s)
        click.echo(f"{card.title} ({state.points[s]} {card.points})")
        for sp in card.spells:
            cost = rules.spell_cost(state, db, s, sp.face) if state.current else sp.cost
            icon = f" [{sp.resonance}]" if sp.resonance else ""
            click.echo(f"  {sp.face} {sp.name:15} {cost} {card.points}{icon:9} {sp.text}")
