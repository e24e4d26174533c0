"""What can be wrong with the printed cards: :class:`FitProblem`, one per text, face or setting.

The layouts (:mod:`pnp.layout.common`, :mod:`pnp.layout.solo`, :mod:`pnp.layout.duel`) and the
safe-area check (:mod:`pnp.layout.safe`) record them; :func:`pnp.layout.check_fit` collects them;
``pnp check`` and ``pnp build`` print each as one line naming the line of ``cards.toml`` to change
(shared/DESIGN.md, "Print-and-play": text is fitted, not clipped, and what does not fit is named).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

FitKind = Literal["text over", "spaces over", "too many", "unknown icon", "missing glyph", "safe area", "card size", "template", "contrast"]
"""What is wrong: a text over its box at the box's minimum size (``"text over"``), a board track with more
spaces than it holds (``"spaces over"``), a number the card has no room for (``"too many"``: 12 hit
points where a row holds 4; only as many are drawn), an icon token that names no icon, a character no bundled font
has (``"missing glyph"``), text or icons of a face outside the safe area, a ``[print]`` card size the
templates are not laid out for, a broken template, a record's colour that leaves a text too little contrast
(``"contrast"``, :mod:`pnp.layout.legible`)."""


@dataclass(frozen=True)
class FitProblem:
    """One problem of the printed cards.

    ``record_id`` is the record holding what does not fit (a table row's text on a table card names the
    table, a spell's name on a path card names the spell), ``"print"`` for the card size setting,
    ``"templates"`` for a broken template. ``field`` is its key in the record (``"text"``,
    ``"rows[5].text"``; ``"safe area"`` for a whole face; the setting for ``"print"``; the template's
    dotted key for ``"templates"``, ``boxes.name.x``). ``kind`` says what is wrong (:data:`FitKind`), ``message`` says it in words.
    ``over`` is how far over: mm for ``"text over"``, spaces for ``"spaces over"``, the ``line_spacing`` (em) its lines
    need for a ``boxes.<name>.line_spacing`` whose lines print over each other, the mm a ring's key must take back for a
    ring (:func:`pnp.layout.common.ring_fix`) too big, 0 otherwise.
    ``box`` is the template box the text is set in, when there is one. A ``"template"`` problem names
    the template file (``path``) and the 1-based ``line`` of its ``field`` there. ``template`` is the template file whose
    ``box`` a ``"text over"`` text is set in, for the advice to name beside shortening the text (forty-eighth pnp breaker,
    MED 5: a box made smaller in a copy of the project without git was "shorten the text" alone, at cards.toml).

    ``str(problem)`` is ``"<record id>: <field>: <message>"``.
    """

    record_id: str
    field: str
    kind: FitKind
    message: str
    over: float = 0.0
    box: str = ""
    path: str = ""
    line: int = 0
    stopped_reading: bool = False
    template: str = ""
    """A broken template's problem that stopped the reading of its file: the file's later problems show once it is
    mended (``pnp check`` says more may follow)."""

    def __str__(self) -> str:
        return f"{self.record_id}: {self.field}: {self.message}"

    @property
    def key(self) -> str:
        """The key of the record whose line ``cards.toml`` reports: ``field`` up to its first space
        (``"hit points"`` is looked up as ``hit``, ``"space 3"`` as ``space``)."""
        return self.field.split(" ")[0]
