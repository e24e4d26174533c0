"""Words for the solo referee's output: the status as JSON or lines, and one log line per event.

This module owns how a state and an event read; it does no I/O (the CLI prints what it returns).
Cards and spells are named as printed on the cards.
"""
from __future__ import annotations

from typing import Any

from pnp import hexes
from pnp.database import BattleMap, Database
from referee import advice, glyphs
from referee.dice import Dice
from referee.errors import RefereeError
from referee.solo import aid, city, expanded, laststand, rules
from referee.solo import events as ev
from referee.solo.advice import next_step
from referee.solo.state import Ending, State

ENDING_STYLES: dict[Ending, str] = {
    Ending.BARRIER_LOCK: "bold green",
    Ending.LAST_STAND_WON: "bold green",
    Ending.LAST_STAND_LOST: "bold yellow",  # the Last Stand is lost, the game stays won (R56)
    Ending.SPIRIT_FALLEN: "bold red",
    Ending.GRAYKING_AT_LASSADAR: "bold red",
}
"""The colour of the note that announces each ending (an :class:`~referee.solo.state.Announcement`)."""


def status(state: State, db: Database) -> dict[str, Any]:
    """The state as one JSON-able object (``referee solo status --json``): the tracks, cards and battles,
    ``next`` (the Next line) and ``next_commands`` (its commands, :func:`referee.advice.commands_in`);
    ``result`` (``won``/``lost``), ``ending`` (how the game ended: a :class:`~referee.solo.state.Ending`
    value) and ``reason`` (the same in words) once the game has ended."""
    next_line = next_step(state, db)
    battle: dict[str, Any] | None = None
    if state.battle is not None:
        b = state.battle
        battle = {"card": b.card, "casts": list(b.casts), "elders": list(b.elders), "dice": list(b.dice), "enemy": list(b.enemy)}
        if b.rolled:
            battle["totals"] = list(rules.totals(state, db))
        if b.loss_roll is not None:
            battle["loss_row"] = city.loss_row_number(state)
    return {
        "map_battle": map_status(state, db),
        "last_stand": stand_status(state, db),
        "mana": state.mana,
        "spirit": state.spirit,
        "grayking": state.grayking,
        "lassadar": rules.lassadar(db),
        "keys": list(state.keys),
        "spells": list(state.spells),
        "used_spells": list(state.used),
        "learnable": rules.learnable(state, db),
        "elders": [{"id": e, "name": rules.name(db, e), "uses": u} for e, u in state.elders],
        "deck": len(state.deck),
        "discard": len(state.discard),
        "removed": len(state.removed),
        "card": state.card,
        "battle": battle,
        "options": battle_options(state, db),
        "phase": state.phase,
        "result": state.result,
        "ending": None if state.ending is None else state.ending.value,
        "reason": state.reason or None,
        "difficulty": state.setup.difficulty,
        "seed": state.setup.seed,
        "next": next_line,
        "next_commands": advice.commands_in(next_line),
    }


def battle_options(state: State, db: Database) -> list[str]:
    """The spells and Elders that could still turn the losing roll on the table (R34), whichever battle
    it is: a City Quest's roll or Battle Loss row, a map exchange or Eldritch roll, a round of the Last
    Stand (:func:`referee.solo.aid.ids`, with Last Stand recharges as ``recharge:TYPE``). Empty when no
    roll waits."""
    return aid.ids(state, db)


def status_lines(state: State, db: Database) -> list[tuple[str, str]]:
    """The state as (label, text) lines for people."""
    track = rules.track(db)
    named = next((p.name for p in track.names if p.space == state.grayking), None)
    grayking = f"space {state.grayking} of {track.spaces}" + (f" ({named})" if named else "")
    spells = ", ".join(rules.name(db, s) + (" (used)" if s in state.used else "") for s in state.spells) or "none"
    elders = ", ".join(f"{rules.name(db, e)} ({u} {'use' if u == 1 else 'uses'} left)" for e, u in state.elders) or "none"
    lines = [
        ("Mana", str(state.mana)),
        ("Spirit", str(state.spirit)),
        ("Grayking", grayking),
        ("Warding Keys", _keys_held(state, db)),
        ("Spells", spells),
        ("Elders", elders),
        ("Quest deck", f"{len(state.deck)} to draw, {len(state.discard)} discarded, {len(state.removed)} out of the game"),
    ]
    if state.card:
        lines.append(("On the table", rules.name(db, state.card)))
    if state.battle is not None and state.battle.rolled:
        mine, theirs = rules.totals_in_words(state, db)
        lines.append(("Battle", f"your dice {mine}; servants {theirs}"))
    if state.map_battle is not None:
        mb = map_status(state, db)
        assert mb is not None
        called = "; Elders called this battle: " + ", ".join(rules.name(db, e) for e in mb["elders_called"]) if mb["elders_called"] else ""
        lines.append(("Map", f"{mb['title']} ({mb['color']}), round {mb['round']}, phase {mb['phase']}; you on {mb['warden']}{called}"))
        for s in mb["servants"]:
            where = f"on {s['hex']}, {s['hit_points']} HP" if s["hit_points"] else "slain"
            # the id as its card's footer and the prompts give it (`ghast-1`), never the common prefix a narrow
            # terminal keeps when it cuts the word (fortieth breaker, LOW 13)
            lines.append((f"  {s['marker']} {s['name']}",
                          f"{rules.short_id(s['id'])}: {where}, range {s['range']}, {s['damage']} {s['damage_to']} a hit"))
    if state.last_stand is not None:
        ls = stand_status(state, db)
        assert ls is not None
        on_table = f"; dice on the table: you {ls['dice']}, he {ls['enemy']}" if ls["rolled"] else ""
        text = f"the Grayking has {ls['hit_points']} hit {'point' if ls['hit_points'] == 1 else 'points'}{on_table}"
        if ls["elders_called"]:
            text += "; Elders called in the Last Stand: " + ", ".join(rules.name(db, e) for e in ls["elders_called"])
        text += "".join(f"; {rules.name(db, e)}'s die joins the next roll" for e in ls["elders_next_roll"])
        if not ls["elders_aid"] and state.elders:
            text += "; Elders do not aid this Last Stand (begun by an older referee, R51)"
        if ls["outcome"]:
            text += f"; the Last Stand is {ls['outcome']}" + (" (the game stays won: Lassadar is saved, R56)"
                                                               if state.ending is Ending.LAST_STAND_LOST else "")
        lines.append(("Last Stand", text))
    if state.ending is not None:
        lines.append(("Result", f"{state.ending.result}: {state.reason}"))
    lines.append(("Next", next_step(state, db)))
    return lines


SpellSections = list[tuple[str, list[tuple[str, ...]]]]
"""Spells by card: each card's title, then one row of cells (texts) for each spell on it, the spell's text last."""


def spell_sections(state: State, db: Database) -> SpellSections:
    """The spells on the three Spell Path cards: each path's title, then a row for each of its spells: short id, name,
    cost to cast [cost to learn], learned (used) / learnable now / closed / ``-``, and its text (rulebook, Learning
    Spells). ``referee solo spells`` and ``spells`` at a table prompt print them as one table
    (:class:`referee.clitools.SpellTable`)."""
    open_now = set(rules.learnable(state, db))
    closed = rules.closed_spells(db, state.spells)
    sections: SpellSections = []
    for path in db.solo.spell_path:
        rows: list[tuple[str, ...]] = []
        for s in (s for s in db.solo.spell if s.spell_type == path.spell_type):
            mark = ("learned" + (", used" if s.id in state.used else "") if s.id in state.spells
                    else "learnable" if s.id in open_now else "closed" if s.id in closed else "-")
            cost = f"{s.cost.mana} Mana" if s.cost and s.cost.mana else f"{s.cost.spirit} Spirit" if s.cost else ""
            if s.learn_cost:
                cost = f"[{s.learn_cost.mana or s.learn_cost.spirit} {'Mana' if s.learn_cost.mana else 'Spirit'}]"
            rows.append((rules.short_id(s.id), s.name, cost, mark, rules.plain_text(s.text)))
        sections.append((path.title, rows))
    return sections


def spell_lines(state: State, db: Database) -> list[str]:
    """:func:`spell_sections` as lines, as piped output writes them: each path's title, then one line a spell, its
    cells in columns of fixed width (15, 15, 10, 10) and its text at the end of the line."""
    from wcwidth import ljust  # padded by the cells a name shows (a kana name is two cells a character)

    lines = []
    for title, rows in spell_sections(state, db):
        lines.append(title)
        lines.extend(f"  {spell:15} {ljust(name, 15)} {cost:10} {mark:10} {text}" for spell, name, cost, mark, text in rows)
    return lines


def map_status(state: State, db: Database) -> dict[str, Any] | None:
    """The Expanded Battle in progress for ``status --json`` (hexes by their printed names, R44)."""
    mb = state.map_battle
    if mb is None:
        return None
    bmap = expanded.battle_map(state, db)
    servants = []
    for s in mb.servants:
        card = expanded.servant_card(db, s.id)
        servants.append({"id": s.id, "name": card.name, "marker": expanded.marker(db, s.id),
                         "hex": expanded.name(s.hex) if s.hit_points else None, "hit_points": s.hit_points, "range": card.range,
                         "damage": card.damage, "damage_to": card.damage_to,
                         "active": s.id in expanded.active(state, db)})
    out: dict[str, Any] = {"map": bmap.id, "title": bmap.title, "key": bmap.key, "color": bmap.color, "round": mb.round, "phase": mb.step,
                           "warden": expanded.name(mb.warden), "servants": servants, "attacks_left": list(mb.queue),
                           "eldritch_due": mb.magic_near, "recharged_types": list(mb.recharged),
                           "elders_called": list(mb.elders), "elders_next_roll": list(mb.before_roll),
                           "moves": sorted(expanded.name(a) for a in expanded.legal_moves(state, db)) if mb.step == "move" else []}
    if mb.exchange is not None:
        mine, theirs = expanded.exchange_totals(state, db)
        out["exchange"] = {"servant": mb.exchange.servant, "dice": list(mb.exchange.dice), "enemy": list(mb.exchange.enemy),
                           "totals": [mine, theirs], "elders": list(mb.exchange.elders)}
    if mb.eldritch is not None:
        out["eldritch_roll"] = mb.eldritch
    return out


def stand_status(state: State, db: Database) -> dict[str, Any] | None:
    """The Last Stand in progress or fought, for ``status --json``: besides the track and the dice, the
    Elders called in it (``elders_called``, each once in the Last Stand, R51), those whose die joins the
    next roll (``elders_next_roll``), those that aided the roll on the table (``roll_elders``), and
    whether Elders aid it at all (``elders_aid``: false for a Last Stand begun by an older referee), and its
    ``outcome`` once over (``won``/``lost``; a lost Last Stand leaves the game won, R56)."""
    ls = state.last_stand
    if ls is None:
        return None
    out: dict[str, Any] = {"hit_points": ls.hit_points, "rolled": ls.rolled, "dice": list(ls.dice), "enemy": list(ls.enemy),
                           "rounds": ls.rounds, "gray_space": ls.hit_points in laststand.card(db).gray_spaces,
                           "recharged_at": list(ls.recharged_at),
                           "elders_called": list(ls.elders), "elders_next_roll": list(ls.before_roll), "roll_elders": list(ls.roll_elders),
                           "elders_aid": ls.elders_aid, "outcome": ls.outcome}
    if ls.rolled:
        out["totals"] = list(laststand.totals(state, db))
        if state.phase == "stand":
            out["options"] = aid.ids(state, db)
    return out


MAP_CELLS = (8, 7, 6)
"""Widths of a hex on the terminal map, widest first: 8 and 7 show each hex's printed number and what
stands on it; 6 (the compact form) shows what stands on a hex instead of its number when both do not fit."""


def map_columns(grid, cell: int) -> int:
    """Terminal columns the rows of ``grid`` take with hexes ``cell`` wide (odd rows sit half a hex right)."""
    return cell // 2 + grid.columns * cell


def _keys_held(state: State, db: Database) -> str:
    """The Warding Keys row: a count first, then which (``1 of 3 (Key 3)``, ``2 of 3 (Keys 1 and 3)``, ``0 of 3``): the
    numbers alone, ``3`` for Key 3, read as all three keys held (thirty-first breaker)."""
    held = f"{len(state.keys)} of {len(rules.stats(db).keys)}"
    if not state.keys:
        return held
    numbers = [str(key) for key in state.keys]
    which = f"Key {numbers[0]}" if len(numbers) == 1 else f"Keys {', '.join(numbers[:-1])} and {numbers[-1]}"
    return f"{held} ({which})"


class MapTooNarrow(RefereeError):
    """The terminal is narrower than the map's most compact form: ``needed`` and ``width`` in columns.
    Its message says so alone; where to read the hexes instead is the caller's to say (the one-shot
    offers ``status --json``, a ``solo play`` session its own ``status``: twenty-eighth breaker)."""

    def __init__(self, needed: int, width: int) -> None:
        self.needed, self.width = needed, width
        super().__init__(f"the map needs a terminal at least {needed} columns wide; this one is {width}")


def marker_rows(state: State, db: Database) -> list[tuple[str, str]]:
    """The battle map's markers in words, as ``status`` gives them: its ``("Map", ...)`` row (the warden's hex) and one
    ``("  X Name", ...)`` row per servant (its hex and hit points); empty while no map battle is fought. What a terminal
    too narrow for :func:`map_picture` shows in its place (thirty-eighth referee breaker, HIGH 1)."""
    return [(label, text) for label, text in status_lines(state, db) if label == "Map" or label.startswith("  ")]


def map_picture(state: State, db: Database, map_id: str | None = None, width: int | None = None,
                encoding: str = "utf-8") -> list[list[tuple[str, str | None]]]:
    """The map as lines of (text, style) pieces for ``referee solo map``: the printed offset rows, each hex
    as its name (the row above) and what is on it (numbers, S and R as printed, W the warden, servant
    markers by type initial), then a legend. Style names are rich styles; plain text drops them.

    ``encoding`` is the output's (rich's ``Console.encoding``): the legend's items are separated by `` · `` where it
    can write that, else by ``; `` (:func:`referee.glyphs.glyph`; thirty-second breaker, MED 1: `` ? `` on an ASCII
    terminal).

    With a terminal ``width``, every line fits it: the widest hexes of :data:`MAP_CELLS` that fit, prose
    wrapped at words; a terminal too narrow for the compact form raises :class:`MapTooNarrow` saying how
    wide it must be."""
    import textwrap

    if map_id is None:
        bmap = expanded.battle_map(state, db) if (state.map_battle is not None or state.phase == "warding") else None
    else:
        found = db.get(map_id)
        assert isinstance(found, BattleMap)
        bmap = found
    assert bmap is not None
    grid = bmap.hex_map
    fits = [c for c in MAP_CELLS if width is None or map_columns(grid, c) <= width]
    if not fits:
        raise MapTooNarrow(map_columns(grid, MAP_CELLS[-1]), width or 0)
    width_of_cell = fits[0]
    mb = state.map_battle if state.map_battle is not None and state.map_battle.map == bmap.id else None
    half = width_of_cell // 2
    inner = width_of_cell - 2
    lines: list[list[tuple[str, str | None]]] = []
    hidden_numbers = False  # a hex whose printed number gave way to its markers (the note below says so only then)

    def prose(text: str, style: str | None = None) -> None:
        for line in (textwrap.wrap(text, width) if width else [text]):
            lines.append([(line, style)])

    prose(f"{bmap.title} ({bmap.color} map). Hexes are named column letter + row number (A1 top left); "
          "rows 2, 4, 6 sit half a hex right, as printed.", "bold")
    for row in range(grid.rows):
        top: list[tuple[str, str | None]] = [(" " * (half if row & 1 else 0), None)]
        mid: list[tuple[str, str | None]] = [(" " * (half if row & 1 else 0), None)]
        for column in range(grid.columns):
            address = (column, row)
            if address not in grid:
                top.append((" " * width_of_cell, None))
                mid.append((" " * width_of_cell, None))
                continue
            cell = grid[address]
            printed = "S" if cell.start else "R" if cell.recharge else str(cell.number) if cell.number else "."
            marks = ""
            style = None
            if mb is not None and mb.warden == address:
                marks += "W"
                style = "bold reverse"
            if mb is not None:
                here = [s for s in mb.living if s.hex == address]
                if here:
                    marks += "".join(expanded.marker(db, s.id) for s in here)
                    style = style or f"bold {bmap.color}"
            text = f"{printed}{(' ' + marks) if marks else ''}"
            if len(text) > inner:  # the compact form: what stands on the hex before its printed number
                text, hidden_numbers = marks, True
            top.append((f"/{hexes.hex_name(address):^{inner}}\\", "dim"))
            mid.append((f"\\{text:^{inner}}/", style))
        for pieces in (top, mid):
            while pieces and not pieces[-1][0].strip():
                pieces.pop()
            lines.append(pieces)
    legend = ["S start (white cross)", "R recharge (blue cross)", "numbers 2-12 as printed (2d6 placement)", ". unlabelled hex"]
    separator = glyphs.glyph(glyphs.LEGEND_SEPARATOR, "; ", encoding)
    line_of_legend = ""  # items joined by the separator, never split across lines, no separator at a line's end
    for item in legend:  # (thirty-third breaker, LOW 13: piped, a line ended in a dangling separator)
        joined = f"{line_of_legend}{separator}{item}" if line_of_legend else item
        if line_of_legend and width and len(joined.rstrip()) > width:
            lines.append([(line_of_legend.rstrip(), None)])
            joined = item
        line_of_legend = joined
    lines.append([(line_of_legend.rstrip(), None)])
    if hidden_numbers:  # (thirty-third breaker, LOW 18: said beside hexes that showed both)
        prose("On a narrow terminal a hex shows its markers in place of its number where both do not fit.")
    if mb is not None:
        prose(f"W you, on {expanded.name(mb.warden)}; round {mb.round}, phase {mb.step}")
        for s in mb.servants:
            card = expanded.servant_card(db, s.id)
            where = f"on {expanded.name(s.hex)}, {s.hit_points} HP" if s.hit_points else "slain"
            far = f", {hexes.distance(s.hex, mb.warden)} from you" if s.hit_points else ""
            prose(f"{expanded.marker(db, s.id)} {expanded.label(db, s.id)} {where}{far}, range {card.range}")
    return lines


def _dice(label: str, dice: Dice | None) -> str:
    if dice is None:
        return ""
    return f" {label} {dice} ({dice.origin()})"


def _card(label: str, db: Database, card: ev.CardRef | None) -> str:
    if card is None:
        return ""
    return f" {label} {rules.name(db, card.id)} ({'typed' if card.typed else 'deck'})"


def event_text(event: ev.Event, db: Database) -> str:
    """One event in words, dice and cards shown with where they came from."""
    if isinstance(event, ev.Draw):
        return f"draw{_card('card', db, event.card)}"
    if isinstance(event, ev.Battle):
        uses = "".join(f" elder {rules.name(db, e)}" for e in event.elders) + "".join(f" cast {rules.name(db, s)}" for s in event.casts)
        return f"battle{uses}{_dice('you', event.dice)}{_dice('servants', event.enemy)}{_card('next', db, event.next)}"
    if isinstance(event, ev.Cast):
        rows = (f" (the Battle Loss roll {event.rows} row{'s' if event.rows != 1 else ''} lower)" if event.rows is not None
                else "")  # (thirty-third breaker, LOW 7: "rows 1", the save's notation)
        reroll = f" re-roll {' '.join(map(str, event.reroll))}" if event.reroll else ""
        return (f"cast {rules.name(db, event.spell)}{rows}{reroll}{_dice('->', event.dice)}{_dice('counter', event.counter)}"
                f"{_card('next', db, event.next)}")
    if isinstance(event, ev.CallElder):
        reroll = f" re-roll {' '.join(map(str, event.reroll))}" if event.reroll else ""
        return f"elder {rules.name(db, event.elder)}{reroll}{_dice('->', event.dice)}{_card('next', db, event.next)}"
    if isinstance(event, ev.Accept):
        return f"accept{_card('next', db, event.next)}"
    if isinstance(event, ev.Learn):
        return f"learn {rules.name(db, event.spell)}" if event.spell else "skip"
    if isinstance(event, ev.Council):
        return f"council{_card('next', db, event.next)}"
    if isinstance(event, ev.Warding):
        extra = (f" mana {event.mana:+d}" if event.mana else "") + (f" spirit {event.spirit:+d}" if event.spirit else "")
        extra += "".join(f" elder {rules.name(db, e)}" for e in event.elders)
        return f"warding {event.outcome}{extra}"
    if isinstance(event, ev.Servants):
        cards = ", ".join(rules.short_id(s) for s in event.servants)
        return f"servants {cards} ({'typed' if event.typed else 'deck'}){_dice('place', event.place)}"
    if isinstance(event, ev.Move):
        return f"move {' '.join(event.path)}" if event.path else "move (stay)"
    if isinstance(event, ev.Attack):
        return f"attack{_dice('you', event.dice)}{_dice('enemy', event.enemy)}"
    if isinstance(event, ev.Eldritch):
        return f"eldritch{_dice('dice', event.dice)}"
    if isinstance(event, ev.Recharge):
        return f"recharge {event.spell_type}"
    if isinstance(event, ev.Turn):
        return f"turn{_card('next', db, event.card)}"
    if isinstance(event, (ev.Retreat, ev.LastStand)):
        return event.kind
    return event.kind  # pragma: no cover


def log_line(number: int, event: ev.Event, after: State, db: Database) -> str:
    """One line of ``referee solo log``: the event, then the tracks and phase after it."""
    result = f" {after.ending.result.upper()}" if after.ending is not None else ""
    if after.ending is Ending.LAST_STAND_LOST:
        result += ", LAST STAND LOST"  # the game stays won (R56)
    where = ""
    if after.map_battle is not None:
        mb = after.map_battle
        where = f" r{mb.round} {mb.step} W {expanded.name(mb.warden)} " + " ".join(
            f"{expanded.marker(db, s.id)} {expanded.name(s.hex)}:{s.hit_points}" for s in mb.living)
    elif after.last_stand is not None and after.phase == "stand":
        where = f" Grayking HP {after.last_stand.hit_points}"
    tracks = f"Mana {after.mana}, Spirit {after.spirit}, Grayking {after.grayking}"
    return f"{number:3d}. {event_text(event, db)}  => {tracks}; {after.phase}{where}{result}"


def setup_line(state: State, db: Database) -> str:
    """The first line of ``referee solo log``, the setup of ``state``: ``  0. new normal spells Bind, Shield seed 3``."""
    setup = state.setup
    return f"  0. new {setup.difficulty} spells {', '.join(rules.name(db, s) for s in setup.spells)} seed {setup.seed}"
