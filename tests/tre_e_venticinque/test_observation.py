"""What a seat sees: its own cards and what is public, nothing else; the events that update it."""

from __future__ import annotations

from dataclasses import replace

import pytest

from arena.games.base import EVERYONE
from arena.games.tre_e_venticinque import (
    CardDiscarded,
    CardPlayed,
    DealState,
    Discard,
    DiscardDone,
    Phase,
    TrickWon,
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

from .builders import discard_and_start, make_deal


def step(state: DealState) -> list[tuple[int | None, object]]:
    actor = state.to_act
    assert actor is not None
    action = legal_actions(state)[0]
    mark = event_mark(state)
    apply(state, action)
    return list(events_after(state, actor, action, mark))


def test_a_seat_sees_its_own_hand_and_the_dealer_its_28_cards() -> None:
    deal = make_deal(0)
    state = DealState(deal)
    assert observe(state, 1).hand == deal.hands[1]
    assert observe(state, 0).hand == tuple(sorted(deal.hands[0] + deal.talon))
    assert observe(state, 0).legal_actions == legal_actions(state)
    assert observe(state, 1).legal_actions == ()


def test_the_others_never_see_the_talon_or_the_discard_until_the_end() -> None:
    state = DealState(make_deal(0))
    apply(state, legal_actions(state)[0])
    laid = state.history[0][1]
    assert isinstance(laid, Discard)
    assert observe(state, 0).discard == (laid.card,)
    assert observe(state, 1).discard is None and observe(state, 2).discard is None
    while state.to_act is not None:
        apply(state, legal_actions(state)[0])
    assert observe(state, 1).discard is not None and len(observe(state, 1).discard or ()) == 3
    assert sealed_observation(state, 1).discard is None
    assert sealed_observation(state, 1).deal is None and observe(state, 1).deal == state.deal


def test_an_observation_does_not_depend_on_the_cards_a_seat_cannot_see() -> None:
    """Swap a card between the two other hands (or with the talon): seat 1 sees the same."""
    base = make_deal(0, hands={0: "KS", 2: "QH"}, talon="T4")
    swapped = make_deal(0, hands={0: "QH", 2: "KS"}, talon="T4")
    via_talon = make_deal(0, hands={0: "T4", 2: "QH"}, talon="KS")
    assert base.hands[1] == swapped.hands[1] == via_talon.hands[1]
    seen = [observe(DealState(d), 1) for d in (base, swapped, via_talon)]
    assert seen[0] == seen[1] == seen[2]


def test_the_dealer_alone_is_told_each_card_discarded_then_everyone_that_play_begins() -> None:
    state = DealState(make_deal(2))
    first = step(state)
    assert len(first) == 1 and first[0][0] == 2 and isinstance(first[0][1], CardDiscarded)
    step(state)
    last = step(state)
    assert [type(e) for _, e in last] == [CardDiscarded, DiscardDone]
    assert last[1] == (EVERYONE, DiscardDone(2))


def test_a_card_and_a_trick_and_the_end_are_told_to_everyone() -> None:
    state = discard_and_start(DealState(make_deal(0)))
    assert [type(e) for _, e in step(state)] == [CardPlayed]
    step(state)
    events = step(state)
    assert [type(e) for _, e in events] == [CardPlayed, TrickWon]
    assert all(recipient is EVERYONE for recipient, _ in events)
    won = events[1][1]
    assert isinstance(won, TrickWon) and won.index == 0 and won.trick == state.tricks[0]
    while state.to_act is not None:
        events = step(state)
    assert [type(e) for _, e in events] == [CardPlayed, TrickWon]  # the end: the table's end


def test_observation_after_rebuilds_every_seats_view_through_a_whole_deal() -> None:
    state = DealState(make_deal(1))
    views = [observe(state, seat) for seat in range(3)]
    while state.to_act is not None:
        for recipient, event in step(state):
            for seat in range(3):
                if recipient is EVERYONE or recipient == seat:
                    views[seat] = observation_after(views[seat], event)  # type: ignore[arg-type]
        if not state.is_over:
            assert views == [sealed_observation(state, seat) for seat in range(3)]
    result = state.result
    assert result is not None
    for seat in range(3):
        assert observation_at_end(views[seat], result) == sealed_observation(state, seat)
        revealed = observation_at_end(views[seat], result, state.deal, tuple(cards_of(
            state.discard)))
        assert revealed == observe(state, seat)
        assert revealed.phase is Phase.FINISHED


def test_observation_after_refuses_events_that_cannot_follow() -> None:
    state = DealState(make_deal(0))
    view = observe(state, 1)
    with pytest.raises(ValueError, match="about a seat's own cards reached another seat"):
        observation_after(view, CardDiscarded(view.hand[0]))
    with pytest.raises(ValueError, match="not in its hand"):
        observation_after(view, CardPlayed(1, state.deal.hands[0][0]))
    tricks = replace(view, tricks=())
    discard_and_start(state)
    while not state.tricks:
        apply(state, legal_actions(state)[0])
    with pytest.raises(ValueError, match="trick 1 follows trick -1"):
        observation_after(tricks, TrickWon(1, state.tricks[0]))
    with pytest.raises(ValueError, match="not an event of Tre e Venticinque"):
        observation_after(view, "play M")  # type: ignore[arg-type]
