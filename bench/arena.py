"""The arena over gRPC with remote bots: throughput, decision latency, the floor, memory.

Everything runs on loopback (127.0.0.1), each part in a process of its own:

* the arena server (``ArenaServer``: trio core, grpc.aio on the bridge ``--bridge`` names,
  else the one ``TAROT_ARENA_BRIDGE`` or the arena's own probe picks) with 4 registered
  bots, each one process of ``bench/arena_bot.py`` on one connection (max_tables 1024, with
  batching) that answers every DecisionRequest at once: the first legal action, except that the
  first bidder takes a Petite (first legal actions alone pass every deal out after 4
  decisions); the requests of one stream message are answered together in one DecisionBatch,
  as the SDK does. At 1, 16 and
  64 concurrent 4-player tables, a fixed number of deals: decisions and deals per second, and
  the decision round trip the server measures (``DecisionLog.seconds``; the bot's own think time
  is ~0, so this is the latency the arena adds) at p50 and p99, plus CPU per decision;
* the floor, right after each arena level: a bare grpc.aio echo server (asyncio only, no trio)
  with one bidi stream per "table", the server sending a small DecisionRequest and one client
  process answering it, for a fixed time: round trips per second, p50, p99; then the ratio
  arena decisions/s / echo round trips/s (issue 27's targets: >= 0.85 at 16 tables, one
  table's p50 round trip <= 1.5x the echo's, and with ``--bot-impl sdk`` the SDK bots' CPU
  <= 120 us per decision at 16 tables, read beside the bench's own grpc.aio bots, which play
  each level too on an arena of their own unless ``--no-bare-bots``: the CPU of bots that only
  parse and answer, ``bare_bots_T``; the ratio's earlier target was 0.6). Also, once, the same
  echo with 5 small events before each request: the floor of the protocol's traffic shape (the
  arena sends ~5.8 messages per decision). With ``--rounds R`` each level and its echo are
  played R times in turn and the round of the median ratio is reported, its figures together
  (one table's p50 against the echo's and the bots' CPU: the medians of the rounds; each
  round in the JSON's ``rounds_T``): these machines' speed drifts from one run to the next, by
  a third at times, and a ratio read against the echo right after it is the steadier figure;
* after each echo (unless ``--no-bridged-echo``): the same echo asked from trio across the
  arena's bridge (a trio task per stream posts the request to the stream's writer and waits for
  the answer in a cancel scope, as a table asks its seat): the floor of this stack (trio core,
  grpc.aio on asyncio) under the arena's own work, reported beside each target as medians of
  the rounds (``floor_T``); ``--levels`` plays only some of the levels (1, 16, 64);
* with ``--tls``, right after: a plaintext arena and one serving TLS only (a certificate for
  127.0.0.1 from a CA made for the run, ``trustme``), 4 bot processes each (over TLS to the
  second), up side by side; at each level they play in turn, 3 rounds, so that other work on
  the machine weighs on both alike: the median decisions/s of each, their ratio, round trip
  and server CPU per decision;
* memory: a fresh arena server with 4 bots that never answer (``--hold``); its VmRSS when idle,
  then with 1,000 tables open at once, each waiting on its first decision (target < 200 MB).

Human-readable lines go to stderr; the last line on stdout is one JSON object of all figures.
A default run takes about 75 s on 2 cores, ``--quick`` about 30 s. Every child is stopped
at the end (and dies with this process).

    python -m bench.arena [--quick] [--levels T ...] [--deals-1 N] [--deals-16 N] [--deals-64 N]
                          [--rounds R] [--no-bridged-echo]
                          [--bot-impl aio|sync|sdk] [--one-by-one] [--py-spy FILE]
                          [--profile FILE] [--profile-bots PREFIX] [--record-bots PREFIX]
                          [--bridge auto|stepped|thread] [--tls]
"""

from __future__ import annotations

import argparse
import contextlib
import ctypes
import functools
import json
import logging
import os
import queue
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
# Children run as modules from the repository root, like `python -m bench.arena`.
SELF = ["-m", "bench.arena"]
BOT = ["-m", "bench.arena_bot"]
HOST = "127.0.0.1"
PLAYERS = 4
RATIO_16_TARGET = 0.85  # of the echo floor at 16 tables (issue 27; 0.6 before it)
P50_1_TARGET = 1.5  # one table's p50 round trip, at most this times the echo's
SDK_CPU_16_TARGET_US = 120  # the SDK bots' CPU per decision at 16 tables (--bot-impl sdk)
BOTS = 4
LEVELS = (1, 16, 64)
# Deals per level of a default run, sized for a few seconds each on a 2-core machine.
DEFAULT_DEALS = {1: 60, 16: 240, 64: 320}
QUICK_DEALS = {1: 10, 16: 32, 64: 64}
HOLD_TABLES = 1000

sys.path.insert(0, str(ROOT))


def emit(payload: dict[str, Any]) -> None:
    """A child's report to the parent: one JSON line on stdout."""
    sys.stdout.write(json.dumps(payload) + "\n")
    sys.stdout.flush()


def percentile(values: Sequence[float], fraction: float) -> float:
    """Nearest-rank percentile (``values`` need not be sorted); 0 for no values."""
    if not values:
        return 0.0
    ordered = sorted(values)
    rank = max(0, min(len(ordered) - 1, round(fraction * len(ordered) + 0.5) - 1))
    return ordered[rank]


def latency_figures(seconds: Sequence[float]) -> dict[str, float]:
    return {
        "p50_ms": round(percentile(seconds, 0.50) * 1000, 3),
        "p99_ms": round(percentile(seconds, 0.99) * 1000, 3),
        "max_ms": round(max(seconds, default=0.0) * 1000, 3),
    }


def quiet_logs() -> None:
    logging.basicConfig(level=logging.CRITICAL)
    logging.getLogger().setLevel(logging.CRITICAL)


# ================================================================== child: the arena server
def arena_server(profile: str | None, extra_tokens: int = 0, tls_dir: str | None = None) -> None:
    """Register the bots, serve, and obey JSON commands on stdin (one per line).

    ``extra_tokens`` more bots are registered that play no table (``bench/attack.py`` attacks
    with one); their tokens are reported as ``extra_tokens``. ``tls_dir``: serve TLS only,
    with its arena.pem and arena.key."""
    import trio

    from arena.games.french_tarot import GameState, TableOptions, seeded_deal
    from arena.storage.bots import BotRegistry
    from arena.storage.db import make_engine
    from arena.table import TimeControl
    from arena.transport.server import ArenaServer
    from arena.transport.tls import ServerTls

    quiet_logs()
    registry = BotRegistry(make_engine("sqlite://"))
    registered = [registry.register(f"bench{i}") for i in range(BOTS)]
    extra = [registry.register(f"extra{i}")[1] for i in range(extra_tokens)]
    bot_ids = [summary.id for summary, _ in registered]
    options = TableOptions(PLAYERS)

    async def command() -> dict[str, Any]:
        line = await trio.to_thread.run_sync(sys.stdin.readline)
        return json.loads(line) if line.strip() else {"cmd": "quit"}

    async def level(server: ArenaServer, tables: int, deals: int, seed: int) -> dict[str, Any]:
        deal_numbers = iter(range(deals))
        seconds: list[float] = []
        infractions = 0

        async def worker() -> None:
            nonlocal infractions
            for number in deal_numbers:  # shared: each worker takes the next deal
                outcome = await server.play_table(
                    f"L{tables}-{number}",
                    GameState(seeded_deal(seed + number, PLAYERS, number % PLAYERS), options),
                    bot_ids, TimeControl(10.0),
                )
                seconds.extend(decision.seconds for decision in outcome.decisions)
                infractions += len(outcome.infractions)

        cpu, began = time.process_time(), time.perf_counter()
        async with trio.open_nursery() as nursery:
            for _ in range(tables):
                nursery.start_soon(worker)
        wall = time.perf_counter() - began
        cpu = time.process_time() - cpu
        return {
            "tables": tables,
            "deals": deals,
            "decisions": len(seconds),
            "seconds": round(wall, 3),
            "decisions_per_s": round(len(seconds) / wall, 1),
            "deals_per_s": round(deals / wall, 2),
            **latency_figures(seconds),
            "infractions": infractions,
            "server_cpu_s": round(cpu, 3),
            "server_cpu_us_per_decision": round(cpu / max(1, len(seconds)) * 1e6, 1),
        }

    async def hold(server: ArenaServer, tables: int) -> None:
        """Seat ``tables`` tables whose bots hold the first decision; report once all ask."""

        def asking() -> int:
            return sum(len(c.pending) for c in server.connections.values())

        began = time.perf_counter()
        async with trio.open_nursery() as nursery:
            for number in range(tables):
                nursery.start_soon(functools.partial(
                    server.play_table, f"H{number}",
                    GameState(seeded_deal(number, PLAYERS, number % PLAYERS), options), bot_ids,
                    TimeControl(3600.0), seat_timeout=60.0,
                ))
            with trio.fail_after(120):
                while asking() < tables:
                    await trio.sleep(0.02)
            emit({"open": tables, "asking": asking(),
                  "seconds": round(time.perf_counter() - began, 3)})
            await command()  # "release": the tables end, cancelled
            nursery.cancel_scope.cancel()
        emit({"released": tables})

    async def main() -> None:
        tls = (ServerTls(Path(tls_dir) / "arena.pem", Path(tls_dir) / "arena.key")
               if tls_dir else None)
        server = ArenaServer(registry, host=HOST, tls=tls)
        async with trio.open_nursery() as nursery:
            port = await nursery.start(server.serve)
            assert server.bridge is not None
            emit({"port": port, "tokens": [token for _, token in registered],
                  "extra_tokens": extra, "bridge": server.bridge.name})
            try:
                await server.wait_for_bots(bot_ids, 60)
            except trio.TooSlowError:
                missing = set(bot_ids) - set(server.connected_bots())
                print(f"arena server: {len(missing)} of {len(bot_ids)} bots never connected "
                      "within 60 s (their own lines above say why, if they know)",
                      file=sys.stderr)
                raise
            emit({"ready": True})
            while True:
                order = await command()
                if order["cmd"] == "level":
                    emit(await level(server, order["tables"], order["deals"], order["seed"]))
                elif order["cmd"] == "hold":
                    await hold(server, order["tables"])
                else:
                    break
            nursery.cancel_scope.cancel()

    if profile:
        import cProfile

        cProfile.runctx("trio.run(main)", globals(), {"trio": trio, "main": main}, profile)
    else:
        trio.run(main)


# ============================================================ child: the bare echo server
_ECHO_HAND = (3, 7, 12, 16, 20, 25, 29, 33, 40, 44, 51, 57, 60, 64, 69, 72, 76, 77)


@functools.cache
def _echo_legal() -> list[Any]:
    from arena.proto_gen.tarot_arena.v1 import arena_pb2 as pb

    return [pb.Action(play=card) for card in _ECHO_HAND[:6]]


def _echo_request(number: int) -> Any:
    """The echoes' request ``number``: a play with six legal cards and a full hand, about the
    size of the arena's (the legal actions built once, as the echoes always did)."""
    from arena.proto_gen.tarot_arena.v1 import arena_pb2 as pb

    return pb.ArenaMessage(request=pb.DecisionRequest(
        table_id="echo", request_id=number, kind=pb.DECIDE_PLAY, legal_actions=_echo_legal(),
        time_limit_ms=10_000, hand=_ECHO_HAND, seat=1,
    ))


def echo_server(streams: int, seconds: float, events: int) -> None:
    """grpc.aio only: one bidi stream per "table", request -> answer round trips for a while.

    With ``events``, each request is preceded by that many small TableEvent messages (that the
    client reads and ignores), the shape of the arena's traffic: the floor of the protocol.
    """
    import asyncio

    import grpc

    from arena.proto_gen.tarot_arena.v1 import arena_pb2 as pb
    from arena.proto_gen.tarot_arena.v1 import arena_pb2_grpc as pb_grpc

    quiet_logs()
    event = pb.ArenaMessage(event=pb.TableEvent(
        table_id="echo", sequence=1, seat=1,
        card_played=pb.SeatAction(seat=2, action=pb.Action(play=40)),
    ))

    async def main() -> None:
        connected = 0
        finished = 0
        start = asyncio.Event()
        done = asyncio.Event()
        deadline = [0.0]
        latencies: list[float] = []

        class Echo(pb_grpc.BotServiceServicer):
            async def Connect(
                self, request_iterator: Any, context: grpc.aio.ServicerContext
            ) -> None:
                nonlocal connected, finished
                await context.read()  # the Hello
                connected += 1
                if connected == streams:
                    deadline[0] = time.perf_counter() + seconds
                    start.set()
                await start.wait()
                clock = time.perf_counter
                number = 0
                mine: list[float] = []
                try:
                    while clock() < deadline[0]:
                        number += 1
                        request = _echo_request(number)
                        began = clock()
                        for _ in range(events):
                            await context.write(event)
                        await context.write(request)
                        answer = await context.read()
                        if answer is grpc.aio.EOF:
                            break
                        mine.append(clock() - began)
                finally:
                    latencies.extend(mine)
                    finished += 1
                    if finished == streams:
                        done.set()

        server = grpc.aio.server(options=[("grpc.so_reuseport", 0)])
        pb_grpc.add_BotServiceServicer_to_server(Echo(), server)
        port = server.add_insecure_port(f"{HOST}:0")
        await server.start()
        emit({"port": port})
        await asyncio.wait_for(start.wait(), 60)
        cpu, began = time.process_time(), time.perf_counter()
        await asyncio.wait_for(done.wait(), seconds + 60)
        wall = time.perf_counter() - began
        cpu = time.process_time() - cpu
        emit({
            "streams": streams,
            "events_per_request": events,
            "round_trips": len(latencies),
            "seconds": round(wall, 3),
            "round_trips_per_s": round(len(latencies) / wall, 1),
            **latency_figures(latencies),
            "server_cpu_s": round(cpu, 3),
            "server_cpu_us_per_round_trip": round(cpu / max(1, len(latencies)) * 1e6, 1),
        })
        await server.stop(0.2)

    asyncio.run(main())


# ============================================ child: the echo across the arena's bridge
def bridged_echo_server(streams: int, seconds: float) -> None:
    """The echo's round trips asked from trio, across the arena's bridge: the floor of this
    stack (grpc.aio on asyncio, the table's side in trio), under the arena's own work.

    Each stream's round trips are asked by a trio task, as a table asks its seat: the request
    encoded in trio and posted to the stream's writer in asyncio (a wake-up through
    ``to_asyncio``, in the bridge's posting scope), the answer read in asyncio and handed to
    trio (``to_trio``), the wait in a cancel scope with a deadline (the arena enforces a time
    per decision; trio's timeouts are cancel scopes) and timed in trio, as
    ``DecisionLog.seconds`` is. No table, no engine, no
    connection's bookkeeping: what the arena adds on top of this is its own.
    """
    import asyncio

    import grpc
    import trio

    from arena.proto_gen.tarot_arena.v1 import arena_pb2 as pb
    from arena.transport.bridge import Bridge, open_bridge

    quiet_logs()

    class Seat:
        """One stream: what trio posts for its writer, and the answer trio waits for."""

        def __init__(self, bridge: Bridge) -> None:
            self.bridge = bridge
            self.outbox: list[bytes] = []
            self.ready = asyncio.Event()
            self.answered = trio.Event()

        def post(self, data: bytes) -> None:  # in trio
            self.outbox.append(data)
            self.bridge.to_asyncio(self.ready.set)

        def answer(self) -> None:  # in trio, called from asyncio
            self.answered.set()

    async def ask(seat: Seat, until: float, latencies: list[float]) -> None:
        clock = trio.current_time
        number = 0
        while time.perf_counter() < until:
            number += 1
            request = _echo_request(number)
            began = clock()
            seat.answered = trio.Event()
            with trio.move_on_after(10.0):
                with seat.bridge.posting():  # as RemoteSeat.ask posts
                    seat.post(request.SerializeToString())
                await seat.answered.wait()
                latencies.append(clock() - began)

    async def main() -> None:
        latencies: list[float] = []
        seats: list[Seat] = []
        all_in = trio.Event()
        async with trio.open_nursery() as nursery:
            bridge = open_bridge(nursery, quiet=True)

            async def connect(_requests: Any, context: grpc.aio.ServicerContext) -> None:
                seat = Seat(bridge)
                await context.read()  # the Hello
                seats.append(seat)
                if len(seats) == streams:
                    bridge.to_trio(all_in.set)

                async def write() -> None:
                    while True:
                        await seat.ready.wait()
                        seat.ready.clear()
                        messages, seat.outbox = seat.outbox, []
                        for message in messages:
                            await context.write(message)

                writer = asyncio.create_task(write())
                try:
                    while True:
                        message = await context.read()
                        if message is grpc.aio.EOF:
                            break
                        bridge.to_trio(seat.answer)
                finally:
                    writer.cancel()

            stop = asyncio.Event()
            port: list[int] = []

            async def serve() -> None:
                server = grpc.aio.server(options=[("grpc.so_reuseport", 0)])
                handler = grpc.stream_stream_rpc_method_handler(
                    connect, request_deserializer=pb.BotMessage.FromString,
                    response_serializer=None)
                name = pb.DESCRIPTOR.services_by_name["BotService"].full_name
                server.add_generic_rpc_handlers(
                    (grpc.method_handlers_generic_handler(name, {"Connect": handler}),))
                port.append(server.add_insecure_port(f"{HOST}:0"))
                await server.start()
                bridge.to_trio(listening.set)
                await stop.wait()
                await server.stop(0.2)

            listening = trio.Event()
            nursery.start_soon(bridge.drive, serve())
            await listening.wait()
            emit({"port": port[0]})
            with trio.fail_after(60):
                await all_in.wait()
            cpu, began = time.process_time(), time.perf_counter()
            async with trio.open_nursery() as tables:
                for seat in seats:
                    tables.start_soon(ask, seat, began + seconds, latencies)
            wall = time.perf_counter() - began
            cpu = time.process_time() - cpu
            emit({
                "streams": streams,
                "bridge": bridge.name,
                "round_trips": len(latencies),
                "seconds": round(wall, 3),
                "round_trips_per_s": round(len(latencies) / wall, 1),
                **latency_figures(latencies),
                "server_cpu_s": round(cpu, 3),
                "server_cpu_us_per_round_trip": round(cpu / max(1, len(latencies)) * 1e6, 1),
            })
            bridge.to_asyncio(stop.set)

    trio.run(main)


# ======================================================================== the parent side
def _die_with_parent() -> None:
    """In the child before exec: SIGTERM when the parent dies, so nothing is left behind."""
    with contextlib.suppress(Exception):
        ctypes.CDLL("libc.so.6", use_errno=True).prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG


class Child:
    """A child process; JSON lines from its stdout arrive on a queue."""

    def __init__(self, name: str, args: Sequence[str]) -> None:
        self.name = name
        self.process = subprocess.Popen(
            [sys.executable, *args], cwd=ROOT, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            text=True, preexec_fn=_die_with_parent,
        )
        self.lines: queue.Queue[dict[str, Any] | None] = queue.Queue()
        self.bridge = ""
        """The arena server's bridge, as it says when it starts."""
        threading.Thread(target=self._pump, daemon=True).start()

    @property
    def pid(self) -> int:
        return self.process.pid

    def _pump(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            line = line.strip()
            if line.startswith("{"):
                with contextlib.suppress(ValueError):
                    self.lines.put(json.loads(line))
        self.lines.put(None)

    def send(self, payload: dict[str, Any]) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write(json.dumps(payload) + "\n")
        self.process.stdin.flush()

    def receive(self, timeout: float) -> dict[str, Any]:
        try:
            payload = self.lines.get(timeout=timeout)
        except queue.Empty:
            raise TimeoutError(f"{self.name}: no report within {timeout:.0f} s") from None
        if payload is None:
            raise RuntimeError(f"{self.name} ended (exit code {self.process.wait()})")
        return payload

    def wait(self, timeout: float) -> None:
        self.process.wait(timeout)

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(3)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(3)
        for stream in (self.process.stdin, self.process.stdout):
            if stream is not None:
                with contextlib.suppress(Exception):
                    stream.close()


class Children:
    """Every child started, stopped in reverse order at the end whatever happens."""

    def __init__(self) -> None:
        self.started: list[Child] = []

    def start(self, name: str, args: Sequence[str]) -> Child:
        child = Child(name, args)
        self.started.append(child)
        return child

    def stop(self, children: Sequence[Child] | None = None) -> None:
        for child in reversed(list(self.started if children is None else children)):
            child.stop()
            if child in self.started:
                self.started.remove(child)


def rss_mb(pid: int) -> tuple[float, float]:
    """(VmRSS, VmHWM) of a process in MB, from /proc/PID/status."""
    fields: dict[str, float] = {}
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            key, _, value = line.partition(":")
            if key in ("VmRSS", "VmHWM"):
                fields[key] = int(value.split()[0]) / 1024
    return fields["VmRSS"], fields["VmHWM"]


def cpu_seconds(pids: Sequence[int]) -> float:
    """User + system CPU time of processes (all threads), from /proc/PID/stat."""
    ticks = os.sysconf("SC_CLK_TCK")
    total = 0
    for pid in pids:
        with contextlib.suppress(OSError):
            with open(f"/proc/{pid}/stat") as stat:
                fields = stat.read().rpartition(")")[2].split()
            total += int(fields[11]) + int(fields[12])  # utime, stime
    return total / ticks


def log(text: str) -> None:
    print(text, file=sys.stderr, flush=True)


def make_certificates(folder: Path) -> Path:
    """A CA and a certificate for 127.0.0.1 in ``folder`` (arena.pem, arena.key); the CA's
    file."""
    import trustme

    ca = trustme.CA()
    issued = ca.issue_cert(HOST)
    issued.private_key_pem.write_to_path(str(folder / "arena.key"))
    issued.cert_chain_pems[0].write_to_path(str(folder / "arena.pem"))
    ca.cert_pem.write_to_path(str(folder / "ca.pem"))
    return folder / "ca.pem"


def start_arena(
    children: Children, hold: bool, profile: str | None = None, impl: str = "aio",
    one_by_one: bool = False, tls_dir: Path | None = None, profile_bots: str | None = None,
    record_bots: str | None = None,
) -> tuple[Child, list[Child]]:
    args = [*SELF, "--role", "arena-server"]
    if profile:
        args += ["--profile", profile]
    if tls_dir is not None:
        args += ["--tls-dir", str(tls_dir)]
    server = children.start("arena server", args)
    hello = server.receive(60)
    server.bridge = hello["bridge"]
    bots = [
        children.start(f"bot {i}", [*BOT, "--port", str(hello["port"]), "--token", token,
                                    "--max-tables", "1024", "--impl", impl,
                                    *(["--hold"] if hold else []),
                                    *(["--one-by-one"] if one_by_one else []),
                                    *(["--tls-ca", str(tls_dir / "ca.pem")] if tls_dir else []),
                                    *(["--profile", f"{profile_bots}-bot{i}.prof"]
                                      if profile_bots else []),
                                    *(["--record", f"{record_bots}-bot{i}.rec"]
                                      if record_bots else [])])
        for i, token in enumerate(hello["tokens"])
    ]
    server.receive(60)  # ready: every bot connected
    return server, bots


def run_echo(
    children: Children, streams: int, seconds: float, events: int = 0, bridged: bool = False
) -> dict[str, Any]:
    """The bare echo (or, ``bridged``, the echo asked from trio across the arena's bridge)."""
    role = "bridged-echo-server" if bridged else "echo-server"
    server = children.start("echo server", [*SELF, "--role", role,
                                            "--streams", str(streams), "--seconds", str(seconds),
                                            "--events", str(events)])
    port = server.receive(60)["port"]
    client = children.start("echo client", [*BOT, "--port", str(port), "--echo", str(streams)])
    before = cpu_seconds([client.pid])
    figures = server.receive(seconds + 90)
    figures["client_cpu_s"] = round(cpu_seconds([client.pid]) - before, 3)
    server.wait(10)
    client.wait(10)
    children.stop([client, server])
    return figures


def sample_rss(pid: int, samples: int, interval: float) -> tuple[float, float]:
    """The highest VmRSS seen over ``samples`` samples, and the final VmHWM."""
    peak = 0.0
    hwm = 0.0
    for _ in range(samples):
        rss, hwm = rss_mb(pid)
        peak = max(peak, rss)
        time.sleep(interval)
    return peak, hwm


def start_py_spy(pid: int, output: str) -> subprocess.Popen[bytes] | None:
    """py-spy recording the arena server (GIL holder only, raw collapsed stacks), if found."""
    py_spy = Path(sys.executable).with_name("py-spy")
    command = str(py_spy) if py_spy.exists() else shutil.which("py-spy")
    if command is None:
        log("py-spy not found (pip install py-spy): no profile")
        return None
    return subprocess.Popen(
        [command, "record", "-p", str(pid), "-o", output, "-f", "raw", "-r", "250", "--gil",
         "--threads", "--nonblocking"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, preexec_fn=_die_with_parent,
    )


def stop_py_spy(process: subprocess.Popen[bytes] | None, output: str) -> None:
    if process is None:
        return
    process.send_signal(signal.SIGINT)  # py-spy writes its output on SIGINT
    try:
        process.wait(20)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait(5)
    log(f"py-spy profile of the arena server: {output}")


def bot_counts(bots: Sequence[Child]) -> dict[str, float]:
    """What the bots received, reported by each as it ends."""
    total: dict[str, float] = {}
    for bot in bots:
        with contextlib.suppress(TimeoutError, RuntimeError):
            for key, value in bot.receive(10)["bot"].items():
                total[key] = total.get(key, 0) + value
    return total


def median_round(rounds: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """The round (an arena level and the echo right after it) whose ratio is the median (the
    lower of the two middle ones): its figures are reported together, as one run's."""
    return sorted(rounds, key=lambda r: r["ratio"])[(len(rounds) - 1) // 2]


def round_figures(one: dict[str, Any]) -> dict[str, Any]:
    """One round's figures for the JSON: each is read against the echo right after it."""
    level, echo = one["level"], one["echo"]
    figures = {
        "decisions_per_s": level["decisions_per_s"],
        "round_trips_per_s": echo["round_trips_per_s"],
        "ratio": round(one["ratio"], 3),
        "p50_ms": level["p50_ms"], "echo_p50_ms": echo["p50_ms"],
        "p50_to_echo": round(level["p50_ms"] / echo["p50_ms"], 2) if echo["p50_ms"] else 0.0,
        "server_cpu_us_per_decision": level["server_cpu_us_per_decision"],
        "bots_cpu_us_per_decision": round(
            level["bots_cpu_s"] / max(1, level["decisions"]) * 1e6, 1),
    }
    bare = one.get("bare_bots")
    if bare and bare.get("decisions"):
        bare_cpu = round(bare["bots_cpu_s"] / bare["decisions"] * 1e6, 1)
        figures["bare_bots_cpu_us_per_decision"] = bare_cpu
        figures["bots_cpu_to_bare"] = round(figures["bots_cpu_us_per_decision"]
                                            / max(1e-9, bare_cpu), 2)
    bridged = one.get("bridged_echo")
    if bridged and echo["round_trips_per_s"] and echo["p50_ms"]:
        figures["bridged_echo"] = {
            "round_trips_per_s": bridged["round_trips_per_s"],
            "to_echo": round(bridged["round_trips_per_s"] / echo["round_trips_per_s"], 3),
            "p50_ms": bridged["p50_ms"],
            "p50_to_echo": round(bridged["p50_ms"] / echo["p50_ms"], 2),
            "server_cpu_us_per_round_trip": bridged["server_cpu_us_per_round_trip"],
            "arena_to_bridged": round(level["decisions_per_s"] / bridged["round_trips_per_s"], 3),
        }
    return figures


def play_level(server: Child, bots: Sequence[Child], tables: int, deals: int) -> dict[str, Any]:
    bots_cpu = cpu_seconds([b.pid for b in bots])
    server.send({"cmd": "level", "tables": tables, "deals": deals, "seed": 0})
    level = server.receive(600)
    level["bots_cpu_s"] = round(cpu_seconds([b.pid for b in bots]) - bots_cpu, 3)
    return level


TLS_ROUNDS = 3
"""Rounds of the TLS comparison: plaintext and TLS levels alternate, the median of each kept."""


def tls_comparison(children: Children, args: argparse.Namespace, deals: dict[int, int],
                   folder: Path) -> dict[str, Any]:
    """A plaintext arena and a TLS arena (TLS on its port and on the bots' channels) up side
    by side, their levels alternating for :data:`TLS_ROUNDS` rounds, so that other work on the
    machine weighs on both alike; per level the median decisions/s of each and their ratio."""
    arenas = {}
    for kind in ("plaintext", "tls"):
        server, bots = start_arena(children, hold=False, impl=args.bot_impl,
                                   one_by_one=args.one_by_one,
                                   tls_dir=folder if kind == "tls" else None)
        server.send({"cmd": "level", "tables": 4, "deals": 8, "seed": 10**6})  # warm-up
        server.receive(120)
        arenas[kind] = (server, bots)
    log(f"TLS comparison: a plaintext and a TLS arena, {len(arenas['tls'][1])} bot processes "
        f"each, levels alternating for {TLS_ROUNDS} rounds")
    out: dict[str, Any] = {"rounds": TLS_ROUNDS}
    for tables in args.levels:
        runs: dict[str, list[dict[str, Any]]] = {"plaintext": [], "tls": []}
        for _ in range(TLS_ROUNDS):
            for kind, (server, bots) in arenas.items():
                runs[kind].append(play_level(server, bots, tables, deals[tables]))
        level: dict[str, Any] = {}
        for kind, done in runs.items():
            ordered = sorted(done, key=lambda run: run["decisions_per_s"])
            median = ordered[len(ordered) // 2]
            level[kind] = {**median, "decisions_per_s_runs": [r["decisions_per_s"] for r in done]}
        plain, secure = level["plaintext"], level["tls"]
        level["ratio"] = round(secure["decisions_per_s"] / max(1e-9, plain["decisions_per_s"]),
                               3)
        out[f"tables_{tables}"] = level
        log(f"TLS   {tables:3d} tables: {secure['decisions_per_s']:7.0f} decisions/s against "
            f"{plain['decisions_per_s']:7.0f} in plaintext (medians of {TLS_ROUNDS}: "
            f"{level['ratio']:.2f}); round trip p50 {secure['p50_ms']:.2f} ms against "
            f"{plain['p50_ms']:.2f}; server CPU {secure['server_cpu_us_per_decision']:.0f} "
            f"us/decision against {plain['server_cpu_us_per_decision']:.0f}; "
            f"{secure['infractions']} infractions")
    for server, bots in arenas.values():
        server.send({"cmd": "quit"})
        if args.bot_impl == "sdk":
            for bot in bots:
                bot.process.send_signal(signal.SIGTERM)
        bot_counts(bots)
        with contextlib.suppress(subprocess.TimeoutExpired):
            server.wait(15)
    return out


def parent(args: argparse.Namespace) -> dict[str, Any]:
    deals = dict(QUICK_DEALS if args.quick else DEFAULT_DEALS)
    for tables in LEVELS:
        override = getattr(args, f"deals_{tables}")
        if override:
            deals[tables] = override
    echo_seconds = args.echo_seconds or (1.5 if args.quick else 4.0)
    hold_tables = args.hold_tables
    load = os.getloadavg()[0]
    figures: dict[str, Any] = {
        "quick": args.quick, "cpus": os.cpu_count(), "load_average_1m_at_start": round(load, 2),
        "players": PLAYERS, "bots": BOTS, "bot_impl": args.bot_impl,
        "bot_answers": "one-by-one" if args.one_by_one else "batched", "tls": args.tls,
    }
    if load > 1.0:
        log(f"note: load average {load:.1f} on {os.cpu_count()} CPUs at start: other work "
            "shares the machine, figures will be lower and noisier")
    children = Children()
    began = time.perf_counter()
    try:
        # ---------------------------------------------------------- throughput and the floor
        server, bots = start_arena(children, hold=False, profile=args.profile,
                                   impl=args.bot_impl, one_by_one=args.one_by_one,
                                   profile_bots=args.profile_bots,
                                   record_bots=args.record_bots)
        figures["bridge"] = server.bridge
        log(f"arena server pid {server.pid} ({server.bridge} bridge), {len(bots)} bot processes "
            "connected")
        server.send({"cmd": "level", "tables": 4, "deals": 8, "seed": 10**6})  # warm-up
        server.receive(120)
        bare = None
        if args.bot_impl == "sdk" and args.bare_bots:
            # The SDK's CPU read against bots that only parse and answer (the bench's grpc.aio
            # bots), on an arena of their own, each level right after the SDK's.
            bare = start_arena(children, hold=False, impl="aio")
            bare[0].send({"cmd": "level", "tables": 4, "deals": 8, "seed": 10**6})
            bare[0].receive(120)
            log(f"bare grpc.aio bots on a second arena (pid {bare[0].pid}): each level played "
                "by them too, right after the SDK's bots")
        spy = start_py_spy(server.pid, args.py_spy) if args.py_spy else None
        figures["echo"] = {}
        for tables in args.levels:
            rounds: list[dict[str, Any]] = []
            for _ in range(args.rounds):
                level = play_level(server, bots, tables, deals[tables])
                log(f"arena {tables:3d} tables: {level['decisions_per_s']:7.0f} decisions/s "
                    f"{level['deals_per_s']:6.1f} deals/s  round trip p50 "
                    f"{level['p50_ms']:6.2f} ms p99 {level['p99_ms']:6.2f} ms  "
                    f"({level['deals']} deals in {level['seconds']:.1f} s; CPU per decision: "
                    f"server {level['server_cpu_us_per_decision']:.0f} us, bots "
                    f"{level['bots_cpu_s'] / max(1, level['decisions']) * 1e6:.0f} us; "
                    f"{level['infractions']} infractions)")
                echo = run_echo(children, tables, echo_seconds)
                ratio = level["decisions_per_s"] / echo["round_trips_per_s"]
                log(f"echo  {tables:3d} streams: {echo['round_trips_per_s']:7.0f} round trips/s"
                    f"                round trip p50 {echo['p50_ms']:6.2f} ms p99 "
                    f"{echo['p99_ms']:6.2f} ms  (server CPU "
                    f"{echo['server_cpu_us_per_round_trip']:.0f} us/round trip)  -> ratio "
                    f"{ratio:.2f}")
                one_round = {"level": level, "echo": echo, "ratio": ratio}
                if bare is not None:
                    one_round["bare_bots"] = play_level(*bare, tables, deals[tables])
                    bare_figures = round_figures(one_round)
                    log(f"bare grpc.aio bots {tables:3d} tables: "
                        f"{bare_figures['bare_bots_cpu_us_per_decision']:.0f} us of CPU a "
                        f"decision; the SDK's bots {bare_figures['bots_cpu_to_bare']:.2f}x that")
                if args.bridged_echo:
                    one_round["bridged_echo"] = run_echo(children, tables, echo_seconds,
                                                         bridged=True)
                    floor = round_figures(one_round)["bridged_echo"]
                    log(f"echo across the bridge, {tables:3d} streams: "
                        f"{floor['round_trips_per_s']:7.0f} round trips/s, "
                        f"{floor['to_echo']:.2f} of the echo; round trip p50 "
                        f"{floor['p50_ms']:6.2f} ms, {floor['p50_to_echo']:.2f}x the echo's "
                        f"(server CPU {floor['server_cpu_us_per_round_trip']:.0f} us/round "
                        "trip)")
                rounds.append(one_round)
            kept = median_round(rounds)
            figures[f"tables_{tables}"] = kept["level"]
            figures["echo"][f"streams_{tables}"] = kept["echo"]
            figures[f"ratio_{tables}"] = round(kept["ratio"], 3)
            per_round = [round_figures(r) for r in rounds]
            if all("bare_bots_cpu_us_per_decision" in r for r in per_round):
                figures[f"bare_bots_{tables}"] = {  # medians of the rounds
                    key: statistics.median(r[key] for r in per_round)
                    for key in ("bare_bots_cpu_us_per_decision", "bots_cpu_to_bare")}
            if args.bridged_echo:
                figures[f"floor_{tables}"] = {
                    key: statistics.median(r["bridged_echo"][key] for r in per_round)
                    for key in ("to_echo", "p50_to_echo", "arena_to_bridged")
                }
            if args.rounds > 1:
                figures[f"rounds_{tables}"] = per_round
                log(f"arena {tables:3d} tables over {args.rounds} rounds: ratios "
                    + ", ".join(f"{r['ratio']:.2f}" for r in rounds)
                    + f"; median {kept['ratio']:.2f}")
        stop_py_spy(spy, args.py_spy)
        figures["rss_mb_after_levels"] = round(rss_mb(server.pid)[0], 1)
        server.send({"cmd": "quit"})
        if args.bot_impl == "sdk":  # SDK bots reconnect until told to stop
            for bot in bots:
                bot.process.send_signal(signal.SIGTERM)
        if bare is not None:
            bare[0].send({"cmd": "quit"})
            bot_counts(bare[1])
        received = bot_counts(bots)
        if received.get("messages"):  # SDK bots do not see stream messages
            figures["messages_per_decision"] = round(received["messages"] / received["requests"], 2)
        with contextlib.suppress(subprocess.TimeoutExpired):
            server.wait(15)  # a clean exit writes the profile, if any
        children.stop()

        # The floor with the arena's traffic shape: each request after 5 small events.
        if args.shaped_echo and "tables_16" in figures:
            events = 5
            shaped = run_echo(children, 16, echo_seconds, events)
            figures["echo"]["streams_16_with_events"] = shaped
            figures["ratio_16_shaped"] = round(
                figures["tables_16"]["decisions_per_s"] / shaped["round_trips_per_s"], 3)
            log(f"echo   16 streams, {events} events per request: "
                f"{shaped['round_trips_per_s']:7.0f} round trips/s  p50 {shaped['p50_ms']:.2f} ms "
                f"p99 {shaped['p99_ms']:.2f} ms  -> arena at 16 tables / this "
                f"{figures['ratio_16_shaped']:.2f}")

        # ----------------------------------------------------------- the same levels over TLS
        if args.tls:
            with tempfile.TemporaryDirectory(prefix="bench-arena-tls-") as folder:
                make_certificates(Path(folder))
                figures["tls"] = tls_comparison(children, args, deals, Path(folder))
            children.stop()

        # -------------------------------------------------------------------------- memory
        if hold_tables > 0:  # 0: no memory figure
            server, bots = start_arena(children, hold=True)
            time.sleep(0.5)
            idle, _ = sample_rss(server.pid, 5, 0.1)
            figures["rss_mb_idle"] = round(idle, 1)
            server.send({"cmd": "hold", "tables": hold_tables})
            opened = server.receive(180)
            time.sleep(1.0)  # let the requests reach the bots
            busy, hwm = sample_rss(server.pid, 10, 0.1)
            figures[f"rss_mb_{hold_tables}_tables"] = round(busy, 1)
            figures["rss_mb_hwm_hold"] = round(hwm, 1)
            figures["hold_seconds_to_open"] = opened["seconds"]
            figures["rss_kb_per_table"] = round((busy - idle) * 1024 / hold_tables, 1)
            log(f"arena server RSS: idle {idle:.1f} MB, {hold_tables} tables open {busy:.1f} MB "
                f"({(busy - idle) * 1024 / hold_tables:.0f} kB per table; all {hold_tables} asking "
                f"after {opened['seconds']:.1f} s)")
            server.send({"cmd": "release"})
            server.receive(60)
            server.send({"cmd": "quit"})
            held = bot_counts(bots)
            figures["hold_requests_received_by_bots"] = int(held.get("requests", 0))
            with contextlib.suppress(subprocess.TimeoutExpired):
                server.wait(15)
    finally:
        children.stop()
    if "ratio_16" in figures:
        figures["ratio_16_target"] = RATIO_16_TARGET
        figures["meets_ratio_16"] = figures["ratio_16"] >= RATIO_16_TARGET
    one, echo_one = figures.get("tables_1"), figures["echo"].get("streams_1")
    if one and echo_one and echo_one["p50_ms"] > 0:
        p50s = [r["p50_to_echo"] for r in figures.get("rounds_1", [])]
        figures["p50_1_to_echo"] = (statistics.median(p50s) if p50s
                                    else round(one["p50_ms"] / echo_one["p50_ms"], 2))
        figures["p50_1_target"] = P50_1_TARGET
        figures["meets_p50_1"] = figures["p50_1_to_echo"] <= P50_1_TARGET
    at_16 = figures.get("tables_16")
    if at_16 and at_16.get("decisions"):
        cpus = [r["bots_cpu_us_per_decision"] for r in figures.get("rounds_16", [])]
        figures["bots_cpu_us_per_decision_16"] = (statistics.median(cpus) if cpus else round(
            at_16["bots_cpu_s"] / at_16["decisions"] * 1e6, 1))
        if args.bot_impl == "sdk":
            figures["sdk_cpu_16_target_us"] = SDK_CPU_16_TARGET_US
            figures["meets_sdk_cpu_16"] = (
                figures["bots_cpu_us_per_decision_16"] <= SDK_CPU_16_TARGET_US)
    if hold_tables > 0:
        figures["rss_target_mb"] = 200
        figures["meets_rss"] = figures.get(f"rss_mb_{hold_tables}_tables", 1e9) < 200
    figures["total_seconds"] = round(time.perf_counter() - began, 1)
    if isinstance(figures["tls"], dict) and "tables_16" in figures["tls"]:  # when --tls ran
        at_16_tls = figures["tls"]["tables_16"]
        log(f"TLS at 16 tables: {at_16_tls['tls']['decisions_per_s']:.0f} decisions/s, "
            f"{at_16_tls['ratio']:.2f} of plaintext "
            f"({at_16_tls['plaintext']['decisions_per_s']:.0f}) in the same run")

    def verdict(key: str) -> str:
        return "met" if figures.get(key) else "NOT met"

    def floor(tables: int, key: str, unit: str) -> str:
        """The stack's floor at this level, when measured (medians of the rounds)."""
        found = figures.get(f"floor_{tables}")
        if not found:
            return ""
        return (f"; the stack's floor (the echo across the bridge) {found[key]:.2f}{unit}, the "
                f"arena's throughput {found['arena_to_bridged']:.2f} of the floor's")

    if "ratio_16" in figures:
        log(f"ratio at 16 tables {figures['ratio_16']:.2f} (target >= {RATIO_16_TARGET}): "
            f"{verdict('meets_ratio_16')}{floor(16, 'to_echo', '')}")
    if "meets_rss" in figures:
        log(f"RSS with {hold_tables} tables "
            f"{figures.get(f'rss_mb_{hold_tables}_tables', 0):.0f} MB (target < 200): "
            f"{verdict('meets_rss')}")
    log(f"total {figures['total_seconds']:.0f} s")
    if "p50_1_to_echo" in figures:
        log(f"one table's p50 round trip {figures['p50_1_to_echo']:.2f}x the echo's (target "
            f"<= {P50_1_TARGET}): {verdict('meets_p50_1')}{floor(1, 'p50_to_echo', 'x')}")
    if "sdk_cpu_16_target_us" in figures:
        bare_16 = figures.get("bare_bots_16", {}).get("bare_bots_cpu_us_per_decision")
        log(f"SDK bots' CPU at 16 tables {figures['bots_cpu_us_per_decision_16']:.0f} us per "
            f"decision (target <= {SDK_CPU_16_TARGET_US}): {verdict('meets_sdk_cpu_16')}"
            + (f"; bare grpc.aio bots, which only parse and answer, {bare_16:.0f} us in the same "
               "rounds" if bare_16 else ""))
    return figures


def main() -> None:
    from arena.transport.bridge import CHOICES, ENV_VAR, BridgeChoiceError, choose_bridge

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a short run (fewer deals)")
    for tables in LEVELS:
        parser.add_argument(f"--deals-{tables}", type=int, default=0,
                            help=f"deals at {tables} tables (default {DEFAULT_DEALS[tables]})")
    parser.add_argument("--levels", type=int, nargs="+", default=list(LEVELS),
                        choices=LEVELS, metavar="TABLES",
                        help="the levels to play, tables at once (default: 1 16 64)")
    parser.add_argument("--echo-seconds", type=float, default=0.0,
                        help="seconds per echo level (default 4, quick 1.5)")
    parser.add_argument("--rounds", type=int, default=1,
                        help="each level and its echo played this many times in turn, the "
                             "round of the median ratio reported (this machine's speed "
                             "drifts between runs; default 1)")
    parser.add_argument("--hold-tables", type=int, default=HOLD_TABLES,
                        help="tables open at once for the memory figure "
                             f"(default {HOLD_TABLES}; 0: no memory figure)")
    parser.add_argument("--no-bridged-echo", dest="bridged_echo", action="store_false",
                        help="skip the echo asked from trio across the arena's bridge after "
                             "each echo (the floor of the stack under the arena's own work)")
    parser.add_argument("--no-shaped-echo", dest="shaped_echo", action="store_false",
                        help="skip the echo with 5 events per request (the protocol's shape)")
    parser.add_argument("--profile", metavar="FILE", default=None,
                        help="cProfile the arena server's trio thread (a .prof file)")
    parser.add_argument("--profile-bots", metavar="PREFIX", default=None,
                        help="cProfile each bot of the levels in CPU time "
                             "(PREFIX-bot0.prof, ...; the SDK's bots: --bot-impl sdk)")
    parser.add_argument("--record-bots", metavar="PREFIX", default=None,
                        help="record every stream message each SDK bot of the levels receives "
                             "(PREFIX-bot0.rec, ...; --bot-impl sdk): bench/sdk_replay.py "
                             "replays them through the SDK's receive path")
    parser.add_argument("--py-spy", metavar="FILE", default=None,
                        help="record the arena server with py-spy during the levels (GIL "
                             "holder, raw collapsed stacks); needs `pip install py-spy`")
    parser.add_argument("--bot-impl", choices=("aio", "sync", "sdk"), default="aio",
                        help="the bots: grpc.aio (default), grpcio's synchronous API, or bots "
                             "written with the Python SDK (clients.sdk)")
    parser.add_argument("--no-bare-bots", dest="bare_bots", action="store_false",
                        help="with --bot-impl sdk, skip the bench's bare grpc.aio bots, which "
                             "otherwise play each level too, on an arena of their own, for the "
                             "SDK's CPU read against theirs in the same rounds")
    parser.add_argument("--one-by-one", action="store_true",
                        help="bots answer with one Decision per message, not a DecisionBatch")
    parser.add_argument("--bridge", choices=CHOICES, default=None,
                        help="the arena's bridge between trio and grpc.aio (default: "
                             f"{ENV_VAR} if set, else auto: stepped where it works)")
    parser.add_argument("--tls", action="store_true",
                        help="also play the levels with TLS on the arena's port and the bots' "
                             "channels, against plaintext in the same run")
    parser.add_argument("--tls-dir", default=None, help=argparse.SUPPRESS)
    parser.add_argument("--role", choices=("arena-server", "echo-server", "bridged-echo-server"),
                        help=argparse.SUPPRESS)
    parser.add_argument("--streams", type=int, default=1, help=argparse.SUPPRESS)
    parser.add_argument("--seconds", type=float, default=4.0, help=argparse.SUPPRESS)
    parser.add_argument("--events", type=int, default=0, help=argparse.SUPPRESS)
    parser.add_argument("--extra-tokens", type=int, default=0, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.rounds < 1:
        parser.error(f"--rounds must be at least 1, got {args.rounds}")
    if args.hold_tables < 0:
        parser.error(f"--hold-tables cannot be negative, got {args.hold_tables}")
    if args.bot_impl == "sdk" and args.one_by_one:
        parser.error("--one-by-one is for the raw bots: the SDK decides how it sends")
    if args.bridge:  # the arena server child inherits it
        os.environ[ENV_VAR] = args.bridge
    if not args.role:
        try:
            choose_bridge()
        except BridgeChoiceError as exc:
            parser.error(str(exc))
    if args.role == "arena-server":
        arena_server(args.profile, args.extra_tokens, args.tls_dir)
    elif args.role == "echo-server":
        echo_server(args.streams, args.seconds, args.events)
    elif args.role == "bridged-echo-server":
        bridged_echo_server(args.streams, args.seconds)
    else:
        # On SIGTERM, leave through the ``finally`` that stops every child.
        signal.signal(signal.SIGTERM, lambda *_: sys.exit(1))
        figures = parent(args)
        print(json.dumps(figures), flush=True)


if __name__ == "__main__":
    main()
