"""TableView against the engine: a view rebuilt from TableStart and events must say what
:func:`arena.games.french_tarot.observe` says, after every action of many random deals.

Events are the genuine ones (:func:`arena.games.french_tarot.events_after`, what the table
runner sends) and, like the table start, the requests and the end, go through the protocol both
ways, so the decoders are checked on the way.
"""

from __future__ import annotations

import dataclasses
import random

import pytest

from arena.games.french_tarot import (
    Contract,
    DealRecord,
    DeclarePoignee,
    GameState,
    HideTrump,
    Observation,
    Phase,
    TableOptions,
    apply,
    event_mark,
    events_after,
    legal_actions,
    observe,
    seeded_deal,
)
from arena.games.french_tarot.definition import FRENCH_TAROT
from arena.table import DecisionRequest, PlayerInfo, TableRunner, TableStart, TimeControl
from arena.table.messages import TableEnd, TableEvent
from arena.transport import convert
from clients.random_bot import RandomBot
from clients.sdk import TableView
from tests.french_tarot.builders import make_deal, start_play

VARIANTS = [
    TableOptions(3), TableOptions(4), TableOptions(5), TableOptions(4, beginner=True),
    TableOptions(5, beginner=True),
]
SEEDS = range(12)


def players(n: int) -> tuple[PlayerInfo, ...]:
    return tuple(PlayerInfo(s, f"bot{s}", f"name{s}") for s in range(n))


def start_over_the_wire(state: GameState, seat: int, resumed: bool = False) -> TableStart:
    start = TableStart("t1", seat, state.options, state.dealer, players(state.players),
                       observe(state, seat), resumed=resumed)
    return convert.start_from_pb(convert.start_to_pb(start).table_start)


def event_over_the_wire(event: TableEvent) -> TableEvent:
    return convert.table_event_from_pb(convert.event_to_pb(event).event)


def expected(state: GameState, seat: int, view: TableView) -> Observation:
    """What :func:`observe` says, less what no message tells the other seats: that the taker
    laid the last card of its discard (see :func:`arena.games.french_tarot.observation_after`)."""
    truth = observe(state, seat)
    if (view.phase is Phase.DISCARDING and seat not in (state.taker, state.to_act)
            and truth.phase in (Phase.CHELEM, Phase.PLAYING) and not truth.current_trick
            and not truth.tricks and not truth.chelem_announced):
        return dataclasses.replace(truth, phase=Phase.DISCARDING, to_act=state.taker)
    return truth


def assert_matches(view: TableView, state: GameState) -> None:
    """The view's observation is the engine's, exactly (legal actions included once asked)."""
    assert view.observation == expected(state, view.seat, view)
    assert view.discard == (observe(state, view.seat).discard if view.is_taker else ())


def end_over_the_wire(state: GameState, seat: int) -> TableEnd:
    assert state.result is not None
    end = TableEnd("t1", seat, state.result, FRENCH_TAROT.revealed(state), DealRecord.of(state))
    return convert.end_from_pb(convert.end_to_pb(end).table_end)


def request_over_the_wire(state: GameState) -> DecisionRequest:
    seat = state.to_act
    assert seat is not None
    request = DecisionRequest("t1", seat, 7, state.phase, legal_actions(state), 1.0, 0.0,
                              observe(state, seat).hand)
    return convert.request_from_pb(convert.request_to_pb(request).request)


@pytest.mark.parametrize("options", VARIANTS, ids=lambda o: f"{o.players}p{'-b' * o.beginner}")
def test_view_follows_every_event_of_random_deals(options: TableOptions) -> None:
    for seed in SEEDS:
        follow_a_random_deal(
            seed, GameState(seeded_deal(seed, options.players, seed % options.players), options)
        )


@pytest.mark.parametrize("players", [3, 4, 5])
def test_view_follows_poignees_with_a_choice(players: int) -> None:
    """Seat 1 holds more trumps than any level shows, so it has trumps to hide. Only seat 1 is
    asked (the others see nothing until the poignée is shown); then every view holds it."""
    trumps = " ".join(f"T{n}" for n in range(2, 16 if players == 5 else 18))
    for seed in range(4):
        state = start_play(make_deal(players, seed % players, {1: trumps}), 0, Contract.GARDE_SANS)
        follow_a_random_deal(seed, state)
        assert any(isinstance(a, HideTrump) for _, a in state.history)
        assert state.poignees and state.poignees[0].seat == 1


def follow_a_random_deal(seed: int, state: GameState) -> None:
    """Random play (declaring every poignée on offer, hiding at random) with a view per seat,
    fed the genuine events and requests through the protocol, checked against :func:`observe`
    after every action, and once the end is told."""
    rng = random.Random(seed)
    views = [TableView.from_start(start_over_the_wire(state, s)) for s in range(state.players)]
    sequence = [0] * state.players
    if state.to_act is not None:
        views[state.to_act] = views[state.to_act].with_request(request_over_the_wire(state))
    while state.to_act is not None:
        seat, mark = state.to_act, event_mark(state)
        legal = legal_actions(state)
        poignees = [a for a in legal if isinstance(a, DeclarePoignee)]  # rare otherwise
        action = rng.choice(poignees or legal)
        apply(state, action, seat)
        for recipient, event in events_after(state, seat, action, mark):
            for target in range(state.players) if recipient is None else (recipient,):
                message = event_over_the_wire(
                    TableEvent("t1", target, sequence[target], event)
                )
                sequence[target] += 1
                assert (message.seat, message.sequence) == (target, sequence[target] - 1)
                views[target] = views[target].apply(message.event, message.sequence)
        if state.to_act is None:
            break
        choosing = state.phase is Phase.POIGNEE
        if choosing:  # no event: the declarer learns from its next request what to do
            assert views[seat].phase is (
                Phase.PLAYING if isinstance(action, DeclarePoignee) else Phase.POIGNEE
            )
        asked = state.to_act
        views[asked] = views[asked].with_request(request_over_the_wire(state))
        for view in views:
            assert_matches(view, state)
        # A TableStart re-sent now (after a reconnection), then the request re-sent, gives the
        # same view (while hiding, the TableStart says the play phase: the request the rest).
        resumed = TableView.from_start(start_over_the_wire(state, asked, resumed=True))
        assert resumed.resumed
        resumed = resumed.with_request(request_over_the_wire(state))
        assert dataclasses.replace(
            resumed, resumed=False, decisions=views[asked].decisions,
            next_sequence=views[asked].next_sequence,
        ) == views[asked]
    for seat, view in enumerate(views):
        assert view.phase is Phase.FINISHED and view.to_act is None
        ended = view.with_end(end_over_the_wire(state, seat))
        assert ended.observation == observe(state, seat)
        assert ended.result == state.result and ended.deal == state.deal


def test_a_request_sets_phase_turn_hand_and_counts_decisions() -> None:
    state = GameState(seeded_deal(3, 4, 0), TableOptions(4))
    view = TableView.from_start(start_over_the_wire(state, 1))
    request = DecisionRequest("t1", 1, 99, Phase.BIDDING, legal_actions(state), 1.0, 0.0,
                              observe(state, 1).hand)
    asked = view.with_request(request)
    assert (asked.phase, asked.to_act, asked.hand, asked.decisions) == (
        Phase.BIDDING, 1, view.hand, 1
    )
    assert asked.with_request(request).decisions == 2
    assert asked.as_observation(request).legal_actions == request.legal_actions
    assert asked.first_seat == 1 and asked.name_of(2) == "name2" and asked.key == ("t1", 1)


class ViewCheckingSeat:
    """A fake seat for the table runner: keeps a TableView from what it is sent, checks it
    against the runner's own view at every request, and answers like the RandomBot."""

    def __init__(self, bot: RandomBot) -> None:
        self.bot = bot
        self.view: TableView | None = None
        self.truth = None
        self.sequence = 0
        self.checked = 0

    @property
    def connected(self) -> bool:
        return True

    async def start(self, start, view) -> None:  # type: ignore[no-untyped-def]
        self.view = TableView.from_start(start)
        self.truth = view

    async def send(self, event: TableEvent) -> None:
        assert event.sequence == self.sequence
        self.sequence += 1
        assert self.view is not None
        self.view = self.view.apply(event.event)

    async def ask(self, request: DecisionRequest):  # type: ignore[no-untyped-def]
        assert self.view is not None and self.truth is not None
        self.view = self.view.with_request(request)
        assert self.view.observation == self.truth()  # the seat asked knows all it may
        self.checked += 1
        return self.bot.decide(self.view, request)

    async def notice(self, notice) -> None:  # type: ignore[no-untyped-def]
        raise AssertionError(f"unexpected notice {notice}")

    async def end(self, end) -> None:  # type: ignore[no-untyped-def]
        pass


async def play_with_fake_seats(seed: int, options: TableOptions) -> tuple[object, int]:
    seats = [ViewCheckingSeat(RandomBot(seed=7)) for _ in range(options.players)]
    runner = TableRunner(f"table-{seed}",
                         GameState(seeded_deal(seed, options.players, 0), options), seats,
                         players(options.players), TimeControl(1.0))
    outcome = await runner.run()
    return outcome.record.actions, sum(s.checked for s in seats)


async def test_runner_events_keep_the_view_exact_and_random_bot_is_reproducible() -> None:
    for options in (TableOptions(3), TableOptions(5)):
        for seed in range(4):
            first, checked = await play_with_fake_seats(seed, options)
            again, _ = await play_with_fake_seats(seed, options)
            assert checked == len(first) and first == again


def test_dealt_hand_is_rebuilt_at_every_step_for_every_seat() -> None:
    import random as _random

    from arena.games.french_tarot import GameState, TableOptions, apply, legal_actions, observe
    from arena.table import PlayerInfo, TableStart
    from clients.sdk import TableView

    rng = _random.Random(3)
    for seed in range(40):
        players = 2 + seed % 4  # two players: the dummy's card in every trick is not theirs
        state = GameState.from_seed(
            seed, TableOptions(players), dealer=1 if players == 2 else seed % players)
        while state.to_act is not None:
            for seat in range(players):
                view = TableView.from_start(TableStart(
                    "t", seat, state.options, state.dealer,
                    tuple(PlayerInfo(s, f"b{s}", f"b{s}") for s in range(players)),
                    observe(state, seat),
                ))
                assert view.dealt_hand() == state.deal.hands[seat]
            apply(state, rng.choice(legal_actions(state)))
