"""A scriptable, misbehaving bot for the end-to-end tests: a raw synchronous gRPC client.

    python -m tests.transport.bots --port P --token T --mode MODE [--tables N]

It plays until it has received ``N`` TableEnds (or the arena ends its stream), then prints one
JSON line saying what it received and did. Modes:

- ``random``: a good bot; a legal action chosen from the request alone (so deals replay).
- ``timeout``: never answers.
- ``illegal``: always answers an action that is not legal (of the wrong phase).
- ``late``: answers each request with a legal action, but only after its deadline.
- ``disconnect``: plays, but at its ``--after``-th request drops the stream without answering,
  stays away past the deadline, then reconnects with its token and plays on.
- ``garbage``: answers its first request with an empty Action, its second with card 200, and
  sends a raw payload that is not protobuf at its third, which breaks the stream; it then
  reconnects and plays on.
- ``batched``: answers each request with one DecisionBatch of three decisions: an empty action
  for its request id at ``--other-table``, its own legal answer, then an illegal second answer
  to the same request (which must be dropped, not replace the first).
- ``other_seat``: answers for requests that are not its own (neighbouring request ids of its own
  table and of ``--other-table``, and its own request id with the other table's id), never its
  own requests.
"""

from __future__ import annotations

import argparse
import json
import queue
import random
import sys
import threading
import time
from collections import Counter
from collections.abc import Iterator
from typing import Any

import grpc

from arena.proto_gen.tarot_arena.v1 import arena_pb2 as pb

CONNECT = "/tarot_arena.v1.BotService/Connect"
JUNK = b"\xff" * 12 + b"not a protobuf message"
MODES = ("random", "timeout", "illegal", "late", "disconnect", "garbage", "other_seat", "batched")


def serialize(message: pb.BotMessage | bytes) -> bytes:
    """Protobuf, except that raw bytes go out as they are (the garbage mode's junk)."""
    return message if isinstance(message, bytes) else message.SerializeToString()


def choose(request: pb.DecisionRequest) -> pb.Action:
    """A legal action that depends on the request only, so a deal plays the same every run."""
    key = (request.table_id, request.seat, request.kind, tuple(request.hand),
           tuple(a.SerializeToString() for a in request.legal_actions))
    rng = random.Random(repr(key))
    legal = list(request.legal_actions)
    if request.kind == pb.DECIDE_BID and rng.random() < 0.5:
        return legal[0]  # pass half of the time, else some bid
    return rng.choice(legal)


def illegal(request: pb.DecisionRequest) -> pb.Action:
    """An action of the wrong phase: a card while bidding, a pass otherwise."""
    if request.kind == pb.DECIDE_BID:
        return pb.Action(play=request.hand[0])
    return pb.Action(**{"pass": pb.Empty()})


class Bot:
    def __init__(self, args: argparse.Namespace) -> None:
        self.args = args
        self.channel = grpc.insecure_channel(f"127.0.0.1:{args.port}")
        self.connect_rpc = self.channel.stream_stream(
            CONNECT, request_serializer=serialize,
            response_deserializer=pb.ArenaMessage.FromString,
        )
        self.outbox: queue.Queue[pb.BotMessage | bytes | None] = queue.Queue()
        self.outboxes: list[queue.Queue[pb.BotMessage | bytes | None]] = []
        self.call: Any = None
        self.away: float | None = None
        self.requests = 0  # requests received on all streams
        self.ends = 0
        self.expected: dict[tuple[str, int], int] = {}
        self.timers: list[threading.Timer] = []
        self.open_requests: set[int] = set()  # received, not yet settled by a notice
        self.stop = False
        self.summary: dict[str, Any] = {
            "mode": args.mode, "streams": 0, "received": Counter(), "starts": [],
            "notices": [], "ends": [], "errors": [], "sequence_errors": 0, "answers": 0,
            "late_while_next_open": 0,
        }

    # ------------------------------------------------------------------------- streams
    def hello(self) -> pb.BotMessage:
        return pb.BotMessage(hello=pb.Hello(
            token=self.args.token, bot_name=f"test-{self.args.mode}", bot_version="1",
            protocol_version=1, max_tables=self.args.max_tables,
        ))

    def open(self) -> None:
        outbox: queue.Queue[pb.BotMessage | bytes | None] = queue.Queue()
        outbox.put(self.hello())
        self.outbox = outbox
        self.outboxes.append(outbox)

        def messages() -> Iterator[pb.BotMessage | bytes]:
            while (message := outbox.get()) is not None:
                yield message

        self.call = self.connect_rpc(messages())
        self.summary["streams"] += 1

    def send(self, message: pb.BotMessage | bytes) -> None:
        self.outbox.put(message)

    def answer(self, request: pb.DecisionRequest, action: pb.Action,
               table_id: str | None = None, request_id: int | None = None) -> pb.BotMessage:
        self.summary["answers"] += 1
        message = pb.BotMessage(decision=pb.Decision(
            table_id=request.table_id if table_id is None else table_id,
            request_id=request.request_id if request_id is None else request_id,
            action=action,
        ))
        self.send(message)
        return message

    def run(self) -> dict[str, Any]:
        self.open()
        while True:
            call = self.call
            try:
                for message in call:
                    self.handle(message)
                    if self.call is not call or self.away is not None:
                        break
            except grpc.RpcError as exc:
                if self.call is call:  # not the stream this bot dropped for a new one
                    code = exc.code()
                    self.summary["errors"].append(code.name if code else "?")
            if self.call is not call:  # handed over to a new stream: drop the old one
                call.cancel()
                continue
            if self.stop:
                break
            if self.away is None and self.args.mode == "garbage":  # the junk broke the stream
                self.away = 0.05
            if self.away is None:  # the arena ended the stream (revoked, shutting down)
                break
            call.cancel()
            time.sleep(self.away)
            self.away = None
            self.open()
        for timer in self.timers:
            timer.join()
        for outbox in self.outboxes:
            outbox.put(None)
        self.channel.close()
        return self.summary

    # ------------------------------------------------------------------------ messages
    def handle(self, message: pb.ArenaMessage) -> None:
        kind = message.WhichOneof("kind")
        self.summary["received"][kind] += 1
        if kind == "table_start":
            start = message.table_start
            self.summary["starts"].append({
                "table_id": start.table_id, "seat": start.seat, "resumed": start.resumed,
                "next_sequence": start.next_sequence, "hand": list(start.view.hand),
            })
            self.expected[(start.table_id, start.seat)] = start.next_sequence
        elif kind == "event":
            event = message.event
            key = (event.table_id, event.seat)
            if self.expected.get(key) != event.sequence:
                self.summary["sequence_errors"] += 1
            self.expected[key] = event.sequence + 1
        elif kind == "notice":
            notice = message.notice
            if notice.kind == pb.TIMEOUT:
                self.open_requests.discard(notice.request_id)
            self.summary["notices"].append({
                "kind": pb.InfractionKind.Name(notice.kind), "table_id": notice.table_id,
                "request_id": notice.request_id, "seat": notice.seat,
                "message": notice.message,
            })
        elif kind == "table_end":
            end = message.table_end
            self.summary["ends"].append(
                {"table_id": end.table_id, "seat": end.seat, "scores": list(end.scores)}
            )
            self.ends += 1
            if self.ends >= self.args.tables:
                self.finish()
        elif kind == "request":
            self.requests += 1
            self.open_requests.add(message.request.request_id)
            self.decide(message.request)

    def finish(self) -> None:
        """Close the stream once the answers still due (late mode) have gone out."""
        self.stop = True
        linger = 0.5 if self.args.mode == "late" else 0.0
        timer = threading.Timer(linger, self.outbox.put, [None])
        timer.start()

    def late(self, request: pb.DecisionRequest, seconds: float) -> None:
        """Answer ``request`` after ``seconds``; note whether a newer request is open then."""
        outbox = self.outbox
        message = pb.BotMessage(decision=pb.Decision(
            table_id=request.table_id, request_id=request.request_id, action=choose(request),
        ))

        def send() -> None:
            newer = [r for r in self.open_requests if r > request.request_id]
            self.summary["late_while_next_open"] += bool(newer)
            outbox.put(message)

        self.summary["answers"] += 1
        timer = threading.Timer(seconds, send)
        self.timers.append(timer)
        timer.start()

    def decide(self, request: pb.DecisionRequest) -> None:
        mode = self.args.mode
        deadline = (request.time_limit_ms + request.time_bank_ms) / 1000
        if mode == "random":
            self.answer(request, choose(request))
        elif mode == "timeout":
            pass
        elif mode == "illegal":
            self.answer(request, illegal(request))
        elif mode == "late":
            self.late(request, deadline + 0.15)
        elif mode == "disconnect":
            if self.requests != self.args.after:
                self.answer(request, choose(request))
            elif self.args.handover:  # a new stream first, then the old one is dropped
                self.summary["disconnected_at"] = request.request_id
                self.open()
                self.handle(next(self.call))  # the Welcome: the arena knows the new stream
            else:
                self.summary["disconnected_at"] = request.request_id
                self.away = self.args.away if self.args.away is not None else deadline + 0.3
        elif mode == "garbage":
            if self.requests == 1:
                self.answer(request, pb.Action())
            elif self.requests == 2:
                self.answer(request, pb.Action(play=200))
            elif self.requests == 3:
                self.send(JUNK)
            else:
                self.answer(request, choose(request))
        elif mode == "batched":
            def decision(table_id: str, action: pb.Action) -> pb.Decision:
                return pb.Decision(table_id=table_id, request_id=request.request_id, action=action)

            others = [t for t in self.args.other_table if t]
            self.summary["answers"] += 2 + len(others)
            self.send(pb.BotMessage(decisions=pb.DecisionBatch(decisions=[
                *(decision(table, pb.Action()) for table in others),
                decision(request.table_id, choose(request)),
                decision(request.table_id, illegal(request)),
            ])))
        elif mode == "other_seat":
            others = [t for t in self.args.other_table if t]
            for delta in range(-6, 7):
                rid = request.request_id + delta
                if delta and rid > 0:
                    self.answer(request, pb.Action(), request_id=rid)
                for table in others:
                    self.answer(request, pb.Action(), table_id=table, request_id=max(rid, 1))
        else:  # pragma: no cover - argparse checks the mode
            raise ValueError(mode)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--token", required=True)
    parser.add_argument("--mode", choices=MODES, default="random")
    parser.add_argument("--tables", type=int, default=1, help="stop after this many TableEnds")
    parser.add_argument("--max-tables", type=int, default=16)
    parser.add_argument("--after", type=int, default=3, help="disconnect: at this request")
    parser.add_argument("--away", type=float, help="disconnect: seconds away (default: past "
                        "the deadline)")
    parser.add_argument("--handover", action="store_true",
                        help="disconnect: open the new stream before dropping the old one")
    parser.add_argument("--other-table", action="append", default=[])
    summary = Bot(parser.parse_args(argv)).run()
    json.dump(summary, sys.stdout)
    sys.stdout.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
