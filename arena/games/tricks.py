"""A finished trick, as every trick-taking game of the arena records it (in its state, its
views, its events and the protocol's ``Trick``)."""

from __future__ import annotations

from typing import NamedTuple

from .cardsets import Card


class Trick(NamedTuple):
    """A finished trick: ``cards`` in play order, one per hand at the table, the first led by
    ``leader``.

    A named tuple rather than a frozen dataclass: a deal makes up to 25 of them on its hot path.
    """

    leader: int
    cards: tuple[Card, ...]
    winner: int

    def seat_of(self, index: int) -> int:
        return (self.leader + index) % len(self.cards)

    def played_by(self) -> tuple[tuple[int, Card], ...]:
        n = len(self.cards)
        return tuple(((self.leader + i) % n, c) for i, c in enumerate(self.cards))
