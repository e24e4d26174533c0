"""A game as an event log: the state is a fold of the events over the initial state.

This module owns the push/pop stack every referee uses (python-chess's ``move_stack`` idea): ``push``
applies one event with the game's pure ``apply`` function and keeps every intermediate state, so
``pop`` (undo) is exact and cheap, and replaying the saved events rebuilds the same states. A log
resumed from a save's checkpoint (:meth:`EventLog.resume`) knows only some states; the others are
replayed from the nearest known one when asked for (:meth:`EventLog.state_at`), and its events are read from the
save's tables when first asked for (:class:`SavedEvents`).
"""
from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, MutableSequence
from typing import Any, Generic, TypeVar, overload

S = TypeVar("S")
E = TypeVar("E")


class SavedEvents(MutableSequence[E]):
    """A game's events as its save file writes them (``written``: one table each, as read), each decoded by
    ``decode(number, table)`` (``number``: its place in the sequence, from 1) when first asked for, then kept: a command
    that needs the state alone (its checkpoint's, :mod:`referee.checkpoint`) decodes none, and writes back the tables it
    read (:meth:`as_written`); issue 14: decoding a long game's 400 events took 5 ms of every command. Otherwise a list
    of the events (equal to a list holding the same events); ``decode`` raises what a table that does not read raises."""

    def __init__(self, written: Iterable[dict[str, Any]], decode: Callable[[int, dict[str, Any]], E]):
        self._written: list[dict[str, Any] | None] = list(written)
        self._events: list[E | None] = [None] * len(self._written)
        self._decode = decode

    def __len__(self) -> int:
        return len(self._events)

    @overload
    def __getitem__(self, index: int) -> E: ...

    @overload
    def __getitem__(self, index: slice) -> list[E]: ...

    def __getitem__(self, index: int | slice) -> E | list[E]:
        if isinstance(index, slice):
            return [self[at] for at in range(*index.indices(len(self)))]
        event = self._events[index]
        if event is None:
            at = range(len(self))[index]
            written = self._written[at]
            assert written is not None  # (an event set here has no table)
            event = self._events[at] = self._decode(at + 1, written)
        return event

    @overload
    def __setitem__(self, index: int, value: E) -> None: ...

    @overload
    def __setitem__(self, index: slice, value: Iterable[E]) -> None: ...

    def __setitem__(self, index: int | slice, value: Any) -> None:
        if isinstance(index, slice):
            values = list(value)
            self._events[index], self._written[index] = values, [None] * len(values)
        else:
            self._events[index], self._written[index] = value, None

    def __delitem__(self, index: int | slice) -> None:
        del self._events[index]
        del self._written[index]

    def insert(self, index: int, value: E) -> None:
        self._events.insert(index, value)
        self._written.insert(index, None)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, (list, SavedEvents)):
            return list(self) == list(other)
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]  # (mutable, as a list)

    def __repr__(self) -> str:
        return f"SavedEvents({list(self)!r})"

    def copy(self) -> SavedEvents[E]:
        """Another sequence of the same events (decoded or not), whose changes leave this one as it is."""
        twin: SavedEvents[E] = SavedEvents((), self._decode)
        twin._written, twin._events = list(self._written), list(self._events)
        return twin

    def as_written(self, encode: Callable[[E], dict[str, Any]]) -> list[dict[str, Any]]:
        """Each event's table for the save file: the table it was read from, decoded or not (the save's tables are what
        ``encode`` wrote: an event decoded and encoded again is the same), else ``encode(event)``."""
        return [written if written is not None else encode(self[at]) for at, written in enumerate(self._written)]


def as_written(events: Iterable[E], encode: Callable[[E], dict[str, Any]]) -> list[dict[str, Any]]:
    """Each of ``events``' tables for the save file: :meth:`SavedEvents.as_written`, or ``encode`` of each."""
    if isinstance(events, SavedEvents):
        return events.as_written(encode)
    return [encode(event) for event in events]


class EventLog(Generic[S, E]):
    """The events of one game and the state after each of them.

    ``apply(state, event) -> state`` must be pure and raise (leaving nothing changed) for an event
    that does not fit; a rejected :meth:`push` changes nothing here either.
    """

    def __init__(self, initial: S, apply: Callable[[S, E], S], events: Iterable[E] = ()):
        self._apply = apply
        self._states: list[S | None] = [initial]
        self.events: MutableSequence[E] = []
        for event in events:
            self.push(event)

    def resume(self, events: MutableSequence[E], known: Mapping[int, S]) -> None:
        """Take ``events`` (a list, or :class:`SavedEvents`, kept as they are) into this log, which holds none yet,
        without applying them: their states are
        known after the event counts of ``known`` (a save's checkpoint, :mod:`referee.checkpoint`), the
        others replayed from the nearest known one when asked for; the last state is replayed now when
        ``known`` lacks it. Raises ``ValueError`` on a log that holds events, and what ``apply`` raises."""
        if self.events:
            raise ValueError("resume() takes the events of a log that holds none")
        self.events = events if isinstance(events, SavedEvents) else list(events)
        self._states = [self._states[0]] + [None] * len(events)
        for count, state in known.items():
            if 0 < count <= len(events):
                self._states[count] = state
        self.state_at(len(events))

    def state_at(self, count: int) -> S:
        """The state after the first ``count`` events (0: the initial state), replayed from the nearest
        known state before it when it is not known yet. Raises ``IndexError`` beyond the last event."""
        if not 0 <= count < len(self._states):
            raise IndexError(f"no state after {count} events; the log has {len(self.events)}")
        found = self._states[count]
        if found is not None:
            return found
        start = count
        while self._states[start] is None:
            start -= 1
        state = self._states[start]
        for index in range(start, count):
            state = self._apply(state, self.events[index])  # type: ignore[arg-type]
            self._states[index + 1] = state
        return state  # type: ignore[return-value]

    @property
    def states(self) -> list[S]:
        """Every state, the initial one first (each computed now if it was not known): the list itself, so
        that ``states[-1] = ...`` replaces the present state."""
        if any(state is None for state in self._states):
            self.state_at(len(self.events))
            for count in range(len(self._states)):
                self.state_at(count)
        return self._states  # type: ignore[return-value]

    def known(self) -> dict[int, S]:
        """The states computed so far, by event count (the initial one, count 0, left out)."""
        return {count: state for count, state in enumerate(self._states) if count and state is not None}

    def knows(self, count: int) -> bool:
        """Whether the state after ``count`` events is known without a replay (False for a count the log has not)."""
        return 0 <= count < len(self._states) and self._states[count] is not None

    @property
    def state(self) -> S:
        """The state after the last event."""
        return self._states[-1]  # type: ignore[return-value]

    @state.setter
    def state(self, value: S) -> None:
        self._states[-1] = value

    @property
    def initial(self) -> S:
        """The state before any event (the setup)."""
        return self._states[0]  # type: ignore[return-value]

    def push(self, event: E) -> S:
        """Apply ``event`` to the current state, record both, and return the new state."""
        new = self._apply(self.state, event)
        self.record(event, new)
        return new

    def record(self, event: E, after: S) -> None:
        """Record ``event`` and the state ``after`` it, already computed (by the rules' ``resolve``)."""
        self.events.append(event)
        self._states.append(after)

    def pop(self) -> E:
        """Remove and return the last event (undo); the state before it is replayed from the nearest known
        one if it was not known. Raises ``IndexError`` when there is none."""
        if not self.events:
            raise IndexError("no event to undo")
        self.state_at(len(self.events) - 1)
        self._states.pop()
        return self.events.pop()

    def copy(self) -> EventLog[S, E]:
        """A log of the same events and known states whose lists are its own (pushing or popping on either
        leaves the other as it was)."""
        twin: EventLog[S, E] = EventLog(self.initial, self._apply)
        twin.events = self.events.copy() if isinstance(self.events, SavedEvents) else list(self.events)
        twin._states = list(self._states)
        return twin

    def __len__(self) -> int:
        return len(self.events)
