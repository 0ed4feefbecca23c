"""A TableEnd on the SDK's side: the deal record is read only for a bot that hears of ends.

Reading the record is most of the cost of a table's end for the SDK, and a bot without an
``on_table_end`` of its own never sees what is read. Driven through the client's receive loop
with a stand-in stream that holds the arena's messages as protobuf.
"""

from __future__ import annotations

import logging
import math
from typing import Any

import grpc
import pytest
import trio

from arena.proto_gen.tarot_arena.v1 import arena_pb2 as pb
from arena.table import TableEnd
from arena.transport import convert
from clients.sdk import ArenaClient, Bot, TableView
from clients.sdk._link import StreamEnded
from tests.clients.test_client_attempts import Counting, attempt


class Hearing(Counting):
    def __init__(self) -> None:
        super().__init__()
        self.ends: list[TableEnd] = []

    def on_table_end(self, table: TableView, end: TableEnd) -> None:
        self.ends.append(end)


class HeldStream:
    """What ``_receive`` reads: a channel of the arena's messages, then the stream's end."""

    id = 1
    reader: Any = None

    def __init__(self, *messages: pb.ArenaMessage) -> None:
        send, self.messages = trio.open_memory_channel[Any](math.inf)
        for message in messages:
            send.send_nowait(message)
        send.send_nowait(StreamEnded(grpc.StatusCode.OK, ""))
        self.sent: list[pb.BotMessage] = []

    def send(self, message: pb.BotMessage) -> None:
        self.sent.append(message)


def end_message(seat: int, record_json: str) -> pb.ArenaMessage:
    return pb.ArenaMessage(table_end=pb.TableEnd(
        table_id="replayed", outcome=pb.PLAYED, scores=[75, -25, -25, -25], seat=seat,
        record_json=record_json,
    ))


async def receive(bot: Bot, *messages: pb.ArenaMessage) -> ArenaClient:
    client = ArenaClient(bot, "127.0.0.1:1", "tka_unused")
    start, _ = attempt(seed=1)
    stream = HeldStream(convert.start_to_pb(start), *messages)
    async with trio.open_nursery() as nursery:
        client._nursery = nursery
        client._stream = stream  # type: ignore[assignment]
        await client._receive(stream, trio.TASK_STATUS_IGNORED)  # type: ignore[arg-type]
    return client


async def test_a_bot_that_does_not_hear_of_ends_forgets_the_table_without_reading_the_record(
        caplog: pytest.LogCaptureFixture) -> None:
    seat = attempt(seed=1)[0].seat
    with caplog.at_level(logging.INFO, logger="clients.sdk"):
        client = await receive(Counting(), end_message(seat, "not a record"))
    assert client.tables == {}
    assert f"table 'replayed' seat {seat} over: played, score {[75, -25, -25, -25][seat]:+d}" \
        in caplog.text
    assert "undecodable" not in caplog.text


async def test_a_bot_that_hears_of_ends_still_has_its_record_read(
        caplog: pytest.LogCaptureFixture) -> None:
    seat = attempt(seed=1)[0].seat
    bot = Hearing()
    with caplog.at_level(logging.INFO, logger="clients.sdk"):
        client = await receive(bot, end_message(seat, "not a record"))
    assert bot.ends == [] and "undecodable message" in caplog.text  # read, and refused
    assert list(client.tables) == [("replayed", seat)]
