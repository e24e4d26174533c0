"""Texts that no longer fit because a template was edited: said at the template's key, not at the card texts.

A designer who makes a text box smaller (``h`` of ``[boxes.event]`` in ``templates/quest.toml``) or moves the parts
of a card closer (the summary's ``gap``) makes card texts overflow that fitted before. The layouts report each text
over its box at the record that holds it (``cards.toml``, "shorten the text"), which blames texts no one edited
(thirtieth breaker, finding 7). :func:`texts_over_by_template_edits` lays the cards out once more with the shipped
templates (:func:`shipped_templates`): a text over its box now that fitted with the shipped templates is said once at
the template key that changed, with the shipped value; a text that is over with the shipped templates too stays at
its record, since the text itself is too long.
"""
from __future__ import annotations

import contextlib
import shutil
import tempfile
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

from pnp.layout.problems import FitProblem
from pnp.layout.template import changed_keys, shipped_bytes, template_chain, template_line
from pnp.oneline import listed, template_value
from pnp.units import excess_mm


@contextlib.contextmanager
def shipped_templates(folder: Path) -> Iterator[Path | None]:
    """A temporary folder holding every ``*.toml`` template of ``folder`` as shipped (the bundled file of that name,
    or the file's last committed version: :func:`pnp.layout.template.changed_keys`), a file of the designer's own as
    it is; ``None`` when every template of ``folder`` is as shipped or none's shipped version is known. The folder
    and its files are removed on leaving. Raises ``OSError`` only when the temporary folder cannot be written."""
    files = sorted(folder.glob("*.toml"))
    shipped = {path.name: shipped_bytes(path) for path in files}
    if not any(content is not None and changed_keys(path) for path, content in zip(files, shipped.values())):
        yield None
        return
    made = Path(tempfile.mkdtemp(prefix="pnp-shipped-templates-"))
    try:
        for path in files:
            content = shipped[path.name]
            (made / path.name).write_bytes(content if content is not None else path.read_bytes())
        yield made
    finally:
        shutil.rmtree(made, ignore_errors=True)


def _suspects(templates: Sequence[Path], box: str) -> list[tuple[Path, str, Any, Any]]:
    """The changed keys (:func:`changed_keys`) of the templates ``templates`` and those they extend that may have
    made a text of ``[boxes.<box>]`` overflow, as ``(file, key, value, shipped value)``: the box's own fields when
    any changed, else the ``[numbers]`` that changed (a layout places some boxes from them), else every change."""
    changes: list[tuple[Path, str, Any, Any]] = []
    seen: set[tuple[Path, str]] = set()
    for face_template in templates:
        for path in template_chain(face_template):
            for key, value, shipped in changed_keys(path):
                if (path, key) not in seen:
                    seen.add((path, key))
                    changes.append((path, key, value, shipped))
    for wanted in (lambda key: key.startswith(f"boxes.{box}."), lambda key: key.startswith("numbers.")):
        chosen = [change for change in changes if wanted(change[1])]
        if chosen:
            return chosen
    return changes


OVER_KINDS = ("text over", "too many", "spaces over")
"""The kinds of problem (:data:`pnp.layout.problems.FitKind`) a card record has when it holds more than its template
gives room for: a text over its box, more parts than a card holds (the summary's sections), a track over its spaces."""


def texts_over_by_template_edits(problems: list[FitProblem], faces: Sequence[Any],
                                 shipped_problems: Callable[[], Sequence[FitProblem] | None]) -> list[FitProblem]:
    """``problems`` with each problem of a card record holding more than it has room for (:data:`OVER_KINDS`) that
    does not happen with the shipped templates replaced by one ``"template"`` problem at the template key whose edit
    made it: the box's changed field (``h``, ``size``, ``w``, ...) of the template the face was laid out with or one
    it extends, else its changed ``[numbers]`` key (``gap``), with the value written and the shipped one, and the
    records it spoils (how many, the first, the worst).

    ``faces`` are the laid-out faces (each with ``record``, ``template``, its template file, and ``overflowed``, its
    boxes with a text over); ``shipped_problems`` lays the database out with the shipped templates and returns its
    problems (``None`` when unknown: nothing is moved). It is called only when a record holds more than it has room
    for and a template it was laid out with was edited. A problem the shipped templates have too stays at its
    record: the text itself is too long. Raises nothing."""
    over = [problem for problem in problems if problem.kind in OVER_KINDS and problem.record_id != "templates"]
    if not over:
        return problems
    templates_of: dict[str, list[Path]] = {}  # a record id or a box's name -> the templates of the faces that hold it
    for face in faces:
        if face.template is not None:
            for holder in (face.record.id, *(f"[boxes.{box}]" for box in face.overflowed)):
                if face.template not in templates_of.setdefault(holder, []):
                    templates_of[holder].append(face.template)
    blamed: dict[FitProblem, list[tuple[Path, str, Any, Any]]] = {}
    for problem in over:
        laid_out_with = templates_of.get(problem.record_id, []) + templates_of.get(f"[boxes.{problem.box}]", [])
        suspects = _suspects(laid_out_with, problem.box)
        if suspects:
            blamed[problem] = suspects
    if not blamed:
        return problems
    shipped = shipped_problems()
    if shipped is None:
        return problems
    still_over = {(problem.record_id, problem.field, problem.kind) for problem in shipped}
    moved = {problem: suspects for problem, suspects in blamed.items()
             if (problem.record_id, problem.field, problem.kind) not in still_over}
    by_key: dict[tuple[Path, str], tuple[Any, Any, list[FitProblem]]] = {}
    for problem, suspects in moved.items():
        for path, key, value, before in suspects:
            by_key.setdefault((path, key), (value, before, []))[2].append(problem)
    said: list[FitProblem] = []
    for (path, key), (value, before, spoilt) in by_key.items():
        worst = max(spoilt, key=lambda problem: problem.over)
        names = listed([f"{problem.record_id}.{problem.field}" for problem in spoilt], most=2)
        texts = all(problem.kind == "text over" for problem in spoilt)
        things = ("card text" if texts else "card record") + ("" if len(spoilt) == 1 else "s")
        count = "a" if len(spoilt) == 1 else str(len(spoilt))
        how = (f"the worst over [boxes.{worst.box}] by {excess_mm(worst.over)}" if worst.kind == "text over"
               else f"the worst: {worst.message.split('; ')[0]}")
        name = key.rsplit(".", 1)[-1]
        file, line = template_line(path, key)
        said.append(FitProblem(
            "templates", key, "template",
            f"{count} {things} that fit{'s' if len(spoilt) == 1 else ''} with the shipped templates no longer "
            f"fit{'s' if len(spoilt) == 1 else ''} ({names}; {how}), since {name} is {template_value(value)} (the shipped "
            f"templates have {template_value(before)}): change it back toward that",
            over=worst.over, box=worst.box, path=str(file), line=line))
    first = next((index for index, problem in enumerate(problems) if problem in moved), len(problems))
    kept = [problem for problem in problems if problem not in moved]
    return kept[:first] + said + kept[first:]
