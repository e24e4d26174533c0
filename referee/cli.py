"""The ``referee`` command line. Only ``referee table`` exists so far; the game referees follow."""
from __future__ import annotations

from pathlib import Path

import click

from pnp import database


@click.group()
@click.version_option(package_name="lassadar")
def main() -> None:
    """Table referee for the Shadows Upon Lassadar games."""


@main.command()
@click.argument("table_id")
@click.argument("roll", type=int)
@click.option("--db", "database_path", type=click.Path(path_type=Path, dir_okay=False), default=Path("cards.toml"), show_default=True)
def table(table_id: str, roll: int, database_path: Path) -> None:
    """Print the row of table TABLE_ID that ROLL reads (a d6, 2d6, spell position or difference)."""
    try:
        db = database.load(database_path)
    except database.DatabaseError as error:
        raise click.ClickException(str(error.problems[0]) + (f" (and {len(error.problems) - 1} more; run pnp check)" if len(error.problems) > 1 else "")) from None
    ids = sorted(t.id for t in db.tables())
    if table_id not in ids:
        raise click.BadParameter(f"no table {table_id!r}; tables are: {', '.join(ids)}", param_hint="TABLE_ID")
    rules_table = db.table(table_id)
    try:
        row = rules_table.row_for(roll)
    except KeyError:
        rolls = sorted(r for row in rules_table.rows for r in row.roll)
        raise click.BadParameter(f"{roll} reads no row of {table_id}; rows hold {', '.join(map(str, rolls))}", param_hint="ROLL") from None
    name = f"{row.name}: " if row.name else ""
    click.echo(f"{rules_table.title}, {roll}: {name}{row.text}")


from referee.solo.cli import solo  # noqa: E402  (the solo subgroup needs `main` defined first)

main.add_command(solo)

from referee.duel.cli import duel  # noqa: E402

main.add_command(duel)
