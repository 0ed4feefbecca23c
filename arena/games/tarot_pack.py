"""The 78-card tarot pack, as every game of the arena played with it numbers it: French Tarot
and Tre e Venticinque shuffle the same pack from one seed, and a card keeps its id in both.

- suit cards: ``suit * 14 + rank``, suits spades = 0, hearts = 1, diamonds = 2, clubs = 3
  (Tre e Venticinque's swords, cups, coins, batons), ranks Ace = 0, 2..10 = 1..9, Jack = 10,
  Cavalier = 11, Queen = 12, King = 13;
- trumps 1..21: ids 56..76;
- the Fool (French Tarot's Excuse, Tre e Venticinque's Matto): 77.

What a game makes of the cards (their strength in a trick, their points, their names for
people) is the game's own, in its ``cards`` module.
"""

from __future__ import annotations

from enum import IntEnum
from typing import Final

from .cardsets import Card, Hand


class Suit(IntEnum):
    SPADES = 0
    HEARTS = 1
    DIAMONDS = 2
    CLUBS = 3


SUIT_LETTERS: Final = "SHDC"
RANK_LETTERS: Final = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "C", "Q", "K")
RANK_NAMES: Final = (
    "Ace", "2", "3", "4", "5", "6", "7", "8", "9", "10", "Jack", "Cavalier", "Queen", "King",
)

ACE: Final = 0
JACK: Final = 10
CAVALIER: Final = 11
QUEEN: Final = 12
KING: Final = 13

DECK_SIZE: Final = 78
FIRST_TRUMP: Final[Card] = 56
"""Trump 1 (French Tarot's Petit, Tre e Venticinque's Bagatto)."""
TRUMP_21: Final[Card] = 76
FOOL: Final[Card] = 77

FULL_DECK: Final[Hand] = (1 << DECK_SIZE) - 1
SUIT_MASKS: Final = tuple(((1 << 14) - 1) << (14 * s) for s in range(4))
TRUMP_MASK: Final[Hand] = ((1 << 21) - 1) << FIRST_TRUMP
KINGS_MASK: Final[Hand] = sum(1 << (14 * s + KING) for s in range(4))


def suit_card(suit: Suit | int, rank: int) -> Card:
    """The card of ``rank`` (0 = Ace .. 13 = King) in ``suit``."""
    if not 0 <= suit <= 3:
        raise ValueError(f"suit {suit} is not 0..3")
    if not 0 <= rank <= KING:
        raise ValueError(f"rank {rank} is not 0 (Ace) .. 13 (King)")
    return int(suit) * 14 + rank


def is_trump(card: Card) -> bool:
    """True for trumps 1..21 (the Fool is not a trump)."""
    return 56 <= card <= 76  # literals: this runs on the engine's hot path


def suit_of(card: Card) -> Suit | None:
    """The suit of a suit card; None for trumps and the Fool."""
    return Suit(card // 14) if card < 56 else None
