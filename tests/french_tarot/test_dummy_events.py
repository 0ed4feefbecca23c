"""Two players with the dummy: what the players are told of it, event by event. The dummy's hand
is a public event (``DummyShown``) the moment it is laid face up; each player's view then holds
it and sees it shrink; the defender, asked for the dummy's seat, keeps its own hand. The random
deals of ``test_observation_after.py`` fold these events for thousands of deals; this file pins
each moment."""

from __future__ import annotations

from arena.games.french_tarot import (
    EVERYONE,
    PASS,
    Action,
    Bid,
    Contract,
    DummyShown,
    Event,
    GameState,
    Observation,
    Phase,
    TableOptions,
    apply,
    event_mark,
    events_after,
    legal_actions,
    observation_after,
    observation_asked,
    observation_at_end,
    observe,
)
from arena.games.french_tarot.cards import cards_of
from arena.games.french_tarot.deal import DUMMY
from arena.games.french_tarot.definition import FRENCH_TAROT
from arena.games.french_tarot.observation import sealed_observation

from .builders import make_deal, new_game


def act(state: GameState, action: Action) -> list[tuple[int | None, Event]]:
    seat = state.to_act
    assert seat is not None
    mark = event_mark(state)
    apply(state, action, seat)
    return list(events_after(state, seat, action, mark))


def dummy_hand(state: GameState) -> tuple[int, ...]:
    return tuple(cards_of(state.hands[DUMMY]))


def test_the_dummy_is_shown_to_everyone_with_the_last_card_of_the_discard() -> None:
    state = new_game(make_deal(2))
    assert act(state, Bid(Contract.GARDE)) and act(state, PASS)
    for n in range(6):
        events = act(state, legal_actions(state)[0])
        shown = [(to, e) for to, e in events if isinstance(e, DummyShown)]
        if n < 5:
            assert shown == []
        else:
            assert shown == [(EVERYONE, DummyShown(dummy_hand(state)))]
            assert events[-1] == shown[0]  # after the discard itself


def test_the_dummy_is_shown_with_the_last_bid_of_a_garde_sans() -> None:
    state = new_game(make_deal(2))
    assert not any(isinstance(e, DummyShown) for _, e in act(state, PASS))
    events = act(state, Bid(Contract.GARDE_SANS))
    assert [e for _, e in events if isinstance(e, DummyShown)] == [DummyShown(dummy_hand(state))]


def test_both_passing_never_shows_the_dummy_not_even_sealed() -> None:
    state = new_game(make_deal(2))
    events = act(state, PASS) + act(state, PASS)
    assert not any(isinstance(e, DummyShown) for _, e in events)
    assert state.is_over
    for seat in (0, 1):
        assert sealed_observation(state, seat).dummy is None  # the board is played elsewhere
        assert observe(state, seat).dummy == dummy_hand(state)  # revealed at the end
        assert state.result is not None
        told = observation_at_end(observation_after(observation_after(
            new_view(seat), events[0][1]), events[1][1]), state.result, state.deal)
        assert told.dummy == dummy_hand(state) == observe(state, seat).dummy


def new_view(seat: int) -> Observation:
    return observe(new_game(make_deal(2)), seat)


def test_the_players_see_the_dummy_shrink_and_the_defender_keeps_its_hand() -> None:
    state = new_game(make_deal(2))
    views = [observe(state, 0), observe(state, 1)]

    def tell(events: list[tuple[int | None, Event]]) -> None:
        for to, event in events:
            for seat in (0, 1) if to is EVERYONE else (to,):
                views[seat] = observation_after(views[seat], event)

    tell(act(state, PASS))
    tell(act(state, Bid(Contract.GARDE_CONTRE)))  # seat 1 takes: seat 0 defends and plays the dummy
    assert views[0].dummy == views[1].dummy == dummy_hand(state)
    while state.phase is not Phase.FINISHED:
        seat, player = state.to_act, state.decider
        assert seat is not None and player is not None
        views[player] = observation_asked(
            views[player], state.phase, legal_actions(state),
            tuple(cards_of(state.hands[seat])), seat,
        )
        assert views[player] == observe(state, seat)
        if seat == DUMMY:
            assert player == 0 and views[0].to_act == DUMMY
            assert views[0].hand == tuple(cards_of(state.hands[0]))  # its own, not the dummy's
        tell(act(state, legal_actions(state)[-1]))
        if not state.is_over:
            assert views[0].dummy == views[1].dummy == dummy_hand(state)
    assert views[0].dummy == views[1].dummy == ()


def test_the_dummy_event_travels_as_json() -> None:
    event = DummyShown((1, 5, 77))
    kind, data = FRENCH_TAROT.event_to_json(event)
    assert kind == "dummy-shown"
    assert FRENCH_TAROT.event_from_json(kind, data) == event


def test_the_game_offers_two_players_and_seat_1_deals_every_board() -> None:
    assert FRENCH_TAROT.seat_counts() == (2, 3, 4, 5)
    two = FRENCH_TAROT.options(2)
    assert two == TableOptions(2)
    assert [FRENCH_TAROT.dealer_of(two, board) for board in range(4)] == [1, 1, 1, 1]
    for players in (3, 4, 5):  # unchanged: board k is dealt by seat k mod players
        options = FRENCH_TAROT.options(players)
        assert [FRENCH_TAROT.dealer_of(options, b) for b in range(7)] == [
            b % players for b in range(7)
        ]
