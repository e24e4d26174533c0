"""pnp works from any folder, as the referee does: the bundled database, templates, icons and fonts are
found from the installed package (issue 15, "Without system packages": "`pnp` works only in the
project folder; `referee` works anywhere").

A wheel carries ``cards.toml`` and ``templates/`` as package data of ``pnp._bundled``
(``pyproject.toml``); :mod:`pnp.resources` finds them there, or in the project folder of a source
checkout or an editable install.
"""
from __future__ import annotations

import os
import subprocess
import sys
import tomllib
from pathlib import Path

from click.testing import CliRunner

from pnp import layout, resources
from pnp.cli import main
from tests.conftest import ROOT

PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))


def pnp(*args: str, cwd: Path, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    """The installed ``pnp`` command (the script beside this Python, else ``python -m pnp``) run in ``cwd``."""
    script = Path(sys.executable).parent / "pnp"
    command = [str(script)] if script.is_file() else [sys.executable, "-m", "pnp"]
    environment = {key: value for key, value in os.environ.items() if key != resources.DB_ENV}
    return subprocess.run([*command, *args], cwd=cwd, env={**environment, **(env or {})}, capture_output=True, text=True, timeout=600)


def test_pnp_builds_and_checks_the_bundled_cards_from_another_folder(db, tmp_path):
    """Issue 15: `pnp build` outside the project folder said "no cards.toml in ...; run from the project
    folder". From a folder with no cards.toml it now reads the bundled database, and finds the templates,
    icons and fonts from the package, and builds every file the build in the project folder writes."""
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    checked = pnp("check", cwd=elsewhere)
    assert checked.returncode == 0, checked.stderr
    assert f"{resources.BUNDLED_DATABASE}: " in checked.stdout and "no problems" in checked.stdout
    built = pnp("build", "--out", str(tmp_path / "cards"), cwd=elsewhere)
    assert built.returncode == 0, built.stderr
    out = tmp_path / "cards"
    for name in ("solo-a4.pdf", "solo-letter.pdf", "duel-a4.pdf", "duel-letter.pdf", "index.html",
                 "fonts/EBGaramond12-Regular.ttf", "svg/solo.back.quest.svg"):
        assert (out / name).is_file(), name
    rendered = layout.render(db)  # the bundled cards.toml, read in the project folder
    assert sorted(path.stem for path in (out / "svg").glob("*.svg")) == sorted([face.id for face in rendered.fronts] + list(rendered.backs))
    assert list(elsewhere.iterdir()) == []  # nothing written in the current folder
    listed = pnp("list", cwd=elsewhere)
    assert listed.returncode == 0 and "solo.back.quest" in listed.stdout


def test_a_cards_toml_in_the_current_folder_and_lassadar_db_come_before_the_bundled_one(tmp_path, monkeypatch):
    """The referee's order, now pnp's too: --db, else $LASSADAR_DB, else ./cards.toml, else the bundled one."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv(resources.DB_ENV, raising=False)
    assert resources.default_database() == resources.BUNDLED_DATABASE
    (tmp_path / "cards.toml").write_text("", encoding="utf-8")
    assert resources.default_database() == Path("cards.toml")
    monkeypatch.setenv(resources.DB_ENV, str(tmp_path / "mine.toml"))
    assert resources.default_database() == tmp_path / "mine.toml"
    result = CliRunner().invoke(main, ["check"])
    assert result.exit_code == 1
    assert result.output.strip().splitlines() == [f"{tmp_path / 'mine.toml'}: no such file; check the $LASSADAR_DB path"]


def test_no_database_anywhere_says_where_it_looked_in_one_line(tmp_path, monkeypatch):
    """Issue 15: with no --db, no $LASSADAR_DB, no ./cards.toml and no bundled database (an install
    without its package data), pnp says in one line where it looked, and exits 1 having written nothing."""
    from referee.cli import main as referee_main

    missing = tmp_path / "site" / "cards.toml"
    monkeypatch.setattr(resources, "BUNDLED_DATABASE", missing)
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv(resources.DB_ENV, raising=False)
    for command in (["check"], ["build", "--out", str(tmp_path / "out")], ["list"]):
        result = CliRunner().invoke(main, command)
        assert result.exit_code == 1, command
        lines = result.output.strip().splitlines()
        assert lines == [f"no card database: looked at $LASSADAR_DB (not set), cards.toml in {tmp_path}, the bundled {missing}; "
                         f"pass --db PATH"], command
    assert sorted(path.name for path in tmp_path.iterdir()) == []
    result = CliRunner().invoke(referee_main, ["table", "battle-loss"])
    assert result.exit_code == 1 and "no card database: looked at $LASSADAR_DB (not set)" in result.output


def test_every_bundled_file_is_package_data_of_the_wheel():
    """Issue 15: an installed wheel must carry what pnp reads: cards.toml and every file of templates/
    (layouts, icons, fonts and their licences) match the package data of pnp._bundled, so a new
    template folder or font format cannot be left out of an install unnoticed."""
    setuptools = PYPROJECT["tool"]["setuptools"]
    assert setuptools["package-dir"]["pnp._bundled"] == "."
    patterns = setuptools["package-data"]["pnp._bundled"]
    carried = {path for pattern in patterns for path in ROOT.glob(pattern)}  # setuptools' globs: * stays in a folder
    bundled = [ROOT / "cards.toml", *(path for path in (ROOT / "templates").rglob("*") if path.is_file() and "__pycache__" not in path.parts)]
    assert [str(path.relative_to(ROOT)) for path in bundled if path not in carried] == []
    assert resources.TEMPLATE_DIR == ROOT / "templates" and resources.BUNDLED_DATABASE == ROOT / "cards.toml"  # a source checkout


def test_every_package_folder_is_listed_for_the_wheel():
    """pyproject.toml lists its packages (pnp._bundled needs a package-dir of its own, which rules out
    find): every folder of pnp/ and referee/ with an __init__.py must be listed, or a wheel lacks it."""
    folders = sorted(".".join(path.parent.relative_to(ROOT).parts) for top in ("pnp", "referee")
                     for path in (ROOT / top).rglob("__init__.py"))
    listed = PYPROJECT["tool"]["setuptools"]["packages"]
    assert sorted(name for name in listed if name != "pnp._bundled") == folders
