"""Hostile and unlucky clients, end to end on a loopback port: streams cancelled while they
open, garbage, names that would paint a terminal, clients that never read, floods, too many
streams, and bots that come back after their tables ended.

The arena runs in this process (so the tests can look at its connections); clients are
synchronous gRPC clients in worker threads, or ``tests.transport.bots`` processes.
"""

from __future__ import annotations

import asyncio
import gc
import logging
import random
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import grpc
import pytest
import trio

from arena.games.french_tarot import GameState, TableOptions, seeded_deal
from arena.proto_gen.tarot_arena.v1 import arena_pb2 as pb
from arena.proto_gen.tarot_arena.v1 import arena_pb2_grpc as pb_grpc
from arena.storage.bots import BotRegistry
from arena.storage.db import make_engine
from arena.table import TableOutcome, TableRunner, TimeControl
from arena.transport import convert, services
from arena.transport.connections import Outbox, RemoteSeat
from arena.transport.server import ArenaServer
from arena.transport.services import HandshakeLimiter, LogLimiter, bad_input_log
from tests.table.fakes import FakeSeat, players_of

from .test_server_e2e import ADMIN_TOKEN, Arena, BotProcess, hello

pytestmark = pytest.mark.usefixtures("bridge_name")  # each test on both bridges

CONNECT = "/tarot_arena.v1.BotService/Connect"


async def make_arena(nursery: trio.Nursery, tmp_path: Path, **limits: Any) -> Arena:
    db_path = tmp_path / "arena.db"
    registry = BotRegistry(make_engine(f"sqlite:///{db_path}"))
    server = ArenaServer(registry, admin_token=ADMIN_TOKEN, **limits)
    port = await nursery.start(server.serve)
    return Arena(server, registry, port, nursery, db_path)


def raw_connect(channel: grpc.Channel) -> Any:
    """Connect with requests written as given: bytes as they are, messages serialized."""
    return channel.stream_stream(
        CONNECT,
        request_serializer=lambda m: m if isinstance(m, bytes) else m.SerializeToString(),
        response_deserializer=pb.ArenaMessage.FromString,
    )


def status_of(call: Any) -> tuple[str, str]:
    """Read ``call`` to its end: (status name, details)."""
    try:
        for _ in call:
            pass
    except grpc.RpcError as exc:
        return exc.code().name, exc.details() or ""
    return "OK", ""


def held_open(first: Any) -> tuple[Iterator[Any], Callable[[Any], None]]:
    """Requests that start with ``first`` and go on as ``put`` gives them (None ends)."""
    messages: list[Any] = [first]
    ready = threading.Condition()

    def requests() -> Iterator[Any]:
        while True:
            with ready:
                ready.wait_for(lambda: bool(messages))
                message = messages.pop(0)
            if message is None:
                return
            yield message

    def put(message: Any) -> None:
        with ready:
            messages.append(message)
            ready.notify()

    return requests(), put


@pytest.fixture
async def arena(nursery: trio.Nursery, tmp_path: Path) -> Arena:
    """An arena with the default limits."""
    return await make_arena(nursery, tmp_path)


def check_played_clean(outcome: TableOutcome) -> None:
    """Played to its end (every deal, passed out or not), nobody at fault."""
    assert outcome.state.result is not None and outcome.infractions == []


async def no_connections_left(server: ArenaServer, timeout: float = 10.0) -> None:
    with trio.fail_after(timeout):
        while server.connections:
            await trio.sleep(0.01)


# ------------------------------------------------------------------------------ ghosts

async def test_streams_cancelled_while_opening_leave_no_connection_behind(
    nursery: trio.Nursery, tmp_path: Path
) -> None:
    arena = await make_arena(nursery, tmp_path, handshake_burst=1000, handshakes_per_second=1000)
    server = arena.server
    bot_id, token = arena.register("target")
    # Half of the streams are cancelled exactly while the arena registers them (the window
    # the ghosts came from); all of them are cancelled by the client at a random moment.
    bridge = server.bridge
    assert bridge is not None
    call_in_trio = bridge.call_in_trio
    cancelled_while_opening = 0

    def cancelling(fn: Any, *args: Any) -> Any:
        nonlocal cancelled_while_opening
        future = call_in_trio(fn, *args)
        if fn == server.open_stream and cancelled_while_opening < 50:
            cancelled_while_opening += 1
            task = asyncio.current_task()
            assert task is not None
            task.cancel()
        return future

    bridge.call_in_trio = cancelling  # type: ignore[method-assign]

    def open_and_cancel(channel: grpc.Channel) -> list[str]:
        rng = random.Random(10)
        calls = []
        for _ in range(100):
            requests, _put = held_open(hello(token, max_tables=1024))
            calls.append(pb_grpc.BotServiceStub(channel).Connect(requests))
        for call in calls:
            time.sleep(rng.random() * 0.002)
            call.cancel()
        return [status_of(call)[0] for call in calls]

    codes = await arena.call(open_and_cancel)
    assert set(codes) <= {"CANCELLED", "OK", "RESOURCE_EXHAUSTED"}  # 8 streams per bot at most
    assert cancelled_while_opening == 50
    bridge.call_in_trio = call_in_trio  # type: ignore[method-assign]
    await no_connections_left(server)
    # The real bot gets and plays every table: no ghost holds its seats.
    real = arena.start(BotProcess(bot_id, token), "random", tables=12)
    outcomes: list[TableOutcome] = []

    async def play(number: int) -> None:
        outcomes.append(await arena.play(f"after-ghosts-{number}", number, [bot_id] * 3,
                                         TimeControl(5.0)))

    with trio.fail_after(40):
        async with trio.open_nursery() as tables:
            for number in range(4):
                tables.start_soon(play, number)
    assert len(outcomes) == 4
    for outcome in outcomes:
        check_played_clean(outcome)
    summary = await real.summary()
    assert summary["notices"] == [] and summary["errors"] == [] and summary["streams"] == 1
    assert len(summary["ends"]) == 12
    await no_connections_left(server)


async def test_seat_choice_prefers_the_connection_that_answers(
    nursery: trio.Nursery, tmp_path: Path
) -> None:
    """A stream that stopped answering (here: one that never does) takes no new table from
    one of the same bot that answers, whatever its free tables."""
    arena = await make_arena(nursery, tmp_path)
    server = arena.server
    bot_id, token = arena.register("two-streams")
    with grpc.insecure_channel(arena.target) as channel:
        requests, put = held_open(hello(token, max_tables=1024))
        silent = pb_grpc.BotServiceStub(channel).Connect(requests)
        welcome = await trio.to_thread.run_sync(next, silent)
        assert welcome.WhichOneof("kind") == "welcome"
        await trio.sleep(0.05)  # the good bot says Hello later, and then answers
        good = arena.start(BotProcess(bot_id, token), "random", tables=6)
        with trio.fail_after(10):
            while server.connected_bots().get(bot_id) != 2:
                await trio.sleep(0.01)
        for number in range(2):  # one after the other: the good stream's answers count
            outcome = await arena.play(f"choice-{number}", number, [bot_id] * 3,
                                       TimeControl(5.0))
            assert outcome.infractions == []
        assert (await good.summary())["ends"]
        put(None)
        silent.cancel()


# ----------------------------------------------------------------- garbage and names

async def test_garbage_first_messages_get_invalid_argument_and_one_log_line_each_at_most(
    arena: Arena, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(bad_input_log, "_windows", {})  # not what an earlier test logged
    monkeypatch.setattr(bad_input_log, "interval", 3600.0)  # one window however slow the run
    _, token = arena.register("probe")
    bad_utf8 = hello(token, bot_name="ab").SerializeToString().replace(b"ab", b"\xff\xfe")

    def send_garbage(channel: grpc.Channel) -> list[tuple[str, str]]:
        results = []
        for payload in [b"\xff" * 12 + b"not a protobuf message"] * 40 + [bad_utf8] * 5:
            results.append(status_of(raw_connect(channel)(iter([payload]), timeout=10)))
        return results

    with caplog.at_level(logging.INFO, logger="arena.transport"):
        results = await arena.call(send_garbage)
    assert {code for code, _ in results} == {"INVALID_ARGUMENT"}
    assert "not a readable BotMessage (Wire format was corrupt)" in results[0][1]
    assert "bad UTF-8" in results[-1][1]
    lines = [r for r in caplog.records if r.name.startswith("arena.transport")]
    assert 1 <= len(lines) <= 5  # rate-limited
    assert all(r.exc_info is None and "\n" not in r.getMessage() for r in lines)


async def test_hello_then_garbage_always_ends_with_invalid_argument_and_no_traceback(
    nursery: trio.Nursery, tmp_path: Path, caplog: pytest.LogCaptureFixture,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The garbage is read while the Welcome is being written: the writer is cancelled in its
    first write, and the stream must still end with its status (it once failed with
    TOO_MANY_OPERATIONS and a traceback, about a stream in ten under load, and the client
    then waited for its deadline)."""
    monkeypatch.setattr(bad_input_log, "_windows", {})
    monkeypatch.setattr(bad_input_log, "interval", 3600.0)  # one window however slow the run
    arena = await make_arena(nursery, tmp_path, handshake_burst=10_000,
                             handshakes_per_second=10_000)
    _, token = arena.register("probe")
    garbage = b"\xff" * 12 + b"not a protobuf message"

    def race(channel: grpc.Channel, streams: int) -> list[tuple[str, str, bool]]:
        results = []
        for _ in range(streams):
            call = raw_connect(channel)(iter([hello(token), garbage]), timeout=10)
            welcomed = False
            try:
                for message in call:
                    welcomed |= message.WhichOneof("kind") == "welcome"
                results.append(("OK", "", welcomed))
            except grpc.RpcError as exc:
                results.append((exc.code().name, exc.details() or "", welcomed))
        return results

    results: list[tuple[str, str, bool]] = []

    async def client() -> None:
        results.extend(await arena.call(race, 60))

    with caplog.at_level(logging.INFO):
        async with trio.open_nursery() as clients:  # four at once: the race is likelier
            for _ in range(4):
                clients.start_soon(client)
        await no_connections_left(arena.server)
        gc.collect()
    assert len(results) == 240
    assert {code for code, _, _ in results} == {"INVALID_ARGUMENT"}
    assert all(details.startswith("unreadable message from the bot (Wire format was corrupt)")
               for _, details, _ in results)
    noisy = [r for r in caplog.records if r.levelno >= logging.ERROR or r.exc_info]
    assert noisy == []
    lines = [r for r in caplog.records if r.name.startswith("arena.transport.services")]
    assert 1 <= len(lines) <= bad_input_log.most


async def test_streams_the_client_cancels_log_nothing(
    nursery: trio.Nursery, tmp_path: Path, caplog: pytest.LogCaptureFixture,
) -> None:
    """A client that opens and cancels streams over and over (at every moment: before its
    Hello is answered, right after the Welcome, while it is idle) adds no log line at all:
    each once left a task to be destroyed pending, an asyncio ERROR per stream."""
    arena = await make_arena(nursery, tmp_path, handshake_burst=10_000,
                             handshakes_per_second=10_000)
    _, token = arena.register("reconnecting")

    def reconnect(channel: grpc.Channel, streams: int) -> list[str]:
        rng = random.Random(22)
        codes = []
        for number in range(streams):
            requests, put = held_open(hello(token, max_tables=4))
            call = pb_grpc.BotServiceStub(channel).Connect(requests)
            when = number % 3
            if when >= 1:
                assert next(call).WhichOneof("kind") == "welcome"
            if when == 2:
                time.sleep(rng.random() * 0.005)
            call.cancel()
            put(None)
            codes.append(status_of(call)[0])
        return codes

    before = len(caplog.records)  # the database's migration may have logged
    with caplog.at_level(logging.INFO):  # gRPC's debug lines are no arena's log
        codes = await arena.call(reconnect, 300)
        await no_connections_left(arena.server)
        gc.collect()  # what a cancelled stream leaves behind is destroyed now, and says so
        await trio.sleep(0.1)
        gc.collect()
    assert set(codes) <= {"CANCELLED", "OK"}
    lines = [f"{r.name} {r.levelname} {r.getMessage()}" for r in caplog.records[before:]
             if r.name != "arena.transport.bridge"]  # which bridge it is, once a process
    assert lines == []


async def test_a_database_that_fails_every_hello_logs_a_few_lines_not_one_per_hello(
    nursery: trio.Nursery, tmp_path: Path, caplog: pytest.LogCaptureFixture,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Tokens that cannot be checked refuse the stream with UNAVAILABLE (it was UNKNOWN and a
    traceback per Hello), and versions that cannot be recorded cost the bot nothing: either
    way a client reconnecting in a loop adds a few lines, not one per Hello."""
    monkeypatch.setattr(bad_input_log, "_windows", {})
    monkeypatch.setattr(bad_input_log, "interval", 3600.0)  # one window however slow the run
    arena = await make_arena(nursery, tmp_path, handshake_burst=10_000,
                             handshakes_per_second=10_000)
    _, token = arena.register("probe")

    def database_down(*_args: Any) -> Any:
        raise OSError("database is locked\nsecond line")

    def connect(channel: grpc.Channel, count: int) -> list[tuple[str, str]]:
        return [status_of(pb_grpc.BotServiceStub(channel).Connect(iter([hello(token)]),
                                                                   timeout=10))
                for _ in range(count)]

    with caplog.at_level(logging.INFO):
        monkeypatch.setattr(arena.registry, "record_hello", database_down)
        recorded = await arena.call(connect, 30)
        monkeypatch.setattr(arena.registry, "authenticate", database_down)
        refused = await arena.call(connect, 30)
        await no_connections_left(arena.server)
    assert set(recorded) == {("OK", "")}
    assert {code for code, _ in refused} == {"UNAVAILABLE"}
    assert "cannot check bot tokens right now: retry later" in refused[0][1]
    assert [r for r in caplog.records if r.levelno >= logging.ERROR or r.exc_info] == []
    lines = [r.getMessage() for r in caplog.records if r.name.startswith("arena.transport")
             and r.levelno >= logging.WARNING]
    not_recorded = [line for line in lines if "was not recorded: database is locked" in line]
    not_checked = [line for line in lines if "could not be checked" in line]
    assert len(not_recorded) == len(not_checked) == bad_input_log.most
    assert len(lines) == 2 * bad_input_log.most


async def test_a_writer_that_fails_for_every_stream_logs_a_few_lines_not_one_per_stream(
    nursery: trio.Nursery, tmp_path: Path, caplog: pytest.LogCaptureFixture,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Whatever makes the writer fail (here: the Welcome cannot be built), its error is told
    at most a few times per interval, not left to asyncio, which logs a task's unretrieved
    error at ERROR, with its traceback, once per stream."""
    monkeypatch.setattr(bad_input_log, "_windows", {})
    monkeypatch.setattr(bad_input_log, "interval", 3600.0)  # one window however slow the run
    arena = await make_arena(nursery, tmp_path, handshake_burst=10_000,
                             handshakes_per_second=10_000)
    _, token = arena.register("probe")

    def broken(*_args: Any) -> Any:
        raise RuntimeError("no welcome today")

    monkeypatch.setattr(services.convert, "welcome_to_pb", broken)

    def connect(channel: grpc.Channel, count: int) -> list[tuple[str, str]]:
        return [status_of(pb_grpc.BotServiceStub(channel).Connect(iter([hello(token)]),
                                                                   timeout=10))
                for _ in range(count)]

    with caplog.at_level(logging.INFO):
        await arena.call(connect, 20)
        await no_connections_left(arena.server)
        gc.collect()
        await trio.sleep(0.1)
    assert [r for r in caplog.records if r.levelno >= logging.ERROR or r.exc_info] == []
    told = [r.getMessage() for r in caplog.records if "a write failed" in r.getMessage()]
    assert len(told) == bad_input_log.most
    assert "RuntimeError('no welcome today')" in told[0]


async def test_names_that_would_paint_a_terminal_or_a_page_are_refused(arena: Arena) -> None:
    _, token = arena.register("probe")
    cases = {
        "red\x1b[31mbot": "U+001B",
        "two\nlines": "U+000A",
        "evil\u202ertl": "U+202E",
        "<b>bold</b>": "'<'",
        "[red]rich": "'['",
    }

    def connect(channel: grpc.Channel, name: str, version: str) -> tuple[str, str]:
        return status_of(pb_grpc.BotServiceStub(channel).Connect(
            iter([hello(token, bot_name=name, bot_version=version)]), timeout=10))

    for name, problem in cases.items():
        code, details = await arena.call(connect, name, "1")
        assert code == "INVALID_ARGUMENT" and "bot_name" in details and problem in details
    code, details = await arena.call(connect, "fine", "1\x07")
    assert code == "INVALID_ARGUMENT" and "bot_version" in details
    assert await arena.call(connect, "Fine bot é-ü 2.0", "1.2 (beta)") == ("OK", "")


def test_repeated_log_lines_are_limited_and_the_count_left_out_is_told(
    caplog: pytest.LogCaptureFixture,
) -> None:
    limiter = LogLimiter(logging.getLogger("arena.transport.test"), most=3, interval=0.2)
    with caplog.at_level(logging.WARNING, logger="arena.transport.test"):
        for number in range(100):
            limiter.warning("kind", "bad input %d", number)
        time.sleep(0.25)
        limiter.warning("kind", "bad input again")
    messages = [r.getMessage() for r in caplog.records]
    assert messages == ["bad input 0", "bad input 1", "bad input 2",
                        "bad input again (97 similar lines left out)"]


# ------------------------------------------------------------------- bounded resources

async def test_a_stream_without_hello_is_closed_after_the_hello_timeout(
    nursery: trio.Nursery, tmp_path: Path
) -> None:
    arena = await make_arena(nursery, tmp_path, hello_timeout=0.3)

    def silent(channel: grpc.Channel) -> tuple[str, str, float]:
        quiet = threading.Event()

        def nothing() -> Iterator[pb.BotMessage]:  # opens the stream, sends nothing at all
            quiet.wait(10)
            yield from ()

        began = time.monotonic()
        code, details = status_of(pb_grpc.BotServiceStub(channel).Connect(nothing(), timeout=10))
        quiet.set()
        return code, details, time.monotonic() - began

    code, details, seconds = await arena.call(silent)
    assert (code, details) == ("DEADLINE_EXCEEDED", "no Hello within 0.3 s")
    assert seconds < 5


async def test_a_bot_has_a_bounded_number_of_streams(arena: Arena) -> None:
    _, token = arena.register("many")
    limit = arena.server.max_connections_per_bot

    def open_many(channel: grpc.Channel) -> tuple[list[str], tuple[str, str], str]:
        calls, puts = [], []
        for _ in range(limit):
            requests, put = held_open(hello(token))
            call = pb_grpc.BotServiceStub(channel).Connect(requests)
            assert next(call).WhichOneof("kind") == "welcome"
            calls.append(call)
            puts.append(put)
        one_more = status_of(pb_grpc.BotServiceStub(channel).Connect(iter([hello(token)])))
        puts[0](None)  # one closes: a new one is welcome again
        status_of(calls[0])
        requests, put = held_open(hello(token))
        again = pb_grpc.BotServiceStub(channel).Connect(requests)
        kind = next(again).WhichOneof("kind")
        put(None)
        status_of(again)
        for put_one in puts[1:]:
            put_one(None)
        return [status_of(call)[0] for call in calls[1:]], one_more, kind

    codes, one_more, kind = await arena.call(open_many)
    assert one_more[0] == "RESOURCE_EXHAUSTED"
    assert f"already has {limit} connections open" in one_more[1]
    assert kind == "welcome" and set(codes) == {"OK"}
    await no_connections_left(arena.server)


async def test_handshakes_per_peer_are_rate_limited(
    nursery: trio.Nursery, tmp_path: Path
) -> None:
    arena = await make_arena(nursery, tmp_path, handshake_burst=5, handshakes_per_second=0.5)
    _, token = arena.register("eager")

    def attempts(channel: grpc.Channel, count: int) -> list[str]:
        return [status_of(pb_grpc.BotServiceStub(channel).Connect(iter([hello(token)])))[0]
                for _ in range(count)]

    codes = await arena.call(attempts, 8)
    assert codes[:5] == ["OK"] * 5 and set(codes[5:]) == {"RESOURCE_EXHAUSTED"}
    await trio.sleep(2.1)  # one more allowed every two seconds
    assert (await arena.call(attempts, 1)) == ["OK"]


def test_handshake_buckets_of_peers_gone_quiet_are_forgotten() -> None:
    limiter = HandshakeLimiter(rate=10, burst=20)
    for peer in range(1000):  # an attack from many addresses
        assert limiter.allow(f"ipv4:10.0.{peer // 256}.{peer % 256}", now=0.0)
    assert len(limiter.buckets) == 1000
    assert limiter.allow("ipv4:127.0.0.1", now=5.0)  # every bucket is full again by then
    assert list(limiter.buckets) == ["ipv4:127.0.0.1"]


async def test_a_client_that_does_not_read_is_disconnected_with_resource_exhausted(
    nursery: trio.Nursery, tmp_path: Path
) -> None:
    arena = await make_arena(nursery, tmp_path, outbox_limit_bytes=16 * 1024)
    _, token = arena.register("deaf")
    # A small receive window, so that what the arena writes backs up in its outbox.
    options = [("grpc.http2.bdp_probe", 0), ("grpc.http2.lookahead_bytes", 1024)]

    def flood_without_reading() -> tuple[str, str]:
        with grpc.insecure_channel(arena.target, options=options) as channel:
            requests, put = held_open(hello(token))
            call = pb_grpc.BotServiceStub(channel).Connect(requests)
            assert next(call).WhichOneof("kind") == "welcome"
            for number in range(450):  # each earns a Notice it never reads
                put(pb.BotMessage(decision=pb.Decision(table_id="t" * 150,
                                                       request_id=number + 1)))
            time.sleep(1.0)
            put(None)
            return status_of(call)

    code, details = await arena.call(lambda _channel: flood_without_reading())
    assert code == "RESOURCE_EXHAUSTED" and "reads too slowly" in details
    await no_connections_left(arena.server)


async def test_a_decision_flood_is_cut_off_with_resource_exhausted(arena: Arena) -> None:
    _, token = arena.register("flood")

    def flood(channel: grpc.Channel) -> tuple[str, str, int]:
        requests, put = held_open(hello(token))
        call = pb_grpc.BotServiceStub(channel).Connect(requests, timeout=30)
        notices = 0
        for _ in range(200):
            put(pb.BotMessage(decisions=pb.DecisionBatch(decisions=[
                pb.Decision(table_id="t", request_id=n) for n in range(1, 11)])))
        try:
            for message in call:
                notices += message.WhichOneof("kind") == "notice"
                notices += sum(m.WhichOneof("kind") == "notice" for m in message.batch.messages)
        except grpc.RpcError as exc:
            put(None)
            return exc.code().name, exc.details() or "", notices
        return "OK", "", notices

    code, details, notices = await arena.call(flood)
    assert code == "RESOURCE_EXHAUSTED" and "answer no open request" in details
    assert notices <= 600  # the burst, and what trickled back while it was read
    await no_connections_left(arena.server)
    # The allowance is the bot's, not the stream's: a new stream does not start a new one.
    code, details = await arena.call(lambda channel: status_of(
        pb_grpc.BotServiceStub(channel).Connect(iter([hello(token)]), timeout=10)))
    assert code == "RESOURCE_EXHAUSTED" and "wait 10 s before connecting again" in details


# ----------------------------------------------------- TableEnds of tables played while away

async def test_a_table_end_posted_after_the_outbox_closed_is_kept_for_the_next_stream(
    tmp_path: Path,
) -> None:
    """The gRPC side closes the outbox (the bot hung up) before the trio side hears of it: a
    TableEnd posted in between goes to the bot's next stream, not nowhere."""
    server = ArenaServer(BotRegistry(make_engine(f"sqlite:///{tmp_path / 'a.db'}")))
    bot, _ = server.registry.register("bot")
    first = Outbox(lambda: None)
    connection = server.open_stream(bot.id, convert.hello_from_pb(hello("t").hello), first)
    assert connection is not None
    seats: list[Any] = [RemoteSeat("gone-table", 0, bot.id, connection, server._is_revoked,
                                   server._keep_undelivered)]
    seats += [FakeSeat() for _ in range(2)]
    first.close()  # the stream ended; ArenaServer.stream_ended has not run yet
    options = TableOptions(3)

    async def auto(request: Any) -> Any:
        return request.legal_actions[0]

    seats[0].ask = auto  # type: ignore[method-assign]  # its answers are not the point
    await TableRunner("gone-table", GameState(seeded_deal(3, 3, 0), options), seats,
                      players_of(3)).run()
    server.stream_ended(first)
    assert server.connections == {}
    second = Outbox(lambda: None)
    assert server.open_stream(bot.id, convert.hello_from_pb(hello("t").hello), second) is not None
    ends = [pb.ArenaMessage.FromString(m) for m in second.take()]
    assert [(m.table_end.table_id, m.table_end.seat) for m in ends] == [("gone-table", 0)]


async def test_a_stream_ended_before_it_was_registered_is_never_registered(
    tmp_path: Path,
) -> None:
    server = ArenaServer(BotRegistry(make_engine(f"sqlite:///{tmp_path / 'a.db'}")))
    bot, _ = server.registry.register("bot")
    outbox = Outbox(lambda: None)
    outbox.close()  # the gRPC side gave up while the arena was about to register it
    assert server.open_stream(bot.id, convert.hello_from_pb(hello("t").hello), outbox) is None
    server.stream_ended(outbox)
    assert server.connections == {}


def test_an_outbox_past_its_limit_fails_the_stream_and_drops_its_queue() -> None:
    woken: list[bool] = []
    outbox = Outbox(lambda: woken.append(True), limit=100)
    assert outbox.put(b"x" * 60)
    assert not outbox.put(b"y" * 60)
    assert outbox.closed and outbox.items == [] and outbox.queued_bytes == 0
    assert outbox.failure is not None and outbox.failure[0] == "RESOURCE_EXHAUSTED"
    assert not outbox.put(b"z")


async def test_every_table_that_ended_while_the_bot_was_away_gets_its_table_end(
    arena: Arena,
) -> None:
    """A bot holding two tables drops its stream and comes back with room for one: that one
    is resumed and played, the other ends without it; both TableEnds reach the new stream."""
    bot_id, token = arena.register("away")
    good = arena.bot("good", tables=4)
    tables = ("away-1", "away-2")
    seen = threading.Event()

    def go_away_and_come_back(channel: grpc.Channel) -> tuple[list[str], list[str]]:
        requests, put = held_open(hello(token, max_tables=2))
        first = pb_grpc.BotServiceStub(channel).Connect(requests)
        started = set()
        for message in first:
            if message.WhichOneof("kind") == "table_start":
                started.add(message.table_start.table_id)
            if started == set(tables):
                break
        first.cancel()
        seen.set()
        requests, put = held_open(hello(token, max_tables=1))
        second = pb_grpc.BotServiceStub(channel).Connect(requests, timeout=40)
        resumed, ended = [], []
        for message in iterate_until_deadline(second):
            for part in [message] if message.WhichOneof("kind") != "batch" else (
                    message.batch.messages):
                kind = part.WhichOneof("kind")
                if kind == "table_start":
                    resumed.append(part.table_start.table_id)
                elif kind == "request":
                    request = part.request
                    put(pb.BotMessage(decision=pb.Decision(
                        table_id=request.table_id, request_id=request.request_id,
                        action=request.legal_actions[0])))
                elif kind == "table_end":
                    ended.append(part.table_end.table_id)
            if len(ended) == 2:
                break
        put(None)
        second.cancel()
        return resumed, ended

    async def play(table_id: str, seed: int) -> TableOutcome:
        return await arena.server.play_table(
            table_id, GameState(seeded_deal(seed, 3, 0), TableOptions(3)),
            [bot_id, good.bot_id, good.bot_id], TimeControl(0.2, 1.0), seat_timeout=20,
        )

    outcomes: list[TableOutcome] = []
    with trio.fail_after(60):
        async with trio.open_nursery() as nursery:
            for seed, table_id in enumerate(tables):
                nursery.start_soon(lambda t=table_id, s=seed: _append(outcomes, play(t, s)))
            resumed, ended = await arena.call(go_away_and_come_back)
    assert len(resumed) == 1
    assert sorted(ended) == sorted(tables)
    assert len(outcomes) == 2
    for outcome in outcomes:
        assert outcome.state.result is not None


def iterate_until_deadline(call: Any) -> Iterator[Any]:
    """The messages of ``call``; stops quietly at its deadline (the test's asserts then say
    what was missing)."""
    try:
        yield from call
    except grpc.RpcError as exc:
        if exc.code() != grpc.StatusCode.DEADLINE_EXCEEDED:
            raise


async def _append(into: list[Any], awaitable: Any) -> None:
    into.append(await awaitable)
