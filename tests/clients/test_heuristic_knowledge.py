"""The heuristic's card counting (:class:`~clients.heuristic_bot.Knowledge`) against a
straightforward reference, card by card, over thousands of random positions: its chances are
worked out per class of cards and its finished tricks read once per decision
(:class:`~clients.heuristic_bot.History`), and neither may move a single float, or the
heuristic's and the search bot's choices would move with it."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import pytest

from arena.games.french_tarot import GameState, Phase, legal_actions
from arena.games.french_tarot.cards import (
    BOUTS_MASK,
    EXCUSE,
    FULL_DECK,
    KINGS_MASK,
    SUIT_MASKS,
    TRUMP_MASK,
    Card,
    cards_of,
    mask_of,
)
from arena.games.french_tarot.deal import DUMMY, HAND_SIZES
from arena.games.french_tarot.tricks import TRUMPS, exclusions
from arena.table import DecisionRequest
from clients.heuristic_bot import History, Knowledge, choose_card, seat_view
from clients.sdk import TableView
from tests.search.positions import random_position, view_of

Chances = dict[Card, tuple[float, ...]]


def reference_voids(view: TableView) -> tuple[list[int], list[int]]:
    """Each seat's void suits (bits 0..3, TRUMPS) and trump ceiling, every trick read anew."""
    n = view.options.players
    voids = [0] * n
    caps = [EXCUSE] * n
    tricks = [trick.played_by() for trick in view.tricks]
    for plays in (*tricks, tuple(view.current_trick)):
        for seat, shown in exclusions(plays):
            for suit in range(4):
                if shown & SUIT_MASKS[suit] == SUIT_MASKS[suit]:
                    voids[seat] |= 1 << suit
            trumps = shown & TRUMP_MASK
            if trumps:
                caps[seat] = min(caps[seat], min(cards_of(trumps)))
    for seat in range(n):
        if caps[seat] <= 56:
            voids[seat] |= 1 << TRUMPS
    return voids, caps


def reference_chances(view: TableView, shown: Mapping[int, Sequence[Card]] | None) -> Chances:
    """Every unseen card's chance of being in each hand, worked out card by card."""
    seen = view.observation
    n, me, taker, contract = seen.options.players, view.seat, seen.taker, seen.contract
    voids, caps = reference_voids(view)
    plays = [play for trick in view.tricks for play in trick.played_by()]
    plays += list(view.current_trick)
    played = mask_of(card for _, card in plays)
    out = mask_of(seen.discarded_trumps) | (mask_of(view.discard) if view.is_taker else 0)
    unseen = FULL_DECK & ~mask_of(seen.hand) & ~played & ~out
    remaining = [HAND_SIZES[n] - sum(1 for s, _ in plays if s == seat) for seat in range(n)]
    remaining[me] = len(seen.hand)
    chien_shown = contract is not None and contract.chien_shown
    known = [0] * n
    if taker is not None and taker != me and chien_shown and seen.chien is not None:
        known[taker] |= mask_of(seen.chien) & (TRUMP_MASK | (1 << EXCUSE) | KINGS_MASK)
    for poignee in seen.poignees:
        if poignee.seat != me:
            known[poignee.seat] |= mask_of(poignee.cards)
    for seat, cards in (shown or {}).items():
        known[seat] |= mask_of(cards)
    known = [mask & unseen for mask in known]
    others = [s for s in range(n) if s != me]
    hidden = max(0, unseen.bit_count() - sum(remaining[s] for s in others))
    hidden_excludes = 0
    if chien_shown and taker != me:
        hidden_excludes = TRUMP_MASK | (1 << EXCUSE) | KINGS_MASK | BOUTS_MASK
    chances: Chances = {}
    for card in cards_of(unseen):
        bit = 1 << card
        if any(mask & bit for mask in known):
            chances[card] = tuple(1.0 if known[s] & bit else 0.0 for s in range(n))
            continue
        weights = [0.0] * n
        total = 0.0
        for s in others:
            void = card < 56 and voids[s] >> (card // 14) & 1
            above_cap = bit & TRUMP_MASK and card >= caps[s]
            if not void and not above_cap:
                slots = max(0, remaining[s] - known[s].bit_count())
                weights[s] = slots
                total += slots
        if hidden and not hidden_excludes & bit:
            total += hidden
        chances[card] = tuple(w / total for w in weights) if total else (0.0,) * n
    return chances


def seen_positions(count: int, first_seed: int) -> list[tuple[GameState, int]]:
    """Random positions of the card play (2 to 5 players), each with a seat to look from."""
    found: list[tuple[GameState, int]] = []
    seed = first_seed
    while len(found) < count:
        seed += 1
        state = random_position(seed, 2 + seed % 4)
        if state.phase is Phase.PLAYING and state.to_act is not None:
            found.append((state, seed % state.players))
    return found


def views_of(state: GameState, seat: int) -> list[tuple[TableView, dict[int, tuple[Card, ...]]]]:
    """The views the heuristic counts cards from: ``seat``'s; with the dummy, the three
    hands' view of the seat to act as well (:func:`seat_view`)."""
    views: list[tuple[TableView, dict[int, tuple[Card, ...]]]] = []
    if not state.options.has_dummy:
        return [(view_of(state, seat), {})]
    to_act, player = state.to_act, state.decider
    assert to_act is not None and player is not None
    table = view_of(state, player)
    request = DecisionRequest("t", to_act, 1, state.phase, legal_actions(state), 1.0, 0.0,
                              tuple(cards_of(state.hands[to_act])), player=player)
    views.append(seat_view(table.with_request(request), request))
    return views


@pytest.mark.parametrize("first_seed", [0, 10_000, 20_000])
def test_the_chances_are_the_reference_cards_to_the_last_bit(first_seed: int) -> None:
    checked = 0
    for state, seat in seen_positions(1000, first_seed):
        for view, shown in views_of(state, seat):
            know = Knowledge(view, shown)
            expected = reference_chances(view, shown)
            assert know.loc == expected
            assert [know.loc[c] for c in sorted(know.loc)] == [
                expected[c] for c in sorted(expected)]
            voids, _ = reference_voids(view)
            assert know.voids == voids
            checked += 1
    assert checked >= 1000


def test_a_history_read_from_another_seats_view_counts_the_same() -> None:
    """The replies of one decision share one History, read from the first replier's view."""
    checked = 0
    for state, seat in seen_positions(400, 30_000):
        if state.options.has_dummy:
            continue
        history = History.of(view_of(state, seat).tricks, state.players, state.taker)
        for other in range(state.players):
            view = view_of(state, other)
            shared, fresh = Knowledge(view, history=history), Knowledge(view)
            for name in Knowledge.__slots__:
                if name in ("_any", "_voids"):
                    continue
                assert getattr(shared, name) == getattr(fresh, name), name
            checked += 1
    assert checked > 1000


def test_a_history_of_other_tricks_is_not_used() -> None:
    """A History read from fewer tricks than the view's (or for another taker) is read again
    from the view rather than trusted."""
    for state, seat in seen_positions(200, 40_000):
        view = view_of(state, seat)
        if state.options.has_dummy or len(view.tricks) < 2:
            continue
        stale = History.of(view.tricks[:-1], state.players, state.taker)
        assert Knowledge(view, history=stale).loc == Knowledge(view).loc
        other = History.of(view.tricks, state.players, (state.taker or 0) + 1)
        assert Knowledge(view, history=other).taker_followed == Knowledge(view).taker_followed
        return
    raise AssertionError("no position with two tricks")


def test_the_heuristics_card_is_the_same_with_a_shared_history() -> None:
    checked = 0
    for state, _ in seen_positions(300, 50_000):
        seat = state.to_act
        if state.options.has_dummy or seat is None or seat == DUMMY:
            continue
        cards = [a.card for a in legal_actions(state) if hasattr(a, "card")]
        if len(cards) < 2:
            continue
        view = view_of(state, seat)
        history = History.of(view.tricks, state.players, state.taker)
        assert choose_card(view, cards, history=history) == choose_card(view, cards)
        checked += 1
    assert checked > 100
