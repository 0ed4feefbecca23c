"""Random-simulation properties over thousands of random legal deals.

Every deal is played by picking uniformly among ``legal_actions`` with a seeded
:class:`random.Random`; in one deal out of three the Matto's holder ducks (plays its weakest
legal card), which brings the lost Matto and the unpaid debt into the sample. A failure names the
deal number that reproduces it: ``play_random_deal(number)``. What the engine reports (trick
winners, cards taken, the Matto's exchange, points) is recomputed here from the tricks alone,
straight from RULES.md section 2, without the engine's helpers.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import replace

import pytest

from arena.games.base import EVERYONE, IllegalActionError
from arena.games.tre_e_venticinque import (
    Action,
    DealState,
    Discard,
    Phase,
    Play,
    apply,
    event_mark,
    events_after,
    legal_actions,
    observation_after,
    observation_at_end,
    observe,
    sealed_observation,
)
from arena.games.tre_e_venticinque.cards import cards_of
from arena.games.tre_e_venticinque.observation import CardDiscarded

DEALS = 4000
CHECKED_DEALS = 200
"""Deals in which every decision is also checked against a plain statement of the rules."""
OBSERVED_DEALS = 300
"""Deals in which every seat's observation is rebuilt from its events at every step."""

MATTO = 77


# --- the rules, restated plainly from RULES.md section 2 -------------------------------------

def suit(card: int) -> str:
    if card == MATTO:
        return "matto"
    if card >= 56:
        return "trump"
    return "SHDC"[card // 14]


def strength(card: int) -> int:
    if card >= 56:
        number = card - 55
        return 22 if number == 20 else 21 if number == 21 else number
    rank = card % 14  # 0 Ace .. 9 ten, 10 J, 11 C, 12 Q, 13 K
    if rank >= 10 or suit(card) in "SC":
        return rank
    return 9 - rank  # cups and coins: Ace high .. 10 low


def value(card: int) -> int:
    if card in (56, 76):
        return 15
    if card == MATTO:
        return 12
    if card >= 56:
        return 1
    return {12: 12, 11: 9, 13: 6, 10: 6}.get(card % 14, 1)


def winner_of(cards: tuple[int, ...]) -> int:
    """Index of the winning card: the strongest trump, else the strongest card of the first
    suit card's suit (a led Matto leaves the suit to the next card)."""
    real = [(i, c) for i, c in enumerate(cards) if c != MATTO]
    trumps = [(i, c) for i, c in real if suit(c) == "trump"]
    if trumps:
        return max(trumps, key=lambda ic: strength(ic[1]))[0]
    led = suit(real[0][1])
    return max(((i, c) for i, c in real if suit(c) == led), key=lambda ic: strength(ic[1]))[0]


def allowed(hand: set[int], trick: list[int], has_won: bool) -> set[int]:
    if not trick:
        options = {c for c in hand if c != MATTO}
    else:
        asked = "trump" if trick[0] == MATTO else suit(trick[0])
        same = {c for c in hand if suit(c) == asked}
        trumps = {c for c in hand if suit(c) == "trump"}
        options = same or trumps or {c for c in hand if c != MATTO}
    if MATTO in hand and has_won:
        options.add(MATTO)
    return options or set(hand)


def discardable(hand: set[int], left: int) -> set[int]:
    plain = {c for c in hand if c < 56 and c % 14 != 13}
    if len(plain) < left:
        plain |= {c for c in hand if 57 <= c <= 75}
    return plain


# --- playing ---------------------------------------------------------------------------------

def choose(state: DealState, rnd: random.Random, duck: bool) -> Action:
    legal = legal_actions(state)
    seat = state.to_act
    assert seat is not None
    if duck and state.phase is Phase.PLAYING and state.hands[seat] >> MATTO & 1:
        return min(legal, key=lambda a: (suit(a.card) == "trump", strength(a.card)))
    return legal[int(rnd.random() * len(legal))]


def play_random_deal(number: int, check: bool = False, observe_all: bool = False) -> DealState:
    rnd = random.Random(number)
    state = DealState.from_seed(number * 2_654_435_761 % 2**64, dealer=number % 3)
    duck = number % 3 == 0
    views = [observe(state, seat) for seat in range(3)]
    while state.to_act is not None:
        if check:
            check_legal_actions(state)
        action = choose(state, rnd, duck)
        actor = state.to_act
        mark = event_mark(state)
        apply(state, action)
        if observe_all:
            events = events_after(state, actor, action, mark)
            for recipient, event in events:
                if isinstance(event, CardDiscarded):
                    assert recipient == state.dealer  # a card laid face down: the dealer only
                else:
                    assert recipient is EVERYONE
            for seat in range(3):
                for recipient, event in events:
                    if recipient is EVERYONE or recipient == seat:
                        views[seat] = observation_after(views[seat], event)
                expected = sealed_observation(state, seat)
                if state.result is not None:  # the end is told by the table's end
                    views[seat] = observation_at_end(views[seat], state.result)
                assert views[seat] == expected, (number, len(state.history), seat)
    return state


def check_legal_actions(state: DealState) -> None:
    """``legal_actions`` is the plain statement's set, and exactly what ``apply`` accepts."""
    seat = state.to_act
    assert seat is not None
    hand = {c for c in range(78) if state.hands[seat] >> c & 1}
    if state.phase is Phase.DISCARDING:
        expected = {Discard(c) for c in discardable(hand, 3 - state.discard.bit_count())}
        wrong_kind: Action = Play(min(hand))
    else:
        expected = {Play(c) for c in allowed(hand, state.trick, state.tricks_won[seat] > 0)}
        wrong_kind = Discard(min(hand))
    legal = legal_actions(state)
    assert set(legal) == expected
    assert list(legal) == sorted(legal, key=lambda a: a.card)
    kind = type(legal[0])
    for card in range(78):
        action = kind(card)
        if action in expected:
            continue
        try:  # refused, and the state left as it was (checked below)
            apply(state, action)
        except IllegalActionError:
            continue
        raise AssertionError(f"{action} was accepted, the rules refuse it")
    with pytest.raises(IllegalActionError):
        apply(state, wrong_kind)
    assert legal_actions(state) == legal


def recompute(state: DealState) -> tuple[list[int], bool, bool]:
    """Each seat's points from the tricks and the discard, the Matto's rules applied plainly;
    and whether the Matto was lost, and whether its debt went unpaid."""
    piles: list[list[int]] = [[], [], []]
    won = [0, 0, 0]
    owed: tuple[int, int] | None = None
    lost = False
    for trick in state.tricks:
        winner = (trick.leader + winner_of(trick.cards)) % 3
        assert trick.winner == winner
        taken = list(trick.cards)
        if MATTO in trick.cards:
            holder = (trick.leader + trick.cards.index(MATTO)) % 3
            if won[holder]:
                taken.remove(MATTO)
                piles[holder].append(MATTO)
                small = sorted(c for c in piles[holder] if value(c) == 1)
                if small:
                    piles[holder].remove(small[0])
                    piles[winner].append(small[0])
                else:
                    owed = (holder, winner)
            else:
                lost = True
                assert trick is state.tricks[-1]
        piles[winner] += taken
        won[winner] += 1
        if owed and owed[0] == winner:
            small = sorted(c for c in piles[winner] if value(c) == 1)
            if small:
                piles[winner].remove(small[0])
                piles[owed[1]].append(small[0])
                owed = None
    points = [sum(value(c) for c in pile) for pile in piles]
    points[state.dealer] += sum(value(c) for c in range(78) if state.discard >> c & 1)
    return points, lost, owed is not None


@pytest.mark.slow
def test_random_deals_keep_every_rule() -> None:
    outcomes: Counter[str] = Counter()
    for number in range(DEALS):
        state = play_random_deal(number)
        result = state.result
        assert result is not None, number
        deal = state.deal
        # cards conserved: every card played once, or laid in the discard
        played = Counter(c for trick in state.tricks for c in trick.cards)
        assert len(state.tricks) == 25
        assert all(count == 1 for count in played.values())
        assert state.discard.bit_count() == 3
        assert set(played) | {c for c in range(78) if state.discard >> c & 1} == set(range(78))
        for seat in range(3):
            dealt = set(deal.hands[seat]) | (set(deal.talon) if seat == deal.dealer else set())
            mine = {c for trick in state.tricks for s, c in trick.played_by() if s == seat}
            if seat == deal.dealer:
                mine |= {c for c in range(78) if state.discard >> c & 1}
            assert mine == dealt, (number, seat)
        # the piles the engine keeps hold every card of the tricks once
        assert sum(p.bit_count() for p in state.piles) == 75
        # points: recomputed from the tricks, and the table's total every deal
        points, lost, unpaid = recompute(state)
        assert list(result.points) == points, number
        assert sum(points) == 233
        # the arena's scores settle the points pairwise: zero-sum, each seat's differences
        assert list(result.scores) == [sum(p - q for q in points) for p in points]
        assert sum(result.scores) == 0
        assert result.matto_lost == lost and result.matto_debt_unpaid == unpaid
        assert sum(result.tricks_won) == 25
        outcomes["lost" if lost else "unpaid" if unpaid else "exchanged"] += 1
        # the Matto's exchange is exact: the holder keeps the Matto and the winner of its
        # trick is one 1/3-point card richer, taken from the holder's tricks
        exchange = state.exchange
        if not lost and not unpaid:
            assert exchange is not None
            assert state.piles[exchange.holder] >> MATTO & 1
            assert state.piles[exchange.winner] >> exchange.card & 1
            assert value(exchange.card) == 1
    assert outcomes["exchanged"] > DEALS * 0.9
    assert outcomes["lost"] > 0, outcomes  # the sample reaches the rare rules


@pytest.mark.slow
def test_legal_actions_are_exactly_the_rules_and_what_apply_accepts() -> None:
    for number in range(CHECKED_DEALS):
        play_random_deal(number, check=True)


@pytest.mark.slow
def test_observations_rebuilt_from_events_equal_the_engines_at_every_step() -> None:
    for number in range(OBSERVED_DEALS):
        state = play_random_deal(number, observe_all=True)
        discard = tuple(cards_of(state.discard))
        for seat in range(3):
            final, sealed = observe(state, seat), sealed_observation(state, seat)
            assert final.deal == state.deal and final.discard == discard
            assert sealed.deal is None
            assert sealed.discard == (discard if seat == state.dealer else None)
            assert replace(final, deal=None, discard=sealed.discard) == sealed
