"""A finished trick, as every trick-taking game of the arena records it (in its state, its
views, its events and the protocol's ``Trick``)."""

from __future__ import annotations

from collections.abc import Iterable
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


def made_tricks(made: list[Trick], cards: list[list[Card]], ends: list[int]) -> list[Trick]:
    """``made``, the finished tricks made so far, completed from an engine's own record of each:
    the list its cards were played into and ``leader << 3 | winner``. The engines keep tricks so
    and make a :class:`Trick` only when a reader asks: a simulation never does, and the named
    tuples made and freed were a twentieth of a French Tarot card phase on the fast path."""
    for index in range(len(made), len(cards)):
        both = ends[index]
        made.append(Trick(both >> 3, tuple(cards[index]), both & 7))
    return made


def trick_records(tricks: Iterable[Trick]) -> tuple[list[Trick], list[list[Card]], list[int]]:
    """An engine's record of finished tricks set by hand (a position built for a test or an
    analysis): the tricks, their cards' lists, and each one's ``leader << 3 | winner``."""
    made = list(tricks)
    return made, [list(trick.cards) for trick in made], [t.leader << 3 | t.winner for t in made]
