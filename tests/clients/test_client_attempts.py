"""The SDK and a table the arena plays again after a restart: same table id, a fresh
TableStart, new requests. Nothing decided for the earlier attempt may answer them.

Driven message by message through the client's dispatch with a stand-in stream: the point is
what the client does with each message, whatever the arena's request ids are.
"""

from __future__ import annotations

from typing import Any

import trio
import trio.testing

from arena.games.french_tarot import GameState, TableOptions, legal_actions, observe, seeded_deal
from arena.games.french_tarot.cards import cards_of
from arena.proto_gen.tarot_arena.v1 import arena_pb2 as pb
from arena.table import DecisionRequest, TableStart
from clients.sdk import ArenaClient, Bot, TableView
from tests.table.fakes import players_of


class FakeStream:
    def __init__(self, number: int) -> None:
        self.id = number
        self.sent: list[pb.BotMessage] = []
        self.reader: Any = None

    def send(self, message: pb.BotMessage) -> None:
        self.sent.append(message)


class Counting(Bot):
    """The last legal action; counts the requests it was asked."""

    threaded = False

    def __init__(self) -> None:
        self.asked: list[DecisionRequest] = []

    def decide(self, table: TableView, request: DecisionRequest) -> Any:
        self.asked.append(request)
        return request.legal_actions[-1]


def attempt(seed: int, resumed: bool = False) -> tuple[TableStart, DecisionRequest]:
    """The first request of table "replayed" as dealt by ``seed``, under request id 7."""
    options = TableOptions(4)
    state = GameState(seeded_deal(seed, 4, 0), options)
    seat = state.to_act
    assert seat is not None
    start = TableStart("replayed", seat, options, state.dealer, tuple(players_of(4)),
                       observe(state, seat), resumed=resumed)
    request = DecisionRequest("replayed", seat, 7, state.phase, tuple(legal_actions(state)),
                              1.0, 0.0, tuple(cards_of(state.hands[seat])))
    return start, request


async def deliver(client: ArenaClient, stream: FakeStream, *messages: object) -> None:
    client._stream = stream  # type: ignore[assignment]
    for message in messages:
        await client._dispatch(stream, message)  # type: ignore[arg-type]
    client._decide_queued()  # as _receive does once what was read is in
    await trio.testing.wait_all_tasks_blocked()


async def test_a_fresh_table_start_forgets_the_answers_of_the_earlier_attempt() -> None:
    bot = Counting()
    client = ArenaClient(bot, "127.0.0.1:1", "tka_unused")
    async with trio.open_nursery() as nursery:
        client._nursery = nursery
        before, after = FakeStream(1), FakeStream(2)
        await deliver(client, before, *attempt(seed=1))
        assert len(bot.asked) == 1 and len(before.sent) == 1
        # The arena restarted and deals the table again: a new stream, a fresh TableStart,
        # a request with the same id (an arena that reuses ids) but another hand.
        start, request = attempt(seed=2)
        await deliver(client, after, start, request)
        assert bot.asked[-1] == request  # decided anew, not answered from the cache
        (sent,) = after.sent
        assert sent.decision.request_id == 7
        assert client.tables[(start.table_id, start.seat)].hand == start.view.hand


async def test_a_resumed_table_start_keeps_the_answer_already_decided() -> None:
    bot = Counting()
    client = ArenaClient(bot, "127.0.0.1:1", "tka_unused")
    async with trio.open_nursery() as nursery:
        client._nursery = nursery
        before, after = FakeStream(1), FakeStream(2)
        start, request = attempt(seed=1)
        await deliver(client, before, start, request)
        # The same arena, after a reconnection: the table resumed, the request re-sent.
        resumed, _ = attempt(seed=1, resumed=True)
        await deliver(client, after, resumed, request)
        assert len(bot.asked) == 1  # not decided twice
        assert [m.decision for m in after.sent] == [m.decision for m in before.sent]
