"""A "game" of Tre e Venticinque as the seed scores it: three deals, one per dealer, points added.

The seed document (``seeds/002_f54b53a154123bc4.txt``): "Dopo che sono state giocate tre
smazzate, e che quindi ogni giocatore è stato mazziere per un turno, si sommano i punti fatti
da ogni giocatore. Vince chi ne ha totalizzato di più." So a game is exactly three deals among
the same three players in the same seats, each seat dealing once, and each seat's total is the
sum of its points (:attr:`~.game.DealResult.points`, in thirds). The seed says nothing of a tie
for the highest total: the engine lets the tied players share the win (``winners`` lists them
all) rather than invent a tie-break.

A duplicate tournament ranks bots by their scores on the same boards instead; this is the
seed's own reckoning, reported beside it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .cards import format_thirds
from .deal import PLAYERS
from .game import DealResult


@dataclass(frozen=True, slots=True)
class GameScore:
    """The totals of a game of three deals."""

    totals: tuple[int, ...]
    """By seat, in thirds of a point."""
    winners: tuple[int, ...]
    """The seats with the highest total (more than one on a tie)."""

    def points(self, seat: int) -> str:
        return format_thirds(self.totals[seat])

    def describe(self) -> str:
        parts = [f"seat {s}: {format_thirds(t)}" for s, t in enumerate(self.totals)]
        won = " and ".join(f"seat {s}" for s in self.winners)
        return f"{', '.join(parts)}; won by {won}"


def score_game(deals: Sequence[DealResult]) -> GameScore:
    """The seed's score of a game: ValueError unless it is three finished deals, one dealt by
    each seat."""
    if len(deals) != PLAYERS:
        raise ValueError(
            f"a game of Tre e Venticinque is three deals, one per dealer, not {len(deals)}"
        )
    dealers = [result.dealer for result in deals]
    if None in dealers:
        raise ValueError("a bare result (outcome and scores only) does not say who dealt")
    if sorted(d for d in dealers if d is not None) != list(range(PLAYERS)):
        raise ValueError(
            f"each seat deals once in a game: these deals were dealt by seats {dealers}"
        )
    totals = tuple(sum(result.points[seat] for result in deals) for seat in range(PLAYERS))
    best = max(totals)
    return GameScore(totals, tuple(s for s, t in enumerate(totals) if t == best))
