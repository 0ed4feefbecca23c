"""The arena under a bounded attack from one valid token while tables play, against the same
run without the attack.

Both runs use ``bench/arena.py``'s machinery, each on a fresh arena server process with the
same 4 bench bots (one process each, answering at once) and one more registered bot whose
token only the attacker uses:

1. warm-up: 16 deals at 16 tables;
2. measured: ``--deals`` deals at 16 concurrent tables (decisions/s, as bench/arena.py
   measures them), while a prober in this process checks gRPC health every 20 ms (latency
   p50/p99/max) and, in the attack run, an attacker process attacks from the start of the
   level to its end;
3. ``--after`` seconds (default 60) later, the arena server's resident memory (VmRSS), against
   the clean run's at the same point.

The attack, all on loopback, from one process, bounded in count and in time (it stops with the
level, or after ``--attack-seconds`` at most), each part at a fixed pace:

* churn: streams opened with the valid token and a Hello, then dropped (up to 100/s);
* garbage: streams whose first message is not protobuf, and streams sending junk after Hello
  (up to 50/s);
* decision floods: 4 streams sending DecisionBatches of 256 answers to requests that do not
  exist, reading what comes back, reopened when the arena cuts them off;
* a client that never reads: 2 streams (small receive window) that say Hello and then flood
  decisions without ever reading the Notices;
* slowloris: 50 TCP connections that send half of the HTTP/2 preface and then nothing.

Targets: attack decisions/s >= 0.8 of clean, health p99 < 100 ms under attack, VmRSS
``--after`` s after the attack within 10 % of the clean run's. The last stdout line is one
JSON object of all figures; a run takes about ``2 * (after + 20)`` seconds.

    python -m bench.attack [--quick] [--deals N] [--after S] [--attack-seconds S]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import signal
import socket
import sys
import threading
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.arena import (  # noqa: E402  (after the path insert, like bench/arena_bot.py)
    BOT,
    HOST,
    SELF,
    Child,
    Children,
    emit,
    latency_figures,
    log,
    rss_mb,
)

TABLES = 16
DEFAULT_DEALS = 1200
QUICK_DEALS = 400
ATTACKER = ["-m", "bench.attack"]
PROBE_INTERVAL = 0.02
JUNK = b"\xff" * 12 + b"not a protobuf message"


# ===================================================================== child: the attacker
def attacker(port: int, token: str, seconds: float) -> None:
    """Attack until a line arrives on stdin (or ``seconds`` pass); report counts as JSON."""
    asyncio.run(_attack(port, token, seconds))


async def _attack(port: int, token: str, seconds: float) -> None:
    import grpc

    from arena.proto_gen.tarot_arena.v1 import arena_pb2 as pb
    from arena.proto_gen.tarot_arena.v1 import arena_pb2_grpc as pb_grpc

    target = f"{HOST}:{port}"
    counts: dict[str, int] = {}
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    loop.add_reader(sys.stdin.fileno(), stop.set)
    loop.call_later(seconds, stop.set)

    def count(what: str) -> None:
        counts[what] = counts.get(what, 0) + 1

    def hello() -> pb.BotMessage:
        return pb.BotMessage(hello=pb.Hello(token=token, bot_name="attacker", bot_version="1",
                                            protocol_version=1, max_tables=1024, batching=True))

    def bogus_batch(start: int) -> pb.BotMessage:
        return pb.BotMessage(decisions=pb.DecisionBatch(decisions=[
            pb.Decision(table_id="no-such-table", request_id=start + n,
                        action=pb.Action(notation="play T21")) for n in range(256)]))

    async def ended(call: Any, what: str) -> None:
        try:
            async for _ in call:
                pass
            count(f"{what}: OK")
        except grpc.aio.AioRpcError as exc:
            count(f"{what}: {exc.code().name}")

    async def paced(rate: float, attempt: Any) -> None:
        """``attempt()`` up to ``rate`` times a second, each in a task of its own, until
        stopped; at most 64 at once."""
        running: set[asyncio.Task[None]] = set()
        while not stop.is_set():
            if len(running) < 64:
                task = asyncio.create_task(attempt())
                running.add(task)
                task.add_done_callback(running.discard)
            await asyncio.sleep(1 / rate)
        for task in running:
            task.cancel()
        await asyncio.gather(*running, return_exceptions=True)

    async with grpc.aio.insecure_channel(target) as channel:
        stub = pb_grpc.BotServiceStub(channel)
        raw = channel.stream_stream("/tarot_arena.v1.BotService/Connect",
                                    request_serializer=lambda m: m,
                                    response_deserializer=pb.ArenaMessage.FromString)

        async def churn() -> None:
            call = stub.Connect()
            try:
                await call.write(hello())
                first = await call.read()
                count("churn: welcomed" if first is not grpc.aio.EOF
                      and first.WhichOneof("kind") == "welcome" else "churn: refused")
            except grpc.aio.AioRpcError as exc:
                count(f"churn: {exc.code().name}")
            finally:
                call.cancel()

        async def garbage_first() -> None:
            await ended(raw(iter([JUNK])), "garbage first")

        async def garbage_after_hello() -> None:
            await ended(raw(iter([hello().SerializeToString(), JUNK])), "garbage after hello")

        async def flood(number: int) -> None:
            start = 1
            while not stop.is_set():
                call = stub.Connect()
                try:
                    await call.write(hello())
                    reader = asyncio.create_task(ended(call, "flood stream"))
                    while not stop.is_set() and not reader.done():
                        await call.write(bogus_batch(start))
                        start += 256
                        count("flood: decisions sent (x256)")
                        await asyncio.sleep(0.01)
                    call.cancel()
                    await reader
                except grpc.aio.AioRpcError as exc:
                    count(f"flood: {exc.code().name}")
                except asyncio.InvalidStateError:  # the arena ended it while we wrote
                    count("flood: ended while writing")
                await asyncio.sleep(0.2)

        async def never_read(number: int) -> None:
            options = [("grpc.http2.bdp_probe", 0), ("grpc.http2.lookahead_bytes", 4096)]
            start = 1
            while not stop.is_set():
                async with grpc.aio.insecure_channel(target, options=options) as deaf:
                    call = pb_grpc.BotServiceStub(deaf).Connect()
                    try:
                        await call.write(hello())
                        while not stop.is_set() and not call.done():
                            await call.write(bogus_batch(start))
                            start += 256
                            await asyncio.sleep(0.02)
                        if call.done():
                            count(f"never reads: {(await call.code()).name}")
                    except grpc.aio.AioRpcError as exc:
                        count(f"never reads: {exc.code().name}")
                    except asyncio.InvalidStateError:
                        count(f"never reads: {(await call.code()).name}")
                    call.cancel()
                await asyncio.sleep(0.5)

        async def slowloris() -> None:
            sockets = []
            for _ in range(50):
                sock = socket.socket()
                sock.setblocking(False)
                with contextlib.suppress(OSError):
                    await loop.sock_connect(sock, (HOST, port))
                    await loop.sock_sendall(sock, b"PRI * HTTP/2.0\r\n")
                    sockets.append(sock)
            count_open = len(sockets)
            await stop.wait()
            closed = 0
            for sock in sockets:
                with contextlib.suppress(OSError):  # BlockingIOError: still open
                    while data := sock.recv(65536):  # the arena's SETTINGS, then EOF
                        del data
                    closed += 1
                sock.close()
            counts["slowloris: opened"] = count_open
            counts["slowloris: closed by the arena"] = closed

        await asyncio.gather(
            paced(100, churn), paced(25, garbage_first), paced(25, garbage_after_hello),
            *(flood(n) for n in range(4)), *(never_read(n) for n in range(2)), slowloris(),
        )
    emit({"attack": dict(sorted(counts.items()))})


# ====================================================================== parent: the bench
class HealthProber:
    """Checks gRPC health every :data:`PROBE_INTERVAL` seconds in a thread; latencies kept."""

    def __init__(self, port: int) -> None:
        import grpc
        from grpc_health.v1 import health_pb2, health_pb2_grpc

        self.channel = grpc.insecure_channel(f"{HOST}:{port}")
        self.stub = health_pb2_grpc.HealthStub(self.channel)
        self.request = health_pb2.HealthCheckRequest(service="tarot_arena.v1.BotService")
        self.seconds: list[float] = []
        self.failures = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def _run(self) -> None:
        while not self._stop.is_set():
            began = time.perf_counter()
            try:
                self.stub.Check(self.request, timeout=5)
                self.seconds.append(time.perf_counter() - began)
            except Exception:
                self.failures += 1
            self._stop.wait(PROBE_INTERVAL)

    def stop(self) -> dict[str, Any]:
        self._stop.set()
        self._thread.join(10)
        self.channel.close()
        return {"checks": len(self.seconds), "failures": self.failures,
                **latency_figures(self.seconds)}


def one_run(args: argparse.Namespace, attack: bool) -> dict[str, Any]:
    name = "attack" if attack else "clean"
    children = Children()
    try:
        server = children.start("arena server", [*SELF, "--role", "arena-server",
                                                 "--extra-tokens", "1"])
        hello = server.receive(60)
        bots = [children.start(f"bot {i}", [*BOT, "--port", str(hello["port"]), "--token",
                                            token, "--max-tables", "1024"])
                for i, token in enumerate(hello["tokens"])]
        server.receive(60)  # every bot connected
        server.send({"cmd": "level", "tables": TABLES, "deals": 16, "seed": 0})
        server.receive(120)
        rss_before, _ = rss_mb(server.process.pid)
        intruder: Child | None = None
        if attack:  # started before the prober's gRPC threads: no fork with them running
            intruder = children.start("attacker", [
                *ATTACKER, "--role", "attacker", "--port", str(hello["port"]),
                "--token", hello["extra_tokens"][0], "--seconds", str(args.attack_seconds)])
        prober = HealthProber(hello["port"])
        time.sleep(1.0)  # the attack under way before the level starts
        server.send({"cmd": "level", "tables": TABLES, "deals": args.deals, "seed": 1000})
        level = server.receive(600)
        counts: dict[str, Any] = {}
        if intruder is not None:
            with contextlib.suppress(OSError):
                intruder.send({"cmd": "stop"})
            with contextlib.suppress(TimeoutError, RuntimeError):
                counts = intruder.receive(30)["attack"]
            children.stop([intruder])
        health = prober.stop()
        rss_end, hwm = rss_mb(server.process.pid)
        log(f"{name}: {level['decisions_per_s']:.0f} decisions/s at {TABLES} tables "
            f"({level['infractions']} infractions), health p50 {health['p50_ms']:.1f} ms p99 "
            f"{health['p99_ms']:.1f} ms max {health['max_ms']:.1f} ms ({health['failures']} "
            f"failed), VmRSS {rss_before:.1f} MB before, {rss_end:.1f} MB at the end "
            f"(peak {hwm:.1f}); waiting {args.after:g} s")
        if counts:
            log(f"attack: {json.dumps(counts)}")
        time.sleep(args.after)
        rss_after, _ = rss_mb(server.process.pid)
        log(f"{name}: VmRSS {rss_after:.1f} MB {args.after:g} s later")
        server.send({"cmd": "quit"})
        with contextlib.suppress(Exception):
            server.wait(10)
        children.stop(bots)
        return {"level": level, "health": health, "rss_mb_before": rss_before,
                "rss_mb_end": rss_end, "rss_mb_peak": hwm, "rss_mb_after": rss_after,
                "attack": counts}
    finally:
        children.stop()


def parent(args: argparse.Namespace) -> dict[str, Any]:
    began = time.perf_counter()
    clean = one_run(args, attack=False)
    attacked = one_run(args, attack=True)
    throughput = attacked["level"]["decisions_per_s"] / clean["level"]["decisions_per_s"]
    memory = attacked["rss_mb_after"] / clean["rss_mb_after"]
    p99 = attacked["health"]["p99_ms"]
    figures = {
        "deals": args.deals, "tables": TABLES, "after_s": args.after,
        "clean": clean, "attacked": attacked,
        "throughput_ratio": round(throughput, 3), "meets_throughput": throughput >= 0.8,
        "health_p99_ms_attacked": p99, "meets_health": p99 < 100,
        "rss_ratio_after": round(memory, 3), "meets_rss": memory <= 1.10,
        "total_seconds": round(time.perf_counter() - began, 1),
    }
    log(f"throughput under attack {throughput:.2f} of clean (target >= 0.8), health p99 "
        f"{p99:.1f} ms (target < 100), VmRSS {args.after:g} s after {memory:.2f} of clean "
        f"(target <= 1.10); total {figures['total_seconds']:.0f} s")
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true",
                        help=f"{QUICK_DEALS} deals and 20 s before the memory figure")
    parser.add_argument("--deals", type=int, default=0,
                        help=f"deals in the measured level (default {DEFAULT_DEALS})")
    parser.add_argument("--after", type=float, default=None,
                        help="seconds after the attack for the memory figure (default 60)")
    parser.add_argument("--attack-seconds", type=float, default=120.0,
                        help="the attack stops after this long even if the level goes on")
    parser.add_argument("--role", choices=("attacker",), help=argparse.SUPPRESS)
    parser.add_argument("--port", type=int, default=0, help=argparse.SUPPRESS)
    parser.add_argument("--token", default="", help=argparse.SUPPRESS)
    parser.add_argument("--seconds", type=float, default=120.0, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.role == "attacker":
        attacker(args.port, args.token, args.seconds)
        return
    args.deals = args.deals or (QUICK_DEALS if args.quick else DEFAULT_DEALS)
    if args.after is None:
        args.after = 20.0 if args.quick else 60.0
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(1))
    print(json.dumps(parent(args)), flush=True)


if __name__ == "__main__":
    main()
