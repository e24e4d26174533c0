"""The layouts kept checked (pnp.check_cache, issue 14): a build of unchanged files neither lays out nor checks them
again, any change to what the check reads checks again, and only the ``pnp`` command keeps layouts."""
from __future__ import annotations

import dataclasses
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner

from pnp import check_cache, cli
from pnp.cli import main as pnp_main

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture
def own_cache(tmp_path, monkeypatch) -> Iterator[Path]:
    """A cache folder of the test's own (``$XDG_CACHE_HOME``), layouts kept and read as by the ``pnp`` command (the
    icons' PDF forms a kept layout gave are forgotten after the test)."""
    from pnp import pdf

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.setattr(check_cache, "ENABLED", True)
    yield tmp_path / "cache"
    pdf.keep_forms({})


def test_the_digest_changes_with_the_print_settings_and_the_templates(db, tmp_path, monkeypatch):
    from pnp.layout import template

    shipped = check_cache.inputs_digest(db)
    assert shipped is not None and shipped == check_cache.inputs_digest(db)
    assert check_cache.inputs_digest(dataclasses.replace(db, print=dataclasses.replace(db.print, bleed_mm=2.0))) != shipped
    folder = tmp_path / "templates"
    shutil.copytree(template.TEMPLATE_DIR, folder)
    monkeypatch.setattr(template, "TEMPLATE_DIR", folder)
    copied = check_cache.inputs_digest(db)
    assert copied not in (None, shipped)  # another folder
    (folder / "back.toml").write_text((folder / "back.toml").read_text(encoding="utf-8") + "\n", encoding="utf-8")
    assert check_cache.inputs_digest(db) not in (None, copied)
    (folder / "fonts" / "EBGaramond12-Regular.ttf").write_bytes(b"")
    assert check_cache.inputs_digest(db) not in (None, copied)


def test_a_layout_is_read_only_as_kept_and_only_by_the_pnp_command(db, own_cache, monkeypatch):
    from pnp.layout import render

    inputs = check_cache.inputs_digest(db)
    assert check_cache.kept_layout(inputs) is None
    check_cache.keep_layout(inputs, render(db))
    assert check_cache.kept_layout(inputs) == render(db)
    assert check_cache.kept_layout("0" * 64) is None and check_cache.kept_layout(None) is None
    entries = list((own_cache / "lassadar" / "checked-layouts").glob("*.pickle"))
    assert [entry.stem for entry in entries] == [inputs]
    entries[0].write_bytes(b"x" * 32 + entries[0].read_bytes()[32:])  # not signed with this user's key: never unpickled
    assert check_cache.kept_layout(inputs) is None
    check_cache.keep_layout(inputs, render(db))
    monkeypatch.setattr(check_cache, "ENABLED", False)
    assert check_cache.kept_layout(inputs) is None


def test_a_second_build_of_the_same_files_lays_out_and_checks_nothing_and_writes_the_same(own_cache, tmp_path, monkeypatch):
    import svglib.svglib
    from reportlab.graphics import renderPDF

    from pnp import icon_files, layout, pdf

    database = str(ROOT / "cards.toml")
    first, second = tmp_path / "first", tmp_path / "second"
    checked = []
    check = cli._fit_problems

    def counted(*arguments, **keywords):
        checked.append(1)
        return check(*arguments, **keywords)

    monkeypatch.setattr(cli, "_fit_problems", counted)
    monkeypatch.setattr(layout, "_CACHE", {})
    run = CliRunner().invoke
    both = ["--paper", "a4", "--color", "cmyk"]  # (RGB and CMYK sheets: the icons' forms kept in both colour models)
    assert run(pnp_main, ["build", "--db", database, "--out", str(first), *both]).exit_code == 0
    layout._CACHE.clear()  # (as in a new process)
    icon_files.icon_drawing.cache_clear()
    pdf._icon_drawing.cache_clear()
    with monkeypatch.context() as patched:
        patched.setattr(layout, "_front_faces", lambda *arguments: pytest.fail("laid out again"))
        patched.setattr(svglib.svglib, "svg2rlg", lambda *arguments: pytest.fail("an icon read again"))
        patched.setattr(renderPDF, "draw", lambda *arguments: pytest.fail("an icon painted again"))
        assert run(pnp_main, ["build", "--db", database, "--out", str(second), *both]).exit_code == 0
    assert len(checked) == 1
    named = {Path(path).stem for path, _ in pdf.KEPT_FORMS}  # every icon the cards name, in both colour models
    assert len(named) > 10 and set(pdf.KEPT_FORMS) == {(str(pdf.ICON_DIR / f"{name}.svg"), model)
                                                       for name in named for model in ("rgb", "cmyk")}
    for path in sorted(first.rglob("*")):
        if path.is_file() and not path.name.startswith("."):
            assert path.read_bytes() == (second / path.relative_to(first)).read_bytes(), path
    assert run(pnp_main, ["build", "--db", database, "--out", str(second), "--paper", "letter"]).exit_code == 0
    assert len(checked) == 2  # other print settings: checked again


def test_the_committed_templates_read_in_one_batch_are_what_git_show_gives(tmp_path):
    """The check reads the shipped templates (``git show HEAD:``) by one ``git cat-file --batch`` for the whole folder
    (pnp.layout.template._committed_templates): each file as git shows it alone, None for a file never committed, nothing
    outside a repository."""
    import subprocess

    from pnp.layout import template

    if subprocess.run(["git", "-C", str(template.TEMPLATE_DIR), "rev-parse", "HEAD"], capture_output=True).returncode:
        pytest.skip("the templates are in no git checkout")
    committed = template._committed_templates(template.TEMPLATE_DIR)
    assert set(committed) == {path.name for path in template.TEMPLATE_DIR.glob("*.toml")}
    for path in sorted(template.TEMPLATE_DIR.glob("*.toml")):
        shown = subprocess.run(["git", "-C", str(path.parent), "show", f"HEAD:./{path.name}"], capture_output=True)
        assert committed[path.name] == (shown.stdout if shown.returncode == 0 else None), path.name
    (tmp_path / "base.toml").write_text("x = 1\n", encoding="utf-8")
    assert not any(template._committed_templates(tmp_path).values())  # (no repository: nothing; in one: never committed)


def test_a_template_edited_while_it_is_checked_keeps_no_layout_for_the_files_as_they_were(own_cache, tmp_path, monkeypatch):
    """Fiftieth breaker, HIGH 1: the digest is read before the check, the templates by the check; an edit saved during
    the check, then undone, had the next build of the undone files take the edited layout unchecked. A check whose
    inputs changed under it keeps nothing, so the next build of the files as they are checks them."""
    from pnp import layout
    from pnp.layout import template

    folder = tmp_path / "templates"
    shutil.copytree(template.TEMPLATE_DIR, folder)
    monkeypatch.setattr(template, "TEMPLATE_DIR", folder)
    monkeypatch.setattr(layout, "_CACHE", {})
    base = folder / "base.toml"
    as_shipped = base.read_text(encoding="utf-8")
    checked = []
    check = cli._fit_problems

    def edited_meanwhile(*arguments, **keywords):
        checked.append(1)
        found = check(*arguments, **keywords)
        if len(checked) == 1:
            base.write_text(as_shipped + "\n# saved while the build ran\n", encoding="utf-8")
        return found

    monkeypatch.setattr(cli, "_fit_problems", edited_meanwhile)
    database, run = str(ROOT / "cards.toml"), CliRunner().invoke
    assert run(pnp_main, ["build", "--db", database, "--out", str(tmp_path / "a"), "--paper", "a4"]).exit_code == 0
    assert not list((own_cache / "lassadar" / "checked-layouts").glob("*.pickle"))
    base.write_text(as_shipped, encoding="utf-8")  # the edit undone
    layout._CACHE.clear()
    assert run(pnp_main, ["build", "--db", database, "--out", str(tmp_path / "b"), "--paper", "a4"]).exit_code == 0
    assert len(checked) == 2  # checked again, not taken from the first build


def test_an_icon_form_is_kept_only_when_it_names_no_resource_of_its_document(monkeypatch):
    """A kept icon form is stored as it is into another document (pnp.pdf.KEPT_FORMS): its operators must name no font,
    image or transparency, which each document numbers on its own; such a form is painted by each document instead."""
    from pnp import pdf

    rgb, cmyk = pdf.icon_form("mana", "rgb"), pdf.icon_form("mana", "cmyk")
    assert rgb is not None and cmyk is not None and (rgb.width, rgb.height) == (cmyk.width, cmyk.height) == (75, 75)  # (pt: 100 px)
    assert " rg" in rgb.content and " k" not in rgb.content and " k" in cmyk.content  # each in its colour model
    monkeypatch.setattr(pdf, "_paint_form", lambda *arguments: "q /gRLs0 gs 0 0 m 1 1 l S Q")
    assert pdf.icon_form("mana", "rgb") is None
