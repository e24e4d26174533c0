"""The errors of the referees, one tree for both games (as :mod:`pnp.database` has ``DatabaseError``).

This module owns the roots only; each error is raised where its problem is found:

- :class:`RefereeError` (a ``ValueError``): every problem the referee reports to a player in one line
  (``str(error)``); a front end that catches it changes nothing and prints that line.
- :class:`ParseError`: input that does not describe an event at all (python-chess's *invalid* move): an
  event table of a save file that names no event or holds a wrong value
  (:class:`referee.events.EventError`), dice off the die or not the seed's
  (:class:`referee.dice.DiceError`), a duel assignment text that reads as none.
- :class:`RuleError`: a well-formed event the rules refuse now (python-chess's *illegal* move). Each
  game's rules raise their own subclass (:class:`referee.solo.rules.RuleError`,
  :class:`referee.duel.rules.RuleError`, which carries the refusal's kind, side and field), and each
  game's ``refusal_text`` turns it into the line a player reads.
- :class:`referee.save.SaveError`: a save file that cannot be read or written (a subclass of
  :class:`RefereeError` defined beside the file format).
"""
from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

import tomli_w

from pnp.oneline import shortened
from referee.glyphs import ELLIPSIS


class RefereeError(ValueError):
    """Anything the referee refuses or cannot read: ``str(error)`` is one line for the player."""


_SPANS = re.compile(r"`[^`]*`"  # the referee's own words and examples: kept as they are
                    r"|\"[^\"]*\""  # an echo in double quotes (Python's repr of text holding a single quote)
                    r"|(?<!\w)'[^']*'(?!\w)"  # an echo in single quotes (``card's`` is no quote)
                    r"|Got unexpected extra arguments? \([^)]*\)")  # click's echo of extra words


def undisclosed(message: str, typed: str = "", left_out: str = ELLIPSIS) -> str:
    """A refusal of hidden input (a duel placing) as the shared screen may show it: what was typed left out,
    and the rest the same whatever numbers were typed (ruling 77).

    Read from left to right: a back-quoted span (`` `battle 3,5 cast 4` ``) is the referee's own words and is
    kept as it is; a quoted echo (``'56'``, ``"'a' 3"``, click's ``Got unexpected extra arguments (4 3)``)
    becomes ``(what you typed)``, except an option's name (``'--player'``) and, with ``typed``, a quoted
    text holding no digit and not found in ``typed`` (the choices click lists). With ``typed`` (the hidden
    text, non-empty), every word holding a digit outside back quotes becomes ``…`` whether it was typed or
    not: a refusal the referee writes with a number of its own puts that number in back quotes. ``left_out`` stands for
    such a word: ``…``, or ``...`` for output that cannot write it (:func:`referee.glyphs.glyph`).
    Twenty-sixth breaker: only the typed number-words were blanked, in the referee's example too, so the
    blanks showed which numbers had been typed."""
    def hide(span: re.Match) -> str:
        text = span.group(0)
        if text.startswith("`"):
            return text
        if text.startswith("Got unexpected"):
            return text[:text.index("(")] + "(what you typed)"
        inner = text[1:-1]
        if re.fullmatch(r"--[a-z][a-z-]*", inner):
            return text  # an option's name
        if typed and not re.search(r"\d", inner) and inner.strip().lower() not in typed.lower():
            return text  # words of the referee's own (the choices of a click option)
        return "(what you typed)"

    shown, at = [], 0
    for span in _SPANS.finditer(message):
        shown += [_numbers_left_out(message[at:span.start()], typed, left_out), hide(span)]
        at = span.end()
    shown.append(_numbers_left_out(message[at:], typed, left_out))
    return "".join(shown)  # its own numbers still marked: the line is unmarked where it is shown (pnp.oneline.numbers_unmarked)


_OWN_NUMBERS = re.compile(r"ruling \d+|\bR\d{1,3}\b|\bUTF-(?:8|16|32)\b|\bU\+[0-9A-F]{4,6}\b|\b0x[0-9A-F]{2}\b"
                          r"|\\u[0-9a-f]{4}|\\U[0-9a-f]{8}|\\x[0-9a-f]{2}")
"""The words with digits a refusal writes of its own, never a die typed: a rule's number (``R78``, ``ruling 82``), an
encoding (``UTF-8``), a character's code (``U+200B``), a byte (``0xEB``) and a character written as its code where the
output cannot write it (``\\u0141ukasz``, :func:`pnp.oneline.as_written_in`)."""


def _numbers_left_out(text: str, typed: str, left_out: str) -> str:
    """``text`` (outside quotes and back quotes) with every word holding a digit as ``left_out`` when ``typed``; a
    run of them (``3,5 6``) is one ``left_out``, so that how many numbers were typed does not show either. The digits
    of :data:`_OWN_NUMBERS` are the referee's words and stay (forty-second referee breaker, LOW 6: "(R78)" was shown as
    "(…)"; forty-sixth, KIND 4: a name refused at a hidden prompt lost "UTF-8", its byte and its character's code)."""
    if not typed:
        return text
    mark = re.escape(left_out)

    def hide(found: re.Match) -> str:
        word = found.group(0)
        return word if not re.search(r"\d", _OWN_NUMBERS.sub("", word)) else left_out

    blanked = re.sub(r"\bruling \d+\b|[^\s,;:()\[\]\"'`]*\d[^\s,;:()\[\]\"'`]*", hide, text)
    return re.sub(rf"{mark}(?:[\s,]*{mark})+", lambda _: left_out, blanked)


class ParseError(RefereeError):
    """Input that does not describe an event: a bad table, value, text or die (*invalid*, not *illegal*)."""


class RuleError(RefereeError):
    """A well-formed event the rules do not allow now (*illegal*); each game raises its own subclass."""


def meant(typed: str, names: Mapping[str, str]) -> list[str]:
    """What a mistyped name most likely means: the names (``names``' values, as printed) whose spellings (``names``' keys,
    in the one spelling of a name typed: lower case, words joined by ``-``) are nearest ``typed`` in that spelling, the
    one nearest, or none where none is near or several are as near (``ghast-9``) (``ghost-2`` ->
    ``["ghast-2"]``, ``ymp3`` -> ``["ymp-3"]``, ``galehallow`` -> ``["Galehollow"]``). The one did-you-mean of every name a
    player types, in both games (forty-seventh referee breaker, KIND 4: `ghost-2` for `ghast-2` named no card)."""
    import difflib

    wanted = re.sub(r"[^a-z0-9]+", "-", typed.lower().replace("'", "")).strip("-")
    if not wanted or wanted in names:
        return []
    hyphened = re.sub(r"^([a-z]+)(\d+)$", r"\1-\2", wanted)  # a name and its number typed without the hyphen (`ymp3`)
    if hyphened != wanted and hyphened in names:
        return [names[hyphened]]
    scores: dict[str, float] = {}
    for spelling, shown in names.items():
        score = difflib.SequenceMatcher(None, wanted, spelling).ratio()
        if score >= _NEAR and score > scores.get(shown, 0.0):
            scores[shown] = score
    if not scores:
        return []
    best = max(scores.values())
    nearest = [shown for shown, score in scores.items() if score == best]
    return nearest if len(nearest) == 1 else []  # as near to several (`ghast-9`): the list that follows names them


_NEAR = 0.75
"""How near a spelling must be to a name's for :func:`meant` to name it (``sheild`` and ``shield`` are 0.83 near)."""


def did_you_mean(typed: str, names: Mapping[str, str]) -> str:
    """`` (did you mean ghast-2?)`` for what ``typed`` most likely means (:func:`meant`), or ``""``."""
    found = meant(typed, names)
    return f" (did you mean {found[0]}?)" if found else ""


def check_keys(table: dict[str, object], allowed: tuple[str, ...], where: str) -> None:
    """Raise :class:`ParseError` when ``table`` (a table read from a save file) holds a key not in
    ``allowed``: a hand-edited save (``mana = 999``) is refused in one line, never silently ignored.
    ``where`` names the table (``[setup]``)."""
    unknown = [key for key in table if key not in allowed]
    if unknown:
        from pnp.oneline import quoted

        raise ParseError(f"{where} has an unknown key {quoted(unknown[0], 40)}: it holds only {', '.join(allowed)}")


def as_written(value: object, limit: int = 20) -> str:
    """``value`` as a TOML file writes it (``true``, ``"4"``, ``[1]``), on one line (characters a terminal would act on
    escaped, :func:`pnp.oneline.shortened`) and cut to about ``limit`` characters (twenty-third breaker: a hand-edited
    ``format = true`` was echoed as Python's ``True``). A value is never cut inside its quotes or brackets: a string
    keeps both quotes (``"17CA350F234A7388..."``; thirty-second breaker, LOW 14: the closing quote was cut off), an
    array or a table its items that fit and its closing bracket (``[0, 1, 2, ...]``, ``{ ... }``)."""
    written = shortened(_inline(value), 10**9)
    if len(written) <= limit:
        return written
    if isinstance(value, str):
        keep = max(limit - 5, 1)
        while keep > 1 and len(shortened(_inline(value[:keep]), 10**9)) > limit - 3:  # escapes make a character longer
            keep -= 1
        return shortened(_inline(value[:keep]), 10**9)[:-1] + '..."'
    if isinstance(value, (list, tuple, dict)):
        opening, closing = ("{ ", " }") if isinstance(value, dict) else ("[", "]")
        items = ([f"{shortened(_key(key), limit)} = {as_written(item, limit)}" for key, item in value.items()]
                 if isinstance(value, dict) else [as_written(item, limit) for item in value])
        kept: list[str] = []
        for item in items:
            if len(opening + ", ".join([*kept, item, "..."]) + closing) > limit:
                break
            kept.append(item)
        return opening + ", ".join([*kept, "..."]) + closing
    return shortened(written, limit)


def id_list_problem(key: str, written: Sequence[str], ids: Sequence[str], count: int, kind: str, holds: str) -> str | None:
    """What is wrong with a save file's list of ids at ``[setup] <key>`` (hand-edited), or ``None``: an id that is none of
    ``ids`` (said as written, with some that are), one written twice, or not ``count`` of them; ``kind`` names an id's
    record (``spell``, ``Location``), ``holds`` what a save holds there (``the two spells its game began with``).
    Thirty-second breaker: said in the words of `new` ("choose", "deal"), at no key and with no ids."""
    from pnp.oneline import listed

    unknown = next((item for item in written if item not in ids), None)
    if unknown is not None:
        return f"[setup] {key}: {as_written(unknown)} is no {kind} id; a save holds ids such as {listed(list(ids), most=2)}"
    twice = next((item for index, item in enumerate(written) if item in written[:index]), None)
    if twice is not None:
        return f"[setup] {key}: {twice} is written twice; a save holds {holds}, each once"
    if len(written) != count:
        return f"[setup] {key}: {len(written)} {kind}{'' if len(written) == 1 else 's'}; a save holds {holds}"
    return None


def toml_kind(value: object) -> str:
    """What ``value`` (as :mod:`tomllib` reads it) is, in TOML's words: ``string``, ``integer``, ``float``, ``boolean``,
    ``date-time``, ``date``, ``time``, ``array`` or ``table`` (thirty-second breaker: a hand-edited save was told "not
    int", "not dict", Python's names)."""
    import datetime

    kinds: tuple[tuple[type | tuple[type, ...], str], ...] = (
        (bool, "boolean"), (str, "string"), (int, "integer"), (float, "float"), (datetime.datetime, "date-time"),
        (datetime.date, "date"), (datetime.time, "time"), ((list, tuple), "array"), (dict, "table"))
    return next((name for kind, name in kinds if isinstance(value, kind)), type(value).__name__)


def _inline(value: object) -> str:
    """``value`` in TOML's inline form: a table as ``{ v = 4 }`` (twenty-fourth breaker: ``format = {v = 4}`` was
    echoed as ``4``), an array on one line."""
    if isinstance(value, dict):
        return "{ " + ", ".join(f"{_key(key)} = {_inline(item)}" for key, item in value.items()) + " }" if value else "{}"
    import datetime

    if isinstance(value, datetime.datetime):  # as TOML's examples write one (1979-05-27T07:32:00Z), not with a space
        return value.isoformat().replace("+00:00", "Z")
    try:
        written = " ".join(tomli_w.dumps({"v": value}).partition("=")[2].split())  # an array on one line
        return written.replace("[ ", "[").replace(", ]", "]").replace(",]", "]")
    except (TypeError, ValueError):
        return repr(value)


def _key(key: object) -> str:
    """A table's key as TOML writes it: bare (``v``) when it may be, else quoted (``"a b"``)."""
    return str(key) if re.fullmatch(r"[A-Za-z0-9_-]+", str(key)) else _inline(str(key))
