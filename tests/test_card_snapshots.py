"""Snapshot of one card of every kind, each stored as its own reviewable ``.svg`` file.

The SVG is what a designer sees; a change to a layout, a template or the engine that alters any of
these cards fails here until the snapshots are regenerated (``pytest --snapshot-update``) and looked at.
"""
from __future__ import annotations

import pytest
from syrupy.extensions.single_file import SingleFileSnapshotExtension, WriteMode

from pnp.layout import render
from pnp.svg import to_svg


class SVGSnapshot(SingleFileSnapshotExtension):
    """Stores a snapshot as ``<test name>.svg`` text."""

    file_extension = "svg"
    _file_extension = "svg"  # the attribute's name in syrupy before 5
    _write_mode = WriteMode.TEXT


@pytest.fixture
def snapshot_svg(snapshot):
    return snapshot.use_extension(SVGSnapshot)


ONE_PER_KIND = [
    "solo.back.quest",
    "solo.stats.character",
    "solo.path.flint",
    "solo.progress.track.card-1",
    "solo.card.battle-win",
    "solo.servant.ghast-1",
    "solo.map.key-1.card-3",
    "solo.quest.randven",
    "solo.quest.wardenkeep",
    "solo.quest.elder-san",
    "solo.quest.dalnish",
    "solo.last-stand.card",
    "solo.last-stand.flint-counters",
    "duel.location.stonewatch",
    "duel.player.wardens",
    "duel.card.nomograph",
    "duel.summary.rules",
]


@pytest.fixture(scope="module")
def faces(db):
    rendered = render(db)
    found = {face.id: face for face in rendered.fronts}
    found.update(rendered.backs)
    return found


def test_every_kind_is_covered(db, faces):
    kinds = {faces[face_id].record.kind for face_id in ONE_PER_KIND}
    printed = {r.kind for r in db.records() if r.printed}
    assert kinds == printed


@pytest.mark.parametrize("face_id", ONE_PER_KIND)
def test_card_svg(face_id, faces, snapshot_svg):
    assert to_svg(faces[face_id].drawing) == snapshot_svg
