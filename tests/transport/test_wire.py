"""The bytes :mod:`arena.transport.wire` frames by hand mean exactly what protobuf would send.

wire writes the hottest messages (table events, decision requests, batches) as bytes without
building them as protobuf objects, so nothing but these tests checks that it speaks protobuf.
Each message it writes is parsed back with protobuf and compared with the message
:mod:`arena.transport.convert` builds (the reference), and its length with that message's size:
the fields may come in another order, but a field written twice, one too many or a wrong
length would show. The events and requests come from many random deals played to the end, so
every kind of event and every kind of decision is covered, with the caches wire keeps between
calls exercised as the table runner does (each event to every seat in a row).
"""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field

import pytest

from arena.games.french_tarot import (
    PASS,
    Action,
    Bid,
    ChelemChoice,
    Contract,
    Deal,
    DeclarePoignee,
    GameState,
    Phase,
    TableOptions,
    apply,
    legal_actions,
    seeded_deal,
)
from arena.games.french_tarot.cards import cards_of
from arena.games.french_tarot.deal import CHIEN_SIZES, HAND_SIZES, dealer_seats
from arena.games.french_tarot.events import (
    BidMade,
    CardCalled,
    CardDiscarded,
    CardPlayed,
    ChelemDecided,
    ChienShown,
    DummyShown,
    Event,
    PartnerRevealed,
    PoigneeShown,
    TrickWon,
    TrumpDiscarded,
    events_after,
)
from arena.proto_gen.tarot_arena.v1 import arena_pb2 as pb
from arena.table.messages import (
    DecisionRequest,
    InfractionKind,
    Notice,
    TableEnd,
    TableEvent,
)
from arena.transport import convert, wire
from tests.french_tarot.builders import make_deal
from tests.table.fakes import FakeSeat, make_runner, player

DEALS = 60
"""Deals per table size (2 players with the dummy, 3, 4, 5 players), every third one in the
beginner variant."""
EVENT_KINDS = (
    BidMade, CardCalled, ChienShown, CardDiscarded, TrumpDiscarded, ChelemDecided,
    PoigneeShown, CardPlayed, TrickWon, PartnerRevealed, DummyShown,
)
SEQUENCE_STARTS = (0, 1, 120, 16_370, 2**21 - 3, 2**35)
"""Where each run of 500 events starts numbering: 0, and just below varint length changes."""
REQUEST_ID_STARTS = (0, 120, 16_300, 2**32 - 40, 2**56, 2**64 - 1_000)
TIME_BANKS = (0.0, 0.001, 1.5, 12.345)
TIME_LIMITS = (1.0, 0.25, 30.0)
TABLE_IDS = ("table-1", "t", "tablé-ü-東", "x" * 200)
VARINTS = (0, 1, 127, 128, 300, 16_383, 16_384, 2**21 - 1, 2**21, 2**32, 2**63 - 1, 2**64 - 1)


@dataclass
class Played:
    """What the deals sent: each event with its recipients, in order, and each decision."""

    events: list[tuple[tuple[int, ...], Event]] = field(default_factory=list)
    decisions: list[tuple[int, Phase, tuple[Action, ...], tuple[int, ...]]] = field(
        default_factory=list
    )


def choose(rng: random.Random, legal: tuple[Action, ...]) -> Action:
    """A uniformly random legal action, but a poignée or a chelem announce half the time they
    are legal: uniform play would almost never show a poignée."""
    special = [a for a in legal if isinstance(a, DeclarePoignee)
               or (isinstance(a, ChelemChoice) and a.announce)]
    if special and rng.random() < 0.5:
        return rng.choice(special)
    return rng.choice(legal)


def trumpy_deal(players: int) -> Deal:
    """Seat 1 holds the Kings, the bouts and low trumps, the chien one plain card and trumps:
    a taker there must discard trumps, which random seeded deals never make it do."""
    hand_size, chien_size = HAND_SIZES[players], CHIEN_SIZES[players]
    trumps = [f"T{n}" for n in range(2, 21)]
    hand = ["KS", "KH", "KD", "KC", "T1", "T21", "EX", *trumps[: hand_size - 7]]
    chien = ["2S", *trumps[hand_size - 7 : hand_size - 8 + chien_size]]
    return make_deal(players, dealer_seats(players)[0], {1: " ".join(hand)}, chien=" ".join(chien))


def play_deal(
    rng: random.Random, state: GameState, out: Played, taker: int | None = None
) -> None:
    """One deal to the end, recording what a table runner would send (see ``_decide``); when
    ``taker`` is given, that seat bids a Garde (a Petite for beginners) and the others pass."""
    while state.to_act is not None:
        seat = state.to_act
        legal = legal_actions(state)
        out.decisions.append((seat, state.phase, legal, tuple(cards_of(state.hands[seat]))))
        action: Action
        if taker is not None and state.phase is Phase.BIDDING:
            bids = [a for a in legal if isinstance(a, Bid) and a.contract <= Contract.GARDE]
            action = bids[-1] if seat == taker and bids else PASS
        else:
            action = choose(rng, legal)
        tricks_before = len(state.tricks)
        apply(state, action, seat)
        for recipient, event in events_after(state, seat, action, tricks_before):
            seats = tuple(range(state.players)) if recipient is None else (recipient,)
            out.events.append((seats, event))


@pytest.fixture(scope="module")
def played() -> Played:
    """Every deal once for the module: seeded random deals, plus trumpy ones (trump discards)."""
    out = Played()
    for players in (2, 3, 4, 5):
        dealers = dealer_seats(players)
        for deal in range(DEALS):
            seed = 1_000 * players + deal
            options = TableOptions(players, beginner=deal % 3 == 2)
            dealer = dealers[seed % len(dealers)]
            state = GameState(seeded_deal(seed, players, dealer), options)
            play_deal(random.Random(seed), state, out)
        for seed in range(4):
            options = TableOptions(players, beginner=seed % 2 == 1)
            play_deal(random.Random(seed), GameState(trumpy_deal(players), options), out, 1)
    return out


def check_event(message: TableEvent) -> None:
    """wire's bytes parse to convert's message, and have its size."""
    data = wire.event(message)
    expected = convert.event_to_pb(message)
    assert pb.ArenaMessage.FromString(data) == expected, message
    assert len(data) == expected.ByteSize(), message


def check_request(message: DecisionRequest) -> None:
    data = wire.request(message)
    expected = convert.request_to_pb(message)
    assert pb.ArenaMessage.FromString(data) == expected, message
    assert len(data) == expected.ByteSize(), message


def check_end(message: TableEnd) -> None:
    data = wire.end(message)
    expected = convert.end_to_pb(message)
    assert pb.ArenaMessage.FromString(data) == expected, message
    assert len(data) == expected.ByteSize(), message


async def test_table_ends_as_the_runner_sends_them() -> None:
    """Each seat's TableEnd of a played deal, revealed or not, in the runner's order (wire
    serializes the shared part once, on the first seat), then out of order and interleaved
    with another table's: a seat must never get another table's or another deal's end."""
    ends: list[list[TableEnd]] = []
    for players, reveal in ((3, True), (4, True), (5, True), (4, False)):
        seats = [FakeSeat(player()) for _ in range(players)]
        await make_runner(seats, seed=players, reveal=reveal).run()
        table = [seat.of(TableEnd)[0] for seat in seats]
        assert [end.seat for end in table] == list(range(players))
        for end in table:
            check_end(end)
        ends.append(table)
    for seat in (2, 0, 1, 0):
        for table in ends:
            check_end(table[seat])
    first = ends[1][0]  # equal content under another table id, then back
    for table_id in ("t-2", first.table_id, ""):
        check_end(TableEnd(table_id, 1, first.result, first.cards, first.record))


def test_every_event_kind_occurs(played: Played) -> None:
    """The deals cover every event class, so the tests below cannot silently cover less."""
    seen = Counter(type(event) for _, event in played.events)
    assert set(seen) == set(EVENT_KINDS), seen
    phases = {phase for _, phase, _, _ in played.decisions}
    assert phases == set(Phase) - {Phase.FINISHED}  # DECIDE_POIGNEE (hide) included


def test_events_as_the_runner_sends_them(played: Played) -> None:
    """Each event to each of its recipients in a row (wire serializes it once, on the first
    seat), with per-seat sequence numbers crossing varint lengths and 0 included."""
    sequences = [0] * 5
    for index, (seats, event) in enumerate(played.events):
        if index % 500 == 0:  # a new run of sequence numbers, from 0 or near a varint boundary
            start = SEQUENCE_STARTS[index // 500 % len(SEQUENCE_STARTS)]
            sequences = [start + seat for seat in range(5)]
        for seat in seats:
            check_event(TableEvent("table-1", seat, sequences[seat], event))
            sequences[seat] += 1


def test_events_with_table_ids_and_events_interleaved(played: Played) -> None:
    """The caches (last event by identity, last table id) must not leak one message's fields
    into the next: table ids change between seats of one event, and events alternate."""
    events = [event for _, event in played.events[:3_000]]
    for index, event in enumerate(events):
        for seat in range(5):
            table_id = TABLE_IDS[(index + seat) % len(TABLE_IDS)]
            check_event(TableEvent(table_id, seat, 16_384 * seat + index, event))
        previous = events[index - 1]
        for seat in (4, 0, 2):  # back and forth between two events
            check_event(TableEvent("table-1", seat, seat, previous))
            check_event(TableEvent("table-2", seat, 127 + seat, event))


def test_equal_events_that_are_different_objects() -> None:
    """The event cache is by identity: an equal but different event with other values next to
    it must not be mistaken for it, and an event made of default values is still sent."""
    for event in (
        CardPlayed(0, 0), CardPlayed(0, 1), CardPlayed(1, 0), CardCalled(0), CardCalled(0),
        PartnerRevealed(0), PartnerRevealed(3), CardDiscarded(0), TrumpDiscarded(21),
        ChelemDecided(0, False), ChelemDecided(0, True), ChienShown(()), ChienShown((0, 77)),
    ):
        for seat in (0, 1, 0):
            check_event(TableEvent("t", seat, seat, event))


def test_requests_as_the_runner_builds_them(played: Played) -> None:
    """Every decision of the deals, with request ids up to near 2**64, time banks of 0 and not,
    each table id (legal actions are framed from a cache shared by every request)."""
    request_id = 0
    for index, (seat, phase, legal, hand) in enumerate(played.decisions):
        if index % 300 == 0:
            request_id = REQUEST_ID_STARTS[index // 300 % len(REQUEST_ID_STARTS)]
        check_request(DecisionRequest(
            TABLE_IDS[index % len(TABLE_IDS)], seat, request_id, phase, legal,
            TIME_LIMITS[index % len(TIME_LIMITS)], TIME_BANKS[index % len(TIME_BANKS)], hand,
        ))
        request_id += 1


def test_request_with_large_ids_and_empty_lists(played: Played) -> None:
    """Field values at their limits, and a request with no legal action or no hand."""
    seat, phase, legal, hand = played.decisions[0]
    for request_id in VARINTS:
        for actions, cards in ((legal, hand), ((), hand), (legal, ()), ((), ())):
            check_request(DecisionRequest("tablé-ü-東", seat, request_id, phase, actions,
                                          4_000_000.0, 0.0, cards))


def test_non_ascii_table_id_round_trips(played: Played) -> None:
    """The table id is framed by its UTF-8 length, not its number of characters."""
    table_id = "tablé-ü-東"
    assert len(table_id.encode()) > len(table_id)
    _, event = played.events[0]
    for seat in (0, 1):
        for other in ("ascii", table_id):  # the cached table id changes, then comes back
            data = wire.event(TableEvent(other, seat, 0, event))
            assert pb.ArenaMessage.FromString(data).event.table_id == other
            data = wire.event(TableEvent(table_id, seat, 300, event))
            assert pb.ArenaMessage.FromString(data).event.table_id == table_id
    seat, phase, legal, hand = played.decisions[0]
    data = wire.request(DecisionRequest(table_id, seat, 1, phase, legal, 1.0, 0.0, hand))
    assert pb.ArenaMessage.FromString(data).request.table_id == table_id


def test_empty_table_id() -> None:
    """An empty table id is written as an empty field, which protobuf reads as the default
    (two bytes more than protobuf writes, but the same message)."""
    event = CardPlayed(2, 5)
    for message in (TableEvent("", 0, 0, event), TableEvent("a", 1, 1, event),
                    TableEvent("", 2, 2, event)):
        assert pb.ArenaMessage.FromString(wire.event(message)) == convert.event_to_pb(message)


def mixed_messages(played: Played) -> list[bytes]:
    """Encoded ArenaMessages of every kind a batch carries, in a varied order."""
    seat, phase, legal, hand = played.decisions[-1]
    notice = Notice("tablé-ü-東", 1, 2**40, InfractionKind.TIMEOUT, "too slow", legal[0])
    welcome = pb.ArenaMessage(welcome=pb.Welcome(bot_id="bot", protocol_version=1))
    return [
        wire.event(TableEvent("t", 0, 0, played.events[0][1])),
        wire.request(DecisionRequest("t", seat, 2**33, phase, legal, 1.0, 0.5, hand)),
        wire.serialize(convert.notice_to_pb(notice)),
        wire.event(TableEvent("t", 3, 16_384, played.events[-1][1])),
        wire.serialize(welcome),
        wire.event(TableEvent("tablé-ü-東", 1, 128, played.events[-1][1])),
        wire.request(DecisionRequest("t", seat, 0, phase, legal[:1], 1.0, 0.0, ())),
    ]


def test_batch_holds_its_messages_in_order(played: Played) -> None:
    """A batch parses to a MessageBatch of exactly the parts, as protobuf would write it."""
    parts = mixed_messages(played)
    for chosen in (parts, parts[:1], parts[::-1], [], parts * 30):
        data = wire.batch(chosen)
        parsed = pb.ArenaMessage.FromString(data)
        assert parsed.WhichOneof("kind") == "batch"
        messages = [pb.ArenaMessage.FromString(part) for part in chosen]
        assert list(parsed.batch.messages) == messages
        expected = pb.ArenaMessage(batch=pb.MessageBatch(messages=messages))
        assert parsed == expected
        assert len(data) == expected.ByteSize()


@pytest.mark.parametrize("most", [1, 2, 3])
@pytest.mark.parametrize("count", [0, 1, 5, 7])
def test_batches_chunk_and_keep_the_order(played: Played, most: int, count: int) -> None:
    """At most ``most`` per stream message, a lone message sent unwrapped, nothing lost."""
    parts = mixed_messages(played)[:count]
    chunks = wire.batches(iter(parts), most)
    assert len(chunks) == math.ceil(count / most)
    received: list[pb.ArenaMessage] = []
    for start, chunk in zip(range(0, count, most), chunks, strict=True):
        size = min(most, count - start)
        parsed = pb.ArenaMessage.FromString(chunk)
        if size == 1:
            assert chunk == parts[start]
            assert parsed.WhichOneof("kind") != "batch"
        else:
            assert parsed.WhichOneof("kind") == "batch"
            assert len(parsed.batch.messages) == size
        received.extend(convert.unbatch(parsed))
    assert received == [pb.ArenaMessage.FromString(part) for part in parts]


def boundaries() -> Iterator[int]:
    """Every value up to past the small-value table, and both sides of each length change."""
    yield from range(20_000)
    for bits in range(7, 64, 7):
        yield from (2**bits - 1, 2**bits, 2**bits + 1)
    yield from VARINTS


def test_varint_matches_protobuf() -> None:
    """``varint(n)`` is the bytes protobuf writes for a uint64 field n, after its tag (0x10 for
    DecisionRequest.request_id; 0 is not written, so it is read back instead)."""
    for value in boundaries():
        encoded = wire.varint(value)
        if value:
            assert b"\x10" + encoded == pb.DecisionRequest(request_id=value).SerializeToString()
        assert pb.DecisionRequest.FromString(b"\x10" + encoded).request_id == value
    assert wire.varint(0) == b"\x00"


def test_delimited_and_serialize() -> None:
    """``delimited`` frames a sub-message as protobuf does; ``serialize`` is protobuf's."""
    inner = pb.DecisionRequest(table_id="é" * 100, request_id=7)  # longer than 127 bytes
    request_tag = b"\x22"  # ArenaMessage.request: field 4, length-delimited
    framed = wire.delimited(request_tag, inner.SerializeToString())
    assert framed == pb.ArenaMessage(request=inner).SerializeToString()
    assert wire.delimited(request_tag, b"") == pb.ArenaMessage(
        request=pb.DecisionRequest()
    ).SerializeToString()
    message = pb.ArenaMessage(welcome=pb.Welcome(bot_id="b"))
    assert wire.serialize(message) == message.SerializeToString()
