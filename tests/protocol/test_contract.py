"""The protocol contract the .proto states, checked on what a real arena sends.

Absent values, which notices are recorded infractions, event sequence numbers (resumed starts
included), and events held until the seat's next request.
"""

from __future__ import annotations

import trio

from arena.games.french_tarot import (
    GameState,
    TableOptions,
    apply,
    legal_actions,
    observe,
    seeded_deal,
)
from arena.games.french_tarot.events import events_after
from arena.proto_gen.tarot_arena.v1 import arena_pb2 as pb
from arena.table import InfractionKind, TimeControl
from arena.transport import convert

from .conftest import Arena
from .raw import RECONNECT, RawBot, decision, first_legal

# ----------------------------------------------------------------------- absent values

def test_an_absent_seat_or_winner_is_absent_on_the_wire_and_decodes_as_absent() -> None:
    state = GameState(seeded_deal(3, 4, 0), TableOptions(4))
    view = convert.view_to_pb(observe(state, 0))  # bidding: no taker, partner, called card
    for name in ("taker", "partner", "called_card"):
        assert not view.HasField(name), name
    assert view.HasField("to_act") and view.to_act == 1  # the seat after the dealer
    assert not view.current_trick.HasField("leader")
    assert not view.current_trick.HasField("winner")
    decoded = convert.view_from_pb(view, 0, TableOptions(4), 0)
    assert (decoded.taker, decoded.partner, decoded.called_card) == (None, None, None)
    assert decoded.to_act == 1
    # Over: nobody is to act; the last trick has a winner, present even when it is seat 0.
    while state.to_act is not None:
        apply(state, legal_actions(state)[-1], state.to_act)
    over = convert.view_to_pb(observe(state, 0))
    assert not over.HasField("to_act")
    assert convert.view_from_pb(over, 0, TableOptions(4), 0).to_act is None
    for trick in over.tricks:
        assert trick.HasField("winner") and trick.HasField("leader")
    assert any(trick.winner == 0 for trick in over.tricks) or state.result is not None


def test_a_seat_0_taker_and_winner_are_present_not_confused_with_absent() -> None:
    state = GameState(seeded_deal(11, 4, 3), TableOptions(4))  # seat 0 bids first
    while state.to_act is not None and observe(state, 0).contract is None:
        seat = state.to_act
        actions = legal_actions(state)
        apply(state, actions[1] if seat == 0 else actions[0], seat)  # seat 0 takes
    view = convert.view_to_pb(observe(state, 1))
    assert view.HasField("taker") and view.taker == 0 and view.has_contract
    assert convert.view_from_pb(view, 1, TableOptions(4), 3).taker == 0
    won = convert.trick_to_pb(convert.trick_from_pb(pb.Trick(
        leader=0, cards=[1, 2, 3, 4], winner=0, index=0)), 0)
    assert won.HasField("winner") and won.winner == 0


def test_a_notice_without_a_seat_decodes_with_seat_none() -> None:
    absent = pb.Notice(table_id="t", request_id=9, kind=pb.UNKNOWN_REQUEST, message="m")
    assert convert.notice_from_pb(absent).seat is None
    present = pb.Notice(table_id="t", request_id=9, kind=pb.LATE_ANSWER, message="m", seat=0)
    assert convert.notice_from_pb(present).seat == 0


# ------------------------------------------------- notices: which ones are infractions

async def test_late_and_unknown_answers_are_noticed_but_never_recorded(arena: Arena) -> None:
    """A bot that, with each good answer, also answers a request that does not exist and
    answers its previous request again: two notices each time, no infraction at all."""
    previous: dict[int, pb.BotMessage] = {}

    def noisy(bot: RawBot, request: pb.DecisionRequest) -> list[pb.BotMessage]:
        (answer,) = first_legal(bot, request)
        out = [decision(request, answer.decision.action, request_id=request.request_id + 10**9)]
        if request.seat in previous:
            out.append(previous[request.seat])  # settled already: late
        previous[request.seat] = answer
        return [*out, answer]

    ids, bots = arena.start_bots(
        [f"noisy{i}" if i == 0 else f"good{i}" for i in range(4)],
        [noisy if i == 0 else first_legal for i in range(4)],
    )
    outcome = await arena.play("noisy", ids, seed=4)
    assert outcome.infractions == []
    await trio.sleep(0.2)
    notices = [m.notice for m in bots[0].messages("notice")]
    kinds = {n.kind for n in notices}
    assert kinds == {pb.UNKNOWN_REQUEST, pb.LATE_ANSWER}
    for notice in notices:
        assert not notice.HasField("fallback")  # nothing was played for it
        if notice.kind == pb.UNKNOWN_REQUEST:
            assert not notice.HasField("seat")
        else:
            assert notice.HasField("seat") and notice.seat == 0


async def test_a_timeout_is_a_recorded_infraction_with_a_fallback_and_a_seat(
    arena: Arena
) -> None:
    def silent_once(bot: RawBot, request: pb.DecisionRequest) -> list[pb.BotMessage]:
        if bot.streams == 1 and not bot.messages("notice"):
            return []
        return first_legal(bot, request)

    ids, bots = arena.start_bots(
        [f"bot{i}" for i in range(4)],
        [silent_once if i == 2 else first_legal for i in range(4)],
    )
    outcome = await arena.play("slow", ids, seed=5, time_control=TimeControl(0.3))
    assert [(i.seat, i.kind) for i in outcome.infractions] == [(2, InfractionKind.TIMEOUT)]
    (notice,) = [m.notice for m in bots[2].messages("notice")]
    assert notice.kind == pb.TIMEOUT and notice.HasField("fallback")
    assert notice.HasField("seat") and notice.seat == 2 and notice.request_id != 0


# --------------------------------------------------------------- sequence numbers

def expected_events(record_actions: list[tuple[int, object]], seed: int, players: int,
                    dealer: int) -> list[list[object]]:
    """Every seat's events, in order, as the table runner derives them from the actions."""
    state = GameState(seeded_deal(seed, players, dealer), TableOptions(players))
    out: list[list[object]] = [[] for _ in range(players)]
    for seat, action in record_actions:
        tricks_before = len(state.tricks)
        apply(state, action, seat)  # type: ignore[arg-type]
        for recipient, event in events_after(state, seat, action, tricks_before):  # type: ignore[arg-type]
            for target in range(players) if recipient is None else (recipient,):
                out[target].append(event)
    return out


def events_of(bot: RawBot, seat: int) -> list[pb.TableEvent]:
    return [m.event for m in bot.messages("event") if m.event.seat == seat]


async def test_sequences_count_each_seat_s_events_from_0_and_resume_where_they_were(
    arena: Arena
) -> None:
    """Four seats; seat 1 drops its stream at its third request and comes back at once: its
    resumed TableStart's next_sequence is the number of events it was addressed so far, and
    the events that follow are exactly the rest, numbered on from there."""

    def drop_third(bot: RawBot, request: pb.DecisionRequest) -> list[pb.BotMessage] | str:
        if bot.streams == 1 and len(bot.messages("request")) == 3:
            return RECONNECT
        return first_legal(bot, request)

    ids, bots = arena.start_bots(
        [f"bot{i}" for i in range(4)],
        [drop_third if i == 1 else first_legal for i in range(4)],
    )
    seed = 21
    outcome = await arena.play("seq", ids, seed=seed)
    assert outcome.infractions == []
    await trio.sleep(0.2)
    record = outcome.record
    expected = expected_events(list(record.actions), seed, 4, seed % 4)
    for seat, bot in enumerate(bots):
        starts = [m.table_start for m in bot.messages("table_start")]
        assert starts[0].next_sequence == 0 and not starts[0].resumed
        events = events_of(bot, seat)
        if seat != 1:
            assert [e.sequence for e in events] == list(range(len(expected[seat])))
            assert [convert.event_from_pb(e) for e in events] == [
                convert.event_from_pb(convert.event_to_pb(_table_event(seat, i, ev)).event)
                for i, ev in enumerate(expected[seat])]
            continue
        assert bot.streams == 2
        (resumed,) = [s for s in starts if s.resumed]
        k = resumed.next_sequence
        after = [m.event for r in bot.received if r.stream == 2 for m in r.messages
                 if m.WhichOneof("kind") == "event"]
        assert 0 < k < len(expected[seat])
        assert [e.sequence for e in after] == list(range(k, len(expected[seat])))
        assert [convert.event_from_pb(e) for e in after] == [
            convert.event_from_pb(convert.event_to_pb(_table_event(seat, k + i, ev)).event)
            for i, ev in enumerate(expected[seat][k:])]
        # The resumed view already holds the first k events: the bids made so far.
        bids_seen = sum(1 for ev in expected[seat][:k] if type(ev).__name__ == "BidMade")
        assert len(resumed.view.bids) == bids_seen


def _table_event(seat: int, sequence: int, event: object) -> object:
    from arena.table import TableEvent
    return TableEvent("seq", seat, sequence, event)  # type: ignore[arg-type]


# ----------------------------------------------------------- events held until asked

async def test_events_go_out_only_with_the_seat_s_next_request_notice_or_table_end(
    arena: Arena
) -> None:
    ids, bots = arena.start_bots(
        [f"bot{i}" for i in range(5)],
        [first_legal] * 5,
    )
    await arena.play("held", ids, seed=8)
    await trio.sleep(0.2)
    flushing = {"request", "notice", "table_end"}
    for bot in bots:
        for received in bot.received:
            kinds = [m.WhichOneof("kind") for m in received.messages]
            if "event" in kinds:
                last_event = max(i for i, k in enumerate(kinds) if k == "event")
                assert flushing & set(kinds[last_event + 1:]), kinds


async def test_a_message_other_than_a_decision_is_noticed_as_unknown_without_seat_or_request(
    arena: Arena
) -> None:
    sent: list[pb.BotMessage] = []

    def hello_again(bot: RawBot, request: pb.DecisionRequest) -> list[pb.BotMessage]:
        extra = [] if sent else [pb.BotMessage(hello=pb.Hello(token="x"))]
        sent.extend(extra)
        return [*extra, *first_legal(bot, request)]

    ids, bots = arena.start_bots(
        [f"bot{i}" for i in range(3)],
        [hello_again if i == 0 else first_legal for i in range(3)],
    )
    outcome = await arena.play("hello-again", ids, seed=2)
    assert outcome.infractions == []
    await trio.sleep(0.2)
    (notice,) = [m.notice for m in bots[0].messages("notice")]
    assert notice.kind == pb.UNKNOWN_REQUEST
    assert (notice.table_id, notice.request_id) == ("", 0)
    assert not notice.HasField("seat") and not notice.HasField("fallback")
