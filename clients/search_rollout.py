"""The search bot's rollout policy: a quick, sensible card for every seat of a drawn deal (which
sees every hand), and a deal played out with it. Used by the card search
(:mod:`clients.search_bot`) and the bidding search (:mod:`clients.search_bidding`) alike, so it
is kept apart from both."""

from __future__ import annotations

from arena.games.french_tarot import GameState
from arena.games.french_tarot.cards import (
    EXCUSE,
    EXCUSE_BIT,
    HALF_POINTS,
    PETIT,
    SUIT_MASKS,
    TRUMP_MASK,
    Card,
    Hand,
    cards_of,
)
from arena.games.french_tarot.simulate import play_unchecked, playable, taker_side, trick_status
from arena.games.french_tarot.tricks import beating_mask


def finish(state: GameState) -> None:
    """Play the deal to its end with :func:`rollout_card` for every seat."""
    side = taker_side(state)  # known in a drawn deal: it does not change while it plays out
    while state.to_act is not None:
        play_unchecked(state, rollout_card(state, side))


def rollout_card(state: GameState, side: int | None = None) -> Card:
    """A quick, sensible card for the seat to act, which sees every hand (a drawn deal): charge
    points on a trick its side keeps (no opponent still to play can take it), take a trick with
    the cheapest card that keeps it, else throw its cheapest card; lead a card no opponent can
    beat or trump (the richest), else low in its longest suit; the Excuse goes before the last
    trick. ``side``: the taker's side (:func:`taker_side`), when the caller knows it."""
    seat = state.to_act
    assert seat is not None
    mask = playable(state)
    if mask & (mask - 1) == 0:
        return mask.bit_length() - 1
    hand = state.hands[seat]
    if mask & EXCUSE_BIT and hand.bit_count() <= 2:
        return EXCUSE
    plain = mask & ~EXCUSE_BIT
    led, best, best_pos = trick_status(state)
    n = state.seats
    if side is None:
        side = taker_side(state)
    mine = side >> seat & 1
    if not state.trick or best < 0:
        master = _master(state, plain, seat, side, mine)
        return _lead(plain) if master is None else master
    later = ((seat + k) % n for k in range(1, n - len(state.trick)))
    rivals = [state.hands[s] for s in later if (side >> s & 1) != mine]  # opponents still to play
    suit_top, trump_top = _threats(rivals, led)
    winner = (state.trick_leader + best_pos) % n
    if (side >> winner & 1) == mine and _keeps(best, suit_top, trump_top):
        return _charge(plain)
    winners = beating_mask(plain, led, best)
    bits = winners
    while bits:  # the cheapest card that no opponent after it can beat
        low = bits & -bits
        card = low.bit_length() - 1
        bits ^= low
        if card == PETIT and bits:
            continue  # a higher trump keeps the trick as well: the Petit is not risked
        if _keeps(card, suit_top, trump_top):
            return card
    if (side >> winner & 1) != mine or not winners:
        return _cheapest(plain)
    low = winners & -winners  # a friend's trick an opponent may take: make it cost
    card = low.bit_length() - 1
    if card == PETIT and winners != low:
        rest = winners ^ low
        card = (rest & -rest).bit_length() - 1
    return card if card != PETIT else _cheapest(plain)


def _threats(rivals: list[Hand], led: int) -> tuple[Card, Card]:
    """What these hands could beat with ``led`` led: (the highest card of that suit among those
    that must follow it, the highest trump among those that must trump), -1 for none."""
    suit = SUIT_MASKS[led] if led < 4 else 0
    suit_top = trump_top = -1
    for held in rivals:
        if held & suit:
            suit_top = max(suit_top, (held & suit).bit_length() - 1)
        elif held & TRUMP_MASK:
            trump_top = max(trump_top, (held & TRUMP_MASK).bit_length() - 1)
    return suit_top, trump_top


def _keeps(card: Card, suit_top: Card, trump_top: Card) -> bool:
    """Whether ``card``, winning the trick, stays winning against :func:`_threats` (a trump:
    unless one who must trump holds a higher one; a card of the led suit: unless one follows
    higher or one trumps)."""
    if card >= 56:
        return card > trump_top
    return trump_top < 0 and card > suit_top


def _master(state: GameState, mask: Hand, seat: int, side: int, mine: int) -> Card | None:
    """The richest suit card this seat can lead and keep: the highest of its suit still in
    play, with every opponent holding that suit or no trump (so none can take it)."""
    hands = state.hands
    rivals = [hands[s] for s in range(state.seats) if (side >> s & 1) != mine]
    live = 0
    for hand in hands:
        live |= hand
    best: Card | None = None
    for suit in range(4):
        cards = mask & SUIT_MASKS[suit]
        if not cards:
            continue
        top = (live & SUIT_MASKS[suit]).bit_length() - 1
        if not cards >> top & 1 or HALF_POINTS[top] < 3:
            continue
        if (best is None or HALF_POINTS[top] > HALF_POINTS[best]) and all(
                h & SUIT_MASKS[suit] or not h & TRUMP_MASK for h in rivals):
            best = top
    return best


def _charge(mask: Hand) -> Card:
    """The richest card that is not a trump (a trump only when nothing else is left)."""
    suits = mask & ~TRUMP_MASK
    if suits:
        return max(cards_of(suits), key=lambda c: (HALF_POINTS[c], c))
    return _cheapest(mask)


def _cheapest(mask: Hand) -> Card:
    """The card that gives least: low points first, then plain cards before trumps, and the
    Petit only when nothing else is left."""
    choices = cards_of(mask)
    return min(choices, key=lambda c: (c == PETIT, HALF_POINTS[c], c >= 56, c % 14 if c < 56
                                       else c))


def _lead(mask: Hand) -> Card:
    """A low card of the longest plain suit; only trumps left: the lowest (not the Petit)."""
    best_suit, length = -1, 0
    for suit in range(4):
        count = (mask & SUIT_MASKS[suit]).bit_count()
        if count > length:
            best_suit, length = suit, count
    if best_suit >= 0:
        suit_cards = mask & SUIT_MASKS[best_suit]
        return (suit_cards & -suit_cards).bit_length() - 1
    trumps = mask & TRUMP_MASK & ~(1 << PETIT)
    if trumps:
        return (trumps & -trumps).bit_length() - 1
    return (mask & -mask).bit_length() - 1
