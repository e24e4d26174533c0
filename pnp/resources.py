"""Where the bundled files are, wherever a command runs: the card database and ``templates/``.

The project keeps them at its top level, beside the packages: ``cards.toml`` (the bundled card
database) and ``templates/`` (the layouts ``<kind>.toml``, ``icons/`` and ``fonts/``). Two ways of
installing put them in two places:

- run from the project folder, or installed editable (``pip install -e .``): the project folder
  itself, the parent of ``pnp/``;
- installed from a wheel (``pip install .``, ``pip install lassadar``): ``pnp/_bundled/`` inside the
  installed package, where ``pyproject.toml`` puts them as package data (``[tool.setuptools.package-dir]``
  maps the package ``pnp._bundled`` onto the project folder, and its package data names these files).

:data:`DATA_ROOT` is the first of those two that holds ``templates/``; every module reads the bundled
files through the paths below, so ``pnp`` and ``referee`` find them from any current folder.
"""
from __future__ import annotations

import os
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent
"""The installed ``pnp`` package."""

INSTALLED = PACKAGE / "_bundled"
"""Where a wheel puts the bundled files (package data of ``pnp._bundled``)."""

DATA_ROOT = INSTALLED if (INSTALLED / "templates").is_dir() else PACKAGE.parent
"""The folder that holds ``cards.toml`` and ``templates/``: :data:`INSTALLED` in a wheel, else the
project folder (a source checkout or an editable install)."""

TEMPLATE_DIR = DATA_ROOT / "templates"
"""The card layouts, ``<kind>.toml``."""

ICON_DIR = TEMPLATE_DIR / "icons"
"""The icons a card may name, ``<name>.svg``."""

FONT_DIR = TEMPLATE_DIR / "fonts"
"""The bundled OFL TTF files and their licences."""

BUNDLED_DATABASE = DATA_ROOT / "cards.toml"
"""The card database bundled with the project (both games' cards, rules tables and print settings)."""

DB_ENV = "LASSADAR_DB"
"""The environment variable naming the card database when no ``--db`` is given."""

LOCAL_DATABASE = Path("cards.toml")
"""The card database of the current folder, read before the bundled one (a designer's own edit)."""


def default_database() -> Path:
    """The card database to read when no ``--db`` is given: ``$LASSADAR_DB`` when set, else
    ``./cards.toml`` when the current folder has one (a folder or a broken link of that name included: reading it
    says what it is), else :data:`BUNDLED_DATABASE` (whether or not it
    exists: reading a missing one is the caller's error to say, with :func:`where_looked`). The order
    is the referee's (``referee --db`` help), shared by ``pnp`` and ``referee``."""
    env = os.environ.get(DB_ENV)
    if env:
        return Path(env)
    if os.path.lexists(LOCAL_DATABASE):  # a folder or a broken link of that name too: said, never passed over for the
        return LOCAL_DATABASE  # bundled cards (forty-first referee breaker, LOW 2)
    return BUNDLED_DATABASE


def database_source(given: bool) -> str:
    """Where the database path read came from, as :data:`pnp.database.loader.FILE_REMEDIES` keys it: ``--db`` when
    ``given`` on the command line, ``$LASSADAR_DB`` when the variable is set, else ``default`` (``./cards.toml`` or the
    bundled one, as :func:`default_database` finds them)."""
    if given:
        return "--db"
    return f"${DB_ENV}" if os.environ.get(DB_ENV) else "default"


def where_looked() -> str:
    """The places :func:`default_database` looked, in words, for a one-line error when none holds a
    database: ``$LASSADAR_DB`` (unset or its value), ``./cards.toml`` in the current folder, the bundled path."""
    env = os.environ.get(DB_ENV)
    first = f"${DB_ENV} ({env})" if env else f"${DB_ENV} (not set)"
    return f"{first}, {LOCAL_DATABASE} in {Path.cwd()}, the bundled {BUNDLED_DATABASE}"
