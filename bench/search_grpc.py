"""The search bot over gRPC at many tables at once: does it answer in time? (issue 28)

In-process benches (``bench.bots``) cannot see the transport: the arena counts a decision's
time from sending the request to reading the answer, and in between lie the network, the
arena's queue, and the bot process's receive loop, which waits for the GIL while a search runs.
This plays a real tournament the way users do, each part a process of its own on loopback, in a
temporary folder with a fresh SQLite database: ``tarot-arena serve --concurrency N``, the search
bot (``--preset``, ``search-timed`` by default) and the heuristics (``tre-heuristic`` for Tre e
Venticinque), every bot ``--max-tables N``. It prints the search bot's decisions, its
infractions by kind, the arena's time for its decisions (median, 99th percentile, longest) and
how many of its decisions its own clock saw end past their limit (its log), and the other bots'
infractions (the heuristics need about a millisecond a decision: a timeout of theirs is a stall
of the machine); the load average before and after. The last line on stdout is one JSON object.

    python -m bench.search_grpc [--players P] [--game french-tarot|tre-e-venticinque]
                                [--preset search-timed|search] [--boards B]
                                [--per-decision SECONDS] [--tables N] [--logs DIR]

``--logs DIR`` keeps every process's log (``s.log`` is the search bot's: a decision it saw end
late by its own clock says so there, as does each notice of the arena's).

A run of the defaults (4 players, 4 boards: 16 tables at once, 0.1 s a decision) takes about
half a minute on 2 cores.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import socket
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

LAUNCH = [sys.executable, "-c", "from tournaments.cli.launch import main; main()"]
SEARCH = "s"


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def wait_for_port(port: int, process: subprocess.Popen[bytes], timeout: float = 30.0) -> None:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if process.poll() is not None:
            raise SystemExit(f"the arena stopped at once (exit code {process.returncode})")
        with socket.socket() as probe:
            if probe.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.1)
    raise SystemExit(f"the arena did not listen on port {port} within {timeout:.0f} s")


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))] if ordered else 0.0


def run(args: argparse.Namespace) -> dict[str, Any]:
    other = "tre-heuristic" if args.game == "tre-e-venticinque" else "heuristic"
    others = [f"o{i}" for i in range(2, args.players + 1)]
    with tempfile.TemporaryDirectory(prefix="search-grpc-") as folder:
        where = Path(folder)
        env = dict(os.environ, TAROT_ARENA_DB=f"sqlite:///{where / 'arena.db'}")

        def cli(*words: str) -> str:
            """A command's standard output."""
            return subprocess.run([*LAUNCH, *words], env=env, cwd=where, capture_output=True,
                                  text=True, check=True).stdout

        for name in (SEARCH, *others):
            cli("bots", "add", name, "--token-file", str(where / f"{name}.token"))
        created = cli("tournament", "create", SEARCH, *others, "--players", str(args.players),
                      "--boards", str(args.boards), "--per-decision", str(args.per_decision),
                      "--game", args.game, "--name", "search-grpc")
        found = re.search(r"tour_[0-9a-f]+", created)
        if found is None:
            raise SystemExit(f"no tournament id in: {created}")
        tournament = found.group(0)
        port = free_port()
        address = f"127.0.0.1:{port}"
        load_before = os.getloadavg()[0]
        began = time.monotonic()
        with open(where / "serve.log", "wb") as serve_log:
            server = subprocess.Popen(
                [*LAUNCH, "serve", "--port", str(port), "--concurrency", str(args.tables)],
                env=env, cwd=where, stdout=serve_log, stderr=subprocess.STDOUT)
        try:
            wait_for_port(port, server)
            bots = []
            for name in (*others, SEARCH):
                preset = args.preset if name == SEARCH else other
                with open(where / f"{name}.log", "wb") as log:
                    bots.append(subprocess.Popen(
                        [*LAUNCH, "bot", preset, "--server", address, "--token-file",
                         str(where / f"{name}.token"), "--max-tables", str(args.tables)],
                        env=env, cwd=where, stdout=log, stderr=subprocess.STDOUT))
            for bot in bots:
                bot.wait(timeout=args.timeout)
        finally:
            server.terminate()
            server.wait(timeout=30)
        seconds = time.monotonic() - began
        standings = json.loads(cli("standings", tournament, "--json"))
        late_by_own_clock = (where / f"{SEARCH}.log").read_text().count("past its deadline")
        if args.logs is not None:
            args.logs.mkdir(parents=True, exist_ok=True)
            for log_file in where.glob("*.log"):
                shutil.copy(log_file, args.logs / log_file.name)
        with sqlite3.connect(where / "arena.db") as db:
            times = [row[0] for row in db.execute(
                "SELECT d.seconds FROM decision d JOIN table_seat s ON s.table_id = d.table_id "
                "AND s.seat = d.seat JOIN bot b ON b.id = s.bot_id WHERE b.name = ?", (SEARCH,))]
    rows = {row["bot"]: row for row in standings["standings"]}
    search = rows[SEARCH]
    return {
        "game": args.game, "players": args.players, "preset": args.preset,
        "boards": args.boards, "tables": standings["tables_total"],
        "tables_at_once": args.tables, "per_decision": args.per_decision,
        "search_decisions": len(times),
        "search_infractions": search["infractions_by_kind"],
        "search_late_by_own_clock": late_by_own_clock,
        "search_seconds_p50": percentile(times, 0.5),
        "search_seconds_p99": percentile(times, 0.99),
        "search_seconds_max": max(times, default=0.0),
        "others_infractions": {name: rows[name]["infractions_by_kind"] for name in others},
        "load_before": load_before, "load_after": os.getloadavg()[0], "seconds": seconds,
    }


def parse(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--game", default="french-tarot",
                        choices=("french-tarot", "tre-e-venticinque"))
    parser.add_argument("--preset", default="search-timed", choices=("search-timed", "search"))
    parser.add_argument("--boards", type=int, default=4)
    parser.add_argument("--per-decision", type=float, default=0.1)
    parser.add_argument("--tables", type=int, default=16,
                        help="the arena's tables at once and every bot's --max-tables")
    parser.add_argument("--timeout", type=float, default=1800.0,
                        help="seconds before a bot process is given up on")
    parser.add_argument("--logs", type=Path, default=None, metavar="DIR",
                        help="keep the arena's and every bot's log in DIR (serve.log, s.log for "
                             "the search bot, o2.log...)")
    args = parser.parse_args(argv)
    if args.game == "tre-e-venticinque":
        args.players = 3
    return args


def main(argv: list[str] | None = None) -> None:
    figures = run(parse(argv))
    infractions = figures["search_infractions"]
    print(f"{figures['game']}, {figures['players']} players, {figures['preset']}: "
          f"{figures['tables']} tables ({figures['tables_at_once']} at once) at "
          f"{figures['per_decision']:g} s a decision, {figures['seconds']:.0f} s; load average "
          f"{figures['load_before']:.1f} before, {figures['load_after']:.1f} after",
          file=sys.stderr)
    print(f"search bot: {figures['search_decisions']} decisions, infractions "
          f"{infractions or 'none'}, {figures['search_late_by_own_clock']} late by its own "
          f"clock; the arena's time for them: p50 {figures['search_seconds_p50'] * 1000:.1f} ms, "
          f"p99 {figures['search_seconds_p99'] * 1000:.1f} ms, longest "
          f"{figures['search_seconds_max'] * 1000:.1f} ms", file=sys.stderr)
    print(f"the other bots' infractions: {figures['others_infractions']}", file=sys.stderr)
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
