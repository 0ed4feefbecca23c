"""The main job in one command: bundled bots play a duplicate tournament over gRPC.

It starts the arena on an embedded SQLite database, registers the bundled bots, starts each as
its own process connecting over gRPC (exactly as a remote bot would), runs a rotation
tournament with a live progress bar, prints the standings, writes the export and stops
everything. Each run starts from a fresh database in the output folder, so it can be run again.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

import trio
from rich.console import Console

from arena.storage.bots import BotRegistry
from arena.storage.db import make_engine
from arena.transport.server import ArenaServer

from ..duplicate.scoring import Standings
from ..duplicate.settings import Seating, TournamentSettings
from ..play.live import run_with_progress
from ..play.remote import RemoteArena
from ..play.stopping import until_told_to_stop
from ..store import TournamentStore
from ..work.processes import default_jobs
from .export import export_tournament
from .report import print_standings


@dataclass(frozen=True, slots=True)
class BundledBot:
    name: str
    spec: str
    """A bundled bot's short name (:data:`clients.run.PRESETS`) or module.path:ClassName."""
    args: dict[str, object]
    processes: int = 1
    """Processes of this bot, each one connection of its own: the tables are shared out
    between them (a search needs a core; the others hardly use one)."""


SEARCH_PROCESSES = min(4, default_jobs())
"""The search bot's processes: one a core, at most 4. It is the demo's slowest player (the
others answer at once), and its play is the same in any process (its draws are seeded from its
seed, the seat's hand and the cards played), so more processes only play it sooner."""

DEMO_SEARCH_BID = {"bid_samples": 40, "bid_window": 15}
"""The search bot's bid by simulation in the demo: 40 draws, the bids within 15 points of the
hand's count. The bot's own 150 draws and every bid cost about 300 ms of CPU a bid (4 players,
measured by process time), 29 s over the demo's 96 tables, which would take it past a minute
on 2 cores; this costs about 27 ms a bid (docs/search-bot.md)."""

DEMO_SEARCH_PLAY = {"replies": 0}
"""The search bot's card play in the demo: no heuristic replies as taker (the bot's default
with 4 players, docs/search-bot.md, "Issue 28, seventh session"): at the demo's 40 draws they
cost a taker's card decision about four times the CPU, which the demo's 96 tables on 2 cores
cannot spare."""

BUNDLED = (
    # fixed samples: the demo's results stay reproducible
    BundledBot("search", "search", {**DEMO_SEARCH_BID, **DEMO_SEARCH_PLAY},
               processes=SEARCH_PROCESSES),
    BundledBot("heuristic", "heuristic", {}),
    BundledBot("random-1", "random", {"seed": 1}),
    BundledBot("random-2", "random", {"seed": 2}),
)


def start_bot_process(
    bot: BundledBot, port: int, token: str, max_tables: int, log: Path
) -> subprocess.Popen[bytes]:
    """A bot as its own process, connected like any remote bot; its log goes to ``log``."""
    command = [
        sys.executable, "-m", "clients.run", "--server", f"127.0.0.1:{port}",
        "--bot", bot.spec, "--max-tables", str(max_tables), "--name", bot.name,
    ]
    if bot.args:
        command += ["--bot-args", json.dumps(bot.args)]
    env = {**os.environ, "TAROT_ARENA_TOKEN": token}
    with log.open("wb") as output:
        return subprocess.Popen(command, env=env, stdin=subprocess.DEVNULL, stdout=output,
                                stderr=subprocess.STDOUT)


def stop_processes(processes: list[subprocess.Popen[bytes]], grace: float = 5.0) -> None:
    for process in processes:
        if process.poll() is None:
            process.send_signal(signal.SIGINT)
    deadline = time.monotonic() + grace
    for process in processes:
        try:
            process.wait(max(0.1, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


@dataclass(frozen=True, slots=True)
class BotProcess:
    bot_id: str
    name: str
    """Its log's name: the bot's, numbered when the bot has several processes."""
    process: subprocess.Popen[bytes]


async def wait_for_bot_processes(
    server: ArenaServer, processes: list[BotProcess], logs: Path, timeout: float,
) -> None:
    """Until every bot process is connected (as many connections of each bot as it has
    processes): ChildProcessError at once if a process dies, TimeoutError after ``timeout``
    seconds (each one clear line from the CLI)."""
    wanted = Counter(p.bot_id for p in processes)

    def all_connected() -> bool:
        connected = server.connected_bots()
        return all(connected.get(bot_id, 0) >= n for bot_id, n in wanted.items())

    with trio.move_on_after(timeout):
        while True:
            with trio.move_on_after(0.2):
                while not all_connected():
                    await server.wait_change()
                return
            for p in processes:
                if p.process.poll() is not None:
                    raise ChildProcessError(
                        f"the bot process {p.name} exited with status {p.process.returncode} "
                        f"before connecting: {_last_line(logs / f'{p.name}.log')}"
                    )
    raise TimeoutError(
        f"the bot processes did not all connect within {timeout:g} s (their logs: {logs}/)"
    )


def _last_line(log: Path) -> str:
    lines = log.read_text(errors="replace").strip().splitlines()
    return lines[-1] if lines else "(empty log)"


def run_demo(
    *, boards: int, seed: int, out: Path, per_decision: float, console: Console,
    concurrency: int = 8,
) -> tuple[str, Standings]:
    out.mkdir(parents=True, exist_ok=True)
    database = out / "arena.db"
    for stale in [*out.glob("arena.db*"), *out.glob("export/tour_*.json"),
                  *out.glob("export/tour_*.csv")]:
        stale.unlink()  # the previous run's database and export
    engine = make_engine(f"sqlite:///{database}")
    registry = BotRegistry(engine)
    store = TournamentStore(engine)
    registered = [(bot, *registry.register(bot.name, owner="bundled")) for bot in BUNDLED]
    settings = TournamentSettings(
        name="demo", bots=tuple(summary.id for _, summary, _ in registered),
        seating=Seating.ROTATION, players=4, boards=boards, seed=seed,
        per_decision=per_decision,
    )
    tournament_id = store.create(settings)
    console.print(
        f"[bold]Tarot Arena demo[/bold]: {len(BUNDLED)} bundled bots, {boards} boards in "
        f"rotation ({boards * len(BUNDLED)} tables), database {database}"
    )
    launched: list[BotProcess] = []
    processes: list[subprocess.Popen[bytes]] = []

    async def main() -> Standings:
        server = ArenaServer(registry, host="127.0.0.1", port=0)
        async with trio.open_nursery() as nursery:
            port = await nursery.start(server.serve)
            try:
                logs = out / "bots"
                logs.mkdir(exist_ok=True)
                for bot, summary, token in registered:
                    for n in range(bot.processes):
                        name = bot.name if bot.processes == 1 else f"{bot.name}-{n + 1}"
                        process = start_bot_process(bot, port, token,
                                                    -(-concurrency // bot.processes),
                                                    logs / f"{name}.log")
                        processes.append(process)
                        launched.append(BotProcess(summary.id, name, process))
                await wait_for_bot_processes(server, launched, logs, timeout=60)
                console.print(f"arena on 127.0.0.1:{port}: all {len(registered)} bots connected "
                              f"({len(processes)} processes; their logs: {logs}/)")
                standings = await run_with_progress(
                    store, RemoteArena(server), tournament_id, concurrency, 60.0, console
                )
            finally:
                with trio.CancelScope(shield=True):
                    await trio.to_thread.run_sync(stop_processes, processes)
            nursery.cancel_scope.cancel()
        return standings

    started = time.monotonic()
    try:
        standings = trio.run(until_told_to_stop, main)
    finally:
        stop_processes(processes)
    elapsed = time.monotonic() - started
    print_standings(console, store, tournament_id, standings)
    paths = export_tournament(store, tournament_id, out / "export")
    console.print("export:")
    for path in paths:
        console.print(f"  {path}", soft_wrap=True)
    console.print(f"played {boards * len(BUNDLED)} tables in {elapsed:.1f} s")
    first_table = store.tables(tournament_id)[0][0].id
    for line in next_steps(tournament_id, first_table, database):
        console.print(line, highlight=False)
    return tournament_id, standings


def next_steps(tournament_id: str, table_id: str, database: Path) -> list[str]:
    """The demo's closing lines: ``make demo`` ran in the virtualenv, but the user's shell is
    not in it, so ``tarot-arena`` is not on its PATH yet."""
    script = Path(sys.executable).parent / "tarot-arena"
    shown = os.path.relpath(script) if not os.path.relpath(script).startswith("..") else script
    activate = Path(shown).parent / "activate"
    return [
        "",
        f"Explore it: tarot-arena lives in the virtualenv: run [bold]. {activate}[/bold] first "
        f"(or call [bold]{shown}[/bold] directly), then:",
        f"  export TAROT_ARENA_DB=sqlite:///{database}",
        f"  tarot-arena standings {tournament_id}",
        f"  tarot-arena tournament tables {tournament_id}",
        f"  tarot-arena replay {table_id}",
        "The web page (standings, the plot, every board and replay): run",
        f"  tarot-arena web --db sqlite:///{database}",
        "and open http://127.0.0.1:8080 (--port to choose another).",
        "Write your own bot: docs/bot-guide.md",
    ]
