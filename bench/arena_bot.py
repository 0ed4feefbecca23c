"""A minimal remote bot (or echo client) for bench/arena.py, one process, grpc.aio or sync.

Bot mode: one BotService.Connect stream; every DecisionRequest is answered at once with its first
legal action, except that the first bidder takes a Petite (first legal actions only would pass
every deal out after four decisions), the requests of one stream message together in one
DecisionBatch; ``--hold``: never answered, to keep tables open for the
memory figure. The process ends when the arena ends the stream, printing what it received as
one JSON line on stdout.

Echo mode (``--echo N``): N streams to bench/arena.py's bare echo server; every request received
is answered at once.

    python -m bench.arena_bot --port P --token T [--max-tables 1024] [--hold] [--impl aio|sync|sdk]
                              [--one-by-one] [--tls-ca FILE] [--profile FILE] [--record FILE]

``--tls-ca``: connect over TLS, trusting that CA (bench/arena.py's ``--tls`` comparison).
    python -m bench.arena_bot --port P --echo N
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import queue
import signal
import sys
import time
from collections.abc import Iterator, Sequence
from pathlib import Path

import grpc

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from arena.proto_gen.tarot_arena.v1 import arena_pb2 as pb
from arena.proto_gen.tarot_arena.v1 import arena_pb2_grpc as pb_grpc

HOST = "127.0.0.1"
TLS_CA: Path | None = None
"""The CA to trust over TLS (``--tls-ca``); None: plaintext."""


def aio_channel(port: int) -> grpc.aio.Channel:
    if TLS_CA is None:
        return grpc.aio.insecure_channel(f"{HOST}:{port}")
    return grpc.aio.secure_channel(f"{HOST}:{port}",
                                   grpc.ssl_channel_credentials(TLS_CA.read_bytes()))


def sync_channel(port: int) -> grpc.Channel:
    if TLS_CA is None:
        return grpc.insecure_channel(f"{HOST}:{port}")
    return grpc.secure_channel(f"{HOST}:{port}", grpc.ssl_channel_credentials(TLS_CA.read_bytes()))


def _hello(token: str, max_tables: int) -> pb.BotMessage:
    return pb.BotMessage(hello=pb.Hello(
        token=token, bot_name="bench-first-legal", bot_version="1", protocol_version=1,
        max_tables=max_tables, batching=True,
    ))


def unbatch(message: pb.ArenaMessage) -> Sequence[pb.ArenaMessage]:
    """The messages a stream message carries (a batch, or itself)."""
    if message.WhichOneof("kind") == "batch":
        return message.batch.messages
    return (message,)


def choose(request: pb.DecisionRequest) -> pb.Action:
    """The first legal action, except that the first bidder takes a Petite.

    The first legal action when bidding is a pass: with it alone every deal would end after
    four passes, so the seat bids Petite while Petite is still open (nobody has bid yet).
    """
    legal = request.legal_actions
    if request.kind == pb.DECIDE_BID:
        for action in legal:
            if action.WhichOneof("kind") == "bid" and action.bid == pb.PETITE:
                return action
    return legal[0]


def answers(
    message: pb.ArenaMessage, counts: dict[str, float], hold: bool
) -> list[pb.Decision]:
    """The decisions a stream message calls for (none when holding), counted in ``counts``."""
    counts["messages"] += 1
    out = []
    for item in unbatch(message):
        if item.WhichOneof("kind") != "request":
            continue
        counts["requests"] += 1
        if hold:
            continue
        began = time.perf_counter()
        request = item.request
        out.append(pb.Decision(
            table_id=request.table_id, request_id=request.request_id, action=choose(request),
        ))
        counts["think_seconds"] += time.perf_counter() - began
    return out


def outgoing(decisions: list[pb.Decision], one_by_one: bool) -> list[pb.BotMessage]:
    """The decisions of one arena message as stream messages: one DecisionBatch if several,
    or one message each (``one_by_one``, like a bot that does not batch); none for none. An
    empty DecisionBatch went out after every message without a request (a TableEnd, the
    Goodbye, each request held by ``--hold``), and the one written after the Goodbye, as the
    arena ended the stream, failed as INTERNAL ("Internal error from Core") at the bench's
    end, now and then."""
    if not decisions:
        return []
    if one_by_one or len(decisions) == 1:
        return [pb.BotMessage(decision=decision) for decision in decisions]
    return [pb.BotMessage(decisions=pb.DecisionBatch(decisions=decisions))]


async def play(
    port: int, token: str, max_tables: int, hold: bool, one_by_one: bool
) -> dict[str, float]:
    """Answer every request at once (or hold it); counts of what was received."""
    counts: dict[str, float] = {"requests": 0, "messages": 0, "think_seconds": 0.0}
    async with aio_channel(port) as channel:
        call = pb_grpc.BotServiceStub(channel).Connect()
        await call.write(_hello(token, max_tables))
        try:
            while True:
                message = await call.read()
                if message is grpc.aio.EOF:
                    break
                for answer in outgoing(answers(message, counts, hold), one_by_one):
                    await call.write(answer)
        except grpc.aio.AioRpcError as exc:
            # A stream cancelled or cut at the bench's end is its normal end; before the
            # Welcome it is why the arena never saw this bot connect: said either way.
            if (exc.code() not in (grpc.StatusCode.CANCELLED, grpc.StatusCode.UNAVAILABLE)
                    or not counts["messages"]):
                print(f"bot: stream ended: {exc.code()} {exc.details()}", file=sys.stderr)
    return counts


def play_sync(
    port: int, token: str, max_tables: int, hold: bool, one_by_one: bool
) -> dict[str, float]:
    """The same bot with grpcio's synchronous API: requests are fed by a queue."""
    counts: dict[str, float] = {"requests": 0, "messages": 0, "think_seconds": 0.0}
    outbox: queue.SimpleQueue[pb.BotMessage | None] = queue.SimpleQueue()
    outbox.put(_hello(token, max_tables))

    def requests() -> Iterator[pb.BotMessage]:
        while (message := outbox.get()) is not None:
            yield message

    with sync_channel(port) as channel:
        try:
            for message in pb_grpc.BotServiceStub(channel).Connect(requests()):
                for answer in outgoing(answers(message, counts, hold), one_by_one):
                    outbox.put(answer)
        except grpc.RpcError as exc:
            if exc.code() not in (grpc.StatusCode.CANCELLED, grpc.StatusCode.UNAVAILABLE):
                print(f"bot: stream ended: {exc.code()} {exc.details()}", file=sys.stderr)
        finally:
            outbox.put(None)
    return counts


def play_sdk(port: int, token: str, max_tables: int, record: Path | None = None
             ) -> dict[str, float]:
    """The same choices made by a bot written with the Python SDK (``clients.sdk``), which
    decodes every message into a table view: what a Python bot author gets. Runs until SIGTERM.

    ``record``: every stream message received is written there as it came
    (:mod:`bench.sdk_replay` replays them without the transport).
    """
    from bench.sdk_replay import first_legal_sdk_bot
    from clients.sdk import ClientTls, run_bot

    counts: dict[str, float] = {"requests": 0, "messages": 0, "think_seconds": 0.0}
    recorder = contextlib.nullcontext() if record is None else recording(record)
    with recorder:
        run_bot(first_legal_sdk_bot(counts), f"{HOST}:{port}", token, max_tables=max_tables,
                tls=ClientTls(ca=TLS_CA) if TLS_CA is not None else False)
    return counts


@contextlib.contextmanager
def recording(path: Path) -> Iterator[None]:
    """Every ``pb.ArenaMessage`` the SDK's streams hand to trio, kept as received and written
    to ``path`` at the end (:func:`bench.sdk_replay.write_recording`)."""
    from bench.sdk_replay import write_recording
    from clients.sdk import _link

    kept: list[bytes] = []
    deliver = _link.Stream._deliver

    def keeping(stream: _link.Stream, item: object) -> None:
        if isinstance(item, pb.ArenaMessage):
            kept.append(item.SerializeToString())
        deliver(stream, item)

    _link.Stream._deliver = keeping  # type: ignore[method-assign]
    try:
        yield
    finally:
        _link.Stream._deliver = deliver  # type: ignore[method-assign]
        write_recording(path, kept)


async def echo(port: int, streams: int) -> int:
    """``streams`` echo streams; the number of round trips answered."""
    answered = 0

    async def one(stub: pb_grpc.BotServiceStub) -> None:
        nonlocal answered
        call = stub.Connect()
        await call.write(_hello("echo", 1))
        with contextlib.suppress(grpc.aio.AioRpcError):
            while True:
                message = await call.read()
                if message is grpc.aio.EOF:
                    break
                if message.WhichOneof("kind") != "request":
                    continue
                request = message.request
                await call.write(pb.BotMessage(decision=pb.Decision(
                    table_id=request.table_id, request_id=request.request_id,
                    action=request.legal_actions[0],
                )))
                answered += 1

    async with grpc.aio.insecure_channel(f"{HOST}:{port}") as channel:
        stub = pb_grpc.BotServiceStub(channel)
        await asyncio.gather(*(one(stub) for _ in range(streams)))
    return answered


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--token", default="")
    parser.add_argument("--max-tables", type=int, default=1024)
    parser.add_argument("--hold", action="store_true", help="never answer (keeps tables open)")
    parser.add_argument("--impl", choices=("aio", "sync", "sdk"), default="aio",
                        help="grpc.aio (default), grpcio's synchronous API, or the Python SDK "
                             "(stops on SIGTERM; no --hold, --one-by-one)")
    parser.add_argument("--one-by-one", action="store_true",
                        help="one Decision per stream message instead of a DecisionBatch")
    parser.add_argument("--echo", type=int, default=0, metavar="N", help="echo client, N streams")
    parser.add_argument("--tls-ca", type=Path, default=None, metavar="FILE",
                        help="connect over TLS, trusting this CA (PEM)")
    parser.add_argument("--profile", default=None, metavar="FILE",
                        help="cProfile the bot's main thread in CPU time (a .prof file)")
    parser.add_argument("--record", type=Path, default=None, metavar="FILE",
                        help="--impl sdk: write every stream message received to FILE "
                             "(bench/sdk_replay.py replays it)")
    args = parser.parse_args()
    global TLS_CA
    TLS_CA = args.tls_ca
    # The parent ends us with SIGTERM: leave quietly.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    try:
        if args.echo:
            asyncio.run(echo(args.port, args.echo))
        else:
            profiler = None
            if args.profile:  # CPU time of this thread: the bot's wall time is mostly waiting
                import cProfile
                profiler = cProfile.Profile(time.thread_time)
                profiler.enable()
            if args.impl == "sdk":
                counts = play_sdk(args.port, args.token, args.max_tables, args.record)
            elif args.impl == "sync":
                counts = play_sync(args.port, args.token, args.max_tables, args.hold,
                                   args.one_by_one)
            else:
                counts = asyncio.run(play(args.port, args.token, args.max_tables, args.hold,
                                          args.one_by_one))
            if profiler is not None:
                profiler.disable()
                profiler.dump_stats(args.profile)
            print(json.dumps({"bot": counts}), flush=True)  # for the parent, at the end
    except KeyboardInterrupt:
        pass


if __name__ == "__main__":
    main()
