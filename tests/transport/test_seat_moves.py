"""Where a bot's seats go when its connections come and go (no gRPC: the server's bookkeeping).

A bot says in its Hello how many tables a connection plays at once; seats moved to another
connection of the bot after a disconnection must respect that, like seats given out fresh.
"""

from __future__ import annotations

import pytest

from arena.proto_gen.tarot_arena.v1 import arena_pb2 as pb
from arena.storage.bots import BotRegistry, BotSummary
from arena.storage.db import make_engine
from arena.transport.connections import BotConnection, Outbox, RemoteSeat
from arena.transport.server import ArenaServer


@pytest.fixture
def server() -> ArenaServer:
    return ArenaServer(BotRegistry(make_engine("sqlite://")))


def bot(server: ArenaServer) -> BotSummary:
    summary, _ = server.registry.register("mover")
    return summary


def connect(server: ArenaServer, summary: BotSummary, max_tables: int) -> BotConnection:
    hello = pb.Hello(bot_name="mover", bot_version="1", protocol_version=1,
                     max_tables=max_tables)
    return server._open(summary, hello, Outbox(lambda: None))


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
