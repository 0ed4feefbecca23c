"""The SDK's receive loop reads events and requests by their kind, and drains what is already
in the stream's channel before deciding: the views and answers must be those of the generic
reading, message by message through ``arena_message_from_pb`` and the client's dispatch."""

from __future__ import annotations

import functools
import math
from typing import Any

import grpc
import pytest
import trio
import trio.testing

from arena import games
from arena.games.french_tarot import GameState, TableOptions, observe, seeded_deal
from arena.proto_gen.tarot_arena.v1 import arena_pb2 as pb
from arena.table import DecisionRequest, TableEvent, TableStart
from arena.transport import convert, wire
from clients.sdk import ArenaClient
from clients.sdk._link import Stream, StreamEnded
from tests.clients.test_client_attempts import Counting, FakeStream
from tests.table.fakes import players_of


def a_seat_of_a_deal(seat: int, decisions: int) -> list[bytes]:
    """What the arena sends ``seat`` over the first ``decisions`` of a deal, as encoded: its
    TableStart, its events, its requests; and an event of a seat it does not hold."""
    game = games.game()
    state = GameState(seeded_deal(23, 4, 0), TableOptions(4))
    start = TableStart("t", seat, state.options, state.dealer, tuple(players_of(4)),
                       observe(state, seat), game=game)
    out = [convert.start_to_pb(start).SerializeToString()]
    sequence = 0
    for number in range(decisions):
        to_act = state.to_act
        assert to_act is not None
        legal = tuple(game.legal_actions(state))
        if to_act == seat:
            out.append(wire.request(DecisionRequest(
                "t", seat, number + 1, state.phase, legal, 1.0, 0.0, game.hand(state, seat),
                game.decision_kind(state), seat)))
        for recipient, event in game.apply(state, legal[-1], to_act):
            if recipient in (None, seat):
                out.append(wire.event(TableEvent("t", seat, sequence, event)))
                sequence += 1
    out.append(wire.event(TableEvent("t", (seat + 1) % 4, 0, event)))  # not held: ignored
    return out


class ChannelStream(FakeStream):
    def __init__(self, messages: list[pb.ArenaMessage]) -> None:
        super().__init__(1)
        send, self.messages = trio.open_memory_channel[Any](math.inf)
        for message in messages:
            send.send_nowait(message)
        send.send_nowait(StreamEnded(grpc.StatusCode.OK, ""))


def client_of(bot: Counting) -> ArenaClient:
    client = ArenaClient(bot, "127.0.0.1:1", "tka_unused")
    client.clock = lambda: 0.0  # type: ignore[method-assign]
    return client


async def test_the_receive_loop_leaves_the_views_and_answers_of_the_generic_reading() -> None:
    seat = 1
    encoded = a_seat_of_a_deal(seat, 40)
    # In stream messages of one to three arena messages each, batched as the arena does.
    grouped, taken = [], 0
    while taken < len(encoded):
        size = 1 + len(grouped) % 3
        grouped.append(encoded[taken:taken + size])
        taken += size
    stream_messages = [pb.ArenaMessage.FromString(wire.batch(g) if len(g) > 1 else g[0])
                       for g in grouped]

    read_bot = Counting()
    read = client_of(read_bot)
    read_stream = ChannelStream(stream_messages)
    generic_bot = Counting()
    generic = client_of(generic_bot)
    generic_stream = FakeStream(1)
    async with trio.open_nursery() as nursery:
        read._nursery = generic._nursery = nursery
        read._stream = read_stream  # type: ignore[assignment]
        ended = await read._receive(read_stream, trio.TASK_STATUS_IGNORED)  # type: ignore[arg-type]
        generic._stream = generic_stream  # type: ignore[assignment]
        for message in stream_messages:
            for part in convert.unbatch(message):
                await generic._dispatch(generic_stream,  # type: ignore[arg-type]
                                        convert.arena_message_from_pb(part))
        generic._decide_queued()
    assert ended.code is grpc.StatusCode.OK
    assert len(read_bot.asked) > 5 and read_bot.asked == generic_bot.asked
    assert read.tables == generic.tables and list(read.tables) == [("t", seat)]
    assert read.tables["t", seat].next_sequence > 20
    assert [m.decision for m in read_stream.sent] == [m.decision for m in generic_stream.sent]


class _NoBridge:
    def to_asyncio(self, fn: Any, *args: Any) -> None:
        pass


class LiveStream(Stream):
    """The SDK's stream without its call: messages handed to it as the bridge does (``deliver``
    is ``Stream._deliver``: to its ``reader`` once set, else through its channel)."""

    def __init__(self) -> None:
        super().__init__("127.0.0.1:1", pb.BotMessage(), bridge=_NoBridge())  # type: ignore[arg-type]
        self.sent: list[pb.BotMessage] = []
        self.deliver = self._deliver

    def send(self, message: pb.BotMessage) -> None:
        self.sent.append(message)


class Hooked(Counting):
    def on_table_end(self, table: Any, end: Any) -> None:
        pass


class Threaded(Counting):
    threaded = True


async def test_a_bot_without_hooks_reads_each_message_in_the_call_that_brings_it() -> None:
    """Once its channel is empty, a hookless bot's stream messages are read (and a plain bot's
    requests decided) in the bridge's call that brings them, which says it woke no trio task:
    the same views and answers as the receive loop's, in order."""
    seat = 2
    encoded = a_seat_of_a_deal(seat, 40)
    messages = [pb.ArenaMessage.FromString(m) for m in encoded]
    reference_bot = Counting()
    reference = client_of(reference_bot)
    reference_stream = ChannelStream(messages)
    bot = Counting()
    client = client_of(bot)
    stream = LiveStream()
    async with trio.open_nursery() as nursery:
        reference._nursery = client._nursery = nursery
        reference._stream = reference_stream  # type: ignore[assignment]
        await reference._receive(reference_stream, trio.TASK_STATUS_IGNORED)  # type: ignore[arg-type]
        client._stream = stream  # type: ignore[assignment]
        ended: list[StreamEnded] = []

        async def receive() -> None:
            ended.append(await client._receive(stream,  # type: ignore[arg-type]
                                               trio.TASK_STATUS_IGNORED))

        nursery.start_soon(receive)
        assert stream.deliver(messages[0]) is True  # the TableStart, through the channel
        await trio.testing.wait_all_tasks_blocked()
        assert stream.reader is not None
        assert [stream.deliver(m) for m in messages[1:]] == [False] * (len(messages) - 1)
        stream.deliver(StreamEnded(grpc.StatusCode.OK, ""))
    assert ended[0].code is grpc.StatusCode.OK
    assert len(bot.asked) > 5 and bot.asked == reference_bot.asked
    assert client.tables == reference.tables
    assert [m.decision for m in stream.sent] == [m.decision for m in reference_stream.sent]


async def test_a_bot_with_hooks_is_read_by_its_receiving_task_and_a_threaded_one_wakes_it(
) -> None:
    messages = [pb.ArenaMessage.FromString(m) for m in a_seat_of_a_deal(1, 8)]
    for bot, reads_at_once in ((Hooked(), False), (Threaded(), True)):
        client = client_of(bot)
        stream = LiveStream()
        async with trio.open_nursery() as nursery:
            client._nursery = nursery
            client._stream = stream  # type: ignore[assignment]
            nursery.start_soon(client._receive, stream,  # type: ignore[arg-type]
                               trio.TASK_STATUS_IGNORED)
            stream.deliver(messages[0])
            await trio.testing.wait_all_tasks_blocked()
            assert (stream.reader is not None) == reads_at_once
            woke = [stream.deliver(m) for m in messages[1:]]
            if reads_at_once:  # a threaded decision is a task of its own
                assert True in woke
            await trio.testing.wait_all_tasks_blocked()
            stream.deliver(StreamEnded(grpc.StatusCode.OK, ""))
        assert len(bot.asked) >= 1


class ByKind(Counting):
    """Plays by its own ``play``, returning a coroutine from a plain method for the bids."""

    def __init__(self) -> None:
        super().__init__()
        self.played = 0

    def play(self, table: Any, request: DecisionRequest) -> Any:
        self.played += 1
        return request.legal_actions[0]

    def bid(self, table: Any, request: DecisionRequest) -> Any:
        async def later() -> Any:
            self.asked.append(request)
            return request.legal_actions[-1]

        return later()


class OwnMethodFor(Counting):
    def __init__(self) -> None:
        super().__init__()
        self.looked_up = 0

    def method_for(self, request: DecisionRequest) -> Any:
        self.looked_up += 1
        return self.decide


async def test_each_request_gets_the_method_of_its_kind() -> None:
    """The client finds the method of each kind of decision once (by the bot's class), asks a
    bot's own ``method_for`` at every request, and awaits a coroutine a plain method returns."""
    messages = [pb.ArenaMessage.FromString(m) for m in a_seat_of_a_deal(0, 60)]
    requests = sum(m.WhichOneof("kind") == "request" for m in messages)
    by_kind = ByKind()
    own = OwnMethodFor()
    for bot in (by_kind, own):
        client = client_of(bot)
        stream = ChannelStream(messages)
        async with trio.open_nursery() as nursery:
            client._nursery = nursery
            client._stream = stream  # type: ignore[assignment]
            await client._receive(stream, trio.TASK_STATUS_IGNORED)  # type: ignore[arg-type]
        assert len(stream.sent) == requests
    assert by_kind.played >= 1 and len(by_kind.asked) >= 1
    assert by_kind.played + len(by_kind.asked) == requests
    assert own.looked_up == requests


async def test_an_error_reading_in_the_bridges_call_is_raised_by_the_receiving_task() -> None:
    """A bug met reading a message in the bridge's call ends the client as it did when the
    receiving task read every message: the error goes to that task, and the channel takes the
    messages after it."""
    messages = [pb.ArenaMessage.FromString(m) for m in a_seat_of_a_deal(0, 8)]
    client = client_of(Counting())
    stream = LiveStream()
    client._stream = stream  # type: ignore[assignment]
    stream.reader = functools.partial(client._read_at_once, stream)
    assert stream.deliver(messages[0]) is False  # the TableStart, read at once

    def broken(stream: Any, request: Any) -> None:
        raise RuntimeError("a bug")

    client._on_request = broken  # type: ignore[method-assign]
    request = next(m for m in messages if m.WhichOneof("kind") == "request")
    assert stream.deliver(request) is True
    assert stream.reader is None
    with pytest.raises(RuntimeError, match="a bug"):
        await client._receive(stream, trio.TASK_STATUS_IGNORED)
