"""Text fitting: wrap words into a box and shrink the size until the text fits, never clipping.

This module owns how a field's text becomes placed :class:`~pnp.drawing.TextLine` and
:class:`~pnp.drawing.Icon` primitives: inline icon tokens (``:mana:``, ``:d6-4:`` ...), greedy word
wrapping, the binary search on the point size, alignment in the box, and the overflow report that
``pnp check`` turns into "<card id>: <field>: over by N.N mm".

Sizes are in points, boxes in millimetres (y down). Widths come from :mod:`pnp.fonts`, i.e. from the
bundled TTF files the PDF embeds.
"""
from __future__ import annotations

import collections
import difflib
import re
import unicodedata
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Literal, SupportsIndex

from pnp import fonts, resources
from pnp.drawing import Anchor, Box, Icon, Primitive, TextLine
from pnp.units import MM_PER_PT, ROUNDING_SLACK

ICON_DIR = resources.ICON_DIR
"""Folder of the icon SVG files (viewBox 0 0 100 100), ``templates/icons`` (:mod:`pnp.resources`)."""

INLINE_ICONS: frozenset[str] = frozenset(path.stem for path in ICON_DIR.glob("*.svg"))
"""Icon names that may appear as ``:name:`` tokens in card text: every icon of ``templates/icons``."""

ICON_ADVANCE_EM = 1.0
"""Horizontal space an inline icon takes, in em (the text size)."""
ICON_SIZE_EM = 0.9
"""Side of an inline icon's square box, in em."""
ICON_DROP_EM = 0.045
"""How far the icon box's bottom sits below the baseline, in em: the icons' drawings span 5..95 of
their 100-unit viewBox, so the visible drawing stands on the baseline."""

_TOKEN = re.compile(r":([a-z0-9-]+):")
_ICON_LIKE = re.compile(r":([a-z][a-z0-9-]*):")


_NEAR_ICON = re.compile(r":([A-Za-z][A-Za-z0-9_-]*\s*):")
"""A token glued to its opening colon in any case, with ``_`` or a space before the closing colon (``:Mana:``,
``:d6_1:``, ``:mana :``): a near miss of an icon when, written as icons are, it is one (fifteenth breaker)."""


class TemplateText(str):
    """A printed text that knows which of its characters a template's ``[strings]`` wrote (thirty-ninth pnp breaker,
    MED 7: `spell_text = "{cost} :nope: {text}"` was blamed on every spell's `text` at cards.toml lines that hold no
    icon, besides the template's own line). :meth:`pnp.layout.template.Template.string` and
    :meth:`~pnp.layout.template.Template.formatted` give one; it is a plain ``str`` to everything else.

    ``written`` holds one ``(start, end)`` span (str indices, end excluded) for each run of one string's own words: a
    ``{placeholder}`` filled from a card is not in any, a value that is itself a :class:`TemplateText` (a template's
    colour name, a learn cost in a spell's text) brings its own spans. ``+`` and :meth:`join` keep the spans, and the
    pieces of a text one string wrote whole (:meth:`split`, :meth:`lower`, :meth:`upper`, :meth:`capitalize`,
    :meth:`strip`) are written by it too; any other ``str`` method gives a plain ``str``, whose characters are then all
    taken as the card's own (said at the card: never a problem lost)."""

    written: tuple[tuple[int, int], ...]

    def __new__(cls, text: str, written: Iterable[tuple[int, int]] = ()) -> TemplateText:
        made = super().__new__(cls, text)
        made.written = tuple((start, end) for start, end in written if start < end)
        return made

    @classmethod
    def whole(cls, text: str) -> TemplateText:
        """``text``, every character of it written by one template string."""
        return cls(text, ((0, len(text)),))

    def __add__(self, other: str) -> TemplateText:
        if not isinstance(other, str):
            return NotImplemented
        return TemplateText(str.__add__(self, other), self.written + shifted_spans(other, len(self)))

    def __radd__(self, other: str) -> TemplateText:
        if not isinstance(other, str):
            return NotImplemented
        return TemplateText(str.__add__(other, self), written_spans(other) + shifted_spans(self, len(other)))

    def _is_whole(self) -> bool:
        """Whether one string wrote every character of this text."""
        return any(start == 0 and end >= len(self) for start, end in self.written)

    def split(self, sep: str | None = None, maxsplit: SupportsIndex = -1) -> list[str]:
        """As :meth:`str.split`; each piece a :class:`TemplateText` written whole when this one is."""
        pieces = str.split(self, sep, maxsplit)
        return [TemplateText.whole(piece) for piece in pieces] if self._is_whole() else pieces

    def lower(self) -> str:
        """As :meth:`str.lower`, written whole when this text is."""
        return TemplateText.whole(str.lower(self)) if self._is_whole() else str.lower(self)

    def upper(self) -> str:
        """As :meth:`str.upper`, written whole when this text is."""
        return TemplateText.whole(str.upper(self)) if self._is_whole() else str.upper(self)

    def capitalize(self) -> str:
        """As :meth:`str.capitalize`, written whole when this text is."""
        return TemplateText.whole(str.capitalize(self)) if self._is_whole() else str.capitalize(self)

    def strip(self, chars: str | None = None, /) -> str:
        """As :meth:`str.strip`, written whole when this text is."""
        return TemplateText.whole(str.strip(self, chars)) if self._is_whole() else str.strip(self, chars)

    def join(self, parts: Iterable[str], /) -> TemplateText:
        """The ``parts`` with this text between them, as :meth:`str.join`, keeping the spans of this text and of each part."""
        joined = TemplateText("")
        for index, part in enumerate(parts):
            joined = joined + self + part if index else joined + part
        return joined


def written_spans(text: str) -> tuple[tuple[int, int], ...]:
    """The spans of ``text`` a template's ``[strings]`` wrote (:class:`TemplateText`); none for a plain ``str``."""
    return text.written if isinstance(text, TemplateText) else ()


def shifted_spans(text: str, by: int) -> tuple[tuple[int, int], ...]:
    """:func:`written_spans` of ``text`` moved ``by`` characters on: its spans once it is put after ``by`` characters."""
    return tuple((start + by, end + by) for start, end in written_spans(text))


def unknown_icons(text: str, written: Sequence[tuple[int, int]] = ()) -> list[str]:
    """The names of the ``:name:`` tokens in ``text`` that are not icons of ``templates/icons``, in order,
    each once: tokens of a letter, then letters, digits and hyphens (``:manna:``), and near misses that
    are an icon once written in lower case with hyphens and no space (``:Mana:``, ``:SPIRIT:``,
    ``:d6_1:``, ``:mana :``). Such tokens print as plain text, so each is a problem to report (prose
    such as ``Battle: Win:`` is no token: a space follows its first colon).

    ``written``: ``(start, end)`` spans of ``text`` (str indices) that a template's ``[strings]`` wrote
    (:attr:`pnp.layout.template.TemplateText.written`); a token wholly inside one of them is not the text's own and is
    left out (thirty-ninth pnp breaker, MED 7: an unknown icon in `spell_text` was blamed on each spell's text too)."""
    found: list[str] = []
    for match in _ICON_LIKE.finditer(text):
        name = match.group(1)
        if name not in INLINE_ICONS and name not in found and not _within(match.span(), written):
            found.append(name)
    for match in _NEAR_ICON.finditer(text):
        name = match.group(1)
        if name not in INLINE_ICONS and name not in found and icon_meant(name) is not None and not _within(match.span(), written):
            found.append(name)
    return found


def _within(span: tuple[int, int], spans: Sequence[tuple[int, int]]) -> bool:
    """Whether the str index range ``span`` lies wholly inside one of ``spans``."""
    return any(start <= span[0] and span[1] <= end for start, end in spans)


_UNCLOSED = re.compile(r"(?<![^\s(\[{\"'])(:([a-z][a-z0-9-]*))(?![a-z0-9-]|\s*:)")
"""A colon at the start of a word and a lower-case name with no closing colon (``+2 :mana``, ``(:win)``)."""


def unclosed_icons(text: str, written: Sequence[tuple[int, int]] = ()) -> list[str]:
    """The icon names of ``text`` written with their opening colon only (``+2 :mana``: it prints as text,
    eighteenth breaker), in order, each once; a name that is no icon is prose (``the ratio 3:1``, ``at:noon``
    glued to a word, are not matched at all). ``written``: the spans a template wrote, left out as in
    :func:`unknown_icons`."""
    found: list[str] = []
    for match in _UNCLOSED.finditer(text):
        name = match.group(2)
        if name in INLINE_ICONS and name not in found and not _within(match.span(1), written):
            found.append(name)
    return found


_ICON_PATH = re.compile(r"(?<![^\s(\[{\"'])(:([^\s:]*[/\\][^\s:]*):)")
"""A token written as an icon's file path (``:icons/win.svg:``, ``:/win:``): a colon at the start of a word, a run with
a slash or a backslash, a closing colon."""


def icon_paths(text: str, written: Sequence[tuple[int, int]] = ()) -> list[str]:
    """The tokens of ``text`` that give an icon as a path (``:icons/win.svg:``, ``:templates/icons/win.svg:``, ``:/win:``),
    whole, colons included, in order, each once: a token names an icon by its bare name only, so these print as written
    (forty-sixth pnp breaker, F14: they passed ``check`` and printed literally). ``written``: the spans a template wrote,
    left out as in :func:`unknown_icons`. :func:`icon_path_advice` says each."""
    found: list[str] = []
    for match in _ICON_PATH.finditer(text):
        if match.group(1) not in found and not _within(match.span(1), written):
            found.append(match.group(1))
    return found


def icon_path_advice(token: str) -> str:
    """What is wrong with ``token``, an icon given as a path (:func:`icon_paths`), and what to write instead: the bare name
    of the icon its file names (``:icons/win.svg:`` -> ``write :win:``), or the icon nearest it."""
    stem = re.split(r"[/\\]", token.strip(":"))[-1].removesuffix(".svg")
    meant = icon_meant(stem) if stem else None
    right = f"write :{meant}: (an icon's bare name)" if meant else "write an icon's bare name between colons, such as :win:"
    return f"{token} gives an icon as a path, so it prints as text; {right}"


ICON_COLONS = ":\ufe13\ufe55\uff1a"
"""The colon and the characters NFKC reads as one (U+FE13 presentation form for vertical colon, U+FE55 small colon,
U+FF1A fullwidth colon, as a Japanese input method types it): what an icon token may be written between by mistake."""

SIGNS = "+-\u2212\u00b1"
"""Signs that may be typed before an icon's name by mistake (``:-mana:`` for ``-1 :mana:``)."""

_LOOKALIKE = re.compile(rf"(?=([{ICON_COLONS}])([^\s{ICON_COLONS}/\\]{{1,40}})([{ICON_COLONS}]))")
"""A run between two colons of :data:`ICON_COLONS` with no space, colon or slash in it, at each colon (overlapping, so
``:mana:wïn:`` finds ``:wïn:`` too)."""

_PLAIN_TOKEN = re.compile(r"[A-Za-z][A-Za-z0-9_-]*")
"""A token's name that :func:`unknown_icons` judges (ASCII, a letter first)."""


def icon_spelling(name: str) -> str:
    """``name`` as an icon's name is written: its NFKC form (fullwidth letters and digits as ASCII ones), its letters
    without accents (``wïn`` -> ``win``), dashes as ``-``, ``_`` as ``-``, lower case and no sign before it."""
    folded = unicodedata.normalize("NFKD", unicodedata.normalize("NFKC", name))
    folded = "".join("-" if unicodedata.category(char) == "Pd" or char == "\u2212" else char for char in folded
                     if not unicodedata.combining(char))
    return folded.lower().replace("_", "-").lstrip(SIGNS)


def lookalike_icons(text: str, written: Sequence[tuple[int, int]] = ()) -> list[tuple[str, str]]:
    """The tokens of ``text`` written like an icon's but naming none, each as ``(the token as written, the icon meant)``,
    in order, each once: an accented letter (``:wïn:``), a sign before the name (``:-mana:``), a fullwidth or other
    NFKC form of a letter or of a colon (``:ｗin:``, ``：win：``). They print as written (first icon breaker, fault 3:
    they passed check). A token is said when it holds a character outside ASCII or a sign before its name, and its name
    written as icons are (:func:`icon_spelling`) is an icon's or near one (:func:`icon_meant`); so a time (``10:30``),
    a colon in prose (followed by a space), a ratio, and a word of another script between fullwidth colons (``：準備：``)
    are never said. Plain ASCII tokens (``:manna:``, ``:Mana:``) are :func:`unknown_icons`'; ``written``: the spans a
    template wrote, left out as there. :func:`lookalike_icon_advice` says each."""
    found: list[tuple[str, str]] = []
    for match in _LOOKALIKE.finditer(text):
        opening, name, closing = match.groups()
        token = opening + name + closing
        if token.isascii() and not name.startswith(tuple(SIGNS)):
            continue  # an icon, an unknown icon (unknown_icons), or prose: 10:30:45
        spelt = icon_spelling(name)
        meant = icon_meant(spelt) if spelt else None
        if meant is not None and token not in (seen for seen, _ in found) and not _within((match.start(1), match.end(3)), written):
            found.append((token, meant))
    return found


def lookalike_icon_advice(token: str, meant: str) -> str:
    """What is wrong with ``token``, written like an icon token (:func:`lookalike_icons`), and the icon token to write."""
    odd = next((char for char in token if not char.isascii()), None)
    if odd is not None and odd in ICON_COLONS:
        why = f"{odd!r} (U+{ord(odd):04X} {unicodedata.name(odd, '')}) is not the colon ':'"
    elif odd is not None:
        why = f"{odd!r} (U+{ord(odd):04X}{' ' + unicodedata.name(odd, '') if unicodedata.name(odd, '') else ''}) is no letter of an icon's name"
    else:
        why = "an icon's name has no sign before it (a sign goes before the icon: -1 :mana:)"
    return f"{token} is written like an icon but names none, so it prints as text: {why}; did you mean :{meant}:?"


def _one_edit_apart(one: str, other: str) -> bool:
    """Whether ``other`` is ``one`` with one letter added, dropped, changed, or two neighbours swapped (``kye``, ``key``)."""
    if abs(len(one) - len(other)) > 1 or one == other:
        return False
    if len(one) == len(other):
        differ = [i for i in range(len(one)) if one[i] != other[i]]
        return len(differ) == 1 or (len(differ) == 2 and differ[1] == differ[0] + 1
                                    and one[differ[0]] == other[differ[1]] and one[differ[1]] == other[differ[0]])
    shorter, longer = sorted((one, other), key=len)
    return any(longer[:i] + longer[i + 1:] == shorter for i in range(len(longer)))


def close_name(written: str, names: Iterable[str], cutoff: float = 0.75) -> str | None:
    """The one of ``names`` that ``written`` is most likely a typo of: the closest by :mod:`difflib` (a ratio of at least
    ``cutoff``), else one a single letter away (a letter added, dropped or changed, two swapped: ``inks`` -> ``ink``,
    ``kye`` -> ``key``, twenty-third breaker); ``None`` when none is near."""
    choices = sorted(set(names))
    close = difflib.get_close_matches(written, choices, 1, cutoff=cutoff)
    if close:
        return close[0]
    near = [name for name in choices if len(written) >= 3 and _one_edit_apart(written, name)]
    return near[0] if near else None


def icon_meant(name: str) -> str | None:
    """The icon a token ``name`` means when written as icons are (lower case, hyphens, no space), or the one
    it is closest to (``manna`` -> ``mana``, ``kye`` -> ``key``: :func:`close_name`); ``None`` when none is near."""
    written = name.strip().lower().replace("_", "-")
    if written in INLINE_ICONS:
        return written
    return close_name(written, INLINE_ICONS)

Align = Literal["left", "center", "right"]
VAlign = Literal["top", "middle", "bottom"]
ANCHOR_OF_ALIGN: dict[Align, Anchor] = {"left": "start", "center": "middle", "right": "end"}
"""The SVG text anchor of each horizontal alignment."""


class TextFitError(ValueError):
    """A fitting request is malformed (negative box, min size above max, unknown icon token...)."""


BREAKS = re.compile(r"[ \t\r\f\v]+")
"""Where a line may break between words: ASCII spaces and tabs (never a no-break space)."""
SOFT_HYPHEN = "\u00ad"
"""A soft hyphen: invisible where the line does not break (a renderer may draw it as a hyphen)."""
ZERO_WIDTH_SPACE = "\u200b"
"""A zero width space: a line may break there, printing nothing, as it prints nothing where it does not (the mark of
where a line may break in a script written without spaces)."""
BREAK_MARKS = SOFT_HYPHEN + ZERO_WIDTH_SPACE
"""The marks a word may break at (:func:`_break_marks`): they print nothing (a hyphen ends a line broken at a soft
hyphen)."""
_UNMARKED = str.maketrans("", "", BREAK_MARKS)


def _unmarked(text: str) -> str:
    """``text`` as printed inside a line: without its break marks (:data:`BREAK_MARKS`)."""
    return text.translate(_UNMARKED) if any(mark in text for mark in BREAK_MARKS) else text


_CLOSING = frozenset("、。，．・：；！？）」』】〕〉》〙〗〟’”｠»ゝゞヽヾ々〻ー～…‥゠"
                     "ぁぃぅぇぉっゃゅょゎゕゖァィゥェォッャュョヮヵヶㇰㇱㇲㇳㇴㇵㇶㇷㇸㇹㇺㇻㇼㇽㇾㇿ")
"""Characters no line may start with (Unicode line breaking, UAX #14, classes CL, CP, NS, IN: closing punctuation,
small kana, the prolonged sound mark, iteration marks)."""
_OPENING = frozenset("（「『【〔〈《〘〖〝‘“｟«")
"""Characters no line may end with (UAX #14 class OP: opening punctuation)."""


def _ideographic(char: str) -> bool:
    """Whether ``char`` is written without spaces, a line breaking before or after it (UAX #14 class ID: CJK ideographs,
    hiragana, katakana, fullwidth punctuation). Hangul is not: Korean is set with spaces, a word kept whole."""
    code = ord(char)
    return (0x3000 <= code <= 0x30FF or 0x31F0 <= code <= 0x31FF or 0x3400 <= code <= 0x4DBF or 0x4E00 <= code <= 0x9FFF
            or 0xF900 <= code <= 0xFAFF or 0xFF01 <= code <= 0xFF60 or 0xFF66 <= code <= 0xFF9F)


def mark_breaks(word: str) -> str:
    """``word`` (a run of text with no space) with a :data:`ZERO_WIDTH_SPACE` wherever a line may break inside it by
    Unicode line breaking (UAX #14) as a script written without spaces is broken: before and after an ideograph or a
    kana (``まちは`` -> ``ま\u200bち\u200bは``), never before closing punctuation or a small kana (``。``, ``っ``, ``ー``) nor
    after opening punctuation (``「``); nowhere in a word without such characters. Twenty-fourth breaker: Japanese
    text never broke, and was told to put spaces (that would print) where lines may break."""
    if len(word) < 2 or not any(_ideographic(char) for char in word):
        return word
    out = [word[0]]
    for before, after in zip(word, word[1:]):
        if (_ideographic(before) or _ideographic(after)) and before not in _OPENING and after not in _CLOSING \
                and before not in BREAK_MARKS and after not in BREAK_MARKS and not (before == ":" or after == ":"):
            out.append(ZERO_WIDTH_SPACE)
        out.append(after)
    return "".join(out)


@dataclass(frozen=True)
class _Piece:
    """A word fragment: text in one family, or an inline icon (``icon`` set, ``text`` empty)."""

    text: str = ""
    icon: str | None = None


Word = tuple[_Piece, ...]


def parse_words(text: str) -> list[list[Word]]:
    """Split ``text`` into paragraphs (on newlines) of words (on spaces), each word a tuple of pieces.

    ``:name:`` tokens whose name is in :data:`INLINE_ICONS` become icon pieces; any other text between
    colons stays text. An empty paragraph (blank line) is kept as an empty list. A soft hyphen
    (U+00AD) is kept in its word: a line may break there, printing a hyphen (:func:`wrap`); elsewhere it
    prints nothing, in the PDF as in the SVG. A zero width space (U+200B) is kept likewise, a break that prints
    nothing, and one is put wherever a line may break in text written without spaces (kana: :func:`mark_breaks`). The text
    is composed first (Unicode NFC: an accent typed as its own character, as macOS pastes it, is printed
    on its letter), and words are split at ASCII spaces and tabs only: a no-break space (U+00A0, U+202F)
    keeps its two words on one line.
    """
    paragraphs: list[list[Word]] = []
    for paragraph in unicodedata.normalize("NFC", text).split("\n"):
        words: list[Word] = []
        for raw in BREAKS.split(paragraph):
            if not raw:
                continue
            raw = mark_breaks(raw)
            pieces: list[_Piece] = []
            position = 0
            for match in _TOKEN.finditer(raw):
                if match.group(1) not in INLINE_ICONS:
                    continue
                if match.start() > position:
                    pieces.append(_Piece(raw[position:match.start()]))
                pieces.append(_Piece(icon=match.group(1)))
                position = match.end()
            if position < len(raw):
                pieces.append(_Piece(raw[position:]))
            words.append(tuple(pieces))
        paragraphs.append(words)
    return paragraphs


def _piece_width(piece: _Piece, family: str, size: float) -> float:
    if piece.icon:
        return ICON_ADVANCE_EM * size * MM_PER_PT
    return fonts.string_width_mm(_unmarked(piece.text), family, size)


_MARK = re.compile(f"[{BREAK_MARKS}]")
_PRINTED = re.compile(f"[^{BREAK_MARKS}]")


def _break_marks(word: Word) -> Iterator[tuple[int, int]]:
    """Each place ``word`` may break at (:data:`BREAK_MARKS`), first to last, as ``(piece index, character index)``: a
    mark with printed text before and after it in its piece. Found as they are asked for (:func:`_last_soft_break` asks
    only for those of the first lines' worth of a long word)."""
    for index, piece in enumerate(word):
        if piece.icon or not any(mark in piece.text for mark in BREAK_MARKS):
            continue
        text = piece.text
        first = _PRINTED.search(text)
        if first is None:
            continue
        last = len(text) - 1  # the last printed character: a mark after it has nothing printed after it
        while text[last] in BREAK_MARKS:
            last -= 1
        for match in _MARK.finditer(text, first.start() + 1, last):
            yield index, match.start()


def _break_at(word: Word, index: int, at: int, hyphen: bool = True) -> tuple[Word, Word]:
    """``word`` broken at its break mark ``at`` of piece ``index`` (:func:`_break_marks`): ``(head, tail)``, the head
    ending in a printed hyphen at a soft hyphen (U+00AD; twenty-third breaker: a German compound marked for breaking was
    refused as having "no space to break a line at") when ``hyphen``, in nothing at a zero width space (U+200B, put
    between kana by :func:`mark_breaks`: twenty-fourth breaker)."""
    text = word[index].text
    end = "-" if hyphen and text[at] == SOFT_HYPHEN else ""
    return word[:index] + (_Piece(text[:at] + end),), (_Piece(text[at + 1:]),) + word[index + 1:]


def _last_soft_break(word: Word, line: list[Word], family: str, size: float, limit: float) -> tuple[Word, Word] | None:
    """The last way to break ``word`` at one of its break marks (:func:`_break_marks`) whose head, after the words of
    ``line``, is no wider than ``limit`` mm at ``size`` pt, as ``(head, tail)``; ``None`` when none is.

    A head grows with the marks after it, so the last one that fits is searched, not tried one by one: doubling the
    steps from the first mark, then halving between the last that fits and the first that does not, the heads measured
    without the hyphen a soft hyphen prints (a mark whose head does not fit so has none after it that does); a soft
    hyphen whose printed hyphen does not fit then gives way to the mark before it. A word of N marks costs about
    log N measures of heads of about one line, not N measures of heads of up to the whole word (first text breaker,
    fault 4: 1,940 kana, a mark between each two, took a minute or two to fit: cubic in the text's length)."""
    found = _break_marks(word)
    marks: list[tuple[int, int]] = []

    def mark(number: int) -> tuple[int, int] | None:
        while len(marks) <= number:
            following = next(found, None)
            if following is None:
                return None
            marks.append(following)
        return marks[number]

    def fits(number: int, hyphen: bool) -> bool:
        index, at = marks[number]
        return line_width(line + [_break_at(word, index, at, hyphen)[0]], family, size) <= limit

    if mark(0) is None or not fits(0, False):
        return None
    good, bad, step = 0, None, 1  # fits(good) holds; bad is the first mark known not to fit
    while bad is None:
        if mark(good + step) is None:
            bad = len(marks)  # every mark found: the last is searched below
            break
        if fits(good + step, False):
            good, step = good + step, step * 2
        else:
            bad = good + step
    while bad - good > 1:
        middle = (good + bad) // 2
        if fits(middle, False):
            good = middle
        else:
            bad = middle
    for number in range(good, -1, -1):
        index, at = marks[number]
        if word[index].text[at] != SOFT_HYPHEN or fits(number, True):
            return _break_at(word, index, at)
    return None


def _as_printed(line: list[Word]) -> list[Word]:
    """``line`` as printed: the break marks where it did not break print nothing."""
    return [tuple(_Piece(_unmarked(piece.text), piece.icon) for piece in word) for word in line]


def _word_width(word: Word, family: str, size: float) -> float:
    return sum(_piece_width(p, family, size) for p in word)


PREFIX_CHARS = 128
"""Characters of a long word measured first (then four times as many, and so on) to tell that it is wider than a line
(:func:`_width_within`)."""


def _width_within(word: Word, family: str, size: float, budget: float) -> float:
    """The width of ``word`` (:func:`_word_width`) when it is at most ``budget`` mm; when it is wider, the width of a
    head of it that is already wider than ``budget`` (so never more than the word's): a long word's lines are found
    measuring about a line's worth of it each, not all of it each time (first text breaker, fault 4)."""
    total = sum(len(piece.text) or 1 for piece in word)
    most = PREFIX_CHARS
    while total > most:
        head: list[_Piece] = []
        left = most
        for piece in word:
            head.append(piece if piece.icon else _Piece(piece.text[:left]))
            left -= len(piece.text) or 1
            if left <= 0:
                break
        width = _word_width(tuple(head), family, size)
        if width > budget:
            return width
        most *= 4
    return _word_width(word, family, size)


def wrap(paragraphs: list[list[Word]], family: str, size: float, width_mm: float) -> list[list[Word]]:
    """Greedy word wrap: lines of words no wider than ``width_mm`` at ``size`` pt.

    A word wider than the box alone still gets its own line (it is never split); the caller sees the
    overflow through :func:`line_width`. Each paragraph starts a new line.
    """
    return _wrap_marked(paragraphs, family, size, width_mm)[0]


def _wrap_marked(paragraphs: list[list[Word]], family: str, size: float, width_mm: float) -> tuple[list[list[Word]], list[bool]]:
    """:func:`wrap`, plus for each line whether it starts a paragraph."""
    space = fonts.string_width_mm(" ", family, size)
    lines: list[list[Word]] = []
    starts: list[bool] = []
    for words in paragraphs:
        line: list[Word] = []
        used = 0.0
        first = True
        pending = collections.deque(words)
        while pending:
            word = pending.popleft()
            # the exact width when the word fits the line, else one past the line's (the comparisons below read the same)
            w = _width_within(word, family, size, width_mm + ROUNDING_SLACK)
            if (line and used + space + w > width_mm + ROUNDING_SLACK) or (not line and w > width_mm + ROUNDING_SLACK):
                # a word marked with soft hyphens breaks at the last one whose head still fits this line
                fitting = _last_soft_break(word, line, family, size, width_mm + ROUNDING_SLACK)
                if fitting is not None:
                    head, tail = fitting
                    lines.append(line + [head])
                    starts.append(first)
                    first = False
                    line, used = [], 0.0
                    pending.appendleft(tail)
                    continue
            if line and used + space + w > width_mm + ROUNDING_SLACK:
                lines.append(line)
                starts.append(first)
                first = False
                line, used = [word], w
                continue
            if line:
                # measured as drawn: a space after a fallback run (Hangul) is that font's space, wider than the
                # family's (thirteenth breaker: Korean lines measured 1 mm wider than the wrap allowed)
                used = line_width(line + [word], family, size)
                if used > width_mm + ROUNDING_SLACK:
                    lines.append(line)
                    starts.append(first)
                    first = False
                    line, used = [word], w
                    continue
            else:
                used = w
            line.append(word)
        lines.append(line)
        starts.append(first)
    return [_as_printed(line) if any(_unmarked(piece.text) != piece.text for word in line for piece in word) else line
            for line in lines], starts


def _baselines(starts: list[bool], size: float, line_spacing: float, paragraph_spacing: float) -> list[float]:
    """Offset in mm of each line's baseline below the first line's baseline."""
    em = size * MM_PER_PT
    offsets: list[float] = []
    position = 0.0
    for index, start in enumerate(starts):
        if index:
            position += em * line_spacing + (em * paragraph_spacing if start else 0.0)
        offsets.append(position)
    return offsets


def _segments(line: list[Word]) -> list[tuple[str, str | None]]:
    """The line as alternating ``(text, None)`` strings (words joined by single spaces) and ``("", icon)``."""
    merged: list[tuple[str, str | None]] = []
    texts: list[str] = []  # the text segment being gathered (joined once it ends: measured for every size tried)
    for index, word in enumerate(line):
        if index:
            texts.append(" ")
        for piece in word:
            if piece.icon:
                if texts:
                    merged.append(("".join(texts), None))
                    texts = []
                merged.append(("", piece.icon))
            else:
                texts.append(_unmarked(piece.text))
    if texts:
        merged.append(("".join(texts), None))
    return merged


def line_width(line: list[Word], family: str, size: float) -> float:
    """Width in mm of one wrapped line at ``size`` pt (words joined by single spaces, icons included).

    Measured exactly as :func:`place_line` draws it, font fallback runs included.
    """
    em = size * MM_PER_PT
    return sum(ICON_ADVANCE_EM * em if icon else fonts.string_width_mm(text, family, size)
               for text, icon in _segments(line))


def block_height(lines: int, family: str, size: float, line_spacing: float) -> float:
    """Height in mm of ``lines`` lines: ascent of the first, ``line_spacing`` em per further line,
    descent of the last."""
    if lines == 0:
        return 0.0
    em = size * MM_PER_PT
    return fonts.ascent_mm(family, size) + (lines - 1) * em * line_spacing + fonts.descent_mm(family, size)


def measure(text: str, width_mm: float, family: str, size: float, *, line_spacing: float = 1.15,
            paragraph_spacing: float = 0.0) -> tuple[float, float]:
    """``(height, widest line)`` in mm of ``text`` wrapped into ``width_mm`` at ``size`` pt, exactly as
    :func:`fit_text` measures it (a block of no lines is 0 mm tall)."""
    lines, offsets, over_h, over_w = _measure(parse_words(text), family, size, Box(0.0, 0.0, width_mm, 1.0),
                                              line_spacing, paragraph_spacing)
    return over_h + 1.0, over_w + width_mm


@dataclass(frozen=True)
class FitResult:
    """The outcome of :func:`fit_text`.

    ``items``: the placed primitives (drawn even when the text overflows, so the problem shows).
    ``size``: the chosen size in pt. ``lines``: the text of each line (icons as ``:name:``).
    ``fits``: whether everything lies inside the box. ``over_mm``: by how much it does not fit at the
    minimum size (the larger of the height and width overflow, 0.0 when it fits). ``over_lines``:
    how many lines fall (partly) below the box.
    """

    items: tuple[Primitive, ...]
    size: float
    lines: tuple[str, ...]
    fits: bool
    over_mm: float
    over_lines: int


def _measure(paragraphs, family, size, box: Box, line_spacing, paragraph_spacing=0.0):
    """Wrap at ``size``; return the lines, their baseline offsets, and the height and width overflow (mm)."""
    lines, starts = _wrap_marked(paragraphs, family, size, box.width)
    offsets = _baselines(starts, size, line_spacing, paragraph_spacing)
    height = fonts.ascent_mm(family, size) + offsets[-1] + fonts.descent_mm(family, size) if lines else 0.0
    widest = max((line_width(line, family, size) for line in lines), default=0.0)
    return lines, offsets, height - box.height, widest - box.width


def fit_text(text: str, box: Box, family: str = "serif", max_size: float = 10.0, min_size: float = 6.0, *,
             align: Align = "left", valign: VAlign = "top", line_spacing: float = 1.15,
             paragraph_spacing: float = 0.0, fill: str = "#000000", resolution: float = 0.1, source: str = "") -> FitResult:
    """Wrap ``text`` into ``box`` (mm) and shrink it from ``max_size`` towards ``min_size`` (pt) until it fits.

    The size is found by binary search in steps of ``resolution`` pt: the largest size at which the
    greedily wrapped lines are no wider than the box and their height (:func:`block_height`) no taller.
    If even ``min_size`` does not fit, the text is set at ``min_size`` and the result reports the
    overflow instead of clipping. ``align`` places lines horizontally, ``valign`` the block vertically.
    Lines are ``line_spacing`` em apart; a new paragraph (after a newline in ``text``) adds
    ``paragraph_spacing`` em.
    Inline ``:icon:`` tokens take :data:`ICON_ADVANCE_EM` em and are drawn as :class:`Icon` on the baseline.
    ``source`` (a template box's name) is given to every placed :class:`TextLine` and :class:`Icon`.

    Raises :class:`TextFitError` when ``min_size`` exceeds ``max_size``, a size is not positive, the box
    has no area, or ``align``/``valign`` is unknown.
    """
    if min_size <= 0 or max_size < min_size:
        raise TextFitError(f"size range [{max_size}, {min_size}] pt must have max >= min > 0")
    if box.width <= 0 or box.height <= 0:
        raise TextFitError(f"text box {box} has no area")
    if align not in ("left", "center", "right") or valign not in ("top", "middle", "bottom"):
        raise TextFitError(f"alignment {align!r}/{valign!r} is not left/center/right and top/middle/bottom")
    paragraphs = parse_words(text)
    measured: dict[float, tuple] = {}  # size: _measure's result (the size chosen is measured once, not again to place it)

    def measure_at(size: float) -> tuple:
        if size not in measured:
            measured[size] = _measure(paragraphs, family, size, box, line_spacing, paragraph_spacing)
        return measured[size]

    def fits(step: int) -> bool:
        _, _, over_h, over_w = measure_at(step * resolution)
        return over_h <= ROUNDING_SLACK and over_w <= ROUNDING_SLACK

    low = round(min_size / resolution)
    high = round(max_size / resolution)
    if fits(high):
        chosen = high
    elif not fits(low):
        chosen = low
    else:
        while low < high:  # invariant: fits(low) is True, the answer lies in [low, high]
            middle = (low + high + 1) // 2
            if fits(middle):
                low = middle
            else:
                high = middle - 1
        chosen = low
    size = round(chosen * resolution, 4)
    lines, offsets, over_h, over_w = measure_at(size)
    over = max(over_h, over_w, 0.0)
    fits_now = over <= ROUNDING_SLACK
    height = box.height + over_h
    items = _place(lines, offsets, height, box, family, size, align, valign, fill, source)
    over_lines = 0
    if not fits_now and over_h > ROUNDING_SLACK:
        limit = box.height - fonts.ascent_mm(family, size) - fonts.descent_mm(family, size)
        over_lines = sum(1 for offset in offsets if offset > limit + ROUNDING_SLACK)
    return FitResult(items=tuple(items), size=size, lines=tuple(_line_text(line) for line in lines),
                     fits=fits_now, over_mm=round(over, 2) if not fits_now else 0.0, over_lines=over_lines)


@dataclass(frozen=True)
class LineClash:
    """Two printed lines of one text whose ink meets (:func:`line_clash`): the character ``upper`` of the word
    ``upper_word`` reaches ``overlap_mm`` mm into the character ``lower`` of the word ``lower_word`` of the next line,
    printed under it (an icon is ``:name:``, its word ``""``); ``spacing`` is the ``line_spacing`` (em) at which the
    two would clear each other."""

    overlap_mm: float
    upper: str
    upper_word: str
    lower: str
    lower_word: str
    spacing: float


LINE_CLASH_SLACK_MM = 0.02
"""Ink of two lines may come this close (mm) before they count as printed over each other: a glyph's bounding box is
the outline's extreme, never more ink than there is."""


def ink_boxes(items: Iterable[Primitive]) -> list[tuple[float, float, str, str, Box]]:
    """``(baseline, em, character, its word, ink box)`` for each glyph and icon of ``items`` (mm, y down): a
    glyph's box from its font (:func:`pnp.fonts.glyph_ink_box`) at its pen position, an icon's drawing (5..95 of its
    box). Turned lines are left out."""
    found: list[tuple[float, float, str, str, Box]] = []
    for item in items:
        if isinstance(item, Icon):
            em = item.size / ICON_SIZE_EM
            baseline = item.y + item.size - ICON_DROP_EM * em
            inset = item.size * 0.05
            found.append((baseline, em, f":{item.name}:", "", Box(item.x + inset, item.y + inset, item.size - 2 * inset,
                                                                 item.size - 2 * inset)))
            continue
        if not isinstance(item, TextLine) or item.rotation:
            continue
        em = item.size * MM_PER_PT
        width = sum(fonts.glyph_advance_mm(char, item.family, item.size) for char in item.text)
        pen = item.x - {"start": 0.0, "middle": width / 2, "end": width}[item.anchor]
        scale = em / 1000
        for index, char in enumerate(item.text):
            ink = fonts.glyph_ink_box(item.family, char)
            if ink is not None:
                left, bottom, right, top = ink
                end = item.text.find(" ", index)
                word = item.text[item.text.rfind(" ", 0, index) + 1: end if end >= 0 else len(item.text)]
                found.append((item.y, em, char, word,
                              Box(pen + left * scale, item.y - top * scale, (right - left) * scale, (top - bottom) * scale)))
            pen += fonts.glyph_advance_mm(char, item.family, item.size)
    return found


def line_clash(items: Iterable[Primitive], line_spacing: float) -> LineClash | None:
    """The worst meeting of the ink of one line of a fitted text and the ink of the line printed under it (a
    descender in the accent or the capital below: twenty-fourth breaker, "gray gypsum" over "Randven" at a
    ``line_spacing`` of 0.8), or ``None`` when every line clears the next. ``items`` are one text's placed
    :class:`TextLine` runs and :class:`Icon` boxes (:attr:`FitResult.items`), set ``line_spacing`` em apart;
    each glyph is measured by its own outline's box (:func:`pnp.fonts.glyph_ink_box`), so two lines meet only where a
    glyph of one stands over a glyph of the other. Lines are told apart by their baselines (mm)."""
    glyphs = ink_boxes(items)
    baselines = sorted({round(baseline, 6) for baseline, *_ in glyphs})
    rows: dict[float, list[tuple[float, float, str, str, Box]]] = {baseline: [] for baseline in baselines}
    for glyph in glyphs:
        rows[round(glyph[0], 6)].append(glyph)
    worst: LineClash | None = None
    for above, below in zip(baselines, baselines[1:]):
        upper = sorted(rows[above], key=lambda glyph: -glyph[4].bottom)
        lower = sorted(rows[below], key=lambda glyph: glyph[4].y)
        for _, em, char, text, box in upper:
            if box.bottom - LINE_CLASH_SLACK_MM <= lower[0][4].y:
                break  # no glyph left in this line reaches the highest ink of the next
            for _, _, other, other_text, other_box in lower:
                overlap = box.bottom - other_box.y
                if overlap <= LINE_CLASH_SLACK_MM:
                    break
                if min(box.right, other_box.right) - max(box.x, other_box.x) <= LINE_CLASH_SLACK_MM:
                    continue
                if worst is None or overlap > worst.overlap_mm:
                    # the spacing at which this overlap shrinks to the slack the check allows (twenty-sixth breaker:
                    # adding the slack instead advised 1.15 where 1.1 passes)
                    spacing = line_spacing + (overlap - LINE_CLASH_SLACK_MM) / em
                    worst = LineClash(round(overlap, 3), char, text, other, other_text, spacing)
                break
    return worst


def _line_text(line: list[Word]) -> str:
    return " ".join("".join(f":{p.icon}:" if p.icon else p.text for p in word) for word in line)


def _place(lines, offsets: list[float], height: float, box: Box, family: str, size: float, align: Align,
           valign: VAlign, fill: str, source: str = "") -> list[Primitive]:
    if valign == "top":
        top = box.y
    elif valign == "middle":
        top = box.y + (box.height - height) / 2
    else:
        top = box.bottom - height
    first = top + fonts.ascent_mm(family, size)
    items: list[Primitive] = []
    anchor_x = {"left": box.x, "center": box.x + box.width / 2, "right": box.right}[align]
    anchor = ANCHOR_OF_ALIGN[align]
    for line, offset in zip(lines, offsets):
        items.extend(place_line(line, anchor_x, first + offset, family, size, anchor, fill, source))
    return items


def place_line(line: list[Word], x: float, baseline: float, family: str, size: float, anchor: Anchor,
               fill: str, source: str = "") -> list[Primitive]:
    """Primitives for one wrapped line anchored at ``x`` (start, middle or end) on ``baseline`` (mm),
    each with ``source`` (the template box it was fitted into, for the checks' reports).

    A line of plain text in one font becomes a single :class:`TextLine` with that anchor; a line with
    icons, font fallback or tight digits (see :mod:`pnp.fonts`) becomes start-anchored text runs and
    :class:`Icon` boxes laid side by side.
    """
    if not line:
        return []
    em = size * MM_PER_PT
    merged = _segments(line)
    if len(merged) == 1 and merged[0][1] is None and len(fonts.runs(merged[0][0], family)) == 1:
        run_family, run_text = fonts.runs(merged[0][0], family)[0]
        if not fonts.is_tight(run_text, run_family):
            return [TextLine(x, baseline, run_text, run_family, size, fill, anchor, source=source)]
    total = line_width(line, family, size)
    cursor = {"start": x, "middle": x - total / 2, "end": x - total}[anchor]
    items: list[Primitive] = []
    for text, icon in merged:
        if icon:
            side = ICON_SIZE_EM * em
            margin = (ICON_ADVANCE_EM - ICON_SIZE_EM) * em / 2
            items.append(Icon(icon, cursor + margin, baseline + ICON_DROP_EM * em - side, side, source=source))
            cursor += ICON_ADVANCE_EM * em
            continue
        for run_family, run_text in fonts.runs(text, family):
            # SVG collapses leading and trailing spaces, so draw runs without them and move the pen instead.
            # A tight digit run is placed by its ink (fonts.run_shift_mm) and advances by it.
            body = run_text.strip(" ")
            if body:
                lead = run_text[: len(run_text) - len(run_text.lstrip(" "))]
                start = cursor + fonts.run_advance_mm(lead, run_family, size) + fonts.run_shift_mm(run_text, run_family, size)
                items.append(TextLine(start, baseline, body, run_family, size, fill, "start", source=source))
            cursor += fonts.run_advance_mm(run_text, run_family, size)
    return items


def single_line(text: str, x: float, baseline: float, family: str, size: float, *, anchor: Anchor = "start",
                fill: str = "#000000") -> list[Primitive]:
    """Place ``text`` (icon tokens allowed) as one unbroken line anchored at ``(x, baseline)`` mm."""
    words = [w for paragraph in parse_words(text) for w in paragraph]
    return place_line(words, x, baseline, family, size, anchor, fill)


def text_width_mm(text: str, family: str, size: float) -> float:
    """Width in mm of ``text`` (icon tokens allowed) set on one line at ``size`` pt."""
    words = [w for paragraph in parse_words(text) for w in paragraph]
    return line_width(words, family, size)
