"""Where a build writes: staging inside the output folder, one-line failures, the previous output kept.

Brief, Standards: "a malformed ... command ... gets one clear line ... and nothing lost: no half-written
output". Fresh-user report: `pnp build --out` on a mounted folder failed with "Invalid cross-device
link", because the build was staged beside the folder and moved across file systems.
"""
from __future__ import annotations

import dataclasses
import errno
import os
from pathlib import Path

import pytest
from click.testing import CliRunner

from pnp import build as builder
from pnp.cli import main as pnp_main
from tests.conftest import ROOT


@pytest.fixture(autouse=True)
def _in_tmp_path(tmp_path, monkeypatch):
    """Run in the test's own folder: an error line names a database there as ``cards.toml:LINE:``
    (:func:`pnp.files.shown_path`), as it does for a player running `pnp check` beside their cards.toml."""
    monkeypatch.chdir(tmp_path)



@pytest.fixture(scope="module")
def small_db(db):
    """The bundled database with one paper, so each build here writes a few files only."""
    return dataclasses.replace(db, print=dataclasses.replace(db.print, **{"papers": ("a4",)}))


def test_a_mounted_output_folder_builds(small_db, tmp_path, monkeypatch):
    """Every move of the finished build stays inside --out: a folder that is its own file system works."""
    out = tmp_path / "mounted"
    out.mkdir()
    real_replace = os.replace

    def replace_within_mount(source, target):
        inside = [out in Path(p).resolve().parents or Path(p).resolve() == out for p in (source, target)]
        if inside[0] != inside[1]:
            raise OSError(errno.EXDEV, "Invalid cross-device link", str(source))
        return real_replace(source, target)

    monkeypatch.setattr(builder.os, "replace", replace_within_mount)
    written = builder.build(small_db, out)
    assert (out / "solo-a4.pdf") in written and (out / "solo-a4.pdf").is_file()
    assert not list(out.glob(f"{builder.STAGING_PREFIX}*")), "the staging folder is left behind"


def test_a_failed_build_keeps_the_previous_output_and_names_the_users_file(small_db, tmp_path, monkeypatch):
    out = tmp_path / "out"
    builder.build(small_db, out)
    before = {path: path.read_bytes() for path in out.rglob("*") if path.is_file()}

    def full_disk(*args, **kwargs):
        raise OSError(errno.ENOSPC, "No space left on device", str(Path(args[0])))

    monkeypatch.setattr(builder, "write_sheets", lambda path, *a, **k: full_disk(path))
    with pytest.raises(OSError) as caught:
        builder.build(small_db, out)
    assert caught.value.filename == str(out / "solo-a4.pdf")  # not the hidden staging copy
    assert {path: path.read_bytes() for path in out.rglob("*") if path.is_file()} == before


def test_a_build_killed_before_leaves_no_staging_folder_after_the_next(small_db, tmp_path):
    out = tmp_path / "out"
    (out / f"{builder.STAGING_PREFIX}old" / "svg").mkdir(parents=True)
    (out / f"{builder.STAGING_PREFIX}old" / builder.STAGING_MARK).write_text("")  # a build made it (the user's are kept)
    builder.build(small_db, out)
    assert not list(out.glob(f"{builder.STAGING_PREFIX}*"))


@pytest.mark.parametrize("exists", [True, False], ids=["existing folder", "new folder"])
def test_an_unwritable_output_folder_is_one_line_and_nothing_written(tmp_path, monkeypatch, exists):
    """A folder the build cannot write in (read-only mount, no permission): one line naming --out,
    exit 1, and a folder the build had to create is removed again."""
    out = tmp_path / "locked"
    if exists:
        out.mkdir()

    def refuse(prefix, dir):
        raise PermissionError(errno.EACCES, "Permission denied", str(Path(dir) / (prefix + "x")))

    monkeypatch.setattr(builder.tempfile, "mkdtemp", refuse)
    result = CliRunner().invoke(pnp_main, ["build", "--db", str(ROOT / "cards.toml"), "--out", str(out), "--paper", "a4"])
    assert result.exit_code == 1
    assert len(result.output.strip().splitlines()) == 1, result.output
    assert f"{out}: cannot write: Permission denied" in result.output
    assert builder.STAGING_PREFIX not in result.output
    assert out.exists() == exists and (not exists or list(out.iterdir()) == [])


@pytest.mark.parametrize("option", [["--bleed", "nan"], ["--safe", "inf"], ["--printer-margin", "nan"],
                                    ["--back-offset", "nan,0"], ["--bleed", "2x"], ["--bleed", "11"]])
def test_lengths_that_are_not_numbers_in_range_are_one_usage_line(tmp_path, option):
    """Fresh-user report: `--bleed nan` gave a traceback, `--printer-margin nan` a broken sheet."""
    out = tmp_path / "out"
    result = CliRunner().invoke(pnp_main, ["build", "--db", str(ROOT / "cards.toml"), "--out", str(out), *option])
    assert result.exit_code == 2
    assert len(result.output.strip().splitlines()) == 1 and option[0] in result.output
    assert not out.exists()


@pytest.mark.parametrize("value", ["nan", "inf", "-inf"])
def test_database_lengths_must_be_finite(tmp_path, value):
    text = (ROOT / "cards.toml").read_text(encoding="utf-8")
    line = next(n for n, row in enumerate(text.splitlines(), 1) if row.startswith("bleed_mm ="))
    broken = tmp_path / "cards.toml"
    broken.write_text(text.replace(text.splitlines()[line - 1], f"bleed_mm = {value}", 1), encoding="utf-8")
    result = CliRunner().invoke(pnp_main, ["check", "--db", str(broken)])
    assert result.exit_code == 1
    assert f"cards.toml:{line}: print.bleed_mm: input should be a finite number" in result.output


def test_a_grid_that_is_not_three_by_three_and_split_boards_are_said(db):
    """Fresh-user report: `--bleed 10 --printer-margin 20 --paper letter` silently gave 2 x 2 pages with
    the 3-card battle maps split over rows. The build now says so (and the default build says nothing)."""
    assert builder.sheet_notes(db) == []
    wide = dataclasses.replace(db, print=dataclasses.replace(db.print, **{"bleed_mm": 10.0, "printer_margin_mm": 20.0,
                                                                     "papers": ("letter",)}))
    notes = builder.sheet_notes(wide)
    assert notes[0].startswith("note: Letter holds 2 x 2 cards a page")
    assert "solo.map.key-1, solo.map.key-2, solo.map.key-3 print split over rows" in notes[1]
    assert notes[1].endswith("lower --bleed or --printer-margin to join them")  # 3 cards fit a Letter row without margins
    assert len(builder.sheet_notes(wide, builder.BuildOptions(boards="separate"))) == 1


def test_the_joined_board_advice_is_given_only_when_it_can_join_the_board(db, monkeypatch):
    """Eleventh breaker: a 4-card board was advised to "lower --bleed or --printer-margin to join them"
    even at 0 and 0, where 4 x 63 mm still exceed an A4 row: the note says to lay them side by side."""
    from pnp.layout import render

    rendered = render(db)
    board = next(face.record.id for face in rendered.fronts if face.board_cards == 3)
    widened = [dataclasses.replace(face, board_cards=4) if face.record.id == board else face for face in rendered.fronts]
    monkeypatch.setattr(builder, "render", lambda database: dataclasses.replace(rendered, fronts=tuple(widened)))
    notes = builder.sheet_notes(dataclasses.replace(db, print=dataclasses.replace(db.print, papers=("a4",))))
    assert notes == [f"note: an A4 sheet row holds 3 cards, so {board} prints split over rows, not as one strip; "
                     "a row of 4 cards is wider than the paper, so lay them side by side after cutting"]


def test_a_copy_of_the_users_with_the_builds_bytes_stays_the_users(tmp_path):
    """Sixteenth breaker (README: a build removes only what an earlier build wrote): a file of the user's with
    a name the build writes and the same bytes (a CMYK sheet copied from another output folder) was listed in
    the manifest as the build's own, and the next build that did not write it deleted it. It stays the
    user's: left in place, never listed, never removed."""
    db = str(ROOT / "cards.toml")
    first, mine = tmp_path / "first", tmp_path / "mine"
    run = CliRunner().invoke
    assert run(pnp_main, ["build", "--db", db, "--out", str(first), "--paper", "a4", "--color", "cmyk"]).exit_code == 0
    (mine).mkdir()
    kept = mine / "duel-a4-cmyk.pdf"
    kept.write_bytes((first / "duel-a4-cmyk.pdf").read_bytes())
    assert run(pnp_main, ["build", "--db", db, "--out", str(mine), "--paper", "a4", "--color", "cmyk"]).exit_code == 0
    assert "duel-a4-cmyk.pdf" not in builder.read_manifest(mine) and "solo-a4-cmyk.pdf" in builder.read_manifest(mine)
    assert run(pnp_main, ["build", "--db", db, "--out", str(mine), "--paper", "a4"]).exit_code == 0
    assert kept.read_bytes() == (first / "duel-a4-cmyk.pdf").read_bytes()  # the user's copy: never the build's to remove
    assert not (mine / "solo-a4-cmyk.pdf").exists()  # the build's own: removed when no longer written


def test_every_file_of_the_users_in_the_way_is_named_at_once(tmp_path):
    """Seventeenth breaker: with several files of the user's where the build writes, the refusal named the
    first only, so moving them away as advised took one run per file. All are named (the first few listed)."""
    out = tmp_path / "out"
    out.mkdir()
    (out / "index.html").write_text("mine\n")
    (out / "solo-a4.pdf").write_text("mine\n")
    result = CliRunner().invoke(pnp_main, ["build", "--db", str(ROOT / "cards.toml"), "--out", str(out), "--paper", "a4"])
    assert result.exit_code == 1 and "index.html: this file (and 1 more: solo-a4.pdf)" in result.output, result.output
    assert (out / "index.html").read_text() == "mine\n" and (out / "solo-a4.pdf").read_text() == "mine\n"
