"""Spectators against the tables: the arena's decisions/s with 0 and 500 open live streams of
its web page, in the same run, for each layout of the page.

One run per layout (``apart``: the page in a process of its own, what ``serve --web-port`` and
``tournament run --web-port`` do; ``here``: the page in the arena's process, as before), each
on a fresh SQLite database holding a rotation tournament of 4 bench bots (``bench/arena_bot.py``,
one process each, answering at once) played by an arena process (``ArenaServer``, the
``TournamentRunner`` at 16 tables, the page beside it):

1. warm-up, then ``--seconds`` with no stream open: the tables' decisions/s (counted by the
   arena as tables end) and the gRPC health check's latency (every 20 ms);
2. ``--streams`` live streams opened on the tournament's page by a viewer process (from a
   few loopback addresses, at most 30 each, as the page's limit per address allows), reading
   every event; then ``--seconds`` again: decisions/s, health latency, events received;
3. the streams closed; ``--after`` seconds later the resident memory (VmRSS) of the process
   that served them (the page's when apart, the arena's otherwise), against the figure before
   they opened (after one visit of the page: templates compiled and standings cached);
4. ``--seconds`` more with no stream (the tables' rate drifts as the database grows: the
   ratio is taken against the mean of phases 1 and 4).

Targets: decisions/s with the streams >= 0.8 of without, health p99 < 100 ms with them, memory
back within 10 % after they close. Prints a line per phase on stderr, then one JSON object.

    python -m bench.web_live [--quick] [--streams N] [--seconds S] [--layout apart|here|both]
"""

from __future__ import annotations

import argparse
import functools
import json
import sys
import tempfile
import time
import urllib.request
from collections import Counter
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.arena import BOT, HOST, Children, emit, log, quiet_logs, rss_mb  # noqa: E402
from bench.attack import HealthProber  # noqa: E402

SELF = ["-m", "bench.web_live"]
TABLES = 16
PER_ADDRESS = 30


# ======================================================================= child: the arena
def arena(db: str, tid: str, layout: str) -> None:
    """Play ``tid`` with the page beside the arena; answer "count" with the decisions so far."""
    import trio

    from arena.storage.bots import BotRegistry
    from arena.storage.db import make_engine
    from arena.transport.server import ArenaServer
    from tournaments.play.remote import RemoteArena
    from tournaments.play.runner import TournamentRunner
    from tournaments.store import TournamentStore
    from tournaments.web import serve_web

    quiet_logs()
    store = TournamentStore(make_engine(db))

    class Counting:
        """The gRPC arena, counting the decisions of the tables it plays."""

        def __init__(self, inner: Any) -> None:
            self.inner = inner
            self.decisions = 0
            self.tables = 0

        def __getattr__(self, name: str) -> Any:
            return getattr(self.inner, name)

        async def play(self, table: Any) -> Any:
            outcome = await self.inner.play(table)
            self.decisions += len(outcome.decisions)
            self.tables += 1
            return outcome

    async def command() -> dict[str, Any]:
        line = await trio.to_thread.run_sync(sys.stdin.readline)
        return json.loads(line) if line.strip() else {"cmd": "quit"}

    async def main() -> None:
        server = ArenaServer(BotRegistry(store.engine), host=HOST)
        async with trio.open_nursery() as nursery:
            port = await nursery.start(server.serve)
            urls = await nursery.start(functools.partial(
                serve_web, own_process=layout == "apart"), store.engine, HOST, 0)
            emit({"port": port, "web": urls[0]})
            counting = Counting(RemoteArena(server))
            runner = TournamentRunner(store, counting, tid,  # type: ignore[arg-type]
                                      concurrency=TABLES, seat_timeout=None)
            nursery.start_soon(runner.run)
            while (await command())["cmd"] == "count":
                emit({"decisions": counting.decisions, "tables": counting.tables,
                      "time": time.perf_counter()})
            nursery.cancel_scope.cancel()

    trio.run(main)


# ===================================================================== child: the viewers
def viewers(url: str, path: str, streams: int) -> None:
    """Open ``streams`` live streams, read them until told to close; report what came."""
    import trio

    host, port = url.removeprefix("http://").rsplit(":", 1)
    counts: Counter[str] = Counter()

    async def one(number: int) -> None:
        source = f"127.0.0.{2 + number // PER_ADDRESS}"
        sock = trio.socket.socket()
        await sock.bind((source, 0))
        await sock.connect((host, int(port)))
        stream = trio.SocketStream(sock)
        await stream.send_all(f"GET {path} HTTP/1.1\r\nHost: {host}\r\n"
                              f"Accept: text/event-stream\r\n\r\n".encode())
        first = await stream.receive_some(65536)
        counts[f"status {first.split(b' ', 2)[1].decode()}"] += 1
        while data := await stream.receive_some(65536):
            counts["bytes"] += len(data)
            counts["events"] += data.count(b"event: standings")
        await stream.aclose()

    async def main() -> None:
        async with trio.open_nursery() as nursery:
            for number in range(streams):
                nursery.start_soon(one, number)
                await trio.sleep(0.002)
            while sum(n for k, n in counts.items() if k.startswith("status")) < streams:
                await trio.sleep(0.05)
            emit({"open": dict(counts)})
            await trio.to_thread.run_sync(sys.stdin.readline)
            nursery.cancel_scope.cancel()
        emit({"closed": dict(counts)})

    trio.run(main)


# ======================================================================= the parent side
def _children_of(pid: int) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rpartition(")")[2].split()
            except OSError:
                continue
            if int(fields[1]) == pid:
                found.append(int(entry.name))
    return found


def one_run(args: argparse.Namespace, layout: str, folder: Path) -> dict[str, Any]:
    from arena.storage.bots import BotRegistry
    from arena.storage.db import make_engine
    from tournaments.duplicate.settings import TournamentSettings
    from tournaments.store import TournamentStore

    db = f"sqlite:///{folder / f'{layout}.db'}"
    store = TournamentStore(make_engine(db))
    registered = [BotRegistry(store.engine).register(f"bench{i}") for i in range(4)]
    tid = store.create(TournamentSettings(
        name="bench web live", bots=tuple(s.id for s, _ in registered), boards=args.boards))
    store.engine.dispose()
    children = Children()
    try:
        server = children.start("arena", [*SELF, "--role", "arena", "--db", db, "--tid", tid,
                                           "--layout", layout])
        hello = server.receive(120)
        for i, (_, token) in enumerate(registered):
            children.start(f"bot {i}", [*BOT, "--port", str(hello["port"]), "--token", token,
                                        "--max-tables", "1024"])
        page_pid = next(iter(p for p in _children_of(server.pid)), None)
        if layout == "here":
            page_pid = None

        def count() -> dict[str, Any]:
            server.send({"cmd": "count"})
            return server.receive(30)

        def phase(name: str) -> dict[str, Any]:
            prober = HealthProber(hello["port"])
            began = count()
            time.sleep(args.seconds)
            ended = count()
            health = prober.stop()
            rate = (ended["decisions"] - began["decisions"]) / (ended["time"] - began["time"])
            log(f"{layout} {name}: {rate:.0f} decisions/s, "
                f"{ended['tables'] - began['tables']} tables, health p99 "
                f"{health['p99_ms']:.1f} ms (max {health['max_ms']:.1f})")
            return {"decisions_per_s": round(rate, 1), "health": health}

        time.sleep(args.warmup)
        # one visit first: templates compiled, standings cached, as any visitor leaves them
        with urllib.request.urlopen(f"{hello['web']}/tournaments/{tid}", timeout=60) as page:
            page.read()
        time.sleep(1.0)
        rss = {"arena_before": rss_mb(server.pid)[0]}
        if page_pid:
            rss["page_before"] = rss_mb(page_pid)[0]
        quiet = phase("no stream")
        watchers = children.start("viewers", [*SELF, "--role", "viewers", "--url", hello["web"],
                                              "--path", f"/tournaments/{tid}/events",
                                              "--streams", str(args.streams)])
        opened = watchers.receive(120)["open"]
        log(f"{layout}: {args.streams} streams: {opened}")
        watched = phase(f"{args.streams} streams")
        rss["arena_with_streams"] = rss_mb(server.pid)[0]
        if page_pid:
            rss["page_with_streams"] = rss_mb(page_pid)[0]
        watchers.send({"cmd": "close"})
        received = watchers.receive(60)["closed"]
        time.sleep(args.after)
        rss["arena_after"] = rss_mb(server.pid)[0]
        if page_pid:
            rss["page_after"] = rss_mb(page_pid)[0]
        log(f"{layout}: received {received}; VmRSS MB {json.dumps(rss)}")
        again = phase("no stream again")
        baseline = (quiet["decisions_per_s"] + again["decisions_per_s"]) / 2
        ratio = watched["decisions_per_s"] / baseline
        serving = "page" if page_pid else "arena"  # the process that served the streams
        before, after = rss[f"{serving}_before"], rss[f"{serving}_after"]
        return {
            "layout": layout, "no_stream": quiet, "streams": watched, "no_stream_again": again,
            "opened": opened, "received": received, "rss_mb": rss,
            "throughput_ratio": round(ratio, 3), "meets_throughput": ratio >= 0.8,
            "health_p99_ms_streams": watched["health"]["p99_ms"],
            "meets_health": watched["health"]["p99_ms"] < 100,
            "rss_serving_process": serving,
            "rss_after_vs_before": round(after / before, 3),
            "meets_rss": after <= 1.10 * before,
        }
    finally:
        children.stop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="10 s phases, 800 boards")
    parser.add_argument("--streams", type=int, default=500)
    parser.add_argument("--seconds", type=float, default=20.0, help="per phase")
    parser.add_argument("--warmup", type=float, default=5.0)
    parser.add_argument("--after", type=float, default=15.0,
                        help="seconds after the streams close for the memory figure")
    parser.add_argument("--boards", type=int, default=3000)
    parser.add_argument("--layout", choices=("apart", "here", "both"), default="both")
    parser.add_argument("--role", choices=("arena", "viewers"), help=argparse.SUPPRESS)
    parser.add_argument("--db", help=argparse.SUPPRESS)
    parser.add_argument("--tid", help=argparse.SUPPRESS)
    parser.add_argument("--url", help=argparse.SUPPRESS)
    parser.add_argument("--path", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.role == "arena":
        arena(args.db, args.tid, args.layout)
        return
    if args.role == "viewers":
        viewers(args.url, args.path, args.streams)
        return
    if args.quick:
        args.seconds, args.boards = 10.0, 800
    layouts = ["apart", "here"] if args.layout == "both" else [args.layout]
    with tempfile.TemporaryDirectory() as folder:
        runs = [one_run(args, layout, Path(folder)) for layout in layouts]
    for run in runs:
        log(f"{run['layout']}: decisions/s with {args.streams} streams "
            f"{run['throughput_ratio']:.2f} of without (target >= 0.8), health p99 "
            f"{run['health_p99_ms_streams']:.1f} ms (target < 100), memory after "
            f"{run['rss_after_vs_before']:.2f} of before (target <= 1.10)")
    print(json.dumps({"bench": "web-live", "streams": args.streams, "seconds": args.seconds,
                      "tables": TABLES, "runs": runs}))


if __name__ == "__main__":
    main()
