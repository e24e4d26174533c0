"""Shared fixtures: the bundled database, loaded once, the sheet geometry of its ``[print]`` settings,
and the seed texts."""
from __future__ import annotations

import dataclasses
import os
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from pnp import database
from pnp.build import sheet_layout, sheet_options
from pnp.sheets import Paper, SheetLayout, SheetOptions

ROOT = Path(__file__).resolve().parents[1]

QUICK_CASES = 1
"""In the modules of :data:`THOROUGH`, each parametrized test runs the first ``QUICK_CASES`` values of every parameter in
the quick suite; its other cases are marked ``slow`` (``pytest -m slow`` runs them; CI runs both)."""

THOROUGH = frozenset({"test_hostile_pnp.py"})
"""Test modules whose cases each run a whole ``pnp check`` or build of edited templates or fonts (about a second each):
one regression case per key, hundreds in all, more than the quick suite's three minutes hold."""

EXHAUSTIVE_FIXTURES = frozenset({"edited_templates"})
"""In the modules of :data:`THOROUGH`, a test that asks for one of these fixtures is a regression case of one template key
(a whole ``pnp check`` of the database with one template number or string edited, about 2 s each, 140 of them: 40 % of
the quick suite's time): all are marked ``slow``. The quick suite keeps the checks' own tests (tests/test_layout.py,
tests/test_safe_setting.py, tests/test_back_shift.py) and this module's other cases."""


@pytest.hookimpl(tryfirst=True)  # before `-m 'not slow'` deselects
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Mark ``slow`` every case of a parametrized test of a :data:`THOROUGH` module past its first :data:`QUICK_CASES`
    values of a parameter (by the values' index, so the choice does not depend on the order of collection), and every
    test there that asks for one of :data:`EXHAUSTIVE_FIXTURES`."""
    for item in items:
        if item.path.name in THOROUGH:
            callspec = getattr(item, "callspec", None)
            past_quick = callspec is not None and max(callspec.indices.values(), default=0) >= QUICK_CASES
            if past_quick or EXHAUSTIVE_FIXTURES & set(getattr(item, "fixturenames", ())):
                item.add_marker(pytest.mark.slow)
        if item.get_closest_marker("slow") is not None and item.get_closest_marker("timeout") is None:
            item.add_marker(pytest.mark.timeout(SLOW_TIMEOUT))


SLOW_TIMEOUT = 2400
"""Seconds a ``slow`` test may take before pytest-timeout fails it (the ini's ``timeout``, 300 s, holds the quick ones):
the longest, 500 hypothesis sequences of the duel or 200 whole games, take 2-7 minutes on a quiet 2-core machine and
passed 900 s under a loaded one; a hang still ends well within CI's limit."""
SEEDS = ROOT / "docs" / "seeds"
RULEBOOK = SEEDS / "001_14b82cefec9e9fa1.txt"
DESCRIPTION = SEEDS / "000_13dfdf9d0b0f4cfb.txt"


@pytest.fixture(autouse=True, scope="session")
def _own_data_folder(tmp_path_factory) -> None:
    """The tests' own user data folder (platformdirs reads ``$XDG_DATA_HOME``): the saves, keys and kept
    databases the referee writes there never land in the data folder of whoever runs the tests."""
    os.environ["XDG_DATA_HOME"] = str(tmp_path_factory.mktemp("data"))


@cache
def bundled() -> database.Database:
    """The bundled ``cards.toml``, loaded and validated once per process."""
    return database.load(ROOT / "cards.toml")


@pytest.fixture(scope="session")
def db() -> database.Database:
    """The bundled ``cards.toml``, loaded and validated."""
    return bundled()


def bundled_layout(paper: Paper, **print_changes: Any) -> SheetLayout:
    """The sheet grid on ``paper`` for the bundled ``[print]`` settings, as a build imposes it
    (:func:`pnp.build.sheet_layout`). ``print_changes`` replace ``[print]`` keys (``card_width_mm=70.0``,
    ``printer_margin_mm=3.0``, ``duplex="short"``), only for tests of a geometry other than the database's."""
    settings = bundled().print
    return sheet_layout(dataclasses.replace(settings, **print_changes) if print_changes else settings, paper)


def bundled_options(**changes: Any) -> SheetOptions:
    """The sheet options a plain build takes from the bundled ``[print]`` settings
    (:func:`pnp.build.sheet_options`); ``changes`` replace fields (``duplex``, ``back_offset``, ``cut_lines``)."""
    return dataclasses.replace(sheet_options(bundled().print), **changes)


@pytest.fixture(scope="session")
def rulebook() -> str:
    """The solo rulebook seed text."""
    return RULEBOOK.read_text(encoding="utf-8")


@pytest.fixture(scope="session")
def description() -> str:
    """The two-player publisher's description seed text."""
    return DESCRIPTION.read_text(encoding="utf-8")


@pytest.fixture(scope="session")
def screens_output(db, tmp_path_factory) -> Path:
    """One build with the print-shop and screen outputs on (CMYK ink-saver sheets, PNG deck images),
    shared by test_gallery, test_inks and test_png."""
    from pnp.build import BuildOptions, build

    out = tmp_path_factory.mktemp("screens") / "output"
    build(db, out, BuildOptions(color="cmyk", ink="saver", png=True))
    return out
