"""The sampler of hidden cards: every draw is a deal the rules allow given what the seat saw
(checked by replaying the table's real actions on it with the checked engine), the real deal is
always among the admissible ones, draws are reproducible, and on small positions they are
uniform over the admissible deals (chi-square against an exact enumeration)."""

from __future__ import annotations

import dataclasses
import math
from collections import Counter
from collections.abc import Iterator
from typing import Any

import pytest

from arena.games.french_tarot import (
    EXCUSE,
    Discard,
    GameState,
    HideTrump,
    Phase,
    PoigneeLevel,
    ShownPoignee,
    TableOptions,
    apply,
    observe,
)
from arena.games.french_tarot.cards import EXCUSE_BIT, PETIT_BIT, TRUMP_MASK, cards_of, mask_of
from arena.games.french_tarot.deal import DUMMY
from clients.sdk import NoConsistentDealError, Sample, Sampler, TableView
from clients.sdk.sampler import HIDDEN, Constraints

from .positions import random_position, view_of


def true_places(state: GameState, seat: int, c: Constraints) -> dict[int, int]:
    """Where each unseen card really is, as a place index of ``c``."""
    where = {}
    for index, place in enumerate(c.places):
        cards = state.hands[place] if place != HIDDEN else (
            state.discard if state.taker is not None and state.contract is not None
            and state.contract.chien_shown and state.phase is not Phase.BIDDING
            and state.phase is not Phase.CALLING else state.chien)
        for card in cards_of(cards):
            if card in c.allowed:
                where[card] = index
    return where


def replay_on(sample: Sample, state: GameState, seat: int) -> GameState:
    """The real table's actions replayed with the checked engine on the sample's deal: the
    taker's hidden discard and the hidden trumps of others' poignées taken from the sample."""
    replayed = GameState(sample.dealt(), state.options)
    hidden_discard = [c for c in cards_of(sample.hidden) if c not in state.discarded_trumps]
    for actor, action in state.history:
        if isinstance(action, Discard) and actor != seat and action.card < 56:
            action = Discard(hidden_discard.pop(0))
        if isinstance(action, HideTrump) and actor != seat:
            continue  # the sample's own extra trumps are hidden below
        apply(replayed, action, actor)
        while replayed.phase is Phase.POIGNEE and replayed.to_act != seat:
            holder = replayed.to_act
            assert holder is not None
            shown = next(p.cards for p in state.poignees if p.seat == holder)
            extra = replayed.hands[holder] & TRUMP_MASK & ~mask_of(shown) & ~replayed.poignee_hidden
            apply(replayed, HideTrump(cards_of(extra)[0]), holder)
    return replayed


TABLES = {"3-5 players": (3, 4, 5), "2 players": (2,)}
"""The player counts each test runs over: two players (with the dummy) apart, so that a fault
there shows by name."""


def positions(
    count: int, *, min_cards: int = 0, players: tuple[int, ...] = (3, 4, 5)
) -> Iterator[tuple[GameState, int]]:
    for number in range(count):
        n = players[number % len(players)]
        state = random_position(1000 + number, n, min_cards=min_cards)
        yield state, number // len(players) % n


def comparable(state: GameState, seat: int) -> object:
    obs = observe(state, seat)
    return (obs.hand, obs.phase, obs.to_act, obs.legal_actions, obs.bids, obs.contract,
            obs.taker, obs.called_card, obs.partner, obs.partner_known, obs.chien, obs.discard,
            obs.discarded_trumps, obs.poignees, obs.tricks, obs.current_trick, obs.dummy)


@pytest.mark.parametrize("players", TABLES.values(), ids=TABLES.keys())
def test_every_sample_agrees_with_what_the_seat_saw(players: tuple[int, ...]) -> None:
    checked = 0
    for state, seat in positions(1500, players=players):
        if state.phase is Phase.FINISHED:
            continue
        view = view_of(state, seat)
        hidden_discard_in_progress = (
            state.phase is Phase.DISCARDING and state.taker != seat
        )
        sampler = Sampler(view, seed=checked)
        c = sampler.constraints
        if not hidden_discard_in_progress:
            # The real deal is admissible: each unseen card may be where it really is, and the
            # room of each place is what it really holds.
            where = true_places(state, seat, c)
            assert set(where) == set(c.allowed)
            for card, index in where.items():
                assert c.allowed[card] >> index & 1, (card, c.places[index])
            assert sampler.deals is None or sampler.deals >= 1
        for sample in sampler.samples(3):
            assert sample.hands[seat] == state.hands[seat]
            for other in range(state.seats):
                assert sample.hands[other].bit_count() == (
                    state.hands[other].bit_count() if not hidden_discard_in_progress
                    or other != state.taker else sample.hands[other].bit_count())
            if hidden_discard_in_progress:
                continue
            replayed = replay_on(sample, state, seat)
            assert comparable(replayed, seat) == comparable(state, seat)
            rebuilt = sample.state()
            assert comparable(rebuilt, seat) == comparable(state, seat)
            assert rebuilt.hands == sample.hands == tuple(replayed.hands) or (
                list(sample.hands) == replayed.hands)
            checked += 1
    assert checked >= 3000


@pytest.mark.parametrize("players", TABLES.values(), ids=TABLES.keys())
def test_same_seed_same_draws(players: tuple[int, ...]) -> None:
    for state, seat in positions(60, min_cards=10, players=players):
        view = view_of(state, seat)
        first = [s.hands for s in Sampler(view, seed=5).samples(4)]
        again = [s.hands for s in Sampler(view, seed=5).samples(4)]
        assert first == again


@pytest.mark.parametrize("players", TABLES.values(), ids=TABLES.keys())
def test_greedy_fallback_also_agrees(players: tuple[int, ...]) -> None:
    fell_back = 0
    for state, seat in positions(300, min_cards=8, players=players):
        if state.phase is Phase.FINISHED or (
                state.phase is Phase.DISCARDING and state.taker != seat):
            continue
        sampler = Sampler(view_of(state, seat), seed=1, exact_limit=0)
        fell_back += not sampler.exact
        for sample in sampler.samples(2):
            assert comparable(replay_on(sample, state, seat), seat) == comparable(state, seat)
    assert fell_back >= 200


def test_an_impossible_view_is_refused() -> None:
    state = random_position(3, 4, min_cards=20)
    view = view_of(state, 0)
    unseen = [c for c in range(78) if c not in view.hand and c not in view.played_cards()]
    with pytest.raises(NoConsistentDealError, match="unseen"):  # one card too many in hand
        Sampler(changed(view, hand=(*view.hand, unseen[0])), seed=0)
    other = 1
    shown = ShownPoignee(other, PoigneeLevel.SIMPLE, (EXCUSE, *range(56, 65)))
    with pytest.raises(NoConsistentDealError):  # shown cards this seat holds or saw played
        Sampler(changed(view, poignees=(shown,), hand=tuple(range(56, 74))), seed=0)


def changed(view: TableView, **changes: Any) -> TableView:
    """``view`` with its observation changed (a view no deal can be consistent with)."""
    return dataclasses.replace(view, observation=dataclasses.replace(view.observation, **changes))


# ----------------------------------------------------------- uniformity against enumeration
def enumerate_deals(c: Constraints) -> list[tuple[int, ...]]:
    """Every admissible placement of the unseen cards, by brute force (place index per card)."""
    cards = sorted(c.allowed)
    out: list[tuple[int, ...]] = []
    room = list(c.room)
    # Pinned known cards already accounted: the constraints' room is for unseen cards only.
    choice = [0] * len(cards)

    def walk(i: int) -> None:
        if i == len(cards):
            out.append(tuple(choice))
            return
        for place in range(len(room)):
            if c.allowed[cards[i]] >> place & 1 and room[place]:
                room[place] -= 1
                choice[i] = place
                walk(i + 1)
                room[place] += 1

    walk(0)
    return out


def petit_sec(sample_hands: list[int]) -> bool:
    return any(h & (TRUMP_MASK | EXCUSE_BIT) == PETIT_BIT for h in sample_hands)


def chi_square_p(observed: list[int], expected: float) -> float:
    """Upper tail of the chi-square statistic (Wilson-Hilferty normal approximation)."""
    k = len(observed) - 1
    stat = sum((o - expected) ** 2 / expected for o in observed)
    z = ((stat / k) ** (1 / 3) - (1 - 2 / (9 * k))) / math.sqrt(2 / (9 * k))
    return 0.5 * math.erfc(z / math.sqrt(2))


@pytest.mark.parametrize("players", TABLES.values(), ids=TABLES.keys())
def test_draws_are_uniform_over_the_admissible_deals_on_small_positions(
    players: tuple[int, ...]
) -> None:
    tested = 0
    number = 0
    while tested < 6 and number < 3000:
        n = players[number % len(players)]
        seats = TableOptions(players=n).seats
        state = random_position(50_000 + number, n, min_cards=seats * (
            {2: 21, 3: 21, 4: 15, 5: 12}[n]))
        seat = number // len(players) % n
        number += 1
        if state.phase is not Phase.PLAYING:
            continue
        view = view_of(state, seat)
        sampler = Sampler(view, seed=number)
        c = sampler.constraints
        if not sampler.exact or sampler.deals is None or not 6 <= sampler.deals <= 400:
            continue
        placements = enumerate_deals(c)
        assert len(placements) == sampler.deals
        cards = sorted(c.allowed)
        draws = Counter()
        total = 40 * len(placements)
        for sample in sampler.samples(total):
            key = []
            for card in cards:
                index = next(i for i, p in enumerate(c.places) if (
                    sample.hidden if p == HIDDEN else sample.hands[p]) >> card & 1)
                key.append(index)
            draws[tuple(key)] += 1
        assert set(draws) <= set(placements)
        assert chi_square_p([draws[p] for p in placements], total / len(placements)) > 0.001
        tested += 1
    assert tested == 6


def test_two_players_the_dummy_is_a_hidden_hand_until_shown_then_known() -> None:
    hidden = shown = 0
    for state, seat in positions(400, players=(2,)):
        if state.phase is Phase.FINISHED:
            continue
        sampler = Sampler(view_of(state, seat), seed=seat)
        if state.dummy_shown:
            assert DUMMY not in sampler.constraints.places
            assert all(s.hands[DUMMY] == state.hands[DUMMY] for s in sampler.samples(5))
            shown += 1
        else:
            assert DUMMY in sampler.constraints.places
            dummies = {s.hands[DUMMY] for s in sampler.samples(5)}
            assert len(dummies) > 1  # drawn, not read off the real deal
            hidden += 1
    assert hidden >= 20 and shown >= 100


def test_a_watch_sees_every_card_played_in_order_from_the_state_it_is_played_from() -> None:
    seen = 0
    for state, seat in positions(60, min_cards=1, players=(2, 3, 4, 5)):
        view = view_of(state, seat)
        if not view.played_cards():
            continue
        sample = Sampler(view, seed=3).sample()
        watched: list[tuple[int, int]] = []

        def watch(before: GameState, player: int, card: int,
                  watched: list[tuple[int, int]] = watched) -> None:
            assert before.to_act == player and before.hands[player] >> card & 1
            watched.append((player, card))

        built = sample.state(watch)
        order = [*(p for t in view.tricks for p in t.played_by()), *view.current_trick]
        assert watched == [tuple(p) for p in order]
        assert comparable(built, seat) == comparable(sample.state(), seat)
        seen += 1
    assert seen >= 10
