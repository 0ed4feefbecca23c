"""Tournaments end to end: reproducible run after run, and resumed after a SIGKILL.

Bots are the seeded RandomBot, whose choices depend only on the cards (not on table ids or
timing), so two runs of the same settings must store identical deal logs and standings.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest
import trio
from sqlmodel import Session, func, select

from arena.games.french_tarot import replay
from arena.storage.bots import BotRegistry
from arena.storage.db import make_engine
from arena.storage.models import Decision, TournamentStatus
from arena.transport.server import ArenaServer
from clients.random_bot import RandomBot
from clients.sdk import ArenaClient, Backoff
from tournaments.duplicate.scoring import Standings
from tournaments.duplicate.settings import Seating, TournamentSettings
from tournaments.play.remote import RemoteArena
from tournaments.play.runner import TournamentRunner
from tournaments.store import TournamentStore

ROOT = Path(__file__).resolve().parents[2]


def register(store: TournamentStore, names: list[str]) -> list[tuple[str, str]]:
    registry = BotRegistry(store.engine)
    return [(s.id, token) for s, token in (registry.register(n) for n in names)]


async def run_in_process(
    db_url: str, seating: Seating, bots: int, boards: int, seed: int
) -> tuple[TournamentStore, str, Standings]:
    store = TournamentStore(make_engine(db_url))
    registered = register(store, [f"random-{i}" for i in range(bots)])
    settings = TournamentSettings(
        name="repro", bots=tuple(b for b, _ in registered), seating=seating, boards=boards,
        seed=seed, per_decision=5.0,
    )
    tid = store.create(settings)
    server = ArenaServer(BotRegistry(store.engine))
    async with trio.open_nursery() as nursery:
        port = await nursery.start(server.serve)
        for index, (_, token) in enumerate(registered):
            client = ArenaClient(RandomBot(seed=index), f"127.0.0.1:{port}", token,
                                 max_tables=8, backoff=Backoff(0.05, 0.2))
            await nursery.start(client.run)
        with trio.fail_after(120):
            standings = await TournamentRunner(store, RemoteArena(server), tid, concurrency=6).run()
        nursery.cancel_scope.cancel()
    return store, tid, standings


def logs(store: TournamentStore, tid: str) -> list[tuple[int, int, list[object]]]:
    """(board, table number, the deal record without ids) of every table."""
    out = []
    for table, _ in store.tables(tid):
        assert table.record_json is not None
        out.append((table.board_number, table.number, json.loads(table.record_json)))
    return out


def standings_without_ids(store: TournamentStore, tid: str, standings: Standings) -> list[object]:
    order = list(store.settings(tid).bots)
    return [(order.index(r.bot_id), round(r.per_board.mean, 6), round(r.total, 6),
             r.matchpoint_pct, r.boards) for r in standings.rows]


@pytest.mark.parametrize(("seating", "bots"), [(Seating.ROTATION, 4), (Seating.FIELD, 6)])
async def test_same_seed_settings_and_bots_give_identical_logs_and_standings(
    tmp_path: Path, db_url: str, seating: Seating, bots: int
) -> None:
    # the second run is on the parametrized backend: SQLite again, or PostgreSQL
    first = await run_in_process(f"sqlite:///{tmp_path}/a.db", seating, bots, 4, seed=77)
    second = await run_in_process(db_url, seating, bots, 4, seed=77)
    for store, tid, _ in (first, second):
        assert store.tournament(tid).status is TournamentStatus.FINISHED
    assert first[1] != second[1]  # different tournaments, different table ids...
    assert logs(first[0], first[1]) == logs(second[0], second[1])  # ...the same deals played
    assert standings_without_ids(*first) == standings_without_ids(*second)
    boards_a = [(b.deal_seed, b.deal_json) for b in first[0].boards(first[1])]
    assert boards_a == [(b.deal_seed, b.deal_json) for b in second[0].boards(second[1])]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start_arena(db_url: str, tid: str, port: int, log: Path) -> subprocess.Popen[bytes]:
    command = [sys.executable, "-m", "tournaments.cli", "--db", db_url, "tournament", "run",
               tid, "--port", str(port), "--concurrency", "4"]
    with log.open("ab") as output:
        return subprocess.Popen(command, cwd=ROOT, stdout=output, stderr=subprocess.STDOUT)


def start_bot(port: int, token: str, seed: int, log: Path) -> subprocess.Popen[bytes]:
    command = [sys.executable, "-m", "clients.run", "--server", f"127.0.0.1:{port}",
               "--bot", "clients.random_bot:RandomBot", "--bot-args", json.dumps({"seed": seed}),
               "--max-tables", "8", "--log-level", "WARNING"]
    env = {**os.environ, "TAROT_ARENA_TOKEN": token}
    with log.open("ab") as output:
        return subprocess.Popen(command, cwd=ROOT, env=env, stdout=output,
                                stderr=subprocess.STDOUT)


def test_a_tournament_resumes_after_the_arena_is_killed(tmp_path: Path) -> None:
    db_url = f"sqlite:///{tmp_path}/arena.db"
    store = TournamentStore(make_engine(db_url))
    registered = register(store, [f"random-{i}" for i in range(4)])
    boards = 5
    settings = TournamentSettings(name="kill", bots=tuple(b for b, _ in registered),
                                  boards=boards, seed=5, per_decision=5.0)
    tid = store.create(settings)
    port = free_port()
    log = tmp_path / "processes.log"
    bots = [start_bot(port, token, i, log) for i, (_, token) in enumerate(registered)]
    try:
        arena = start_arena(db_url, tid, port, log)
        deadline = time.monotonic() + 60
        while store.progress(tid).done < 6:
            assert arena.poll() is None, log.read_text()
            assert time.monotonic() < deadline, "the arena played nothing in 60 s"
            time.sleep(0.02)
        arena.send_signal(signal.SIGKILL)
        arena.wait(10)
        killed_at = store.progress(tid)
        assert 6 <= killed_at.done < boards * 4, "the kill came too late to test anything"
        second = start_arena(db_url, tid, port, log)
        assert second.wait(120) == 0, log.read_text()
    finally:
        for process in bots:
            process.send_signal(signal.SIGINT)
        for process in bots:
            try:
                process.wait(10)
            except subprocess.TimeoutExpired:
                process.kill()
    done = store.progress(tid)
    assert (done.pending, done.running, done.done) == (0, 0, boards * 4)
    assert store.tournament(tid).status is TournamentStatus.FINISHED
    # every finished deal stored exactly once, with its whole log, and replayable
    with Session(store.engine) as session:
        decisions = session.exec(select(func.count()).select_from(Decision)).one()
    total_actions = 0
    for table, seats in store.tables(tid):
        record = store.record(table.id)
        state = replay(record)
        assert state.result is not None
        assert [s.score for s in seats] == list(state.result.scores)
        total_actions += len(record.actions)
    assert decisions == total_actions
    # as complete as an uninterrupted run: same deals, same standings
    reference = trio.run(run_in_process, f"sqlite:///{tmp_path}/ref.db", Seating.ROTATION, 4,
                         boards, 5)
    assert logs(store, tid) == logs(reference[0], reference[1])
    from tournaments.cli.export import standings_of

    assert standings_without_ids(store, tid, standings_of(store, tid)) == (
        standings_without_ids(*reference)
    )


def test_tournament_run_without_its_bots_names_them_and_gives_up_resumable(
    tmp_path: Path,
) -> None:
    db_url = f"sqlite:///{tmp_path}/arena.db"
    store = TournamentStore(make_engine(db_url))
    registered = register(store, ["alice", "bob", "carol", "dave"])
    tid = store.create(TournamentSettings(name="lonely", bots=tuple(b for b, _ in registered),
                                          boards=2))
    command = [sys.executable, "-m", "tournaments.cli", "--db", db_url, "tournament", "run",
               tid, "--port", "0", "--seat-timeout", "1.5"]
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 1, done.stdout + done.stderr
    assert "waiting for: alice, bob, carol, dave" in done.stdout  # from the start, by name
    assert done.stderr.strip().splitlines() == [
        f"error: gave up after 1.5 s with nothing to play: 8 tables of {tid} wait for 4 bots "
        "not connected (alice, bob, carol, dave); nothing is lost, run the tournament again "
        "to resume it"
    ]
    assert store.tournament(tid).status is TournamentStatus.CREATED
    assert store.progress(tid).pending == 8


@pytest.mark.parametrize("db_url", ["postgres"], indirect=True)
def test_two_arena_processes_on_postgres_each_play_the_tables_of_their_bots(
    tmp_path: Path, db_url: str
) -> None:
    # gauntlet: the reference is connected to both arenas, the candidate only to the second,
    # so the first can seat only the control tables (reference alone)
    store = TournamentStore(make_engine(db_url))
    (candidate, candidate_token), (reference, reference_token) = register(
        store, ["candidate", "reference"]
    )
    boards = 6
    tid = store.create(TournamentSettings(name="split", bots=(candidate, reference),
                                          seating=Seating.GAUNTLET, boards=boards, seed=3,
                                          per_decision=5.0))
    ports = free_port(), free_port()
    log = tmp_path / "processes.log"
    processes = []

    def arena(port: int) -> subprocess.Popen[bytes]:
        command = [sys.executable, "-m", "tournaments.cli", "--db", db_url, "tournament", "run",
                   tid, "--port", str(port), "--concurrency", "4", "--seat-timeout", "90"]
        output = (tmp_path / f"arena-{port}.log").open("wb")
        return subprocess.Popen(command, cwd=ROOT, stdout=output, stderr=subprocess.STDOUT)

    try:
        first = arena(ports[0])
        processes.append(first)
        processes.append(start_bot(ports[0], reference_token, 0, log))
        deadline = time.monotonic() + 60
        while store.progress(tid).done < 1:
            assert first.poll() is None, (tmp_path / f"arena-{ports[0]}.log").read_text()
            assert time.monotonic() < deadline, "the first arena played nothing in 60 s"
            time.sleep(0.05)
        second = arena(ports[1])
        processes.append(second)
        processes.append(start_bot(ports[1], candidate_token, 1, log))
        processes.append(start_bot(ports[1], reference_token, 2, log))
        assert second.wait(180) == 0, (tmp_path / f"arena-{ports[1]}.log").read_text()
        assert first.wait(60) == 0, (tmp_path / f"arena-{ports[0]}.log").read_text()
    finally:
        for process in processes:
            if process.poll() is None:
                process.send_signal(signal.SIGINT)
        for process in processes:
            try:
                process.wait(10)
            except subprocess.TimeoutExpired:
                process.kill()
    first_log = (tmp_path / f"arena-{ports[0]}.log").read_text()
    assert "waiting for: candidate" in first_log
    done = store.progress(tid)
    assert (done.pending, done.running, done.done) == (0, 0, boards * 5)
    assert store.tournament(tid).status is TournamentStatus.FINISHED
    by_arena: dict[str, list[str]] = {}
    total_actions = 0
    for table, seats in store.tables(tid):
        assert table.claimed_by is not None
        pid = table.claimed_by.split(":")[1]
        by_arena.setdefault(pid, []).append(table.id)
        if pid == str(first.pid):
            assert {s.bot_id for s in seats} == {reference}  # it could seat nothing else
        record = store.record(table.id)
        assert [s.score for s in seats] == list(replay(record).result.scores)  # type: ignore[union-attr]
        total_actions += len(record.actions)
    assert set(by_arena) == {str(first.pid), str(second.pid)}
    with Session(store.engine) as session:  # every deal stored exactly once
        assert session.exec(select(func.count()).select_from(Decision)).one() == total_actions


def test_serve_plays_what_it_can_and_comes_back_when_the_missing_bot_connects(
    tmp_path: Path,
) -> None:
    db_url = f"sqlite:///{tmp_path}/arena.db"
    store = TournamentStore(make_engine(db_url))
    registered = register(store, ["alice", "bob", "carol", "dave", "ghost"])
    ids = [b for b, _ in registered]
    waiting = store.create(TournamentSettings(name="needs-ghost",
                                              bots=(ids[0], ids[1], ids[2], ids[4]), boards=2))
    playable = store.create(TournamentSettings(name="ready", bots=tuple(ids[:4]), boards=2))
    port = free_port()
    log = tmp_path / "processes.log"
    command = [sys.executable, "-m", "tournaments.cli", "--db", db_url, "serve", "--port",
               str(port), "--concurrency", "4"]
    serve_log = tmp_path / "serve.log"
    with serve_log.open("wb") as output:
        serve = subprocess.Popen(command, cwd=ROOT, stdout=output, stderr=subprocess.STDOUT)
    processes = [start_bot(port, token, i, log) for i, (_, token) in enumerate(registered[:4])]
    try:
        deadline = time.monotonic() + 90
        while store.tournament(playable).status is not TournamentStatus.FINISHED:
            assert serve.poll() is None, serve_log.read_text()
            assert time.monotonic() < deadline, serve_log.read_text()
            time.sleep(0.05)
        time.sleep(0.5)
        assert serve.poll() is None, serve_log.read_text()  # still serving
        assert "needs-ghost: waiting for: ghost" in serve_log.read_text()
        assert store.tournament(waiting).status is TournamentStatus.CREATED  # nothing plays
        assert store.progress(waiting).pending == 8
        processes.append(start_bot(port, registered[4][1], 4, log))
        while store.tournament(waiting).status is not TournamentStatus.FINISHED:
            assert serve.poll() is None, serve_log.read_text()
            assert time.monotonic() < deadline, serve_log.read_text()
            time.sleep(0.05)
    finally:
        for process in [serve, *processes]:
            process.send_signal(signal.SIGINT)
        for process in [serve, *processes]:
            try:
                process.wait(10)
            except subprocess.TimeoutExpired:
                process.kill()
    assert store.progress(waiting).done == store.progress(playable).done == 8
