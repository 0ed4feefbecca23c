"""The 78 cards as Tre e Venticinque counts and ranks them: points in thirds, trick strength.

The pack is the tarot pack French Tarot uses, and a card keeps the id it has there, so that one
seed shuffles the same pack in both games and a hand is one int used as a bit set:

- suit cards: ``suit * 14 + rank``; suits spades (*spade*, swords) = 0, hearts (*coppe*, cups)
  = 1, diamonds (*denari*, coins) = 2, clubs (*bastoni*, batons) = 3; ranks Ace = 0, 2..10 =
  1..9, Jack (*Fante*) = 10, Cavalier (*Cavallo*) = 11, Queen (*Donna*) = 12, King (*Re*) = 13;
- trumps (*tarocchi*, *trionfi*): ``55 + number`` for 1 (*il Bagatto*) .. 21 (*il Mondo*),
  ids 56..76;
- the Matto (trump 0 in the seed's numbering, the Fool): 77.

What differs from French Tarot is the game's own: the strength of cards in a trick (the 20
beats the 21; in the red suits the Ace is the highest small card and the 10 the lowest), the
points, and the Matto's powers. Strength is a table, not the card id.

Notation (ASCII, used in records and accepted on the wire): the same letters as French Tarot, so
that one reader reads both games' records: rank then suit letter for suit cards (``KS``, ``QH``,
``CD`` for the Cavalier of coins, ``JC``, ``10S``, ``AH``), ``T1`` .. ``T21`` for trumps, and
``M`` for the Matto (``T0``, its number in the seed, is accepted on input). The suit letters
are the French suits' initials; the Italian suit each stands for is given above.

Points: the seed document (``seeds/002_f54b53a154123bc4.txt``) gives trump 1 and trump 21 5
points each, the Matto 4, each Queen 4, each Cavalier 3, each King and each Jack 2, and every
other card, small suit card or trump, 1/3 of a point. The engine counts thirds so that every sum
is exact: :data:`THIRDS` is the only table of values. The seed says the deal's points total 78;
with its own values they total 77 2/3 (233 thirds), which is the figure the engine computes
(:data:`TOTAL_THIRDS`).
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
from ..tarot_pack import KINGS_MASK as KINGS_MASK
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

SUIT_NAMES: Final = ("swords", "cups", "coins", "batons")
"""The Italian suits in English (spade, coppe, denari, bastoni), by suit id."""
SUIT_ITALIAN: Final = ("spade", "coppe", "denari", "bastoni")
RED_SUITS: Final = frozenset({Suit.HEARTS, Suit.DIAMONDS})
"""Cups and coins: the small cards rank Ace (high) .. 10 (low)."""
BAGATTO: Final[Card] = 56
"""Trump 1, *il Bagatto*."""
ANGELO: Final[Card] = 75
"""Trump 20, *l'Angelo*: the highest trump."""
MONDO: Final[Card] = 76
"""Trump 21, *il Mondo*: the second-highest trump."""
MATTO: Final[Card] = 77
MATTO_BIT: Final[Hand] = 1 << MATTO


def trump(number: int) -> Card:
    """The trump numbered ``number``: 1 (il Bagatto) .. 21 (il Mondo); 0 is the Matto."""
    if not 0 <= number <= 21:
        raise ValueError(f"trump number {number} is not 0 (the Matto) .. 21")
    return MATTO if number == 0 else 55 + number


def _thirds(card: Card) -> int:
    if card in (BAGATTO, MONDO):
        return 15
    if card == MATTO:
        return 12
    if card >= 56:
        return 1
    return {QUEEN: 12, CAVALIER: 9, KING: 6, JACK: 6}.get(card % 14, 1)


THIRDS: Final[tuple[int, ...]] = tuple(_thirds(c) for c in range(DECK_SIZE))
"""Each card's points in thirds of a point, by card id: the game's one table of values."""
TOTAL_THIRDS: Final = sum(THIRDS)
"""233 thirds, 77 2/3 points (the seed says 78; see the module docstring)."""
ONE_THIRD_MASK: Final[Hand] = sum(1 << c for c in range(DECK_SIZE) if THIRDS[c] == 1)
"""The cards worth 1/3 of a point: what the Matto's holder gives in exchange for it."""


def _strength(card: Card) -> int:
    if card == MATTO:
        return -1  # never wins
    if card >= 56:
        number = card - 55
        return {20: 21, 21: 20}.get(number, number)  # 20 > 21 > 19 > ... > 1
    rank = card % 14
    if card // 14 in RED_SUITS and rank < JACK:
        return 9 - rank  # Ace 9 (highest small card) .. 10 0 (the lowest)
    return rank  # black suits and every face card: the id order
    # (King 13, Queen 12, Cavalier 11, Jack 10 in every suit)


STRENGTH: Final[tuple[int, ...]] = tuple(_strength(c) for c in range(DECK_SIZE))
"""How strong a card is in a trick, compared within its suit or among trumps only."""


def thirds(card: Card) -> int:
    return THIRDS[card]


def beats(card: Card, best: Card) -> bool:
    """Whether ``card``, played after ``best`` (the card winning a trick so far), takes the
    lead: a trump over a suit card or a weaker trump, a suit card over a weaker one of its
    suit. The Matto beats nothing and is never ``best``."""
    if card >= 56:
        return card != MATTO and (best < 56 or STRENGTH[card] > STRENGTH[best])
    return best < 56 and card // 14 == best // 14 and STRENGTH[card] > STRENGTH[best]


def _check_card(card: Card) -> None:
    if isinstance(card, bool) or not isinstance(card, int) or not 0 <= card < DECK_SIZE:
        raise ValueError(f"{card!r} is not a card id (0..77)")


def card_name(card: Card) -> str:
    """ASCII notation used in records: ``KS``, ``10H``, ``CD``, ``T21``, ``M``."""
    _check_card(card)
    if card == MATTO:
        return "M"
    if card >= 56:
        return f"T{card - 55}"
    return RANK_LETTERS[card % 14] + SUIT_LETTERS[card // 14]


def card_long_name(card: Card) -> str:
    """English words: ``King of swords``, ``trump 20 (l'Angelo)``, ``the Matto``."""
    _check_card(card)
    if card == MATTO:
        return "the Matto"
    if card >= 56:
        extra = {BAGATTO: " (il Bagatto)", ANGELO: " (l'Angelo)", MONDO: " (il Mondo)"}
        return f"trump {card - 55}{extra.get(card, '')}"
    return f"{RANK_NAMES[card % 14]} of {SUIT_NAMES[card // 14]}"


_BY_NAME: Final = {card_name(c): c for c in range(DECK_SIZE)}


def parse_card(text: str) -> Card:
    """Parse the ASCII notation (case-insensitive; ``1S`` for the Ace and ``T0`` for the Matto
    are accepted too)."""
    key = text.strip().upper() if isinstance(text, str) else ""
    if key in _BY_NAME:
        return _BY_NAME[key]
    if key == "T0":
        return MATTO
    if len(key) == 2 and key[0] == "1" and key[1] in SUIT_LETTERS:
        return suit_card(SUIT_LETTERS.index(key[1]), ACE)
    raise ValueError(
        f"unknown card {text!r}: expected e.g. KS, QH, CD (Cavalier), JC, 10S, AH, T1..T21, "
        "M (the Matto)"
    )


def parse_cards(text: str) -> list[Card]:
    """Parse space- or comma-separated cards."""
    return [parse_card(t) for t in text.replace(",", " ").split()]


def format_cards(cards: Iterable[Card]) -> str:
    return " ".join(card_name(c) for c in cards)


def format_thirds(thirds: int) -> str:
    """Points for people: ``25``, ``25 1/3``, ``-2/3``."""
    sign = "-" if thirds < 0 else ""
    whole, rest = divmod(abs(thirds), 3)
    if not rest:
        return f"{sign}{whole}"
    return f"{sign}{whole} {rest}/3" if whole else f"{sign}{rest}/3"





def _thirds_table(first: Card, bits: int) -> tuple[int, ...]:
    """``table[m]``: the thirds of the cards ``first + i`` for each bit ``i`` of ``m``."""
    table = [0] * (1 << bits)
    for m in range(1, 1 << bits):
        low = m & -m
        table[m] = THIRDS[first + low.bit_length() - 1] + table[m ^ low]
    return tuple(table)


# Thirds of any set of cards in six look-ups (13 bits at a time), not a loop over its cards.
_THIRDS_TABLES: Final = tuple(_thirds_table(first, 13) for first in range(0, DECK_SIZE, 13))


def mask_thirds(mask: Hand) -> int:
    """The points of a set of cards, in thirds."""
    t = _THIRDS_TABLES
    return (t[0][mask & 0x1FFF] + t[1][mask >> 13 & 0x1FFF] + t[2][mask >> 26 & 0x1FFF]
            + t[3][mask >> 39 & 0x1FFF] + t[4][mask >> 52 & 0x1FFF] + t[5][mask >> 65])
