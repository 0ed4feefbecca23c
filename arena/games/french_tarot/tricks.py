"""The rules of a trick for players reasoning about one: what was led, which card wins, which
cards would beat it, and what a card played tells about its player's hand.

The engine's own hot path (:mod:`.game`) keeps its incremental bit tricks; these functions are
the same rules for a trick seen from outside (a list of cards, or of ``(seat, card)`` in play
order), so that bots and tools ask the engine instead of writing the rules again. The tests
check them against the engine over many random deals.

Suits are numbered as in :mod:`.cards` (0 spades .. 3 clubs); in a trick, trumps count as a
fifth "suit", :data:`TRUMPS`, and the Excuse as none, :data:`NO_SUIT`: it follows nothing and
never wins (but for the last trick of a chelem, which only a finished trick's
:attr:`~arena.games.french_tarot.Trick.winner` tells).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Final

from .cards import EXCUSE, FULL_DECK, SUIT_MASKS, TRUMP_MASK, Card, Hand

TRUMPS: Final = 4
"""The "suit" of trumps in a trick."""
NO_SUIT: Final = -1
"""The suit of the Excuse, and what is led while nothing but the Excuse is down."""


def trick_suit(card: Card) -> int:
    """0..3 for a suit card, :data:`TRUMPS` for a trump, :data:`NO_SUIT` for the Excuse."""
    if card < 56:
        return card // 14
    return TRUMPS if card < EXCUSE else NO_SUIT


def led_suit(cards: Iterable[Card]) -> int:
    """The suit the others must follow: that of the first card other than the Excuse;
    :data:`NO_SUIT` while there is none."""
    for card in cards:
        if card != EXCUSE:
            return trick_suit(card)
    return NO_SUIT


def beats(card: Card, best: Card, led: int) -> bool:
    """Whether ``card`` takes the lead from ``best``, the card winning so far (-1: none yet),
    ``led`` being the suit led: a trump beats any suit card and lower trumps, a suit card only
    lower cards of the suit led, and the Excuse nothing."""
    if card == EXCUSE:
        return False
    if best < 0:
        return True
    if card >= 56:
        return best < 56 or card > best
    return best < 56 and card // 14 == led and card > best


def winning_index(cards: Sequence[Card]) -> int:
    """The position in ``cards`` (play order) of the card winning so far; -1 while nothing but
    the Excuse is down."""
    led = led_suit(cards)
    best = -1
    index = -1
    for position, card in enumerate(cards):
        if beats(card, best, led):
            best, index = card, position
    return index


def trick_winner(plays: Sequence[tuple[int, Card]]) -> int | None:
    """The seat winning a trick in progress, from its ``(seat, card)`` in play order; None while
    nothing but the Excuse is down."""
    index = winning_index([card for _, card in plays])
    return plays[index][0] if index >= 0 else None


def higher_cards(card: Card) -> Hand:
    """The cards that beat ``card`` in its own suit (trumps, for a trump): the ones still out
    decide whether it is master."""
    if card == EXCUSE:
        return 0
    suit = SUIT_MASKS[card // 14] if card < 56 else TRUMP_MASK
    return suit & ~((2 << card) - 1)


def beating_mask(hand: Hand, led: int, best: Card) -> Hand:
    """The cards of ``hand`` that would beat ``best`` (the card winning so far) with ``led``
    led, whether or not the rules let them be played."""
    if best < 0:
        return hand & ~(1 << EXCUSE)
    if best >= 56:
        return hand & TRUMP_MASK & ~((2 << best) - 1)
    higher = SUIT_MASKS[led] & ~((2 << best) - 1) if 0 <= led < TRUMPS else 0
    return hand & (higher | TRUMP_MASK)


def exclusions(
    plays: Sequence[tuple[int, Card]], called: Card | None = None
) -> list[tuple[int, Hand]]:
    """What the cards of one trick show about their players' hands, given that everyone
    played by the rules: ``(seat, cards that seat held none of when it played)`` in play
    order, for every card that shows something.

    - not following the suit led: none of that suit;
    - not trumping when it could not follow (or playing no trump on trumps led): no trump;
    - a trump below the best trump of the trick: no trump above that one;
    - with ``called`` (five players, give it for the first trick of the deal only), a first
      card of the called suit other than the called card: nothing but that suit.

    What a seat holds none of when it played, it holds none of later either.
    """
    out: list[tuple[int, Hand]] = []
    if called is not None and plays:
        seat, card = plays[0]
        if card < 56 and card // 14 == called // 14 and card != called:
            out.append((seat, FULL_DECK & ~SUIT_MASKS[called // 14]))
    led = NO_SUIT
    best = -1
    for seat, card in plays:
        if card == EXCUSE:
            continue
        if led == NO_SUIT:
            led, best = trick_suit(card), card
            continue
        # beats() and the three rules above, inline: bots call this for every trick at every
        # decision.
        shown = 0
        if card >= 56:
            if led < TRUMPS:
                shown = SUIT_MASKS[led]
            if best >= 56 and card < best:
                shown |= TRUMP_MASK & ~((1 << best) - 1)
            else:
                best = card
        elif card // 14 != led:
            shown = TRUMP_MASK if led == TRUMPS else SUIT_MASKS[led] | TRUMP_MASK
        elif best < 56 and card > best:
            best = card
        if shown:
            out.append((seat, shown))
    return out
