"""The SDK against a real arena on a loopback port: tables in parallel, reconnection, refusal,
stopping."""

from __future__ import annotations

import logging
import random
import threading

import grpc
import pytest
import trio

from arena.proto_gen.tarot_arena.v1 import arena_pb2 as pb
from clients.random_bot import RandomBot
from clients.sdk import (
    Action,
    ArenaClient,
    ArenaRejectedError,
    Backoff,
    DecisionRequest,
    TableEnd,
    TableView,
)
from clients.sdk._link import MAX_BATCH, _batched

from .conftest import FAST_BACKOFF, Arena, CuttableProxy, RecordingBot, eventually


def assert_clean(outcomes: dict[str, object]) -> None:
    for table_id, outcome in outcomes.items():
        assert outcome.infractions == [], table_id  # type: ignore[attr-defined]


@pytest.mark.parametrize("batching", [True, False], ids=["batched", "one-by-one"])
async def test_several_bots_play_several_tables_at_once(arena: Arena, batching: bool) -> None:
    bots = [RecordingBot(seed=i) for i in range(4)]
    clients = [await arena.client(bot, i, max_tables=4, batching=batching)
               for i, bot in enumerate(bots)]
    tables = [(f"t{k}", arena.ids(*[(k + s) % 4 for s in range(4)]), k) for k in range(4)]
    outcomes = await arena.play_many(tables)
    assert_clean(outcomes)
    await eventually(lambda: all(len(bot.ends) == 4 for bot in bots))
    for bot, client in zip(bots, clients, strict=True):
        assert len(bot.ends) == 4 and client.tables == {} and bot.notices == []
        assert client.welcome is not None and client.welcome.max_tables == 4
        assert client.welcome.batching is batching
        for (table_id, seat), end in bot.ends.items():
            assert end.result.scores == outcomes[table_id].result.scores
            view = bot.last_views[(table_id, seat)]
            assert view.tricks == tuple(outcomes[table_id].state.tricks)
            assert view.hand == ()


async def test_one_connection_holds_every_seat_of_several_tables(arena: Arena) -> None:
    bot = RecordingBot()
    client = await arena.client(bot, max_tables=8)
    outcomes = await arena.play_many([(f"t{k}", arena.ids(0, 0, 0, 0), k) for k in range(2)])
    assert_clean(outcomes)
    await eventually(lambda: len(bot.ends) == 8)
    assert sorted(bot.ends) == [(f"t{k}", s) for k in range(2) for s in range(4)]
    assert client.tables == {} and client.connections == 1


async def test_the_same_tables_give_the_same_decisions_whatever_the_timing(
    arena: Arena,
) -> None:
    await arena.client(RandomBot(seed=11), max_tables=16)
    tables = [(f"t{k}", arena.ids(0, 0, 0, 0), k) for k in range(3)]
    together = await arena.play_many(tables)
    one_by_one = {t[0]: (await arena.play_many([t]))[t[0]] for t in tables}
    for table_id, outcome in together.items():
        assert outcome.record.actions == one_by_one[table_id].record.actions


class SlowAtOneTable(RandomBot):
    """Blocks its first decision at table "slow" until table "fast" is over."""

    threaded = True

    def __init__(self) -> None:
        super().__init__()
        self.fast_over = threading.Event()
        self.order: list[str] = []

    def decide(self, table: TableView, request: DecisionRequest) -> Action:
        if table.table_id == "slow" and table.decisions == 1:
            assert self.fast_over.wait(5)
        return super().decide(table, request)

    def on_table_end(self, table: TableView, end: TableEnd) -> None:
        if table.seat == 0:
            self.order.append(table.table_id)
        if table.table_id == "fast":
            self.fast_over.set()


async def test_a_slow_decision_does_not_hold_up_other_tables(arena: Arena) -> None:
    bot = SlowAtOneTable()
    await arena.client(bot, max_tables=8)
    outcomes = await arena.play_many(
        [("slow", arena.ids(0, 0, 0, 0), 1), ("fast", arena.ids(0, 0, 0, 0), 2)],
        per_decision=3.0,
    )
    assert_clean(outcomes)
    await eventually(lambda: len(bot.order) == 2)
    assert bot.order == ["fast", "slow"]


class CutsOnce(RecordingBot):
    """Calls ``cut`` while deciding its ``at``-th card, then answers: the answer is computed
    while the stream is breaking and must reach the arena over the next one."""

    def __init__(self, cut: object, at: int = 12) -> None:
        super().__init__()
        self.cut = cut
        self.at = at
        self.plays = 0

    async def play(self, table: TableView, request: DecisionRequest) -> Action:
        self.plays += 1
        if self.plays == self.at:
            self.cut()  # type: ignore[operator]
            await trio.sleep(0.01)
        return self.decide(table, request)


async def assert_resumed_everything(bot: RecordingBot, client: ArenaClient) -> None:
    await eventually(lambda: len(bot.ends) == 8)
    assert client.connections == 2 and client.tables == {}
    resumed = {key for key, again in bot.starts if again}
    assert resumed and resumed <= {key for key, again in bot.starts if not again}
    assert len(bot.ends) == 8 and bot.notices == []


async def test_a_bot_reconnects_after_its_stream_is_cut(
    arena: Arena, proxy: CuttableProxy
) -> None:
    bot = CutsOnce(proxy.cut)
    client = await arena.client(bot, address=proxy.address, max_tables=8)
    outcomes = await arena.play_many(
        [(f"t{k}", arena.ids(0, 0, 0, 0), k) for k in range(2)], per_decision=2.0
    )
    assert proxy.cuts == 1
    assert_clean(outcomes)
    await assert_resumed_everything(bot, client)


async def test_a_bot_reconnects_when_the_arena_ends_its_stream(arena: Arena) -> None:
    def close_connections() -> None:
        for connection in list(arena.server.connections.values()):
            connection.close()

    bot = CutsOnce(close_connections)
    client = await arena.client(bot, max_tables=8)
    outcomes = await arena.play_many(
        [(f"t{k}", arena.ids(0, 0, 0, 0), k) for k in range(2)], per_decision=2.0
    )
    assert_clean(outcomes)
    await assert_resumed_everything(bot, client)


class GoesAwayAtOnce(RecordingBot):
    """Loses its connection, with no way back for a while, during its first decision."""

    def __init__(self, proxy: CuttableProxy) -> None:
        super().__init__()
        self.proxy = proxy

    async def bid(self, table: TableView, request: DecisionRequest) -> Action:
        if not self.proxy.cuts:
            self.proxy.refuse = True
            self.proxy.cut()
        return self.decide(table, request)


async def test_a_table_that_ended_while_the_bot_was_away_ends_when_it_comes_back(
    arena: Arena, proxy: CuttableProxy
) -> None:
    bot = GoesAwayAtOnce(proxy)
    client = await arena.client(bot, address=proxy.address, max_tables=4, resume_grace=5.0)
    outcome = await arena.play("gone", arena.ids(0, 0, 0, 0), per_decision=0.5)
    assert {i.kind.value for i in outcome.infractions} == {"disconnected"}
    assert len(client.tables) == 4  # it cannot know yet
    proxy.refuse = False
    # the arena kept the TableEnds and hands them over on the new connection
    await eventually(lambda: client.connections == 2 and client.tables == {})
    assert len(bot.ends) == 4


class Clumsy(RecordingBot):
    """Raises at its first decision, answers an illegal action at its second."""

    def decide(self, table: TableView, request: DecisionRequest) -> Action:
        if table.table_id == "clumsy" and table.seat == 0 and table.decisions == 1:
            raise RuntimeError("bug in the bot")
        if table.table_id == "clumsy" and table.seat == 0 and table.decisions == 2:
            return "call AS"  # type: ignore[return-value]  # never legal with four players
        return super().decide(table, request)


async def test_a_failing_or_illegal_decision_costs_an_infraction_not_the_connection(
    arena: Arena,
) -> None:
    bot = Clumsy()
    client = await arena.client(bot, max_tables=4)
    outcome = await arena.play("clumsy", arena.ids(0, 0, 0, 0), seed=4, per_decision=0.3)
    assert [(i.seat, i.kind.value) for i in outcome.infractions] == [
        (0, "timeout"), (0, "illegal-action")
    ]
    await eventually(lambda: len(bot.ends) == 4)
    assert [(n.seat, n.kind.value) for n in bot.notices] == [  # type: ignore[attr-defined]
        (0, "timeout"), (0, "illegal-action")
    ]
    assert client.connections == 1


async def test_a_bad_token_is_a_clear_error_not_a_retry(arena: Arena) -> None:
    client = ArenaClient(RandomBot(), arena.address, "tka_not-a-token", backoff=FAST_BACKOFF)
    with trio.fail_after(5), pytest.raises(ArenaRejectedError) as info:
        await client.run()
    assert info.value.code is grpc.StatusCode.UNAUTHENTICATED
    assert "unknown or revoked bot token" in str(info.value)
    assert client.connections == 0


async def test_an_unreachable_arena_is_retried_with_backoff(
    caplog: pytest.LogCaptureFixture,
) -> None:
    with trio.socket.socket() as sock:  # a port nobody listens on
        await sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    client = ArenaClient(RandomBot(), f"127.0.0.1:{port}", "tka_x", backoff=FAST_BACKOFF)
    with caplog.at_level(logging.WARNING, "clients.sdk"), trio.move_on_after(0.4):
        await client.run()
    retries = [r for r in caplog.records if "retrying in" in r.getMessage()]
    assert len(retries) >= 2 and "UNAVAILABLE" in retries[0].getMessage()
    assert retries[0].getMessage().startswith(f"cannot connect to 127.0.0.1:{port} ")


async def test_stopping_the_bot_closes_its_stream_at_once(arena: Arena) -> None:
    client = ArenaClient(RandomBot(), arena.address, arena.bots[0][1])
    async with trio.open_nursery() as nursery:
        await nursery.start(client.run)
        assert arena.server.connected_bots() == {arena.bots[0][0]: 1}
        began = trio.current_time()
        nursery.cancel_scope.cancel()
    assert trio.current_time() - began < 0.5
    with trio.fail_after(2):
        while arena.server.connected_bots():
            await trio.sleep(0.01)


def test_backoff_grows_to_its_cap_with_jitter_below_the_nominal_delay() -> None:
    backoff = Backoff(initial=0.1, maximum=1.0, multiplier=2.0, jitter=0.5)
    rng = random.Random(1)
    for failures, nominal in [(0, 0.1), (1, 0.2), (3, 0.8), (4, 1.0), (100, 1.0)]:
        delays = [backoff.delay(failures, rng) for _ in range(50)]
        assert all(nominal * 0.5 <= d <= nominal for d in delays)
    with pytest.raises(ValueError):
        Backoff(initial=0)


def test_decisions_queued_together_leave_as_one_decision_batch() -> None:
    """What the SDK's writer sends when several answers are ready at once (``_batched``)."""

    def decision(request_id: int) -> pb.BotMessage:
        return pb.BotMessage(decision=pb.Decision(table_id="t", request_id=request_id,
                                                  action=pb.Action(play=request_id)))

    [message] = _batched([decision(1), decision(2), decision(3)])
    assert [d.request_id for d in message.decisions.decisions] == [1, 2, 3]
    assert _batched([decision(4)]) == [decision(4)]
    many = _batched([decision(n) for n in range(MAX_BATCH + 1)])
    assert len(many[0].decisions.decisions) == MAX_BATCH and many[1] == decision(MAX_BATCH)
