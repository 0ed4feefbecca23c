"""The rollout policy's cheap picks (:mod:`clients.search_rollout`: the richest card to charge,
the cheapest to throw, the master card to lead) are worked out by ranks and tiers of masks
rather than by a key per card; here against the straightforward key-per-card versions over
many random hands, so that no rollout, and so no choice of the search bot, moves."""

from __future__ import annotations

import random

from arena.games.french_tarot import GameState, Phase
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
from arena.games.french_tarot.simulate import (
    copy_state,
    play_unchecked,
    playable,
    taker_side,
    trick_status,
)
from arena.games.french_tarot.tricks import beating_mask
from clients.search_rollout import (
    _charge,
    _cheapest,
    _keeps,
    _lead,
    _live,
    _master,
    _threats,
    rollout_card,
)

from .positions import random_position


def reference_cheapest(mask: Hand, live: Hand = 0) -> Card:
    return min(cards_of(mask), key=lambda c: (
        c == PETIT, HALF_POINTS[c], c >= 56,
        (live & SUIT_MASKS[c // 14] & ((1 << c) - 1)).bit_count() if c < 56 else 0, c))


def reference_charge(mask: Hand) -> Card:
    suits = mask & ~TRUMP_MASK
    if suits:
        return max(cards_of(suits), key=lambda c: (HALF_POINTS[c], c))
    return reference_cheapest(mask)


def reference_master(hands: list[Hand], mask: Hand, side: int, mine: int) -> Card | None:
    rivals = [hands[s] for s in range(len(hands)) if (side >> s & 1) != mine]
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


def reference_rollout_card(state: GameState, side: int) -> Card:
    """The rollout policy as it read before its picks were worked out by tiers."""
    seat = state.to_act
    assert seat is not None
    mask = playable(state)
    if mask & (mask - 1) == 0:
        return mask.bit_length() - 1
    if mask & EXCUSE_BIT and state.hands[seat].bit_count() <= 2:
        return EXCUSE
    plain = mask & ~EXCUSE_BIT
    led, best, best_pos = trick_status(state)
    n = state.seats
    mine = side >> seat & 1
    if not state.trick or best < 0:
        master = reference_master(list(state.hands), plain, side, mine)
        return _lead(plain) if master is None else master
    later = ((seat + k) % n for k in range(1, n - len(state.trick)))
    rivals = [state.hands[s] for s in later if (side >> s & 1) != mine]
    suit_top, trump_top = _threats(rivals, led)
    winner = (state.trick_leader + best_pos) % n
    if (side >> winner & 1) == mine and _keeps(best, suit_top, trump_top):
        return reference_charge(plain)
    winners = beating_mask(plain, led, best)
    bits = winners
    while bits:
        low = bits & -bits
        card = low.bit_length() - 1
        bits ^= low
        if card == PETIT and bits:
            continue
        if _keeps(card, suit_top, trump_top):
            return card
    if (side >> winner & 1) != mine or not winners:
        return reference_cheapest(plain, _live(state))
    low = winners & -winners
    card = low.bit_length() - 1
    if card == PETIT and winners != low:
        rest = winners ^ low
        card = (rest & -rest).bit_length() - 1
    return card if card != PETIT else reference_cheapest(plain, _live(state))


def random_hand(rng: random.Random) -> Hand:
    """A random set of cards, from one card to the whole deck, often a hand's few."""
    size = rng.choice((1, 2, 3, rng.randrange(1, 19), rng.randrange(1, EXCUSE + 2)))
    return sum(1 << c for c in rng.sample(range(EXCUSE + 1), size))


def test_the_cheapest_card_is_the_keys_minimum() -> None:
    rng = random.Random(28)
    for _ in range(20_000):
        mask = random_hand(rng)
        live = rng.choice((0, mask, mask | random_hand(rng), random_hand(rng)))
        assert _cheapest(mask, live) == reference_cheapest(mask, live)
        assert _cheapest(mask) == reference_cheapest(mask)


def test_the_card_charged_is_the_keys_maximum() -> None:
    rng = random.Random(29)
    for _ in range(20_000):
        mask = random_hand(rng)
        assert _charge(mask) == reference_charge(mask)
        trumps = mask & (TRUMP_MASK | 1 << EXCUSE)
        if trumps:
            assert _charge(trumps) == reference_charge(trumps)


def test_the_master_card_led_is_the_reference_one() -> None:
    checked = 0
    for number in range(600):
        state = random_position(2800 + number, 3 + number % 3)
        seat = state.to_act
        if state.phase is not Phase.PLAYING or seat is None:
            continue
        side = taker_side(state)
        mine = side >> seat & 1
        hands = list(state.hands)
        rng = random.Random(number)
        held = state.hands[seat]
        for mask in (playable(state), held, held & random_hand(rng)):
            assert (_master(state, mask, seat, side, mine)
                    == reference_master(hands, mask, side, mine))
            checked += 1
    assert checked > 1000


def test_every_card_of_the_rollouts_is_the_reference_policys() -> None:
    """Deals played out by the policy from random positions (3 to 5 players): every card, in
    every seat, leads and follows alike."""
    checked = 0
    for number in range(400):
        state = random_position(7100 + number, 3 + number % 3)
        if state.phase is not Phase.PLAYING or state.to_act is None:
            continue
        state = copy_state(state)
        side = taker_side(state)
        while state.to_act is not None:
            card = rollout_card(state, side)
            assert card == reference_rollout_card(state, side)
            play_unchecked(state, card)
            checked += 1
    assert checked > 5000
