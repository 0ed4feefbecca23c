"""TableView against the engine: a view rebuilt from TableStart and events must say what
:func:`arena.games.french_tarot.observe` says, after every action of many random deals.

Events are the genuine ones (:func:`arena.table.events.events_after`, what the table runner
sends) and go through the protocol both ways, so the decoders are checked on the way.
"""

from __future__ import annotations

import dataclasses
import random

import pytest

from arena.games.french_tarot import (
    Contract,
    DeclarePoignee,
    GameState,
    HideTrump,
    Observation,
    Phase,
    TableOptions,
    apply,
    legal_actions,
    observe,
    seeded_deal,
)
from arena.table import DecisionRequest, PlayerInfo, TableRunner, TableStart, TimeControl
from arena.table.events import events_after
from arena.table.messages import TableEvent
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


def assert_matches(view: TableView, truth: Observation) -> None:
    """Every field the seat can know, equal; phase and turn may lag for the other seats during
    the taker's last discard (they cannot see it). Once the deal is over, the observation also
    reveals what the bot learns from TableEnd only (chien, discard, partner)."""
    assert view.hand == truth.hand
    assert view.bids == truth.bids
    assert view.contract == truth.contract
    assert view.taker == truth.taker
    assert view.called_card == truth.called_card
    if truth.phase is not Phase.FINISHED:
        assert view.partner == truth.partner
        assert view.partner_known == truth.partner_known
        assert view.chien == truth.chien
        assert view.discard == (truth.discard or ())
    assert view.discarded_trumps == truth.discarded_trumps
    assert view.chelem_announced == truth.chelem_announced
    assert view.poignees == truth.poignees
    assert view.tricks == truth.tricks
    assert view.current_trick == truth.current_trick
    unseen_discard = (
        view.phase is Phase.DISCARDING and view.seat != truth.taker
        and truth.phase in (Phase.CHELEM, Phase.PLAYING) and not truth.current_trick
    )
    if not unseen_discard:
        assert (view.phase, view.to_act) == (truth.phase, truth.to_act)


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
    fed the genuine events through the protocol, checked against :func:`observe` each step."""
    rng = random.Random(seed)
    views = [TableView.from_start(start_over_the_wire(state, s)) for s in range(state.players)]
    sequence = [0] * state.players
    while state.to_act is not None:
        seat, tricks_before = state.to_act, len(state.tricks)
        legal = legal_actions(state)
        poignees = [a for a in legal if isinstance(a, DeclarePoignee)]  # rare otherwise
        action = rng.choice(poignees or legal)
        apply(state, action, seat)
        for recipient, event in events_after(state, seat, action, tricks_before):
            for target in range(state.players) if recipient is None else (recipient,):
                message = event_over_the_wire(
                    TableEvent("t1", target, sequence[target], event)
                )
                sequence[target] += 1
                assert (message.seat, message.sequence) == (target, sequence[target] - 1)
                views[target] = views[target].apply(message.event)
        choosing = state.phase is Phase.POIGNEE
        if choosing:  # no event: the declarer learns from its next request what to do
            assert views[seat].phase is (
                Phase.PLAYING if isinstance(action, DeclarePoignee) else Phase.POIGNEE
            )
            views[seat] = views[seat].with_request(request_over_the_wire(state))
            assert views[seat].phase is Phase.POIGNEE
        for s, view in enumerate(views):
            assert_matches(view, observe(state, s))
        if state.to_act is None:
            break
        # a TableStart re-sent now (after a reconnection) gives the same view (while hiding,
        # it says the play phase, and the request re-sent says the rest)
        resumed = TableView.from_start(start_over_the_wire(state, seat, resumed=True))
        assert resumed.resumed
        if choosing:
            resumed = resumed.with_request(request_over_the_wire(state))
        assert dataclasses.replace(
            resumed, resumed=False, decisions=views[seat].decisions
        ) == views[seat] or (views[seat].phase is Phase.DISCARDING and seat != state.taker)
    assert all(v.phase is Phase.FINISHED and v.to_act is None for v in views)


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
        assert_matches(self.view, self.truth())
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
    for seed in range(30):
        players = 3 + seed % 3
        state = GameState.from_seed(seed, TableOptions(players), dealer=seed % players)
        while state.to_act is not None:
            for seat in range(players):
                view = TableView.from_start(TableStart(
                    "t", seat, state.options, state.dealer,
                    tuple(PlayerInfo(s, f"b{s}", f"b{s}") for s in range(players)),
                    observe(state, seat),
                ))
                assert view.dealt_hand() == state.deal.hands[seat]
            apply(state, rng.choice(legal_actions(state)))
