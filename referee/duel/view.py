"""Words and pictures for the two-player referee: the status as JSON or lines, the board (the row of
Locations as the players see it) and one log line per event.

This module owns how a state and an event read; it does no I/O (the CLI prints what it returns). It
never shows a hand that is not yet revealed: the status says only whether a side has rolled or
committed, and the log shows the dice of a round in its reveal line. The end of the game and what a
round did are read from their kinds (:class:`~referee.duel.state.Outcome`,
:class:`~referee.duel.state.RoundResult`), never from the rules' notes.
"""
from __future__ import annotations

import copy
from collections.abc import Sequence
from typing import Any

from pnp.database import Database
from referee import glyphs
from referee.advice import commands_in
from referee.duel import advice, rules
from referee.duel import events as ev
from referee.duel.rules import SIDE_NAMES
from referee.duel.state import SIDES, RoundResult, Side, State, Termination


def outcome_text(state: State) -> str | None:
    """The end of the game in words, from ``state.outcome``: ``"Bo (Shadowmajik) controls 4 Locations and
    wins the game!"`` (a named player) or ``"The Wardens control 4 Locations and win the game!"``;
    ``None`` while the game goes on. Description: "Play continues until one player has gained control
    over 4 Locations." """
    outcome = state.outcome
    if outcome is None:
        return None
    if outcome.termination is Termination.LOCATIONS_CONTROLLED:
        count = len(state.controlled_by(outcome.winner))
        winner_wins = rules.who_does(state, outcome.winner, f"controls {count} Locations and wins", f"control {count} Locations and win")
        return f"{winner_wins} the game!"
    return f"{rules.who_does(state, outcome.winner, 'wins', 'win')} the game!"


def event_notes(state: State) -> tuple[str, ...]:
    """What the event that led to ``state`` did, in words: the rules' notes, then the end of the game
    when that event ended it (:func:`outcome_text`; no event is accepted after the end)."""
    end = outcome_text(state)
    return state.notes + ((end,) if end is not None else ())


def hand_status(state: State, side: Side) -> str:
    """``waiting``, ``rolled`` (the referee rolled, not committed), ``committed`` or ``sealed``; never the
    dice; ``revealed`` once the reveal shows them and waits for re-rolled dice (R81)."""
    hand = state.hands[side]
    if state.opened is not None:
        return "revealed"
    if hand.seal is not None:
        return "sealed"
    if hand.assignment is not None:
        return "committed"
    return "rolled" if hand.rolled is not None else "waiting"


def locations(state: State, db: Database) -> list[dict[str, Any]]:
    """Every Location dealt, in the order dealt: its cubes, controller and place in the row now."""
    owner = dict(state.controlled)
    row = {p.id: (i, p) for i, p in enumerate(state.row, 1)}
    out = []
    for loc in state.setup.row:
        card = rules.location(db, loc)
        position, place = row.get(loc, (None, None))
        out.append({
            "id": loc, "name": card.name, "resonance": list(card.resonance), "track_spaces": card.track_spaces,
            "position": position, "current": loc == state.current, "controller": owner.get(loc),
            "cubes": {s: (place.cubes[s] if place else 0) for s in SIDES},
        })
    return out


def status(state: State, db: Database) -> dict[str, Any]:
    """The state as one JSON-able object (``referee duel status --json``).

    ``round`` the round being played, or in the marker phase the round the marker is placed for (as the status text
    and the bottom line count it); ``current`` is the Location fought for, ``null`` in the marker phase (R79); ``marker_on`` where the
    yellow cube stands on the table (:func:`rules.marker_stands_on`); ``revealed`` both placings while
    the reveal waits for re-rolled dice (R81), else ``null``; ``hands`` each side's hand this round
    (:func:`hand_status`: ``waiting``, ``rolled``, ``committed``, ``sealed`` or ``revealed``, never its dice), ``null``
    once the game is over (no round is played then); ``next`` the Next line and
    ``next_commands`` the commands it offers (:func:`referee.advice.commands_in`); ``result`` the winner
    once the game is over (``state.outcome``), else ``null``."""
    next_line = advice.next_step(state, db)
    stands = rules.marker_stands_on(state)
    last = None
    if state.last is not None:
        b = state.last
        last = {"round": b.round, "location": b.location, "numbers": {s: b.numbers[s] for s in SIDES},
                "dice": {s: list(b.dice[s]) for s in SIDES},
                "assignments": {s: "void" if s in b.void and b.assignments[s] is rules.FORFEITED else b.assignments[s].text() for s in SIDES},
                "winner": b.winner, "spaces": b.spaces, "won": b.won}
    return {
        "round": state.round + 1 if state.phase == "marker" else state.round,  # as the text counts it (thirty-third breaker,
        # LOW 10: while the marker waited, the text said Round 7 and the JSON 6)
        "phase": state.phase,
        "current": state.current,
        "current_name": rules.name(db, state.current) if state.current else None,
        "marker_on": stands,
        "chooser": state.chooser if state.phase == "marker" else None,
        "locations": locations(state, db),
        "row": [p.id for p in state.row],
        "tracks": {s: state.points[s] for s in SIDES},
        "points": {s: rules.points_word(db, s) for s in SIDES},
        "supply": {s: state.supply[s] for s in SIDES},
        "on_locations": {s: state.on_locations(s) for s in SIDES},
        "controlled": {s: list(state.controlled_by(s)) for s in SIDES},
        "hands": None if state.phase == "over" else {s: hand_status(state, s) for s in SIDES},  # (thirty-second breaker,
        # LOW 16: both "waiting" in a round 6 that never came)
        "names": {s: state.setup.names[s] for s in SIDES},
        "last": last,
        "revealed": {s: state.opened[s].text() for s in SIDES} if state.opened is not None else None,
        "result": state.result,
        "removed": list(state.setup.removed),
        "next": next_line,
        "next_commands": commands_in(next_line),
    }


def marker_text(state: State, db: Database) -> str:
    """The yellow marker in words: the Location fought for, or in the marker phase where the cube still stands, fought
    for no more, and who moves it next (``on Stonewatch until the Shadowmajik choose the next Location``; R79); ``-``
    before the first Location is chosen."""
    if state.phase == "marker" and state.round:
        stands = rules.marker_stands_on(state)
        chooses = f"{rules.who_does(state, state.chooser, 'chooses', 'choose', start=False)} the next Location"
        # (helper-161: "none: ... (the cube still stands on Galehollow)" read as a contradiction)
        return f"on {rules.name(db, stands)} until {chooses}" if stands else f"none: {chooses}"
    return rules.name(db, state.current) if state.current else "-"


SpellSections = list[tuple[str, list[tuple[str, ...]]]]
"""Spells by card: each card's title, then one row of cells (texts) for each spell on it, the spell's text last."""


def spell_sections(state: State, db: Database, side: Side | None = None) -> SpellSections:
    """The spells on the player cards (``side``'s, or both): each card's title with its side's points, then a row for
    each spell: die face, name, cost at the Location under the marker (the printed cost before the first is chosen)
    with the card's points word, Resonance icon (``[ember]``, or empty), text. ``referee duel spells`` and ``spells``
    at a table prompt print them as one table (:class:`referee.clitools.SpellTable`)."""
    sections: SpellSections = []
    for s in ([side] if side else list(SIDES)):
        card = rules.player(db, s)
        rows: list[tuple[str, ...]] = []
        for sp in card.spells:
            cost = rules.spell_cost(state, db, s, sp.face) if state.current else sp.cost
            rows.append((str(sp.face), sp.name, f"{cost} {card.points}", f"[{sp.resonance}]" if sp.resonance else "", sp.text))
        sections.append((f"{card.title} ({state.points[s]} {card.points})", rows))
    return sections


def spell_lines(state: State, db: Database, side: Side | None = None) -> list[str]:
    """:func:`spell_sections` as lines, as piped output writes them: each card's title, then one line a spell
    (``  4 Mend the Rift   2 MP [tide]   Move the opponent's cube ...``), its text at the end of the line."""
    from wcwidth import ljust, wcswidth  # padded by the cells a name shows (thirty-third breaker, LOW 16: kana are two each)

    sections = spell_sections(state, db, side)
    names = max((max(wcswidth(row[1]), 0) for _, rows in sections for row in rows), default=0)
    lines = []
    for title, rows in sections:  # the name column as wide as the longest name (fortieth breaker, LOW 9)
        lines.append(title)
        lines.extend(f"  {face} {ljust(name, max(names, 15))} {cost}{(' ' + icon) if icon else '':9} {text}"
                     for face, name, cost, icon, text in rows)
    return lines


PHASE_WORDS = {"marker": "the yellow marker to be placed", "round": "both players roll and place their dice",
               "recall": "the winner takes a cube back or forgoes the spaces", "over": "the game is over"}
"""Each phase of a round in words, for the status's Round row (fourteenth breaker: it showed the code's name)."""
REVEALED_WORDS = "both placings revealed; the reveal waits for the re-rolled Battle dice"
"""The Round row while a reveal waits for re-rolled physical dice (R81): the round's dice are placed and shown."""


def status_lines(state: State, db: Database) -> list[tuple[str, str]]:
    """The state as (label, text) lines for people."""
    round_text = (f"{state.round + 1}: {PHASE_WORDS['marker']}" if state.phase == "marker"  # as the bottom line counts it
                  else f"{state.round}: {REVEALED_WORDS}" if state.opened is not None  # twenty-sixth breaker: "roll and place"
                  else f"{state.round}: {PHASE_WORDS[state.phase]}")  # (sixteenth breaker: the round just revealed was shown)
    lines = [("Round", round_text),
             ("Yellow marker", marker_text(state, db))]
    for s in SIDES:
        controlled = ", ".join(rules.name(db, x) for x in state.controlled_by(s)) or "none"
        lines.append((rules.who(state, s),
                      f"{state.points[s]} {rules.points_word(db, s)}; "
                      f"{state.supply[s]} cube{'s' if state.supply[s] != 1 else ''} in supply; "
                      f"controls {len(state.controlled_by(s))} ({controlled})"
                      + ("" if state.phase == "over" else f"; this round: {hand_status(state, s)}")))  # (thirty-first breaker:
        # "this round: waiting" after the game's end)
    for i, p in enumerate(state.row, 1):
        card = rules.location(db, p.id)
        mark = (" [yellow marker]" if p.id == state.current
                else " [yellow marker, to be moved]" if p.id == rules.marker_stands_on(state) else "")
        lines.append((f"{i}. {card.name}", f"{'/'.join(card.resonance)}; Wardens {p.cubes.wardens}/{card.track_spaces}, "
                                           f"Shadowmajik {p.cubes.shadowmajik}/{card.track_spaces}{mark}"))
    if state.outcome is not None:
        lines.append(("Result", f"{rules.who(state, state.outcome.winner)} won"))
    lines.append(("Next", advice.next_step(state, db)))
    return lines


def track_text(space: int, spaces: int, mark: str, plain: bool) -> str:
    """One side's track on a Location: a cell per space (``·``, or ``.`` when ``plain``), the cube ``mark`` on its
    space, then ``space/spaces``."""
    empty = "." if plain else glyphs.EMPTY_SPACE
    cells = "".join(mark if i == space else empty for i in range(1, spaces + 1))
    return f"{cells}\n{space}/{spaces}"


BOARD_COLUMN_CELLS = 6
"""The narrowest a Location's column of the side-by-side board gets, in terminal cells."""


def longest_word(text: str) -> int:
    """The terminal cells of the widest word (between spaces or line breaks) of ``text``: the narrowest a
    cell holding it can be without breaking a word."""
    from rich.cells import cell_len

    return max((cell_len(word) for word in text.split()), default=0)


def widest_line(text: str) -> int:
    """The terminal cells of the widest line of ``text``: the width that holds it without wrapping."""
    from rich.cells import cell_len

    return max((cell_len(line) for line in text.split("\n")), default=0)


def column_widths(cells: Sequence[Sequence[str]], least: int, width: int, extra: int) -> list[int] | None:
    """The widths of a table's columns, each holding the texts of ``cells[i]``, so that the table fits ``width``
    terminal cells (``extra``: its borders and padding) and no word is broken: each column at least its widest word
    (and ``least``), then the room left shared out up to each column's widest line. None when even the
    narrowest columns do not fit."""
    narrowest = [max([least, *(longest_word(text) for text in column)]) for column in cells]
    natural = [max([least, *(widest_line(text) for text in column)]) for column in cells]
    room = width - extra - sum(narrowest)
    if room < 0:
        return None
    widths = list(narrowest)
    while room > 0 and any(w < n for w, n in zip(widths, natural, strict=True)):
        for i, n in enumerate(natural):
            if room > 0 and widths[i] < n:
                widths[i] += 1
                room -= 1
    return widths


class Board:
    """The row of Locations as the players see it: a rich renderable drawn at the width of the console that prints
    it, so a narrow terminal never shows a row wrapped in two nor a name broken inside a word (twenty-sixth
    breaker: 50 columns wide at any width, ``Tidegl|ass``).

    Side by side (:meth:`side_by_side`) when every Location's column fits with its widest word whole; one
    Location a row (:meth:`one_a_row`) below that; below the width that needs, the one line saying how wide
    the terminal must be. Piped (no terminal), always the whole side-by-side board, as scripts read it. The
    lines above and below (each side's points, supply and Locations controlled) wrap at words.

    ``plain``: no colour, and the tracks in ASCII (``.`` a space, ``S``/``W`` the cube), as piped output and
    ``NO_COLOR`` draw them; otherwise the tracks are drawn with ``·`` and ``■`` wherever the console's encoding
    can write them (:meth:`for_encoding`), in ASCII where it cannot."""

    def __init__(self, state: State, db: Database, plain: bool = False, next_line: bool = True) -> None:
        self.state, self.db, self.plain, self.next_line = state, db, plain, next_line
        self.plain_glyphs = plain  # the tracks drawn in ASCII: set again for each console it is printed on (its encoding)
        self.cards = [rules.location(db, p.id) for p in state.row]

    def for_encoding(self, encoding: str) -> Board:
        """This board as output in ``encoding`` shows it: itself, or a copy drawing its tracks with ``.`` and ``S``/``W``
        when that encoding cannot write ``·`` and ``■`` (:func:`referee.glyphs.encodes`; thirty-second breaker, MED 1:
        an ASCII or cp1252 terminal showed ``?????``)."""
        if self.plain_glyphs or glyphs.encodes(glyphs.EMPTY_SPACE + glyphs.CUBE, encoding):
            return self
        drawn = copy.copy(self)
        drawn.plain_glyphs = True
        return drawn

    def marker_index(self) -> int | None:
        """The place (0-based) in the row of the Location the yellow marker stands on, or None."""
        stands = rules.marker_stands_on(self.state)
        return next((i for i, p in enumerate(self.state.row) if p.id == stands), None)

    def tracks(self, side: Side) -> list[str]:
        """Each Location's track of ``side``, left to right (:func:`track_text`)."""
        mark = ("S" if side == "shadowmajik" else "W") if self.plain_glyphs else glyphs.CUBE
        return [track_text(p.cubes[side], c.track_spaces, mark, self.plain_glyphs) for p, c in zip(self.state.row, self.cards, strict=True)]

    def columns(self) -> list[list[str]]:
        """The texts of each column of the side-by-side board, left to right: its header (number, ``YELLOW`` over the
        marker's Location), the Shadowmajik track, the name, the Resonance, the Wardens track."""
        marker = self.marker_index()
        headers = [f"{i}{' YELLOW' if i - 1 == marker else ''}" for i in range(1, len(self.cards) + 1)]
        shadow, warden = self.tracks("shadowmajik"), self.tracks("wardens")
        return [[h, s, c.name, " ".join(c.resonance), w] for h, s, c, w in zip(headers, shadow, self.cards, warden, strict=True)]

    def side_by_side(self, width: int | None) -> Any:
        """The board as a table of a column per Location (the Shadowmajik track at the top, the name and
        Resonance, the Wardens track), fitted to ``width`` cells with no word broken (None: its natural width).
        None when it cannot fit."""
        from rich import box
        from rich.table import Table
        from rich.text import Text

        marker = self.marker_index()
        cells = self.columns()
        headers = [column[0] for column in cells]
        shadow, resonance, warden = [column[1] for column in cells], [column[3] for column in cells], [column[4] for column in cells]
        widths: list[int | None] = [None] * len(cells)
        if width is not None:
            natural = column_widths(cells, BOARD_COLUMN_CELLS, 10 ** 6, 0)
            assert natural is not None
            if sum(natural) + len(cells) + 1 > width:  # narrower than it wants: each column no narrower than its widest word
                fitted = column_widths(cells, BOARD_COLUMN_CELLS, width, len(cells) + 1)
                if fitted is None:
                    return None
                widths = list(fitted)
        table = Table(box=box.ASCII if self.plain else box.ROUNDED, show_header=True, header_style="" if self.plain else "bold",
                      padding=(0, 0), show_lines=False)
        for i, (header, fixed) in enumerate(zip(headers, widths, strict=True)):
            table.add_column(Text(header, style="" if self.plain or i != marker else "bold black on yellow"),
                             justify="center", overflow="fold", min_width=BOARD_COLUMN_CELLS, width=fixed)
        table.add_row(*[Text(t, style="" if self.plain else "magenta") for t in shadow])
        table.add_row(*[Text(c.name, style="" if self.plain else "bold") for c in self.cards])
        table.add_row(*resonance)
        table.add_row(*[Text(t, style="" if self.plain else "cyan") for t in warden])
        return table

    def one_a_row(self, width: int) -> Any:
        """The board as a table of a row per Location (its number, name and Resonance, then the Shadowmajik
        and the Wardens tracks), fitted to ``width`` cells with no word broken; None when it cannot fit."""
        from rich import box
        from rich.table import Table
        from rich.text import Text

        marker = self.marker_index()
        places = [f"{i} {c.name}\n{' '.join(c.resonance)}" + ("\nYELLOW marker" if i - 1 == marker else "")
                  for i, c in enumerate(self.cards, 1)]
        shadow, warden = self.tracks("shadowmajik"), self.tracks("wardens")
        headers = ["Location", SIDE_NAMES["shadowmajik"], SIDE_NAMES["wardens"]]
        fitted = column_widths([[headers[0], *places], [headers[1], *shadow], [headers[2], *warden]], 1, width, 3 * 2 + 4)
        if fitted is None:
            return None
        table = Table(box=box.ASCII if self.plain else box.ROUNDED, show_header=True, header_style="" if self.plain else "bold",
                      padding=(0, 1), show_lines=True)
        table.add_column(headers[0], justify="left", overflow="fold", width=fitted[0])
        table.add_column(headers[1], justify="center", overflow="fold", width=fitted[1])
        table.add_column(headers[2], justify="center", overflow="fold", width=fitted[2])
        for i, (place, s, w) in enumerate(zip(places, shadow, warden, strict=True)):
            name = Text(place, style="" if self.plain else "bold")
            if i == marker and not self.plain:
                name.highlight_words(["YELLOW marker"], "bold black on yellow")
            table.add_row(name, Text(s, style="" if self.plain else "magenta"), Text(w, style="" if self.plain else "cyan"))
        return table

    def needed(self) -> int:
        """The narrowest terminal, in columns, the board is drawn in (one Location a row)."""
        width = 1
        while self.one_a_row(width) is None:
            width += 1
        return width

    def side_line(self, side: Side) -> Any:
        """One side's points, supply and Locations controlled, as the line above or below the table."""
        from referee.clitools import Paragraph

        state, db = self.state, self.db
        controlled = ", ".join(rules.name(db, x) for x in state.controlled_by(side)) or "none"
        style = "" if self.plain else ("bold magenta" if side == "shadowmajik" else "bold cyan")
        return Paragraph(f"{rules.who(state, side)}: {state.points[side]} {rules.points_word(db, side)} (max {rules.rules_of(db).points_max}); "
                         f"supply {state.supply[side]} cube{'s' if state.supply[side] != 1 else ''}; "
                         f"controls {len(state.controlled_by(side))}/{rules.rules_of(db).locations_to_win}: {controlled}", style=style)

    def parts(self, width: int | None) -> list[Any]:
        """What is printed, top to bottom, at ``width`` terminal cells (None: piped, the whole side-by-side board)."""
        from referee.clitools import Paragraph, with_given, wrap_paragraph

        drawn = self.side_by_side(width)
        if drawn is None and width is not None:
            drawn = self.one_a_row(width)
        if drawn is None and width is not None:
            from rich.text import Text

            # the status offered with the --save and --db typed, as every command offered (forty-second breaker, LOW 15)
            # a sentence of its own, as the solo map's (forty-sixth referee breaker, POLISH 7)
            refusal = with_given(f"The board needs a terminal at least {self.needed()} columns wide; this one is {width} "
                                 f"(`{advice.CMD} status` lists the Locations in words).")
            drawn = Text("\n".join(wrap_paragraph(refusal, width)), style="" if self.plain else "bold red", no_wrap=True,
                         overflow="ignore")  # as laid out here: a command is one line the terminal wraps
        parts: list[Any] = [self.side_line("shadowmajik"), drawn, self.side_line("wardens")]
        if self.state.current is None and self.state.phase == "marker" and self.state.round:
            parts.append(Paragraph("The yellow marker waits for the next Location."))
        if self.next_line:
            parts.append(Paragraph("Next: " + advice.next_step(self.state, self.db), style="" if self.plain else "bold"))
        return parts

    def __rich_console__(self, console: Any, options: Any) -> Any:
        board = self.for_encoding(options.encoding)  # on a terminal or not: `?` never stands for a glyph
        if console.is_terminal:
            yield from board.parts(options.max_width)
            return
        # piped: the whole side-by-side board at the console's width (80 unless COLUMNS says), widened to the narrowest
        # that keeps every word whole however narrow COLUMNS says: never the one-a-row layout scripts do not expect
        columns = board.columns()
        least = sum(max([BOARD_COLUMN_CELLS, *(longest_word(text) for text in column)]) for column in columns) + len(columns) + 1
        width = max(options.max_width, least)
        wide = options.update_width(width)
        for part in board.parts(width):
            yield from console.render(part, wide)


def board(state: State, db: Database, plain: bool = False, next_line: bool = True) -> Board:
    """The row of Locations as the players see it (a rich renderable, :class:`Board`).

    The Shadowmajik sit across the table (top), the Wardens at the bottom read the names (description:
    "the Location name readable to the Warden Player"); columns are the row left to right from the
    Wardens' side. Each column shows the Shadowmajik track (``S`` marks its cube, ``■`` in colour on a terminal that
    can show it), the name and the Resonance icons, the Wardens track (``W``, or ``■``); the yellow marker is written ``YELLOW`` above its
    Location. Colour never carries meaning alone. On a terminal too narrow for that, one Location a row
    (its number, name, Resonance and ``YELLOW marker``, then each side's track). ``next_line``: end with
    the one-shot commands' Next line (not in table mode, which asks instead).
    """
    return Board(state, db, plain, next_line)


def _spell_words(db: Database, side: Side, a: ev.Assignment) -> str:
    """`` (Warden's Call)`` after a placing that casts a spell, else nothing."""
    s = rules.spell_of(db, side, a)
    return f" ({s.name})" if s is not None else ""


def log_line(number: int, event: ev.Event, after: State, db: Database) -> str:
    """One line of ``referee duel log``. Rolls and commitments never show dice (the reveal line does).
    What the round did is read from ``after.last.result`` (:class:`RoundResult`), the end of the game
    from ``after.outcome``."""
    head = f"{number:3}. "
    over = f"; {SIDE_NAMES[after.outcome.winner]} win the game" if after.outcome is not None else ""
    if isinstance(event, ev.Marker):
        return head + f"{SIDE_NAMES[event.side]}: yellow marker on {rules.name(db, event.location)}"
    if isinstance(event, ev.Roll):
        count, place = (len(event.dice.values), event.dice.seed_place()) if event.dice is not None else (0, "")
        return head + f"{SIDE_NAMES[event.side]}: the referee rolls {count} dice ({place})"
    if isinstance(event, ev.Commit):
        return head + f"{SIDE_NAMES[event.side]}: {'sealed ' if event.seal else ''}commit"
    if isinstance(event, ev.Reveal) and after.opened is not None:  # the reveal waits for re-rolled dice (R81)
        opened = after.opened
        placed = [f"{SIDE_NAMES[s]} {opened[s].text()}{_spell_words(db, s, opened[s])}" for s in SIDES]
        at = rules.name(db, rules.current_location(after))
        return head + f"round {after.round} at {at}: revealed " + "; ".join(placed) + "; re-rolled dice due"
    if isinstance(event, ev.Reveal) and after.last is not None:
        b = after.last
        parts = []
        for s in SIDES:
            a = b.assignments[s]
            reroll = getattr(event, f"{s}_reroll")
            rr = f", re-roll {' '.join(map(str, reroll.values))}{' typed' if reroll.typed else ''}" if reroll and reroll.values else ""
            shown = ("forfeited" if a is rules.FORFEITED else f"{a.text()} void") if s in b.void else f"{a.text()}{_spell_words(db, s, a)}"
            parts.append(f"{SIDE_NAMES[s]} {shown}{rr} = {b.numbers[s]}")
        won = ""
        if b.winner is None or b.result is RoundResult.TIE:
            outcome = "tie, nothing moves"
        elif b.result is RoundResult.CUBES_OUT:
            outcome = f"{SIDE_NAMES[b.winner]} +{b.spaces}, all cubes out"
        else:
            outcome = f"{SIDE_NAMES[b.winner]} +{b.spaces}"
            if b.result is RoundResult.LOCATION_WON:
                won = f"; {SIDE_NAMES[b.winner]} win {rules.name(db, b.location)}"
            else:
                outcome += f" (space {after.place(b.location).cubes[b.winner]}/{rules.top(db, b.location)})"
        return head + f"round {b.round} at {rules.name(db, b.location)}: " + "; ".join(parts) + f": {outcome}{won}{over}"
    if isinstance(event, ev.Recall):
        if event.location is None:
            return head + f"{SIDE_NAMES[event.side]}: keep their cubes, forgo the spaces"
        last = after.last
        won = ""
        if last is not None and last.result is RoundResult.LOCATION_WON:
            won = f"; {SIDE_NAMES[event.side]} win {rules.name(db, last.location)}"
        return head + f"{SIDE_NAMES[event.side]}: take a cube back from {rules.name(db, event.location)}{won}{over}"
    return head + event.kind


def event_text(event: ev.Event, db: Database) -> str:
    """A few words naming an event (for ``undo``), never showing hidden dice."""
    if isinstance(event, ev.Marker):
        return f"the {SIDE_NAMES[event.side]} placed the yellow marker on {rules.name(db, event.location)}"
    if isinstance(event, ev.Roll):
        return f"the referee's roll for the {SIDE_NAMES[event.side]}"
    if isinstance(event, ev.Commit):
        return f"the {rules.possessive(SIDE_NAMES[event.side])} commitment"
    if isinstance(event, ev.Reveal):
        return "the reveal and its battle"
    if isinstance(event, ev.Recall):
        if event.location is None:
            return f"the {SIDE_NAMES[event.side]} forgoing the spaces"
        return f"the {rules.possessive(SIDE_NAMES[event.side])} cube taken back"
    return event.kind


def setup_line(state: State, db: Database) -> str:
    """The first line of ``referee duel log``, the setup of ``state``: ``  0. new: row A, B, ...; removed C, D``."""
    setup = state.setup
    return (f"  0. new: row {', '.join(rules.name(db, x) for x in setup.row)}; "
            f"removed {', '.join(rules.name(db, x) for x in setup.removed)}")
