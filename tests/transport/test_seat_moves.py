"""Where a bot's seats go when its connections come and go (no gRPC: the server's bookkeeping).

A bot says in its Hello how many tables a connection plays at once; seats moved to another
connection of the bot after a disconnection must respect that, like seats given out fresh.
"""

from __future__ import annotations

import pytest

from arena.proto_gen.tarot_arena.v1 import arena_pb2 as pb
from arena.storage.bots import BotRegistry, BotSummary
from arena.storage.db import make_engine
from arena.transport import convert
from arena.transport.connections import BotConnection, Outbox, RemoteSeat
from arena.transport.server import ArenaServer
from tests.toy_game.game import TOY_GAME


@pytest.fixture
def server() -> ArenaServer:
    return ArenaServer(BotRegistry(make_engine("sqlite://")))


def bot(server: ArenaServer) -> BotSummary:
    summary, _ = server.registry.register("mover")
    return summary


def connect(server: ArenaServer, summary: BotSummary, max_tables: int) -> BotConnection:
    hello = pb.Hello(bot_name="mover", bot_version="1", protocol_version=1,
                     max_tables=max_tables)
    return server.open_stream(summary.id, convert.hello_from_pb(hello), Outbox(lambda: None))


def seat_at(server: ArenaServer, connection: BotConnection, table_id: str) -> RemoteSeat:
    return RemoteSeat(table_id, 0, connection.bot_id, connection, server._is_revoked,
                      server._keep_undelivered)


def tables(connection: BotConnection) -> set[str]:
    return {table_id for table_id, _ in connection.seats}


async def test_a_closed_connections_seats_go_to_another_only_as_far_as_it_has_room(
    server: ArenaServer,
) -> None:
    summary = bot(server)
    old = connect(server, summary, max_tables=3)
    seats = [seat_at(server, old, f"t{i}") for i in range(3)]
    small = connect(server, summary, max_tables=1)
    server._closed(old)
    assert tables(small) == {"t0"}
    assert [s.table_id for s in server.orphans[summary.id]] == ["t1", "t2"]
    assert all(not s.connected for s in seats[1:])  # they fall back as disconnected meanwhile
    # The next connection of the bot takes the rest, again within its own limit.
    later = connect(server, summary, max_tables=1)
    assert tables(later) == {"t1"}
    assert [s.table_id for s in server.orphans[summary.id]] == ["t2"]
    roomy = connect(server, summary, max_tables=4)
    assert tables(roomy) == {"t2"}
    assert summary.id not in server.orphans
    assert all(s.connected for s in seats)


async def test_finished_seats_are_not_moved(server: ArenaServer) -> None:
    summary = bot(server)
    old = connect(server, summary, max_tables=2)
    done, open_ = seat_at(server, old, "done"), seat_at(server, old, "open")
    server._closed(old)
    done.finished = True
    new = connect(server, summary, max_tables=1)
    assert tables(new) == {"open"}
    assert open_.connection is new
    assert summary.id not in server.orphans


async def test_max_tables_counts_tables_not_seats(server: ArenaServer) -> None:
    """A reference bot holding every seat of a 4-seat control table uses one of its tables."""
    summary = bot(server)
    connection = connect(server, summary, max_tables=3)
    seats = await server._seat_bots("control", [summary.id] * 4, timeout=0)
    assert [s.connection for s in seats] == [connection] * 4
    assert connection.tables == 1 and connection.free_tables == 2
    seat_at(server, connection, "a")
    seat_at(server, connection, "b")
    assert server.awaiting([summary.id]) == [summary.id]  # three tables: full
    others = connect(server, bot_named(server, "other"), max_tables=1)
    assert server.awaiting([others.bot_id, summary.id, others.bot_id]) == [summary.id]


async def test_a_closed_control_table_moves_whole_to_a_one_table_connection(
    server: ArenaServer,
) -> None:
    summary = bot(server)
    old = connect(server, summary, max_tables=2)
    seats = await server._seat_bots("control", [summary.id] * 4, timeout=0)
    server._closed(old)
    new = connect(server, summary, max_tables=1)
    assert all(s.connection is new for s in seats)
    assert summary.id not in server.orphans


def bot_named(server: ArenaServer, name: str) -> BotSummary:
    summary, _ = server.registry.register(name)
    return summary


async def test_a_stream_opened_while_many_allowances_are_kept_is_the_bots_own(
    server: ArenaServer,
) -> None:
    """Past 64 bots' allowances the arena forgets the full ones as a stream opens: the stream
    is still registered for its own bot, with its own allowance."""
    for other in [bot_named(server, f"other{i}") for i in range(64)]:
        connect(server, other, max_tables=1)
    assert len(server.strays) == 64
    summary = bot(server)
    connection = connect(server, summary, max_tables=2)
    assert connection.bot_id == summary.id
    assert connection.strays is server.strays[summary.id]
    assert server.awaiting([summary.id]) == []


def connect_for(server: ArenaServer, summary: BotSummary, *games: str) -> BotConnection:
    hello = convert.Hello("", "mover", "1", convert.PROTOCOL_VERSION, 4, True, games)
    connection = server.open_stream(summary.id, hello, Outbox(lambda: None))
    assert connection is not None
    return connection


async def test_a_seat_moves_only_to_a_stream_that_plays_its_game(server: ArenaServer) -> None:
    """A table of the toy game whose stream closes goes to the bot's stream that plays the toy
    game, never to one that plays French Tarot alone, on closing as on reconnecting."""
    summary = bot(server)
    old = connect_for(server, summary, "toy")
    tarot_only = connect_for(server, summary, "french-tarot")
    toy_seat = RemoteSeat("toy-table", 0, summary.id, old, server._is_revoked,
                          server._keep_undelivered, TOY_GAME)
    server._closed(old)
    assert toy_seat.connection is old and tables(tarot_only) == set()
    assert server.orphans[summary.id] == [toy_seat]
    also_tarot = connect_for(server, summary)  # no games listed: French Tarot alone
    assert tables(also_tarot) == set() and server.orphans[summary.id] == [toy_seat]
    assert server.awaiting([summary.id], "toy") == [summary.id]
    both = connect_for(server, summary, "french-tarot", "toy")
    assert toy_seat.connection is both and summary.id not in server.orphans
    assert server.awaiting([summary.id], "toy") == []
    spare = connect_for(server, summary, "toy")
    server._closed(both)
    assert toy_seat.connection is spare
