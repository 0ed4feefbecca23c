"""What the bids say about the hands: the ranges read from a bidding, the real deal agreeing with
them when the seats bid by the club count, and the card search's draws agreeing with them."""

from __future__ import annotations

import random

import pytest

from arena.games.french_tarot import (
    PASS,
    Bid,
    Contract,
    GameState,
    Phase,
    TableOptions,
    apply,
    legal_actions,
)
from arena.games.french_tarot.cards import cards_of
from arena.games.french_tarot.deal import dealer_seats
from clients.heuristic_bot import wanted_contract
from clients.sdk import Sampler
from clients.search_inference import (
    agreeing_sample,
    bid_ranges,
    disagreements,
    hands_disagreeing,
)

from .positions import view_of


def test_the_ranges_read_from_a_bidding() -> None:
    bids = ((1, PASS), (2, Bid(Contract.PETITE)), (3, PASS), (0, Bid(Contract.GARDE)))
    assert bid_ranges(bids, 0) == [
        (1, None, None), (2, Contract.PETITE, None), (3, None, Contract.PETITE)]
    assert bid_ranges(bids, 2) == [(1, None, None), (3, None, Contract.PETITE),
                                   (0, Contract.GARDE, None)]


def club_bid_position(seed: int, players: int) -> GameState:
    """A deal bid by the club count (as the heuristic bids), then played at random a few cards
    into the play; None-like positions (all passed) are skipped by the caller."""
    rng = random.Random(seed)
    dealers = dealer_seats(players)
    state = GameState.from_seed(seed, TableOptions(players=players),
                                dealer=dealers[seed % len(dealers)])
    while state.phase is Phase.BIDDING:
        seat = state.to_act
        assert seat is not None
        wanted = wanted_contract(cards_of(state.hands[seat]), players)
        open_bids = [a for a in legal_actions(state)
                     if isinstance(a, Bid) and wanted is not None and a.contract <= wanted]
        apply(state, max(open_bids, key=lambda a: a.contract) if open_bids else PASS)
    stop = rng.randrange(1, 2 * players)
    while state.to_act is not None and len(state.history) < 60 and stop:
        legal = legal_actions(state)
        if state.phase is Phase.PLAYING:
            stop -= 1
        apply(state, legal[rng.randrange(len(legal))])
    return state


def positions(players: int, count: int) -> list[GameState]:
    found = []
    seed = 0
    while len(found) < count:
        seed += 1
        state = club_bid_position(100 * players + seed, players)
        if state.phase is Phase.PLAYING and state.to_act is not None:
            found.append(state)
    return found


@pytest.mark.parametrize("players", [3, 4, 5])
def test_the_real_deal_agrees_with_bids_by_the_club_count(players: int) -> None:
    for state in positions(players, 4):
        for seat in range(players):
            ranges = bid_ranges(tuple(state.bids), seat)
            assert hands_disagreeing(list(map(_mask, state.deal.hands)), state.options, ranges) == 0


def _mask(hand: tuple[int, ...]) -> int:
    return sum(1 << card for card in hand)


@pytest.mark.parametrize("players", [3, 4, 5])
def test_the_searchs_draws_agree_with_the_bids(players: int) -> None:
    plain_disagree = 0
    for state in positions(players, 3):
        seat = state.to_act
        assert seat is not None
        view = view_of(state, seat)
        ranges = bid_ranges(view.bids, seat)
        for number in range(3):
            sample = agreeing_sample(Sampler(view, seed=number), ranges, tries=300)
            assert disagreements(sample, ranges) == 0
            plain_disagree += disagreements(Sampler(view, seed=number).sample(), ranges) > 0
    assert plain_disagree  # the sampler alone ignores the bids: the rule is not idle


def test_one_try_is_the_samplers_own_draw() -> None:
    state = positions(4, 1)[0]
    view = view_of(state, state.to_act or 0)
    ranges = bid_ranges(view.bids, view.seat)
    assert agreeing_sample(Sampler(view, seed=5), ranges, tries=1).hands == Sampler(
        view, seed=5).sample().hands
