"""The web page's standings of a 10,000-table tournament: server time per page load.

A rotation tournament of 2,500 boards (4 bots, 10,000 tables) is stored in a fresh SQLite
database (or ``--db``), every table finished with its seats' scores and every decision, a few
of them infractions, as the arena's runner commits them. The results are copied from deals
played in-process by random bots (``--played`` of them, in turn): what the page costs depends
on the rows it reads, not on which cards were dealt.

Figures, each the median of ``--repeat`` loads, measured inside the process through the ASGI
app (server time: no network, no browser):

- **cold**: the standings not cached (a first visit, or a table has just finished and the
  background refresh has not yet run): reads every table and seat, computes the standings,
  the plot and the crosstable, renders the page;
- **warm**: the next loads, nothing changed: one ``GROUP BY`` finds the cached standings (a
  running tournament someone looked at is recomputed in the background as soon as a table
  finishes, so its visitors get this figure too);
- **baseline**, in the same run: the CLI's standings of the same tournament
  (``tournaments.cli.export.standings_of``: ``TournamentStore.entries`` and the same
  ``compute_standings``), i.e. what the arena already spends to show them in a terminal.

Target: a load under 300 ms. Prints one JSON line.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import trio
from sqlalchemy import insert, update
from sqlmodel import Session, col, select

from arena.games.french_tarot import format_action
from arena.storage.bots import BotRegistry
from arena.storage.db import make_engine
from arena.storage.models import ArenaTable, Decision, TableSeat, TableStatus, TournamentStatus
from arena.table import TableOutcome
from clients.local import board_deal, play_local
from clients.random_bot import RandomBot
from tournaments.cli.export import standings_of
from tournaments.duplicate.settings import TournamentSettings
from tournaments.store import TournamentStore
from tournaments.web import create_app


def _played(count: int) -> list[TableOutcome]:
    settings = TournamentSettings(name="sample", bots=("a", "b", "c", "d"), boards=count)

    async def play() -> list[TableOutcome]:
        return [
            await play_local(board_deal(0, board, settings.table_options),
                             settings.table_options, [RandomBot(s) for s in range(4)])
            for board in range(count)
        ]

    return trio.run(play)


def build(url: str, tables: int, played: int) -> tuple[TournamentStore, str]:
    engine = make_engine(url)
    store = TournamentStore(engine)
    registry = BotRegistry(engine)
    bots = tuple(registry.register(f"bench-{i}")[0].id for i in range(4))
    tid = store.create(TournamentSettings(name="bench web", bots=bots, boards=tables // 4))
    outcomes = _played(played)
    with Session(engine) as session:
        ids = list(session.exec(
            select(ArenaTable.id).where(ArenaTable.tournament_id == tid)
            .order_by(col(ArenaTable.board_number), col(ArenaTable.number))
        ))
        for start in range(0, len(ids), 500):
            chunk = ids[start:start + 500]
            seats: list[dict[str, Any]] = []
            decisions: list[dict[str, Any]] = []
            for i, table_id in enumerate(chunk, start=start):
                outcome = outcomes[i % len(outcomes)]
                session.execute(
                    update(ArenaTable).where(col(ArenaTable.id) == table_id).values(
                        status=TableStatus.DONE, outcome=outcome.result.outcome.value,
                        record_json=outcome.record.dumps()))
                faulty = 1 if i % 97 == 0 else 0  # about 1 % of tables: one infraction
                for seat, score in enumerate(outcome.result.scores):
                    seats.append({"t": table_id, "s": seat, "score": score,
                                  "n": faulty if seat == 0 else 0})
                for d in outcome.decisions:
                    bad = faulty and d.seat == 0 and d.index == outcome.decisions[-4].index
                    decisions.append({
                        "table_id": table_id, "index": d.index, "seat": d.seat,
                        "action": format_action(d.action), "seconds": round(d.seconds, 6),
                        "infraction": "timeout" if bad else None,
                        "reason": "no answer within 1.000 s" if bad else None})
            for row in seats:
                session.execute(
                    update(TableSeat).where(col(TableSeat.table_id) == row["t"],
                                            col(TableSeat.seat) == row["s"])
                    .values(score=row["score"], infractions=row["n"]))
            session.execute(insert(Decision), decisions)
        session.commit()
    store.set_status(tid, TournamentStatus.FINISHED)
    return store, tid


async def _load(app: Any, path: str) -> tuple[float, int, int]:
    """One GET through the ASGI app: (seconds, status, body bytes)."""
    sent: list[dict[str, Any]] = []

    async def receive() -> dict[str, Any]:
        return {"type": "http.request", "body": b"", "more_body": False}

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    scope = {"type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1",
             "method": "GET", "scheme": "http", "path": path, "raw_path": path.encode(),
             "query_string": b"", "root_path": "", "headers": [(b"host", b"bench")],
             "client": ("127.0.0.1", 1), "server": ("bench", 80)}
    began = time.perf_counter()
    await app(scope, receive, send)
    seconds = time.perf_counter() - began
    status = next(m["status"] for m in sent if m["type"] == "http.response.start")
    body = sum(len(m.get("body", b"")) for m in sent if m["type"] == "http.response.body")
    return seconds, status, body


def measure(store: TournamentStore, tid: str, repeat: int) -> dict[str, Any]:
    path = f"/tournaments/{tid}"

    async def loads() -> tuple[list[float], list[float], int]:
        cold, warm = [], []
        size = 0
        app = create_app(store.engine)
        await _load(app, path)  # templates compiled, t quantiles computed: once per process
        for _ in range(repeat):
            app.state.page.data.forget()  # as after a table finished
            seconds, status, size = await _load(app, path)
            assert status == 200, status
            cold.append(seconds)
            for _ in range(3):
                seconds, status, _ = await _load(app, path)
                assert status == 200, status
                warm.append(seconds)
        return cold, warm, size

    cold, warm, size = trio.run(loads)
    baseline = []
    for _ in range(repeat):
        began = time.perf_counter()
        standings_of(store, tid)
        baseline.append(time.perf_counter() - began)
    ms = {name: statistics.median(v) * 1000 for name, v in
          (("cold", cold), ("warm", warm), ("baseline", baseline))}
    return {
        "cold_ms": round(ms["cold"], 1),
        "warm_ms": round(ms["warm"], 1),
        "baseline_cli_standings_ms": round(ms["baseline"], 1),
        "cold_vs_baseline": round(ms["cold"] / ms["baseline"], 2),
        "warm_vs_baseline": round(ms["warm"] / ms["baseline"], 3),
        "page_kb": round(size / 1024, 1),
        "target_ms": 300,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=10_000)
    parser.add_argument("--played", type=int, default=64, help="deals played to copy from")
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--db", help="URL of an empty database to fill (default: a fresh "
                                     "SQLite file)")
    parser.add_argument("--quick", action="store_true", help="1,000 tables, 3 loads")
    args = parser.parse_args(argv)
    if args.quick:
        args.tables, args.repeat = 1_000, 3
    if args.tables < 4 or args.tables % 4:
        parser.error("--tables must be a positive multiple of 4 (4 bots in rotation)")
    with tempfile.TemporaryDirectory() as folder:
        url = args.db or f"sqlite:///{Path(folder) / 'bench.db'}"
        began = time.perf_counter()
        store, tid = build(url, args.tables, args.played)
        built = time.perf_counter() - began
        figures = measure(store, tid, args.repeat)
        store.engine.dispose()
    print(json.dumps({"bench": "web", "tables": args.tables, "boards": args.tables // 4,
                      "database": url.split(":", 1)[0], "build_s": round(built, 1),
                      **figures}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
