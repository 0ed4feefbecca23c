"""The 78-card tarot pack: identities, points, bouts, and a human-readable notation.

A card is a small int so that a hand is one Python int used as a bit set: following suit,
trumping and overtrumping become a handful of bit operations, which is what lets the engine
play thousands of deals per second in pure Python.

Card ids:
- suit cards: ``suit * 14 + rank`` with suits spades=0, hearts=1, diamonds=2, clubs=3 and ranks
  Ace=0, 2..10 = 1..9, Jack=10, Cavalier=11, Queen=12, King=13 (the Ace is the lowest card);
- trumps: ``55 + number`` for numbers 1 (le Petit) to 21 (ids 56..76);
- the Excuse: 77.

Within a suit and among trumps, a higher id is a stronger card.

Notation (ASCII, used in records): rank then suit letter for suit cards (``KS``, ``QH``, ``CD``
for the Cavalier of diamonds, ``JC``, ``10S``, ``AH``), ``T1``..``T21`` for trumps, ``EX`` for the
Excuse. :func:`card_symbol` gives a display form with suit symbols (``K♠``, ``21``, ``Excuse``).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final

# Card sets work alike in every game: re-exported for this game's modules and its bots.
from ..cardsets import Card as Card
from ..cardsets import Hand as Hand
from ..cardsets import cards_of as cards_of
from ..cardsets import iter_cards as iter_cards
from ..cardsets import mask_of as mask_of

# The pack is the one every game of the arena numbers alike (:mod:`arena.games.tarot_pack`).
from ..tarot_pack import ACE as ACE
from ..tarot_pack import CAVALIER as CAVALIER
from ..tarot_pack import DECK_SIZE as DECK_SIZE
from ..tarot_pack import FULL_DECK as FULL_DECK
from ..tarot_pack import JACK as JACK
from ..tarot_pack import KING as KING
from ..tarot_pack import QUEEN as QUEEN
from ..tarot_pack import RANK_LETTERS as RANK_LETTERS
from ..tarot_pack import RANK_NAMES as RANK_NAMES
from ..tarot_pack import SUIT_LETTERS as SUIT_LETTERS
from ..tarot_pack import SUIT_MASKS as SUIT_MASKS
from ..tarot_pack import TRUMP_MASK as TRUMP_MASK
from ..tarot_pack import Suit as Suit
from ..tarot_pack import is_trump as is_trump
from ..tarot_pack import suit_card as suit_card
from ..tarot_pack import suit_of as suit_of

SUIT_SYMBOLS: Final = "♠♥♦♣"
SUIT_NAMES: Final = ("spades", "hearts", "diamonds", "clubs")
PETIT: Final[Card] = 56
MONDE: Final[Card] = 76  # the 21 of trumps
EXCUSE: Final[Card] = 77

EXCUSE_BIT: Final[Hand] = 1 << EXCUSE
PETIT_BIT: Final[Hand] = 1 << PETIT
BOUTS_MASK: Final[Hand] = (1 << PETIT) | (1 << MONDE) | EXCUSE_BIT


def trump(number: int) -> Card:
    """The trump numbered ``number`` (1 = le Petit .. 21)."""
    if not 1 <= number <= 21:
        raise ValueError(f"trump number {number} is not 1..21")
    return 55 + number


RANK_MASKS: Final = tuple(sum(1 << suit_card(s, r) for s in range(4)) for r in range(14))
KINGS_MASK: Final[Hand] = RANK_MASKS[KING]

# Points in half-points so that all arithmetic is exact: the pack totals 182 (91 points).
_FACE_HALF_POINTS: Final = {KING: 9, QUEEN: 7, CAVALIER: 5, JACK: 3}


def _card_half_points(card: Card) -> int:
    if card >= 56:
        return 9 if card in (PETIT, MONDE, EXCUSE) else 1
    return _FACE_HALF_POINTS.get(card % 14, 1)


HALF_POINTS: Final[tuple[int, ...]] = tuple(_card_half_points(c) for c in range(DECK_SIZE))
TOTAL_HALF_POINTS: Final = 182


def is_bout(card: Card) -> bool:
    return card in (PETIT, MONDE, EXCUSE)


def rank_of(card: Card) -> int:
    """0 (Ace) .. 13 (King) for a suit card."""
    if card >= 56:
        raise ValueError(f"{card_name(card)} has no suit rank")
    return card % 14


def trump_number(card: Card) -> int:
    if not is_trump(card):
        raise ValueError(f"{card_name(card)} is not a trump")
    return card - 55


def half_points(card: Card) -> int:
    return HALF_POINTS[card]


def _check_card(card: Card) -> None:
    if not 0 <= card < DECK_SIZE:
        raise ValueError(f"{card} is not a card id (0..77)")


def card_name(card: Card) -> str:
    """ASCII notation used in records: ``KS``, ``10H``, ``CD``, ``T21``, ``EX``."""
    _check_card(card)
    if card == EXCUSE:
        return "EX"
    if card >= 56:
        return f"T{card - 55}"
    return RANK_LETTERS[card % 14] + SUIT_LETTERS[card // 14]


def card_symbol(card: Card) -> str:
    """Display form with suit symbols: ``K♠``, ``10♥``, ``21``, ``Excuse``."""
    _check_card(card)
    if card == EXCUSE:
        return "Excuse"
    if card >= 56:
        return str(card - 55)
    return RANK_LETTERS[card % 14] + SUIT_SYMBOLS[card // 14]


def card_long_name(card: Card) -> str:
    """English words: ``King of spades``, ``trump 21``, ``the Excuse``."""
    _check_card(card)
    if card == EXCUSE:
        return "the Excuse"
    if card >= 56:
        return "le Petit (trump 1)" if card == PETIT else f"trump {card - 55}"
    return f"{RANK_NAMES[card % 14]} of {SUIT_NAMES[card // 14]}"


_BY_NAME: Final = {card_name(c): c for c in range(DECK_SIZE)}


def parse_card(text: str) -> Card:
    """Parse the ASCII notation (case-insensitive; ``1S`` is accepted for the Ace)."""
    key = text.strip().upper()
    if key in _BY_NAME:
        return _BY_NAME[key]
    if len(key) >= 2 and key[:-1] == "1" and key[-1] in SUIT_LETTERS:
        return suit_card(SUIT_LETTERS.index(key[-1]), ACE)
    raise ValueError(
        f"unknown card {text!r}: expected e.g. KS, QH, CD (Cavalier), JC, 10S, AH, T1..T21, EX"
    )


def parse_cards(text: str) -> list[Card]:
    """Parse space- or comma-separated cards."""
    return [parse_card(t) for t in text.replace(",", " ").split()]


def format_cards(cards: Iterable[Card]) -> str:
    return " ".join(card_name(c) for c in cards)





def count(mask: Hand) -> int:
    return mask.bit_count()


# Every card is worth one half-point plus, for the bouts and the faces, these extras: a mask's
# half-points are five bit counts rather than a sum over its cards.
_EXTRA_8: Final = RANK_MASKS[KING] | BOUTS_MASK
_EXTRA_6: Final = RANK_MASKS[QUEEN]
_EXTRA_4: Final = RANK_MASKS[CAVALIER]
_EXTRA_2: Final = RANK_MASKS[JACK]


def mask_half_points(mask: Hand) -> int:
    """The half-points of the cards in ``mask``."""
    return (
        mask.bit_count()
        + 8 * (mask & _EXTRA_8).bit_count()
        + 6 * (mask & _EXTRA_6).bit_count()
        + 4 * (mask & _EXTRA_4).bit_count()
        + 2 * (mask & _EXTRA_2).bit_count()
    )
