"""The ``referee`` command line: ``referee solo ...`` (The Grayking is Risen), ``referee duel ...``
(Ruin & Renewal I) and ``referee table ID ROLL`` to read any rules table of the card database."""
from __future__ import annotations

import importlib
from pathlib import Path

import click

from pnp.oneline import OneLineGroup
from referee import clitools


class RefereeGroup(OneLineGroup):
    """The ``referee`` group: each game's commands are imported only when that game is asked for, so
    ``referee solo status`` does not load the two-player referee (see ``bench/referee_status.py``)."""

    GAMES = {"solo": "referee.solo.cli", "duel": "referee.duel.cli"}
    """Subcommand name -> the module that defines a click group of that name."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        """Every command name, the games' included, sorted."""
        return sorted(set(super().list_commands(ctx)) | set(self.GAMES))

    def get_command(self, ctx: click.Context, name: str) -> click.Command | None:
        """The command ``name``, importing a game's module the first time it is asked for."""
        if name in self.GAMES and name not in self.commands:
            self.add_command(getattr(importlib.import_module(self.GAMES[name]), name))
        return super().get_command(ctx, name)


@click.group(cls=RefereeGroup)
@click.version_option(package_name="lassadar")
def main() -> None:
    """Table referee for the Shadows Upon Lassadar games."""


@main.command()
@click.argument("table_id", required=False)
@click.argument("roll", type=int, required=False)
@click.option("--db", "database_path", type=click.Path(path_type=Path, dir_okay=False), default=None,
              help=f"Card database (default: ${clitools.DB_ENV}, else ./cards.toml, else the bundled one).")
def table(table_id: str | None, roll: int | None, database_path: Path | None) -> None:
    """Read a rules table: the row of TABLE_ID that ROLL reads (a d6, 2d6, spell position or difference),
    the whole table without ROLL, or the list of tables without TABLE_ID.

    TABLE_ID is the table's id (solo.table.battle-loss), its last part (battle-loss), its title
    ("Battle Loss") or a unique beginning of one (battle-l).
    """
    db = clitools.load_database(database_path)
    tables = sorted(db.tables(), key=lambda t: t.id)
    if table_id is None:
        width = max(len(t.id) for t in tables)
        for t in tables:
            click.echo(f"{t.id:{width}}  {t.title}")
        return
    try:
        found = clitools.find_record(((t.id, (t.title,)) for t in tables), table_id, "TABLE_ID", "table", "tables", listed=str)
    except click.ClickException as error:
        raise click.BadParameter(error.message.removeprefix("TABLE_ID: "), param_hint="TABLE_ID") from None
    rules_table = db.table(found)
    if roll is None:
        click.echo(rules_table.title)
        for row in rules_table.rows:
            rolls = ", ".join(map(str, row.roll))
            name = f"{row.name}: " if row.name else ""
            click.echo(f"  {rolls:>6}  {name}{row.text}")
        return
    try:
        row = rules_table.row_for(roll)
    except KeyError:
        held = sorted(r for row in rules_table.rows for r in row.roll)
        raise click.BadParameter(f"{roll} reads no row of {found}; rows hold {', '.join(map(str, held))}", param_hint="ROLL") from None
    name = f"{row.name}: " if row.name else ""
    click.echo(f"{rules_table.title}, {roll}: {name}{row.text}")
