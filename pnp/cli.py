"""The ``pnp`` command line: check, list and build the card database.

This module only parses arguments, calls :mod:`pnp.database`, :mod:`pnp.layout` and
:mod:`pnp.build`, and prints. Every failure the user can cause (a malformed database, an unwritable
output folder, text that does not fit) becomes one line per problem and a non-zero exit, never a
traceback.
"""
from __future__ import annotations

import contextlib
import dataclasses
import json
import math
import os
import re
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Literal, cast

import click
from click.core import ParameterSource

from pnp import database, resources
from pnp.files import BUSY_MARK, as_users_file, calibrating_in, shown_path
from pnp.oneline import FilePath, OneLineGroup, echo, quoted, short_line, short_line_keeping_advice, shortened, shown_file

DEFAULT_OUTPUT = Path("output")


def _database_path(ctx: click.Context, param: click.Parameter, value: Path | None) -> Path:
    """``--db`` as given, else the default database (:func:`pnp.resources.default_database`)."""
    return value if value is not None else resources.default_database()


database_option = click.option(
    "--db",
    "database_path",
    type=FilePath(path_type=Path, dir_okay=False),
    default=None,
    callback=_database_path,
    help=f"The card database to read (default: ${resources.DB_ENV}, else ./cards.toml, else the bundled one).",
)


def _printed_texts(path: Path) -> list[str]:
    """The text of the card database at ``path`` and of the layout templates (``*.toml`` in
    :data:`pnp.layout.template.TEMPLATE_DIR`), with each TOML escape (``\\u00e9``) also as the character it
    writes: every character a build prints is among them, so a font's glyph for each is checked before anything is
    drawn (:func:`pnp.fonts.font_file_problems`). Read as plain text, not parsed (a tenth of the time); a file that
    cannot be read gives nothing here (its own check says why)."""
    from pnp.files import FileRefused, read_limited
    from pnp.layout import template

    texts: list[str] = []
    for file in [path, *sorted(Path(template.TEMPLATE_DIR).glob("*.toml"))]:
        try:  # (a pipe or a device is never opened: it blocked for ever, forty-first pnp breaker, MED 8)
            text = read_limited(file, template.MAX_TEMPLATE_BYTES * 10, "a card database or a template").decode("utf-8")
        except (OSError, UnicodeError, FileRefused):
            continue
        texts.append(text)
        for escape in re.findall(r"\\u([0-9a-fA-F]{4})|\\U([0-9a-fA-F]{8})", text):
            code = int(escape[0] or escape[1], 16)
            if code <= 0x10FFFF:
                texts.append(chr(code))
    return texts


def _margin_advice(settings: Any, papers: Sequence[Any]) -> str:
    """What to change so that every sheet of ``papers`` leaves room in its margin for its title line and fits a card,
    in the database's ``[print]`` keys (with the build's options beside them): the largest ``bleed_mm``, apart the
    largest ``printer_margin_mm``, apart the largest ``crop_mark_mm`` (tenths of a mm, below the values of ``settings``)
    with which every paper passes. Said as a value to set, not "at most": a smaller bleed fits more cards a row and can
    leave less margin (forty-fourth pnp breaker, MED 9: the bound given for Letter then failed A4, and "at most 9" was
    refused at 7.5). Forty-third pnp breaker, LOW 4: `pnp check` advised `--bleed`, an option it does not have."""
    from pnp.build import sheet_layout
    from pnp.sheet_marks import sheet_marginalia
    from pnp.sheets import ImpositionError

    def fits(changed: Any) -> bool:
        try:
            for paper in papers:
                sheet_marginalia(sheet_layout(changed, paper), paper, "X", 999, "")
        except ImpositionError:
            return False
        return True

    def largest(key: str) -> float | None:
        tenths = math.floor(getattr(settings, key) * 10 + 1e-6)
        return next((value / 10 for value in range(tenths - 1, -1, -1)
                     if fits(dataclasses.replace(settings, **{key: value / 10}))), None)

    bounds = [(key, value) for key in ("bleed_mm", "printer_margin_mm", "crop_mark_mm")
              if (value := largest(key)) is not None]
    if not bounds:
        return "no bleed, printer margin or crop mark length leaves it: use larger paper or smaller cards"
    context = click.get_current_context(silent=True)
    if context is not None and context.info_name == "build":  # its options, or the database's keys, which it reads too
        option = {"bleed_mm": "the bleed (--bleed, or bleed_mm in [print])",
                  "printer_margin_mm": "the printer margin (--printer-margin, or printer_margin_mm in [print])",
                  "crop_mark_mm": "the crop marks (crop_mark_mm in [print])"}
        return "set " + " or ".join(f"{option[key]} to {value:g}" for key, value in bounds)
    return "in [print] set " + " or ".join(f"{key} to {value:g}" for key, value in bounds)


STOPPED_READING = "; a broken template is read up to its first problem, so more may follow once it is mended"
"""What the count line of ``check`` and ``build`` adds when a template file could not be read past a problem
(forty-sixth pnp breaker, F4: "1 problem(s)" read as if there were no more)."""


def _fit_problems(db: database.Database, path: Path) -> tuple[list[str], bool]:
    """Every problem of the printed cards (:func:`pnp.layout.check_fit`) as one line,
    ``cards.toml:LINE: id.field: what is wrong`` (``; shorten the text`` after an overrun), and whether a broken
    template was read only up to its first problem (:attr:`pnp.layout.problems.FitProblem.stopped_reading`)."""
    from pnp import fonts, icon_files, layout
    from pnp.build import sheet_layout
    from pnp.layout.template import CARD_SIZE_NAMES
    from pnp.sheet_marks import sheet_marginalia
    from pnp.sheets import PAPERS, ImpositionError

    broken_fonts = fonts.font_file_problems(_printed_texts(path))  # every later measurement reads these: first, alone
    broken_icons = icon_files.icon_file_problems()  # so do the icons' (thirty-first breaker: a traceback from build)
    if broken_fonts or broken_icons:
        return ([problem.line(shown_path(Path(problem.path))) for problem in broken_fonts]
                + [problem.line(shown_path(Path(problem.path))) for problem in broken_icons]), False
    lines = []
    fit = layout.check_fit(db)
    # a card size the templates are not laid out for is the one problem said (twentieth breaker: 64 mm cards also
    # gave a line blaming the bleed for the sheet's margin), as is a card size changed in base.toml, said at card_width
    # with its bound (forty-fourth pnp breaker, MED 8: 10 mm cards were told to lower the crop marks, then to use
    # larger paper or smaller cards)
    resized = any(problem.kind == "template" and Path(problem.path).name == "base.toml"
                  and problem.field in {f"numbers.{name}" for name in CARD_SIZE_NAMES} for problem in fit)
    try:
        papers = () if resized or layout.card_size_problem(db) else db.print.papers
    except layout.TemplateError:  # a broken base template: check_fit below says it, at its file and line
        papers = ()
    for paper in papers:  # settings of the database and the command line together
        try:
            layout_ = sheet_layout(db.print, PAPERS[paper])
        except ImpositionError as error:
            lines.append(f"{shown_path(path)}:{db.line_of('print', 'papers')}: print.papers: {error}; "
                         f"{_margin_advice(db.print, [PAPERS[name] for name in db.print.papers])}")
            continue
        for game, meta in db.games.items():  # the title every sheet prints in its margin
            try:
                sheet_marginalia(layout_, PAPERS[paper], meta.title, 999, "")
            except ImpositionError as error:
                try:  # a title of one letter fits no better: the margin the settings leave is the cause
                    sheet_marginalia(layout_, PAPERS[paper], "X", 999, "")
                except ImpositionError:
                    lines.append(f"{shown_path(path)}:{db.line_of('print', 'bleed_mm')}: print: the {PAPERS[paper].name} sheet "
                                 f"leaves no room in its margin for the title line with this bleed, crop marks and printer "
                                 f"margin; {_margin_advice(db.print, [PAPERS[name] for name in db.print.papers])}")
                    break
                lines.append(f"{shown_path(path)}:{db.line_of('games', f'{game}.title')}: games.{game}.title: {error}; "
                             f"shorten the title")
    for game, meta in db.games.items():
        missing = fonts.missing_chars(meta.title, "serif")
        if missing:
            lines.append(f"{shown_path(path)}:{db.line_of('games', f'{game}.title')}: games.{game}.title: character "
                         f"{quoted(missing[0], 20)} (U+{ord(missing[0]):04X}) is in no bundled font")
    for problem in fit:
        if problem.kind == "template":  # the template's own file and line
            lines.append(f"{shown_path(Path(problem.path))}:{problem.line}: {shortened(problem.field, 120)}: "
                         f"{short_line_keeping_advice(problem.message, limit=400)}")
            continue
        if problem.kind == "safe area":  # a face, not one field: the record's line, then the setting
            lines.append(f"{shown_path(path)}:{db.line_of(problem.record_id)}: {shortened(problem.record_id)}: "
                         f"{short_line(problem.message, limit=400)}")
            continue
        message = problem.message
        if problem.kind == "text over" and "no space to break a line at" not in message:  # that one says what to do
            message += "; shorten the text"
            if problem.box and problem.template:  # or the box, which a template edit may have made too small (forty-eighth
                # pnp breaker, MED 5: a smaller box, a larger size, in a copy without git, was "shorten the text" alone)
                message += f" (or give its box, [boxes.{problem.box}] in {shown_path(Path(problem.template))}, more room)"
        lines.append(f"{shown_path(path)}:{db.line_of(problem.record_id, problem.key)}: "
                     f"{shortened(f'{problem.record_id}.{problem.field}', 120)}: {short_line(message, limit=400)}")
    return lines, any(problem.stopped_reading for problem in fit)


class Millimetres(click.FloatRange):
    """A length in mm between ``min`` and ``max``: a finite number (``nan`` and ``inf`` are refused,
    which :class:`click.FloatRange` lets through)."""

    name = "millimetres"

    def convert(self, value, param, ctx):
        """The value as a float in range; ``self.fail`` (one usage line) for anything else."""
        try:
            # ASCII digits only, and no "_" (Python reads "1_0" as 10: thirty-sixth pnp breaker, LOW 14)
            number = float(value) if not isinstance(value, str) or (value.isascii() and "_" not in value) else math.nan
        except (TypeError, ValueError):
            number = math.nan
        if not math.isfinite(number):
            self.fail(f"{value!r} is not a length in mm; give a number from {self.min:g} to {self.max:g}", param, ctx)
        return super().convert(number, param, ctx)


def _parse_offset(text: str) -> tuple[float, float]:
    """``"X,Y"`` in mm as two floats; a click ``BadParameter`` naming --back-offset otherwise."""
    parts = text.split(",")
    try:
        if not text.isascii() or "_" in text:  # "1_0" is 10 to Python, likely "1.0" meant (thirty-sixth pnp breaker, LOW 14)
            raise ValueError(text)
        x, y = (float(part) for part in parts)
    except ValueError:
        raise click.BadParameter(f"{text!r} is not X,Y in mm, for example 0.5,-1", param_hint="--back-offset") from None
    if not (math.isfinite(x) and math.isfinite(y)):
        raise click.BadParameter(f"{text!r} is not X,Y in mm, for example 0.5,-1", param_hint="--back-offset")
    if abs(x) > 10 or abs(y) > 10:
        raise click.BadParameter(f"{text!r} shifts the backs by more than 10 mm; measure again with `pnp calibrate`",
                                 param_hint="--back-offset")
    return (x, y)


def _with_settings(db: database.Database, **overrides: Any) -> database.Database:
    """``db`` with the ``[print]`` settings given on the command line (``None`` or empty: keep the database's)."""
    update: dict[str, Any] = {key: (tuple(value) if key == "papers" else value) for key, value in overrides.items() if value}
    if "papers" in update:
        update["papers"] = tuple(dict.fromkeys(update["papers"]))
    for key in ("bleed_mm", "safe_mm", "printer_margin_mm"):
        if overrides.get(key) == 0:
            update[key] = 0.0
    if not update:
        return db
    return dataclasses.replace(db, print=dataclasses.replace(db.print, **update))


def _load(path: Path) -> database.Database:
    """Load the database or exit 1 after printing its problems, one per line, to stderr. A ``templates/``
    folder beside the database that is not the one the layouts read is named in a note (fifteenth breaker:
    a designer's copy of the templates was silently ignored)."""
    try:
        given = click.get_current_context().get_parameter_source("database_path") is ParameterSource.COMMANDLINE
        loaded = database.load(path, source=resources.database_source(given))
        beside = Path(os.path.abspath(path)).parent / "templates"
        if beside.is_dir() and beside.resolve() != resources.TEMPLATE_DIR.resolve():
            echo(f"note: {shortened(shown_file(beside), 300)} is not read: the layouts are the templates in "
                       f"{shortened(shown_file(resources.TEMPLATE_DIR), 300)} (edit those to change a layout)", err=True)
        return loaded
    except database.DatabaseError as error:
        if not os.path.lexists(path) and "No such file" in str(error.problems[0]):  # not for a file that cannot be read
            given = click.get_current_context().get_parameter_source("database_path") is ParameterSource.COMMANDLINE
            where = shortened(shown_file(Path.cwd()), 300)
            if given or os.environ.get(resources.DB_ENV):
                option = "--db" if given else f"${resources.DB_ENV}"
                within = "" if Path(path).is_absolute() else f" (in {where})"  # a path that names its folder (fortieth, LOW 4)
                echo(f"{shortened(shown_file(path), 300)}: no such file{within}; check the {option} path", err=True)
            else:  # no ./cards.toml and no bundled one (an install without its package data)
                echo(f"no card database: looked at {shortened(resources.where_looked(), 600)}; pass --db PATH", err=True)
        else:
            for problem in error.problems:
                echo(str(problem), err=True)
            given = click.get_current_context().get_parameter_source("database_path") is ParameterSource.COMMANDLINE
            first = error.problems[0]
            named = ""
            if not given and os.environ.get(resources.DB_ENV) and (first.line == 0 or "is the file empty?" in first.message) \
                    and f"${resources.DB_ENV}" not in first.message:
                # no card database at all where the variable points (a folder, an empty file): said with the variable,
                # as the referee says it (thirty-eighth pnp breaker: `fold:0: file: is a folder`, the variable unnamed)
                named = f", the file ${resources.DB_ENV} names: point it at a card database, a cards.toml, or unset it"
            more = f" and {error.unlisted:,} more not listed" if error.unlisted else ""
            listing = click.get_current_context().info_name == "list"  # `list` fits no text (thirty-first pnp breaker, LOW 24)
            echo(f"{len(error.problems)} problem(s){more} in {shortened(shown_path(path), 300)}{named}"  # as its lines name it
                       f"{'' if listing or named or first.line == 0 else '; text fitting is checked once these are fixed'}", err=True)
        raise SystemExit(1) from None


@click.group(cls=OneLineGroup)
@click.version_option(package_name="lassadar")
def main() -> None:
    """Print-and-play cards for the Shadows Upon Lassadar games, from one card database."""


@main.command()
@database_option
@click.option("--safe", type=Millimetres(0, 10), help="Check against this safe area in mm. Default: [print] safe_mm.")
def check(database_path: Path, safe: float | None) -> None:
    """Validate the whole database and every text box; report every problem, one line each.

    Exit 0 when clean, 1 otherwise.
    """
    db = _with_settings(_load(database_path), safe_mm=safe)
    problems, stopped = _fit_problems(db, database_path)
    for problem in problems:
        echo(problem, err=True)
    if problems:
        files = list(dict.fromkeys(found.group(1) for found in map(re.compile(r"^(.*?)(?::\d+)?: ").match, problems) if found))
        echo(f"{len(problems)} problem(s) in {shortened(', '.join(files) or str(database_path), 300)}"
             f"{STOPPED_READING if stopped else ''}", err=True)
        raise SystemExit(1)
    records = sum(1 for _ in db.records())
    echo(f"{shortened(shown_file(database_path), 300)}: {records} records, no problems")


@main.command(name="list")
@database_option
@click.option("--json", "as_json", is_flag=True, help="Print one JSON array instead of a table.")
def list_records(database_path: Path, as_json: bool) -> None:
    """List every record: id, game, kind, origin, copies."""
    db = _load(database_path)
    rows: list[dict[str, Any]] = [
        {"id": r.id, "game": r.game, "kind": r.kind, "origin": r.origin, "copies": r.copies}
        for r in db.records()
    ]
    if as_json:
        echo(json.dumps(rows, indent=2))
        return
    width = max(len(row["id"]) for row in rows)
    echo(f"{'id':<{width}}  {'game':<5}  {'kind':<14}  {'origin':<8}  copies")
    for row in rows:
        echo(f"{row['id']:<{width}}  {row['game']:<5}  {row['kind']:<14}  {row['origin']:<8}  {row['copies']}")


@main.command()
@database_option
@click.option(
    "--out",
    "out_dir",
    type=FilePath(path_type=Path, file_okay=False),  # an empty --out (an unset $OUT) is refused, not read as "." (LOW 17)
    default=DEFAULT_OUTPUT,
    show_default=True,
    help="Folder for svg/ and the PDF sheets.",
)
@click.option("--paper", "papers", type=click.Choice(["a4", "letter"]), multiple=True,
              help="Paper to impose on (repeat for both). Default: the database's [print] papers.")
@click.option("--bleed", type=Millimetres(0, 10), help="Bleed in mm beyond the trim. Default: [print] bleed_mm.")
@click.option("--safe", type=Millimetres(0, 10), help="Safe area in mm inside the trim. Default: [print] safe_mm.")
@click.option("--printer-margin", type=Millimetres(0, 20),
              help="Unprintable border of your printer in mm. Default: [print] printer_margin_mm.")
@click.option("--duplex", type=click.Choice(["long", "short", "none"]),
              help="Backs for duplex printing flipped on the long or short edge, or none. Default: [print] duplex.")
@click.option("--back-offset", type=str, default="0,0", show_default=True, metavar="X,Y",
              help="Shift every back by X,Y mm (right, down on the backs page); measure it with `pnp calibrate`.")
@click.option("--cut-lines", is_flag=True, help="Draw thin full cut lines over the cards.")
@click.option("--boards", type=click.Choice(["joined", "separate"]), default="joined", show_default=True,
              help="joined: each board's cards side by side from the start of a sheet row, no cut line on their "
                   "seams (with --cut-lines); separate: like other cards.")
# Print shops and screens (pnp.inks, pnp.raster): extra outputs beside the default RGB sheets.
@click.option("--color", "color", type=click.Choice(["rgb", "cmyk"]), default="rgb", show_default=True,
              help="cmyk: also write the sheets in CMYK for a print shop (<game>-<paper>-cmyk.pdf), black in K only.")
@click.option("--ink", type=click.Choice(["full", "saver"]), default="full", show_default=True,
              help="saver: also write light-background sheets for home printers (<game>-<paper>-ink-saver.pdf).")
@click.option("--png", "png", is_flag=True,
              help="Also write PNG deck images (10 x 7 cards, backs apart) for digital tabletops into png/.")
@click.option("--overwrite", is_flag=True,
              help="Replace files in --out that have the names the build writes although no earlier build wrote them.")
def build(database_path: Path, out_dir: Path, papers: tuple[str, ...], bleed: float | None, safe: float | None,
          printer_margin: float | None, duplex: str | None, back_offset: str, cut_lines: bool, boards: str,
          color: str, ink: str, png: bool, overwrite: bool) -> None:
    """Write one SVG per card face and the PDF sheets (A4 and Letter, per game) into --out."""
    from pnp.layout import template

    templates_folder = Path(template.TEMPLATE_DIR).resolve()
    if out_dir.resolve() == templates_folder or out_dir.resolve().is_relative_to(templates_folder):
        # forty-first pnp breaker, LOW 11: the sheets, svg/ and a manifest were written among the layouts, the manifest then
        # claiming the bundled fonts as build output
        raise click.BadParameter(f"{shown_file(out_dir)} is the templates' own folder (or inside it), where the layouts, icons "
                                 f"and fonts are: choose another folder (the default is {DEFAULT_OUTPUT})", param_hint="--out")
    offset = _parse_offset(back_offset)
    db = _with_settings(_load(database_path), papers=papers, bleed_mm=bleed, safe_mm=safe,
                        printer_margin_mm=printer_margin, duplex=duplex)
    from pnp import build as builder
    from pnp import check_cache
    from pnp.raster import RasterError

    inputs = check_cache.inputs_digest(db) if check_cache.ENABLED else None
    kept = check_cache.kept_layout(inputs)  # these files laid out and checked before: neither is done again
    if kept is not None:
        from pnp import layout

        layout.keep_rendered(db, kept)
        problems: list[str] = []
        stopped = False
    else:
        problems, stopped = _fit_problems(db, database_path)
        if not problems and inputs is not None:
            from pnp import layout

            rendered = layout.render(db)  # (the check's own layout: not laid out again)
            if check_cache.inputs_digest(db) == inputs:  # an input edited while it was checked: that check is kept for
                check_cache.keep_layout(inputs, rendered)  # no digest (fiftieth breaker, HIGH 1: an edit saved during
                # a build, then undone, had the next build of the undone files take the edit's layout unchecked)
    if problems:
        for problem in problems:
            echo(problem, err=True)
        echo(f"{len(problems)} problem(s) with the printed cards; nothing was written{STOPPED_READING if stopped else ''}",
             err=True)
        raise SystemExit(1)
    if db.print.duplex != "none":  # the backs so shifted leave the sheets' margin items room (forty-eighth pnp breaker, HIGH 4)
        from pnp.pdf import back_offset_problem
        from pnp.sheets import PAPERS

        for paper in db.print.papers:
            for meta in db.games.values():
                refused = back_offset_problem(builder.sheet_layout(db.print, PAPERS[paper]), PAPERS[paper], meta.title, offset)
                if refused:
                    raise click.UsageError(f"{refused}; nothing was written")
    options = builder.BuildOptions(boards=cast(Literal["joined", "separate"], boards), back_offset=offset, cut_lines=cut_lines,
                                   color=cast(Literal["rgb", "cmyk"], color), ink=cast(Literal["full", "saver"], ink), png=png,
                                   overwrite=overwrite)
    for note in builder.sheet_notes(db, options):
        echo(note, err=True)
    from pnp import fonts
    from pnp.icon_files import IconFileError

    try:
        leftovers: list[str] = []
        held: list[int] = []
        with fonts.font_errors_named():
            written = builder.build(db, out_dir, options, notes=leftovers, held_signals=held)
    except fonts.FontDrawError as error:
        raise click.ClickException(f"{error.problem.line(shown_path(Path(error.problem.path)))}; nothing in {shown_file(out_dir)} "
                                   f"was changed") from None
    except IconFileError as error:  # an icon changed since the check above
        raise click.ClickException(f"{error.problem.line(shown_path(Path(error.problem.path)))}; nothing in {shown_file(out_dir)} "
                                   f"was changed") from None
    except OSError as error:
        where = error.filename or out_dir
        reason = error.strerror or str(error)
        verb = "" if "no earlier build wrote it" in reason or reason.startswith(BUSY_MARK) else "cannot write: "
        raise click.ClickException(f"{shown_file(where)}: {verb}{reason}; nothing in {shown_file(out_dir)} was changed") from None
    except RasterError as error:
        raise click.ClickException(f"--png: {error}; nothing in {shown_file(out_dir)} was changed") from None
    for leftover in leftovers:
        echo(f"Note: {shortened(leftover, 400)}", err=True)
    svgs = [p for p in written if p.suffix == ".svg"]
    others = [p for p in written if p.suffix not in (".svg", ".ttf", ".txt")]
    echo(f"{len(svgs)} card faces in {shortened(shown_file(out_dir / 'svg'), 300)}")
    for path in others:
        echo(shortened(shown_file(path), 300))
    if held:  # an interrupt that came as the new output was moved in: held till it was whole, then obeyed
        import signal

        name = signal.Signals(held[0]).name
        echo(f"Ended by {name}, which came while the new output was moved in: the build finished first, so "
             f"{shortened(shown_file(out_dir), 300)} holds the new output, whole", err=True)
        raise SystemExit(128 + held[0])


def _is_pdf(path: Path) -> bool:
    """Whether ``path`` is a regular file that starts as a PDF does (``%PDF-``); a pipe or a device is
    none (and never opened: a pipe would block)."""
    if not os.path.isfile(path):
        return False
    try:
        with open(path, "rb") as file:
            return file.read(5) == b"%PDF-"
    except OSError:
        return False


CALIBRATION_TITLE = b"/Title (Duplex calibration, "
"""How the document information of a sheet ``pnp calibrate`` wrote begins its title (pnp.calibrate)."""


def _is_calibration_sheet(path: Path) -> bool:
    """Whether the PDF at ``path`` is a calibration sheet ``pnp calibrate`` wrote (its title, in the document
    information ReportLab writes uncompressed in the file's last objects): the one PDF it replaces unasked. Reads
    at most the first and the last 64 KiB."""
    try:
        with open(path, "rb") as file:
            head = file.read(65536)
            file.seek(max(0, os.path.getsize(path) - 65536))
            return CALIBRATION_TITLE in head or CALIBRATION_TITLE in file.read()
    except OSError:
        return False


@main.command()
@click.option("--paper", type=click.Choice(["a4", "letter"]), default="a4", show_default=True)
@click.option("--duplex", type=click.Choice(["long", "short"]), default="long", show_default=True,
              help="The edge your printer flips on, as for your cards.")
@click.option("--out", "out_text", type=FilePath(path_type=str), default=None,
              help="PDF to write, or a folder to write calibration-<paper>-<duplex>.pdf in. Default: output/calibration-<paper>-<duplex>.pdf")
@click.option("--overwrite", is_flag=True, help="Replace a PDF at --out that is not a calibration sheet pnp wrote.")
def calibrate(paper: str, duplex: str, out_text: str | None, overwrite: bool) -> None:
    """Write a two-page duplex calibration PDF: print it double-sided, hold it to the light, and read
    the X,Y to pass to `pnp build --back-offset X,Y`. It also has a 50 mm square and a 10 cm ruler."""
    from pnp.calibrate import build_command, write_calibration
    from pnp.sheets import PAPERS

    name = f"calibration-{paper}-{duplex}.pdf"
    path = DEFAULT_OUTPUT / name if out_text is None else Path(out_text)
    if out_text is not None and (out_text.endswith(("/", os.sep)) or os.path.isdir(path)):  # twenty-third breaker: `--out dir/` wrote a file `dir`
        path = path / name
    elif path.suffix.lower() != ".pdf" and path.name.lower() == ".pdf":  # forty-sixth pnp breaker, F22: "end it in .pdf"
        raise click.BadParameter(f"{shortened(out_text or '', 200)!r} has no name before .pdf: write one, such as "
                                 f"{shortened(str(path.with_name(name)), 200)!r} (or give a folder, ending in /)", param_hint="'--out'")
    elif path.suffix.lower() != ".pdf":  # twenty-third breaker: a PDF was written as cal.txt
        raise click.BadParameter(f"{shortened(out_text or '', 200)!r} is no PDF name: end it in .pdf (or give a folder, ending in /)",
                                 param_hint="'--out'")
    if os.path.islink(path):  # never written through: the link's target may be any file of the user's, anywhere
        raise click.ClickException(f"{shortened(shown_file(path), 300)}: is a symbolic link, and pnp calibrate never writes through a link: "
                                   f"remove it, or give --out another path; nothing was changed")
    if os.path.lexists(path) and not _is_pdf(path):  # a calibration sheet replaces only a PDF (never cards.toml)
        raise click.ClickException(f"{shortened(shown_file(path), 300)}: this file is not a PDF (a file of yours?), and pnp calibrate "
                                   f"overwrites only a PDF: give --out another path, or move the file away; nothing was changed")
    if os.path.lexists(path) and not overwrite and not _is_calibration_sheet(path):  # seventeenth breaker: any PDF was replaced
        raise click.ClickException(f"{shortened(shown_file(path), 300)}: this PDF is not a calibration sheet pnp wrote (a file of yours?): "
                                   f"give --out another path, or --overwrite to replace it; nothing was changed")
    target = path
    temporary: Path | None = None  # (a file of that name that this run did not make is never removed)
    with contextlib.ExitStack() as held:
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            # held to the end; the temporary files of earlier runs killed while writing go first (round 39 pnp LOW 12)
            held.enter_context(calibrating_in(target.parent))
            descriptor, name = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".calibrating", dir=target.parent)  # new, ours
            os.close(descriptor)
            temporary = Path(name)
            write_calibration(temporary, PAPERS[paper], duplex)  # type: ignore[arg-type]
            as_users_file(temporary)  # as any file the user writes (mkstemp makes it 0600)
            os.replace(temporary, target)  # whole or not at all: a full disk or Ctrl-C keeps the PDF there before
        except OSError as error:
            failed = path if error.filename in (None, str(temporary)) else error.filename
            if isinstance(error, FileExistsError) and not os.path.isdir(failed):  # a name on the way is a file or a dead link
                error = NotADirectoryError(20, "a file or a link to nothing, not a folder", str(failed))
            raise click.ClickException(f"{shortened(shown_file(failed), 300)}: cannot write: {error.strerror or error}; {path} was not "
                                       f"changed") from None
        finally:
            if temporary is not None:
                with contextlib.suppress(OSError):
                    temporary.unlink()
    echo(shortened(shown_file(path), 300))
    echo("Print both pages double-sided at 100 %, hold the sheet to a light, read X and Y, then:")
    echo(f"  {build_command(duplex)}")  # type: ignore[arg-type]
