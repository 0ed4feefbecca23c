"""A raw protocol client for the contract tests: plain generated stubs, no SDK, in a thread.

It records every stream message as the list of ArenaMessages it carried (a batch unbatched),
with the number of the stream it came on, so that tests can check exactly what the arena sent
and how it was grouped. ``policy(bot, request)`` returns the BotMessages to send for a request
(an empty list: no answer), or :data:`RECONNECT` to drop the stream unanswered and open a new
one with the same token.
"""

from __future__ import annotations

import queue
import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any, Final

import grpc

from arena.proto_gen.tarot_arena.v1 import arena_pb2 as pb

CONNECT: Final = "/tarot_arena.v1.BotService/Connect"
RECONNECT: Final = "reconnect"

Policy = Callable[["RawBot", pb.DecisionRequest], "list[pb.BotMessage] | str"]


def decision(request: pb.DecisionRequest, action: pb.Action, request_id: int | None = None,
             table_id: str | None = None) -> pb.BotMessage:
    return pb.BotMessage(decision=pb.Decision(
        table_id=request.table_id if table_id is None else table_id,
        request_id=request.request_id if request_id is None else request_id, action=action,
    ))


def first_legal(bot: RawBot, request: pb.DecisionRequest) -> list[pb.BotMessage]:
    """The first legal action, except that it bids the lowest contract it may (so that deals
    are played, not all passed)."""
    legal = list(request.legal_actions)
    bids = [a for a in legal if a.WhichOneof("kind") == "bid"]
    return [decision(request, bids[0] if bids else legal[0])]


def random_legal(bot: RawBot, request: pb.DecisionRequest) -> list[pb.BotMessage]:
    return [decision(request, bot.rng.choice(list(request.legal_actions)))]


@dataclass
class Received:
    stream: int
    messages: list[pb.ArenaMessage]
    """One stream message: a batch's messages, or the message alone."""


@dataclass
class RawBot:
    target: str
    token: str
    policy: Policy = first_legal
    tables: int = 1
    """Half-close (the arena then ends the stream with OK) after this many TableEnds."""
    batching: bool = True
    max_tables: int = 1
    received: list[Received] = field(default_factory=list)
    streams: int = 0
    ends: int = 0
    status: grpc.StatusCode | None = None
    rng: random.Random = field(default_factory=lambda: random.Random(7))

    def messages(self, kind: str | None = None) -> list[pb.ArenaMessage]:
        out = [m for r in self.received for m in r.messages]
        return out if kind is None else [m for m in out if m.WhichOneof("kind") == kind]

    def run(self) -> RawBot:
        """Play until done (blocking: run it in a worker thread)."""
        with grpc.insecure_channel(self.target) as channel:
            connect = channel.stream_stream(
                CONNECT, request_serializer=pb.BotMessage.SerializeToString,
                response_deserializer=pb.ArenaMessage.FromString,
            )
            while self._stream(connect):
                pass
        return self

    def _stream(self, connect: Any) -> bool:
        """One stream; True to open another."""
        outbox: queue.Queue[pb.BotMessage | None] = queue.Queue()
        outbox.put(pb.BotMessage(hello=pb.Hello(
            token=self.token, bot_name="raw", bot_version="1", protocol_version=1,
            max_tables=self.max_tables, batching=self.batching,
        )))

        def pending() -> Iterator[pb.BotMessage]:
            while (message := outbox.get()) is not None:
                yield message

        self.streams += 1
        call = connect(pending())
        try:
            for message in call:
                parts = (list(message.batch.messages)
                         if message.WhichOneof("kind") == "batch" else [message])
                self.received.append(Received(self.streams, parts))
                for part in parts:
                    if part.WhichOneof("kind") == "table_end":
                        self.ends += 1
                        if self.ends >= self.tables:
                            outbox.put(None)
                    elif part.WhichOneof("kind") == "request":
                        answer = self.policy(self, part.request)
                        if answer == RECONNECT:
                            call.cancel()
                            outbox.put(None)
                            return True
                        for out in answer:
                            outbox.put(out)  # type: ignore[arg-type]
            self.status = call.code()
        except grpc.RpcError as exc:
            self.status = exc.code()
        finally:
            outbox.put(None)
        return False
