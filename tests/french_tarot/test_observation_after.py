"""``observation_after`` against ``observe``: a seat that starts from its observation and folds
in exactly the events it receives (and the requests it is sent) sees what ``observe`` says, after
every action of thousands of random deals.

The deals cover 2 players with the dummy (each player's view also holds the dummy's hand once
shown, and the defender is asked for the dummy's seat), 3, 4 and 5 players, the beginner variant
and not; the random policy declares
most poignées on offer (hiding trumps at random when it holds more than it shows) and sometimes
announces a chelem, so that every event and every phase occurs (the test counts them). The one
gap the events leave is stated once, in :func:`expected`.
"""

from __future__ import annotations

import dataclasses
import random
from collections import Counter
from collections.abc import Callable

import pytest

from arena.games.french_tarot import (
    EVERYONE,
    PASS,
    Action,
    Bid,
    ChelemChoice,
    Contract,
    DeclarePoignee,
    Event,
    GameState,
    HideTrump,
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
    parse_action,
)
from arena.games.french_tarot.cards import cards_of
from arena.games.french_tarot.events import EVENT_TYPES, ChienShown, PartnerRevealed
from tests.french_tarot.builders import make_deal, start_play

DEALS = 200
"""Per table variant: 8 variants, 1,600 deals."""
VARIANTS = [(players, beginner) for players in (2, 3, 4, 5) for beginner in (False, True)]


def ask(observation: Observation, state: GameState) -> Observation:
    """What the table runner's decision request tells the player deciding (phase, legal
    actions, the hand of the seat to act, that seat), applied as the SDK applies it."""
    seat = state.to_act
    assert seat is not None and state.decider == observation.seat
    return observation_asked(
        observation, state.phase, legal_actions(state), tuple(cards_of(state.hands[seat])), seat
    )


def expected(state: GameState, seat: int, seen: Observation) -> Observation:
    """``observe(state, seat)``, less the one thing no message tells: that the taker laid the
    last card of its discard. The other seats learn it from the next public event (the chelem
    decision, or the first card in the beginner variant); until then their phase and turn stay
    the discard's."""
    truth = observe(state, seat)
    unseen_discard = (
        seen.phase is Phase.DISCARDING and seat != state.taker and seat != state.to_act
        and truth.phase in (Phase.CHELEM, Phase.PLAYING) and not truth.current_trick
        and not truth.tricks and not truth.chelem_announced
    )
    if unseen_discard:
        return dataclasses.replace(truth, phase=Phase.DISCARDING, to_act=state.taker)
    return truth


def choose(state: GameState, rng: random.Random) -> Action:
    legal = legal_actions(state)
    poignees = [a for a in legal if isinstance(a, DeclarePoignee)]
    if poignees and rng.random() < 0.8:
        return rng.choice(poignees)
    if state.phase is Phase.CHELEM:
        return ChelemChoice(rng.random() < 0.3)
    return rng.choice(legal)


Chooser = Callable[[GameState, random.Random], Action]


def follow(
    state: GameState, rng: random.Random, seen: Counter[str], chooser: Chooser = choose
) -> None:
    """Play ``state`` out at random, every seat's observation folded from what it receives and
    checked against :func:`expected` after every action, then against :func:`observe` once the
    end is told."""
    n = state.players
    views = [observe(state, s) for s in range(n)]
    resumed_at = rng.randrange(40)
    steps = 0
    while state.to_act is not None:
        seat, player = state.to_act, state.decider
        assert player is not None
        views[player] = ask(views[player], state)
        action = chooser(state, rng)
        mark = event_mark(state)
        apply(state, action, seat)
        seen[type(action).__name__] += 1
        if isinstance(action, ChelemChoice) and action.announce:
            seen["chelem announced"] += 1
        for recipient, event in events_after(state, seat, action, mark):
            seen[type(event).__name__] += 1
            for target in range(n) if recipient is EVERYONE else (recipient,):
                views[target] = observation_after(views[target], event)
        if state.decider is None:
            break  # the rest comes with the end of the deal
        views[state.decider] = ask(views[state.decider], state)
        for s in range(n):
            assert views[s] == expected(state, s, views[s]), (s, steps, state.history[-3:])
        steps += 1
        if steps == resumed_at:  # a seat reconnects: it starts again from observe, mid-deal
            again = rng.randrange(n)
            views[again] = observe(state, again)
    assert state.result is not None
    discard = tuple(cards_of(state.discard))
    for s in range(n):
        assert views[s].phase is Phase.FINISHED and views[s].to_act is None
        told = observation_at_end(views[s], state.result, state.deal, discard)
        assert told == observe(state, s)
        sealed = observation_at_end(views[s], state.result)
        assert sealed.deal is None and sealed.result == state.result
        assert sealed.discard == (discard if s == state.taker else None)


@pytest.mark.parametrize(
    ("players", "beginner"), VARIANTS, ids=[f"{p}p{'-b' * b}" for p, b in VARIANTS]
)
def test_folding_the_events_gives_the_observation(players: int, beginner: bool) -> None:
    seen: Counter[str] = Counter()
    for number in range(DEALS):
        rng = random.Random(f"{players}/{beginner}/{number}")
        options = TableOptions(players, beginner=beginner)
        dealer = options.dealer_seats[number % len(options.dealer_seats)]
        follow(GameState.from_seed(number, options, dealer=dealer), rng, seen)
    kinds = {t.__name__ for t in EVENT_TYPES} - {"TrumpDiscarded"}  # rare: see below
    if players > 2:
        kinds -= {"DummyShown"}
    else:
        assert seen["DummyShown"] > DEALS // 4
    if beginner or players == 3:  # 13 trumps for a poignée: test_poignees_with_trumps_to_hide
        kinds -= {"PoigneeShown"}
    if beginner:
        kinds -= {"ChelemDecided"}
    if players < 5:
        kinds -= {"CardCalled", "PartnerRevealed"}
    assert kinds <= set(seen), kinds - set(seen)
    if not beginner:
        assert seen["DeclarePoignee"] > 0 or players <= 3
        assert seen["chelem announced"] > 0


@pytest.mark.parametrize("players", [3, 4, 5])
def test_poignees_with_trumps_to_hide(players: int) -> None:
    """Seat 1 holds more trumps than any level shows: it chooses the ones to hide, told only by
    its requests; the others see nothing until the poignée is shown."""
    trumps = " ".join(f"T{n}" for n in range(2, 16 if players == 5 else 18))
    seen: Counter[str] = Counter()
    for number in range(40):
        rng = random.Random(number)
        state = start_play(make_deal(players, number % players, {1: trumps}), 0,
                           Contract.GARDE_SANS)
        follow(state, rng, seen)
    assert seen["HideTrump"] > 0 and seen["PoigneeShown"] > 0


def test_trumps_the_taker_had_to_discard() -> None:
    """The taker holds so many trumps and Kings that five of its six discards are trumps: they
    are shown to all, and its own discard to it alone."""
    trumps = " ".join(f"T{n}" for n in range(2, 19))
    deal = make_deal(4, 0, {0: "T1 T21", 1: f"{trumps} KS"}, chien="KH KD KC QS T19 T20")

    def garde_for_seat_1(state: GameState, rng: random.Random) -> Action:
        if state.phase is Phase.BIDDING:
            return Bid(Contract.GARDE) if state.to_act == 1 else PASS
        return choose(state, rng)

    seen: Counter[str] = Counter()
    for number in range(10):
        follow(GameState(deal, TableOptions(4)), random.Random(number), seen, garde_for_seat_1)
    assert seen["TrumpDiscarded"] == 50


def test_a_called_card_in_the_chien_shows_the_taker_alone() -> None:
    """Five players, the King of hearts called and turned over with the chien: every seat knows
    the taker plays alone from the chien on, with no card of it played."""
    deal = make_deal(5, 0, {1: "KS KD KC"}, chien="KH")
    state = GameState(deal, TableOptions(5))
    views = [observe(state, s) for s in range(5)]
    events: list[tuple[int | None, Event]] = []
    for action in ("bid garde", "pass", "pass", "pass", "pass", "call KH"):
        mark = event_mark(state)
        seat = state.to_act
        assert seat is not None
        parsed = parse_action(action)
        apply(state, parsed, seat)
        events.extend(events_after(state, seat, parsed, mark))
    for recipient, event in events:
        for s in range(5) if recipient is None else (recipient,):
            views[s] = observation_after(views[s], event)
    assert any(isinstance(e, ChienShown) for _, e in events)
    assert not any(isinstance(e, PartnerRevealed) for _, e in events)
    for s in range(5):
        assert (views[s].partner_known, views[s].partner) == (True, None)
        assert views[s] == observe(state, s) or s == state.to_act


def test_every_event_clears_the_legal_actions_a_request_set() -> None:
    state = GameState.from_seed(5, TableOptions(4))
    seat = state.to_act
    assert seat is not None
    view = ask(observe(state, seat), state)
    assert view.legal_actions == legal_actions(state)
    action = legal_actions(state)[0]
    mark = event_mark(state)
    apply(state, action, seat)
    ((_, event),) = events_after(state, seat, action, mark)
    assert observation_after(view, event).legal_actions == ()


def test_hiding_is_told_by_the_request_alone() -> None:
    """And the chien, shown to all, stays shown to the seat hiding trumps (``observe`` once
    forgot it in that phase)."""
    deal = make_deal(4, 0, {1: " ".join(f"T{n}" for n in range(2, 18))})
    state = start_play(deal, 0, Contract.GARDE)
    while state.to_act != 1:
        apply(state, legal_actions(state)[-1])
    view = ask(observe(state, 1), state)
    declare = next(a for a in legal_actions(state) if isinstance(a, DeclarePoignee))
    mark = event_mark(state)
    apply(state, declare, 1)
    assert events_after(state, 1, declare, mark) == []
    assert state.phase is Phase.POIGNEE
    view = ask(view, state)
    assert view.phase is Phase.POIGNEE and all(isinstance(a, HideTrump) for a in view.legal_actions)
    assert view == observe(state, 1)
    assert view.chien == deal.chien
