"""The bytes the arena writes on bot streams, framed by hand for the messages sent most.

Every decision sends a DecisionRequest and several TableEvents, each to every seat, and usually
several of them in one MessageBatch. Building those as protobuf objects and copying them into
a batch was a third of the arena's CPU per decision; here they are built as bytes instead,
using two properties of the protobuf wire format:

* a message's encoding is the concatenation of its fields' encodings, in any order, and a
  length-delimited field (a sub-message) is its tag, its length as a varint, then its bytes;
* so a part shared by every seat (the event itself, an action in a legal list) is serialized
  once, by protobuf, and only the few per-seat fields are framed here.

Everything else is serialized by protobuf itself. Tests parse what this module writes with
protobuf and compare it with the messages :mod:`.convert` builds, for every kind of event.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Final

from google.protobuf.message import Message

from arena.games import Game
from arena.proto_gen.tarot_arena.v1 import arena_pb2 as pb
from arena.table.messages import DecisionRequest, TableEnd, TableEvent

from . import convert

_VARINT: Final = 0
_LENGTH_DELIMITED: Final = 2


def varint(value: int) -> bytes:
    """``value`` (>= 0) as a protobuf varint."""
    return _SMALL[value] if value < len(_SMALL) else _encode_varint(value)


def _encode_varint(value: int) -> bytes:
    out = bytearray()
    while value > 0x7F:
        out.append((value & 0x7F) | 0x80)
        value >>= 7
    out.append(value)
    return bytes(out)


_SMALL: Final = tuple(_encode_varint(n) for n in range(1 << 14))


def _tag(message: type[Message], field: str, wire_type: int) -> bytes:
    number = message.DESCRIPTOR.fields_by_name[field].number
    return varint(number << 3 | wire_type)


_EVENT: Final = _tag(pb.ArenaMessage, "event", _LENGTH_DELIMITED)
_REQUEST: Final = _tag(pb.ArenaMessage, "request", _LENGTH_DELIMITED)
_BATCH: Final = _tag(pb.ArenaMessage, "batch", _LENGTH_DELIMITED)
_BATCH_ITEM: Final = _tag(pb.MessageBatch, "messages", _LENGTH_DELIMITED)
_EVENT_TABLE: Final = _tag(pb.TableEvent, "table_id", _LENGTH_DELIMITED)
_EVENT_SEQUENCE: Final = _tag(pb.TableEvent, "sequence", _VARINT)
_EVENT_SEAT: Final = _tag(pb.TableEvent, "seat", _VARINT)
_LEGAL_ACTION: Final = _tag(pb.DecisionRequest, "legal_actions", _LENGTH_DELIMITED)
_TABLE_END: Final = _tag(pb.ArenaMessage, "table_end", _LENGTH_DELIMITED)
_END_SEAT: Final = _tag(pb.TableEnd, "seat", _VARINT)


def delimited(tag: bytes, payload: bytes) -> bytes:
    """A length-delimited field: ``tag``, the length, ``payload``."""
    return tag + varint(len(payload)) + payload


def serialize(message: pb.ArenaMessage) -> bytes:
    return message.SerializeToString()


class _Last:
    """The last event framed, with its table id and the bytes of both, kept by identity: a
    table sends each event to every seat one after the other, so it is serialized once. Each
    is one tuple, replaced whole, so that two arenas in two threads of a process could not mix
    them."""

    event: tuple[object, str, bytes] = (None, "", b"")
    table_id: tuple[str, bytes] = ("", delimited(_EVENT_TABLE, b""))
    end: tuple[tuple[object, ...], bytes] = ((None,) * 5, b"")


def _table_id_field(table_id: str) -> bytes:
    last = _Last.table_id
    if last[0] != table_id:
        last = _Last.table_id = (table_id, delimited(_EVENT_TABLE, table_id.encode()))
    return last[1]


_SEQUENCES: Final = tuple(_EVENT_SEQUENCE + varint(n) for n in range(1024))
"""The sequence field, framed, for the first numbers (a seat's events in a deal are fewer)."""
_SEATS: Final = tuple(_EVENT_SEAT + varint(n) for n in range(16))


def event(message: TableEvent, game: Game = convert.DEFAULT_GAME) -> bytes:
    """``ArenaMessage{event: ...}`` for one seat."""
    shared = message.event
    table_id = message.table_id
    last = _Last.event
    if last[0] is not shared or last[1] != table_id:
        template = pb.TableEvent()
        convert.fill_event(template, shared, game)
        last = _Last.event = (shared, table_id,
                              _table_id_field(table_id) + template.SerializeToString())
    body = last[2]
    sequence = message.sequence
    if sequence:
        body += (_SEQUENCES[sequence] if sequence < 1024
                 else _EVENT_SEQUENCE + varint(sequence))
    seat = message.seat
    if seat:
        body += _SEATS[seat] if seat < 16 else _EVENT_SEAT + varint(seat)
    return _EVENT + varint(len(body)) + body


def end(message: TableEnd, game: Game = convert.DEFAULT_GAME) -> bytes:
    """``ArenaMessage{table_end: ...}`` for one seat.

    A table ends every seat with the same result, cards and record objects (the runner builds
    them once), so everything but the seat is serialized once, for the first seat, and shared
    with the others only while all of these are the very same objects: what one seat is sent
    never depends on another's. With its deal record a TableEnd is the largest message."""
    shared = (message.table_id, message.result, message.cards, message.record, game.name)
    last = _Last.end
    if any(a is not b for a, b in zip(last[0], shared, strict=True)):
        template = convert.table_end_message(
            TableEnd(message.table_id, 0, message.result, message.cards, message.record), game
        )
        last = _Last.end = (shared, template.SerializeToString())
    body = last[1]
    if message.seat:
        body += _END_SEAT + varint(message.seat)
    return _TABLE_END + varint(len(body)) + body


_ACTIONS: dict[str, dict[object, bytes]] = {}
"""Encoded legal-action fields, per game name and action: a game's actions are few and fixed."""


def _legal_action_field(action: object, game: Game, known: dict[object, bytes]) -> bytes:
    field = known[action] = delimited(
        _LEGAL_ACTION, convert.action_to_pb(action, game).SerializeToString()
    )
    return field


def request(message: DecisionRequest, game: Game = convert.DEFAULT_GAME) -> bytes:
    """``ArenaMessage{request: ...}``."""
    head = convert.request_fields_to_pb(message).SerializeToString()
    known = _ACTIONS.setdefault(game.name, {})
    body = head + b"".join([
        known.get(a) or _legal_action_field(a, game, known) for a in message.legal_actions
    ])
    return _REQUEST + varint(len(body)) + body


def batch(messages: Sequence[bytes]) -> bytes:
    """``ArenaMessage{batch: MessageBatch{messages}}`` of already encoded ArenaMessages."""
    body = b"".join([_BATCH_ITEM + varint(len(m)) + m for m in messages])
    return _BATCH + varint(len(body)) + body


def batches(messages: Iterable[bytes], most: int) -> list[bytes]:
    """``messages`` as stream messages of at most ``most`` each (one alone is sent as is)."""
    pending = list(messages)
    out = []
    for start in range(0, len(pending), most):
        chunk = pending[start:start + most]
        out.append(chunk[0] if len(chunk) == 1 else batch(chunk))
    return out
