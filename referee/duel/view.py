"""Words and pictures for the two-player referee: the status as JSON or lines, the board (the row of
Locations as the players see it) and one log line per event.

This module owns how a state and an event read; it does no I/O (the CLI prints what it returns). It
never shows a hand that is not yet revealed: the status says only whether a side has rolled or
committed, and the log shows the dice of a round in its reveal line. The end of the game and what a
round did are read from their kinds (:class:`~referee.duel.state.Outcome`,
:class:`~referee.duel.state.RoundResult`), never from the rules' notes.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pnp.database import Database
from referee.advice import commands_in
from referee.duel import advice, rules
from referee.duel import events as ev
from referee.duel.rules import SIDE_NAMES
from referee.duel.state import SIDES, RoundResult, Side, State, Termination

if TYPE_CHECKING:
    from rich.console import Group, RenderableType


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

    ``current`` is the Location fought for, ``null`` in the marker phase (R79); ``marker_on`` where the
    yellow cube stands on the table (:func:`rules.marker_stands_on`); ``revealed`` both placings while
    the reveal waits for re-rolled dice (R81), else ``null``; ``next`` the Next line and
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
        "round": state.round,
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
        "hands": {s: hand_status(state, s) for s in SIDES},
        "names": {s: state.setup.names[s] for s in SIDES},
        "last": last,
        "revealed": {s: state.opened[s].text() for s in SIDES} if state.opened is not None else None,
        "result": state.result,
        "removed": list(state.setup.removed),
        "next": next_line,
        "next_commands": commands_in(next_line),
    }


def marker_text(state: State, db: Database) -> str:
    """The yellow marker in words: the Location fought for, or in the marker phase who moves it next and
    where the cube still stands (R79); ``-`` before the first Location is chosen."""
    if state.phase == "marker" and state.round:
        stands = rules.marker_stands_on(state)
        where = f" (the cube still stands on {rules.name(db, stands)})" if stands else ""
        return f"none: {rules.who_does(state, state.chooser, 'chooses', 'choose', start=False)} the next Location{where}"
    return rules.name(db, state.current) if state.current else "-"


def spell_lines(state: State, db: Database, side: Side | None = None) -> list[str]:
    """The spells on the player cards (``side``'s, or both), one line each: die face, name, cost at the
    Location under the marker (the printed cost before the first is chosen), Resonance icon, text."""
    lines = []
    for s in ([side] if side else list(SIDES)):
        card = rules.player(db, s)
        lines.append(f"{card.title} ({state.points[s]} {card.points})")
        for sp in card.spells:
            cost = rules.spell_cost(state, db, s, sp.face) if state.current else sp.cost
            icon = f" [{sp.resonance}]" if sp.resonance else ""
            lines.append(f"  {sp.face} {sp.name:15} {cost} {card.points}{icon:9} {sp.text}")
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
                      f"controls {len(state.controlled_by(s))} ({controlled}); this round: {hand_status(state, s)}"))
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
    """One side's track on a Location: a cell per space, the cube on its space, then ``space/spaces``."""
    empty = "." if plain else "·"
    cells = "".join(mark if i == space else empty for i in range(1, spaces + 1))
    return f"{cells}\n{space}/{spaces}"


def board(state: State, db: Database, plain: bool = False, next_line: bool = True) -> Group:
    """The row of Locations as the players see it (a rich renderable).

    The Shadowmajik sit across the table (top), the Wardens at the bottom read the names (description:
    "the Location name readable to the Warden Player"); columns are the row left to right from the
    Wardens' side. Each column shows the Shadowmajik track (``S`` marks its cube), the name and the
    Resonance icons, the Wardens track (``W``); the yellow marker is written ``YELLOW`` above its
    Location. Colour never carries meaning alone. ``next_line``: end with the one-shot commands' Next
    line (not in table mode, which asks instead).
    """
    from rich import box
    from rich.console import Group
    from rich.table import Table
    from rich.text import Text

    def side_line(side: Side) -> Text:
        """One side's points, supply and Locations controlled, as the line above or below the table."""
        controlled = ", ".join(rules.name(db, x) for x in state.controlled_by(side)) or "none"
        style = "" if plain else ("bold magenta" if side == "shadowmajik" else "bold cyan")
        return Text(f"{rules.who(state, side)}: {state.points[side]} {rules.points_word(db, side)} (max {rules.rules_of(db).points_max}); "
                    f"supply {state.supply[side]} cube{'s' if state.supply[side] != 1 else ''}; "
                    f"controls {len(state.controlled_by(side))}/{rules.rules_of(db).locations_to_win}: {controlled}", style=style)

    table = Table(box=box.ASCII if plain else box.ROUNDED, show_header=True, header_style="" if plain else "bold",
                  padding=(0, 0), show_lines=False)
    for i, p in enumerate(state.row, 1):
        marker = " YELLOW" if p.id == rules.marker_stands_on(state) else ""
        table.add_column(Text(f"{i}{marker}", style="" if plain or not marker else "bold black on yellow"),
                         justify="center", overflow="fold", min_width=6)
    cards = [rules.location(db, p.id) for p in state.row]
    table.add_row(*[Text(track_text(p.cubes.shadowmajik, c.track_spaces, "S" if plain else "■", plain),
                         style="" if plain else "magenta") for p, c in zip(state.row, cards, strict=True)])
    table.add_row(*[Text(c.name, style="" if plain else "bold") for c in cards])
    table.add_row(*[" ".join(c.resonance) for c in cards])
    table.add_row(*[Text(track_text(p.cubes.wardens, c.track_spaces, "W" if plain else "■", plain),
                         style="" if plain else "cyan") for p, c in zip(state.row, cards, strict=True)])
    parts: list[RenderableType] = [side_line("shadowmajik"), table, side_line("wardens")]
    if state.current is None and state.phase == "marker" and state.round:
        parts.append(Text("The yellow marker waits for the next Location.", style=""))
    if next_line:
        parts.append(Text("Next: " + advice.next_step(state, db), style="" if plain else "bold"))
    return Group(*parts)


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
