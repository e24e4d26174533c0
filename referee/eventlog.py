"""A game as an event log: the state is a fold of the events over the initial state.

This module owns the push/pop stack every referee uses (python-chess's ``move_stack`` idea): ``push``
applies one event with the game's pure ``apply`` function and keeps every intermediate state, so
``pop`` (undo) is exact and cheap, and replaying the saved events rebuilds the same states. A log
resumed from a save's checkpoint (:meth:`EventLog.resume`) knows only some states; the others are
replayed from the nearest known one when asked for (:meth:`EventLog.state_at`).
"""
from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Generic, TypeVar

S = TypeVar("S")
E = TypeVar("E")


class EventLog(Generic[S, E]):
    """The events of one game and the state after each of them.

    ``apply(state, event) -> state`` must be pure and raise (leaving nothing changed) for an event
    that does not fit; a rejected :meth:`push` changes nothing here either.
    """

    def __init__(self, initial: S, apply: Callable[[S, E], S], events: Iterable[E] = ()):
        self._apply = apply
        self._states: list[S | None] = [initial]
        self.events: list[E] = []
        for event in events:
            self.push(event)

    def resume(self, events: list[E], known: Mapping[int, S]) -> None:
        """Take ``events`` into this log, which holds none yet, without applying them: their states are
        known after the event counts of ``known`` (a save's checkpoint, :mod:`referee.checkpoint`), the
        others replayed from the nearest known one when asked for; the last state is replayed now when
        ``known`` lacks it. Raises ``ValueError`` on a log that holds events, and what ``apply`` raises."""
        if self.events:
            raise ValueError("resume() takes the events of a log that holds none")
        self.events = list(events)
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
        twin.events, twin._states = list(self.events), list(self._states)
        return twin

    def __len__(self) -> int:
        return len(self.events)
