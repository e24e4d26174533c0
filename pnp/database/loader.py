"""Checking ``cards.toml``: :func:`pnp.database.loaded.load` has a file read here, validated and cross-checked into
a :class:`~pnp.database.loaded.Database` when its cache does not hold it (re-exported here: ``loader.load``).

This module owns the reading (UTF-8, TOML syntax, ``format``), the validation of each section and
record on its own against :mod:`pnp.database.schema` (so one bad record does not hide the problems of
another) and the ids and where each record is written. The loaded database and the cache are
:mod:`pnp.database.loaded`, which imports this module only for a file it has not checked before. The checks
across records are :mod:`pnp.database.checks`; every problem is a :class:`~pnp.database.errors.Problem`
naming its line (:mod:`pnp.database.lines`), all raised at once in one :class:`DatabaseError`.
"""
from __future__ import annotations

import dataclasses
import difflib
import functools
import hashlib
import json
import math
import re
import tomllib
import types
import typing
import unicodedata
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Literal

from pnp.database import checks
from pnp.database.errors import DatabaseError, Problem
from pnp.database.lines import LineIndex
from pnp.database.loaded import (  # noqa: F401 - loader.load, loader.cached ... as before the split
    CACHE_KEPT,
    FILE_REMEDIES,
    MAX_FILE_BYTES,
    Database,
    cached,
    keep,
    load,
)
from pnp.database.schema import COLOUR_PATTERN, FORMAT, ID_PATTERN, CardsFile, Duel, Game, PrintSettings, Record, Solo
from pnp.deferred import dataclass
from pnp.oneline import as_toml, listed, quoted, shortened, toml_key, xml_char

if typing.TYPE_CHECKING:
    from pydantic_core import ErrorDetails

MAX_NESTING = 16
"""How deep arrays and tables may nest: ``cards.toml`` nests 5 deep at most; deeper input (``a = [[[[...``)
would exhaust the parser's recursion."""


# ---- Loading --------------------------------------------------------------------------------------------
@functools.cache
def _fields(model: type) -> dict[str, Any]:
    """The fields of the schema class ``model`` (a game's section), by name, with their types resolved."""
    hints = typing.get_type_hints(model)
    return {f.name: hints[f.name] for f in dataclasses.fields(model)}


def _checked(path: Path, name: str, raw: bytes) -> Database:
    """The database of the bytes ``raw`` of the file at ``path`` (shown as ``name``), checked; raises
    :class:`DatabaseError` (see :func:`load`)."""
    from pydantic import ValidationError  # only a file checked needs pydantic, never one read from the cache

    from pnp.database import constraints

    try:
        text = raw.decode("utf-8-sig")  # a byte-order mark (as some Windows editors write) is fine
    except UnicodeDecodeError as error:
        line = raw.count(b"\n", 0, error.start) + 1  # the line that holds the byte (an editor's Latin-1 save)
        raise DatabaseError([Problem(name, line, "file", f"not UTF-8 text ({error.reason} at byte {error.start}); "
                                                         f"save the file as UTF-8")]) from None
    try:
        data = loads_within_nesting(text)
    except NestedTooDeep as error:
        if error.data is None:  # too deep for the parser: no key to name
            raise DatabaseError([Problem(name, error.line, "syntax", f"arrays or tables nested too deeply; "
                                                                     f"nest at most {MAX_NESTING} deep")]) from None
        raise DatabaseError([Problem(name, error.line, _key_path(error.data, error.path),
                                     f"arrays or tables nested more than {MAX_NESTING} deep; cards.toml nests 5 deep "
                                     f"at most")]) from None
    except NumberTooLong as error:  # an integer of more than 4,300 digits (Python's limit on converting one)
        said = "a number of more than 4,300 digits, far beyond any range of this file; write a number that fits its key"
        if error.found and error.data is not None:  # each at its line and key (thirty-seventh pnp breaker, LOW 8)
            raise DatabaseError([Problem(name, line, _key_path(error.data, loc), said) for line, loc in error.found]) from None
        raise DatabaseError([Problem(name, error.line, "syntax", said)]) from None
    except tomllib.TOMLDecodeError as error:
        message = str(error)
        line = toml_error_line(error, text)
        message = re.sub(r"\s*\(at line \d+, column \d+\)", "", message)
        if message.startswith("Cannot overwrite a value"):  # sixteenth breaker: say which key, and what is wrong
            said = written_twice(text, line)
            odd = re.match(r"line (\d+) writes ", said)  # one header of its name written unlike the others: at its line
            raise DatabaseError([Problem(name, int(odd.group(1)) if odd else line, "syntax", said)]) from None
        table = table_written_twice(message)
        if table is not None:  # seventeenth breaker: tomllib's words with a Python tuple in them
            lines = text.split("\n")
            written_header = re.match(r"\s*(\[\[?[^\]]+\]\]?)", lines[line - 1] if 0 < line <= len(lines) else "")
            # forty-sixth pnp breaker, F10: `[solo.servant]` after the first [[solo.servant]] was told to merge two tables
            # that are one; said as the same slip on the first header of its kind is (write it [[solo.servant]])
            unlike = _odd_header(lines, written_header.group(1)) if written_header is not None else None
            if unlike is not None:
                odd_line = re.match(r"line (\d+) writes ", unlike)
                raise DatabaseError([Problem(name, int(odd_line.group(1)) if odd_line else line, "syntax", unlike)]) from None
            raise DatabaseError([Problem(name, line, "syntax", table)]) from None
        slip = toml_slip(text, line, message)
        if slip is not None:
            raise DatabaseError([Problem(name, slip[0], "syntax", slip[1])]) from None
        raise DatabaseError([Problem(name, line, "syntax", f"{message}; fix the TOML syntax")]) from None
    unusable = _unusable(data)  # every number too long at once, in line order (thirty-fifth breaker, LOW 16: one a check)
    if unusable:
        index = LineIndex(text)
        listed = sorted(unusable[:MAX_LISTED], key=lambda found: index.line_of(found[0]))
        raise DatabaseError([Problem(name, index.line_of(loc), _key_path(data, loc), message) for loc, message in listed],
                            max(0, len(unusable) - MAX_LISTED))
    unprintable = _unprintable(data)  # every one of them at once (twenty-second breaker: one a check)
    if unprintable:
        index = LineIndex(text)
        listed = sorted(unprintable[:MAX_LISTED], key=lambda found: index.line_of(found[0]))
        raise DatabaseError([Problem(name, index.line_of(loc), _key_path(data, loc), message) for loc, message in listed],
                            max(0, len(unprintable) - MAX_LISTED))

    index = LineIndex(text)
    problems: list[Problem] = []
    uncomposed = _composed(data)

    unlisted = [0]  # problems beyond MAX_LISTED: counted, not placed (placing each costs a scan of the file)

    def report(loc: tuple[Any, ...], message: str, line: int | None = None) -> None:
        """Record a problem at key path ``loc``, on ``line`` when given, else on the line that holds ``loc``;
        beyond :data:`MAX_LISTED` problems only count them."""
        if len(problems) >= MAX_LISTED:
            unlisted[0] += 1
            return
        problems.append(Problem(name, line or index.line_of(loc), _key_path(data, loc), message))

    def failure() -> DatabaseError:
        """The error listing the problems found and counting those not listed."""
        return DatabaseError(problems, unlisted[0])

    for loc, message in uncomposed:
        report(loc, message)
    if data.get("format") != FORMAT or isinstance(data.get("format"), bool):  # `format = true` is no 1
        if data.get("game") in ("solo", "duel") and ("events" in data or "seed" in data):  # twentieth breaker: --db given a save
            report(("format",), "this is a save file of the referee, not a card database (a cards.toml)")
            raise failure()
        found = ("no `format` line (is the file empty?)" if not data else "no `format` line: is this a card database (a cards.toml)?"
                 if "format" not in data else quoted(data.get("format")))
        report(("format",), f"format must be {FORMAT}, found {found}")
        raise failure()
    # Each section and each record is validated on its own, so one bad record does not hide the
    # problems of the others; cross checks then run over every record that is well formed.
    def validate(model: Any, value: Any, loc: tuple[Any, ...]) -> Any:
        """``value`` (the TOML data at key path ``loc``) validated by the type adapter ``model``, or ``None``
        after reporting each of its problems."""
        try:
            # JSON mode keeps strict types (no "1" for 1) while accepting TOML arrays for tuples.
            return model.validate_json(json.dumps(value, default=str))
        except ValidationError as error:
            items = error.errors()
            locs = [loc + tuple(part for part in item["loc"] if part != "[key]") for item in items]  # a dict's key: its own name
            said, headers = _under_headers(items, locs, loc, index)
            deeper_said, deeper = _deeper_headers(items, locs, index)
            said |= deeper_said
            for table, line, message in headers + deeper:
                report(table, message, line)
            misspelt = _misspellings(items, locs)
            said |= set(misspelt) | _written_with_prefix(items, locs, value)
            for number, (item, where) in enumerate(zip(items, locs, strict=True)):
                if item["type"] == "too_short" and any(o[: len(where)] == where and o != where for o in locs):
                    continue  # the list is short only because one of its items failed: report the item
                if number not in said:  # a problem beyond MAX_LISTED is only counted: its words are not worked out
                    explained = (_explain(item, where, index, _written_beside(value, item["loc"]))
                                 if len(problems) < MAX_LISTED else "")
                    if explained and number in misspelt.values():
                        meant = next(locs[missing][-1] for missing, typo in misspelt.items() if typo == number)
                        explained += f" ({meant} is required and not written under its own name)"
                    report(where, explained)
            return None

    sections: dict[str, Any] = {}
    for key in data:
        if key not in _fields(CardsFile):
            report((key,), f"unknown section; the file has {', '.join(sorted(_fields(CardsFile)))}")
    for key, adapter in (("print", constraints.adapter(PrintSettings)), ("games", constraints.adapter(dict[Literal["solo", "duel"], Game]))):
        if key not in data:
            report((key,), "missing; this section is required")
        else:
            sections[key] = validate(adapter, data[key], (key,))
    broken_ids: dict[str, tuple[Any, ...]] = {}  # the id of each record that failed its own validation, and where it is
    by_id: dict[str, Record] = {}
    locations: dict[str, tuple[Any, ...]] = {}
    for game_key, game_model in (("solo", Solo), ("duel", Duel)):
        raw_game = data.get(game_key)
        if not isinstance(raw_game, dict):
            report((game_key,), "missing; this section is required" if raw_game is None else f"must be a table of [{game_key}.*] blocks")
            continue
        fields: dict[str, Any] = {}
        for written, value in raw_game.items():
            kind = written
            if kind not in _fields(game_model):
                # twenty-sixth breaker: `[solo.rule]` was "unknown kind" and a second line, "missing", at line 1; a kind
                # misspelt is one line naming the kind meant, and its blocks are read as that kind (no knock-on lines)
                unwritten = [other for other in _fields(game_model) if other not in raw_game]
                meant = difflib.get_close_matches(kind, unwritten, 1, cutoff=0.7)
                if not meant:
                    report((game_key, kind), f"unknown kind; {game_key} has {', '.join(sorted(_fields(game_model)))}")
                    continue
                kind = meant[0]
                header = f"[{game_key}.{kind}]" if kind == "rules" else f"[[{game_key}.{kind}]]"
                report((game_key, written), f"unknown kind; did you mean {header}?")
            annotation: Any = _fields(game_model)[kind]  # tuple[<record model>, ...] or the rules model
            if kind == "rules":
                fields[kind] = validate(constraints.adapter(annotation), value, (game_key, written))
                continue
            if not isinstance(value, list):
                report((game_key, written), f"must be [[{game_key}.{kind}]] blocks")
                continue
            record_model = typing.get_args(annotation)[0]
            records = []
            for number, item in enumerate(value):
                record = validate(constraints.adapter(record_model), item, (game_key, written, number))
                if record is None:
                    if isinstance(item, dict) and isinstance(item.get("id"), str):
                        broken_ids.setdefault(item["id"], (game_key, written, number))
                    continue
                loc = (game_key, written, number, "id")
                first = locations.get(record.id) or broken_ids.get(record.id)
                if first is not None:  # twenty-fourth breaker: say where the first one is
                    report(loc, f"duplicate id {quoted(record.id)}: line {index.line_of(first + ('id',))} gives it already; "
                                f"ids must be unique, give this record another")
                    continue
                if record.game != game_key:  # said here, whole, once (checks.check_id_kinds passes it by: twenty-third breaker)
                    report(loc, checks.wrong_id_prefix(record, game_key))
                by_id[record.id] = record
                locations[record.id] = (game_key, written, number)
                records.append(record)
            fields[kind] = tuple(records)
        if "rules" not in fields:
            report((game_key, "rules"), f"missing; [{game_key}.rules] is required")
        complete = "rules" in fields and all(v is not None for v in fields.values())
        sections[game_key] = game_model(**fields) if complete else None
    if any(sections.get(key) is None for key in ("print", "games", "solo", "duel")):
        raise failure()
    parsed = CardsFile(format=FORMAT, **sections)

    content = json.dumps({key: value for key, value in data.items() if key != "print"}, sort_keys=True, default=str)
    games: dict[str, Game] = dict(parsed.games.items())
    database = Database(path, hashlib.sha256(content.encode("utf-8")).hexdigest(), parsed.print, games, parsed.solo,
                        parsed.duel, by_id, locations, index, raw)
    for loc, message in checks.run(database, locations, set(broken_ids), complete=not problems):
        row_line: int | None = None
        if len(loc) == 5 and loc[3] == "layout":  # a hex map row: the layout text starts on the next line
            row_line = index.line_of(loc[:4]) + int(str(loc[4]).split()[1])
            loc = loc[:4]
        report(loc, message, row_line)
    if problems:
        raise failure()
    return database


MAX_LISTED = 200
"""The most problems one check lists (each is placed on its line); the rest are counted in a last line,
so a file of a hundred thousand mistakes is reported in a second, not in minutes."""

MAX_INTEGER_BITS = 63
"""The largest integer a database may hold is below 2**63: far beyond every range of the schema, and
small enough to be written in an error (Python refuses to print integers of more than 4,300 digits)."""


def toml_error_line(error: ValueError, text: str) -> int:
    """The 1-based line of ``text`` that the ``TOMLDecodeError`` ``error`` of tomllib or tomli (the save files' reader)
    is at: the ``(at line N, column M)`` its message ends in, the last line for ``(at end of document)`` (a file cut
    short: thirty-ninth referee breaker, LOW 3, it was said at line 1 of a 54-line file), else 1."""
    found = re.search(r"\(at line (\d+), column \d+\)", str(error))
    if found:
        return int(found.group(1))
    if "(at end of document)" in str(error):
        return max(1, len(text.splitlines()))
    return 1


def _code_end(line: str) -> int:
    """The index in ``line`` where its TOML code ends: at a ``#`` outside quotes (a comment), else its length."""
    quote = ""
    for index, char in enumerate(line):
        if quote:
            if char == quote:
                quote = ""
            elif char == "\\" and quote == '"':
                continue
        elif char in "\"'":
            quote = char
        elif char == "#":
            return index
    return len(line)


def _code_lines_before(lines: list[str], line: int) -> list[int]:
    """The 1-based numbers of the lines before 1-based ``line`` that hold TOML code (not blank, not a comment alone),
    nearest first."""
    return [number for number in range(line - 1, 0, -1) if lines[number - 1][:_code_end(lines[number - 1])].strip()]


def _parses_past(text: str, line: int) -> bool:
    """Whether ``text`` parses, or fails only after 1-based ``line`` (a mended slip lets the parser go on)."""
    try:
        tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        return toml_error_line(error, text) > line
    except (ValueError, RecursionError):
        return False
    return True


def toml_slip(text: str, line: int, message: str) -> tuple[int, str] | None:
    """The common hand-edit slip behind tomllib's ``message`` at 1-based ``line`` of ``text``, as ``(line to mend, what is
    wrong and what to write)``; ``None`` when it is none of them. Each is tried, mended, on a copy: it is said only when
    the mended text parses past the error. Forty-sixth pnp breaker, F9: the parser's words ("Unclosed array" for a comma
    missing, "Invalid value" 21 lines below a ``]`` left out, "Invalid initial character for a key part" for a comma
    before ``}``, "Illegal character '\\n'" for a closing quote left out) gave no way on, at a misleading line.

    - a comma missing between two items of a list written over several lines (``Unclosed array``);
    - a list opened with ``[`` and never closed (``Invalid value`` at the next header or key);
    - a comma before the ``}`` of an inline table (TOML allows none);
    - a string with no closing quote on its line."""
    lines = text.split("\n")
    if not 0 < line <= len(lines):
        return None
    written = lines[line - 1]
    if message.startswith("Unclosed array"):
        before = _code_lines_before(lines, line)
        if before:
            number = before[0]
            end = _code_end(lines[number - 1])
            code = lines[number - 1][:end].rstrip()
            if code and not code.endswith((",", "[")):
                mended = lines[:number - 1] + [code + "," + lines[number - 1][len(code):]] + lines[number:]
                if _parses_past("\n".join(mended), line):
                    return number, "a comma is missing at the end of this line: the items of a list are separated by commas"
    if message.startswith(("Invalid value", "Unclosed array")):
        for number in _code_lines_before(lines, line)[:200]:
            code = lines[number - 1][:_code_end(lines[number - 1])]
            opened = re.match(r"\s*([A-Za-z0-9_.\"' -]+?)\s*=\s*\[", code)
            if opened is None:
                continue
            last = _code_lines_before(lines, line)[0]
            mended = lines[:last] + ["]"] + lines[last:]
            if _parses_past("\n".join(mended), line + 1):
                return number, (f"the list `{shortened(opened.group(1).strip(), 30)} = [` opened here is never closed: "
                                f"write ] after its last item" + (f" (line {last})" if last != number else ""))
            break
    if message.startswith("Invalid initial character for a key part") and re.search(r",\s*}", written[:_code_end(written)]):
        mended = lines[:line - 1] + [re.sub(r",(\s*})", r"\1", written)] + lines[line:]
        if _parses_past("\n".join(mended), line):
            return line, "TOML allows no comma before the } of an inline table: remove the last comma"
    if message.startswith("Illegal character '\\n'") and written[:_code_end(written)].count('"') % 2 == 1:
        mended = lines[:line - 1] + [written.rstrip() + '"'] + lines[line:]
        if _parses_past("\n".join(mended), line):
            return line, 'the string opened on this line has no closing quote: end it with "'
    return _unclosed_string(text, lines, line)


MENDS_TRIED = 12
"""The most strings opened before a TOML error that :func:`_unclosed_string` tries closing (each try parses the file
again): the string left open is, in every slip seen, the nearest one or two opened before the error."""

_STATEMENT = re.compile(r"""\s*(\[|[A-Za-z0-9_-]+\s*(\.\s*[A-Za-z0-9_-]+\s*)*=|"[^"\n]*"\s*=|'[^'\n]*'\s*=)""")
"""A line that starts a TOML statement (a ``[header]`` or ``key =``): where a multi-line string left open was meant to
have ended, at the latest."""


@dataclass(frozen=True)
class OpenedString:
    """A string of a TOML text as the parser reads it (:func:`strings_read`): the 1-based ``line`` of its opening
    ``delimiter`` (``"``, ``'``, three double or three single quotes), and the ``end`` line of the delimiter read as its
    close, ``None`` where none is (a single-line string cut by its line's end, or a multi-line string running to the
    end of the file)."""

    line: int
    delimiter: str
    end: int | None


_CODE = re.compile(r"#|\"\"\"|'''|\"|'")
_ENDS = {'"': re.compile(r'\\.|"|\n'), "'": re.compile(r"'|\n"), '"""': re.compile(r'\\.|"{3,5}', re.S),
         "'''": re.compile(r"'{3,5}")}


def strings_read(text: str) -> list[OpenedString]:
    """Every string of the TOML ``text`` in the order the parser meets them, each ended where the parser ends it: a
    multi-line string at the next delimiter of its kind, wherever that is (another string's opening), a single-line one
    at its closing quote or its line's end; comments are passed over. Only the strings are read, by regular
    expressions, in one pass; a slip that leaves a string open shows as one whose close is far away or missing."""
    found: list[OpenedString] = []
    position, line = 0, 1
    while True:
        token = _CODE.search(text, position)
        if token is None:
            return found
        line += text.count("\n", position, token.start())
        if token.group() == "#":
            newline = text.find("\n", token.end())
            if newline < 0:
                return found
            position = newline
            continue
        delimiter, start = token.group(), line
        position = token.end()
        while True:
            close = _ENDS[delimiter].search(text, position)
            if close is None:
                found.append(OpenedString(start, delimiter, None))
                return found
            line += text.count("\n", position, close.start())
            position = close.end()
            if close.group().startswith("\\"):  # an escape: the character after it is the string's
                line += close.group().count("\n")
                continue
            if close.group() == "\n":  # a single-line string cut by its line's end: the parser stops there
                found.append(OpenedString(start, delimiter, None))
                position = close.start()
            else:
                found.append(OpenedString(start, delimiter, line))
            break


def _unclosed_string(text: str, lines: list[str], line: int) -> tuple[int, str] | None:
    """The string left open behind a TOML error at 1-based ``line`` of ``text`` (split into ``lines``), as ``(the line it
    opens on, what is wrong and what to write)``, or ``None``. The parser reports a multi-line string left open far from
    where it opens: at the end of the file, or where the next string's opening triple quote, read as its close, leaves
    the lines after it to be read as statements (first TOML breaker, fault 2: said at line 696, in a map's layout, for
    a text opened with three quotes above it). Each string opened before the error, nearest first, is closed on a copy
    before the next statement after it (a single-line one at its line's end): said when that copy parses past the error."""
    if len(text) > MAX_FILE_BYTES:
        return None
    tried = 0
    for opened in reversed([found for found in strings_read(text) if found.line <= line]):
        if tried >= MENDS_TRIED:
            break
        if len(opened.delimiter) == 1:
            if opened.end is not None or opened.line != line:
                continue
            tried += 1
            written = lines[line - 1]
            mended = lines[:line - 1] + [written.rstrip() + opened.delimiter] + lines[line:]
            if _parses_past("\n".join(mended), line):
                return line, f"the string opened on this line has no closing quote: end it with {opened.delimiter}"
            continue
        if opened.end == opened.line:
            continue  # opened and closed on one line
        tried += 1
        after = next((number for number in range(opened.line + 1, len(lines) + 1) if _STATEMENT.match(lines[number - 1])),
                     len(lines) + 1)
        mended = lines[:after - 1] + [opened.delimiter] + lines[after - 1:]
        if _parses_past("\n".join(mended), line + 1):
            read_to = (f" (the {opened.delimiter} on line {opened.end}, which opens the next string, was read as its close)"
                       if opened.end is not None and lines[opened.end - 1].strip() != opened.delimiter else "")
            return opened.line, (f"the multi-line string opened here with {opened.delimiter} is never closed{read_to}: "
                                 f"end it with {opened.delimiter} after its last line")
    return None


class NestedTooDeep(tomllib.TOMLDecodeError):
    """TOML whose arrays or tables nest more than :data:`MAX_NESTING` deep (:func:`loads_within_nesting`): ``line`` the
    1-based line where the nesting goes too deep, ``path`` the key path to the first value too deep (empty when the
    parser itself ran out of recursion), ``data`` the parsed document (``None`` then). A ``TOMLDecodeError``, so a
    reader that refuses TOML it cannot parse refuses this too; its words are the caller's."""

    def __init__(self, line: int, path: tuple[Any, ...] = (), data: dict[str, Any] | None = None):
        ValueError.__init__(self, f"arrays or tables nested more than {MAX_NESTING} deep (at line {line})")
        self.line, self.path, self.data = line, path, data


class NumberTooLong(tomllib.TOMLDecodeError):
    """TOML holding an integer of more than 4,300 digits, which Python refuses to convert (:func:`loads_within_nesting`):
    ``line`` the 1-based line of the longest run of digits. A ``TOMLDecodeError``, as :class:`NestedTooDeep`."""

    def __init__(self, line: int, found: list[tuple[int, tuple[Any, ...]]] | None = None,
                 data: dict[str, Any] | None = None):
        ValueError.__init__(self, f"a number of more than 4,300 digits (at line {line})")
        self.line = line
        self.found = found or []
        """Each such number as ``(line, key path)``, in the file's order (thirty-seventh pnp breaker, LOW 8: only the
        first was said, at no key); empty when the document cannot be read with them set aside."""
        self.data = data
        """The document read with each such number set aside (their key paths lead into it), ``None`` as :attr:`found`."""


def _header_under(text: str, path: tuple[Any, ...]) -> int | None:
    """The 1-based line of the first table header of ``text`` (``[a.b.c]`` or ``[[a.b.c]]``) that names the tables of
    ``path`` (its keys up to its first array index) or a table inside them: where a nesting too deep that a header wrote
    is. ``None`` when no header does (the nesting is in a key's value: its line is found otherwise). Thirty-sixth pnp
    breaker, LOW 13: `[x.a.a ... a]` at line 1275 of cards.toml was said at line 1, `[numbers.a.b ... r]` of a template
    at its `[numbers]` line."""
    names = []
    for part in path:
        if not isinstance(part, str):
            break
        names.append(part)
    if len(names) < 2 or len(names) < len(path):  # a path through an array's entry: LineIndex finds that entry's key
        return None  # (thirty-seventh pnp breaker, MED 6: `zz.a.a ... = 1` was said at the first [[duel.summary]] header)
    pattern = re.compile(r"^\s*\[\[?\s*" + r"\s*\.\s*".join(re.escape(name) for name in names) + r"\s*[.\]]")
    return next((number for number, line in enumerate(text.split("\n"), 1) if pattern.match(line)), None)


def loads_within_nesting(text: str) -> dict[str, Any]:
    """The TOML document ``text`` parsed by ``tomllib``, its arrays and tables nested at most :data:`MAX_NESTING` deep:
    the limit of ``cards.toml``, which the layout templates share (thirty-first breaker, finding 7: a template of
    1,000 nested arrays gave a RecursionError traceback from check and build). Raises :class:`NestedTooDeep` for deeper
    nesting (at the deepest line when the parser's recursion ran out first: tomllib parses nested arrays by recursion),
    :class:`NumberTooLong` for an integer too long to convert, ``tomllib.TOMLDecodeError`` for other malformed TOML."""
    try:
        data = tomllib.loads(text)
    except RecursionError:
        raise NestedTooDeep(_deepest_line(text)) from None
    except tomllib.TOMLDecodeError:
        raise
    except ValueError:  # Python's limit on converting an integer: 4,300 digits
        raise NumberTooLong(_longest_number_line(text), *_too_long_numbers(text)) from None
    stack: list[tuple[Any, tuple[Any, ...]]] = [(data, ())]
    while stack:  # iterative, so the check cannot exhaust the recursion it guards against
        value, loc = stack.pop()
        if len(loc) > MAX_NESTING:
            raise NestedTooDeep(_header_under(text, loc) or LineIndex(text).line_of(loc[: MAX_NESTING + 1]),
                                loc[: MAX_NESTING + 1], data)
        if isinstance(value, dict):
            stack.extend((item, loc + (key,)) for key, item in value.items())
        elif isinstance(value, list):
            stack.extend((item, loc + (number,)) for number, item in enumerate(value))
    return data


def _unusable(data: Any) -> list[tuple[tuple[Any, ...], str]]:
    """The key path of the first value nested more than :data:`MAX_NESTING` deep in ``data`` (alone: nothing under it is
    read), else of every integer of more than :data:`MAX_INTEGER_BITS` bits, each with what is wrong; empty when there
    is none. Iterative, so the check itself cannot exhaust the recursion it guards against. (A character no card file
    may hold: :func:`_unprintable`, every one.)"""
    found: list[tuple[tuple[Any, ...], str]] = []
    stack: list[tuple[Any, tuple[Any, ...]]] = [(data, ())]
    while stack:
        value, loc = stack.pop()
        if len(loc) > MAX_NESTING:
            return [(loc[: MAX_NESTING + 1], f"arrays or tables nested more than {MAX_NESTING} deep; cards.toml nests 5 deep at most")]
        if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > MAX_INTEGER_BITS:
            found.append((loc, f"a number of {value.bit_length()} bits is far beyond any range of this file; write a number "
                               "that fits its key"))
        if isinstance(value, dict):
            stack.extend((item, loc + (key,)) for key, item in value.items())
        elif isinstance(value, list):
            stack.extend((item, loc + (number,)) for number, item in enumerate(value))
    return found


def _unprintable(data: Any) -> list[tuple[tuple[Any, ...], str]]:
    """The key path of every string of ``data`` holding a character no SVG (XML 1.0) may hold (a control character),
    with what is wrong: refused wherever it is, a label or a text. Iterative (:func:`_unusable` has bounded
    the nesting already)."""
    found: list[tuple[tuple[Any, ...], str]] = []
    stack: list[tuple[Any, tuple[Any, ...]]] = [(data, ())]
    while stack:
        value, loc = stack.pop()
        if isinstance(value, str):
            bad = next((char for char in value if not xml_char(char)), None)
            if bad is not None:
                found.append((loc, f"character {quoted(bad)} (U+{ord(bad):04X}) cannot be printed: no card file may hold it; remove it"))
        elif isinstance(value, dict):
            stack.extend((item, loc + (key,)) for key, item in value.items())
        elif isinstance(value, list):
            stack.extend((item, loc + (number,)) for number, item in enumerate(value))
    return found


def _composed(data: Any) -> list[tuple[tuple[Any, ...], str]]:
    """Compose every string value of ``data`` in place to Unicode NFC (an accent typed as its own
    character, as macOS and some keyboards give it, becomes one letter with its accent: ``cafe\u0301`` ->
    ``café``), and return the key path of each string that still holds a combining mark with what is
    wrong: the card fonts are drawn without mark positioning, so a mark that composes with no letter
    (``q\u0301``) would print beside its letter and take the next space's room (issue 15, Text).
    Iterative (:func:`_unusable` has bounded the nesting already)."""
    found: list[tuple[tuple[Any, ...], str]] = []
    stack: list[tuple[Any, tuple[Any, ...]]] = [(data, ())]
    while stack:
        value, loc = stack.pop()
        if isinstance(value, dict):
            items: Any = value.items()
        elif isinstance(value, list):
            items = enumerate(value)
        else:
            continue
        for key, item in list(items):
            if isinstance(item, str):
                if item.isascii():
                    continue
                value[key] = item = unicodedata.normalize("NFC", item)
                marks = [at for at, char in enumerate(item) if unicodedata.combining(char)]
                if marks:  # every mark that joins no letter, each with the letter it follows (fortieth pnp breaker, LOW 6)
                    said = []
                    for at in marks[:8]:
                        mark, letter = item[at], item[at - 1] if at > 0 else ""
                        said.append(f"{quoted(letter + mark)} ({quoted(letter) + ' then ' if letter else ''}U+{ord(mark):04X} "
                                    f"{unicodedata.name(mark, 'COMBINING MARK')})")
                    more = f" and {len(marks) - 8} more" if len(marks) > 8 else ""
                    several = len(marks) > 1
                    found.append((loc + (key,), (
                        f"{', '.join(said)}{more}: {'each' if several else 'the'} accent joins no letter into one character, "
                        f"and the card fonts would print it beside the letter, over the next space; write a letter that has "
                        f"the accent as one character (é, ö, ñ ...) or leave the accent out")))
            else:
                stack.append((item, loc + (key,)))
    return found


def table_written_twice(message: str) -> str | None:
    """tomllib's "Cannot declare ('print',) twice" or "Cannot redefine namespace ('games', 'solo')" in words:
    ``[print] is written twice: merge the two into one``; ``None`` for another message."""
    found = re.match(r"Cannot (?:declare|redefine namespace) \(([^)]*)\)", message)
    if found is None:
        return None
    parts = [part.strip().strip("'\"") for part in found.group(1).split(",") if part.strip()]
    return f"[{'.'.join(parts)}] is written twice (a table, or keys under it given before): merge the two into one"


def written_twice(text: str, line: int) -> str:
    """What tomllib's "Cannot overwrite a value" at 1-based ``line`` of ``text`` means, in words, with what to do:
    the key that line writes is written already in the same table (``name`` given twice), or the table header
    there is written before as the other kind (``[[print]]`` after ``[print]``)."""
    lines = text.split("\n")
    written = lines[line - 1] if 0 < line <= len(lines) else ""
    header = re.match(r"\s*(\[\[?[^\]]+\]\]?)", written)
    if header is not None:  # eighteenth breaker: `[[print]]` after `[print]` (a list of tables and a table of one name)
        odd = _odd_header(lines, header.group(1))
        if odd is not None:
            return odd
        return (f"`{shortened(header.group(1), 60)}` is written before under this name as a table ([name]) or a list of tables "
                f"([[name]]), which differ: write it as it is written before")
    key = written.split("=", 1)[0].strip() if "=" in written else ""
    return (f"`{shortened(key, 60)}` is given twice in this table (or a table written twice); keep one" if key
            else "a key or table is given twice; keep one")


def _odd_header(lines: list[str], header: str) -> str | None:
    """What to say when the headers of one name in the file ``lines`` are written both as a table (``[solo.spell]``) and as
    a list of tables (``[[solo.spell]]``) and one kind is written once among three or more: the line of that one, to be
    written as the others are; ``None`` otherwise. Forty-fifth pnp breaker, LOW 5: one ``[solo.spell]`` among twenty
    ``[[solo.spell]]`` was said at the next block, and following the advice there made a second error."""
    def name_of(text: str) -> tuple[str, bool] | None:
        found = re.match(r"\s*(\[\[?)([^\[\]]+)(\]\]?)", text)
        if found is None or len(found.group(1)) != len(found.group(3)):
            return None
        return ".".join(part.strip().strip("'\"") for part in found.group(2).split(".")), found.group(1) == "[["
    named = name_of(header)
    if named is None:
        return None
    same = [(number, is_list) for number, text in enumerate(lines, 1)
            if (found := name_of(text)) is not None and (is_list := found[1]) in (True, False) and found[0] == named[0]]
    lists = [number for number, is_list in same if is_list]
    tables = [number for number, is_list in same if not is_list]
    if len(same) < 3 or not lists or not tables or (len(lists) > 1 and len(tables) > 1):
        return None
    odd, usual = (tables[0], f"[[{named[0]}]]") if len(tables) == 1 else (lists[0], f"[{named[0]}]")
    others = len(lists) if len(tables) == 1 else len(tables)
    return (f"line {odd} writes `{shortened(lines[odd - 1].strip(), 60)}`, and the other {others} headers of this name are "
            f"{usual}, which differs: write it {usual}")


_SET_ASIDE = 10 ** 30
"""The first of the numbers that stand in for those too long to read while their keys are looked for (:func:`_too_long_numbers`)."""


def _too_long_numbers(text: str) -> tuple[list[tuple[int, tuple[Any, ...]]], dict[str, Any] | None]:
    """Every integer of ``text`` too long to convert (a run of more than 4,300 digits), as ``(1-based line, key path)`` in
    the file's order, with the document read with each set aside (replaced by a number of its own); ``([], None)`` when
    the document cannot be read so."""
    runs = list(re.finditer(r"\d{4301,}", text))
    replaced = "".join(part for index, run in enumerate(runs) for part in
                       (text[runs[index - 1].end() if index else 0:run.start()], str(_SET_ASIDE + index))) + \
        (text[runs[-1].end():] if runs else text)
    try:
        data = tomllib.loads(replaced)
    except (tomllib.TOMLDecodeError, ValueError, RecursionError):
        return [], None
    paths: dict[int, tuple[Any, ...]] = {}
    stack: list[tuple[Any, tuple[Any, ...]]] = [(data, ())]
    while stack:
        value, loc = stack.pop()
        if len(loc) > MAX_NESTING:
            continue
        if isinstance(value, int) and not isinstance(value, bool) and 0 <= value - _SET_ASIDE < len(runs):
            paths[value - _SET_ASIDE] = loc
        elif isinstance(value, dict):
            stack.extend((item, loc + (key,)) for key, item in value.items())
        elif isinstance(value, list):
            stack.extend((item, loc + (number,)) for number, item in enumerate(value))
    return [(text.count("\n", 0, run.start()) + 1, paths[index]) for index, run in enumerate(runs) if index in paths], data


def _longest_number_line(text: str) -> int:
    """The 1-based line of ``text`` with the longest run of digits (where a number too long to read is)."""
    runs = [max((len(run) for run in re.findall(r"\d+", line)), default=0) for line in text.split("\n")] or [0]
    return runs.index(max(runs)) + 1


def _deepest_line(text: str) -> int:
    """The 1-based line of ``text`` with the most opening brackets (where nesting too deep for the
    parser starts), for a problem the parser could not place."""
    counts = [line.count("[") + line.count("{") for line in text.splitlines()] or [0]
    return counts.index(max(counts)) + 1


def _key_path(data: dict[str, Any], loc: tuple[Any, ...]) -> str:
    """``loc`` as a dotted key path, each key as TOML writes it (:func:`pnp.oneline.toml_key`: ``battle."attack total"``,
    twenty-fourth breaker); inside a record the record's id replaces ``game.kind[n]``, unless the id holds a character
    other than letters, digits, ``.``, ``_`` and ``-`` (a space, a slash, a control character): then ``game.kind[n]``
    stays, and the message quotes the id."""
    parts = list(loc)
    if len(parts) >= 3 and isinstance(parts[2], int):
        try:
            record_id = data[parts[0]][parts[1]][parts[2]]["id"]
        except (KeyError, IndexError, TypeError):
            record_id = None
        if isinstance(record_id, str) and record_id and all(char.isalnum() or char in "._-" for char in record_id):
            rest = toml_key(parts[3:])
            return record_id + ("" if not rest else rest if rest.startswith("[") else "." + rest)
    return toml_key(parts) or "file"


@functools.cache
def _schema_keys() -> list[str]:
    """Every key a record or a part of one may hold (the fields of the schema's dataclasses), for a "did you mean"."""
    from pnp.database import schema

    classes = [value for value in vars(schema).values() if isinstance(value, type) and dataclasses.is_dataclass(value)]
    return sorted({f.name for cls in classes for f in dataclasses.fields(cls)})


def _choices(annotation: Any) -> list[Any]:
    """The types a value of ``annotation`` may be, at its own level: ``Annotated`` dropped, each type of a union but
    ``None`` (``Cost | None`` -> ``[Cost]``)."""
    origin = typing.get_origin(annotation)
    if origin is typing.Annotated:
        return _choices(typing.get_args(annotation)[0])
    if origin in (typing.Union, types.UnionType):
        return [choice for member in typing.get_args(annotation) if member is not type(None) for choice in _choices(member)]
    return [annotation]


def _schema_type_at(loc: tuple[Any, ...]) -> Any:
    """The schema's type of the value at key path ``loc`` of a cards.toml (``("solo", "city_quest", 1, "battle")`` ->
    ``CityBattle``; ``("solo", "servant", 0, "hit_points")`` -> ``dict[MapColor, Amount]``), or ``None`` where the
    schema has no such key. Only while a file is checked (the annotations need :mod:`pnp.database.constraints`)."""
    current: list[Any] = [CardsFile]
    for part in loc:
        following: list[Any] = []
        for kind in current:
            origin, arguments = typing.get_origin(kind), typing.get_args(kind)
            inner: Any = None
            if isinstance(part, int) and origin in (tuple, list) and arguments:
                inner = arguments[0] if origin is list or arguments[-1] is Ellipsis else arguments[part] if part < len(arguments) else None
            elif isinstance(part, str) and isinstance(kind, type) and dataclasses.is_dataclass(kind):
                inner = _fields(kind).get(part)
            elif isinstance(part, str) and origin is dict:
                inner = arguments[1]
            if inner is not None:
                following.extend(_choices(inner))
        current = following
    return next((kind for kind in current if isinstance(kind, type) and dataclasses.is_dataclass(kind)), current[0] if current else None)


def _keys_at(loc: tuple[Any, ...]) -> dict[str, Any]:
    """The keys the table at key path ``loc`` may hold, by name (its schema class's fields), or ``{}`` where it is no
    table of named keys (a dictionary such as ``hit_points``, or no key of the schema)."""
    return _keys_of_place(tuple(part if isinstance(part, str) else 0 for part in loc))  # the items of a list are alike


@functools.cache
def _keys_of_place(loc: tuple[Any, ...]) -> dict[str, Any]:
    """:func:`_keys_at` of a key path whose list indexes are 0, once a process (a file of 20,000 unknown keys asks it for each)."""
    kind = _schema_type_at(loc)
    return _fields(kind) if isinstance(kind, type) and dataclasses.is_dataclass(kind) else {}


@functools.cache
def _table_names() -> dict[type, tuple[str, ...]]:
    """Each schema class holding keys, with the names of the tables it is written as: ``[print]``, ``[games.solo]``,
    ``[[solo.servant]]`` and ``[[duel.table]]`` for a section or a record kind, ``battle of [[solo.city_quest]]`` for a
    table inside one (where it is found first, breadth first). For "bleed_mm is a key of [print]"."""
    names: dict[type, list[str]] = {}
    depth_of: dict[type, int] = {}
    queue: list[tuple[Any, str, int]] = [(CardsFile, "", 0)]  # (class, the name of its table, depth)
    while queue:
        model, name, depth = queue.pop(0)
        sections = model in (CardsFile, Solo, Duel)  # its keys are sections or record kinds, each written as a header
        for key, annotation in _fields(model).items():
            for kind in _choices(annotation):
                origin, arguments = typing.get_origin(kind), typing.get_args(kind)
                if origin is dict and arguments and typing.get_origin(arguments[0]) is Literal:  # [games.solo], [games.duel]
                    inner, headers = arguments[1], [f"[{key}.{literal}]" for literal in typing.get_args(arguments[0])]
                elif origin is tuple and arguments and arguments[-1] is Ellipsis:  # [[solo.servant]]
                    inner, headers = arguments[0], [f"[[{name.strip('[]')}.{key}]]"]
                else:
                    inner, headers = kind, [f"[{name.strip('[]')}.{key}]" if name else f"[{key}]"]
                for found in _choices(inner):
                    if not (isinstance(found, type) and dataclasses.is_dataclass(found)):
                        continue
                    for header in headers:
                        title = header if sections else f"{key} of {name}"
                        if depth_of.setdefault(found, depth + 1) == depth + 1 and title not in names.setdefault(found, []):
                            names[found].append(title)
                            queue.append((found, header if sections else name, depth + 1))
    return {model: tuple(titles) for model, titles in names.items()}


def _tables_with_key(key: str, game: str) -> list[str]:
    """The names of the tables that hold ``key`` (:func:`_table_names`), those of ``game`` (``solo``, ``duel``) first."""
    titles = [title for model, names in _table_names().items() if model not in (Solo, Duel) and key in _fields(model) for title in names]
    return sorted(titles, key=lambda title: (game not in title, titles.index(title)))


def _record_tables(loc: tuple[Any, ...]) -> list[tuple[tuple[Any, ...], str]]:
    """The tables of the record the key path ``loc`` lies in (``("solo", "city_quest", 3, "win_extra")``): the record
    itself and the tables of named keys it holds, one level down, each as ``(its key path, its name)``
    (``[[solo.city_quest]]``, ``battle of [[solo.city_quest]]``); ``[]`` for a key of no record (``[print]``)."""
    last_index = max((number for number, part in enumerate(loc[:-1]) if isinstance(part, int)), default=None)
    if last_index is None:
        return []
    record = loc[: last_index + 1]
    game = str(loc[0]) if loc[0] in ("solo", "duel") else ""
    titles = _table_names().get(_schema_type_at(record), ())
    title = next((name for name in titles if game in name), titles[0] if titles else "this record")
    found = [(record, title)]
    for key in _keys_at(record):
        if _keys_at(record + (key,)):
            found.append((record + (key,), f"{key} of {title}"))
    return found


def _walked(value: Any, names: Sequence[str]) -> Any:
    """``value``'s table at the keys ``names`` in turn (``None`` where one is missing or no table)."""
    for name in names:
        value = value.get(name) if isinstance(value, dict) else None
    return value


def _dotted_into_its_table(loc: tuple[Any, ...], value: Any, written_beside: frozenset[str]) -> str:
    """What to say of a key written with its own table's name before it inside that table (``print.bleed_mm = 4`` in
    ``[print]``, ``solo.spell.name = ...`` or ``spell.name = ...`` in a ``[[solo.spell]]`` record), which TOML reads as a
    table of that name inside the table (``print.print``): set twice when the table writes the key already, else to be
    written without the prefix; ``""`` for any other key. Forty-first pnp breaker, MED 2: it was told "move bleed_mm to
    [print]", where it was, and the line moved then met "bleed_mm is given twice" (the templates' [numbers] said it right:
    :func:`pnp.layout.template._dotted_into_itself`)."""
    names = [str(part) for part in loc[:-1] if isinstance(part, str)]
    written = str(loc[-1])
    for start in range(len(names)):
        if names[start] != written:
            continue
        inner, repeats = _walked(value, names[start + 1:]), 1
        while isinstance(inner, dict) and list(inner) == [written] and isinstance(_walked(inner[written], names[start + 1:]), dict):
            inner, repeats = _walked(inner[written], names[start + 1:]), repeats + 1  # the prefix written twice or more
        if not isinstance(inner, dict) or not inner:
            continue
        prefix = (".".join(names[start:]) + ".") * repeats
        table = ".".join(names)
        header = f"[[{table}]]" if any(isinstance(part, int) for part in loc[:-1]) else f"[{table}]"
        key = str(next(iter(inner)))
        if key in written_beside:
            return (f"{prefix}{key} = ... written inside {header} would set {key} a second time (this table sets it already): "
                    f"change {key} where it is set, and remove this line")
        return f"{prefix}{key} = ... written inside {header} reads as {table}.{prefix}{key}: write {key} = ... there, without '{prefix}' before it"
    return ""


def _unknown_key(loc: tuple[Any, ...], value: Any = None, written_beside: frozenset[str] = frozenset()) -> str:
    """What to say of the key at ``loc`` that its table has none of: a key of this table it may be a typo of (twenty-second
    breaker: `txt`), else the tables it is a key of (twenty-fourth: `bleed_mm` under [games.solo] was told "did you mean
    bleed_mm?"), else a key of another table it may be a typo of. A key some other table holds is told that table first, and
    a section's name (``print``, its written ``value`` an inline table) is told to be a section of its own."""
    written = str(loc[-1])
    game = str(loc[0]) if loc and loc[0] in ("solo", "duel") else ""
    dotted = _dotted_into_its_table(loc, value, written_beside)
    if dotted:
        return dotted
    if written in _fields(CardsFile) and len(loc) > 1:  # twenty-sixth breaker: `print = { ... }` in a record: "did you mean spirit"
        keys = list(value) if isinstance(value, dict) else []
        moved = f"move {listed(keys)} to [{written}]" if keys else f"write it as [{written}]"
        return f"no key of this table; [{written}] is a section of its own, at the top level of the file: {moved}"
    tables = _tables_with_key(written, game)
    here = [key for key in _keys_at(loc[:-1]) if key != written]
    # a key of another table is told its own table first (twenty-sixth breaker: `papers` in [games.solo] was "did you
    # mean players?"); else one of this table it may be a typo of (twenty-second breaker: `txt`)
    meant = [] if tables else difflib.get_close_matches(written, here, 1, cutoff=0.7)
    if meant and meant[0] in written_beside:  # the key meant is written already (thirty-fourth pnp breaker, MED 3: "did
        # you mean track_high?" of a `track_hihg` under `track_high`, and following it wrote the key twice)
        return f"unknown key; {meant[0]} is written in this table already: remove {toml_key([written])}"
    if meant:
        return f"unknown key; did you mean {meant[0]}?"
    own = [title for table, title in _record_tables(loc) if table != loc[:-1] and written in _keys_at(table)]
    if own:  # twenty-fifth breaker: the record's own `battle` was "or 1 more" after three tables of other kinds of record
        others = [title for title in tables if title not in own]
        return (f"no key of this table; {written} is a key of {listed(own, len(own), 'or')}, in this record: move it there"
                + (f" (it is also a key of {listed(others, conjunction='or')}, in other kinds of record)" if others else ""))
    if tables:
        return f"no key of this table; {written} is a key of {listed(tables, conjunction='or')}" + (": move it there" if len(tables) == 1 else "")
    record_tables = _record_tables(loc)
    if record_tables:  # in a record: a typo of a key of its own kind only (thirty-first pnp breaker, LOW 19: `extra` in a
        # back was "did you mean win_extra, a key of battle of [[solo.city_quest]]?", which no back can have)
        mine = {key: title for table, title in record_tables for key in _keys_at(table)}
        meant = difflib.get_close_matches(written, list(mine), 1, cutoff=0.7)
        if meant:
            return f"unknown key; did you mean {meant[0]}, a key of {mine[meant[0]]}?"
        return f"unknown key; {record_tables[0][1]} holds {listed(sorted(_keys_at(record_tables[0][0])), most=8)}"
    meant = [key for key in difflib.get_close_matches(written, _schema_keys(), 3, cutoff=0.7) if _tables_with_key(key, game)]
    if meant:
        return f"unknown key; did you mean {meant[0]}, a key of {listed(_tables_with_key(meant[0], game), conjunction='or')}?"
    return "unknown key; check the spelling against the records of this kind"


def _deeper_headers(items: list[ErrorDetails], locs: list[tuple[Any, ...]],
                    index: LineIndex) -> tuple[set[int], list[tuple[tuple[Any, ...], int, str]]]:
    """Unknown tables of a section (not of a record) that no header names but a deeper one opens (``[print.print.print]``
    makes a table ``print`` inside [print], holding one named ``print`` again), as :func:`_under_headers` returns them:
    the numbers of the errors explained, and one problem each at that header's line, the header as written, with the
    header to write (the section's own when the table repeats its name). Forty-fifth pnp breaker, MED 2: it was said at
    line 1 as dotted keys (``print.print.card_width_mm = ...``) that no one wrote."""
    said: set[int] = set()
    problems: list[tuple[tuple[Any, ...], int, str]] = []
    for number, (item, where) in enumerate(zip(items, locs, strict=True)):
        if (item["type"] not in UNKNOWN_KEY_ERRORS or not isinstance(item.get("input"), dict) or len(where) < 2
                or any(isinstance(part, int) for part in where) or index.header_of(where) is not None):
            continue
        name = ".".join(str(part) for part in where)
        header = next((found for found in index.headers if found[1].startswith(name + ".") and not found[2]), None)
        if header is None:
            continue
        written = shortened(index.lines[header[0]].split("#", 1)[0].strip(), 60)
        parent = toml_key(where[:-1])
        inner = str(where[-1])
        fix = (f"write it [{parent}]" if inner == str(where[-2]) else
               f"[{parent}] has no table {inner!r}: is the header misplaced or misspelt?")
        problems.append((where, header[0] + 1, f"the header {written} opens a table {inner!r} inside [{parent}]: {fix}"))
        said.add(number)
    return said, problems


def _under_headers(items: list[ErrorDetails], locs: list[tuple[Any, ...]], loc: tuple[Any, ...],
                   index: LineIndex) -> tuple[set[int], list[tuple[tuple[Any, ...], int, str]]]:
    """Keys of the record or section at key path ``loc`` written below the ``[header]`` of one of its tables, which TOML
    reads as keys of that table (``[solo.city_quest.battle]`` in the middle of a city quest takes ``win``, ``loss`` and
    ``text`` into ``battle``), found among pydantic's errors ``items`` (at the key paths ``locs``).

    Returns the numbers of the errors they explain (the keys unknown to that table, the values under them, and the
    record's keys said to be missing because of them), and one problem a header, as ``(the table's key path, the
    header's 1-based line, message)``, which names the keys and their lines and says to move them above the header.
    Twenty-fourth breaker: nine lines of "unknown key; did you mean win?" and "missing" that never named the header."""
    swallowed: dict[tuple[Any, ...], list[str]] = {}
    unknown_tables: set[tuple[Any, ...]] = set()
    for item, where in zip(items, locs, strict=True):
        kind = item["type"]
        if kind in UNKNOWN_KEY_ERRORS and isinstance(item.get("input"), dict):  # a table the record has none of
            under = [str(key) for key in item["input"] if key in _keys_at(where[:-1])]
            if under and index.header_of(where) is not None:
                swallowed[where] = under
                unknown_tables.add(where)
        elif kind in UNKNOWN_KEY_ERRORS or (kind == "literal_error" and "[key]" in item["loc"]):  # an unknown key
            table, key = where[:-1], where[-1]
            if (len(table) > len(loc) and isinstance(key, str) and key in _keys_at(table[:-1]) and table not in unknown_tables
                    and index.header_of(table) is not None):
                swallowed.setdefault(table, []).append(key)
    said: set[int] = set()
    for number, (item, where) in enumerate(zip(items, locs, strict=True)):
        for table, keys in swallowed.items():
            missing = item["type"] in MISSING_ERRORS
            if (table not in unknown_tables and len(where) > len(table) and where[: len(table)] == table and where[len(table)] in keys
                    or table in unknown_tables and where == table or missing and where[:-1] == table[:-1] and where[-1] in keys):
                said.add(number)
    problems = []
    for table, keys in swallowed.items():
        line = index.header_of(table) or 0
        header = shortened(index.lines[line - 1].split("#", 1)[0].strip(), 60)
        lines = sorted({index.line_of(table + (key,)) for key in keys})
        where_written = f"line {lines[0]}" if len(lines) == 1 else f"lines {lines[0]}-{lines[-1]}"
        shown = [toml_key([key]) for key in keys]
        listed = (", ".join(shown[:6]) + f" and {len(shown) - 6} more" if len(shown) > 6
                  else shown[0] if len(shown) == 1 else f"{', '.join(shown[:-1])} and {shown[-1]}")
        game = str(table[0]) if table[0] in ("solo", "duel") else ""
        owners = _table_names().get(_schema_type_at(table[:-1]), ())
        owner = next((title for title in owners if game in title), owners[0] if owners else "the table above")
        name = toml_key([table[-1]])
        meant = difflib.get_close_matches(str(table[-1]), list(_keys_at(table[:-1])), 1, cutoff=0.7)
        if table in unknown_tables:
            inside = "this record" if any(isinstance(part, int) for part in table) else owner
            message = (f"a table {str(table[-1])!r} inside {inside}, which has none of that name: {header} takes the keys "
                       f"below it ({listed}, {where_written}), which are keys of {owner}; is the header misplaced or misspelt?"
                       + (f" (did you mean {meant[0]}?)" if meant else ""))
        else:
            message = (f"{header} opens the table `{name}`, so the keys below it ({listed}, {where_written}), which are keys of "
                       f"{owner}, fall under `{name}`: move them above this header")
        problems.append((table, line, message))
    return said, problems


UNKNOWN_KEY_ERRORS = ("extra_forbidden", "unexpected_keyword_argument")
"""pydantic's types of error for a key its table has none of."""
MISSING_ERRORS = ("missing", "missing_argument", "missing_keyword_only_argument")
"""pydantic's types of error for a required key not written."""


def _misspellings(items: list[ErrorDetails], locs: list[tuple[Any, ...]]) -> dict[int, int]:
    """The errors among pydantic's ``items`` (at the key paths ``locs``) that say a required key is missing only because it
    is written misspelt in the same table (``damge = 1`` for ``damage``, also inside an inline table of an array), each as
    ``{the missing key's error number: the misspelt key's error number}``: the misspelt key's line alone says it, naming the
    key meant (twenty-fourth and twenty-fifth breakers: two lines, one of them "missing" at the record's header)."""
    missing = {where: number for number, (item, where) in enumerate(zip(items, locs, strict=True)) if item["type"] in MISSING_ERRORS}
    found: dict[int, int] = {}
    for number, (item, where) in enumerate(zip(items, locs, strict=True)):
        if item["type"] not in UNKNOWN_KEY_ERRORS or not where or not isinstance(where[-1], str) or isinstance(item.get("input"), dict):
            continue
        here = [key for key in _keys_at(where[:-1]) if key != where[-1]]
        meant = difflib.get_close_matches(where[-1], here, 1, cutoff=0.7)  # as _unknown_key suggests it
        if meant and missing.get(where[:-1] + (meant[0],)) is not None and missing[where[:-1] + (meant[0],)] not in found:
            found[missing[where[:-1] + (meant[0],)]] = number
    return found


def _written_with_prefix(items: Sequence[Any], locs: Sequence[tuple[Any, ...]], value: Any) -> set[int]:
    """The numbers of the "missing" errors among ``items`` (at ``locs``) whose key is written in its table with the table's
    own name before it (``print.bleed_mm = 3`` in ``[print]``): that line's own problem says it (:func:`_dotted_into_its_table`),
    and a second line, "missing", at the table's header, said the one mistake twice (forty-second pnp breaker, LOW 4)."""
    covered = set()
    for number, (item, where) in enumerate(zip(items, locs, strict=True)):
        if item["type"] not in MISSING_ERRORS or not item.get("loc"):
            continue
        table = _table_at(value, item["loc"][:-1])
        names, key = [str(part) for part in where[:-1] if isinstance(part, str)], str(where[-1])
        for start, name in enumerate(names):
            inner = _walked(table.get(name), names[start + 1:]) if isinstance(table, dict) else None
            while isinstance(inner, dict) and list(inner) == [name] and isinstance(_walked(inner[name], names[start + 1:]), dict):
                inner = _walked(inner[name], names[start + 1:])
            if isinstance(inner, dict) and key in inner:
                covered.add(number)
    return covered


def _table_at(value: Any, path: Sequence[Any]) -> Any:
    """The table of ``value`` at the key path ``path`` (keys and list indexes), ``None`` where it leads to none."""
    for part in path:
        if isinstance(value, dict) and part in value:
            value = value[part]
        elif isinstance(value, list) and isinstance(part, int) and 0 <= part < len(value):
            value = value[part]
        else:
            return None
    return value


def _written_beside(value: Any, path: Sequence[Any]) -> frozenset[str]:
    """The keys written in the table that holds the key at ``path`` (pydantic's loc, inside ``value``, the TOML data
    validated): none when the path leads to no table."""
    for part in path[:-1]:
        if isinstance(value, dict) and part in value:
            value = value[part]
        elif isinstance(value, list) and isinstance(part, int) and 0 <= part < len(value):
            value = value[part]
        else:
            return frozenset()
    return frozenset(str(key) for key in value) if isinstance(value, dict) else frozenset()


def _explain(item: ErrorDetails, loc: tuple[Any, ...], index: LineIndex | None = None,
             beside: frozenset[str] = frozenset()) -> str:
    """One pydantic validation error ``item``, found at key path ``loc`` of the file (whose lines ``index`` holds), as the
    message of a :class:`Problem` (what is wrong, what is found, what would be right); ``beside`` the keys its table
    writes (a key written already is never a "did you mean": thirty-fourth pnp breaker, MED 3)."""
    from pnp.database import constraints  # loaded already: only a file being checked has pydantic's errors

    kind = item["type"]
    if kind in MISSING_ERRORS:
        return "missing; this field is required"
    if kind in UNKNOWN_KEY_ERRORS:
        written = item["loc"][-1] if item.get("loc") else ""
        # an inline table (`win_extra = { mana = 1 }`) is a value written on a key's line, no [header]: it is told where its
        # key belongs as a plain key is (twenty-fifth breaker: "is its [header] misplaced" of a header not written)
        inline = index is not None and index.header_of(loc) is None
        if isinstance(item.get("input"), dict) and not inline:  # twenty-third breaker: a [header] written inside a record
            meant = difflib.get_close_matches(str(written), list(_keys_at(loc[:-1])), 1, cutoff=0.7)
            # a record is an entry of a list of them (a card); a section such as [print] is named (forty-third pnp
            # breaker, LOW 7: `[print.extra]` was "inside this record")
            holder = "this record" if any(isinstance(part, int) for part in loc) or not loc[:-1] else f"[{toml_key(loc[:-1])}]"
            return (f"a table {written!r} inside {holder}, which has none of that name: is its [header] misplaced or misspelt?"
                    + (f" (did you mean {meant[0]}?)" if meant else ""))
        return _unknown_key(loc, item.get("input"), beside)
    if kind == "string_pattern_mismatch" and item.get("ctx", {}).get("pattern") == r"\S":
        return "is blank; write the text the card prints"
    if kind == "value_error" and isinstance(item.get("ctx", {}).get("error"), constraints.PrintsNothing):
        # thirty-first breaker (finding 23): a soft hyphen or a zero width space alone passed and printed nothing
        refused = item["ctx"]["error"]
        shown = ", ".join(f"U+{ord(char):04X}" + (f" ({unicodedata.name(char)})" if unicodedata.name(char, "") else "")
                          for char in dict.fromkeys(refused.text))
        verb = "prints" if len(set(refused.text)) == 1 else "print"
        return (f"is blank: it holds only {shortened(shown, 120)}, which {verb} nothing; write the text the card prints"
                + (' (or "" for none)' if refused.empty_allowed else ""))
    if kind == "string_pattern_mismatch" and item.get("ctx", {}).get("pattern") == COLOUR_PATTERN:  # twenty-second breaker
        return f"is {quoted(item.get('input'))}; a colour is written '#rrggbb', six hexadecimal digits after '#' (#3b2a1a)"
    if kind == "literal_error" and "[key]" in item.get("loc", ()):  # twenty-third breaker: "green[key]: is 'green'; input should be"
        return f"no such key here; the keys are {item['msg'].removeprefix('Input should be ')}"
    if kind == "literal_error":
        return f"is {quoted(item.get('input'))}; {item['msg'].lower()}"
    if kind == "string_pattern_mismatch" and item.get("ctx", {}).get("pattern") == ID_PATTERN:  # not a regular expression
        given = str(item.get("input"))
        unaccented = "".join(char for char in unicodedata.normalize("NFKD", given) if not unicodedata.combining(char))  # randvën: randven
        suggested = ".".join(part for part in (re.sub(r"[^a-z0-9-]+", "-", piece.lower()).strip("-") for piece in unaccented.split("."))
                             if part)
        # the id a record of this block needs starts with its game and kind (thirtieth breaker: 'solo.quest.' was told "did
        # you mean 'solo.quest'", which the kind check then refused): a suggestion is one, else an example of one
        prefix = (f"{loc[0]}.{checks.ID_PREFIXES[loc[1]]}." if len(loc) >= 2 and loc[0] in ("solo", "duel")
                  and loc[1] in checks.ID_PREFIXES else "")
        fits = re.fullmatch(ID_PATTERN, suggested) and suggested != given and suggested.startswith(prefix)
        example = (f"did you mean {suggested!r}?" if fits and len(suggested) > len(prefix)
                   else f"e.g. '{prefix}its-name'" if prefix
                   else "e.g. 'duel.location.rift-of-sael'")
        return f"is {quoted(given)}; an id is lower-case letters, digits and '-', in parts joined by dots: {example}"

    if kind in ("too_long", "too_short") and isinstance(item.get("input"), (list, tuple)):
        context = item.get("ctx", {})
        count = len(item["input"])  # type: ignore[arg-type]
        if kind == "too_long":
            most = context["max_length"]
            return f"{count} {'item' if count == 1 else 'items'}; at most {most} {'is' if most == 1 else 'are'} allowed"
        least = context.get("min_length")  # twenty-second breaker: "0 items; at least 1 is allowed" read oddly
        return f"{count} {'item' if count == 1 else 'items'}; at least {least} {'is' if least == 1 else 'are'} needed"
    given = item.get("input")
    if (kind in ("model_type", "dict_type", "dataclass_type", "model_attributes_type") and isinstance(given, list) and given
            and all(isinstance(entry, dict) for entry in given) and loc and not any(isinstance(part, int) for part in loc)):
        # a table written as a list of tables (forty-fifth pnp breaker, POLISH 6: `[[print]]` was "input should be an
        # object (found ] card_width_mm = ...)", a garbled excerpt and no fix)
        name = toml_key(loc)
        return f"[[{name}]] is a list of tables (as the cards' records are written); [{name}] is one table: write it [{name}]"
    message = item["msg"].lower().removeprefix("value error, ")  # a check of the schema's own: its words alone
    found = _as_written(index, loc, given) or " ".join(as_toml(given).split()).replace(", ]", " ]").replace(",]", "]")
    if kind in ("list_type", "tuple_type") and not isinstance(given, (list, tuple, dict)):
        # forty-sixth pnp breaker, F22: `roll = 1` was "input should be a valid array (found 1)", with no way on
        return f"{message} (found {shortened(found, 60)}); write it in brackets, [{shortened(found, 40)}]"
    return f"{message} (found {shortened(found, 60)})"  # on one line


def _as_written(index: LineIndex | None, loc: tuple[Any, ...], given: Any) -> str | None:
    """The value at key path ``loc`` as the file writes it (``2.1e1``, ``0x7f``, ``30_0.0``, ``1e400``), when its line (in
    ``index``) is ``key = value`` for the last key of ``loc`` and the value written reads as ``given``; else ``None`` (an
    inline table's key, a value over several lines). Forty-sixth pnp breaker, F1: numbers were said as Python shows them
    (``found 21.0`` for ``2.1e1``, ``found 127`` for ``0x7f``, ``found inf`` for ``1e400``), not as the user wrote them."""
    if index is None or not loc or not isinstance(loc[-1], str) or isinstance(given, (dict, list, tuple)):
        return None
    number = index.line_of(loc)
    line = index.lines[number - 1] if 0 < number <= len(index.lines) else ""
    key, equals, value = line.partition("=")
    if not equals or key.strip().strip("'\"") != loc[-1]:
        return None
    value = value.strip()
    try:
        read = tomllib.loads(f"value = {value}")["value"]
    except (tomllib.TOMLDecodeError, ValueError, RecursionError):
        return None
    same = read == given or (isinstance(read, float) and isinstance(given, float) and math.isnan(read) and math.isnan(given))
    quoted_text = '"' in value or "'" in value
    if quoted_text and "#" in value:
        return None  # a comment after a string cannot be told from a '#' inside it here
    written = value if quoted_text else value.split("#", 1)[0].strip()
    return written if same and type(read) is type(given) and written else None
