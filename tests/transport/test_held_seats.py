"""Which seat is on which connection: :class:`HeldSeats` is its one writer (take, release,
move to a resumed stream, list), and every path of the server goes through it."""

from __future__ import annotations

import pytest
import trio
import trio.testing

from arena.games.french_tarot import Card, Phase
from arena.games.french_tarot.actions import PLAYS
from arena.storage.bots import BotRegistry
from arena.storage.db import make_engine
from arena.table.messages import DecisionRequest
from arena.transport import convert
from arena.transport.connections import BotConnection, Outbox, RemoteSeat
from arena.transport.server import ArenaServer


@pytest.fixture
def server() -> ArenaServer:
    return ArenaServer(BotRegistry(make_engine("sqlite://")))


def connect(server: ArenaServer, bot_id: str, max_tables: int = 4) -> BotConnection:
    hello = convert.Hello("", "holder", "1", convert.PROTOCOL_VERSION, max_tables, True, ())
    connection = server.open_stream(bot_id, hello, Outbox(lambda: None))
    assert connection is not None
    return connection


def seat(server: ArenaServer, connection: BotConnection, table_id: str, n: int = 0) -> RemoteSeat:
    return RemoteSeat(table_id, n, connection.bot_id, connection, server._is_revoked,
                      server._keep_undelivered)


async def test_a_seat_made_on_a_connection_is_held_there_until_released(
    server: ArenaServer,
) -> None:
    connection = connect(server, "b1")
    first = seat(server, connection, "t1", 0)
    second = seat(server, connection, "t1", 1)
    other = seat(server, connection, "t2")
    assert connection.seats.held() == [first, second, other]
    assert list(connection.seats) == [("t1", 0), ("t1", 1), ("t2", 0)]
    assert connection.seats.tables() == {"t1", "t2"} and connection.tables == 2
    assert connection.seats.at("t1") and not connection.seats.at("t3")
    connection.seats.release(first)
    connection.seats.release(first)  # twice is nothing
    assert connection.seats.held() == [second, other] and len(connection.seats) == 2


async def test_releasing_a_seat_gone_elsewhere_keeps_the_one_now_held(
    server: ArenaServer,
) -> None:
    connection = connect(server, "b1")
    stale = seat(server, connection, "t1")
    fresh = seat(server, connection, "t1")  # the same key, taken again
    connection.seats.release(stale)
    assert connection.seats.held() == [fresh]


async def test_a_move_leaves_the_old_stream_and_says_so(server: ArenaServer) -> None:
    old, new = connect(server, "b1"), connect(server, "b1")
    moving = seat(server, old, "t1")
    assert old.seats.move(moving, new) is old
    assert moving.connection is new
    assert old.seats.held() == [] and new.seats.held() == [moving]


async def test_the_server_releases_and_moves_through_the_connections_seats(
    server: ArenaServer,
) -> None:
    old = connect(server, "b1")
    moving = seat(server, old, "t1")
    new = connect(server, "b1")
    server._closed(old)  # the bot's other stream takes the seat
    assert moving.connection is new and new.seats.held() == [moving] and not old.seats
    server.mark_revoked("b1")
    assert new.closed and new.seats.held() == [moving]  # still held until its table ends


async def test_the_tables_played_follow_every_take_release_and_move(
    server: ArenaServer,
) -> None:
    old, new = connect(server, "b1"), connect(server, "b1")
    first, second, other = seat(server, old, "t1", 0), seat(server, old, "t1", 1), seat(
        server, old, "t2")
    stale = seat(server, old, "t3")
    fresh = seat(server, old, "t3")  # the same key taken again: one seat, one table
    assert old.tables == 3 and old.free_tables == 1
    old.seats.release(stale)  # not the seat held: nothing changes
    assert old.seats.tables() == {"t1", "t2", "t3"}
    old.seats.release(first)
    assert old.seats.at("t1") and old.tables == 3  # its other seat still plays there
    old.seats.move(second, new)
    assert not old.seats.at("t1") and new.seats.at("t1") and (old.tables, new.tables) == (2, 1)
    old.seats.release(other)
    old.seats.release(fresh)
    assert old.seats.tables() == set() and old.tables == 0 and not old.seats.at("t3")
    assert new.seats.tables() == {"t1"} and new.has_room_for("t1")


async def test_a_request_is_posted_in_the_outboxs_posting_scope(server: ArenaServer) -> None:
    """A seat's request, with the events held for it, is posted inside the bridge's posting
    scope (``Outbox.posting``), so that the stepped bridge writes it as the scope ends rather
    than after trio's round; nothing else happens inside the scope."""
    log: list[str] = []

    class Scope:
        def __enter__(self) -> None:
            log.append("enter")

        def __exit__(self, *exc_info: object) -> None:
            log.append(f"exit with {len(outbox.items)} queued")

    outbox = Outbox(lambda: log.append("wake"), posting=Scope)
    hello = convert.Hello("", "holder", "1", convert.PROTOCOL_VERSION, 4, True, ())
    connection = server.open_stream("b1", hello, outbox)
    assert connection is not None
    held = seat(server, connection, "t1")
    request = DecisionRequest("t1", 0, 5, Phase.PLAYING, (PLAYS[Card(1)],), 1.0, 0.0, (Card(1),))
    async with trio.open_nursery() as nursery:
        nursery.start_soon(held.ask, request)
        await trio.testing.wait_all_tasks_blocked()
        assert log == ["enter", "wake", "exit with 1 queued"]
        nursery.cancel_scope.cancel()
