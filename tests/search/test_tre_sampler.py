"""The Tre e Venticinque sampler: every sample agrees with what the seat saw (checked by
replaying the deal's actions on it with the engine's checked rules), and draws are uniform over
the admissible deals (chi-square against an exact enumeration)."""

from __future__ import annotations

import dataclasses
import itertools
from collections import Counter

import pytest

from arena.games.base import IllegalActionError
from arena.games.tre_e_venticinque import (
    DISCARDS,
    Deal,
    DealState,
    Discard,
    Observation,
    Phase,
    Play,
    Trick,
    apply,
    legal_actions,
    observe,
)
from arena.games.tre_e_venticinque.cards import (
    KING,
    MATTO,
    MONDO,
    TRUMP_MASK,
    cards_of,
    mask_of,
)
from clients.sdk import NoConsistentDealError
from clients.sdk.sampler import HIDDEN
from clients.sdk.tre_sampler import TreSample, TreSampler, play_exclusions, position

from .test_sampler import chi_square_p
from .tre_positions import tre_position, tre_view


def replay_checked(sample: TreSample, state: DealState) -> DealState | None:
    """The real deal's actions replayed on the sample's deal with the checked engine (the
    discard: the sample's own), or None when the rules refuse one: the sample is then not
    consistent with what was played."""
    replayed = DealState(sample.dealt())
    try:
        for card in cards_of(sample.hidden):
            apply(replayed, DISCARDS[card])
        for _, action in state.history:
            if isinstance(action, Play):
                apply(replayed, action)
    except IllegalActionError:
        return None
    return replayed


def test_every_sample_agrees_with_what_the_seat_saw() -> None:
    positions = 0
    for number in range(1500):
        state = tre_position(number, heuristic=number % 2 == 1)
        seat = number // 2 % 3
        view = tre_view(state, seat)
        sampler = TreSampler(view, seed=number)
        assert sampler.exact
        for sample in sampler.samples(3):
            assert sample.hands[seat] == state.hands[seat]
            if seat == state.dealer:
                assert sample.hidden == state.discard
            assert sample.hidden.bit_count() == 3
            assert sum(h.bit_count() for h in sample.hands) + sample.hidden.bit_count() + sum(
                3 for _ in state.tricks) + len(state.trick) == 78
            replayed = replay_checked(sample, state)
            assert replayed is not None, f"deal {number}, seat {seat}: a sample the play refutes"
            assert replayed.hands == list(sample.hands)
            fast = sample.state()
            assert (fast.hands, fast.piles, fast.tricks_won, fast.to_act, fast.trick,
                    fast.discard, fast.debt) == (
                replayed.hands, replayed.piles, replayed.tricks_won, replayed.to_act,
                replayed.trick, replayed.discard, replayed.debt)
            if state.to_act == seat:
                assert legal_actions(fast) == legal_actions(state)
            assert observe(fast, seat) == dataclasses.replace(observe(state, seat))
        positions += 1
    assert positions == 1500


def test_the_true_deal_is_always_admissible() -> None:
    """No rule of the sampler excludes the deal actually played (it would be a wrong rule)."""
    for number in range(600):
        state = tre_position(10_000 + number, heuristic=number % 2 == 0)
        for seat in range(3):
            sampler = TreSampler(tre_view(state, seat), seed=number)
            c = sampler.constraints
            for index, place in enumerate(c.places):
                held = state.discard if place == HIDDEN else state.hands[place]
                for card in cards_of(held & ~c.known[place if place != HIDDEN else seat]):
                    if card in c.allowed:
                        assert c.allowed[card] >> index & 1, (number, seat, card, place)


def test_voids_shown_by_play() -> None:
    """Not following shows a void in the suit (and in trumps, when no trump was played); not
    trumping a trump lead shows no trump; the Matto shows nothing; following shows nothing."""
    view = observe(tre_position(3, min_cards=30), 0)
    swords = mask_of(range(14))
    view = dataclasses.replace(view, current_trick=(), tricks=(
        Trick(1, (3, 57, 20), 2),  # a sword led; seat 2 trumps, seat 0 gives a cup
        Trick(2, (60, MATTO, 30), 2),  # a trump led; seat 0 the Matto, seat 1 a coin
        Trick(0, (4, 5, 6), 2),  # everyone follows
    ))
    assert play_exclusions(view) == [swords | TRUMP_MASK, TRUMP_MASK, swords]


def fabricated(trump: int) -> Observation:
    """Seat 0's view (seat 2 deals) holding every trump but ``trump``, after a first trick where
    it led one and both other seats showed they hold none: ``trump`` can be in no hand."""
    mine = [*(c for c in range(56, 77) if c != trump), 0, 1, 2, 3, 4]
    rest = [c for c in range(78) if c not in mine]
    deal = Deal(2, (tuple(mine), tuple(rest[:25]), tuple(rest[25:50])), tuple(rest[50:]))
    state = DealState(deal)
    while state.phase is Phase.DISCARDING:
        apply(state, legal_actions(state)[0])
    view = observe(state, 0)
    lead = mine[0]
    return dataclasses.replace(
        view, hand=tuple(c for c in view.hand if c != lead), to_act=2,
        tricks=(Trick(0, (lead, rest[0], rest[25]), 0),), tricks_won=(1, 0, 0))


def test_an_impossible_view_is_refused() -> None:
    view = observe(tre_position(8, min_cards=9), 0)
    with pytest.raises(NoConsistentDealError, match="unseen"):
        TreSampler(dataclasses.replace(view, hand=view.hand[:-1]))  # a card gone nowhere
    with pytest.raises(NoConsistentDealError, match="no place may hold"):
        TreSampler(fabricated(MONDO))  # the 21 in no hand, and never in a discard


def test_a_plain_trump_goes_to_the_discard_only_when_no_hand_may_hold_it() -> None:
    """The engine's last resort (a dealer short of other cards discards plain trumps): admitted,
    drawn rather than counted, and only when nothing else fits."""
    sampler = TreSampler(fabricated(60), seed=1)
    assert not sampler.exact and sampler.deals is None
    for sample in sampler.samples(20):
        assert sample.hidden >> 60 & 1
        assert not sample.hidden & ~TRUMP_MASK & mask_of(
            c for c in range(56) if c % 14 == KING)


def test_the_hidden_discard_holds_no_king_trump_or_matto() -> None:
    for number in range(200):
        state = tre_position(20_000 + number)
        seat = (state.dealer + 1 + number % 2) % 3
        for sample in TreSampler(tre_view(state, seat), seed=number).samples(5):
            for card in cards_of(sample.hidden):
                assert card != MATTO and card < 56 and card % 14 != KING


def test_same_seed_same_draws_and_other_seeds_differ() -> None:
    state = tre_position(5, min_cards=9)
    view = tre_view(state, 1)
    first = [s.hands for s in TreSampler(view, seed=3).samples(5)]
    assert first == [s.hands for s in TreSampler(view, seed=3).samples(5)]
    assert first != [s.hands for s in TreSampler(view, seed=4).samples(5)]


def test_a_seat_other_than_the_dealer_is_not_sampled_during_the_discard() -> None:
    state = DealState.from_seed(4, 0)
    with pytest.raises(ValueError, match="only the dealer"):
        TreSampler(observe(state, 1))
    apply(state, legal_actions(state)[0])
    sampler = TreSampler(observe(state, 0), seed=1)  # the dealer, one card laid
    sample = sampler.sample()
    assert sample.hidden == state.discard and sample.hands[0] == state.hands[0]
    rebuilt = sample.state()
    assert rebuilt.phase is Phase.DISCARDING and rebuilt.hands[0] == state.hands[0]
    assert isinstance(legal_actions(rebuilt)[0], Discard)


def test_the_template_position_equals_a_replayed_sample() -> None:
    state = tre_position(11, min_cards=20)
    sampler = TreSampler(tre_view(state, 2), seed=2)
    template = sampler.sample().state()
    for sample in sampler.samples(20):
        fast, full = position(template, sample), sample.state()
        assert (fast.hands, fast.discard, fast.piles, fast.to_act, fast.trick) == (
            full.hands, full.discard, full.piles, full.to_act, full.trick)


def enumerate_consistent(state: DealState, seat: int) -> list[tuple[int, ...]]:
    """Every placement of the cards ``seat`` cannot see that the checked engine accepts: for each
    unseen card, 0/1 for the two other seats in turn order, 2 for the discard. Independent of
    the sampler's rules: only the engine decides."""
    others = [(seat + 1) % 3, (seat + 2) % 3]
    view = observe(state, seat)
    seen = mask_of(view.hand) | mask_of(view.discard or ())
    for trick in state.tricks:
        seen |= mask_of(trick.cards)
    seen |= mask_of(state.trick)
    unseen = cards_of(((1 << 78) - 1) & ~seen)
    rooms = [state.hands[others[0]].bit_count(), state.hands[others[1]].bit_count(),
             0 if seat == state.dealer else 3]
    found = []
    for places in itertools.product(range(3), repeat=len(unseen)):
        if [places.count(p) for p in range(3)] != rooms:
            continue
        hands = list(state.hands)
        hands[others[0]] = mask_of(c for c, p in zip(unseen, places, strict=True) if p == 0)
        hands[others[1]] = mask_of(c for c, p in zip(unseen, places, strict=True) if p == 1)
        hidden = mask_of(c for c, p in zip(unseen, places, strict=True) if p == 2) | (
            state.discard if seat == state.dealer else 0)
        played = [0, 0, 0]
        for trick in state.tricks:
            for s, c in trick.played_by():
                played[s] |= 1 << c
        for s, c in state.current_trick:
            played[s] |= 1 << c
        sample = TreSample(view, tuple(hands), hidden, tuple(played))
        if replay_checked(sample, state) is not None:
            found.append(places)
    return found


def test_draws_are_uniform_over_the_admissible_deals_on_small_positions() -> None:
    tested = 0
    number = 0
    while tested < 6 and number < 400:
        state = tre_position(30_000 + number, min_cards=64, heuristic=number % 2 == 0)
        seat = number % 3
        number += 1
        if 3 * len(state.tricks) + len(state.trick) < 63:
            continue
        sampler = TreSampler(tre_view(state, seat), seed=number)
        placements = enumerate_consistent(state, seat)
        if not 6 <= len(placements) <= 300:
            continue
        assert sampler.deals == len(placements)
        others = [(seat + 1) % 3, (seat + 2) % 3]
        unseen = sorted(sampler.constraints.allowed)
        draws: Counter[tuple[int, ...]] = Counter()
        total = 40 * len(placements)
        for sample in sampler.samples(total):
            draws[tuple(0 if sample.hands[others[0]] >> c & 1 else 1 if sample.hands[
                others[1]] >> c & 1 else 2 for c in unseen)] += 1
        assert set(draws) <= set(placements)
        assert chi_square_p([draws[p] for p in placements], total / len(placements)) > 0.001
        tested += 1
    assert tested == 6
