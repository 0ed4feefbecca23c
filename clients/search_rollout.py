"""The search bot's rollout policy: a quick, sensible card for every seat of a drawn deal (which
sees every hand), and a deal played out with it. Used by the card search
(:mod:`clients.search_bot`) and the bidding search (:mod:`clients.search_bidding`) alike, so it
is kept apart from both."""

from __future__ import annotations

from collections.abc import Callable

from arena.games.french_tarot import GameState
from arena.games.french_tarot.cards import (
    BOUTS_MASK,
    CAVALIER,
    EXCUSE,
    EXCUSE_BIT,
    HALF_POINTS,
    JACK,
    KINGS_MASK,
    MONDE,
    PETIT,
    PETIT_BIT,
    QUEEN,
    RANK_MASKS,
    SUIT_MASKS,
    TRUMP_MASK,
    Card,
    Hand,
    cards_of,
)
from arena.games.french_tarot.simulate import play_unchecked, playable, taker_side, trick_status
from arena.games.french_tarot.tricks import beating_mask

_FACES = RANK_MASKS[JACK] | RANK_MASKS[CAVALIER] | RANK_MASKS[QUEEN] | KINGS_MASK
"""The face cards of the four suits."""
_PIPS = ((1 << 56) - 1) & ~_FACES
"""The suit cards worth half a point (Ace to 10)."""
_BY_POINTS = (KINGS_MASK | EXCUSE_BIT, RANK_MASKS[QUEEN], RANK_MASKS[CAVALIER], RANK_MASKS[JACK],
              _PIPS)
"""The cards that are not trumps by half-points, the richest first (the Excuse is worth a
King's)."""
_CHEAPEST_TIERS: tuple[tuple[Hand, bool], ...] = (
    (_PIPS, True),
    (TRUMP_MASK & ~BOUTS_MASK, False),
    (RANK_MASKS[JACK], True),
    (RANK_MASKS[CAVALIER], True),
    (RANK_MASKS[QUEEN], True),
    (KINGS_MASK, True),
    ((1 << MONDE) | EXCUSE_BIT, False),
    (PETIT_BIT, False),
)
""":func:`_cheapest`'s order in tiers, the cheapest first: (the cards, whether they are suit
cards, ordered by the cards of their suit still held below them; otherwise the lowest goes)."""

Policy = Callable[[GameState, int | None], Card]
"""A rollout policy: the card for the seat to act of a drawn deal, given the taker's side."""


def finish(state: GameState, policy: Policy | None = None) -> None:
    """Play the deal to its end with ``policy`` (:func:`rollout_card` by default) for every
    seat."""
    card_for = rollout_card if policy is None else policy
    side = taker_side(state)  # known in a drawn deal: it does not change while it plays out
    while state.to_act is not None:
        play_unchecked(state, card_for(state, side))


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
    # _threats of the opponents still to play, inline: most of a rollout's cards follow.
    hands = state.hands
    suit = SUIT_MASKS[led] if led < 4 else 0
    suit_top = trump_top = -1
    later = seat
    for _ in range(n - 1 - len(state.trick)):
        later = later + 1 if later + 1 < n else 0
        if (side >> later & 1) != mine:
            held = hands[later]
            if held & suit:
                top = (held & suit).bit_length() - 1
                if top > suit_top:
                    suit_top = top
            elif held & TRUMP_MASK:
                top = (held & TRUMP_MASK).bit_length() - 1
                if top > trump_top:
                    trump_top = top
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
        return _cheapest(plain, _live(state))
    low = winners & -winners  # a friend's trick an opponent may take: make it cost
    card = low.bit_length() - 1
    if card == PETIT and winners != low:
        rest = winners ^ low
        card = (rest & -rest).bit_length() - 1
    return card if card != PETIT else _cheapest(plain, _live(state))


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
    if not mask & _FACES:
        return None  # only a face card is worth leading so (3 half-points or more)
    hands = state.hands
    rivals = [hands[s] for s in range(state.seats) if (side >> s & 1) != mine]
    live = 0
    for hand in hands:
        live |= hand
    best: Card | None = None
    for suit in range(4):
        cards = mask & SUIT_MASKS[suit]
        if not cards & _FACES:
            continue
        top = (live & SUIT_MASKS[suit]).bit_length() - 1
        if not cards >> top & 1 or HALF_POINTS[top] < 3:
            continue
        if (best is None or HALF_POINTS[top] > HALF_POINTS[best]) and all(
                h & SUIT_MASKS[suit] or not h & TRUMP_MASK for h in rivals):
            best = top
    return best


def _charge(mask: Hand) -> Card:
    """The richest card that is not a trump (a trump only when nothing else is left): the
    highest card of the richest rank held, as ``max`` by (half-points, card) would pick it."""
    suits = mask & ~TRUMP_MASK
    if suits:
        for richest in _BY_POINTS:
            cards = suits & richest
            if cards:
                return cards.bit_length() - 1
    return _cheapest(mask)


def _cheapest(mask: Hand, live: Hand = 0) -> Card:
    """The card that gives least: low points first, then plain cards before trumps, and the
    Petit only when nothing else is left; among plain cards of equal points, the one with the
    fewest cards of its suit still held (``live``: every hand) below it, then by suit.

    That last order reads only what is still to be played, never a card's printed rank: two
    cards of a hand with nothing still held between them then play alike in every rollout
    (the card search tries one of them for both, :func:`equivalent_classes`). The printed
    rank (a 2 of one suit before a 5 of another) told apart cards whose lower neighbours were
    gone, and so broke that.

    Worked out tier by tier of that order (:data:`_CHEAPEST_TIERS`) rather than by a key for
    every card: the rollouts call it at most of their cards."""
    for tier, plain in _CHEAPEST_TIERS:
        cards = mask & tier
        if not cards:
            continue
        if not plain or not live or cards & (cards - 1) == 0:
            return (cards & -cards).bit_length() - 1
        best, fewest = -1, 99
        for card in cards_of(cards):  # ascending: the first of the fewest is the lowest
            below = (live & SUIT_MASKS[card // 14] & ((1 << card) - 1)).bit_count()
            if below < fewest:
                best, fewest = card, below
        return best
    raise ValueError("no card to choose from")


def _live(state: GameState) -> Hand:
    """Every card still held by a hand of the deal."""
    live = 0
    for hand in state.hands:
        live |= hand
    return live


def equivalent_classes(cards: list[Card] | tuple[Card, ...], gone: Hand) -> list[list[Card]]:
    """The cards of one hand (``cards``, ascending) grouped into classes that play alike:
    plain cards of one suit worth half a point (Ace to 10), or trumps 2 to 20, with no card
    between two of them that is not ``gone`` (held by the same hand, played, or in a discard
    known never to be played). The oudlers, the Excuse and the face cards each have points of
    their own and stay alone.

    Why: swapping two such cards changes nothing any seat compares (each beats and loses to the
    same cards still in play) and nothing scored (the same points), so with a rollout policy
    that reads only that (:func:`rollout_card`, :func:`rules_card`, the exact solver) every
    member of a class scores the same on a drawn deal: the card search plays out one of each."""
    classes: list[list[Card]] = []
    for card in sorted(cards):
        if classes:
            last = classes[-1][-1]
            between = ((1 << card) - 1) & ~((1 << (last + 1)) - 1)
            if (_plain_group(card) >= 0 and _plain_group(card) == _plain_group(last)
                    and not between & ~gone):
                classes[-1].append(card)
                continue
        classes.append([card])
    return classes


def _plain_group(card: Card) -> int:
    """The suit (0 to 3) of a plain card worth half a point, 4 for trumps 2 to 20, else -1."""
    if card < 56:
        return card // 14 if card % 14 < 10 else -1
    return 4 if PETIT < card < 76 else -1


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


def rules_card(state: GameState, side: int | None = None) -> Card:
    """:func:`rollout_card` with four of the heuristic's habits, for the play-outs of the
    decisions before the card play (:mod:`clients.search_bidding`), whose quick rollouts
    played the taker's side worse than the heuristic does (docs/search-bot.md):

    - the taker's side, holding the master trump while an opponent still holds trumps, leads
      it (it draws the defence's trumps);
    - with no master card to lead, a seat leads low in a suit where a partner holds the master
      card (no opponent can take it), else a defender leads low in a suit the taker is void in
      while it holds trumps (it shortens the taker's trumps);
    - a seat charges a trick a partner still to play is sure to take;
    - the Petit goes on a trick its side keeps (it is saved)."""
    seat = state.to_act
    assert seat is not None
    mask = playable(state)
    if mask & (mask - 1) == 0:
        return mask.bit_length() - 1
    hand = state.hands[seat]
    if mask & EXCUSE_BIT and hand.bit_count() <= 2:
        return EXCUSE
    if side is None:
        side = taker_side(state)
    led, best, best_pos = trick_status(state)
    if not state.trick or best < 0:
        return _rules_lead(state, mask & ~EXCUSE_BIT, seat, side)
    plain = mask & ~EXCUSE_BIT
    n = state.seats
    mine = side >> seat & 1
    later = [(seat + k) % n for k in range(1, n - len(state.trick))]
    rivals = [state.hands[s] for s in later if (side >> s & 1) != mine]
    suit_top, trump_top = _threats(rivals, led)
    winner = (state.trick_leader + best_pos) % n
    kept = (side >> winner & 1) == mine and _keeps(best, suit_top, trump_top)
    if not kept:
        kept = any(_partner_takes(state.hands[s], led, best, suit_top, trump_top)
                   for s in later if s != seat and (side >> s & 1) == mine)
        if kept and plain & ~TRUMP_MASK:
            return _charge(plain)  # a partner still to play takes it: charge
        if kept and plain & PETIT_BIT:
            return PETIT
        return rollout_card(state, side)
    if plain & PETIT_BIT:
        return PETIT
    return _charge(plain)


def _partner_takes(held: Hand, led: int, best: Card, suit_top: Card, trump_top: Card) -> bool:
    """Whether a partner holding ``held``, still to play, surely takes the trick: its best card
    that may follow (the led suit's if it holds it, else a trump) beats ``best`` and keeps
    against the opponents still to play (:func:`_threats`)."""
    if led < 4 and held & SUIT_MASKS[led]:
        card = (held & SUIT_MASKS[led]).bit_length() - 1
    elif held & TRUMP_MASK:
        card = (held & TRUMP_MASK).bit_length() - 1
    else:
        return False
    return beating_mask(1 << card, led, best) != 0 and _keeps(card, suit_top, trump_top)


def _rules_lead(state: GameState, plain: Hand, seat: int, side: int) -> Card:
    """The lead of :func:`rules_card` (``plain``: the playable cards but the Excuse)."""
    if not plain:
        return EXCUSE
    mine = side >> seat & 1
    hands = state.hands
    n = state.seats
    rivals = [hands[s] for s in range(n) if (side >> s & 1) != mine]
    foe_trumps = any(h & TRUMP_MASK for h in rivals)
    live = 0
    for held in hands:
        live |= held
    live_trumps = live & TRUMP_MASK
    if mine and foe_trumps and live_trumps and plain >> (live_trumps.bit_length() - 1) & 1:
        return live_trumps.bit_length() - 1  # draw the defence's trumps
    master = _master(state, plain, seat, side, mine)
    if master is not None:
        return master
    for partner in range(n):
        if partner == seat or (side >> partner & 1) != mine:
            continue
        for suit in range(4):
            cards = plain & SUIT_MASKS[suit]
            top = (live & SUIT_MASKS[suit]).bit_length() - 1
            if cards and hands[partner] >> top & 1 and all(
                    h & SUIT_MASKS[suit] or not h & TRUMP_MASK for h in rivals):
                return (cards & -cards).bit_length() - 1  # low to the partner's master card
    if not mine:
        taker = [hands[s] for s in range(n) if side >> s & 1]
        for suit in range(4):
            cards = plain & SUIT_MASKS[suit]
            if cards and all(not h & SUIT_MASKS[suit] and h & TRUMP_MASK for h in taker):
                low = cards & -cards
                if HALF_POINTS[low.bit_length() - 1] == 1:
                    return low.bit_length() - 1  # make the taker trump
    return _lead(plain)
