"""Shared fixtures: the bundled database, loaded once, and the seed texts."""
from __future__ import annotations

from pathlib import Path

import pytest

from pnp import database

ROOT = Path(__file__).resolve().parents[1]
SEEDS = ROOT / "docs" / "seeds"
RULEBOOK = SEEDS / "001_14b82cefec9e9fa1.txt"
DESCRIPTION = SEEDS / "000_13dfdf9d0b0f4cfb.txt"


@pytest.fixture(scope="session")
def db() -> database.Database:
    """The bundled ``cards.toml``, loaded and validated."""
    return database.load(ROOT / "cards.toml")


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
    shared by test_gallery, test_inks and test_png (PNG images only where pdftoppm is installed)."""
    import shutil

    from pnp.build import BuildOptions, build

    out = tmp_path_factory.mktemp("screens") / "output"
    build(db, out, BuildOptions(color="cmyk", ink="saver", png=shutil.which("pdftoppm") is not None))
    return out
