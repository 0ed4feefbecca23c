"""The values a Tre e Venticinque deal is played with and ends with: the table's options, the
Matto's exchange and debt, and the result. Plain frozen dataclasses, kept out of the compiled
engine (arena/native.py): they cross processes (pickled) and are read by their type hints
(arena.games.jsonform), which a compiled class would not keep as written."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from .cards import TOTAL_THIRDS, Card
from .deal import PLAYERS


class DealOutcome(Enum):
    """Every deal of this game is played to its end: there is no bidding to fail."""

    PLAYED = "played"


@dataclass(frozen=True, slots=True)
class TableOptions:
    """A table of Tre e Venticinque: always three players, and no variant."""

    players: int = PLAYERS

    def __post_init__(self) -> None:
        if self.players != PLAYERS:
            raise ValueError(
                f"Tre e Venticinque is played by exactly 3 players, not {self.players}"
            )


@dataclass(frozen=True, slots=True)
class MattoExchange:
    """The card the Matto's holder gave the winner of the trick the Matto was played to, from
    its own tricks (the seed: "sostituendolo nella presa in gioco con una scartina (che toglie
    sempre dalle sue prese)"). ``trick`` is the index of the trick after which the card changed
    hands: the Matto's own trick, or a later one when the holder had no such card yet."""

    trick: int
    holder: int
    winner: int
    card: Card


@dataclass(frozen=True, slots=True)
class MattoDebt:
    """The Matto's holder owes ``winner`` a 1/3-point card it does not have yet."""

    holder: int
    winner: int


@dataclass(frozen=True, slots=True)
class DealResult:
    """How a deal ended: each seat's score, zero-sum, and the card points behind it.

    The seed scores a deal by the card points each player took (the dealer adds the discard):
    :attr:`points`, in thirds of a point, 233 in all. The arena's scores sum to zero in every
    game, so :attr:`scores` settles those points between each pair of players: a seat's score
    is the sum of its differences with each of the two others, ``3 * points - 233`` thirds.
    Ranking by scores is ranking by points, and a game's winner is the same either way
    (:func:`~arena.games.tre_e_venticinque.scoring.score_game`).
    """

    outcome: DealOutcome
    scores: tuple[int, ...]
    """By seat, in thirds of a point: its points minus each other seat's, added up."""
    dealer: int | None = None
    """None in a bare result (outcome and scores only, as a sealed table end carries)."""
    tricks_won: tuple[int, ...] = ()
    discard_thirds: int | None = None
    """The dealer's discard, in thirds (included in the dealer's points)."""
    matto_lost: bool = False
    """The Matto's holder won no trick: it played the Matto to the last trick and lost it."""
    matto_debt_unpaid: bool = False
    """The Matto's holder never had a 1/3-point card in its tricks to give for it."""

    @property
    def points(self) -> tuple[int, ...]:
        """By seat, the card points it took (the discard included for the dealer), in thirds:
        the seed's count, read back from the scores."""
        return tuple((score + TOTAL_THIRDS) // PLAYERS for score in self.scores)
