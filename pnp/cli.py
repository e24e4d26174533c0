"""The ``pnp`` command line: check, list and build the card database.

This module only parses arguments, calls :mod:`pnp.database`, :mod:`pnp.layout` and
:mod:`pnp.build`, and prints. Every failure the user can cause (a malformed database, an unwritable
output folder, text that does not fit) becomes one line per problem and a non-zero exit, never a
traceback.
"""
from __future__ import annotations

import json
from pathlib import Path

import click

from pnp import database

DEFAULT_DATABASE = Path("cards.toml")
DEFAULT_OUTPUT = Path("output")

database_option = click.option(
    "--db",
    "database_path",
    type=click.Path(path_type=Path, dir_okay=False),
    default=DEFAULT_DATABASE,
    show_default=True,
    help="The card database to read.",
)


def _fit_problems(db: database.Database, path: Path) -> list[str]:
    """Every text box that does not fit, as ``cards.toml:LINE: id.field: over by N mm``."""
    from pnp import layout

    lines = []
    for problem in layout.fit_problems(db):
        record_id, field, message = (problem.split(": ", 2) + ["", ""])[:3]
        line = db.line_of(record_id, field.split(" ")[0])
        if message.startswith("over by"):
            message += "; shorten the text"
        lines.append(f"{path.name}:{line}: {record_id}.{field}: {message}")
    return lines


def _load(path: Path) -> database.Database:
    """Load the database or exit 1 after printing its problems, one per line, to stderr."""
    try:
        return database.load(path)
    except database.DatabaseError as error:
        for problem in error.problems:
            click.echo(str(problem), err=True)
        if not path.exists():
            click.echo(f"no {path} here ({Path.cwd()}); run from the project folder or pass --db PATH", err=True)
        else:
            click.echo(f"{len(error.problems)} problem(s) in {path}; text fitting is checked once these are fixed", err=True)
        raise SystemExit(1) from None


@click.group()
@click.version_option(package_name="lassadar")
def main() -> None:
    """Print-and-play cards for the Shadows Upon Lassadar games, from one card database."""


@main.command()
@database_option
def check(database_path: Path) -> None:
    """Validate the whole database and every text box; report every problem, one line each.

    Exit 0 when clean, 1 otherwise.
    """
    db = _load(database_path)
    problems = _fit_problems(db, database_path)
    for problem in problems:
        click.echo(problem, err=True)
    if problems:
        click.echo(f"{len(problems)} problem(s) in {database_path}", err=True)
        raise SystemExit(1)
    records = sum(1 for _ in db.records())
    click.echo(f"{database_path}: {records} records, no problems")


@main.command(name="list")
@database_option
@click.option("--json", "as_json", is_flag=True, help="Print one JSON array instead of a table.")
def list_records(database_path: Path, as_json: bool) -> None:
    """List every record: id, game, kind, origin, copies."""
    db = _load(database_path)
    rows = [
        {"id": r.id, "game": r.game, "kind": r.kind, "origin": r.origin, "copies": r.copies}
        for r in db.records()
    ]
    if as_json:
        click.echo(json.dumps(rows, indent=2))
        return
    width = max(len(row["id"]) for row in rows)
    click.echo(f"{'id':<{width}}  {'game':<5}  {'kind':<14}  {'origin':<8}  copies")
    for row in rows:
        click.echo(f"{row['id']:<{width}}  {row['game']:<5}  {row['kind']:<14}  {row['origin']:<8}  {row['copies']}")


@main.command()
@database_option
@click.option(
    "--out",
    "out_dir",
    type=click.Path(path_type=Path, file_okay=False),
    default=DEFAULT_OUTPUT,
    show_default=True,
    help="Folder for svg/ and the PDF sheets.",
)
def build(database_path: Path, out_dir: Path) -> None:
    """Write one SVG per card face and the PDF sheets (A4 and Letter, per game) into --out."""
    db = _load(database_path)
    from pnp import build as builder

    problems = _fit_problems(db, database_path)
    if problems:
        for problem in problems:
            click.echo(problem, err=True)
        click.echo(f"{len(problems)} problem(s) with the printed cards; nothing was written", err=True)
        raise SystemExit(1)
    try:
        written = builder.build(db, out_dir)
    except OSError as error:
        where = error.filename or out_dir
        raise click.ClickException(f"{where}: cannot write: {error.strerror or error}; nothing in {out_dir} was changed") from None
    svgs = [p for p in written if p.suffix == ".svg"]
    others = [p for p in written if p.suffix != ".svg"]
    click.echo(f"{len(svgs)} card faces in {out_dir / 'svg'}")
    for path in others:
        click.echo(str(path))
