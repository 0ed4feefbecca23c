"""End to end: a real :class:`ArenaServer` on a loopback port, bots in separate processes.

Bots are ``python -m tests.transport.bots`` (a raw synchronous gRPC client, see that module);
quick protocol probes use a synchronous gRPC client in a worker thread. Clocks are real, so
deadlines are short; a misbehaving bot's table gets a small time bank so that a well-behaved
seat at it survives a busy machine, and the control tables get a generous time per decision.

Every misbehaviour case plays a 5-player table with the misbehaving bot at seat 0 and a good
bot at the other seats, while the good bot also plays a control table. Both deals are then
replayed locally with the same deterministic choices: the control table must have been played
exactly as if nothing else happened, and at the misbehaving table every good seat must have
played its own choices (nobody answered for it) while seat 0 fell back when expected.
"""

from __future__ import annotations

import hashlib
import json
import queue
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import grpc
import pytest
import trio
from grpc_health.v1 import health_pb2, health_pb2_grpc
from grpc_reflection.v1alpha import reflection_pb2, reflection_pb2_grpc

from arena.games.french_tarot import (
    DealOutcome,
    DealRecord,
    GameState,
    TableOptions,
    replay,
    seeded_deal,
)
from arena.proto_gen.tarot_arena.v1 import arena_pb2 as pb
from arena.proto_gen.tarot_arena.v1 import arena_pb2_grpc as pb_grpc
from arena.storage.bots import BotRegistry
from arena.storage.db import make_engine
from arena.table import (
    BotGone,
    DecisionRequest,
    InfractionKind,
    TableOutcome,
    TableRunner,
    TimeControl,
)
from arena.transport import convert
from arena.transport.server import ArenaServer
from tests.table.fakes import FakeSeat, players_of

from . import bots

ROOT = Path(__file__).resolve().parents[2]
ADMIN_TOKEN = "admin-token-for-tests"
AUTH = (("authorization", f"Bearer {ADMIN_TOKEN}"),)
PLAYERS = 5
BAD_TABLE, CONTROL_TABLE = "bad-table", "control-table"
BAD_SEED, CONTROL_SEED = 5, 6
BAD_TIME = TimeControl(0.25, 1.0)
CONTROL_TIME = TimeControl(5.0)
SLOW_MODES = ("timeout", "late", "other_seat")

# ---------------------------------------------------------------------------- the harness

@dataclass
class BotProcess:
    bot_id: str
    token: str
    done: trio.Event = field(default_factory=trio.Event)
    result: subprocess.CompletedProcess[bytes] | None = None

    async def summary(self, timeout: float = 20.0) -> dict[str, Any]:
        """What the bot printed when it stopped (it stops after its last TableEnd)."""
        with trio.fail_after(timeout):
            await self.done.wait()
        assert self.result is not None
        stderr = self.result.stderr.decode(errors="replace")
        assert self.result.returncode == 0, stderr
        return json.loads(self.result.stdout.decode().splitlines()[-1])  # type: ignore[no-any-return]


@dataclass
class Arena:
    server: ArenaServer
    registry: BotRegistry
    port: int
    nursery: trio.Nursery
    db_path: Path

    @property
    def target(self) -> str:
        return f"127.0.0.1:{self.port}"

    def register(self, name: str) -> tuple[str, str]:
        bot, token = self.registry.register(name)
        return bot.id, token

    def bot(self, name: str, mode: str = "random", *args: str, tables: int = 1) -> BotProcess:
        bot_id, token = self.register(name)
        return self.start(BotProcess(bot_id, token), mode, *args, tables=tables)

    def start(self, process: BotProcess, mode: str, *args: str, tables: int = 1) -> BotProcess:
        command = [sys.executable, "-m", "tests.transport.bots", "--port", str(self.port),
                   "--token", process.token, "--mode", mode, "--tables", str(tables), *args]

        async def run() -> None:
            try:
                process.result = await trio.run_process(
                    command, cwd=ROOT, capture_stdout=True, capture_stderr=True, check=False
                )
            finally:
                process.done.set()

        self.nursery.start_soon(run)
        return process

    async def play(self, table_id: str, seed: int, bot_ids: list[str],
                   time_control: TimeControl) -> TableOutcome:
        deal = seeded_deal(seed, len(bot_ids), seed % len(bot_ids))
        return await self.server.play_table(
            table_id, GameState(deal, TableOptions(len(bot_ids))), bot_ids, time_control,
            seat_timeout=20,
        )

    async def call(self, fn: Any, *args: Any) -> Any:
        """``fn(channel, *args)`` in a worker thread, with a fresh channel to the arena."""

        def run() -> Any:
            with grpc.insecure_channel(self.target) as channel:
                return fn(channel, *args)

        return await trio.to_thread.run_sync(run)


@pytest.fixture
async def arena(nursery: trio.Nursery, tmp_path: Path, bridge_name: str) -> Arena:
    """A served arena, on each bridge in turn (see ``conftest.bridge_name``)."""
    db_path = tmp_path / "arena.db"
    registry = BotRegistry(make_engine(f"sqlite:///{db_path}"))
    server = ArenaServer(registry, admin_token=ADMIN_TOKEN)
    port = await nursery.start(server.serve)
    assert server.bridge is not None and server.bridge.name == bridge_name
    return Arena(server, registry, port, nursery, db_path)


async def good_choice(request: DecisionRequest) -> Any:
    """What ``bots.choose`` answers to this request, as a domain action."""
    return convert.action_from_pb(bots.choose(convert.request_to_pb(request).request))


async def gone(request: DecisionRequest) -> Any:
    raise BotGone("falls back")


async def expected_actions(table_id: str, seed: int, falls_back: set[int]) -> list[Any]:
    """The deal played locally: good choices, and the fallback for the seats in ``falls_back``."""
    seats = [FakeSeat(gone if seat in falls_back else good_choice) for seat in range(PLAYERS)]
    runner = TableRunner(table_id, GameState(seeded_deal(seed, PLAYERS, seed % PLAYERS),
                                             TableOptions(PLAYERS)), seats, players_of(PLAYERS))
    return list((await runner.run()).record.actions)


def infractions_by_seat(outcome: TableOutcome) -> dict[int, set[InfractionKind]]:
    kinds: dict[int, set[InfractionKind]] = {}
    for infraction in outcome.infractions:
        kinds.setdefault(infraction.seat, set()).add(infraction.kind)
    return kinds


def decisions_of(outcome: TableOutcome, seat: int) -> list[int]:
    return [d.index for d in outcome.decisions if d.seat == seat]


def check_complete(outcome: TableOutcome) -> None:
    assert outcome.state.is_over
    assert outcome.result.outcome is DealOutcome.PLAYED
    assert sum(outcome.result.scores) == 0
    assert replay(outcome.record).result == outcome.result


@dataclass
class Case:
    bad: TableOutcome
    control: TableOutcome
    summary: dict[str, Any]
    good_summary: dict[str, Any]

    def notices(self, kind: str) -> list[dict[str, Any]]:
        return [n for n in self.summary["notices"] if n["kind"] == kind]


async def misbehaving_case(arena: Arena, mode: str, *args: str) -> Case:
    """Seat 0 of the bad table is a ``mode`` bot; a good bot holds every other seat there and
    all five seats of the control table, played at the same time."""
    good = arena.bot("good", "random", tables=2 * PLAYERS - 1)
    bad = arena.bot(f"bad-{mode}", mode, "--other-table", CONTROL_TABLE, *args)
    outcomes: dict[str, TableOutcome] = {}

    async def play(table_id: str, seed: int, ids: list[str], control: TimeControl) -> None:
        outcomes[table_id] = await arena.play(table_id, seed, ids, control)

    with trio.fail_after(40):
        async with trio.open_nursery() as nursery:
            nursery.start_soon(play, BAD_TABLE, BAD_SEED, [bad.bot_id] + [good.bot_id] * 4,
                               BAD_TIME)
            nursery.start_soon(play, CONTROL_TABLE, CONTROL_SEED, [good.bot_id] * PLAYERS,
                               CONTROL_TIME)
    case = Case(outcomes[BAD_TABLE], outcomes[CONTROL_TABLE], await bad.summary(),
                await good.summary())
    check_complete(case.bad)
    check_complete(case.control)
    # The control table is untouched: no infraction, and played exactly as alone.
    assert case.control.infractions == []
    alone = await expected_actions(CONTROL_TABLE, CONTROL_SEED, set())
    assert list(case.control.record.actions) == alone
    # The good bot saw nothing wrong on either table.
    good_summary = case.good_summary
    assert good_summary["notices"] == [] and good_summary["errors"] == []
    assert good_summary["sequence_errors"] == 0 and good_summary["streams"] == 1
    assert sorted(e["table_id"] for e in good_summary["ends"]) == (
        [BAD_TABLE] * 4 + [CONTROL_TABLE] * PLAYERS
    )
    # At the bad table only seat 0 is ever at fault.
    assert set(infractions_by_seat(case.bad)) <= {0}
    assert case.summary["ends"] == [
        {"table_id": BAD_TABLE, "seat": 0, "scores": list(case.bad.result.scores)}
    ]
    return case


async def check_seat_0_always_fell_back(case: Case, kind: InfractionKind) -> None:
    mine = decisions_of(case.bad, 0)
    assert [i.decision_index for i in case.bad.infractions] == mine
    assert {i.kind for i in case.bad.infractions} == {kind}
    # Every other seat played its own choices: nobody answered for it.
    assert list(case.bad.record.actions) == await expected_actions(BAD_TABLE, BAD_SEED, {0})


# ------------------------------------------------------------------- misbehaving bots

async def test_a_bot_that_never_answers_times_out(arena: Arena) -> None:
    case = await misbehaving_case(arena, "timeout")
    await check_seat_0_always_fell_back(case, InfractionKind.TIMEOUT)
    first, *rest = case.bad.infractions
    assert first.message == "no answer within 1.250 s"  # the bank goes first
    assert {i.message for i in rest} == {"no answer within 0.250 s"}
    assert [n["kind"] for n in case.summary["notices"]] == ["TIMEOUT"] * len(case.bad.infractions)


async def test_illegal_answers_are_refused(arena: Arena) -> None:
    case = await misbehaving_case(arena, "illegal")
    await check_seat_0_always_fell_back(case, InfractionKind.ILLEGAL_ACTION)
    first, *rest = case.bad.infractions
    assert first.message.endswith("is not an action of the bidding phase")
    assert {i.message for i in rest} == {"pass is not an action of the playing phase"}
    assert [(n["kind"], n["message"]) for n in case.summary["notices"]] == [
        ("ILLEGAL_ACTION", i.message) for i in case.bad.infractions
    ]


async def test_late_answers_are_dropped_and_never_taken_for_the_next_request(
    arena: Arena,
) -> None:
    case = await misbehaving_case(arena, "late")
    # Every late answer arrived while the seat's next request was open, or after it: had one
    # been taken as an answer, seat 0 would have played something other than the fallback.
    await check_seat_0_always_fell_back(case, InfractionKind.TIMEOUT)
    late = case.notices("LATE_ANSWER")
    assert len(late) == case.summary["answers"] == len(decisions_of(case.bad, 0))
    assert all(n["message"].endswith("was already settled: answer dropped") for n in late)
    assert case.summary["late_while_next_open"] >= len(late) // 2
    timeouts = case.notices("TIMEOUT")
    assert sorted(n["request_id"] for n in late) == sorted(n["request_id"] for n in timeouts)
    assert case.notices("UNKNOWN_REQUEST") == []


async def test_a_bot_that_drops_its_stream_comes_back_and_finishes(arena: Arena) -> None:
    case = await misbehaving_case(arena, "disconnect", "--after", "3")
    # Away past the deadline: disconnected. The bank is gone by then, so a request re-sent as
    # it comes back may also run out of time.
    first = case.bad.infractions[0]
    assert first.kind is InfractionKind.DISCONNECTED
    assert first.message == "the bot was disconnected and did not come back in time"
    assert infractions_by_seat(case.bad)[0] <= {InfractionKind.DISCONNECTED,
                                                InfractionKind.TIMEOUT}
    assert len(case.bad.infractions) < len(decisions_of(case.bad, 0)) - 5
    summary = case.summary
    assert summary["streams"] == 2 and summary["received"]["welcome"] == 2
    start, again = summary["starts"]
    assert not start["resumed"] and again["resumed"]
    assert again["table_id"] == BAD_TABLE and again["seat"] == 0
    assert again["next_sequence"] > 0 and summary["sequence_errors"] == 0
    assert len(again["hand"]) < len(start["hand"])  # it had played cards before it left
    assert first.decision_index == decisions_of(case.bad, 0)[2]


async def test_a_bot_that_opens_a_new_stream_before_dropping_the_old_keeps_its_seat(
    arena: Arena,
) -> None:
    case = await misbehaving_case(arena, "disconnect", "--after", "3", "--handover")
    assert case.bad.infractions == []  # the open request was re-sent on the new stream
    summary = case.summary
    assert summary["streams"] == 2
    assert [s["resumed"] for s in summary["starts"]] == [False, True]
    assert summary["sequence_errors"] == 0
    assert list(case.bad.record.actions) == await expected_actions(BAD_TABLE, BAD_SEED, set())


async def test_garbage_is_refused_and_a_broken_stream_only_costs_that_stream(
    arena: Arena,
) -> None:
    case = await misbehaving_case(arena, "garbage")
    infractions = case.bad.infractions
    mine = decisions_of(case.bad, 0)
    assert [(i.kind, i.message, i.decision_index) for i in infractions[:2]] == [
        (InfractionKind.MALFORMED_ACTION,
         "the action is empty: set exactly one field of Action", mine[0]),
        (InfractionKind.MALFORMED_ACTION,
         "card 200 does not exist: cards are numbered 0..77", mine[1]),
    ]
    # The junk broke the stream at the third request; the bot came back at once.
    assert {i.kind for i in infractions[2:]} <= {InfractionKind.DISCONNECTED,
                                                 InfractionKind.TIMEOUT}
    assert len(infractions) < len(mine) - 5
    summary = case.summary
    assert summary["streams"] == 2
    assert [s["resumed"] for s in summary["starts"]] == [False, True]
    assert [n["kind"] for n in summary["notices"]][:2] == ["MALFORMED_ACTION"] * 2
    assert summary["errors"][:1] == ["INVALID_ARGUMENT"]  # told why its stream was closed


async def test_a_bot_cannot_answer_for_another_seat_table_or_bot(arena: Arena) -> None:
    case = await misbehaving_case(arena, "other_seat")
    # Its own requests time out; every answer it sent for a request that is not its own (other
    # seats of its table, the control table's seats, its request id with another table id)
    # was dropped: an empty Action taken anywhere would have been a MALFORMED_ACTION.
    await check_seat_0_always_fell_back(case, InfractionKind.TIMEOUT)
    dropped = case.notices("UNKNOWN_REQUEST") + case.notices("LATE_ANSWER")
    assert len(dropped) == case.summary["answers"] > 10 * len(decisions_of(case.bad, 0))
    assert {n["table_id"] for n in case.notices("UNKNOWN_REQUEST")} == {
        BAD_TABLE, CONTROL_TABLE
    }
    assert all(n["kind"] != "MALFORMED_ACTION" for n in case.summary["notices"])


async def test_each_decision_of_a_batch_is_checked_on_its_own(arena: Arena) -> None:
    case = await misbehaving_case(arena, "batched")
    # Its own answer in each batch was taken; the answer for the other table and the second,
    # illegal answer to the same request were dropped, and never replaced the first.
    assert case.bad.infractions == []
    assert list(case.bad.record.actions) == await expected_actions(BAD_TABLE, BAD_SEED, set())
    mine = len(decisions_of(case.bad, 0))
    unknown, late = case.notices("UNKNOWN_REQUEST"), case.notices("LATE_ANSWER")
    assert len(unknown) == len(late) == mine
    assert {n["table_id"] for n in unknown} == {CONTROL_TABLE}
    assert {n["table_id"] for n in late} == {BAD_TABLE}
    assert all(n["message"].endswith("was already settled: answer dropped") for n in late)


# -------------------------------------------------------------------------- handshake

def connect_with(channel: grpc.Channel, *messages: pb.BotMessage) -> grpc.StatusCode:
    """Open a stream, send ``messages`` and read to the end: the status it ends with."""
    stub = pb_grpc.BotServiceStub(channel)
    try:
        for _ in stub.Connect(iter(messages), timeout=10):
            pass
    except grpc.RpcError as exc:
        return exc.code()  # type: ignore[no-any-return]
    return grpc.StatusCode.OK


def hello(token: str, **fields: Any) -> pb.BotMessage:
    values = {"token": token, "bot_name": "probe", "bot_version": "1",
              "protocol_version": 1, "max_tables": 1, **fields}
    return pb.BotMessage(hello=pb.Hello(**values))


async def test_handshake_errors(arena: Arena) -> None:
    _, token = arena.register("probe")
    decision = pb.BotMessage(decision=pb.Decision(table_id="t", request_id=1))
    cases = [
        ([hello("tka_not-a-token")], grpc.StatusCode.UNAUTHENTICATED),
        ([hello("")], grpc.StatusCode.UNAUTHENTICATED),
        ([hello(token, protocol_version=3)], grpc.StatusCode.FAILED_PRECONDITION),
        ([hello(token, protocol_version=0)], grpc.StatusCode.FAILED_PRECONDITION),
        ([hello(token, protocol_version=2, games=["chess"])], grpc.StatusCode.INVALID_ARGUMENT),
        ([hello(token, games=["french-tarot"] * 33)], grpc.StatusCode.INVALID_ARGUMENT),
        ([decision, hello(token)], grpc.StatusCode.FAILED_PRECONDITION),
        ([hello(token, max_tables=0)], grpc.StatusCode.INVALID_ARGUMENT),
        ([hello(token, bot_name=" ")], grpc.StatusCode.INVALID_ARGUMENT),
        ([hello(token, protocol_version=2, games=["french-tarot"])], grpc.StatusCode.OK),
        ([hello(token)], grpc.StatusCode.OK),  # and the bot hangs up after the Welcome
    ]
    for messages, code in cases:
        assert await arena.call(connect_with, *messages) == code, messages
    with trio.fail_after(10):  # the one accepted connection is gone with its stream
        while arena.server.connections:
            await trio.sleep(0.01)


def stream(channel: grpc.Channel, first: pb.BotMessage) -> tuple[Any, queue.Queue[Any]]:
    outbox: queue.Queue[Any] = queue.Queue()
    outbox.put(first)

    def messages() -> Iterator[pb.BotMessage]:
        while (message := outbox.get()) is not None:
            yield message

    return pb_grpc.BotServiceStub(channel).Connect(messages()), outbox


async def test_an_oversize_message_ends_that_stream_only(arena: Arena) -> None:
    bot_id, token = arena.register("big")
    good = arena.bot("good", tables=2)
    channel = grpc.insecure_channel(arena.target)
    try:
        # Two streams of one bot on one HTTP/2 connection; the second sends 70 KB.
        keep, keep_outbox = stream(channel, hello(token))
        big, big_outbox = stream(channel, hello(token))

        def oversize() -> tuple[str, str]:
            assert next(keep).WhichOneof("kind") == "welcome"
            welcome = next(big)
            assert welcome.welcome.max_message_bytes == 64 * 1024
            big_outbox.put(pb.BotMessage(decision=pb.Decision(
                table_id="t", request_id=1, action=pb.Action(notation="x" * 70_000),
            )))
            try:
                for _ in big:
                    pass
            except grpc.RpcError as exc:
                return exc.code().name, exc.details() or ""
            return "OK", ""

        code, _ = await trio.to_thread.run_sync(oversize)
        assert code == "RESOURCE_EXHAUSTED"
        with trio.fail_after(10):  # the arena saw that stream end, and only that one
            while arena.server.connected_bots().get(bot_id) != 1:
                await trio.sleep(0.01)

        def play_on() -> int:  # the other stream plays a table as if nothing happened
            for message in keep:
                kind = message.WhichOneof("kind")
                if kind == "request":
                    request = message.request
                    keep_outbox.put(pb.BotMessage(decision=pb.Decision(
                        table_id=request.table_id, request_id=request.request_id,
                        action=bots.choose(request),
                    )))
                elif kind == "table_end":
                    keep_outbox.put(None)
                    return len(message.table_end.scores)
            return 0

        async with trio.open_nursery() as nursery:
            result: list[TableOutcome] = []

            async def play() -> None:
                result.append(await arena.play(
                    "after-oversize", 8, [bot_id, good.bot_id, good.bot_id], TimeControl(5.0)
                ))

            nursery.start_soon(play)
            assert await trio.to_thread.run_sync(play_on) == 3
        (outcome,) = result
        check_complete(outcome)
        assert outcome.infractions == []
    finally:
        channel.close()


# ---------------------------------------------------------------------- admin service

def admin(channel: grpc.Channel) -> pb_grpc.AdminServiceStub:
    return pb_grpc.AdminServiceStub(channel)


async def test_admin_calls_need_the_admin_token(arena: Arena) -> None:
    calls = [
        ("RegisterBot", pb.RegisterBotRequest(name="x")),
        ("ListBots", pb.ListBotsRequest()),
        ("RevokeBot", pb.RevokeBotRequest(bot_id="bot_x")),
        ("ListConnections", pb.ListConnectionsRequest()),
        ("PlayTable", pb.PlayTableRequest()),
    ]
    wrong = [
        None,
        (("authorization", "Bearer wrong"),),
        (("authorization", ADMIN_TOKEN),),
        (("authorization", f"Bearer {ADMIN_TOKEN}x"),),
    ]

    def probe(channel: grpc.Channel) -> list[tuple[str, str]]:
        stub = admin(channel)
        codes = []
        for method, request in calls:
            for metadata in wrong:
                try:
                    getattr(stub, method)(request, metadata=metadata, timeout=10)
                    codes.append((method, "OK"))
                except grpc.RpcError as exc:
                    codes.append((method, exc.code().name))
        return codes

    codes = await arena.call(probe)
    assert codes == [(method, "UNAUTHENTICATED") for method, _ in calls for _ in wrong]
    assert arena.registry.list() == []


async def test_register_shows_the_token_once_and_stores_only_its_hash(arena: Arena) -> None:
    def register(channel: grpc.Channel) -> tuple[pb.RegisterBotResponse, pb.ListBotsResponse]:
        stub = admin(channel)
        made = stub.RegisterBot(pb.RegisterBotRequest(name="alpha", owner="ann"), metadata=AUTH)
        listed = stub.ListBots(pb.ListBotsRequest(), metadata=AUTH)
        return made, listed

    made, listed = await arena.call(register)
    assert made.token.startswith("tka_") and len(made.token) > 40
    assert made.bot_id.startswith("bot_")
    (info,) = listed.bots
    assert (info.bot_id, info.name, info.owner, info.revoked) == (made.bot_id, "alpha", "ann",
                                                                   False)
    assert made.token.encode() not in listed.SerializeToString()
    # The database file holds the token's SHA-256 hash, never the token.
    arena.registry.engine.dispose()
    stored = b"".join(p.read_bytes() for p in arena.db_path.parent.glob("arena.db*"))
    assert hashlib.sha256(made.token.encode()).hexdigest().encode() in stored
    assert made.token.encode() not in stored
    assert made.token.removeprefix("tka_").encode() not in stored
    # The token works, once, for what it was made for: connecting.
    assert await arena.call(connect_with, hello(made.token)) == grpc.StatusCode.OK


async def test_list_bots_and_connections(arena: Arena) -> None:
    good = arena.bot("lister", tables=1)
    await arena.server.wait_for_bots([good.bot_id], timeout=15)
    arena.register("idle")

    def lists(channel: grpc.Channel) -> tuple[pb.ListBotsResponse, pb.ListConnectionsResponse]:
        stub = admin(channel)
        return (stub.ListBots(pb.ListBotsRequest(), metadata=AUTH),
                stub.ListConnections(pb.ListConnectionsRequest(), metadata=AUTH))

    listed, connections = await arena.call(lists)
    assert [(b.name, b.connections) for b in listed.bots] == [("lister", 1), ("idle", 0)]
    (connection,) = connections.connections
    assert (connection.bot_id, connection.bot_name, connection.max_tables, connection.tables) == (
        good.bot_id, "test-random", 16, 0
    )


async def test_revoking_a_bot_closes_its_connections_and_ends_its_open_request(
    arena: Arena,
) -> None:
    good = arena.bot("good", tables=3)  # stays connected after its two seats
    silent = arena.bot("silent", "timeout")
    server = arena.server
    result: list[TableOutcome] = []

    async def play() -> None:
        result.append(await arena.play(
            "revoked", 3, [silent.bot_id, good.bot_id, good.bot_id], TimeControl(10.0)
        ))

    def revoke(channel: grpc.Channel, bot_id: str) -> tuple[bool, bool, str]:
        stub = admin(channel)
        first = stub.RevokeBot(pb.RevokeBotRequest(bot_id=bot_id), metadata=AUTH).revoked
        again = stub.RevokeBot(pb.RevokeBotRequest(bot_id=bot_id), metadata=AUTH).revoked
        try:
            stub.RevokeBot(pb.RevokeBotRequest(bot_id="bot_unknown"), metadata=AUTH)
            missing = "OK"
        except grpc.RpcError as exc:
            missing = exc.code().name
        return first, again, missing

    with trio.fail_after(20):
        async with trio.open_nursery() as nursery:
            nursery.start_soon(play)
            while not any(c.pending for c in server.connections.values()
                          if c.bot_id == silent.bot_id):
                await trio.sleep(0.01)
            assert await arena.call(revoke, silent.bot_id) == (True, False, "NOT_FOUND")
    (outcome,) = result
    assert outcome.state.is_over and sum(outcome.result.scores) == 0
    mine = decisions_of(outcome, 0)
    assert [i.decision_index for i in outcome.infractions] == mine
    assert {(i.kind, i.message) for i in outcome.infractions} == {
        (InfractionKind.DISCONNECTED, "the bot is gone: the bot's token was revoked")
    }
    # The open request ended at once, not after its ten seconds.
    assert all(outcome.decisions[i].seconds < 5.0 for i in mine)
    summary = await silent.summary()  # the arena closed its stream, so it stopped
    assert summary["ends"] == [] and summary["streams"] == 1
    assert await arena.call(connect_with, hello(silent.token)) == grpc.StatusCode.UNAUTHENTICATED
    listed = await arena.call(lambda ch: admin(ch).ListBots(pb.ListBotsRequest(), metadata=AUTH))
    state = {b.name: (b.revoked, b.connections) for b in listed.bots}
    assert state["silent"] == (True, 0)
    assert state["good"] == (False, 1)


async def test_play_table_returns_the_result_and_the_infractions(arena: Arena) -> None:
    good = arena.bot("good", tables=2)
    cheat = arena.bot("cheat", "illegal")
    await arena.server.wait_for_bots([good.bot_id, cheat.bot_id], timeout=15)

    def play(channel: grpc.Channel, request: pb.PlayTableRequest) -> Any:
        try:
            return admin(channel).PlayTable(request, metadata=AUTH, timeout=30)
        except grpc.RpcError as exc:
            return exc.code().name

    request = pb.PlayTableRequest(
        options=pb.TableOptions(players=3), seed=4, dealer=1,
        bot_ids=[cheat.bot_id, good.bot_id, good.bot_id],
        time_control=pb.TimeControl(per_decision_ms=5000), table_id="admin-table",
    )
    response = await arena.call(play, request)
    assert response.table_id == "admin-table"
    end = response.end
    assert end.table_id == "admin-table" and len(end.scores) == 3 and sum(end.scores) == 0
    record = DealRecord.loads(end.record_json)
    assert record.deal == seeded_deal(4, 3, 1)
    assert tuple(end.scores) == replay(record).result.scores  # type: ignore[union-attr]
    assert [list(h.cards) for h in end.hands] == [list(h) for h in record.deal.hands]
    seat_0 = [i for i, (seat, _) in enumerate(record.actions) if seat == 0]
    assert [(i.seat, i.kind, i.decision_index) for i in response.infractions] == [
        (0, pb.ILLEGAL_ACTION, index) for index in seat_0
    ]
    assert all(i.message for i in response.infractions)
    # A request the arena cannot play is refused up front.
    bad = pb.PlayTableRequest(options=pb.TableOptions(players=4), bot_ids=[good.bot_id])
    assert await arena.call(play, bad) == "INVALID_ARGUMENT"
    bad = pb.PlayTableRequest(options=pb.TableOptions(players=7), bot_ids=[good.bot_id] * 7)
    assert await arena.call(play, bad) == "INVALID_ARGUMENT"


# ----------------------------------------------------------------- health and reflection

async def test_health_checking_says_serving(arena: Arena) -> None:
    def check(channel: grpc.Channel) -> list[int]:
        stub = health_pb2_grpc.HealthStub(channel)
        return [
            stub.Check(health_pb2.HealthCheckRequest(service=name), timeout=10).status
            for name in ("", "tarot_arena.v1.BotService", "tarot_arena.v1.AdminService")
        ]

    assert await arena.call(check) == [health_pb2.HealthCheckResponse.SERVING] * 3


async def test_reflection_lists_the_services(arena: Arena) -> None:
    def services(channel: grpc.Channel) -> set[str]:
        stub = reflection_pb2_grpc.ServerReflectionStub(channel)
        request = reflection_pb2.ServerReflectionRequest(list_services="")
        (response,) = stub.ServerReflectionInfo(iter([request]), timeout=10)
        return {s.name for s in response.list_services_response.service}

    assert await arena.call(services) == {
        "tarot_arena.v1.BotService", "tarot_arena.v1.AdminService",
        "grpc.health.v1.Health", "grpc.reflection.v1alpha.ServerReflection",
        "grpc.reflection.v1.ServerReflection",
    }
