"""The table runner with scripted fake seats and trio's fake clock.

``autojump_clock`` (a pytest-trio fixture) makes trio's clock jump to the next deadline as soon as
every task waits, so time limits are tested to the microsecond and cost nothing.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest
import trio

from arena.games.french_tarot import (
    NO_CHELEM,
    PASS,
    Action,
    Bid,
    CallCard,
    ChelemChoice,
    Contract,
    DealOutcome,
    DeclarePoignee,
    Discard,
    GameState,
    HideTrump,
    Phase,
    Play,
    TableOptions,
    apply,
    legal_actions,
    parse_action,
    parse_card,
    replay,
    seeded_deal,
    trump,
)
from arena.games.french_tarot.cards import cards_of, is_trump
from arena.games.french_tarot.deal import CHIEN_SIZES, HAND_SIZES
from arena.games.french_tarot.events import (
    BidMade,
    CardCalled,
    CardDiscarded,
    CardPlayed,
    ChelemDecided,
    ChienShown,
    PartnerRevealed,
    PoigneeShown,
    TrickWon,
    TrumpDiscarded,
)
from arena.games.french_tarot.game import explain_illegal
from arena.table import (
    Answer,
    BotGone,
    DecisionRequest,
    InfractionKind,
    Malformed,
    Notice,
    TableEnd,
    TableEvent,
    TableOutcome,
    TableStart,
    TimeControl,
    fallback_action,
)
from tests.french_tarot.builders import make_deal

from .fakes import (
    TABLE_ID,
    FakeSeat,
    choose,
    make_runner,
    never,
    player,
    players_of,
    requests_in_order,
)

GARDE_BY_1 = {1: Contract.GARDE}
"""Seat 1 (first to speak when seat 0 deals) takes a Garde, everyone else passes."""


def seats_of(n: int, bids: dict[int, Contract] | None = None) -> list[FakeSeat]:
    return [FakeSeat(player(GARDE_BY_1 if bids is None else bids)) for _ in range(n)]


def decisions_of(outcome: TableOutcome, seat: int) -> list[int]:
    return [d.index for d in outcome.decisions if d.seat == seat]


def state_before(outcome: TableOutcome, index: int) -> GameState:
    """The state as it was when decision ``index`` was asked for."""
    state = GameState(outcome.state.deal, outcome.state.options)
    for decision in outcome.decisions[:index]:
        apply(state, decision.action, decision.seat)
    return state


def check_valid(outcome: TableOutcome, seats: list[FakeSeat]) -> None:
    """The deal is over with a zero-sum result that its record replays, and every seat got the
    table's start first and its end last."""
    state = outcome.state
    assert state.is_over and state.to_act is None
    assert sum(outcome.result.scores) == 0
    assert replay(outcome.record).result == outcome.result
    assert [(d.seat, d.action) for d in outcome.decisions] == state.history
    assert [d.index for d in outcome.decisions] == list(range(len(outcome.decisions)))
    for seat, fake in enumerate(seats):
        assert isinstance(fake.received[0], TableStart)
        assert isinstance(fake.received[-1], TableEnd)
        assert fake.received[-1].seat == seat
        assert fake.received[-1].result == outcome.result
    for infraction in outcome.infractions:
        decision = outcome.decisions[infraction.decision_index]
        assert decision.infraction is infraction and decision.seat == infraction.seat
    assert [d.infraction for d in outcome.decisions if d.fallback] == outcome.infractions


# ------------------------------------------------------------------------------ a whole deal

@pytest.mark.parametrize("players", [3, 4, 5])
async def test_a_normal_deal_completes_and_every_seat_hears_all_of_it(players: int) -> None:
    seats = seats_of(players)
    runner = make_runner(seats, seed=7)
    outcome = await runner.run()

    check_valid(outcome, seats)
    state = outcome.state
    assert outcome.table_id == TABLE_ID
    assert outcome.infractions == []
    assert outcome.result.outcome is DealOutcome.PLAYED
    assert (outcome.result.taker, outcome.result.contract) == (1, Contract.GARDE)
    assert len(outcome.decisions) == len(state.history) > players * HAND_SIZES[players]
    for seat, fake in enumerate(seats):
        start, *middle, end = fake.received
        assert start.table_id == TABLE_ID and start.seat == seat
        assert start.options == TableOptions(players) and start.dealer == 0
        assert start.players == tuple(players_of(players))
        assert not start.resumed and start.next_sequence == 0
        assert start.view.seat == seat and start.view.phase is Phase.BIDDING
        assert start.view.hand == state.deal.hands[seat]
        assert all(isinstance(m, TableEvent | DecisionRequest) for m in middle)
        assert end.table_id == TABLE_ID and end.cards is not None
        assert end.cards.hands == state.deal.hands and end.cards.undealt == state.deal.chien
        assert end.cards.discard == tuple(cards_of(state.discard))
        assert end.record.dumps() == outcome.record.dumps()
        requests = fake.of(DecisionRequest)
        assert len(requests) == len(decisions_of(outcome, seat))
        assert all(r.seat == seat and r.table_id == TABLE_ID for r in requests)
    for index, request in enumerate(requests_in_order(seats)):
        before = state_before(outcome, index)
        assert request.seat == before.to_act and request.phase is before.phase
        assert request.legal_actions == legal_actions(before)
        assert request.hand == tuple(cards_of(before.hands[request.seat]))
        assert request.time_limit == 1.0 and request.time_bank == 0.0
    assert len({r.request_id for r in requests_in_order(seats)}) == len(outcome.decisions)


async def test_a_deal_everyone_passes_ends_at_once() -> None:
    seats = seats_of(4, bids={})
    outcome = await make_runner(seats, seed=7).run()
    check_valid(outcome, seats)
    assert outcome.result.outcome is DealOutcome.ALL_PASSED
    assert [d.action for d in outcome.decisions] == [PASS] * 4
    assert all(not any(isinstance(e, ChienShown) for e in fake.events) for fake in seats)


# ------------------------------------------------------------------------------ time control

async def test_an_answer_just_inside_the_time_limit_is_taken(autojump_clock: object) -> None:
    limit = 2.0
    seats = [FakeSeat(player(GARDE_BY_1, delay=limit - 1e-6)) for _ in range(4)]
    outcome = await make_runner(seats, time_control=TimeControl(limit)).run()
    check_valid(outcome, seats)
    assert outcome.infractions == []
    assert all(d.seconds == pytest.approx(limit - 1e-6, abs=1e-9) for d in outcome.decisions)


async def test_an_answer_after_the_limit_is_a_timeout_and_the_fallback_is_played(
    autojump_clock: object,
) -> None:
    limit = 2.0
    seats = seats_of(4)
    seats[2] = FakeSeat(player(GARDE_BY_1, delay=limit + 1e-6))
    outcome = await make_runner(seats, time_control=TimeControl(limit)).run()

    check_valid(outcome, seats)
    mine = decisions_of(outcome, 2)
    assert [i.decision_index for i in outcome.infractions] == mine
    for infraction in outcome.infractions:
        decision = outcome.decisions[infraction.decision_index]
        assert infraction.seat == 2 and infraction.kind is InfractionKind.TIMEOUT
        assert infraction.message == "no answer within 2.000 s"
        assert decision.seconds == pytest.approx(limit, abs=1e-9)
        assert decision.action == fallback_action(state_before(outcome, decision.index))
    notices = seats[2].of(Notice)
    assert [(n.kind, n.fallback) for n in notices] == [
        (InfractionKind.TIMEOUT, outcome.decisions[i].action) for i in mine
    ]
    requests = seats[2].of(DecisionRequest)
    assert [n.request_id for n in notices] == [r.request_id for r in requests]
    assert all(n.seat == 2 and n.table_id == TABLE_ID for n in notices)
    assert all(not fake.of(Notice) for seat, fake in enumerate(seats) if seat != 2)


async def test_overruns_draw_on_the_time_bank_until_it_is_used_up(autojump_clock: object) -> None:
    # Seat 0 speaks last (dealer) and then plays; its first six decisions take these times.
    delays = iter([1.5, 1.4, 1.5, 1.7, 1.05, 0.5])

    async def slow(request: DecisionRequest) -> Answer:
        await trio.sleep(next(delays, 0.0))
        return choose(request, GARDE_BY_1)

    seats = seats_of(4)
    seats[0] = FakeSeat(slow)
    outcome = await make_runner(seats, time_control=TimeControl(1.0, 2.0)).run()

    check_valid(outcome, seats)
    first = [outcome.decisions[i] for i in decisions_of(outcome, 0)[:7]]
    # 1.5 (bank 2 -> 1.5), 1.4 (-> 1.1), 1.5 (-> 0.6), 1.7 > 1.6: timeout (-> 0),
    # 1.05 > 1.0: timeout, 0.5 in time, then instant answers.
    assert [d.seconds for d in first] == pytest.approx([1.5, 1.4, 1.5, 1.6, 1.0, 0.5, 0.0])
    assert [d.fallback for d in first] == [False, False, False, True, True, False, False]
    banks = [r.time_bank for r in seats[0].of(DecisionRequest)[:7]]
    assert banks == pytest.approx([2.0, 1.5, 1.1, 0.6, 0.0, 0.0, 0.0])
    assert all(r.time_limit == 1.0 for r in seats[0].of(DecisionRequest))
    assert [i.message for i in outcome.infractions] == [
        "no answer within 1.600 s", "no answer within 1.000 s",
    ]
    assert all(d.seconds == 0.0 for d in outcome.decisions if d.seat != 0)


async def test_each_request_tells_the_arenas_time_for_the_players_previous_answer(
    autojump_clock: object,
) -> None:
    """What lets a bot learn the transport's share of a limit: the arena's own count of its
    previous answer at the table (none after a timeout: no answer was read in time)."""
    delays = iter([0.25, 1.5, 0.5])  # seat 0's first decisions; the second one times out

    async def timed(request: DecisionRequest) -> Answer:
        await trio.sleep(next(delays, 0.125))
        return choose(request, GARDE_BY_1)

    seats = seats_of(4)
    seats[0] = FakeSeat(timed)
    outcome = await make_runner(seats, time_control=TimeControl(1.0)).run()
    check_valid(outcome, seats)
    requests = seats[0].of(DecisionRequest)
    told = [(r.previous_request_id, r.previous_elapsed) for r in requests[:5]]
    ids = [r.request_id for r in requests]
    assert told == [(0, 0.0), (ids[0], pytest.approx(0.25)), (0, 0.0),
                    (ids[2], pytest.approx(0.5)), (ids[3], pytest.approx(0.125))]
    # Each player's own answers only, at its own table.
    other = seats[1].of(DecisionRequest)
    assert [r.previous_request_id for r in other[1:]] == [r.request_id for r in other[:-1]]


async def test_decisions_log_the_time_each_seat_took(autojump_clock: object) -> None:
    seats = [FakeSeat(player(GARDE_BY_1, delay=0.1 * (seat + 1))) for seat in range(4)]
    outcome = await make_runner(seats).run()
    check_valid(outcome, seats)
    assert outcome.infractions == []
    for decision in outcome.decisions:
        assert decision.seconds == pytest.approx(0.1 * (decision.seat + 1))
    total = sum(d.seconds for d in outcome.decisions)
    assert trio.current_time() == pytest.approx(total)


# ------------------------------------------------------------------------- bad answers

def illegal(request: DecisionRequest) -> Action:
    """An action of the right kind that is not legal (or of the wrong kind while bidding)."""
    if request.phase is Phase.PLAYING:
        return Play(next(c for c in range(78) if c not in request.hand))
    if request.phase is Phase.BIDDING:
        return Play(request.hand[0])
    return Discard(next(c for c in range(78) if c not in request.hand))


async def test_an_illegal_answer_is_refused_with_the_engines_reason() -> None:
    answers: dict[int, Action] = {}

    async def cheat(request: DecisionRequest) -> Answer:
        answers[request.request_id] = action = illegal(request)
        return action

    seats = seats_of(4)
    seats[3] = FakeSeat(cheat)
    outcome = await make_runner(seats).run()

    check_valid(outcome, seats)
    mine = decisions_of(outcome, 3)
    assert [i.decision_index for i in outcome.infractions] == mine
    requests = requests_in_order(seats)
    for infraction in outcome.infractions:
        index = infraction.decision_index
        answer = answers[requests[index].request_id]
        before = state_before(outcome, index)
        assert infraction.kind is InfractionKind.ILLEGAL_ACTION
        assert infraction.message == explain_illegal(before, answer)
        assert outcome.decisions[index].action == fallback_action(before)
    assert outcome.infractions[0].message == (
        f"{answers[requests[mine[0]].request_id]} is not an action of the bidding phase"
    )
    assert outcome.infractions[-1].message.endswith("is not in this hand")
    notices = seats[3].of(Notice)
    assert [(n.kind, n.message) for n in notices] == [
        (i.kind, i.message) for i in outcome.infractions
    ]


@pytest.mark.parametrize(
    ("answer", "reason"),
    [
        (Malformed("card 99 does not exist"), "card 99 does not exist"),
        (Play(200), "card 200 does not exist: cards are numbered 0..77"),
        (Discard(-1), "card -1 does not exist: cards are numbered 0..77"),
        (Bid(7), "Bid(contract=7) is not a valid action"),  # type: ignore[arg-type]
        ("play T21", "'play T21' is not an action"),
        (None, "None is not an action"),
    ],
    ids=["malformed", "card-200", "card-minus-1", "no-such-contract", "text", "none"],
)
async def test_a_malformed_answer_is_refused(answer: object, reason: str) -> None:
    async def garbage(request: DecisionRequest) -> Answer:
        return answer  # type: ignore[return-value]

    seats = seats_of(4)
    seats[2] = FakeSeat(garbage)
    outcome = await make_runner(seats).run()

    check_valid(outcome, seats)
    assert [i.decision_index for i in outcome.infractions] == decisions_of(outcome, 2)
    assert {(i.seat, i.kind, i.message) for i in outcome.infractions} == {
        (2, InfractionKind.MALFORMED_ACTION, reason)
    }


async def test_a_bot_gone_is_disconnected_at_once(autojump_clock: object) -> None:
    async def gone(request: DecisionRequest) -> Answer:
        raise BotGone("the stream closed")

    seats = seats_of(4, bids={2: Contract.GARDE})
    seats[1] = FakeSeat(gone)
    outcome = await make_runner(seats, time_control=TimeControl(5.0)).run()

    check_valid(outcome, seats)
    assert [i.decision_index for i in outcome.infractions] == decisions_of(outcome, 1)
    assert {(i.kind, i.message) for i in outcome.infractions} == {
        (InfractionKind.DISCONNECTED, "the bot is gone: the stream closed")
    }
    assert trio.current_time() == 0.0
    assert len(decisions_of(outcome, 1)) == 1 + HAND_SIZES[4]


async def test_a_seat_still_disconnected_at_the_deadline_is_disconnected(
    autojump_clock: object,
) -> None:
    seats = seats_of(4)
    seats[0] = FakeSeat(never)
    seats[0].connected = False
    seats[2] = FakeSeat(never)  # connected but silent: a timeout
    outcome = await make_runner(seats, time_control=TimeControl(0.5, 1.0)).run()

    check_valid(outcome, seats)
    kinds = {(i.seat, i.kind, i.message) for i in outcome.infractions}
    assert kinds == {
        (0, InfractionKind.DISCONNECTED, "the bot was disconnected and did not come back in time"),
        (2, InfractionKind.TIMEOUT, "no answer within 1.500 s"),
        (2, InfractionKind.TIMEOUT, "no answer within 0.500 s"),
    }
    first = outcome.decisions[decisions_of(outcome, 0)[0]]
    assert first.seconds == pytest.approx(1.5)  # the bank is there for a reconnection too
    assert all(outcome.decisions[i].seconds == pytest.approx(0.5)
               for i in decisions_of(outcome, 0)[1:])


async def test_a_seat_that_comes_back_before_the_deadline_answers(autojump_clock: object) -> None:
    async def blip(request: DecisionRequest) -> Answer:
        seats[0].connected = False
        await trio.sleep(0.4)
        seats[0].connected = True
        await trio.sleep(0.1)
        return choose(request, GARDE_BY_1)

    seats = seats_of(4)
    seats[0] = FakeSeat(blip)
    outcome = await make_runner(seats, time_control=TimeControl(0.6)).run()
    check_valid(outcome, seats)
    assert outcome.infractions == []


# ------------------------------------------------------------------------------ fallbacks

def drive(state: GameState, until: Phase, bids: dict[int, Contract]) -> GameState:
    while state.phase is not until:
        seat = state.to_act
        assert seat is not None
        contract = bids.get(seat)
        legal = legal_actions(state)
        if state.phase is Phase.BIDDING:
            apply(state, Bid(contract) if contract and Bid(contract) in legal else PASS, seat)
        else:
            apply(state, legal[0], seat)
    return state


def test_the_fallback_is_pass_when_bidding() -> None:
    state = GameState(seeded_deal(3, 4, 0))
    assert fallback_action(state) == PASS
    apply(state, Bid(Contract.GARDE_CONTRE), state.to_act)
    assert fallback_action(state) == PASS


def test_the_fallback_calls_the_lowest_callable_card() -> None:
    state = drive(GameState(seeded_deal(3, 5, 0)), Phase.CALLING, {2: Contract.PETITE})
    legal = legal_actions(state)
    assert fallback_action(state) == legal[0] == CallCard(min(a.card for a in legal))


def test_the_fallback_discards_the_lowest_discardable_card_and_announces_no_chelem() -> None:
    state = drive(GameState(seeded_deal(3, 4, 0)), Phase.DISCARDING, {1: Contract.PETITE})
    while state.phase is Phase.DISCARDING:
        legal = legal_actions(state)
        assert fallback_action(state) == Discard(min(a.card for a in legal))
        apply(state, fallback_action(state), state.to_act)
    assert state.phase is Phase.CHELEM
    assert fallback_action(state) == NO_CHELEM


def test_the_fallback_plays_the_lowest_legal_card_and_never_a_poignee() -> None:
    # Four players, seed 35: seat 1 holds ten trumps and may show a poignée.
    state = drive(GameState(seeded_deal(35, 4, 0)), Phase.PLAYING, {2: Contract.GARDE})
    offered = 0
    while state.phase is Phase.PLAYING:
        legal = legal_actions(state)
        offered += any(isinstance(a, DeclarePoignee) for a in legal)
        plays = [a.card for a in legal if isinstance(a, Play)]
        action = fallback_action(state)
        assert action == Play(min(plays))
        assert fallback_action(state.copy()) == action  # a function of the state alone
        apply(state, action, state.to_act)
    assert offered >= 1 and state.poignees == []


def test_the_fallback_while_hiding_trumps_hides_the_highest() -> None:
    """A seat that declared a poignée and then fails to choose shows its lowest trumps."""
    hand = " ".join(f"T{n}" for n in range(1, 13))
    state = GameState(make_deal(4, 0, {1: hand}))
    for text in ("pass", "bid garde-sans", "pass", "pass", "no-chelem", "poignee simple"):
        apply(state, parse_action(text), state.to_act)
    assert state.phase is Phase.POIGNEE
    while state.phase is Phase.POIGNEE:
        action = fallback_action(state)
        assert action == HideTrump(max(a.card for a in legal_actions(state)))
        apply(state, action, state.to_act)
    assert state.poignees[0].cards == tuple(trump(n) for n in range(10, 0, -1))


async def test_a_timeout_with_a_poignee_on_offer_plays_a_card(autojump_clock: object) -> None:
    seats = seats_of(4, bids={2: Contract.GARDE})
    seats[1] = FakeSeat(never)
    runner = make_runner(seats, seed=35, time_control=TimeControl(0.1))
    outcome = await runner.run()
    check_valid(outcome, seats)
    requests = seats[1].of(DecisionRequest)
    assert any(isinstance(a, DeclarePoignee) for a in requests[1].legal_actions)
    assert all(isinstance(outcome.decisions[i].action, Play) for i in decisions_of(outcome, 1)[1:])
    assert outcome.state.poignees == []
    assert not any(isinstance(e, PoigneeShown) for e in seats[0].events)


# ---------------------------------------------------------------------- everyone misbehaves

MISBEHAVIOURS = ("good", "slow", "silent", "illegal", "malformed", "gone", "junk", "no-card")


def misbehaving(rng: random.Random, seat: FakeSeat) -> object:
    async def policy(request: DecisionRequest) -> Answer:
        mode = rng.choice(MISBEHAVIOURS)
        if mode == "slow":
            await trio.sleep(rng.uniform(0.5, 1.5))
        elif mode == "silent":
            seat.connected = rng.random() < 0.5
            await trio.sleep_forever()
        elif mode == "illegal":
            return illegal(request)
        elif mode == "malformed":
            return Malformed("unreadable")
        elif mode == "gone":
            raise BotGone("gone")
        elif mode == "junk":
            return rng.choice(["play T21", 3.5, None, ChelemChoice])  # type: ignore[return-value]
        elif mode == "no-card":
            return rng.choice([Play(78), Discard(-5), CallCard(1000)])
        return rng.choice(request.legal_actions)

    return policy


@pytest.mark.parametrize("players", [3, 4, 5])
async def test_the_deal_completes_whatever_every_seat_does(
    players: int, autojump_clock: object
) -> None:
    rng = random.Random(f"misbehaving-{players}")
    kinds: Counter[InfractionKind] = Counter()
    for seed in range(25):
        seats = [FakeSeat() for _ in range(players)]
        for fake in seats:
            fake.policy = misbehaving(rng, fake)  # type: ignore[assignment]
        runner = make_runner(seats, seed=seed, dealer=seed % players,
                             time_control=TimeControl(1.0, 1.0))
        with trio.fail_after(3600):
            outcome = await runner.run()
        check_valid(outcome, seats)
        for seat, fake in enumerate(seats):
            infractions = [i for i in outcome.infractions if i.seat == seat]
            assert [(n.kind, n.message, n.request_id) for n in fake.of(Notice)] == [
                (i.kind, i.message, requests_in_order(seats)[i.decision_index].request_id)
                for i in infractions
            ]
        check_events(seats, outcome)
        kinds.update(i.kind for i in outcome.infractions)
    runner_kinds = {InfractionKind.TIMEOUT, InfractionKind.ILLEGAL_ACTION,
                    InfractionKind.MALFORMED_ACTION, InfractionKind.DISCONNECTED}
    assert set(kinds) == runner_kinds


# -------------------------------------------------------------------------------- events

def public(events: list[object]) -> list[object]:
    return [e for e in events if not isinstance(e, CardDiscarded)]


def check_events(seats: list[FakeSeat], outcome: TableOutcome) -> None:
    """Same public events everywhere, in order, numbered 0, 1, 2, ... per seat."""
    for seat, fake in enumerate(seats):
        messages = fake.of(TableEvent)
        assert [m.sequence for m in messages] == list(range(len(messages)))
        assert all(m.seat == seat and m.table_id == TABLE_ID for m in messages)
        assert public(fake.events) == public(seats[0].events)
    state = outcome.state
    events = public(seats[0].events)
    bids = [e for e in events if isinstance(e, BidMade)]
    assert [(e.seat, e.action) for e in bids] == state.bids
    played = [(e.seat, e.card) for e in events if isinstance(e, CardPlayed)]
    assert played == [(s, a.card) for s, a in state.history if isinstance(a, Play)]
    won = [e for e in events if isinstance(e, TrickWon)]
    assert [(e.index, e.trick) for e in won] == list(enumerate(state.tricks))
    for position, event in enumerate(events):
        if isinstance(event, TrickWon):  # right after the trick's last card (and its reveal)
            last = events[position - 1]
            if isinstance(last, PartnerRevealed):
                last = events[position - 2]
            assert isinstance(last, CardPlayed) and last.card == event.trick.cards[-1]
    poignees = [e.poignee for e in events if isinstance(e, PoigneeShown)]
    assert poignees == state.poignees
    chelem = [(e.seat, e.announce) for e in events if isinstance(e, ChelemDecided)]
    if state.options.beginner:
        assert chelem == []
        chelem = [(state.taker, False)]
    trumps = [e.card for e in events if isinstance(e, TrumpDiscarded)]
    assert trumps == state.discarded_trumps
    if state.contract is None:
        assert chelem == [] and not any(isinstance(e, ChienShown) for e in events)
        return
    assert chelem == [(state.taker, state.chelem_announced)]
    shown = [e for e in events if isinstance(e, ChienShown)]
    if state.contract.chien_shown:
        assert shown == [ChienShown(state.deal.chien)]
        before = events[events.index(shown[0]) - 1]  # as the bidding (and the call) ends
        assert isinstance(before, CardCalled if state.players == 5 else BidMade)
    else:
        assert shown == []
    for seat, fake in enumerate(seats):
        discarded = [e.card for e in fake.events if isinstance(e, CardDiscarded)]
        if seat == state.taker and state.contract.chien_shown:
            assert sorted(discarded) == cards_of(state.discard)
            assert len(discarded) == CHIEN_SIZES[state.players]
        else:
            assert discarded == []


@pytest.mark.parametrize("players", [3, 4, 5])
@pytest.mark.parametrize("contract", list(Contract))
async def test_events_follow_the_deal(players: int, contract: Contract) -> None:
    seats = seats_of(players, bids={1: contract})
    outcome = await make_runner(seats, seed=11).run()
    check_valid(outcome, seats)
    assert outcome.state.contract is contract
    check_events(seats, outcome)
    called = [e for e in seats[0].events if isinstance(e, CardCalled)]
    assert called == ([CardCalled(outcome.state.called_card)] if players == 5 else [])


async def test_the_chien_is_shown_after_the_call_with_five_players() -> None:
    seats = seats_of(5)
    outcome = await make_runner(seats, seed=7).run()
    events = public(seats[3].events)
    called = next(i for i, e in enumerate(events) if isinstance(e, CardCalled))
    assert isinstance(events[called + 1], ChienShown)
    assert all(isinstance(e, BidMade) for e in events[:called])
    check_events(seats, outcome)


async def test_trumps_in_the_discard_are_shown_to_everyone() -> None:
    # Seat 1 takes a Petite with kings, bouts and trumps: only 3 plain cards for a 6-card discard.
    hand = "KS KH KD KC T1 T21 EX 2S 3H T2 T3 T4 T5 T6 T7 T8 T9 T10"
    deal = make_deal(4, 0, {1: hand}, chien="4D T11 T12 T13 T14 T15")
    seats = seats_of(4, bids={1: Contract.PETITE})
    outcome = await make_runner(seats, deal=deal).run()
    check_valid(outcome, seats)
    check_events(seats, outcome)
    trumps = [e.card for e in seats[0].events if isinstance(e, TrumpDiscarded)]
    assert len(trumps) == 3 and all(is_trump(c) for c in trumps)
    taker_events = seats[1].events
    for card in trumps:  # the taker hears its discard, then everyone hears the trump
        at = taker_events.index(CardDiscarded(card))
        assert taker_events[at + 1] == TrumpDiscarded(card)


def find_partner_deal() -> int:
    """A 5-player seed where seat 1's Garde calls a King held by another seat."""
    for seed in range(100):
        deal = seeded_deal(seed, 5, 0)
        state = drive(GameState(deal), Phase.DISCARDING, {1: Contract.GARDE})
        if state.partner is not None:
            return seed
    raise AssertionError("no such seed")


async def test_the_partner_is_revealed_when_the_called_card_is_played() -> None:
    seed = find_partner_deal()
    seats = seats_of(5)
    outcome = await make_runner(seats, seed=seed).run()
    check_valid(outcome, seats)
    check_events(seats, outcome)
    state = outcome.state
    events = public(seats[0].events)
    revealed = [i for i, e in enumerate(events) if isinstance(e, PartnerRevealed)]
    assert len(revealed) == 1
    at = revealed[0]
    assert events[at] == PartnerRevealed(state.partner)
    assert events[at - 1] == CardPlayed(state.partner, state.called_card)
    assert outcome.result.partner == state.partner is not None


def calling(card: str, contract: Contract) -> FakeSeat:
    """Seat 1's player: takes ``contract`` and calls ``card``."""

    async def policy(request: DecisionRequest) -> Answer:
        if request.phase is Phase.CALLING:
            return CallCard(parse_card(card))
        return choose(request, {1: contract})

    return FakeSeat(policy)


async def test_no_partner_is_revealed_when_the_called_card_stays_in_the_chien() -> None:
    deal = make_deal(5, 0, {1: "KS KH KD"}, chien="KC")
    seats = seats_of(5, bids={1: Contract.GARDE_SANS})
    seats[1] = calling("KC", Contract.GARDE_SANS)
    outcome = await make_runner(seats, deal=deal).run()
    check_valid(outcome, seats)
    check_events(seats, outcome)
    assert outcome.state.called_card == parse_card("KC")
    assert all(CardCalled(parse_card("KC")) in fake.events for fake in seats)
    assert not any(isinstance(e, PartnerRevealed) for e in seats[0].events)
    assert outcome.result.partner is None


async def test_a_taker_who_calls_its_own_king_is_revealed_alone_when_it_plays_it() -> None:
    deal = make_deal(5, 0, {1: "KS KH KD"}, chien="KC")
    seats = seats_of(5, bids={1: Contract.GARDE})
    seats[1] = calling("KH", Contract.GARDE)
    outcome = await make_runner(seats, deal=deal).run()
    check_valid(outcome, seats)
    check_events(seats, outcome)
    events = public(seats[4].events)
    at = events.index(PartnerRevealed(1))
    assert events[at - 1] == CardPlayed(1, parse_card("KH"))
    assert outcome.result.partner is None


async def test_a_chelem_announcement_is_public() -> None:
    async def announce(request: DecisionRequest) -> Answer:
        if request.phase is Phase.CHELEM:
            return ChelemChoice(True)
        return choose(request, GARDE_BY_1)

    seats = seats_of(4)
    seats[1] = FakeSeat(announce)
    outcome = await make_runner(seats, seed=7).run()
    check_valid(outcome, seats)
    check_events(seats, outcome)
    for fake in seats:
        assert ChelemDecided(1, True) in fake.events
    assert outcome.state.chelem_announced and outcome.state.tricks[0].leader == 1


async def test_the_beginner_variant_asks_no_chelem_question() -> None:
    seats = seats_of(4)
    outcome = await make_runner(seats, seed=7, beginner=True).run()
    check_valid(outcome, seats)
    check_events(seats, outcome)
    assert all(r.phase is not Phase.CHELEM for fake in seats for r in fake.of(DecisionRequest))
