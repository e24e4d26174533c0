"""A game as an event log: the state is a fold of the events over the initial state.

This module owns the push/pop stack every referee uses (python-chess's ``move_stack`` idea): ``push``
applies one event with the game's pure ``apply`` function and keeps every intermediate state, so
``pop`` (undo) is exact and cheap, and replaying the saved events rebuilds the same states.
"""
from __future__ import annotations

from collections.abc import Callable, Iterable
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
        self.states: list[S] = [initial]
        self.events: list[E] = []
        for event in events:
            self.push(event)

    @property
    def state(self) -> S:
        """The state after the last event."""
        return self.states[-1]

    @property
    def initial(self) -> S:
        """The state before any event (the setup)."""
        return self.states[0]

    def push(self, event: E) -> S:
        """Apply ``event`` to the current state, record both, and return the new state."""
        new = self._apply(self.states[-1], event)
        self.events.append(event)
        self.states.append(new)
        return new

    def pop(self) -> E:
        """Remove and return the last event (undo). Raises ``IndexError`` when there is none."""
        if not self.events:
            raise IndexError("no event to undo")
        self.states.pop()
        return self.events.pop()

    def __len__(self) -> int:
        return len(self.events)
