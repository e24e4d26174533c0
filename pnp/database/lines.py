"""Line numbers for ``cards.toml``: where a key path such as ``("solo", "servant", 2, "range")`` is written.

``tomllib`` keeps no positions, so :class:`LineIndex` scans the text itself. Problems use it to name
the line a user must edit (shared/DESIGN.md, "The card database": ``cards.toml:LINE: key.path``).
"""
from __future__ import annotations

import re
from typing import Any

_HEADER = re.compile(r"^\s*\[\[?([^\[\]]+)\]\]?\s*(#.*)?$")


def _header_name(raw: str) -> str:
    """A table header's dotted name as the parser reads it: ``[[ "solo" . "servant" ]]`` -> ``solo.servant``."""
    return ".".join(part.strip().strip("\"'") for part in raw.split("."))


class LineIndex:
    """Finds the line of a key path such as ``("solo", "servant", 2, "range")`` in the TOML text.

    TOML parsers do not keep positions, so this scans the text: the header of the array-of-tables
    entry, then the key inside it, then list items and inline-table keys on the following lines.
    It returns the closest line it can find (at worst the table header, or line 1).
    """

    def __init__(self, text: str):
        self.lines = text.split("\n")  # TOML's lines: U+2028 or U+0085 inside a comment or a string ends none
        self.headers: list[tuple[int, str, bool]] = []  # (line index, dotted name, is array)
        in_string: str | None = None  # the quotes of a multi-line string open at this line, whose lines are no headers
        for number, line in enumerate(self.lines):
            if in_string is None:
                match = _HEADER.match(line)
                if match and not line.lstrip().startswith("#"):
                    self.headers.append((number, _header_name(match.group(1)), line.lstrip().startswith("[[")))
            for quotes in ('"""', "'''"):
                if (in_string is None or in_string == quotes) and line.count(quotes) % 2 == 1:
                    in_string = quotes if in_string is None else None

    def line_of(self, path: tuple[Any, ...]) -> int:
        """The 1-based line of ``cards.toml`` that holds the key at ``path`` (table names, array
        indexes and keys, as pydantic reports them), or the nearest enclosing header's line."""
        parts = list(path)
        inner = self._sub_table_line(parts)
        if inner is not None:
            return inner
        start, end = 0, len(self.lines)
        # find the deepest header that is a prefix of the path
        best: tuple[int, int] | None = None
        for length in range(len(parts), 0, -1):
            name = ".".join(str(p) for p in parts[:length] if not isinstance(p, int))
            if any(isinstance(p, int) for p in parts[:length]) and not isinstance(parts[length - 1], int):
                continue
            matches = [(i, h) for i, h in enumerate(self.headers) if h[1] == name]
            if not matches:
                continue
            pick = 0
            if length < len(parts) + 1 and length >= 1 and isinstance(parts[length - 1], int):
                pick = parts[length - 1]
            elif length < len(parts) and isinstance(parts[length], int) and matches[0][1][2]:
                pick = parts[length]
                length += 1
            if pick >= len(matches):
                continue
            index, header = matches[pick]
            start = header[0]
            end = self.headers[index + 1][0] if index + 1 < len(self.headers) else len(self.lines)
            best = (start, length)
            break
        if best is None:
            # top-level keys before any header
            end = self.headers[0][0] if self.headers else len(self.lines)
            rest = parts
        else:
            rest = parts[best[1]:]
        line = start
        dotted: list[str] = []  # the parts of a dotted key (`zz.a = 1`) matched so far on `line`
        for part in rest:
            if isinstance(part, int):
                found = self._nth_item(line, end, part)
                dotted = []
                if found is not None:  # a key is looked for in this item only (twenty-fourth breaker: a missing
                    end = self._item_end(line, end, part, found)  # `color` of keys[0] was named on keys[1]'s line)
            elif dotted and self._dotted(line, [*dotted, str(part)]):
                found = line
                dotted.append(str(part))
            else:
                found = self._key(line, end, str(part))
                dotted = []
                if found is None:  # thirty-seventh pnp breaker, MED 6: `zz.a = 1` was said at its table's header
                    found = next((number for number in range(line, end) if self._dotted(number, [str(part)])), None)
                    dotted = [str(part)] if found is not None else []
            if found is None:
                break
            line = found
        return line + 1

    def _dotted(self, number: int, parts: list[str]) -> bool:
        """Whether the 0-based line ``number`` begins with the dotted key ``parts`` followed by more of it (``zz.a`` of
        ``zz.a.b = 1``) or by its ``=``, each part bare or quoted."""
        if number >= len(self.lines) or self.lines[number].lstrip().startswith("#"):
            return False
        keys = r"\s*\.\s*".join(f"(?:{re.escape(part)}|\"{re.escape(part)}\"|'{re.escape(part)}')" for part in parts)
        return re.match(rf"\s*{keys}\s*[.=]", self.lines[number]) is not None

    def header_of(self, path: tuple[Any, ...]) -> int | None:
        """The 1-based line of the ``[header]`` that opens the table at key ``path`` (``("solo", "city_quest", 1,
        "battle")``: a ``[solo.city_quest.battle]`` below the second ``[[solo.city_quest]]`` and before the third), or
        ``None`` when that table is written otherwise (inline, ``battle = { ... }``) or not at all."""
        parts = list(path)
        last_index = max((i for i, part in enumerate(parts) if isinstance(part, int)), default=None)
        if last_index is None:
            name = ".".join(str(part) for part in parts)
            return next((header[0] + 1 for header in self.headers if header[1] == name and not header[2]), None)
        entry = self._entry(parts, last_index)
        if entry is None:
            return None
        array, first, end = entry
        name = ".".join([array, *(str(part) for part in parts[last_index + 1:])])
        return next((self.headers[i][0] + 1 for i in range(first + 1, end) if self.headers[i][1] == name and not self.headers[i][2]),
                    None)

    def _entry(self, parts: list[Any], last_index: int) -> tuple[str, int, int] | None:
        """For a path whose last array index is at ``last_index`` with keys after it: the array's dotted name, and the
        indexes in :attr:`headers` of that entry's ``[[header]]`` and of the next entry's (or the end); ``None`` when
        no key follows the index or the file has no such entry."""
        if last_index + 1 >= len(parts):
            return None
        array = ".".join(str(p) for p in parts[:last_index] if not isinstance(p, int))
        entries = [i for i, header in enumerate(self.headers) if header[1] == array and header[2]]
        if parts[last_index] >= len(entries):
            return None
        first = entries[parts[last_index]]
        return array, first, next((i for i in entries if i > first), len(self.headers))

    def _sub_table_line(self, parts: list[Any]) -> int | None:
        """The 1-based line of ``parts`` when it lies in a table written under an array-of-tables entry by a
        header of its own (``[solo.servant.extra]`` after ``[[solo.servant]]``: the path ``solo, servant, 0,
        extra``), the header's line or that of a key below it; ``None`` for any other path (twenty-third
        breaker: such a table was named at its entry's header, eleven lines above the line to edit)."""
        last_index = max((i for i, part in enumerate(parts) if isinstance(part, int)), default=None)
        entry = None if last_index is None else self._entry(parts, last_index)
        if entry is None or last_index is None:
            return None
        array, first, end = entry
        rest = [str(p) for p in parts[last_index + 1:]]
        for length in range(len(rest), 0, -1):
            name = ".".join([array, *rest[:length]])
            found = next((self.headers[i][0] for i in range(first + 1, end) if self.headers[i][1] == name), None)
            if found is None:
                continue
            line = found
            stop = next((header[0] for header in self.headers if header[0] > found), len(self.lines))
            for key in rest[length:]:
                at = self._key(line, stop, key)
                if at is None:
                    break
                line = at
            return line + 1
        return None

    def _key(self, start: int, end: int, key: str) -> int | None:
        """The first line from ``start`` (0-based) up to ``end`` where ``key =`` (or ``"key" =``) is written, outside comments."""
        pattern = _key_pattern(key)
        for number in range(start, end):
            text = self.lines[number].split("#", 1)[0] if not self.lines[number].lstrip().startswith("#") else ""
            if pattern.search(text):
                return number
        return None

    def _item_end(self, start: int, end: int, index: int, item: int) -> int:
        """The 0-based line after item ``index`` (on line ``item``) of the array whose key is on line ``start``: the
        line of the next item, or of the array's closing bracket; ``item + 1`` for an array written on one line."""
        if item == start:
            return item + 1
        following = self._nth_item(start, end, index + 1)
        if following is not None:
            return following
        return next((number for number in range(item + 1, end) if self.lines[number].strip().startswith("]")), end)

    def _nth_item(self, start: int, end: int, index: int) -> int | None:
        """The line of item ``index`` of the array whose key is on line ``start`` (0-based): that line
        itself for a one-line array, else the ``index``-th line below it that starts an item."""
        if "[" in self.lines[start] and "]" in self.lines[start].split("=", 1)[-1].strip()[1:] and self.lines[start].rstrip().endswith("]"):
            return start  # a one-line array: the item is on this line
        seen = -1
        for number in range(start + 1, end):
            stripped = self.lines[number].strip()
            if stripped.startswith(("{", '"', "[")) or (stripped and stripped[0].isdigit()):
                seen += 1
                if seen == index:
                    return number
            if stripped.startswith("]"):
                break
        return None


def _key_pattern(key: str) -> re.Pattern[str]:
    """How ``key =`` is written on a line: bare or quoted for a bare key (``name``, ``"name"``); only quoted for any other
    (``"solo.back.quest"``, ``"name "``), each character as itself or, in double quotes, as its ``\\uXXXX`` escape.
    Thirty-fifth pnp breaker, MED 12: ``"name " = "x"`` and ``"na\\u200bme"`` were found on the line of the real
    ``name``, and the advice at that line, "remove name ", read as removing the good key."""
    if re.fullmatch(r"[A-Za-z0-9_-]+", key):
        return re.compile(r"(^|[{,\s])([\"']?)" + re.escape(key) + r"\2\s*=")
    escaped = "".join(re.escape(char) if char.isascii() and char.isprintable() and char not in '"\\' else
                      f"(?:{re.escape(char)}|\\\\u{ord(char):04x}|\\\\U{ord(char):08x})" if char not in '"\\' else
                      re.escape("\\" + char) for char in key)
    return re.compile(r"(^|[{,\s])(?:\"" + escaped + r"\"|'" + re.escape(key) + r"')\s*=", re.IGNORECASE if any(
        not (char.isascii() and char.isprintable()) for char in key) else 0)
