"""The ``referee`` command line: ``referee solo ...`` (The Grayking is Risen), ``referee duel ...``
(Ruin & Renewal I) and ``referee table ID ROLL`` to read any rules table of the card database."""
from __future__ import annotations

import gc
import importlib
import re
import sys
from pathlib import Path
from typing import Any

import click

from pnp.entry import imported
from pnp.oneline import FilePath as OneLineFilePath
from pnp.oneline import OneLineGroup, echo, quoted, shown_file
from referee import clitools


class RefereeGroup(OneLineGroup):
    """The ``referee`` group: each game's commands are imported only when that game is asked for, so
    ``referee solo status`` does not load the two-player referee (see ``bench/referee_status.py``)."""

    GAMES = {"solo": "referee.solo.cli", "duel": "referee.duel.cli"}
    """Subcommand name -> the module that defines a click group of that name."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        """Every command name, the games' included, sorted."""
        return sorted(set(super().list_commands(ctx)) | set(self.GAMES))

    def main(self, *args: Any, **kwargs: Any) -> Any:
        """:meth:`pnp.oneline.OneLineGroup.main`, counting the saves this command replaces from none (a process that runs
        several commands, as the tests do, says "saved" only for its own)."""
        save = sys.modules.get("referee.save")
        if save is not None:
            save.WRITTEN.clear()
        return super().main(*args, **kwargs)

    def abort_message(self) -> str:
        """Interrupted once the command has replaced a save (:data:`referee.save.WRITTEN`): the step was played and saved,
        only its report was not shown (thirty-third breaker, MED 7: it said "nothing was changed")."""
        save = sys.modules.get("referee.save")
        written = getattr(save, "WRITTEN", None)
        if written:
            return (f"Interrupted after the step was saved in {written[-1].name}: it was played, only its report was not "
                    f"shown; `status` (or `log`) shows where the game stands.")
        return super().abort_message()

    def get_command(self, ctx: click.Context, name: str) -> click.Command | None:
        """The command ``name``, importing a game's module the first time it is asked for."""
        if name in self.GAMES and name not in self.commands:
            gc.disable()  # no collection while the game's modules are imported (pnp.entry.imported)
            try:
                self.add_command(getattr(importlib.import_module(self.GAMES[name]), name))
            finally:
                imported()
        return super().get_command(ctx, name)


@click.group(cls=RefereeGroup)
@click.version_option(package_name="lassadar")
def main() -> None:
    """Table referee for the Shadows Upon Lassadar games."""


@main.command(context_settings={"ignore_unknown_options": True})  # a roll of -1 is an argument, not an option
@click.argument("words", nargs=-1, metavar="[TABLE_ID [ROLL]]")
@click.option("--db", "database_path", type=OneLineFilePath(path_type=Path, dir_okay=False), default=None,
              help=f"Card database (default: ${clitools.DB_ENV}, else ./cards.toml, else the bundled one).")
def table(words: tuple[str, ...], database_path: Path | None) -> None:
    """Read a rules table: the row of TABLE_ID that ROLL reads (a d6, 2d6, spell position or difference),
    the whole table without ROLL, or the list of tables without TABLE_ID.

    TABLE_ID is the table's id (solo.table.battle-loss), its last part (battle-loss), its title
    (Battle Loss: a title of several words needs no quotes) or a unique beginning of one (battle-l).
    """
    db = clitools.load_database(database_path)
    tables = sorted(db.tables(), key=lambda t: t.id)
    if not words:
        width = max(len(t.id) for t in tables)
        for t in tables:
            echo(f"{t.id:{width}}  {t.title}")
        return
    # the last word is the roll when it is a number and the words before it name a table (twentieth breaker:
    # `referee table Battle Loss 4` read 'Loss' as the roll); else every word names the table
    readings: list[tuple[str, int | None]] = [(" ".join(words), None)]
    if len(words) > 1 and re.fullmatch(r"[+-]?\d{1,9}\+?", words[-1]):  # `9+`: the nomograph's last row as printed
        readings.insert(0, (" ".join(words[:-1]), int(words[-1].removesuffix("+"))))
    if len(words) > 1 and not words[-1].strip() and all(word.strip() for word in words[:-1]):  # twenty-fifth breaker
        raise click.BadParameter("an empty roll: give the roll (a number), or leave it out to read the whole table", param_hint="ROLL")
    if any(not word.strip() for word in words):  # twenty-second breaker: '' was dropped without a word, or quoted as ' '
        raise click.UsageError("an empty argument: give a table's name (and a roll), or nothing to list the tables")
    for word in words:  # twenty-fourth breaker: `nomograph +`, `battle-loss ß` were read as the table alone, the word dropped
        if not re.search(r"[a-z0-9]", word.lower()) and not re.fullmatch(r"[+-]?\d{1,9}\+?", word):
            raise click.BadParameter(f"{quoted(word, 24)} is neither a roll (a number) nor a word of a table's title",
                                     param_hint="ROLL" if word == words[-1] and len(words) > 1 else "TABLE_ID")
    first_error: click.ClickException | None = None
    several: list[str] = []  # the tables the words of a reading are in, when more than one
    several_named = ""  # the words of that reading (without the roll: thirty-third breaker, LOW 11, `eldritch 5`)
    for table_id, read_roll in readings:
        named, error, by_words = _table_named(tables, table_id)
        first_error = first_error or error
        if not several and len(by_words) > 1:
            several, several_named = by_words, table_id
        if named is not None:
            found, roll = named, read_roll
            break
    else:
        assert first_error is not None
        if len(several) > 1:  # `damage`: a word of several titles (twenty-second breaker: "no table 'damage'")
            after = f" (then the roll, {words[-1]})" if several_named != " ".join(words) else ""
            raise click.BadParameter(f"{several_named!r} could be any of {', '.join(several)}; type more of the name{after}",
                                     param_hint="TABLE_ID")
        numbers = [w for w in words[-2:] if re.fullmatch(r"[+-]?\d{1,9}\+?", w)]
        if len(words) > 2 and len(numbers) == 2 and _table_named(tables, " ".join(words[:-2]))[0] is not None:
            # `battle-loss 1 2` (LOW 11: "no table 'battle-loss 1'"): two dice typed where the table reads one roll
            dice = _table_named(tables, " ".join(words[:-2]))[0]
            sum_hint = (f": for 2d6, their sum ({sum(int(n.rstrip('+')) for n in numbers)})"
                        if dice is not None and db.table(dice).dice == "2d6" else "")
            raise click.BadParameter(f"{' '.join(numbers)} are two numbers, and a table is read with one roll{sum_hint}",
                                     param_hint="ROLL")
        if len(words) > 1 and _table_named(tables, " ".join(words[:-1]))[0] is not None:  # `battle-win x`: the roll is wrong
            what = "is too large a roll" if re.fullmatch(r"[+-]?\d+", words[-1]) else "is not a valid integer"
            raise click.BadParameter(f"{quoted(words[-1], 24)} {what} (the roll the table is read with)", param_hint="ROLL")
        raise click.BadParameter(first_error.message.removeprefix("TABLE_ID: "), param_hint="TABLE_ID") from None
    rules_table = db.table(found)
    if roll is None:
        echo(rules_table.title)
        last = max(rules_table.rows, key=lambda r: max(r.roll))
        # a difference above the table reads its last row: `9+`, as the printed card says (twenty-first breaker)
        labels = [f"{min(row.roll)}+" if rules_table.dice == "difference" and row is last else ", ".join(map(str, row.roll))
                  for row in rules_table.rows]
        width = max(6, *map(len, labels))
        for rolls, row in zip(labels, rules_table.rows, strict=True):
            name = f"{row.name}: " if row.name else ""
            echo(f"  {rolls:>{width}}  {name}{row.text}")
        return
    last = max(rules_table.rows, key=lambda r: max(r.roll))
    if words[-1].endswith("+") and not (rules_table.dice == "difference" and roll == min(last.roll)):
        printed = f"; its last row is {min(last.roll)}+" if rules_table.dice == "difference" else ""
        raise click.BadParameter(f"{words[-1]!r} is no row of {found} (type the roll as a number{printed})", param_hint="ROLL")
    try:
        row = rules_table.row_for(roll)
    except KeyError:
        held = sorted(r for row in rules_table.rows for r in row.roll)
        rows = (f"a difference is 0 or more ({min(last.roll)} and more read the row printed {min(last.roll)}+)"
                if rules_table.dice == "difference" else f"rows hold {', '.join(map(str, held))}")
        raise click.BadParameter(f"{roll} reads no row of {found}; {rows}", param_hint="ROLL") from None
    name = f"{row.name}: " if row.name else ""
    echo(f"{rules_table.title}, {words[-1] if words[-1].endswith('+') else roll}: {name}{row.text}")


def _remove_if_empty(folder: Path) -> None:
    """Remove ``folder`` if it is empty (one this command made and wrote nothing in)."""
    import contextlib

    with contextlib.suppress(OSError):
        folder.rmdir()


def _tables_by_words(tables, text: str) -> list[str]:
    """The tables whose title holds the words of ``text`` in their order, others between them allowed
    (``eldritch damage 2``: Eldritch Damage (Key 2); twenty-first breaker: refused as naming all three)."""
    wanted = re.findall(r"[a-z0-9]+", text.lower())
    if not wanted:
        return []

    def holds(title: str) -> bool:
        words = iter(re.findall(r"[a-z0-9]+", title.lower()))
        return all(any(word == have for have in words) for word in wanted)

    return [t.id for t in tables if holds(t.title)]


def _table_named(tables, text: str) -> tuple[str | None, click.ClickException | None, list[str]]:
    """The table ``text`` names as ``referee table`` reads a name (id, last part, title, a unique beginning, or the words
    of one title: :func:`_tables_by_words`), else ``None``; with the refusal of the name as such (``None`` when it
    named one outright) and the tables its words are in."""
    try:
        return clitools.find_record(((t.id, (t.title,)) for t in tables), text, "TABLE_ID", "table", "tables", listed=str), None, []
    except click.ClickException as error:
        by_words = _tables_by_words(tables, text)
        return (by_words[0] if len(by_words) == 1 else None), error, by_words


@main.command()
@click.option("--game", type=clitools.Choice(["solo", "duel"]), default="solo", show_default=True, help="Which game to play.")
@click.option("--games", type=click.IntRange(1, 1_000_000), default=200, show_default=True,
              help="Games per difficulty (solo) or in all (duel).")
@click.option("--difficulty", type=clitools.Choice(["beginner", "normal", "advanced", "all"]), default="all", show_default=True,
              help="The solo difficulty to play (all: each of them).")
@click.option("--policy", default="greedy", show_default=True,
              help="How the simulated players choose: random, greedy, or sensible (solo, slow) / heuristic (duel).")
@click.option("--seed", type=click.IntRange(0, 2**63 - 1), default=1, show_default=True, help="Seed of the first game (game i: seed + i).")
@click.option("--jobs", type=click.IntRange(1, 64), default=None, help="Processes playing the games (default: the cores, at most 8).")
@click.option("--db", "database_path", type=OneLineFilePath(path_type=Path, dir_okay=False), default=None,
              help=f"Card database (default: ${clitools.DB_ENV}, else ./cards.toml, else the bundled one).")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object (games_per_second, difficulties or sides).")
@click.option("--plots", "plots", type=OneLineFilePath(path_type=Path, file_okay=False), default=None,
              help="Write PNG charts to this folder (win rates, game lengths, loss causes; needs matplotlib).")
def simulate(game: str, games: int, difficulty: str, policy: str, seed: int, jobs: int | None, database_path: Path | None,
             as_json: bool, plots: Path | None) -> None:
    """Play many games through the referee's own rules and print the balance a designer checks after
    editing cards.toml: win rates (Wilson 95% intervals), losses, game lengths. The same seed gives the
    same figures whatever --jobs."""
    import json
    import os

    from referee import simulate as simulator

    if policy not in simulator.SIMULATE_POLICIES[game]:
        raise click.BadParameter(f"{policy!r} is no {game} policy: {', '.join(simulator.SIMULATE_POLICIES[game])}", param_hint="--policy")
    if seed + games - 1 > 2**63 - 1:  # game i is seed + i: each must be a seed `new --seed` replays
        raise click.BadParameter(f"the games' seeds run to {seed + games - 1}, beyond the largest seed a game takes "
                                 f"({2**63 - 1}): at most {2**63 - games}", param_hint="--seed")
    if game == "duel" and difficulty != "all":  # twentieth breaker: silently ignored
        raise click.BadParameter("the two-player game has no difficulty levels; --difficulty is for --game solo",
                                 param_hint="--difficulty")
    if plots is not None and not str(plots).strip():  # twenty-third breaker: '' wrote into the current folder
        raise click.BadParameter("an empty path; name the folder for the charts", param_hint="--plots")
    if plots is not None and (plots.exists() or plots.is_symlink()) and not plots.is_dir():  # before the games, not after
        raise click.BadParameter(f"{plots} is not a folder; the charts are written into a folder (made if missing)",
                                 param_hint="--plots")
    made = plots is not None and not plots.exists()  # removed again, empty, if the command ends before its charts
    if plots is not None:
        try:
            plots.mkdir(parents=True, exist_ok=True)
        except OSError as error:
            raise click.BadParameter(f"{plots}: cannot make the folder: {error.strerror or error}", param_hint="--plots") from None
        if made:  # twenty-fifth breaker: interrupted, it left a new, empty folder behind "nothing was changed"
            click.get_current_context().call_on_close(lambda: _remove_if_empty(plots))
        refused = simulator.chart_problem(plots, game)  # a file of the user's, or a link: refused before the games
        if refused:
            raise click.BadParameter(refused, param_hint="--plots")
    db = clitools.load_database(database_path)  # one line for a database that does not load
    if plots is not None:
        try:
            import matplotlib  # noqa: F401
        except ImportError as error:
            import importlib.util

            found = importlib.util.find_spec("matplotlib") is not None  # installed, but its import failed: say why
            why = f"matplotlib is installed but does not import ({error})" if found else "charts need matplotlib"
            raise click.BadParameter(f"{why}: pip install 'lassadar[plots]' (or pip install matplotlib)",
                                     param_hint="--plots") from None
    difficulties = None if difficulty == "all" or game == "duel" else [difficulty]
    jobs = jobs or max(1, min(8, os.cpu_count() or 1))
    total = games * (len(difficulties or list(db.solo.progress_track[0].start)) if game == "solo" else 1)
    console = clitools.console()
    path = Path(db.path)
    try:
        result = _simulated(game, games, path, difficulties, policy, seed, jobs, total, console, as_json)
    except simulator.WorkerDied as error:  # one line, not a run that never ends (thirty-fifth breaker, MED 7)
        raise click.ClickException(str(error)) from None
    written = []
    if plots is not None:
        try:
            written = simulator.write_plots(result, plots)
        except OSError as error:
            raise click.ClickException(f"{plots}: cannot write the charts: {error.strerror or error}") from None
        except KeyboardInterrupt:  # pressed while they were written: they were finished first (never a mix of two runs)
            names = ", ".join(simulator.chart_names(result["game"]))
            raise click.ClickException(f"interrupted: the charts in {plots} ({names}) were written whole; the results were "
                                       "not printed") from None
    if as_json:
        shown = {k: v for k, v in result.items() if k != "lengths"}
        if "difficulties" in shown:
            shown["difficulties"] = {d: {k: v for k, v in figures.items() if k != "lengths"} for d, figures in shown["difficulties"].items()}
        echo(json.dumps(shown))
        return
    _print_simulation(result, written)


def _simulated(game: str, games: int, path: Path, difficulties: list[str] | None, policy: str, seed: int, jobs: int,
               total: int, console: Any, as_json: bool) -> dict:
    """The result of :func:`referee.simulate.simulate` for ``referee simulate``, with a progress bar on a terminal."""
    from referee import simulate as simulator

    if console.is_terminal and not as_json:
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

        with Progress(TextColumn("playing"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(), transient=True,
                      console=console) as bar:
            task = bar.add_task("games", total=total)
            return simulator.simulate(game, games, path, difficulties=difficulties, policy=policy, seed=seed, jobs=jobs,
                                      progress=lambda n: bar.advance(task, n))
    return simulator.simulate(game, games, path, difficulties=difficulties, policy=policy, seed=seed, jobs=jobs)


def _print_simulation(result: dict, written: list[Path]) -> None:
    """The figures of ``referee simulate`` as a table, then the speed, the defects and the charts written."""
    from rich.table import Table

    title = "The Grayking is Risen" if result["game"] == "solo" else "Ruin & Renewal I"
    groups = result.get("difficulties") or result["sides"]
    each = next(iter(groups.values()))["games"] if result["game"] == "solo" else result["games_played"]
    table = Table(title=f"{title}: {result['policy']} policy, seeds {result['seed']}..{result['seed'] + each - 1}", box=None,
                  padding=(0, 2))
    table.add_column("difficulty" if result["game"] == "solo" else "side", no_wrap=True)
    for column in ("games", "wins", "win rate", "95% interval"):
        table.add_column(column, justify="right", no_wrap=True)
    if result["game"] == "solo":
        table.add_column("Mana 0", justify="right", no_wrap=True)
        table.add_column("cards drawn", justify="right", no_wrap=True)
    for name, figures in groups.items():
        low, high = figures["ci95"]
        row = [name, str(figures["games"]), str(figures["wins"]), f"{figures['win_rate']:.1%}", f"{low * 100:.1f}-{high * 100:.1f}%"]
        if result["game"] == "solo":
            row += [f"{figures['mana_zero']:.0%}", f"{figures['cards_drawn']['mean']:.1f}"]
        table.add_row(*row)
    console = clitools.console()
    # piped or written to a file, the table is as wide as it needs (twenty-fifth breaker: cut at 80 columns, "difficu…")
    if not console.is_terminal:
        console.width = 1000  # not expanded: the table keeps its own width
    console.print(table)
    rate = result["games_per_second"]  # a slow run (an edited database) in seconds a game, never "0.0 games a second"
    pace = f"{rate:.1f} games a second" if rate >= 1 else f"{1 / rate:.1f} s a game" if rate > 0 else "no game played"
    console.print(f"{result['games_played']} games in {result['seconds']:.1f} s: {pace} "
                  f"({result['jobs']} {'process' if result['jobs'] == 1 else 'processes'}).", markup=False)
    if result["defects"]:
        first = result["defects"][0]
        console.print(f"{len(result['defects'])} defects (games the rules or a policy could not play); the first, seed "
                      f"{first['seed']}: {first['kind']}: {first['message']}", markup=False)
    for path in written:
        console.print(f"Chart: {shown_file(path)}", markup=False)
